//! The VII Legio search: a determinized flat Monte Carlo over the
//! heuristic's best options. Each sample is one full game drawn from the
//! seat's view (`Game::from_view`: other hands, objectives, deck orders,
//! face-down contacts redrawn); every candidate is applied to a copy of
//! the same sample and played on by the greedy heuristic, every seat for
//! itself, until each commander has had its turn again (or the game
//! ends), then valued for the searching seat only (`eval::utility`: its
//! rank, the 10-PX gate, then its margin). Candidates share the sample
//! and the playout's generator, so they are compared on paired
//! differences; the heuristic's favourite is kept unless another beats
//! it clearly.
//!
//! Budget: with `iterations` the search plays that many samples and is
//! deterministic for a seed; with `think_ms` it plays samples until the
//! deadline, checked before each sample and each playout decision (a
//! sample the deadline cuts is dropped whole), so a decision never runs
//! past its time by more than one playout step.

use super::eval::utility;
use super::heuristic::{SAMPLES, finish_payment, greedy, rank};
use super::{LegioPolicy, my_options};
use crate::budget::Budget;
use crate::rng::{Rng, mix};
use legio_engine::{Choice, Game, Seat, View};
use std::time::{Duration, Instant};

/// Candidates kept from the heuristic's ranking.
const WIDTH: usize = 4;
/// Playout decisions at most.
const PLAYOUT_CAP: usize = 800;
/// Samples when the budget names neither iterations nor time.
const DEFAULT_SAMPLES: u32 = 64;
/// How far another candidate must beat the favourite (utility units),
/// and by how many standard errors.
const MARGIN: f64 = 0.005;
const Z: f64 = 1.0;

/// The search policy.
pub struct Search {
    seed: u64,
    calls: u64,
}

impl Search {
    /// A search with its own seed.
    pub fn new(seed: u64) -> Search {
        Search { seed, calls: 0 }
    }
}

impl LegioPolicy for Search {
    fn choose(&mut self, view: &View, budget: &Budget) -> Option<String> {
        let start = Instant::now();
        let (me, opts) = my_options(view)?;
        self.calls += 1;
        let seed = mix(&[self.seed, self.calls, view.public.seq]);
        if opts.len() == 1 {
            return Some(opts[0].id.clone());
        }
        let ranked = rank(view, me, opts, SAMPLES, seed);
        let mut cands: Vec<usize> = ranked.iter().take(WIDTH).map(|&(i, _)| i).collect();
        if let Some(end) = opts.iter().position(|o| o.choice == Choice::DeclareEnd)
            && !cands.contains(&end)
        {
            cands.push(end);
        }
        if cands.len() == 1 {
            return Some(opts[cands[0]].id.clone());
        }
        let ids: Vec<&str> = cands.iter().map(|&i| opts[i].id.as_str()).collect();
        // A twentieth of the time (at most 25 ms) is kept back for the
        // last playout step and for handing the pick back.
        let deadline = budget.deadline(start).map(|d| {
            let keep = Duration::from_millis(budget.think_ms.unwrap_or(0) / 20).min(Duration::from_millis(25));
            d.checked_sub(keep).unwrap_or(d)
        });
        let samples = budget.iterations.unwrap_or(if deadline.is_some() { u32::MAX } else { DEFAULT_SAMPLES });
        let rows = run(view, me, &ids, seed, samples, deadline);
        let pick = pick(&rows);
        Some(opts[cands[pick]].id.clone())
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}

/// Plays up to `samples` samples (stopping at `deadline`), each a row of
/// one utility per candidate in `ids` order.
pub fn run(view: &View, me: Seat, ids: &[&str], seed: u64, samples: u32, deadline: Option<Instant>) -> Vec<Vec<f64>> {
    let mut rows = Vec::new();
    'samples: for k in 0..samples {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let base = Game::from_view(view, mix(&[seed, 0x5a3b, u64::from(k)]));
        let mut row = Vec::with_capacity(ids.len());
        for id in ids {
            let mut g = base.clone();
            if g.apply(me, id).is_err() {
                row.push(f64::NEG_INFINITY);
                continue;
            }
            finish_payment(&mut g, me);
            let mut rng = Rng::new(mix(&[seed, 0x9147, u64::from(k)]));
            if !playout(&mut g, &mut rng, deadline) {
                break 'samples;
            }
            row.push(utility(&g, me));
        }
        rows.push(row);
    }
    rows
}

/// Plays `g` on by the greedy heuristic until every commander has started
/// a turn once more after the current one, the game ends, or the cap.
/// `false` when the deadline cut it.
fn playout(g: &mut Game, rng: &mut Rng, deadline: Option<Instant>) -> bool {
    let n = g.players();
    let mut active = g.public().active;
    let mut turns = 0usize;
    for _ in 0..PLAYOUT_CAP {
        if g.outcome().is_some() {
            return true;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        let Some((seat, id)) = greedy(g, rng) else { return true };
        if g.apply(seat, &id).is_err() {
            return true;
        }
        if g.public().active != active {
            active = g.public().active;
            turns += 1;
            if turns > n {
                return true;
            }
        }
    }
    true
}

/// The candidate to play: the favourite (index 0) unless another's
/// paired advantage over it is above the margin by `Z` standard errors.
pub fn pick(rows: &[Vec<f64>]) -> usize {
    let Some(width) = rows.first().map(Vec::len) else { return 0 };
    if rows.len() < 2 || width < 2 {
        return 0;
    }
    let mut best = 0;
    let mut best_gain = 0.0;
    for c in 1..width {
        let diffs: Vec<f64> = rows.iter().map(|r| r[c] - r[0]).filter(|d| d.is_finite()).collect();
        if diffs.len() < 2 {
            continue;
        }
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt();
        if mean > MARGIN + Z * se && mean > best_gain {
            best = c;
            best_gain = mean;
        }
    }
    best
}
