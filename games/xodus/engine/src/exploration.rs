//! Exploration cards (rulebook pp. 10-11, FAQ "Explorations"): resolved at
//! once and discarded. Analysis: any eligible options, each once; in a
//! fleet each member takes its own option or shares one, its first coming
//! with the Explore action and each further one costing it an Action
//! (before rules revision 2: every option for the whole group).
//! Warning: one option for the whole group, the strong one behind a Skill
//! Roll. Danger: a Skill Roll passed or failed together. Class-locked
//! options open when a ship of the group has the class. Also the effects
//! that need a decision: reveal systems and pacify systems anywhere.

use crate::content::{ExplorationType, SystemKind};
use crate::decision::{Choice, DecisionKind, Pending};
use crate::event::Event;
use crate::hex::{Hex, opposite};
use crate::moves::{Move, opt, text};
use crate::state::*;

impl Game {
    /// Draws and starts resolving an Exploration card (the marker is gone).
    pub(crate) fn resolve_exploration(&mut self, ev: &mut Vec<Event>) {
        if self.hid.exploration_deck.is_empty() {
            let mut d = std::mem::take(&mut self.pb.exploration_discard);
            self.hid.rng.shuffle(&mut d);
            self.hid.exploration_deck = d;
        }
        let Some(card) = self.hid.exploration_deck.pop() else { return };
        let def = &self.content().explorations[card as usize];
        // The card is named before anything it causes (a Danger's roll).
        let skill = if def.kind == ExplorationType::Danger { def.skill.unwrap_or(0) } else { 0 };
        ev.push(Event::ExplorationDrawn { card: def.id.clone(), kind: def.kind, skill });
        if def.kind == ExplorationType::Danger {
            let group = self.pb.active.clone();
            let hex = self.group_hex();
            let need = def.skill.unwrap_or(0);
            let penalty = def.penalty.clone();
            let specials = self.skill_roll(&group, ev);
            if specials < need {
                for e in penalty {
                    self.apply_effect(e, &group, hex, ev);
                }
            }
            self.pb.exploration_discard.push(card);
            return;
        }
        self.pb.pending = Pending::Exploration { card, picked: Vec::new(), took: Vec::new() };
    }

    fn option_open(&self, card: u8, i: usize) -> bool {
        let def = &self.content().explorations[card as usize];
        let Some(o) = def.options.get(i) else { return false };
        // "Disable a Rift in the system" (p. 11) where there is none would
        // do nothing: from rules revision 3 such an option is not offered.
        let dead = self.revised(3)
            && o.skill.is_none()
            && !o.effects.is_empty()
            && o.effects.iter().all(|e| matches!(e, crate::content::Effect::DisableRift))
            && !self.has_rift(self.group_hex());
        match o.class {
            _ if dead => false,
            None => true,
            Some(class) => self.pb.active.iter().any(|&s| self.content().ship(self.ship(s).kind).class == class),
        }
    }

