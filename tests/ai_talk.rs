//! AI captains at a table with a scripted human (issue #62), on the real
//! binaries (the agent leaves every decision the human may take to the
//! human, `--courtesy-ms 60000`, so the table plays the same way whatever
//! the machine's speed): the human asks the crew to wait for it at their system, and
//! the AI ships stay there (read from the game's state) until the human
//! says "go ahead"; then they move on, and the human hears where they head
//! and why, marked as the AI's intent.

mod common;

use common::{Agent, HANG_GUARD, Server, create_from, creds, game_request, temp_dir};
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::pb;
use tabletop::xodus_pb::{self as x, XodusSignalKind};
use tonic::transport::Channel;

/// Actions that move a ship out of its system.
const MOVES: [&str; 4] = ["jump", "blind_jump", "rush", "rush_to"];

/// The human's view (seat 0).
async fn view(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String]) -> pb::GameState {
    c.get_view(pb::GetViewRequest { game_id: game.into(), credentials: creds(tokens, 0), ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state")
}

/// The typed X-ODUS state.
fn typed(st: &pb::GameState) -> x::XodusState {
    tabletop::any::state_detail(st).expect("an X-ODUS state")
}

/// The human's move when the decision is its own: never one that leaves
/// its system, and the end of its turn as soon as it may.
async fn human_moves(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String], st: &pb::GameState) -> bool {
    let Some(d) = &st.decision else { return false };
    let mine: Vec<&pb::ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&0)).collect();
    let action = |o: &pb::ChoiceOption| tabletop::any::option_detail::<x::XodusChoice>(o).map(|c| c.action);
    let pick = mine
        .iter()
        .find(|o| action(o).as_deref() == Some("end_turn"))
        .or_else(|| mine.iter().find(|o| !action(o).is_some_and(|a| MOVES.contains(&a.as_str()))))
        .or_else(|| mine.first());
    let Some(o) = pick else { return false };
    c.submit_choice(pb::SubmitChoiceRequest {
        game_id: game.into(),
        credentials: creds(tokens, 0),
        expected_seq: Some(st.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId(o.id.clone())),
    })
    .await
    .is_ok()
}

/// Says a signal as the human.
async fn signal(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String], s: x::XodusSignal) {
    c.say(pb::SayRequest {
        game_id: game.into(),
        credentials: creds(tokens, 0),
        signal: Some(tabletop::any::pack(&s)),
        ..Default::default()
    })
    .await
    .expect("say");
}

/// The table both games play: seed 21, seat 0 a human (claimed by the
/// test; its token is the only one), seats 1 and 2 open to AI captains.
async fn human_table(c: &mut GameServiceClient<Channel>) -> (String, Vec<String>) {
    let game = create_from(c, game_request(21, &[pb::SeatOpenTo::Human, pb::SeatOpenTo::Ai, pb::SeatOpenTo::Ai])).await;
    let token = common::claim_human(c, &game, 0).await;
    (game, vec![token])
}

#[tokio::test]
async fn ai_captains_wait_where_a_human_asks_and_say_where_they_head() {
    let server = Server::start("ai-talk");
    let dir = temp_dir("ai-talk-agent");
    let mut c = server.client().await;
    let (game, tokens) = human_table(&mut c).await;
    let start = typed(&view(&mut c, &game, &tokens).await);
    let home = start.ships[1].hex.expect("a hex");
    assert!(start.ships.iter().all(|s| s.hex == Some(home)), "the crew starts together");
    signal(
        &mut c,
        &game,
        &tokens,
        x::XodusSignal { kind: XodusSignalKind::WaitForMe as i32, system: Some(home), target: 0 },
    )
    .await;
    let mut agent = Agent::spawn_fill_with(&server.url, &dir, "heuristic", &["--courtesy-ms", "60000"]);

    // Two whole rounds: the AI ships stay where they were asked to wait.
    let began = Instant::now();
    let mut last_seq = 0;
    loop {
        assert!(began.elapsed() < HANG_GUARD, "the game moves");
        let st = view(&mut c, &game, &tokens).await;
        let t = typed(&st);
        assert!(st.outcome.is_none(), "the game does not end in two rounds");
        for ship in &t.ships[1..] {
            assert_eq!(
                ship.hex,
                Some(home),
                "round {}: AI seat {} waits as asked (seq {})",
                t.round,
                ship.seat,
                st.seq
            );
        }
        if t.round > 2 {
            break;
        }
        if st.seq == last_seq && !human_moves(&mut c, &game, &tokens, &st).await {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        last_seq = st.seq;
    }

    // "Go ahead": they move on, and say where to.
    signal(&mut c, &game, &tokens, x::XodusSignal { kind: XodusSignalKind::GoAhead as i32, system: None, target: 0 })
        .await;
    let moved = loop {
        assert!(began.elapsed() < HANG_GUARD, "the game moves");
        let st = view(&mut c, &game, &tokens).await;
        if st.outcome.is_some() {
            break false;
        }
        if typed(&st).ships[1..].iter().any(|s| s.hex != Some(home)) {
            break true;
        }
        if !human_moves(&mut c, &game, &tokens, &st).await {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    };
    assert!(moved, "once the call is lifted an AI ship leaves");
    let talk = loop {
        let talk = c
            .get_history(pb::GetHistoryRequest {
                game_id: game.clone(),
                credentials: creds(&tokens, 0),
                ..Default::default()
            })
            .await
            .expect("history")
            .into_inner()
            .talk;
        if talk.iter().any(|l| l.speaker_ai && l.text.starts_with("Heading to")) || began.elapsed() > HANG_GUARD {
            break talk;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let intents: Vec<&pb::TalkLine> = talk.iter().filter(|l| l.speaker_ai && l.intent).collect();
    assert!(
        intents.iter().any(|l| l.text.starts_with("Waiting at ") && l.text.contains("for seat 0")),
        "an AI said it waits: {talk:?}"
    );
    let heading = intents.iter().find(|l| l.text.starts_with("Heading to")).expect("an AI said where it heads");
    assert!(heading.text.contains(": "), "and why: {}", heading.text);
    agent.terminate(Duration::from_secs(10));
}

/// The control: at the same table without the call, the AI ships leave
/// their system within the same two rounds (so the test above shows the
/// call, not the ships' own plan).
#[tokio::test]
async fn without_a_call_the_same_ai_captains_leave_within_two_rounds() {
    let server = Server::start("ai-talk-control");
    let dir = temp_dir("ai-talk-control-agent");
    let mut c = server.client().await;
    let (game, tokens) = human_table(&mut c).await;
    let home = typed(&view(&mut c, &game, &tokens).await).ships[1].hex;
    let mut agent = Agent::spawn_fill_with(&server.url, &dir, "heuristic", &["--courtesy-ms", "60000"]);
    let began = Instant::now();
    let left = loop {
        assert!(began.elapsed() < HANG_GUARD, "the game moves");
        let st = view(&mut c, &game, &tokens).await;
        let t = typed(&st);
        if t.ships[1..].iter().any(|s| s.hex != home) {
            break Some(t.round);
        }
        if t.round > 2 || st.outcome.is_some() {
            break None;
        }
        if !human_moves(&mut c, &game, &tokens, &st).await {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    };
    assert!(left.is_some(), "an AI ship leaves within two rounds when nobody asks it to wait");
    agent.terminate(Duration::from_secs(10));
}
