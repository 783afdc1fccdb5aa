//! The decision model: at every step exactly one pending decision, the seat
//! that takes it, and the enumerated legal options, each with a stable text
//! id derived from its payload (so it can be stored and replayed), a
//! structured payload ([`Choice`]) and a short label. [`Pending`] and
//! [`Task`] are public state: they carry no hidden card.

use crate::content::{Domain, Sector};
use crate::state::{ExpertKind, PLANETS, Seat, Tech};
use serde::{Deserialize, Serialize};

/// Personnel a ship can hold: squads or one of the three experts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Personnel {
    /// A squad of legionnaires.
    Squad,
    /// An expert.
    Expert(ExpertKind),
}

impl Personnel {
    /// Every kind, squads first.
    pub const ALL: [Personnel; 4] = [
        Personnel::Squad,
        Personnel::Expert(ExpertKind::Diplomat),
        Personnel::Expert(ExpertKind::Adventurer),
        Personnel::Expert(ExpertKind::Hunter),
    ];
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Personnel::Squad => "squad",
            Personnel::Expert(k) => k.as_str(),
        }
    }
}

/// Equipment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gear {
    /// Space propulsor.
    Propulsor,
    /// Laser.
    Laser,
    /// Signal decoder (one level).
    Decoder,
    /// Risk detector.
    Detector,
}

impl Gear {
    /// All equipment.
    pub const ALL: [Gear; 4] = [Gear::Propulsor, Gear::Laser, Gear::Decoder, Gear::Detector];
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Gear::Propulsor => "propulsor",
            Gear::Laser => "laser",
            Gear::Decoder => "decoder",
            Gear::Detector => "detector",
        }
    }
}

/// What a run of card payments is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Recruit personnel (3 cards).
    Recruit(Personnel),
    /// Equip (2 cards; 1 from 0 to 1 propulsor).
    Equip(Gear),
    /// Cross a border.
    Move(Sector),
    /// Enter Sector X (6).
    EnterX,
    /// Leave Sector X for the Star Base (3).
    LeaveX,
    /// Decode a face-down contact: 0 = the A slot (1 card), 1 = B (2).
    Decode(u8),
    /// The discard risk of an Exploration card being confronted.
    Risk(u8),
}

/// A step queued behind the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Setup: choose the command profile.
    Profile(Seat),
    /// Setup: embark the starting expert.
    StartingExpert(Seat),
    /// Draw two objectives, keep one (setup, and at 18 PC).
    Objective(Seat),
    /// A commander's turn begins.
    StartTurn(Seat),
    /// The commander draws (after a promotion due at the turn's start).
    Draw(Seat),
    /// An invited commander answers.
    Answer(Seat),
    /// The active commander lands, with or without the Imperator, or not.
    Confirm,
    /// A participant names the domain it invests (double competence).
    Domain(Seat),
    /// The experience is counted (automatic).
    Experience,
    /// A participant spends experience towards the shortfall.
    Spend(Seat),
    /// PC are shared (automatic).
    Award,
    /// A participant may leave personnel for the star's PX.
    Star(Seat),
    /// A participant may part with one personnel for 1 PX.
    Dismiss(Seat),
    /// Ships leave the planet (automatic).
    Leave,
    /// 6 PX: Holodeck or Nanoprobes.
    Tech(Seat),
    /// Promotion: the board is flipped (automatic), then choices follow.
    Promote(Seat),
    /// Promotion: a new command profile.
    PromotionProfile(Seat),
    /// Promotion: one of the two experts.
    PromotionExpert(Seat),
}