    /// Options of the Exploration, Reveal and Pacify decisions.
    pub(crate) fn exploration_options(&self, lab: bool) -> (DecisionKind, String, Vec<Move>) {
        let group = self.pb.active.as_slice();
        match &self.pb.pending {
            Pending::Exploration { card, picked, took } => {
                let def = &self.content().explorations[*card as usize];
                if def.kind == ExplorationType::Analysis && self.revised(2) {
                    return self.analysis_options(*card, picked, took, lab);
                }
                let mut opts = Vec::new();
                let can_more =
                    picked.is_empty() || (def.kind == ExplorationType::Analysis && self.group_actions() >= 1);
                if can_more {
                    for (i, o) in def.options.iter().enumerate() {
                        if picked.contains(&(i as u8)) || !self.option_open(*card, i) {
                            continue;
                        }
                        let label = || {
                            let mut label = option_label(o);
                            if !picked.is_empty() {
                                label.push_str(" (1 more action)");
                            }
                            label
                        };
                        opts.push(opt!(lab, &group, label(), Choice::PickOption { option: i as u8 }));
                    }
                }
                if !picked.is_empty() {
                    opts.push(opt!(lab, &group, "Finish the exploration", Choice::FinishExploration));
                }
                (DecisionKind::Exploration, text!(lab, format!("Exploration: {} ({:?})", def.name, def.kind)), opts)
            }
            Pending::RevealAnywhere { left, near } => {
                let spaces = match near {
                    Some(h) => self.probe_targets(*h).to_vec(),
                    None => self.reveal_spaces(),
                };
                let mut opts: Vec<Move> = if self.hid.stack.is_empty() {
                    Vec::new()
                } else {
                    spaces
                        .into_iter()
                        .map(|h| {
                            opt!(
                                lab,
                                &group,
                                format!("Reveal a system at ({},{})", h.q, h.r),
                                Choice::RevealAt { hex: h }
                            )
                        })
                        .collect()
                };
                opts.push(opt!(lab, &group, "Reveal no more systems", Choice::SkipEffect));
                (DecisionKind::RevealSystem, text!(lab, format!("Reveal a system anywhere ({left} left)")), opts)
            }
            Pending::PacifyAnywhere { left } => {
                let mut opts: Vec<Move> = if self.pb.pacify_supply == 0 {
                    Vec::new()
                } else {
                    self.pb
                        .tiles
                        .iter()
                        .filter(|t| {
                            self.content().tiles[t.tile as usize].kind == SystemKind::Enemy && t.pacified.is_none()
                        })
                        .map(|t| {
                            opt!(
                                lab,
                                &group,
                                format!("Pacify {}", self.hex_label(t.hex)),
                                Choice::PacifyAt { hex: t.hex }
                            )
                        })
                        .collect()
                };
                opts.push(opt!(lab, &group, "Pacify no more systems", Choice::SkipEffect));
                (DecisionKind::PacifySystem, text!(lab, format!("Pacify an Enemy system anywhere ({left} left)")), opts)
            }
            _ => (DecisionKind::Exploration, String::new(), Vec::new()),
        }
    }

    /// Analysis options from rules revision 2 (p. 10): each open option not
    /// yet picked, for any set of members who take it together. A member's
    /// first option comes with the Explore action, each further one costs
    /// that member one Action; members who do not take it pay nothing.
    fn analysis_options(&self, card: u8, picked: &[u8], took: &[Seat], lab: bool) -> (DecisionKind, String, Vec<Move>) {
        let def = &self.content().explorations[card as usize];
        let group = self.pb.active.clone();
        let can_take = |s: Seat| !took.contains(&s) || self.ship(s).actions_left >= 1;
        let mut opts = Vec::new();
        for (i, o) in def.options.iter().enumerate() {
            if picked.contains(&(i as u8)) || !self.option_open(card, i) {
                continue;
            }
            let effects = || option_label(o);
            // Every non-empty set of members, the whole group first.
            for mask in (1u32..1 << group.len()).rev() {
                let takers: Vec<Seat> =
                    group.iter().enumerate().filter(|(b, _)| mask & (1 << b) != 0).map(|(_, &s)| s).collect();
                if !takers.iter().all(|&s| can_take(s)) {
                    continue;
                }
                let paying: Vec<Seat> = takers.iter().copied().filter(|s| took.contains(s)).collect();
                let label = || {
                    let mut label = if takers.len() == group.len() {
                        effects()
                    } else {
                        format!("Only {}: {}", crate::text::words::captains(&takers), effects())
                    };
                    if !paying.is_empty() {
                        label.push_str(&format!(" (1 more action for {})", crate::text::words::captains(&paying)));
                    }
                    label
                };
                let choice = if takers.len() == group.len() {
                    Choice::PickOption { option: i as u8 }
                } else {
                    Choice::PickOptionFor { option: i as u8, seats: takers.clone() }
                };
                opts.push(opt!(lab, &takers, label(), choice));
            }
        }
        // Straining can be done "at any point during your turn" (p. 6; FAQ,
        // Flottes): a member out of Actions may strain to pay for a further
        // option (rules revision 3).
        let more_open =
            def.options.iter().enumerate().any(|(i, _)| !picked.contains(&(i as u8)) && self.option_open(card, i));
        if self.revised(3) && more_open {
            for &s in &group {
                let sh = self.ship(s);
                if took.contains(&s)
                    && sh.actions_left == 0
                    && !sh.strained
                    && !self.has_damage(s, crate::content::DamagedEffect::NoStrain)
                {
                    opts.push(opt!(
                        lab,
                        &[s],
                        format!("Captain {s}: strain the engine (+1 action, Damage Roll later)"),
                        Choice::Strain { seat: s },
                    ));
                }
            }
        }
        if !picked.is_empty() {
            opts.push(opt!(lab, &group, "Finish the exploration", Choice::FinishExploration));
        }
        (DecisionKind::Exploration, text!(lab, format!("Exploration: {} ({:?})", def.name, def.kind)), opts)
    }

