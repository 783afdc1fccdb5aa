//! The engine's events on the wire: each with its kind (the serde tag),
//! an English summary line, its JSON and its typed form
//! (`legio.v1.LegioEvent`). The engine's events are public (a draw is a
//! count, never a card), so every viewer receives the same ones.

use crate::catalog::*;
use crate::enums::*;
use crate::state::legio_outcome;
use legio_engine::{Event, Personnel, Public, Seat};
use tabletop::{any, legio_pb as l, pb};

/// The typed form of an event. The match names every engine event, so a
/// new kind does not compile until it is typed here.
pub fn typed(e: &Event) -> l::LegioEvent {
    use l::legio_event::Event as T;
    let n = u32::from;
    let t = match e {
        Event::FirstCommander { seat } => T::FirstCommander(l::FirstCommander { seat: n(*seat) }),
        Event::ProfileSet { seat, profile } => T::ProfileSet(l::ProfileSet { seat: n(*seat), profile: n(*profile) }),
        Event::ExpertEmbarked { seat, kind } => {
            T::ExpertEmbarked(l::ExpertEmbarked { seat: n(*seat), kind: expert(*kind) as i32 })
        }
        Event::ObjectivesOffered { seat, cards } => {
            T::ObjectivesOffered(l::ObjectivesOffered { seat: n(*seat), cards: n(*cards) })
        }
        Event::ObjectiveKept { seat } => T::ObjectiveKept(l::ObjectiveKept { seat: n(*seat) }),
        Event::TurnStarted { seat, round } => T::TurnStarted(l::TurnStarted { seat: n(*seat), round: *round }),
        Event::Drew { seat, cards } => T::Drew(l::Drew { seat: n(*seat), cards: n(*cards) }),
        Event::DeckReshuffled => T::DeckReshuffled(l::DeckReshuffled {}),
        Event::DiscardedFaceDown { seat, cards } => {
            T::DiscardedFaceDown(l::DiscardedFaceDown { seat: n(*seat), cards: n(*cards) })
        }
        Event::Recruited { seat, personnel: p } => {
            T::Recruited(l::Recruited { seat: n(*seat), personnel: personnel(*p) as i32 })
        }
        Event::Equipped { seat, gear: g } => T::Equipped(l::Equipped { seat: n(*seat), gear: gear(*g) as i32 }),
        Event::Moved { seat, from, to } => T::Moved(l::Moved { seat: n(*seat), from: n(*from), to: n(*to) }),
        Event::Decoded { seat, slot } => T::Decoded(l::Decoded { seat: n(*seat), slot: n(*slot) }),
        Event::Explored { seat, card } => T::Explored(l::Explored { seat: n(*seat), card: n(*card) }),
        Event::ExperienceGained { seat, domain: d, amount } => {
            T::ExperienceGained(l::ExperienceGained { seat: n(*seat), domain: domain(*d) as i32, amount: n(*amount) })
        }
        Event::DamageRolled { seat, face, loss: x } => {
            T::DamageRolled(l::DamageRolled { seat: n(*seat), face: n(*face), loss: loss(*x) as i32 })
        }
        Event::Fought { seat, needed, had, trophy, lost_laser } => T::Fought(l::Fought {
            seat: n(*seat),
            needed: n(*needed),
            had: n(*had),
            trophy: *trophy,
            lost_laser: *lost_laser,
        }),
        Event::Evaded { seat } => T::Evaded(l::Evaded { seat: n(*seat) }),
        Event::Discovered { seat, planet, sector, card } => {
            T::Discovered(l::Discovered { seat: n(*seat), planet: n(*planet), sector: n(*sector), card: n(*card) })
        }
        Event::ContactRevealed { card } => T::ContactRevealed(l::ContactRevealed { card: n(*card) }),
        Event::Answered { seat, accepted } => T::Answered(l::Answered { seat: n(*seat), accepted: *accepted }),
        Event::Landed { planet, participants, imperator } => {
            T::Landed(l::Landed { planet: n(*planet), participants: wide(participants), imperator: *imperator })
        }
        Event::LandingAborted => T::LandingAborted(l::LandingAborted {}),
        Event::MissionResolved { success } => T::MissionResolved(l::MissionResolved { success: *success }),
        Event::Pc { seat, delta, reason } => {
            T::Pc(l::PcChanged { seat: n(*seat), delta: *delta, reason: reason.clone() })
        }
        Event::Px { seat, gained, reason } => {
            T::Px(l::PxGained { seat: n(*seat), gained: n(*gained), reason: reason.clone() })
        }
        Event::PersonnelLost { seat, personnel: p, count } => {
            T::PersonnelLost(l::PersonnelLost { seat: n(*seat), personnel: personnel(*p) as i32, count: n(*count) })
        }
        Event::ImperatorScored { score } => T::ImperatorScored(l::ImperatorScored { score: n(*score) }),
        Event::ImperatorCard { card } => T::ImperatorCard(l::ImperatorCardTurned { card: n(*card) }),
        Event::ObjectiveRevealed { seat, objective, pc } => {
            T::ObjectiveRevealed(l::ObjectiveRevealed { seat: n(*seat), objective: n(*objective), pc: n(*pc) })
        }
        Event::TechLearnt { seat, tech: t } => T::TechLearnt(l::TechLearnt { seat: n(*seat), tech: tech(*t) as i32 }),
        Event::XCardTaken { seat, card } => T::XCardTaken(l::XCardTaken { seat: n(*seat), card: n(*card) }),
        Event::Promoted { seat } => T::Promoted(l::Promoted { seat: n(*seat) }),
        Event::Repaired { seat } => T::Repaired(l::Repaired { seat: n(*seat) }),
        Event::TurnEnded { seat, unused } => T::TurnEnded(l::TurnEnded { seat: n(*seat), unused: n(*unused) }),
        Event::EndTriggered { cause } => T::EndTriggered(l::EndTriggered { cause: cause.clone() }),
        Event::GameOver { outcome } => T::GameOver(l::GameOver { outcome: Some(legio_outcome(outcome)) }),
    };
    l::LegioEvent { event: Some(t) }
}

