//! A learned value of the start of a round: the chance that the crew
//! still wins from there, as a logistic model over the evaluation's terms
//! and the time left on the Corruption timeline.
//!
//! The hand-set evaluation (`eval.rs`) counts the work left in Actions but
//! not the time left to do it. The model below adds that: it is fitted on
//! the round starts of self-play games, labelled by how each game ended
//! (`xodus-ai fit-value`), and stored as data (`value.json` beside this file). The
//! paired search scores its playouts, which all stop at the start of a
//! round, with it when `XODUS_AI_TUNE=mcts_value=1`.

use crate::games::xodus::eval::terms;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use xodus_engine::Public;

/// The model's inputs, in order.
pub const FEATURES: [&str; 13] = [
    "bias",
    "reveal",
    "signal_work",
    "scraps",
    "ships",
    "sealed",
    "travel",
    "avatars",
    "fights",
    "spaces_left",
    "pace",
    "four_ships",
    "progress",
];

/// How many inputs the model has.
pub const N: usize = FEATURES.len();

/// One round start's inputs.
pub type Features = [f64; N];

/// Actions a ship is counted to spend per space of the timeline when the
/// pace is worked out (three Actions a turn).
const ACTIONS_PER_SPACE: f64 = 3.0;

/// What a state is worth to the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Position {
    /// The game is decided (or as good as: the Avatars' rush is over):
    /// won or lost.
    Decided(bool),
    /// Still open, with these inputs.
    Open(Features),
}

/// The model's inputs for `pb`. Each evaluation term is divided by ten (so
/// the weights stay near one); `spaces_left` is the spaces before the
/// Rise; `pace` is the work left (Signals, reveals, travel, scraps still
/// missing) per ship-Action the timeline leaves; `progress` is the share
/// of the Keys on the Rift, carried Keys counting half.
pub fn position(pb: &Public) -> Position {
    if let Some(o) = &pb.outcome {
        return Position::Decided(o.won);
    }
    // The embedded weights were fitted on terms priced without the
    // difficulty's Signal pool; keep its inputs as they were fitted.
    let named = terms(pb, crate::games::xodus::eval::SignalMix::ANY);
    let term = |name: &str| named.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    if let Some(v) = term("outcome") {
        return Position::Decided(v > 0.0);
    }
    let get = |name: &str| term(name).unwrap_or(0.0);
    let ships = pb.ships.iter().filter(|s| !s.defeated).count().max(1) as f64;
    let spaces_left = f64::from(pb.corruption.rise.saturating_sub(pb.corruption.position));
    let work = -(get("reveal") + get("signal_work") + get("travel") + get("scraps").min(0.0));
    let pace = work / (ships * ACTIONS_PER_SPACE * (spaces_left + 1.0));
    let keys = pb.signals.len().max(1) as f64;
    let on_rift: usize = pb.tiles.iter().map(|t| t.keys_activated.len()).sum();
    let carried: usize = pb.ships.iter().map(|s| s.keys.len()).sum();
    let progress = (on_rift as f64 + 0.5 * carried as f64) / keys;
    Position::Open([
        1.0,
        get("reveal") / 10.0,
        get("signal_work") / 10.0,
        get("scraps") / 10.0,
        get("ships") / 10.0,
        get("sealed") / 10.0,
        get("travel") / 10.0,
        get("avatars") / 10.0,
        (get("exposure") + get("fight")) / 10.0,
        spaces_left / 10.0,
        pace,
        if pb.ships.len() >= 4 { 1.0 } else { 0.0 },
        progress,
    ])
}

/// A fitted model: one weight per input, named so a stored file that no
/// longer matches the inputs is refused instead of misread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueModel {
    /// The input names, in `FEATURES` order.
    pub features: Vec<String>,
    /// One weight per input.
    pub weights: Vec<f64>,
}

