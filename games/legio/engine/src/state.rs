//! The game state, split on purpose: [`Public`] is what every commander and
//! spectator sees; [`Hidden`] holds the deck orders, the hands, the
//! objectives, the face-down contacts, the X pile and the generator. A view
//! copies the public half and adds the viewer's own secrets; a sample keeps
//! the public half and redraws the rest.

use crate::config::GameConfig;
use crate::content::{Content, Domain, Sector, Tracks};
use crate::decision::{Pending, Task};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};

/// A seat: one commander, `0..players`.
pub type Seat = u8;

/// The names of the five active-planet tokens, in slot order.
pub const PLANETS: [&str; 5] = ["alpha", "beta", "gamma", "delta", "epsilon"];

/// Which side of its board a ship shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The starting ship.
    Frombola,
    /// After promotion.
    Spatha,
}

/// The three kinds of expert (rulebook "Les Personnels").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpertKind {
    /// Permanent Diplomacy point (8 tokens).
    Diplomat,
    /// One point in any domain, discarded after use below 12 PX (10 tokens).
    Adventurer,
    /// Permanent Capture point (8 tokens).
    Hunter,
}

impl ExpertKind {
    /// All kinds.
    pub const ALL: [ExpertKind; 3] = [ExpertKind::Diplomat, ExpertKind::Adventurer, ExpertKind::Hunter];
    /// Tokens in the box.
    pub fn tokens(self) -> u8 {
        match self {
            ExpertKind::Adventurer => 10,
            _ => 8,
        }
    }
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ExpertKind::Diplomat => "diplomat",
            ExpertKind::Adventurer => "adventurer",
            ExpertKind::Hunter => "hunter",
        }
    }
}

/// Experts by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Experts(pub [u8; 3]);

impl Experts {
    /// How many of a kind.
    pub fn get(&self, k: ExpertKind) -> u8 {
        self.0[k as usize]
    }
    /// Mutable count of a kind.
    pub fn get_mut(&mut self, k: ExpertKind) -> &mut u8 {
        &mut self.0[k as usize]
    }
    /// All experts.
    pub fn total(&self) -> u8 {
        self.0.iter().sum()
    }
}

/// The technology learnt at 6 PX.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tech {
    /// +1 permanent Diplomacy (sapiens missions).
    Holodeck,
    /// +1 permanent Capture (non-sapiens missions).
    Nanoprobes,
}

impl Tech {
    /// The domain it helps.
    pub fn domain(self) -> Domain {
        match self {
            Tech::Holodeck => Domain::Diplomacy,
            Tech::Nanoprobes => Domain::Capture,
        }
    }
}

/// A commander's ship and board, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ship {
    /// Its commander.
    pub seat: Seat,
    /// Frombola or Spatha.
    pub side: Side,
    /// Where it is (0..=4 = S1..S5, 5 = Sector X).
    pub sector: Sector,
    /// Command profile line 0..=3: Diplomacy bonus 3 - p, Capture bonus p.
    pub profile: u8,
    /// Equipment and squads.
    pub tracks: Tracks,
    /// Experts aboard.
    pub experts: Experts,
    /// The experience table: Diplomacy, Capture.
    pub experience: [u8; 2],
    /// Holodeck or Nanoprobes, from 6 PX.
    pub tech: Option<Tech>,
    /// The Imperator counter.
    pub imperator_calls: u8,
    /// The special-mission counter: 1 once the ship went to Sector X.
    pub special_missions: u8,
    /// Mapping points (never below 0).
    pub pc: u32,
    /// Xenoscience points.
    pub px: u8,
    /// Extrasolar cards of the planets it discovered, once explored.
    pub trophies: Vec<u8>,
    /// X cards taken in Sector X.
    pub x_cards: Vec<u8>,
    /// Objectives revealed (content indices).
    pub revealed: Vec<u8>,
    /// It already drew its second objective (18 PC).
    pub second_objective: bool,
}

impl Ship {
    /// Permanent experience in a domain (profile, specialists, technology).
    pub fn permanent(&self, d: Domain) -> u8 {
        let (profile, kind) = match d {
            Domain::Diplomacy => (3 - self.profile.min(3), ExpertKind::Diplomat),
            Domain::Capture => (self.profile.min(3), ExpertKind::Hunter),
        };
        profile + self.experts.get(kind) + u8::from(self.tech.map(Tech::domain) == Some(d))
    }

    /// Cards this ship may draw now.
    pub fn max_draw(&self, c: &Content) -> u8 {
        let cards = &c.side(self.side).cards;
        cards.get(usize::from(self.tracks.propulsors)).or(cards.last()).copied().unwrap_or(0)
    }

