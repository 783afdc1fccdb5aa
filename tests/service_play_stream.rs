//! End-to-end tests of the Play stream against a real `xodus-server`
//! process over loopback: a seat opened like GetView, choices answered in
//! order, refusals that leave the stream open and the game unchanged, bad
//! openings refused with their status, the open-stream cap, and a game
//! played over streams that ends exactly like the same game played with
//! SubmitChoice.

mod common;

use common::*;
use prost::Message;
use tabletop::GameServiceClient;
use tabletop::pb;
use tabletop::pb::play_response::Kind;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic::transport::Channel;

/// One open Play stream, seen from the client.
struct Seat {
    tx: mpsc::Sender<pb::PlayRequest>,
    answers: tonic::Streaming<pb::PlayResponse>,
}

/// The `open` message of a seat.
fn open_msg(game_id: &str, credentials: Option<pb::SeatCredentials>) -> pb::PlayRequest {
    pb::PlayRequest { kind: Some(pb::play_request::Kind::Open(pb::PlayOpen { game_id: game_id.into(), credentials })) }
}

/// A choice message.
fn choice_msg(expected_seq: Option<u64>, id: &str) -> pb::PlayRequest {
    pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Choice(pb::PlayChoice {
            expected_seq,
            choice: Some(pb::play_choice::Choice::OptionId(id.into())),
        })),
    }
}

/// Starts a Play call whose first message is `first`; the opened state, or
/// the status the call failed with.
async fn open_with(
    c: &mut GameServiceClient<Channel>,
    first: pb::PlayRequest,
) -> Result<(Seat, pb::GameState), tonic::Status> {
    let (tx, rx) = mpsc::channel(4);
    tx.send(first).await.expect("queued");
    let mut answers = c.play(ReceiverStream::new(rx)).await?.into_inner();
    match answers.message().await?.and_then(|m| m.kind) {
        Some(Kind::Opened(state)) => Ok((Seat { tx, answers }, state)),
        other => panic!("expected the opened state, got {other:?}"),
    }
}

/// Opens a seat's stream.
async fn open(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    credentials: Option<pb::SeatCredentials>,
) -> Result<(Seat, pb::GameState), tonic::Status> {
    open_with(c, open_msg(game_id, credentials)).await
}

impl Seat {
    /// Sends one message and reads its answer.
    async fn send(&mut self, msg: pb::PlayRequest) -> Kind {
        self.tx.send(msg).await.expect("the stream is open");
        self.answers.message().await.expect("an answer").and_then(|m| m.kind).expect("a kind")
    }

    /// Sends a choice; its accepted reply (panics on a refusal).
    async fn choose(&mut self, expected_seq: u64, id: &str) -> pb::SubmitChoiceResponse {
        match self.send(choice_msg(Some(expected_seq), id)).await {
            Kind::Accepted(r) => r,
            other => panic!("choice {id} at seq {expected_seq} not accepted: {other:?}"),
        }
    }
}

/// Opens a stream for each of the three seats of a 3-ship game.
async fn open_all(c: &mut GameServiceClient<Channel>, game_id: &str, tokens: &[String]) -> Vec<Seat> {
    let mut seats = Vec::new();
    for seat in 0..3 {
        seats.push(open(c, game_id, creds(tokens, seat)).await.expect("open").0);
    }
    seats
}

