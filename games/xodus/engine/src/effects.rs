//! Small state changes shared by every rule: dice, health, Damaged cards,
//! scraps, XP, ship destruction, the Enemy deck, and the symbol effects of
//! the rulebook's list (p. 11) applied to a player or a fleet.

use crate::content::{DamagedEffect, DieColor, Effect, Face, XpCondition};
use crate::event::{Event, RollPurpose};
use crate::hex::Hex;
use crate::state::*;

/// Where gained scraps come from, for the Pirate Ship's XP condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScrapSource {
    /// Scavenged, traded, salvaged or from a power: no XP.
    Plain,
    /// Won in combat.
    Combat,
    /// Found during an Explore action.
    Exploration,
}

impl Game {
    /// Rolls the given dice.
    pub(crate) fn roll(&mut self, colors: &[DieColor]) -> Vec<(DieColor, Face)> {
        let c = self.content();
        colors
            .iter()
            .map(|&col| {
                let f = c.die(col)[self.hid.rng.below(6) as usize];
                (col, f)
            })
            .collect()
    }

    /// Whether a ship carries a Damaged card with this effect.
    pub(crate) fn has_damage(&self, seat: Seat, effect: DamagedEffect) -> bool {
        let c = self.content();
        self.ship(seat).damaged.iter().any(|&d| c.damaged[d as usize].effect == effect)
    }

    /// How many Damaged cards with this effect a ship carries.
    pub(crate) fn damage_count(&self, seat: Seat, effect: DamagedEffect) -> u8 {
        let c = self.content();
        self.ship(seat).damaged.iter().filter(|&&d| c.damaged[d as usize].effect == effect).count() as u8
    }

    /// Actions a ship gets when its turn starts.
    pub(crate) fn base_actions(&self, seat: Seat) -> u8 {
        let def = self.content().ship(self.ship(seat).kind);
        def.actions.saturating_sub(self.damage_count(seat, DamagedEffect::FewerActions)).max(1)
    }

    /// Energy a ship may still spend this turn.
    pub fn energy_available(&self, seat: Seat) -> u8 {
        let s = self.ship(seat);
        s.energy_total
            .saturating_sub(self.damage_count(seat, DamagedEffect::FusedCapacitor))
            .saturating_sub(s.energy_used)
    }

    /// A Damage Roll (rulebook p. 11): both dice; one miss loses 1 health,
    /// two lose 2 and draw a Damaged card.
    /// Returns how many specials were rolled. A Drone Specialist's Damage
    /// Roll shield (Emergency Drone, or Fleet Shield for the whole fleet)
    /// ignores a miss.
    pub(crate) fn damage_roll(&mut self, seat: Seat, ev: &mut Vec<Event>) -> usize {
        if self.ship(seat).defeated {
            return 0;
        }
        let dice = self.dice_of(seat);
        let rolled = self.roll(&dice);
        let specials = rolled.iter().filter(|d| d.1 == Face::Special).count();
        let mut misses = rolled.iter().filter(|d| d.1 == Face::Miss).count() as u8;
        ev.push(Event::DiceRolled { seat: Some(seat), purpose: RollPurpose::Damage, dice: rolled });
        let fleet = self.ship(seat).fleet;
        let shield = self.has_passive(seat, |e| matches!(e, crate::content::ModuleEffect::DamageRollShield { .. }))
            || self.alive().any(|o| {
                o.seat != seat
                    && fleet.is_some()
                    && o.fleet == fleet
                    && self.has_passive(o.seat, |e| {
                        matches!(e, crate::content::ModuleEffect::DamageRollShield { fleet: true })
                    })
            });
        if shield && misses > 0 {
            misses -= 1;
            self.note(seat, |e| matches!(e, crate::content::ModuleEffect::DamageRollShield { .. }), ev);
            for o in self.pb.ships.iter().filter(|o| o.seat != seat && fleet.is_some() && o.fleet == fleet) {
                self.note(o.seat, |e| matches!(e, crate::content::ModuleEffect::DamageRollShield { fleet: true }), ev);
            }
        } else if misses == 2 {
            self.draw_damaged(seat, ev);
        }
        if misses > 0 {
            self.lose_health(seat, misses, ev);
        }
        specials
    }

