//! The gRPC service: a thin wrapper over the `Arc`'d [`Manager`]. Each method
//! reads its request, asks the manager, and turns the answer into a
//! response or the error into a `Status`. No game logic lives here. Every
//! call runs in a tracing span `rpc` carrying the method, the game id, the
//! seat and the sequence number, so one game's log can be filtered out of
//! a busy server.
//!
//! Every call answered here is answered by this node's manager: on a node
//! of a cluster, `routing.rs` has already forwarded a call about a game
//! another node owns.

use crate::access::CallNote;
use crate::error::ServiceError;
use crate::manager::{Credentials, Manager, StreamItem, StreamOptions, ViewRequest};
use crate::model::Status as GameStatus;
use crate::wire;
use std::net::IpAddr;
use std::sync::Arc;
use tabletop::pb;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};
use tracing::{Instrument, Span, field};

/// The `tabletop.v1.GameService` implementation on this node's games.
#[derive(Clone)]
pub struct GrpcService {
    /// Every game.
    manager: Arc<Manager>,
    /// The agents serving hints, and the hints asked.
    hints: Arc<crate::hints::Hints>,
}

impl GrpcService {
    /// Wraps a manager.
    pub fn new(manager: Arc<Manager>) -> GrpcService {
        GrpcService { manager, hints: Arc::default() }
    }
}

impl GrpcService {
    /// A Play stream whose first message, `open`, has been read.
    pub(crate) async fn play_opened(
        &self,
        note: CallNote,
        ip: Option<IpAddr>,
        open: pb::PlayOpen,
        inbound: tonic::Streaming<pb::PlayRequest>,
    ) -> Res<ReceiverStream<StreamItem<pb::PlayResponse>>> {
        let creds = credentials_required(open.credentials)?;
        let span = rpc_span(&note, "Play", &open.game_id, Some(creds.seat));
        game_id(&open.game_id)?;
        let rx = self.manager.play().play_stream(ip, open.game_id, creds, inbound).instrument(span).await?;
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}

/// The first message of a Play stream, which must be `open`.
pub(crate) async fn read_open(inbound: &mut tonic::Streaming<pb::PlayRequest>) -> Result<pb::PlayOpen, Status> {
    match inbound.message().await {
        Ok(Some(pb::PlayRequest { kind: Some(pb::play_request::Kind::Open(open)) })) => Ok(open),
        Ok(Some(_)) => {
            Err(Status::invalid_argument("the first message of a Play stream must be `open` (game_id and credentials)"))
        }
        Ok(None) => Err(Status::invalid_argument("the Play stream closed before its `open` message")),
        Err(status) => Err(crate::codes::promised(&status).unwrap_or(status)),
    }
}

/// The client's IP address, for per-client caps.
pub(crate) fn client<T>(req: &Request<T>) -> Option<IpAddr> {
    req.remote_addr().map(|a| a.ip())
}

/// A game id must be given.
fn game_id(id: &str) -> Result<&str, ServiceError> {
    if id.is_empty() { Err(ServiceError::BadRequest("game_id is empty".into())) } else { Ok(id) }
}

type Res<T> = Result<Response<T>, Status>;

/// The call's note for the access log (`access.rs`); a note nobody reads
/// when the call came some other way (tests calling the service directly).
pub(crate) fn note_of<T>(req: &Request<T>) -> CallNote {
    req.extensions().get::<CallNote>().cloned().unwrap_or_default()
}

/// The span of one call (`seq` is recorded once known); the game and seat
/// also go to the call's access-log note.
fn rpc_span(note: &CallNote, method: &'static str, game: &str, seat: Option<u32>) -> Span {
    note.set(game, seat);
    let span = tracing::info_span!("rpc", method, game = field::Empty, seat, seq = field::Empty);
    if !game.is_empty() {
        span.record("game", game.chars().take(80).collect::<String>());
    }
    span
}

/// Records the sequence number a reply carries in the current span.
fn record_seq(seq: u64) {
    Span::current().record("seq", seq);
}

#[tonic::async_trait]
impl pb::game_service_server::GameService for GrpcService {
    async fn create_game(&self, request: Request<pb::CreateGameRequest>) -> Res<pb::CreateGameResponse> {
        let note = note_of(&request);
        let ip = client(&request);
        let span = rpc_span(&note, "CreateGame", "", None);
        async {
            let (game, creator_token) = self.manager.lobby().create_game(ip, request.get_ref()).await?;
            Span::current().record("game", game.game_id.as_str());
            note.set(&game.game_id, None);
            Ok(Response::new(pb::CreateGameResponse { game: Some(game), creator_token }))
        }
        .instrument(span)
        .await
    }

