//! End-to-end tests of the limits of a real `xodus-server`: the request
//! rate per client address, the cap on open streams per client, the cap on
//! live games per client, and the largest accepted message. Every refusal
//! is RESOURCE_EXHAUSTED and harms nothing.

mod common;

use common::*;
use std::time::{Duration, Instant};
use tabletop::pb;
use tonic::Code;

#[tokio::test]
async fn request_rate_is_limited_per_client_address() {
    const RATE: u32 = 5;
    let server = Server::start_in(temp_dir("rate"), &["--rate-limit", &RATE.to_string()]);
    let mut c = server.client().await;
    // The bucket starts full and refills with time, so the number let
    // through depends on how fast this machine sends: ask until ten were
    // refused, then check the count against what the elapsed time allows.
    let start = Instant::now();
    let (mut allowed, mut refused) = (0u32, 0u32);
    while refused < 10 {
        match c.list_games(pb::ListGamesRequest::default()).await {
            Ok(_) => allowed += 1,
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{}", e.message());
                assert!(allowed >= RATE, "refused within the first burst of {RATE}");
                refused += 1;
            }
        }
        assert!(start.elapsed() < HANG_GUARD, "only {refused} requests refused, {allowed} let through");
    }
    let ceiling = f64::from(RATE) * (1.0 + start.elapsed().as_secs_f64());
    assert!(f64::from(allowed) <= ceiling + 0.01, "{allowed} requests let through, the rate allows {ceiling:.1}");
    // Another connection from the same address shares the budget: it gets
    // at most what refilled since.
    let mut other = server.client().await;
    let again = Instant::now();
    let mut let_through = 0u32;
    loop {
        match other.list_games(pb::ListGamesRequest::default()).await {
            Ok(_) => let_through += 1,
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{}", e.message());
                break;
            }
        }
        assert!(again.elapsed() < HANG_GUARD, "a new connection was never refused");
    }
    let refill = f64::from(RATE) * (again.elapsed().as_secs_f64() + 0.5) + 1.0;
    assert!(
        f64::from(let_through) <= refill,
        "a new connection got {let_through} requests, the refill allows {refill:.1}"
    );
}

#[tokio::test]
async fn streams_and_games_are_capped_per_client() {
    let server = Server::start_in(temp_dir("caps"), &["--max-streams-per-client", "2", "--max-games-per-client", "2"]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 1).await;
    create_game(&mut c, 2).await;
    let err = c.create_game(create_request(3)).await.expect_err("third game");
    assert_eq!(err.code(), Code::ResourceExhausted);
    let req = || pb::StreamGameRequest {
        game_id: id.clone(),
        from_seq: 0,
        credentials: None,
        seat_updates: false,
        ..Default::default()
    };
    let s1 = c.stream_game(req()).await.expect("first stream");
    let _s2 = c.watch_lobby(pb::WatchLobbyRequest {}).await.expect("second stream");
    let err = c.stream_game(req()).await.expect_err("third stream");
    assert_eq!(err.code(), Code::ResourceExhausted, "{}", err.message());
    drop(s1);
    // The slot comes back once the server notices the client left.
    let start = Instant::now();
    loop {
        match c.stream_game(req()).await {
            Ok(_) => break,
            Err(e) => assert_eq!(e.code(), Code::ResourceExhausted),
        }
        assert!(start.elapsed() < HANG_GUARD, "stream slot never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn oversized_messages_are_refused() {
    let server = Server::start("size");
    let mut c = server.client().await;
    let id = create_game(&mut c, 1).await;
    let tokens = claim_all(&mut c, &id).await;
    let req = pb::SubmitChoiceRequest {
        game_id: id.clone(),
        credentials: creds(&tokens, 0),
        expected_seq: Some(0),
        choice: Some(pb::submit_choice_request::Choice::ChoiceJson("x".repeat(200_000))),
    };
    let err = c.submit_choice(req).await.expect_err("too big");
    assert_eq!(err.code(), Code::ResourceExhausted, "{err:?}");
    assert_eq!(state(&mut c, &id).await.seq, 0);
}
