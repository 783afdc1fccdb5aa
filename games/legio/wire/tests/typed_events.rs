//! Every engine event reaches clients typed: `Event.detail` always holds a
//! `legio.v1.LegioEvent` equal to `events::typed`, the oneof field set in
//! it is named like the event's `kind` (the engine's serde tag), and the
//! summary is an English line naming commanders "Commander N" (seat + 1)
//! and cards by their catalog names. One sample of every kind is checked,
//! and every oneof field of `LegioEvent` must be met among them
//! (`events::typed` matches every engine event without a wildcard, so a
//! new kind does not compile until it is typed); seeded games played to
//! the end check the same on real events.

mod common;

use legio_engine::content::{Content, Domain, Loss};
use legio_engine::{Event, ExpertKind, Gear, Outcome, Personnel, Public, Tech};
use std::collections::{BTreeMap, BTreeSet};
use tabletop::legio_pb as l;

/// Checks one event's wire form and returns its kind.
fn check(e: &Event, public: &Public, fields: &BTreeMap<u64, String>) -> String {
    let wire = legio_wire::event(e, public);
    let detail = wire.detail.as_ref().unwrap_or_else(|| panic!("{} has no typed detail", wire.kind));
    let typed: l::LegioEvent = tabletop::any::unpack(detail).expect("a LegioEvent");
    assert_eq!(typed, legio_wire::events::typed(e), "{}", wire.kind);
    assert_eq!(common::set_field(&detail.value, fields), wire.kind, "the oneof field is named like the kind");
    let json: serde_json::Value = serde_json::from_str(&wire.event_json).expect("JSON");
    assert_eq!(json["type"].as_str(), Some(wire.kind.as_str()), "the kind is the serde tag");
    assert!(!format!("{typed:?}").contains("Unspecified"), "an enum left unset: {typed:?}");
    check_summary(e, &wire.summary);
    wire.kind
}

/// The summary is English: no snake-case word, every seat as "Commander
/// N", every card by its catalog name.
fn check_summary(e: &Event, line: &str) {
    let c = Content::get();
    assert!(!line.is_empty() && !line.contains('_') && !line.contains('?'), "{line:?}");
    let json = serde_json::to_value(e).expect("serializes");
    if let Some(seat) = json.get("seat").and_then(|s| s.as_u64()) {
        assert!(line.contains(&format!("Commander {}", seat + 1)), "{line:?} does not name seat {seat}");
    }
    let name = match e {
        Event::Explored { card, .. } => Some(&c.exploration[usize::from(*card)].name),
        Event::Discovered { card, .. } | Event::ContactRevealed { card } | Event::XCardTaken { card, .. } => {
            Some(&c.extrasolar[usize::from(*card)].name)
        }
        Event::ObjectiveRevealed { objective, .. } => Some(&c.objectives[usize::from(*objective)].name),
        _ => None,
    };
    if let Some(name) = name {
        assert!(line.contains(name.as_str()), "{line:?} does not name {name}");
    }
}

