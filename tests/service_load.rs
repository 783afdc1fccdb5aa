//! End-to-end load: a few hundred games hosted and played at once by a real
//! `xodus-server` (SQLite storage), from several concurrent connections;
//! every game ends at the expected seq and the server lists them all.

mod common;

use common::*;
use tabletop::pb;

const GAMES: usize = 300;
const CONNECTIONS: usize = 10;
const CHOICES: u64 = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_few_hundred_concurrent_games() {
    // Requests queue on the one SQLite connection, so on a slow, loaded
    // machine some wait longer than the default 10 s request deadline:
    // lift it to the hang guard. On a fast one, the ~3,300 requests from
    // this one address can pass the default 2,000 a second: lift the rate
    // limit too (service_limits tests it). This test is about correctness
    // under concurrency, not speed.
    let deadline = HANG_GUARD.as_secs().to_string();
    let server = Server::start_in(temp_dir("load"), &["--request-timeout-secs", &deadline, "--rate-limit", "1000000"]);
    let started = std::time::Instant::now();
    let mut tasks = Vec::new();
    for conn in 0..CONNECTIONS {
        let client = server.client().await;
        for g in 0..GAMES / CONNECTIONS {
            let mut c = client.clone();
            let seed = (conn * 1000 + g) as u64;
            tasks.push(tokio::spawn(async move {
                let id = create_game(&mut c, seed).await;
                let tokens = claim_all(&mut c, &id).await;
                for _ in 0..CHOICES {
                    play_first(&mut c, &id, &tokens).await;
                }
                let seq = state(&mut c, &id).await.seq;
                (id, seq)
            }));
        }
    }
    for t in tasks {
        let (id, seq) = t.await.expect("game task");
        assert_eq!(seq, CHOICES, "game {id}");
    }
    let mut c = server.client().await;
    let list = pb::ListGamesRequest { page_size: GAMES as u32, ..Default::default() };
    let games = c.list_games(list).await.expect("list").into_inner().games;
    assert_eq!(games.len(), GAMES);
    assert!(games.iter().all(|g| g.seq == CHOICES && g.status == pb::GameStatus::Playing as i32));
    eprintln!("{GAMES} games, {} choices in {:?}", GAMES as u64 * CHOICES, started.elapsed());
}
