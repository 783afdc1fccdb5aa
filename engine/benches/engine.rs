//! Engine benchmark (`cargo bench -p xodus-engine`): random full games per
//! second, decisions per second, and the cost of cloning a state and of
//! sampling a state from a view, on one core. Prints figures; asserts
//! nothing.

use std::hint::black_box;
use std::time::Instant;
use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

fn random_game(seed: u64) -> (Game, u64) {
    let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid config");
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut n = 0;
    while g.outcome().is_none() {
        let d = g.decision();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let o = &d.options[(x % d.options.len() as u64) as usize];
        let (seat, id) = (o.seats[0], o.id.clone());
        g.apply(seat, &id).expect("offered option is legal");
        n += 1;
    }
    (g, n)
}

fn main() {
    // Warm-up, then timed games.
    for s in 0..20 {
        black_box(random_game(s));
    }
    let games = 2_000u64;
    let t = Instant::now();
    let mut decisions = 0;
    let mut mid_states = Vec::new();
    for s in 0..games {
        let (g, n) = random_game(1_000 + s);
        decisions += n;
        if s % 100 == 0 {
            mid_states.push(g);
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "random full games:   {:>10.0} games/s ({games} games, {:.1} decisions/game)",
        games as f64 / secs,
        decisions as f64 / games as f64
    );
    println!(
        "decisions (apply):   {:>10.0} decisions/s (legal options enumerated and applied)",
        decisions as f64 / secs
    );

    // Clone cost on a mid-game state.
    let mut g = Game::new(GameConfig::random(7, 4, Difficulty::Casual)).expect("valid config");
    for _ in 0..60 {
        if g.outcome().is_some() {
            break;
        }
        let d = g.decision();
        let o = &d.options[d.options.len() / 2];
        let (seat, id) = (o.seats[0], o.id.clone());
        g.apply(seat, &id).expect("legal");
    }
    let n = 200_000;
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).clone());
    }
    let clone_ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!("state clone:         {:>10.0} ns/clone ({} tiles on the board)", clone_ns, g.public().tiles.len());

    let n = 20_000;
    let view = g.view(Viewer::Seat(0));
    let t = Instant::now();
    for i in 0..n {
        black_box(Game::from_view(black_box(&view), i));
    }
    println!("determinization:     {:>10.0} ns/sample (Game::from_view)", t.elapsed().as_nanos() as f64 / n as f64);
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).decision());
    }
    println!(
        "legal options:       {:>10.0} ns/decision() ({} options)",
        t.elapsed().as_nanos() as f64 / n as f64,
        g.decision().options.len()
    );
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).state_hash());
    }
    println!("state hash:          {:>10.0} ns/state_hash()", t.elapsed().as_nanos() as f64 / n as f64);
    println!("state size:          {:>10} bytes inline (Game), heap not counted", std::mem::size_of::<Game>());
    black_box(mid_states);
}
