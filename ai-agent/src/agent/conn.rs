//! The process's connections to the server: a small pool of HTTP/2
//! channels shared by every seat it plays (gRPC multiplexes many streams
//! and calls over one connection; a game always uses the same channel),
//! each call carrying the operator's agent key (`x-agent-key`) when one
//! was given and paced by the process's own schedule (`pace.rs`). A
//! channel reconnects by itself after the server comes back.
//!
//! Given several addresses (nodes of one service, any of which serves any
//! game), channel `i` starts on address `i` (round the list), so the
//! channels spread over the nodes. A caller whose call on a channel failed
//! because its node looks gone (`node_down`) reports it with `failed`:
//! the channel is then dropped and the next caller connects it to the next
//! address, trying the list round and waiting a backoff after each full
//! round that found no node. Streams still open on the old channel are left
//! alone; each moves when it breaks. With one address nothing ever moves:
//! the channel is kept and reconnects by itself, as it always did.
use super::backoff::Backoff;
use super::dial::targets;
use super::pace::Pace;
use super::{AgentConfig, AgentError};
use std::sync::Arc;
use tabletop::GameServiceClient;
use tabletop::dial::Targets;
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore};
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tonic::{Code, Status};

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
    targets: Targets,
    channels: Vec<Mutex<Slot>>,
    key: AgentKey,
    /// The process's request schedule.
    pub pace: Pace,
    /// Streams being opened and not yet answered with a first state.
    opening: Arc<Semaphore>,
}

/// One channel of the pool.
struct Slot {
    /// The connected channel, if any yet (or since it was dropped).
    channel: Option<Channel>,
    /// The address it uses or will try next (an index round the list).
    address: usize,
    /// Connections made so far, so that a failure reported on an older
    /// connection does not drop a newer one.
    generation: u64,
}

/// Which connection a client came from, for [`Pool::failed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialed {
    slot: usize,
    generation: u64,
}

impl Dialed {
    /// The pool's channel it came from.
    pub fn slot(&self) -> usize {
        self.slot
    }
}

/// Whether a failed call says its node looks gone: the connection could
/// not be made or broke (a status made on this side, the transport error
/// as its source), or the server answered UNAVAILABLE (a node shutting
/// down). Anything else the node said is an answer from a live node.
pub fn node_down(s: &Status) -> bool {
    let local = std::error::Error::source(s).is_some();
    s.code() == Code::Unavailable || (local && super::status::transient(s) && s.code() != Code::ResourceExhausted)
}

/// Streams opened at once, each until its first state.
pub const OPENING_AT_ONCE: usize = 32;

