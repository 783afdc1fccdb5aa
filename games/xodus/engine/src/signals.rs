//! Precursor Signals and the Keys (rulebook pp. 12-13): exploring a Key
//! system reveals its Signal from the Corruption mat; the card stays in
//! play with its own state until solved; each bracketed instruction costs
//! an Action, accessing the Key costs none; exploring the Main Rift
//! activates the Keys carried, and the last Key sends the Avatars there.

use crate::content::{Challenge, Face, SystemKind, XpCondition};
use crate::decision::Pending;
use crate::effects::ScrapSource;
use crate::event::{Event, RollPurpose};
use crate::state::*;

impl Game {
    /// The Explore action (1 Action): the Main Rift, a Signal, or an
    /// Exploration card.
    pub(crate) fn explore(&mut self, ev: &mut Vec<Event>) {
        let hex = self.group_hex();
        let group = self.pb.active.clone();
        self.spend_actions(1);
        // A new Exploration: each ship may earn its XP for scraps again.
        self.pb.exploration_xp.clear();
        // The Explorer earns XP for every Explore action (FAQ), Signals and
        // the Main Rift included.
        for &s in &group {
            self.gain_xp(s, XpCondition::Explore, ev);
            // System Scanner (FAQ): a scrap for every Explore action,
            // Signals and the Main Rift included.
            if self.has_passive(s, |e| matches!(e, crate::content::ModuleEffect::ScrapOnExplore)) {
                self.note(s, |e| matches!(e, crate::content::ModuleEffect::ScrapOnExplore), ev);
                self.gain_scraps(s, 1, ScrapSource::Exploration, ev);
            }
        }
        let Some(t) = self.tile_at(hex).cloned() else { return };
        let kind = self.content().tiles[t.tile as usize].kind;
        if kind == SystemKind::MainRift {
            let mut placed = Vec::new();
            for &s in &group {
                placed.extend(std::mem::take(&mut self.ship_mut(s).keys));
            }
            let total = {
                let tile = self.tile_at_mut(hex).expect("tile exists");
                tile.keys_activated.extend(placed.iter().copied());
                tile.keys_activated.len() as u8
            };
            ev.push(Event::KeysActivated { keys: placed, total });
            if total == self.key_count() && !self.pb.corruption.rift_rush {
                self.pb.corruption.rift_rush = true;
                self.move_avatars(false, true, ev);
            }
            return;
        }
        if let Some(k) = t.key_marker
            && let Some(idx) = self.pb.signals.iter().position(|s| s.key == k)
            && self.pb.signals[idx].card.is_none()
        {
            let card = self.hid.signal_cards[idx];
            self.pb.signals[idx].card = Some(card);
            let def = &self.content().signals[card as usize];
            ev.push(Event::SignalRevealed { key: k, card: def.id.clone() });
            for e in def.on_reveal.clone() {
                self.apply_effect(e, &group, hex, ev);
            }
            return;
        }
        if t.exploration_marker {
            if let Some(tile) = self.tile_at_mut(hex) {
                tile.exploration_marker = false;
            }
            self.resolve_exploration(ev);
        }
    }

    /// Draws the guardian of Key `k`'s Signal into `hex`: the first card
    /// from the top of the Enemy reserve of at least `min_level` (the
    /// reserve is stacked by level, so this is the top of that level's
    /// part), else the strongest left there, else the deck's top.
    fn draw_guardian(&mut self, hex: crate::hex::Hex, min_level: u8, k: u8, ev: &mut Vec<Event>) {
        let level = |c: &u8| self.content().enemies[*c as usize].level;
        let reserve = &self.hid.enemy_reserve;
        let pick = reserve.iter().rposition(|c| level(c) >= min_level).or_else(|| {
            let best = reserve.iter().map(level).max()?;
            reserve.iter().rposition(|c| level(c) == best)
        });
        let drawn = match pick {
            Some(i) => {
                let card = self.hid.enemy_reserve.remove(i);
                self.recount_levels();
                Some((card, true))
            }
            None => self.draw_enemy(false, ev),
        };
        if let Some((card, from_reserve)) = drawn {
            self.pb.board_enemies.push(crate::state::BoardEnemy { card, hex, damage: 0, guards_key: Some(k) });
            let enemy = self.content().enemies[card as usize].id.clone();
            ev.push(Event::EnemyDrawn { enemy, hex, from_reserve });
        }
    }

    /// Progress needed to open a Signal's Key.
    fn needed(challenge: &Challenge) -> u8 {
        match challenge {
            Challenge::Repairs { amount } | Challenge::Tribute { amount } | Challenge::Trial { amount, .. } => *amount,
            Challenge::Guardian { .. } => 1,
        }
    }

