//! The games the process follows, many on one stream: a `FollowGames`
//! call per connection of the pool carries every table's StreamGame on
//! that connection, each tagged with a follow id, so a thousand tables
//! cost a few streams, not a thousand (the server's cap on open streams
//! per address does not count follows). A table opens its follow with
//! `Follows::open`, which waits for the first message as StreamGame's
//! opening would (a refusal comes back as the error), and reads it like a
//! stream; dropping it stops the follow. When the shared stream breaks,
//! every follow on it ends with the break's status, and each table opens
//! its follow again (on a new shared stream). A server without FollowGames
//! (UNIMPLEMENTED) is followed with one StreamGame per table instead.

use super::conn::{Client, Dialed};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tabletop::pb;
use tokio::sync::mpsc;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::{Code, Status};

/// Where a follow's messages go: its table's receiver.
type Route = mpsc::UnboundedSender<Result<pb::StreamGameResponse, Status>>;

/// One shared FollowGames stream on one connection.
struct Mux {
    /// The connection it is on.
    dialed: Dialed,
    /// The requests to the server (follow, stop).
    requests: mpsc::UnboundedSender<pb::FollowGamesRequest>,
    /// The open follows.
    routes: Mutex<HashMap<u64, Route>>,
    next_id: AtomicU64,
    /// The stream broke: no follow opens on it any more.
    broken: AtomicBool,
}

impl Mux {
    /// Ends every follow with `status` and takes no more.
    fn break_all(&self, status: &Status) {
        self.broken.store(true, Ordering::SeqCst);
        let routes = std::mem::take(&mut *self.routes.lock().unwrap_or_else(|e| e.into_inner()));
        for route in routes.into_values() {
            let _ = route.send(Err(Status::new(status.code(), status.message().to_string())));
        }
    }

    /// Hands one message from the server to its follow.
    fn deliver(&self, m: pb::FollowGamesResponse) {
        let mut routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(update) = m.update
            && let Some(route) = routes.get(&m.follow_id)
        {
            let _ = route.send(Ok(update));
        }
        if let Some(end) = m.ended
            && let Some(route) = routes.remove(&m.follow_id)
            && end.code != 0
        {
            // A clean end (the game is over) closes the route: the reader
            // sees the stream's end.
            let _ = route.send(Err(Status::new(Code::from_i32(end.code), end.message)));
        }
    }
}

/// The shared streams, one per connection of the pool.
#[derive(Default)]
pub struct Follows {
    muxes: tokio::sync::Mutex<HashMap<usize, Arc<Mux>>>,
    /// The server has no FollowGames: one StreamGame per table.
    unimplemented: AtomicBool,
}

/// One followed game, read like a stream.
pub struct Follow(Inner);

/// How a game is followed.
enum Inner {
    /// On a shared stream.
    Shared {
        /// Its messages.
        rx: mpsc::UnboundedReceiver<Result<pb::StreamGameResponse, Status>>,
        /// The first message, read while opening.
        first: Option<Box<pb::StreamGameResponse>>,
        /// Its id on the shared stream, and the stream (to stop it).
        id: u64,
        mux: Arc<Mux>,
    },
    /// On a StreamGame of its own.
    Alone(tonic::Streaming<pb::StreamGameResponse>),
}

impl Follow {
    /// The next message: `Ok(None)` at the end of the game's stream.
    pub async fn message(&mut self) -> Result<Option<pb::StreamGameResponse>, Status> {
        match &mut self.0 {
            Inner::Shared { rx, first, .. } => {
                if let Some(m) = first.take() {
                    return Ok(Some(*m));
                }
                rx.recv().await.transpose()
            }
            Inner::Alone(s) => s.message().await,
        }
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        if let Inner::Shared { id, mux, .. } = &self.0
            && mux.routes.lock().unwrap_or_else(|e| e.into_inner()).remove(id).is_some()
        {
            let _ = mux.requests.send(pb::FollowGamesRequest { follow_id: *id, follow: None, stop: true });
        }
    }
}

