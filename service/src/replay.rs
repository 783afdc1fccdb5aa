//! Rebuilding a game from what the store keeps: its config, its entries
//! (choices and undos) and, for a resampled fork, the point where its hidden
//! part was drawn afresh. The engine is deterministic, so replaying the
//! entries yields the very states and events they yielded the first time;
//! streams, reloads, forks and undos all go through here.

use crate::model::{EntryKind, EntryRecord, Resample};
use xodus_engine::{Event, Game, GameConfig, Seat, Viewer};

/// One effective choice (a choice not undone): who made it and whether it
/// may be taken back.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The seat that made it.
    pub seat: Seat,
    /// Nothing random or hidden happened in it (and it is not before a
    /// fork's resampling point).
    pub undoable: bool,
}

/// Event kinds that reveal nothing random or hidden: a choice whose events
/// are all of these may be undone. Anything else (dice, draws, reveals,
/// phase changes, the end of a turn or of the game) closes the door.
const UNDOABLE_EVENTS: &[&str] = &[
    "turn_started",
    "fleet_joined",
    "invite_declined",
    "ship_moved",
    "scraps_changed",
    "energy_changed",
    "xp_gained",
    "strained",
    "key_moved",
    "module_gained",
    "module_lost",
    "health_recovered",
    "damaged_removed",
];

/// Whether a choice that caused `events` may be undone.
pub fn undoable(events: &[Event]) -> bool {
    events.iter().all(|e| UNDOABLE_EVENTS.contains(&xodus::convert::event(e).kind.as_str()))
}

/// The seat that may undo now, if any.
pub fn undo_seat(game: &Game, steps: &[Step]) -> Option<Seat> {
    if game.outcome().is_some() {
        return None;
    }
    steps.last().filter(|s| s.undoable).map(|s| s.seat)
}

/// How a stored game is rebuilt.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The config (with the first source's seed, for a fork).
    pub config: GameConfig,
    /// For a resampled fork, where its hidden part was drawn afresh, in
    /// increasing `at_seq`.
    pub resamples: Vec<Resample>,
}

/// The state sampled afresh from `game`'s public view with `seed`.
pub fn resampled(game: &Game, seed: u64) -> Game {
    Game::from_view(&game.view(Viewer::Spectator), seed)
}

impl Recipe {
    /// The seed that drives the game's own hidden part now: the last
    /// resampling's, or the config's.
    pub fn own_seed(&self) -> u64 {
        self.resamples.last().map_or(self.config.seed, |r| r.seed)
    }

    /// Replays `entries` from the start: the game after them (the
    /// resamplings among them included) and its effective steps.
    pub fn replay(&self, entries: &[EntryRecord]) -> Result<(Game, Vec<Step>), String> {
        let mut game = Game::new(self.config.clone()).map_err(|e| format!("config refused: {e}"))?;
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
            steps.extend(play(&mut game, &effective(&entries[start..at])?)?);
            game = resampled(&game, r.seed);
            steps.iter_mut().for_each(|s| s.undoable = false);
            start = at;
        }
        steps.extend(play(&mut game, &effective(&entries[start..])?)?);
        Ok((game, steps))
    }

    /// The recipe of the first `at_seq` entries: the resamplings up to it.
    pub fn up_to(&self, at_seq: u64) -> Recipe {
        Recipe {
            config: self.config.clone(),
            resamples: self.resamples.iter().copied().filter(|r| r.at_seq <= at_seq).collect(),
        }
    }

    /// Plays entry `i` of `entries` on `game` (which is at the state after
    /// the first `i` entries): the events it caused. An undo replays the
    /// whole history up to it, so it causes no events.
    pub fn step(
        &self,
        game: &mut Game,
        steps: &mut Vec<Step>,
        entries: &[EntryRecord],
        i: usize,
    ) -> Result<Vec<Event>, String> {
        let e = entries.get(i).ok_or_else(|| format!("no entry {}", i + 1))?;
        let events = match e.kind {
            EntryKind::Choice => {
                let events = game
                    .apply(e.seat, &e.option_id)
                    .map_err(|err| format!("entry {} ('{}') refused: {err}", e.seq, e.option_id))?;
                steps.push(Step { seat: e.seat, undoable: undoable(&events) });
                events
            }
            EntryKind::Undo => {
                (*game, *steps) = self.replay(&entries[..=i])?;
                return Ok(Vec::new());
            }
        };
        if let Some(r) = self.resamples.iter().find(|r| r.at_seq == (i + 1) as u64) {
            *game = resampled(game, r.seed);
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
fn play(game: &mut Game, choices: &[&EntryRecord]) -> Result<Vec<Step>, String> {
    let mut steps = Vec::with_capacity(choices.len());
    for e in choices {
        let events = game
            .apply(e.seat, &e.option_id)
            .map_err(|err| format!("entry {} ('{}') refused: {err}", e.seq, e.option_id))?;
        steps.push(Step { seat: e.seat, undoable: undoable(&events) });
    }
    Ok(steps)
}
