//! The fast path ([`Game::legal`], [`Game::apply_move`]) against the
//! labelled one ([`Game::decision`], [`Game::apply`] by id) over random
//! games: the same options in the same order, the same state hash after
//! every step, and an illegal value refused without a change.

use xodus_engine::{Choice, Difficulty, Game, GameConfig, Hex, RuleError};

/// Minimal deterministic generator for the test's own choices.
struct Pick(u64);
impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays one random game on two copies, one by id and one by value,
/// checking both paths agree at every step. Returns the decisions taken.
fn play_both(cfg: GameConfig, pick_seed: u64) -> usize {
    let mut by_id = Game::new(cfg).expect("valid config");
    let mut by_value = by_id.clone();
    let mut p = Pick(pick_seed | 1);
    let mut steps = 0;
    while by_id.outcome().is_none() && steps < 20_000 {
        let d = by_id.decision();
        let legal = by_value.legal();
        assert_eq!(legal.kind, d.kind);
        assert_eq!(legal.moves.len(), d.options.len(), "same options at step {steps}");
        for (m, o) in legal.moves.iter().zip(&d.options) {
            assert_eq!(m.choice, o.choice, "same order at step {steps}");
            assert_eq!(m.seats.as_slice(), o.seats.as_slice());
            assert!(m.choice.has_id(&o.id) && m.choice.id() == o.id);
        }
        let o = &d.options[p.next(d.options.len())];
        let seat = o.seats[p.next(o.seats.len())];
        // An illegal value is refused, with the error the id gets, and
        // changes nothing.
        if steps % 5 == 0 {
            let before = by_value.state_hash();
            let wrong = Choice::Jump { hex: Hex { q: 99, r: -99 } };
            let e = by_value.apply_move(seat, &wrong).expect_err("not legal");
            assert_eq!(Err::<(), RuleError>(e), Err(by_id.clone().apply(seat, "jump:99,-99").expect_err("not legal")));
            if let Some(other) = (0..4).find(|s| !o.seats.contains(s)) {
                assert!(by_value.apply_move(other, &o.choice).is_err(), "a seat not offered it is refused");
            }
            assert_eq!(by_value.state_hash(), before, "a refused value changes nothing");
        }
        let ev_id = by_id.apply(seat, &o.id).expect("offered option");
        let ev_value = by_value.apply_move(seat, &o.choice).expect("offered option");
        assert_eq!(ev_id, ev_value, "same events at step {steps}");
        assert_eq!(by_id.state_hash(), by_value.state_hash(), "same hash after step {steps}");
        steps += 1;
    }
    steps
}

#[test]
fn playing_by_value_and_by_id_gives_the_same_hash_at_every_step() {
    let mut steps = 0;
    for seed in 0..24u64 {
        let ships = if seed % 2 == 0 { 4 } else { 3 };
        let difficulty = [Difficulty::Casual, Difficulty::Hardened, Difficulty::Heroic][(seed % 3) as usize];
        steps += play_both(GameConfig::random(seed, ships, difficulty), seed * 7 + 1);
    }
    assert!(steps > 2_000, "only {steps} steps played");
}

#[test]
fn games_under_earlier_rules_revisions_agree_too() {
    for (seed, revision) in (100..106u64).map(|s| (s, 1)).chain((106..112u64).map(|s| (s, 3))) {
        let cfg = GameConfig { rules_revision: Some(revision), ..GameConfig::random(seed, 4, Difficulty::Casual) };
        play_both(cfg, seed);
    }
}
