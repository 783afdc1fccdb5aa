//! Play: one seat's choices over one open bidirectional stream. The stream
//! is opened like a GetView (game and credentials checked, the seat's state
//! sent back); each later message is a choice that goes down exactly the
//! path of SubmitChoice and gets one answer, in order: accepted once durable,
//! or refused with SubmitChoice's status, the stream staying open. Each
//! choice is checked against a per-stream copy of the per-client request
//! rate, since the server's rate limit counts calls, not messages.

use super::{Credentials, Manager, StreamItem};
use crate::error::ServiceError;
use crate::limits::StreamGuard;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use tabletop::pb;
use tokio::sync::{mpsc, watch};
use tokio_stream::{Stream, StreamExt};
use tracing::Instrument;

/// Answers a Play stream may hold before the client reads them.
const PLAY_BUFFER: usize = 8;

/// An open Play stream's fixed part.
struct Session {
    manager: Arc<Manager>,
    game_id: String,
    creds: Credentials,
    rate: DefaultDirectRateLimiter,
    per_second: u32,
    _guard: StreamGuard,
    /// Holds the seat's lease while its holder plays over this stream.
    _holding: Option<super::HolderStream>,
}

impl Manager {
    /// A Play stream's hold on its seat's lease, when it is the holder's.
    async fn holder_stream(
        &self,
        game_id: &str,
        creds: &Credentials,
    ) -> Result<Option<super::HolderStream>, ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let (viewer, holder) = self.viewer_and_holder(&mut d, Some(creds))?;
        Ok(match viewer {
            crate::game::Viewer::Seat(s) if holder => super::HolderStream::open(&slot, s),
            _ => None,
        })
    }
}

impl Session {
    /// Reads choices until the client closes its side, leaves or sends
    /// something unreadable, or the server shuts down.
    async fn serve<S>(
        self,
        mut inbound: S,
        tx: mpsc::Sender<StreamItem<pb::PlayResponse>>,
        mut shutdown: watch::Receiver<bool>,
    ) where
        S: Stream<Item = Result<pb::PlayRequest, tonic::Status>> + Send + Unpin,
    {
        loop {
            let next = tokio::select! {
                next = inbound.next() => next,
                _ = tx.closed() => return,
                _ = super::turned_on(&mut shutdown) => {
                    let _ = tx.send(Err(tonic::Status::unavailable("the server is shutting down"))).await;
                    return;
                }
            };
            let request = match next {
                None => return,
                Some(Ok(request)) => request,
                Some(Err(status)) => {
                    // A message that does not decode (or is over the size
                    // limit) cannot be answered in turn: the stream ends
                    // with the status the API promises for it.
                    let status = crate::codes::promised(&status).unwrap_or(status);
                    let _ = tx.send(Err(status)).await;
                    return;
                }
            };
            let answer = match self.answer(request).await {
                Ok(accepted) => pb::play_response::Kind::Accepted(accepted),
                Err(ServiceError::Elsewhere { game, owner }) => {
                    // Another node took the game over: nothing was written;
                    // the client opens the stream again (it is forwarded to
                    // the owner) and sends the choice there.
                    let why = format!("game {game} moved to node {owner}; open the Play stream again and resend");
                    let _ = tx.send(Err(tonic::Status::unavailable(why))).await;
                    return;
                }
                Err(e) => {
                    let status = tonic::Status::from(e);
                    #[allow(deprecated)] // `code` is still sent for older clients
                    pb::play_response::Kind::Refused(pb::PlayRefusal {
                        code: status.code() as i32,
                        message: status.message().to_string(),
                        reason: refusal_code(status.code()) as i32,
                    })
                }
            };
            if tx.send(Ok(pb::PlayResponse { kind: Some(answer) })).await.is_err() {
                return;
            }
        }
    }

