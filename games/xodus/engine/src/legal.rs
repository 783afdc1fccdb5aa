//! Enumerates the legal options of the pending decision. This is the one
//! place that says what may be chosen now; `apply` accepts exactly these.

use crate::content::{Challenge, DamagedEffect, SystemKind};
use crate::decision::{Choice, ChoiceOption, Decision, DecisionKind, Pending, Target};
use crate::hex::Hex;
use crate::moves::{Legal, Move, opt, text};
use crate::state::*;

impl Game {
    /// Actions left to the active player or fleet: the smallest count among
    /// its members at this instant (FAQ, Flottes).
    pub(crate) fn group_actions(&self) -> u8 {
        self.pb.active.iter().map(|&s| self.ship(s).actions_left).min().unwrap_or(0)
    }

    /// The active group's system.
    pub(crate) fn group_hex(&self) -> Hex {
        self.pb.active.first().map(|&s| self.ship(s).hex).unwrap_or(Hex::ORIGIN)
    }

    pub(crate) fn hex_label(&self, hex: Hex) -> String {
        match self.tile_at(hex) {
            Some(t) => format!("{} ({},{})", self.content().tiles[t.tile as usize].name, hex.q, hex.r),
            None => format!("({},{})", hex.q, hex.r),
        }
    }

    /// The pending decision with its legal options.
    pub fn decision(&self) -> Decision {
        let (kind, prompt, moves) = self.options(true);
        let options: Vec<ChoiceOption> = moves
            .into_iter()
            .map(|m| ChoiceOption {
                id: m.choice.id(),
                seats: m.seats.as_slice().to_vec(),
                label: m.label,
                choice: m.choice,
            })
            .collect();
        let mut deciders: Vec<Seat> = options.iter().flat_map(|o| o.seats.iter().copied()).collect();
        deciders.sort_unstable();
        deciders.dedup();
        Decision { kind, deciders, prompt, options }
    }

    /// The fast path: the pending decision's legal options as values, in
    /// the order [`Game::decision`] lists them, without labels, prompt or
    /// ids.
    pub fn legal(&self) -> Legal {
        let (kind, _, moves) = self.options(false);
        Legal { kind, moves }
    }

    /// The unlabelled option that is `choice`, if it is legal now: found
    /// in the same enumeration as [`Game::legal`], where an Action decision
    /// skips the groups of options of other kinds (so they are not worked
    /// out) and lists into a reused buffer.
    pub(crate) fn find_legal(&self, choice: &Choice) -> Option<Move> {
        thread_local! {
            static SCRATCH: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
        }
        match self.pb.pending {
            Pending::Action => SCRATCH.with(|cell| {
                let mut opts = cell.take();
                opts.clear();
                self.action_options_into(self.pb.active.as_slice(), false, Some(choice), &mut opts);
                let found = opts.iter().position(|m| m.choice == *choice).map(|i| opts.swap_remove(i));
                opts.clear();
                cell.set(opts);
                found
            }),
            _ => self.options(false).2.into_iter().find(|m| m.choice == *choice),
        }
    }

