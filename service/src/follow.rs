//! FollowGames: many games' StreamGame on one gRPC stream. Each follow the
//! client asks for is opened as the service's own StreamGame would be
//! (with the call's metadata and connection, so a follow of a game another
//! node owns is forwarded like a StreamGame), marked as a follow so that
//! it counts against the per-client follow cap instead of the stream cap;
//! its messages come back tagged with the client's follow_id, and its end
//! (or refusal) as `ended`. Follows start at a bounded rate per stream. The
//! follows end when the client leaves.

use crate::manager::StreamItem;
use std::collections::HashMap;
use std::future::Future;
use tabletop::pb;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Status, Streaming};

/// Messages buffered for a slow client, all follows together.
const BUFFER: usize = 256;
/// Follows a stream may start at once, and per second after that: each
/// start loads a game and sends a snapshot, and the per-address rate limit
/// counts the FollowGames call once, not each follow in it.
const STARTS_BURST: f64 = 512.0;
/// See [`STARTS_BURST`].
const STARTS_PER_SECOND: f64 = 200.0;

/// Marks a StreamGame opened for a follow: it counts against the follow
/// cap. Set only by the server itself (an extension, never from the wire;
/// a forwarded follow carries `FOLLOW_HEADER` under the cluster's secret).
#[derive(Clone, Copy, Debug)]
pub struct FollowCall;

/// Metadata a node puts on a follow it forwards to the game's owner (only
/// believed on a call the cluster's secret vouches for).
pub const FOLLOW_HEADER: &str = "x-tabletop-follow";

/// Whether a StreamGame call is a follow: opened here by FollowGames, or
/// forwarded as one by another node of the cluster.
pub fn is_follow<T>(request: &Request<T>) -> bool {
    request.extensions().get::<FollowCall>().is_some()
        || (request.extensions().get::<crate::peers::Forwarded>().is_some()
            && request.metadata().contains_key(FOLLOW_HEADER))
}

/// The service a follow is opened on: its StreamGame.
pub trait StreamOpener: Clone + Send + Sync + 'static {
    /// StreamGame as the service answers it.
    fn open(
        &self,
        request: Request<pb::StreamGameRequest>,
    ) -> impl Future<Output = Result<ReceiverStream<StreamItem<pb::StreamGameResponse>>, Status>> + Send;
}

/// Serves one FollowGames call: reads the client's requests and sends
/// every follow's messages on the returned stream.
pub fn serve<S: StreamOpener>(
    service: S,
    request: Request<Streaming<pb::FollowGamesRequest>>,
) -> ReceiverStream<StreamItem<pb::FollowGamesResponse>> {
    let (metadata, mut extensions, mut input) = request.into_parts();
    // The call's access-log note is the FollowGames call's own.
    extensions.remove::<crate::access::CallNote>();
    extensions.insert(FollowCall);
    let (tx, rx) = mpsc::channel(BUFFER);
    tokio::spawn(async move {
        let mut open: HashMap<u64, AbortHandle> = HashMap::new();
        let (ended_tx, mut ended_rx) = mpsc::unbounded_channel::<u64>();
        let mut reading = true;
        let (mut allowance, mut counted) = (STARTS_BURST, tokio::time::Instant::now());
        loop {
            tokio::select! {
                message = input.message(), if reading => match message {
                    Ok(Some(r)) => {
                        let Some(follow) = r.follow else {
                            if r.stop && let Some(task) = open.remove(&r.follow_id) {
                                task.abort();
                            }
                            continue;
                        };
                        if open.contains_key(&r.follow_id) {
                            let why = format!(
                                "follow_id {} is already open on this stream: each follow needs an id of its own",
                                r.follow_id
                            );
                            let _ = tx.send(Err(Status::invalid_argument(why))).await;
                            break;
                        }
                        let now = tokio::time::Instant::now();
                        allowance = (allowance + now.duration_since(counted).as_secs_f64() * STARTS_PER_SECOND)
                            .min(STARTS_BURST);
                        counted = now;
                        if allowance < 1.0 {
                            let why = format!(
                                "follows are started at most {STARTS_PER_SECOND} a second on one stream \
                                 (after {STARTS_BURST} at once); start this one again in a moment"
                            );
                            let _ = tx.send(Ok(ended(r.follow_id, &Status::resource_exhausted(why)))).await;
                            continue;
                        }
                        allowance -= 1.0;
                        let sub = Request::from_parts(metadata.clone(), extensions.clone(), follow);
                        let task = tokio::spawn(run_follow(service.clone(), sub, r.follow_id, tx.clone(), ended_tx.clone()));
                        open.insert(r.follow_id, task.abort_handle());
                    }
                    // The client sends no more: its follows go on.
                    Ok(None) => reading = false,
                    Err(_) => break,
                },
                Some(id) = ended_rx.recv() => {
                    open.remove(&id);
                    if !reading && open.is_empty() {
                        break;
                    }
                }
                _ = tx.closed() => break,
            }
        }
        for task in open.values() {
            task.abort();
        }
    });
    ReceiverStream::new(rx)
}

/// The `ended` message of `follow_id` with `status`.
fn ended(follow_id: u64, status: &Status) -> pb::FollowGamesResponse {
    pb::FollowGamesResponse {
        follow_id,
        update: None,
        ended: Some(pb::FollowEnded { code: status.code() as i32, message: status.message().to_string() }),
    }
}

/// One follow: its StreamGame's messages, tagged, then its end.
async fn run_follow<S: StreamOpener>(
    service: S,
    request: Request<pb::StreamGameRequest>,
    follow_id: u64,
    tx: mpsc::Sender<StreamItem<pb::FollowGamesResponse>>,
    ended_tx: mpsc::UnboundedSender<u64>,
) {
    let end = match service.open(request).await {
        Err(status) => status,
        Ok(mut stream) => loop {
            match stream.next().await {
                Some(Ok(update)) => {
                    let message = pb::FollowGamesResponse { follow_id, update: Some(update), ended: None };
                    if tx.send(Ok(message)).await.is_err() {
                        return;
                    }
                }
                Some(Err(status)) => break status,
                None => break Status::ok(""),
            }
        },
    };
    let _ = tx.send(Ok(ended(follow_id, &end))).await;
    let _ = ended_tx.send(follow_id);
}
