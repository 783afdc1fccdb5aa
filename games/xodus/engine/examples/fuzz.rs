//! Long random-play run over many seeds and configurations (a soak test,
//! not part of the suite): `cargo run --release --example fuzz -- 20000`.
use xodus_engine::{Difficulty, Game, GameConfig};
fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let mut causes = std::collections::BTreeMap::new();
    let mut max_dec = 0;
    for seed in 0..n {
        let cfg = GameConfig::random(seed, 3 + (seed % 2) as usize, Difficulty::ALL[(seed % 3) as usize]);
        let mut g = Game::new(cfg).expect("config");
        let mut x = seed.wrapping_mul(0x9e3779b97f4a7c15) | 1;
        let mut dec = 0;
        while g.outcome().is_none() {
            let d = g.decision();
            assert!(!d.options.is_empty(), "seed {seed}: no options at {:?}", g.public().pending);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let o = &d.options[(x % d.options.len() as u64) as usize];
            let s = o.seats[(x >> 32) as usize % o.seats.len()];
            g.apply(s, &o.id.clone()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            dec += 1;
            assert!(dec < 50_000, "seed {seed}: game does not end");
        }
        max_dec = max_dec.max(dec);
        *causes.entry(g.outcome().map(|o| o.cause).unwrap_or_default()).or_insert(0) += 1;
    }
    println!("{n} games: {causes:?}, longest {max_dec} decisions");
}
