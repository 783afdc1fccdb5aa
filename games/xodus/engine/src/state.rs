//! The game state. It is split in two halves on purpose: [`Public`] is what
//! every captain (and every spectator) may see, [`Hidden`] holds the orders
//! of face-down stacks and decks and the random generator. A view is the
//! public half; a determinization keeps the public half and resamples the
//! hidden one, which is how the AI searches without cheating.

use crate::config::{GameConfig, ShipKind};
use crate::content::{Content, DieColor, SystemKind};
use crate::decision::Pending;
use crate::hex::{Hex, MAX_TILES};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};

/// A seat: one ship's captain, `0..ship count`.
pub type Seat = u8;

/// The three phases of a turn (rulebook p. 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players spend their Actions.
    Action,
    /// The Corruption rises and the Avatars move.
    Corruption,
    /// Clean-up.
    End,
    /// The game is over.
    Over,
}

impl Phase {
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Action => "action",
            Phase::Corruption => "corruption",
            Phase::End => "end",
            Phase::Over => "over",
        }
    }
}

/// State of a Pacify marker on a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pacified {
    /// Placed this turn (green face).
    Green,
    /// Flipped at the last End phase (red face), removed at the next.
    Red,
}

/// A revealed system on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlacedTile {
    /// Index into the content's tile list.
    pub tile: u8,
    /// Where it lies.
    pub hex: Hex,
    /// Rotation applied to its printed lanes.
    pub rotation: u8,
    /// Lane openings by direction after rotation (bit d = lane towards d).
    pub lanes: u8,
    /// An Exploration marker lies here.
    pub exploration_marker: bool,
    /// The Precursor Key marker of this Signal system, until it is accessed.
    pub key_marker: Option<u8>,
    /// Pacify marker.
    pub pacified: Option<Pacified>,
    /// A red Rift marker opened a rift here.
    pub rift_created: bool,
    /// A white Rift marker closed this system's rift.
    pub rift_disabled: bool,
    /// Keys activated here (Main Rift only).
    pub keys_activated: Vec<u8>,
}

/// A ship and its mat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ship {
    /// Seat of its captain.
    pub seat: Seat,
    /// Which ship.
    pub kind: ShipKind,
    /// Where its token is.
    pub hex: Hex,
    /// Health markers on their blue face.
    pub health: u8,
    /// Health markers owned (permanent discards lower it).
    pub max_health: u8,
    /// Energy markers unlocked.
    pub energy_total: u8,
    /// Energy markers flipped (spent) this turn.
    pub energy_used: u8,
    /// Scraps owned.
    pub scraps: u8,
    /// Experience points.
    pub xp: u8,
    /// Level on the XP track (1..=6).
    pub level: u8,
    /// Damaged cards on the ship (indices into content).
    pub damaged: Vec<u8>,
    /// Precursor Keys carried.
    pub keys: Vec<u8>,
    /// Actions left this turn.
    pub actions_left: u8,
    /// Strained this turn (Damage Roll owed at the end of its Action phase).
    pub strained: bool,
    /// Its turn has started this round.
    pub turn_started: bool,
    /// Activation marker flipped: its turn is over this round.
    pub played: bool,
    /// Scavenged this turn (once per turn).
    pub scavenged: bool,
    /// Disengaged and still in that system: only Jump, Blind Jump and
    /// Rush remain (FAQ). From rules revision 2 leaving the system lifts
    /// it; before, it lasted the whole turn.
    pub disengaged: bool,
    /// Hiding in its system until its next turn (FAQ, hiding).
    pub hidden: bool,
    /// Engaged with the Enemies or Avatars of its system.
    pub engaged: bool,
    /// Destroyed; its token stays where it fell.
    pub defeated: bool,
    /// Fleet id this turn (ships with the same id fly together).
    pub fleet: Option<u8>,
    /// Ship Modules and Precursor Ship Modules installed (content indices).
    pub modules: Vec<u8>,
    /// Precursor Mod effects unlocked (content indices into the mod effects).
    pub mods: Vec<u8>,
    /// Powers already used this turn outside combat (once per action).
    pub powers_used: Vec<crate::decision::Source>,
    /// Stealth Alloy is active this turn.
    pub cloaked: bool,
    /// Hyperspace Shield is active this turn: the Rush may pass Avatars.
    pub rush_shield: bool,
    /// Strains given back this turn by the Maintenance Drone (FAQ: up to 3).
    pub strain_recoveries: u8,
    /// Energy relayed for or by this ship this turn (FAQ: once).
    pub relayed: bool,
    /// Energy markers discarded for good (p. 16, Avatar abilities): their
    /// slots on the mat stay empty, so the next purchase is priced past
    /// them (rules revision 3).
    #[serde(default, skip_serializing_if = "no_bits")]
    pub energy_lost: u8,
}

