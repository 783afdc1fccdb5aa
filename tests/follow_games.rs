//! FollowGames from outside (issue #63), as a third-party client written
//! from the .proto would use it: several games on one stream, each
//! message tagged with the client's follow id; a refused follow ends alone
//! with StreamGame's status while the others go on; `stop` ends a follow
//! with nothing more sent for it; a follow id used twice ends the stream.

mod common;

use common::{HANG_GUARD, Server, claim_all, create_game, creds};
use tabletop::pb;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

type Inbound = tonic::Streaming<pb::FollowGamesResponse>;

async fn next(inbound: &mut Inbound) -> pb::FollowGamesResponse {
    tokio::time::timeout(HANG_GUARD, inbound.next())
        .await
        .expect("a message before the hang guard")
        .expect("the stream goes on")
        .expect("no error")
}

fn follow(id: u64, game: &str, credentials: Option<pb::SeatCredentials>) -> pb::FollowGamesRequest {
    pb::FollowGamesRequest {
        follow_id: id,
        follow: Some(pb::StreamGameRequest { game_id: game.into(), credentials, ..Default::default() }),
        stop: false,
    }
}

#[tokio::test]
async fn one_stream_follows_several_games_and_each_follow_ends_alone() {
    let server = Server::start("follow-games");
    let mut c = server.client().await;
    let a = create_game(&mut c, 51).await;
    let b = create_game(&mut c, 52).await;
    let tokens = claim_all(&mut c, &a).await;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut inbound = c.follow_games(UnboundedReceiverStream::new(rx)).await.expect("FollowGames").into_inner();

    tx.send(follow(7, &a, creds(&tokens, 0))).expect("send");
    let first = next(&mut inbound).await;
    assert_eq!(first.follow_id, 7);
    let snapshot = first.update.expect("an update");
    assert!(snapshot.snapshot && snapshot.state.as_ref().is_some_and(|s| s.viewer_seat == Some(0)), "seat 0's view");

    tx.send(follow(8, "no-such-game", None)).expect("send");
    let refused = next(&mut inbound).await;
    assert_eq!(refused.follow_id, 8);
    let end = refused.ended.expect("ended");
    assert_eq!(end.code, tonic::Code::NotFound as i32, "StreamGame's own refusal: {end:?}");
    assert!(!end.message.is_empty());

    // Game A moves: its follow carries the update.
    let st = snapshot.state.expect("state");
    let d = st.decision.expect("decision");
    let seat = d.deciders[0];
    let option = d.options.iter().find(|o| o.seats.contains(&seat)).expect("an option").id.clone();
    c.submit_choice(pb::SubmitChoiceRequest {
        game_id: a.clone(),
        credentials: creds(&tokens, seat),
        expected_seq: Some(st.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId(option)),
    })
    .await
    .expect("submit");
    let moved = next(&mut inbound).await;
    assert_eq!((moved.follow_id, moved.update.as_ref().map(|u| u.seq)), (7, Some(1)));

    // Stop A, follow B: only B speaks from now on.
    tx.send(pb::FollowGamesRequest { follow_id: 7, follow: None, stop: true }).expect("send");
    tx.send(follow(9, &b, None)).expect("send");
    let other = next(&mut inbound).await;
    assert_eq!(other.follow_id, 9, "{other:?}");
    assert!(other.update.is_some_and(|u| u.snapshot));

    // The same id twice ends the stream, saying why.
    tx.send(follow(9, &b, None)).expect("send");
    let e = loop {
        match tokio::time::timeout(HANG_GUARD, inbound.next()).await.expect("before the hang guard") {
            Some(Ok(m)) => assert_ne!(m.follow_id, 7, "nothing more for a stopped follow"),
            Some(Err(e)) => break e,
            None => panic!("the stream ends with an error"),
        }
    };
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert!(e.message().contains("follow_id 9 is already open"), "{}", e.message());
}

/// Follows start at a bounded rate on one stream (the per-address rate
/// limit counts the FollowGames call once): 2,000 started at once, the
/// first 512 (and what the rate refills meanwhile) open, the others end at
/// once with RESOURCE_EXHAUSTED saying why.
#[tokio::test]
async fn follows_started_faster_than_the_stream_allows_are_refused_alone() {
    let server = Server::start("follow-games-rate");
    let mut c = server.client().await;
    let game = create_game(&mut c, 53).await;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut inbound = c.follow_games(UnboundedReceiverStream::new(rx)).await.expect("FollowGames").into_inner();
    for id in 0..2_000 {
        tx.send(follow(id, &game, None)).expect("send");
    }
    let (mut opened, mut refused) = (0, 0);
    while opened + refused < 2_000 {
        let m = next(&mut inbound).await;
        match m.ended {
            Some(end) => {
                assert_eq!(end.code, tonic::Code::ResourceExhausted as i32, "{end:?}");
                assert!(end.message.contains("a second on one stream"), "{}", end.message);
                refused += 1;
            }
            None => opened += 1,
        }
    }
    assert!(opened >= 512, "the first 512 open: {opened}");
    assert!(refused > 0, "not 2,000 at once: {opened} opened");
}
