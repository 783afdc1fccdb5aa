//! Rebuilding a game from what the store keeps: its game type and config,
//! its entries (choices and undos) and, for a resampled fork, the point
//! where its hidden part was drawn afresh. Games are deterministic, so
//! replaying the entries yields the very states and events they yielded the
//! first time; streams, reloads, forks and undos all go through here.

use crate::game::{GameType, HostedGame, Seat, Viewer};
use crate::model::{EntryKind, EntryRecord, Resample};
use std::sync::Arc;
use tabletop::pb;

/// One effective choice (a choice not undone): who made it and whether it
/// may be taken back.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The seat that made it.
    pub seat: Seat,
    /// Nothing random or hidden happened in it (the game says), and it is
    /// not before a fork's resampling point.
    pub undoable: bool,
}

/// The seat that may undo now, if any, given the game and its last step.
pub fn undo_seat(game: &dyn HostedGame, last: Option<&Step>) -> Option<Seat> {
    if game.outcome().is_some() {
        return None;
    }
    last.filter(|s| s.undoable).map(|s| s.seat)
}

/// How a stored game is rebuilt.
#[derive(Clone)]
pub struct Recipe {
    /// The game it is.
    pub game_type: Arc<dyn GameType>,
    /// The stored configuration (with the first source's seed, for a fork).
    pub config_json: String,
    /// For a resampled fork, where its hidden part was drawn afresh, in
    /// increasing `at_seq`.
    pub resamples: Vec<Resample>,
    /// True when the configuration's seed was chosen by the creator, not
    /// drawn by the server.
    pub seed_chosen: bool,
}

impl Recipe {
    /// The seed that drives the game's own hidden part now: the last
    /// resampling's, or the config's.
    pub fn own_seed(&self) -> u64 {
        self.resamples.last().map_or_else(|| crate::game::seed_of(&self.config_json), |r| r.seed)
    }

    /// Replays `entries` from the start: the game after them (the
    /// resamplings among them included) and its effective steps.
    pub fn replay(&self, entries: &[EntryRecord]) -> Result<(Box<dyn HostedGame>, Vec<Step>), String> {
        let mut game = self.game_type.start(&self.config_json).map_err(|e| e.to_string())?;
        let mut steps = Vec::new();
        let mut start = 0;
        // Resamplings after the last entry replayed have not happened yet.
        for r in self.resamples.iter().filter(|r| r.at_seq <= entries.len() as u64) {
            let at = usize::try_from(r.at_seq)
                .ok()
                .filter(|&at| at >= start)
                .ok_or_else(|| format!("resamplings out of order at seq {}", r.at_seq))?;
            // Undos never reach back past a resampling (the steps before
            // it are not undoable), so each part replays on its own.
            steps.extend(play(game.as_mut(), &effective(&entries[start..at])?)?);
            game = game.resampled(Viewer::Spectator, r.seed);
            steps.iter_mut().for_each(|s| s.undoable = false);
            start = at;
        }
        steps.extend(play(game.as_mut(), &effective(&entries[start..])?)?);
        Ok((game, steps))
    }

    /// The recipe of the first `at_seq` entries: the resamplings up to it.
    pub fn up_to(&self, at_seq: u64) -> Recipe {
        Recipe {
            game_type: Arc::clone(&self.game_type),
            config_json: self.config_json.clone(),
            resamples: self.resamples.iter().copied().filter(|r| r.at_seq <= at_seq).collect(),
            seed_chosen: self.seed_chosen,
        }
    }

    /// Plays entry `i` of `entries` on `game` (which is at the state after
    /// the first `i` entries): the events it caused. An undo replays the
    /// whole history up to it, so it causes no events.
    pub fn step(
        &self,
        game: &mut Box<dyn HostedGame>,
        steps: &mut Vec<Step>,
        entries: &[EntryRecord],
        i: usize,
    ) -> Result<Vec<pb::Event>, String> {
        let e = entries.get(i).ok_or_else(|| format!("no entry {}", i + 1))?;
        let events = match e.kind {
            EntryKind::Choice => {
                let applied = crate::secrecy::apply(game.as_mut(), e.seat, &e.option_id)
                    .map_err(|err| format!("entry {} ('{}') refused: {err}", e.seq, e.option_id))?;
                steps.push(Step { seat: e.seat, undoable: applied.undoable });
                applied.events
            }
            EntryKind::Undo => {
                (*game, *steps) = self.replay(&entries[..=i])?;
                return Ok(Vec::new());
            }
        };
        if let Some(r) = self.resamples.iter().find(|r| r.at_seq == (i + 1) as u64) {
            *game = game.resampled(Viewer::Spectator, r.seed);
            steps.iter_mut().for_each(|s| s.undoable = false);
        }
        Ok(events)
    }
}

/// The choices of `entries` that no later undo took back.
fn effective(entries: &[EntryRecord]) -> Result<Vec<&EntryRecord>, String> {
    let mut out: Vec<&EntryRecord> = Vec::new();
    for e in entries {
        match e.kind {
            EntryKind::Choice => out.push(e),
            EntryKind::Undo => {
                out.pop().ok_or_else(|| format!("entry {} undoes nothing", e.seq))?;
            }
        }
    }
    Ok(out)
}

/// Applies `choices` to `game`: their steps.
fn play(game: &mut dyn HostedGame, choices: &[&EntryRecord]) -> Result<Vec<Step>, String> {
    let mut steps = Vec::with_capacity(choices.len());
    for e in choices {
        let applied = crate::secrecy::apply(game, e.seat, &e.option_id)
            .map_err(|err| format!("entry {} ('{}') refused: {err}", e.seq, e.option_id))?;
        steps.push(Step { seat: e.seat, undoable: applied.undoable });
    }
    Ok(steps)
}
