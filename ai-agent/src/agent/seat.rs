//! One seat's play (`play_seat`: a table of one seat, see `table.rs`) and
//! what the tables share: how a seat's play ends, which statuses are worth
//! a retry and which say the seat is not ours, reading the server
//! address (or addresses), connecting with backoff.

use super::backoff::Backoff;
use super::claims::Claims;
use super::{AgentConfig, AgentError};
use std::sync::Arc;
use tonic::transport::Channel;
use tonic::{Code, Status};
use xodus::GameServiceClient;
use xodus::dial::{Target, Targets};

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

/// Reads the configured server address (`http://HOST:PORT` or `unix:PATH`).
pub fn endpoint(url: &str) -> Result<Target, AgentError> {
    Target::parse(url).map_err(|e| AgentError::Url(url.to_string(), e.why))
}

/// Reads the configured server addresses: one, or several separated by
/// commas (nodes of one service).
pub fn targets(list: &str) -> Result<Targets, AgentError> {
    Targets::parse(list).map_err(|e| AgentError::Url(e.address, e.why))
}

/// Connects, retrying with backoff until it works.
pub async fn connect(ep: &Target, backoff: &mut Backoff) -> GameServiceClient<Channel> {
    loop {
        match ep.connect().await {
            Ok(ch) => return GameServiceClient::new(ch),
            Err(e) => {
                let d = backoff.delay();
                tracing::warn!(error = %e, delay_ms = d.as_millis() as u64, "server unreachable; retrying");
                tokio::time::sleep(d).await;
            }
        }
    }
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

/// Plays `seat` of `game_id`, claiming it as an AI unless `token` is given
/// (one table of one seat, `table.rs`). A seat it claims is held in
/// `claims` until the seat's play ends.
pub async fn play_seat(
    cfg: Arc<AgentConfig>,
    game_id: String,
    seat: u32,
    token: Option<String>,
    claims: Claims,
) -> Result<SeatEnd, AgentError> {
    let pool = super::conn::Pool::new(&cfg)?;
    let thinkers = super::think::Thinkers::new(cfg.think_slots());
    let shared = super::table::Shared { cfg, pool, thinkers, claims };
    let (_more, rx) = tokio::sync::mpsc::unbounded_channel();
    let end = super::table::play_table(shared, game_id, (seat, token), rx, |_, _| {}).await?;
    Ok(end
        .seats
        .into_iter()
        .find(|(s, _)| *s == seat)
        .map_or_else(|| SeatEnd::Lost("the seat was never ours".into()), |(_, e)| e))
}

/// A stable 64-bit hash of a string (FNV-1a), for seeding per game.
pub fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
