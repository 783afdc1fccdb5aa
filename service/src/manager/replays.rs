//! Replays: a game's state at an earlier seq as one viewer saw it, and
//! GetView for every kind of caller (a seat, a granted watcher, a
//! spectator, now or at a seq). Who may see what:
//!
//! - a finished or abandoned game: anyone, at any seq, as any seat or as
//!   a spectator (every secret is public once a game is over);
//! - a live game: a seat replays its own view only; a spectator up to the
//!   seq its policy lets it see (`spectators.rs`); a granted watcher sees
//!   the seat's view now, never a replay;
//! - in a resampled fork, the states before its last resampling are its
//!   source's: a seat sees them as a spectator does, and their option ids
//!   stay hidden in a game whose seats hold secrets of their own.
//!
//! A replay rebuilds the game from its entries (the engine is
//! deterministic). Delayed spectators of a live game share one cursor that
//! steps forward as the game does, instead of a replay per call.

use super::spectators::{Who, watch_only};
use super::{Credentials, GameData, state_for};
use crate::error::ServiceError;
use crate::game::{HostedGame, Seat, Viewer};
use crate::model::EntryRecord;
use crate::replay::{Recipe, Step, undo_seat};
use tabletop::pb;

/// A game replayed up to some seq, stepped forward entry by entry.
pub(super) struct Cursor {
    /// The game at `seq`.
    pub(super) game: Box<dyn HostedGame>,
    /// Its effective steps.
    pub(super) steps: Vec<Step>,
    /// How many entries it has played.
    pub(super) seq: u64,
    /// The spectators' state at `seq`, once rendered.
    spectator: Option<pb::GameState>,
}

impl Cursor {
    /// The game after the first `seq` of `entries`.
    pub(super) fn at(recipe: &Recipe, entries: &[EntryRecord], seq: u64) -> Result<Cursor, String> {
        let n = usize::try_from(seq).unwrap_or(usize::MAX).min(entries.len());
        let (game, steps) = recipe.replay(&entries[..n])?;
        Ok(Cursor { game, steps, seq: n as u64, spectator: None })
    }

    /// Plays the next entry: the events it caused.
    pub(super) fn step(&mut self, recipe: &Recipe, entries: &[EntryRecord]) -> Result<Vec<pb::Event>, String> {
        let i = usize::try_from(self.seq).map_err(|e| e.to_string())?;
        let events = recipe.step(&mut self.game, &mut self.steps, entries, i)?;
        self.seq += 1;
        self.spectator = None;
        Ok(events)
    }

    /// The seat that may undo at this seq.
    pub(super) fn undo(&self) -> Option<Seat> {
        undo_seat(self.game.as_ref(), self.steps.last())
    }
}

/// The first seq whose state is this game's own: 0, or for a resampled
/// fork its last resampling point (before it the hidden part was its
/// source's).
pub(super) fn own_from(recipe: &Recipe) -> u64 {
    recipe.resamples.last().map_or(0, |r| r.at_seq)
}

/// The viewer a state at `seq` is rendered for: a seat sees the states
/// before `own_from` as a spectator does.
pub(super) fn viewer_at(viewer: Viewer, seq: u64, own_from: u64) -> Viewer {
    if seq < own_from { Viewer::Spectator } else { viewer }
}

/// Whether entry `e`'s option id goes to `viewer` (see
/// `secrecy::choice_shown`); besides, in a game whose seats hold secrets of
/// their own, a resampled fork's entries up to its resampling are its
/// source's choices and stay hidden.
pub(super) fn id_shown(
    game: &dyn HostedGame,
    over: bool,
    viewer: Option<Viewer>,
    e: &EntryRecord,
    own_from: u64,
) -> bool {
    if e.seq <= own_from && !game.same_state_for_every_viewer() {
        return false;
    }
    crate::secrecy::choice_shown(game, over, viewer, e.seat)
}

/// What GetView asks for, beyond the game.
#[derive(Clone, Debug, Default)]
pub struct ViewRequest {
    /// A seat and its token.
    pub credentials: Option<Credentials>,
    /// A granted view token.
    pub view_token: String,
    /// A replay's seq.
    pub at_seq: Option<u64>,
    /// A replay's seat.
    pub as_seat: Option<u32>,
}

