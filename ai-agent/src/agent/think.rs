//! Sharing the CPU between the seats the process holds: a decision is
//! thought on a blocking thread only while it holds one of a few permits
//! (the machine's cores, divided by a search's own threads), and the
//! permits are handed out first come, first served (tokio's semaphore is
//! fair), so a seat that became ready waits behind those ready before it
//! and every seat moves: a round robin over ready seats.

use std::sync::Arc;
use tokio::sync::Semaphore;

/// The think slots of one process.
#[derive(Clone, Debug)]
pub struct Thinkers {
    slots: Arc<Semaphore>,
}

impl Thinkers {
    /// `slots` decisions thought at once (at least one).
    pub fn new(slots: usize) -> Thinkers {
        Thinkers { slots: Arc::new(Semaphore::new(slots.max(1))) }
    }

    /// Runs `work` on a blocking thread once a slot is free, in the order
    /// the callers asked.
    pub async fn think<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, tokio::task::JoinError> {
        // The semaphore is never closed, so acquiring cannot fail; if it
        // ever did, thinking without a slot is still correct.
        let _slot = self.slots.acquire().await.ok();
        tokio::task::spawn_blocking(work).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn no_more_than_the_slots_think_at_once() {
        let t = Thinkers::new(2);
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (t, now, most) = (t.clone(), now.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                t.think(move || {
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    now.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        for task in tasks {
            task.await.expect("task").expect("think");
        }
        assert!(most.load(Ordering::SeqCst) <= 2);
    }
}
