//! Readiness: the gRPC health service reports the game service SERVING
//! only while the store answers (checked every two seconds), so a load
//! balancer sends no call to a node cut off from its database. A store of
//! the node's own always answers once open.

use crate::routing::Routed;
use crate::store::GameStore;
use std::sync::Arc;
use std::time::Duration;
use tabletop::pb::game_service_server::GameServiceServer;
use tokio::sync::watch;
use tonic_health::server::HealthReporter;
use tracing::{info, warn};

/// How often the store is asked.
const CHECK_EVERY: Duration = Duration::from_secs(2);

/// Whether the store answers now.
async fn store_answers(store: &Arc<dyn GameStore>) -> bool {
    let store = Arc::clone(store);
    let answered = tokio::task::spawn_blocking(move || store.cluster().map_or(Ok(()), |c| c.ping())).await;
    match answered {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            warn!(error = %e, "the store does not answer: reporting NOT_SERVING");
            false
        }
        Err(e) => {
            warn!(error = %e, "the store check was lost: reporting NOT_SERVING");
            false
        }
    }
}

/// Sets the game service's health from the store now, then keeps it so
/// until shutdown (when the server itself reports NOT_SERVING).
pub async fn follow_store(store: Arc<dyn GameStore>, reporter: HealthReporter, mut stop: watch::Receiver<bool>) {
    let mut ready = store_answers(&store).await;
    set(&reporter, ready).await;
    if store.cluster().is_none() {
        return;
    }
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECK_EVERY);
        loop {
            tokio::select! {
                () = stopped(&mut stop) => return,
                _ = tick.tick() => {
                    let now = store_answers(&store).await;
                    if now != ready {
                        info!(ready = now, "readiness changed with the store");
                        ready = now;
                        set(&reporter, now).await;
                    }
                }
            }
        }
    });
}

/// Completes once the server begins to shut down.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|&v| v).await;
}

async fn set(reporter: &HealthReporter, ready: bool) {
    if ready {
        reporter.set_serving::<GameServiceServer<Routed>>().await;
    } else {
        reporter.set_not_serving::<GameServiceServer<Routed>>().await;
    }
}
