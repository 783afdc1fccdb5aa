//! Accepted connections, over TCP or a Unix socket, and the cap on those
//! open at once. Each accepted connection takes a permit that it gives back
//! when it closes; a connection accepted while none is free is closed at
//! once (the client sees the connection reset and may retry), so a flood of
//! idle connections cannot exhaust the server. A Unix-socket peer is a
//! process on this host: it reports the loopback address, so per-client
//! caps and rates count it as a loopback TCP client is counted.

use std::net::{Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpStream, UnixStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::{Stream, StreamExt};
use tonic::transport::server::{Connected, TcpConnectInfo};
use tracing::warn;

/// An accepted connection.
pub enum Conn {
    /// Over TCP.
    Tcp(TcpStream),
    /// Over a Unix domain socket.
    Unix(UnixStream),
}

impl Conn {
    /// The peer's address, as per-client caps and logs see it.
    fn peer(&self) -> Option<SocketAddr> {
        match self {
            Conn::Tcp(s) => s.peer_addr().ok(),
            Conn::Unix(_) => Some(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))),
        }
    }
}

/// A connection holding one permit.
pub struct Capped {
    /// The socket.
    stream: Conn,
    /// Given back when the connection is dropped.
    _permit: OwnedSemaphorePermit,
}

/// Keeps at most `max` connections of `incoming` open at once.
pub fn cap<S>(incoming: S, max: usize) -> impl Stream<Item = Result<Capped, std::io::Error>>
where
    S: Stream<Item = Result<Conn, std::io::Error>>,
{
    let permits = Arc::new(Semaphore::new(max.max(1)));
    incoming.filter_map(move |accepted| match accepted {
        Ok(stream) => match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => Some(Ok(Capped { stream, _permit: permit })),
            Err(_) => {
                warn!(peer = ?stream.peer(), max, "connection refused: the server has its maximum open");
                None
            }
        },
        Err(e) => Some(Err(e)),
    })
}

impl Connected for Capped {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        match &self.stream {
            Conn::Tcp(s) => s.connect_info(),
            Conn::Unix(_) => TcpConnectInfo { local_addr: None, remote_addr: self.stream.peer() },
        }
    }
}

/// Forwards a call to the socket inside a `Conn`, whichever it is.
macro_rules! both {
    ($conn:expr, $s:ident => $call:expr) => {
        match $conn {
            Conn::Tcp($s) => $call,
            Conn::Unix($s) => $call,
        }
    };
}

impl AsyncRead for Capped {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        both!(&mut self.stream, s => Pin::new(s).poll_read(cx, buf))
    }
}

impl AsyncWrite for Capped {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        both!(&mut self.stream, s => Pin::new(s).poll_write(cx, buf))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        both!(&mut self.stream, s => Pin::new(s).poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        both!(&mut self.stream, s => Pin::new(s).poll_shutdown(cx))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        both!(&mut self.stream, s => Pin::new(s).poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        both!(&self.stream, s => s.is_write_vectored())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Unix-socket peer counts as the loopback address for per-client
    /// caps and the rate limit (read from `TcpConnectInfo`).
    #[tokio::test]
    async fn a_unix_socket_peer_reports_the_loopback_address() {
        let (a, _b) = UnixStream::pair().expect("socket pair");
        let permit = Arc::new(Semaphore::new(1)).try_acquire_owned().expect("permit");
        let capped = Capped { stream: Conn::Unix(a), _permit: permit };
        let info = capped.connect_info();
        assert_eq!(info.remote_addr.map(|a| a.ip()), Some(std::net::IpAddr::from(Ipv4Addr::LOCALHOST)));
        assert_eq!(info.local_addr, None);
    }
}
