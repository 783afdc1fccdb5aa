//! The Xeno track and the Star Base (rulebook "L'échelle XENO", "Explorer
//! le secteur X", "Retour à la Base Stellaire", "Réparation", "Promotion"):
//! PX and their thresholds (3 Oz, 6 technology, 9 Sector X, 10 scoring,
//! 12 adventurers kept, 13-14 may end, 15 ends), Sector X and its X pile,
//! repair and promotion to the Spatha.

use crate::content::{Domain, SECTOR_X};
use crate::decision::{Pending, Task};
use crate::event::Event;
use crate::state::*;

/// The top of the Xeno track.
pub const XENO_MAX: u8 = 15;

impl Game {
    /// Gains PX (the track stops at 15) and runs the thresholds crossed.
    pub(crate) fn gain_px(&mut self, seat: Seat, n: u8, reason: &str, ev: &mut Vec<Event>) {
        if n == 0 {
            return;
        }
        let s = self.ship_mut(seat);
        let before = s.px;
        s.px = (s.px + n).min(XENO_MAX);
        let after = s.px;
        if after == before {
            return;
        }
        ev.push(Event::Px { seat, gained: after - before, reason: reason.into() });
        if before < 6 && after >= 6 && self.ship(seat).tech.is_none() {
            self.interrupt(Task::Tech(seat));
        }
        if after >= XENO_MAX {
            self.trigger_end("fifteen_px", ev);
        }
    }

    /// A ship is at the Star Base during its commander's turn: the first
    /// time with 12 PC or more, it is promoted.
    pub(crate) fn at_base(&mut self, seat: Seat) {
        let s = self.ship(seat);
        if s.side == Side::Frombola && s.pc >= 12 && !self.pb.tasks.contains(&Task::Promote(seat)) {
            self.interrupt(Task::Promote(seat));
        }
    }

    /// Flips the board: the Imperator counter, technology, experience and
    /// special missions stay; tracks go to the Spatha's grey boxes; the
    /// crew's experts go back to the supply and two are recruited, after a
    /// new profile.
    pub(crate) fn promote(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let c = self.content();
        let spatha = c.side(Side::Spatha);
        let experts = self.ship(seat).experts;
        for k in ExpertKind::ALL {
            *self.pb.supply.get_mut(k) += experts.get(k);
        }
        let s = self.ship_mut(seat);
        s.side = Side::Spatha;
        s.tracks = spatha.start;
        s.experts = Experts::default();
        ev.push(Event::Promoted { seat });
        let mut tasks = vec![Task::PromotionProfile(seat)];
        tasks.extend((0..spatha.experts_at_start).map(|_| Task::PromotionExpert(seat)));
        self.pb.tasks.splice(0..0, tasks);
    }

    /// Repair: the ship goes back to its initial configuration, every
    /// equipment track and the squads on their grey box (revision 1: down
    /// as well as up; revision 0 only raised the tracks below it); the
    /// exploration is over for this turn.
    pub(crate) fn repair(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let a = self.content().side(self.ship(seat).side).start;
        let reset = self.revised(1);
        let t = &mut self.ship_mut(seat).tracks;
        if reset {
            *t = a;
        } else {
            t.propulsors = t.propulsors.max(a.propulsors);
            t.lasers = t.lasers.max(a.lasers);
            t.decoder = t.decoder.max(a.decoder);
            t.detectors = t.detectors.max(a.detectors);
            t.squads = t.squads.max(a.squads);
        }
        self.pb.turn.exploration_over = true;
        ev.push(Event::Repaired { seat });
    }

    /// Entering Sector X: the special mission is used, the X pile shown.
    pub(crate) fn enter_x(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.move_ship(seat, SECTOR_X, ev);
        self.ship_mut(seat).special_missions += 1;
        if !self.pb.x_seen_by.contains(&seat) {
            self.pb.x_seen_by.push(seat);
        }
        if !self.hid.pile_x.is_empty() {
            self.pb.pending = Pending::ChooseX { seat };
        }
    }

    pub(crate) fn take_x_card(&mut self, seat: Seat, card: u8, ev: &mut Vec<Event>) {
        let Some(i) = self.hid.pile_x.iter().position(|&x| x == card) else { return };
        self.hid.pile_x.remove(i);
        self.ship_mut(seat).x_cards.push(card);
        ev.push(Event::XCardTaken { seat, card });
        let Some(gift) = self.content().extrasolar[usize::from(card)].gift else { return };
        let max = self.content().side(self.ship(seat).side).max;
        let t = &mut self.ship_mut(seat).tracks;
        t.lasers = (t.lasers + gift.lasers).min(max.lasers);
        t.propulsors = (t.propulsors + gift.propulsors).min(max.propulsors);
        for d in Domain::ALL {
            self.gain_experience(seat, d, gift.experience, ev);
        }
        self.add_pc(seat, i32::from(gift.pc), "sector_x", ev);
        self.gain_px(seat, gift.px, "sector_x", ev);
    }
}
