//! A dead holder frees all its seats at once, and one stream carries all of
//! an agent's tables (issue #63), on the real binaries:
//! - a `kill -9`'d agent holding every seat of a table: with the server's
//!   default leases, all three seats come free together and a fresh agent
//!   takes them all and moves the table within 15 s;
//! - a person holding two seats who closes the page has both stood in for
//!   together once the human lease ran out;
//! - an agent on one connection follows 24 tables while the server lets
//!   its address open only 4 streams (FollowGames does not count against
//!   that cap): every table moves at once; and when the server's follow
//!   cap holds it back, the agent's log says so and what to do.

mod common;

use common::{Agent, HANG_GUARD, Server, create_from, game_request, temp_dir};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::pb;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

async fn summary(c: &mut GameServiceClient<Channel>, id: &str) -> pb::GameSummary {
    c.get_view(pb::GetViewRequest { game_id: id.into(), ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .game
        .expect("summary")
}

/// Follows the game's seats as a spectator: every seat message and state.
async fn seat_follow(c: &mut GameServiceClient<Channel>, id: &str) -> tonic::Streaming<pb::StreamGameResponse> {
    let req = pb::StreamGameRequest { game_id: id.into(), seat_updates: true, ..Default::default() };
    c.stream_game(req).await.expect("stream").into_inner()
}

#[tokio::test]
async fn a_killed_agents_seats_all_come_free_together_and_a_fresh_agent_moves_the_table_within_15_s() {
    // The server's default leases: nothing shortened for the test.
    let server = Server::start("holders-kill");
    let mut c = server.client().await;
    let id = create_from(&mut c, game_request(5, &[pb::SeatOpenTo::Ai; 3])).await;
    let first_dir = temp_dir("holders-kill-first");
    let mut first = Agent::spawn_fill(&server.url, &first_dir, "heuristic");
    let began = Instant::now();
    while summary(&mut c, &id).await.seq < 10 {
        assert!(began.elapsed() < HANG_GUARD, "the first agent plays");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut seats = seat_follow(&mut c, &id).await;
    first.0.kill().expect("kill -9 the first agent");
    first.0.wait().expect("reaped");
    let killed = Instant::now();
    let at_kill = summary(&mut c, &id).await.seq;
    let second_dir = temp_dir("holders-kill-second");
    let _second = Agent::spawn_fill(&server.url, &second_dir, "heuristic");

    // Each seat's first moment free after the kill, and when it was taken
    // again; then the game's first move.
    let mut freed: BTreeMap<u32, Duration> = BTreeMap::new();
    let mut retaken: BTreeMap<u32, Duration> = BTreeMap::new();
    let moved = loop {
        let m = tokio::time::timeout(Duration::from_secs(20), seats.next()).await;
        let Ok(Some(Ok(m))) = m else { panic!("the table moves within 20 s of the kill: freed {freed:?}") };
        if let Some(g) = &m.game {
            for s in &g.seats {
                if !s.claimed {
                    freed.entry(s.seat).or_insert(killed.elapsed());
                } else if freed.contains_key(&s.seat) {
                    retaken.entry(s.seat).or_insert(killed.elapsed());
                }
            }
        }
        if m.seq > at_kill && m.state.is_some() {
            break killed.elapsed();
        }
    };
    println!("after the kill: seats freed at {freed:?}, taken again at {retaken:?}, the table moved at {moved:?}");
    assert_eq!(freed.len(), 3, "every seat of the dead agent came free: {freed:?}");
    let (first_free, last_free) = (freed.values().min().copied(), freed.values().max().copied());
    let spread = last_free.zip(first_free).map(|(l, f)| l - f).unwrap_or_default();
    assert!(spread < Duration::from_secs(2), "together, not one lease after another: {freed:?}");
    assert!(moved < Duration::from_secs(15), "the fresh agent moved the table {moved:?} after the kill");
    // And it holds all three.
    let began = Instant::now();
    while !summary(&mut c, &id).await.seats.iter().all(|s| s.claimed) {
        assert!(began.elapsed() < Duration::from_secs(15), "the fresh agent takes every seat");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(server.log().contains("seat freed for the AI pool"), "the server says why the seats were freed");
}

#[tokio::test]
async fn a_person_holding_two_seats_who_leaves_is_stood_in_for_on_both_together() {
    let server = Server::start_in(temp_dir("holders-human"), &["--seat-lease-secs", "1"]);
    let mut c = server.client().await;
    let id =
        create_from(&mut c, game_request(8, &[pb::SeatOpenTo::Human, pb::SeatOpenTo::Human, pb::SeatOpenTo::Ai])).await;
    let mut creds = Vec::new();
    for seat in 0..2 {
        let token = common::claim_human(&mut c, &id, seat).await;
        creds.push(pb::SeatCredentials { seat, token });
    }
    // One page holds both seats on one stream.
    let tab = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            credentials: Some(creds[0].clone()),
            more_credentials: vec![creds[1].clone()],
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    let _agent = Agent::spawn_fill(&server.url, &temp_dir("holders-human-agent"), "heuristic");
    tokio::time::sleep(Duration::from_secs(4)).await;
    let held = summary(&mut c, &id).await;
    assert!(held.seats[..2].iter().all(|s| !s.idle), "the open page holds both seats past the lease: {:?}", held.seats);
    let mut seats = seat_follow(&mut c, &id).await;
    drop(tab);
    let began = Instant::now();
    let mut idle_at: BTreeMap<u32, Duration> = BTreeMap::new();
    while idle_at.len() < 2 {
        let m = tokio::time::timeout(Duration::from_secs(20), seats.next()).await;
        let Ok(Some(Ok(m))) = m else { panic!("both seats are stood in for: {idle_at:?}") };
        for s in m.game.iter().flat_map(|g| &g.seats) {
            if s.seat < 2 && s.idle {
                idle_at.entry(s.seat).or_insert(began.elapsed());
            }
        }
    }
    let (a, b) = (idle_at[&0], idle_at[&1]);
    assert!(a.max(b) - a.min(b) < Duration::from_secs(1), "together: {idle_at:?}");
    assert!(a.min(b) >= Duration::from_secs(2), "not before the human lease (3 x 1 s): {idle_at:?}");
}

/// `n` all-AI games of three ships.
async fn ai_tables(c: &mut GameServiceClient<Channel>, n: u64) -> Vec<String> {
    let mut ids = Vec::new();
    for seed in 0..n {
        ids.push(create_from(c, game_request(100 + seed, &[pb::SeatOpenTo::Ai; 3])).await);
    }
    ids
}

#[tokio::test]
async fn one_agent_follows_two_dozen_tables_where_its_address_may_open_only_four_streams() {
    let server = Server::start_in(temp_dir("holders-many"), &["--max-streams-per-client", "4"]);
    let mut c = server.client().await;
    let ids = ai_tables(&mut c, 24).await;
    let dir = temp_dir("holders-many-agent");
    let mut agent = Agent::spawn_fill_with(&server.url, &dir, "heuristic", &["--connections", "1"]);
    let began = Instant::now();
    let mut started = vec![false; ids.len()];
    while started.iter().any(|s| !s) {
        assert!(
            began.elapsed() < HANG_GUARD,
            "every table moves while four streams are allowed: {} of {} moved",
            started.iter().filter(|s| **s).count(),
            ids.len()
        );
        for (i, id) in ids.iter().enumerate() {
            if !started[i] {
                let g = summary(&mut c, id).await;
                // Moved, and not finished: followed at the same time as
                // the others, not after them.
                started[i] = g.seq >= 2 && g.status == pb::GameStatus::Playing as i32;
                assert!(
                    started[i] || g.status != pb::GameStatus::Finished as i32,
                    "table {i} finished before another had moved"
                );
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    agent.terminate(Duration::from_secs(10));
}

#[tokio::test]
async fn an_agent_held_back_by_the_servers_follow_cap_says_so_and_what_to_do() {
    let server = Server::start_in(temp_dir("holders-capped"), &["--max-follows-per-client", "3"]);
    let mut c = server.client().await;
    let _ids = ai_tables(&mut c, 6).await;
    let dir = temp_dir("holders-capped-agent");
    let mut agent = Agent::spawn_fill(&server.url, &dir, "heuristic");
    let began = Instant::now();
    let said = loop {
        let log = std::fs::read_to_string(dir.join("ai.log")).unwrap_or_default();
        if let Some(line) = log.lines().find(|l| l.contains("caps the games this address follows")) {
            break line.to_string();
        }
        assert!(began.elapsed() < HANG_GUARD, "the agent says why tables wait: {log}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(said.contains("--agent-key") && said.contains("--max-follows-per-client"), "{said}");
    agent.terminate(Duration::from_secs(10));
}
