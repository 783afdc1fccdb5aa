//! Calls forwarded between the nodes of a cluster: a node that is asked
//! about a game another node owns passes the call on over gRPC to that
//! node's published address, with the caller's address and the cluster's
//! secret in metadata (`limits/agents.rs` trusts the address only with
//! the secret, and counts the call against the caller, not the node). A
//! forwarded call is never forwarded again: when the two nodes disagree on
//! the owner, the caller hears UNAVAILABLE and retries.

use crate::store::GameStore;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tonic::Status;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Channel, Endpoint};
use tracing::{debug, warn};

/// The metadata key of the cluster's secret on a forwarded call.
pub const CLUSTER_HEADER: &str = "x-tabletop-cluster";
/// The metadata key of the original caller's address on a forwarded call.
pub const FORWARDED_FOR_HEADER: &str = "x-tabletop-forwarded-for";
/// The keys earlier releases sent for the same two (cluster secret, caller's
/// address), still read so that nodes of both releases forward to each
/// other during a rolling upgrade.
pub const OLD_HEADERS: (&str, &str) = ("x-xodus-cluster", "x-xodus-forwarded-for");

/// Marks a call (in its request extensions) that another node forwarded.
#[derive(Clone, Copy, Debug)]
pub struct Forwarded;

/// The other nodes, as this node reaches them.
pub struct Peers {
    store: Arc<dyn GameStore>,
    secret: MetadataValue<Ascii>,
    /// A channel per node, with the address it was made for and when that
    /// address was read.
    channels: Mutex<HashMap<String, (String, Channel, Instant)>>,
}

/// How long a node's address, once read, is used without reading it again
/// (a failed call forgets it sooner).
const ADDRESS_KNOWN_FOR: Duration = Duration::from_secs(10);

impl Peers {
    /// The peers of a node on a shared store; `None` on a store of one
    /// node's own.
    pub fn of(store: Arc<dyn GameStore>) -> Option<Peers> {
        let secret = store.cluster()?.secret().parse().ok()?;
        Some(Peers { store, secret, channels: Mutex::default() })
    }

    /// A client of node `node`, over a channel kept for it.
    pub async fn client(&self, node: &str) -> Result<GameServiceClient<Channel>, Status> {
        if let Some((_, c, read)) = self.channels.lock().unwrap_or_else(|e| e.into_inner()).get(node)
            && read.elapsed() < ADDRESS_KNOWN_FOR
        {
            return Ok(GameServiceClient::new(c.clone()).max_decoding_message_size(16 * 1024 * 1024));
        }
        let (store, name) = (Arc::clone(&self.store), node.to_string());
        let address = tokio::task::spawn_blocking(move || store.cluster().map(|c| c.node_address(&name)))
            .await
            .map_err(|e| Status::internal(format!("storage task: {e}")))?;
        let address = match address {
            Some(Ok(Some(a))) => a,
            Some(Ok(None)) | None => {
                return Err(Status::unavailable(format!(
                    "the game is hosted by node {node}, which has not said where it answers; retry in a moment"
                )));
            }
            Some(Err(e)) => return Err(Status::unavailable(format!("cannot look node {node} up: {e}"))),
        };
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((a, c, read)) = channels.get_mut(node)
            && *a == address
        {
            *read = Instant::now();
            return Ok(GameServiceClient::new(c.clone()).max_decoding_message_size(16 * 1024 * 1024));
        }
        let endpoint = Endpoint::from_shared(address.clone())
            .map_err(|e| Status::unavailable(format!("node {node} published a bad address {address}: {e}")))?
            .connect_timeout(Duration::from_secs(2))
            .http2_keep_alive_interval(Duration::from_secs(10))
            .keep_alive_timeout(Duration::from_secs(5))
            .tcp_nodelay(true);
        let channel = endpoint.connect_lazy();
        channels.insert(node.to_string(), (address, channel.clone(), Instant::now()));
        Ok(GameServiceClient::new(channel).max_decoding_message_size(16 * 1024 * 1024))
    }

    /// Forgets node `node`'s address: it did not answer, and may have come
    /// back elsewhere.
    pub fn forget(&self, node: &str) {
        self.channels.lock().unwrap_or_else(|e| e.into_inner()).remove(node);
    }

    /// `message` as a call forwarded for the caller at `ip`.
    pub fn request<T>(&self, message: T, ip: Option<IpAddr>) -> tonic::Request<T> {
        let mut req = tonic::Request::new(message);
        req.metadata_mut().insert(CLUSTER_HEADER, self.secret.clone());
        if let Some(value) = ip.and_then(|ip| ip.to_string().parse().ok()) {
            req.metadata_mut().insert(FORWARDED_FOR_HEADER, value);
        }
        req
    }
}

/// What the caller hears when the owner did not answer: a transport
/// failure becomes UNAVAILABLE with the node named; the owner's own
/// answers pass unchanged (an UNAVAILABLE it sent itself too: a stream of
/// a game it handed over or lost, a node shutting down).
pub fn owner_failed(node: &str, status: Status) -> Status {
    let transport = std::error::Error::source(&status).is_some();
    if status.code() == tonic::Code::Unavailable && !transport {
        debug!(node, status = %status.message(), "the game's node answered UNAVAILABLE");
        return status;
    }
    if matches!(status.code(), tonic::Code::Unavailable | tonic::Code::Unknown) {
        if first_in_a_while(node) {
            warn!(node, error = %status, "the game's node did not answer a forwarded call (said once per node every 10 s)");
        } else {
            debug!(node, error = %status, "the game's node did not answer a forwarded call");
        }
        return Status::unavailable(format!(
            "the game's node {node} did not answer ({}); retry: another node takes its games over when it is gone",
            status.message()
        ));
    }
    status
}

/// Whether a node's silence was not reported in the last 10 seconds (a
/// dead node fails every call forwarded to it until its games move).
fn first_in_a_while(node: &str) -> bool {
    static LAST: std::sync::OnceLock<Mutex<HashMap<String, Instant>>> = std::sync::OnceLock::new();
    let mut last = LAST.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner());
    match last.get(node) {
        Some(t) if t.elapsed() < Duration::from_secs(10) => false,
        _ => {
            last.insert(node.to_string(), Instant::now());
            true
        }
    }
}
