//! Table talk from outside (issue #62): Say and MuteSeat over real gRPC to
//! a real server. A line reaches the seats it is addressed to, after the
//! update of the seq it was said at, and no one else; spectators hear the
//! whole table only, a delayed one as late as the game it watches; bad
//! lines are refused with a clear error and change nothing; talk is kept
//! with the game across a restart, in the history, and a stream resumes
//! it from a talk_seq.

mod common;

use common::{Server, claim_all, claim_seats, create_from, create_game, creds, play_first};
use tabletop::GameServiceClient;
use tabletop::pb;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

type Stream = tonic::Streaming<pb::StreamGameResponse>;

/// A StreamGame that follows the talk, as `seat` (None: a spectator).
async fn follow(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String], seat: Option<u32>) -> Stream {
    c.stream_game(pb::StreamGameRequest {
        game_id: game.into(),
        credentials: seat.and_then(|s| creds(tokens, s)),
        talk: true,
        ..Default::default()
    })
    .await
    .expect("stream")
    .into_inner()
}

/// Says `text` as `seat` to `audience`.
fn saying(game: &str, tokens: &[String], seat: u32, audience: pb::TalkAudience, text: &str) -> pb::SayRequest {
    pb::SayRequest {
        game_id: game.into(),
        credentials: creds(tokens, seat),
        audience: audience as i32,
        text: text.into(),
        ..Default::default()
    }
}

/// The texts of the talk the stream carries until one says `last`, with
/// the seq of the last update before each line.
async fn heard_until(s: &mut Stream, last: &str) -> Vec<(u64, String)> {
    let mut seq = 0;
    let mut out = Vec::new();
    loop {
        let m = tokio::time::timeout(common::HANG_GUARD, s.next())
            .await
            .expect("a message before the hang guard")
            .expect("the stream goes on")
            .expect("no error");
        if m.state.is_some() {
            seq = m.seq;
        }
        for line in m.talk {
            assert_eq!(line.game_seq, seq, "a line comes after the update of its seq");
            let done = line.text == last;
            out.push((line.game_seq, line.text));
            if done {
                return out;
            }
        }
    }
}

fn texts(heard: &[(u64, String)]) -> Vec<&str> {
    heard.iter().map(|(_, t)| t.as_str()).collect()
}

