//! GetHistory speaks as the stream does (issue 52, front-end authors): each
//! entry carries the label of the option picked and the events it caused,
//! with the same words the submitter was sent, so a front-end that reads
//! history need not replay anything. The label follows the option id's
//! secrecy: in a live VII Legio game a rival's labels stay empty (they can
//! name cards from a private hand), the chooser's own are shown.

mod common;

use common::{Server, claim_all, claim_seats, create_game, creds, state};
use std::collections::BTreeMap;
use tabletop::{GameServiceClient, any, legio_pb, pb};

/// (label, events' kind and summary) as the chooser saw them, by seq.
type Said = BTreeMap<u64, (String, Vec<(String, String)>)>;

fn words(events: &[pb::Event]) -> Vec<(String, String)> {
    events.iter().map(|e| (e.kind.clone(), e.summary.clone())).collect()
}

async fn history(
    c: &mut GameServiceClient<tonic::transport::Channel>,
    id: &str,
    who: Option<pb::SeatCredentials>,
) -> Vec<pb::HistoryEntry> {
    c.get_history(pb::GetHistoryRequest { game_id: id.into(), credentials: who, ..Default::default() })
        .await
        .expect("history")
        .into_inner()
        .entries
}

#[tokio::test]
async fn an_x_odus_history_gives_every_entry_its_label_and_events() {
    let server = Server::start("history-words");
    let mut c = server.client().await;
    let id = create_game(&mut c, 11).await;
    let tokens = claim_all(&mut c, &id).await;
    let mut said = Said::new();
    for _ in 0..25 {
        let s = state(&mut c, &id).await;
        let Some(o) = s.decision.and_then(|d| d.options.into_iter().next()) else { break };
        let r = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, o.seats[0]),
                expected_seq: Some(s.seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(o.id.clone())),
            })
            .await
            .expect("submit")
            .into_inner();
        said.insert(r.seq, (o.label.clone(), words(&r.events)));
    }
    let entries = history(&mut c, &id, None).await;
    assert_eq!(entries.len(), said.len());
    assert!(said.values().any(|(_, e)| !e.is_empty()), "some choice caused events");
    for e in &entries {
        let (label, events) = &said[&e.seq];
        assert!(!label.is_empty(), "seq {}", e.seq);
        assert_eq!(&e.label, label, "seq {}: the label the decider was shown", e.seq);
        assert_eq!(&words(&e.events), events, "seq {}: the events the submitter was sent", e.seq);
    }
}

#[tokio::test]
async fn a_live_vii_legio_history_labels_only_the_callers_own_choices() {
    let server = Server::start("history-words-legio");
    let mut c = server.client().await;
    let request = pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Any as i32; 2],
        setup: Some(pb::create_game_request::Setup::GameSetup(any::pack(&legio_pb::LegioSetup {
            players: 2,
            ..Default::default()
        }))),
        ..Default::default()
    };
    let id = c.create_game(request).await.expect("create").into_inner().game.expect("game").game_id;
    let tokens = claim_seats(&mut c, &id, 2).await;
    let mut said = Said::new();
    for _ in 0..40 {
        // The decider's own view holds its options (a spectator's view of
        // VII Legio runs some choices behind).
        let mut pick = None;
        for seat in 0..2u32 {
            let mine = c
                .get_view(pb::GetViewRequest {
                    game_id: id.clone(),
                    credentials: creds(&tokens, seat),
                    ..Default::default()
                })
                .await
                .expect("view")
                .into_inner()
                .state
                .expect("state");
            if let Some(o) = mine.decision.and_then(|d| d.options.into_iter().next()) {
                pick = Some((seat, mine.seq, o));
                break;
            }
        }
        let Some((seat, seq, o)) = pick else { break };
        let r = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, seat),
                expected_seq: Some(seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(o.id.clone())),
            })
            .await
            .expect("submit")
            .into_inner();
        said.insert(r.seq, (o.label.clone(), words(&r.events)));
    }
    let mut seen_own = [0, 0];
    for seat in 0..2u32 {
        for e in history(&mut c, &id, creds(&tokens, seat)).await {
            let (label, events) = &said[&e.seq];
            assert_eq!(&words(&e.events), events, "seq {}: the same events for every caller", e.seq);
            if e.seat == seat {
                assert_eq!(&e.label, label, "seq {}: the chooser sees its own label", e.seq);
                seen_own[seat as usize] += 1;
            } else {
                assert!(
                    e.label.is_empty() && e.option_id.is_empty(),
                    "seq {}: a rival's choice stays secret: {e:?}",
                    e.seq
                );
            }
        }
    }
    assert!(seen_own.iter().all(|n| *n > 0), "both seats chose something: {seen_own:?}");
}
