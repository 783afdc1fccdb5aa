//! Trade, Allies and sharing (rulebook pp. 7-8 and 11, FAQ "Alliés" and
//! Trade): an Ally is drawn the first time a ship enters an Ally system,
//! with its modules on offer; a Trade costs one Action however many
//! exchanges follow, is either with the Ally (fleet scraps pooled, the
//! fleet chooses who receives) or with the ships in the system, never both
//! on one action (FAQ); only the active side spends the Action, and ships
//! outside it, even ones that already played, may give too. Found
//! modules go to a fleet member of the fleet's choice, found scraps are
//! shared as the fleet decides.

use crate::content::{AllySkill, Effect};
use crate::decision::{Choice, DecisionKind, Pending};
use crate::effects::ScrapSource;
use crate::event::Event;
use crate::hex::Hex;
use crate::moves::{Move, opt, text};
use crate::state::*;

impl Game {
    /// Health the Specialised Engineer repairs for one scrap: 1, as its
    /// card says ("1 health for each scrap paid"); 2 before rules
    /// revision 3.
    fn engineer_repair(&self) -> u8 {
        if self.revised(3) { 1 } else { 2 }
    }

    /// The Ally met in a system, if any.
    pub(crate) fn ally_at(&self, hex: Hex) -> Option<usize> {
        self.pb.allies.iter().position(|a| a.hex == hex)
    }

    /// A ship entered `hex`: the first visit to an Ally system draws the
    /// next Ally card and its offer (p. 8).
    pub(crate) fn meet_ally(&mut self, hex: Hex, ev: &mut Vec<Event>) {
        let has_symbol = self.tile_at(hex).is_some_and(|t| self.content().tiles[t.tile as usize].ally);
        if !has_symbol || self.ally_at(hex).is_some() {
            return;
        }
        if let Some(kind) = self.hid.ally_deck.pop() {
            self.place_ally(kind, hex, ev);
        }
    }

    fn place_ally(&mut self, kind: crate::config::AllyKind, hex: Hex, ev: &mut Vec<Event>) {
        let offer_def = self.content().allies[kind as usize].offer;
        let mut offer = Vec::new();
        for _ in 0..offer_def.ship_modules {
            offer.extend(self.draw_module(false));
        }
        for _ in 0..offer_def.precursor_modules {
            offer.extend(self.draw_module(true));
        }
        let modules = offer.iter().map(|&m| self.content().modules[m as usize].id.clone()).collect();
        self.pb.allies.push(AllyInPlay { kind, hex, offer });
        ev.push(Event::AllyMet { ally: kind.as_str().into(), hex, modules });
    }

    /// The Trapped Ally's reward: a random Ally not chosen at setup (FAQ).
    pub(crate) fn new_ally_here(&mut self, hex: Hex, ev: &mut Vec<Event>) {
        if self.ally_at(hex).is_some() {
            return;
        }
        if let Some(kind) = self.hid.spare_allies.pop() {
            self.place_ally(kind, hex, ev);
        }
    }

    /// Scraps the group can pool.
    fn pooled(&self) -> u16 {
        self.pb.active.iter().map(|&s| self.ship(s).scraps as u16).sum()
    }

    /// Pays from the pooled scraps, the receiver first.
    fn pay_pooled(&mut self, first: Seat, amount: u8, ev: &mut Vec<Event>) {
        let mut left = amount;
        let mut order = vec![first];
        order.extend(self.pb.active.iter().copied().filter(|&s| s != first));
        for s in order {
            let pay = left.min(self.ship(s).scraps);
            self.pay_scraps(s, pay, ev);
            left -= pay;
        }
    }

    /// Price of a module at an Ally (the Smuggler's bargain, min 1).
    fn price_at(&self, ally: usize, m: u8) -> u8 {
        let base = self.content().modules[m as usize].price;
        let tools: u8 = self
            .pb
            .active
            .iter()
            .map(|&s| {
                self.passive(s, |e| {
                    if let crate::content::ModuleEffect::ModuleDiscount { amount } = e { amount } else { 0 }
                })
            })
            .max()
            .unwrap_or(0);
        let bargain = match self.content().allies[self.pb.allies[ally].kind as usize].skill {
            AllySkill::Bargain { cost } => cost,
            _ => 0,
        };
        base.saturating_sub(bargain + tools).max(1)
    }