    /// Loses health; at 0 the ship is destroyed (p. 15).
    pub(crate) fn lose_health(&mut self, seat: Seat, amount: u8, ev: &mut Vec<Event>) {
        if amount == 0 || self.ship(seat).defeated {
            return;
        }
        let s = self.ship_mut(seat);
        let lost = amount.min(s.health);
        s.health -= lost;
        let health = s.health;
        ev.push(Event::HealthLost { seat, amount: lost, health });
        if health == 0 {
            self.destroy_ship(seat, ev);
        }
    }

    /// Recovers health up to the markers owned.
    pub(crate) fn recover_health(&mut self, seat: Seat, amount: u8, ev: &mut Vec<Event>) {
        let s = self.ship_mut(seat);
        if s.defeated {
            return;
        }
        let gained = amount.min(s.max_health - s.health);
        if gained > 0 {
            s.health += gained;
            let health = s.health;
            ev.push(Event::HealthRecovered { seat, amount: gained, health });
        }
    }

    /// Permanently discards a health marker, a lost one first (p. 16).
    pub(crate) fn discard_health_marker(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let s = self.ship_mut(seat);
        if s.defeated || s.max_health == 0 {
            return;
        }
        if s.health == s.max_health {
            s.health -= 1;
        }
        s.max_health -= 1;
        let dead = s.health == 0;
        ev.push(Event::HealthMarkerDiscarded { seat });
        if dead {
            self.destroy_ship(seat, ev);
        }
    }

    /// Changes the Avatars' movement this turn by `by`. From rules
    /// revision 3 it takes the Avatar Movement `marker` (p. 11: "use the
    /// white/red Avatar Movement marker"), of which there is one each
    /// (p. 3): while it lies on the mat, the same effect again does
    /// nothing.
    fn lay_movement_marker(&mut self, marker: u8, by: i8, ev: &mut Vec<Event>) {
        let one_marker_each = self.revised(3);
        let c = &mut self.pb.corruption;
        if one_marker_each {
            if c.movement_markers & marker != 0 {
                return;
            }
            c.movement_markers |= marker;
        }
        c.movement_this_turn += by;
        ev.push(Event::AvatarMovementChanged { this_turn: c.movement_this_turn });
    }

    /// There is one red and one white Rift marker (p. 3): before one is
    /// laid on `hex`, it leaves the system where it lay, whose rift opens
    /// or closes again (rules revision 3, read like the FAQ's Exploration
    /// markers: when none is left, one is moved).
    fn move_rift_marker(
        &mut self,
        hex: Hex,
        marker: impl Fn(&mut crate::state::PlacedTile) -> &mut bool,
        ev: &mut Vec<Event>,
    ) {
        let Some(i) = self.pb.tiles.iter_mut().position(|t| t.hex != hex && *marker(t)) else { return };
        *marker(&mut self.pb.tiles[i]) = false;
        let old = self.pb.tiles[i].hex;
        ev.push(Event::RiftChanged { hex: old, open: self.has_rift(old) });
    }

    /// Permanently discards the last energy marker unlocked (p. 16).
    pub(crate) fn discard_energy_marker(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.remove_energy_marker(seat, true, ev);
    }

    /// Takes an energy marker off the mat; `slot_lost`: its slot stays
    /// empty for good (rules revision 3), as for an Avatar's discard, but
    /// not for the marker a lost mod gave, which never took a bought slot
    /// of its own.
    pub(crate) fn remove_energy_marker(&mut self, seat: Seat, slot_lost: bool, ev: &mut Vec<Event>) {
        let s = self.ship_mut(seat);
        if s.defeated || s.energy_total == 0 {
            return;
        }
        s.energy_total -= 1;
        s.energy_used = s.energy_used.min(s.energy_total);
        if slot_lost && self.revised(3) {
            self.ship_mut(seat).energy_lost += 1;
        }
        ev.push(Event::EnergyMarkerDiscarded { seat });
    }