/// Why a stored model cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ValueError {
    /// Not the JSON of a model.
    #[error("the value model is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The inputs differ from this build's.
    #[error("the value model's inputs {found:?} are not this build's {expected:?}")]
    Inputs {
        /// What the file names.
        found: Vec<String>,
        /// What this build computes.
        expected: Vec<String>,
    },
}

/// The model shipped with the agent.
const EMBEDDED: &str = include_str!("value.json");

impl ValueModel {
    /// Wraps fitted weights.
    pub fn new(weights: Features) -> ValueModel {
        ValueModel { features: FEATURES.iter().map(|s| s.to_string()).collect(), weights: weights.to_vec() }
    }

    /// Reads a model from its JSON, checking its inputs.
    pub fn from_json(text: &str) -> Result<ValueModel, ValueError> {
        let model: ValueModel = serde_json::from_str(text)?;
        let expected: Vec<String> = FEATURES.iter().map(|s| s.to_string()).collect();
        if model.features != expected || model.weights.len() != N {
            return Err(ValueError::Inputs { found: model.features, expected });
        }
        Ok(model)
    }

    /// The model shipped with the agent (`value.json` beside this file), read once.
    pub fn embedded() -> Option<&'static ValueModel> {
        static MODEL: OnceLock<Option<ValueModel>> = OnceLock::new();
        MODEL
            .get_or_init(|| match ValueModel::from_json(EMBEDDED) {
                Ok(m) => Some(m),
                Err(e) => {
                    tracing::warn!(%e, "the embedded value model is unusable; the search keeps the evaluation");
                    None
                }
            })
            .as_ref()
    }

    /// The chance of a win from these inputs.
    pub fn probability(&self, x: &Features) -> f64 {
        sigmoid(dot(&self.weights, x))
    }

    /// The chance of a win from `pb` (1 or 0 once decided).
    pub fn value(&self, pb: &Public) -> f64 {
        match position(pb) {
            Position::Decided(won) => f64::from(u8::from(won)),
            Position::Open(x) => self.probability(&x),
        }
    }
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z.clamp(-40.0, 40.0)).exp())
}

