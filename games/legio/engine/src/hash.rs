//! The state hash: [`tabletop_kit::hash::state_hash`] over the config,
//! the public and hidden halves, and the generator. It is the same on
//! every machine and compiler; replays compare it bit for bit.

use crate::state::{Game, Seat};

impl Game {
    /// Hash of the whole state (config, public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        tabletop_kit::hash::state_hash(&(&self.config, &self.pb, &self.hid), &self.hid.rng)
    }

    /// Hash of the hidden half only: the deck, the face-down discard, the
    /// hands, the objectives kept and on offer, the objective pile, the A,
    /// B and X piles, the face-down contacts, the Imperator deck and the
    /// generator's position. A step that moves it drew, shuffled, rolled
    /// or showed someone a card, so a host never lets it be undone.
    /// It also moves when a seat pays or plays its own cards (its hand
    /// shrinks), which reveals nothing: for undo, see [`Game::unseen_hash`].
    pub fn hidden_hash(&self) -> u64 {
        tabletop_kit::hash::state_hash(&self.hid, &self.hid.rng)
    }

    /// Hash of what `seat` cannot see: the hidden half without its own hand,
    /// its own face-down discards, its own objectives and offer, the
    /// contacts it decoded and the X pile once it has seen it; plus the
    /// generator's position. A step by `seat` that leaves it unchanged
    /// showed `seat` nothing new and rolled nothing.
    pub fn unseen_hash(&self, seat: Seat) -> u64 {
        let h = &self.hid;
        let mine = usize::from(seat);
        let others = |v: &Vec<Vec<u8>>| -> Vec<Vec<u8>> {
            v.iter().enumerate().map(|(i, x)| if i == mine { Vec::new() } else { x.clone() }).collect()
        };
        let discards: Vec<(u8, Seat)> = h.discard_down.iter().copied().filter(|d| d.1 != seat).collect();
        let contacts: [Option<u8>; 2] =
            std::array::from_fn(|i| if self.pb.contact_seen[i].contains(&seat) { None } else { h.contacts[i] });
        let pile_x: &[u8] = if self.pb.x_seen_by.contains(&seat) { &[] } else { &h.pile_x };
        let unseen = (
            &h.deck,
            discards,
            others(&h.hands),
            others(&h.objectives),
            others(&h.offers),
            &h.objective_pile,
            &h.piles,
            pile_x,
            contacts,
            &h.imperator_deck,
        );
        tabletop_kit::hash::state_hash(&unseen, &h.rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Game, GameConfig};

    /// The hash of a fixed game, written down: a change of encoding, of a
    /// dependency or of the compiler that moves it fails here first. The
    /// configuration is a stored revision 0 one (no `rules_revision`, no
    /// `round_limit`): its hashes are the ones revision 0 games always had.
    #[test]
    fn the_hash_of_a_known_state_is_pinned() {
        let old: GameConfig = serde_json::from_str(r#"{"players":3,"seed":7}"#).expect("stored config");
        assert_eq!((old.rules_revision(), old.round_limit), (0, crate::DEFAULT_ROUND_LIMIT));
        let mut game = Game::new(old.clone()).expect("game");
        let start = game.state_hash();
        let d = game.decision();
        game.apply(d.seat.expect("decider"), &d.options[0].id).expect("first option");
        assert_ne!(game.state_hash(), start, "a choice moves the hash");
        assert_eq!(Game::new(old).expect("game").state_hash(), start, "same config, same hash");
        assert_eq!((start, game.state_hash()), PINNED);
        let current = Game::new(GameConfig::new(3, 7)).expect("game");
        assert_eq!(current.config().rules_revision(), crate::RULES_REVISION);
        assert_ne!(current.state_hash(), start, "the revision is part of the state");
        assert_eq!(current.hidden_hash(), Game::new(GameConfig::new(3, 7)).expect("game").hidden_hash());
    }

    const PINNED: (u64, u64) = (13_303_814_186_665_178_749, 15_327_789_978_843_045_018);
}