    /// Draws a Damaged card (reshuffling the discard if the deck is empty).
    pub(crate) fn draw_damaged(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.ship(seat).defeated {
            return;
        }
        if self.hid.damaged_deck.is_empty() {
            let mut d = std::mem::take(&mut self.pb.damaged_discard);
            self.hid.rng.shuffle(&mut d);
            self.hid.damaged_deck = d;
        }
        if let Some(card) = self.hid.damaged_deck.pop() {
            self.ship_mut(seat).damaged.push(card);
            let id = self.content().damaged[card as usize].id.clone();
            ev.push(Event::DamagedDrawn { seat, card: id });
        }
    }

    /// Destroys a ship (p. 15): its markers, cards and scraps are discarded;
    /// the token and any Keys stay where it fell.
    pub(crate) fn destroy_ship(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let s = self.ship_mut(seat);
        s.defeated = true;
        s.health = 0;
        s.energy_total = 0;
        s.energy_used = 0;
        s.scraps = 0;
        s.engaged = false;
        s.hidden = false;
        s.fleet = None;
        s.actions_left = 0;
        s.strained = false;
        let damaged = std::mem::take(&mut s.damaged);
        let modules = std::mem::take(&mut s.modules);
        s.mods.clear();
        self.pb.damaged_discard.extend(damaged);
        self.pb.module_discard.extend(modules);
        self.pb.active.retain(|&a| a != seat);
        if let Some(f) = &mut self.pb.fight {
            f.seats.retain(|&a| a != seat);
        }
        ev.push(Event::ShipDestroyed { seat });
        if self.alive().next().is_none() {
            self.finish(false, "all_ships_destroyed", ev);
        }
    }

    /// Gains scraps; `source` says whether they were won in combat or in
    /// an exploration (the Pirate Ship's XP condition, FAQ). From rules
    /// revision 2 an Exploration earns a ship at most one XP (FAQ, Pirate
    /// Ship: "une seule EXP par Exploration").
    pub(crate) fn gain_scraps(&mut self, seat: Seat, amount: u8, source: ScrapSource, ev: &mut Vec<Event>) {
        if amount == 0 || self.ship(seat).defeated {
            return;
        }
        let s = self.ship_mut(seat);
        s.scraps = s.scraps.saturating_add(amount);
        let scraps = s.scraps;
        ev.push(Event::ScrapsChanged { seat, delta: amount as i16, scraps });
        match source {
            ScrapSource::Plain => {}
            ScrapSource::Combat => self.gain_xp(seat, XpCondition::ScrapsGained, ev),
            ScrapSource::Exploration => {
                if self.revised(2) {
                    if self.pb.exploration_xp.contains(&seat) {
                        return;
                    }
                    if self.content().ship(self.ship(seat).kind).xp_condition == XpCondition::ScrapsGained {
                        self.pb.exploration_xp.push(seat);
                    }
                }
                self.gain_xp(seat, XpCondition::ScrapsGained, ev);
            }
        }
    }

    /// Pays scraps (caller checked the amount).
    pub(crate) fn pay_scraps(&mut self, seat: Seat, amount: u8, ev: &mut Vec<Event>) {
        if amount == 0 {
            return;
        }
        let s = self.ship_mut(seat);
        let paid = amount.min(s.scraps);
        s.scraps -= paid;
        let scraps = s.scraps;
        ev.push(Event::ScrapsChanged { seat, delta: -(paid as i16), scraps });
    }

    /// One XP if the ship's condition is `cond` (FAQ, per-ship conditions).
    pub(crate) fn gain_xp(&mut self, seat: Seat, cond: XpCondition, ev: &mut Vec<Event>) {
        let def = self.content().ship(self.ship(seat).kind);
        if def.xp_condition != cond || self.ship(seat).defeated {
            return;
        }
        let track = def.xp_track.clone();
        let s = self.ship_mut(seat);
        let before = s.level;
        s.xp = s.xp.saturating_add(1);
        let level = 1 + track.iter().filter(|&&t| s.xp >= t).count() as u8;
        s.level = level.min(6);
        let (xp, level) = (s.xp, s.level);
        ev.push(Event::XpGained { seat, xp, level });
        // A new level unlocks its mod at once (p. 14).
        for l in before + 1..=level {
            self.unlock_mod_level(seat, l, ev);
        }
    }

