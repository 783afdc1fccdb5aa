//! Missions (rulebook "Missions", "Séquence d'actions", "Utilisation de
//! l'Imperator"): the experience counted (permanent first; the shortfall
//! spent by the active commander, then the next participants in turn
//! order, or nothing spent if it cannot be met), the PC shared with the
//! remainder to the active commander and the Imperator counted as a share,
//! halved for Spathas in zone A; then each participant's star and
//! dismissal in turn order; then the ships leave and the planet is
//! explored.

use crate::content::{Domain, Pile};
use crate::decision::{Choice, Pending, Personnel, Task};
use crate::event::Event;
use crate::state::*;

impl Game {
    fn mission_index(&self, seat: Seat) -> Option<usize> {
        self.pb.mission.as_ref()?.participants.iter().position(|&s| s == seat)
    }

    /// The domain a participant invests.
    pub(crate) fn domain_of(&self, seat: Seat) -> Domain {
        let Some(m) = &self.pb.mission else { return Domain::Diplomacy };
        let card = &self.content().extrasolar[usize::from(m.card)];
        let chosen = self.mission_index(seat).and_then(|i| m.domains[i]);
        chosen.or(card.domains.first().copied()).unwrap_or(Domain::Diplomacy)
    }

    pub(crate) fn set_domain(&mut self, seat: Seat, d: Domain) {
        if let (Some(i), Some(m)) = (self.mission_index(seat), &mut self.pb.mission) {
            m.domains[i] = Some(d);
        }
    }

    /// Permanent experience a participant brings (adventurers too from 12 PX,
    /// when they are no longer discarded).
    pub(crate) fn permanent_of(&self, seat: Seat) -> u8 {
        let s = self.ship(seat);
        let adv = if s.px >= 12 { s.experts.get(ExpertKind::Adventurer) } else { 0 };
        s.permanent(self.domain_of(seat)) + adv
    }

    /// Experience a participant could spend: adventurers (below 12 PX) and
    /// table points in its domain.
    pub(crate) fn spendable_of(&self, seat: Seat) -> (u8, u8) {
        let s = self.ship(seat);
        let adv = if s.px >= 12 { 0 } else { s.experts.get(ExpertKind::Adventurer) };
        (adv, s.experience[self.domain_of(seat) as usize])
    }

    pub(crate) fn count_experience(&mut self, ev: &mut Vec<Event>) {
        let Some(m) = self.pb.mission.clone() else { return };
        let c = self.content();
        let need = c.extrasolar[usize::from(m.card)].experience;
        let imperator = m.imperator.map_or(0, |i| c.imperator[usize::from(i)].experience);
        let permanent: u32 =
            m.participants.iter().map(|&s| u32::from(self.permanent_of(s))).sum::<u32>() + u32::from(imperator);
        let shortfall = u32::from(need).saturating_sub(permanent);
        let capacity: u32 = m
            .participants
            .iter()
            .map(|&s| {
                let (a, p) = self.spendable_of(s);
                u32::from(a) + u32::from(p)
            })
            .sum();
        let success = shortfall == 0 || capacity >= shortfall;
        if let Some(mm) = &mut self.pb.mission {
            mm.success = success;
            mm.shortfall = if success { shortfall as u8 } else { 0 };
        }
        if success && shortfall > 0 {
            let spends: Vec<Task> = m.participants.iter().map(|&s| Task::Spend(s)).collect();
            self.pb.tasks.splice(0..0, spends);
        }
        ev.push(Event::MissionResolved { success });
    }

    pub(crate) fn ask_spend(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let left = self.pb.mission.as_ref().map_or(0, |m| m.shortfall);
        let (a, p) = self.spendable_of(seat);
        let amount = left.min(a + p);
        if amount == 0 {
            return;
        }
        let options = self.spend_options(seat, amount);
        match options.as_slice() {
            [Choice::Spend { adventurers, points }] => self.spend(seat, *adventurers, *points, ev),
            _ => self.pb.pending = Pending::Spend { seat, amount },
        }
    }

    /// The ways to spend `amount`: every split between adventurers and points.
    pub(crate) fn spend_options(&self, seat: Seat, amount: u8) -> Vec<Choice> {
        let (a, p) = self.spendable_of(seat);
        let lo = amount.saturating_sub(p);
        let hi = amount.min(a);
        (lo..=hi).map(|adventurers| Choice::Spend { adventurers, points: amount - adventurers }).collect()
    }

    pub(crate) fn spend(&mut self, seat: Seat, adventurers: u8, points: u8, ev: &mut Vec<Event>) {
        let d = self.domain_of(seat) as usize;
        let s = self.ship_mut(seat);
        *s.experts.get_mut(ExpertKind::Adventurer) -= adventurers;
        s.experience[d] -= points;
        *self.pb.supply.get_mut(ExpertKind::Adventurer) += adventurers;
        if adventurers > 0 {
            ev.push(Event::PersonnelLost {
                seat,
                personnel: Personnel::Expert(ExpertKind::Adventurer),
                count: adventurers,
            });
        }
        if let Some(m) = &mut self.pb.mission {
            m.shortfall = m.shortfall.saturating_sub(adventurers + points);
        }
    }

