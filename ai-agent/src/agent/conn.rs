//! The process's connections to the server: a small pool of HTTP/2
//! channels shared by every seat it plays (gRPC multiplexes many streams
//! and calls over one connection; a game always uses the same channel),
//! each call carrying the operator's agent key (`x-agent-key`) when one
//! was given and paced by the process's own schedule (`pace.rs`). A
//! channel reconnects by itself after the server comes back.

use super::backoff::Backoff;
use super::pace::Pace;
use super::seat::endpoint;
use super::{AgentConfig, AgentError};
use std::sync::Arc;
use tokio::sync::{OnceCell, OwnedSemaphorePermit, Semaphore};
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use xodus::GameServiceClient;
use xodus::dial::Target;

/// The metadata key an agent's credential travels in.
pub const AGENT_KEY_HEADER: &str = "x-agent-key";

/// Adds the agent key to every call.
#[derive(Clone, Debug, Default)]
pub struct AgentKey(Option<MetadataValue<Ascii>>);

impl AgentKey {
    /// The key to send, if any.
    pub fn new(key: Option<MetadataValue<Ascii>>) -> AgentKey {
        AgentKey(key)
    }
}

impl tonic::service::Interceptor for AgentKey {
    fn call(&mut self, mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(k) = &self.0 {
            req.metadata_mut().insert(AGENT_KEY_HEADER, k.clone());
        }
        Ok(req)
    }
}

/// A client of the pool.
pub type Client = GameServiceClient<InterceptedService<Channel, AgentKey>>;

/// The shared channels.
pub struct Pool {
    target: Target,
    channels: Vec<OnceCell<Channel>>,
    key: AgentKey,
    /// The process's request schedule.
    pub pace: Pace,
    /// Streams being opened and not yet answered with a first state.
    opening: Arc<Semaphore>,
}

/// Streams opened at once, each until its first state.
pub const OPENING_AT_ONCE: usize = 32;

impl Pool {
    /// A pool of `cfg.connections` channels to `cfg.server`, connected on
    /// first use.
    pub fn new(cfg: &AgentConfig) -> Result<Arc<Pool>, AgentError> {
        let target = endpoint(&cfg.server)?;
        let key = match &cfg.agent_key {
            None => AgentKey(None),
            Some(k) => AgentKey(Some(
                k.parse().map_err(|_| AgentError::Refused("the agent key must be printable ASCII".into()))?,
            )),
        };
        let channels = (0..cfg.connections.max(1)).map(|_| OnceCell::new()).collect();
        Ok(Arc::new(Pool {
            target,
            channels,
            key,
            pace: Pace::new(cfg.max_rps, cfg.seed),
            opening: Arc::new(Semaphore::new(OPENING_AT_ONCE)),
        }))
    }

    /// An opening slot, held from asking for a stream until its first
    /// state (first come, first served). `None` only if the semaphore
    /// were closed, which it never is: then the stream opens unslotted.
    pub async fn opening_slot(&self) -> Option<OwnedSemaphorePermit> {
        self.opening.clone().acquire_owned().await.ok()
    }

    /// The client for `game_id` (the same channel every time), connecting
    /// with backoff if this channel never connected yet.
    pub async fn client(&self, game_id: &str) -> Client {
        let i = (super::seat::hash_str(game_id) % self.channels.len() as u64) as usize;
        let channel = self.channels[i]
            .get_or_init(|| async {
                let mut backoff = Backoff::default();
                loop {
                    match self.target.connect().await {
                        Ok(ch) => return ch,
                        Err(e) => {
                            let d = backoff.delay();
                            tracing::warn!(error = %e, delay_ms = d.as_millis() as u64, "server unreachable; retrying");
                            tokio::time::sleep(d).await;
                        }
                    }
                }
            })
            .await;
        GameServiceClient::with_interceptor(channel.clone(), self.key.clone())
            .max_decoding_message_size(16 * 1024 * 1024)
    }
}
