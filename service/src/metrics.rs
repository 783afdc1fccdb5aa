//! The figures an operator graphs, kept in process memory and written as
//! Prometheus text: calls by method and status with their latency, calls
//! in flight (open streams among them), live games, commit batch sizes and
//! lease takeovers. Recording is a few atomic adds or one short lock; the
//! text is built only when scraped (`serve`, on a port of its own).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Upper bounds of the latency buckets, in seconds.
const LATENCY_BOUNDS: [f64; 10] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 2.5, 10.0];
/// Upper bounds of the commit batch size buckets, in requests.
const BATCH_BOUNDS: [f64; 8] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0];

/// The methods whose calls stay open as streams.
pub const STREAMING_METHODS: [&str; 4] = ["StreamGame", "WatchLobby", "Play", "FollowGames"];

/// A histogram with fixed buckets.
#[derive(Debug, Default)]
struct Histogram {
    /// Counts per bucket (not cumulative), then the overflow.
    buckets: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn observe(&mut self, bounds: &[f64], v: f64) {
        if self.buckets.is_empty() {
            self.buckets = vec![0; bounds.len() + 1];
        }
        let i = bounds.iter().position(|b| v <= *b).unwrap_or(bounds.len());
        self.buckets[i] += 1;
        self.sum += v;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str, bounds: &[f64]) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (i, b) in bounds.iter().enumerate() {
            cumulative += self.buckets.get(i).copied().unwrap_or(0);
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{b}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}", self.count);
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// Every figure of the process.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Per (method, status): latency histogram (its count is the calls).
    calls: Mutex<BTreeMap<(String, String), Histogram>>,
    /// Calls begun and not ended, per method.
    in_flight: Mutex<BTreeMap<String, i64>>,
    /// Commit batches, by number of requests.
    batches: Mutex<Histogram>,
    /// Game leases taken over from another node.
    takeovers: AtomicU64,
    /// Games held in memory (set by the manager's upkeep or at scrape).
    live_games: AtomicI64,
}

/// The process's figures.
pub fn global() -> &'static Metrics {
    static M: OnceLock<Metrics> = OnceLock::new();
    M.get_or_init(Metrics::default)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Metrics {
    /// A call of `method` began.
    pub fn call_began(&self, method: &str) {
        *lock(&self.in_flight).entry(method.to_string()).or_insert(0) += 1;
    }

    /// A call of `method` ended with `status` (a gRPC code's name) after
    /// `latency`.
    pub fn call_ended(&self, method: &str, status: &str, latency: Duration) {
        if let Some(n) = lock(&self.in_flight).get_mut(method) {
            *n -= 1;
        }
        lock(&self.calls)
            .entry((method.to_string(), status.to_string()))
            .or_default()
            .observe(&LATENCY_BOUNDS, latency.as_secs_f64());
    }

    /// A commit of `requests` requests in one transaction.
    pub fn commit_batch(&self, requests: usize) {
        lock(&self.batches).observe(&BATCH_BOUNDS, requests as f64);
    }

    /// A game's lease was taken over from another node.
    pub fn lease_takeover(&self) {
        self.takeovers.fetch_add(1, Ordering::Relaxed);
    }

    /// The games held now.
    pub fn set_live_games(&self, n: usize) {
        self.live_games.store(i64::try_from(n).unwrap_or(i64::MAX), Ordering::Relaxed);
    }

    /// Calls of `method` ended with `status` so far.
    pub fn calls(&self, method: &str, status: &str) -> u64 {
        lock(&self.calls).get(&(method.to_string(), status.to_string())).map_or(0, |h| h.count)
    }

    /// Calls of `method` open now.
    pub fn in_flight(&self, method: &str) -> i64 {
        lock(&self.in_flight).get(method).copied().unwrap_or(0)
    }

    /// The Prometheus text exposition of every figure.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str("# HELP xodus_rpc_duration_seconds gRPC calls by method and status, and how long they took (a stream: until it ended).\n");
        out.push_str("# TYPE xodus_rpc_duration_seconds histogram\n");
        for ((method, status), h) in lock(&self.calls).iter() {
            let labels = format!("method=\"{}\",status=\"{}\"", escape(method), escape(status));
            h.write(&mut out, "xodus_rpc_duration_seconds", &labels, &LATENCY_BOUNDS);
        }
        out.push_str("# HELP xodus_rpc_in_flight gRPC calls begun and not ended, by method.\n");
        out.push_str("# TYPE xodus_rpc_in_flight gauge\n");
        let in_flight = lock(&self.in_flight).clone();
        for (method, n) in &in_flight {
            let _ = writeln!(out, "xodus_rpc_in_flight{{method=\"{}\"}} {n}", escape(method));
        }
        let streams: i64 = in_flight
            .iter()
            .filter(|(m, _)| STREAMING_METHODS.iter().any(|s| m.ends_with(&format!("/{s}"))))
            .map(|(_, n)| n)
            .sum();
        out.push_str(
            "# HELP xodus_open_streams Server streams open now (StreamGame, WatchLobby, Play, FollowGames).\n",
        );
        out.push_str("# TYPE xodus_open_streams gauge\n");
        let _ = writeln!(out, "xodus_open_streams {streams}");
        out.push_str("# HELP xodus_live_games Games this node holds in memory.\n");
        out.push_str("# TYPE xodus_live_games gauge\n");
        let _ = writeln!(out, "xodus_live_games {}", self.live_games.load(Ordering::Relaxed));
        out.push_str("# HELP xodus_commit_batch_requests Requests committed together in one transaction.\n");
        out.push_str("# TYPE xodus_commit_batch_requests histogram\n");
        lock(&self.batches).write(&mut out, "xodus_commit_batch_requests", "", &BATCH_BOUNDS);
        out.push_str("# HELP xodus_lease_takeovers_total Game leases taken over from another node.\n");
        out.push_str("# TYPE xodus_lease_takeovers_total counter\n");
        let _ = writeln!(out, "xodus_lease_takeovers_total {}", self.takeovers.load(Ordering::Relaxed));
        out
    }
}