/// The pending decision, as public state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Pending {
    /// Nothing pending: the engine runs the next task (never seen outside).
    Settling,
    /// Choose a command profile.
    Profile {
        /// Who.
        seat: Seat,
        /// At a promotion rather than at setup.
        promotion: bool,
    },
    /// Embark an expert (setup, or promotion).
    Expert {
        /// Who.
        seat: Seat,
        /// At a promotion rather than at setup.
        promotion: bool,
    },
    /// Keep one of the two objectives drawn.
    KeepObjective {
        /// Who.
        seat: Seat,
    },
    /// Draw 0 to N Exploration cards.
    Draw {
        /// Who.
        seat: Seat,
    },
    /// The active commander's next move.
    Turn {
        /// Who.
        seat: Seat,
    },
    /// Discard cards face down, one at a time.
    Pay {
        /// Who.
        seat: Seat,
        /// Cards still owed.
        left: u8,
        /// What for.
        purpose: Purpose,
    },
    /// Zone A discovery: take the face-up or the face-down contact.
    Contact {
        /// Who.
        seat: Seat,
        /// The planet token being placed.
        planet: u8,
    },
    /// A Xeno ship: fight, or evade with a risk detector.
    Combat {
        /// Who.
        seat: Seat,
        /// The Exploration card.
        card: u8,
    },
    /// Invite commanders of the sector to the landing.
    Invite {
        /// The active commander.
        seat: Seat,
    },
    /// Answer an invitation.
    Answer {
        /// The invited commander.
        seat: Seat,
    },
    /// Land, with or without the Imperator, or give up.
    Confirm {
        /// The active commander.
        seat: Seat,
    },
    /// Name the domain invested (double competence).
    Domain {
        /// The participant.
        seat: Seat,
    },
    /// Spend adventurers and table points towards the shortfall.
    Spend {
        /// The participant.
        seat: Seat,
        /// Points it must spend now.
        amount: u8,
    },
    /// Leave personnel for the star's PX, or not.
    Star {
        /// The participant.
        seat: Seat,
    },
    /// Part with one personnel for 1 PX, or not.
    Dismiss {
        /// The participant.
        seat: Seat,
    },
    /// Holodeck or Nanoprobes.
    Tech {
        /// Who.
        seat: Seat,
    },
    /// Choose an X card.
    ChooseX {
        /// Who.
        seat: Seat,
    },
    /// The game is over.
    Over,
}

impl Pending {
    /// The seat that decides, if any.
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Pending::Settling | Pending::Over => None,
            Pending::Profile { seat, .. }
            | Pending::Expert { seat, .. }
            | Pending::KeepObjective { seat }
            | Pending::Draw { seat }
            | Pending::Turn { seat }
            | Pending::Pay { seat, .. }
            | Pending::Contact { seat, .. }
            | Pending::Combat { seat, .. }
            | Pending::Invite { seat }
            | Pending::Answer { seat }
            | Pending::Confirm { seat }
            | Pending::Domain { seat }
            | Pending::Spend { seat, .. }
            | Pending::Star { seat }
            | Pending::Dismiss { seat }
            | Pending::Tech { seat }
            | Pending::ChooseX { seat } => Some(seat),
        }
    }

    /// Snake-case kind, as on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Pending::Settling => "settling",
            Pending::Profile { .. } => "profile",
            Pending::Expert { .. } => "expert",
            Pending::KeepObjective { .. } => "keep_objective",
            Pending::Draw { .. } => "draw",
            Pending::Turn { .. } => "turn",
            Pending::Pay { .. } => "pay",
            Pending::Contact { .. } => "contact",
            Pending::Combat { .. } => "combat",
            Pending::Invite { .. } => "invite",
            Pending::Answer { .. } => "answer",
            Pending::Confirm { .. } => "confirm",
            Pending::Domain { .. } => "domain",
            Pending::Spend { .. } => "spend",
            Pending::Star { .. } => "star",
            Pending::Dismiss { .. } => "dismiss",
            Pending::Tech { .. } => "tech",
            Pending::ChooseX { .. } => "choose_x",
            Pending::Over => "game_over",
        }
    }
}

/// A structured choice; clients normally pick an offered option by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Command profile line 0..=3.
    Profile(u8),
    /// Embark an expert.
    Expert(ExpertKind),
    /// Keep this objective (content index).
    Objective(u8),
    /// Draw this many cards.
    Draw(u8),
    /// Discard the whole draw (5 or more) to discover a planet.
    BigDiscover,
    /// Recruit (3 cards).
    Recruit(Personnel),
    /// Equip (2 cards, or 1 for the first propulsor).
    Equip(Gear),
    /// Cross into a neighbouring sector.
    Move(Sector),
    /// Go to Sector X (6 cards).
    EnterX,
    /// Leave Sector X for the Star Base (3 cards).
    LeaveX,
    /// Decode the face-down A (0) or B (1) contact.
    Decode(u8),
    /// Play this card face up to explore.
    Explore(u8),
    /// Land on this active planet (token 0..5).
    Land(u8),
    /// Repair at the Star Base (ends the exploration).
    Repair,
    /// Declare the end of the game (13 PX or more).
    DeclareEnd,
    /// End the turn (cards left cost 1 PC each).
    EndTurn,
    /// Discard this card face down.
    Pay(u8),
    /// Zone A discovery: the face-up (0) or face-down (1) contact.
    Contact(u8),
    /// Fight the Xeno ship.
    Fight,
    /// Use a risk detector to avoid it.
    Evade,
    /// Invite this commander.
    Invite(Seat),
    /// Send the invitations.
    SendInvitations,
    /// Accept an invitation.
    Accept,
    /// Decline it.
    Decline,
    /// Land with the ships that accepted.
    LandNow,
    /// Land with the Imperator too.
    LandWithImperator,
    /// Give up this landing.
    Abort,
    /// Invest this domain.
    Domain(Domain),
    /// Spend these adventurers and table points.
    Spend {
        /// Adventurers.
        adventurers: u8,
        /// Table points.
        points: u8,
    },
    /// Leave these personnel for the star.
    Leave {
        /// Squads, Diplomats, Adventurers, Hunters.
        counts: [u8; 4],
    },
    /// Leave nobody.
    Stay,
    /// Part with one personnel for 1 PX.
    Dismiss(Personnel),
    /// Keep everyone.
    Keep,
    /// Learn a technology.
    Tech(Tech),
    /// Take this X card.
    XCard(u8),
}

