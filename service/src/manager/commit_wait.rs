//! Waiting for a choice's commit. A choice that waits alone polls its
//! answer, yielding to the runtime in between, instead of letting its
//! worker sleep: waking a sleeping worker costs tens of microseconds on a
//! virtual machine, a good part of the fsync itself. When other choices
//! wait too the server is busy, the workers have other tasks to run, and
//! the choice simply awaits.

use crate::error::ServiceError;
use crate::store::Done;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::oneshot::error::TryRecvError;

/// Counts the choices waiting for their commit, for as long as it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn begin(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Waiting(count)
    }

    fn alone(&self) -> bool {
        self.0.load(Ordering::SeqCst) == 1
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The commit's answer for `done`: polled for up to `poll` while no other
/// choice waits (`waiting` counts them), then awaited.
pub(super) async fn commit_answer(done: Done, poll: Duration, waiting: &AtomicUsize) -> Result<(), ServiceError> {
    let mut done = done;
    let me = Waiting::begin(waiting);
    let start = Instant::now();
    let answer = loop {
        if !me.alone() || start.elapsed() >= poll {
            break done.await.ok();
        }
        match done.try_recv() {
            Ok(answer) => break Some(answer),
            Err(TryRecvError::Closed) => break None,
            Err(TryRecvError::Empty) => tokio::task::yield_now().await,
        }
    };
    answer.ok_or_else(|| ServiceError::Internal("the storage writer dropped a choice".into()))??;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit answer that a task on the same runtime sends after `ms`.
    fn answer_after(ms: u64) -> (Done, tokio::task::JoinHandle<()>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let send = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            let _ = tx.send(Ok(()));
        });
        (rx, send)
    }

    #[tokio::test]
    async fn polling_yields_so_the_answer_arrives_on_the_same_thread_and_the_count_goes_back() {
        // A single-threaded runtime: the sender runs only if polling yields.
        let waiting = AtomicUsize::new(0);
        let (rx, send) = answer_after(2);
        let start = Instant::now();
        commit_answer(rx, Duration::from_secs(30), &waiting).await.expect("answer");
        assert!(start.elapsed() < Duration::from_secs(30), "answered while polling, not after the poll ran out");
        send.await.expect("sender");
        assert_eq!(waiting.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn an_answer_after_the_poll_ends_is_awaited() {
        let waiting = AtomicUsize::new(0);
        let (rx, send) = answer_after(20);
        commit_answer(rx, Duration::from_micros(50), &waiting).await.expect("answer");
        send.await.expect("sender");
    }

    #[tokio::test]
    async fn a_failed_commit_and_a_dropped_request_are_errors() {
        let waiting = AtomicUsize::new(0);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let _ = tx.send(Err(crate::store::StoreError::Commit("disk full".into())));
        let failed = commit_answer(rx, Duration::from_millis(1), &waiting).await;
        assert!(failed.is_err_and(|e| e.to_string().contains("disk full")));
        let (tx, rx) = tokio::sync::oneshot::channel::<Result<(), crate::store::StoreError>>();
        drop(tx);
        let dropped = commit_answer(rx, Duration::from_millis(1), &waiting).await;
        assert!(dropped.is_err_and(|e| e.to_string().contains("dropped")));
        assert_eq!(waiting.load(Ordering::SeqCst), 0);
    }
}