impl GameData {
    /// The viewer a request for `as_seat` renders for, after checking who
    /// may ask for it.
    pub(super) fn replay_viewer(&self, who: Who, as_seat: Option<u32>) -> Result<Viewer, ServiceError> {
        let Some(asked) = as_seat else { return Ok(who.viewer()) };
        let n = self.record.seats.len();
        let seat = Seat::try_from(asked).ok().filter(|&s| usize::from(s) < n).ok_or_else(|| {
            ServiceError::BadRequest(format!("as_seat {asked} does not exist; this game has seats 0 to {}", n - 1))
        })?;
        match who {
            _ if self.is_over() => Ok(Viewer::Seat(seat)),
            Who::Seat(own, _) if own == seat => Ok(Viewer::Seat(seat)),
            _ => Err(ServiceError::NotAllowed(format!(
                "game {} is live: it is replayed only from your own seat's view (send its credentials) or as a \
                 spectator; any seat's view once it is over",
                self.record.id
            ))),
        }
    }

    /// The state at `seq` (before the current one) as `viewer` saw it.
    fn replayed_state(&mut self, game_id: &str, seq: u64, viewer: Viewer) -> Result<pb::GameState, ServiceError> {
        let viewer = viewer_at(viewer, seq, own_from(&self.recipe));
        if viewer == Viewer::Spectator && !self.is_over() && seq == self.visible_seq(Viewer::Spectator) {
            return self.delayed_state(game_id);
        }
        let c = Cursor::at(&self.recipe, &self.entries, seq)
            .map_err(|e| ServiceError::Internal(format!("history does not replay: {e}")))?;
        Ok(state_for(game_id, seq, c.game.as_ref(), viewer, None))
    }

    /// The state delayed spectators see now, from the shared cursor.
    fn delayed_state(&mut self, game_id: &str) -> Result<pb::GameState, ServiceError> {
        let target = self.visible_seq(Viewer::Spectator);
        let stale = self.spectating.cursor.as_ref().is_none_or(|c| c.seq > target);
        if stale {
            let c = Cursor::at(&self.recipe, &self.entries, target)
                .map_err(|e| ServiceError::Internal(format!("history does not replay: {e}")))?;
            self.spectating.cursor = Some(c);
        }
        let (recipe, entries) = (&self.recipe, &self.entries);
        let Some(c) = self.spectating.cursor.as_mut() else {
            return Err(ServiceError::Internal("no spectators' cursor".into()));
        };
        while c.seq < target {
            c.step(recipe, entries).map_err(|e| ServiceError::Internal(format!("history does not replay: {e}")))?;
        }
        let state = c
            .spectator
            .get_or_insert_with(|| state_for(game_id, target, c.game.as_ref(), Viewer::Spectator, None))
            .clone();
        Ok(state)
    }
}

impl super::api::Seats<'_> {
    /// GetView for any caller: the state now (a delayed spectator's latest
    /// allowed one), or a replay at `at_seq`, and the game's summary.
    pub async fn view(
        &self,
        game_id: &str,
        req: &ViewRequest,
    ) -> Result<(pb::GameState, pb::GameSummary, Vec<u32>), ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let who = self.who(&mut d, req.credentials.as_ref(), &req.view_token)?;
        // A seat's own mutes come with its view (a page reloaded shows them).
        let muted = match who {
            Who::Seat(s, _) => d.talk.mutes_of(s),
            _ => Vec::new(),
        };
        if matches!(who, Who::Granted(_)) && req.as_seat.is_some() {
            return Err(ServiceError::BadRequest("a view token shows its seat's view: leave as_seat unset".into()));
        }
        let viewer = d.replay_viewer(who, req.as_seat)?;
        let now = d.seq();
        let seq = match req.at_seq {
            Some(at) if at > now => {
                return Err(ServiceError::BeyondHistory(format!("at_seq {at} is beyond the game's seq {now}")));
            }
            Some(at) => at,
            None => d.visible_seq(viewer),
        };
        if matches!(who, Who::Granted(_)) && seq < now && !d.is_over() {
            return Err(ServiceError::NotAllowed(
                "a view token shows the seat's view now; a live game is replayed only from the seat itself".into(),
            ));
        }
        d.check_visible(viewer, seq, "at_seq")?;
        let mut state = if seq == now { d.state(&slot.id, viewer) } else { d.replayed_state(&slot.id, seq, viewer)? };
        if matches!(who, Who::Granted(_)) {
            watch_only(&mut state, d.game.as_ref());
        }
        Ok((state, d.summary(), muted))
    }
}