    fn options(&self, lab: bool) -> (DecisionKind, String, Vec<Move>) {
        let c = self.content();
        let group = self.pb.active.as_slice();
        match &self.pb.pending {
            Pending::Over => (DecisionKind::GameOver, text!(lab, "The game is over"), Vec::new()),
            Pending::NextPlayer => {
                let opts = self
                    .alive()
                    .filter(|s| !s.played)
                    .map(|s| {
                        opt!(
                            lab,
                            &[s.seat],
                            format!("Captain {} ({}) plays next", s.seat, c.ship(s.kind).name),
                            Choice::StartTurn { seat: s.seat },
                        )
                    })
                    .collect();
                (DecisionKind::NextPlayer, text!(lab, "Who plays next?"), opts)
            }
            Pending::Action => {
                (DecisionKind::Action, text!(lab, self.action_prompt()), self.action_options(group, lab))
            }
            Pending::FleetInvite { invitee } => (
                DecisionKind::FleetInvite,
                text!(lab, format!("Captain {invitee}, join the fleet of {}?", crate::text::words::captains(group))),
                vec![
                    opt!(lab, &[*invitee], "Join the fleet (your turn starts now)", Choice::Accept),
                    opt!(lab, &[*invitee], "Decline", Choice::Decline),
                ],
            ),
            Pending::Orientation { hex, tile, anywhere, .. } => {
                let from = self.group_hex();
                let def = &c.tiles[*tile as usize];
                let rots = match anywhere {
                    Some(_) => self.orientations_anywhere(*tile, *hex),
                    None => self.orientations(*tile, *hex, from),
                };
                let opts = rots
                    .into_iter()
                    .map(|r| {
                        let dirs = || {
                            let m = crate::hex::rotate_mask(def.lane_mask(), r);
                            let dirs: Vec<&str> = (0..6)
                                .filter(|d| m & (1 << d) != 0)
                                .map(|d| ["E", "NE", "NW", "W", "SW", "SE"][d])
                                .collect();
                            dirs.join(" ")
                        };
                        opt!(lab, &group, format!("Lanes toward {}", dirs()), Choice::Orient { rotation: r })
                    })
                    .collect();
                (DecisionKind::Orientation, text!(lab, format!("Orient {} at ({},{})", def.name, hex.q, hex.r)), opts)
            }
            Pending::RushStep { done, .. } => {
                let left = 3 - done;
                let opts = self
                    .rush_steps(self.group_hex(), left)
                    .map(|h| opt!(lab, &group, format!("Rush to {}", self.hex_label(h)), Choice::RushTo { hex: h }))
                    .collect();
                (DecisionKind::RushStep, text!(lab, format!("Hyperspace Rush: jump {} of 3", done + 1)), opts)
            }
            Pending::Detection { seats } => {
                let mut opts = vec![
                    opt!(lab, seats, "Roll for detection", Choice::RollDetection),
                    opt!(lab, seats, "Engage the Enemy voluntarily", Choice::EngageVoluntarily),
                ];
                // A power that bears on this roll (Stealth Alloy) may be
                // used before it, at the start of a turn too (p. 9, p. 15;
                // rules revision 3).
                if self.revised(3) {
                    opts.extend(self.action_power_options(seats, lab).into_iter().filter(|m| {
                        matches!(m.choice, Choice::Activate { source, .. }
                            if matches!(self.power(source).effect, crate::content::ModuleEffect::Cloak))
                    }));
                }
                (DecisionKind::Detection, text!(lab, "Enemy system: roll for detection or engage?"), opts)
            }
            Pending::CombatCommand => {
                let Some(f) = &self.pb.fight else {
                    return (DecisionKind::CombatCommand, String::new(), Vec::new());
                };
                let mut opts = Vec::with_capacity(12);
                for i in self.fight_enemies(f) {
                    let e = &self.pb.board_enemies[i];
                    let d = &c.enemies[e.card as usize];
                    opts.push(opt!(
                        lab,
                        &f.seats,
                        format!(
                            "Attack {} (L{}, health {}/{}, shields {})",
                            d.name,
                            d.level,
                            d.health - e.damage.min(d.health),
                            d.health,
                            d.shields
                        ),
                        Choice::Attack { target: Target::Enemy(i as u8) },
                    ));
                }
                for i in self.avatars_at(f.hex) {
                    let a = &self.pb.avatars[i];
                    let d = &c.avatars[a.card as usize];
                    opts.push(opt!(
                        lab,
                        &f.seats,
                        format!(
                            "Attack {} (health {}/{}, shields {})",
                            d.name,
                            d.health - a.damage.min(d.health),
                            d.health,
                            d.shields
                        ),
                        Choice::Attack { target: Target::Avatar(i as u8) },
                    ));
                }
                opts.extend(self.engaged_options(&f.seats, lab));
                // Before the first blow, captains here who have not played
                // yet may be asked to join, so the fight is fought as a
                // fleet (p. 16: others may come to help an engaged player by
                // forming a Fleet; FAQ Flottes: join first, then fight).
                if !f.begun && !f.pacify {
                    for o in self
                        .alive()
                        .filter(|o| o.hex == f.hex && !o.played && !o.turn_started && !f.seats.contains(&o.seat))
                    {
                        opts.push(opt!(
                            lab,
                            &f.seats,
                            format!("Invite captain {} into the fleet before fighting", o.seat),
                            Choice::Invite { seat: o.seat },
                        ));
                    }
                }
                opts.push(opt!(lab, &f.seats, "Disengage (a Damage Roll per Enemy)", Choice::Disengage));
                opts.push(opt!(lab, &f.seats, "Disengage and hide here (ends the turn)", Choice::DisengageAndHide));
                if f.seats.len() > 1 && self.revised(2) {
                    for &s in &f.seats {
                        opts.push(opt!(
                            lab,
                            &f.seats,
                            format!("Disengage; captain {s} alone hides here (ends that captain's turn)"),
                            Choice::DisengageOneHides { seat: s },
                        ));
                    }
                }
                (DecisionKind::CombatCommand, text!(lab, "Fight: choose a target or disengage"), opts)
            }
            Pending::Manoeuvre { chosen, before, .. } => {
                let Some(f) = &self.pb.fight else {
                    return (DecisionKind::Manoeuvre, String::new(), Vec::new());
                };
                let mut opts = Vec::with_capacity(12);
                for &s in &f.seats {
                    if chosen.iter().any(|c| c.0 == s) {
                        continue;
                    }
                    opts.extend(self.before_roll_options(s, before, lab));
                    opts.push(opt!(
                        lab,
                        &[s],
                        format!("Captain {s}: Offense, roll all your dice"),
                        Choice::Offense { seat: s },
                    ));
                    // A third die paid for before the roll is rolled only in
                    // Offense: from rules revision 3 that captain no longer
                    // picks Defense and loses the energy for nothing.
                    let third_die = self.revised(3)
                        && before.iter().any(|&(b, src)| {
                            b == s && matches!(self.power(src).effect, crate::content::ModuleEffect::ExtraDie)
                        });
                    if !self.has_damage(s, DamagedEffect::ShakenCrew) && !third_die {
                        for die in self.dice_of(s) {
                            opts.push(opt!(
                                lab,
                                &[s],
                                format!("Captain {s}: Defense, roll only the {} die", die.as_str()),
                                Choice::Defense { seat: s, die },
                            ));
                        }
                    }
                }
                (DecisionKind::Manoeuvre, text!(lab, "Each captain chooses a manoeuvre"), opts)
            }
            Pending::Maintenance { remaining } => {
                let Some(&s) = remaining.first() else {
                    return (DecisionKind::Maintenance, String::new(), Vec::new());
                };
                (
                    DecisionKind::Maintenance,
                    text!(lab, format!("Captain {s}: choose a Ship Maintenance option")),
                    self.maintenance_options(s, lab),
                )
            }
            Pending::Exploration { .. } | Pending::RevealAnywhere { .. } | Pending::PacifyAnywhere { .. } => {
                self.exploration_options(lab)
            }
            Pending::AfterRoll { .. } => (
                DecisionKind::AttackEffects,
                text!(lab, "Use modules on the dice, or resolve the attack"),
                self.after_roll_options(lab),
            ),
            Pending::Trade { .. } => self.trade_options(lab),
            Pending::GiveModule { .. } | Pending::ShareScraps { .. } | Pending::DiscardModule { .. } => {
                self.sharing_options(lab)
            }
            Pending::ChooseMod { seat, level } => (
                DecisionKind::ModChoice,
                text!(lab, format!("Captain {seat} reaches level {level}: keep one effect")),
                self.mod_choice_options(lab),
            ),
            Pending::KeyCarrier { key } => {
                let opts = group
                    .iter()
                    .map(|&s| opt!(lab, &group, format!("Captain {s} carries Key {key}"), Choice::CarryKey { seat: s }))
                    .collect();
                (DecisionKind::KeyCarrier, text!(lab, format!("Who carries Precursor Key {key}?")), opts)
            }
            Pending::MoveExplorationMarker { to, seats } => {
                let mut deciders: Vec<Seat> = seats.iter().copied().filter(|&s| !self.ship(s).defeated).collect();
                if deciders.is_empty() {
                    deciders = self.alive().map(|s| s.seat).collect();
                }
                let opts = self
                    .pb
                    .tiles
                    .iter()
                    .filter(|t| t.exploration_marker && t.hex != *to)
                    .map(|t| {
                        opt!(
                            lab,
                            &deciders,
                            format!("Take the marker of {}", self.hex_label(t.hex)),
                            Choice::TakeExplorationMarker { hex: t.hex }
                        )
                    })
                    .collect();
                let prompt = || {
                    format!(
                        "Out of Exploration markers: which unexplored system gives its marker to {}? Its Exploration is lost",
                        self.hex_label(*to)
                    )
                };
                (DecisionKind::ExplorationMarker, text!(lab, prompt()), opts)
            }
        }
    }

