//! Play: SubmitChoice and Undo. Both check the seat's token and the
//! expected sequence number, compute the new state on a copy, make the
//! entry durable, and only then swap the state in, broadcast it and answer.

use super::seats::Holder;
use super::{Credentials, GameData, Live, Manager, Rendered, Slot, blocking};
use crate::error::ServiceError;
use crate::game::{HostedGame, Refusal, Seat, Viewer};
use crate::model::{EntryKind, EntryRecord, PlayedBy, Status, now_ms};
use crate::replay::{Step, undo_seat};
use crate::secrecy;
use crate::wire::Pick;
use std::sync::Arc;
use tabletop::pb;
use tracing::{Instrument, debug, info, warn};

/// The outcome of an accepted choice.
pub struct Accepted {
    /// Its sequence number.
    pub seq: u64,
    /// What happened.
    pub events: Vec<pb::Event>,
    /// The state after it, for the submitting seat.
    pub state: pb::GameState,
}

impl From<Accepted> for pb::SubmitChoiceResponse {
    fn from(a: Accepted) -> Self {
        pb::SubmitChoiceResponse { seq: a.seq, events: a.events, state: Some(a.state) }
    }
}

impl GameData {
    /// `seat`'s time after a choice made at `at_ms`, when its clock ran
    /// for that choice (the one seat the game waited on).
    fn clock_after_choice(&self, seat: Seat, at_ms: i64) -> Option<i64> {
        let (rec, clocks) = (self.record.clock.as_ref()?, self.clocks.as_ref()?);
        if crate::clock::Clocks::running(rec, &self.deciders) != Some(seat) {
            return None;
        }
        let bank = clocks.banks.get(usize::from(seat)).copied()?;
        Some(rec.after_choice(bank, at_ms - clocks.turn_started_ms))
    }

    /// Refuses a move in a game that is over or at another seq.
    fn check_move(&self, expected_seq: Option<u64>, what: &str) -> Result<(), ServiceError> {
        let Some(expected) = expected_seq else {
            return Err(ServiceError::BadRequest(format!(
                "expected_seq is required: send the seq of the state your {what} answers"
            )));
        };
        if self.record.status == Status::Abandoned {
            return Err(ServiceError::NotNow(
                "the game was abandoned (no choice for too long); it takes no more choices".into(),
            ));
        }
        if self.game.outcome().is_some() {
            return Err(ServiceError::Rule(Refusal::GameOver));
        }
        if expected != self.seq() {
            let why = if expected < self.seq() { "is stale" } else { "is ahead of the game" };
            return Err(ServiceError::StaleSeq(format!(
                "expected_seq {expected} {why}: the game is at seq {}; fetch the new state and decide again",
                self.seq()
            )));
        }
        Ok(())
    }
}