/// An Ally met on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AllyInPlay {
    /// Which Ally.
    pub kind: crate::config::AllyKind,
    /// Its system.
    pub hex: Hex,
    /// Modules still on offer (content indices).
    pub offer: Vec<u8>,
}

/// One die of an attack roll and what mods and modules did to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RolledDie {
    /// Die colour.
    pub color: DieColor,
    /// Face shown.
    pub face: crate::content::Face,
    /// Already rerolled (each die at most once).
    pub rerolled: bool,
    /// Used to trigger an effect: can be neither rerolled nor ignored.
    pub used: bool,
    /// A miss that is ignored: no retaliation, damage or Enemy ability.
    pub ignored: bool,
    /// Counts double (Berserker Cannon).
    pub doubled: bool,
}

/// One ship's part of an attack roll.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatRoll {
    /// The ship.
    pub seat: Seat,
    /// Offense (all dice) or Defense (one die).
    pub offense: bool,
    /// The dice.
    pub dice: Vec<RolledDie>,
    /// Hits added by effects.
    pub bonus_hits: u8,
}

/// An Enemy card lying on the board in a system.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardEnemy {
    /// Index into the content's Enemy list.
    pub card: u8,
    /// Its system.
    pub hex: Hex,
    /// Damage markers on it.
    pub damage: u8,
    /// Guards a Precursor Signal (the Key number).
    pub guards_key: Option<u8>,
}

/// Where an Avatar is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "at")]
pub enum AvatarPlace {
    /// A token on the Corruption mat.
    Mat {
        /// Timeline space.
        space: u8,
    },
    /// On the board.
    Board {
        /// Its system.
        hex: Hex,
    },
    /// Out of the game (escaped past the Rise).
    Gone,
}

/// An Avatar whose identity is known (face up on the mat or in play).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Avatar {
    /// Index into the content's Avatar list.
    pub card: u8,
    /// Where it is.
    pub place: AvatarPlace,
    /// Damage markers.
    pub damage: u8,
}

/// A Precursor Signal slot on the Corruption mat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SignalSlot {
    /// The Key number (1..=4).
    pub key: u8,
    /// The card, once revealed (index into content).
    pub card: Option<u8>,
    /// Progress kept on the card (repairs made, scraps paid, guardian beaten).
    pub progress: u8,
    /// Solved: the Key left the card.
    pub solved: bool,
}

/// Which engagement a fight belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fight {
    /// The system.
    pub hex: Hex,
    /// The ships fighting (alive, engaged).
    pub seats: Vec<Seat>,
    /// Started by a Pacify action: winning pacifies the system.
    pub pacify: bool,
    /// Enemies defeated in this fight.
    pub defeated: u8,
    /// Enemies sent back into the deck by Decoys.
    pub decoys: u8,
    /// A Decoy Probe was used: pacify if every Enemy was sent back (FAQ).
    pub decoy_pacifies: bool,
    /// An attack was declared or a power used against the foes: from then
    /// on nobody may join the fleet until the fight is over (FAQ,
    /// Explorations: a fight, like an Exploration, shuts others out).
    /// Before that, ships in the system may be invited to help (p. 16).
    #[serde(default)]
    pub begun: bool,
    /// Ships that gave or took a relayed energy in the current attack
    /// (Energy Relays, rules revision 3: one relayed energy per attack).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relayed: Vec<Seat>,
    /// Only the Avatars of the system are fought: the group slipped past
    /// the Enemy card lying there, its Detection Roll beside the Avatar
    /// having succeeded (FAQ, "Ennemis et Combats": the Enemy left in the
    /// system is engaged only on detection; rules revision 4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub avatars_only: bool,
}