    /// One message after `open`: a choice, submitted like SubmitChoice.
    async fn answer(&self, request: pb::PlayRequest) -> Result<pb::SubmitChoiceResponse, ServiceError> {
        use pb::play_choice::Choice as Play;
        use pb::submit_choice_request::Choice as Submit;
        let choice = match request.kind {
            Some(pb::play_request::Kind::Choice(c)) => c,
            Some(pb::play_request::Kind::Open(_)) => {
                return Err(ServiceError::BadRequest(
                    "this stream is already open; send choices on it, or open another stream for another seat".into(),
                ));
            }
            None => return Err(ServiceError::BadRequest("empty PlayRequest: set `choice`".into())),
        };
        if self.rate.check().is_err() {
            return Err(ServiceError::OverLimit(format!(
                "more than {} choices per second on this stream; slow down",
                self.per_second
            )));
        }
        let pick = match choice.choice {
            Some(Play::OptionId(id)) => Some(Submit::OptionId(id)),
            Some(Play::ChoiceJson(json)) => Some(Submit::ChoiceJson(json)),
            None => None,
        };
        // Straight on this task, not detached like SubmitChoice: the
        // session's task is not dropped while it answers (it only watches
        // the client and the shutdown between choices), so a choice begun
        // always ends, and one task hop less per choice.
        let pick = crate::wire::pick(&pick)?;
        let accepted = self.manager.submit_pick(&self.game_id, &self.creds, choice.expected_seq, pick).await?;
        Ok(accepted.into())
    }
}

/// The typed form of a refusal's status (`PlayRefusal.reason`); a status
/// the enum does not name (none is sent today) reads as INTERNAL.
fn refusal_code(code: tonic::Code) -> pb::RefusalCode {
    use pb::RefusalCode as R;
    use tonic::Code as C;
    match code {
        C::InvalidArgument => R::InvalidArgument,
        C::NotFound => R::NotFound,
        C::PermissionDenied => R::PermissionDenied,
        C::ResourceExhausted => R::ResourceExhausted,
        C::FailedPrecondition => R::FailedPrecondition,
        C::Aborted => R::Aborted,
        C::Unavailable => R::Unavailable,
        C::Unauthenticated => R::Unauthenticated,
        _ => R::Internal,
    }
}

impl super::api::Play<'_> {
    /// Play: checks the game and the seat like GetView, answers with the
    /// seat's state, then serves the choices read from `inbound` on a task
    /// of its own.
    pub async fn play_stream<S>(
        &self,
        client: Option<IpAddr>,
        game_id: String,
        creds: Credentials,
        inbound: S,
    ) -> Result<mpsc::Receiver<StreamItem<pb::PlayResponse>>, ServiceError>
    where
        S: Stream<Item = Result<pb::PlayRequest, tonic::Status>> + Send + Unpin + 'static,
    {
        let (state, _) = self.m.seats().get_view(&game_id, Some(&creds)).await?;
        let holding = self.holder_stream(&game_id, &creds).await?;
        let guard = self.caps.open_stream(client, self.limits.max_streams_per_client)?;
        let per_second = self.limits.requests_per_second.max(1);
        let quota = Quota::per_second(NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN));
        let session = Session {
            manager: Arc::clone(self.m),
            game_id,
            creds,
            rate: RateLimiter::direct(quota),
            per_second,
            _guard: guard,
            _holding: holding,
        };
        let (tx, rx) = mpsc::channel(PLAY_BUFFER);
        let opened = pb::PlayResponse { kind: Some(pb::play_response::Kind::Opened(state)) };
        // A fresh channel has room: this cannot fail.
        let _ = tx.try_send(Ok(opened));
        let shutdown = self.shutdown.subscribe();
        tokio::spawn(session.serve(inbound, tx, shutdown).in_current_span());
        Ok(rx)
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;

    #[test]
    fn each_refusal_code_has_its_grpc_number() {
        for code in [
            tonic::Code::InvalidArgument,
            tonic::Code::NotFound,
            tonic::Code::PermissionDenied,
            tonic::Code::ResourceExhausted,
            tonic::Code::FailedPrecondition,
            tonic::Code::Aborted,
            tonic::Code::Unavailable,
            tonic::Code::Unauthenticated,
            tonic::Code::Internal,
        ] {
            assert_eq!(refusal_code(code) as i32, code as i32, "{code:?}");
        }
        assert_eq!(refusal_code(tonic::Code::DataLoss), pb::RefusalCode::Internal);
    }
}