    fn action_prompt(&self) -> String {
        let who = crate::text::words::sentence(&crate::text::words::captains(&self.pb.active));
        format!("{}: choose an Action ({} left)", who.trim_end_matches('.'), self.group_actions())
    }

    /// Ship Maintenance options for one member (p. 7).
    pub(crate) fn maintenance_options(&self, s: Seat, lab: bool) -> Vec<Move> {
        let me = self.ship(s);
        let mut opts = Vec::with_capacity(8);
        if me.scraps >= 1 {
            for o in self.alive().filter(|o| o.hex == me.hex && o.health < o.max_health) {
                opts.push(opt!(
                    lab,
                    &[s],
                    format!("Repair captain {}'s ship (+1 health, 1 scrap)", o.seat),
                    Choice::Repair { target: o.seat },
                ));
            }
        }
        if me.scraps >= 3 {
            for o in self.alive().filter(|o| o.hex == me.hex) {
                for (i, &d) in o.damaged.iter().enumerate() {
                    opts.push(opt!(
                        lab,
                        &[s],
                        format!(
                            "Remove {} from captain {} (3 scraps)",
                            self.content().damaged[d as usize].name,
                            o.seat
                        ),
                        Choice::RemoveDamaged { target: o.seat, card: i as u8 },
                    ));
                }
            }
        }
        if let Some(cost) = self.next_energy_cost(s)
            && me.scraps >= cost
        {
            opts.push(opt!(lab, &[s], format!("Buy an energy marker ({cost} scraps)"), Choice::BuyEnergy));
        }
        for &m in &me.modules {
            let def = &self.content().modules[m as usize];
            opts.push(opt!(
                lab,
                &[s],
                format!("Salvage {} for {} scraps", def.name, def.price.saturating_sub(1)),
                Choice::Salvage { module: m },
            ));
        }
        opts.push(opt!(lab, &[s], "No maintenance", Choice::SkipMaintenance));
        opts
    }

