//! Limits that protect the server: the numbers ([`Limits`]), per-client caps
//! on live games and open streams ([`ClientCaps`], a client being its IP
//! address), and a per-client request rate limit as a tower layer
//! ([`RateLimitLayer`]). Over a limit, requests are refused with
//! RESOURCE_EXHAUSTED rather than queued, so a misbehaving client learns at
//! once. The cap on connections is in `connections.rs`. Agents holding an
//! operator's key get caps of their own (`agents.rs`).

pub mod agents;

use crate::error::ServiceError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tonic::codegen::http;

/// The numbers.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Live games (not finished or abandoned) hosted at once, all clients
    /// together.
    pub max_games: usize,
    /// Live games one client (IP address) may have created (or forked)
    /// since the server started.
    pub max_games_per_client: usize,
    /// Streams (StreamGame + WatchLobby) one client may hold open at once.
    pub max_streams_per_client: usize,
    /// Largest request message, in bytes.
    pub max_message_bytes: usize,
    /// Deadline of a unary request (streams are not cut by it).
    pub request_timeout: Duration,
    /// Requests per second one client address may send (burst: one
    /// second's worth).
    pub requests_per_second: u32,
    /// Connections open at once, all clients together; more are closed
    /// as soon as they are accepted.
    pub max_connections: usize,
    /// A live game with no choice for this long ends as abandoned (zero:
    /// never).
    pub abandon_after: Duration,
    /// An ended game (finished or abandoned) stays readable this long, then
    /// is deleted (zero: kept forever).
    pub retention: Duration,
    /// Idle timeout of new games, in seconds (0 = seats never go idle).
    pub idle_timeout_s: u32,
    /// A seat's lease: a seat the game waits on whose holder has no stream
    /// open and has not been heard from for this long is taken from it (an
    /// AI seat goes back to the AI pool, a stand-in gives way to another).
    /// A human's lease is three times as long (a person may think with
    /// the page closed, or hold two seats on one stream); then the seat
    /// goes to AI stand-ins until its holder returns. Zero: leases never
    /// lapse.
    pub seat_lease: Duration,
    /// An AI holder's lease (never longer than `seat_lease`): every seat an
    /// AI holds (waited on or not) whose holder has no stream open on it
    /// and has not been heard from for this long is freed for the AI pool,
    /// so a killed agent's seats all come free together.
    pub ai_seat_lease: Duration,
    /// Games one client address (or agent key) may follow at once over
    /// FollowGames, all its streams together.
    pub max_follows_per_client: usize,
    /// A game nobody touched this long leaves memory, to be replayed when
    /// touched again (zero: games stay in memory).
    pub evict_idle: Duration,
    /// After a shutdown begins, how long connections may take to close
    /// before the server stops without them (a client that never answers
    /// the HTTP/2 goodbye would otherwise hold it forever).
    pub shutdown_grace: Duration,
    /// How long a choice waiting alone for its commit, and the SQLite
    /// writer between batches, poll instead of sleeping (zero: they sleep
    /// at once). Waking a sleeping thread costs tens of microseconds on a
    /// virtual machine; polling spends up to this much CPU per choice on
    /// a quiet server to save it, and none on a busy one.
    pub commit_poll: Duration,
    /// Refuse CreateGame requests that choose the seed (a chosen seed makes
    /// the game's hidden part only as secret as the seed): for servers
    /// where strangers share tables.
    pub refuse_chosen_seeds: bool,
    /// Agent keys and the caps of the agents holding one (none: every
    /// client is counted by its address).
    pub agents: Option<agents::AgentCaps>,
    /// Load balancers whose `x-forwarded-for` is believed: a call from one
    /// counts against the caller the balancer names (the header's last
    /// address), not against the balancer.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_games: 10_000,
            max_games_per_client: 2_000,
            max_streams_per_client: 512,
            max_message_bytes: 64 * 1024,
            request_timeout: Duration::from_secs(10),
            requests_per_second: 2_000,
            max_connections: 1_024,
            abandon_after: Duration::from_secs(24 * 3600),
            retention: Duration::from_secs(7 * 24 * 3600),
            idle_timeout_s: 0,
            seat_lease: Duration::from_secs(30),
            ai_seat_lease: Duration::from_secs(6),
            max_follows_per_client: 4_096,
            evict_idle: Duration::from_secs(600),
            shutdown_grace: Duration::from_secs(10),
            commit_poll: Duration::from_micros(300),
            refuse_chosen_seeds: false,
            agents: None,
            trusted_proxies: Vec::new(),
        }
    }
}

impl Limits {
    /// These limits, with the agent keys of the file at `path` (if any)
    /// and the caps of the agents holding one.
    pub fn with_agent_keys(
        self,
        path: Option<&std::path::Path>,
        max_streams: usize,
        requests_per_second: u32,
    ) -> Result<Limits, agents::AgentKeyError> {
        let Some(path) = path else { return Ok(self) };
        let keys = Arc::new(agents::AgentKeys::load(path)?);
        Ok(Limits { agents: Some(agents::AgentCaps { keys, max_streams, requests_per_second }), ..self })
    }
}

