//! VII Legio self-play: whole games on the engine with no server, each
//! seat played by its own policy from its own view (the true game is only
//! the referee). The policies given are seated in order and rotated one
//! seat further each game, so every policy plays every seat; game `i`
//! uses seed `seed + i`. Games run on worker threads pulling game numbers
//! from a shared counter; results are put back in game order.

use super::LegioKind;
use super::LegioPolicy;
use crate::budget::Budget;
use crate::rng::mix;
use crate::stats::{mean_ci95, percentile, wilson95};
use legio_engine::{Game, GameConfig, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// Decisions at most per game (the engine's round limit comes first).
pub const MAX_DECISIONS: u64 = 50_000;

/// What to play.
#[derive(Clone, Debug)]
pub struct LegioSelfplay {
    /// One policy per seat, seated in this order in game 0.
    pub policies: Vec<LegioKind>,
    /// Number of games.
    pub games: usize,
    /// Base seed.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Thinking budget per decision.
    pub budget: Budget,
}

/// Why a game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum LegioSelfplayError {
    /// The engine refused the configuration.
    #[error("invalid game configuration: {0}")]
    Config(#[from] legio_engine::ConfigError),
}

/// One seat's part in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// The policy's command-line name.
    pub policy: &'static str,
    /// Among the winners (a shared victory counts; a truncated game never).
    pub won: bool,
    /// 1-based place in the ranking (last when truncated).
    pub rank: usize,
    /// Final PC.
    pub score: i64,
    /// Final PX.
    pub px: u8,
    /// Promoted to the Spatha (12 PC and back at the Star Base).
    pub promoted: bool,
    /// Imperator calls made.
    pub imperator_calls: u8,
    /// Went to Sector X.
    pub sector_x: bool,
    /// Milliseconds per decision this seat took.
    pub think_ms: Vec<f64>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct LegioGame {
    /// The end's cause ("declared", "fifteen_px", "imperator_25", ...).
    pub cause: String,
    /// Cut by the round limit: no ranking, no winner.
    pub truncated: bool,
    /// The round it ended in.
    pub rounds: u32,
    /// Decisions taken.
    pub decisions: u64,
    /// Per seat, in seat order.
    pub seats: Vec<SeatResult>,
}

/// Plays game number `index`.
pub fn play_game(cfg: &LegioSelfplay, index: usize) -> Result<LegioGame, LegioSelfplayError> {
    let n = cfg.policies.len();
    let game_seed = cfg.seed.wrapping_add(index as u64);
    let config = GameConfig::new(n as u8, game_seed);
    config.validate()?;
    let mut game = Game::new(config)?;
    let kinds: Vec<LegioKind> = (0..n).map(|s| cfg.policies[(s + n - index % n) % n]).collect();
    let mut policies: Vec<Box<dyn LegioPolicy>> =
        kinds.iter().enumerate().map(|(s, k)| super::build(*k, mix(&[game_seed, s as u64, 0x1e]))).collect();
    let mut think: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut decisions = 0u64;
    while game.outcome().is_none() && decisions < MAX_DECISIONS {
        let Some(seat) = game.decision().seat else { break };
        let view = game.view(Viewer::Seat(seat));
        let start = Instant::now();
        let picked = policies[usize::from(seat)].choose(&view, &cfg.budget);
        think[usize::from(seat)].push(start.elapsed().as_secs_f64() * 1000.0);
        decisions += 1;
        let first = || view.decision.as_ref().and_then(|d| d.options.first()).map(|o| o.id.clone());
        let Some(id) = picked.or_else(first) else { break };
        if let Err(e) = game.apply(seat, &id) {
            tracing::warn!(game = index, %e, "policy picked a refused option; taking the first legal one");
            let Some(id) = first() else { break };
            if game.apply(seat, &id).is_err() {
                break;
            }
        }
    }
    let (cause, truncated, rounds, ranking, winners, scores, px) = match game.outcome() {
        Some(o) => (
            o.cause.clone(),
            o.truncated,
            o.round,
            o.ranking.clone(),
            o.winners.clone(),
            o.scores.clone(),
            o.px.clone(),
        ),
        None => ("stalled".into(), true, game.round(), Vec::new(), Vec::new(), vec![0; n], vec![0; n]),
    };
    let seats = (0..n)
        .map(|s| SeatResult {
            policy: kinds[s].as_str(),
            won: !truncated && winners.contains(&(s as u8)),
            rank: if truncated { n } else { ranking.iter().position(|&r| usize::from(r) == s).map_or(n, |p| p + 1) },
            score: scores.get(s).copied().unwrap_or(0),
            px: px.get(s).copied().unwrap_or(0),
            promoted: game.public().ships[s].side == legio_engine::Side::Spatha,
            imperator_calls: game.public().ships[s].imperator_calls,
            sector_x: game.public().ships[s].special_missions > 0,
            think_ms: std::mem::take(&mut think[s]),
        })
        .collect();
    Ok(LegioGame { cause, truncated, rounds, decisions, seats })
}

/// Plays every game on `cfg.jobs` threads; `progress` is called once per
/// finished game.
pub fn run(cfg: &LegioSelfplay, progress: &(dyn Fn() + Sync)) -> Result<Vec<LegioGame>, LegioSelfplayError> {
    crate::runner::run_games(cfg.games, cfg.jobs, &|i| play_game(cfg, i), &|_| progress())
}

/// One policy's figures over a run.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyFigures {
    /// Seat-games played by it.
    pub seats: u64,
    /// Seat-games won (shared victories included, truncated games never).
    pub wins: u64,
    /// wins / seats.
    pub win_share: f64,
    /// Wilson 95% interval of the win share.
    pub win_share_ci95: [f64; 2],
    /// Mean 1-based place.
    pub mean_rank: f64,
    /// Its 95% interval (normal approximation).
    pub mean_rank_ci95: [f64; 2],
    /// Mean final PC.
    pub mean_score: f64,
    /// Its 95% interval.
    pub mean_score_ci95: [f64; 2],
    /// Mean final PX.
    pub mean_px: f64,
    /// Seat-games that ended with 10 PX or more (eligible to win).
    pub gate_share: f64,
    /// Seat-games ending on the Spatha (promoted).
    pub promoted_share: f64,
    /// Mean Imperator calls per seat-game.
    pub mean_imperator_calls: f64,
    /// Seat-games that went to Sector X.
    pub sector_x_share: f64,
    /// Mean thinking time per decision, ms.
    pub think_ms_mean: f64,
    /// 99th percentile thinking time, ms.
    pub think_ms_p99: f64,
    /// Decisions taken.
    pub decisions: u64,
}