/// The Corruption mat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Corruption {
    /// Marker position on the timeline (0 = the X-ODUS begins).
    pub position: u8,
    /// Rise of the Corruption space.
    pub rise: u8,
    /// Spaces holding face-down Avatar tokens.
    pub face_down: Vec<u8>,
    /// Spaces without an Avatar token that still reinforce the Enemy deck:
    /// empty under the rulebook (its red spaces are the Avatar spaces);
    /// only configurations stored before that fix have some.
    pub red_boxes: Vec<u8>,
    /// Avatar movement modifier for this turn (explorations, signals).
    pub movement_this_turn: i8,
    /// Permanent movement modifier (Heroic).
    pub movement_permanent: i8,
    /// The Keys are all activated: Avatars head for the Main Rift.
    pub rift_rush: bool,
    /// Systems where giving ground to Avatars already advanced the marker
    /// this round: the Corruption progresses once per system, when the
    /// last player there leaves (p. 16, FAQ "Avatars"). Cleared in the End phase.
    #[serde(default)]
    pub retreats_this_round: Vec<Hex>,
    /// Systems where captains gave ground to Avatars this round and some
    /// player is still there: the marker advances when the last one
    /// leaves (FAQ "Avatars"; rules revision 2). Cleared in the End phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreats_waiting: Vec<Hex>,
    /// The Avatar Movement markers laid this turn (p. 3, p. 11: one white
    /// for -1, one red for +1): [`MOVEMENT_WHITE`] and [`MOVEMENT_RED`]
    /// bits, rules revision 3. Cleared in the End phase.
    #[serde(default, skip_serializing_if = "no_bits")]
    pub movement_markers: u8,
}

/// The white Avatar Movement marker (-1) lies on the mat this turn.
pub const MOVEMENT_WHITE: u8 = 1;
/// The red Avatar Movement marker (+1) lies on the mat this turn.
pub const MOVEMENT_RED: u8 = 2;

fn no_bits(bits: &u8) -> bool {
    *bits == 0
}

/// The public structure of the System stack: players know how the piles
/// were built, not the order inside them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pile {
    /// Tiles left in the pile.
    pub remaining: u8,
    /// This pile still holds its red tile (or, for the bottom pile, the Main Rift).
    pub special_left: bool,
    /// The bottom pile holds the Main Rift instead of a red tile.
    pub bottom: bool,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The Rift was sealed.
    pub won: bool,
    /// Why it ended: "rift_sealed", "corruption_risen" or "all_ships_destroyed".
    pub cause: String,
    /// The round it ended in.
    pub round: u32,
}

/// Everything every captain may see.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Public {
    /// Turn number, from 1.
    pub round: u32,
    /// Current phase.
    pub phase: Phase,
    /// Accepted choices so far (a decimal string in JSON).
    #[serde(with = "crate::json64")]
    pub seq: u64,
    /// Revealed systems.
    pub tiles: Vec<PlacedTile>,
    /// Tiles out of this game (3-ship variant).
    pub removed_tiles: Vec<u8>,
    /// Piles of the System stack, top pile last.
    pub piles: Vec<Pile>,
    /// Ships, by seat.
    pub ships: Vec<Ship>,
    /// The Corruption mat.
    pub corruption: Corruption,
    /// Avatars whose identity is known.
    pub avatars: Vec<Avatar>,
    /// Enemy cards on the board.
    pub board_enemies: Vec<BoardEnemy>,
    /// Enemy discard pile (face up).
    pub enemy_discard: Vec<u8>,
    /// Cards per level (index 0 = level 1) in the Enemy deck.
    pub deck_levels: [u8; 4],
    /// Cards per level in the Enemy reserve.
    pub reserve_levels: [u8; 4],
    /// Precursor Signal slots, one per Key.
    pub signals: Vec<SignalSlot>,
    /// Damaged cards discarded (removed by maintenance).
    pub damaged_discard: Vec<u8>,
    /// Exploration markers left in the supply.
    pub exploration_supply: u8,
    /// Pacify markers left in the supply.
    pub pacify_supply: u8,
    /// The active player or fleet.
    pub active: Vec<Seat>,
    /// The fight in progress.
    pub fight: Option<Fight>,
    /// Next fleet id.
    pub next_fleet: u8,
    /// The pending decision's state.
    pub pending: Pending,
    /// Exploration cards discarded.
    pub exploration_discard: Vec<u8>,
    /// Allies met, with their offers.
    pub allies: Vec<AllyInPlay>,
    /// Modules discarded (consumed, salvaged, lost).
    pub module_discard: Vec<u8>,
    /// Decisions that effects asked for, taken after the current one.
    pub queued: Vec<Pending>,
    /// The decision to come back to after queued ones.
    pub resume: Option<Box<Pending>>,
    /// An effect ended the active group's turn; applied once the current
    /// step resolves.
    pub end_turn_requested: bool,
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
    /// Ships whose scraps already earned their XP in the latest Explore
    /// action (FAQ, Pirate Ship: one XP per Exploration; rules revision
    /// 2). Cleared when the next Explore action starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exploration_xp: Vec<Seat>,
}