impl Manager {
    /// SubmitChoice of an option id or payload: durable before it returns.
    /// The seat is checked before the choice is looked at, so a seat that
    /// does not decide learns nothing of the options from its refusal.
    pub async fn submit_pick(
        &self,
        game_id: &str,
        creds: &Credentials,
        expected_seq: Option<u64>,
        pick: Pick,
    ) -> Result<Accepted, ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let sent = match &pick {
            Pick::Id(id) => id.chars().take(80).collect::<String>(),
            Pick::Payload(_) => "(payload)".to_string(),
        };
        let refused = |e: ServiceError| {
            info!(option = %sent, expected_seq = ?expected_seq, code = ?e.code(), why = %e, "choice refused");
            e
        };
        let (seat, holder) = self.auth(&mut d, creds).map_err(refused)?;
        d.check_move(expected_seq, "choice").map_err(refused)?;
        if !d.game.deciders().contains(&seat) {
            return Err(refused(secrecy::refusal(d.game.as_ref(), Refusal::NotYourDecision, seat, "")));
        }
        let option_id = match pick {
            Pick::Id(id) => id,
            Pick::Payload(payload) => {
                let mine = secrecy::shown_decision(d.game.as_ref(), Viewer::Seat(seat));
                crate::wire::option_with_payload(&mine, &payload).map_err(refused)?
            }
        };
        let by = if holder == Holder::StandIn { PlayedBy::StandIn } else { PlayedBy::Holder };
        let events = self.choose(&slot, &mut d, seat, &option_id, by).await.map_err(refused)?;
        // Per choice: debug, so a busy server does not write a line per move.
        // A game with private hands: its option ids may name a hand card.
        let logged = if d.game.same_state_for_every_viewer() { option_id.as_str() } else { "(private)" };
        debug!(option = %logged, seq = d.seq(), "choice accepted");
        Ok(Accepted { seq: d.seq(), events, state: d.state(&slot.id, Viewer::Seat(seat)) })
    }

    /// Applies `option_id` for `seat` (made by `by`) with the host's
    /// guards, stamps the seat's clock, and commits it: the events.
    pub(super) async fn choose(
        &self,
        slot: &Slot,
        d: &mut GameData,
        seat: Seat,
        option_id: &str,
        by: PlayedBy,
    ) -> Result<Vec<pb::Event>, ServiceError> {
        let mut next = d.game.boxed_clone();
        let applied = secrecy::apply(next.as_mut(), seat, option_id)
            .map_err(|r| secrecy::refusal(d.game.as_ref(), r, seat, option_id))?;
        let at_ms = now_ms();
        let entry = EntryRecord {
            seq: d.seq() + 1,
            kind: EntryKind::Choice,
            seat,
            option_id: option_id.to_string(),
            at_ms,
            played_by: Some(by),
            clock_ms: d.clock_after_choice(seat, at_ms),
        };
        let step = Steps::Push(Step { seat, undoable: applied.undoable });
        self.commit(slot, d, entry, next, step, applied.events.clone()).await?;
        if by == PlayedBy::Holder {
            d.expel_votes.remove(&seat);
        }
        Ok(applied.events)
    }

    /// Makes `entry` durable, then swaps in the state after it, broadcasts
    /// it, and records the end of the game when it ended.
    async fn commit(
        &self,
        slot: &Slot,
        d: &mut GameData,
        entry: EntryRecord,
        next: Box<dyn HostedGame>,
        steps: Steps,
        events: Vec<pb::Event>,
    ) -> Result<(), ServiceError> {
        // Durable first: the receiver completes once the commit holding
        // this entry (and other games' entries with it) is on disk. The
        // writer starts at once; meanwhile the mover's state is rendered,
        // so the reply does not wait for the disk and then for the render.
        let durable = self.store.append_entry_async(&slot.id, &entry);
        let next: Arc<dyn HostedGame> = Arc::from(next);
        let rendered = Arc::new(Rendered::new(
            Arc::from(slot.id.as_str()),
            entry.seq,
            Arc::clone(&next),
            undo_seat(next.as_ref(), steps.last()),
        ));
        rendered.warm(Viewer::Seat(entry.seat));
        super::commit_wait::commit_answer(durable, self.limits.commit_poll, &self.waiting_commits).await?;
        d.game = Arc::clone(&next);
        d.rendered = Some(Arc::clone(&rendered));
        d.entries.push(entry.clone());
        steps.apply(&mut d.steps);
        d.last_move_ms = entry.at_ms;
        d.moved();
        if let Some(clocks) = &mut d.clocks {
            if let (Some(ms), Some(bank)) = (entry.clock_ms, clocks.banks.get_mut(usize::from(entry.seat))) {
                *bank = ms;
            }
            clocks.turn_started_ms = entry.at_ms;
        }
        let (clocks, forfeited) = (d.clock_wire(), d.forfeited().to_vec());
        // The seq goes in the log lines, not in the caller's span: a Play
        // stream's span lives for many choices, and a span field recorded
        // again is appended, not replaced, by the log formatter.
        let seq = entry.seq;
        let _ = slot.updates.send(Arc::new(Live { entry, events, rendered, clocks, forfeited }));
        if let Some(outcome) = next.outcome() {
            let ended = now_ms();
            d.record.status = Status::Finished;
            d.record.ended_ms = Some(ended);
            self.game_ended(d);
            let (store, id) = (Arc::clone(&self.store), slot.id.clone());
            if let Err(e) = blocking(move || store.set_status(&id, Status::Finished, Some(ended))).await {
                // The status is derived again from the replay at the next start.
                warn!(error = %e, "could not store the finished status");
            }
            info!(outcome = ?outcome, seq, "game ended");
            self.announce(pb::LobbyChange::Status, d.summary());
        }
        Ok(())
    }

    /// Undo: takes back the seat's own last choice when nothing random or
    /// hidden happened in it; recorded as an entry, durable before it returns.
    pub async fn undo(
        &self,
        game_id: &str,
        creds: &Credentials,
        expected_seq: Option<u64>,
    ) -> Result<(u64, pb::GameState), ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let refused = |e: ServiceError| {
            info!(expected_seq = ?expected_seq, code = ?e.code(), why = %e, "undo refused");
            e
        };
        let (seat, _) = self.auth(&mut d, creds).map_err(refused)?;
        d.check_move(expected_seq, "undo").map_err(refused)?;
        match d.steps.last() {
            None => return Err(refused(ServiceError::NotNow("there is no choice to undo".into()))),
            Some(s) if s.seat != seat => {
                return Err(refused(ServiceError::NotNow(format!(
                    "the last choice was made by seat {}, not by seat {seat}; only your own choices can be undone",
                    s.seat
                ))));
            }
            Some(s) if !s.undoable => {
                return Err(refused(ServiceError::NotNow(
                    "the last choice revealed something random or hidden (a roll, a draw, a reveal), ended a turn \
                     or phase, or was made before this fork began; it cannot be undone"
                        .into(),
                )));
            }
            Some(_) => {}
        }
        let entry = EntryRecord {
            seq: d.seq() + 1,
            kind: EntryKind::Undo,
            seat,
            option_id: "undo".into(),
            at_ms: now_ms(),
            played_by: None,
            clock_ms: None,
        };
        let mut entries = d.entries.clone();
        entries.push(entry.clone());
        let (game, steps) = d.recipe.replay(&entries).map_err(|e| refused(ServiceError::Internal(e)))?;
        self.commit(&slot, &mut d, entry, game, Steps::Replace(steps), Vec::new()).await.map_err(refused)?;
        debug!(seat, seq = d.seq(), "choice undone");
        Ok((d.seq(), d.state(&slot.id, Viewer::Seat(seat))))
    }
}

