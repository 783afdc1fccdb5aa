//! End-to-end tests of play against a real `xodus-server` process over
//! loopback: views, choices, every refusal with its status code and an
//! unchanged state afterwards, history, forks, and streams that replay then
//! follow live.

mod common;

use common::*;
use tabletop::pb;
use tabletop::pb::submit_choice_request::Choice;
use tonic::Code;

fn submit(game_id: &str, creds: Option<pb::SeatCredentials>, seq: Option<u64>, id: &str) -> pb::SubmitChoiceRequest {
    pb::SubmitChoiceRequest {
        game_id: game_id.into(),
        credentials: creds,
        expected_seq: seq,
        choice: Some(Choice::OptionId(id.into())),
    }
}

#[tokio::test]
async fn play_choices_and_view_as_seat_and_spectator() {
    let server = Server::start("play");
    let mut c = server.client().await;
    let id = create_game(&mut c, 11).await;
    let tokens = claim_all(&mut c, &id).await;
    let s0 = state(&mut c, &id).await;
    assert_eq!(s0.seq, 0);
    let d = s0.decision.clone().expect("decision");
    assert!(!d.options.is_empty() && !d.kind.is_empty() && !d.prompt.is_empty());
    assert!(d.options.iter().all(|o| !o.payload_json.is_empty() && !o.label.is_empty()));
    assert!(d.options.iter().all(|o| {
        tabletop::any::option_detail::<tabletop::xodus_pb::XodusChoice>(o).is_some_and(|c| !c.action.is_empty())
    }));
    assert_eq!((s0.game_type.as_str(), s0.schema_version), ("xodus", 1));
    let x = tabletop::any::state_detail::<tabletop::xodus_pb::XodusState>(&s0).expect("a typed xodus.v1.XodusState");
    assert!(x.round >= 1 && x.phase == "action" && x.phase_kind == tabletop::xodus_pb::Phase::Action as i32);
    assert_eq!(x.ships.len(), 3);
    assert!(x.tiles.iter().any(|t| t.hex == Some(tabletop::xodus_pb::Hex { q: 0, r: 0 })), "the Starting System");

    let seat_view = c
        .get_view(pb::GetViewRequest { game_id: id.clone(), credentials: creds(&tokens, 1), ..Default::default() })
        .await
        .expect("seat view")
        .into_inner();
    assert_eq!(seat_view.state.expect("state").viewer_seat, Some(1));

    for i in 1..=5 {
        let r = play_first(&mut c, &id, &tokens).await;
        assert_eq!(r.seq, i);
        assert_eq!(r.state.expect("state").seq, i);
    }
    // The structured form is accepted like an id.
    let s = state(&mut c, &id).await;
    let o = s.decision.expect("decision").options.remove(0);
    let r = c
        .submit_choice(pb::SubmitChoiceRequest {
            game_id: id.clone(),
            credentials: creds(&tokens, o.seats[0]),
            expected_seq: Some(s.seq),
            choice: Some(Choice::ChoiceJson(o.payload_json.clone())),
        })
        .await
        .expect("choice_json")
        .into_inner();
    assert_eq!(r.seq, 6);
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    assert_eq!(h.entries.len(), 6);
    assert_eq!(h.entries[5].option_id, o.id);
    assert_eq!(
        h.game.expect("game").seed,
        None,
        "the seed stays hidden from all but the creator while the game is live"
    );
}

