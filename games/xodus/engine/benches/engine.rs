//! Engine benchmark (`cargo bench -p xodus-engine`): random full 4-ship
//! games per second and decisions per second on one core, by the labelled
//! path (decision() and apply by id, as clients play) and by the fast path
//! for search (legal() and apply_move by value, the same games), with the
//! fast path's ratio to the 1,000,000 decisions/s aim of issue 30; then
//! the cost of cloning a state, sampling one from a view, decision(),
//! legal() and the state hash. Prints figures; asserts nothing.

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

/// The same random game as [`random_game`] (the same picks), played by
/// the fast path.
fn random_game_fast(seed: u64) -> (Game, u64) {
    let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid config");
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut n = 0;
    while g.outcome().is_none() {
        let legal = g.legal();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = &legal.moves[(x % legal.moves.len() as u64) as usize];
        let seat = m.seats.as_slice()[0];
        g.apply_move(seat, &m.choice).expect("listed choice is legal");
        n += 1;
    }
    (g, n)
}

/// The decisions per second the fast path aims at (issue 30).
const AIM: f64 = 1_000_000.0;

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
    let labelled = decisions as f64 / secs;
    println!("decisions (apply):   {labelled:>10.0} decisions/s (labelled: decision() built, applied by id)");

    // The same games by the fast path.
    for s in 0..20 {
        black_box(random_game_fast(s));
    }
    let t = Instant::now();
    let mut fast_decisions = 0;
    for s in 0..games {
        let (g, n) = random_game_fast(1_000 + s);
        fast_decisions += n;
        black_box(g);
    }
    let fast_secs = t.elapsed().as_secs_f64();
    assert_eq!(fast_decisions, decisions, "the fast path plays the same games");
    let fast = fast_decisions as f64 / fast_secs;
    println!("random full games:   {:>10.0} games/s by the fast path", games as f64 / fast_secs);
    println!(
        "decisions (fast):    {fast:>10.0} decisions/s (legal() and apply_move by value): {:.2}x the labelled path, {:.2} of the aim of {AIM:.0}",
        fast / labelled,
        fast / AIM
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
        black_box(black_box(&g).legal());
    }
    println!(
        "legal moves:         {:>10.0} ns/legal() ({} moves)",
        t.elapsed().as_nanos() as f64 / n as f64,
        g.legal().moves.len()
    );
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).state_hash());
    }
    println!("state hash:          {:>10.0} ns/state_hash()", t.elapsed().as_nanos() as f64 / n as f64);
    println!("state size:          {:>10} bytes inline (Game), heap not counted", std::mem::size_of::<Game>());
    black_box(mid_states);
}
