//! Applying a choice: it is checked against the offered options (so a
//! refused choice changes nothing), dispatched to the rule that handles it,
//! then `settle` runs the queued tasks and automatic steps (objective
//! reveals, mission arithmetic, turn changes, the end) until a decision is
//! needed again.

use crate::decision::{Choice, Pending, Task};
use crate::event::Event;
use crate::state::*;

/// Why a choice was refused. The state is untouched when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The seat may not take this decision.
    #[error("seat {seat} may not decide now; waiting for seat {decider} ({kind})")]
    NotYourDecision {
        /// The seat that tried.
        seat: Seat,
        /// The seat that may decide.
        decider: Seat,
        /// Decision kind.
        kind: String,
    },
    /// No offered option has this id. It names no legal id: those can
    /// name the decider's hand or objectives on offer.
    #[error("'{id}' is not a legal choice now ({kind})")]
    UnknownOption {
        /// The id sent (at most 80 characters of it).
        id: String,
        /// Decision kind.
        kind: String,
    },
}

impl Game {
    /// Picks an offered option by its stable id, for `seat`.
    pub fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Vec<Event>, RuleError> {
        if self.pb.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        // The seat first: a non-decider learns nothing from the id it
        // sends (whether it is one of the decider's options or not).
        let pending = self.pb.pending;
        if let Some(decider) = pending.seat()
            && decider != seat
        {
            return Err(RuleError::NotYourDecision { seat, decider, kind: pending.kind().into() });
        }
        let d = self.decision();
        let Some(o) = d.options.iter().find(|o| o.id == option_id) else {
            return Err(RuleError::UnknownOption { id: option_id.chars().take(80).collect(), kind: d.kind });
        };
        let choice = o.choice;
        let mut ev = Vec::new();
        self.pb.seq += 1;
        self.dispatch(seat, choice, &mut ev);
        self.settle(&mut ev);
        Ok(ev)
    }

    /// [`Game::apply`], and whether the step may be taken back by `seat`:
    /// its events are [`undoable`](crate::undoable) and nothing hidden from
    /// `seat` moved ([`Game::unseen_hash`] is the same before and after).
    /// Paying or playing its own cards keeps a step undoable; a draw, a
    /// shuffle, objectives offered to anyone never do.
    pub fn apply_checked(&mut self, seat: Seat, option_id: &str) -> Result<(Vec<Event>, bool), RuleError> {
        let before = self.unseen_hash(seat);
        let ev = self.apply(seat, option_id)?;
        let undoable = crate::event::undoable(&ev) && self.unseen_hash(seat) == before;
        Ok((ev, undoable))
    }

    /// Applies a structured choice, validated exactly like an option id.
    pub fn apply_choice(&mut self, seat: Seat, choice: &Choice) -> Result<Vec<Event>, RuleError> {
        self.apply(seat, &choice.id())
    }

    fn dispatch(&mut self, seat: Seat, choice: Choice, ev: &mut Vec<Event>) {
        let pending = self.pb.pending;
        self.pb.pending = Pending::Settling;
        match (pending, choice) {
            (Pending::Profile { .. }, Choice::Profile(p)) => {
                self.ship_mut(seat).profile = p;
                ev.push(Event::ProfileSet { seat, profile: p });
            }
            (Pending::Expert { .. }, Choice::Expert(k)) => self.embark(seat, k, ev),
            (Pending::KeepObjective { .. }, Choice::Objective(o)) => self.keep_objective(seat, o, ev),
            (Pending::Draw { .. }, Choice::Draw(n)) => self.draw(seat, n, ev),
            (Pending::Turn { .. }, c) => self.turn_action(seat, c, ev),
            (Pending::Pay { left, purpose, .. }, Choice::Pay(card)) => {
                self.discard_face_down(seat, card);
                ev.push(Event::DiscardedFaceDown { seat, cards: 1 });
                self.continue_pay(seat, left - 1, purpose, ev);
            }
            (Pending::Contact { planet, .. }, Choice::Contact(slot)) => self.contact_chosen(seat, planet, slot, ev),
            (Pending::Combat { card, .. }, Choice::Fight) => self.fight(seat, card, ev),
            (Pending::Combat { .. }, Choice::Evade) => {
                self.ship_mut(seat).tracks.detectors -= 1;
                ev.push(Event::Evaded { seat });
            }
            (Pending::Invite { .. }, Choice::Invite(s)) => {
                if let Some(l) = &mut self.pb.landing {
                    l.invited.push(s);
                }
                self.pb.pending = Pending::Invite { seat };
            }
            (Pending::Invite { .. }, Choice::SendInvitations) => self.send_invitations(),
            (Pending::Answer { .. }, Choice::Accept | Choice::Decline) => {
                let accepted = choice == Choice::Accept;
                if let (true, Some(l)) = (accepted, &mut self.pb.landing) {
                    l.accepted.push(seat);
                }
                ev.push(Event::Answered { seat, accepted });
            }
            (Pending::Confirm { .. }, Choice::Invite(s)) => {
                if let Some(l) = &mut self.pb.landing {
                    l.invited.push(s);
                }
                self.pb.tasks.splice(0..0, [Task::Answer(s), Task::Confirm]);
            }
            (Pending::Confirm { .. }, Choice::LandNow) => self.land(false, ev),
            (Pending::Confirm { .. }, Choice::LandWithImperator) => self.land(true, ev),
            (Pending::Confirm { .. }, Choice::Abort) => {
                self.pb.landing = None;
                ev.push(Event::LandingAborted);
            }
            (Pending::Domain { .. }, Choice::Domain(d)) => self.set_domain(seat, d),
            (Pending::Spend { .. }, Choice::Spend { adventurers, points }) => self.spend(seat, adventurers, points, ev),
            (Pending::Star { .. }, Choice::Leave { counts }) => self.leave_for_star(seat, counts, ev),
            (Pending::Dismiss { .. }, Choice::Dismiss(p)) => self.dismiss(seat, p, ev),
            (Pending::Star { .. }, Choice::Stay) | (Pending::Dismiss { .. }, Choice::Keep) => {}
            (Pending::Tech { .. }, Choice::Tech(t)) => {
                self.ship_mut(seat).tech = Some(t);
                ev.push(Event::TechLearnt { seat, tech: t });
            }
            (Pending::ChooseX { .. }, Choice::XCard(card)) => self.take_x_card(seat, card, ev),
            // Options are built from the pending decision, so no other pair
            // reaches here; if one did, nothing happens.
            _ => self.pb.pending = pending,
        }
    }