    /// Whether [`Game::maintenance_options`] offers `s` more than "No
    /// maintenance" (the same conditions, without building the list).
    pub(crate) fn maintenance_possible(&self, s: Seat) -> bool {
        let me = self.ship(s);
        let here = || self.alive().filter(|o| o.hex == me.hex);
        let possible = (me.scraps >= 1 && here().any(|o| o.health < o.max_health))
            || (me.scraps >= 3 && here().any(|o| !o.damaged.is_empty()))
            || self.next_energy_cost(s).is_some_and(|cost| me.scraps >= cost)
            || !me.modules.is_empty();
        debug_assert_eq!(possible, self.maintenance_options(s, false).len() > 1);
        possible
    }

    /// Scrap price of a ship's next energy marker, if any is left. A
    /// marker discarded for good leaves its slot empty: purchases go on
    /// past it (p. 16; rules revision 3), so a lost marker is never bought
    /// back at its old price, nor the free first one for nothing.
    pub(crate) fn next_energy_cost(&self, s: Seat) -> Option<u8> {
        let ship = self.ship(s);
        let def = self.content().ship(ship.kind);
        let lost = if self.revised(3) { ship.energy_lost } else { 0 };
        def.energy_costs.get(usize::from(ship.energy_total) + usize::from(lost)).copied()
    }

