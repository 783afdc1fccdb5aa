//! End to end: one `xodus-ai --fill` process plays all four AI seats of a
//! game on a real `xodus-server`; the server is killed with SIGKILL in the
//! middle of the game and restarted on the same data directory and port.
//! The same agent process must reconnect with backoff, keep its seat
//! tokens and play on: the game's sequence number keeps advancing after
//! the restart. Also: a submit refused with a retryable code while the
//! game's stream stays up (here the per-address rate limit) makes the
//! seat reconnect, not wait forever. Binaries are found next to the test
//! executable, so build them first: `cargo build --workspace --bins`.

mod common;

use common::{Agent, Server, create_from, game_request, state, temp_dir};
use std::path::Path;
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;
use tonic::transport::Channel;

/// The game must have advanced this far before the kill.
const BEFORE_KILL: u64 = 10;
/// Decisions the agent must make after the restart (unless the game ends first).
const AFTER_RESTART: u64 = 30;
/// Decisions the agent must make while the rate limit refuses some of its
/// requests (unless the game ends first).
const REFUSED_TARGET: u64 = 12;
/// A hang guard for each wait, not a speed check.
const HANG_GUARD: Duration = Duration::from_secs(180);

/// Holds the port of `addr` while its server is down, best effort: a bound
/// socket that does not listen, so the agent's connections are refused as
/// with no server at all, yet no other socket of the machine (another
/// test's server or client) is handed the port in the meantime.
fn reserve(addr: &str) -> Option<tokio::net::TcpSocket> {
    let addr: std::net::SocketAddr = addr.parse().ok()?;
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.set_reuseaddr(true).ok()?;
    socket.bind(addr).ok()?;
    Some(socket)
}

/// Restarts a server on `dir` at the fixed address `listen`, trying again
/// (within the hang guard) while the address is not free yet.
async fn restart_at(dir: &Path, listen: &str) -> Server {
    let start = std::time::Instant::now();
    loop {
        match Server::try_start_at(dir.to_path_buf(), listen, &[]) {
            Ok(server) => return server,
            Err(why) if start.elapsed() > HANG_GUARD => panic!("no restart on {listen}: {why}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Starts `xodus-ai --fill` (heuristic) on `url`, logging to `dir/ai.log`.
fn spawn_agent(url: &str, dir: &Path) -> Agent {
    Agent::spawn_fill(url, dir, "heuristic")
}

/// The agent's and the server's logs, for failure messages.
fn logs(dir: &Path) -> String {
    let ai = std::fs::read_to_string(dir.join("ai.log")).unwrap_or_default();
    let server = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    format!("agent log:\n{ai}\n--- server log:\n{server}")
}

/// Polls the spectator's state every `every` until its seq reaches
/// `at_least` or the game ends, within the hang guard.
async fn wait_for_seq(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    at_least: u64,
    every: Duration,
    dir: &Path,
) -> pb::GameState {
    let wait = async {
        loop {
            // The rate limit is per client address, shared with the agent
            // on this machine: a refused poll is simply tried again.
            let view = c
                .get_view(pb::GetViewRequest { game_id: game_id.into(), credentials: None, ..Default::default() })
                .await;
            match view {
                Ok(v) => {
                    let s = v.into_inner().state.expect("state");
                    if s.seq >= at_least || s.outcome.is_some() {
                        return s;
                    }
                }
                Err(e) => assert_eq!(e.code(), tonic::Code::ResourceExhausted, "{e:?}"),
            }
            tokio::time::sleep(every).await;
        }
    };
    match tokio::time::timeout(HANG_GUARD, wait).await {
        Ok(s) => s,
        Err(_) => panic!("the game did not reach seq {at_least}; {}", logs(dir)),
    }
}

#[tokio::test]
async fn fill_agent_reconnects_and_plays_on_after_a_server_restart() {
    // Port 0 at first; the restart reuses the port the system handed out.
    let server = Server::start("ai_reconnect");
    let listen = server.addr().to_string();
    let dir = server.data_dir.clone();
    let mut c = server.client().await;
    let game_id = create_from(&mut c, game_request(11, &[pb::SeatOpenTo::Ai; 4])).await;

    let mut agent = spawn_agent(&server.url, &dir);

    let poll = Duration::from_millis(20);
    let before = wait_for_seq(&mut c, &game_id, BEFORE_KILL, poll, &dir).await;
    assert!(before.outcome.is_none(), "the game ended before the kill: {:?}; {}", before.outcome, logs(&dir));
    drop(c);
    let dir = server.kill9();
    let held = reserve(&listen);
    tokio::time::sleep(Duration::from_secs(1)).await;
    drop(held);

    // Same data directory, same address: the agent only knows the URL.
    let server = restart_at(&dir, &listen).await;
    let mut c = server.client().await;
    let resumed = state(&mut c, &game_id).await;
    assert!(resumed.seq >= before.seq, "seq {} before the kill, {} after the restart", before.seq, resumed.seq);
    assert!(resumed.outcome.is_none(), "the game ended before the restart: {:?}", resumed.outcome);

    let after = wait_for_seq(&mut c, &game_id, resumed.seq + AFTER_RESTART, poll, &dir).await;
    assert!(after.seq > resumed.seq, "no choice after the restart; {}", logs(&dir));
    if let Some(o) = &after.outcome {
        assert!(["rift_sealed", "corruption_risen", "all_ships_destroyed"].contains(&o.cause.as_str()), "{o:?}");
    }

    // The very same process played on (the daemon never exits by itself),
    // and every seat is still held by an AI: nothing was handed elsewhere.
    let exited = agent.0.try_wait().expect("agent status");
    assert!(exited.is_none(), "the agent exited: {exited:?}; {}", logs(&dir));
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: game_id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    let summary = h.game.expect("game");
    for info in &summary.seats {
        assert!(info.claimed && info.claimed_by == pb::Claimant::Ai as i32, "seat {}: {info:?}", info.seat);
    }
    assert!(h.entries.len() as u64 >= after.seq, "history shorter than the seq");
    drop(agent);
}

#[tokio::test]
async fn a_refused_submit_on_a_live_stream_makes_the_seat_reconnect() {
    // Eight requests per second per client address, shared by the four
    // seats the agent plays and this test's polling: a seat taking its turn
    // submits faster than that and is refused (RESOURCE_EXHAUSTED, which
    // the agent retries) while its stream stays up. It must drop that
    // stream and reconnect rather than wait on it.
    let server = Server::start_in(temp_dir("ai_refused"), &["--rate-limit", "8"]);
    let dir = server.data_dir.clone();
    let mut c = server.client().await;
    let game_id = create_from(&mut c, game_request(12, &[pb::SeatOpenTo::Ai; 4])).await;
    let _agent = spawn_agent(&server.url, &dir);
    // Polled slowly, so this client stays under the limit itself.
    let s = wait_for_seq(&mut c, &game_id, REFUSED_TARGET, Duration::from_millis(500), &dir).await;
    assert!(s.seq > 0, "no choice at all; {}", logs(&dir));
}
