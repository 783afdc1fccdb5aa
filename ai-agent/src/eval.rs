//! A static evaluation of a state from the team's point of view (the game
//! is cooperative, so there is one value for every seat). It scores the
//! goals of X-ODUS in order: Keys activated at the Main Rift, Keys carried
//! and how far from the Rift, Signals revealed and their progress, the
//! ships' health, energy and scraps, remaining actions, distance to the
//! next useful system, and the Corruption's advance. Used by the heuristic
//! (one-step look-ahead) and to cut MCTS playouts short.

use crate::board::Board;
use xodus_engine::content::{Challenge, Content, Face, SystemKind};
use xodus_engine::{AvatarPlace, Public};

/// Value of a won game; a lost one is its negative plus progress.
pub const WIN: f64 = 1000.0;

/// Work still needed to open a Signal's Key once revealed.
fn needed(challenge: &Challenge) -> f64 {
    match challenge {
        Challenge::Repairs { amount } | Challenge::Tribute { amount } | Challenge::Trial { amount, .. } => {
            f64::from(*amount).max(1.0)
        }
        Challenge::Guardian { .. } => 1.0,
    }
}

/// What the evaluation terms share: the board and each ship's distances.
struct Ctx<'a> {
    board: Board<'a>,
    /// Jump distances from each ship's system (by seat).
    dist: Vec<Vec<Option<u8>>>,
    /// Index of the Main Rift tile, once revealed.
    rift: Option<usize>,
}

