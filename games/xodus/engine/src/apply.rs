//! Applying a choice: validation against the legal options (so a refused
//! choice changes nothing), dispatch to the rule that handles it, then
//! `settle`, which runs every automatic step (turn ends, the Corruption and
//! End phases, victory and defeat) until a decision is needed again.

use crate::content::{SystemKind, XpCondition};
use crate::decision::{Choice, Pending};
use crate::effects::ScrapSource;
use crate::event::{EngageCause, Event};
use crate::moves::Move;
use crate::state::*;

/// Why a choice was refused. The state is untouched when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The seat may not take this decision.
    #[error("seat {seat} may not take this option now: it is for seat(s) {deciders:?} ({kind})")]
    NotYourDecision {
        /// The seat that tried.
        seat: Seat,
        /// Seats that may decide.
        deciders: Vec<Seat>,
        /// Decision kind.
        kind: String,
    },
    /// No offered option has this id.
    #[error("'{id}' is not a legal choice now ({kind}); legal ids: {legal}")]
    UnknownOption {
        /// The id sent.
        id: String,
        /// Decision kind.
        kind: String,
        /// A few legal ids.
        legal: String,
    },
}

/// Option ids are unique, so each choice is listed once (checked in debug
/// builds).
fn debug_assert_unique(moves: &[Move], pending: &Pending) {
    debug_assert!(
        moves.iter().enumerate().all(|(i, m)| moves[..i].iter().all(|p| p.choice != m.choice)),
        "option ids are unique: {:?} at {pending:?}",
        moves.iter().map(|m| m.choice.id()).collect::<Vec<_>>(),
    );
}

impl Game {
    /// Picks an offered option by its stable id.
    pub fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Vec<Event>, RuleError> {
        if self.pb.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let moves = self.legal().moves;
        debug_assert_unique(&moves, &self.pb.pending);
        match moves.into_iter().find(|m| m.choice.has_id(option_id)) {
            Some(m) if m.seats.contains(seat) => Ok(self.play(seat, m.choice)),
            _ => Err(self.refusal(seat, option_id)),
        }
    }

    /// Applies a structured choice, validated exactly like an option id.
    pub fn apply_choice(&mut self, seat: Seat, choice: &Choice) -> Result<Vec<Event>, RuleError> {
        self.apply_move(seat, choice)
    }

    /// The fast path: applies a choice given by value (as
    /// [`Game::legal`] lists it). It is validated against the same legal
    /// options as an id, so a choice that is not legal now, or not for
    /// `seat`, is refused with the same error and changes nothing.
    pub fn apply_move(&mut self, seat: Seat, choice: &Choice) -> Result<Vec<Event>, RuleError> {
        if self.pb.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let found = self.find_legal(choice);
        if cfg!(debug_assertions) {
            let all = self.legal().moves;
            debug_assert_unique(&all, &self.pb.pending);
            debug_assert_eq!(found, all.into_iter().find(|m| m.choice == *choice), "candidates agree with legal()");
        }
        match found {
            Some(m) if m.seats.contains(seat) => Ok(self.play(seat, m.choice)),
            _ => Err(self.refusal(seat, &choice.id())),
        }
    }

    /// Plays a validated choice: dispatch, then the automatic steps.
    fn play(&mut self, seat: Seat, choice: Choice) -> Vec<Event> {
        let mut ev = Vec::with_capacity(8);
        self.pb.seq += 1;
        self.dispatch(seat, choice, &mut ev);
        self.settle(&mut ev);
        ev
    }

    /// Why `option_id` is refused for `seat`, from the labelled decision
    /// (the refusal path only: the errors name the legal ids).
    fn refusal(&self, seat: Seat, option_id: &str) -> RuleError {
        let d = self.decision();
        match d.options.iter().find(|o| o.id == option_id) {
            Some(o) => RuleError::NotYourDecision { seat, deciders: o.seats.clone(), kind: d.kind.as_str().into() },
            None => {
                let mut legal: Vec<&str> = d.options.iter().map(|o| o.id.as_str()).take(12).collect();
                if d.options.len() > 12 {
                    legal.push("...");
                }
                RuleError::UnknownOption {
                    id: option_id.chars().take(80).collect(),
                    kind: d.kind.as_str().into(),
                    legal: legal.join(", "),
                }
            }
        }
    }