/// What `selfplay --game legio` reports.
#[derive(Clone, Debug, Serialize)]
pub struct LegioSummary {
    /// Always "legio".
    pub game: &'static str,
    /// Commanders per game.
    pub players: usize,
    /// The policies as seated in game 0.
    pub lineup: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Games cut by the round limit (no winner).
    pub truncated: u64,
    /// Games with no winner at all (nobody at 10 PX, or truncated).
    pub no_winner: u64,
    /// Games by end cause.
    pub causes: BTreeMap<String, u64>,
    /// Mean round a game ended in.
    pub mean_rounds: f64,
    /// Per policy name.
    pub policies: BTreeMap<String, PolicyFigures>,
    /// Games per second of wall-clock time.
    pub games_per_sec: f64,
}

impl LegioSummary {
    /// Summarizes `games` played in `elapsed_s` seconds.
    pub fn new(lineup: &[LegioKind], games: &[LegioGame], elapsed_s: f64) -> LegioSummary {
        let mut causes = BTreeMap::new();
        for g in games {
            *causes.entry(g.cause.clone()).or_insert(0) += 1;
        }
        let mut by: BTreeMap<&str, Vec<&SeatResult>> = BTreeMap::new();
        for s in games.iter().flat_map(|g| &g.seats) {
            by.entry(s.policy).or_default().push(s);
        }
        let policies = by
            .into_iter()
            .map(|(name, v)| {
                let seats = v.len() as u64;
                let wins = v.iter().filter(|s| s.won).count() as u64;
                let (lo, hi) = wilson95(wins, seats);
                let ranks: Vec<f64> = v.iter().map(|s| s.rank as f64).collect();
                let scores: Vec<f64> = v.iter().map(|s| s.score as f64).collect();
                let pxs: Vec<f64> = v.iter().map(|s| f64::from(s.px)).collect();
                let think: Vec<f64> = v.iter().flat_map(|s| s.think_ms.iter().copied()).collect();
                let (mean_rank, rlo, rhi) = mean_ci95(&ranks);
                let share = |f: &dyn Fn(&SeatResult) -> bool| {
                    if seats == 0 { 0.0 } else { v.iter().filter(|s| f(s)).count() as f64 / seats as f64 }
                };
                let (mean_score, slo, shi) = mean_ci95(&scores);
                let figures = PolicyFigures {
                    seats,
                    wins,
                    win_share: if seats == 0 { 0.0 } else { wins as f64 / seats as f64 },
                    win_share_ci95: [lo, hi],
                    mean_rank,
                    mean_rank_ci95: [rlo, rhi],
                    mean_score,
                    mean_score_ci95: [slo, shi],
                    mean_px: mean_ci95(&pxs).0,
                    gate_share: if seats == 0 {
                        0.0
                    } else {
                        v.iter().filter(|s| s.px >= 10).count() as f64 / seats as f64
                    },
                    promoted_share: share(&|s| s.promoted),
                    mean_imperator_calls: mean_ci95(
                        &v.iter().map(|s| f64::from(s.imperator_calls)).collect::<Vec<_>>(),
                    )
                    .0,
                    sector_x_share: share(&|s| s.sector_x),
                    think_ms_mean: mean_ci95(&think).0,
                    think_ms_p99: percentile(&think, 0.99),
                    decisions: think.len() as u64,
                };
                (name.to_string(), figures)
            })
            .collect();
        let n = games.len();
        LegioSummary {
            game: "legio",
            players: lineup.len(),
            lineup: lineup.iter().map(|k| k.as_str().to_string()).collect(),
            games: n as u64,
            truncated: games.iter().filter(|g| g.truncated).count() as u64,
            no_winner: games.iter().filter(|g| g.seats.iter().all(|s| !s.won)).count() as u64,
            causes,
            mean_rounds: if n == 0 { 0.0 } else { games.iter().map(|g| f64::from(g.rounds)).sum::<f64>() / n as f64 },
            policies,
            games_per_sec: if elapsed_s > 0.0 { n as f64 / elapsed_s } else { 0.0 },
        }
    }

