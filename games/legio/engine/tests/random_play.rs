//! Property tests over many seeds at 2, 3 and 4 commanders: random legal
//! play always ends, never panics, never offers an empty decision before
//! the end, conserves every card and token, never calls undoable a step
//! that moved something hidden from its decider, and replays to the same
//! hash.

use legio_engine::{Game, GameConfig, Viewer, undoable};

/// Minimal deterministic generator for the tests' own choices.
pub struct Pick(pub u64);
impl Pick {
    pub fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Options that let a game idle.
const PASSIVE: [&str; 6] = ["end_turn", "draw:0", "decline", "abort_landing", "leave_nobody", "dismiss_nobody"];

/// Plays a random legal game; returns it and its log of (seat, id).
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
        for (i, o) in d.options.iter().enumerate() {
            assert!(d.options[..i].iter().all(|p| p.id != o.id), "duplicate option id {}", o.id);
        }
        let seat = d.seat.expect("a decider before the end");
        // Odd seeds mostly avoid the passive options, so that missions and
        // the real end triggers are exercised as well as idle play.
        let active: Vec<&str> = d.options.iter().map(|o| o.id.as_str()).filter(|id| !PASSIVE.contains(id)).collect();
        let id = if pick_seed % 2 == 1 && !active.is_empty() && p.next(4) != 0 {
            active[p.next(active.len())].to_string()
        } else {
            d.options[p.next(d.options.len())].id.clone()
        };
        let unseen = g.unseen_hash(seat);
        let events = g.apply(seat, &id).unwrap_or_else(|e| panic!("offered option refused: {e}"));
        if undoable(&events) {
            assert_eq!(g.unseen_hash(seat), unseen, "an undoable step moved something {seat} cannot see: {id}");
        }
        log.push((seat, id));
        if check {
            conserved(&g);
        }
    }
    assert!(g.outcome().is_some(), "the game ended within 20 000 decisions");
    (g, log)
}

/// Every card and token is somewhere, exactly once.
fn conserved(g: &Game) {
    assert_eq!(g.exploration_cards_everywhere(), 57, "Exploration cards");
    assert_eq!(g.extrasolar_cards_everywhere(), 50, "Extrasolar cards");
    assert_eq!(g.imperator_cards_everywhere(), 30, "Imperator cards");
    assert_eq!(g.objectives_everywhere(), 12, "Secret Objectives");
    assert_eq!(g.experts_everywhere(), [8, 10, 8], "expert tokens");
    let pb = g.public();
    let active = pb.planets.iter().flatten().count();
    assert!(active <= 5, "five active-planet tokens");
    assert!(pb.explored.iter().map(|&e| usize::from(e)).sum::<usize>() <= 50, "explored-planet tokens");
    let v = g.view(Viewer::Spectator);
    for (i, s) in pb.ships.iter().enumerate() {
        assert!(s.px <= 15);
        if i != usize::from(pb.active) {
            assert_eq!(v.counts.hands[i], 0, "only the active commander holds cards");
        }
    }
}

#[test]
fn random_games_at_two_three_and_four_end_and_conserve_everything() {
    let mut causes = std::collections::BTreeMap::new();
    for seed in 0..24u64 {
        let players = 2 + (seed % 3) as u8;
        let (g, _) = play_random(GameConfig::new(players, seed), seed * 32 + 6 + seed % 2, seed < 9);
        let o = g.outcome().expect("over");
        // A game cut by the safety limit is not a finished game: no ranking.
        let cause = if o.truncated { format!("{} (truncated)", o.cause) } else { o.cause.clone() };
        *causes.entry(cause).or_insert(0) += 1;
        assert_eq!(o.truncated, o.cause == "round_limit", "only the limit truncates");
        let ranked = if o.truncated { 0 } else { usize::from(players) };
        assert_eq!(o.ranking.len(), ranked, "a finished game ranks every seat, a truncated one none");
        for w in &o.winners {
            assert!(g.public().ships[usize::from(*w)].px >= 10, "winners have 10 PX");
        }
    }
    eprintln!("end causes: {causes:?}");
}

#[test]
fn replaying_the_choices_gives_the_same_hash() {
    for seed in [3u64, 10, 17] {
        let cfg = GameConfig::new(2 + (seed % 3) as u8, seed);
        let (g, log) = play_random(cfg.clone(), seed, false);
        let mut r = Game::new(cfg).expect("config");
        for (seat, id) in &log {
            r.apply(*seat, id).expect("replayed choice");
        }
        assert_eq!(r.state_hash(), g.state_hash());
        assert_eq!(r.outcome(), g.outcome());
    }
}

#[test]
fn any_option_string_is_refused_without_change_or_panic() {
    let mut g = Game::new(GameConfig::new(3, 5)).expect("config");
    let mut p = Pick(99);
    for step in 0..400 {
        if g.outcome().is_some() {
            break;
        }
        let before = g.state_hash();
        let d = g.decision();
        let seat = d.seat.expect("decider");
        for junk in ["", "end_turn ", "draw:99", "explore:e99", "land:omega", "\u{0}", "discard:", "x_card:a01"] {
            if d.options.iter().any(|o| o.id == junk) {
                continue;
            }
            assert!(g.apply(seat, junk).is_err());
            assert_eq!(g.state_hash(), before, "a refused choice changes nothing (step {step})");
        }
        let other = (seat + 1) % 3;
        assert!(g.apply(other, &d.options[0].id).is_err(), "only the decider may decide");
        assert_eq!(g.state_hash(), before);
        // Refusals leak nothing: a non-decider's text does not depend on
        // the id, and no text names one of the decider's options.
        let garbage = g.apply(other, "zzz").expect_err("refused").to_string();
        let own = g.apply(seat, "zzz").expect_err("refused").to_string();
        for o in &d.options {
            assert_eq!(g.apply(other, &o.id).expect_err("refused").to_string(), garbage);
            assert!(!garbage.contains(&o.id) && !own.contains(&o.id), "'{}' named in '{own}'", o.id);
        }
        let id = d.options[p.next(d.options.len())].id.clone();
        g.apply(seat, &id).expect("legal");
    }
}