    fn dispatch(&mut self, seat: Seat, choice: Choice, ev: &mut Vec<Event>) {
        match choice {
            Choice::StartTurn { seat } => self.start_turn(seat, ev),
            Choice::Probe { hex } => self.begin_probe(hex, false),
            Choice::BlindJump { hex } => self.begin_probe(hex, true),
            Choice::Orient { rotation } => self.place_probed_tile(rotation, ev),
            Choice::Jump { hex } => {
                self.spend_actions(1);
                self.move_group(hex, ev);
                self.arrive(ev);
            }
            Choice::Rush => {
                self.spend_actions(2);
                let start = self.group_hex();
                self.pb.pending = Pending::RushStep { done: 0, start };
            }
            Choice::RushTo { hex } => {
                self.move_group(hex, ev);
                if let Pending::RushStep { done, start } = self.pb.pending.clone() {
                    if done + 1 >= 3 {
                        self.pb.pending = Pending::Action;
                        self.left_systems(ev);
                        self.arrive(ev);
                    } else {
                        self.pb.pending = Pending::RushStep { done: done + 1, start };
                    }
                }
            }
            Choice::Strain { seat } => {
                let s = self.ship_mut(seat);
                s.strained = true;
                s.actions_left += 1;
                ev.push(Event::Strained { seat });
                // Maintenance Drone (FAQ): Strain, Damage Roll at once, and a
                // special gives the Strain back (two give only the one), up to
                // 3 times a turn. Before rules revision 4 it took two.
                if self.has_passive(seat, |e| matches!(e, crate::content::ModuleEffect::StrainRecovery)) {
                    let specials = self.damage_roll(seat, ev);
                    let needed = if self.revised(4) { 1 } else { 2 };
                    let s = self.ship_mut(seat);
                    if specials >= needed && s.strain_recoveries < 3 {
                        s.strained = false;
                        s.strain_recoveries += 1;
                        self.note(seat, |e| matches!(e, crate::content::ModuleEffect::StrainRecovery), ev);
                    }
                }
            }
            Choice::EndTurn => self.end_group_turn(ev),
            Choice::Invite { seat } => self.pb.pending = Pending::FleetInvite { invitee: seat },
            Choice::Accept => self.join_fleet(seat, ev),
            Choice::Decline => {
                ev.push(Event::InviteDeclined { seat });
                self.pb.pending = Pending::Action;
            }
            Choice::RollDetection => self.detection_roll(ev),
            Choice::EngageVoluntarily => {
                if let Pending::Detection { seats } = self.pb.pending.clone() {
                    let group = self.fight_group_for(&seats);
                    self.engage_patrol(&group, EngageCause::Voluntary, ev);
                }
            }
            Choice::Attack { target } => {
                let per_attack = self.revised(3);
                if let Some(f) = &mut self.pb.fight {
                    f.begun = true;
                    if per_attack {
                        f.relayed.clear();
                    }
                }
                self.pb.pending =
                    Pending::Manoeuvre { target, chosen: Vec::new(), before: Vec::new(), reserve: Vec::new() };
            }
            Choice::Offense { seat } => self.choose_manoeuvre(seat, None, ev),
            Choice::Defense { seat, die } => self.choose_manoeuvre(seat, Some(die), ev),
            Choice::Disengage => self.disengage(false, ev),
            Choice::DisengageAndHide => self.disengage(true, ev),
            Choice::DisengageOneHides { seat } => {
                self.disengage(false, ev);
                self.hide_member(seat, ev);
            }
            Choice::Explore => self.explore(ev),
            Choice::Instruction => self.follow_instruction(ev),
            Choice::CarryKey { seat } => self.carry_key(seat, ev),
            Choice::Scavenge => {
                self.spend_actions(1);
                for s in self.pb.active.clone() {
                    self.ship_mut(s).scavenged = true;
                    let group = self.pb.active.clone();
                    let fleet_bonus = group
                        .iter()
                        .any(|&g| self.has_passive(g, |e| matches!(e, crate::content::ModuleEffect::FleetScavenger)));
                    let extra = self.passive(s, |e| match e {
                        crate::content::ModuleEffect::Scavenger { amount } => amount,
                        _ => 0,
                    }) + fleet_bonus as u8;
                    self.note(s, |e| matches!(e, crate::content::ModuleEffect::Scavenger { .. }), ev);
                    for &g in &group {
                        self.note(g, |e| matches!(e, crate::content::ModuleEffect::FleetScavenger), ev);
                    }
                    self.gain_scraps(s, 1 + extra, ScrapSource::Plain, ev);
                }
            }
            Choice::ScavengeKeys { from, to } => {
                self.spend_actions(1);
                for s in self.pb.active.clone() {
                    self.ship_mut(s).scavenged = true;
                }
                let keys = std::mem::take(&mut self.ship_mut(from).keys);
                for k in keys {
                    self.ship_mut(to).keys.push(k);
                    ev.push(Event::KeyMoved { key: k, from, to });
                }
            }
            Choice::Pacify => {
                self.spend_actions(1);
                let group = self.pb.active.clone();
                let hex = self.group_hex();
                // p. 14: draw an Enemy card "or use the one already revealed
                // in the system" (rules revision 2); in a system whose
                // "Enemies are stronger", from the reserve (p. 9; rules
                // revision 3).
                if !self.enemy_in(hex) || !self.revised(2) {
                    let stronger = self.revised(3)
                        && self.tile_at(hex).is_some_and(|t| self.content().tiles[t.tile as usize].stronger);
                    self.draw_into(hex, 1, stronger, None, ev);
                }
                self.start_fight(&group, hex, EngageCause::Pacify, ev);
            }
            Choice::Maintenance => {
                self.spend_actions(1);
                let remaining: Vec<Seat> = self.pb.active.clone();
                self.pb.pending = Pending::Maintenance { remaining };
            }
            Choice::Repair { target } => {
                self.pay_scraps(seat, 1, ev);
                self.recover_health(target, 1, ev);
                self.gain_xp(seat, XpCondition::Repair, ev);
                self.next_maintenance();
            }
            Choice::RemoveDamaged { target, card } => {
                self.pay_scraps(seat, 3, ev);
                self.remove_damaged(target, card, ev);
                self.next_maintenance();
            }
            Choice::BuyEnergy => {
                if let Some(cost) = self.next_energy_cost(seat) {
                    self.pay_scraps(seat, cost, ev);
                    self.ship_mut(seat).energy_total += 1;
                    let (available, total) = (self.energy_available(seat), self.ship(seat).energy_total);
                    ev.push(Event::EnergyChanged { seat, available, total });
                }
                self.next_maintenance();
            }
            Choice::SkipMaintenance => self.next_maintenance(),
            Choice::PickOption { option } => self.pick_option(option, None, ev),
            Choice::PickOptionFor { option, seats } => self.pick_option(option, Some(seats), ev),
            Choice::FinishExploration => self.finish_exploration(),
            Choice::RevealAt { hex } => self.reveal_at(hex),
            Choice::TakeExplorationMarker { hex } => self.take_exploration_marker(hex, ev),
            Choice::PacifyAt { hex } => self.pacify_at(hex, ev),
            Choice::SkipEffect => self.resume_after_effect(),
            Choice::Trade => {
                self.spend_actions(1);
                self.pb.pending = Pending::Trade { with_ally: None, outsider: None };
            }
            c @ (Choice::Buy { .. }
            | Choice::AllySkill { .. }
            | Choice::AllyRemoveDamaged { .. }
            | Choice::GiveScraps { .. }
            | Choice::GiveKey { .. }
            | Choice::GiveModule { .. }
            | Choice::EndTrade) => self.trade_step(seat, c, ev),
            c @ (Choice::ReceiveModule { .. }
            | Choice::ScrapTo { .. }
            | Choice::DiscardModule { .. }
            | Choice::DiscardMod { .. }) => self.share_step(c, ev),
            Choice::Activate { seat, source, die, color } => match self.pb.pending {
                Pending::AfterRoll { .. } => self.activate_after_roll(seat, source, die, color, ev),
                Pending::Manoeuvre { .. } => self.activate_before_roll(seat, source, color, ev),
                Pending::CombatCommand => self.activate_engaged(seat, source, die.map(|d| d.1).unwrap_or(0), ev),
                _ => self.activate_in_turn(seat, source, die, ev),
            },
            Choice::UseGrant { seat, grant, die } => self.use_grant(seat, grant, die, ev),
            Choice::ChooseMod { seat, effect } => {
                self.take_mod(seat, effect, ev);
                self.resume_after_effect();
            }
            Choice::ResolveAttack => self.finalize_attack(ev),
            Choice::Salvage { module } => {
                let s = self.ship_mut(seat);
                if let Some(i) = s.modules.iter().position(|&m| m == module) {
                    s.modules.remove(i);
                    self.pb.module_discard.push(module);
                    let value = self.content().modules[module as usize].price.saturating_sub(1);
                    self.gain_scraps(seat, value, ScrapSource::Plain, ev);
                }
                self.next_maintenance();
            }
        }
    }