impl<'a> Ctx<'a> {
    fn new(pb: &'a Public) -> Ctx<'a> {
        let board = Board::new(pb);
        let dist = pb.ships.iter().map(|s| if s.defeated { Vec::new() } else { board.distances(s.hex) }).collect();
        let rift = (0..board.len()).find(|&i| board.kind(board.tile(i).hex) == Some(SystemKind::MainRift));
        Ctx { board, dist, rift }
    }

    fn dist(&self, seat: u8, tile: usize) -> Option<u8> {
        self.dist.get(usize::from(seat)).and_then(|d| d.get(tile)).copied().flatten()
    }
}

/// Progress towards sealing the Rift, roughly in "Keys", in `0..=keys+1`.
fn progress(pb: &Public, cx: &Ctx) -> f64 {
    let c = Content::get();
    let board = &cx.board;
    let rift = cx.rift;
    let activated = rift.map(|i| board.tile(i).keys_activated.len()).unwrap_or(0) as f64;
    let mut p = activated * 1.0;
    // Keys carried by ships still alive: worth more as they near the Rift.
    for s in pb.ships.iter().filter(|s| !s.defeated && !s.keys.is_empty()) {
        let near = match rift {
            Some(r) => {
                let d = cx.dist(s.seat, r);
                match d {
                    Some(d) => 0.35 - 0.03 * f64::from(d.min(8)),
                    None => 0.05,
                }
            }
            None => 0.0,
        };
        p += s.keys.len() as f64 * (0.55 + near);
    }
    // Keys lying on wrecks still count a little (they can be scavenged).
    for s in pb.ships.iter().filter(|s| s.defeated) {
        p += s.keys.len() as f64 * 0.3;
    }
    for slot in pb.signals.iter().filter(|s| !s.solved) {
        if let Some(card) = slot.card.and_then(|i| c.signals.get(i as usize)) {
            let frac = (f64::from(slot.progress) / needed(&card.challenge)).min(1.0);
            p += 0.15 + 0.3 * frac;
        }
    }
    if rift.is_some() {
        p += 0.3;
    }
    p
}

/// Value of one ship's condition.
fn ship_value(pb: &Public, seat: usize) -> f64 {
    let Some(s) = pb.ships.get(seat) else { return 0.0 };
    if s.defeated {
        return -8.0;
    }
    let h = f64::from(s.health);
    // Concave in health: the first points matter most.
    let health = 1.2 * h.min(2.0) + 0.5 * (h - 2.0).max(0.0);
    // Energy only pays for rerolls and mods, which the engine does not have
    // yet: keep its value small.
    let energy = 0.08 * f64::from(s.energy_total);
    let scraps = 0.12 * f64::from(s.scraps.min(10));
    let damaged = -0.5 * s.damaged.len() as f64;
    let level = 0.1 * f64::from(s.level);
    health + energy + scraps + damaged + level
}

/// Distance penalty: each live ship should be near something useful (the
/// Rift with Keys, an open Signal, or the frontier to reveal more).
fn distance_value(pb: &Public, cx: &Ctx) -> f64 {
    let board = &cx.board;
    if board.is_empty() {
        return 0.0;
    }
    let rift = cx.rift;
    let frontier: Vec<bool> = (0..board.len()).map(|i| board.is_frontier(i)).collect();
    let open_signal =
        |i: usize| board.tile(i).key_marker.is_some_and(|k| pb.signals.iter().any(|s| s.key == k && !s.solved));
    let explorable = |i: usize| {
        let t = board.tile(i);
        t.exploration_marker && !matches!(board.kind(t.hex), Some(SystemKind::Corrupt) | None)
    };
    let mut v = 0.0;
    for s in pb.ships.iter().filter(|s| !s.defeated) {
        let Some(dist) = cx.dist.get(usize::from(s.seat)) else { continue };
        let nearest = |f: &dyn Fn(usize) -> bool| -> Option<u8> {
            (0..board.len()).filter(|&i| f(i)).filter_map(|i| dist.get(i).copied().flatten()).min()
        };
        let goal = if !s.keys.is_empty() {
            rift.and_then(|r| dist[r]).or_else(|| nearest(&|i| frontier[i]))
        } else {
            nearest(&open_signal).or_else(|| nearest(&|i| frontier[i]))
        };
        v -= 0.25 * f64::from(goal.unwrap_or(6).min(8));
        if let Some(d) = nearest(&explorable) {
            v -= 0.02 * f64::from(d.min(6));
        }
    }
    v
}

/// Danger from Avatars on the board: ships sharing a system with one, or
/// next to one, when weak.
fn danger_value(pb: &Public, cx: &Ctx) -> f64 {
    let mut v = 0.0;
    for a in &pb.avatars {
        let AvatarPlace::Board { hex } = a.place else { continue };
        let idx = cx.board.index(hex);
        for s in pb.ships.iter().filter(|s| !s.defeated) {
            let dist = idx.and_then(|i| cx.dist(s.seat, i));
            // Avatars hunt the nearest ships and move up to two systems;
            // fleeing one by disengaging advances the Corruption.
            let weak = if s.health <= 2 { 1.5 } else { 1.0 };
            match dist {
                Some(0) => v -= 3.0 * weak,
                Some(1) => v -= 1.5 * weak,
                Some(2) => v -= 0.7 * weak,
                _ => {}
            }
        }
    }
    v
}

/// Exposure: ships sitting in a non-pacified Enemy system (detection at
/// the start of their next turn, patrols) or engaged in a fight, worse
/// when weak.
fn exposure_value(pb: &Public, cx: &Ctx) -> f64 {
    let board = &cx.board;
    let mut v = 0.0;
    for s in pb.ships.iter().filter(|s| !s.defeated) {
        let weak = 1.0 + f64::from(3u8.saturating_sub(s.health));
        let hostile = board.kind(s.hex) == Some(SystemKind::Enemy)
            && board.index(s.hex).is_some_and(|i| board.tile(i).pacified.is_none());
        if hostile && !s.hidden {
            v -= 0.25 * weak;
        }
        let foes = pb.board_enemies.iter().filter(|e| e.hex == s.hex).count() as f64;
        if foes > 0.0 {
            v -= 0.2 * foes * weak;
        }
    }
    v
}

/// Expected hits and misses of one ship's Offense roll.
fn offense_odds(kind: xodus_engine::ShipKind) -> (f64, f64) {
    let c = Content::get();
    let mut hits = 0.0;
    let mut misses = 0.0;
    for color in c.ship(kind).dice {
        let faces = c.die(color);
        hits += faces.iter().filter(|f| **f == Face::Hit).count() as f64 / 6.0;
        misses += faces.iter().filter(|f| **f == Face::Miss).count() as f64 / 6.0;
    }
    (hits, misses)
}

/// The fight in progress, projected to its end: how many attacks the
/// group needs to clear the system at its expected hit rate, and what
/// the misses cost each ship meanwhile (a hopeless fight projects the
/// ships' destruction, which is what makes disengaging look right).
fn fight_value(pb: &Public) -> f64 {
    let Some(f) = &pb.fight else { return 0.0 };
    let c = Content::get();
    let members: Vec<&xodus_engine::Ship> =
        f.seats.iter().filter_map(|&s| pb.ships.get(usize::from(s))).filter(|s| !s.defeated).collect();
    if members.is_empty() {
        return 0.0;
    }
    let hits: f64 = members.iter().map(|s| offense_odds(s.kind).0).sum();
    let mut attacks = 0.0;
    for e in pb.board_enemies.iter().filter(|e| e.hex == f.hex) {
        if let Some(d) = c.enemies.get(usize::from(e.card)) {
            let left = f64::from(d.health.saturating_sub(e.damage));
            attacks += left / (hits - f64::from(d.shields)).max(0.15);
        }
    }
    for a in &pb.avatars {
        if a.place == (AvatarPlace::Board { hex: f.hex })
            && let Some(d) = c.avatars.get(usize::from(a.card))
        {
            let left = f64::from(d.health.saturating_sub(a.damage));
            attacks += left / (hits - f64::from(d.shields)).max(0.15);
        }
    }
    let attacks = attacks.min(30.0);
    let mut v = 0.0;
    for s in members {
        let loss = attacks * offense_odds(s.kind).1;
        let h = f64::from(s.health);
        let before = 1.2 * h.min(2.0) + 0.5 * (h - 2.0).max(0.0);
        let after_h = h - loss;
        let after = if after_h <= 0.0 { -8.0 } else { 1.2 * after_h.min(2.0) + 0.5 * (after_h - 2.0).max(0.0) };
        v += after - before;
    }
    v
}

/// The team's value of a state: large and positive when won, large and
/// negative when lost (less negative with more progress).
pub fn evaluate(pb: &Public) -> f64 {
    let keys = pb.signals.len().max(1) as f64;
    let cx = Ctx::new(pb);
    let prog = progress(pb, &cx);
    if let Some(o) = &pb.outcome {
        return if o.won { WIN - f64::from(o.round) } else { -WIN + 10.0 * prog / keys };
    }
    let ships: f64 = (0..pb.ships.len()).map(|i| ship_value(pb, i)).sum();
    let corruption = -1.2 * f64::from(pb.corruption.position);
    // Revealing the map is how Signals and the Main Rift are found.
    let revealed = 0.25 * (pb.tiles.len() as f64).min(24.0);
    let found = 0.3 * pb.tiles.iter().filter(|t| t.key_marker.is_some()).count() as f64;
    10.0 * prog
        + ships
        + corruption
        + revealed
        + found
        + distance_value(pb, &cx)
        + danger_value(pb, &cx)
        + exposure_value(pb, &cx)
        + fight_value(pb)
}

/// Maps an evaluation to a win-like reward in `[0, 1]` for search.
pub fn to_reward(value: f64) -> f64 {
    if value >= WIN / 2.0 {
        return 1.0;
    }
    if value <= -WIN / 2.0 {
        return 0.0;
    }
    // Unfinished: squash the progress-dominated score into (0.05, 0.95).
    let x = value / 25.0;
    0.05 + 0.9 / (1.0 + (-x).exp())
}