#[tokio::test]
async fn every_refusal_has_its_code_and_changes_nothing() {
    let server = Server::start("refuse");
    let mut c = server.client().await;
    let id = create_game(&mut c, 12).await;
    let tokens = claim_all(&mut c, &id).await;
    play_first(&mut c, &id, &tokens).await;
    let before = state(&mut c, &id).await;

    // Find an option and a seat that may not pick it (playing on if needed).
    let (option, other_seat) = loop {
        let s = state(&mut c, &id).await;
        let d = s.decision.expect("decision");
        if let Some((o, seat)) =
            d.options.iter().find_map(|o| (0..3u32).find(|x| !o.seats.contains(x)).map(|seat| (o.clone(), seat)))
        {
            break (o, seat);
        }
        play_first(&mut c, &id, &tokens).await;
        assert!(s.seq < 60, "no decision left a seat out in 60 choices");
    };
    let before = if state(&mut c, &id).await.seq == before.seq { before } else { state(&mut c, &id).await };
    let seq = before.seq;
    let owner = option.seats[0];

    let cases: Vec<(&str, pb::SubmitChoiceRequest, Code)> = vec![
        ("stale seq", submit(&id, creds(&tokens, owner), Some(seq.wrapping_sub(1)), &option.id), Code::Aborted),
        ("future seq", submit(&id, creds(&tokens, owner), Some(seq + 1), &option.id), Code::Aborted),
        ("no seq", submit(&id, creds(&tokens, owner), None, &option.id), Code::InvalidArgument),
        (
            "bad token",
            submit(&id, Some(pb::SeatCredentials { seat: owner, token: "f".repeat(32) }), Some(seq), &option.id),
            Code::Unauthenticated,
        ),
        ("no credentials", submit(&id, None, Some(seq), &option.id), Code::Unauthenticated),
        ("wrong seat", submit(&id, creds(&tokens, other_seat), Some(seq), &option.id), Code::PermissionDenied),
        ("illegal option", submit(&id, creds(&tokens, owner), Some(seq), "jump:99,99"), Code::FailedPrecondition),
        ("empty option", submit(&id, creds(&tokens, owner), Some(seq), ""), Code::InvalidArgument),
        (
            "no such seat",
            submit(&id, Some(pb::SeatCredentials { seat: 7, token: tokens[0].clone() }), Some(seq), &option.id),
            Code::InvalidArgument,
        ),
        ("no such game", submit("g-nope", creds(&tokens, owner), Some(seq), &option.id), Code::NotFound),
        (
            "bad json",
            pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, owner),
                expected_seq: Some(seq),
                choice: Some(Choice::ChoiceJson("{\"jump\":".into())),
            },
            Code::InvalidArgument,
        ),
    ];
    for (what, req, code) in cases {
        let err = c.submit_choice(req).await.expect_err(what);
        assert_eq!(err.code(), code, "{what}: {}", err.message());
        assert!(!err.message().is_empty(), "{what} says why");
    }
    let after = state(&mut c, &id).await;
    assert_eq!(after.seq, before.seq);
    assert_eq!(after.state_hash, before.state_hash, "refusals changed nothing");

    // A double click: the same request twice acts once.
    let req = submit(&id, creds(&tokens, owner), Some(seq), &option.id);
    c.submit_choice(req.clone()).await.expect("first click");
    let err = c.submit_choice(req).await.expect_err("second click");
    assert_eq!(err.code(), Code::Aborted);
    assert_eq!(state(&mut c, &id).await.seq, seq + 1);
    assert!(server.log().contains("choice refused"), "refusals are logged");
}

