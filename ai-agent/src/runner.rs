//! The self-play runner every game's self-play shares: `games` games played
//! on `jobs` threads, each game by its index (so a seed per index gives the
//! same games whatever the thread count), results in index order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Plays games `0..games` with `play` on `jobs` threads; `done` is called
/// with each game's result as it finishes (from any thread, in any
/// order). The results come back in index order; the first error stops
/// the collection.
pub fn run_games<T: Send, E: Send>(
    games: usize,
    jobs: usize,
    play: &(dyn Fn(usize) -> Result<T, E> + Sync),
    done: &(dyn Fn(&Result<T, E>) + Sync),
) -> Result<Vec<T>, E> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<T, E>>>> = Mutex::new((0..games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let r = play(i);
                    done(&r);
                    if let Ok(mut s) = slots.lock() {
                        s[i] = Some(r);
                    }
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    slots.into_iter().flatten().collect()
}

/// The thread count asked for, else the machine's cores (at least one).
pub fn threads_or_cores(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).max(1)
}

/// A progress bar on stderr for `len` games (hidden when stderr is not a
/// terminal).
pub fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos}/{len} games [{elapsed_precise}<{eta_precise}] {wide_bar}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// `xodus-ai selfplay`: whole games played locally, and the figures.
/// Each game reads the options that apply to it.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The game, by the type name the server gives it: one of the games
    /// with policies of their own (default: the first of them, X-ODUS).
    #[arg(long)]
    pub game: Option<String>,
    /// random, heuristic or mcts.
    #[arg(long, default_value = "heuristic")]
    pub policy: String,
    /// VII Legio: commanders per game, 2 to 4.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// VII Legio: one policy per seat, comma-separated (e.g.
    /// mcts,heuristic,heuristic), rotated one seat further each game;
    /// default: --policy at every seat.
    #[arg(long)]
    pub policies: Option<String>,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Ships per game: 3 or 4.
    #[arg(long, default_value_t = 4)]
    pub ships: usize,
    /// casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    pub difficulty: String,
    /// Adds the permanent +1 Avatar movement marker (the rulebook's "true
    /// nightmare" on top of any difficulty, p. 19).
    #[arg(long)]
    pub nightmare: bool,
    /// Base seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Thinking time per decision, in milliseconds (search policies).
    #[arg(long)]
    pub think_ms: Option<u64>,
    /// Search iterations per decision (deterministic for a seed).
    #[arg(long)]
    pub iterations: Option<u32>,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
    /// X-ODUS: seat 0 calls where it heads, as a human teammate would, and
    /// the other captains heed its calls.
    #[arg(long)]
    pub calls: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_index_order_whatever_the_threads_and_an_error_stops_them() {
        let square = |i: usize| -> Result<usize, String> { Ok(i * i) };
        let count = AtomicUsize::new(0);
        let seen = |_: &Result<usize, String>| {
            count.fetch_add(1, Ordering::Relaxed);
        };
        assert_eq!(run_games(9, 3, &square, &seen), Ok((0..9).map(|i| i * i).collect::<Vec<_>>()));
        assert_eq!(count.load(Ordering::Relaxed), 9, "each game reported once");
        let failing = |i: usize| if i == 4 { Err(format!("game {i}")) } else { Ok(i) };
        assert_eq!(run_games(6, 2, &failing, &|_| {}), Err("game 4".to_string()));
    }
}
