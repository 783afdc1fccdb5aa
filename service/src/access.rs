//! One log line per gRPC call, at its end, and the call figures
//! (`metrics.rs`): a tower layer around every route. It notes the method
//! and the start, leaves a [`CallNote`] in the request's extensions for
//! the handler to fill with the game and the seat, and finishes when the
//! status is known: from the headers of a trailers-only answer (an error),
//! else from the body's trailers (a unary reply's, or a stream's at its
//! end), or "Cancelled" when the client went away first. Reads are logged
//! at debug, everything else at info. Plain HTTP (the web page's files)
//! passes through untouched.

use crate::metrics;
use http_body::{Body, Frame};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;
use tonic::codegen::Bytes;
use tonic::codegen::http;

/// The methods that only read, logged at debug.
const READS: [&str; 7] = ["GetView", "ListGames", "GetHistory", "GetCatalog", "Check", "Watch", "ServerReflectionInfo"];

/// What the handler learnt of a call: its game and seat.
#[derive(Clone, Debug, Default)]
pub struct CallNote(Arc<Mutex<(String, Option<u32>)>>);

impl CallNote {
    /// Notes the call's game (cut to 80 characters) and seat.
    pub fn set(&self, game: &str, seat: Option<u32>) {
        if let Ok(mut n) = self.0.lock() {
            n.0 = game.chars().take(80).collect();
            n.1 = seat;
        }
    }

    fn get(&self) -> (String, Option<u32>) {
        self.0.lock().map(|n| n.clone()).unwrap_or_default()
    }
}

/// The layer (see the module comment).
#[derive(Clone, Copy, Debug, Default)]
pub struct AccessLayer;

impl<S> tower::Layer<S> for AccessLayer {
    type Service = Access<S>;
    fn layer(&self, inner: S) -> Access<S> {
        Access { inner }
    }
}

/// The service the layer makes.
#[derive(Clone, Debug)]
pub struct Access<S> {
    inner: S,
}

/// A call in progress, finished exactly once.
struct Call {
    method: String,
    note: CallNote,
    began: Instant,
}

impl Call {
    fn finish(self, status: &str) {
        let latency = self.began.elapsed();
        metrics::global().call_ended(&self.method, status, latency);
        let (game, seat) = self.note.get();
        let name = self.method.rsplit('/').next().unwrap_or("");
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        if READS.contains(&name) {
            tracing::debug!(method = %self.method, game = %game, seat, status = %status, latency_us = micros, "call");
        } else {
            tracing::info!(method = %self.method, game = %game, seat, status = %status, latency_us = micros, "call");
        }
    }
}

/// The name of a `grpc-status` value.
fn status_name(value: Option<&http::HeaderValue>) -> Option<String> {
    let n: i32 = value?.to_str().ok()?.parse().ok()?;
    Some(format!("{:?}", tonic::Code::from_i32(n)))
}

impl<S, B> tower::Service<http::Request<tonic::body::Body>> for Access<S>
where
    S: tower::Service<http::Request<tonic::body::Body>, Response = http::Response<B>>,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
{
    type Response = http::Response<AccessBody<B>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<tonic::body::Body>) -> Self::Future {
        let grpc = req
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/grpc"));
        let call = grpc.then(|| {
            let note = CallNote::default();
            req.extensions_mut().insert(note.clone());
            let method = req.uri().path().chars().take(120).collect::<String>();
            metrics::global().call_began(&method);
            Call { method, note, began: Instant::now() }
        });
        let fut = self.inner.call(req);
        Box::pin(async move {
            let res = match fut.await {
                Ok(res) => res,
                Err(e) => {
                    if let Some(call) = call {
                        call.finish("Unknown");
                    }
                    return Err(e);
                }
            };
            let call = match (call, status_name(res.headers().get("grpc-status"))) {
                (Some(call), Some(status)) => {
                    call.finish(&status);
                    None
                }
                (call, _) => call,
            };
            Ok(res.map(|body| AccessBody { inner: Box::pin(body), call }))
        })
    }
}

/// A response body that finishes its call when the trailers (or the end)
/// come through, or when it is dropped before.
pub struct AccessBody<B> {
    inner: Pin<Box<B>>,
    call: Option<Call>,
}

impl<B> Drop for AccessBody<B> {
    fn drop(&mut self) {
        if let Some(call) = self.call.take() {
            call.finish("Cancelled");
        }
    }
}

impl<B: Body<Data = Bytes>> Body for AccessBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let polled = self.inner.as_mut().poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(trailers) = frame.trailers_ref()
                    && let Some(call) = self.call.take()
                {
                    call.finish(&status_name(trailers.get("grpc-status")).unwrap_or_else(|| "Unknown".into()));
                }
            }
            Poll::Ready(Some(Err(_))) => {
                if let Some(call) = self.call.take() {
                    call.finish("Unknown");
                }
            }
            Poll::Ready(None) => {
                if let Some(call) = self.call.take() {
                    call.finish("Unknown");
                }
            }
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}
