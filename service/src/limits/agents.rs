//! Agent credentials: an operator hands an AI agent process a key (one of
//! the lines of `--agent-key-file`), the agent sends it as `x-agent-key`
//! metadata on every call, and the server counts it against agent caps of
//! its own (open streams, requests per second) instead of the per-address
//! ones a stranger on the same host shares. A call with an unknown key is
//! UNAUTHENTICATED; a call without one is an ordinary client's.
//!
//! Only each key's SHA-256 is kept, and the key is never logged: the gate
//! takes the header off before the call goes on. A keyed call's client
//! address becomes a per-key address in the IPv6 multicast range
//! (`ff0e:a6e7::/32`, which no TCP peer can have), with the agent stream
//! cap in it, so the per-client counters (`ClientCaps`) count each agent
//! apart, against its own cap.
//!
//! A call from a trusted load balancer (`--trusted-proxy`) counts as the
//! caller its `x-forwarded-for` names last (the address the balancer saw).
//!
//! A call another node of the cluster forwarded (`peers.rs`) carries the
//! cluster's secret: it goes on as its original caller's address, already
//! held to that caller's rate by the node it came in through. A wrong
//! secret is UNAUTHENTICATED.

use super::client_ip;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::codegen::http;

/// The metadata key an agent's credential travels in.
pub const AGENT_KEY_HEADER: &str = "x-agent-key";

/// The first two groups of an agent's client address.
const AGENT_PREFIX: [u16; 2] = [0xff0e, 0xa6e7];

/// Why the key file was refused.
#[derive(Debug, thiserror::Error)]
pub enum AgentKeyError {
    /// The file could not be read.
    #[error("cannot read the agent key file {0}: {1}")]
    Read(String, std::io::Error),
    /// A line is not a key (the key itself is never printed).
    #[error("agent key file, line {line}: {why}")]
    Line {
        /// From 1.
        line: usize,
        /// What is wrong with it.
        why: &'static str,
    },
    /// No key at all.
    #[error("the agent key file holds no key")]
    Empty,
}

/// The keys the operator handed out, by their SHA-256.
pub struct AgentKeys {
    by_hash: HashMap<[u8; 32], u32>,
    names: Vec<String>,
}

impl std::fmt::Debug for AgentKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AgentKeys({:?})", self.names)
    }
}

