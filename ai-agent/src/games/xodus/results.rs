//! X-ODUS self-play results: one game's result, the tally of Precursor
//! Signals, and the summary that `selfplay` prints as a table or as one
//! JSON object (whose keys scripts rely on).

use crate::stats::{percentile, wilson95};
use serde::Serialize;
use std::collections::BTreeMap;

/// The result of one finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's configuration seed.
    pub seed: u64,
    /// The Rift was sealed.
    pub won: bool,
    /// The engine's cause ("rift_sealed", "corruption_risen", ...), or
    /// "stalled" when the move cap was hit.
    pub cause: String,
    /// Round the game ended in.
    pub rounds: u32,
    /// Keys accessed (Signals solved) during the game.
    pub keys: u32,
    /// Keys activated on the Main Rift by the end.
    pub keys_on_rift: u32,
    /// Decisions taken by the policies.
    pub decisions: u64,
    /// Milliseconds spent choosing, per decision.
    pub think_ms: Vec<f64>,
    /// Every Precursor Signal card revealed in the game, by id, and
    /// whether its Key was accessed.
    pub signals: Vec<(String, bool)>,
    /// The value model's inputs and the hand-set evaluation at the start
    /// of every round the game reached (what `fit-value` learns from).
    pub round_starts: Vec<(crate::games::xodus::value::Features, f64)>,
}

/// How often a Precursor Signal card was revealed and solved over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SignalTally {
    /// Games in which the card was revealed.
    pub revealed: u64,
    /// Games in which its Key was then accessed.
    pub solved: u64,
}

/// What selfplay reports.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Policy name.
    pub policy: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
    /// Mean round a game ended in.
    pub mean_rounds: f64,
    /// Mean Keys accessed per game.
    pub mean_keys: f64,
    /// Mean Keys activated on the Main Rift per game.
    pub mean_keys_on_rift: f64,
    /// Games by the number of Keys accessed (index 0 to 4).
    pub games_by_keys: [u64; 5],
    /// Games by the number of Keys activated on the Main Rift by the end
    /// (index 0 to 4): the last entry less the wins counts the games whose
    /// every Key was sealed but whose Rift the Avatars held.
    pub games_by_keys_on_rift: [u64; 5],
    /// Losses counted by cause.
    pub losses_by_cause: BTreeMap<String, u64>,
    /// Decisions per second of wall-clock time (all workers).
    pub decisions_per_sec: f64,
    /// Games per second of wall-clock time.
    pub games_per_sec: f64,
    /// Median thinking time per decision.
    pub think_ms_p50: f64,
    /// 99th percentile thinking time per decision.
    pub think_ms_p99: f64,
    /// Precursor Signal cards by id: where the Keys get stuck.
    pub signals: BTreeMap<String, SignalTally>,
    /// Every game in seed order, for comparing two runs game by game.
    pub per_game: Vec<GameLine>,
}

/// One game of a run, as `Summary::per_game` lists it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameLine {
    /// The game's configuration seed.
    pub seed: u64,
    /// The Rift was sealed.
    pub won: bool,
    /// Round the game ended in.
    pub rounds: u32,
    /// Keys accessed.
    pub keys: u32,
    /// The Signal cards revealed, a trailing `+` on those whose Key was accessed.
    pub signals: Vec<String>,
}

impl GameLine {
    /// The line of one game's result.
    pub fn of(r: &GameResult) -> GameLine {
        GameLine {
            seed: r.seed,
            won: r.won,
            rounds: r.rounds,
            keys: r.keys,
            signals: r.signals.iter().map(|(c, ok)| if *ok { format!("{c}+") } else { c.clone() }).collect(),
        }
    }
}

impl Summary {
    /// Summarizes `results` played in `elapsed_s` seconds.
    pub fn new(policy: &str, results: &[GameResult], elapsed_s: f64) -> Summary {
        let games = results.len() as u64;
        let wins = results.iter().filter(|r| r.won).count() as u64;
        let mut losses_by_cause = BTreeMap::new();
        for r in results.iter().filter(|r| !r.won) {
            *losses_by_cause.entry(r.cause.clone()).or_insert(0) += 1;
        }
        let mean = |f: &dyn Fn(&GameResult) -> f64| {
            if results.is_empty() { 0.0 } else { results.iter().map(f).sum::<f64>() / results.len() as f64 }
        };
        let decisions: u64 = results.iter().map(|r| r.decisions).sum();
        let think: Vec<f64> = results.iter().flat_map(|r| r.think_ms.iter().copied()).collect();
        let (lo, hi) = wilson95(wins, games);
        let mut games_by_keys = [0u64; 5];
        let mut games_by_keys_on_rift = [0u64; 5];
        for r in results {
            games_by_keys[(r.keys as usize).min(4)] += 1;
            games_by_keys_on_rift[(r.keys_on_rift as usize).min(4)] += 1;
        }
        let mut signals: BTreeMap<String, SignalTally> = BTreeMap::new();
        for (card, solved) in results.iter().flat_map(|r| &r.signals) {
            let t = signals.entry(card.clone()).or_default();
            t.revealed += 1;
            t.solved += u64::from(*solved);
        }
        let per_sec = |x: f64| if elapsed_s > 0.0 { x / elapsed_s } else { 0.0 };
        Summary {
            policy: policy.to_string(),
            games,
            wins,
            win_rate: if games == 0 { 0.0 } else { wins as f64 / games as f64 },
            win_rate_ci95: [lo, hi],
            mean_rounds: mean(&|r| f64::from(r.rounds)),
            mean_keys: mean(&|r| f64::from(r.keys)),
            mean_keys_on_rift: mean(&|r| f64::from(r.keys_on_rift)),
            games_by_keys,
            games_by_keys_on_rift,
            losses_by_cause,
            decisions_per_sec: per_sec(decisions as f64),
            games_per_sec: per_sec(games as f64),
            think_ms_p50: percentile(&think, 0.5),
            think_ms_p99: percentile(&think, 0.99),
            signals,
            per_game: results.iter().map(GameLine::of).collect(),
        }
    }