    /// Options of the Trade in progress.
    pub(crate) fn trade_options(&self, lab: bool) -> (DecisionKind, String, Vec<Move>) {
        let Pending::Trade { with_ally, outsider } = self.pb.pending else {
            return (DecisionKind::Trade, String::new(), Vec::new());
        };
        let opts = self.trade_moves(with_ally, outsider, lab);
        (DecisionKind::Trade, text!(lab, "Trade: buy from the Ally, or exchange with ships here (not both)"), opts)
    }

    /// The exchanges a Trade with this target (`with_ally`: the Ally, the
    /// ships, or not set yet; `outsider`: the one captain outside a fleet
    /// it trades with) offers, and "End the trade" last.
    fn trade_moves(&self, with_ally: Option<bool>, outsider: Option<Seat>, lab: bool) -> Vec<Move> {
        let group = self.pb.active.as_slice();
        let hex = self.group_hex();
        let mut opts = Vec::new();
        // One target a Trade for a fleet (FAQ, Flottes; rules revision 4):
        // once a first exchange set it, only exchanges with that target:
        // within the fleet (no outsider), or between the fleet and that one
        // outsider. A captain trading alone trades with the ships in the
        // system (p. 7), as many as it likes.
        let one_target = self.revised(4) && with_ally == Some(false) && group.len() >= 2;
        let on_target = |a: Seat, b: Seat| !one_target || [a, b].into_iter().find(|s| !group.contains(s)) == outsider;
        let pooled = self.pooled();
        if with_ally != Some(false)
            && let Some(a) = self.ally_at(hex)
        {
            let ally = &self.pb.allies[a];
            for (i, &m) in ally.offer.iter().enumerate() {
                let price = self.price_at(a, m);
                if pooled >= price as u16 {
                    for &r in group {
                        opts.push(opt!(
                            lab,
                            &group,
                            format!(
                                "Buy {} for {price} scraps, for captain {r}",
                                self.content().modules[m as usize].name
                            ),
                            Choice::Buy { item: i as u8, receiver: r },
                        ));
                    }
                }
            }
            // From rules revision 3 a skill is offered only when it has
            // something to act on: a space to reveal, a system to pacify.
            let useful = |reveal: bool| {
                !self.revised(3)
                    || if reveal {
                        !self.reveal_spaces().is_empty()
                    } else {
                        self.pb.tiles.iter().any(|t| {
                            self.content().tiles[t.tile as usize].kind == crate::content::SystemKind::Enemy
                                && t.pacified.is_none()
                        })
                    }
            };
            match self.content().allies[ally.kind as usize].skill {
                AllySkill::Chart { cost } if pooled >= cost as u16 && !self.hid.stack.is_empty() && useful(true) => {
                    opts.push(opt!(
                        lab,
                        &group,
                        format!("Cartographer: reveal a system anywhere ({cost} scraps)"),
                        Choice::AllySkill { target: group[0] },
                    ));
                }
                AllySkill::Muscle { cost } if pooled >= cost as u16 && self.pb.pacify_supply > 0 && useful(false) => {
                    opts.push(opt!(
                        lab,
                        &group,
                        format!("Mercenary: pacify an Enemy system ({cost} scraps)"),
                        Choice::AllySkill { target: group[0] },
                    ));
                }
                AllySkill::Repairs { cost } => {
                    for o in self.alive().filter(|o| o.hex == hex) {
                        if pooled >= 1 && o.health < o.max_health {
                            opts.push(opt!(
                                lab,
                                &group,
                                format!("Engineer: repair captain {} by {} (1 scrap)", o.seat, self.engineer_repair()),
                                Choice::AllySkill { target: o.seat },
                            ));
                        }
                        if pooled >= cost as u16 {
                            for (ci, &d) in o.damaged.iter().enumerate() {
                                opts.push(opt!(
                                    lab,
                                    &group,
                                    format!(
                                        "Engineer: remove {} from captain {} ({cost} scraps)",
                                        self.content().damaged[d as usize].name,
                                        o.seat
                                    ),
                                    Choice::AllyRemoveDamaged { target: o.seat, card: ci as u8 },
                                ));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if with_ally != Some(true) {
            for &from in group {
                let me = self.ship(from);
                for o in self.alive().filter(|o| o.hex == hex && o.seat != from && on_target(from, o.seat)) {
                    if me.scraps > 0 {
                        opts.push(opt!(
                            lab,
                            &group,
                            format!("Give 1 scrap: captain {from} to captain {}", o.seat),
                            Choice::GiveScraps { from, to: o.seat, amount: 1 },
                        ));
                    }
                    for &k in &me.keys {
                        opts.push(opt!(
                            lab,
                            &group,
                            format!("Give Key {k}: captain {from} to captain {}", o.seat),
                            Choice::GiveKey { from, to: o.seat, key: k },
                        ));
                    }
                    for &m in &me.modules {
                        opts.push(opt!(
                            lab,
                            &group,
                            format!(
                                "Give {}: captain {from} to captain {}",
                                self.content().modules[m as usize].name,
                                o.seat
                            ),
                            Choice::GiveModule { from, to: o.seat, module: m },
                        ));
                    }
                }
                // Ships outside the group may give to the active side too,
                // even if they already played (p. 7): scraps, and from rules
                // revision 2 Keys and modules as well.
                for o in self.alive().filter(|o| o.hex == hex && !group.contains(&o.seat) && on_target(o.seat, from)) {
                    if o.scraps > 0 {
                        opts.push(opt!(
                            lab,
                            &[o.seat],
                            format!("Give 1 scrap: captain {} to captain {from}", o.seat),
                            Choice::GiveScraps { from: o.seat, to: from, amount: 1 },
                        ));
                    }
                    if !self.revised(2) {
                        continue;
                    }
                    for &k in &o.keys {
                        opts.push(opt!(
                            lab,
                            &[o.seat],
                            format!("Give Key {k}: captain {} to captain {from}", o.seat),
                            Choice::GiveKey { from: o.seat, to: from, key: k },
                        ));
                    }
                    for &m in &o.modules {
                        opts.push(opt!(
                            lab,
                            &[o.seat],
                            format!(
                                "Give {}: captain {} to captain {from}",
                                self.content().modules[m as usize].name,
                                o.seat
                            ),
                            Choice::GiveModule { from: o.seat, to: from, module: m },
                        ));
                    }
                }
            }
        }
        opts.push(opt!(lab, &group, "End the trade", Choice::EndTrade));
        opts.dedup_by(|a, b| a.choice == b.choice);
        opts
    }

    /// Whether a Trade could do anything here. From rules revision 5 (p. 7:
    /// buy modules from an Ally, or exchange scraps, modules and Keys with
    /// ships in the system) the action is offered only when at least one
    /// exchange is possible: something to buy or pay an Ally for, or
    /// something one ship could give another. Before, another ship or an
    /// Ally in the system was enough, even with nothing to exchange.
    pub(crate) fn trade_possible(&self) -> bool {
        let hex = self.group_hex();
        if self.revised(5) {
            return self.trade_moves(None, None, false).iter().any(|m| m.choice != Choice::EndTrade);
        }
        let others = self.alive().any(|o| o.hex == hex && !self.pb.active.contains(&o.seat));
        let fleet = self.pb.active.len() > 1;
        others || fleet || self.ally_at(hex).is_some()
    }

    /// Applies one exchange of the Trade in progress.
    pub(crate) fn trade_step(&mut self, seat: Seat, choice: Choice, ev: &mut Vec<Event>) {
        let hex = self.group_hex();
        let (ally_mode, pair) = match &choice {
            Choice::Buy { .. } | Choice::AllySkill { .. } | Choice::AllyRemoveDamaged { .. } => (Some(true), None),
            Choice::GiveScraps { from, to, .. }
            | Choice::GiveKey { from, to, .. }
            | Choice::GiveModule { from, to, .. } => (Some(false), Some([*from, *to])),
            _ => (None, None),
        };
        if ally_mode.is_some() {
            // The first exchange with ships sets the Trade's target: the
            // outside captain in it, or the group itself (rules revision 4).
            let outsider =
                pair.filter(|_| self.revised(4)).and_then(|p| p.into_iter().find(|s| !self.pb.active.contains(s)));
            self.pb.pending = Pending::Trade { with_ally: ally_mode, outsider };
        }
        match choice {
            Choice::Buy { item, receiver } => {
                let Some(a) = self.ally_at(hex) else { return };
                let Some(&m) = self.pb.allies[a].offer.get(item as usize) else { return };
                let price = self.price_at(a, m);
                for s in self.pb.active.clone() {
                    self.note(s, |e| matches!(e, crate::content::ModuleEffect::ModuleDiscount { .. }), ev);
                }
                self.pay_pooled(receiver, price, ev);
                self.pb.allies[a].offer.remove(item as usize);
                self.install_module(receiver, m, ev);
            }
            Choice::AllySkill { target } => {
                let Some(a) = self.ally_at(hex) else { return };
                match self.content().allies[self.pb.allies[a].kind as usize].skill {
                    AllySkill::Chart { cost } => {
                        self.pay_pooled(target, cost, ev);
                        self.pb.resume = Some(Box::new(self.pb.pending.clone()));
                        self.pb.pending = Pending::RevealAnywhere { left: 1, near: None };
                    }
                    AllySkill::Muscle { cost } => {
                        self.pay_pooled(seat, cost, ev);
                        self.pb.resume = Some(Box::new(self.pb.pending.clone()));
                        self.pb.pending = Pending::PacifyAnywhere { left: 1 };
                    }
                    AllySkill::Repairs { .. } => {
                        self.pay_pooled(seat, 1, ev);
                        self.recover_health(target, self.engineer_repair(), ev);
                    }
                    AllySkill::Bargain { .. } => {}
                }
            }
            Choice::AllyRemoveDamaged { target, card } => {
                let Some(a) = self.ally_at(hex) else { return };
                if let AllySkill::Repairs { cost } = self.content().allies[self.pb.allies[a].kind as usize].skill {
                    self.pay_pooled(seat, cost, ev);
                    self.remove_damaged(target, card, ev);
                }
            }
            Choice::GiveScraps { from, to, amount } => {
                self.pay_scraps(from, amount, ev);
                self.gain_scraps(to, amount, ScrapSource::Plain, ev);
            }
            Choice::GiveKey { from, to, key } => {
                let f = self.ship_mut(from);
                if let Some(i) = f.keys.iter().position(|&k| k == key) {
                    f.keys.remove(i);
                    self.ship_mut(to).keys.push(key);
                    ev.push(Event::KeyMoved { key, from, to });
                }
            }
            Choice::GiveModule { from, to, module } => {
                let f = self.ship_mut(from);
                if let Some(i) = f.modules.iter().position(|&m| m == module) {
                    f.modules.remove(i);
                    self.install_module(to, module, ev);
                }
            }
            Choice::EndTrade => self.pb.pending = Pending::Action,
            _ => {}
        }
    }

    /// Removes a Damaged card from a ship.
    pub(crate) fn remove_damaged(&mut self, target: Seat, card: u8, ev: &mut Vec<Event>) {
        let t = self.ship_mut(target);
        if (card as usize) < t.damaged.len() {
            let d = t.damaged.remove(card as usize);
            self.pb.damaged_discard.push(d);
            let id = self.content().damaged[d as usize].id.clone();
            ev.push(Event::DamagedRemoved { seat: target, card: id });
        }
    }

    /// Puts a module on a ship.
    pub(crate) fn install_module(&mut self, seat: Seat, m: u8, ev: &mut Vec<Event>) {
        self.ship_mut(seat).modules.push(m);
        ev.push(Event::ModuleGained { seat, module: self.content().modules[m as usize].id.clone() });
    }

    /// A found module: a lone ship takes it, a fleet chooses who does.
    pub(crate) fn found_module(&mut self, precursor: bool, group: &[Seat], ev: &mut Vec<Event>) {
        let Some(m) = self.draw_module(precursor) else { return };
        ev.push(Event::ModuleRevealed { module: self.content().modules[m as usize].id.clone() });
        let alive: Vec<Seat> = group.iter().copied().filter(|&s| !self.ship(s).defeated).collect();
        match alive.as_slice() {
            [] => self.pb.module_discard.push(m),
            [one] => self.install_module(*one, m, ev),
            _ => {
                let among = self.sharers(&alive);
                self.pb.queued.push(Pending::GiveModule { card: m, among })
            }
        }
    }

    /// Who shares a reward earned by `earners`: empty when the whole
    /// active group earned it, else the earners.
    fn sharers(&self, earners: &[Seat]) -> Vec<Seat> {
        if self.pb.active.iter().all(|s| earners.contains(s)) { Vec::new() } else { earners.to_vec() }
    }

    /// Options of the small sharing decisions.
    pub(crate) fn sharing_options(&self, lab: bool) -> (DecisionKind, String, Vec<Move>) {
        let group = match &self.pb.pending {
            Pending::GiveModule { among, .. } | Pending::ShareScraps { among, .. } if !among.is_empty() => {
                among.clone()
            }
            _ => self.pb.active.clone(),
        };
        match &self.pb.pending {
            Pending::GiveModule { card, .. } => {
                let name = &self.content().modules[*card as usize].name;
                let opts = group
                    .iter()
                    .map(|&s| opt!(lab, &group, format!("Captain {s} takes {name}"), Choice::ReceiveModule { seat: s }))
                    .collect();
                (DecisionKind::ModuleReceiver, text!(lab, format!("Who takes {name}?")), opts)
            }
            Pending::ShareScraps { left, .. } => {
                let opts = group
                    .iter()
                    .map(|&s| opt!(lab, &group, format!("Captain {s} takes a scrap"), Choice::ScrapTo { seat: s }))
                    .collect();
                (DecisionKind::ScrapShare, text!(lab, format!("Share the scraps found ({left} left)")), opts)
            }
            Pending::DiscardModule { seat } => {
                let ship = self.ship(*seat);
                let modules = ship.modules.iter().map(|&m| {
                    opt!(
                        lab,
                        &[*seat],
                        format!("Discard {}", self.content().modules[m as usize].name),
                        Choice::DiscardModule { module: m },
                    )
                });
                // Rules revision 3: the Precursor Mods too (p. 16).
                let mods = ship.mods.iter().filter(|_| self.revised(3)).map(|&m| {
                    opt!(
                        lab,
                        &[*seat],
                        format!("Discard the mod {}", self.content().mod_effects[m as usize].name),
                        Choice::DiscardMod { effect: m },
                    )
                });
                let opts = modules.chain(mods).collect();
                let what = if self.revised(3) { "a module or a mod" } else { "a module" };
                (DecisionKind::ModuleDiscard, text!(lab, format!("Captain {seat}: discard {what} for good")), opts)
            }
            _ => (DecisionKind::ModuleReceiver, String::new(), Vec::new()),
        }
    }

    /// Applies a sharing decision.
    pub(crate) fn share_step(&mut self, choice: Choice, ev: &mut Vec<Event>) {
        match (self.pb.pending.clone(), choice) {
            (Pending::GiveModule { card, .. }, Choice::ReceiveModule { seat }) => {
                self.install_module(seat, card, ev);
                self.resume_after_effect();
            }
            (Pending::ShareScraps { left, rewarded, among }, Choice::ScrapTo { seat }) => {
                self.gain_scraps(seat, 1, if rewarded { ScrapSource::Exploration } else { ScrapSource::Plain }, ev);
                if left > 1 {
                    self.pb.pending = Pending::ShareScraps { left: left - 1, rewarded, among };
                } else {
                    self.resume_after_effect();
                }
            }
            (Pending::DiscardModule { seat }, Choice::DiscardModule { module }) => {
                let s = self.ship_mut(seat);
                if let Some(i) = s.modules.iter().position(|&m| m == module) {
                    s.modules.remove(i);
                    self.pb.module_discard.push(module);
                    ev.push(Event::ModuleLost { seat, module: self.content().modules[module as usize].id.clone() });
                }
                self.resume_after_effect();
            }
            (Pending::DiscardModule { seat }, Choice::DiscardMod { effect }) => {
                self.lose_mod(seat, effect, ev);
                self.resume_after_effect();
            }
            _ => {}
        }
    }

    /// Effects from exploration that hand out modules, scraps or Allies.
    pub(crate) fn gift_effect(&mut self, effect: Effect, group: &[Seat], hex: Hex, ev: &mut Vec<Event>) {
        match effect {
            Effect::GainModule => self.found_module(false, group, ev),
            Effect::GainPrecursorModule => self.found_module(true, group, ev),
            Effect::NewAlly => self.new_ally_here(hex, ev),
            Effect::GainScraps { amount } => {
                let alive: Vec<Seat> = group.iter().copied().filter(|&s| !self.ship(s).defeated).collect();
                match alive.as_slice() {
                    [] => {}
                    [one] => self.gain_scraps(*one, amount, ScrapSource::Exploration, ev),
                    _ => {
                        let among = self.sharers(&alive);
                        self.pb.queued.push(Pending::ShareScraps { left: amount, rewarded: true, among })
                    }
                }
            }
            _ => {}
        }
    }
}