    async fn list_games(&self, request: Request<pb::ListGamesRequest>) -> Res<pb::ListGamesResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        let status = match pb::GameStatus::try_from(req.status) {
            Ok(pb::GameStatus::Unspecified) => None,
            Ok(pb::GameStatus::Open) => Some(GameStatus::Open),
            Ok(pb::GameStatus::Playing) => Some(GameStatus::Playing),
            Ok(pb::GameStatus::Finished) => Some(GameStatus::Finished),
            Ok(pb::GameStatus::Abandoned) => Some(GameStatus::Abandoned),
            Err(_) => {
                return Err(ServiceError::BadRequest(format!("status = {} is not a GameStatus", req.status)).into());
            }
        };
        let page = self
            .manager
            .lobby()
            .list_games(status, req.only_open_seats, req.page_size, &req.page_token)
            .instrument(rpc_span(&note, "ListGames", "", None))
            .await?;
        Ok(Response::new(pb::ListGamesResponse { games: page.games, next_page_token: page.next_page_token }))
    }

    type WatchLobbyStream = ReceiverStream<StreamItem<pb::WatchLobbyResponse>>;

    async fn watch_lobby(&self, request: Request<pb::WatchLobbyRequest>) -> Res<Self::WatchLobbyStream> {
        let note = note_of(&request);
        let rx = self
            .manager
            .lobby()
            .watch_lobby(client(&request))
            .instrument(rpc_span(&note, "WatchLobby", "", None))
            .await?;
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn claim_seat(&self, request: Request<pb::ClaimSeatRequest>) -> Res<pb::ClaimSeatResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        let span = rpc_span(&note, "ClaimSeat", &req.game_id, Some(req.seat));
        let claimant = wire::claimant(req.claimant)?;
        let (token, game) = self
            .manager
            .seats()
            .claim_seat(game_id(&req.game_id)?, req.seat, claimant, &req.token)
            .instrument(span)
            .await?;
        Ok(Response::new(pb::ClaimSeatResponse { token, game: Some(game) }))
    }

