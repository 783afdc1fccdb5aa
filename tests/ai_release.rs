//! End to end: an `xodus-ai --fill` process that is stopped (SIGTERM, as a
//! supervisor or Ctrl-C would) hands back the seats it claimed, so they
//! open again at once for another agent or a human instead of holding the
//! game up with tokens nobody plays. A real server, a real agent process,
//! real gRPC over loopback. Binaries are found next to the test
//! executable, so build them first: `cargo build --workspace --bins`.

mod common;

use common::{Agent, Server, create_from, game_request};
use std::time::{Duration, Instant};
use tabletop::pb;

/// A hang guard for each wait, not a speed check.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// The game's seats as the lobby lists them.
async fn seats(server: &Server, game_id: &str) -> Vec<pb::SeatInfo> {
    let mut c = server.client().await;
    let games = c
        .list_games(pb::ListGamesRequest { status: 0, only_open_seats: false, ..Default::default() })
        .await
        .expect("list");
    let game = games.into_inner().games.into_iter().find(|g| g.game_id == game_id).expect("the game is listed");
    game.seats
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_agent_hands_its_seats_back() {
    let server = Server::start("ai-release");
    let mut c = server.client().await;
    // Seat 0 waits for a human who never comes, so the game does not
    // start and the agent just holds seats 1 and 2.
    let open = [pb::SeatOpenTo::Human, pb::SeatOpenTo::Ai, pb::SeatOpenTo::Ai];
    let game_id = create_from(&mut c, game_request(5, &open)).await;
    let log_path = server.data_dir.join("ai.log");
    let mut agent = Agent::spawn_fill(&server.url, &server.data_dir, "random");
    let agent_log = || std::fs::read_to_string(&log_path).unwrap_or_default();

    let start = Instant::now();
    loop {
        let s = seats(&server, &game_id).await;
        if s[1].claimed && s[2].claimed {
            assert_eq!(s[1].claimed_by, pb::Claimant::Ai as i32);
            assert!(!s[0].claimed, "the human seat is not the agent's to take");
            break;
        }
        assert!(start.elapsed() < HANG_GUARD, "the agent never claimed seats 1 and 2; its log:\n{}", agent_log());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let status = agent.terminate(HANG_GUARD);
    assert!(status.success(), "the agent stops cleanly on SIGTERM: {status:?}; its log:\n{}", agent_log());
    let s = seats(&server, &game_id).await;
    assert!(
        s.iter().all(|seat| !seat.claimed),
        "every seat is open again after the agent stopped: {s:?}; its log:\n{}",
        agent_log()
    );
    assert_eq!(agent_log().matches("seat released").count(), 2, "log:\n{}", agent_log());
}
