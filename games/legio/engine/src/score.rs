//! Scores and the end (rulebook "Fin de partie", "Objectifs secrets"): PC
//! (never below 0, a second objective at 18), the end triggers (13-14 PX
//! declared, 15 PX, the Imperator at 25, no planet left to discover), the
//! round finished so that everyone played as often, the end objectives, and
//! the ranking: among commanders with 10 PX or more, most PC, then most PX,
//! then a shared victory.

use crate::content::{Pile, When};
use crate::decision::{Pending, Task};
use crate::event::Event;
use crate::state::*;

impl Game {
    /// Adds (or takes away) PC; the score never goes below 0.
    pub(crate) fn add_pc(&mut self, seat: Seat, delta: i32, reason: &str, ev: &mut Vec<Event>) {
        let s = self.ship_mut(seat);
        let before = s.pc;
        s.pc = (i64::from(s.pc) + i64::from(delta)).clamp(0, i64::from(u32::MAX)) as u32;
        let after = s.pc;
        if after != before {
            ev.push(Event::Pc { seat, delta: after as i32 - before as i32, reason: reason.into() });
        }
        if after >= 18 && !self.ship(seat).second_objective {
            self.ship_mut(seat).second_objective = true;
            self.interrupt(Task::Objective(seat));
        }
    }

    /// The end is triggered; the round is finished first.
    pub(crate) fn trigger_end(&mut self, cause: &str, ev: &mut Vec<Event>) {
        if self.pb.end.is_none() {
            self.pb.end = Some(cause.into());
            ev.push(Event::EndTriggered { cause: cause.into() });
        }
    }

    /// No sector can take another discovery: the limit is reached, or its
    /// zone has no contact card left.
    pub(crate) fn check_planets_exhausted(&mut self, ev: &mut Vec<Event>) {
        let c = self.content();
        let open = (0..5u8).any(|sector| {
            let active = self.pb.planets.iter().flatten().filter(|p| p.sector == sector).count() as u8;
            let room = self.pb.explored[usize::from(sector)] + active < c.nebula.limit(sector, self.players());
            let cards = match c.nebula.zone(sector) {
                Some(Pile::A) => {
                    self.pb.contact_a1.is_some() || self.pb.contact_down[0] || !self.hid.piles[0].is_empty()
                }
                _ => self.pb.contact_down[1] || !self.hid.piles[1].is_empty(),
            };
            room && cards
        });
        if !open {
            self.trigger_end("no_planet_left", ev);
        }
    }

    /// Ends the game: end objectives revealed and scored, ranking made.
    pub(crate) fn finish(&mut self, cause: &str, ev: &mut Vec<Event>) {
        let c = self.content();
        for seat in 0..self.players() as Seat {
            for o in self.hid.objectives[usize::from(seat)].clone() {
                let def = &c.objectives[usize::from(o)];
                let score = def.when == When::End && self.objective_met(seat, def);
                self.reveal(seat, o, score, ev);
            }
        }
        let ships = &self.pb.ships;
        let eligible = |s: &Ship| s.px >= 10;
        let mut ranking: Vec<Seat> = (0..ships.len() as Seat).collect();
        ranking.sort_by_key(|&i| {
            let s = &ships[usize::from(i)];
            let (a, b) = if eligible(s) { (s.pc, u32::from(s.px)) } else { (u32::from(s.px), s.pc) };
            (std::cmp::Reverse(eligible(s)), std::cmp::Reverse(a), std::cmp::Reverse(b), i)
        });
        let best = ranking.first().map(|&i| &ships[usize::from(i)]).filter(|s| eligible(s)).map(|s| (s.pc, s.px));
        let winners = ranking
            .iter()
            .copied()
            .filter(|&i| {
                let s = &ships[usize::from(i)];
                eligible(s) && Some((s.pc, s.px)) == best
            })
            .collect();
        // From revision 1 a game cut by the safety limit has no ranking.
        let truncated = cause == "round_limit" && self.revised(1);
        let (ranking, winners) = if truncated { (Vec::new(), Vec::new()) } else { (ranking, winners) };
        let outcome = Outcome {
            scores: ships.iter().map(|s| i64::from(s.pc)).collect(),
            px: ships.iter().map(|s| s.px).collect(),
            ranking,
            winners,
            cause: cause.into(),
            round: self.pb.round,
            truncated,
        };
        ev.push(Event::GameOver { outcome: outcome.clone() });
        self.pb.outcome = Some(outcome);
        self.pb.pending = Pending::Over;
        self.pb.tasks.clear();
    }
}