    fn action_options(&self, group: &[Seat], lab: bool) -> Vec<Move> {
        // 16 moves (1 KiB) covers most turns and stays within the
        // allocator's fast per-thread cache.
        let mut opts = Vec::with_capacity(16);
        self.action_options_into(group, lab, None, &mut opts);
        opts
    }

    /// The Action decision's options, appended to `opts`; with `only`, just
    /// the groups of options that can hold that choice (see
    /// [`Game::find_legal`]).
    fn action_options_into(&self, group: &[Seat], lab: bool, only: Option<&Choice>, opts: &mut Vec<Move>) {
        let c = self.content();
        if group.is_empty() {
            return;
        }
        let want = |f: fn(&Choice) -> bool| only.is_none_or(f);
        let hex = self.group_hex();
        let acts = self.group_actions();
        let kind = self.kind_at(hex);
        let disengaged = group.iter().any(|&s| self.ship(s).disengaged);
        if acts >= 1 {
            if !self.hid.stack.is_empty() && want(|c| matches!(c, Choice::Probe { .. } | Choice::BlindJump { .. })) {
                for h in self.probe_targets(hex) {
                    if !disengaged {
                        opts.push(opt!(
                            lab,
                            group,
                            format!("Send a probe to ({},{})", h.q, h.r),
                            Choice::Probe { hex: h }
                        ));
                    }
                    opts.push(opt!(
                        lab,
                        group,
                        format!("Blind jump to ({},{})", h.q, h.r),
                        Choice::BlindJump { hex: h }
                    ));
                }
            }
            if want(|c| matches!(c, Choice::Jump { .. })) {
                for h in self.jump_targets(hex) {
                    opts.push(opt!(lab, group, format!("Jump to {}", self.hex_label(h)), Choice::Jump { hex: h }));
                }
            }
        }
        if acts >= 2
            && want(|c| matches!(c, Choice::Rush))
            && !group.iter().any(|&s| self.has_damage(s, DamagedEffect::FrayedDrive))
            && self.rush_possible(hex, 3)
        {
            opts.push(opt!(lab, group, "Hyperspace Rush (2 actions, three jumps)", Choice::Rush));
        }
        if acts >= 1 && !disengaged {
            let tile = self.tile_at(hex);
            let explorable = !matches!(kind, Some(SystemKind::Corrupt) | None);
            if let Some(t) = tile
                && want(|c| matches!(c, Choice::Explore | Choice::Instruction))
            {
                if explorable && t.exploration_marker {
                    opts.push(opt!(lab, group, "Explore this system", Choice::Explore));
                }
                if let Some(k) = t.key_marker
                    && let Some(slot) = self.pb.signals.iter().find(|s| s.key == k)
                {
                    if slot.card.is_none() {
                        opts.push(opt!(
                            lab,
                            group,
                            format!("Explore the Precursor Signal of Key {k}"),
                            Choice::Explore
                        ));
                    } else if !slot.solved && self.instruction_possible(group, k) {
                        let card = slot.card.map(|i| c.signals[i as usize].name.as_str()).unwrap_or_default();
                        opts.push(opt!(
                            lab,
                            group,
                            format!("Follow the instruction of {card} (1 action)"),
                            Choice::Instruction,
                        ));
                    }
                }
                if kind == Some(SystemKind::MainRift) && group.iter().any(|&s| !self.ship(s).keys.is_empty()) {
                    opts.push(opt!(lab, group, "Explore the Main Rift: activate your Keys", Choice::Explore));
                }
            }
            if !group.iter().any(|&s| self.ship(s).scavenged)
                && want(|c| matches!(c, Choice::Scavenge | Choice::ScavengeKeys { .. }))
            {
                opts.push(opt!(lab, group, "Scavenge (1 scrap each)", Choice::Scavenge));
                for d in self.pb.ships.iter().filter(|d| d.defeated && d.hex == hex && !d.keys.is_empty()) {
                    for &to in group {
                        opts.push(opt!(
                            lab,
                            group,
                            format!("Scavenge the Keys of captain {}'s wreck for captain {to}", d.seat),
                            Choice::ScavengeKeys { from: d.seat, to },
                        ));
                    }
                }
            }
            if want(|c| matches!(c, Choice::Pacify))
                && kind == Some(SystemKind::Enemy)
                && tile.is_some_and(|t| t.pacified.is_none())
            {
                let label = if !self.enemy_in(hex) || !self.revised(2) {
                    "Pacify this system (draw an Enemy)"
                } else {
                    "Pacify this system (fight the Enemy already here)"
                };
                opts.push(opt!(lab, group, label, Choice::Pacify));
            }
            if want(|c| matches!(c, Choice::Maintenance)) && group.iter().any(|&s| self.maintenance_possible(s)) {
                opts.push(opt!(lab, group, "Ship Maintenance", Choice::Maintenance));
            }
            if want(|c| matches!(c, Choice::Trade)) && self.trade_possible() {
                opts.push(opt!(lab, group, "Trade (1 action): with the Ally here or with ships here", Choice::Trade));
            }
        }
        // Forming a fleet is no Action (FAQ, Flottes, p. 6): from rules
        // revision 4 the invitations stay open with no Action left. After
        // disengaging they stay closed while a foe is still in the system
        // (FAQ, "Ennemis et Combats": the Enemy still pursues you, and a
        // joiner would bring the fleet back into the fight it fled); before
        // revision 4 they needed an Action and no disengagement.
        let may_invite =
            if self.revised(4) { !disengaged || !self.has_opponents(hex) } else { acts >= 1 && !disengaged };
        if may_invite && want(|c| matches!(c, Choice::Invite { .. })) {
            for o in self.alive().filter(|o| o.hex == hex && !o.played && !o.turn_started && !group.contains(&o.seat)) {
                opts.push(opt!(
                    lab,
                    group,
                    format!("Invite captain {} into the fleet", o.seat),
                    Choice::Invite { seat: o.seat },
                ));
            }
        }
        if want(|c| matches!(c, Choice::Activate { .. })) {
            opts.extend(self.action_power_options(group, lab));
        }
        for &s in group {
            let sh = self.ship(s);
            if want(|c| matches!(c, Choice::Strain { .. }))
                && !sh.strained
                && !self.has_damage(s, DamagedEffect::NoStrain)
            {
                opts.push(opt!(
                    lab,
                    &[s],
                    format!("Captain {s}: strain the engine (+1 action, Damage Roll later)"),
                    Choice::Strain { seat: s },
                ));
            }
        }
        let unused = if acts == 1 { "1 action unused".to_string() } else { format!("{acts} actions unused") };
        opts.push(opt!(lab, group, format!("End the turn ({unused})"), Choice::EndTurn));
    }

    /// Whether the group can follow the revealed Signal's instruction.
    pub(crate) fn instruction_possible(&self, group: &[Seat], key: u8) -> bool {
        let Some(slot) = self.pb.signals.iter().find(|s| s.key == key) else { return false };
        let Some(card) = slot.card else { return false };
        match &self.content().signals[card as usize].challenge {
            Challenge::Repairs { .. } | Challenge::Tribute { .. } => group.iter().any(|&s| self.ship(s).scraps > 0),
            Challenge::Trial { .. } => true,
            Challenge::Guardian { .. } => {
                slot.progress == 0
                    && (!self.hid.enemy_reserve.is_empty()
                        || !self.hid.enemy_deck.is_empty()
                        || !self.pb.enemy_discard.is_empty())
            }
        }
    }
}