/// "Commander 2" for seat 1.
pub fn commander(seat: Seat) -> String {
    format!("Commander {}", u32::from(seat) + 1)
}

/// "Commanders 1, 2 and 4".
fn commanders(seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(|&s| (u32::from(s) + 1).to_string()).collect();
    match names.as_slice() {
        [] => "No commander".into(),
        [one] => format!("Commander {one}"),
        [rest @ .., last] => format!("Commanders {} and {last}", rest.join(", ")),
    }
}

fn personnel_name(p: Personnel, count: u8) -> String {
    let one = match p {
        Personnel::Squad => "squad",
        Personnel::Expert(k) => expert_name(k),
    };
    if count == 1 { a_or_an(one) } else { format!("{count} {one}s") }
}

/// "a Diplomat", "an Adventurer".
fn a_or_an(word: &str) -> String {
    let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']);
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// A snake-case reason or end cause in words.
fn words(s: &str) -> String {
    match s {
        "oz_ore" => "Oz ore".into(),
        "xeno_ship" => "Xeno ship".into(),
        "sector_x" => "Sector X".into(),
        "fifteen_px" => "15 PX reached".into(),
        "imperator_25" => "the Imperator reached 25".into(),
        "declared" => "declared by a commander".into(),
        other => other.replace('_', " "),
    }
}

/// The English line a log shows for `e`: commanders as "Commander N"
/// (seat + 1), cards by their catalog names. `public` is the public state
/// after the step; it names the card on a planet when there is one.
pub fn summary(e: &Event, public: &Public) -> String {
    let who = |s: &Seat| commander(*s);
    match e {
        Event::FirstCommander { seat } => format!("{} plays first", who(seat)),
        Event::ProfileSet { seat, profile } => format!(
            "{} sets its command profile: Diplomacy +{}, Capture +{profile}",
            who(seat),
            3u8.saturating_sub(*profile)
        ),
        Event::ExpertEmbarked { seat, kind } => format!("{} embarks {}", who(seat), a_or_an(expert_name(*kind))),
        Event::ObjectivesOffered { seat, cards } => {
            format!("{} draws {} to choose from", who(seat), plural(*cards, "Secret Objective", "Secret Objectives"))
        }
        Event::ObjectiveKept { seat } => format!("{} keeps a Secret Objective", who(seat)),
        Event::TurnStarted { seat, round } => format!("Round {round}: {}'s turn", who(seat)),
        Event::Drew { seat, cards } => {
            format!("{} draws {}", who(seat), plural(*cards, "Exploration card", "Exploration cards"))
        }
        Event::DeckReshuffled => "The discards are shuffled into a new Exploration deck".into(),
        Event::DiscardedFaceDown { seat, cards } => {
            format!("{} discards {} face down", who(seat), plural(*cards, "card", "cards"))
        }
        Event::Recruited { seat, personnel } => format!("{} recruits {}", who(seat), personnel_name(*personnel, 1)),
        Event::Equipped { seat, gear } => format!("{} installs a {}", who(seat), gear.as_str()),
        Event::Moved { seat, from, to } => {
            format!("{} moves from {} to {}", who(seat), sector_name(*from), sector_name(*to))
        }
        Event::Decoded { seat, slot } => {
            format!("{} decodes the face-down {} contact", who(seat), if *slot == 0 { "A" } else { "B" })
        }
        Event::Explored { seat, card } => format!("{} explores with {}", who(seat), exploration_name(*card)),
        Event::ExperienceGained { seat, domain, amount } => {
            format!("{} gains {amount} {} experience", who(seat), domain_name(*domain))
        }
        Event::DamageRolled { seat, face, loss } => {
            format!("{} rolls {face} on the damage table: {}", who(seat), loss_text(*loss))
        }
        Event::Fought { seat, needed, had, trophy, lost_laser } => format!(
            "{} fights a Xeno ship ({} needed, {had} aboard){}{}",
            who(seat),
            plural(*needed, "laser", "lasers"),
            if *trophy { " and wins its trophy" } else { "" },
            if *lost_laser { "; the fight costs a laser" } else { "" }
        ),
        Event::Evaded { seat } => format!("{} evades a Xeno ship, spending a risk detector", who(seat)),
        Event::Discovered { seat, planet, sector, card } => format!(
            "{} discovers {} in {}: {}",
            who(seat),
            planet_name(*planet),
            sector_name(*sector),
            extrasolar_name(*card)
        ),
        Event::ContactRevealed { card } => format!("{} is turned face up as the A contact", extrasolar_name(*card)),
        Event::Answered { seat, accepted } => {
            format!("{} {} the invitation", who(seat), if *accepted { "accepts" } else { "declines" })
        }
        Event::Landed { planet, participants, imperator } => {
            let on = match public.planets.get(usize::from(*planet)).copied().flatten() {
                Some(p) => format!("{} ({})", planet_name(*planet), extrasolar_name(p.card)),
                None => planet_name(*planet),
            };
            format!(
                "{} land{} on {on}{}",
                commanders(participants),
                if participants.len() == 1 { "s" } else { "" },
                if *imperator { " with the Imperator" } else { "" }
            )
        }
        Event::LandingAborted => "The landing is given up".into(),
        Event::MissionResolved { success } => {
            if *success {
                "The mission succeeds".into()
            } else {
                "The mission fails".into()
            }
        }
        Event::Pc { seat, delta, reason } => {
            let verb = if *delta < 0 { "loses" } else { "gains" };
            format!("{} {verb} {} PC ({})", who(seat), delta.unsigned_abs(), words(reason))
        }
        Event::Px { seat, gained, reason } => format!("{} gains {gained} PX ({})", who(seat), words(reason)),
        Event::PersonnelLost { seat, personnel, count } => {
            format!("{} loses {}", who(seat), personnel_name(*personnel, *count))
        }
        Event::ImperatorScored { score } => format!("The Imperator's score reaches {score}"),
        Event::ImperatorCard { card } => format!("{} is turned up", imperator_name(*card)),
        Event::ObjectiveRevealed { seat, objective, pc } => {
            format!("{} reveals the Secret Objective {}: {pc} PC", who(seat), objective_name(*objective))
        }
        Event::TechLearnt { seat, tech } => format!("{} learns {}", who(seat), tech_name(*tech)),
        Event::XCardTaken { seat, card } => format!("{} takes {} in Sector X", who(seat), extrasolar_name(*card)),
        Event::Promoted { seat } => format!("{}'s Frombola is promoted to a Spatha", who(seat)),
        Event::Repaired { seat } => format!("{}'s ship is repaired at the Star Base", who(seat)),
        Event::TurnEnded { seat, unused } => {
            format!("{} ends the turn ({} unused)", who(seat), plural(*unused, "card", "cards"))
        }
        Event::EndTriggered { cause } => format!("The end is triggered ({}): the round is played out", words(cause)),
        Event::GameOver { outcome } => {
            let result = if outcome.truncated {
                "cut by the round limit, no winner".to_string()
            } else if outcome.winners.is_empty() {
                "nobody wins".to_string()
            } else {
                format!("{} win{}", commanders(&outcome.winners), if outcome.winners.len() == 1 { "s" } else { "" })
            };
            format!("Game over ({}): {result}", words(&outcome.cause))
        }
    }
}

/// The variant name an internally tagged enum's JSON starts with
/// (`{"type":"drew",...}` gives `drew`); serde writes the tag first.
fn leading_tag(json: &str) -> Option<&str> {
    let rest = json.strip_prefix("{\"type\":\"")?;
    let name = &rest[..rest.find('"')?];
    (!name.contains('\\')).then_some(name)
}

/// The wire form of an event: its snake-case kind, its summary on
/// `public` (the public state after the step), its JSON and its typed form.
pub fn event(e: &Event, public: &Public) -> pb::Event {
    let event_json = serde_json::to_string(e).unwrap_or_default();
    let kind = leading_tag(&event_json).unwrap_or_default().to_string();
    pb::Event { kind, summary: summary(e, public), event_json, detail: Some(any::pack(&typed(e))) }
}