    /// A human-readable table.
    pub fn table(&self) -> String {
        let mut s = format!(
            "VII Legio, {} commanders, lineup {} (rotated each game), {} games\n",
            self.players,
            self.lineup.join(","),
            self.games
        );
        s.push_str(&format!(
            "truncated {}, no winner {}, mean rounds {:.1}, games/s {:.3}\n",
            self.truncated, self.no_winner, self.mean_rounds, self.games_per_sec
        ));
        for (cause, n) in &self.causes {
            s.push_str(&format!("  end {cause}: {n}\n"));
        }
        for (name, f) in &self.policies {
            s.push_str(&format!(
                "{name:<10} seats {:>5}  wins {:>5} = {:.1}% ({:.1}-{:.1})  rank {:.2} ({:.2}-{:.2})  PC {:.1} ({:.1}-{:.1})  PX {:.1}, >=10 PX {:.0}%  promoted {:.0}%, Imperator calls {:.2}, Sector X {:.0}%  think mean {:.1} ms p99 {:.1} ms\n",
                f.seats,
                f.wins,
                100.0 * f.win_share,
                100.0 * f.win_share_ci95[0],
                100.0 * f.win_share_ci95[1],
                f.mean_rank,
                f.mean_rank_ci95[0],
                f.mean_rank_ci95[1],
                f.mean_score,
                f.mean_score_ci95[0],
                f.mean_score_ci95[1],
                f.mean_px,
                100.0 * f.gate_share,
                100.0 * f.promoted_share,
                f.mean_imperator_calls,
                100.0 * f.sector_x_share,
                f.think_ms_mean,
                f.think_ms_p99,
            ));
        }
        s
    }
}
