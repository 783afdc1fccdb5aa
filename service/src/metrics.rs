//! The figures an operator graphs, with the Prometheus project's client
//! library (`prometheus-client`): calls by method and status with their
//! latency, calls in flight (open streams among them), live games, commit
//! batch sizes, the game leases this node holds and has taken over, and
//! when the node started (so that a counter's drop reads as a restart, and
//! takeovers and balance can be read across restarts). Recording is an
//! atomic add or a short lock; the OpenMetrics text is written only when
//! scraped (`serve`: `GET /metrics` on a port of its own, over axum).

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::net::TcpListener;

/// Upper bounds of the latency buckets, in seconds.
const LATENCY_BOUNDS: [f64; 10] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 2.5, 10.0];
/// Upper bounds of the commit batch size buckets, in requests.
const BATCH_BOUNDS: [f64; 8] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0];

/// The methods whose calls stay open as streams.
pub const STREAMING_METHODS: [&str; 4] = ["StreamGame", "WatchLobby", "Play", "FollowGames"];

/// A call's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    method: String,
    status: String,
}

/// A method's label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MethodLabel {
    method: String,
}

/// A latency histogram with the service's buckets.
fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BOUNDS)
}

/// Every figure of the process, and the registry they are written from.
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Histogram, fn() -> Histogram>,
    in_flight: Family<MethodLabel, Gauge>,
    open_streams: Gauge,
    live_games: Gauge,
    batches: Histogram,
    takeovers: Counter,
    leases_held: Gauge,
    started: Gauge,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let m = Metrics {
            registry: Registry::default(),
            calls: Family::new_with_constructor(latency_histogram as fn() -> Histogram),
            in_flight: Family::default(),
            open_streams: Gauge::default(),
            live_games: Gauge::default(),
            batches: Histogram::new(BATCH_BOUNDS),
            takeovers: Counter::default(),
            leases_held: Gauge::default(),
            started: Gauge::default(),
        };
        let started = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        m.started.set(i64::try_from(started.as_secs()).unwrap_or(i64::MAX));
        let mut registry = Registry::default();
        registry.register(
            "xodus_rpc_duration_seconds",
            "gRPC calls by method and status, and how long they took (a stream: until it ended)",
            m.calls.clone(),
        );
        registry.register("xodus_rpc_in_flight", "gRPC calls begun and not ended, by method", m.in_flight.clone());
        registry.register(
            "xodus_open_streams",
            "Server streams open now (StreamGame, WatchLobby, Play, FollowGames)",
            m.open_streams.clone(),
        );
        registry.register("xodus_live_games", "Games this node holds in memory", m.live_games.clone());
        registry.register(
            "xodus_commit_batch_requests",
            "Requests committed together in one transaction",
            m.batches.clone(),
        );
        registry.register(
            "xodus_lease_takeovers",
            "Game leases this node took over from another node since it started",
            m.takeovers.clone(),
        );
        registry.register(
            "xodus_leases_held",
            "Game leases this node holds now (games it owns on a shared store)",
            m.leases_held.clone(),
        );
        registry.register(
            "xodus_node_start_time_seconds",
            "When this node started, in seconds since the Unix epoch",
            m.started.clone(),
        );
        Metrics { registry, ..m }
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// The process's figures.
pub fn global() -> &'static Metrics {
    static M: OnceLock<Metrics> = OnceLock::new();
    M.get_or_init(Metrics::default)
}

/// Whether `method` (a gRPC path) stays open as a stream.
fn streaming(method: &str) -> bool {
    STREAMING_METHODS.iter().any(|s| method.strip_suffix(s).is_some_and(|rest| rest.ends_with('/')))
}

impl Metrics {
    /// A call of `method` began.
    pub fn call_began(&self, method: &str) {
        self.in_flight.get_or_create(&MethodLabel { method: method.to_string() }).inc();
        if streaming(method) {
            self.open_streams.inc();
        }
    }

    /// A call of `method` ended with `status` (a gRPC code's name) after
    /// `latency`.
    pub fn call_ended(&self, method: &str, status: &str, latency: Duration) {
        self.in_flight.get_or_create(&MethodLabel { method: method.to_string() }).dec();
        if streaming(method) {
            self.open_streams.dec();
        }
        self.calls
            .get_or_create(&CallLabels { method: method.to_string(), status: status.to_string() })
            .observe(latency.as_secs_f64());
    }

    /// A commit of `requests` requests in one transaction.
    pub fn commit_batch(&self, requests: usize) {
        self.batches.observe(requests as f64);
    }