    /// Personnel aboard (squads and experts).
    pub fn personnel(&self) -> u8 {
        self.tracks.squads + self.experts.total()
    }
}

/// A planet made active by a discovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActivePlanet {
    /// Its sector.
    pub sector: Sector,
    /// Its Extrasolar card (face up).
    pub card: u8,
    /// Who discovered it.
    pub discoverer: Seat,
}

/// What the active commander did this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnFlags {
    /// Cards drawn at the start.
    pub drawn: u8,
    /// Something was done after the draw (the 5+ discard is gone).
    pub acted: bool,
    /// The decoder was used.
    pub decoded: bool,
    /// The one landing of the turn was used (or tried).
    pub landed: bool,
    /// A repair ended the exploration.
    pub exploration_over: bool,
}

/// The Imperator, flagship of the VII Legion.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Imperator {
    /// Its pawn on the score track.
    pub score: u8,
    /// The visible card.
    pub card: Option<u8>,
    /// Used cards, face up.
    pub discard: Vec<u8>,
}

/// A landing being arranged.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Landing {
    /// The planet token (0..5).
    pub planet: u8,
    /// Commanders invited, in the order invited.
    pub invited: Vec<Seat>,
    /// Those who accepted.
    pub accepted: Vec<Seat>,
}

/// A mission under way on a planet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mission {
    /// The planet token.
    pub planet: u8,
    /// Its Extrasolar card.
    pub card: u8,
    /// Participants in turn order from the active commander.
    pub participants: Vec<Seat>,
    /// The Imperator's card, if it was called.
    pub imperator: Option<u8>,
    /// Domain each participant invests (parallel to `participants`).
    pub domains: Vec<Option<Domain>>,
    /// Experience still missing, to be spent in turn order.
    pub shortfall: u8,
    /// The experience was met.
    pub success: bool,
    /// Each participant gained PC or PX in this mission.
    pub gained: Vec<bool>,
}

/// How a game ended (the shape of the service's `Outcome::Ranked`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Each seat's PC, in seat order.
    pub scores: Vec<i64>,
    /// Each seat's PX, in seat order.
    pub px: Vec<u8>,
    /// Seats from first to last place: those with 10 PX or more by PC
    /// then PX, then the others by PX then PC. Empty when `truncated`.
    pub ranking: Vec<Seat>,
    /// The winners (several when shared; none if nobody reached 10 PX).
    /// Empty when `truncated`.
    pub winners: Vec<Seat>,
    /// Why it ended, snake-case.
    pub cause: String,
    /// The round it ended in.
    pub round: u32,
    /// The game was cut by the round limit, not ended by the rules: it has
    /// no ranking and no winner (from rules revision 1; always false in
    /// revision 0 games, where the limit ranks like a real end). Not
    /// encoded when false, so revision 0 hashes are unchanged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Everything every commander may see.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Public {
    /// Round number, from 1.
    pub round: u32,
    /// Choices accepted so far.
    pub seq: u64,
    /// The first commander (holder of the 1st U.C. token).
    pub first: Seat,
    /// Whose turn it is.
    pub active: Seat,
    /// The pending decision (public parts only).
    pub pending: Pending,
    /// Steps queued after it, in order.
    pub tasks: Vec<Task>,
    /// The ships, in seat order.
    pub ships: Vec<Ship>,
    /// The active commander's turn so far.
    pub turn: TurnFlags,
    /// The five active-planet tokens: `None` while off the map.
    pub planets: [Option<ActivePlanet>; 5],
    /// Explored-planet tokens per sector S1..S5.
    pub explored: [u8; 5],
    /// The leftmost A contact, face up.
    pub contact_a1: Option<u8>,
    /// The second A slot and the B slot hold a face-down card.
    pub contact_down: [bool; 2],
    /// Seats that decoded the current face-down A and B cards.
    pub contact_seen: [Vec<Seat>; 2],
    /// Seats that have seen the X pile.
    pub x_seen_by: Vec<Seat>,
    /// The Imperator.
    pub imperator: Imperator,
    /// Exploration cards discarded face up (played to explore).
    pub discard_up: Vec<u8>,
    /// Experts in the common supply, by kind.
    pub supply: Experts,
    /// A landing being arranged.
    pub landing: Option<Landing>,
    /// A mission under way.
    pub mission: Option<Mission>,
    /// The end was triggered (cause): the round is being finished.
    pub end: Option<String>,
    /// The outcome, once over.
    pub outcome: Option<Outcome>,
}

