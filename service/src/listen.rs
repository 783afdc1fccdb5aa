//! Where the server listens: TCP and Unix-socket listeners, binding a
//! socket path without harming what is already there, and the accepted
//! connections of every listener merged into one stream.

use crate::connections::Conn;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use tokio::net::{TcpListener, UnixListener};
use tokio_stream::{Stream, StreamExt};
use tonic::transport::server::TcpIncoming;
use tracing::warn;

/// The longest Unix socket path the system takes, in bytes: `sun_path`
/// holds 108 bytes on Linux (104 elsewhere), the closing NUL included.
const SOCKET_PATH_MAX: usize = if cfg!(target_os = "linux") { 107 } else { 103 };

/// Where the server accepts connections.
pub enum Listener {
    /// A TCP socket (remote clients, browsers).
    Tcp(TcpListener),
    /// A Unix domain socket at this path, for clients on the same host (a
    /// co-located AI agent, a reverse proxy): cheaper than loopback TCP,
    /// and reachable only by whoever the file's permissions let in. The
    /// server removes the file when it stops.
    Unix(UnixListener, PathBuf),
}

impl From<TcpListener> for Listener {
    fn from(l: TcpListener) -> Listener {
        Listener::Tcp(l)
    }
}

impl Listener {
    /// Binds a Unix socket at `path`. A socket left there by a server that
    /// is gone (nothing accepts on it) is replaced; one a live server
    /// listens on is not, and neither is anything that is not a socket.
    pub async fn bind_unix(path: &Path) -> std::io::Result<Listener> {
        use std::os::unix::fs::FileTypeExt;
        let len = path.as_os_str().len();
        if len > SOCKET_PATH_MAX {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "the socket path is {len} bytes long; the system takes at most {SOCKET_PATH_MAX} \
                     (choose a shorter path, e.g. a relative one or one under /run)"
                ),
            ));
        }
        match UnixListener::bind(path) {
            Ok(l) => Ok(Listener::Unix(l, path.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
                if !std::fs::symlink_metadata(path)?.file_type().is_socket() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        format!("{} exists and is not a socket; it is left alone", path.display()),
                    ));
                }
                if tokio::net::UnixStream::connect(path).await.is_ok() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::AddrInUse,
                        format!("a server is already listening on {}", path.display()),
                    ));
                }
                warn!(path = %path.display(), "replacing a stale socket file");
                std::fs::remove_file(path)?;
                Ok(Listener::Unix(UnixListener::bind(path)?, path.to_path_buf()))
            }
            Err(e) => Err(e),
        }
    }

    /// The URL another host can reach it at: a TCP listener's, unless it
    /// listens on a wildcard address (which names no host).
    pub fn reachable_url(&self) -> Option<String> {
        match self {
            Listener::Tcp(l) => {
                let a = l.local_addr().ok()?;
                (!a.ip().is_unspecified()).then(|| format!("http://{a}"))
            }
            Listener::Unix(..) => None,
        }
    }

    /// Where it listens, as clients write it (`127.0.0.1:50051`,
    /// `unix:/run/xodus.sock`).
    pub fn address(&self) -> String {
        match self {
            Listener::Tcp(l) => l.local_addr().map_or_else(|e| format!("unknown ({e})"), |a| a.to_string()),
            Listener::Unix(_, path) => format!("unix:{}", path.display()),
        }
    }
}

/// The accepted connections of one or more [`Listener`]s.
pub type Incoming = Pin<Box<dyn Stream<Item = Result<Conn, std::io::Error>> + Send>>;

/// Accepts on every listener at once: their connections in one stream,
/// and the socket files to remove when the server stops. None when there
/// is no listener.
pub fn accept_all(listeners: Vec<Listener>) -> Option<(Incoming, Vec<PathBuf>)> {
    let mut socket_files = Vec::new();
    let mut accepted: Option<Incoming> = None;
    for listener in listeners {
        let more: Incoming = match listener {
            Listener::Tcp(l) => Box::pin(TcpIncoming::from(l).with_nodelay(Some(true)).map(|c| c.map(Conn::Tcp))),
            Listener::Unix(l, path) => {
                socket_files.push(path);
                Box::pin(tokio_stream::wrappers::UnixListenerStream::new(l).map(|c| c.map(Conn::Unix)))
            }
        };
        accepted = Some(match accepted {
            None => more,
            Some(before) => Box::pin(before.merge(more)),
        });
    }
    accepted.map(|a| (a, socket_files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_socket_path_too_long_for_the_system_is_refused_with_its_length() {
        let dir = std::env::temp_dir().join(format!("xodus-listen-{}", std::process::id()));
        let path = dir.join("s".repeat(SOCKET_PATH_MAX));
        let Err(e) = Listener::bind_unix(&path).await else { panic!("a {}-byte path was bound", SOCKET_PATH_MAX) };
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        let said = e.to_string();
        let len = path.as_os_str().len();
        assert!(
            said.contains(&format!("is {len} bytes long")) && said.contains(&format!("at most {SOCKET_PATH_MAX} ")),
            "{said}"
        );
        assert!(!path.exists(), "nothing is created");
    }

    #[tokio::test]
    async fn a_socket_path_at_the_limit_is_bound() {
        // Under /tmp, not $TMPDIR: a long $TMPDIR would leave no room.
        let dir = Path::new("/tmp").join(format!("xodus-listen-max-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let room = SOCKET_PATH_MAX - dir.as_os_str().len() - 1;
        let path = dir.join("s".repeat(room));
        assert_eq!(path.as_os_str().len(), SOCKET_PATH_MAX);
        let bound = Listener::bind_unix(&path).await;
        assert!(bound.is_ok(), "{:?}", bound.err());
        drop(bound);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
