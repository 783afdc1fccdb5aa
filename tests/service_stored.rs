//! Stored games outlive the code that stored them: a data directory written
//! by an earlier release (`tests/fixtures/stored-games`, made by
//! `tests/fixtures/make-stored-games.sh`) is opened by today's server. Every
//! game replays to the seq it was stored at, with every replayed event
//! typed, and a human takes the free seat and plays on; the new choice
//! survives a restart.

mod common;

use common::*;
use std::path::Path;
use tabletop::pb;

/// Copies the fixture into a fresh temp directory (the fixture stays as it is).
fn fixture_copy() -> std::path::PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored-games");
    let dir = temp_dir("stored");
    std::fs::copy(src.join("xodus.sqlite3"), dir.join("xodus.sqlite3")).expect("copy the fixture database");
    dir
}

/// The fixture's games and the seq each was stored at.
fn expected() -> Vec<(String, u64)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored-games/expected.txt");
    std::fs::read_to_string(path)
        .expect("expected.txt")
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(id, seq)| (id.to_string(), seq.trim().parse().expect("a seq")))
        .collect()
}

/// Events are not stored: a stream replays them from the stored choices,
/// so games stored before an event kind was typed get it typed too.
async fn assert_replayed_events_are_typed(
    c: &mut tabletop::GameServiceClient<tonic::transport::Channel>,
    id: &str,
    seq: u64,
) {
    let request = pb::StreamGameRequest {
        game_id: id.into(),
        from_seq: 0,
        credentials: None,
        seat_updates: false,
        ..Default::default()
    };
    let mut stream = c.stream_game(request).await.expect("stream").into_inner();
    let mut events = 0;
    loop {
        let update = stream.message().await.expect("ok").expect("an update");
        for e in &update.events {
            let typed = tabletop::any::event_detail::<tabletop::xodus_pb::XodusEvent>(e)
                .unwrap_or_else(|| panic!("{id}: an untyped {} event", e.kind));
            assert!(typed.event.is_some(), "{id}: an empty XodusEvent for {}", e.kind);
            events += 1;
        }
        if update.seq >= seq {
            break;
        }
    }
    assert!(seq == 0 || events > 0, "{id}: no events replayed");
}

#[tokio::test]
async fn games_stored_by_an_earlier_release_replay_and_resume() {
    let dir = fixture_copy();
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    let games = expected();
    assert!(games.len() >= 4, "the fixture lists its games");
    let mut played = Vec::new();
    for (id, seq) in &games {
        let s = state(&mut c, id).await;
        assert_eq!(s.seq, *seq, "game {id} replays to its stored seq; log:\n{}", server.log());
        assert_replayed_events_are_typed(&mut c, id, *seq).await;
        let decision = s.decision.expect("decision");
        if s.outcome.is_some() || !decision.deciders.contains(&2) {
            continue;
        }
        // The stored game waits on its free human seat: take it and play on.
        let token = c
            .claim_seat(pb::ClaimSeatRequest {
                game_id: id.clone(),
                seat: 2,
                claimant: pb::Claimant::Human as i32,
                token: String::new(),
            })
            .await
            .expect("claim the free seat")
            .into_inner()
            .token;
        let option = decision.options.iter().find(|o| o.seats.contains(&2)).expect("an option for seat 2");
        let r = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: Some(pb::SeatCredentials { seat: 2, token }),
                expected_seq: Some(s.seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(option.id.clone())),
            })
            .await
            .expect("a choice in a stored game")
            .into_inner();
        played.push((id.clone(), r.seq));
    }
    assert!(!played.is_empty(), "at least one stored game waited on its human seat");
    assert!(!server.log().contains("does not replay"), "{}", server.log());
    let dir = tokio::task::spawn_blocking(move || {
        drop(c);
        server.terminate_keep()
    })
    .await
    .expect("join");
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    for (id, seq) in played {
        assert_eq!(state(&mut c, &id).await.seq, seq, "the new choice of {id} survived a restart");
    }
}
