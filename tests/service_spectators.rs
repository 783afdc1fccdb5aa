//! Spectator policies, team grants and replays on the real server over
//! real gRPC (issue #48, part 3), with VII Legio, whose seats hold secrets
//! of their own: a delayed spectator never sees the last N choices
//! (GetView, StreamGame, GetHistory, ForkGame) until the game is over; a
//! seat's grant shows exactly that seat's view and stops when revoked; a
//! finished game replays from any seat's view without another seat's
//! secrets; a live game replays only from the caller's own view.

mod common;

use common::{Server, temp_dir};
use tabletop::{GameServiceClient, any, legio_pb, pb};
use tokio_stream::StreamExt;
use tonic::transport::Channel;

type Client = GameServiceClient<Channel>;

fn legio(
    players: u32,
    policy: pb::SpectatorPolicy,
    delay: Option<u32>,
    round_limit: Option<u32>,
) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Any as i32; players as usize],
        setup: Some(pb::create_game_request::Setup::GameSetup(any::pack(&legio_pb::LegioSetup {
            players,
            round_limit,
            ..Default::default()
        }))),
        spectator_policy: policy as i32,
        spectator_delay: delay,
        ..Default::default()
    }
}

async fn create(c: &mut Client, req: pb::CreateGameRequest) -> pb::GameSummary {
    c.create_game(req).await.expect("create").into_inner().game.expect("game")
}

async fn claim(c: &mut Client, id: &str, seat: u32) -> String {
    c.claim_seat(pb::ClaimSeatRequest {
        game_id: id.into(),
        seat,
        claimant: pb::Claimant::Human as i32,
        token: String::new(),
    })
    .await
    .expect("claim")
    .into_inner()
    .token
}

fn seat(tokens: &[String], s: u32) -> Option<pb::SeatCredentials> {
    Some(pb::SeatCredentials { seat: s, token: tokens[s as usize].clone() })
}

async fn view(c: &mut Client, req: pb::GetViewRequest) -> Result<pb::GameState, tonic::Status> {
    c.get_view(req).await.map(|r| r.into_inner().state.expect("state"))
}

async fn seat_view(c: &mut Client, id: &str, tokens: &[String], s: u32) -> pb::GameState {
    view(c, pb::GetViewRequest { game_id: id.into(), credentials: seat(tokens, s), ..Default::default() })
        .await
        .expect("seat view")
}

async fn spectator_view(c: &mut Client, id: &str) -> pb::GameState {
    view(c, pb::GetViewRequest { game_id: id.into(), ..Default::default() }).await.expect("spectator view")
}

/// A seat's own secrets in its view (hand, objectives...), as legio-wire
/// reads them.
fn mine(state: &pb::GameState) -> Option<legio_engine::Private> {
    legio_wire::view(state).expect("a VII Legio state").mine
}

/// Plays the first option of the first seat the game waits on; the new seq.
async fn step(c: &mut Client, id: &str, tokens: &[String]) -> u64 {
    let any = seat_view(c, id, tokens, 0).await;
    let decider = any.decision.expect("decision").deciders[0];
    let s = seat_view(c, id, tokens, decider).await;
    let option = s.decision.expect("decision").options.into_iter().next().expect("an option for the decider");
    c.submit_choice(pb::SubmitChoiceRequest {
        game_id: id.into(),
        credentials: seat(tokens, decider),
        expected_seq: Some(s.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId(option.id)),
    })
    .await
    .expect("submit")
    .into_inner()
    .seq
}

