//! End-to-end tests of the limits of a real `xodus-server`: the
//! per-connection request rate, the cap on open streams per client, the
//! cap on games per client, and the largest accepted message. Every refusal
//! is RESOURCE_EXHAUSTED (or OUT_OF_RANGE for the size) and harms nothing.

mod common;

use common::*;
use tonic::Code;
use xodus::pb;

#[tokio::test]
async fn request_rate_is_limited_per_connection() {
    let server = Server::start_in(temp_dir("rate"), &["--rate-limit", "5"]);
    let mut c = server.client().await;
    let mut refused = 0;
    for _ in 0..20 {
        match c.list_games(pb::ListGamesRequest::default()).await {
            Ok(_) => {}
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{}", e.message());
                refused += 1;
            }
        }
    }
    assert!(refused >= 10, "only {refused} of 20 rapid requests were refused");
    // Another connection has its own budget.
    let mut other = server.client().await;
    other.list_games(pb::ListGamesRequest::default()).await.expect("fresh connection");
}

#[tokio::test]
async fn streams_and_games_are_capped_per_client() {
    let server = Server::start_in(temp_dir("caps"), &["--max-streams-per-client", "2", "--max-games-per-client", "2"]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 1).await;
    create_game(&mut c, 2).await;
    let err = c.create_game(create_request(3)).await.expect_err("third game");
    assert_eq!(err.code(), Code::ResourceExhausted);
    let req = || pb::StreamGameRequest { game_id: id.clone(), from_seq: 0, credentials: None };
    let s1 = c.stream_game(req()).await.expect("first stream");
    let _s2 = c.watch_lobby(pb::WatchLobbyRequest {}).await.expect("second stream");
    let err = c.stream_game(req()).await.expect_err("third stream");
    assert_eq!(err.code(), Code::ResourceExhausted, "{}", err.message());
    drop(s1);
    // The slot comes back once the server notices the client left.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match c.stream_game(req()).await {
            Ok(_) => break,
            Err(e) => assert_eq!(e.code(), Code::ResourceExhausted),
        }
        assert!(std::time::Instant::now() < deadline, "stream slot never came back");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
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
    assert!(matches!(err.code(), Code::OutOfRange | Code::ResourceExhausted), "{err:?}");
    assert_eq!(state(&mut c, &id).await.seq, 0);
}