    /// PC shares over the participants and the Imperator: each the fair
    /// share (PC / parts), the active commander's rounded up and the
    /// others' down (revision 1; revision 0 gave the active commander the
    /// whole remainder); Spathas halve zone A shares.
    pub(crate) fn shares(&self) -> Vec<(Seat, u32)> {
        let Some(m) = &self.pb.mission else { return Vec::new() };
        let card = &self.content().extrasolar[usize::from(m.card)];
        let parts = m.participants.len() as u32 + u32::from(m.imperator.is_some());
        let pc = u32::from(card.pc);
        let active = if self.revised(1) { pc.div_ceil(parts) } else { pc / parts + pc % parts };
        m.participants
            .iter()
            .map(|&s| {
                let mut share = if s == self.pb.active { active } else { pc / parts };
                if card.pile == Pile::A && self.ship(s).side == Side::Spatha {
                    share /= 2;
                }
                (s, share)
            })
            .collect()
    }

    pub(crate) fn award(&mut self, ev: &mut Vec<Event>) {
        if !self.pb.mission.as_ref().is_some_and(|m| m.success) {
            return;
        }
        for (seat, share) in self.shares() {
            if share > 0 {
                self.add_pc(seat, share as i32, "mission", ev);
                self.mark_gain(seat);
            }
        }
    }

    fn mark_gain(&mut self, seat: Seat) {
        if let (Some(i), Some(m)) = (self.mission_index(seat), &mut self.pb.mission) {
            m.gained[i] = true;
        }
    }

    /// The ways to leave the star's personnel (empty if it cannot).
    pub(crate) fn star_options(&self, seat: Seat) -> Vec<Choice> {
        let Some(m) = &self.pb.mission else { return Vec::new() };
        let Some(star) = self.content().extrasolar[usize::from(m.card)].star else { return Vec::new() };
        let s = self.ship(seat);
        let have = [
            s.tracks.squads,
            s.experts.get(ExpertKind::Diplomat),
            s.experts.get(ExpertKind::Adventurer),
            s.experts.get(ExpertKind::Hunter),
        ];
        let n = star.leave;
        // Revision 1: at least `crew` of them are squads.
        let crew = if self.revised(1) { star.crew } else { 0 };
        let mut v = Vec::new();
        for q in crew..=n.min(have[0]) {
            for d in 0..=(n - q).min(have[1]) {
                for a in 0..=(n - q - d).min(have[2]) {
                    let h = n - q - d - a;
                    if h <= have[3] {
                        v.push(Choice::Leave { counts: [q, d, a, h] });
                    }
                }
            }
        }
        v
    }

    fn remove_personnel(&mut self, seat: Seat, p: Personnel, count: u8, ev: &mut Vec<Event>) {
        if count == 0 {
            return;
        }
        let s = self.ship_mut(seat);
        match p {
            Personnel::Squad => s.tracks.squads -= count,
            Personnel::Expert(k) => {
                *s.experts.get_mut(k) -= count;
                *self.pb.supply.get_mut(k) += count;
            }
        }
        ev.push(Event::PersonnelLost { seat, personnel: p, count });
    }

    pub(crate) fn leave_for_star(&mut self, seat: Seat, counts: [u8; 4], ev: &mut Vec<Event>) {
        for (p, n) in Personnel::ALL.into_iter().zip(counts) {
            self.remove_personnel(seat, p, n, ev);
        }
        let px = self
            .pb
            .mission
            .as_ref()
            .and_then(|m| self.content().extrasolar[usize::from(m.card)].star)
            .map_or(0, |s| s.px);
        self.gain_px(seat, px, "star", ev);
        self.mark_gain(seat);
    }

    pub(crate) fn dismiss(&mut self, seat: Seat, p: Personnel, ev: &mut Vec<Event>) {
        self.remove_personnel(seat, p, 1, ev);
        self.gain_px(seat, 1, "dismissal", ev);
        self.mark_gain(seat);
    }

    /// The ships leave: the card goes to its discoverer, a fruitless
    /// mission costs each participant 2 PC, the planet becomes explored,
    /// the Imperator's next card is turned up.
    pub(crate) fn leave_planet(&mut self, ev: &mut Vec<Event>) {
        let Some(m) = self.pb.mission.take() else { return };
        if let Some(p) = self.pb.planets[usize::from(m.planet)].take() {
            self.ship_mut(p.discoverer).trophies.push(p.card);
            self.pb.explored[usize::from(p.sector)] += 1;
        }
        if !m.gained.iter().any(|&g| g) {
            for &s in &m.participants {
                self.add_pc(s, -2, "fruitless_mission", ev);
            }
        }
        if let Some(card) = m.imperator {
            self.pb.imperator.discard.push(card);
            if self.hid.imperator_deck.is_empty() {
                let mut deck = std::mem::take(&mut self.pb.imperator.discard);
                deck.sort_unstable();
                self.hid.rng.shuffle(&mut deck);
                self.hid.imperator_deck = deck;
            }
            self.pb.imperator.card = self.hid.imperator_deck.pop();
            if let Some(card) = self.pb.imperator.card {
                ev.push(Event::ImperatorCard { card });
            }
        }
        self.check_planets_exhausted(ev);
    }
}