    fn next_maintenance(&mut self) {
        if let Pending::Maintenance { remaining } = &mut self.pb.pending {
            if !remaining.is_empty() {
                remaining.remove(0);
            }
            // Skip members with nothing to choose but "no maintenance".
            let rem = remaining.clone();
            let mut left: Vec<Seat> = rem.into_iter().skip_while(|&s| !self.maintenance_possible(s)).collect();
            if left.is_empty() {
                self.pb.pending = Pending::Action;
            } else if let Pending::Maintenance { remaining } = &mut self.pb.pending {
                std::mem::swap(remaining, &mut left);
            }
        }
    }

    /// Every member of the active group spends `n` actions.
    pub(crate) fn spend_actions(&mut self, n: u8) {
        for i in 0..self.pb.active.len() {
            let sh = self.ship_mut(self.pb.active[i]);
            sh.actions_left = sh.actions_left.saturating_sub(n);
        }
    }

    /// Moves every member of the active group. Leaving the system ends a
    /// pursuit: the Enemy fled from stays behind, so the only-jumps
    /// restriction after disengaging lifts (FAQ, "Ennemis et Combats";
    /// rules revision 2).
    pub(crate) fn move_group(&mut self, to: crate::hex::Hex, ev: &mut Vec<Event>) {
        let revised = self.revised(2);
        for i in 0..self.pb.active.len() {
            let s = self.pb.active[i];
            let sh = self.ship_mut(s);
            let from = sh.hex;
            sh.hex = to;
            if revised && from != to {
                sh.disengaged = false;
            }
            ev.push(Event::ShipMoved { seat: s, from, to });
        }
        // A Rush's jumps are one move: systems left on the way count once it
        // ends, so the Corruption cannot block the path half-way.
        if !matches!(self.pb.pending, Pending::RushStep { .. }) {
            self.left_systems(ev);
        }
    }