impl Public {
    /// Every step waiting now: the pending one, the one an effect
    /// interrupted, and those queued behind it. A card or tile drawn into
    /// one of them is in play, out of its deck or stack.
    pub fn waiting_steps(&self) -> impl Iterator<Item = &Pending> {
        std::iter::once(&self.pending).chain(self.resume.as_deref()).chain(self.queued.iter())
    }
}

/// What nobody may see. Serialized only for the state hash (the
/// generator is hashed by its exact position instead).
#[derive(Clone, Debug, Serialize)]
pub struct Hidden {
    /// The random generator.
    #[serde(skip)]
    pub rng: GameRng,
    /// System stack, top last.
    pub stack: Vec<u8>,
    /// Enemy deck, top last.
    pub enemy_deck: Vec<u8>,
    /// Enemy reserve, top last (lowest level on top).
    pub enemy_reserve: Vec<u8>,
    /// Face-down Avatar tokens: (timeline space, Avatar card).
    pub mat_avatars: Vec<(u8, u8)>,
    /// Face-down Signal cards per slot (same order as `Public::signals`).
    pub signal_cards: Vec<u8>,
    /// Damaged deck, top last.
    pub damaged_deck: Vec<u8>,
    /// Exploration deck, top last.
    pub exploration_deck: Vec<u8>,
    /// Ship Module deck, top last.
    pub module_deck: Vec<u8>,
    /// Precursor Ship Module deck, top last.
    pub precursor_deck: Vec<u8>,
    /// Ally deck (the two chosen at setup), top last.
    pub ally_deck: Vec<crate::config::AllyKind>,
    /// Allies not chosen, for the Trapped Ally exploration (FAQ).
    pub spare_allies: Vec<crate::config::AllyKind>,
}

/// A whole game: config, public state, hidden state.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) config: GameConfig,
    pub(crate) pb: Public,
    pub(crate) hid: Hidden,
    /// Where the revealed systems lie, mirrored from `pb.tiles`.
    pub(crate) board: BoardIndex,
}

/// The hexes of `Public::tiles`, in the same order, packed in 64 bytes so
/// finding a system does not walk the tile records (the hot lookup of
/// search), and for each tile the index of the tile next to it in each
/// direction. Geometry only (lanes and markers are read from the tiles).
/// Not part of the state: rebuilt by [`Game::reindex_board`] whenever a
/// tile is placed.
#[derive(Clone, Debug)]
pub(crate) struct BoardIndex {
    len: usize,
    keys: [u16; MAX_TILES],
    /// `next[i][d]`: index of the tile beside tile `i` in direction `d`,
    /// or [`BoardIndex::NONE`].
    next: [[u8; 6]; MAX_TILES],
}

impl Default for BoardIndex {
    fn default() -> Self {
        BoardIndex { len: 0, keys: [0; MAX_TILES], next: [[Self::NONE; 6]; MAX_TILES] }
    }
}

impl BoardIndex {
    /// No tile there.
    pub(crate) const NONE: u8 = u8::MAX;

    /// The index of the tile beside tile `i` in direction `d`, if any.
    pub(crate) fn next(&self, i: usize, d: u8) -> Option<usize> {
        let j = self.next[i][d as usize];
        (j != Self::NONE).then_some(j as usize)
    }

    fn key(hex: Hex) -> u16 {
        (hex.q as u8 as u16) << 8 | hex.r as u8 as u16
    }

    /// The index in `Public::tiles` of the system at `hex`.
    fn find(&self, hex: Hex) -> Option<usize> {
        let k = Self::key(hex);
        // Branch-free over the fixed array, then the first hit.
        let mut hits = 0u32;
        for (i, &x) in self.keys.iter().enumerate() {
            hits |= ((x == k) as u32) << i;
        }
        hits &= if self.len >= 32 { u32::MAX } else { (1u32 << self.len) - 1 };
        (hits != 0).then(|| hits.trailing_zeros() as usize)
    }
}

