//! Long random-play run (a soak test, not part of the suite):
//! `cargo run --release -p legio-engine --example soak -- 20000`. Plays
//! random legal games at 2, 3 and 4 commanders, checks that each ends and
//! that cards are conserved, and prints how games ended (games cut by the
//! round limit are counted apart: they are truncated, not finished).

use legio_engine::{Game, GameConfig};
use std::collections::BTreeMap;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let mut causes: BTreeMap<String, u32> = BTreeMap::new();
    let (mut max_dec, mut total_dec, mut rounds, mut winners, mut shared) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut missions_pc = 0u64;
    for seed in 0..n {
        let players = 2 + (seed % 3) as u8;
        let mut g = Game::new(GameConfig::new(players, seed)).expect("config");
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut dec = 0u64;
        while g.outcome().is_none() {
            let d = g.decision();
            assert!(!d.options.is_empty(), "seed {seed}: no options at {:?}", g.public().pending);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Half the games play uniformly at random; the other half, three
            // times in four, avoid the passive options (ending the turn,
            // declining, giving up), which exercises the real end triggers.
            const PASSIVE: [&str; 6] =
                ["end_turn", "draw:0", "decline", "abort_landing", "leave_nobody", "dismiss_nobody"];
            let active: Vec<_> = d.options.iter().filter(|o| !PASSIVE.contains(&o.id.as_str())).collect();
            let o = if seed % 2 == 1 && !active.is_empty() && (x >> 40) % 4 != 0 {
                active[(x % active.len() as u64) as usize]
            } else {
                &d.options[(x % d.options.len() as u64) as usize]
            };
            let seat = d.seat.expect("decider");
            let events = g.apply(seat, &o.id.clone()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            missions_pc += events
                .iter()
                .filter(|e| matches!(e, legio_engine::Event::Pc { reason, .. } if reason == "mission"))
                .count() as u64;
            dec += 1;
            assert!(dec < 50_000, "seed {seed}: game does not end");
        }
        assert_eq!(g.exploration_cards_everywhere(), 57, "seed {seed}");
        assert_eq!(g.extrasolar_cards_everywhere(), 50, "seed {seed}");
        let o = g.outcome().expect("over");
        // A game cut by the safety limit is not a finished game.
        let cause = if o.truncated { format!("{} (truncated)", o.cause) } else { o.cause.clone() };
        *causes.entry(cause).or_insert(0) += 1;
        winners += u64::from(!o.winners.is_empty());
        shared += u64::from(o.winners.len() > 1);
        rounds += u64::from(o.round);
        max_dec = max_dec.max(dec);
        total_dec += dec;
    }
    println!("{n} games: end causes {causes:?}");
    println!(
        "decisions: {:.0} per game, longest {max_dec}; rounds {:.1} per game; games with a winner {winners}, shared {shared}; mission PC awards {missions_pc}",
        total_dec as f64 / n as f64,
        rounds as f64 / n as f64
    );
}