/// Fits a logistic model to `rows` (inputs, won) by Newton's method
/// (iteratively reweighted least squares) with an L2 penalty `ridge` on
/// every weight but the bias. Returns zero weights for no rows.
pub fn fit(rows: &[(Features, bool)], ridge: f64, rounds: usize) -> Features {
    let mut w = [0.0; N];
    if rows.is_empty() {
        return w;
    }
    for _ in 0..rounds {
        let mut grad = [0.0; N];
        let mut hess = [[0.0; N]; N];
        for (x, won) in rows {
            let p = sigmoid(dot(&w, x));
            let y = f64::from(u8::from(*won));
            let s = (p * (1.0 - p)).max(1e-9);
            for i in 0..N {
                grad[i] += (p - y) * x[i];
                for j in 0..N {
                    hess[i][j] += s * x[i] * x[j];
                }
            }
        }
        for i in 1..N {
            grad[i] += ridge * w[i];
            hess[i][i] += ridge;
        }
        hess[0][0] += 1e-9;
        let Some(step) = solve(hess, grad) else { break };
        let mut moved = 0.0f64;
        for i in 0..N {
            w[i] -= step[i];
            moved = moved.max(step[i].abs());
        }
        if moved < 1e-8 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// if `a` is singular.
fn solve(mut a: [[f64; N]; N], mut b: Features) -> Option<Features> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..N {
            let f = a[row][col] / pivot_row[col];
            for (v, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *v -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// Mean log-loss of predictions `p` against outcomes (lower is better).
pub fn log_loss(pairs: &[(f64, bool)]) -> f64 {
    if pairs.is_empty() {
        return 0.0;
    }
    let total: f64 = pairs
        .iter()
        .map(|&(p, won)| {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            if won { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum();
    total / pairs.len() as f64
}

/// Area under the ROC curve: the chance that a won game's score ranks
/// above a lost game's (ties count half). 0.5 is no better than a coin.
pub fn auc(pairs: &[(f64, bool)]) -> f64 {
    let mut sorted: Vec<(f64, bool)> = pairs.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut wins, mut i) = (0.0, 0.0, 0usize);
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j].0 == sorted[i].0 {
            j += 1;
        }
        // Ranks i+1 ..= j share their mean.
        let mean_rank = (i + 1 + j) as f64 / 2.0;
        for item in &sorted[i..j] {
            if item.1 {
                rank_sum += mean_rank;
                wins += 1.0;
            }
        }
        i = j;
    }
    let losses = sorted.len() as f64 - wins;
    if wins == 0.0 || losses == 0.0 {
        return 0.5;
    }
    (rank_sum - wins * (wins + 1.0) / 2.0) / (wins * losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn uniform(rng: &mut Rng) -> f64 {
        rng.below(1_000_001) as f64 / 1_000_000.0 * 2.0 - 1.0
    }

    #[test]
    fn the_fit_recovers_the_weights_that_made_the_data() {
        let mut truth = [0.0; N];
        truth[0] = -1.0;
        truth[2] = 2.0;
        truth[9] = -1.5;
        let mut rng = Rng::new(7);
        let rows: Vec<(Features, bool)> = (0..20_000)
            .map(|_| {
                let mut x = [0.0; N];
                x[0] = 1.0;
                for v in x.iter_mut().skip(1) {
                    *v = uniform(&mut rng);
                }
                let won = (rng.below(1_000_000) as f64 / 1_000_000.0) < sigmoid(dot(&truth, &x));
                (x, won)
            })
            .collect();
        let w = fit(&rows, 1e-3, 25);
        for i in 0..N {
            assert!((w[i] - truth[i]).abs() < 0.15, "weight {} is {:.3}, made with {:.3}", FEATURES[i], w[i], truth[i]);
        }
    }

    #[test]
    fn auc_ranks_and_log_loss_prefers_the_honest_forecast() {
        let perfect = [(0.9, true), (0.8, true), (0.2, false), (0.1, false)];
        assert!((auc(&perfect) - 1.0).abs() < 1e-12);
        let coin = [(0.5, true), (0.5, false)];
        assert!((auc(&coin) - 0.5).abs() < 1e-12);
        assert!(log_loss(&perfect) < log_loss(&[(0.5, true), (0.5, true), (0.5, false), (0.5, false)]));
    }

    #[test]
    fn the_embedded_model_reads_and_a_file_for_other_inputs_is_refused() {
        let model = ValueModel::embedded().expect("value.json matches this build's inputs");
        assert_eq!(model.weights.len(), N);
        let other = r#"{"features":["bias"],"weights":[0.0]}"#;
        assert!(matches!(ValueModel::from_json(other), Err(ValueError::Inputs { .. })));
        assert!(ValueModel::from_json("not json").is_err());
    }

    #[test]
    fn the_shipped_model_wants_time_left_and_work_done() {
        use xodus_engine::{Difficulty, Game, GameConfig};
        let model = ValueModel::embedded().expect("embedded model");
        let g = Game::new(GameConfig::random(3, 3, Difficulty::Casual)).expect("game");
        let Position::Open(x) = position(g.public()) else { panic!("a new game is open") };
        assert_eq!(x[0], 1.0);
        assert!(x[9] > 0.0, "a new game has spaces left on the timeline");
        let p = model.probability(&x);
        assert!(p > 0.0 && p < 1.0);
        let mut later = x;
        later[9] -= 0.3;
        later[10] *= 2.0;
        assert!(model.probability(&later) < p, "three spaces less for the same work must lower the chance");
        let mut closer = x;
        closer[2] += 1.0;
        assert!(model.probability(&closer) > p, "ten Actions of Signal work done must raise the chance");
    }
}
