//! Property tests over many seeds: random legal play always ends in a win
//! or a loss within a bound, never panics, keeps its invariants, replays
//! to the same hash, and views leak no hidden order.

use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

/// Minimal deterministic generator for the tests' own choices.
struct Pick(u64);
impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays a random legal game; returns the ids chosen (seat, id).
fn play_random(cfg: GameConfig, pick_seed: u64, check: bool) -> (Game, Vec<(u8, String)>) {
    let mut g = Game::new(cfg).expect("valid config");
    let mut p = Pick(pick_seed | 1);
    let mut log = Vec::new();
    for _ in 0..20_000 {
        if g.outcome().is_some() {
            break;
        }
        let d = g.decision();
        assert!(!d.options.is_empty(), "no legal option before the end: {:?}", g.public().pending);
        let o = &d.options[p.next(d.options.len())];
        let seat = o.seats[p.next(o.seats.len())];
        let id = o.id.clone();
        let events = g.apply(seat, &id).unwrap_or_else(|e| panic!("offered option refused: {e}"));
        // An engagement is told once (an Avatar's arrival engages the ships
        // it finds, and the fight it starts does not say it again); two
        // Avatars that stop by the same ships each tell their own.
        for pair in events.windows(2) {
            let twice = matches!(pair[0], xodus_engine::Event::Engaged { .. }) && pair[0] == pair[1];
            assert!(!twice, "the same engagement told twice in a row: {events:?}");
        }
        log.push((seat, id));
        if check {
            invariants(&g);
        }
    }
    (g, log)
}

fn invariants(g: &Game) {
    let pb = g.public();
    // No two tiles on one space; every revealed tile is joined by a lane.
    for (i, t) in pb.tiles.iter().enumerate() {
        assert!(pb.tiles[..i].iter().all(|o| o.hex != t.hex), "overlapping tiles");
    }
    // Component counts conserved: 16 Enemies, 16 Damaged cards.
    let v = g.view(Viewer::Spectator);
    let enemies =
        v.enemy_deck_size as usize + v.enemy_reserve_size as usize + pb.enemy_discard.len() + pb.board_enemies.len();
    assert_eq!(enemies, 16, "enemy cards conserved");
    let damaged = v.damaged_deck_size as usize
        + pb.damaged_discard.len()
        + pb.ships.iter().map(|s| s.damaged.len()).sum::<usize>();
    assert_eq!(damaged, 16, "damaged cards conserved");
    let pending_module = matches!(pb.pending, xodus_engine::Pending::GiveModule { .. }) as usize;
    let modules = v.module_deck_size as usize
        + v.precursor_deck_size as usize
        + pb.module_discard.len()
        + pb.ships.iter().map(|s| s.modules.len()).sum::<usize>()
        + pb.allies.iter().map(|a| a.offer.len()).sum::<usize>()
        + pending_module;
    assert_eq!(modules, 32, "modules conserved");
    let pacify_on_board = pb.tiles.iter().filter(|t| t.pacified.is_some()).count();
    assert_eq!(pacify_on_board + pb.pacify_supply as usize, 6, "pacify markers conserved");
    let keys: usize = pb.ships.iter().map(|s| s.keys.len()).sum::<usize>()
        + pb.tiles.iter().map(|t| t.keys_activated.len() + t.key_marker.is_some() as usize).sum::<usize>();
    assert!(keys <= pb.signals.len(), "no Key appears twice");
    let in_hand = matches!(pb.pending, xodus_engine::Pending::Orientation { .. }) as usize;
    assert_eq!(pb.tiles.len() + v.stack_remaining as usize + pb.removed_tiles.len() + in_hand, 31, "tiles conserved");
}

#[test]
fn random_games_end_without_panic() {
    let mut wins = 0;
    let mut ends = 0;
    for seed in 0..150u64 {
        let ships = if seed % 2 == 0 { 4 } else { 3 };
        let diff = Difficulty::ALL[(seed % 3) as usize];
        let cfg = GameConfig::random(seed, ships, diff);
        let (g, _) = play_random(cfg, seed * 7 + 1, seed < 20);
        let o = g.outcome().expect("game ended");
        ends += 1;
        wins += o.won as u32;
    }
    assert_eq!(ends, 150);
    assert!(wins <= 3, "random play should almost never win ({wins})");
}

#[test]
fn replay_gives_same_hash() {
    for seed in 0..20u64 {
        let cfg = GameConfig::random(seed, 4, Difficulty::Casual);
        let (g, log) = play_random(cfg.clone(), seed + 99, false);
        let mut r = Game::new(cfg).unwrap();
        for (seat, id) in &log {
            r.apply(*seat, id).unwrap();
        }
        assert_eq!(g.state_hash(), r.state_hash());
    }
}

#[test]
fn games_under_earlier_rules_revisions_still_play_and_replay() {
    // Stored configurations keep the revision they were created under
    // (`None` before revisions existed): their rules paths must still play
    // to an end and replay to the same hash.
    for (i, revision) in [None, Some(1), Some(2), Some(3)].into_iter().enumerate() {
        for seed in 0..10u64 {
            let mut cfg = GameConfig::random(seed + 1000 * i as u64, 4 - (seed % 2) as usize, Difficulty::Casual);
            cfg.rules_revision = revision;
            let (g, log) = play_random(cfg.clone(), seed * 3 + 5, seed < 3);
            assert!(g.outcome().is_some(), "game ended");
            let mut r = Game::new(cfg).unwrap();
            for (seat, id) in &log {
                r.apply(*seat, id).unwrap();
            }
            assert_eq!(g.state_hash(), r.state_hash());
        }
    }
}