/// Everything some or all commanders may not see.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Hidden {
    /// The generator (hashed through its position, not serialized).
    #[serde(skip)]
    pub rng: GameRng,
    /// The Exploration deck, top last.
    pub deck: Vec<u8>,
    /// Cards discarded face down, with who discarded them.
    pub discard_down: Vec<(u8, Seat)>,
    /// Each seat's hand (only the active commander holds cards).
    pub hands: Vec<Vec<u8>>,
    /// Each seat's unrevealed objectives.
    pub objectives: Vec<Vec<u8>>,
    /// Each seat's objectives on offer (two drawn, one to keep).
    pub offers: Vec<Vec<u8>>,
    /// The objective pile, top last.
    pub objective_pile: Vec<u8>,
    /// The A and B Extrasolar piles, top last.
    pub piles: [Vec<u8>; 2],
    /// The X pile (kept sorted: it is chosen from, not drawn).
    pub pile_x: Vec<u8>,
    /// The face-down A and B contacts.
    pub contacts: [Option<u8>; 2],
    /// The Imperator deck, top last.
    pub imperator_deck: Vec<u8>,
}

/// A game of VII Legio.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) config: GameConfig,
    pub(crate) pb: Public,
    pub(crate) hid: Hidden,
}

impl Game {
    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }
    /// Whether this game plays rules revision `n` or a later one.
    pub fn revised(&self, n: u32) -> bool {
        self.config.rules_revision() >= n
    }
    /// The public half.
    pub fn public(&self) -> &Public {
        &self.pb
    }
    /// How it ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.pb.outcome.as_ref()
    }
    /// The round now.
    pub fn round(&self) -> u32 {
        self.pb.round
    }
    /// Number of commanders.
    pub fn players(&self) -> usize {
        self.pb.ships.len()
    }
    /// The content.
    pub(crate) fn content(&self) -> &'static Content {
        Content::get()
    }
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &[u8] {
        self.hid.hands.get(usize::from(seat)).map_or(&[], |h| h.as_slice())
    }
    /// A seat's unrevealed objectives.
    pub fn hidden_objectives(&self, seat: Seat) -> &[u8] {
        self.hid.objectives.get(usize::from(seat)).map_or(&[], |h| h.as_slice())
    }
    pub(crate) fn ship(&self, seat: Seat) -> &Ship {
        &self.pb.ships[usize::from(seat)]
    }
    pub(crate) fn ship_mut(&mut self, seat: Seat) -> &mut Ship {
        &mut self.pb.ships[usize::from(seat)]
    }
    /// The seat after `seat` (clockwise).
    pub(crate) fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players() as Seat
    }
    /// Seats in turn order starting at `from`.
    pub(crate) fn order_from(&self, from: Seat) -> Vec<Seat> {
        let n = self.players() as Seat;
        (0..n).map(|i| (from + i) % n).collect()
    }
    /// Every Exploration card, wherever it is (for conservation checks).
    pub fn exploration_cards_everywhere(&self) -> usize {
        self.hid.deck.len()
            + self.hid.discard_down.len()
            + self.pb.discard_up.len()
            + self.hid.hands.iter().map(Vec::len).sum::<usize>()
    }
    /// Every Extrasolar card, wherever it is.
    pub fn extrasolar_cards_everywhere(&self) -> usize {
        self.hid.piles.iter().map(Vec::len).sum::<usize>()
            + self.hid.pile_x.len()
            + self.hid.contacts.iter().flatten().count()
            + usize::from(self.pb.contact_a1.is_some())
            + self.pb.planets.iter().flatten().count()
            + self.pb.ships.iter().map(|s| s.trophies.len() + s.x_cards.len()).sum::<usize>()
    }
    /// Every Imperator card, wherever it is.
    pub fn imperator_cards_everywhere(&self) -> usize {
        self.hid.imperator_deck.len() + self.pb.imperator.discard.len() + usize::from(self.pb.imperator.card.is_some())
    }
    /// Every Secret Objective, wherever it is.
    pub fn objectives_everywhere(&self) -> usize {
        self.hid.objective_pile.len()
            + self.hid.objectives.iter().map(Vec::len).sum::<usize>()
            + self.hid.offers.iter().map(Vec::len).sum::<usize>()
            + self.pb.ships.iter().map(|s| s.revealed.len()).sum::<usize>()
    }
    /// Expert tokens aboard ships and in the supply, by kind.
    pub fn experts_everywhere(&self) -> [u8; 3] {
        let mut out = self.pb.supply.0;
        for s in &self.pb.ships {
            for (o, n) in out.iter_mut().zip(s.experts.0) {
                *o += n;
            }
        }
        out
    }
}