impl Choice {
    /// The stable id.
    pub fn id(&self) -> String {
        let c = crate::content::Content::get();
        let ex = |i: u8| c.exploration.get(usize::from(i)).map_or("?", |d| d.id.as_str());
        match *self {
            Choice::Profile(p) => format!("profile:{p}"),
            Choice::Expert(k) => format!("expert:{}", k.as_str()),
            Choice::Objective(o) => {
                format!("objective:{}", c.objectives.get(usize::from(o)).map_or("?", |d| d.id.as_str()))
            }
            Choice::Draw(n) => format!("draw:{n}"),
            Choice::BigDiscover => "discard_all_to_discover".into(),
            Choice::Recruit(p) => format!("recruit:{}", p.as_str()),
            Choice::Equip(g) => format!("equip:{}", g.as_str()),
            Choice::Move(s) => format!("move:s{}", s + 1),
            Choice::EnterX => "enter_sector_x".into(),
            Choice::LeaveX => "leave_sector_x".into(),
            Choice::Decode(s) => format!("decode:{}", if s == 0 { "a" } else { "b" }),
            Choice::Explore(i) => format!("explore:{}", ex(i)),
            Choice::Land(p) => format!("land:{}", PLANETS.get(usize::from(p)).unwrap_or(&"?")),
            Choice::Repair => "repair".into(),
            Choice::DeclareEnd => "declare_end".into(),
            Choice::EndTurn => "end_turn".into(),
            Choice::Pay(i) => format!("discard:{}", ex(i)),
            Choice::Contact(s) => format!("contact:{}", if s == 0 { "face_up" } else { "face_down" }),
            Choice::Fight => "fight".into(),
            Choice::Evade => "evade".into(),
            Choice::Invite(s) => format!("invite:{s}"),
            Choice::SendInvitations => "send_invitations".into(),
            Choice::Accept => "accept".into(),
            Choice::Decline => "decline".into(),
            Choice::LandNow => "land_now".into(),
            Choice::LandWithImperator => "land_with_imperator".into(),
            Choice::Abort => "abort_landing".into(),
            Choice::Domain(d) => format!("domain:{}", d.as_str()),
            Choice::Spend { adventurers, points } => format!("spend:{adventurers}a{points}p"),
            Choice::Leave { counts: [s, d, a, h] } => format!("leave:{s}s{d}d{a}a{h}h"),
            Choice::Stay => "leave_nobody".into(),
            Choice::Dismiss(p) => format!("dismiss:{}", p.as_str()),
            Choice::Keep => "dismiss_nobody".into(),
            Choice::Tech(t) => format!("tech:{}", if t == Tech::Holodeck { "holodeck" } else { "nanoprobes" }),
            Choice::XCard(i) => {
                format!("x_card:{}", c.extrasolar.get(usize::from(i)).map_or("?", |d| d.id.as_str()))
            }
        }
    }
}

/// One offered option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceOption {
    /// Stable id.
    pub id: String,
    /// Short human label.
    pub label: String,
    /// Structured payload.
    pub choice: Choice,
    /// What it costs and brings at once.
    #[serde(default)]
    pub price: crate::price::Price,
}

/// The pending decision with its options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Snake-case kind.
    pub kind: String,
    /// Who decides (`None` once the game is over).
    pub seat: Option<Seat>,
    /// What is asked, in words.
    pub prompt: String,
    /// The legal options (never empty before the end).
    pub options: Vec<ChoiceOption>,
}
