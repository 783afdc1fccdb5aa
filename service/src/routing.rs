//! Cluster forwarding, as one layer in front of the gRPC service: a call
//! about a game another node owns goes to that node (`peers.rs`), streams
//! included, and the owner's answer comes back unchanged; every other call
//! goes to this node's [`GrpcService`]. On a single node (no peers) every
//! call goes straight through.
//!
//! A call that another node already forwarded is served here or refused:
//! forwarding twice would let two nodes that disagree pass it back and
//! forth. When the owner cannot be reached, who owns the game is asked
//! again next time.

use crate::error::ServiceError;
use crate::grpc::{GrpcService, client, note_of, read_open};
use crate::manager::{Manager, StreamItem};
use crate::peers::{Forwarded, Peers, owner_failed};
use std::future::Future;
use std::sync::Arc;
use tabletop::pb::game_service_server::GameService;
use tabletop::{GameServiceClient, pb};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

type Res<T> = Result<Response<T>, Status>;

/// The `tabletop.v1.GameService` a node serves: this node's service, with
/// calls about other nodes' games forwarded to them.
#[derive(Clone)]
pub struct Routed {
    /// This node's answers.
    local: GrpcService,
    /// Every game, for who owns one.
    manager: Arc<Manager>,
    /// The other nodes, on a shared store (None: a single node).
    peers: Option<Arc<Peers>>,
}

impl Routed {
    /// This node's service in front of `manager`, forwarding to `peers`.
    pub fn new(manager: Arc<Manager>, peers: Option<Peers>) -> Routed {
        Routed { local: GrpcService::new(Arc::clone(&manager)), manager, peers: peers.map(Arc::new) }
    }

    /// The node to forward a call about `game` to, when another node owns
    /// it.
    async fn owner_elsewhere<T>(&self, req: &Request<T>, game: &str) -> Result<Option<(&Peers, String)>, Status> {
        let Some(peers) = &self.peers else { return Ok(None) };
        if game.is_empty() {
            return Ok(None);
        }
        match self.manager.locate(game).await? {
            None => Ok(None),
            Some(owner) if req.extensions().get::<Forwarded>().is_some() => {
                Err(ServiceError::Elsewhere { game: game.to_string(), owner }.into())
            }
            Some(owner) => Ok(Some((peers, owner))),
        }
    }

    /// What the caller hears when the owner refused or could not be
    /// reached; UNAVAILABLE also forgets the owner and its address.
    fn owner_refused(&self, game: &str, owner: &str, peers: &Peers, e: Status) -> Status {
        if e.code() == tonic::Code::Unavailable {
            self.manager.forget_owner(game);
            peers.forget(owner);
        }
        owner_failed(owner, e)
    }

    /// A unary call about `game`: asked of its owner when another node owns
    /// it (`remote`), else of this node (`local`).
    async fn unary<Req, Resp, RFut, LFut>(
        &self,
        request: Request<Req>,
        game: String,
        remote: impl FnOnce(GameServiceClient<Channel>, Request<Req>) -> RFut,
        local: impl FnOnce(Request<Req>) -> LFut,
    ) -> Res<Resp>
    where
        RFut: Future<Output = Res<Resp>>,
        LFut: Future<Output = Res<Resp>>,
    {
        let Some((peers, owner)) = self.owner_elsewhere(&request, &game).await? else {
            return local(request).await;
        };
        note_of(&request).set(&game, None);
        let ip = client(&request);
        let c = peers.client(&owner).await?;
        match remote(c, peers.request(request.into_inner(), ip)).await {
            Ok(r) => Ok(Response::new(r.into_inner())),
            Err(e) => Err(self.owner_refused(&game, &owner, peers, e)),
        }
    }
}

/// Passes a stream from the game's owner on to the caller; an error (the
/// owner died, the game moved) ends it, and the caller reopens it from
/// its last seq.
fn relay<T: Send + 'static>(owner: String, mut upstream: tonic::Streaming<T>) -> ReceiverStream<StreamItem<T>> {
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        loop {
            let item = tokio::select! {
                item = upstream.message() => item,
                () = tx.closed() => return,
            };
            match item {
                Ok(Some(m)) => {
                    if tx.send(Ok(m)).await.is_err() {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    let _ = tx.send(Err(owner_failed(&owner, e))).await;
                    return;
                }
            }
        }
    });
    ReceiverStream::new(rx)
}

#[tonic::async_trait]
impl GameService for Routed {
    async fn create_game(&self, request: Request<pb::CreateGameRequest>) -> Res<pb::CreateGameResponse> {
        self.local.create_game(request).await
    }

    async fn list_games(&self, request: Request<pb::ListGamesRequest>) -> Res<pb::ListGamesResponse> {
        self.local.list_games(request).await
    }

    type WatchLobbyStream = ReceiverStream<StreamItem<pb::WatchLobbyResponse>>;

    async fn watch_lobby(&self, request: Request<pb::WatchLobbyRequest>) -> Res<Self::WatchLobbyStream> {
        self.local.watch_lobby(request).await
    }

