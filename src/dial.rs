//! Reaching a server from a client: the address as users write it, either
//! an `http://HOST:PORT` URL or `unix:PATH` for a server listening on a
//! Unix socket of the same host (`xodus-server --listen unix:PATH`). The
//! CLI, the AI agents and the bench all dial through [`Target`], so every
//! client takes both forms.

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

    #[tokio::test]
    async fn a_missing_socket_is_a_connection_error_not_a_panic() {
        let path = std::env::temp_dir().join(format!("xodus-dial-missing-{}.sock", std::process::id()));
        let target = Target::parse(&format!("unix:{}", path.display())).expect("target");
        assert!(target.connect().await.is_err());
    }
}
