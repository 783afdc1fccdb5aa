//! Advice on request (AskHint, ServeHints): a seat asks for a hint; the
//! server sends the seat's own state (its view and options, never its
//! token) to an AI agent serving hints, waits for the agent's answer
//! within the agent's think budget and a margin, checks that every option
//! it names is one of the seat's, and answers the seat. Agents serve hints
//! over one stream each and take jobs in turn. A job carries a seat's
//! secrets, so only trusted agents may serve: those with the operator's
//! agent key, or, on a server without agent keys, processes on this host.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabletop::pb;
use tokio::sync::{mpsc, oneshot};
use tonic::Status;

/// A seat may ask for a hint this often at most.
pub const MIN_INTERVAL: Duration = Duration::from_secs(2);
/// What AskHint waits for beyond the agent's think budget and its tenth.
const MARGIN: Duration = Duration::from_secs(2);
/// Jobs queued on one agent's stream at most.
const QUEUE: usize = 16;

/// One agent serving hints.
struct Provider {
    id: u64,
    /// Its think budget per hint.
    think: Duration,
    /// Its stream of jobs.
    jobs: mpsc::Sender<Result<pb::ServeHintsResponse, Status>>,
}

/// The agents serving hints, the jobs waiting for their answers, and when
/// each seat last asked.
#[derive(Default)]
pub struct Hints {
    providers: Mutex<Vec<Provider>>,
    next: AtomicU64,
    waiting: Mutex<HashMap<String, oneshot::Sender<pb::ServeHintsRequest>>>,
    asked: Mutex<HashMap<(String, u32), Instant>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hints {
    /// Takes an agent's ServeHints stream: `first` is its opening message
    /// (its think budget); the answers come on `inbound`. Returns the
    /// stream of jobs for it.
    pub fn serve(
        self: &Arc<Self>,
        first: pb::ServeHintsRequest,
        mut inbound: tonic::Streaming<pb::ServeHintsRequest>,
    ) -> mpsc::Receiver<Result<pb::ServeHintsResponse, Status>> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let think = Duration::from_millis(u64::from(first.think_ms.clamp(1, 60_000)));
        lock(&self.providers).push(Provider { id, think, jobs: tx });
        tracing::info!(provider = id, think_ms = think.as_millis() as u64, "an agent serves hints");
        let me = Arc::clone(self);
        tokio::spawn(async move {
            while let Ok(Some(answer)) = inbound.message().await {
                if let Some(waiter) = lock(&me.waiting).remove(&answer.job_id) {
                    let _ = waiter.send(answer);
                }
            }
            lock(&me.providers).retain(|p| p.id != id);
            tracing::info!(provider = id, "an agent stopped serving hints");
        });
        rx
    }

    /// The hint for the seat whose own state is `state`: its best options
    /// as an agent sees them, checked against the seat's options.
    pub async fn ask(&self, game_id: &str, seat: u32, state: pb::GameState) -> Result<pb::AskHintResponse, Status> {
        let mine: Vec<pb::ChoiceOption> = state
            .decision
            .as_ref()
            .map(|d| d.options.iter().filter(|o| o.seats.contains(&seat)).cloned().collect())
            .unwrap_or_default();
        if mine.is_empty() {
            return Err(Status::failed_precondition(format!(
                "seat {seat} has no decision to take now: a hint is about the seat's own pending decision"
            )));
        }
        {
            let mut asked = lock(&self.asked);
            let key = (game_id.to_string(), seat);
            if let Some(at) = asked.get(&key)
                && at.elapsed() < MIN_INTERVAL
            {
                let wait = MIN_INTERVAL.saturating_sub(at.elapsed());
                return Err(Status::resource_exhausted(format!(
                    "a seat may ask for a hint every {} s; retry in {:.1} s",
                    MIN_INTERVAL.as_secs(),
                    wait.as_secs_f64()
                )));
            }
            asked.retain(|_, t| t.elapsed() < MIN_INTERVAL);
            asked.insert(key, Instant::now());
        }
        let (jobs, think) = {
            let providers = lock(&self.providers);
            if providers.is_empty() {
                return Err(Status::failed_precondition(
                    "no AI agent serves hints on this server: start `xodus-ai --fill` (with the operator's agent key)",
                ));
            }
            let n = self.next.fetch_add(1, Ordering::Relaxed) as usize % providers.len();
            (providers[n].jobs.clone(), providers[n].think)
        };
        let job_id = format!("h{:016x}", rand::random::<u64>());
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(job_id.clone(), tx);
        let seq = state.seq;
        let job = pb::ServeHintsResponse { job_id: job_id.clone(), state: Some(state) };
        if jobs.try_send(Ok(job)).is_err() {
            lock(&self.waiting).remove(&job_id);
            return Err(Status::unavailable("the agent serving hints is busy; retry in a moment"));
        }
        let wait = think + think / 10 + MARGIN;
        let answer = match tokio::time::timeout(wait, rx).await {
            Ok(Ok(answer)) => answer,
            _ => {
                lock(&self.waiting).remove(&job_id);
                return Err(Status::unavailable(format!(
                    "the agent serving hints did not answer within {} ms",
                    wait.as_millis()
                )));
            }
        };
        if !answer.error.is_empty() {
            return Err(Status::failed_precondition(format!(
                "no hint: {}",
                answer.error.chars().take(200).collect::<String>()
            )));
        }
        // Only the seat's own options, with the labels the seat was shown.
        let mut options = Vec::new();
        for o in answer.options.into_iter().take(3) {
            if let Some(shown) = mine.iter().find(|m| m.id == o.option_id)
                && !options.iter().any(|p: &pb::HintOption| p.option_id == o.option_id)
            {
                let reason = o.reason.chars().filter(|c| !c.is_control()).take(200).collect();
                let estimate = if o.estimate.is_finite() { o.estimate } else { 0.0 };
                options.push(pb::HintOption {
                    option_id: shown.id.clone(),
                    label: shown.label.clone(),
                    estimate,
                    reason,
                });
            }
        }
        if options.is_empty() {
            return Err(Status::unavailable("the agent's hint named none of the seat's options; retry"));
        }
        Ok(pb::AskHintResponse { seq, options, think_ms: answer.took_ms })
    }
}
