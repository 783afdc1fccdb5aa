//! The conformance suite every hosted game passes: what the service relies
//! on from a game, checked over seeded random games through the hosting
//! contract alone. Each game's tests call [`check`] with a few setups; a
//! failure says which property broke, at which step of which setup.
//!
//! Checked at every step:
//! - before the end there is a pending decision with at least one option;
//! - the deciders agree with the decision (each option's seats are among
//!   them) and a state's seat count with its roles;
//! - a step the service would let its seat undo left the hidden part as it
//!   was (a game with secrets per seat: as its mover saw it, on four more
//!   resamplings than the service's own two);
//! - a state resampled from a viewer's view shows that viewer the same;
//! - every seat that does not decide gets one and the same refusal,
//!   whatever it sends (an id of the decider's, nonsense);
//! - no viewer is shown another seat's secrets: none of the ids the game
//!   names as a seat's own secrets appears in the words another viewer
//!   receives (options, prompt, event lines), and a viewer's state does not
//!   change when everything it may not see is drawn afresh while that
//!   seat's secrets change.
//!
//! And at the end: replaying the same choices from the stored setup gives
//! the same hash at every step.

use crate::game::{GameType, HostedGame, Refusal, Seat, Viewer};
use crate::secrecy;
use tabletop::pb;

/// A broken promise: which property, where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} setup {setup}, step {step}: {what}")]
pub struct Broken {
    /// The game type's registered name.
    pub game: &'static str,
    /// The setup's index in the list given to [`check`].
    pub setup: usize,
    /// The step (choices applied so far).
    pub step: usize,
    /// What went wrong.
    pub what: String,
}

/// What [`check`] saw, so that a test can also require that the game
/// exercised what was checked (undoable steps, secrets, an end).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// Choices applied in all.
    pub steps: usize,
    /// Games that reached their end within the step budget.
    pub ended: usize,
    /// Steps the service would let their seat undo.
    pub undoable: usize,
    /// Steps where some seat held secrets of its own.
    pub with_secrets: usize,
    /// Steps where resampling for a viewer changed another seat's secrets
    /// (so the unchanged view proves it does not depend on them).
    pub secrets_redrawn: usize,
}

/// Plays one seeded random game per setup (at most `max_steps` choices
/// each) and checks the properties of the module comment.
pub fn check(game_type: &dyn GameType, setups: &[pb::CreateGameRequest], max_steps: usize) -> Result<Seen, Broken> {
    let mut seen = Seen::default();
    for (i, request) in setups.iter().enumerate() {
        let mut run = Run { game: game_type.name(), setup: i, step: 0 };
        let setup = game_type.setup(request, 0x00c0_ffee + i as u64).map_err(|e| run.broken(e.to_string()))?;
        let mut game = game_type.start(&setup.config_json).map_err(|e| run.broken(e.to_string()))?;
        if game.seat_count() != setup.seats || game.seat_roles().len() != setup.seats {
            return Err(run.broken(format!("the setup has {} seats, the table {}", setup.seats, game.seat_count())));
        }
        let mut chosen: Vec<(Seat, String)> = Vec::new();
        let mut hashes = vec![game.state_hash()];
        while game.outcome().is_none() && run.step < max_steps {
            run.at_step(game.as_ref(), &mut seen)?;
            let d = game.decision();
            let pick = mix(i as u64, run.step as u64) as usize % d.options.len();
            let o = &d.options[pick];
            let seat = o
                .seats
                .first()
                .and_then(|&s| Seat::try_from(s).ok())
                .ok_or_else(|| run.broken("an option without a seat"))?;
            let hidden = game.hidden_hash();
            let before = game.boxed_clone();
            let applied = secrecy::apply(game.as_mut(), seat, &o.id)
                .map_err(|r| run.broken(format!("offered '{}' refused: {r}", o.id)))?;
            if applied.undoable {
                seen.undoable += 1;
                let unchanged = if game.same_state_for_every_viewer() {
                    game.hidden_hash() == hidden
                } else {
                    (10..14).all(|seed| {
                        secrecy::same_from_the_movers_view(before.as_ref(), game.as_ref(), &applied, seat, &o.id, seed)
                    })
                };
                if !unchanged {
                    return Err(run.broken(format!("undoable '{}' changed what its mover could not see", o.id)));
                }
            }
            run.no_secret_in_events(game.as_ref(), &applied.events)?;
            chosen.push((seat, o.id.clone()));
            hashes.push(game.state_hash());
            run.step += 1;
        }
        seen.steps += run.step;
        seen.ended += usize::from(game.outcome().is_some());
        let mut again = game_type.start(&setup.config_json).map_err(|e| run.broken(e.to_string()))?;
        for (n, (seat, id)) in chosen.iter().enumerate() {
            run.step = n;
            if again.state_hash() != hashes[n] {
                return Err(run.broken("a replay of the same choices reached another hash"));
            }
            secrecy::apply(again.as_mut(), *seat, id).map_err(|r| run.broken(format!("replaying '{id}': {r}")))?;
        }
        if again.state_hash() != game.state_hash() {
            return Err(run.broken("a replay of the same choices ended on another hash"));
        }
    }
    Ok(seen)
}

/// A game being checked, for the error's coordinates.
struct Run {
    game: &'static str,
    setup: usize,
    step: usize,
}

impl Run {
    fn broken(&self, what: impl Into<String>) -> Broken {
        Broken { game: self.game, setup: self.setup, step: self.step, what: what.into() }
    }