#[tokio::test]
async fn stream_resumes_from_any_seq_then_follows_live() {
    let server = Server::start("stream");
    let mut c = server.client().await;
    let id = create_game(&mut c, 13).await;
    let tokens = claim_all(&mut c, &id).await;
    for _ in 0..4 {
        play_first(&mut c, &id, &tokens).await;
    }
    let mut stream = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: 2,
            credentials: creds(&tokens, 0),
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    let snap = stream.message().await.expect("ok").expect("snapshot");
    assert!(snap.snapshot && snap.seq == 2 && snap.entry.is_none());
    assert_eq!(snap.state.as_ref().expect("state").viewer_seat, Some(0));
    for seq in 3..=4 {
        let u = stream.message().await.expect("ok").expect("replayed update");
        assert_eq!((u.seq, u.entry.as_ref().map(|e| e.seq)), (seq, Some(seq)));
    }
    let r = play_first(&mut c, &id, &tokens).await;
    let live = stream.message().await.expect("ok").expect("live update");
    assert_eq!(live.seq, 5);
    assert_eq!(live.events.len(), r.events.len(), "replayed and live events agree");
    assert_eq!(live.state.expect("state").state_hash, r.state.expect("state").state_hash);

    // Replayed events equal the ones given at submission time.
    let mut from0 = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: 4,
            credentials: None,
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    from0.message().await.expect("ok").expect("snapshot");
    let replayed = from0.message().await.expect("ok").expect("seq 5");
    assert_eq!(replayed.events, r.events);

    let err = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: 99,
            credentials: None,
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect_err("beyond");
    assert_eq!(err.code(), Code::OutOfRange);
    let bad = Some(pb::SeatCredentials { seat: 0, token: "x".into() });
    let err = c
        .stream_game(pb::StreamGameRequest {
            game_id: id,
            from_seq: 0,
            credentials: bad,
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect_err("token");
    assert_eq!(err.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn fork_reaches_the_same_state_and_history_is_complete() {
    let server = Server::start("fork");
    let mut c = server.client().await;
    let (id, creator) = create_as_creator(&mut c, create_request(14)).await;
    let tokens = claim_all(&mut c, &id).await;
    let mut hashes = vec![state(&mut c, &id).await.state_hash];
    for _ in 0..6 {
        hashes.push(play_first(&mut c, &id, &tokens).await.state.expect("state").state_hash);
    }
    let fork = c
        .fork_game(pb::ForkGameRequest {
            source_game_id: id.clone(),
            at_seq: 3,
            seats: vec![],
            creator_token: creator.clone(),
            ..Default::default()
        })
        .await
        .expect("fork")
        .into_inner()
        .game
        .expect("game");
    assert_eq!((fork.seq, fork.forked_from.as_str(), fork.forked_at_seq), (3, id.as_str(), 3));
    assert!(fork.seats.iter().all(|s| !s.claimed), "a fork starts with free seats");
    let fs = state(&mut c, &fork.game_id).await;
    assert_eq!(fs.state_hash, hashes[3], "the creator's fork is exact");
    assert!(!fork.resampled);
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: fork.game_id.clone(), ..Default::default() })
        .await
        .expect("h")
        .into_inner();
    let src = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("h")
        .into_inner();
    let ids =
        |h: &pb::GetHistoryResponse| h.entries.iter().map(|e| (e.seq, e.seat, e.option_id.clone())).collect::<Vec<_>>();
    assert_eq!(ids(&h), ids(&src)[..3].to_vec());
    let err = c
        .fork_game(pb::ForkGameRequest { source_game_id: id, at_seq: 7, seats: vec![], ..Default::default() })
        .await
        .expect_err("beyond");
    assert_eq!(err.code(), Code::OutOfRange);
}

#[tokio::test]
async fn undo_own_choice_is_recorded_and_refused_for_others() {
    let server = Server::start("undo");
    let mut c = server.client().await;
    let id = create_game(&mut c, 15).await;
    let tokens = claim_all(&mut c, &id).await;
    let (before, r) = loop {
        let before = state(&mut c, &id).await;
        let r = play_first(&mut c, &id, &tokens).await;
        if r.state.as_ref().is_some_and(|s| s.can_undo) {
            break (before, r);
        }
        assert!(r.seq < 80, "no undoable choice in 80 choices");
    };
    let seat = r.state.as_ref().and_then(|s| s.viewer_seat).expect("seat");
    let undo = |seat: u32, seq: u64| pb::UndoRequest {
        game_id: id.clone(),
        credentials: creds(&tokens, seat),
        expected_seq: Some(seq),
    };
    let err = c.undo(undo((seat + 1) % 3, r.seq)).await.expect_err("someone else's choice");
    assert_eq!(err.code(), Code::FailedPrecondition, "{}", err.message());
    let err = c.undo(undo(seat, r.seq - 1)).await.expect_err("stale");
    assert_eq!(err.code(), Code::Aborted);
    let u = c.undo(undo(seat, r.seq)).await.expect("undo").into_inner();
    assert_eq!(u.seq, r.seq + 1);
    assert_eq!(u.state.expect("state").state_hash, before.state_hash);
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    let last = h.entries.last().expect("entry");
    assert_eq!((last.kind, last.seat), (pb::EntryKind::Undo as i32, seat));
}

/// The seats' claimed flags in a stream message's game summary.
fn claimed(u: &pb::StreamGameResponse) -> Vec<bool> {
    u.game.as_ref().expect("the game's summary").seats.iter().map(|s| s.claimed).collect()
}

#[tokio::test]
async fn a_stream_that_follows_the_seats_hears_claims_and_releases_between_entries() {
    let server = Server::start("seat-updates");
    let mut c = server.client().await;
    let id = create_game(&mut c, 21).await;
    let open = |seat_updates| pb::StreamGameRequest {
        game_id: id.clone(),
        from_seq: 0,
        credentials: None,
        seat_updates,
        ..Default::default()
    };
    let mut seats = c.stream_game(open(true)).await.expect("stream").into_inner();
    let mut plain = c.stream_game(open(false)).await.expect("stream").into_inner();

    let snap = seats.message().await.expect("ok").expect("snapshot");
    assert!(snap.snapshot && snap.state.is_some());
    assert_eq!(claimed(&snap), vec![false; 3], "the snapshot carries the seats as they are");
    let plain_snap = plain.message().await.expect("ok").expect("snapshot");
    assert!(plain_snap.game.is_none(), "a stream that did not ask carries states only");

    // A claim between entries: a message of its own, seats only.
    let req = |seat| pb::ClaimSeatRequest {
        game_id: id.clone(),
        seat,
        claimant: pb::Claimant::Human as i32,
        token: String::new(),
    };
    let token = c.claim_seat(req(1)).await.expect("claim").into_inner().token;
    let u = seats.message().await.expect("ok").expect("seat message");
    assert_eq!((u.seq, u.snapshot, u.entry.is_none(), u.state.is_none(), u.events.len()), (0, false, true, true, 0));
    assert_eq!(claimed(&u), vec![false, true, false]);
    assert_eq!(u.game.as_ref().map(|g| g.seats[1].claimed_by), Some(pb::Claimant::Human as i32));

    // A release too.
    let credentials = Some(pb::SeatCredentials { seat: 1, token });
    c.release_seat(pb::ReleaseSeatRequest { game_id: id.clone(), credentials }).await.expect("release");
    let u = seats.message().await.expect("ok").expect("seat message");
    assert_eq!(claimed(&u), vec![false; 3]);

    // Every seat claimed, then a choice: the seat messages come first, the
    // entry's update after them, and the plain stream sees only the update.
    // Changes close together may come as one message with the seats as
    // they are then.
    let tokens = claim_all(&mut c, &id).await;
    play_first(&mut c, &id, &tokens).await;
    let mut last_seats = None;
    let u = loop {
        let u = seats.message().await.expect("ok").expect("message");
        if u.entry.is_some() {
            break u;
        }
        assert!(u.state.is_none() && u.seq == 0);
        last_seats = Some(claimed(&u));
    };
    assert_eq!(last_seats, Some(vec![true; 3]), "the seats as they were before the choice, sent before it");
    assert_eq!((u.seq, u.entry.as_ref().map(|e| e.seq), u.game.is_none()), (1, Some(1), true));
    let p = plain.message().await.expect("ok").expect("update");
    assert_eq!((p.seq, p.entry.as_ref().map(|e| e.seq)), (1, Some(1)), "no seat message on a plain stream");
}