    async fn claim_seat(&self, request: Request<pb::ClaimSeatRequest>) -> Res<pb::ClaimSeatResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.claim_seat(r).await }, |r| self.local.claim_seat(r)).await
    }

    async fn release_seat(&self, request: Request<pb::ReleaseSeatRequest>) -> Res<pb::ReleaseSeatResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.release_seat(r).await }, |r| self.local.release_seat(r))
            .await
    }

    async fn vote_expel(&self, request: Request<pb::VoteExpelRequest>) -> Res<pb::VoteExpelResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.vote_expel(r).await }, |r| self.local.vote_expel(r)).await
    }

    async fn get_view(&self, request: Request<pb::GetViewRequest>) -> Res<pb::GetViewResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.get_view(r).await }, |r| self.local.get_view(r)).await
    }

    async fn submit_choice(&self, request: Request<pb::SubmitChoiceRequest>) -> Res<pb::SubmitChoiceResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.submit_choice(r).await }, |r| self.local.submit_choice(r))
            .await
    }

    type PlayStream = ReceiverStream<StreamItem<pb::PlayResponse>>;

    async fn play(&self, request: Request<tonic::Streaming<pb::PlayRequest>>) -> Res<Self::PlayStream> {
        let note = note_of(&request);
        let ip = client(&request);
        // What the caller's request said of where it came from, kept for
        // the forwarding decision once the first message is read.
        let mut request_marks = Request::new(());
        if let Some(f) = request.extensions().get::<Forwarded>() {
            request_marks.extensions_mut().insert(*f);
        }
        let mut inbound = request.into_inner();
        let open = read_open(&mut inbound).await?;
        let Some((peers, owner)) = self.owner_elsewhere(&request_marks, &open.game_id).await? else {
            return self.local.play_opened(note, ip, open, inbound).await;
        };
        let game = open.game_id.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        let first = pb::PlayRequest { kind: Some(pb::play_request::Kind::Open(open)) };
        if tx.send(first).await.is_err() {
            return Err(Status::internal("the Play relay closed before it began"));
        }
        tokio::spawn(async move {
            while let Ok(Some(m)) = inbound.message().await {
                if tx.send(m).await.is_err() {
                    return;
                }
            }
        });
        let mut c = peers.client(&owner).await?;
        match c.play(peers.request(ReceiverStream::new(rx), ip)).await {
            Ok(r) => Ok(Response::new(relay(owner, r.into_inner()))),
            Err(e) => Err(self.owner_refused(&game, &owner, peers, e)),
        }
    }

    async fn undo(&self, request: Request<pb::UndoRequest>) -> Res<pb::UndoResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.undo(r).await }, |r| self.local.undo(r)).await
    }

    type StreamGameStream = ReceiverStream<StreamItem<pb::StreamGameResponse>>;

    async fn stream_game(&self, request: Request<pb::StreamGameRequest>) -> Res<Self::StreamGameStream> {
        let game = request.get_ref().game_id.clone();
        let Some((peers, owner)) = self.owner_elsewhere(&request, &game).await? else {
            return self.local.stream_game(request).await;
        };
        let ip = client(&request);
        let follow = request.extensions().get::<crate::follow::FollowCall>().is_some();
        let mut c = peers.client(&owner).await?;
        let mut forwarded = peers.request(request.into_inner(), ip);
        if follow {
            forwarded
                .metadata_mut()
                .insert(crate::follow::FOLLOW_HEADER, tonic::metadata::MetadataValue::from_static("1"));
        }
        match c.stream_game(forwarded).await {
            Ok(r) => Ok(Response::new(relay(owner, r.into_inner()))),
            Err(e) => Err(self.owner_refused(&game, &owner, peers, e)),
        }
    }

    type FollowGamesStream = ReceiverStream<StreamItem<pb::FollowGamesResponse>>;

    /// Each follow is opened as this layer's StreamGame: forwarded to the
    /// game's owner when another node owns it.
    async fn follow_games(
        &self,
        request: Request<tonic::Streaming<pb::FollowGamesRequest>>,
    ) -> Res<Self::FollowGamesStream> {
        Ok(Response::new(crate::follow::serve(self.clone(), request)))
    }

    async fn get_history(&self, request: Request<pb::GetHistoryRequest>) -> Res<pb::GetHistoryResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.get_history(r).await }, |r| self.local.get_history(r)).await
    }

    async fn get_catalog(&self, request: Request<pb::GetCatalogRequest>) -> Res<pb::GetCatalogResponse> {
        self.local.get_catalog(request).await
    }

    async fn fork_game(&self, request: Request<pb::ForkGameRequest>) -> Res<pb::ForkGameResponse> {
        let game = request.get_ref().source_game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.fork_game(r).await }, |r| self.local.fork_game(r)).await
    }

    async fn grant_view(&self, request: Request<pb::GrantViewRequest>) -> Res<pb::GrantViewResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.grant_view(r).await }, |r| self.local.grant_view(r)).await
    }

    async fn say(&self, request: Request<pb::SayRequest>) -> Res<pb::SayResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.say(r).await }, |r| self.local.say(r)).await
    }

    async fn mute_seat(&self, request: Request<pb::MuteSeatRequest>) -> Res<pb::MuteSeatResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.mute_seat(r).await }, |r| self.local.mute_seat(r)).await
    }

    async fn ask_hint(&self, request: Request<pb::AskHintRequest>) -> Res<pb::AskHintResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.ask_hint(r).await }, |r| self.local.ask_hint(r)).await
    }

    type ServeHintsStream = ReceiverStream<StreamItem<pb::ServeHintsResponse>>;

    /// Agents serve the hints of the node they are connected to.
    async fn serve_hints(
        &self,
        request: Request<tonic::Streaming<pb::ServeHintsRequest>>,
    ) -> Res<Self::ServeHintsStream> {
        self.local.serve_hints(request).await
    }

    async fn revoke_view(&self, request: Request<pb::RevokeViewRequest>) -> Res<pb::RevokeViewResponse> {
        let game = request.get_ref().game_id.clone();
        self.unary(request, game, |mut c, r| async move { c.revoke_view(r).await }, |r| self.local.revoke_view(r)).await
    }
}

impl crate::follow::StreamOpener for Routed {
    async fn open(
        &self,
        request: Request<pb::StreamGameRequest>,
    ) -> Result<ReceiverStream<StreamItem<pb::StreamGameResponse>>, Status> {
        GameService::stream_game(self, request).await.map(Response::into_inner)
    }
}
