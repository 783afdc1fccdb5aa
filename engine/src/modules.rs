//! Ship Modules and Precursor Ship Modules (rulebook pp. 13 and 15): the
//! special rules of activation. Each module is used at most once per attack
//! or action; beneficial effects are optional (so they are offered, never
//! forced); the player picks the order (one activation at a time); each die
//! is rerolled at most once; a die that triggered an effect can be neither
//! rerolled nor ignored; an ignored miss triggers no retaliation, damage
//! nor Enemy ability. Energy modules flip an energy marker; consumables are
//! discarded after use; passive modules are always on.

use crate::content::{Activation, Face, ModuleDef, ModuleEffect, Trigger};
use crate::decision::{Choice, ChoiceOption, Pending};
use crate::event::{Event, RollPurpose};
use crate::state::*;

impl Game {
    fn module(&self, m: u8) -> &'static ModuleDef {
        &self.content().modules[m as usize]
    }

    /// Whether a ship can pay a module's activation now.
    fn can_pay(&self, seat: Seat, m: u8) -> bool {
        match self.module(m).activation {
            Activation::Energy => self.energy_available(seat) > 0,
            Activation::Passive | Activation::Consumable => true,
        }
    }

    /// Pays a module's activation: flips an energy marker or discards it.
    fn pay_module(&mut self, seat: Seat, m: u8, ev: &mut Vec<Event>) {
        match self.module(m).activation {
            Activation::Energy => {
                self.ship_mut(seat).energy_used += 1;
                let (available, total) = (self.energy_available(seat), self.ship(seat).energy_total);
                ev.push(Event::EnergyChanged { seat, available, total });
            }
            Activation::Consumable => {
                let s = self.ship_mut(seat);
                if let Some(i) = s.modules.iter().position(|&x| x == m) {
                    s.modules.remove(i);
                }
                self.pb.module_discard.push(m);
            }
            Activation::Passive => {}
        }
    }

    /// Sum of a passive effect over a ship's modules.
    pub(crate) fn passive(&self, seat: Seat, f: impl Fn(ModuleEffect) -> u8) -> u8 {
        self.ship(seat)
            .modules
            .iter()
            .filter(|&&m| self.module(m).trigger == Trigger::Passive)
            .map(|&m| f(self.module(m).effect))
            .sum()
    }

    /// Options after an attack roll: each module that can act on the dice
    /// now, then "resolve".
    pub(crate) fn after_roll_options(&self) -> Vec<ChoiceOption> {
        let Pending::AfterRoll { rolls, used, .. } = &self.pb.pending else { return Vec::new() };
        let seats: Vec<Seat> = rolls.iter().map(|r| r.seat).collect();
        let mut opts = Vec::new();
        for r in rolls {
            let s = r.seat;
            for &m in &self.ship(s).modules {
                let def = self.module(m);
                if def.trigger != Trigger::AfterAttackRoll || used.contains(&(s, m)) || !self.can_pay(s, m) {
                    continue;
                }
                let mut push = |die: Option<(Seat, u8)>, what: String| {
                    let choice = Choice::Activate { seat: s, module: m, die };
                    opts.push(ChoiceOption {
                        id: choice.id(),
                        seats: vec![s],
                        label: format!("{}: {what}", def.name),
                        choice,
                    });
                };
                match def.effect {
                    ModuleEffect::Reroll { dice: 1 } => {
                        for (i, d) in r.dice.iter().enumerate() {
                            if !d.rerolled && !d.used {
                                push(
                                    Some((s, i as u8)),
                                    format!("reroll your {} die ({:?})", d.color.as_str(), d.face),
                                );
                            }
                        }
                    }
                    ModuleEffect::Reroll { .. } if r.dice.iter().any(|d| !d.rerolled && !d.used) => {
                        push(None, "reroll your dice".into());
                    }
                    ModuleEffect::IgnoreMiss { fleet, .. } => {
                        for t in rolls.iter().filter(|t| t.seat == s || fleet) {
                            for (i, d) in t.dice.iter().enumerate() {
                                if d.face == Face::Miss && !d.ignored && !d.used {
                                    push(
                                        Some((t.seat, i as u8)),
                                        format!("ignore captain {}'s {} miss", t.seat, d.color.as_str()),
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
                                    format!("your {} special counts as {hits} hits", d.color.as_str()),
                                );
                            }
                        }
                    }
                    ModuleEffect::AddHits { hits } => push(None, format!("+{hits} hits")),
                    _ => {}
                }
            }
        }
        if !opts.is_empty() {
            opts.push(ChoiceOption {
                id: Choice::ResolveAttack.id(),
                seats,
                label: "Resolve the attack with these dice".into(),
                choice: Choice::ResolveAttack,
            });
        }
        opts
    }

    /// Applies a module activation after an attack roll.
    pub(crate) fn activate_after_roll(&mut self, seat: Seat, m: u8, die: Option<(Seat, u8)>, ev: &mut Vec<Event>) {
        let Pending::AfterRoll { target, mut rolls, mut used } = self.pb.pending.clone() else { return };
        used.push((seat, m));
        self.pay_module(seat, m, ev);
        let effect = self.module(m).effect;
        let own = rolls.iter().position(|r| r.seat == seat);
        match (effect, die, own) {
            (ModuleEffect::Reroll { .. }, _, Some(ri)) => {
                let targets: Vec<usize> = match die {
                    Some((_, d)) => vec![d as usize],
                    None => (0..rolls[ri].dice.len()).collect(),
                };
                let mut shown = Vec::new();
                for d in targets {
                    let Some(rd) = rolls[ri].dice.get(d).cloned() else { continue };
                    if rd.rerolled || rd.used {
                        continue;
                    }
                    let face = self.roll(&[rd.color])[0].1;
                    let x = &mut rolls[ri].dice[d];
                    x.face = face;
                    x.rerolled = true;
                    x.ignored = false;
                    shown.push((rd.color, face));
                }
                ev.push(Event::DiceRolled { seat: Some(seat), purpose: RollPurpose::Attack, dice: shown });
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
            _ => {}
        }
        self.pb.pending = Pending::AfterRoll { target, rolls, used };
    }

    /// Modules usable during the turn for no Action.
    pub(crate) fn action_module_options(&self, group: &[Seat]) -> Vec<ChoiceOption> {
        let mut opts = Vec::new();
        for &s in group {
            for &m in &self.ship(s).modules {
                let def = self.module(m);
                if def.trigger != Trigger::Action || self.ship(s).modules_used.contains(&m) || !self.can_pay(s, m) {
                    continue;
                }
                let useful = match def.effect {
                    ModuleEffect::RecoverHealth { .. } => self.ship(s).health < self.ship(s).max_health,
                    ModuleEffect::RecoverEnergy => self.ship(s).energy_used > 0,
                    ModuleEffect::RevealSystems { .. } => !self.hid.stack.is_empty(),
                    _ => true,
                };
                if useful {
                    let choice = Choice::Activate { seat: s, module: m, die: None };
                    opts.push(ChoiceOption {
                        id: choice.id(),
                        seats: vec![s],
                        label: format!("Use {} ({:?})", def.name, def.effect),
                        choice,
                    });
                }
            }
        }
        opts
    }

    /// Uses a module during the turn.
    pub(crate) fn activate_in_turn(&mut self, seat: Seat, m: u8, ev: &mut Vec<Event>) {
        self.ship_mut(seat).modules_used.push(m);
        self.pay_module(seat, m, ev);
        let hex = self.ship(seat).hex;
        match self.module(m).effect {
            ModuleEffect::RecoverHealth { amount } => self.recover_health(seat, amount, ev),
            ModuleEffect::RecoverEnergy => {
                self.ship_mut(seat).energy_used = 0;
                let (available, total) = (self.energy_available(seat), self.ship(seat).energy_total);
                ev.push(Event::EnergyChanged { seat, available, total });
            }
            ModuleEffect::ExtraAction => self.ship_mut(seat).actions_left += 1,
            ModuleEffect::GainScraps { amount } => self.gain_scraps(seat, amount, false, ev),
            ModuleEffect::RevealSystems { amount } => {
                self.apply_effect(crate::content::Effect::RevealSystems { amount }, &[seat], hex, ev)
            }
            _ => {}
        }
    }

    /// "When you defeat an Enemy" modules (free ones apply at once).
    pub(crate) fn on_defeat_modules(&mut self, seats: &[Seat], ev: &mut Vec<Event>) {
        for &s in seats {
            let mods: Vec<u8> = self.ship(s).modules.clone();
            for m in mods {
                let def = self.module(m);
                if def.trigger != Trigger::OnDefeatEnemy || def.activation != Activation::Passive {
                    continue;
                }
                match def.effect {
                    ModuleEffect::GainScraps { amount } => self.gain_scraps(s, amount, true, ev),
                    ModuleEffect::RecoverHealth { amount } => self.recover_health(s, amount, ev),
                    _ => {}
                }
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
}
