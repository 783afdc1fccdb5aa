//! Engine benchmark (`cargo bench -p legio-engine`): random full games per
//! second, decisions per second, and the cost of cloning a state, of
//! sampling a state from a view, of listing options and of hashing, on one
//! core. Prints figures; asserts nothing.

use legio_engine::{Game, GameConfig, Viewer};
use std::hint::black_box;
use std::time::Instant;

fn random_game(seed: u64, players: u8) -> (Game, u64) {
    let mut g = Game::new(GameConfig::new(players, seed)).expect("valid config");
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut n = 0;
    while g.outcome().is_none() {
        let d = g.decision();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let id = d.options[(x % d.options.len() as u64) as usize].id.clone();
        g.apply(d.seat.expect("decider"), &id).expect("offered option is legal");
        n += 1;
    }
    (g, n)
}

fn main() {
    for s in 0..20 {
        black_box(random_game(s, 4));
    }
    for players in [2u8, 3, 4] {
        let games = 300u64;
        let t = Instant::now();
        let mut decisions = 0;
        for s in 0..games {
            decisions += random_game(1_000 + s, players).1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{players} commanders: {:>8.0} games/s, {:>9.0} decisions/s ({:.0} decisions/game, random legal play)",
            games as f64 / secs,
            decisions as f64 / secs,
            decisions as f64 / games as f64
        );
    }

    // A mid-game state: 4 commanders, 250 random decisions in.
    let mut g = Game::new(GameConfig::new(4, 7)).expect("valid config");
    let mut x = 7u64;
    for _ in 0..250 {
        if g.outcome().is_some() {
            break;
        }
        let d = g.decision();
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let id = d.options[((x >> 33) % d.options.len() as u64) as usize].id.clone();
        g.apply(d.seat.expect("decider"), &id).expect("legal");
    }
    let n = 200_000;
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).clone());
    }
    println!("state clone:     {:>8.0} ns/clone", t.elapsed().as_nanos() as f64 / n as f64);
    let n = 20_000;
    let view = g.view(Viewer::Seat(0));
    let t = Instant::now();
    for i in 0..n {
        black_box(Game::from_view(black_box(&view), i));
    }
    println!("sample:          {:>8.0} ns/Game::from_view (seat 0's view)", t.elapsed().as_nanos() as f64 / n as f64);
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).view(Viewer::Seat(0)));
    }
    println!("view:            {:>8.0} ns/view(seat)", t.elapsed().as_nanos() as f64 / n as f64);
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).decision());
    }
    println!(
        "legal options:   {:>8.0} ns/decision() ({} options, {})",
        t.elapsed().as_nanos() as f64 / n as f64,
        g.decision().options.len(),
        g.decision().kind
    );
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).state_hash());
    }
    println!("state hash:      {:>8.0} ns/state_hash()", t.elapsed().as_nanos() as f64 / n as f64);
}
