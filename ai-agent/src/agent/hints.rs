//! Serving hints (ServeHints): the agent tells the server its think
//! budget, then answers each job (a seat's own state) with that seat's
//! best options as its game's AI sees them (`games::hint`), thought in a
//! think slot like a decision. The seed comes from the game, the seat and
//! the seq, so one view always gets the same hint. A server that refuses
//! (no agent key where one is needed) is told once in the log; a broken
//! stream is opened again with backoff.

use super::AgentConfig;
use super::backoff::Backoff;
use super::conn::Pool;
use super::think::Thinkers;
use crate::games;
use crate::rng::{hash_str, mix};
use std::sync::Arc;
use std::time::Instant;
use tabletop::pb;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// Serves hints until the server refuses for good.
pub async fn serve(cfg: Arc<AgentConfig>, pool: Arc<Pool>, thinkers: Thinkers) {
    let mut backoff = Backoff::default();
    loop {
        let (mut client, dialed) = pool.dial("hints").await;
        let (tx, rx) = mpsc::channel::<pb::ServeHintsRequest>(16);
        let think_ms = u32::try_from(cfg.budget.think_ms.unwrap_or(500)).unwrap_or(u32::MAX);
        // A fresh channel has room for the first message.
        let _ = tx.try_send(pb::ServeHintsRequest { think_ms, ..Default::default() });
        pool.pace.wait().await;
        let mut jobs = match client.serve_hints(ReceiverStream::new(rx)).await {
            Ok(s) => s.into_inner(),
            Err(s) if s.code() == tonic::Code::PermissionDenied || s.code() == tonic::Code::Unimplemented => {
                tracing::info!(status = %s.message(), "this agent does not serve hints here");
                return;
            }
            Err(s) => {
                pool.failed(dialed, &s).await;
                backoff.bump();
                tokio::time::sleep(pool.pace.jittered(backoff.delay())).await;
                continue;
            }
        };
        backoff.reset();
        tracing::info!(think_ms, "serving hints");
        while let Ok(Some(job)) = jobs.message().await {
            let (tx, thinkers, budget) = (tx.clone(), thinkers.clone(), cfg.budget.clone());
            let seed_base = cfg.seed;
            tokio::spawn(async move {
                let start = Instant::now();
                let job_id = job.job_id;
                let answer = match job.state {
                    None => Err("the job carries no state".to_string()),
                    Some(st) => {
                        let seat = u64::from(st.viewer_seat.unwrap_or(u32::MAX));
                        let seed = mix(&[seed_base, hash_str(&st.game_id), seat, st.seq]);
                        thinkers
                            .think(move || games::hint(&st, &budget, seed))
                            .await
                            .unwrap_or_else(|e| Err(format!("the hint's task failed: {e}")))
                    }
                };
                let took_ms = u32::try_from(start.elapsed().as_millis()).unwrap_or(u32::MAX);
                let reply = match answer {
                    Ok(options) => pb::ServeHintsRequest { job_id, options, took_ms, ..Default::default() },
                    Err(error) => pb::ServeHintsRequest { job_id, error, took_ms, ..Default::default() },
                };
                let _ = tx.send(reply).await;
            });
        }
        backoff.bump();
        tokio::time::sleep(pool.pace.jittered(backoff.delay())).await;
    }
}
