//! Combat (rulebook pp. 14-16, the combat summary, FAQ "Ennemis et
//! Combats"): engagement, the attack sequence (manoeuvres, roll, Enemy
//! abilities, hits minus shields, misses as retaliation), critical misses,
//! defeat and rewards, Avatars' dimensional escape, and disengaging. One
//! Combat board: a new engagement repairs the foes it replaces.

use crate::content::{Ability, DamagedEffect, DieColor, Face, ModuleEffect, XpCondition};
use crate::decision::{Pending, Target};
use crate::effects::ScrapSource;
use crate::event::{EngageCause, Event, RollPurpose};
use crate::hex::Hex;
use crate::state::*;

/// Printed statistics of whatever is being attacked.
struct Foe {
    name: String,
    health: u8,
    shields: u8,
    ability: Ability,
    damage: u8,
}

impl Game {
    /// Whether anything in `hex` can be fought.
    pub(crate) fn has_opponents(&self, hex: Hex) -> bool {
        self.enemy_in(hex) || self.avatar_in(hex)
    }

    /// The Enemy cards a fight is engaged with: those of its system, none
    /// when it is with the Avatars only.
    pub(crate) fn fight_enemies<'a>(&'a self, f: &Fight) -> impl Iterator<Item = usize> + 'a {
        let hex = f.hex;
        let only = f.avatars_only;
        self.enemies_at(hex).filter(move |_| !only)
    }

    /// Whether a fight still has a foe to fight.
    pub(crate) fn fight_has_opponents(&self, f: &Fight) -> bool {
        if f.avatars_only { self.avatar_in(f.hex) } else { self.has_opponents(f.hex) }
    }

    /// Engages `group` with the Avatars of `hex` alone: its Detection Roll
    /// succeeded, so the Enemy card lying there stays out of the fight
    /// (FAQ, "Ennemis et Combats" and "Avatars"; rules revision 4).
    pub(crate) fn start_avatar_fight(&mut self, group: &[Seat], hex: Hex, ev: &mut Vec<Event>) {
        self.start_fight_with(group, hex, EngageCause::Avatar, true, ev);
    }

    /// Who fights when some seats are detected: the whole active fleet
    /// (FAQ: a joiner's failed roll makes the whole fleet fight).
    pub(crate) fn fight_group_for(&self, _seats: &[Seat]) -> Vec<Seat> {
        self.pb.active.clone()
    }

    /// Detected (or engaging voluntarily): fight the Enemies already in the
    /// system, or draw the patrol (from the reserve for stronger Enemies).
    /// `cause` is what the log gives as the reason.
    pub(crate) fn engage_patrol(&mut self, group: &[Seat], cause: EngageCause, ev: &mut Vec<Event>) {
        let hex = self.group_hex();
        if !self.enemy_in(hex) {
            let def = self.tile_at(hex).map(|t| &self.content().tiles[t.tile as usize]);
            let (n, stronger) = def.map(|d| (d.patrol.max(1), d.stronger)).unwrap_or((1, false));
            self.draw_into(hex, n, stronger, None, ev);
        }
        self.start_fight(group, hex, cause, ev);
    }

    /// Draws `n` Enemy cards onto the board in `hex`. Before rules revision
    /// 2 a drawn card was what replaced the foe on the combat board, which
    /// lost its damage; since, any new engagement does (see `start_fight`).
    pub(crate) fn draw_into(
        &mut self,
        hex: Hex,
        n: u8,
        from_reserve: bool,
        guards_key: Option<u8>,
        ev: &mut Vec<Event>,
    ) {
        let mut drawn = false;
        for _ in 0..n {
            if let Some((card, reserve)) = self.draw_enemy(from_reserve, ev) {
                if !drawn && !self.revised(2) {
                    let foes = self.repair_foes(|_| true, |_| true);
                    if !foes.is_empty() {
                        ev.push(Event::FoesRepaired { foes });
                    }
                    drawn = true;
                }
                self.pb.board_enemies.push(BoardEnemy { card, hex, damage: 0, guards_key });
                let enemy = self.content().enemies[card as usize].id.clone();
                ev.push(Event::EnemyDrawn { enemy, hex, from_reserve: reserve });
            }
        }
    }

    /// Engages `group` with everything in `hex`. There is one Combat board
    /// (FAQ, "Ennemis et Combats"): the foes engaged here take the place of
    /// whatever was on it, which is "repaired", Enemies and Avatars alike;
    /// foes here keep their damage, so the fight resumes where it was left
    /// (rules revision 2). A fight for the Pacify action pacifies when won.
    pub(crate) fn start_fight(&mut self, group: &[Seat], hex: Hex, cause: EngageCause, ev: &mut Vec<Event>) {
        self.start_fight_with(group, hex, cause, false, ev);
    }

    fn start_fight_with(
        &mut self,
        group: &[Seat],
        hex: Hex,
        cause: EngageCause,
        avatars_only: bool,
        ev: &mut Vec<Event>,
    ) {
        let pacify = cause == EngageCause::Pacify;
        let repaired = if self.revised(2) { self.replace_on_combat_board(hex, avatars_only) } else { Vec::new() };
        for &s in group {
            self.ship_mut(s).engaged = true;
        }
        // When the step has just said it (an Avatar engaged these ships and
        // the fight starts at once), once is enough for a reader.
        let engaged = Event::Engaged { seats: group.to_vec(), hex, cause };
        if ev.last() != Some(&engaged) {
            ev.push(engaged);
        }
        if !repaired.is_empty() {
            ev.push(Event::FoesRepaired { foes: repaired });
        }
        self.pb.fight = Some(Fight {
            hex,
            seats: group.to_vec(),
            pacify,
            defeated: 0,
            decoys: 0,
            decoy_pacifies: false,
            begun: false,
            relayed: Vec::new(),
            avatars_only,
        });
        self.pb.pending = Pending::CombatCommand;
    }

    /// The foes of `hex` take the Combat board: every other foe loses its
    /// damage, the Enemies of `hex` too when only its Avatars are fought.
    /// Returns the ids of those that had damage to lose.
    fn replace_on_combat_board(&mut self, hex: Hex, avatars_only: bool) -> Vec<String> {
        self.repair_foes(|e| e.hex != hex || avatars_only, |a| a.place != AvatarPlace::Board { hex })
    }

    /// Repairs the Enemies and Avatars the filters pick; returns the ids of
    /// those that had damage.
    fn repair_foes(&mut self, enemy: impl Fn(&BoardEnemy) -> bool, avatar: impl Fn(&Avatar) -> bool) -> Vec<String> {
        let c = self.content();
        let mut repaired = Vec::new();
        for e in self.pb.board_enemies.iter_mut().filter(|e| enemy(e)) {
            if e.damage > 0 {
                repaired.push(c.enemies[e.card as usize].id.clone());
            }
            e.damage = 0;
        }
        for a in self.pb.avatars.iter_mut().filter(|a| avatar(a)) {
            if a.damage > 0 {
                repaired.push(c.avatars[a.card as usize].id.clone());
            }
            a.damage = 0;
        }
        repaired
    }

    /// The fight is over: pacify if nothing is left and it was a Pacify
    /// action, a Decoy Probe sent every Enemy back, or (rules revision 2)
    /// the Enemies of an Enemy system were defeated.
    pub(crate) fn finish_fight(&mut self, ev: &mut Vec<Event>) {
        if let Some(f) = self.pb.fight.take() {
            let won = !f.seats.is_empty() && !self.fight_has_opponents(&f);
            // FAQ Decoy Probe: pacified only if every Enemy was sent back.
            let decoyed_all = f.decoy_pacifies && f.defeated == 0 && f.decoys > 0;
            // p. 9: "If you defeat the Enemies, the System becomes
            // Pacified", however the fight began (rules revision 2).
            let defeated_all = self.revised(2)
                && f.defeated > 0
                && f.decoys == 0
                && self.kind_at(f.hex) == Some(crate::content::SystemKind::Enemy)
                && self.tile_at(f.hex).is_some_and(|t| t.pacified.is_none());
            if won && (f.pacify || decoyed_all || defeated_all) && self.pb.pacify_supply > 0 {
                self.pb.pacify_supply -= 1;
                if let Some(t) = self.tile_at_mut(f.hex) {
                    t.pacified = Some(Pacified::Green);
                }
                ev.push(Event::Pacified { hex: f.hex });
            }
            if won {
                for &s in &f.seats {
                    self.ship_mut(s).engaged = false;
                }
            }
        }
        self.pb.pending = Pending::Action;
    }

    /// Records a captain's manoeuvre; once all have chosen, the attack resolves.
    pub(crate) fn choose_manoeuvre(&mut self, seat: Seat, die: Option<DieColor>, ev: &mut Vec<Event>) {
        let Pending::Manoeuvre { target, mut chosen, before, reserve } = self.pb.pending.clone() else { return };
        chosen.push((seat, die));
        let all = self.pb.fight.as_ref().is_some_and(|f| f.seats.iter().all(|s| chosen.iter().any(|c| c.0 == *s)));
        if all {
            self.roll_attack(target, &chosen, &before, &reserve, ev);
        } else {
            self.pb.pending = Pending::Manoeuvre { target, chosen, before, reserve };
        }
    }

    fn foe(&self, target: Target) -> Option<Foe> {
        let c = self.content();
        match target {
            Target::Enemy(i) => self.pb.board_enemies.get(i as usize).map(|e| {
                let d = &c.enemies[e.card as usize];
                Foe { name: d.id.clone(), health: d.health, shields: d.shields, ability: d.ability, damage: e.damage }
            }),
            Target::Avatar(i) => self.pb.avatars.get(i as usize).map(|a| {
                let d = &c.avatars[a.card as usize];
                Foe { name: d.id.clone(), health: d.health, shields: d.shields, ability: d.ability, damage: a.damage }
            }),
        }
    }

    fn set_damage(&mut self, target: Target, damage: u8) {
        match target {
            Target::Enemy(i) => {
                if let Some(e) = self.pb.board_enemies.get_mut(i as usize) {
                    e.damage = damage;
                }
            }
            Target::Avatar(i) => {
                if let Some(a) = self.pb.avatars.get_mut(i as usize) {
                    a.damage = damage;
                }
            }
        }
    }

    /// Steps 1-4 of the combat summary: everyone rolls together, then
    /// modules and mods may act on the dice before the attack resolves.
    fn roll_attack(
        &mut self,
        target: Target,
        chosen: &[(Seat, Option<DieColor>)],
        before: &[(Seat, crate::decision::Source)],
        reserve: &[(Seat, DieColor)],
        ev: &mut Vec<Event>,
    ) {
        let mut rolls = Vec::new();
        let cancel_ability =
            before.iter().any(|&(_, src)| matches!(self.power(src).effect, ModuleEffect::CancelAbility));
        for &(seat, die) in chosen {
            let mut colors: Vec<DieColor> = match die {
                Some(d) => vec![d],
                None => self.dice_of(seat).to_vec(),
            };
            // Warmaster's Arsenal: an Offense with a third die from the
            // reserve, of the colour chosen with the power (rules revision 4).
            let third =
                before.iter().any(|&(s, src)| s == seat && matches!(self.power(src).effect, ModuleEffect::ExtraDie));
            let chosen_color = reserve.iter().find(|r| r.0 == seat).map(|r| r.1);
            if die.is_none()
                && third
                && let Some(c) = chosen_color.or_else(|| self.reserve_color())
            {
                colors.push(c);
            }
            let rolled = self.roll(&colors);
            ev.push(Event::DiceRolled { seat: Some(seat), purpose: RollPurpose::Attack, dice: rolled.clone() });
            rolls.push(SeatRoll {
                seat,
                offense: die.is_none(),
                dice: rolled
                    .into_iter()
                    .map(|(color, face)| RolledDie {
                        color,
                        face,
                        rerolled: false,
                        used: false,
                        ignored: false,
                        doubled: false,
                    })
                    .collect(),
                bonus_hits: 0,
            });
        }
        self.pb.pending = Pending::AfterRoll {
            target,
            rolls,
            used: Vec::new(),
            grants: Vec::new(),
            ignore_shields: false,
            cancel_ability,
            relayed: false,
        };
        if self.after_roll_options(false).is_empty() {
            self.finalize_attack(ev);
        }
    }

    /// Steps 5-11 of the combat summary for the pending attack roll.
    pub(crate) fn finalize_attack(&mut self, ev: &mut Vec<Event>) {
        let Pending::AfterRoll { target, mut rolls, ignore_shields, cancel_ability, used, .. } =
            self.pb.pending.clone()
        else {
            return;
        };
        if self.revised(3) {
            self.discard_used_consumables(&used, ev);
        }
        self.pb.pending = Pending::CombatCommand;
        let Some(foe) = self.foe(target) else { return };
        let seats: Vec<Seat> = self.pb.fight.as_ref().map(|f| f.seats.clone()).unwrap_or_default();
        struct Tally {
            seat: Seat,
            misses: u8,
            offense: bool,
            critical: bool,
        }
        let mut pierce: u8 = 0;
        let mut heals: Vec<(Seat, u8)> = Vec::new();
        let mut scraps: Vec<(Seat, u8)> = Vec::new();
        for r in &mut rolls {
            // Always-on special bonuses: each unused special counts, both when
            // both dice show one (FAQ), and they stack (FAQ, Weapon Charger).
            let specials = r.dice.iter().filter(|d| d.face == Face::Special && !d.used).count() as u8;
            let (mut sh, mut heal, mut ign, mut scr) = (0u8, 0u8, 0u8, 0u8);
            for src in self.powers_of(r.seat) {
                let p = self.power(src);
                if let ModuleEffect::SpecialBonus { hits, heal: h, ignore, scraps: sc, pierce: pi } = p.effect
                    && p.trigger == crate::content::Trigger::Passive
                    && specials > 0
                    // A bonus of scraps alone does nothing against an Avatar
                    // (p. 16; rules revision 4): not announced as used.
                    && !(hits == 0
                        && h == 0
                        && ignore == 0
                        && pi == 0
                        && matches!(target, Target::Avatar(_))
                        && self.revised(4))
                {
                    sh += hits * specials;
                    heal += h * specials;
                    ign += ignore * specials;
                    scr += sc * specials;
                    pierce += pi * specials;
                    ev.push(Event::PowerUsed { seat: r.seat, power: self.power_id(src) });
                }
            }
            // Ignored by a special: only misses not used for another effect.
            for d in r.dice.iter_mut().filter(|d| d.face == Face::Miss && !d.ignored && !d.used) {
                if ign == 0 {
                    break;
                }
                d.ignored = true;
                ign -= 1;
            }
            r.bonus_hits += sh;
            heals.push((r.seat, heal));
            scraps.push((r.seat, scr));
        }
        let mut tallies = Vec::new();
        let mut hits_total: u8 = 0;
        let any_defense = rolls.iter().any(|r| !r.offense);
        for r in &rolls {
            let seat = r.seat;
            let mut hits: u8 =
                r.dice.iter().filter(|d| d.face == Face::Hit).map(|d| 1 + d.doubled as u8).sum::<u8>() + r.bonus_hits;
            hits += self.passive(seat, |e| if let ModuleEffect::AttackHits { hits } = e { hits } else { 0 });
            self.note(seat, |e| matches!(e, ModuleEffect::AttackHits { .. } | ModuleEffect::Pierce { .. }), ev);
            if r.offense {
                hits += self.passive(seat, |e| if let ModuleEffect::OffenseHits { hits } = e { hits } else { 0 });
                self.note(seat, |e| matches!(e, ModuleEffect::OffenseHits { .. }), ev);
            }
            let hits = hits.saturating_sub(self.damage_count(seat, DamagedEffect::WarpedTargeting));
            if hits >= 3 {
                // Once per attack (FAQ, Proto-ship).
                self.gain_xp(seat, XpCondition::ThreeHits, ev);
            }
            hits_total = hits_total.saturating_add(hits);
            pierce += self.passive(seat, |e| if let ModuleEffect::Pierce { amount } = e { amount } else { 0 });
            // An ignored miss triggers neither retaliation, damage nor Enemy
            // abilities (p. 15, FAQ); Defense never makes a critical miss; a
            // doubled miss counts twice but every die must show a miss for a
            // critical one (FAQ, Berserker Cannon).
            let misses: u8 =
                r.dice.iter().filter(|d| d.face == Face::Miss && !d.ignored).map(|d| 1 + d.doubled as u8).sum();
            let critical = r.offense && r.dice.len() > 1 && r.dice.iter().all(|d| d.face == Face::Miss && !d.ignored);
            tallies.push(Tally { seat, misses, offense: r.offense, critical });
        }
        // Ion Field Generator: the Enemy's ability does not trigger.
        let ability = if cancel_ability { Ability::Regenerate { amount: 0 } } else { foe.ability };
        // 6-8. Hits minus shields (never destroyed) off the health.
        let mut shields = foe.shields;
        if let Ability::Bulwark { amount } = ability
            && any_defense
        {
            shields += amount;
        }
        let shields = if ignore_shields { 0 } else { shields.saturating_sub(pierce) };
        let dealt = hits_total.saturating_sub(shields);
        let damage = foe.damage.saturating_add(dealt).min(foe.health);
        self.set_damage(target, damage);
        ev.push(Event::TargetDamaged {
            target: foe.name.clone(),
            damage: dealt,
            health_left: foe.health - damage,
            hits: hits_total,
            blocked: hits_total - dealt,
        });
        let defeated = damage >= foe.health;
        // Critical misses draw a Damaged card whatever the outcome.
        for t in &tallies {
            if t.critical {
                self.draw_damaged(t.seat, ev);
                if let Ability::Sunder { amount } = ability {
                    for _ in 0..amount {
                        self.discard_health_marker(t.seat, ev);
                    }
                }
            }
        }
        for (s, n) in heals {
            self.recover_health(s, n, ev);
        }
        // p. 16: "no Scraps from an Avatar's fight", a special's scraps
        // included (rules revision 4).
        let avatar = matches!(target, Target::Avatar(_)) && self.revised(4);
        for (s, n) in scraps {
            if !avatar {
                self.gain_scraps(s, n, ScrapSource::Combat, ev);
            }
        }
        // 5. Abilities set off by the dice, not by retaliation (Drain,
        // Nullify), trigger before the damage is dealt, so a killing attack
        // sets them off too (p. 14's sequence; rules revision 3; before,
        // only Sunder did).
        let early = self.revised(3);
        if early {
            for t in &tallies {
                if !self.ship(t.seat).defeated {
                    self.dice_ability(ability, t.seat, t.misses, ev);
                }
            }
        }
        if defeated {
            self.defeat_foe(target, &seats, ev);
            self.on_defeat_powers(&seats, avatar, ev);
            return;
        }
        // 9-11. Retaliation, individual and never shared.
        for t in &tallies {
            if self.ship(t.seat).defeated {
                continue;
            }
            let mut retaliation = t.misses;
            match ability {
                Ability::Swarm { min_misses, amount } if t.misses >= min_misses && t.misses > 0 => {
                    retaliation += amount
                }
                Ability::Piercing { amount } if t.offense && t.misses > 0 => retaliation += amount,
                _ => {}
            }
            if retaliation > 0 {
                let brittle = self.damage_count(t.seat, DamagedEffect::BrittleHull);
                let armor = self.passive(t.seat, |e| if let ModuleEffect::Armor { amount } = e { amount } else { 0 });
                self.note(t.seat, |e| matches!(e, ModuleEffect::Armor { .. }), ev);
                if self.revised(3) {
                    // A brittle hull loses more "whenever retaliation hits
                    // the ship": once armour has let some through.
                    retaliation = retaliation.saturating_sub(armor);
                    if retaliation > 0 {
                        retaliation += brittle;
                    }
                } else {
                    retaliation = (retaliation + brittle).saturating_sub(armor);
                }
            }
            self.lose_health(t.seat, retaliation, ev);
            match ability {
                Ability::Pillage { amount } if retaliation > 0 => {
                    let n = amount.min(self.ship(t.seat).scraps);
                    self.pay_scraps(t.seat, n, ev);
                }
                Ability::Drain { .. } | Ability::Nullify { .. } if !early => {
                    self.dice_ability(ability, t.seat, t.misses, ev)
                }
                Ability::Dismantle { amount } if retaliation > 0 => {
                    // A module or (rules revision 3) a Precursor Mod of the
                    // player's choice (p. 16).
                    let ship = self.ship(t.seat);
                    let discards = if ship.defeated {
                        0
                    } else if self.revised(3) {
                        // Never more discards than there are cards to lose.
                        amount.min((ship.modules.len() + ship.mods.len()) as u8)
                    } else if ship.modules.is_empty() {
                        0
                    } else {
                        amount
                    };
                    for _ in 0..discards {
                        self.pb.queued.push(Pending::DiscardModule { seat: t.seat });
                    }
                }
                _ => {}
            }
        }
        if let Ability::Regenerate { amount } = ability
            && let Some(f) = self.foe(target)
        {
            let repaired = amount.min(f.damage);
            self.set_damage(target, f.damage - repaired);
            if repaired > 0 {
                let health_left = f.health - (f.damage - repaired);
                ev.push(Event::Regenerated { target: f.name, amount: repaired, health_left });
            }
        }
    }

    /// Drain and Nullify on one ship's dice: set off by misses shown, not
    /// by retaliation taken.
    fn dice_ability(&mut self, ability: Ability, seat: Seat, misses: u8, ev: &mut Vec<Event>) {
        match ability {
            Ability::Drain { amount } if misses > 0 => {
                for _ in 0..amount {
                    if self.energy_available(seat) > 0 {
                        self.ship_mut(seat).energy_used += 1;
                    }
                }
                let (available, total) = (self.energy_available(seat), self.ship(seat).energy_total);
                ev.push(Event::EnergyChanged { seat, available, total });
            }
            Ability::Nullify { amount } if misses >= 2 => {
                for _ in 0..amount {
                    self.discard_energy_marker(seat, ev);
                }
            }
            _ => {}
        }
    }

    /// A defeated Enemy is discarded (FAQ) and pays 1 scrap per level to each
    /// fleet member; an Avatar escapes two spaces ahead on the mat (p. 16).
    fn defeat_foe(&mut self, target: Target, seats: &[Seat], ev: &mut Vec<Event>) {
        match target {
            Target::Enemy(i) => {
                let e = self.pb.board_enemies.remove(i as usize);
                if let Some(f) = &mut self.pb.fight {
                    f.defeated += 1;
                }
                let def = &self.content().enemies[e.card as usize];
                let (id, level) = (def.id.clone(), def.level);
                self.pb.enemy_discard.push(e.card);
                ev.push(Event::EnemyDefeated { enemy: id });
                for &s in seats {
                    self.gain_scraps(s, level, ScrapSource::Combat, ev);
                    self.gain_xp(s, XpCondition::DefeatEnemy, ev);
                }
                if let Some(k) = e.guards_key
                    && let Some(slot) = self.pb.signals.iter_mut().find(|s| s.key == k)
                {
                    slot.progress = slot.progress.saturating_add(1);
                    ev.push(Event::SignalProgress { key: k, progress: slot.progress, needed: 1 });
                }
            }
            Target::Avatar(i) => {
                let space = self.pb.corruption.position + 2;
                let gone = space > self.pb.corruption.rise;
                let id = self.content().avatars[self.pb.avatars[i as usize].card as usize].id.clone();
                let a = &mut self.pb.avatars[i as usize];
                a.damage = 0;
                a.place = if gone { AvatarPlace::Gone } else { AvatarPlace::Mat { space } };
                ev.push(Event::AvatarEscaped { avatar: id, space: (!gone).then_some(space) });
                for &s in seats {
                    self.gain_xp(s, XpCondition::DefeatEnemy, ev);
                }
            }
        }
    }

    /// Ships moved or a fleeing ship was destroyed: every system where
    /// captains gave ground to Avatars this round and no player is left
    /// advances the Corruption by 1 (FAQ "Avatars": "lorsque le dernier
    /// joueur quitte le système"; rules revision 2). A captain who stays,
    /// hidden or not, has not left.
    pub(crate) fn left_systems(&mut self, ev: &mut Vec<Event>) {
        let left: Vec<Hex> = self
            .pb
            .corruption
            .retreats_waiting
            .iter()
            .copied()
            .filter(|&h| !self.alive().any(|s| s.hex == h))
            .collect();
        for hex in left {
            if self.pb.outcome.is_some() {
                return;
            }
            self.pb.corruption.retreats_waiting.retain(|&h| h != hex);
            self.pb.corruption.retreats_this_round.push(hex);
            self.advance_corruption(ev);
        }
    }

    /// After the fleet disengaged, one member hides in the system: its
    /// turn ends there (Strain's Damage Roll included) and it leaves the
    /// group, which goes on without it (FAQ, Avatars).
    pub(crate) fn hide_member(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.ship(seat).defeated || !self.pb.active.contains(&seat) {
            return;
        }
        let drone = self.has_passive(seat, |e| matches!(e, crate::content::ModuleEffect::StrainRecovery));
        if self.ship(seat).strained && !drone {
            self.damage_roll(seat, ev);
        }
        let sh = self.ship_mut(seat);
        sh.hidden = !sh.defeated;
        sh.played = true;
        sh.actions_left = 0;
        sh.fleet = None;
        self.pb.active.retain(|&s| s != seat);
        ev.push(Event::TurnEnded { seat });
        if self.pb.active.is_empty() && self.pb.outcome.is_none() {
            self.pb.pending = Pending::NextPlayer;
        }
    }

    /// Disengage (p. 14): a Damage Roll per Enemy in the system and the
    /// "when you disengage" abilities; fleeing Avatars advances the
    /// Corruption at once, once per system and round (p. 16). Hiding ends
    /// the turn and, as nobody leaves the system, spares the marker (FAQ).
    pub(crate) fn disengage(&mut self, hide: bool, ev: &mut Vec<Event>) {
        let Some(f) = self.pb.fight.take() else { return };
        let c = self.content();
        let enemies: Vec<Ability> = self
            .fight_enemies(&f)
            .map(|i| c.enemies[self.pb.board_enemies[i].card as usize].ability)
            .chain(self.avatars_at(f.hex).map(|i| c.avatars[self.pb.avatars[i].card as usize].ability))
            .collect();
        let from_avatar = self.avatar_in(f.hex);
        ev.push(Event::Disengaged { seats: f.seats.clone(), hid: hide });
        for &s in &f.seats {
            for ab in &enemies {
                self.damage_roll(s, ev);
                if let Ability::Pursuit { amount } = ab {
                    self.lose_health(s, *amount, ev);
                }
            }
            let sh = self.ship_mut(s);
            sh.engaged = false;
            sh.disengaged = true;
            if hide {
                sh.hidden = true;
            }
        }
        self.pb.pending = Pending::Action;
        // Harbinger of the Corruption: once per system and round, however
        // many captains there give ground (p. 16). The FAQ ties it to the
        // last player leaving the system: a captain who hides stays, loses
        // the rest of the turn instead, and does not move the marker. From
        // rules revision 2 the marker waits for that last departure (see
        // `left_systems`); before, it moved at the first disengagement.
        let c = &self.pb.corruption;
        if from_avatar && !hide && !c.retreats_this_round.contains(&f.hex) {
            if self.revised(2) {
                if !c.retreats_waiting.contains(&f.hex) {
                    self.pb.corruption.retreats_waiting.push(f.hex);
                }
                if self.revised(3) {
                    // A captain destroyed by the retreat's Damage Rolls has
                    // left the system too.
                    self.left_systems(ev);
                }
            } else {
                self.pb.corruption.retreats_this_round.push(f.hex);
                self.advance_corruption(ev);
            }
        }
        if hide && self.pb.outcome.is_none() {
            self.end_group_turn(ev);
        }
    }
}
