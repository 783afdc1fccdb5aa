//! The gRPC service: a thin wrapper over the `Arc`'d [`Manager`]. Each method
//! reads its request, asks the manager, and turns the answer into a
//! response or the error into a `Status`. No game logic lives here.

use crate::error::ServiceError;
use crate::manager::{Credentials, Manager, StreamItem};
use crate::model::Status as GameStatus;
use crate::wire;
use std::net::IpAddr;
use std::sync::Arc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};
use xodus::pb;

/// The `xodus.v1.GameService` implementation.
pub struct GrpcService {
    /// Every game.
    manager: Arc<Manager>,
}

impl GrpcService {
    /// Wraps a manager.
    pub fn new(manager: Arc<Manager>) -> GrpcService {
        GrpcService { manager }
    }
}

/// The client's IP address, for per-client caps.
fn client<T>(req: &Request<T>) -> Option<IpAddr> {
    req.remote_addr().map(|a| a.ip())
}

/// A game id must be given.
fn game_id(id: &str) -> Result<&str, ServiceError> {
    if id.is_empty() { Err(ServiceError::InvalidArgument("game_id is empty".into())) } else { Ok(id) }
}

type Res<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl pb::game_service_server::GameService for GrpcService {
    async fn create_game(&self, request: Request<pb::CreateGameRequest>) -> Res<pb::CreateGameResponse> {
        let ip = client(&request);
        let game = self.manager.create_game(ip, request.get_ref()).await?;
        Ok(Response::new(pb::CreateGameResponse { game: Some(game) }))
    }

    async fn list_games(&self, request: Request<pb::ListGamesRequest>) -> Res<pb::ListGamesResponse> {
        let req = request.into_inner();
        let status = match pb::GameStatus::try_from(req.status) {
            Ok(pb::GameStatus::Unspecified) => None,
            Ok(pb::GameStatus::Open) => Some(GameStatus::Open),
            Ok(pb::GameStatus::Playing) => Some(GameStatus::Playing),
            Ok(pb::GameStatus::Finished) => Some(GameStatus::Finished),
            Err(_) => {
                return Err(
                    ServiceError::InvalidArgument(format!("status = {} is not a GameStatus", req.status)).into()
                );
            }
        };
        let games = self.manager.list_games(status, req.only_open_seats).await;
        Ok(Response::new(pb::ListGamesResponse { games }))
    }

    type WatchLobbyStream = ReceiverStream<StreamItem<pb::LobbyUpdate>>;

    async fn watch_lobby(&self, request: Request<pb::WatchLobbyRequest>) -> Res<Self::WatchLobbyStream> {
        let rx = self.manager.watch_lobby(client(&request)).await?;
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn claim_seat(&self, request: Request<pb::ClaimSeatRequest>) -> Res<pb::ClaimSeatResponse> {
        let req = request.into_inner();
        let claimant = wire::claimant(req.claimant)?;
        let (token, game) = self.manager.claim_seat(game_id(&req.game_id)?, req.seat, claimant, &req.token).await?;
        Ok(Response::new(pb::ClaimSeatResponse { token, game: Some(game) }))
    }

    async fn release_seat(&self, request: Request<pb::ReleaseSeatRequest>) -> Res<pb::ReleaseSeatResponse> {
        let req = request.into_inner();
        let creds = credentials_required(req.credentials)?;
        let game = self.manager.release_seat(game_id(&req.game_id)?, &creds).await?;
        Ok(Response::new(pb::ReleaseSeatResponse { game: Some(game) }))
    }

    async fn get_view(&self, request: Request<pb::GetViewRequest>) -> Res<pb::GetViewResponse> {
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let (state, game) = self.manager.get_view(game_id(&req.game_id)?, creds.as_ref()).await?;
        Ok(Response::new(pb::GetViewResponse { state: Some(state), game: Some(game) }))
    }

    async fn submit_choice(&self, request: Request<pb::SubmitChoiceRequest>) -> Res<pb::SubmitChoiceResponse> {
        let req = request.into_inner();
        let creds = credentials_required(req.credentials)?;
        let option_id = wire::choice_id(&req.choice)?;
        let a = self.manager.submit(game_id(&req.game_id)?, &creds, req.expected_seq, &option_id).await?;
        Ok(Response::new(pb::SubmitChoiceResponse { seq: a.seq, events: a.events, state: Some(a.state) }))
    }

    async fn undo(&self, request: Request<pb::UndoRequest>) -> Res<pb::UndoResponse> {
        let req = request.into_inner();
        let creds = credentials_required(req.credentials)?;
        let (seq, state) = self.manager.undo(game_id(&req.game_id)?, &creds, req.expected_seq).await?;
        Ok(Response::new(pb::UndoResponse { seq, state: Some(state) }))
    }

    type StreamGameStream = ReceiverStream<StreamItem<pb::GameUpdate>>;

    async fn stream_game(&self, request: Request<pb::StreamGameRequest>) -> Res<Self::StreamGameStream> {
        let ip = client(&request);
        let req = request.into_inner();
        let creds = req.credentials.map(Credentials::from);
        let rx = self.manager.stream_game(ip, game_id(&req.game_id)?, req.from_seq, creds.as_ref()).await?;
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn get_history(&self, request: Request<pb::GetHistoryRequest>) -> Res<pb::GetHistoryResponse> {
        let req = request.into_inner();
        let (game, entries) = self.manager.history(game_id(&req.game_id)?).await?;
        Ok(Response::new(pb::GetHistoryResponse { game: Some(game), entries }))
    }

    async fn fork_game(&self, request: Request<pb::ForkGameRequest>) -> Res<pb::ForkGameResponse> {
        let ip = client(&request);
        let req = request.into_inner();
        let game = self.manager.fork_game(ip, game_id(&req.source_game_id)?, req.at_seq, &req.seats).await?;
        Ok(Response::new(pb::ForkGameResponse { game: Some(game) }))
    }
}

fn credentials_required(c: Option<pb::SeatCredentials>) -> Result<Credentials, ServiceError> {
    c.map(Credentials::from)
        .ok_or_else(|| ServiceError::Unauthenticated("credentials are required: send your seat and its token".into()))
}