#[tokio::test]
async fn the_lobby_shows_each_games_policy_and_its_default() {
    let server = Server::start_in(temp_dir("spectators-lobby"), &[]);
    let mut c = server.client().await;
    let hidden = create(&mut c, legio(2, pb::SpectatorPolicy::Unspecified, None, None)).await;
    assert_eq!(hidden.spectator_policy, pb::SpectatorPolicy::Delayed as i32, "VII Legio: seats hold secrets");
    assert_eq!(hidden.spectator_delay, 10);
    let open = create(&mut c, common::create_request(5)).await;
    assert_eq!(open.spectator_policy, pb::SpectatorPolicy::Public as i32, "X-ODUS shows everyone the same");
    assert_eq!(open.spectator_delay, 0);
    let team = create(&mut c, legio(2, pb::SpectatorPolicy::Team, Some(3), None)).await;
    let public = create(&mut c, legio(2, pb::SpectatorPolicy::Public, None, None)).await;
    let listed = c.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner().games;
    let find = |id: &str| listed.iter().find(|g| g.game_id == id).expect("listed").clone();
    assert_eq!((find(&team.game_id).spectator_policy, find(&team.game_id).spectator_delay), (3, 3));
    assert_eq!(find(&public.game_id).spectator_policy, pb::SpectatorPolicy::Public as i32);
    for bad in [
        legio(2, pb::SpectatorPolicy::Delayed, Some(0), None),
        legio(2, pb::SpectatorPolicy::Public, Some(4), None),
        legio(2, pb::SpectatorPolicy::Team, Some(10_001), None),
    ] {
        let err = c.create_game(bad).await.expect_err("refused");
        assert_eq!(err.code(), tonic::Code::InvalidArgument, "{}", err.message());
    }
    // The policy survives a restart: it is stored with the game.
    let dir = server.terminate_keep();
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    let back = c
        .get_view(pb::GetViewRequest { game_id: team.game_id.clone(), ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .game
        .expect("game");
    assert_eq!((back.spectator_policy, back.spectator_delay), (pb::SpectatorPolicy::Team as i32, 3));
}

#[tokio::test]
async fn a_delayed_spectator_never_sees_the_last_n_choices_until_the_game_is_over() {
    const N: u64 = 4;
    let server = Server::start_in(temp_dir("spectators-delay"), &[]);
    let mut c = server.client().await;
    let id = create(&mut c, legio(2, pb::SpectatorPolicy::Delayed, Some(N as u32), Some(2))).await.game_id;
    let mut tokens = vec![claim(&mut c, &id, 0).await, claim(&mut c, &id, 1).await];
    // A spectator follows the game, with the seats: every seat change
    // comes after everything the stream had sent before it.
    let mut stream = c
        .stream_game(pb::StreamGameRequest { game_id: id.clone(), seat_updates: true, ..Default::default() })
        .await
        .expect("stream")
        .into_inner();
    let opening = stream.next().await.expect("snapshot").expect("ok");
    assert!(opening.snapshot && opening.seq == 0);
    // The full state hash at every seq, as the seats saw it.
    let mut hashes = vec![seat_view(&mut c, &id, &tokens, 0).await.state_hash];
    let mut streamed = 0u64;
    let (over, seq) = loop {
        let seq = step(&mut c, &id, &tokens).await;
        let now = seat_view(&mut c, &id, &tokens, 0).await;
        hashes.push(now.state_hash);
        if now.outcome.is_some() {
            break (now, seq);
        }
        let visible = seq.saturating_sub(N);
        // GetView: the state N choices behind, never a later one.
        let spectator = spectator_view(&mut c, &id).await;
        assert_eq!(spectator.seq, visible, "the spectator's view at seq {seq}");
        assert_eq!(spectator.state_hash, hashes[visible as usize], "the very state at seq {visible}");
        if seq < 12 {
            let past = view(
                &mut c,
                pb::GetViewRequest { game_id: id.clone(), at_seq: Some(visible + 1), ..Default::default() },
            )
            .await
            .expect_err("past the delay");
            assert_eq!(past.code(), tonic::Code::PermissionDenied, "{}", past.message());
            // GetHistory: the spectator's history stops N behind; a seat's
            // does not.
            let h = c.get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() }).await;
            assert_eq!(h.expect("history").into_inner().entries.len() as u64, visible);
            let request =
                pb::GetHistoryRequest { game_id: id.clone(), credentials: seat(&tokens, 1), ..Default::default() };
            assert_eq!(c.get_history(request).await.expect("history").into_inner().entries.len() as u64, seq);
            // StreamGame: a new spectator stream may not start past it.
            let late = pb::StreamGameRequest { game_id: id.clone(), from_seq: visible + 1, ..Default::default() };
            assert_eq!(c.stream_game(late).await.expect_err("past").code(), tonic::Code::PermissionDenied);
        }
        if seq == 6 {
            // ForkGame: a spectator forks up to N behind, a seat up to now.
            let fork = |at_seq, credentials| pb::ForkGameRequest {
                source_game_id: id.clone(),
                at_seq,
                credentials,
                ..Default::default()
            };
            let err = c.fork_game(fork(visible + 1, None)).await.expect_err("past the delay");
            assert_eq!(err.code(), tonic::Code::PermissionDenied);
            let forked = c.fork_game(fork(visible, None)).await.expect("within the delay").into_inner();
            assert_eq!(forked.game.expect("fork").spectator_delay, N as u32, "a fork keeps its source's policy");
            c.fork_game(fork(seq, seat(&tokens, 0))).await.expect("a seat forks up to now");
        }
        // A seat change, then every state the spectator's stream sent
        // before it: none within the last N choices.
        c.release_seat(pb::ReleaseSeatRequest { game_id: id.clone(), credentials: seat(&tokens, 1) })
            .await
            .expect("release");
        tokens[1] = claim(&mut c, &id, 1).await;
        loop {
            let m = stream.next().await.expect("the stream goes on").expect("ok");
            if let Some(state) = &m.state {
                assert!(m.seq <= visible, "the stream sent seq {} while the game was at {seq}", m.seq);
                assert_eq!(m.seq, streamed + 1, "in order, none skipped");
                assert_eq!(state.state_hash, hashes[m.seq as usize]);
                streamed = m.seq;
            } else if m.game.is_some() {
                break;
            }
        }
    };
    assert!(seq > 3 * N && streamed > 0, "a game long enough to watch: {seq} choices, {streamed} streamed");
    // Over: the delay ends, for every call.
    assert_eq!(spectator_view(&mut c, &id).await.seq, seq);
    let h = c.get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() }).await;
    let entries = h.expect("history").into_inner().entries;
    assert_eq!(entries.len() as u64, seq);
    assert!(entries.iter().all(|e| !e.option_id.is_empty()), "every id is public once the game is over");
    let mut last = None;
    while let Some(m) = stream.next().await {
        let m = m.expect("ok");
        if m.state.is_some() {
            assert_eq!(m.seq, streamed + 1);
            streamed = m.seq;
            last = m.state;
        }
    }
    assert_eq!(streamed, seq, "the stream caught up with the end, then ended");
    assert_eq!(last.expect("final state").outcome, over.outcome);
}