impl AgentKeys {
    /// Reads the lines of a key file: `KEY` or `NAME KEY` (the name is
    /// for the logs), blank lines and `#` comments ignored. A key is at
    /// least 16 characters of printable ASCII without spaces.
    pub fn parse(text: &str) -> Result<AgentKeys, AgentKeyError> {
        let mut keys = AgentKeys { by_hash: HashMap::new(), names: Vec::new() };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (name, key) = match fields.as_slice() {
                [key] => (format!("agent-{}", keys.names.len() + 1), *key),
                [name, key] => ((*name).to_string(), *key),
                _ => return Err(AgentKeyError::Line { line: i + 1, why: "expected KEY or NAME KEY" }),
            };
            if key.len() < 16 || !key.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(AgentKeyError::Line {
                    line: i + 1,
                    why: "a key is at least 16 printable ASCII characters without spaces",
                });
            }
            let index = u32::try_from(keys.names.len()).unwrap_or(u32::MAX);
            if keys.by_hash.insert(hash(key), index).is_some() {
                return Err(AgentKeyError::Line { line: i + 1, why: "this key is listed twice" });
            }
            keys.names.push(name);
        }
        if keys.names.is_empty() {
            return Err(AgentKeyError::Empty);
        }
        Ok(keys)
    }

    /// Reads a key file.
    pub fn load(path: &Path) -> Result<AgentKeys, AgentKeyError> {
        let text = std::fs::read_to_string(path).map_err(|e| AgentKeyError::Read(path.display().to_string(), e))?;
        AgentKeys::parse(&text)
    }

    /// The index of a presented key, if it is one of ours.
    pub fn find(&self, key: &[u8]) -> Option<u32> {
        self.by_hash.get(&hash_bytes(key)).copied()
    }

    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is none (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

fn hash(key: &str) -> [u8; 32] {
    hash_bytes(key.as_bytes())
}

fn hash_bytes(key: &[u8]) -> [u8; 32] {
    Sha256::digest(key).into()
}

/// The agent caps and keys.
#[derive(Clone, Debug)]
pub struct AgentCaps {
    /// The keys handed out.
    pub keys: Arc<AgentKeys>,
    /// Streams one agent key may hold open at once.
    pub max_streams: usize,
    /// Requests per second one agent key may send (burst: as many).
    pub requests_per_second: u32,
}

/// The client address of agent `index`, carrying its stream cap.
pub fn agent_address(index: u32, max_streams: usize) -> IpAddr {
    let cap = u32::try_from(max_streams).unwrap_or(u32::MAX);
    IpAddr::V6(Ipv6Addr::new(
        AGENT_PREFIX[0],
        AGENT_PREFIX[1],
        (cap >> 16) as u16,
        cap as u16,
        0,
        0,
        (index >> 16) as u16,
        index as u16,
    ))
}

/// The stream cap carried by an agent's client address; `None` for any
/// other address.
pub fn agent_stream_cap(ip: IpAddr) -> Option<usize> {
    let IpAddr::V6(v6) = ip else { return None };
    let s = v6.segments();
    (s[..2] == AGENT_PREFIX).then(|| ((u32::from(s[2]) << 16) | u32::from(s[3])) as usize)
}

/// A keyed GCRA limiter of `per_second` requests a second, burst as many.
fn limiter<K: std::hash::Hash + Eq + Clone>(per_second: u32) -> governor::DefaultKeyedRateLimiter<K> {
    let per_second = NonZeroU32::new(per_second.max(1)).unwrap_or(NonZeroU32::MIN);
    governor::RateLimiter::keyed(governor::Quota::per_second(per_second).allow_burst(per_second))
}

/// The per-client rate limit and the agent gate, as one layer: a call
/// without a key is held to its address's rate; a call with a known key to
/// its agent's own rate, and goes on with its agent address.
#[derive(Clone)]
pub struct ClientLimitsLayer {
    gate: Arc<Gate>,
}

/// The limiters and the agents' keys.
struct Gate {
    per_second: u32,
    by_address: governor::DefaultKeyedRateLimiter<IpAddr>,
    agents: Option<(AgentCaps, governor::DefaultKeyedRateLimiter<u32>)>,
    /// The cluster's secret (several nodes on a shared store).
    cluster_secret: Option<String>,
    /// Balancers whose `x-forwarded-for` is believed.
    trusted_proxies: Vec<IpAddr>,
}

impl ClientLimitsLayer {
    /// The limits' rate per address, agent caps and trusted balancers,
    /// and the cluster's secret on a node of one.
    pub fn new(limits: &super::Limits, cluster_secret: Option<String>) -> ClientLimitsLayer {
        let per_second = limits.requests_per_second;
        let agents = limits.agents.clone().map(|caps| {
            let l = limiter(caps.requests_per_second);
            (caps, l)
        });
        let trusted_proxies = limits.trusted_proxies.clone();
        ClientLimitsLayer {
            gate: Arc::new(Gate {
                per_second,
                by_address: limiter(per_second),
                agents,
                cluster_secret,
                trusted_proxies,
            }),
        }
    }

    /// Forgets the clients not seen for a while (called now and then).
    pub fn sweeper(&self) -> Arc<dyn Fn() + Send + Sync> {
        let gate = Arc::clone(&self.gate);
        Arc::new(move || {
            gate.by_address.retain_recent();
            if let Some((_, l)) = &gate.agents {
                l.retain_recent();
            }
        })
    }
}

impl<S> tower::Layer<S> for ClientLimitsLayer {
    type Service = ClientLimits<S>;

    fn layer(&self, inner: S) -> ClientLimits<S> {
        ClientLimits { inner, gate: Arc::clone(&self.gate) }
    }
}

/// See [`ClientLimitsLayer`].
#[derive(Clone)]
pub struct ClientLimits<S> {
    inner: S,
    gate: Arc<Gate>,
}

/// Marks a call (in its request extensions) that came with a valid agent
/// key.
#[derive(Clone, Copy, Debug)]
pub struct AgentCall;

/// What the gate makes of a call.
enum Verdict {
    /// Within its address's rate (the caller a trusted balancer named, when
    /// it came through one).
    Ordinary(Option<IpAddr>),
    /// A known key within its rate: go on as this address.
    Agent(IpAddr),
    /// Forwarded by another node for this caller.
    Forwarded(IpAddr),
    /// Refused with this status.
    Refused(tonic::Status),
}

impl Gate {
    fn judge<B>(&self, req: &http::Request<B>) -> Verdict {
        use governor::clock::Clock;
        let (old_secret, old_for) = crate::peers::OLD_HEADERS;
        let (secret, key, forwarded_for) = match req.headers().get(crate::peers::CLUSTER_HEADER) {
            Some(secret) => (Some(secret), crate::peers::CLUSTER_HEADER, crate::peers::FORWARDED_FOR_HEADER),
            None => (req.headers().get(old_secret), old_secret, old_for),
        };
        if let Some(secret) = secret {
            return match &self.cluster_secret {
                Some(s) if s.as_bytes() == secret.as_bytes() => {
                    let caller = req.headers().get(forwarded_for);
                    let ip = caller.and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
                    Verdict::Forwarded(ip.unwrap_or(IpAddr::from([0, 0, 0, 0])))
                }
                _ => Verdict::Refused(tonic::Status::unauthenticated(format!(
                    "{key} is for the nodes of a cluster, and this one is not its secret"
                ))),
            };
        }
        let key = req.headers().get(AGENT_KEY_HEADER);
        let Some(key) = key else {
            let named = self.named_by_balancer(req);
            return match self.by_address.check_key(&named.unwrap_or_else(|| client_ip(req))) {
                Ok(()) => Verdict::Ordinary(named),
                Err(not_until) => {
                    let wait = not_until.wait_time_from(governor::clock::DefaultClock::default().now());
                    Verdict::Refused(tonic::Status::resource_exhausted(format!(
                        "more than {} requests per second from this client address; slow down (retry in {} s)",
                        self.per_second,
                        wait.as_secs_f64().ceil()
                    )))
                }
            };
        };
        let found = self.agents.as_ref().and_then(|(caps, l)| Some((caps, l, caps.keys.find(key.as_bytes())?)));
        let Some((caps, limiter, index)) = found else {
            return Verdict::Refused(tonic::Status::unauthenticated(
                "unknown agent key (x-agent-key): ask the server's operator for one, or call without it",
            ));
        };
        if limiter.check_key(&index).is_err() {
            return Verdict::Refused(tonic::Status::resource_exhausted(format!(
                "more than {} requests per second with this agent key; slow down",
                caps.requests_per_second
            )));
        }
        Verdict::Agent(agent_address(index, caps.max_streams))
    }
}

impl Gate {
    /// The caller a trusted balancer names: the last address of its
    /// `x-forwarded-for` (the one it saw; earlier ones are the caller's
    /// own say). `None` for a call that did not come through one.
    fn named_by_balancer<B>(&self, req: &http::Request<B>) -> Option<IpAddr> {
        if self.trusted_proxies.is_empty() || !self.trusted_proxies.contains(&client_ip(req)) {
            return None;
        }
        let header = req.headers().get_all("x-forwarded-for").iter().next_back()?;
        header.to_str().ok()?.rsplit(',').next()?.trim().parse().ok()
    }
}

/// Puts `ip` as the call's client address.
fn call_as<B>(req: &mut http::Request<B>, ip: IpAddr) {
    let local = req.extensions().get::<tonic::transport::server::TcpConnectInfo>().and_then(|c| c.local_addr());
    req.extensions_mut().insert(tonic::transport::server::TcpConnectInfo {
        local_addr: local,
        remote_addr: Some(SocketAddr::new(ip, 0)),
    });
}

impl<S, B> tower::Service<http::Request<B>> for ClientLimits<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<tonic::body::Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<B>) -> Self::Future {
        let verdict = self.gate.judge(&req);
        if matches!(verdict, Verdict::Agent(_)) {
            req.extensions_mut().insert(AgentCall);
        }
        match verdict {
            Verdict::Ordinary(named) => {
                if let Some(ip) = named {
                    call_as(&mut req, ip);
                }
                Box::pin(self.inner.call(req))
            }
            Verdict::Refused(status) => Box::pin(std::future::ready(Ok(status.into_http()))),
            Verdict::Agent(ip) | Verdict::Forwarded(ip) => {
                let (old_secret, old_for) = crate::peers::OLD_HEADERS;
                let new = req.headers_mut().remove(crate::peers::CLUSTER_HEADER).is_some();
                let old = req.headers_mut().remove(old_secret).is_some();
                if new || old {
                    req.headers_mut().remove(crate::peers::FORWARDED_FOR_HEADER);
                    req.headers_mut().remove(old_for);
                    req.extensions_mut().insert(crate::peers::Forwarded);
                }
                req.headers_mut().remove(AGENT_KEY_HEADER);
                call_as(&mut req, ip);
                Box::pin(self.inner.call(req))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_files_are_read_and_checked_without_echoing_a_key() {
        let keys = AgentKeys::parse("# operators' agents\n\nfill-1 0123456789abcdef0123\nfedcba9876543210fedc\n")
            .expect("keys");
        assert_eq!(keys.len(), 2);
        assert_eq!(keys.find(b"0123456789abcdef0123"), Some(0));
        assert_eq!(keys.find(b"fedcba9876543210fedc"), Some(1));
        assert_eq!(keys.find(b"0123456789abcdef012"), None);
        assert!(!format!("{keys:?}").contains("0123456789"), "Debug names, never keys: {keys:?}");
        let short = AgentKeys::parse("tooshort").expect_err("short");
        assert!(!short.to_string().contains("tooshort"), "{short}");
        assert!(AgentKeys::parse("a b c").is_err());
        assert!(AgentKeys::parse("0123456789abcdef\n0123456789abcdef").is_err(), "twice");
        assert!(matches!(AgentKeys::parse("# none\n"), Err(AgentKeyError::Empty)));
    }

    #[test]
    fn an_agent_address_carries_its_stream_cap_and_no_other_address_does() {
        let ip = agent_address(3, 8192);
        assert_eq!(agent_stream_cap(ip), Some(8192));
        assert_ne!(agent_address(4, 8192), ip, "one address per key");
        assert_eq!(agent_stream_cap("127.0.0.1".parse().expect("ip")), None);
        assert_eq!(agent_stream_cap("fd00::1".parse().expect("ip")), None);
    }
}
