//! Rules tests, named after the rulebook's sections (its French titles in
//! ASCII snake case: `tour_de_jeu_...`, `combat_spatial_...`); each cites
//! its section and page in its doc comment, and the readings it checks
//! (docs/legio-readings.md, "R1".."Rn"). Situations are built by hand on a
//! real game; die rolls are set by choosing a generator seed whose next
//! rolls are the faces wanted, so the rules code runs unmodified.
//! docs/legio-rules-coverage.md maps every rule and reading to its test.

mod discovery;
mod ending;
mod explore;
mod landing;
mod missions;
mod secrets;
mod setup;
mod turn;
mod xeno;

use crate::content::Content;
use crate::decision::Pending;
use crate::event::Event;
use crate::rng::GameRng;
use crate::state::*;
use crate::*;

/// A game past setup (every setup decision took its first option), the
/// first commander about to draw. Hidden objectives are put back in the
/// pile and second objectives marked as drawn, so that no objective scores
/// behind a test's back (objective tests give them back).
pub(crate) fn ready(players: u8, seed: u64) -> Game {
    let mut g = Game::new(GameConfig::new(players, seed)).expect("config");
    while !matches!(g.pb.pending, Pending::Draw { .. }) {
        let id = g.decision().options[0].id.clone();
        g.pick(&id);
    }
    for seat in 0..usize::from(players) {
        let held = std::mem::take(&mut g.hid.objectives[seat]);
        g.hid.objective_pile.extend(held);
        g.pb.ships[seat].second_objective = true;
    }
    g
}

impl Game {
    /// Plays the rules as revision 0 had them (setup is the same in every
    /// revision, so a test may switch after `ready`).
    pub(crate) fn revision_0(&mut self) {
        self.config.rules_revision = None;
    }
}

/// An Exploration card's index by id.
pub(crate) fn ex(id: &str) -> u8 {
    Content::get().exploration.iter().position(|c| c.id == id).expect("exploration id") as u8
}

/// An Extrasolar card's index by id.
pub(crate) fn xs(id: &str) -> u8 {
    Content::get().extrasolar.iter().position(|c| c.id == id).expect("extrasolar id") as u8
}

/// An objective's index by id.
pub(crate) fn obj(id: &str) -> u8 {
    Content::get().objectives.iter().position(|c| c.id == id).expect("objective id") as u8
}

impl Game {
    /// The ids offered now.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.decision().options.into_iter().map(|o| o.id).collect()
    }

    /// Whether `id` is offered now.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.ids().iter().any(|i| i == id)
    }

    /// The decider picks `id`; panics with the legal ids if it is not offered.
    pub(crate) fn pick(&mut self, id: &str) -> Vec<Event> {
        let seat = self.pb.pending.seat().expect("a decider");
        match self.apply(seat, id) {
            Ok(ev) => ev,
            Err(e) => panic!("{e} (pending {:?})", self.pb.pending),
        }
    }

    /// Makes `seat` the active commander at the start of its moves, with an
    /// empty hand (every hand goes back to the deck).
    pub(crate) fn turn_of(&mut self, seat: Seat) {
        for h in &mut self.hid.hands {
            self.hid.deck.append(h);
        }
        self.pb.active = seat;
        self.pb.turn = TurnFlags::default();
        self.pb.tasks.clear();
        self.pb.pending = Pending::Turn { seat };
    }

    /// Puts these Exploration cards in `seat`'s hand, from wherever they are.
    pub(crate) fn give(&mut self, seat: Seat, ids: &[&str]) {
        for id in ids {
            let k = ex(id);
            self.hid.deck.retain(|&c| c != k);
            self.hid.discard_down.retain(|&(c, _)| c != k);
            self.pb.discard_up.retain(|&c| c != k);
            for h in &mut self.hid.hands {
                h.retain(|&c| c != k);
            }
            self.hid.hands[usize::from(seat)].push(k);
        }
    }

    /// Puts an Extrasolar card on an active planet token, from wherever it is.
    pub(crate) fn put_planet(&mut self, token: u8, sector: u8, card: &str, discoverer: Seat) {
        let i = xs(card);
        for p in &mut self.hid.piles {
            p.retain(|&c| c != i);
        }
        for slot in 0..2 {
            if self.hid.contacts[slot] == Some(i) {
                self.hid.contacts[slot] = self.hid.piles[slot].pop();
            }
        }
        if self.pb.contact_a1 == Some(i) {
            self.pb.contact_a1 = self.hid.piles[0].pop();
        }
        self.pb.planets[usize::from(token)] = Some(ActivePlanet { sector, card: i, discoverer });
    }

    /// The next d10 rolls will show `faces`.
    pub(crate) fn rig(&mut self, faces: &[u8]) {
        for s in 0.. {
            let mut r = GameRng::new(s);
            if faces.iter().all(|&f| r.d10() == f) {
                self.hid.rng = GameRng::new(s);
                return;
            }
        }
    }
}