/// A label value with `\`, `"` and newlines escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

/// Answers `GET /metrics` on `listener` with the figures (after
/// `before_scrape`, which refreshes the gauges), anything else with 404,
/// until the task is dropped. A plain HTTP/1.1 exchange per connection:
/// scrapers need no more.
pub async fn serve(listener: TcpListener, before_scrape: impl Fn() + Send + Sync + 'static) {
    let before_scrape = std::sync::Arc::new(before_scrape);
    loop {
        let Ok((mut sock, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let before_scrape = before_scrape.clone();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            let mut got = 0;
            let read = tokio::time::timeout(Duration::from_secs(5), async {
                while got < buf.len() {
                    match sock.read(&mut buf[got..]).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => got += n,
                    }
                    if buf[..got].windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
            })
            .await;
            if read.is_err() {
                return;
            }
            let head = String::from_utf8_lossy(&buf[..got]);
            let line = head.lines().next().unwrap_or("");
            let reply = if line.starts_with("GET /metrics ") || line == "GET /metrics" {
                before_scrape();
                let body = global().render();
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
            } else {
                let body = "only GET /metrics is served here\n";
                format!(
                    "HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
            };
            let _ = sock.write_all(reply.as_bytes()).await;
            let _ = sock.shutdown().await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_counted_by_method_and_status_with_cumulative_buckets() {
        let m = Metrics::default();
        m.call_began("/tabletop.v1.GameService/GetView");
        m.call_ended("/tabletop.v1.GameService/GetView", "Ok", Duration::from_micros(800));
        m.call_began("/tabletop.v1.GameService/GetView");
        m.call_ended("/tabletop.v1.GameService/GetView", "NotFound", Duration::from_millis(3));
        m.call_began("/tabletop.v1.GameService/StreamGame");
        m.commit_batch(5);
        m.lease_takeover();
        m.set_live_games(7);
        let text = m.render();
        assert!(
            text.contains("xodus_rpc_duration_seconds_bucket{method=\"/tabletop.v1.GameService/GetView\",status=\"Ok\",le=\"0.001\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("xodus_rpc_duration_seconds_bucket{method=\"/tabletop.v1.GameService/GetView\",status=\"NotFound\",le=\"0.001\"} 0"),
            "{text}"
        );
        assert!(
            text.contains(
                "xodus_rpc_duration_seconds_count{method=\"/tabletop.v1.GameService/GetView\",status=\"NotFound\"} 1"
            ),
            "{text}"
        );
        assert!(text.contains("xodus_rpc_in_flight{method=\"/tabletop.v1.GameService/GetView\"} 0"), "{text}");
        assert!(text.contains("xodus_open_streams 1"), "{text}");
        assert!(text.contains("xodus_live_games 7"), "{text}");
        assert!(text.contains("xodus_commit_batch_requests_bucket{le=\"4\"} 0"), "{text}");
        assert!(text.contains("xodus_commit_batch_requests_bucket{le=\"8\"} 1"), "{text}");
        assert!(text.contains("xodus_lease_takeovers_total 1"), "{text}");
        assert_eq!(m.calls("/tabletop.v1.GameService/GetView", "Ok"), 1);
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }

    #[tokio::test]
    async fn the_endpoint_serves_the_text_and_nothing_else() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(serve(listener, || global().set_live_games(3)));
        let ask = |path: &'static str| async move {
            let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
            s.write_all(format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes()).await.expect("write");
            let mut out = String::new();
            s.read_to_string(&mut out).await.expect("read");
            out
        };
        let ok = ask("/metrics").await;
        assert!(ok.starts_with("HTTP/1.1 200 OK"), "{ok}");
        assert!(ok.contains("# TYPE xodus_live_games gauge"), "{ok}");
        let other = ask("/").await;
        assert!(other.starts_with("HTTP/1.1 404"), "{other}");
        task.abort();
    }
}