impl Pool {
    /// A pool of `cfg.connections` channels to `cfg.server` (one address
    /// or several), connected on first use.
    pub fn new(cfg: &AgentConfig) -> Result<Arc<Pool>, AgentError> {
        let targets = targets(&cfg.server)?;
        let key = match &cfg.agent_key {
            None => AgentKey(None),
            Some(k) => AgentKey(Some(
                k.parse().map_err(|_| AgentError::Refused("the agent key must be printable ASCII".into()))?,
            )),
        };
        let channels = (0..cfg.connections.max(1))
            .map(|i| Mutex::new(Slot { channel: None, address: i, generation: 0 }))
            .collect();
        Ok(Arc::new(Pool {
            targets,
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
    /// with backoff if this channel is not connected yet.
    pub async fn client(&self, game_id: &str) -> Client {
        self.dial(game_id).await.0
    }

    /// [`Pool::client`], with which connection it is, for
    /// [`Pool::failed`]. A channel not connected yet (or dropped by
    /// `failed`) is connected here, to its address or, failing that, the
    /// next ones round the list, with a backoff after each full round.
    pub async fn dial(&self, game_id: &str) -> (Client, Dialed) {
        let i = (crate::rng::hash_str(game_id) % self.channels.len() as u64) as usize;
        let mut slot = self.channels[i].lock().await;
        let channel = match &slot.channel {
            Some(ch) => ch.clone(),
            None => {
                let mut backoff = Backoff::default();
                let mut tried = 0;
                loop {
                    let target = self.targets.get(slot.address);
                    match target.connect().await {
                        Ok(ch) => {
                            if self.targets.len() > 1 {
                                tracing::info!(channel = i, server = %target, "connected");
                            }
                            slot.channel = Some(ch.clone());
                            slot.generation += 1;
                            break ch;
                        }
                        Err(e) => {
                            tried += 1;
                            slot.address = (slot.address + 1) % self.targets.len();
                            if tried % self.targets.len() == 0 {
                                let d = backoff.delay();
                                tracing::warn!(error = %e, server = %target, delay_ms = d.as_millis() as u64, "server unreachable; retrying");
                                tokio::time::sleep(d).await;
                            } else {
                                tracing::info!(error = %e, server = %target, "server unreachable; trying the next address");
                            }
                        }
                    }
                }
            }
        };
        let dialed = Dialed { slot: i, generation: slot.generation };
        let client =
            GameServiceClient::with_interceptor(channel, self.key.clone()).max_decoding_message_size(16 * 1024 * 1024);
        (client, dialed)
    }

    /// Tells the pool that a call on `dialed` failed with `status`. With
    /// several addresses, a failure that says the node looks gone
    /// ([`node_down`]) drops that channel, unless it was connected again
    /// since: the next caller connects it to the next address. Returns
    /// whether it did. With one address it never does.
    pub async fn failed(&self, dialed: Dialed, status: &Status) -> bool {
        if self.targets.len() < 2 || !node_down(status) {
            return false;
        }
        let Some(slot) = self.channels.get(dialed.slot) else { return false };
        let mut slot = slot.lock().await;
        if slot.generation != dialed.generation || slot.channel.is_none() {
            return false;
        }
        let gone = self.targets.get(slot.address).to_string();
        slot.channel = None;
        slot.address = (slot.address + 1) % self.targets.len();
        tracing::info!(channel = dialed.slot, server = %gone, status = %status.message(), code = ?status.code(),
                       next = %self.targets.get(slot.address), "server looks gone; moving this channel");
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;

    fn config(server: String, connections: usize) -> AgentConfig {
        AgentConfig {
            server,
            policy: "random".into(),
            budget: Budget::new(None, None),
            seed: 1,
            threads: 1,
            courtesy: std::time::Duration::ZERO,
            agent_key: None,
            connections,
            max_rps: 0,
            max_streams: 8,
            cores: 1,
        }
    }

    /// A port that refuses connections (bound, never listening), held for
    /// the test so no other socket is handed it.
    fn refusing() -> (tokio::net::TcpSocket, std::net::SocketAddr) {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.bind("127.0.0.1:0".parse().expect("addr")).expect("bind");
        let addr = socket.local_addr().expect("addr");
        (socket, addr)
    }

    /// A listener that accepts connections and holds them open (enough for
    /// a channel to connect; no call is made).
    async fn accepting() -> std::net::SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        addr
    }

    #[test]
    fn a_gone_node_is_unavailable_or_a_broken_connection_not_an_answer() {
        assert!(node_down(&Status::unavailable("shutting down")));
        let broken = Status::from_error(Box::new(std::io::Error::other("connection reset")));
        assert_eq!(broken.code(), Code::Unknown, "a local transport error");
        assert!(node_down(&broken));
        assert!(!node_down(&Status::unknown("the server said so")), "an answer from a live node");
        assert!(!node_down(&Status::not_found("no such game")));
        assert!(!node_down(&Status::resource_exhausted("over the rate")));
    }

    #[tokio::test]
    async fn channels_skip_a_dead_address_and_move_when_their_node_looks_gone() {
        let (_dead_socket, dead) = refusing();
        let live = accepting().await;
        let pool = Pool::new(&config(format!("http://{dead},http://{live}"), 2)).expect("pool");
        // Whichever address each channel starts on, both end up on the
        // live one: the dead one refuses.
        let keys: Vec<String> = (0..64).map(|i| format!("g{i}")).collect();
        let on = |slot: usize| keys.iter().find(|k| crate::rng::hash_str(k) % 2 == slot as u64).expect("a key");
        let (_, first) = pool.dial(on(0)).await;
        let (_, second) = pool.dial(on(1)).await;
        assert_eq!((first.slot, second.slot), (0, 1));
        for slot in 0..2 {
            let s = pool.channels[slot].lock().await;
            assert_eq!(s.address % 2, 1, "channel {slot} is on the live address");
        }
        // A server's answer moves nothing; a gone node moves the channel once.
        assert!(!pool.failed(first, &Status::not_found("no such game")).await);
        assert!(pool.failed(first, &Status::unavailable("gone")).await);
        assert!(!pool.failed(first, &Status::unavailable("gone")).await, "reported twice: moved once");
        let (_, again) = pool.dial(on(0)).await;
        assert_ne!(again.generation, first.generation, "connected again");
        assert!(!pool.failed(first, &Status::unavailable("gone")).await, "a stale report leaves the new connection");
        assert_eq!(pool.channels[0].lock().await.address % 2, 1, "the dead address was skipped again");

        // One address: nothing ever moves.
        let single = Pool::new(&config(format!("http://{live}"), 1)).expect("pool");
        let (_, d) = single.dial("g").await;
        assert!(!single.failed(d, &Status::unavailable("gone")).await);
        assert_eq!(single.dial("g").await.1, d, "the same connection");
    }
}