    /// Runs queued tasks and automatic steps until a decision is needed.
    pub(crate) fn settle(&mut self, ev: &mut Vec<Event>) {
        loop {
            self.reveal_achieved_objectives(ev);
            if self.pb.outcome.is_some() {
                self.pb.pending = Pending::Over;
                self.pb.tasks.clear();
                return;
            }
            if self.pb.pending != Pending::Settling {
                return;
            }
            if self.pb.tasks.is_empty() {
                self.pb.pending = Pending::Turn { seat: self.pb.active };
                continue;
            }
            let task = self.pb.tasks.remove(0);
            self.run_task(task, ev);
        }
    }

    /// Queues a task to run before everything already queued.
    pub(crate) fn interrupt(&mut self, task: Task) {
        self.pb.tasks.insert(0, task);
    }

    fn run_task(&mut self, task: Task, ev: &mut Vec<Event>) {
        match task {
            Task::Profile(seat) => self.pb.pending = Pending::Profile { seat, promotion: false },
            Task::StartingExpert(seat) => self.ask_expert(seat, false),
            Task::PromotionProfile(seat) => self.pb.pending = Pending::Profile { seat, promotion: true },
            Task::PromotionExpert(seat) => self.ask_expert(seat, true),
            Task::Objective(seat) => self.offer_objectives(seat, ev),
            Task::StartTurn(seat) => self.start_turn(seat, ev),
            Task::Draw(seat) => self.pb.pending = Pending::Draw { seat },
            Task::Answer(seat) => self.pb.pending = Pending::Answer { seat },
            Task::Confirm => self.pb.pending = Pending::Confirm { seat: self.pb.active },
            Task::Domain(seat) => self.pb.pending = Pending::Domain { seat },
            Task::Experience => self.count_experience(ev),
            Task::Spend(seat) => self.ask_spend(seat, ev),
            Task::Award => self.award(ev),
            Task::Star(seat) => {
                if !self.star_options(seat).is_empty() {
                    self.pb.pending = Pending::Star { seat };
                }
            }
            Task::Dismiss(seat) => {
                if self.ship(seat).personnel() > 0 {
                    self.pb.pending = Pending::Dismiss { seat };
                }
            }
            Task::Leave => self.leave_planet(ev),
            Task::Tech(seat) => {
                if self.ship(seat).tech.is_none() {
                    self.pb.pending = Pending::Tech { seat };
                }
            }
            Task::Promote(seat) => self.promote(seat, ev),
        }
    }

    fn ask_expert(&mut self, seat: Seat, promotion: bool) {
        if !self.expert_kinds_available(seat).is_empty() {
            self.pb.pending = Pending::Expert { seat, promotion };
        }
    }

    /// Expert kinds a ship may take now (supply and cap).
    pub(crate) fn expert_kinds_available(&self, seat: Seat) -> Vec<ExpertKind> {
        let s = self.ship(seat);
        if s.experts.total() >= self.content().side(s.side).experts_cap {
            return Vec::new();
        }
        ExpertKind::ALL.into_iter().filter(|&k| self.pb.supply.get(k) > 0).collect()
    }

    pub(crate) fn embark(&mut self, seat: Seat, k: ExpertKind, ev: &mut Vec<Event>) {
        *self.pb.supply.get_mut(k) -= 1;
        *self.ship_mut(seat).experts.get_mut(k) += 1;
        ev.push(Event::ExpertEmbarked { seat, kind: k });
    }
}
