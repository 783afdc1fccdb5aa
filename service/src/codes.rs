//! The status codes the API promises for requests that never reach a
//! handler. tonic answers a body that does not decode as the request
//! message (bad wire format, a string that is not UTF-8) with INTERNAL, and
//! a message over the size limit with OUT_OF_RANGE; `service.proto` promises
//! INVALID_ARGUMENT and RESOURCE_EXHAUSTED. [`WireCodes`] wraps the game
//! service and rewrites exactly those answers (they come back as
//! trailers-only responses, so the status is in the headers). Statuses the
//! handlers return are left as they are. It also reads the whole body of
//! every method that takes one request message (`frames.rs`) and refuses,
//! before tonic sees it, a body with no message, a cut one or two.

mod frames;

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::codegen::http;
use tonic::server::NamedService;

/// The game service with the promised status codes.
#[derive(Clone)]
pub struct WireCodes<S> {
    inner: S,
    /// Paths (`/package.Service/Method`) of the methods whose client
    /// sends exactly one message.
    single: Arc<HashSet<String>>,
    /// The request message cap, in bytes.
    max_message_bytes: usize,
}

impl<S: NamedService> WireCodes<S> {
    /// Wraps `inner`, whose requests may be up to `max_message_bytes`
    /// long; the methods that take one message are read from the API's
    /// descriptors, so a method added to the proto is covered.
    pub fn new(inner: S, max_message_bytes: usize) -> WireCodes<S> {
        let single = single_message_paths(tabletop::FILE_DESCRIPTOR_SET, S::NAME);
        WireCodes { inner, single: Arc::new(single), max_message_bytes }
    }
}

/// The paths of `service`'s methods that are not client-streaming, from an
/// encoded descriptor set (empty when it does not decode).
fn single_message_paths(descriptors: &[u8], service: &str) -> HashSet<String> {
    use prost::Message;
    let Ok(set) = prost_types::FileDescriptorSet::decode(descriptors) else { return HashSet::new() };
    let mut paths = HashSet::new();
    for file in &set.file {
        for svc in &file.service {
            let name = format!("{}.{}", file.package(), svc.name());
            if name != service {
                continue;
            }
            for m in svc.method.iter().filter(|m| !m.client_streaming()) {
                paths.insert(format!("/{name}/{}", m.name()));
            }
        }
    }
    paths
}

impl<S: NamedService> NamedService for WireCodes<S> {
    const NAME: &'static str = S::NAME;
}

/// The promised status for a status tonic made before any handler ran.
pub(crate) fn promised(status: &tonic::Status) -> Option<tonic::Status> {
    let message = status.message();
    match status.code() {
        tonic::Code::Internal
            if message.starts_with("failed to decode Protobuf message") || message.starts_with("protocol error") =>
        {
            Some(tonic::Status::invalid_argument(format!(
                "the request body is not a valid message of this method's request type: {message}"
            )))
        }
        tonic::Code::Internal if message.starts_with("Missing request message") => {
            Some(tonic::Status::invalid_argument(
                "this method takes exactly one request message; the request body held none",
            ))
        }
        tonic::Code::OutOfRange if message.starts_with("Error, decoded message length too large") => {
            let detail = message.trim_start_matches("Error, decoded message length too large: ");
            Some(tonic::Status::resource_exhausted(format!("the request message is too large: {detail}")))
        }
        _ => None,
    }
}

/// Rewrites the status carried by `headers`, if it is one to rewrite.
fn rewrite(headers: &mut http::HeaderMap) {
    let Some(status) = tonic::Status::from_header_map(headers) else { return };
    if let Some(better) = promised(&status) {
        headers.remove("grpc-message");
        headers.remove("grpc-status-details-bin");
        // Only a message that cannot be a header fails here; the original
        // status then stays, which is still an answer.
        let _ = better.add_header(headers);
    }
}

impl<S, R> tower::Service<http::Request<tonic::body::Body>> for WireCodes<S>
where
    S: tower::Service<http::Request<tonic::body::Body>, Response = http::Response<R>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    R: Default + Send + 'static,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<http::Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<tonic::body::Body>) -> Self::Future {
        if !self.single.contains(req.uri().path()) {
            let fut = self.inner.call(req);
            return Box::pin(async move {
                let mut res = fut.await?;
                rewrite(res.headers_mut());
                Ok(res)
            });
        }
        // The ready service takes this call; a clone waits for the next.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let max = self.max_message_bytes;
        Box::pin(async move {
            let (parts, body) = req.into_parts();
            let body = match frames::one_message(body, max).await {
                Ok(bytes) => tonic::body::Body::new(axum::body::Body::from(bytes)),
                Err(status) => return Ok(status.into_http::<R>()),
            };
            let mut res = inner.call(http::Request::from_parts(parts, body)).await?;
            rewrite(res.headers_mut());
            Ok(res)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(status: tonic::Status) -> tonic::Status {
        let mut headers = http::HeaderMap::new();
        status.add_header(&mut headers).expect("header");
        rewrite(&mut headers);
        tonic::Status::from_header_map(&headers).expect("status")
    }

    #[test]
    fn decode_failures_and_oversized_messages_get_the_promised_codes() {
        let bad = rewritten(tonic::Status::internal("failed to decode Protobuf message: invalid wire type"));
        assert_eq!(bad.code(), tonic::Code::InvalidArgument);
        assert!(bad.message().contains("invalid wire type"), "{}", bad.message());
        let big = rewritten(tonic::Status::out_of_range(
            "Error, decoded message length too large: found 70000 bytes, the limit is: 65536 bytes",
        ));
        assert_eq!(big.code(), tonic::Code::ResourceExhausted);
        assert!(big.message().contains("65536"), "{}", big.message());
        let ours = rewritten(tonic::Status::out_of_range("from_seq 9 is beyond the game's seq 3"));
        assert_eq!(ours.code(), tonic::Code::OutOfRange, "a handler's own status is kept");
        let internal = rewritten(tonic::Status::internal("internal error: storage task"));
        assert_eq!(internal.code(), tonic::Code::Internal);
        let none = rewritten(tonic::Status::internal("Missing request message."));
        assert_eq!(none.code(), tonic::Code::InvalidArgument);
    }

    #[test]
    fn every_method_but_play_takes_one_message() {
        let paths = single_message_paths(tabletop::FILE_DESCRIPTOR_SET, "tabletop.v1.GameService");
        assert!(paths.contains("/tabletop.v1.GameService/SubmitChoice"), "{paths:?}");
        assert!(paths.contains("/tabletop.v1.GameService/StreamGame"), "server streaming: one request");
        assert!(!paths.contains("/tabletop.v1.GameService/Play"), "the client streams its choices");
    }
}