    /// A human-readable table.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let mut row = |k: &str, v: String| s.push_str(&format!("{k:<18} {v}\n"));
        row("policy", self.policy.clone());
        row("games", self.games.to_string());
        row("wins", self.wins.to_string());
        row(
            "win rate",
            format!(
                "{:.1}%  (95% CI {:.1}%..{:.1}%)",
                100.0 * self.win_rate,
                100.0 * self.win_rate_ci95[0],
                100.0 * self.win_rate_ci95[1]
            ),
        );
        row("mean rounds", format!("{:.2}", self.mean_rounds));
        row("mean keys", format!("{:.2}", self.mean_keys));
        row("keys on the Rift", format!("{:.2}", self.mean_keys_on_rift));
        row("games by keys", format!("{:?}", self.games_by_keys));
        row("games by keys on the rift", format!("{:?}", self.games_by_keys_on_rift));
        for (cause, n) in &self.losses_by_cause {
            row(&format!("lost: {cause}"), n.to_string());
        }
        row("decisions/s", format!("{:.0}", self.decisions_per_sec));
        row("games/s", format!("{:.3}", self.games_per_sec));
        row("think ms p50/p99", format!("{:.3} / {:.3}", self.think_ms_p50, self.think_ms_p99));
        for (card, t) in &self.signals {
            row(&format!("signal {card}"), format!("solved {} of {} revealed", t.solved, t.revealed));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(won: bool, cause: &str) -> GameResult {
        GameResult {
            seed: 0,
            won,
            cause: cause.into(),
            rounds: 10,
            keys: 2,
            keys_on_rift: 1,
            decisions: 100,
            think_ms: vec![1.0, 2.0, 3.0],
            signals: vec![("derelict_ship".into(), won), ("sentinel_husk".into(), false)],
            round_starts: Vec::new(),
        }
    }

    #[test]
    fn summary_counts_and_json_keys() {
        let rs =
            vec![result(true, "rift_sealed"), result(false, "corruption_risen"), result(false, "corruption_risen")];
        let s = Summary::new("heuristic", &rs, 2.0);
        assert_eq!(s.games, 3);
        assert_eq!(s.wins, 1);
        assert_eq!(s.losses_by_cause.get("corruption_risen"), Some(&2));
        assert!((s.games_per_sec - 1.5).abs() < 1e-9);
        assert!((s.decisions_per_sec - 150.0).abs() < 1e-9);
        let json = serde_json::to_value(&s).expect("serializes");
        for key in [
            "policy",
            "games",
            "wins",
            "win_rate",
            "win_rate_ci95",
            "mean_rounds",
            "mean_keys",
            "losses_by_cause",
            "decisions_per_sec",
            "games_per_sec",
            "think_ms_p50",
            "think_ms_p99",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
        assert_eq!(json["win_rate_ci95"].as_array().map(|a| a.len()), Some(2));
        assert!(json["losses_by_cause"].is_object());
        // Per Signal card: revealed in every game, solved where the
        // result says so (the won game's Derelict Ship).
        assert_eq!(s.signals.get("derelict_ship"), Some(&SignalTally { revealed: 3, solved: 1 }));
        assert_eq!(s.signals.get("sentinel_husk"), Some(&SignalTally { revealed: 3, solved: 0 }));
        assert_eq!(json["signals"]["derelict_ship"]["solved"], 1);
        // Where the Keys stood at the end: all three games solved two and
        // placed one on the Rift.
        assert!((s.mean_keys_on_rift - 1.0).abs() < 1e-9);
        assert_eq!(json["games_by_keys"].as_array().map(|a| a.len()), Some(5));
        assert_eq!(s.games_by_keys_on_rift, [0, 3, 0, 0, 0]);
        assert_eq!(s.games_by_keys, [0, 0, 3, 0, 0]);
    }
}