#[tokio::test]
async fn a_team_grant_shows_exactly_that_seats_view_and_stops_when_revoked() {
    let server = Server::start_in(temp_dir("spectators-team"), &[]);
    let mut c = server.client().await;
    let id = create(&mut c, legio(3, pb::SpectatorPolicy::Team, Some(5), None)).await.game_id;
    let tokens = vec![claim(&mut c, &id, 0).await, claim(&mut c, &id, 1).await, claim(&mut c, &id, 2).await];
    for _ in 0..8 {
        step(&mut c, &id, &tokens).await;
    }
    let grant = |s: u32| pb::GrantViewRequest { game_id: id.clone(), credentials: seat(&tokens, s) };
    let token = c.grant_view(grant(1)).await.expect("grant").into_inner().view_token;
    let by_token = |t: &str| pb::GetViewRequest { game_id: id.clone(), view_token: t.into(), ..Default::default() };
    let watched = view(&mut c, by_token(&token)).await.expect("granted view");
    let own = seat_view(&mut c, &id, &tokens, 1).await;
    assert_eq!(watched.seq, own.seq, "live, not delayed");
    assert_eq!(watched.viewer_seat, Some(1));
    assert!(watched.decision.as_ref().expect("decision").options.is_empty(), "no options");
    assert!(!watched.can_undo);
    assert_eq!(watched.detail, own.detail, "exactly seat 1's view");
    assert_eq!(mine(&watched), mine(&own));
    assert!(mine(&watched).is_some());
    for other in [0, 2] {
        assert_ne!(mine(&watched), mine(&seat_view(&mut c, &id, &tokens, other).await), "not seat {other}'s");
    }
    // Nobody else can ask for it, and a token is no seat.
    let stranger = pb::GrantViewRequest {
        game_id: id.clone(),
        credentials: Some(pb::SeatCredentials { seat: 1, token: "0".repeat(32) }),
    };
    assert_eq!(c.grant_view(stranger).await.expect_err("not the holder").code(), tonic::Code::Unauthenticated);
    let as_seat =
        pb::GetViewRequest { game_id: id.clone(), view_token: token.clone(), as_seat: Some(0), ..Default::default() };
    assert_eq!(view(&mut c, as_seat).await.expect_err("own seat only").code(), tonic::Code::InvalidArgument);
    let act = pb::SubmitChoiceRequest {
        game_id: id.clone(),
        credentials: Some(pb::SeatCredentials { seat: 1, token: token.clone() }),
        expected_seq: Some(own.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId("x".into())),
    };
    assert_eq!(c.submit_choice(act).await.expect_err("cannot act").code(), tonic::Code::Unauthenticated);
    // A replay of the live game is the seat's own business.
    let replay = pb::GetViewRequest { at_seq: Some(2), ..by_token(&token) };
    assert_eq!(view(&mut c, replay).await.expect_err("live replay").code(), tonic::Code::PermissionDenied);
    // The stream follows the seat's view live.
    let mut stream = c
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: own.seq,
            view_token: token.clone(),
            ..Default::default()
        })
        .await
        .expect("granted stream")
        .into_inner();
    let snapshot = stream.next().await.expect("snapshot").expect("ok").state.expect("state");
    assert_eq!(snapshot.detail, own.detail);
    let seq = step(&mut c, &id, &tokens).await;
    let update = stream.next().await.expect("update").expect("ok");
    assert_eq!(update.seq, seq);
    let state = update.state.expect("state");
    assert_eq!(state.detail, seat_view(&mut c, &id, &tokens, 1).await.detail);
    assert!(state.decision.expect("decision").options.is_empty());
    // Revoked: the token and the stream stop working.
    let revoke = pb::RevokeViewRequest { game_id: id.clone(), credentials: seat(&tokens, 1) };
    assert!(c.revoke_view(revoke.clone()).await.expect("revoke").into_inner().revoked);
    assert!(!c.revoke_view(revoke).await.expect("again").into_inner().revoked);
    assert_eq!(view(&mut c, by_token(&token)).await.expect_err("revoked").code(), tonic::Code::Unauthenticated);
    // The open stream ends at once, without waiting for a choice.
    let ended = stream.next().await.expect("the stream says why");
    assert_eq!(ended.expect_err("revoked").code(), tonic::Code::Unauthenticated);
    // A new grant replaces the last one; a released seat's grant ends.
    let first = c.grant_view(grant(2)).await.expect("grant").into_inner().view_token;
    let second = c.grant_view(grant(2)).await.expect("again").into_inner().view_token;
    assert_eq!(view(&mut c, by_token(&first)).await.expect_err("replaced").code(), tonic::Code::Unauthenticated);
    assert_eq!(view(&mut c, by_token(&second)).await.expect("works").viewer_seat, Some(2));
    c.release_seat(pb::ReleaseSeatRequest { game_id: id.clone(), credentials: seat(&tokens, 2) })
        .await
        .expect("release");
    assert_eq!(view(&mut c, by_token(&second)).await.expect_err("released").code(), tonic::Code::Unauthenticated);
    // Only a team game lets seats share their views.
    let other = create(&mut c, legio(2, pb::SpectatorPolicy::Delayed, None, None)).await.game_id;
    let t = claim(&mut c, &other, 0).await;
    let refused = c
        .grant_view(pb::GrantViewRequest {
            game_id: other,
            credentials: Some(pb::SeatCredentials { seat: 0, token: t }),
        })
        .await
        .expect_err("not a team game");
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
}

