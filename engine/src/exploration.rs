//! Exploration cards (rulebook pp. 10-11, FAQ "Explorations"): resolved at
//! once and discarded. Analysis: any eligible options, the first with the
//! Explore action, each further one for one more Action, each once.
//! Warning: one option for the whole group, the strong one behind a Skill
//! Roll. Danger: a Skill Roll passed or failed together. Class-locked
//! options open when a ship of the group has the class. Also the effects
//! that need a decision: reveal systems and pacify systems anywhere.

use crate::content::{ExplorationType, SystemKind};
use crate::decision::{Choice, ChoiceOption, DecisionKind, Pending};
use crate::event::Event;
use crate::hex::{Hex, opposite};
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
        self.pb.pending = Pending::Exploration { card, picked: Vec::new() };
    }

    fn option_open(&self, card: u8, i: usize) -> bool {
        let def = &self.content().explorations[card as usize];
        match def.options.get(i).and_then(|o| o.class) {
            None => def.options.get(i).is_some(),
            Some(class) => self.pb.active.iter().any(|&s| self.content().ship(self.ship(s).kind).class == class),
        }
    }

    /// Options of the Exploration, Reveal and Pacify decisions.
    pub(crate) fn exploration_options(&self) -> (DecisionKind, String, Vec<ChoiceOption>) {
        let group = self.pb.active.clone();
        let mk = |label: String, choice: Choice| ChoiceOption { id: choice.id(), seats: group.clone(), label, choice };
        match &self.pb.pending {
            Pending::Exploration { card, picked } => {
                let def = &self.content().explorations[*card as usize];
                let mut opts = Vec::new();
                let can_more =
                    picked.is_empty() || (def.kind == ExplorationType::Analysis && self.group_actions() >= 1);
                if can_more {
                    for (i, o) in def.options.iter().enumerate() {
                        if picked.contains(&(i as u8)) || !self.option_open(*card, i) {
                            continue;
                        }
                        let mut label = format!("{:?}", o.effects);
                        if let Some(k) = o.skill {
                            label = format!("Skill Roll ({k} specials): {:?}, else {:?}", o.effects, o.penalty);
                        }
                        if !picked.is_empty() {
                            label.push_str(" (1 more action)");
                        }
                        opts.push(mk(label, Choice::PickOption { option: i as u8 }));
                    }
                }
                if !picked.is_empty() {
                    opts.push(mk("Finish the exploration".into(), Choice::FinishExploration));
                }
                (DecisionKind::Exploration, format!("Exploration: {} ({:?})", def.name, def.kind), opts)
            }
            Pending::RevealAnywhere { left, near } => {
                let spaces = match near {
                    Some(h) => self.probe_targets(*h),
                    None => self.reveal_spaces(),
                };
                let mut opts: Vec<ChoiceOption> = if self.hid.stack.is_empty() {
                    Vec::new()
                } else {
                    spaces
                        .into_iter()
                        .map(|h| mk(format!("Reveal a system at ({},{})", h.q, h.r), Choice::RevealAt { hex: h }))
                        .collect()
                };
                opts.push(mk("Reveal no more systems".into(), Choice::SkipEffect));
                (DecisionKind::RevealSystem, format!("Reveal a system anywhere ({left} left)"), opts)
            }
            Pending::PacifyAnywhere { left } => {
                let mut opts: Vec<ChoiceOption> = if self.pb.pacify_supply == 0 {
                    Vec::new()
                } else {
                    self.pb
                        .tiles
                        .iter()
                        .filter(|t| {
                            self.content().tiles[t.tile as usize].kind == SystemKind::Enemy && t.pacified.is_none()
                        })
                        .map(|t| mk(format!("Pacify ({},{})", t.hex.q, t.hex.r), Choice::PacifyAt { hex: t.hex }))
                        .collect()
                };
                opts.push(mk("Pacify no more systems".into(), Choice::SkipEffect));
                (DecisionKind::PacifySystem, format!("Pacify an Enemy system anywhere ({left} left)"), opts)
            }
            _ => (DecisionKind::Exploration, String::new(), Vec::new()),
        }
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

    /// Picks an option of the card being resolved.
    pub(crate) fn pick_option(&mut self, option: u8, ev: &mut Vec<Event>) {
        let Pending::Exploration { card, mut picked } = self.pb.pending.clone() else { return };
        if !picked.is_empty() {
            // Extra Analysis options cost one Action each; they are not new
            // Explore actions (FAQ: no extra XP).
            self.spend_actions(1);
        }
        picked.push(option);
        let def = self.content().explorations[card as usize].clone();
        let group = self.pb.active.clone();
        let hex = self.group_hex();
        let Some(o) = def.options.get(option as usize).cloned() else { return };
        let effects = match o.skill {
            Some(need) => {
                let specials = self.skill_roll(&group, ev);
                if specials >= need { o.effects } else { o.penalty }
            }
            None => o.effects,
        };
        let scraps_before: Vec<u8> = group.iter().map(|&s| self.ship(s).scraps).collect();
        for e in effects {
            self.apply_effect(e, &group, hex, ev);
        }
        let _ = scraps_before;
        let done = def.kind == ExplorationType::Warning
            || picked.len() >= def.options.len()
            || self.pb.end_turn_requested
            || self.pb.active.is_empty();
        if done {
            self.pb.exploration_discard.push(card);
            self.pb.pending = Pending::Action;
        } else {
            self.pb.pending = Pending::Exploration { card, picked };
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

    /// Goes back to the decision an effect interrupted.
    pub(crate) fn resume_after_effect(&mut self) {
        self.pb.pending = self.pb.resume.take().map(|b| *b).unwrap_or(Pending::Action);
    }

    /// Starts the next decision an effect queued, if any. Returns true if
    /// one started.
    pub(crate) fn start_queued(&mut self) -> bool {
        if self.pb.active.is_empty() {
            // Without an active group only a ship's own decisions can wait.
            self.pb.queued.retain(|p| matches!(p, Pending::ChooseMod { .. } | Pending::DiscardModule { .. }));
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
