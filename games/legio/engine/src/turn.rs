//! The turn (rulebook "Le Tour de Jeu", "Recruter/S'équiper", "Se
//! déplacer", "Décrypter les signaux extrasolaires", "Gestion du deck
//! Exploration"): the draw of 0 to N cards, paying cards face down one at a
//! time for recruiting, equipment, moves and decoding, and the end of the
//! turn with its unused-card penalty.

use crate::content::BASE;
use crate::decision::{Choice, Gear, Pending, Personnel, Purpose, Task};
use crate::event::Event;
use crate::state::*;

impl Game {
    pub(crate) fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.pb.active = seat;
        self.pb.turn = TurnFlags::default();
        ev.push(Event::TurnStarted { seat, round: self.pb.round });
        self.interrupt(Task::Draw(seat));
        if self.ship(seat).sector == BASE {
            self.at_base(seat);
        }
    }

    pub(crate) fn draw(&mut self, seat: Seat, n: u8, ev: &mut Vec<Event>) {
        let mut drawn = 0;
        for _ in 0..n {
            if self.hid.deck.is_empty() {
                self.reshuffle(ev);
            }
            let Some(card) = self.hid.deck.pop() else { break };
            self.hid.hands[usize::from(seat)].push(card);
            drawn += 1;
        }
        self.pb.turn.drawn = drawn;
        ev.push(Event::Drew { seat, cards: drawn });
    }

    /// The discard (both faces) becomes a new deck.
    fn reshuffle(&mut self, ev: &mut Vec<Event>) {
        let mut deck: Vec<u8> = self.pb.discard_up.drain(..).collect();
        deck.extend(self.hid.discard_down.drain(..).map(|(c, _)| c));
        deck.sort_unstable();
        self.hid.rng.shuffle(&mut deck);
        self.hid.deck = deck;
        ev.push(Event::DeckReshuffled);
    }

    /// Moves a card from the hand to the face-down discard.
    pub(crate) fn discard_face_down(&mut self, seat: Seat, card: u8) {
        let hand = &mut self.hid.hands[usize::from(seat)];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
            self.hid.discard_down.push((card, seat));
        }
    }

    /// Discards the whole hand face down; returns how many.
    pub(crate) fn discard_hand(&mut self, seat: Seat) -> u8 {
        let hand = std::mem::take(&mut self.hid.hands[usize::from(seat)]);
        let n = hand.len() as u8;
        self.hid.discard_down.extend(hand.into_iter().map(|c| (c, seat)));
        n
    }

    pub(crate) fn turn_action(&mut self, seat: Seat, choice: Choice, ev: &mut Vec<Event>) {
        let c = self.content();
        if choice != Choice::EndTurn && choice != Choice::DeclareEnd {
            self.pb.turn.acted = true;
        }
        match choice {
            Choice::BigDiscover => {
                let n = self.discard_hand(seat);
                ev.push(Event::DiscardedFaceDown { seat, cards: n });
                self.discover(seat, ev);
            }
            Choice::Recruit(p) => self.begin_pay(seat, 3, Purpose::Recruit(p), ev),
            Choice::Equip(g) => {
                let cost = self.equip_cost(self.ship(seat), g);
                self.begin_pay(seat, cost, Purpose::Equip(g), ev)
            }
            Choice::Move(to) => {
                let from = usize::from(self.ship(seat).sector);
                let cost = c.nebula.cost[from][usize::from(to)].unwrap_or(0);
                self.begin_pay(seat, cost, Purpose::Move(to), ev)
            }
            Choice::EnterX => self.begin_pay(seat, c.nebula.x.enter_cost, Purpose::EnterX, ev),
            Choice::LeaveX => self.begin_pay(seat, c.nebula.x.leave_cost, Purpose::LeaveX, ev),
            Choice::Decode(slot) => self.begin_pay(seat, slot + 1, Purpose::Decode(slot), ev),
            Choice::Explore(card) => self.explore(seat, card, ev),
            Choice::Land(p) => self.begin_landing(seat, p),
            Choice::Repair => self.repair(seat, ev),
            Choice::DeclareEnd => self.trigger_end("declared", ev),
            Choice::EndTurn => self.end_turn(seat, ev),
            _ => {}
        }
    }

    /// Starts paying `n` cards; when the whole hand must go, it goes at once.
    pub(crate) fn begin_pay(&mut self, seat: Seat, n: u8, purpose: Purpose, ev: &mut Vec<Event>) {
        if usize::from(n) >= self.hand(seat).len() {
            let paid = self.discard_hand(seat);
            if paid > 0 {
                ev.push(Event::DiscardedFaceDown { seat, cards: paid });
            }
            self.complete(seat, purpose, ev);
        } else {
            self.continue_pay(seat, n, purpose, ev);
        }
    }

    pub(crate) fn continue_pay(&mut self, seat: Seat, left: u8, purpose: Purpose, ev: &mut Vec<Event>) {
        if left == 0 {
            self.complete(seat, purpose, ev);
        } else if usize::from(left) >= self.hand(seat).len() {
            self.begin_pay(seat, left, purpose, ev);
        } else {
            self.pb.pending = Pending::Pay { seat, left, purpose };
        }
    }

    /// What a completed payment buys.
    fn complete(&mut self, seat: Seat, purpose: Purpose, ev: &mut Vec<Event>) {
        match purpose {
            Purpose::Recruit(Personnel::Squad) => {
                self.ship_mut(seat).tracks.squads += 1;
                ev.push(Event::Recruited { seat, personnel: Personnel::Squad });
            }
            Purpose::Recruit(p @ Personnel::Expert(k)) => {
                *self.pb.supply.get_mut(k) -= 1;
                *self.ship_mut(seat).experts.get_mut(k) += 1;
                ev.push(Event::Recruited { seat, personnel: p });
            }
            Purpose::Equip(g) => {
                let t = &mut self.ship_mut(seat).tracks;
                match g {
                    Gear::Propulsor => t.propulsors += 1,
                    Gear::Laser => t.lasers += 1,
                    Gear::Decoder => t.decoder += 1,
                    Gear::Detector => t.detectors += 1,
                }
                ev.push(Event::Equipped { seat, gear: g });
            }
            Purpose::Move(to) => self.move_ship(seat, to, ev),
            Purpose::EnterX => self.enter_x(seat, ev),
            Purpose::LeaveX => self.move_ship(seat, BASE, ev),
            Purpose::Decode(slot) => {
                self.pb.turn.decoded = true;
                self.pb.contact_seen[usize::from(slot)].push(seat);
                ev.push(Event::Decoded { seat, slot });
            }
            Purpose::Risk(card) => self.gain_card_xp(seat, card, ev),
        }
    }

    /// Puts a ship in a sector; arriving at the Star Base may promote it.
    pub(crate) fn move_ship(&mut self, seat: Seat, to: u8, ev: &mut Vec<Event>) {
        let from = self.ship(seat).sector;
        if from == to {
            return;
        }
        self.ship_mut(seat).sector = to;
        ev.push(Event::Moved { seat, from, to });
        if to == BASE {
            self.at_base(seat);
        }
    }

    fn end_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let unused = self.discard_hand(seat);
        ev.push(Event::TurnEnded { seat, unused });
        if unused > 0 {
            self.add_pc(seat, -i32::from(unused), "unused_cards", ev);
        }
        let next = self.next_seat(seat);
        if next == self.pb.first {
            let limit = self.config.round_limit;
            if self.pb.end.is_some() || (limit > 0 && self.pb.round >= limit) {
                let cause = self.pb.end.clone().unwrap_or_else(|| "round_limit".into());
                self.finish(&cause, ev);
                return;
            }
            self.pb.round += 1;
        }
        self.pb.tasks.push(Task::StartTurn(next));
    }
}
