//! VII Legio's AI rivals at a table with a scripted human (issue #62), on
//! the real binaries: the human (seat 0, playing the agent library's
//! heuristic, and inviting the AI to every landing it leads) hears each
//! answer from the AI commander, addressed to it alone: a declined
//! invitation carries its reason, with the "declined" signal; and nothing
//! any AI says names an exploration card or an objective (its hand and
//! its objectives are secret; no card of either kind is ever face up in
//! a line). The AI plays `random`, so it declines about half the time.

mod common;

use common::{Agent, HANG_GUARD, Server, create_from, creds, temp_dir};
use legio_engine::content::Content;
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::legio_pb::{LegioSignal, LegioSignalKind};
use tabletop::pb;
use tonic::transport::Channel;
use xodus_ai::games::legio::LegioKind;

/// Games played at most before a declined invitation is met (each game
/// has one in about seven of ten).
const GAMES: usize = 8;

/// A two-commander game: seat 0 the test's human, seat 1 open to AI.
async fn table(c: &mut GameServiceClient<Channel>) -> (String, Vec<String>) {
    let request = pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32],
        setup: Some(pb::create_game_request::Setup::GameSetup(tabletop::any::pack(&tabletop::legio_pb::LegioSetup {
            players: 2,
            ..Default::default()
        }))),
        ..Default::default()
    };
    let game = create_from(c, request).await;
    let token = common::claim_human(c, &game, 0).await;
    (game, vec![token])
}

/// The human's pick: the AI invited whenever it may be, the invitations
/// sent, else the heuristic's pick from the seat's own state.
fn human_pick(st: &pb::GameState) -> Option<String> {
    let d = st.decision.as_ref()?;
    let mine: Vec<&str> = d.options.iter().filter(|o| o.seats.contains(&0)).map(|o| o.id.as_str()).collect();
    if mine.is_empty() {
        return None;
    }
    for wanted in ["invite:1", "send_invitations"] {
        if mine.contains(&wanted) {
            return Some(wanted.to_string());
        }
    }
    let budget = xodus_ai::Budget::new(Some(4), None);
    xodus_ai::games::legio::game::play(LegioKind::Heuristic, st.seq, st, &budget).ok().flatten()
}

/// The talk seat 0 may hear.
async fn talk(c: &mut GameServiceClient<Channel>, game: &str, tokens: &[String]) -> Vec<pb::TalkLine> {
    c.get_history(pb::GetHistoryRequest { game_id: game.into(), credentials: creds(tokens, 0), ..Default::default() })
        .await
        .expect("history")
        .into_inner()
        .talk
}

/// Names and ids of every exploration card and objective: none may be in
/// what an AI says (a line names only the face-up planet and tracks).
fn secret_words() -> Vec<String> {
    let c = Content::get();
    let mut words: Vec<String> = c.exploration.iter().flat_map(|e| [e.name.clone(), e.id.clone()]).collect();
    words.extend(c.objectives.iter().flat_map(|o| [o.name.clone(), o.id.clone()]));
    words
}

#[tokio::test]
async fn an_ai_rival_declines_an_invitation_with_its_reason_and_never_names_a_secret_card() {
    let server = Server::start("legio-ai-talk");
    let dir = temp_dir("legio-ai-talk-agent");
    let mut c = server.client().await;
    let mut agent = Agent::spawn_fill_with(&server.url, &dir, "random", &[]);
    let secrets = secret_words();
    let began = Instant::now();
    let mut heard: Vec<pb::TalkLine> = Vec::new();
    let mut declined = None;
    for _ in 0..GAMES {
        let (game, tokens) = table(&mut c).await;
        loop {
            assert!(began.elapsed() < HANG_GUARD * 4, "the games move");
            let st = c
                .get_view(pb::GetViewRequest {
                    game_id: game.clone(),
                    credentials: creds(&tokens, 0),
                    ..Default::default()
                })
                .await
                .expect("view")
                .into_inner()
                .state
                .expect("state");
            let lines = talk(&mut c, &game, &tokens).await;
            declined = lines.iter().find(|l| l.speaker == 1 && l.text.starts_with("Declined:")).cloned();
            if declined.is_some() || st.outcome.is_some() {
                heard.extend(lines);
                break;
            }
            let moved = match human_pick(&st) {
                Some(id) => c
                    .submit_choice(pb::SubmitChoiceRequest {
                        game_id: game.clone(),
                        credentials: creds(&tokens, 0),
                        expected_seq: Some(st.seq),
                        choice: Some(pb::submit_choice_request::Choice::OptionId(id)),
                    })
                    .await
                    .is_ok(),
                None => false,
            };
            if !moved {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        if declined.is_some() {
            break;
        }
    }
    let line = declined.unwrap_or_else(|| panic!("an AI declined one of {GAMES} games' invitations: {heard:?}"));
    assert!(line.speaker_ai, "said by the AI: {line:?}");
    assert_eq!((line.audience, line.to_seat), (pb::TalkAudience::Seat as i32, Some(0)), "to the inviter alone");
    assert!(
        line.text.contains(" squads and even with mine we would bring ")
            || line.text.contains(" experience and together we would have ")
            || line.text.contains(" is worth less to me than my other plans"),
        "a reason: {}",
        line.text
    );
    let signal: LegioSignal =
        tabletop::any::unpack(line.signal.as_ref().expect("a signal")).expect("a VII Legio signal");
    assert_eq!(signal.kind, LegioSignalKind::Declined as i32);
    assert!(!line.signal_words.is_empty(), "the signal in words: {line:?}");
    let ai_lines: Vec<&pb::TalkLine> = heard.iter().filter(|l| l.speaker_ai).collect();
    for l in &ai_lines {
        for w in &secrets {
            assert!(!l.text.contains(w.as_str()), "an AI named a secret card ({w}): {}", l.text);
        }
    }
    agent.terminate(Duration::from_secs(10));
}
