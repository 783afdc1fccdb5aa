//! One seat's play (`play_seat`): a table of one seat (see `table.rs`),
//! for `xodus-ai --game G --seat N`, serving hints meanwhile (`hints.rs`).

use super::claims::Claims;
use super::status::SeatEnd;
use super::{AgentConfig, AgentError};
use std::sync::Arc;

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
    // The seat's captain also serves hints while it plays (the captains
    // `xodus play` starts are the only agents of its local server).
    let hints = tokio::spawn(super::hints::serve(cfg.clone(), pool.clone(), thinkers.clone()));
    let shared = super::table::Shared { cfg, pool, thinkers, claims, follows: Default::default() };
    let (_more, rx) = tokio::sync::mpsc::unbounded_channel();
    let end = super::table::play_table(shared, game_id, (seat, token), rx, |_, _| {}).await;
    hints.abort();
    let end = end?;
    Ok(end
        .seats
        .into_iter()
        .find(|(s, _)| *s == seat)
        .map_or_else(|| SeatEnd::Lost("the seat was never ours".into()), |(_, e)| e))
}