impl Follows {
    /// Follows `req`'s game on `client`'s connection: the follow once its
    /// first message came, or the status StreamGame would have refused
    /// with.
    pub async fn open(
        &self,
        client: &mut Client,
        dialed: Dialed,
        req: pb::StreamGameRequest,
    ) -> Result<Follow, Status> {
        if self.unimplemented.load(Ordering::Relaxed) {
            return Ok(Follow(Inner::Alone(client.stream_game(req).await?.into_inner())));
        }
        let mux = match self.mux(client, dialed).await {
            Ok(mux) => mux,
            Err(s) if s.code() == Code::Unimplemented => {
                tracing::info!("the server has no FollowGames: one stream per table");
                self.unimplemented.store(true, Ordering::Relaxed);
                return Ok(Follow(Inner::Alone(client.stream_game(req).await?.into_inner())));
            }
            Err(s) => return Err(s),
        };
        let id = mux.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::unbounded_channel();
        mux.routes.lock().unwrap_or_else(|e| e.into_inner()).insert(id, tx);
        if mux.broken.load(Ordering::SeqCst)
            || mux.requests.send(pb::FollowGamesRequest { follow_id: id, follow: Some(req), stop: false }).is_err()
        {
            mux.routes.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
            return Err(Status::unavailable("the shared follow stream broke; open again"));
        }
        let mut follow = Follow(Inner::Shared { rx, first: None, id, mux });
        let first = follow.message().await?;
        if let Inner::Shared { first: slot, .. } = &mut follow.0 {
            *slot = first.map(Box::new);
        }
        Ok(follow)
    }

    /// The shared stream of `dialed`'s connection, opened if it has none
    /// (or its stream broke, or the connection changed).
    async fn mux(&self, client: &mut Client, dialed: Dialed) -> Result<Arc<Mux>, Status> {
        let mut muxes = self.muxes.lock().await;
        if let Some(m) = muxes.get(&dialed.slot())
            && m.dialed == dialed
            && !m.broken.load(Ordering::SeqCst)
        {
            return Ok(Arc::clone(m));
        }
        let (requests, rx) = mpsc::unbounded_channel();
        let mut inbound = client.follow_games(UnboundedReceiverStream::new(rx)).await?.into_inner();
        let mux = Arc::new(Mux {
            dialed,
            requests,
            routes: Mutex::default(),
            next_id: AtomicU64::new(1),
            broken: AtomicBool::new(false),
        });
        let reader = Arc::clone(&mux);
        tokio::spawn(async move {
            let status = loop {
                match inbound.message().await {
                    Ok(Some(m)) => reader.deliver(m),
                    Ok(None) => break Status::unavailable("the server ended the shared follow stream"),
                    Err(s) => break s,
                }
            };
            tracing::debug!(status = %status.message(), "shared follow stream ended");
            reader.break_all(&status);
        });
        muxes.insert(dialed.slot(), Arc::clone(&mux));
        Ok(mux)
    }
}

/// When the server refused a follow because this address follows as many
/// games as it allows, says so plainly, with what to do (at most once a
/// minute).
pub fn say_if_capped(status: &Status) {
    static LAST: Mutex<Option<std::time::Instant>> = Mutex::new(None);
    if status.code() != Code::ResourceExhausted || !status.message().contains("--max-follows-per-client") {
        return;
    }
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if last.is_some_and(|t| t.elapsed() < std::time::Duration::from_secs(60)) {
        return;
    }
    *last = Some(std::time::Instant::now());
    tracing::warn!(
        server = %status.message(),
        "the server caps the games this address follows, so some tables wait: run the agent with an agent key \
         (--agent-key, from the server's --agent-key-file), raise the server's --max-follows-per-client, or run \
         another agent from another address"
    );
}
