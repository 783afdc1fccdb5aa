//! Secret Objectives (rulebook "Objectifs secrets", "Fin de partie"): two
//! drawn and one kept (at setup and at 18 PC), the rest shuffled back;
//! those of the "achieved" kind revealed and scored the moment their
//! condition holds, those of the "end" kind at the end.

use crate::content::{Measure, ObjectiveDef, Pile, When};
use crate::decision::Pending;
use crate::event::Event;
use crate::state::*;

impl Game {
    /// Draws two objectives for `seat` to choose from.
    pub(crate) fn offer_objectives(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        for _ in 0..2 {
            if let Some(o) = self.hid.objective_pile.pop() {
                self.hid.offers[usize::from(seat)].push(o);
            }
        }
        let cards = self.hid.offers[usize::from(seat)].len() as u8;
        if cards > 0 {
            ev.push(Event::ObjectivesOffered { seat, cards });
            self.pb.pending = Pending::KeepObjective { seat };
        }
    }

    pub(crate) fn keep_objective(&mut self, seat: Seat, o: u8, ev: &mut Vec<Event>) {
        let offer = std::mem::take(&mut self.hid.offers[usize::from(seat)]);
        for x in offer {
            if x == o {
                self.hid.objectives[usize::from(seat)].push(x);
            } else {
                self.hid.objective_pile.push(x);
            }
        }
        self.hid.objective_pile.sort_unstable();
        self.hid.rng.shuffle(&mut self.hid.objective_pile);
        ev.push(Event::ObjectiveKept { seat });
    }

    /// What a measure reads on a ship.
    pub fn measure(&self, seat: Seat, m: Measure) -> u8 {
        let c = self.content();
        let s = self.ship(seat);
        let trophies = |f: &dyn Fn(&crate::content::ExtrasolarDef) -> bool| {
            s.trophies.iter().filter(|&&t| f(&c.extrasolar[usize::from(t)])).count() as u8
        };
        match m {
            Measure::Trophies => s.trophies.len() as u8,
            Measure::ZoneBTrophies => trophies(&|e| e.pile == Pile::B),
            Measure::SapiensTrophies => trophies(&|e| e.sapiens),
            Measure::WildTrophies => trophies(&|e| !e.sapiens),
            Measure::Experts => s.experts.total(),
            Measure::Lasers => s.tracks.lasers,
            Measure::Propulsors => s.tracks.propulsors,
            Measure::Px => s.px,
            Measure::Experience => s.experience.iter().sum(),
            Measure::Spatha => u8::from(s.side == Side::Spatha),
            Measure::SectorX => s.special_missions,
            Measure::ImperatorCalls => s.imperator_calls,
        }
    }

    /// Whether an objective's condition holds for `seat`.
    pub fn objective_met(&self, seat: Seat, o: &ObjectiveDef) -> bool {
        self.measure(seat, o.condition.kind) >= o.condition.n
    }

    /// Reveals and scores every hidden "achieved" objective whose condition
    /// holds, until none is left (a score may meet another).
    pub(crate) fn reveal_achieved_objectives(&mut self, ev: &mut Vec<Event>) {
        if self.pb.outcome.is_some() {
            return;
        }
        let c = self.content();
        loop {
            let mut found = None;
            'seek: for seat in 0..self.players() as Seat {
                for &o in &self.hid.objectives[usize::from(seat)] {
                    let def = &c.objectives[usize::from(o)];
                    if def.when == When::Achieved && self.objective_met(seat, def) {
                        found = Some((seat, o));
                        break 'seek;
                    }
                }
            }
            let Some((seat, o)) = found else { return };
            self.reveal(seat, o, true, ev);
        }
    }

    /// Reveals an objective, scoring it if `score`.
    pub(crate) fn reveal(&mut self, seat: Seat, o: u8, score: bool, ev: &mut Vec<Event>) {
        self.hid.objectives[usize::from(seat)].retain(|&x| x != o);
        self.ship_mut(seat).revealed.push(o);
        let pc = if score { self.content().objectives[usize::from(o)].pc } else { 0 };
        ev.push(Event::ObjectiveRevealed { seat, objective: o, pc });
        if pc > 0 {
            self.add_pc(seat, i32::from(pc), "objective", ev);
        }
    }
}
