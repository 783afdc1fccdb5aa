//! What an option costs and brings at once (rulebook "Recruter/S'équiper",
//! "Se déplacer", "Décrypter les signaux extrasolaires", "Explorer", "Fin du
//! tour"), so a player sees the price before picking and is asked before
//! an option that takes the whole hand. Chance outcomes (fights, damage
//! rolls) are left out: they are not known before the pick.

use crate::content::Risk;
use crate::decision::Choice;
use crate::state::{Game, Seat};

/// The immediate price of one option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Price {
    /// Cards taken from the hand face down (a card played face up to
    /// explore is not counted; its risk's discard is).
    pub cards: u8,
    /// The cards are every card left in the hand, taken at once.
    pub whole_hand: bool,
    /// PC changed at once (negative: lost).
    pub pc: i32,
    /// PX gained at once.
    pub px: u8,
}

impl Price {
    /// True when the option costs and brings nothing at once.
    pub fn is_free(&self) -> bool {
        *self == Price::default()
    }

    /// The price in words for a label, e.g. "2 cards", "3 cards: your whole
    /// hand", "-2 PC", "+1 PX"; empty when free.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.cards > 0 {
            let n = if self.cards == 1 { "1 card".to_string() } else { format!("{} cards", self.cards) };
            parts.push(if self.whole_hand { format!("{n}: your whole hand") } else { n });
        }
        if self.pc != 0 {
            parts.push(format!("{:+} PC", self.pc));
        }
        if self.px > 0 {
            parts.push(format!("+{} PX", self.px));
        }
        parts.join(", ")
    }
}

impl Game {
    /// What `choice` costs and brings at once for the seat that decides.
    pub fn price(&self, seat: Seat, choice: &Choice) -> Price {
        let c = self.content();
        let hand = self.hand(seat).len();
        let pay = |cards: u8, hand: usize| Price {
            cards,
            whole_hand: cards > 0 && usize::from(cards) >= hand,
            ..Price::default()
        };
        let s = self.ship(seat);
        match *choice {
            Choice::BigDiscover => Price { cards: hand as u8, whole_hand: true, ..Price::default() },
            Choice::Recruit(_) => pay(3, hand),
            Choice::Equip(g) => pay(self.equip_cost(s, g), hand),
            Choice::Move(to) => pay(c.nebula.cost[usize::from(s.sector)][usize::from(to)].unwrap_or(0), hand),
            Choice::EnterX => pay(c.nebula.x.enter_cost, hand),
            Choice::LeaveX => pay(c.nebula.x.leave_cost, hand),
            Choice::Decode(slot) => pay(slot + 1, hand),
            Choice::Explore(card) => match c.exploration[usize::from(card)].risk {
                // The card itself is played face up: the rest of the hand pays.
                Risk::Discard { cards } => pay(cards, hand.saturating_sub(1)),
                Risk::OzOre { pc, px } => Price { pc: i32::from(pc), px, ..Price::default() },
                _ => Price::default(),
            },
            Choice::Pay(_) => Price { cards: 1, whole_hand: hand == 1, ..Price::default() },
            Choice::EndTurn => Price {
                cards: hand as u8,
                whole_hand: hand > 0,
                pc: -(hand as i32).min(s.pc as i32),
                ..Price::default()
            },
            Choice::Dismiss(_) => Price { px: 1, ..Price::default() },
            _ => Price::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_cards_the_whole_hand_and_points() {
        assert_eq!(Price::default().words(), "");
        assert_eq!(Price { cards: 1, ..Price::default() }.words(), "1 card");
        assert_eq!(Price { cards: 3, whole_hand: true, ..Price::default() }.words(), "3 cards: your whole hand");
        assert_eq!(
            Price { cards: 2, whole_hand: true, pc: -2, ..Price::default() }.words(),
            "2 cards: your whole hand, -2 PC"
        );
        assert_eq!(Price { pc: 2, px: 1, ..Price::default() }.words(), "+2 PC, +1 PX");
    }
}
