//! Limits that protect the server: the numbers ([`Limits`]), per-client caps
//! on games and open streams ([`ClientCaps`], a client being its IP
//! address), and a per-connection request rate limit as a tower layer
//! ([`RateLimitLayer`], a connection being its remote address and port).
//! Over a limit, requests are refused with RESOURCE_EXHAUSTED rather than
//! queued, so a misbehaving client learns at once.

use crate::error::ServiceError;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tonic::codegen::http;

/// The numbers.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games hosted at once, all clients together.
    pub max_games: usize,
    /// Games one client (IP address) may create or fork since the start.
    pub max_games_per_client: usize,
    /// Streams (StreamGame + WatchLobby) one client may hold open at once.
    pub max_streams_per_client: usize,
    /// Largest request message, in bytes.
    pub max_message_bytes: usize,
    /// Deadline of a unary request (streams are not cut by it).
    pub request_timeout: Duration,
    /// Requests per second one connection may send (burst: one second's worth).
    pub requests_per_second: u32,
    /// Idle timeout of new games, in seconds (0 = seats never go idle).
    pub idle_timeout_s: u32,
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
            idle_timeout_s: 0,
        }
    }
}

/// Per-client counters.
#[derive(Default)]
pub struct ClientCaps {
    /// Open streams per client.
    streams: Mutex<HashMap<IpAddr, usize>>,
    /// Games created per client.
    games: Mutex<HashMap<IpAddr, usize>>,
}

/// Holds one stream slot of a client; gives it back when dropped.
pub struct StreamGuard {
    caps: Arc<ClientCaps>,
    ip: Option<IpAddr>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            let mut m = self.caps.streams.lock().unwrap_or_else(|e| e.into_inner());
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
    /// Takes a stream slot for `ip` (no address: not counted).
    pub fn open_stream(self: &Arc<Self>, ip: Option<IpAddr>, max: usize) -> Result<StreamGuard, ServiceError> {
        if let Some(ip) = ip {
            let mut m = self.streams.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= max {
                return Err(ServiceError::ResourceExhausted(format!(
                    "this client already has {max} open streams; close one first"
                )));
            }
            *n += 1;
        }
        Ok(StreamGuard { caps: Arc::clone(self), ip })
    }

    /// Counts one more game for `ip`, or refuses past `max`.
    pub fn count_game(&self, ip: Option<IpAddr>, max: usize) -> Result<(), ServiceError> {
        if let Some(ip) = ip {
            let mut m = self.games.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= max {
                return Err(ServiceError::ResourceExhausted(format!("this client has already created {max} games")));
            }
            *n += 1;
        }
        Ok(())
    }

    /// Open streams of `ip` (tests).
    pub fn streams_of(&self, ip: IpAddr) -> usize {
        self.streams.lock().unwrap_or_else(|e| e.into_inner()).get(&ip).copied().unwrap_or(0)
    }
}

/// Token buckets, one per connection (remote address and port).
struct Buckets {
    /// Tokens left and the time they were counted.
    map: HashMap<SocketAddr, (f64, Instant)>,
    /// Last time idle buckets were swept.
    swept: Instant,
}

/// A tower layer refusing requests past `per_second` on one connection.
#[derive(Clone)]
pub struct RateLimitLayer {
    per_second: f64,
    buckets: Arc<Mutex<Buckets>>,
}

impl RateLimitLayer {
    /// `per_second` requests per connection, with a burst of as many.
    pub fn new(per_second: u32) -> RateLimitLayer {
        RateLimitLayer {
            per_second: f64::from(per_second.max(1)),
            buckets: Arc::new(Mutex::new(Buckets { map: HashMap::new(), swept: Instant::now() })),
        }
    }

    /// Takes one token for `addr`; false when the bucket is empty.
    fn take(&self, addr: SocketAddr) -> bool {
        let now = Instant::now();
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if now.duration_since(b.swept) > Duration::from_secs(60) {
            let rate = self.per_second;
            b.map.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * rate < rate);
            b.swept = now;
        }
        let (tokens, at) = b.map.entry(addr).or_insert((self.per_second, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.per_second);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

impl<S> tower::Layer<S> for RateLimitLayer {
    type Service = RateLimit<S>;
    fn layer(&self, inner: S) -> RateLimit<S> {
        RateLimit { inner, limiter: self.clone() }
    }
}

/// The service made by [`RateLimitLayer`].
#[derive(Clone)]
pub struct RateLimit<S> {
    inner: S,
    limiter: RateLimitLayer,
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<S, B, R> tower::Service<http::Request<B>> for RateLimit<S>
where
    S: tower::Service<http::Request<B>, Response = R>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    type Response = R;
    type Error = BoxError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<R, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let addr = req.extensions().get::<tonic::transport::server::TcpConnectInfo>().and_then(|c| c.remote_addr());
        if let Some(addr) = addr
            && !self.limiter.take(addr)
        {
            let status = tonic::Status::resource_exhausted(format!(
                "more than {} requests per second on this connection; slow down",
                self.limiter.per_second
            ));
            return Box::pin(async move { Err(Box::new(status) as BoxError) });
        }
        let fut = self.inner.call(req);
        Box::pin(async move { fut.await.map_err(Into::into) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refuses_past_the_rate() {
        let a: SocketAddr = "127.0.0.1:1000".parse().expect("addr");
        let b: SocketAddr = "127.0.0.1:1001".parse().expect("addr");
        // The bucket refills one token every 200 ms: only a try that took
        // less than that must refuse the sixth request (a preempted thread
        // on a loaded machine just tries again).
        for _ in 0..100 {
            let l = RateLimitLayer::new(5);
            let start = Instant::now();
            assert!((0..5).all(|_| l.take(a)), "a full bucket to start with");
            let sixth = l.take(a);
            if start.elapsed() < Duration::from_millis(200) {
                assert!(!sixth, "sixth request within one refill");
                assert!(l.take(b), "another connection has its own bucket");
                return;
            }
        }
        panic!("no try of six requests within 200 ms");
    }

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
    }
}