/// The code of a refusal (panics on anything else).
fn refused(kind: Kind) -> (Code, String) {
    match kind {
        Kind::Refused(r) => {
            // The typed reason and the deprecated number say the same.
            #[allow(deprecated)]
            let number = r.code;
            assert_eq!(r.reason, number, "reason and code agree: {r:?}");
            (Code::from(r.reason), r.message)
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The seat's own view, as GetView gives it.
async fn seat_view(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    credentials: Option<pb::SeatCredentials>,
) -> pb::GameState {
    c.get_view(pb::GetViewRequest { game_id: game_id.into(), credentials, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state")
}

#[tokio::test]
async fn a_seat_plays_over_one_stream_and_refusals_leave_it_open() {
    let server = Server::start("playstream");
    let mut c = server.client().await;
    let id = create_game(&mut c, 21).await;
    let tokens = claim_all(&mut c, &id).await;
    let s0 = state(&mut c, &id).await;
    let first = s0.decision.clone().expect("decision").options.remove(0);
    let mover = first.seats[0];

    // Opened like GetView: the seat's own view, byte for byte.
    let (mut seat, opened) = open(&mut c, &id, creds(&tokens, mover)).await.expect("open");
    assert_eq!(opened.viewer_seat, Some(mover));
    assert_eq!(opened.encode_to_vec(), seat_view(&mut c, &id, creds(&tokens, mover)).await.encode_to_vec());

    // Each refusal has SubmitChoice's code, changes nothing and keeps the stream.
    let (code, message) = refused(seat.send(choice_msg(Some(s0.seq + 3), &first.id)).await);
    assert_eq!(code, Code::Aborted, "{message}");
    assert!(message.contains("expected_seq"), "{message}");
    let (code, _) = refused(seat.send(choice_msg(None, &first.id)).await);
    assert_eq!(code, Code::InvalidArgument);
    let (code, _) = refused(seat.send(choice_msg(Some(s0.seq), "no-such-option")).await);
    assert_eq!(code, Code::FailedPrecondition);
    let (code, message) = refused(seat.send(open_msg(&id, creds(&tokens, mover))).await);
    assert_eq!(code, Code::InvalidArgument, "{message}");
    let (code, _) = refused(seat.send(pb::PlayRequest { kind: None }).await);
    assert_eq!(code, Code::InvalidArgument);
    assert_eq!(state(&mut c, &id).await.encode_to_vec(), s0.encode_to_vec(), "refusals changed the game");

    // Accepted on the same stream, durably, as SubmitChoice would.
    let r = seat.choose(s0.seq, &first.id).await;
    assert_eq!(r.seq, s0.seq + 1);
    let after = r.state.expect("state");
    assert_eq!(after.viewer_seat, Some(mover));
    assert_eq!(after.encode_to_vec(), seat_view(&mut c, &id, creds(&tokens, mover)).await.encode_to_vec());
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    assert_eq!(h.entries.last().map(|e| e.option_id.as_str()), Some(first.id.as_str()));

    // A seat that does not hold the decision is refused on its own stream.
    let s1 = state(&mut c, &id).await;
    let d = s1.decision.clone().expect("decision");
    let idle = (0..3u32).find(|s| !d.deciders.contains(s)).expect("a seat not deciding");
    let (mut other, _) = open(&mut c, &id, creds(&tokens, idle)).await.expect("open");
    let (code, message) = refused(other.send(choice_msg(Some(s1.seq), &d.options[0].id)).await);
    assert_eq!(code, Code::PermissionDenied, "{message}");

    // A released seat's open stream is refused from then on.
    c.release_seat(pb::ReleaseSeatRequest { game_id: id.clone(), credentials: creds(&tokens, idle) })
        .await
        .expect("release");
    let (code, message) = refused(other.send(choice_msg(Some(s1.seq), &d.options[0].id)).await);
    assert_eq!(code, Code::Unauthenticated, "{message}");
    assert_eq!(state(&mut c, &id).await.seq, s1.seq);

    // Closing the client's side ends the stream cleanly.
    drop(seat.tx);
    assert!(seat.answers.message().await.expect("a clean end").is_none());
}

#[tokio::test]
async fn a_stream_that_does_not_open_properly_is_refused_with_its_status() {
    let server = Server::start("playstream-open");
    let mut c = server.client().await;
    let id = create_game(&mut c, 22).await;
    let tokens = claim_all(&mut c, &id).await;

    let wrong = Some(pb::SeatCredentials { seat: 1, token: "not-the-token".into() });
    let cases: Vec<(&str, pb::PlayRequest, Code)> = vec![
        ("a choice first", choice_msg(Some(0), "x"), Code::InvalidArgument),
        ("an empty first message", pb::PlayRequest { kind: None }, Code::InvalidArgument),
        ("no credentials", open_msg(&id, None), Code::Unauthenticated),
        ("a wrong token", open_msg(&id, wrong), Code::Unauthenticated),
        (
            "a seat out of range",
            open_msg(&id, Some(pb::SeatCredentials { seat: 9, token: tokens[0].clone() })),
            Code::InvalidArgument,
        ),
        ("an unknown game", open_msg("no-such-game", creds(&tokens, 0)), Code::NotFound),
        ("an empty game id", open_msg("", creds(&tokens, 0)), Code::InvalidArgument),
    ];
    for (what, first, want) in cases {
        match open_with(&mut c, first).await {
            Err(status) => assert_eq!(status.code(), want, "{what}: {}", status.message()),
            Ok(_) => panic!("{what}: the stream opened"),
        }
    }
    // A stream closed before its first message.
    let (tx, rx) = mpsc::channel::<pb::PlayRequest>(1);
    drop(tx);
    let status = match c.play(ReceiverStream::new(rx)).await {
        Err(status) => status,
        Ok(r) => r.into_inner().message().await.expect_err("no answer to an empty stream"),
    };
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    assert_eq!(state(&mut c, &id).await.seq, 0, "nothing changed");
}

#[tokio::test]
async fn play_streams_count_against_the_clients_stream_cap() {
    let server = Server::start_in(temp_dir("playstream-cap"), &["--max-streams-per-client", "2"]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 23).await;
    let tokens = claim_all(&mut c, &id).await;
    let (a, _) = open(&mut c, &id, creds(&tokens, 0)).await.expect("first");
    let (_b, _) = open(&mut c, &id, creds(&tokens, 1)).await.expect("second");
    let third = open(&mut c, &id, creds(&tokens, 2)).await.err().expect("over the cap");
    assert_eq!(third.code(), Code::ResourceExhausted, "{}", third.message());
    // Closing one gives its slot back.
    drop(a);
    let mut reopened = None;
    for _ in 0..50 {
        match open(&mut c, &id, creds(&tokens, 2)).await {
            Ok(s) => {
                reopened = Some(s);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
    assert!(reopened.is_some(), "the closed stream's slot never came back");
}

#[tokio::test]
async fn a_game_played_over_streams_matches_the_same_game_played_with_submit_choice() {
    let server = Server::start("playstream-same");
    let mut c = server.client().await;
    let by_stream = create_game(&mut c, 24).await;
    let by_call = create_game(&mut c, 24).await;
    let stream_tokens = claim_all(&mut c, &by_stream).await;
    let call_tokens = claim_all(&mut c, &by_call).await;
    let mut seats = open_all(&mut c, &by_stream, &stream_tokens).await;
    let mut s = state(&mut c, &by_stream).await;
    for _ in 0..60 {
        let Some(o) = s.decision.as_ref().and_then(|d| d.options.first()).cloned() else { break };
        let r = seats[o.seats[0] as usize].choose(s.seq, &o.id).await;
        let called = play_first(&mut c, &by_call, &call_tokens).await;
        assert_eq!(r.seq, called.seq);
        assert_eq!(r.events, called.events, "the same events at seq {}", r.seq);
        s = state(&mut c, &by_stream).await;
    }
    assert!(s.seq >= 20, "the game went on for a while (seq {})", s.seq);
    let history = |game_id: &str| pb::GetHistoryRequest { game_id: game_id.into(), ..Default::default() };
    let a = c.get_history(history(&by_stream)).await.expect("history").into_inner().entries;
    let b = c.get_history(history(&by_call)).await.expect("history").into_inner().entries;
    let ids = |e: &[pb::HistoryEntry]| e.iter().map(|e| e.option_id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
}

#[tokio::test]
async fn choices_on_a_stream_count_against_the_request_rate() {
    let server = Server::start_in(temp_dir("playstream-rate"), &["--rate-limit", "5"]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 25).await;
    let tokens = claim_all(&mut c, &id).await;
    // Let the per-client bucket fill again after the calls above.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let (mut seat, opened) = open(&mut c, &id, creds(&tokens, 0)).await.expect("open");
    let mut codes = Vec::new();
    for _ in 0..12 {
        // Stale on purpose: cheap refusals, and nothing may change.
        let (code, message) = refused(seat.send(choice_msg(Some(opened.seq + 7), "x")).await);
        codes.push(code);
        if code == Code::ResourceExhausted {
            assert!(message.contains("per second"), "{message}");
        }
    }
    assert_eq!(codes[0], Code::Aborted);
    assert!(codes.contains(&Code::ResourceExhausted), "12 choices at once were never slowed: {codes:?}");
    // The stream is still open once the rate allows again.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let (code, _) = refused(seat.send(choice_msg(Some(opened.seq + 7), "x")).await);
    assert_eq!(code, Code::Aborted);
}

#[tokio::test]
async fn an_open_stream_ends_unavailable_when_the_server_shuts_down() {
    let server = Server::start("playstream-stop");
    let mut c = server.client().await;
    let id = create_game(&mut c, 26).await;
    let tokens = claim_all(&mut c, &id).await;
    let (mut seat, _) = open(&mut c, &id, creds(&tokens, 0)).await.expect("open");
    let stopping = tokio::task::spawn_blocking(move || server.terminate());
    let end = seat.answers.message().await.expect_err("the stream ends with a status");
    assert_eq!(end.code(), Code::Unavailable, "{}", end.message());
    assert!(stopping.await.expect("terminated").success());
}

#[tokio::test]
async fn a_long_lived_stream_keeps_its_log_lines_short() {
    // A Play stream's span lasts for many choices. A span field recorded at
    // each choice is appended by the log formatter, not replaced, so every
    // later line of the stream carried one `seq=` per choice played so far.
    let server = Server::start("playstream-log");
    let mut c = server.client().await;
    let id = create_game(&mut c, 25).await;
    let tokens = claim_all(&mut c, &id).await;
    let mut seats = open_all(&mut c, &id, &tokens).await;
    let mut s = state(&mut c, &id).await;
    for _ in 0..40 {
        let Some(o) = s.decision.as_ref().and_then(|d| d.options.first()).cloned() else { break };
        s = seats[o.seats[0] as usize].choose(s.seq, &o.id).await.state.expect("state");
    }
    assert!(s.seq >= 20, "the game went on for a while (seq {})", s.seq);
    let mover = s.decision.as_ref().and_then(|d| d.options.first()).map(|o| o.seats[0]).expect("a mover");
    let (code, _) = refused(seats[mover as usize].send(choice_msg(Some(s.seq - 1), "stale")).await);
    assert_eq!(code, Code::Aborted);

    let log = server.log();
    let refusal = log.lines().find(|l| l.contains("choice refused")).expect("the refusal is logged");
    assert!(refusal.contains(&format!("expected_seq=Some({})", s.seq - 1)), "{refusal}");
    let accepted = log.lines().filter(|l| l.contains("choice accepted")).count();
    assert!(accepted >= 20, "every accepted choice is logged at debug ({accepted} lines)");
    for line in log.lines() {
        assert!(line.matches("seq=").count() <= 2, "a line carries many seqs:\n{line}");
    }
}