/// Per-client counters.
#[derive(Default)]
pub struct ClientCaps {
    /// Open streams per client.
    streams: Mutex<HashMap<IpAddr, usize>>,
    /// Open follows (FollowGames) per client.
    follows: Mutex<HashMap<IpAddr, usize>>,
    /// Live games created per client.
    games: Mutex<HashMap<IpAddr, usize>>,
}

/// Holds one stream slot of a client; gives it back when dropped.
pub struct StreamGuard {
    caps: Arc<ClientCaps>,
    ip: Option<IpAddr>,
    /// A follow's slot, not a stream's.
    follow: bool,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            let counts = if self.follow { &self.caps.follows } else { &self.caps.streams };
            let mut m = counts.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = m.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    m.remove(&ip);
                }
            }
        }
    }
}

impl ClientCaps {
    /// Takes a stream slot for `ip` (no address: not counted), past `max`
    /// refused; an agent's address carries its own cap instead
    /// ([`agents::agent_stream_cap`]).
    pub fn open_stream(self: &Arc<Self>, ip: Option<IpAddr>, max: usize) -> Result<StreamGuard, ServiceError> {
        if let Some(ip) = ip {
            let max = agents::agent_stream_cap(ip).unwrap_or(max);
            let mut m = self.streams.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= max {
                return Err(ServiceError::OverLimit(format!(
                    "this client already has {max} open streams; close one first"
                )));
            }
            *n += 1;
        }
        Ok(StreamGuard { caps: Arc::clone(self), ip, follow: false })
    }

    /// Takes a follow slot for `ip` (FollowGames), past `max` (or, for an
    /// agent key, past the larger of `max` and its stream cap) refused.
    pub fn open_follow(self: &Arc<Self>, ip: Option<IpAddr>, max: usize) -> Result<StreamGuard, ServiceError> {
        if let Some(ip) = ip {
            let max = agents::agent_stream_cap(ip).map_or(max, |cap| cap.max(max));
            let mut m = self.follows.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= max {
                return Err(ServiceError::OverLimit(format!(
                    "this client already follows {max} games, the server's cap per address \
                     (--max-follows-per-client); stop a follow first, or run the agent with an agent key"
                )));
            }
            *n += 1;
        }
        Ok(StreamGuard { caps: Arc::clone(self), ip, follow: true })
    }

    /// Counts one more live game for `ip`, or refuses past `max`.
    pub fn count_game(&self, ip: Option<IpAddr>, max: usize) -> Result<(), ServiceError> {
        if let Some(ip) = ip {
            let mut m = self.games.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= max {
                return Err(ServiceError::OverLimit(format!(
                    "this client address already has {max} live games; finish or abandon one first"
                )));
            }
            *n += 1;
        }
        Ok(())
    }

    /// One of `ip`'s games is no longer live.
    pub fn game_ended(&self, ip: Option<IpAddr>) {
        if let Some(ip) = ip {
            let mut m = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = m.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    m.remove(&ip);
                }
            }
        }
    }

    /// Open streams of `ip` (tests).
    #[cfg(test)]
    pub fn streams_of(&self, ip: IpAddr) -> usize {
        self.streams.lock().unwrap_or_else(|e| e.into_inner()).get(&ip).copied().unwrap_or(0)
    }
}

/// The client's IP address, the per-address rate limit's key, so that
/// opening more connections buys no more requests. Requests with no TCP
/// peer (none in this server) share one key.
pub fn client_ip<T>(req: &http::Request<T>) -> IpAddr {
    let ip = req.extensions().get::<tonic::transport::server::TcpConnectInfo>().and_then(|c| c.remote_addr());
    ip.map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip())
}

/// The per-client rate limit (the `governor` crate's keyed GCRA token
/// bucket, `per_second` requests a second with a burst of as many, per
/// address) with the agent caps when keys were given, as one tower layer
/// ([`agents::ClientLimitsLayer`]); over it, a request is answered
/// RESOURCE_EXHAUSTED without reaching the service. Also returns a way to
/// forget clients not seen for a while.
pub fn rate_limit(
    limits: &Limits,
    cluster_secret: Option<String>,
) -> (agents::ClientLimitsLayer, Arc<dyn Fn() + Send + Sync>) {
    let layer = agents::ClientLimitsLayer::new(limits, cluster_secret);
    let sweep = layer.sweeper();
    (layer, sweep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_caps_count_and_release() {
        let caps = Arc::new(ClientCaps::default());
        let ip: IpAddr = "10.0.0.1".parse().expect("ip");
        let g1 = caps.open_stream(Some(ip), 2).expect("first");
        let _g2 = caps.open_stream(Some(ip), 2).expect("second");
        assert!(caps.open_stream(Some(ip), 2).is_err());
        drop(g1);
        assert_eq!(caps.streams_of(ip), 1);
        assert!(caps.open_stream(Some(ip), 2).is_ok());
        assert!(caps.count_game(Some(ip), 1).is_ok());
        assert!(caps.count_game(Some(ip), 1).is_err());
        caps.game_ended(Some(ip));
        assert!(caps.count_game(Some(ip), 1).is_ok(), "only live games count");
    }
}