impl Game {
    /// The content every rule reads.
    pub(crate) fn content(&self) -> &'static Content {
        Content::get()
    }

    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Whether the game plays under rules revision `n` or a later one
    /// (see [`crate::RULES_REVISION`]).
    pub(crate) fn revised(&self, n: u32) -> bool {
        self.config.rules_revision() >= n
    }

    /// Number of seats (ships).
    pub fn seat_count(&self) -> usize {
        self.pb.ships.len()
    }

    /// Accepted choices so far (the sequence number of the next one).
    pub fn choices_applied(&self) -> u64 {
        self.pb.seq
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pb.outcome.clone()
    }

    /// The public half.
    pub fn public(&self) -> &Public {
        &self.pb
    }

    /// Number of Keys in this game (4, or 3 in the 3-ship variant).
    pub fn key_count(&self) -> u8 {
        self.pb.signals.len() as u8
    }

    /// Brings the board index up to date with `pb.tiles` after a tile is
    /// placed: only the new tile's links when one was appended, else a
    /// full rebuild.
    pub(crate) fn reindex_board(&mut self) {
        let n = self.pb.tiles.len().min(MAX_TILES);
        let b = &mut self.board;
        let appended =
            n == b.len + 1 && self.pb.tiles.iter().zip(&b.keys[..b.len]).all(|(t, &k)| BoardIndex::key(t.hex) == k);
        if !appended {
            *b = BoardIndex::default();
        }
        for i in b.len..n {
            let hex = self.pb.tiles[i].hex;
            b.keys[i] = BoardIndex::key(hex);
            b.len = i + 1;
            for d in 0..6u8 {
                if let Some(j) = b.find(hex.neighbor(d)) {
                    b.next[i][d as usize] = j as u8;
                    // And the new tile beside that one (the way back).
                    let back = crate::hex::opposite(d);
                    if j != i && self.pb.tiles[j].hex.neighbor(back) == hex {
                        b.next[j][back as usize] = i as u8;
                    }
                }
            }
        }
        debug_assert!(
            self.pb.tiles.iter().enumerate().take(MAX_TILES).all(|(i, t)| (0..6u8).all(|d| {
                let j = b.next[i][d as usize];
                let want = b.find(t.hex.neighbor(d)).map_or(BoardIndex::NONE, |j| j as u8);
                j == want
            })),
            "board index links"
        );
    }

    pub(crate) fn tile_index(&self, hex: Hex) -> Option<usize> {
        let i = self.board.find(hex);
        debug_assert_eq!(i, self.pb.tiles.iter().position(|t| t.hex == hex), "board index out of date");
        i
    }

    pub(crate) fn tile_at(&self, hex: Hex) -> Option<&PlacedTile> {
        self.tile_index(hex).and_then(|i| self.pb.tiles.get(i))
    }

    pub(crate) fn tile_at_mut(&mut self, hex: Hex) -> Option<&mut PlacedTile> {
        self.tile_index(hex).and_then(|i| self.pb.tiles.get_mut(i))
    }

    pub(crate) fn kind_at(&self, hex: Hex) -> Option<SystemKind> {
        self.tile_at(hex).map(|t| self.content().tiles[t.tile as usize].kind)
    }

    pub(crate) fn ship(&self, seat: Seat) -> &Ship {
        &self.pb.ships[seat as usize]
    }

    pub(crate) fn ship_mut(&mut self, seat: Seat) -> &mut Ship {
        &mut self.pb.ships[seat as usize]
    }

    pub(crate) fn dice_of(&self, seat: Seat) -> [DieColor; 2] {
        self.content().ship(self.ship(seat).kind).dice
    }

    /// Ships alive.
    pub(crate) fn alive(&self) -> impl Iterator<Item = &Ship> {
        self.pb.ships.iter().filter(|s| !s.defeated)
    }

    /// Avatars on the board, with their index.
    pub(crate) fn avatars_at(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        self.pb.avatars.iter().enumerate().filter(move |(_, a)| a.place == AvatarPlace::Board { hex }).map(|(i, _)| i)
    }

    /// Enemy cards on the board in a system, with their index.
    pub(crate) fn enemies_at(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        self.pb.board_enemies.iter().enumerate().filter(move |(_, e)| e.hex == hex).map(|(i, _)| i)
    }

    /// Whether Enemy cards lie in a system.
    pub(crate) fn enemy_in(&self, hex: Hex) -> bool {
        self.pb.board_enemies.iter().any(|e| e.hex == hex)
    }
}