    /// Runs the automatic steps until a decision is needed.
    pub(crate) fn settle(&mut self, ev: &mut Vec<Event>) {
        for _ in 0..64 {
            if self.pb.outcome.is_some() {
                self.pb.pending = Pending::Over;
                self.pb.phase = Phase::Over;
                return;
            }
            if matches!(
                self.pb.pending,
                Pending::Action | Pending::Exploration { .. } | Pending::CombatCommand | Pending::NextPlayer
            ) && self.start_queued()
            {
                continue;
            }
            match self.pb.pending {
                Pending::Action => {
                    self.pb.active.retain(|&s| !self.pb.ships[s as usize].defeated);
                    if self.pb.active.is_empty() {
                        self.pb.pending = Pending::NextPlayer;
                        continue;
                    }
                    if self.pb.end_turn_requested {
                        self.pb.end_turn_requested = false;
                        self.end_group_turn(ev);
                        continue;
                    }
                    // A pending fight comes first (engaged at turn start).
                    let hex = self.group_hex();
                    if self.pb.active.iter().any(|&s| self.ship(s).engaged) && self.has_opponents(hex) {
                        let group = self.pb.active.clone();
                        if self.avatar_drags_no_enemy(hex) {
                            self.start_avatar_fight(&group, hex, ev);
                        } else {
                            let avatar = self.avatar_in(hex);
                            let cause = if avatar { EngageCause::Avatar } else { EngageCause::Fight };
                            self.start_fight(&group, hex, cause, ev);
                        }
                        continue;
                    }
                    for i in 0..self.pb.active.len() {
                        let s = self.pb.active[i];
                        self.ship_mut(s).engaged = false;
                    }
                    if self.signal_ready_here(ev) {
                        continue;
                    }
                    let acts = self.group_actions();
                    let can_strain = self.pb.active.iter().any(|&s| {
                        !self.ship(s).strained && !self.has_damage(s, crate::content::DamagedEffect::NoStrain)
                    });
                    // Modules cost no Action (p. 15): from rules revision 3
                    // the turn waits while one can still be used.
                    let free_power =
                        || self.revised(3) && !self.action_power_options(&self.pb.active, false).is_empty();
                    if acts == 0 && !can_strain && !free_power() {
                        self.end_group_turn(ev);
                        continue;
                    }
                    return;
                }
                Pending::NextPlayer => {
                    if self.alive().all(|s| s.played) {
                        self.end_action_phase(ev);
                        continue;
                    }
                    return;
                }
                Pending::Maintenance { ref remaining } if remaining.is_empty() => {
                    self.pb.pending = Pending::Action;
                }
                Pending::AfterRoll { .. } if self.after_roll_options(false).is_empty() => {
                    self.finalize_attack(ev);
                }
                Pending::CombatCommand => {
                    let done = match &self.pb.fight {
                        None => true,
                        Some(f) => f.seats.is_empty() || !self.fight_has_opponents(f),
                    };
                    if done {
                        self.finish_fight(ev);
                        continue;
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// Ends the Action phase: victory check (p. 12), then the Corruption
    /// and End phases, then a new round.
    pub(crate) fn end_action_phase(&mut self, ev: &mut Vec<Event>) {
        let rift = self
            .pb
            .tiles
            .iter()
            .find(|t| self.content().tiles[t.tile as usize].kind == SystemKind::MainRift)
            .map(|t| (t.hex, t.keys_activated.len() as u8));
        if let Some((hex, keys)) = rift
            && keys == self.key_count()
            && !self.avatar_in(hex)
        {
            self.finish(true, "rift_sealed", ev);
            return;
        }
        self.pb.phase = Phase::Corruption;
        ev.push(Event::PhaseStarted { phase: Phase::Corruption, round: self.pb.round });
        self.advance_corruption(ev);
        if self.pb.outcome.is_some() {
            return;
        }
        self.move_avatars(true, false, ev);
        if self.pb.outcome.is_some() {
            return;
        }
        self.end_phase(ev);
    }

    /// Records the end of the game.
    pub(crate) fn finish(&mut self, won: bool, cause: &str, ev: &mut Vec<Event>) {
        if self.pb.outcome.is_some() {
            return;
        }
        self.pb.outcome = Some(Outcome { won, cause: cause.into(), round: self.pb.round });
        self.pb.phase = Phase::Over;
        self.pb.pending = Pending::Over;
        ev.push(Event::GameOver { won, cause: cause.into() });
    }
}