/// One event of every kind.
fn samples() -> Vec<Event> {
    let outcome = Outcome {
        scores: vec![12, 30, 7],
        px: vec![10, 11, 3],
        ranking: vec![1, 0, 2],
        winners: vec![1],
        cause: "fifteen_px".into(),
        round: 17,
        truncated: false,
    };
    let truncated =
        Outcome { ranking: vec![], winners: vec![], cause: "round_limit".into(), truncated: true, ..outcome.clone() };
    vec![
        Event::FirstCommander { seat: 2 },
        Event::ProfileSet { seat: 0, profile: 2 },
        Event::ExpertEmbarked { seat: 1, kind: ExpertKind::Adventurer },
        Event::ObjectivesOffered { seat: 1, cards: 2 },
        Event::ObjectiveKept { seat: 1 },
        Event::TurnStarted { seat: 0, round: 4 },
        Event::Drew { seat: 0, cards: 3 },
        Event::DeckReshuffled,
        Event::DiscardedFaceDown { seat: 0, cards: 2 },
        Event::Recruited { seat: 0, personnel: Personnel::Expert(ExpertKind::Hunter) },
        Event::Equipped { seat: 0, gear: Gear::Detector },
        Event::Moved { seat: 0, from: 0, to: 5 },
        Event::Decoded { seat: 2, slot: 1 },
        Event::Explored { seat: 2, card: 12 },
        Event::ExperienceGained { seat: 2, domain: Domain::Capture, amount: 1 },
        Event::DamageRolled { seat: 2, face: 7, loss: Loss::Decoder },
        Event::Fought { seat: 2, needed: 2, had: 1, trophy: true, lost_laser: true },
        Event::Evaded { seat: 1 },
        Event::Discovered { seat: 1, planet: 3, sector: 4, card: 30 },
        Event::ContactRevealed { card: 5 },
        Event::Answered { seat: 2, accepted: true },
        Event::Landed { planet: 3, participants: vec![1, 2], imperator: true },
        Event::LandingAborted,
        Event::MissionResolved { success: false },
        Event::Pc { seat: 1, delta: -2, reason: "fruitless_mission".into() },
        Event::Px { seat: 1, gained: 1, reason: "star".into() },
        Event::PersonnelLost { seat: 1, personnel: Personnel::Squad, count: 2 },
        Event::ImperatorScored { score: 14 },
        Event::ImperatorCard { card: 6 },
        Event::ObjectiveRevealed { seat: 0, objective: 3, pc: 2 },
        Event::TechLearnt { seat: 0, tech: Tech::Nanoprobes },
        Event::XCardTaken { seat: 0, card: 47 },
        Event::Promoted { seat: 0 },
        Event::Repaired { seat: 2 },
        Event::TurnEnded { seat: 2, unused: 1 },
        Event::EndTriggered { cause: "imperator_25".into() },
        Event::GameOver { outcome },
        Event::GameOver { outcome: truncated },
    ]
}

#[test]
fn every_event_kind_has_a_typed_message_named_like_its_kind() {
    let fields = common::oneof_fields("legio/v1/events.proto", "LegioEvent");
    let game = common::new_game(3, 1);
    let kinds: BTreeSet<String> = samples().iter().map(|e| check(e, game.public(), &fields)).collect();
    let names: BTreeSet<String> = fields.values().cloned().collect();
    assert_eq!(kinds, names, "every LegioEvent field has a sample event, and every sample a field");
}

#[test]
fn summaries_read_as_english() {
    let game = common::new_game(3, 1);
    let line = |e: Event| legio_wire::event(&e, game.public()).summary;
    assert_eq!(line(Event::Drew { seat: 0, cards: 1 }), "Commander 1 draws 1 Exploration card");
    assert_eq!(
        line(Event::Landed { planet: 1, participants: vec![0, 2], imperator: true }),
        "Commanders 1 and 3 land on planet beta with the Imperator"
    );
    assert_eq!(
        line(Event::Pc { seat: 2, delta: -1, reason: "unused_cards".into() }),
        "Commander 3 loses 1 PC (unused cards)"
    );
    let over = samples().into_iter().filter(|e| matches!(e, Event::GameOver { .. })).map(line).collect::<Vec<_>>();
    assert_eq!(
        over,
        ["Game over (15 PX reached): Commander 2 wins", "Game over (round limit): cut by the round limit, no winner"]
    );
}

#[test]
fn real_events_of_seeded_games_are_typed_and_summarised() {
    let fields = common::oneof_fields("legio/v1/events.proto", "LegioEvent");
    let mut kinds = BTreeSet::new();
    for (players, seed) in [(2, 1), (3, 3), (4, 5), (3, 8)] {
        common::play(
            players,
            seed,
            |_| {},
            |events, game| {
                for e in events {
                    kinds.insert(check(e, game.public(), &fields));
                }
            },
        );
    }
    assert!(kinds.len() > 25, "only {} kinds met: {kinds:?}", kinds.len());
}