    /// Every check of one step, before its choice.
    fn at_step(&self, game: &dyn HostedGame, seen: &mut Seen) -> Result<(), Broken> {
        let d = game.decision();
        if d.options.is_empty() {
            return Err(self.broken("no option before the end"));
        }
        let deciders = game.deciders();
        let listed: Vec<Seat> = d.deciders.iter().filter_map(|&s| Seat::try_from(s).ok()).collect();
        if deciders != listed {
            return Err(self.broken(format!("deciders() says {deciders:?}, the decision {listed:?}")));
        }
        if let Some(o) = d.options.iter().find(|o| o.seats.iter().any(|&s| !d.deciders.contains(&s))) {
            return Err(self.broken(format!("option '{}' is for a seat that does not decide", o.id)));
        }
        self.same_refusal_for_every_id(game, &d, &deciders)?;
        let seats = game.seat_count();
        let secrets: Vec<Vec<String>> = (0..seats).map(|s| game.secrets(s as Seat)).collect();
        if secrets.iter().any(|s| !s.is_empty()) {
            seen.with_secrets += 1;
        }
        let viewers = (0..seats).map(|s| Viewer::Seat(s as Seat)).chain([Viewer::Spectator]);
        for viewer in viewers {
            self.no_secret_in_words(game, viewer, &secrets)?;
            self.resampling_shows_the_same(game, viewer, &secrets, seen)?;
        }
        Ok(())
    }

    /// A seat that does not decide gets the same refusal for any id.
    fn same_refusal_for_every_id(
        &self,
        game: &dyn HostedGame,
        d: &pb::Decision,
        deciders: &[Seat],
    ) -> Result<(), Broken> {
        let probes: Vec<&str> =
            d.options.iter().take(3).map(|o| o.id.as_str()).chain(["", "no-such-option:0"]).collect();
        for seat in (0..game.seat_count()).map(|s| s as Seat).filter(|s| !deciders.contains(s)) {
            for id in &probes {
                let mut copy = game.boxed_clone();
                let answer = copy.apply(seat, id).err();
                if answer != Some(Refusal::NotYourDecision) {
                    return Err(self.broken(format!("seat {seat} does not decide, and '{id}' got {answer:?}")));
                }
                let words = secrecy::refusal(game, Refusal::NotYourDecision, seat, id).to_string();
                if words != secrecy::refusal(game, Refusal::NotYourDecision, seat, "").to_string() {
                    return Err(self.broken(format!("seat {seat}'s refusal of '{id}' differs: {words}")));
                }
            }
        }
        Ok(())
    }

    /// The words `viewer` receives name none of another seat's secrets.
    fn no_secret_in_words(&self, game: &dyn HostedGame, viewer: Viewer, secrets: &[Vec<String>]) -> Result<(), Broken> {
        let d = secrecy::shown_decision(game, viewer);
        let mut words = vec![d.prompt.clone(), d.kind.clone()];
        for o in &d.options {
            words.extend([o.id.clone(), o.label.clone(), o.payload_json.clone()]);
        }
        for (owner, own) in secrets.iter().enumerate() {
            if viewer == Viewer::Seat(owner as Seat) {
                continue;
            }
            if let Some(found) = own.iter().find(|secret| words.iter().any(|w| names(w, secret))) {
                return Err(self.broken(format!("{viewer:?} is shown '{found}', a secret of seat {owner}")));
            }
        }
        Ok(())
    }

    /// Event lines go to everyone: they name no seat's secret.
    fn no_secret_in_events(&self, game: &dyn HostedGame, events: &[pb::Event]) -> Result<(), Broken> {
        for s in 0..game.seat_count() {
            for secret in game.secrets(s as Seat) {
                if let Some(e) = events.iter().find(|e| names(&e.summary, &secret)) {
                    return Err(self.broken(format!("event '{}' names '{secret}', a secret of seat {s}", e.summary)));
                }
            }
        }
        Ok(())
    }

    /// A state resampled for `viewer` shows it the same; when that redrew
    /// another seat's secrets, the view provably does not depend on them.
    fn resampling_shows_the_same(
        &self,
        game: &dyn HostedGame,
        viewer: Viewer,
        secrets: &[Vec<String>],
        seen: &mut Seen,
    ) -> Result<(), Broken> {
        let other = game.resampled(viewer, mix(self.setup as u64, self.step as u64 ^ 0xa5a5));
        if other.view_detail(viewer) != game.view_detail(viewer) {
            return Err(self.broken(format!("a state resampled for {viewer:?} shows it another state")));
        }
        if secrecy::shown_decision(other.as_ref(), viewer) != secrecy::shown_decision(game, viewer) {
            return Err(self.broken(format!("a state resampled for {viewer:?} shows it another decision")));
        }
        let redrawn = (0..game.seat_count())
            .filter(|&s| viewer != Viewer::Seat(s as Seat))
            .any(|s| !secrets[s].is_empty() && other.secrets(s as Seat) != secrets[s]);
        seen.secrets_redrawn += usize::from(redrawn);
        Ok(())
    }
}

/// True when `secret` appears in `words` as a whole token (ids such as
/// `e29` inside `explore:e29`, not inside `e290`).
fn names(words: &str, secret: &str) -> bool {
    !secret.is_empty()
        && words.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).any(|token| token == secret)
}

/// A small deterministic mix of two numbers (splitmix64's finaliser).
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_add(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_secret_is_found_as_a_whole_token_only() {
        assert!(names("explore:e29", "e29"));
        assert!(names("Play e29 (Derelict Beacon)", "e29"));
        assert!(!names("explore:e290", "e29"));
        assert!(!names("anything", ""));
    }
}
