//! Events: what an accepted choice did, in order. Events are public: they
//! never name a card that is hidden from anyone (a draw is a count, a face-
//! down discard a count), so a host may send them to every seat.

use crate::content::{Domain, Loss, SECTOR_X, Sector};
use crate::decision::{Gear, Personnel};
use crate::state::{ExpertKind, Outcome, Seat, Tech};
use serde::{Deserialize, Serialize};

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// Setup is done; the first commander is known.
    FirstCommander {
        /// Who plays first.
        seat: Seat,
    },
    /// A command profile was set.
    ProfileSet {
        /// Who.
        seat: Seat,
        /// Line 0..=3.
        profile: u8,
    },
    /// An expert came aboard.
    ExpertEmbarked {
        /// Who.
        seat: Seat,
        /// Kind.
        kind: ExpertKind,
    },
    /// Objectives were drawn for a seat to choose from (which ones only
    /// that seat sees).
    ObjectivesOffered {
        /// Who.
        seat: Seat,
        /// How many (two, fewer if the pile runs short).
        cards: u8,
    },
    /// An objective was kept (which one stays secret).
    ObjectiveKept {
        /// Who.
        seat: Seat,
    },
    /// A turn began.
    TurnStarted {
        /// Whose.
        seat: Seat,
        /// Round.
        round: u32,
    },
    /// Cards were drawn.
    Drew {
        /// Who.
        seat: Seat,
        /// How many.
        cards: u8,
    },
    /// The discard was shuffled into a new Exploration deck.
    DeckReshuffled,
    /// Cards were discarded face down.
    DiscardedFaceDown {
        /// Who.
        seat: Seat,
        /// How many.
        cards: u8,
    },
    /// Personnel recruited.
    Recruited {
        /// Who.
        seat: Seat,
        /// What.
        personnel: Personnel,
    },
    /// Equipment installed.
    Equipped {
        /// Who.
        seat: Seat,
        /// What.
        gear: Gear,
    },
    /// A ship moved.
    Moved {
        /// Who.
        seat: Seat,
        /// From.
        from: Sector,
        /// To.
        to: Sector,
    },
    /// A face-down contact was decoded (only the decoder learns it).
    Decoded {
        /// Who.
        seat: Seat,
        /// 0 = A, 1 = B.
        slot: u8,
    },
    /// A card was played face up.
    Explored {
        /// Who.
        seat: Seat,
        /// Exploration card.
        card: u8,
    },
    /// Experience was gained.
    ExperienceGained {
        /// Who.
        seat: Seat,
        /// Domain.
        domain: Domain,
        /// Points actually added.
        amount: u8,
    },
    /// The d10 was rolled on the damage table.
    DamageRolled {
        /// Who.
        seat: Seat,
        /// Face 1..=10.
        face: u8,
        /// The loss.
        loss: Loss,
    },
    /// A Xeno ship fight ended.
    Fought {
        /// Who.
        seat: Seat,
        /// Lasers needed.
        needed: u8,
        /// Lasers at the start.
        had: u8,
        /// The trophy was won.
        trophy: bool,
        /// A laser was lost (every fight costs one, if any is left after
        /// the damage rolls). Absent from events stored before it existed.
        #[serde(default)]
        lost_laser: bool,
    },
    /// A risk detector avoided a Xeno ship.
    Evaded {
        /// Who.
        seat: Seat,
    },
    /// A planet was discovered.
    Discovered {
        /// Who.
        seat: Seat,
        /// Token 0..5.
        planet: u8,
        /// Sector.
        sector: Sector,
        /// Its Extrasolar card.
        card: u8,
    },
    /// A contact card slid into the face-up A slot.
    ContactRevealed {
        /// The card.
        card: u8,
    },
    /// An invitation was answered.
    Answered {
        /// Who.
        seat: Seat,
        /// Yes or no.
        accepted: bool,
    },
    /// Ships landed.
    Landed {
        /// Token.
        planet: u8,
        /// Commanders, in turn order.
        participants: Vec<Seat>,
        /// The Imperator came.
        imperator: bool,
    },
    /// A landing was given up.
    LandingAborted,
    /// A mission's experience was met or not.
    MissionResolved {
        /// Met.
        success: bool,
    },
    /// PC changed.
    Pc {
        /// Who.
        seat: Seat,
        /// By how much (after the floor at 0).
        delta: i32,
        /// Why, snake-case.
        reason: String,
    },
    /// PX gained.
    Px {
        /// Who.
        seat: Seat,
        /// How many.
        gained: u8,
        /// Why, snake-case.
        reason: String,
    },
    /// Personnel left a ship (left on a planet, dismissed, spent, lost).
    PersonnelLost {
        /// Who.
        seat: Seat,
        /// What.
        personnel: Personnel,
        /// How many.
        count: u8,
    },
    /// The Imperator's pawn moved.
    ImperatorScored {
        /// Its score now.
        score: u8,
    },
    /// A new Imperator card was turned up.
    ImperatorCard {
        /// The card.
        card: u8,
    },
    /// An objective was revealed.
    ObjectiveRevealed {
        /// Whose.
        seat: Seat,
        /// Which.
        objective: u8,
        /// PC scored.
        pc: u8,
    },
    /// A technology was learnt.
    TechLearnt {
        /// Who.
        seat: Seat,
        /// Which.
        tech: Tech,
    },
    /// An X card was taken.
    XCardTaken {
        /// Who.
        seat: Seat,
        /// Which.
        card: u8,
    },
    /// A ship was promoted to a Spatha.
    Promoted {
        /// Who.
        seat: Seat,
    },
    /// A ship was repaired.
    Repaired {
        /// Who.
        seat: Seat,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        seat: Seat,
        /// Cards left unused (1 PC each).
        unused: u8,
    },
    /// The end was triggered; the round is finished first.
    EndTriggered {
        /// Why.
        cause: String,
    },
    /// The game is over.
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
}

/// Whether a step that produced these events may be taken back by its seat:
/// nothing random happened and nothing hidden was revealed to anyone (a
/// draw, a shuffle, a roll, a contact or Imperator card turned, objectives
/// offered, kept or revealed, the X pile shown on entering Sector X, a new
/// turn). [`crate::Game::apply_checked`] adds the state check.
pub fn undoable(events: &[Event]) -> bool {
    !events.iter().any(|e| {
        matches!(e, Event::Moved { to: SECTOR_X, .. })
            || matches!(
                e,
                Event::Drew { .. }
                    | Event::DeckReshuffled
                    | Event::DamageRolled { .. }
                    | Event::Discovered { .. }
                    | Event::ContactRevealed { .. }
                    | Event::Decoded { .. }
                    | Event::ImperatorCard { .. }
                    | Event::ObjectivesOffered { .. }
                    | Event::ObjectiveKept { .. }
                    | Event::ObjectiveRevealed { .. }
                    | Event::TurnStarted { .. }
                    | Event::GameOver { .. }
            )
    })
}
