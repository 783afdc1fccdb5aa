//! Reaching a server from a client: the address as users write it, either
//! an `http://HOST:PORT` URL or `unix:PATH` for a server listening on a
//! Unix socket of the same host (`xodus-server --listen unix:PATH`). The
//! CLI, the AI agents and the bench all dial through [`Target`], so every
//! client takes both forms. Several nodes of one service are written as a
//! comma-separated list of such addresses, read as [`Targets`]: a client
//! uses one and moves to another when it stops answering.

use std::path::PathBuf;
use std::time::Duration;
use tonic::transport::{Channel, Endpoint, Uri};

/// A server address that could not be used.
#[derive(Debug, thiserror::Error)]
#[error("bad server address {address:?}: {why} (expected http://HOST:PORT or unix:PATH)")]
pub struct BadTarget {
    /// The address as given.
    pub address: String,
    /// What was wrong with it.
    pub why: String,
}

/// Where a client connects.
#[derive(Clone, Debug)]
pub struct Target {
    /// The address as given, for messages.
    address: String,
    /// The HTTP/2 endpoint and its settings. For a Unix socket its URI
    /// names no real host: the connector below ignores it.
    endpoint: Endpoint,
    /// The socket's path, for `unix:` addresses.
    unix: Option<PathBuf>,
}

impl Target {
    /// Reads `http://HOST:PORT`, `https://HOST:PORT` or `unix:PATH`.
    pub fn parse(address: &str) -> Result<Target, BadTarget> {
        let bad = |why: String| BadTarget { address: address.to_string(), why };
        let (uri, unix) = match address.strip_prefix("unix:") {
            Some("") => return Err(bad("the path is empty".into())),
            Some(path) => ("http://localhost".to_string(), Some(PathBuf::from(path))),
            None => (address.to_string(), None),
        };
        let endpoint = Endpoint::from_shared(uri).map_err(|e| bad(e.to_string()))?;
        Ok(Target { address: address.to_string(), endpoint, unix })
    }

    /// The same target, giving up on a connection attempt after `timeout`.
    pub fn connect_timeout(mut self, timeout: Duration) -> Target {
        self.endpoint = self.endpoint.connect_timeout(timeout);
        self
    }

    /// Connects now.
    pub async fn connect(&self) -> Result<Channel, tonic::transport::Error> {
        match &self.unix {
            None => self.endpoint.connect().await,
            Some(path) => self.endpoint.connect_with_connector(unix_connector(path.clone())).await,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.address)
    }
}

/// Several addresses of one service (its nodes), in the order given; at
/// least one.
#[derive(Clone, Debug)]
pub struct Targets(Vec<Target>);

/// How long a connection attempt to one of several addresses may take
/// before the next one is tried (a node whose host is gone answers
/// nothing, not even a refusal).
pub const FAILOVER_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// With several addresses, an HTTP/2 ping this often while streams are
/// open, so a stream to a node whose host vanished (no reset ever comes)
/// fails and moves instead of waiting forever.
pub const FAILOVER_KEEPALIVE: Duration = Duration::from_secs(10);

impl Targets {
    /// Reads one address or a comma-separated list of them
    /// (`http://a:50061,http://b:50061`); spaces around each are ignored.
    /// A single address is exactly [`Target::parse`]; with several, each
    /// gets a connect timeout and HTTP/2 keep-alive pings while streams
    /// are open ([`FAILOVER_CONNECT_TIMEOUT`], [`FAILOVER_KEEPALIVE`]).
    pub fn parse(list: &str) -> Result<Targets, BadTarget> {
        let parts: Vec<&str> = list.split(',').map(str::trim).collect();
        if parts.len() == 1 {
            return Ok(Targets(vec![Target::parse(list)?]));
        }
        let mut targets = Vec::with_capacity(parts.len());
        for part in parts {
            if part.is_empty() {
                return Err(BadTarget { address: list.to_string(), why: "an empty address in the list".into() });
            }
            let mut t = Target::parse(part)?.connect_timeout(FAILOVER_CONNECT_TIMEOUT);
            t.endpoint = t
                .endpoint
                .http2_keep_alive_interval(FAILOVER_KEEPALIVE)
                .keep_alive_timeout(FAILOVER_KEEPALIVE)
                .keep_alive_while_idle(false);
            targets.push(t);
        }
        Ok(Targets(targets))
    }

