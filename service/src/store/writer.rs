//! Group commit: one thread owns the SQLite connection and runs every
//! request to it. It takes all requests waiting at once, runs each in its
//! own savepoint inside one transaction, commits once (one fsync under
//! `synchronous=FULL`), and only then tells each caller how its request
//! went. A request that fails alone is rolled back alone; when the commit
//! itself fails, every request of the batch gets the error, so nothing of
//! that batch is ever reported durable.
//!
//! After a batch, when nothing is queued, the thread polls the queue for a
//! short while (`poll`) before it sleeps: on a virtual machine waking a
//! sleeping thread costs a good part of an fsync, and one player's next
//! choice usually comes within that time.

use super::StoreError;
use rusqlite::Connection;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tracing::warn;

/// Most requests in one transaction.
const MAX_BATCH: usize = 512;

/// One request: work on the connection, run inside the batch's transaction.
pub type Job = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;

/// The answer to one request, once its batch has committed (or failed).
pub type Done = oneshot::Receiver<Result<(), StoreError>>;

struct Request {
    job: Job,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle to the writer thread; dropping it lets the thread finish the
/// requests already sent, then waits for it.
pub struct Writer {
    tx: Option<mpsc::Sender<Request>>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    /// Starts the thread that owns `conn`; between batches it polls for
    /// the next request for up to `poll` before it sleeps (zero: sleeps at
    /// once).
    pub fn start(conn: Connection, poll: Duration) -> Result<Writer, StoreError> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(conn, rx, poll))
            .map_err(|e| StoreError::Writer(format!("cannot start the writer thread: {e}")))?;
        Ok(Writer { tx: Some(tx), thread: Some(thread) })
    }

    /// Sends `job`; the receiver completes once its batch committed.
    pub fn submit(&self, job: Job) -> Done {
        let (done, rx) = oneshot::channel();
        let request = Request { job, done };
        match &self.tx {
            Some(tx) => {
                if let Err(mpsc::SendError(r)) = tx.send(request) {
                    let _ = r.done.send(Err(StoreError::Writer("the writer thread has stopped".into())));
                }
            }
            None => {
                let _ = request.done.send(Err(StoreError::Writer("the store is closed".into())));
            }
        }
        rx
    }

    /// Runs `job` and waits for its commit (blocking; not on the runtime).
    pub fn run_blocking(&self, job: Job) -> Result<(), StoreError> {
        self.submit(job)
            .blocking_recv()
            .unwrap_or_else(|_| Err(StoreError::Writer("the writer thread dropped a request".into())))
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The next request: polled for up to `poll`, then waited for asleep.
/// `None` once every sender is gone.
fn next_request(rx: &mpsc::Receiver<Request>, poll: Duration) -> Option<Request> {
    let start = Instant::now();
    while start.elapsed() < poll {
        match rx.try_recv() {
            Ok(r) => return Some(r),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    rx.recv().ok()
}

fn run(mut conn: Connection, rx: mpsc::Receiver<Request>, poll: Duration) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = next_request(&rx, poll) {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        let (jobs, dones): (Vec<Job>, Vec<_>) = batch.drain(..).map(|r| (r.job, r.done)).unzip();
        crate::metrics::global().commit_batch(jobs.len());
        match write_batch(&mut conn, jobs) {
            Ok(results) => {
                for (done, r) in dones.into_iter().zip(results) {
                    let _ = done.send(r);
                }
            }
            Err(e) => {
                warn!(error = %e, requests = dones.len(), "commit failed: no request of the batch is durable");
                let why = e.to_string();
                for done in dones {
                    let _ = done.send(Err(StoreError::Commit(why.clone())));
                }
            }
        }
    }
}

/// Runs `jobs` in one transaction, each in a savepoint; `Err` when the
/// transaction itself could not begin or commit.
fn write_batch(conn: &mut Connection, jobs: Vec<Job>) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        let sp = tx.savepoint()?;
        let r = job(&sp);
        if r.is_ok() {
            sp.commit()?;
        }
        // A failed job's savepoint rolls back when dropped.
        results.push(r);
    }
    tx.commit()?;
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer() -> Writer {
        let conn = Connection::open_in_memory().expect("open");
        conn.execute_batch("CREATE TABLE t (x INTEGER PRIMARY KEY)").expect("table");
        Writer::start(conn, Duration::from_micros(100)).expect("start")
    }

    /// A job that inserts `x`, then fails when `fail` is set.
    fn insert(x: i64, fail: bool) -> Job {
        Box::new(move |c: &Connection| {
            c.execute("INSERT INTO t (x) VALUES (?1)", [x])?;
            if fail { Err(StoreError::Corrupt(format!("job {x} fails after its write"))) } else { Ok(()) }
        })
    }

    fn rows(w: &Writer) -> Vec<i64> {
        let (tx, rx) = std::sync::mpsc::channel();
        w.run_blocking(Box::new(move |c: &Connection| {
            let mut st = c.prepare("SELECT x FROM t ORDER BY x")?;
            let xs = st.query_map([], |r| r.get(0))?.collect::<Result<Vec<i64>, _>>()?;
            let _ = tx.send(xs);
            Ok(())
        }))
        .expect("read");
        rx.recv().expect("rows")
    }

    #[test]
    fn a_job_that_fails_alone_leaves_nothing_and_the_next_one_commits() {
        let w = writer();
        assert!(w.run_blocking(insert(1, true)).is_err());
        w.run_blocking(insert(2, false)).expect("next");
        assert_eq!(rows(&w), vec![2]);
    }

    #[test]
    fn a_job_that_fails_in_a_batch_is_rolled_back_alone() {
        let w = writer();
        // The first job holds the writer while the next three queue up, so
        // they are taken as one batch.
        let first = w.submit(Box::new(|c: &Connection| {
            std::thread::sleep(Duration::from_millis(100));
            c.execute("INSERT INTO t (x) VALUES (1)", [])?;
            Ok(())
        }));
        std::thread::sleep(Duration::from_millis(20));
        let batch = [w.submit(insert(2, false)), w.submit(insert(3, true)), w.submit(insert(4, false))];
        assert!(first.blocking_recv().expect("answer").is_ok());
        let answers: Vec<bool> = batch.into_iter().map(|d| d.blocking_recv().expect("answer").is_ok()).collect();
        assert_eq!(answers, vec![true, false, true]);
        assert_eq!(rows(&w), vec![1, 2, 4], "the failed job's write was undone, its neighbours' kept");
    }
}