    /// A game's lease was taken over from another node.
    pub fn lease_takeover(&self) {
        self.takeovers.inc();
    }

    /// The game leases this node holds now.
    pub fn set_leases_held(&self, n: usize) {
        self.leases_held.set(i64::try_from(n).unwrap_or(i64::MAX));
    }

    /// The games held now.
    pub fn set_live_games(&self, n: usize) {
        self.live_games.set(i64::try_from(n).unwrap_or(i64::MAX));
    }

    /// The OpenMetrics text exposition of every figure.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// The media type of `render`'s text.
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Answers `GET /metrics` on `listener` with the figures (after
/// `before_scrape`, which refreshes the gauges), anything else with 404,
/// until the task is dropped.
pub async fn serve(listener: TcpListener, before_scrape: impl Fn() + Send + Sync + 'static) {
    use axum::http::{StatusCode, header};
    let before_scrape = std::sync::Arc::new(before_scrape);
    let app = axum::Router::new()
        .route(
            "/metrics",
            axum::routing::get(move || {
                let before_scrape = before_scrape.clone();
                async move {
                    before_scrape();
                    ([(header::CONTENT_TYPE, OPENMETRICS)], global().render())
                }
            }),
        )
        .fallback(|| async { (StatusCode::NOT_FOUND, "only GET /metrics is served here\n") });
    if let Err(e) = axum::serve(listener, app).await {
        tracing::warn!(error = %e, "the metrics endpoint stopped");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn calls_are_counted_by_method_and_status_with_cumulative_buckets() {
        let m = Metrics::default();
        m.call_began("/tabletop.v1.GameService/GetView");
        m.call_ended("/tabletop.v1.GameService/GetView", "Ok", Duration::from_micros(800));
        m.call_began("/tabletop.v1.GameService/GetView");
        m.call_ended("/tabletop.v1.GameService/GetView", "NotFound", Duration::from_millis(3));
        m.call_began("/tabletop.v1.GameService/StreamGame");
        m.call_began("/tabletop.v1.GameService/FollowGames");
        m.commit_batch(5);
        m.lease_takeover();
        m.set_live_games(7);
        m.set_leases_held(4);
        let text = m.render();
        let has = |line: &str| assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        has(
            "xodus_rpc_duration_seconds_bucket{le=\"0.001\",method=\"/tabletop.v1.GameService/GetView\",status=\"Ok\"} 1",
        );
        has(
            "xodus_rpc_duration_seconds_bucket{le=\"0.001\",method=\"/tabletop.v1.GameService/GetView\",status=\"NotFound\"} 0",
        );
        has("xodus_rpc_duration_seconds_count{method=\"/tabletop.v1.GameService/GetView\",status=\"NotFound\"} 1");
        has("xodus_rpc_in_flight{method=\"/tabletop.v1.GameService/GetView\"} 0");
        has("xodus_open_streams 2");
        has("xodus_live_games 7");
        has("xodus_commit_batch_requests_bucket{le=\"4.0\"} 0");
        has("xodus_commit_batch_requests_bucket{le=\"8.0\"} 1");
        has("xodus_lease_takeovers_total 1");
        has("xodus_leases_held 4");
        assert!(text.contains("# TYPE xodus_node_start_time_seconds gauge"), "{text}");
        assert!(text.ends_with("# EOF\n"), "a complete exposition");
        has("xodus_rpc_in_flight{method=\"/tabletop.v1.GameService/StreamGame\"} 1");
    }

    #[test]
    fn label_values_are_escaped_by_the_library() {
        let m = Metrics::default();
        m.call_began("a\"b\\c\nd");
        assert!(m.render().contains("xodus_rpc_in_flight{method=\"a\\\"b\\\\c\\nd\"} 1"), "{}", m.render());
    }

    #[tokio::test]
    async fn the_endpoint_serves_the_text_and_nothing_else() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(serve(listener, || global().set_live_games(3)));
        let ask = |path: &'static str| async move {
            let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
            s.write_all(format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes())
                .await
                .expect("write");
            let mut out = String::new();
            s.read_to_string(&mut out).await.expect("read");
            out
        };
        let ok = ask("/metrics").await;
        assert!(ok.starts_with("HTTP/1.1 200 OK"), "{ok}");
        assert!(ok.contains("# TYPE xodus_live_games gauge"), "{ok}");
        assert!(ok.contains("xodus_live_games 3"), "{ok}");
        let other = ask("/").await;
        assert!(other.starts_with("HTTP/1.1 404"), "{other}");
        task.abort();
    }
}
