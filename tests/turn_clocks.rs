//! Turn clocks, owned by the server, tried over real gRPC against the real
//! server and agent processes: a seat out of time is stood in for by an AI
//! (and taken back by its holder), or forfeits and is passed for by the
//! server; every choice says who made it; the clocks survive a restart.

mod common;

use common::{Agent, Server, temp_dir};
use std::time::{Duration, Instant};
use tabletop::{GameServiceClient, pb};
use tonic::transport::Channel;

fn legio(seats: [pb::SeatOpenTo; 2], clock: pb::ClockRules) -> pb::CreateGameRequest {
    common::legio_clocked(seats, clock)
}

async fn claim_human(c: &mut GameServiceClient<Channel>, id: &str, seat: u32) -> Option<pb::SeatCredentials> {
    let token = c
        .claim_seat(pb::ClaimSeatRequest {
            game_id: id.into(),
            seat,
            claimant: pb::Claimant::Human as i32,
            token: String::new(),
        })
        .await
        .expect("claim")
        .into_inner()
        .token;
    Some(pb::SeatCredentials { seat, token })
}

async fn view(c: &mut GameServiceClient<Channel>, id: &str, who: Option<pb::SeatCredentials>) -> pb::GetViewResponse {
    c.get_view(pb::GetViewRequest { game_id: id.into(), credentials: who, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
}

async fn history(c: &mut GameServiceClient<Channel>, id: &str) -> Vec<pb::HistoryEntry> {
    c.get_history(pb::GetHistoryRequest { game_id: id.into(), creator_token: String::new(), ..Default::default() })
        .await
        .expect("history")
        .into_inner()
        .entries
}

/// Waits (bounded) until `test` holds for a spectator's view.
async fn wait_for(
    c: &mut GameServiceClient<Channel>,
    id: &str,
    what: &str,
    test: impl Fn(&pb::GetViewResponse) -> bool,
) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if test(&view(c, id, None).await) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within 60 s");
}

#[tokio::test]
async fn a_seat_out_of_time_is_stood_in_for_by_an_ai_and_taken_back_by_its_holder() {
    let server = Server::start_in(temp_dir("clock-stand-in"), &[]);
    let mut c = server.client().await;
    let clock = pb::ClockRules {
        kind: pb::ClockKind::PerMove as i32,
        per_move_seconds: 1,
        on_timeout: pb::TimeoutPolicy::AiStandIn as i32,
        ..Default::default()
    };
    let id = common::create_from(&mut c, legio([pb::SeatOpenTo::Human, pb::SeatOpenTo::Ai], clock)).await;
    let me = claim_human(&mut c, &id, 0).await;
    let _agent = Agent::spawn_fill(&server.url, &server.data_dir, "heuristic");
    let listed = view(&mut c, &id, None).await.game.expect("summary");
    assert_eq!(listed.clock.map(|k| k.per_move_seconds), Some(1), "the lobby shows the clock");
    // The person never answers: its time runs out and an AI stands in.
    wait_for(&mut c, &id, "the seat out of time is stood in for", |v| {
        v.game.as_ref().is_some_and(|g| g.seats[0].idle && g.seats[0].stand_in)
    })
    .await;
    wait_for(&mut c, &id, "the stand-in plays", |_| true).await;
    let start = Instant::now();
    while !history(&mut c, &id).await.iter().any(|e| e.seat == 0 && e.played_by == pb::PlayedBy::StandIn as i32) {
        assert!(start.elapsed() < Duration::from_secs(60), "a choice of seat 0 made by the stand-in, logged as such");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let state = view(&mut c, &id, None).await.state.expect("state");
    assert_eq!(state.clocks.len(), 2);
    assert!(state.clocks[0].timed_out, "seat 0's clock ran out");
    // The holder comes back: the seat is its own again, with time to think.
    let back = view(&mut c, &id, me).await;
    let seat0 = &back.game.expect("summary").seats[0];
    assert!(!seat0.idle && !seat0.stand_in, "the stand-in was dismissed");
    let entries = history(&mut c, &id).await;
    assert!(
        entries.iter().any(|e| e.seat == 1 && e.played_by == pb::PlayedBy::Holder as i32),
        "the AI seat's own choices"
    );
}

#[tokio::test]
async fn a_seat_out_of_time_forfeits_and_the_server_passes_for_it_to_the_end() {
    let server = Server::start_in(temp_dir("clock-forfeit"), &[]);
    let mut c = server.client().await;
    let clock = pb::ClockRules {
        kind: pb::ClockKind::Fischer as i32,
        initial_seconds: 1,
        increment_seconds: 30,
        ..Default::default()
    };
    let id = common::create_from(&mut c, legio([pb::SeatOpenTo::Human, pb::SeatOpenTo::Ai], clock)).await;
    let listed = view(&mut c, &id, None).await.game.expect("summary");
    assert_eq!(
        listed.clock.map(|k| k.on_timeout),
        Some(pb::TimeoutPolicy::Forfeit as i32),
        "a competitive game forfeits by default"
    );
    let _me = claim_human(&mut c, &id, 0).await;
    let _agent = Agent::spawn_fill(&server.url, &server.data_dir, "heuristic");
    wait_for(&mut c, &id, "the game ends", |v| v.state.as_ref().is_some_and(|s| s.outcome.is_some())).await;
    let end = view(&mut c, &id, None).await;
    let state = end.state.expect("state");
    assert!(state.clocks[0].forfeited && !state.clocks[1].forfeited, "seat 0 forfeited: {:?}", state.clocks);
    let outcome = state.outcome.expect("outcome");
    assert!(!outcome.winners.contains(&0), "a forfeited seat never wins");
    if !outcome.ranking.is_empty() {
        assert_eq!(outcome.ranking.last(), Some(&0), "a forfeited seat is ranked last");
    }
    let entries = history(&mut c, &id).await;
    let by_server = entries.iter().filter(|e| e.seat == 0 && e.played_by == pb::PlayedBy::Server as i32).count();
    assert!(by_server > 0, "the server passed for the forfeited seat");
    assert!(server.log().contains("the seat forfeits"), "the server says why");
}

#[tokio::test]
async fn clocks_survive_a_restart() {
    let server = Server::start_in(temp_dir("clock-restart"), &[]);
    let mut c = server.client().await;
    let clock = pb::ClockRules { kind: pb::ClockKind::Fischer as i32, initial_seconds: 600, ..Default::default() };
    let id = common::create_from(&mut c, legio([pb::SeatOpenTo::Human, pb::SeatOpenTo::Human], clock)).await;
    let seats = [claim_human(&mut c, &id, 0).await, claim_human(&mut c, &id, 1).await];
    for _ in 0..4 {
        let s = view(&mut c, &id, None).await.state.expect("state");
        let decider = s.decision.as_ref().expect("decision").deciders[0] as usize;
        let mine = view(&mut c, &id, seats[decider].clone()).await.state.expect("state");
        let option = mine.decision.expect("decision").options[0].id.clone();
        tokio::time::sleep(Duration::from_millis(300)).await;
        c.submit_choice(pb::SubmitChoiceRequest {
            game_id: id.clone(),
            credentials: seats[decider].clone(),
            expected_seq: Some(mine.seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(option)),
        })
        .await
        .expect("submit");
    }
    let before = view(&mut c, &id, None).await.state.expect("state").clocks;
    assert!(before.iter().any(|k| k.running) && before.iter().any(|k| k.remaining_ms < 600_000));
    let dir = server.terminate_keep();
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    let after = view(&mut c, &id, None).await.state.expect("state").clocks;
    // A stream's first snapshot carries the clocks too.
    let mut stream = c
        .stream_game(pb::StreamGameRequest { game_id: id.clone(), from_seq: 4, ..Default::default() })
        .await
        .expect("stream")
        .into_inner();
    let first = tokio_stream::StreamExt::next(&mut stream).await.expect("snapshot").expect("ok");
    assert_eq!(first.state.expect("state").clocks.len(), 2, "the snapshot shows the clocks");
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(
            (a.seat, a.running, a.deadline),
            (b.seat, b.running, b.deadline),
            "the same deadline after a restart"
        );
        if !a.running {
            assert_eq!(a.remaining_ms, b.remaining_ms, "a stopped clock keeps its time");
        }
    }
}

#[tokio::test]
async fn rivals_vote_to_expel_a_seat_whose_time_ran_out() {
    let server = Server::start_in(temp_dir("clock-expel"), &[]);
    let mut c = server.client().await;
    let clock = pb::ClockRules {
        kind: pb::ClockKind::PerMove as i32,
        per_move_seconds: 2,
        on_timeout: pb::TimeoutPolicy::AiStandIn as i32,
        ..Default::default()
    };
    let id = common::create_from(&mut c, legio([pb::SeatOpenTo::Human, pb::SeatOpenTo::Human], clock)).await;
    let seats = [claim_human(&mut c, &id, 0).await, claim_human(&mut c, &id, 1).await];
    let first = view(&mut c, &id, None).await.state.expect("state");
    let slow = first.decision.as_ref().expect("decision").deciders[0];
    let rival = 1 - slow;
    let vote = |c: &mut GameServiceClient<Channel>| {
        let req = pb::VoteExpelRequest { game_id: id.clone(), credentials: seats[rival as usize].clone(), seat: slow };
        let mut c = c.clone();
        async move { c.vote_expel(req).await }
    };
    let early = vote(&mut c).await.expect_err("the slow seat still has time");
    assert_eq!(early.code(), tonic::Code::FailedPrecondition, "{}", early.message());
    wait_for(&mut c, &id, "the slow seat runs out of time", |v| {
        v.state.as_ref().is_some_and(|s| s.clocks.get(slow as usize).is_some_and(|k| k.timed_out))
    })
    .await;
    let seq = view(&mut c, &id, None).await.state.expect("state").seq;
    let answer = vote(&mut c).await.expect("a vote against a seat out of time").into_inner();
    assert_eq!((answer.votes, answer.needed, answer.expelled), (1, 1, true), "the one rival is a majority");
    wait_for(&mut c, &id, "the server passes for the expelled seat", |v| {
        v.state.as_ref().is_some_and(|s| s.seq > seq && s.clocks[slow as usize].forfeited)
    })
    .await;
}
