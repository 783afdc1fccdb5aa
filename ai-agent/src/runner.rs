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
