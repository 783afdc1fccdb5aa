//! The real `xodus-server` on PostgreSQL (`--database postgres://…`,
//! issue 51), against a throwaway PostgreSQL started from the
//! distribution's binaries (`common/postgres.rs`): games are played, the
//! server is killed with SIGKILL and started again on the same database;
//! every acknowledged choice is there, the lobby shows the last one's seq,
//! tokens still work and the game goes on (the restarted node, under the
//! same name, takes its game's lease back with a new epoch).

mod common;
#[path = "common/postgres.rs"]
mod pg;

use common::*;
use tabletop::pb;

#[tokio::test]
async fn a_server_on_postgresql_keeps_every_acknowledged_choice_across_kill9() {
    let Some(postgres) = tokio::task::spawn_blocking(pg::TempPostgres::start_or_skip).await.expect("start") else {
        return;
    };
    let url = postgres.create_database("e2e");
    let flags = ["--database", url.as_str()];
    let server = Server::start_in(temp_dir("pg-e2e"), &flags);
    let mut c = server.client().await;
    let id = create_game(&mut c, 31).await;
    let tokens = claim_all(&mut c, &id).await;
    let mut acked = 0;
    for _ in 0..9 {
        acked = play_first(&mut c, &id, &tokens).await.seq;
    }
    let before = state(&mut c, &id).await;
    let dir = server.kill9();

    let server = Server::start_in(dir, &flags);
    let mut c = server.client().await;
    let listed = c
        .list_games(pb::ListGamesRequest::default())
        .await
        .expect("list")
        .into_inner()
        .games
        .into_iter()
        .find(|g| g.game_id == id)
        .expect("the game is listed");
    assert_eq!(listed.seq, acked, "the lobby's seq after the restart");
    let after = state(&mut c, &id).await;
    assert_eq!((after.seq, &after.state_hash), (before.seq, &before.state_hash), "the same game, bit for bit");
    let history = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), creator_token: String::new(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    assert_eq!(history.entries.len() as u64, acked);
    let next = play_first(&mut c, &id, &tokens).await;
    assert_eq!(next.seq, acked + 1, "the tokens still work and the game goes on");
}