/// How a committed entry changes a game's steps: a choice adds one, an undo
/// replaces them with its replay's (so a choice never copies them all).
enum Steps {
    Push(Step),
    Replace(Vec<Step>),
}

impl Steps {
    /// The last step once the entry is in.
    fn last(&self) -> Option<&Step> {
        match self {
            Steps::Push(step) => Some(step),
            Steps::Replace(steps) => steps.last(),
        }
    }

    /// Puts the entry's change into the game's steps.
    fn apply(self, steps: &mut Vec<Step>) {
        match self {
            Steps::Push(step) => steps.push(step),
            Steps::Replace(new) => *steps = new,
        }
    }
}

impl super::api::Play<'_> {
    /// SubmitChoice on a task of its own: once begun it runs to its end even
    /// when the caller goes away (a client deadline, a reset stream, the
    /// server's request timeout). Otherwise a choice could be committed to
    /// the store and never swapped in, and the next one would clash with it.
    pub async fn submit_detached(
        &self,
        game_id: String,
        creds: Credentials,
        expected_seq: Option<u64>,
        pick: Pick,
    ) -> Result<Accepted, ServiceError> {
        let me = Arc::clone(self.m);
        tokio::spawn(async move { me.submit_pick(&game_id, &creds, expected_seq, pick).await }.in_current_span())
            .await
            .map_err(|e| ServiceError::Internal(format!("the choice's task failed: {e}")))?
    }

    /// Undo on a task of its own, for the same reason as
    /// [`Manager::submit_detached`].
    pub async fn undo_detached(
        &self,
        game_id: String,
        creds: Credentials,
        expected_seq: Option<u64>,
    ) -> Result<(u64, pb::GameState), ServiceError> {
        let me = Arc::clone(self.m);
        tokio::spawn(async move { me.undo(&game_id, &creds, expected_seq).await }.in_current_span())
            .await
            .map_err(|e| ServiceError::Internal(format!("the undo's task failed: {e}")))?
    }

    /// SubmitChoice of an option id: durable before it returns.
    #[cfg(test)]
    pub async fn submit(
        &self,
        game_id: &str,
        creds: &Credentials,
        expected_seq: Option<u64>,
        option_id: &str,
    ) -> Result<Accepted, ServiceError> {
        self.submit_pick(game_id, creds, expected_seq, Pick::Id(option_id.to_string())).await
    }
}
