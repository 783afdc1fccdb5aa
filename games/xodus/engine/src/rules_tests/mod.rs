//! Rules tests: each names the rulebook page (`pNN_`) or the FAQ section
//! (`faq_`) it checks. Situations are built by hand on a real game; dice
//! outcomes are found by trying generator seeds until the roll wanted
//! comes up, so the rules code runs unmodified.

mod actions;
mod combat;
mod corruption;
mod fair_fights;
mod keys_and_explorations;
mod log_causes;
mod mods;
mod modules_and_trade;
mod setup;

use crate::config::{AllyKind, Difficulty, GameConfig, ShipKind};
use crate::content::Content;
use crate::decision::Pending;
use crate::event::Event;
use crate::hex::Hex;
use crate::rng::GameRng;
use crate::state::*;

/// Warship, Battlecruiser, Explorer, Drone Specialist; Casual. The
/// Starting System's lanes are all opened so tests can lay out neighbours,
/// and the ships' level-1 mods are set aside so the base rules are tested
/// alone (mod tests give them back).
pub(crate) fn game4() -> Game {
    let mut g = Game::new(GameConfig {
        ships: vec![ShipKind::Warship, ShipKind::Battlecruiser, ShipKind::Explorer, ShipKind::DroneSpecialist],
        difficulty: Difficulty::Casual,
        allies: vec![AllyKind::Cartographer, AllyKind::Mercenary],
        seed: 1,
        nightmare: Some(false),
        legacy_reinforcements: Some(false),
        rules_revision: Some(crate::RULES_REVISION),
    })
    .expect("valid config");
    bare(&mut g);
    g
}

/// `game4` played under rules revision `revision` (a fix's test checks the
/// rules before it too).
pub(crate) fn game4_at(revision: u32) -> Game {
    let mut g = game4();
    g.config.rules_revision = Some(revision);
    g
}

/// `first`, Warship and Explorer (seed 2, Casual), bare like `game4`.
pub(crate) fn trio(first: ShipKind) -> Game {
    let mut g = Game::new(GameConfig {
        ships: vec![first, ShipKind::Warship, ShipKind::Explorer],
        difficulty: Difficulty::Casual,
        allies: vec![AllyKind::Cartographer, AllyKind::Mercenary],
        seed: 2,
        nightmare: Some(false),
        legacy_reinforcements: Some(false),
        rules_revision: Some(crate::RULES_REVISION),
    })
    .expect("valid config");
    bare(&mut g);
    g
}

/// Opens every lane of the Starting System and removes the ships' mods.
pub(crate) fn bare(g: &mut Game) {
    g.pb.tiles[0].lanes = 0b11_1111;
    for s in &mut g.pb.ships {
        s.mods.clear();
    }
}

pub(crate) fn tile_index(id: &str) -> u8 {
    Content::get().tiles.iter().position(|t| t.id == id).expect("tile id") as u8
}

pub(crate) fn enemy_index(id: &str) -> u8 {
    Content::get().enemies.iter().position(|t| t.id == id).expect("enemy id") as u8
}

pub(crate) const fn h(q: i8, r: i8) -> Hex {
    Hex::new(q, r)
}

impl Game {
    /// Places a tile with every lane open (taking it out of the stack).
    pub(crate) fn put_tile(&mut self, id: &str, hex: Hex) {
        let tile = tile_index(id);
        self.hid.stack.retain(|&t| t != tile);
        self.pb.tiles.retain(|t| t.hex != hex);
        let def = &Content::get().tiles[tile as usize];
        self.pb.tiles.push(PlacedTile {
            tile,
            hex,
            rotation: 0,
            lanes: 0b11_1111,
            exploration_marker: def.exploration,
            key_marker: def.signal,
            pacified: None,
            rift_created: false,
            rift_disabled: false,
            keys_activated: Vec::new(),
        });
        self.reindex_board();
    }

    /// Lays the Enemy card `id`, undamaged and guarding nothing, at `hex`.
    pub(crate) fn put_enemy(&mut self, id: &str, hex: Hex) {
        let card = enemy_index(id);
        self.pb.board_enemies.push(crate::state::BoardEnemy { card, hex, damage: 0, guards_key: None });
    }

    pub(crate) fn put_ship(&mut self, seat: Seat, hex: Hex) {
        self.pb.ships[seat as usize].hex = hex;
    }

    pub(crate) fn ids(&self) -> Vec<String> {
        self.decision().options.into_iter().map(|o| o.id).collect()
    }

    /// Applies an option (panicking with the legal ids if refused). A mod
    /// level reached on the way is settled by keeping its first effect, so
    /// base-rule tests are not interrupted (mod tests call `apply`).
    pub(crate) fn act(&mut self, seat: Seat, id: &str) -> Vec<Event> {
        let mut ev = match self.apply(seat, id) {
            Ok(ev) => ev,
            Err(e) => panic!("{id} refused: {e}; pending {:?}", self.pb.pending),
        };
        while let Pending::ChooseMod { seat, .. } = self.pb.pending {
            let first = self.decision().options[0].id.clone();
            ev.extend(self.apply(seat, &first).expect("mod choice"));
        }
        ev
    }

    /// Starts `seat`'s turn.
    pub(crate) fn begin(&mut self, seat: Seat) -> Vec<Event> {
        self.act(seat, &format!("start:{seat}"))
    }
}

/// Tries generator seeds until applying `id` gives a result `want` accepts.
pub(crate) fn find(base: &Game, seat: Seat, id: &str, want: impl Fn(&Game, &[Event]) -> bool) -> (Game, Vec<Event>) {
    for k in 0..5_000 {
        let mut g = base.clone();
        g.hid.rng = GameRng::new(k);
        let ev = g.act(seat, id);
        if want(&g, &ev) {
            return (g, ev);
        }
    }
    panic!("no seed gives the wanted outcome for {id}");
}

/// Dice faces of the roll events for a purpose.
pub(crate) fn rolls(ev: &[Event], purpose: crate::event::RollPurpose) -> Vec<Vec<crate::content::Face>> {
    ev.iter()
        .filter_map(|e| match e {
            Event::DiceRolled { purpose: p, dice, .. } if *p == purpose => Some(dice.iter().map(|d| d.1).collect()),
            _ => None,
        })
        .collect()
}

pub(crate) fn pending(g: &Game) -> &Pending {
    &g.pb.pending
}
