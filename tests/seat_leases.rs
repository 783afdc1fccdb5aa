//! Seats are leases: a table never waits forever on a holder that is gone.
//! Real server and agent processes over real gRPC: a killed AI agent's
//! seats are refilled by another agent, and a human whose stream closed
//! (a closed tab) is stood in for by an AI until the human comes back.

mod common;

use common::{Agent, Server, temp_dir};
use std::time::{Duration, Instant};
use tabletop::{GameServiceClient, any, legio_pb, pb};
use tokio_stream::StreamExt;
use tonic::transport::Channel;

async fn summary(c: &mut GameServiceClient<Channel>, id: &str) -> pb::GameSummary {
    c.get_view(pb::GetViewRequest { game_id: id.into(), credentials: None, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .game
        .expect("summary")
}

async fn seq(c: &mut GameServiceClient<Channel>, id: &str) -> u64 {
    common::state(c, id).await.seq
}

/// Waits (bounded) until `test` holds for the game's summary.
async fn wait_for(c: &mut GameServiceClient<Channel>, id: &str, what: &str, test: impl Fn(&pb::GameSummary) -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if test(&summary(c, id).await) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within 30 s; seats {:?}", summary(c, id).await.seats);
}

#[tokio::test]
async fn a_killed_agents_seats_are_refilled_by_another_agent() {
    let server = Server::start_in(temp_dir("lease-ai"), &["--seat-lease-secs", "1"]);
    let mut c = server.client().await;
    let request = common::game_request(5, &[pb::SeatOpenTo::Ai; 3]);
    let id = common::create_from(&mut c, request).await;
    let first_dir = temp_dir("lease-ai-first");
    let mut first = Agent::spawn_fill(&server.url, &first_dir, "heuristic");
    wait_for(&mut c, &id, "the first agent holds every seat", |g| g.seats.iter().all(|s| s.claimed)).await;
    let start = Instant::now();
    while seq(&mut c, &id).await < 5 && start.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // kill -9: the agent hands nothing back.
    first.0.kill().expect("kill the first agent");
    first.0.wait().expect("reaped");
    let at_kill = seq(&mut c, &id).await;
    // The seat the game waits on is freed after the lease...
    wait_for(&mut c, &id, "a lapsed AI seat is freed", |g| g.seats.iter().any(|s| !s.claimed)).await;
    // ...and a second agent takes it and the game moves on.
    let second_dir = temp_dir("lease-ai-second");
    let _second = Agent::spawn_fill(&server.url, &second_dir, "heuristic");
    let start = Instant::now();
    while seq(&mut c, &id).await < at_kill + 10 && start.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(seq(&mut c, &id).await >= at_kill + 10, "the game moved on with the second agent");
    assert!(server.log().contains("seat freed for the AI pool"), "the server says why the seat was freed");
}

#[tokio::test]
async fn a_closed_tabs_seat_is_stood_in_for_by_an_ai_and_taken_back_on_return() {
    let server = Server::start_in(temp_dir("lease-human"), &["--seat-lease-secs", "1"]);
    let mut c = server.client().await;
    // VII Legio, two commanders: seat 0 a person, seat 1 an AI.
    let request = pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32],
        setup: Some(pb::create_game_request::Setup::GameSetup(any::pack(&legio_pb::LegioSetup {
            players: 2,
            ..Default::default()
        }))),
        ..Default::default()
    };
    let id = common::create_from(&mut c, request).await;
    let token = common::claim_human(&mut c, &id, 0).await;
    let creds = Some(pb::SeatCredentials { seat: 0, token: token.clone() });
    // The page is open: its stream holds the seat however long it thinks.
    let mut tab = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: 0,
            credentials: creds.clone(),
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    let _agent = Agent::spawn_fill(&server.url, &server.data_dir, "heuristic");
    // Wait until the game waits on the person.
    let start = Instant::now();
    loop {
        let u = tokio::time::timeout(Duration::from_secs(30), tab.next())
            .await
            .expect("update")
            .expect("open")
            .expect("ok");
        let d = u.state.and_then(|s| s.decision).unwrap_or_default();
        if d.deciders == [0] {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the game came to seat 0");
    }
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(!summary(&mut c, &id).await.seats[0].idle, "an open stream holds the seat past the lease");
    // The tab closes: after three leases an AI stands in and plays.
    drop(tab);
    let waiting = seq(&mut c, &id).await;
    wait_for(&mut c, &id, "the closed tab's seat is stood in for", |g| g.seats[0].idle && g.seats[0].stand_in).await;
    let start = Instant::now();
    while seq(&mut c, &id).await == waiting && start.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seq(&mut c, &id).await > waiting, "the stand-in played the seat");
    // The person comes back: the seat is theirs again.
    c.get_view(pb::GetViewRequest { game_id: id.clone(), credentials: creds, ..Default::default() })
        .await
        .expect("the holder's token works");
    let back = summary(&mut c, &id).await;
    assert!(!back.seats[0].idle && !back.seats[0].stand_in, "the stand-in was dismissed: {:?}", back.seats[0]);
}
