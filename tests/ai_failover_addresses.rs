//! End to end: `xodus-ai --fill` given several server addresses
//! (`--server A,B`, issue #51). With a dead address first and a live one
//! second, it plays a game to its end. With its first server killed
//! (SIGKILL) in the middle of a game, it moves to the second address and
//! finishes the game there: the second server is started on the first
//! one's data directory (two independent SQLite servers share no games; a
//! multi-node PostgreSQL deployment shares them for real), at an address
//! the agent has only ever seen refuse. Binaries are found next to the
//! test executable, so build them first: `cargo build --workspace --bins`.

mod common;

use common::{Agent, Server, create_from, game_request, state};
use std::path::Path;
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;
use tonic::transport::Channel;

/// A hang guard for each wait, not a speed check.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// The game must have advanced this far before the kill.
const BEFORE_KILL: u64 = 10;

/// The ways a game of X-ODUS ends.
const CAUSES: [&str; 3] = ["rift_sealed", "corruption_risen", "all_ships_destroyed"];

/// An address that refuses connections, held for the test: a bound
/// socket that does not listen, so no other socket of the machine (another
/// test's server or client) is handed the port meanwhile.
fn refusing() -> (tokio::net::TcpSocket, String) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_reuseaddr(true).expect("reuseaddr");
    socket.bind("127.0.0.1:0".parse().expect("addr")).expect("bind");
    let addr = socket.local_addr().expect("addr").to_string();
    (socket, addr)
}

/// The agent's and the servers' logs, for failure messages.
fn logs(dir: &Path) -> String {
    let ai = std::fs::read_to_string(dir.join("ai.log")).unwrap_or_default();
    let server = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    format!("agent log:\n{ai}\n--- server log:\n{server}")
}

/// Polls the spectator's state until `done` says so, within the hang
/// guard.
async fn wait_until(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    dir: &Path,
    what: &str,
    done: impl Fn(&pb::GameState) -> bool,
) -> pb::GameState {
    let wait = async {
        loop {
            let s = state(c, game_id).await;
            if done(&s) {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    match tokio::time::timeout(HANG_GUARD, wait).await {
        Ok(s) => s,
        Err(_) => panic!("{what} never happened; {}", logs(dir)),
    }
}

/// Every seat of the game is held by an AI, and the history is as long as
/// the game.
async fn assert_played_by_ai(c: &mut GameServiceClient<Channel>, game_id: &str, end: &pb::GameState) {
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: game_id.into(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    let summary = h.game.expect("game");
    for info in &summary.seats {
        assert!(info.claimed && info.claimed_by == pb::Claimant::Ai as i32, "seat {}: {info:?}", info.seat);
    }
    assert!(h.entries.len() as u64 >= end.seq, "history shorter than the seq");
}

#[tokio::test]
async fn an_agent_given_a_dead_address_first_plays_a_game_to_its_end_on_the_live_one() {
    let (_dead_socket, dead) = refusing();
    let server = Server::start("ai_failover_dead_first");
    let dir = server.data_dir.clone();
    let mut c = server.client().await;
    let game_id = create_from(&mut c, game_request(21, &[pb::SeatOpenTo::Ai; 4])).await;

    // One connection: it starts on the first address, the dead one.
    let servers = format!("http://{dead},{}", server.url);
    let mut agent = Agent::spawn_fill_with(&servers, &dir, "heuristic", &["--connections", "1"]);

    let end = wait_until(&mut c, &game_id, &dir, "the end of the game", |s| s.outcome.is_some()).await;
    let outcome = end.outcome.clone().expect("outcome");
    assert!(CAUSES.contains(&outcome.cause.as_str()), "{outcome:?}");
    assert_played_by_ai(&mut c, &game_id, &end).await;
    let exited = agent.0.try_wait().expect("agent status");
    assert!(exited.is_none(), "the agent exited: {exited:?}; {}", logs(&dir));
}

#[tokio::test]
async fn an_agent_whose_server_is_killed_finishes_the_game_on_its_second_address() {
    // B's address refuses until B is started (with A's data directory).
    let (b_socket, b_addr) = refusing();
    let a = Server::start("ai_failover_kill");
    let dir = a.data_dir.clone();
    let mut c = a.client().await;
    let game_id = create_from(&mut c, game_request(22, &[pb::SeatOpenTo::Ai; 4])).await;

    // Four connections over two addresses: two start on B, which
    // refuses, and move to A; after the kill all of them move to B.
    let servers = format!("{},http://{b_addr}", a.url);
    let mut agent = Agent::spawn_fill_with(&servers, &dir, "heuristic", &["--connections", "4"]);

    let before =
        wait_until(&mut c, &game_id, &dir, "progress on A", |s| s.seq >= BEFORE_KILL || s.outcome.is_some()).await;
    assert!(before.outcome.is_none(), "the game ended before the kill: {:?}; {}", before.outcome, logs(&dir));
    drop(c);
    let dir = a.kill9();
    // A stays dead for good. Give the agent a moment to find both
    // addresses refusing, then let B take A's games at B's address.
    tokio::time::sleep(Duration::from_secs(1)).await;
    drop(b_socket);
    let b = Server::start_at(dir.clone(), &b_addr, &[]);
    let mut c = b.client().await;
    let resumed = state(&mut c, &game_id).await;
    assert!(resumed.seq >= before.seq, "seq {} before the kill, {} on B", before.seq, resumed.seq);
    assert!(resumed.outcome.is_none(), "the game ended before B started: {:?}", resumed.outcome);

    let end = wait_until(&mut c, &game_id, &dir, "the end of the game on B", |s| s.outcome.is_some()).await;
    assert!(end.seq > resumed.seq, "no choice on B; {}", logs(&dir));
    let outcome = end.outcome.clone().expect("outcome");
    assert!(CAUSES.contains(&outcome.cause.as_str()), "{outcome:?}");
    // The very same process played on (the daemon never exits by itself)
    // with the seats it held: nothing was handed elsewhere.
    assert_played_by_ai(&mut c, &game_id, &end).await;
    let exited = agent.0.try_wait().expect("agent status");
    assert!(exited.is_none(), "the agent exited: {exited:?}; {}", logs(&dir));
}
