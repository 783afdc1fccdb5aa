//! Landing (rulebook "Se poser sur une planète", "Utilisation de
//! l'Imperator"): once per turn, on an active planet of the ship's sector;
//! the active commander invites commanders of the sector (the discoverer,
//! if present, must be invited and may refuse), each invited commander
//! answers in turn order, then the active commander lands with enough
//! squads, with the Imperator's help if it may still call it, or gives up;
//! from revision 1, after a refusal it may first ask another ship.

use crate::decision::{Pending, Task};
use crate::event::Event;
use crate::state::*;

impl Game {
    pub(crate) fn begin_landing(&mut self, seat: Seat, planet: u8) {
        self.pb.turn.landed = true;
        let mut invited = Vec::new();
        if let Some(p) = self.pb.planets[usize::from(planet)]
            && p.discoverer != seat
            && self.ship(p.discoverer).sector == self.ship(seat).sector
        {
            invited.push(p.discoverer);
        }
        self.pb.landing = Some(Landing { planet, invited, accepted: Vec::new() });
        if self.invitable().is_empty() {
            self.send_invitations();
        } else {
            self.pb.pending = Pending::Invite { seat };
        }
    }

    /// Invited commanders answer in turn order, then the landing is confirmed.
    pub(crate) fn send_invitations(&mut self) {
        let invited = self.pb.landing.as_ref().map(|l| l.invited.clone()).unwrap_or_default();
        let order: Vec<Seat> = self.order_from(self.pb.active).into_iter().filter(|s| invited.contains(s)).collect();
        let mut tasks: Vec<Task> = order.into_iter().map(Task::Answer).collect();
        tasks.push(Task::Confirm);
        self.pb.tasks.splice(0..0, tasks);
        self.pb.pending = Pending::Settling;
    }

    /// The ships land and the mission's steps are queued.
    pub(crate) fn land(&mut self, imperator: bool, ev: &mut Vec<Event>) {
        let Some(l) = self.pb.landing.take() else { return };
        let Some(planet) = self.pb.planets[usize::from(l.planet)] else { return };
        let active = self.pb.active;
        let n = self.discard_hand(active);
        if n > 0 {
            ev.push(Event::DiscardedFaceDown { seat: active, cards: n });
        }
        let imperator_card = if imperator { self.pb.imperator.card } else { None };
        if let Some(card) = imperator_card {
            self.ship_mut(active).imperator_calls += 1;
            let pc = self.content().imperator[usize::from(card)].pc;
            self.pb.imperator.score = self.pb.imperator.score.saturating_add(pc);
            ev.push(Event::ImperatorScored { score: self.pb.imperator.score });
            if self.pb.imperator.score >= 25 {
                self.trigger_end("imperator_25", ev);
            }
        }
        let participants: Vec<Seat> =
            self.order_from(active).into_iter().filter(|&s| s == active || l.accepted.contains(&s)).collect();
        ev.push(Event::Landed { planet: l.planet, participants: participants.clone(), imperator });
        let card = &self.content().extrasolar[usize::from(planet.card)];
        let mut tasks = Vec::new();
        if card.double() {
            tasks.extend(participants.iter().map(|&s| Task::Domain(s)));
        }
        tasks.push(Task::Experience);
        tasks.push(Task::Award);
        tasks.extend(participants.iter().map(|&s| Task::Star(s)));
        tasks.extend(participants.iter().map(|&s| Task::Dismiss(s)));
        tasks.push(Task::Leave);
        self.pb.tasks.splice(0..0, tasks);
        let n = participants.len();
        self.pb.mission = Some(Mission {
            planet: l.planet,
            card: planet.card,
            participants,
            imperator: imperator_card,
            domains: vec![None; n],
            shortfall: 0,
            success: false,
            gained: vec![false; n],
        });
    }
}