    async fn release_seat(&self, request: Request<pb::ReleaseSeatRequest>) -> Res<pb::ReleaseSeatResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "ReleaseSeat", &req.game_id, Some(creds.seat));
        let game = self.manager.seats().release_seat(game_id(&req.game_id)?, &creds).instrument(span).await?;
        Ok(Response::new(pb::ReleaseSeatResponse { game: Some(game) }))
    }

    async fn vote_expel(&self, request: Request<pb::VoteExpelRequest>) -> Res<pb::VoteExpelResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "VoteExpel", &req.game_id, Some(creds.seat));
        let (votes, needed, expelled, game) =
            self.manager.seats().vote_expel(game_id(&req.game_id)?, &creds, req.seat).instrument(span).await?;
        Ok(Response::new(pb::VoteExpelResponse { votes, needed, expelled, game: Some(game) }))
    }

    async fn get_view(&self, request: Request<pb::GetViewRequest>) -> Res<pb::GetViewResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let span = rpc_span(&note, "GetView", &req.game_id, creds.as_ref().map(|c| c.seat));
        let view =
            ViewRequest { credentials: creds, view_token: req.view_token, at_seq: req.at_seq, as_seat: req.as_seat };
        async {
            let (state, game, muted) = self.manager.seats().view(game_id(&req.game_id)?, &view).await?;
            record_seq(state.seq);
            Ok(Response::new(pb::GetViewResponse { state: Some(state), game: Some(game), muted }))
        }
        .instrument(span)
        .await
    }

    async fn submit_choice(&self, request: Request<pb::SubmitChoiceRequest>) -> Res<pb::SubmitChoiceResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "SubmitChoice", &req.game_id, Some(creds.seat));
        async {
            let id = game_id(&req.game_id)?;
            let pick = wire::pick(&req.choice)?;
            let accepted = self.manager.play().submit_detached(id.to_string(), creds, req.expected_seq, pick).await?;
            Ok(Response::new(accepted.into()))
        }
        .instrument(span)
        .await
    }

    type PlayStream = ReceiverStream<StreamItem<pb::PlayResponse>>;

    async fn play(&self, request: Request<tonic::Streaming<pb::PlayRequest>>) -> Res<Self::PlayStream> {
        let note = note_of(&request);
        let ip = client(&request);
        let mut inbound = request.into_inner();
        let open = read_open(&mut inbound).await?;
        self.play_opened(note, ip, open, inbound).await
    }

    async fn undo(&self, request: Request<pb::UndoRequest>) -> Res<pb::UndoResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "Undo", &req.game_id, Some(creds.seat));
        let id = game_id(&req.game_id)?.to_string();
        let (seq, state) = self.manager.play().undo_detached(id, creds, req.expected_seq).instrument(span).await?;
        Ok(Response::new(pb::UndoResponse { seq, state: Some(state) }))
    }

    type StreamGameStream = ReceiverStream<StreamItem<pb::StreamGameResponse>>;

    async fn stream_game(&self, request: Request<pb::StreamGameRequest>) -> Res<Self::StreamGameStream> {
        let note = note_of(&request);
        let ip = client(&request);
        let follow = crate::follow::is_follow(&request);
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let span = rpc_span(&note, "StreamGame", &req.game_id, creds.as_ref().map(|c| c.seat));
        span.record("seq", req.from_seq);
        let options = StreamOptions {
            view_token: req.view_token,
            as_seat: req.as_seat,
            talk: req.talk,
            from_talk_seq: req.from_talk_seq,
            more_credentials: req.more_credentials.into_iter().map(Credentials::from).collect(),
            follow,
        };
        let rx = self
            .manager
            .streams()
            .stream_game_as(ip, game_id(&req.game_id)?, req.from_seq, creds.as_ref(), req.seat_updates, options)
            .instrument(span)
            .await?;
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    type FollowGamesStream = ReceiverStream<StreamItem<pb::FollowGamesResponse>>;

    async fn follow_games(
        &self,
        request: Request<tonic::Streaming<pb::FollowGamesRequest>>,
    ) -> Res<Self::FollowGamesStream> {
        Ok(Response::new(crate::follow::serve(self.clone(), request)))
    }

    async fn get_history(&self, request: Request<pb::GetHistoryRequest>) -> Res<pb::GetHistoryResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let span = rpc_span(&note, "GetHistory", &req.game_id, creds.as_ref().map(|c| c.seat));
        let (game, entries, talk) = self
            .manager
            .lobby()
            .history_as(game_id(&req.game_id)?, &req.creator_token, creds.as_ref())
            .instrument(span)
            .await?;
        Ok(Response::new(pb::GetHistoryResponse { game: Some(game), entries, talk }))
    }

    async fn get_catalog(&self, request: Request<pb::GetCatalogRequest>) -> Res<pb::GetCatalogResponse> {
        let req = request.into_inner();
        if req.game_type.is_empty() {
            return Err(Status::invalid_argument(
                "game_type is required: a hosted game's registered name, as GameState.game_type gives it",
            ));
        }
        let entries = self.manager.lobby().catalog(&req.game_type)?;
        Ok(Response::new(pb::GetCatalogResponse { game_type: req.game_type, entries }))
    }

    async fn fork_game(&self, request: Request<pb::ForkGameRequest>) -> Res<pb::ForkGameResponse> {
        let note = note_of(&request);
        let ip = client(&request);
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let span = rpc_span(&note, "ForkGame", &req.source_game_id, creds.as_ref().map(|c| c.seat));
        span.record("seq", req.at_seq);
        let source = game_id(&req.source_game_id)?;
        let (game, creator_token) = self
            .manager
            .lobby()
            .fork_game_as(ip, source, req.at_seq, &req.seats, &req.creator_token, creds.as_ref())
            .instrument(span)
            .await?;
        Ok(Response::new(pb::ForkGameResponse { game: Some(game), creator_token }))
    }

    async fn grant_view(&self, request: Request<pb::GrantViewRequest>) -> Res<pb::GrantViewResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "GrantView", &req.game_id, Some(creds.seat));
        let view_token = self.manager.seats().grant_view(game_id(&req.game_id)?, &creds).instrument(span).await?;
        Ok(Response::new(pb::GrantViewResponse { view_token }))
    }

    async fn say(&self, request: Request<pb::SayRequest>) -> Res<pb::SayResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "Say", &req.game_id, Some(creds.seat));
        let saying = wire::saying(req.audience, req.to_seat, req.text, req.signal, req.intent)?;
        let line = self.manager.talk().say(game_id(&req.game_id)?, &creds, saying).instrument(span).await?;
        Ok(Response::new(pb::SayResponse { line: Some(line) }))
    }

    async fn mute_seat(&self, request: Request<pb::MuteSeatRequest>) -> Res<pb::MuteSeatResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "MuteSeat", &req.game_id, Some(creds.seat));
        let muted =
            self.manager.talk().mute(game_id(&req.game_id)?, &creds, req.seat, req.muted).instrument(span).await?;
        Ok(Response::new(pb::MuteSeatResponse { muted }))
    }

    async fn ask_hint(&self, request: Request<pb::AskHintRequest>) -> Res<pb::AskHintResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "AskHint", &req.game_id, Some(creds.seat));
        async {
            let id = game_id(&req.game_id)?;
            let (state, _) = self.manager.seats().get_view(id, Some(&creds)).await?;
            record_seq(state.seq);
            Ok(Response::new(self.hints.ask(id, creds.seat, state).await?))
        }
        .instrument(span)
        .await
    }

    type ServeHintsStream = ReceiverStream<StreamItem<pb::ServeHintsResponse>>;

    async fn serve_hints(
        &self,
        request: Request<tonic::Streaming<pb::ServeHintsRequest>>,
    ) -> Res<Self::ServeHintsStream> {
        // A job carries a seat's own view: only trusted agents serve.
        let keyed = request.extensions().get::<crate::limits::agents::AgentCall>().is_some();
        let local = client(&request).is_none_or(|ip| ip.is_loopback());
        let keys = self.manager.limits().agents.is_some();
        if !(keyed || (!keys && local)) {
            return Err(Status::permission_denied(if keys {
                "serving hints needs the operator's agent key (x-agent-key)"
            } else {
                "serving hints is open to agents on the server's own host only (or give the server agent keys)"
            }));
        }
        let mut inbound = request.into_inner();
        let first = match inbound.message().await {
            Ok(Some(first)) => first,
            Ok(None) => return Err(Status::invalid_argument("ServeHints closed before its first message")),
            Err(status) => return Err(crate::codes::promised(&status).unwrap_or(status)),
        };
        Ok(Response::new(ReceiverStream::new(self.hints.serve(first, inbound))))
    }

    async fn revoke_view(&self, request: Request<pb::RevokeViewRequest>) -> Res<pb::RevokeViewResponse> {
        let note = note_of(&request);
        let req = request.into_inner();
        note.set(&req.game_id, req.credentials.as_ref().map(|c| c.seat));
        let creds = credentials_required(req.credentials)?;
        let span = rpc_span(&note, "RevokeView", &req.game_id, Some(creds.seat));
        let revoked = self.manager.seats().revoke_view(game_id(&req.game_id)?, &creds).instrument(span).await?;
        Ok(Response::new(pb::RevokeViewResponse { revoked }))
    }
}

fn credentials_required(c: Option<pb::SeatCredentials>) -> Result<Credentials, ServiceError> {
    c.map(Credentials::from)
        .ok_or_else(|| ServiceError::BadCredentials("credentials are required: send your seat and its token".into()))
}

impl crate::follow::StreamOpener for GrpcService {
    async fn open(
        &self,
        request: Request<pb::StreamGameRequest>,
    ) -> Result<ReceiverStream<StreamItem<pb::StreamGameResponse>>, Status> {
        pb::game_service_server::GameService::stream_game(self, request).await.map(Response::into_inner)
    }
}
