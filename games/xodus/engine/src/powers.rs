//! Powers of Ship Modules, Precursor Ship Modules and Precursor Mods
//! (rulebook pp. 13-15, FAQ "Augmentations"). The special rules: each
//! power at most once per attack or action; as many as energy and triggers
//! allow; beneficial effects are offered, never forced, one at a time so
//! the player picks the order; each die is rerolled at most once; a die
//! that triggered an effect can be neither rerolled nor ignored; an ignored
//! miss triggers no retaliation, damage nor Enemy ability; effects that
//! reach other fleet ships follow the same rules; "a die from the reserve"
//! is an unused die, never another player's (FAQ). Energy powers flip an
//! energy marker (or a fleet ship's, with the Energy Relays), consumables are
//! discarded after use, passive powers are always on.

use crate::content::{Activation, DieColor, Face, ModuleEffect, Power, Trigger};
use crate::decision::{Choice, Grant, Pending, Source};
use crate::effects::ScrapSource;
use crate::event::{Event, RollPurpose};
use crate::moves::{Move, opt, text};
use crate::state::*;

/// When a power is paid, for the Energy Relays' limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PayTime {
    /// During an attack of a fight (before or after its roll).
    Attack,
    /// Anywhere else in the turn.
    Turn,
}

impl Game {
    /// Every power a ship owns: its modules, then its mods.
    pub(crate) fn powers_of(&self, seat: Seat) -> impl Iterator<Item = Source> + '_ {
        let s = self.ship(seat);
        s.modules.iter().map(|&m| Source::Module(m)).chain(s.mods.iter().map(|&m| Source::Mod(m)))
    }

    pub(crate) fn power(&self, src: Source) -> Power {
        self.content().power(src)
    }

    /// Sum of an always-on effect over a ship's powers.
    pub(crate) fn passive(&self, seat: Seat, f: impl Fn(ModuleEffect) -> u8) -> u8 {
        self.powers_of(seat).map(|p| self.power(p)).filter(|p| p.trigger == Trigger::Passive).map(|p| f(p.effect)).sum()
    }

    /// Reports the always-on powers of a ship that just took effect.
    pub(crate) fn note(&self, seat: Seat, f: impl Fn(ModuleEffect) -> bool, ev: &mut Vec<Event>) {
        for src in self.powers_of(seat) {
            let p = self.power(src);
            if p.trigger == Trigger::Passive && f(p.effect) {
                ev.push(Event::PowerUsed { seat, power: self.power_id(src) });
            }
        }
    }

    /// Whether a ship has an always-on effect.
    pub(crate) fn has_passive(&self, seat: Seat, f: impl Fn(ModuleEffect) -> bool) -> bool {
        self.passive(seat, |e| f(e) as u8) > 0
    }

    /// Whether `seat` already gave or took a relayed energy: in this attack
    /// when paying during one (rules revision 3), else this turn.
    fn relay_spent(&self, seat: Seat, when: PayTime) -> bool {
        match &self.pb.fight {
            Some(f) if when == PayTime::Attack && self.revised(3) => f.relayed.contains(&seat),
            _ => self.ship(seat).relayed,
        }
    }

    /// Who pays the energy of `owner`'s power: the owner, or a fleet ship
    /// through the Energy Relays (FAQ, Warship 4: modules work once "par
    /// attaque / tour", so a single relayed energy per attack in a fight,
    /// and per turn outside one). `relayed`: this attack already relayed.
    fn energy_payer(&self, owner: Seat, src: Source, relayed: bool, when: PayTime) -> Option<Seat> {
        if self.power(src).activation != Activation::Energy {
            return Some(owner);
        }
        if self.energy_available(owner) > 0 {
            return Some(owner);
        }
        if relayed || self.relay_spent(owner, when) {
            return None;
        }
        let fleet = self.ship(owner).fleet?;
        let relay_in = self.has_passive(owner, |e| matches!(e, ModuleEffect::RelayIn));
        self.alive()
            .filter(|o| {
                o.seat != owner
                    && o.fleet == Some(fleet)
                    && o.hex == self.ship(owner).hex
                    && !self.relay_spent(o.seat, when)
            })
            .find(|o| {
                self.energy_available(o.seat) > 0
                    && (relay_in || self.has_passive(o.seat, |e| matches!(e, ModuleEffect::RelayOut)))
            })
            .map(|o| o.seat)
    }

    /// Pays for a power. Returns true if the energy was relayed.
    fn pay_power(&mut self, owner: Seat, src: Source, payer: Seat, when: PayTime, ev: &mut Vec<Event>) -> bool {
        let p = self.power(src);
        let mut relayed = false;
        let per_attack = when == PayTime::Attack && self.revised(3);
        match p.activation {
            Activation::Energy => {
                self.ship_mut(payer).energy_used += 1;
                if payer != owner {
                    match &mut self.pb.fight {
                        Some(f) if per_attack => f.relayed.extend([payer, owner]),
                        _ => {
                            self.ship_mut(payer).relayed = true;
                            self.ship_mut(owner).relayed = true;
                        }
                    }
                    relayed = true;
                    self.note(owner, |e| matches!(e, ModuleEffect::RelayIn), ev);
                    self.note(payer, |e| matches!(e, ModuleEffect::RelayOut), ev);
                }
                let (available, total) = (self.energy_available(payer), self.ship(payer).energy_total);
                ev.push(Event::EnergyChanged { seat: payer, available, total });
            }
            Activation::Consumable => {
                if let Source::Module(m) = src {
                    let s = self.ship_mut(owner);
                    if let Some(i) = s.modules.iter().position(|&x| x == m) {
                        s.modules.remove(i);
                    }
                    self.pb.module_discard.push(m);
                }
            }
            Activation::Passive => {}
        }
        ev.push(Event::PowerUsed { seat: owner, power: self.power_id(src) });
        relayed
    }

    /// Stable id of a power.
    pub(crate) fn power_id(&self, src: Source) -> String {
        match src {
            Source::Module(m) => self.content().modules[m as usize].id.clone(),
            Source::Mod(m) => self.content().mod_effects[m as usize].id.clone(),
        }
    }

    /// Unused dice of the game by colour (12 dice, 4 of each colour, less
    /// the ships' own): the reserve (FAQ, end of Augmentations). A wreck's
    /// dice are back in the reserve ("tous les dés non utilisés"; rules
    /// revision 4).
    pub(crate) fn reserve_dice(&self) -> [i8; 3] {
        let mut left = [4i8; 3];
        for s in self.pb.ships.iter().filter(|s| !(s.defeated && self.revised(4))) {
            for d in self.content().ship(s.kind).dice {
                left[d as usize] -= 1;
            }
        }
        left
    }

    /// The colours a die from the reserve may take: those with an unused
    /// die, never another ship's (FAQ); the captain chooses among them
    /// (rules revision 4).
    pub(crate) fn reserve_colors(&self) -> impl Iterator<Item = DieColor> + use<> {
        let left = self.reserve_dice();
        [DieColor::Red, DieColor::Blue, DieColor::Yellow].into_iter().filter(move |c| left[*c as usize] > 0)
    }

    /// The colour the engine takes for a die from the reserve when nobody
    /// chose one (before rules revision 4): the colour with the most unused
    /// dice, the last one on a tie. `None`: the reserve is empty.
    pub(crate) fn reserve_color(&self) -> Option<DieColor> {
        let left = self.reserve_dice();
        self.reserve_colors().max_by_key(|c| left[*c as usize])
    }

    /// Options after an attack roll: each power that can act on the dice
    /// now, the rights granted to fleet ships, then "resolve".
    pub(crate) fn after_roll_options(&self, lab: bool) -> Vec<Move> {
        let Pending::AfterRoll { rolls, used, grants, relayed, .. } = &self.pb.pending else { return Vec::new() };
        let seats: crate::small::Inline<Seat, 4> = rolls.iter().map(|r| r.seat).collect();
        let mut opts = Vec::with_capacity(8);
        let free = |d: &RolledDie| !d.rerolled && !d.used;
        for r in rolls {
            let s = r.seat;
            for src in self.powers_of(s) {
                let p = self.power(src);
                // A power already used in this attack is paid for: its
                // further dice need no more energy (rules revision 3).
                let paid = self.revised(3) && used.contains(&(s, src));
                if p.trigger != Trigger::AfterAttackRoll
                    || (!paid && self.energy_payer(s, src, *relayed, PayTime::Attack).is_none())
                {
                    continue;
                }
                let uses = used.iter().filter(|u| **u == (s, src)).count() as u8;
                let limit = match p.effect {
                    ModuleEffect::PayScrapReroll { dice, .. } => dice,
                    ModuleEffect::SpecialReroll { .. } => 2,
                    // Rules revision 3: "ignore 2 misses", "reroll 2 dice"
                    // work on that many dice, one chosen at a time.
                    ModuleEffect::IgnoreMiss { count, .. } if self.revised(3) => count.max(1),
                    ModuleEffect::Reroll { dice } if self.revised(3) => dice.max(1),
                    _ => 1,
                };
                if uses >= limit {
                    continue;
                }
                // "Choisir un dé dans la réserve" (FAQ): one option for each
                // colour with an unused die (rules revision 4; before, the
                // engine took the colour with the most).
                if matches!(p.effect, ModuleEffect::ReserveDie) && self.revised(4) {
                    for c in self.reserve_colors() {
                        opts.push(opt!(
                            lab,
                            [s],
                            format!("{}: roll a {} die from the reserve", billed(&p, paid), c.as_str()),
                            Choice::Activate { seat: s, source: src, die: None, color: Some(c) },
                        ));
                    }
                    continue;
                }
                let mut push = |die: Option<(Seat, u8)>, what: String| {
                    opts.push(opt!(
                        lab,
                        [s],
                        format!("{}: {what}", billed(&p, paid)),
                        Choice::Activate { seat: s, source: src, die, color: None },
                    ));
                };
                // One die at a time: a one-die reroll, the Berserker Cannon,
                // and from rules revision 3 every reroll ("up to N dice").
                let one_by_one = matches!(p.effect, ModuleEffect::Reroll { dice: 1 } | ModuleEffect::Berserk)
                    || (matches!(p.effect, ModuleEffect::Reroll { .. }) && self.revised(3));
                match p.effect {
                    ModuleEffect::Reroll { .. } | ModuleEffect::Berserk if one_by_one => {
                        for (i, d) in r.dice.iter().enumerate().filter(|(_, d)| free(d)) {
                            push(
                                Some((s, i as u8)),
                                text!(lab, format!("reroll your {} die ({})", d.color.as_str(), face_word(d.face))),
                            );
                        }
                    }
                    ModuleEffect::Reroll { .. } if r.dice.iter().any(free) => {
                        push(None, text!(lab, "reroll your dice"))
                    }
                    ModuleEffect::IgnoreMiss { fleet, .. } => {
                        for t in rolls.iter().filter(|t| t.seat == s || fleet) {
                            for (i, d) in t.dice.iter().enumerate() {
                                if d.face == Face::Miss && !d.ignored && !d.used {
                                    push(
                                        Some((t.seat, i as u8)),
                                        text!(lab, format!("ignore captain {}'s {} miss", t.seat, d.color.as_str())),
                                    );
                                }
                            }
                        }
                    }
                    ModuleEffect::SpecialAsHits { hits } => {
                        for (i, d) in r.dice.iter().enumerate() {
                            if d.face == Face::Special && !d.used {
                                push(
                                    Some((s, i as u8)),
                                    text!(lab, format!("your {} special counts as {hits} hits", d.color.as_str())),
                                );
                            }
                        }
                    }
                    ModuleEffect::AddHits { hits } => push(None, text!(lab, format!("+{hits} hits"))),
                    ModuleEffect::ScatterOnCritical { .. }
                        if r.offense && r.dice.iter().all(|d| d.face == Face::Miss && !d.ignored) =>
                    {
                        push(None, text!(lab, "the critical miss's misses count as hits too"))
                    }
                    ModuleEffect::MissAsHits { .. } if r.dice.iter().any(|d| d.face == Face::Miss && !d.ignored) => {
                        push(None, text!(lab, "your misses count as hits too"))
                    }
                    ModuleEffect::RerollBoth { fleet } => {
                        // FAQ: the ship must be able to reroll both dice: not
                        // in Defense, not with a third die, none used or rerolled.
                        for t in rolls.iter().filter(|t| t.seat == s || fleet) {
                            if t.offense && t.dice.len() == 2 && t.dice.iter().all(free) {
                                push(Some((t.seat, 0)), text!(lab, format!("captain {} rerolls both dice", t.seat)));
                            }
                        }
                    }
                    ModuleEffect::GrantIgnoreMiss => push(None, text!(lab, "every fleet ship may ignore one miss")),
                    ModuleEffect::GrantReroll => push(None, text!(lab, "every fleet ship may reroll one die")),
                    ModuleEffect::ReserveDie if self.reserve_color().is_some() => {
                        push(None, text!(lab, "roll a die from the reserve"))
                    }
                    ModuleEffect::IgnoreShields => push(None, text!(lab, "ignore the Enemy's shields")),
                    ModuleEffect::SpecialReroll { fleet } => {
                        if let Some(sp) = r.dice.iter().position(|d| d.face == Face::Special && !d.used) {
                            for t in rolls.iter().filter(|t| t.seat == s || fleet) {
                                for (i, d) in t.dice.iter().enumerate() {
                                    if free(d) && !(t.seat == s && i == sp) {
                                        push(
                                            Some((t.seat, i as u8)),
                                            text!(
                                                lab,
                                                format!(
                                                    "your special lets captain {} reroll the {} die",
                                                    t.seat,
                                                    d.color.as_str()
                                                )
                                            ),
                                        );
                                    }
                                }
                            }
                        }
                    }
                    ModuleEffect::PayScrapReroll { fleet, .. } if self.ship(s).scraps > 0 => {
                        // FAQ: losing the scrap is mandatory; no scrap, no use.
                        for t in rolls.iter().filter(|t| t.seat == s || fleet) {
                            for (i, d) in t.dice.iter().enumerate().filter(|(_, d)| free(d)) {
                                push(
                                    Some((t.seat, i as u8)),
                                    text!(
                                        lab,
                                        format!(
                                            "lose 1 scrap: captain {} rerolls the {} die",
                                            t.seat,
                                            d.color.as_str()
                                        )
                                    ),
                                );
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        for &(s, g) in grants {
            let Some(r) = rolls.iter().find(|r| r.seat == s) else { continue };
            for (i, d) in r.dice.iter().enumerate() {
                let ok = match g {
                    Grant::IgnoreMiss => d.face == Face::Miss && !d.ignored && !d.used,
                    Grant::Reroll => free(d),
                };
                if ok {
                    let choice = Choice::UseGrant { seat: s, grant: g, die: i as u8 };
                    let verb = match g {
                        Grant::IgnoreMiss => "Ignore the miss of",
                        Grant::Reroll => "Reroll",
                    };
                    let label = format!("{verb} your {} die ({})", d.color.as_str(), face_word(d.face));
                    opts.push(opt!(lab, [s], label, choice));
                }
            }
        }
        if !opts.is_empty() {
            opts.push(opt!(lab, seats.as_slice(), "Resolve the attack with these dice", Choice::ResolveAttack));
        }
        opts
    }

    fn reroll_die(&mut self, rolls: &mut [SeatRoll], seat: Seat, d: usize, ev: &mut Vec<Event>) {
        let Some(ri) = rolls.iter().position(|r| r.seat == seat) else { return };
        let Some(rd) = rolls[ri].dice.get(d).cloned() else { return };
        if rd.rerolled || rd.used {
            return;
        }
        let face = self.roll(&[rd.color])[0].1;
        let x = &mut rolls[ri].dice[d];
        x.face = face;
        x.rerolled = true;
        x.ignored = false;
        ev.push(Event::DiceRolled { seat: Some(seat), purpose: RollPurpose::Attack, dice: vec![(rd.color, face)] });
    }

    /// Applies a power after an attack roll.
    pub(crate) fn activate_after_roll(
        &mut self,
        seat: Seat,
        src: Source,
        die: Option<(Seat, u8)>,
        color: Option<DieColor>,
        ev: &mut Vec<Event>,
    ) {
        let Pending::AfterRoll {
            target,
            mut rolls,
            mut used,
            mut grants,
            mut ignore_shields,
            cancel_ability,
            mut relayed,
        } = self.pb.pending.clone()
        else {
            return;
        };
        let first_use = !used.contains(&(seat, src));
        used.push((seat, src));
        // A consumable used after the roll is discarded when the attack
        // resolves (rules revision 3), so one that works on two dice lasts
        // for both.
        let kept_for_now = self.revised(3) && self.power(src).activation == Activation::Consumable;
        if first_use
            && !kept_for_now
            && let Some(payer) = self.energy_payer(seat, src, relayed, PayTime::Attack)
        {
            relayed |= self.pay_power(seat, src, payer, PayTime::Attack, ev);
        }
        let own = rolls.iter().position(|r| r.seat == seat);
        match (self.power(src).effect, die, own) {
            (ModuleEffect::Reroll { .. }, Some((ts, d)), _) => self.reroll_die(&mut rolls, ts, d as usize, ev),
            (ModuleEffect::Reroll { .. }, None, Some(ri)) => {
                for d in 0..rolls[ri].dice.len() {
                    self.reroll_die(&mut rolls, seat, d, ev);
                }
            }
            (ModuleEffect::Berserk, Some((ts, d)), Some(ri)) => {
                self.reroll_die(&mut rolls, ts, d as usize, ev);
                if let Some(x) = rolls[ri].dice.get_mut(d as usize) {
                    x.doubled = true;
                }
            }
            (ModuleEffect::IgnoreMiss { .. }, Some((ts, d)), _) => {
                if let Some(x) = rolls.iter_mut().find(|r| r.seat == ts).and_then(|r| r.dice.get_mut(d as usize)) {
                    x.ignored = true;
                }
            }
            (ModuleEffect::SpecialAsHits { hits }, Some((_, d)), Some(ri)) => {
                if let Some(x) = rolls[ri].dice.get_mut(d as usize) {
                    x.used = true;
                    rolls[ri].bonus_hits += hits;
                }
            }
            (ModuleEffect::AddHits { hits }, _, Some(ri)) => rolls[ri].bonus_hits += hits,
            (ModuleEffect::ScatterOnCritical { hits }, _, Some(ri)) => {
                // FAQ: a miss doubled by the Berserker Cannon counts twice.
                let misses: u8 =
                    rolls[ri].dice.iter().filter(|d| d.face == Face::Miss).map(|d| 1 + d.doubled as u8).sum();
                for d in &mut rolls[ri].dice {
                    d.used = true;
                }
                rolls[ri].bonus_hits += hits * misses;
            }
            (ModuleEffect::MissAsHits { hits }, _, Some(ri)) => {
                let misses: u8 = rolls[ri]
                    .dice
                    .iter()
                    .filter(|d| d.face == Face::Miss && !d.ignored)
                    .map(|d| 1 + d.doubled as u8)
                    .sum();
                rolls[ri].bonus_hits += hits * misses;
                // p. 15: a die that triggered an effect can be neither
                // rerolled nor ignored (rules revision 3).
                if self.revised(3) {
                    for d in rolls[ri].dice.iter_mut().filter(|d| d.face == Face::Miss && !d.ignored) {
                        d.used = true;
                    }
                }
            }
            (ModuleEffect::RerollBoth { .. }, Some((ts, _)), _) => {
                for d in 0..2 {
                    self.reroll_die(&mut rolls, ts, d, ev);
                }
            }
            (ModuleEffect::GrantIgnoreMiss, _, _) => grants.extend(rolls.iter().map(|r| (r.seat, Grant::IgnoreMiss))),
            (ModuleEffect::GrantReroll, _, _) => grants.extend(rolls.iter().map(|r| (r.seat, Grant::Reroll))),
            (ModuleEffect::ReserveDie, _, Some(ri)) => {
                if let Some(color) = color.or_else(|| self.reserve_color()) {
                    let face = self.roll(&[color])[0].1;
                    ev.push(Event::DiceRolled {
                        seat: Some(seat),
                        purpose: RollPurpose::Attack,
                        dice: vec![(color, face)],
                    });
                    rolls[ri].dice.push(RolledDie {
                        color,
                        face,
                        rerolled: false,
                        used: false,
                        ignored: false,
                        doubled: false,
                    });
                }
            }
            (ModuleEffect::IgnoreShields, _, _) => ignore_shields = true,
            (ModuleEffect::SpecialReroll { .. }, Some((ts, d)), Some(ri)) => {
                if let Some(sp) = rolls[ri].dice.iter().position(|x| x.face == Face::Special && !x.used) {
                    rolls[ri].dice[sp].used = true;
                    self.reroll_die(&mut rolls, ts, d as usize, ev);
                }
            }
            (ModuleEffect::PayScrapReroll { .. }, Some((ts, d)), _) => {
                self.pay_scraps(seat, 1, ev);
                self.reroll_die(&mut rolls, ts, d as usize, ev);
            }
            _ => {}
        }
        self.pb.pending = Pending::AfterRoll { target, rolls, used, grants, ignore_shields, cancel_ability, relayed };
    }

    /// Discards the consumables used after this attack's roll (rules
    /// revision 3: they last until the attack resolves).
    pub(crate) fn discard_used_consumables(&mut self, used: &[(Seat, Source)], ev: &mut Vec<Event>) {
        let mut done: Vec<(Seat, Source)> = Vec::new();
        for &(seat, src) in used {
            if done.contains(&(seat, src)) || self.power(src).activation != Activation::Consumable {
                continue;
            }
            done.push((seat, src));
            if let Some(payer) = self.energy_payer(seat, src, false, PayTime::Attack) {
                self.pay_power(seat, src, payer, PayTime::Attack, ev);
            }
        }
    }

    /// A fleet ship uses a granted right on one of its dice.
    pub(crate) fn use_grant(&mut self, seat: Seat, grant: Grant, die: u8, ev: &mut Vec<Event>) {
        let Pending::AfterRoll { target, mut rolls, used, mut grants, ignore_shields, cancel_ability, relayed } =
            self.pb.pending.clone()
        else {
            return;
        };
        if let Some(i) = grants.iter().position(|g| *g == (seat, grant)) {
            grants.remove(i);
        }
        match grant {
            Grant::IgnoreMiss => {
                if let Some(x) = rolls.iter_mut().find(|r| r.seat == seat).and_then(|r| r.dice.get_mut(die as usize)) {
                    x.ignored = true;
                }
            }
            Grant::Reroll => self.reroll_die(&mut rolls, seat, die as usize, ev),
        }
        self.pb.pending = Pending::AfterRoll { target, rolls, used, grants, ignore_shields, cancel_ability, relayed };
    }

    /// Powers usable before the attack roll, for a ship still choosing.
    pub(crate) fn before_roll_options(&self, seat: Seat, before: &[(Seat, Source)], lab: bool) -> Vec<Move> {
        let mut opts = Vec::new();
        for src in self.powers_of(seat) {
            let p = self.power(src);
            if p.trigger != Trigger::BeforeAttackRoll
                || before.contains(&(seat, src))
                || self.energy_payer(seat, src, false, PayTime::Attack).is_none()
            {
                continue;
            }
            if matches!(p.effect, ModuleEffect::ExtraDie) && self.reserve_color().is_none() {
                continue;
            }
            // The third die's colour is chosen with the power (FAQ: "choisir
            // un dé dans la réserve"; rules revision 4).
            if matches!(p.effect, ModuleEffect::ExtraDie) && self.revised(4) {
                for c in self.reserve_colors() {
                    opts.push(opt!(
                        lab,
                        [seat],
                        format!(
                            "{}: Offense rolls a third die, a {} one from the reserve",
                            billed(&p, false),
                            c.as_str()
                        ),
                        Choice::Activate { seat, source: src, die: None, color: Some(c) },
                    ));
                }
                continue;
            }
            let what = match p.effect {
                ModuleEffect::ExtraDie => "Offense rolls a third die from the reserve",
                ModuleEffect::CancelAbility => "the Enemy's ability does not trigger this attack",
                _ => "use",
            };
            opts.push(opt!(
                lab,
                [seat],
                format!("{}: {what}", billed(&p, false)),
                Choice::Activate { seat, source: src, die: None, color: None },
            ));
        }
        opts
    }

    /// Uses a power before the attack roll (with the colour chosen for a
    /// die it takes from the reserve).
    pub(crate) fn activate_before_roll(
        &mut self,
        seat: Seat,
        src: Source,
        color: Option<DieColor>,
        ev: &mut Vec<Event>,
    ) {
        let Pending::Manoeuvre { target, chosen, mut before, mut reserve } = self.pb.pending.clone() else { return };
        if let Some(payer) = self.energy_payer(seat, src, false, PayTime::Attack) {
            self.pay_power(seat, src, payer, PayTime::Attack, ev);
        }
        before.push((seat, src));
        if let Some(c) = color {
            reserve.push((seat, c));
        }
        self.pb.pending = Pending::Manoeuvre { target, chosen, before, reserve };
    }

    /// Powers usable while engaged, before the next attack (Decoys).
    pub(crate) fn engaged_options(&self, seats: &[Seat], lab: bool) -> Vec<Move> {
        let Some(f) = &self.pb.fight else { return Vec::new() };
        let mut opts = Vec::new();
        for &s in seats {
            for src in self.powers_of(s) {
                let p = self.power(src);
                // FAQ, Decoy Signal and Decoy Probe: in a system with several
                // Enemies they work "one after another", so within the fight
                // where it was used a Decoy may go again, each use paid
                // (rules revision 2); otherwise once a turn.
                let again = self.revised(2) && f.decoys > 0;
                if p.trigger != Trigger::Engaged
                    || (self.ship(s).powers_used.contains(&src) && !again)
                    || self.energy_payer(s, src, false, PayTime::Turn).is_none()
                {
                    continue;
                }
                for i in self.fight_enemies(f) {
                    let name = &self.content().enemies[self.pb.board_enemies[i].card as usize].name;
                    opts.push(opt!(
                        lab,
                        [s],
                        format!("{}: send {name} back into the Enemy deck", billed(&p, false)),
                        Choice::Activate { seat: s, source: src, die: Some((s, i as u8)), color: None },
                    ));
                }
            }
        }
        opts
    }

    /// Uses a Decoy: the Enemy goes back into the deck (FAQ: one after
    /// another when several; the Decoy Probe pacifies only if every Enemy
    /// was sent back).
    pub(crate) fn activate_engaged(&mut self, seat: Seat, src: Source, enemy: u8, ev: &mut Vec<Event>) {
        if let Some(payer) = self.energy_payer(seat, src, false, PayTime::Turn) {
            self.pay_power(seat, src, payer, PayTime::Turn, ev);
        }
        self.ship_mut(seat).powers_used.push(src);
        if let Some(f) = &mut self.pb.fight {
            f.begun = true;
        }
        if (enemy as usize) >= self.pb.board_enemies.len() {
            return;
        }
        let e = self.pb.board_enemies.remove(enemy as usize);
        self.hid.enemy_deck.push(e.card);
        let mut d = std::mem::take(&mut self.hid.enemy_deck);
        self.hid.rng.shuffle(&mut d);
        self.hid.enemy_deck = d;
        self.recount_levels();
        ev.push(Event::EnemyDecoyed { enemy: self.content().enemies[e.card as usize].id.clone() });
        let pacify = matches!(self.power(src).effect, ModuleEffect::Decoy { pacify: true });
        if let Some(f) = &mut self.pb.fight {
            f.decoys += 1;
            if pacify {
                f.decoy_pacifies = true;
            }
        }
    }

    /// Powers usable during the turn for no Action.
    pub(crate) fn action_power_options(&self, group: &[Seat], lab: bool) -> Vec<Move> {
        let mut opts = Vec::new();
        let fleet = group.len() > 1 || group.iter().any(|&s| self.ship(s).fleet.is_some());
        for &s in group {
            let me = self.ship(s);
            for src in self.powers_of(s) {
                let p = self.power(src);
                if p.trigger != Trigger::Action
                    || me.powers_used.contains(&src)
                    || self.energy_payer(s, src, false, PayTime::Turn).is_none()
                {
                    continue;
                }
                let label = |what: String| format!("Use {}: {what}", billed(&p, false));
                let hurt = || self.alive().filter(|o| o.hex == me.hex && o.health < o.max_health);
                match p.effect {
                    ModuleEffect::RecoverHealth { amount } if me.health < me.max_health => opts.push(opt!(
                        lab,
                        [s],
                        label(format!("recover {amount} health")),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::RecoverEnergy if me.energy_used > 0 => opts.push(opt!(
                        lab,
                        [s],
                        label("recover your energy".into()),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::ExtraAction => opts.push(opt!(
                        lab,
                        [s],
                        label("one more Action".into()),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::SoloExtraAction | ModuleEffect::RushShield if !fleet => opts.push(opt!(
                        lab,
                        [s],
                        label("for this turn".into()),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::GainScraps { amount } => opts.push(opt!(
                        lab,
                        [s],
                        label(format!("gain {amount} scraps")),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::RevealSystems { .. } if !self.hid.stack.is_empty() => opts.push(opt!(
                        lab,
                        [s],
                        label("reveal a system anywhere".into()),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::FreeProbe if !self.hid.stack.is_empty() && !self.probe_targets(me.hex).is_empty() => {
                        opts.push(opt!(
                            lab,
                            [s],
                            label("reveal a system next to yours".into()),
                            Choice::Activate { seat: s, source: src, die: None, color: None },
                        ))
                    }
                    ModuleEffect::Cloak if !me.cloaked => opts.push(opt!(
                        lab,
                        [s],
                        label("ignore a miss on Detection Rolls this turn".into()),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::DroneRepair { ships: 1 } if me.scraps > 0 => {
                        for o in hurt() {
                            opts.push(opt!(
                                lab,
                                [s],
                                label(format!("1 scrap: repair captain {}'s ship", o.seat)),
                                Choice::Activate { seat: s, source: src, die: Some((o.seat, 0)), color: None },
                            ));
                        }
                    }
                    ModuleEffect::DroneRepair { ships } if me.scraps > 0 && hurt().next().is_some() => opts.push(opt!(
                        lab,
                        [s],
                        label(if p.activation == Activation::Energy {
                            // The name already bills the first ship's energy.
                            format!("1 scrap, and 1 more energy for each further ship: repair up to {ships} damaged ships here")
                        } else {
                            "1 scrap: repair every damaged ship here".into()
                        }),
                        Choice::Activate { seat: s, source: src, die: None, color: None },
                    )),
                    ModuleEffect::RemoteRepair { amount } => {
                        for o in self.alive().filter(|o| o.health < o.max_health) {
                            opts.push(opt!(
                                lab,
                                [s],
                                label(format!("repair captain {} by {amount}, wherever they are", o.seat)),
                                Choice::Activate { seat: s, source: src, die: Some((o.seat, 0)), color: None },
                            ));
                        }
                    }
                    // It pays an energy to give the group one back: from
                    // rules revision 3, only when another ship needs it.
                    ModuleEffect::FleetEnergy { .. }
                        if group.iter().any(|&g| self.ship(g).energy_used > 0 && (g != s || !self.revised(3))) =>
                    {
                        opts.push(opt!(
                            lab,
                            [s],
                            label("your group recovers energy".into()),
                            Choice::Activate { seat: s, source: src, die: None, color: None },
                        ))
                    }
                    _ => {}
                }
            }
        }
        opts
    }

    /// Uses a power during the turn.
    pub(crate) fn activate_in_turn(&mut self, seat: Seat, src: Source, die: Option<(Seat, u8)>, ev: &mut Vec<Event>) {
        self.ship_mut(seat).powers_used.push(src);
        let effect = self.power(src).effect;
        // Replicator repairs cost one energy per ship repaired (FAQ example:
        // Repair Drone plus Replicator Drone, 4 energy for 3 ships).
        let hex = self.ship(seat).hex;
        let hurt: Vec<Seat> =
            self.alive().filter(|o| o.hex == hex && o.health < o.max_health).map(|o| o.seat).collect();
        if let Some(payer) = self.energy_payer(seat, src, false, PayTime::Turn) {
            self.pay_power(seat, src, payer, PayTime::Turn, ev);
        }
        match effect {
            ModuleEffect::RecoverHealth { amount } => self.recover_health(seat, amount, ev),
            ModuleEffect::RecoverEnergy => {
                self.ship_mut(seat).energy_used = 0;
                let (available, total) = (self.energy_available(seat), self.ship(seat).energy_total);
                ev.push(Event::EnergyChanged { seat, available, total });
            }
            ModuleEffect::ExtraAction | ModuleEffect::SoloExtraAction => self.ship_mut(seat).actions_left += 1,
            ModuleEffect::RushShield => self.ship_mut(seat).rush_shield = true,
            ModuleEffect::Cloak => self.ship_mut(seat).cloaked = true,
            ModuleEffect::GainScraps { amount } => self.gain_scraps(seat, amount, ScrapSource::Plain, ev),
            ModuleEffect::RevealSystems { amount } => {
                self.apply_effect(crate::content::Effect::RevealSystems { amount }, &[seat], hex, ev)
            }
            ModuleEffect::FreeProbe => {
                // FAQ: the extra system is adjacent to your current system.
                self.pb.queued.push(Pending::RevealAnywhere { left: 1, near: Some(hex) });
            }
            ModuleEffect::DroneRepair { ships } => {
                // FAQ: a single scrap, however many hulls are repaired.
                self.pay_scraps(seat, 1, ev);
                let by_energy = self.power(src).activation == Activation::Energy;
                let targets: Vec<Seat> = match die {
                    Some((t, _)) => vec![t],
                    // Rules revision 3: the activation pays for the first
                    // ship, each further one takes an energy still free.
                    None if by_energy && self.revised(3) => {
                        let more = self.energy_available(seat) as usize;
                        hurt.into_iter().take((ships as usize).min(1 + more)).collect()
                    }
                    None => hurt.into_iter().take(ships as usize).collect(),
                };
                for (i, t) in targets.into_iter().enumerate() {
                    if i > 0 && self.energy_available(seat) > 0 && self.power(src).activation == Activation::Energy {
                        self.ship_mut(seat).energy_used += 1;
                    }
                    self.recover_health(t, 1, ev);
                }
            }
            ModuleEffect::RemoteRepair { amount } => {
                if let Some((t, _)) = die {
                    self.recover_health(t, amount, ev);
                }
            }
            ModuleEffect::FleetEnergy { amount } => {
                for g in self.pb.active.clone() {
                    let sh = self.ship_mut(g);
                    sh.energy_used = sh.energy_used.saturating_sub(amount);
                    let (available, total) = (self.energy_available(g), self.ship(g).energy_total);
                    ev.push(Event::EnergyChanged { seat: g, available, total });
                }
            }
            _ => {}
        }
    }

    /// "When you defeat an Enemy" powers (always-on ones apply at once). An
    /// Avatar counts as an Enemy (FAQ, Warship), but its fight pays no
    /// scraps (p. 16): with `no_scraps`, the scrap gains do not pay, the
    /// healing ones still do (rules revision 4).
    pub(crate) fn on_defeat_powers(&mut self, seats: &[Seat], no_scraps: bool, ev: &mut Vec<Event>) {
        for &s in seats {
            let powers: Vec<Source> = self.powers_of(s).collect();
            for src in powers {
                let p = self.power(src);
                if p.trigger != Trigger::OnDefeatEnemy || p.activation != Activation::Passive {
                    continue;
                }
                match p.effect {
                    ModuleEffect::GainScraps { .. } if no_scraps => continue,
                    ModuleEffect::GainScraps { amount } => self.gain_scraps(s, amount, ScrapSource::Combat, ev),
                    ModuleEffect::RecoverHealth { amount } => self.recover_health(s, amount, ev),
                    _ => continue,
                }
                ev.push(Event::PowerUsed { seat: s, power: self.power_id(src) });
            }
        }
    }

    /// Draws a module from a deck (reshuffling discarded ones of that kind).
    pub(crate) fn draw_module(&mut self, precursor: bool) -> Option<u8> {
        let deck_empty = if precursor { self.hid.precursor_deck.is_empty() } else { self.hid.module_deck.is_empty() };
        if deck_empty {
            let c = self.content();
            let (back, keep): (Vec<u8>, Vec<u8>) = std::mem::take(&mut self.pb.module_discard)
                .into_iter()
                .partition(|&m| c.modules[m as usize].precursor == precursor);
            self.pb.module_discard = keep;
            let mut back = back;
            self.hid.rng.shuffle(&mut back);
            if precursor {
                self.hid.precursor_deck = back;
            } else {
                self.hid.module_deck = back;
            }
        }
        if precursor { self.hid.precursor_deck.pop() } else { self.hid.module_deck.pop() }
    }

    /// A new mod level: one effect is unlocked at once, two ask the captain
    /// to keep one (p. 14).
    pub(crate) fn unlock_mod_level(&mut self, seat: Seat, level: u8, ev: &mut Vec<Event>) {
        let choices = self.content().mod_choices(self.ship(seat).kind, level);
        // A level is unlocked once: never twice the same card.
        if choices.iter().any(|c| self.ship(seat).mods.contains(c)) {
            return;
        }
        match choices.as_slice() {
            [one] => self.take_mod(seat, *one, ev),
            [] => {}
            _ => self.pb.queued.push(Pending::ChooseMod { seat, level }),
        }
    }

    /// Keeps a mod effect.
    pub(crate) fn take_mod(&mut self, seat: Seat, effect: u8, ev: &mut Vec<Event>) {
        self.ship_mut(seat).mods.push(effect);
        if matches!(self.content().mod_effects[effect as usize].effect, ModuleEffect::BonusEnergy) {
            self.ship_mut(seat).energy_total += 1;
            ev.push(Event::PowerUsed { seat, power: self.power_id(Source::Mod(effect)) });
        }
        ev.push(Event::ModUnlocked { seat, power: self.content().mod_effects[effect as usize].id.clone() });
    }

    /// Loses a mod for good (an Avatar's Dismantle, rules revision 3); a
    /// mod that gave an energy marker takes it back.
    pub(crate) fn lose_mod(&mut self, seat: Seat, effect: u8, ev: &mut Vec<Event>) {
        let Some(i) = self.ship(seat).mods.iter().position(|&m| m == effect) else { return };
        self.ship_mut(seat).mods.remove(i);
        ev.push(Event::ModLost { seat, power: self.content().mod_effects[effect as usize].id.clone() });
        if matches!(self.content().mod_effects[effect as usize].effect, ModuleEffect::BonusEnergy) {
            self.remove_energy_marker(seat, false, ev);
        }
    }

    /// Options of a mod level choice.
    pub(crate) fn mod_choice_options(&self, lab: bool) -> Vec<Move> {
        let Pending::ChooseMod { seat, level } = self.pb.pending else { return Vec::new() };
        self.content()
            .mod_choices(self.ship(seat).kind, level)
            .into_iter()
            .map(|e| {
                let d = &self.content().mod_effects[e as usize];
                // Built only for a labelled list (opt! is lazy), never in search.
                let label = || format!("Keep {}: {}", d.name, crate::text::power::clause(&d.effect));
                opt!(lab, [seat], label(), Choice::ChooseMod { seat, effect: e })
            })
            .collect()
    }
}

/// A die face in a label.
fn face_word(f: Face) -> &'static str {
    match f {
        Face::Hit => "hit",
        Face::Miss => "miss",
        Face::Special => "special",
    }
}

/// A power's name in an option's label, with what using it costs besides
/// what the label says it does: "Pirate Tools (1 energy)". `paid`: this
/// attack already paid for it.
fn billed(p: &crate::content::Power, paid: bool) -> String {
    match p.activation {
        crate::content::Activation::Energy if !paid => format!("{} (1 energy)", p.name),
        crate::content::Activation::Consumable if !paid => format!("{} (discarded after use)", p.name),
        _ => p.name.to_string(),
    }
}
