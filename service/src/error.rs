//! The service's errors, one variant per way a request can fail, named for
//! what went wrong; [`ServiceError::code`] maps each to the gRPC status it
//! is answered with, and the conversion into `tonic::Status` happens at the
//! edge. Messages are written
//! for front-end authors: they say what was wrong and what to do.

use crate::game::Refusal;
use crate::store::StoreError;

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Malformed request (INVALID_ARGUMENT).
    #[error("{0}")]
    BadRequest(String),
    /// Unknown game.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// A game type this server does not host.
    #[error("no game type '{0}' is hosted here")]
    UnknownGameType(String),
    /// Missing or wrong seat token (UNAUTHENTICATED).
    #[error("{0}")]
    BadCredentials(String),
    /// The caller may not do this (wrong seat, wrong claimant kind;
    /// PERMISSION_DENIED).
    #[error("{0}")]
    NotAllowed(String),
    /// The request is well-formed but not possible now
    /// (FAILED_PRECONDITION).
    #[error("{0}")]
    NotNow(String),
    /// The expected sequence number is stale (ABORTED).
    #[error("{0}")]
    StaleSeq(String),
    /// A cap or rate was exceeded (RESOURCE_EXHAUSTED).
    #[error("{0}")]
    OverLimit(String),
    /// A sequence number beyond the game's (OUT_OF_RANGE).
    #[error("{0}")]
    BeyondHistory(String),
    /// The server is shutting down.
    #[error("the server is shutting down; reconnect and resume from your last seq")]
    ShuttingDown,
    /// The game's rules refused the choice.
    #[error(transparent)]
    Rule(#[from] Refusal),
    /// Storage failed; nothing was acknowledged.
    #[error("storage failed, nothing was changed: {0}")]
    Store(#[from] StoreError),
    /// Another node of the cluster owns the game (the gRPC layer forwards
    /// the call there; a client sees this only when that node cannot be
    /// reached).
    #[error("game {game} is hosted by node {owner}, which did not answer; retry in a moment")]
    Elsewhere {
        /// The game.
        game: String,
        /// The node that owns it.
        owner: String,
    },
    /// A bug or a lost background task.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServiceError {
    /// The gRPC code this error is reported with.
    pub fn code(&self) -> tonic::Code {
        use tonic::Code;
        match self {
            ServiceError::BadRequest(_) => Code::InvalidArgument,
            ServiceError::NotFound(_) | ServiceError::UnknownGameType(_) => Code::NotFound,
            ServiceError::BadCredentials(_) => Code::Unauthenticated,
            ServiceError::NotAllowed(_) => Code::PermissionDenied,
            ServiceError::NotNow(_) => Code::FailedPrecondition,
            ServiceError::StaleSeq(_) => Code::Aborted,
            ServiceError::OverLimit(_) => Code::ResourceExhausted,
            ServiceError::BeyondHistory(_) => Code::OutOfRange,
            ServiceError::ShuttingDown | ServiceError::Elsewhere { .. } => Code::Unavailable,
            ServiceError::Rule(Refusal::NotYourDecision) => Code::PermissionDenied,
            ServiceError::Rule(_) => Code::FailedPrecondition,
            ServiceError::Store(_) => Code::Unavailable,
            ServiceError::Internal(_) => Code::Internal,
        }
    }
}

impl From<ServiceError> for tonic::Status {
    fn from(e: ServiceError) -> tonic::Status {
        tonic::Status::new(e.code(), e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_errors_map_to_grpc_codes() {
        assert_eq!(ServiceError::from(Refusal::NotYourDecision).code(), tonic::Code::PermissionDenied);
        assert_eq!(ServiceError::from(Refusal::Illegal).code(), tonic::Code::FailedPrecondition);
        assert_eq!(ServiceError::from(Refusal::GameOver).code(), tonic::Code::FailedPrecondition);
    }
}
