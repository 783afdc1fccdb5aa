use xodus_engine::{Difficulty, Game, GameConfig};
fn main() {
    let mut causes = std::collections::BTreeMap::new();
    let mut rounds = 0;
    let mut decisions = 0;
    let mut tiles = 0;
    let mut keys = 0;
    let n = 200;
    for seed in 0..n {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).unwrap();
        let mut x = seed * 2654435761 + 1;
        while g.outcome().is_none() {
            let d = g.decision();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let o = &d.options[(x % d.options.len() as u64) as usize];
            g.apply(o.seats[0], &o.id.clone()).unwrap();
            decisions += 1;
        }
        let o = g.outcome().unwrap();
        *causes.entry(o.cause).or_insert(0) += 1;
        rounds += o.round;
        tiles += g.public().tiles.len();
        keys += g.public().ships.iter().map(|s| s.keys.len()).sum::<usize>();
    }
    println!(
        "{causes:?} rounds {} decisions {} tiles {} keys {}",
        rounds as f64 / n as f64,
        decisions as f64 / n as f64,
        tiles as f64 / n as f64,
        keys as f64 / n as f64
    );
}