    /// Draws an Enemy card from the deck (reshuffling the discard when
    /// empty, p. 9) or from the reserve top (stronger Enemies).
    pub(crate) fn draw_enemy(&mut self, from_reserve: bool, ev: &mut Vec<Event>) -> Option<(u8, bool)> {
        if from_reserve && let Some(e) = self.hid.enemy_reserve.pop() {
            self.recount_levels();
            return Some((e, true));
        }
        if self.hid.enemy_deck.is_empty() && !self.pb.enemy_discard.is_empty() {
            let mut d = std::mem::take(&mut self.pb.enemy_discard);
            self.hid.rng.shuffle(&mut d);
            self.hid.enemy_deck = d;
            ev.push(Event::EnemyDeckReshuffled);
        }
        let e = self.hid.enemy_deck.pop();
        self.recount_levels();
        e.map(|e| (e, false))
    }

    /// Shuffles the next 4 reserve Enemies into the deck (p. 17).
    pub(crate) fn reinforce(&mut self, ev: &mut Vec<Event>) {
        let mut n = 0;
        for _ in 0..4 {
            if let Some(e) = self.hid.enemy_reserve.pop() {
                self.hid.enemy_deck.push(e);
                n += 1;
            }
        }
        if n > 0 {
            let mut d = std::mem::take(&mut self.hid.enemy_deck);
            self.hid.rng.shuffle(&mut d);
            self.hid.enemy_deck = d;
            ev.push(Event::EnemiesReinforced { count: n });
        }
        self.recount_levels();
    }

    /// Applies a symbol effect to a group of ships in `hex` (p. 11): health,
    /// energy and Damaged cards for each member, the rest once.
    pub(crate) fn apply_effect(&mut self, effect: Effect, group: &[Seat], hex: Hex, ev: &mut Vec<Event>) {
        match effect {
            Effect::LoseHealth { amount } => {
                for &s in group {
                    self.lose_health(s, amount, ev);
                }
            }
            Effect::Damaged => {
                for &s in group {
                    self.draw_damaged(s, ev);
                }
            }
            Effect::RecoverHealth { amount } => {
                for &s in group {
                    self.recover_health(s, amount, ev);
                }
            }
            Effect::RecoverEnergy => {
                for &s in group {
                    let sh = self.ship_mut(s);
                    sh.energy_used = 0;
                    let (available, total) = (self.energy_available(s), self.ship(s).energy_total);
                    ev.push(Event::EnergyChanged { seat: s, available, total });
                }
            }
            Effect::GainScraps { .. } | Effect::GainModule | Effect::GainPrecursorModule | Effect::NewAlly => {
                self.gift_effect(effect, group, hex, ev)
            }
            Effect::AdvanceCorruption => self.advance_corruption(ev),
            Effect::AvatarMovesUp => self.lay_movement_marker(crate::state::MOVEMENT_RED, 1, ev),
            Effect::AvatarMovesDown => self.lay_movement_marker(crate::state::MOVEMENT_WHITE, -1, ev),
            Effect::CreateRift => {
                if self.revised(3) && self.tile_at(hex).is_some() {
                    self.move_rift_marker(hex, |t| &mut t.rift_created, ev);
                }
                if let Some(t) = self.tile_at_mut(hex) {
                    t.rift_created = true;
                    t.rift_disabled = false;
                    ev.push(Event::RiftChanged { hex, open: true });
                }
            }
            Effect::RevealSystems { amount } => {
                self.pb.queued.push(crate::decision::Pending::RevealAnywhere { left: amount, near: None })
            }
            Effect::PacifySystems { amount } => {
                self.pb.queued.push(crate::decision::Pending::PacifyAnywhere { left: amount })
            }
            Effect::DisableRift => {
                if self.revised(3) && self.has_rift(hex) {
                    self.move_rift_marker(hex, |t| &mut t.rift_disabled, ev);
                }
                if self.has_rift(hex)
                    && let Some(t) = self.tile_at_mut(hex)
                {
                    t.rift_disabled = true;
                    ev.push(Event::RiftChanged { hex, open: false });
                }
            }
            Effect::EndTurn => {
                for &s in group {
                    let sh = self.ship_mut(s);
                    sh.actions_left = 0;
                }
                self.pb.end_turn_requested = true;
            }
        }
    }
}