    /// Empty spaces next to a revealed system with a lane toward them.
    pub(crate) fn reveal_spaces(&self) -> Vec<Hex> {
        let mut out = Vec::new();
        for t in &self.pb.tiles {
            for d in 0..6u8 {
                let h = t.hex.neighbor(d);
                if t.lanes & (1 << d) != 0 && self.tile_at(h).is_none() && !out.contains(&h) {
                    out.push(h);
                }
            }
        }
        out
    }

    /// Orientations connecting a tile at `hex` to any revealed neighbour.
    pub(crate) fn orientations_anywhere(&self, tile: u8, hex: Hex) -> Vec<u8> {
        let mask = self.content().tiles[tile as usize].lane_mask();
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for r in 0..6 {
            let m = crate::hex::rotate_mask(mask, r);
            let connects = (0..6u8).any(|d| {
                m & (1 << d) != 0 && self.tile_at(hex.neighbor(d)).is_some_and(|n| n.lanes & (1 << opposite(d)) != 0)
            });
            if connects && !seen.contains(&m) {
                seen.push(m);
                out.push(r);
            }
        }
        out
    }

    /// Picks an option of the card being resolved: for the whole group, or
    /// (`takers`) for some members of a fleet only (rules revision 2).
    pub(crate) fn pick_option(&mut self, option: u8, takers: Option<Vec<Seat>>, ev: &mut Vec<Event>) {
        let Pending::Exploration { card, mut picked, mut took } = self.pb.pending.clone() else { return };
        let def = self.content().explorations[card as usize].clone();
        let group = takers.unwrap_or_else(|| self.pb.active.clone());
        if def.kind == ExplorationType::Analysis && self.revised(2) {
            // p. 10: each taker's first option comes with the Explore
            // action; a further one costs that taker one Action.
            for &s in &group {
                if took.contains(&s) {
                    let sh = self.ship_mut(s);
                    sh.actions_left = sh.actions_left.saturating_sub(1);
                } else {
                    took.push(s);
                }
            }
        } else if !picked.is_empty() {
            // Extra Analysis options cost one Action each; they are not new
            // Explore actions (FAQ: no extra XP).
            self.spend_actions(1);
        }
        picked.push(option);
        let hex = self.group_hex();
        let Some(o) = def.options.get(option as usize).cloned() else { return };
        let effects = match o.skill {
            Some(need) => {
                let specials = self.skill_roll(&group, ev);
                if specials >= need { o.effects } else { o.penalty }
            }
            None => o.effects,
        };
        for e in effects {
            self.apply_effect(e, &group, hex, ev);
        }
        let done = def.kind == ExplorationType::Warning
            || picked.len() >= def.options.len()
            || self.pb.end_turn_requested
            || self.pb.active.is_empty();
        if done {
            self.pb.exploration_discard.push(card);
            self.pb.pending = Pending::Action;
        } else {
            self.pb.pending = Pending::Exploration { card, picked, took };
        }
    }

