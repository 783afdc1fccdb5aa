//! How a seat's play ends, and what a server's status says of it: worth a
//! retry after reconnecting, or the seat is not ours any more.

use tonic::{Code, Status};

/// How a seat's play ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatEnd {
    /// The game ended: won or not, and why.
    Finished {
        /// This seat won: the Rift was sealed (a cooperative game), or the
        /// seat is among the winners (a ranked game).
        won: bool,
        /// The engine's cause.
        cause: String,
    },
    /// The seat is not ours (claimed by someone else, token revoked, game
    /// gone).
    Lost(String),
}

/// Whether a status is worth retrying after reconnecting.
pub(crate) fn transient(s: &Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Internal
            | Code::Cancelled
            | Code::DeadlineExceeded
            | Code::ResourceExhausted
    )
}

/// Whether a status says the seat is not ours any more.
pub(crate) fn seat_lost(s: &Status) -> bool {
    matches!(s.code(), Code::Unauthenticated | Code::NotFound)
        || (s.code() == Code::PermissionDenied && s.message().contains("token"))
}
