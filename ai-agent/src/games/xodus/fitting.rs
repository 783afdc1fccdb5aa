//! `xodus-ai fit-value`: plays self-play games at every table size and
//! difficulty asked, fits the value model (`value.rs`) on three games in
//! four and reports how well it and the hand-set evaluation tell won
//! games from lost ones on the fourth.

use crate::games::xodus::results::GameResult;
use crate::games::xodus::selfplay::{self, SelfplayConfig, SelfplayError};
use crate::games::xodus::value::{Features, ValueModel, auc, fit, log_loss};
use serde::Serialize;

/// Newton steps of the fit.
const FIT_ROUNDS: usize = 30;

/// How the fitted model did on the held-out games.
#[derive(Clone, Debug, Serialize)]
pub struct FitReport {
    /// Games played in all.
    pub games: usize,
    /// Games won among them.
    pub wins: usize,
    /// Round starts learned from.
    pub train_rows: usize,
    /// Round starts held out (every fourth game).
    pub test_rows: usize,
    /// Held-out log-loss of the model.
    pub log_loss: f64,
    /// Held-out log-loss of always forecasting the training win rate.
    pub log_loss_base_rate: f64,
    /// Held-out area under the ROC curve of the model.
    pub auc: f64,
    /// The same for the hand-set evaluation.
    pub auc_evaluation: f64,
    /// The fitted model.
    pub model: ValueModel,
}

/// Plays every configuration in `settings` (policy, ships, difficulty,
/// seeds from the config) and fits the model on games whose index is not
/// 3 mod 4, with L2 penalty `ridge`; `progress` is called once per game.
pub fn fit_value(
    settings: &[SelfplayConfig],
    ridge: f64,
    progress: &(dyn Fn() + Sync),
) -> Result<FitReport, SelfplayError> {
    let mut train: Vec<(Features, bool)> = Vec::new();
    let mut test: Vec<(Features, f64, bool)> = Vec::new();
    let (mut games, mut wins) = (0, 0);
    for cfg in settings {
        let results: Vec<GameResult> = selfplay::run(cfg, &|_| progress())?;
        for (i, r) in results.iter().enumerate() {
            games += 1;
            wins += usize::from(r.won);
            for (x, hand) in &r.round_starts {
                if i % 4 == 3 {
                    test.push((*x, *hand, r.won));
                } else {
                    train.push((*x, r.won));
                }
            }
        }
    }
    let weights = fit(&train, ridge, FIT_ROUNDS);
    let model = ValueModel::new(weights);
    let rate = train.iter().filter(|r| r.1).count() as f64 / train.len().max(1) as f64;
    let predicted: Vec<(f64, bool)> = test.iter().map(|(x, _, won)| (model.probability(x), *won)).collect();
    let base: Vec<(f64, bool)> = test.iter().map(|(_, _, won)| (rate, *won)).collect();
    let hand: Vec<(f64, bool)> = test.iter().map(|(_, h, won)| (*h, *won)).collect();
    Ok(FitReport {
        games,
        wins,
        train_rows: train.len(),
        test_rows: test.len(),
        log_loss: log_loss(&predicted),
        log_loss_base_rate: log_loss(&base),
        auc: auc(&predicted),
        auc_evaluation: auc(&hand),
        model,
    })
}
