//! The cap on connections open at once. Each accepted TCP connection takes
//! a permit that it gives back when it closes; a connection accepted while
//! none is free is closed at once (the client sees the connection reset and
//! may retry), so a flood of idle connections cannot exhaust the server.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::{Stream, StreamExt};
use tonic::transport::server::{Connected, TcpConnectInfo};
use tracing::warn;

/// A connection holding one permit.
pub struct Capped {
    /// The socket.
    stream: TcpStream,
    /// Given back when the connection is dropped.
    _permit: OwnedSemaphorePermit,
}

/// Keeps at most `max` connections of `incoming` open at once.
pub fn cap<S>(incoming: S, max: usize) -> impl Stream<Item = Result<Capped, std::io::Error>>
where
    S: Stream<Item = Result<TcpStream, std::io::Error>>,
{
    let permits = Arc::new(Semaphore::new(max.max(1)));
    incoming.filter_map(move |accepted| match accepted {
        Ok(stream) => match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => Some(Ok(Capped { stream, _permit: permit })),
            Err(_) => {
                warn!(peer = ?stream.peer_addr().ok(), max, "connection refused: the server has its maximum open");
                None
            }
        },
        Err(e) => Some(Err(e)),
    })
}

impl Connected for Capped {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.stream.connect_info()
    }
}

impl AsyncRead for Capped {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Capped {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
