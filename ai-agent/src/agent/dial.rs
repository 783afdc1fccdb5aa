//! Reaching the server: the configured address (or addresses) read, and a
//! connection retried with backoff until it works.

use super::AgentError;
use super::backoff::Backoff;
use tabletop::GameServiceClient;
use tabletop::dial::{Target, Targets};
use tonic::transport::Channel;

/// Reads the configured server address (`http://HOST:PORT` or `unix:PATH`).
pub fn endpoint(url: &str) -> Result<Target, AgentError> {
    Target::parse(url).map_err(|e| AgentError::Url(url.to_string(), e.why))
}

/// Reads the configured server addresses: one, or several separated by
/// commas (nodes of one service).
pub fn targets(list: &str) -> Result<Targets, AgentError> {
    Targets::parse(list).map_err(|e| AgentError::Url(e.address, e.why))
}

/// Connects, retrying with backoff until it works.
pub async fn connect(ep: &Target, backoff: &mut Backoff) -> GameServiceClient<Channel> {
    loop {
        match ep.connect().await {
            Ok(ch) => return GameServiceClient::new(ch),
            Err(e) => {
                let d = backoff.delay();
                tracing::warn!(error = %e, delay_ms = d.as_millis() as u64, "server unreachable; retrying");
                tokio::time::sleep(d).await;
            }
        }
    }
}