    /// Ends an Analysis exploration.
    pub(crate) fn finish_exploration(&mut self) {
        if let Pending::Exploration { card, .. } = self.pb.pending {
            self.pb.exploration_discard.push(card);
        }
        self.pb.pending = Pending::Action;
    }

    /// Starts revealing a system at an empty space (effect).
    pub(crate) fn reveal_at(&mut self, hex: Hex) {
        let left = match self.pb.pending {
            Pending::RevealAnywhere { left, .. } => left,
            _ => 1,
        };
        match self.draw_tile() {
            Some(tile) => {
                self.pb.pending =
                    Pending::Orientation { hex, tile, then_jump: false, anywhere: Some(left.saturating_sub(1)) }
            }
            None => self.resume_after_effect(),
        }
    }

    /// After an effect's reveal: more to reveal, or back to what was pending.
    pub(crate) fn after_reveal_anywhere(&mut self, left: u8, _ev: &mut Vec<Event>) {
        if left > 0 && !self.hid.stack.is_empty() && !self.reveal_spaces().is_empty() {
            self.pb.pending = Pending::RevealAnywhere { left, near: None };
        } else {
            self.resume_after_effect();
        }
    }

    /// Pacifies a system anywhere (effect).
    pub(crate) fn pacify_at(&mut self, hex: Hex, ev: &mut Vec<Event>) {
        let left = match self.pb.pending {
            Pending::PacifyAnywhere { left } => left,
            _ => 1,
        };
        if self.pb.pacify_supply > 0
            && let Some(t) = self.tile_at_mut(hex)
        {
            t.pacified = Some(Pacified::Green);
            self.pb.pacify_supply -= 1;
            ev.push(Event::Pacified { hex });
        }
        if left > 1 {
            self.pb.pending = Pending::PacifyAnywhere { left: left - 1 };
        } else {
            self.resume_after_effect();
        }
    }

    /// The chosen unexplored system gives its Exploration marker to the
    /// one waiting for it (FAQ, Explorations).
    pub(crate) fn take_exploration_marker(&mut self, from: Hex, ev: &mut Vec<Event>) {
        if let Pending::MoveExplorationMarker { to, .. } = self.pb.pending.clone() {
            if let Some(t) = self.tile_at_mut(from) {
                t.exploration_marker = false;
            }
            if let Some(t) = self.tile_at_mut(to) {
                t.exploration_marker = true;
            }
            ev.push(Event::ExplorationMarkerMoved { from, to });
        }
        self.resume_after_effect();
    }

    /// Goes back to the decision an effect interrupted.
    pub(crate) fn resume_after_effect(&mut self) {
        self.pb.pending = self.pb.resume.take().map(|b| *b).unwrap_or(Pending::Action);
    }

    /// Starts the next decision an effect queued, if any. Returns true if
    /// one started.
    pub(crate) fn start_queued(&mut self) -> bool {
        if self.pb.active.is_empty() {
            // Without an active group only a ship's own decisions can wait.
            self.pb.queued.retain(|p| {
                matches!(
                    p,
                    Pending::ChooseMod { .. } | Pending::DiscardModule { .. } | Pending::MoveExplorationMarker { .. }
                )
            });
        }
        if self.pb.queued.is_empty() {
            return false;
        }
        let next = self.pb.queued.remove(0);
        let current = std::mem::replace(&mut self.pb.pending, next);
        if !matches!(current, Pending::Action) {
            self.pb.resume = Some(Box::new(current));
        }
        true
    }
}

/// An Exploration option as its button reads: what happens, and with a
/// Skill Roll what it needs and what a failure costs.
fn option_label(o: &crate::content::ExplorationOption) -> String {
    use crate::text::effects::effects;
    let what = effects(&o.effects);
    match o.skill {
        Some(k) => format!("Skill Roll, {k} specials: {what}; else {}", effects(&o.penalty)),
        None => crate::text::words::sentence(&what).trim_end_matches('.').to_string(),
    }
}