    /// The same addresses, each giving up on a connection attempt after
    /// `timeout`.
    pub fn connect_timeout(self, timeout: Duration) -> Targets {
        Targets(self.0.into_iter().map(|t| t.connect_timeout(timeout)).collect())
    }

    /// How many addresses.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never: a list holds at least one address.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `i`-th address, counting round the list (`i` modulo its length).
    pub fn get(&self, i: usize) -> &Target {
        &self.0[i % self.0.len()]
    }

    /// The addresses in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &Target> {
        self.0.iter()
    }

    /// Connects to the first address that answers, trying each once in
    /// order; the last error if none does.
    pub async fn connect_any(&self) -> Result<(Channel, &Target), tonic::transport::Error> {
        let (last, others) = self.0.split_last().expect("a list of targets holds at least one");
        for t in others {
            if let Ok(ch) = t.connect().await {
                return Ok((ch, t));
            }
        }
        Ok((last.connect().await?, last))
    }
}

impl std::fmt::Display for Targets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Opens the socket at `path` for each connection the channel makes.
fn unix_connector(
    path: PathBuf,
) -> impl tower::Service<
    Uri,
    Response = hyper_util::rt::TokioIo<tokio::net::UnixStream>,
    Error = std::io::Error,
    Future = impl Future<Output = std::io::Result<hyper_util::rt::TokioIo<tokio::net::UnixStream>>> + Send,
> + Clone
+ Send
+ 'static {
    tower::service_fn(move |_: Uri| {
        let path = path.clone();
        async move { Ok(hyper_util::rt::TokioIo::new(tokio::net::UnixStream::connect(path).await?)) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_as_users_write_them() {
        assert!(Target::parse("http://127.0.0.1:50051").expect("http").unix.is_none());
        let unix = Target::parse("unix:/run/xodus/server.sock").expect("unix");
        assert_eq!(unix.unix.as_deref(), Some(std::path::Path::new("/run/xodus/server.sock")));
        assert_eq!(unix.to_string(), "unix:/run/xodus/server.sock");
        let empty = Target::parse("unix:").expect_err("empty path");
        assert!(empty.to_string().contains("the path is empty"), "{empty}");
        let junk = Target::parse("not a url").expect_err("junk");
        assert!(junk.to_string().contains("\"not a url\""), "{junk}");
    }

    #[test]
    fn a_list_of_addresses_parses_in_order_and_one_address_is_a_target() {
        let one = Targets::parse("http://127.0.0.1:50051").expect("one");
        assert_eq!(one.len(), 1);
        assert_eq!(one.to_string(), "http://127.0.0.1:50051");
        let three = Targets::parse("http://127.0.0.1:50061, http://127.0.0.1:50062,unix:/run/x.sock").expect("three");
        assert_eq!(three.len(), 3);
        assert_eq!(three.to_string(), "http://127.0.0.1:50061,http://127.0.0.1:50062,unix:/run/x.sock");
        assert_eq!(three.get(4).to_string(), "http://127.0.0.1:50062", "counting round the list");
        let hole = Targets::parse("http://127.0.0.1:50061,,http://127.0.0.1:50062").expect_err("empty entry");
        assert!(hole.to_string().contains("an empty address"), "{hole}");
        let junk = Targets::parse("http://127.0.0.1:50061,not a url").expect_err("junk");
        assert!(junk.to_string().contains("\"not a url\""), "{junk}");
    }

    #[tokio::test]
    async fn connect_any_skips_an_address_that_refuses() {
        // A listener that was bound then dropped: its port refuses.
        let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr");
        let live = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let live_addr = live.local_addr().expect("addr");
        // A gRPC server with only the health service: enough to connect.
        let (_reporter, health) = tonic_health::server::health_reporter();
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(live);
        tokio::spawn(tonic::transport::Server::builder().add_service(health).serve_with_incoming(incoming));
        let targets = Targets::parse(&format!("http://{dead},http://{live_addr}")).expect("targets");
        let (_, used) = targets.connect_any().await.expect("the live address");
        assert_eq!(used.to_string(), format!("http://{live_addr}"));
        let none = Targets::parse(&format!("http://{dead},http://{dead}")).expect("targets");
        assert!(none.connect_any().await.is_err(), "no address answers");
    }

    #[tokio::test]
    async fn a_missing_socket_is_a_connection_error_not_a_panic() {
        let path = std::env::temp_dir().join(format!("xodus-dial-missing-{}.sock", std::process::id()));
        let target = Target::parse(&format!("unix:{}", path.display())).expect("target");
        assert!(target.connect().await.is_err());
    }
}