    /// A bracketed instruction of the revealed Signal (1 Action).
    pub(crate) fn follow_instruction(&mut self, ev: &mut Vec<Event>) {
        let hex = self.group_hex();
        let group = self.pb.active.clone();
        let Some(k) = self.tile_at(hex).and_then(|t| t.key_marker) else { return };
        let Some(idx) = self.pb.signals.iter().position(|s| s.key == k) else { return };
        let Some(card) = self.pb.signals[idx].card else { return };
        self.spend_actions(1);
        let challenge = self.content().signals[card as usize].challenge.clone();
        let needed = Self::needed(&challenge);
        match challenge {
            Challenge::Repairs { .. } => {
                // [Repair]: each ship pays 1 scrap for 1 marker.
                for &s in &group {
                    if self.pb.signals[idx].progress < needed && self.ship(s).scraps > 0 {
                        self.pay_scraps(s, 1, ev);
                        self.pb.signals[idx].progress += 1;
                        self.gain_xp(s, XpCondition::Repair, ev);
                    }
                }
            }
            Challenge::Tribute { .. } => {
                for &s in &group {
                    let owed = needed.saturating_sub(self.pb.signals[idx].progress);
                    let pay = owed.min(self.ship(s).scraps);
                    self.pay_scraps(s, pay, ev);
                    self.pb.signals[idx].progress += pay;
                }
            }
            Challenge::Trial { amount, on_fail } => {
                let specials = self.skill_roll(&group, ev);
                if specials >= amount {
                    self.pb.signals[idx].progress = needed;
                } else {
                    for e in on_fail {
                        self.apply_effect(e, &group, hex, ev);
                    }
                }
            }
            Challenge::Guardian { amount: min_level } => {
                // A guardian a retreat left here is taken up where it was
                // left, damage and all (FAQ, "Ennemis et Combats"); only
                // when none waits is a new one drawn (rules revision 1),
                // of at least the card's level (rules revision 3).
                let waiting = self.pb.board_enemies.iter().any(|e| e.hex == hex && e.guards_key == Some(k));
                if self.revised(3) {
                    if !waiting {
                        self.draw_guardian(hex, min_level, k, ev);
                    }
                } else if !waiting || self.config.rules_revision() < 1 {
                    self.draw_into(hex, 1, true, Some(k), ev);
                }
                self.start_fight(&group, hex, crate::event::EngageCause::Guardian, ev);
                return;
            }
        }
        ev.push(Event::SignalProgress { key: k, progress: self.pb.signals[idx].progress, needed });
    }

    /// Skill Roll (p. 11): both dice of every ship, specials summed over the
    /// group (Damaged sensors count one fewer each). Never a critical miss.
    pub(crate) fn skill_roll(&mut self, group: &[Seat], ev: &mut Vec<Event>) -> u8 {
        let mut total: u8 = 0;
        for &s in group {
            let dice = self.dice_of(s);
            let rolled = self.roll(&dice);
            let specials = rolled.iter().filter(|d| d.1 == Face::Special).count() as u8;
            let bonus = self
                .passive(s, |e| if let crate::content::ModuleEffect::SkillBonus { amount } = e { amount } else { 0 });
            self.note(s, |e| matches!(e, crate::content::ModuleEffect::SkillBonus { .. }), ev);
            total +=
                (specials + bonus).saturating_sub(self.damage_count(s, crate::content::DamagedEffect::DullSensors));
            ev.push(Event::DiceRolled { seat: Some(s), purpose: RollPurpose::Skill, dice: rolled });
        }
        total
    }

    /// If the Signal in the group's system is solved, give its Key to a ship
    /// (the group chooses which when several could carry it). Returns true
    /// when a decision is now pending.
    pub(crate) fn signal_ready_here(&mut self, ev: &mut Vec<Event>) -> bool {
        let hex = self.group_hex();
        let Some(k) = self.tile_at(hex).and_then(|t| t.key_marker) else { return false };
        let Some(slot) = self.pb.signals.iter().find(|s| s.key == k) else { return false };
        let Some(card) = slot.card else { return false };
        if slot.solved || slot.progress < Self::needed(&self.content().signals[card as usize].challenge) {
            return false;
        }
        if self.pb.active.len() == 1 {
            let s = self.pb.active[0];
            self.carry_key(s, ev);
            false
        } else {
            self.pb.pending = Pending::KeyCarrier { key: k };
            true
        }
    }

    /// The chosen ship takes the accessed Key (no Action).
    pub(crate) fn carry_key(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let hex = self.ship(seat).hex;
        let Some(k) = self.tile_at(hex).and_then(|t| t.key_marker) else { return };
        if let Some(slot) = self.pb.signals.iter_mut().find(|s| s.key == k) {
            slot.solved = true;
        }
        if let Some(t) = self.tile_at_mut(hex) {
            t.key_marker = None;
        }
        self.ship_mut(seat).keys.push(k);
        ev.push(Event::KeyAccessed { key: k, seat });
        self.pb.pending = Pending::Action;
    }
}