#[tokio::test]
async fn a_line_reaches_whom_it_is_addressed_to_after_the_update_of_its_seq() {
    let server = Server::start("talk-reach");
    let mut c = server.client().await;
    let game = create_game(&mut c, 7).await;
    let tokens = claim_all(&mut c, &game).await;
    let mut seat0 = follow(&mut c, &game, &tokens, Some(0)).await;
    let mut seat2 = follow(&mut c, &game, &tokens, Some(2)).await;
    let mut spectator = follow(&mut c, &game, &tokens, None).await;

    use pb::TalkAudience::{Seat, Table, Team};
    let said = c.say(saying(&game, &tokens, 0, Table, "hello <b>crew</b> & all")).await.expect("say").into_inner();
    let line = said.line.expect("the line");
    assert_eq!((line.talk_seq, line.game_seq, line.speaker, line.speaker_ai), (1, 0, 0, false));
    assert!(line.said_at.is_some());
    play_first(&mut c, &game, &tokens).await;
    c.say(pb::SayRequest { to_seat: Some(0), ..saying(&game, &tokens, 1, Seat, "psst, seat 0 only") })
        .await
        .expect("say to one seat");
    c.say(saying(&game, &tokens, 1, Team, "team only")).await.expect("say to the team");
    c.say(saying(&game, &tokens, 2, Table, "done")).await.expect("say");

    let h0 = heard_until(&mut seat0, "done").await;
    assert_eq!(texts(&h0), ["hello <b>crew</b> & all", "psst, seat 0 only", "team only", "done"]);
    assert_eq!(h0.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [0, 1, 1, 1], "each after its seq's update");
    let h2 = heard_until(&mut seat2, "done").await;
    assert_eq!(texts(&h2), ["hello <b>crew</b> & all", "team only", "done"], "a line to seat 0 never reaches seat 2");
    let hs = heard_until(&mut spectator, "done").await;
    assert_eq!(texts(&hs), ["hello <b>crew</b> & all", "done"], "a spectator hears the whole table only");

    // The history holds the talk the caller hears, text as it was said.
    let history = |seat: Option<u32>| pb::GetHistoryRequest {
        game_id: game.clone(),
        credentials: seat.and_then(|s| creds(&tokens, s)),
        ..Default::default()
    };
    let as_seat0 = c.get_history(history(Some(0))).await.expect("history").into_inner().talk;
    assert_eq!(as_seat0.len(), 4);
    let as_seat2 = c.get_history(history(Some(2))).await.expect("history").into_inner().talk;
    assert_eq!(as_seat2.iter().map(|l| l.talk_seq).collect::<Vec<_>>(), [1, 3, 4]);
    let as_stranger = c.get_history(history(None)).await.expect("history").into_inner().talk;
    assert_eq!(as_stranger.iter().map(|l| l.talk_seq).collect::<Vec<_>>(), [1, 4]);

    // A stream resumes the talk after the last line its client heard.
    let mut resumed = c
        .stream_game(pb::StreamGameRequest {
            game_id: game.clone(),
            credentials: creds(&tokens, 0),
            from_seq: 1,
            talk: true,
            from_talk_seq: 2,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    assert_eq!(texts(&heard_until(&mut resumed, "done").await), ["team only", "done"]);
}

#[tokio::test]
async fn a_bad_line_is_refused_with_what_was_wrong_and_changes_nothing() {
    let server = Server::start("talk-refused");
    let mut c = server.client().await;
    let game = create_game(&mut c, 8).await;
    let tokens = claim_all(&mut c, &game).await;
    use pb::TalkAudience::{Seat, Table};
    let cases: Vec<(pb::SayRequest, tonic::Code, &str)> = vec![
        (saying(&game, &tokens, 0, Table, &"x".repeat(281)), tonic::Code::InvalidArgument, "280"),
        (saying(&game, &tokens, 0, Table, "two\nlines"), tonic::Code::InvalidArgument, "control character"),
        (saying(&game, &tokens, 0, Table, "   "), tonic::Code::InvalidArgument, "nothing to say"),
        (saying(&game, &tokens, 0, Seat, "to whom?"), tonic::Code::InvalidArgument, "to_seat"),
        (
            pb::SayRequest { to_seat: Some(9), ..saying(&game, &tokens, 0, Seat, "hi") },
            tonic::Code::InvalidArgument,
            "seat",
        ),
        (
            pb::SayRequest {
                credentials: Some(pb::SeatCredentials { seat: 0, token: "forged".into() }),
                ..saying(&game, &tokens, 0, Table, "hi")
            },
            tonic::Code::Unauthenticated,
            "token",
        ),
        (
            pb::SayRequest {
                signal: Some(tabletop::any::pack(&tabletop::legio_pb::LegioSignal { kind: 1, sector: None })),
                ..saying(&game, &tokens, 0, Table, "")
            },
            tonic::Code::InvalidArgument,
            "xodus.v1.XodusSignal",
        ),
        (
            pb::SayRequest {
                signal: Some(tabletop::any::pack(&tabletop::xodus_pb::XodusSignal {
                    kind: tabletop::xodus_pb::XodusSignalKind::WaitForMe as i32,
                    system: Some(tabletop::xodus_pb::Hex { q: 40, r: 40 }),
                    target: 0,
                })),
                ..saying(&game, &tokens, 0, Table, "")
            },
            tonic::Code::InvalidArgument,
            "no revealed system",
        ),
    ];
    for (request, code, words) in cases {
        let e = c.say(request).await.expect_err("refused");
        assert_eq!(e.code(), code, "{e:?}");
        assert!(e.message().contains(words), "the message says what was wrong ({words}): {}", e.message());
    }
    let history = pb::GetHistoryRequest { game_id: game.clone(), credentials: creds(&tokens, 0), ..Default::default() };
    assert!(c.get_history(history.clone()).await.expect("history").into_inner().talk.is_empty(), "nothing kept");

    // Five lines at once, then one more every two seconds.
    for i in 0..5 {
        c.say(saying(&game, &tokens, 1, Table, &format!("line {i}"))).await.expect("within the allowance");
    }
    let e = c.say(saying(&game, &tokens, 1, Table, "one too many")).await.expect_err("past the allowance");
    assert_eq!(e.code(), tonic::Code::ResourceExhausted);
    assert!(e.message().contains("retry in"), "{}", e.message());
    c.say(saying(&game, &tokens, 2, Table, "another seat's own allowance")).await.expect("another seat");
    assert_eq!(c.get_history(history).await.expect("history").into_inner().talk.len(), 6);
}

#[tokio::test]
async fn signals_are_written_in_words_and_a_muted_seat_is_not_heard() {
    let server = Server::start("talk-signals");
    let mut c = server.client().await;
    let game = create_game(&mut c, 9).await;
    let tokens = claim_all(&mut c, &game).await;
    let mut seat0 = follow(&mut c, &game, &tokens, Some(0)).await;
    // The Main Rift's system is revealed from the start, at the centre.
    let wait = tabletop::xodus_pb::XodusSignal {
        kind: tabletop::xodus_pb::XodusSignalKind::WaitForMe as i32,
        system: Some(tabletop::xodus_pb::Hex { q: 0, r: 0 }),
        target: 0,
    };
    let said = c
        .say(pb::SayRequest {
            signal: Some(tabletop::any::pack(&wait)),
            ..saying(&game, &tokens, 1, pb::TalkAudience::Table, "")
        })
        .await
        .expect("a signal")
        .into_inner()
        .line
        .expect("line");
    assert!(said.signal_words.starts_with("wait for me at "), "{}", said.signal_words);
    assert!(said.signal_words.ends_with("(0,0)"), "{}", said.signal_words);
    let back: tabletop::xodus_pb::XodusSignal =
        tabletop::any::unpack(said.signal.as_ref().expect("the typed signal")).expect("decodes");
    assert_eq!(back, wait);

    let muted = c
        .mute_seat(pb::MuteSeatRequest { game_id: game.clone(), credentials: creds(&tokens, 0), seat: 2, muted: true })
        .await
        .expect("mute")
        .into_inner()
        .muted;
    assert_eq!(muted, [2]);
    let e = c
        .mute_seat(pb::MuteSeatRequest { game_id: game.clone(), credentials: creds(&tokens, 0), seat: 0, muted: true })
        .await
        .expect_err("not oneself");
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    c.say(saying(&game, &tokens, 2, pb::TalkAudience::Table, "noise")).await.expect("say");
    c.say(saying(&game, &tokens, 1, pb::TalkAudience::Table, "end")).await.expect("say");
    let heard = heard_until(&mut seat0, "end").await;
    assert_eq!(texts(&heard), ["", "end"], "the signal, then not the muted seat's line");
}

#[tokio::test]
async fn talk_survives_a_restart_and_a_competitive_game_has_no_teams() {
    let dir = common::temp_dir("talk-restart");
    let server = Server::start_in(dir.clone(), &[]);
    let mut c = server.client().await;
    let request = pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Any as i32; 2],
        setup: Some(tabletop::any::game_setup(tabletop::legio_pb::LegioSetup { players: 2, ..Default::default() })),
        ..Default::default()
    };
    let game = create_from(&mut c, request).await;
    let tokens = claim_seats(&mut c, &game, 2).await;
    let e = c.say(saying(&game, &tokens, 0, pb::TalkAudience::Team, "allies?")).await.expect_err("no teams");
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    let invite =
        tabletop::legio_pb::LegioSignal { kind: tabletop::legio_pb::LegioSignalKind::InviteMe as i32, sector: Some(2) };
    let line = c
        .say(pb::SayRequest {
            signal: Some(tabletop::any::pack(&invite)),
            ..saying(&game, &tokens, 1, pb::TalkAudience::Table, "I have squads to spare")
        })
        .await
        .expect("a signal")
        .into_inner()
        .line
        .expect("line");
    assert_eq!(line.signal_words, "invite me to your landing in sector 3", "sectors counted from 1, as on the table");
    let dir = server.terminate_keep();
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    let talk = c
        .get_history(pb::GetHistoryRequest { game_id: game.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner()
        .talk;
    assert_eq!(talk.len(), 1, "kept across a restart, heard by a stranger (said to the table)");
    assert_eq!(
        (talk[0].text.as_str(), talk[0].signal_words.as_str()),
        ("I have squads to spare", line.signal_words.as_str())
    );
    // VII Legio's spectators are delayed: a line said now reaches them only
    // once the game has moved past the delay.
    let delay = c
        .get_view(pb::GetViewRequest { game_id: game.clone(), ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .game
        .expect("summary")
        .spectator_delay;
    assert!(delay > 0, "VII Legio delays its spectators by default");
    play_legio(&mut c, &game, &tokens, u64::from(delay)).await;
    let at = c.say(saying(&game, &tokens, 0, pb::TalkAudience::Table, "late news")).await.expect("say");
    let said_at = at.into_inner().line.expect("line").game_seq;
    let stranger = pb::GetHistoryRequest { game_id: game.clone(), ..Default::default() };
    let heard = |talk: Vec<pb::TalkLine>| talk.into_iter().map(|l| l.text).collect::<Vec<_>>();
    assert_eq!(
        heard(c.get_history(stranger.clone()).await.expect("history").into_inner().talk),
        ["I have squads to spare"],
        "not yet: said at seq {said_at}, the spectator sees {delay} choices behind"
    );
    play_legio(&mut c, &game, &tokens, said_at + u64::from(delay)).await;
    assert_eq!(
        heard(c.get_history(stranger).await.expect("history").into_inner().talk),
        ["I have squads to spare", "late news"],
        "once the game moved past the delay"
    );
}

/// Plays VII Legio's first offered option, seat by seat, until the game is
/// at seq `until` (or over).
async fn play_legio(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String], until: u64) {
    for _ in 0..10_000 {
        let mut moved = false;
        for seat in 0..2 {
            let state = c
                .get_view(pb::GetViewRequest {
                    game_id: game.into(),
                    credentials: creds(tokens, seat),
                    ..Default::default()
                })
                .await
                .expect("view")
                .into_inner()
                .state
                .expect("state");
            if state.seq >= until || state.outcome.is_some() {
                return;
            }
            let Some(o) = state.decision.and_then(|d| d.options.into_iter().find(|o| o.seats.contains(&seat))) else {
                continue;
            };
            c.submit_choice(pb::SubmitChoiceRequest {
                game_id: game.into(),
                credentials: creds(tokens, seat),
                expected_seq: Some(state.seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(o.id)),
            })
            .await
            .expect("submit");
            moved = true;
        }
        assert!(moved, "some seat decides");
    }
}

/// A holder of several seats streams them all on one StreamGame
/// (`more_credentials`, issue #63): it hears the lines said to any of
/// them, and no line said to a seat it does not hold; a wrong token among
/// them refuses the stream, and so does naming other seats without
/// `credentials`.
#[tokio::test]
async fn a_stream_with_more_credentials_hears_the_lines_to_each_of_its_seats_and_no_other() {
    let server = Server::start("talk-more-credentials");
    let mut c = server.client().await;
    let game = create_game(&mut c, 41).await;
    let tokens = claim_all(&mut c, &game).await;
    let mut both = c
        .stream_game(pb::StreamGameRequest {
            game_id: game.clone(),
            credentials: creds(&tokens, 0),
            more_credentials: creds(&tokens, 1).into_iter().collect(),
            talk: true,
            ..Default::default()
        })
        .await
        .expect("a stream for seats 0 and 1")
        .into_inner();
    let to = |seat: u32, text: &str| pb::SayRequest {
        to_seat: Some(seat),
        ..saying(&game, &tokens, 2, pb::TalkAudience::Seat, text)
    };
    c.say(to(1, "for seat 1")).await.expect("say");
    c.say(to(2, "for seat 2 itself")).await.expect("say");
    c.say(to(0, "for seat 0")).await.expect("say");
    let heard: Vec<String> = heard_until(&mut both, "for seat 0").await.into_iter().map(|(_, t)| t).collect();
    assert_eq!(heard, ["for seat 1", "for seat 0"], "its own seats' lines, not seat 2's own");

    let mut wrong = creds(&tokens, 1).expect("creds");
    wrong.token = "not-the-token".into();
    let e = c
        .stream_game(pb::StreamGameRequest {
            game_id: game.clone(),
            credentials: creds(&tokens, 0),
            more_credentials: vec![wrong],
            ..Default::default()
        })
        .await
        .expect_err("a wrong token among the seats");
    assert_eq!(e.code(), tonic::Code::Unauthenticated, "{e:?}");
    let e = c
        .stream_game(pb::StreamGameRequest {
            game_id: game.clone(),
            more_credentials: creds(&tokens, 1).into_iter().collect(),
            ..Default::default()
        })
        .await
        .expect_err("seats without credentials");
    assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("set credentials too"), "{}", e.message());
}

/// A seat's mutes are kept with the game (issue #62): after a restart the
/// seat still does not hear the muted seat, and GetView gives its mutes
/// back (a reloaded page shows them); once the seat changes hands, its new
/// holder hears everyone.
#[tokio::test]
async fn mutes_survive_a_restart_and_end_when_the_seat_changes_hands() {
    let dir = common::temp_dir("talk-mutes");
    let server = Server::start_in(dir.clone(), &[]);
    let mut c = server.client().await;
    let game = create_game(&mut c, 43).await;
    let tokens = claim_all(&mut c, &game).await;
    c.mute_seat(pb::MuteSeatRequest { game_id: game.clone(), credentials: creds(&tokens, 0), seat: 2, muted: true })
        .await
        .expect("mute");
    let server = Server::start_in(server.terminate_keep(), &[]);
    let mut c = server.client().await;
    let view = |c: &mut GameServiceClient<Channel>, seat: u32, tokens: Vec<String>| {
        let req = pb::GetViewRequest { game_id: game.clone(), credentials: creds(&tokens, seat), ..Default::default() };
        let mut c = c.clone();
        async move { c.get_view(req).await.expect("view").into_inner().muted }
    };
    assert_eq!(view(&mut c, 0, tokens.clone()).await, [2], "seat 0's mutes, back after the restart");
    assert!(view(&mut c, 1, tokens.clone()).await.is_empty(), "seat 1 muted nobody");
    let mut heard = follow(&mut c, &game, &tokens, Some(0)).await;
    c.say(saying(&game, &tokens, 2, pb::TalkAudience::Table, "still muted")).await.expect("say");
    c.say(saying(&game, &tokens, 1, pb::TalkAudience::Table, "heard")).await.expect("say");
    let texts: Vec<String> = heard_until(&mut heard, "heard").await.into_iter().map(|(_, t)| t).collect();
    assert_eq!(texts, ["heard"], "the muted seat's line is not delivered after the restart");
    // Seat 0 changes hands: its new holder hears everyone.
    c.release_seat(pb::ReleaseSeatRequest { game_id: game.clone(), credentials: creds(&tokens, 0) })
        .await
        .expect("release");
    let token = common::claim_human(&mut c, &game, 0).await;
    let mut fresh = tokens.clone();
    fresh[0] = token;
    assert!(view(&mut c, 0, fresh.clone()).await.is_empty(), "a new holder mutes nobody");
    let server = Server::start_in(server.terminate_keep(), &[]);
    let mut c = server.client().await;
    assert!(view(&mut c, 0, fresh).await.is_empty(), "nor after a restart");
    drop(dir);
}
