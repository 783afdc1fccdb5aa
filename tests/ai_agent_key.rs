//! Agent keys, end to end: `xodus-server --agent-key-file` trusts the AI
//! agent processes its operator handed a key to. A call carrying a known
//! key as `x-agent-key` is counted against the agent caps (streams, rate),
//! not against its address's, so one agent can follow more games than a
//! stranger at the same address may; an unknown key is UNAUTHENTICATED;
//! the key never appears in either log. The real `xodus-ai --agent-key`
//! plays more all-AI games at once than the per-address stream cap allows.

mod common;

use common::*;
use std::time::{Duration, Instant};
use tabletop::pb;
use tonic::Code;
use tonic::metadata::MetadataValue;

const KEY: &str = "k3y-for-the-fill-agent-0123456789";
/// The per-address stream cap the server is started with.
const STREAM_CAP: usize = 3;
/// All-AI games the agent plays at once: more than the stream cap.
const GAMES: usize = 5;

fn keyed<T>(msg: T, key: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(msg);
    r.metadata_mut().insert("x-agent-key", MetadataValue::try_from(key).expect("ascii"));
    r
}

#[tokio::test]
async fn an_agent_key_buys_the_agent_caps_and_a_wrong_one_is_unauthenticated() {
    let dir = temp_dir("agent-key");
    std::fs::create_dir_all(&dir).expect("dir");
    let keys = dir.join("agent-keys");
    std::fs::write(&keys, format!("# the operator's agents\nfill-1 {KEY}\n")).expect("key file");
    let cap = STREAM_CAP.to_string();
    let server = Server::start_in(
        dir.clone(),
        &["--agent-key-file", keys.to_str().expect("path"), "--max-streams-per-client", &cap],
    );
    let mut c = server.client().await;

    // An unknown key is refused, whatever the call.
    let wrong = c.list_games(keyed(pb::ListGamesRequest::default(), "not-a-key-we-handed-out")).await;
    assert_eq!(wrong.map(|_| ()).map_err(|s| s.code()), Err(Code::Unauthenticated));

    // Without a key, the address's stream cap holds.
    let mut plain = Vec::new();
    for _ in 0..STREAM_CAP {
        plain.push(c.watch_lobby(pb::WatchLobbyRequest::default()).await.expect("within the cap").into_inner());
    }
    let over = c.watch_lobby(pb::WatchLobbyRequest::default()).await;
    assert_eq!(over.map(|_| ()).map_err(|s| s.code()), Err(Code::ResourceExhausted));
    // With the key, the same address opens more: the agent's cap counts.
    let mut agent = Vec::new();
    for _ in 0..STREAM_CAP + 2 {
        agent.push(c.watch_lobby(keyed(pb::WatchLobbyRequest::default(), KEY)).await.expect("agent cap").into_inner());
    }
    drop((plain, agent));

    // The real agent with the key plays more games at once than the
    // address's stream cap would let it follow.
    let mut games = Vec::new();
    for seed in 0..GAMES as u64 {
        games.push(create_from(&mut c, game_request(40 + seed, &[pb::SeatOpenTo::Ai; 3])).await);
    }
    let mut ai = Agent::spawn_fill_with(&server.url, &dir, "random", &["--agent-key", KEY]);
    let start = Instant::now();
    loop {
        let mut moving = 0;
        for g in &games {
            let st = state(&mut c, g).await;
            if st.seq >= 20 || st.outcome.is_some() {
                moving += 1;
            }
        }
        if moving == GAMES {
            break;
        }
        assert!(start.elapsed() < HANG_GUARD, "only {moving} of {GAMES} games moved: {}", agent_log(&dir));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    ai.terminate(HANG_GUARD);
    let log = agent_log(&dir);
    assert!(!log.contains("open streams"), "no stream was refused: {log}");
    assert!(!log.contains(KEY), "the agent never logs its key");
    assert!(!server.log().contains(KEY), "the server never logs a key");
}

fn agent_log(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("ai.log")).unwrap_or_default()
}