#[tokio::test]
async fn replays_show_a_finished_game_from_any_seat_and_a_live_one_only_from_your_own() {
    let server = Server::start_in(temp_dir("spectators-replay"), &[]);
    let mut c = server.client().await;
    let id = create(&mut c, legio(3, pb::SpectatorPolicy::Public, None, Some(1))).await.game_id;
    let tokens = vec![claim(&mut c, &id, 0).await, claim(&mut c, &id, 1).await, claim(&mut c, &id, 2).await];
    // Each seat's own view at every seq, as it saw it live.
    let mut live: Vec<Vec<pb::GameState>> = Vec::new();
    let record = |live: &mut Vec<Vec<pb::GameState>>, views: Vec<pb::GameState>| live.push(views);
    let mut views = Vec::new();
    for s in 0..3 {
        views.push(seat_view(&mut c, &id, &tokens, s).await);
    }
    record(&mut live, views);
    let by = |at_seq: u64, as_seat: Option<u32>, credentials: Option<pb::SeatCredentials>| pb::GetViewRequest {
        game_id: id.clone(),
        credentials,
        at_seq: Some(at_seq),
        as_seat,
        ..Default::default()
    };
    loop {
        let seq = step(&mut c, &id, &tokens).await;
        let mut views = Vec::new();
        for s in 0..3 {
            views.push(seat_view(&mut c, &id, &tokens, s).await);
        }
        let over = views[0].outcome.is_some();
        record(&mut live, views);
        if over {
            break;
        }
        if seq == 5 {
            // Live: a seat replays its own view, nobody another's.
            let own = view(&mut c, by(2, None, seat(&tokens, 0))).await.expect("own replay");
            assert_eq!(own.seq, 2);
            assert_eq!(own.detail, live[2][0].detail, "what seat 0 saw at seq 2");
            let again = view(&mut c, by(2, Some(0), seat(&tokens, 0))).await.expect("own seat named");
            assert_eq!(again.detail, own.detail);
            for (as_seat, credentials) in [(Some(1), seat(&tokens, 0)), (Some(1), None), (Some(0), None)] {
                let err = view(&mut c, by(2, as_seat, credentials)).await.expect_err("not your view");
                assert_eq!(err.code(), tonic::Code::PermissionDenied, "{}", err.message());
            }
            let stream = pb::StreamGameRequest { game_id: id.clone(), as_seat: Some(2), ..Default::default() };
            assert_eq!(c.stream_game(stream).await.expect_err("live").code(), tonic::Code::PermissionDenied);
            let spectator = view(&mut c, by(2, None, None)).await.expect("a spectator's replay");
            assert!(mine(&spectator).is_none(), "a spectator holds no secrets");
            let ahead = view(&mut c, by(99, None, None)).await.expect_err("beyond");
            assert_eq!(ahead.code(), tonic::Code::OutOfRange);
        }
    }
    // Over: anyone replays any seat's view at any seq, and it is what that
    // seat saw, never another seat's secrets.
    let end = (live.len() - 1) as u64;
    assert!(end > 12, "a game long enough to replay: {end} choices");
    let mut compared = 0;
    for at in (0..=end).step_by(((end / 12) as usize).max(1)) {
        for s in 0..3u32 {
            let replayed = view(&mut c, by(at, Some(s), None)).await.expect("replay");
            let then = &live[at as usize][s as usize];
            assert_eq!(replayed.seq, at);
            assert_eq!(mine(&replayed), mine(then), "seat {s}'s own secrets at seq {at}");
            assert_eq!(replayed.detail, then.detail, "seat {s}'s whole view at seq {at}");
            for other in (0..3).filter(|&o| o != s) {
                let theirs = mine(&live[at as usize][other as usize]);
                if theirs.is_some() && theirs != mine(then) {
                    assert_ne!(mine(&replayed), theirs);
                    compared += 1;
                }
            }
        }
        assert!(mine(&view(&mut c, by(at, None, None)).await.expect("spectator")).is_none());
    }
    assert!(compared > 0, "the seats' secrets differed somewhere");
    // Step by step from a seat's view: StreamGame with as_seat.
    let mut stream = c
        .stream_game(pb::StreamGameRequest { game_id: id.clone(), as_seat: Some(1), ..Default::default() })
        .await
        .expect("replay stream")
        .into_inner();
    let mut n = 0;
    while let Some(m) = stream.next().await {
        let m = m.expect("ok");
        let state = m.state.expect("state");
        assert_eq!(state.detail, live[m.seq as usize][1].detail, "seat 1's view at seq {}", m.seq);
        n += 1;
    }
    assert_eq!(n, end + 1, "the snapshot and every entry");
}

