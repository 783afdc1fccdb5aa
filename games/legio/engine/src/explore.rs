//! Exploring (rulebook "Explorer", "Expérience et gain d'expérience",
//! "Combat Spatial"): a card played face up, its risk confronted, its
//! experience gained; Xeno ships fought with the d10 and the damage table.

use crate::content::{BASE, Loss, Risk};
use crate::decision::{Pending, Purpose};
use crate::event::Event;
use crate::state::*;

impl Game {
    pub(crate) fn explore(&mut self, seat: Seat, card: u8, ev: &mut Vec<Event>) {
        let hand = &mut self.hid.hands[usize::from(seat)];
        let Some(i) = hand.iter().position(|&c| c == card) else { return };
        hand.remove(i);
        self.pb.discard_up.push(card);
        ev.push(Event::Explored { seat, card });
        match self.content().exploration[usize::from(card)].risk {
            Risk::Signal => self.gain_card_xp(seat, card, ev),
            Risk::Discard { cards } => self.begin_pay(seat, cards, Purpose::Risk(card), ev),
            Risk::XenoShip { .. } => {
                if self.ship(seat).tracks.detectors > 0 {
                    self.pb.pending = Pending::Combat { seat, card };
                } else {
                    self.fight(seat, card, ev);
                }
            }
            Risk::OzOre { pc, px } => {
                self.add_pc(seat, i32::from(pc), "oz_ore", ev);
                self.gain_px(seat, px, "oz_ore", ev);
                self.gain_card_xp(seat, card, ev);
            }
            Risk::Discovery => {
                self.gain_card_xp(seat, card, ev);
                self.discover(seat, ev);
            }
            Risk::Drift => {
                self.gain_card_xp(seat, card, ev);
                self.move_ship(seat, BASE, ev);
            }
            Risk::Hazard => {
                self.damage_roll(seat, ev);
                self.gain_card_xp(seat, card, ev);
            }
        }
    }

    /// The experience printed on a card, up to the ship's memory.
    pub(crate) fn gain_card_xp(&mut self, seat: Seat, card: u8, ev: &mut Vec<Event>) {
        if let Some(x) = self.content().exploration[usize::from(card)].xp {
            self.gain_experience(seat, x.domain, x.amount, ev);
        }
    }

    pub(crate) fn gain_experience(
        &mut self,
        seat: Seat,
        domain: crate::content::Domain,
        amount: u8,
        ev: &mut Vec<Event>,
    ) {
        let memory = self.content().side(self.ship(seat).side).memory;
        let slot = &mut self.ship_mut(seat).experience[domain as usize];
        let before = *slot;
        *slot = (before + amount).min(memory);
        let gained = *slot - before;
        if gained > 0 {
            ev.push(Event::ExperienceGained { seat, domain, amount: gained });
        }
    }

    /// A fight with the Xeno ship of `card`: one d10 per missing laser,
    /// the trophy if a laser was installed at the start, and always one
    /// laser lost.
    pub(crate) fn fight(&mut self, seat: Seat, card: u8, ev: &mut Vec<Event>) {
        let Risk::XenoShip { lasers: needed, pc, px } = self.content().exploration[usize::from(card)].risk else {
            return;
        };
        let had = self.ship(seat).tracks.lasers;
        for _ in 0..needed.saturating_sub(had) {
            self.damage_roll(seat, ev);
        }
        let trophy = had > 0;
        let lost_laser = self.ship(seat).tracks.lasers > 0;
        ev.push(Event::Fought { seat, needed, had, trophy, lost_laser });
        if trophy {
            self.add_pc(seat, i32::from(pc), "xeno_ship", ev);
            self.gain_px(seat, px, "xeno_ship", ev);
        }
        let t = &mut self.ship_mut(seat).tracks;
        t.lasers = t.lasers.saturating_sub(1);
        self.gain_card_xp(seat, card, ev);
    }

    /// One d10 on the damage table.
    pub(crate) fn damage_roll(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let face = self.hid.rng.d10();
        let loss = self.content().damage[usize::from(face - 1)];
        let t = &mut self.ship_mut(seat).tracks;
        match loss {
            Loss::Propulsor => t.propulsors = t.propulsors.saturating_sub(1),
            Loss::Laser => t.lasers = t.lasers.saturating_sub(1),
            Loss::Squad => t.squads = t.squads.saturating_sub(1),
            Loss::Decoder => t.decoder = 0,
            Loss::Nothing => {}
        }
        ev.push(Event::DamageRolled { seat, face, loss });
    }
}