#[tokio::test]
async fn a_resampled_fork_shows_its_seats_nothing_of_its_sources_hidden_past() {
    let server = Server::start_in(temp_dir("spectators-fork"), &[]);
    let mut c = server.client().await;
    let id = create(&mut c, legio(2, pb::SpectatorPolicy::Public, None, None)).await.game_id;
    let tokens = vec![claim(&mut c, &id, 0).await, claim(&mut c, &id, 1).await];
    let mut seq = 0;
    while seq < 8 {
        seq = step(&mut c, &id, &tokens).await;
    }
    // A stranger's fork of the live game: its past is the source's, its
    // hidden part from seq 8 on its own.
    let fork = c
        .fork_game(pb::ForkGameRequest { source_game_id: id.clone(), at_seq: seq, ..Default::default() })
        .await
        .expect("fork")
        .into_inner()
        .game
        .expect("fork");
    assert!(fork.resampled);
    let f = fork.game_id;
    let mine_in_fork = vec![claim(&mut c, &f, 0).await, claim(&mut c, &f, 1).await];
    // Before seq 8 a seat of the fork sees what a spectator saw: no hand.
    for at in [0, 3, seq - 1] {
        let past = view(
            &mut c,
            pb::GetViewRequest {
                game_id: f.clone(),
                credentials: seat(&mine_in_fork, 0),
                at_seq: Some(at),
                ..Default::default()
            },
        )
        .await
        .expect("replay");
        assert_eq!(past.viewer_seat, None, "seq {at} is the source's");
        assert!(mine(&past).is_none(), "no secret of the source's seat 0 at seq {at}");
    }
    let own = seat_view(&mut c, &f, &mine_in_fork, 0).await;
    assert!(mine(&own).is_some(), "from the fork's own start, its seat's own hand");
    // The source's ids stay hidden, even from the fork's seat that
    // "made" them, in the history and in a stream from seq 0.
    let request =
        pb::GetHistoryRequest { game_id: f.clone(), credentials: seat(&mine_in_fork, 0), ..Default::default() };
    let entries = c.get_history(request).await.expect("history").into_inner().entries;
    assert_eq!(entries.len() as u64, seq);
    assert!(entries.iter().all(|e| e.option_id.is_empty()), "the source's choices are not the fork's to show");
    let mut stream = c
        .stream_game(pb::StreamGameRequest {
            game_id: f.clone(),
            credentials: seat(&mine_in_fork, 0),
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    for _ in 0..=seq {
        let m = stream.next().await.expect("update").expect("ok");
        let state = m.state.expect("state");
        if m.seq < seq {
            assert!(mine(&state).is_none(), "seq {}: the source's hand", m.seq);
        } else {
            assert!(mine(&state).is_some());
        }
        assert!(m.entry.is_none_or(|e| e.option_id.is_empty()), "seq {}: the source's id", m.seq);
    }
}
