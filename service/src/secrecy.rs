//! What the service enforces about every game's secrets, whatever the game
//! itself does. A hosted game could refuse a guessed id differently when it
//! names a card in another seat's hand, put an option id in an error text,
//! or call a step undoable after it showed a seat a card; none of that can
//! reach a caller through the host:
//!
//! - a seat that does not hold the pending decision is refused before the
//!   game sees its id, with one and the same words whatever it sent;
//! - the words of every refusal are the service's, never the game's;
//! - a step may be undone only when the game says so and it showed nobody
//!   anything hidden. For a game that shows every viewer the same state,
//!   its hidden part must be unchanged. For a game whose seats hold secrets
//!   of their own (a seat may undo moving a card of its own hand), the step
//!   is replayed on states resampled from the mover's view: everything the
//!   mover could not see is drawn afresh, and the mover's view, the public
//!   view and the events must come out the same, so the step depended on
//!   nothing hidden from the mover and showed nothing new to anyone.
//!
//! Replays use the same function, so an undo right never differs between
//! the live game and its replay.

use crate::error::ServiceError;
use crate::game::{Applied, HostedGame, Refusal, Seat, Viewer};

/// The seeds of the states an undoable step is replayed on, fixed so that
/// the live game and its replay decide the same.
const PROBE_SEEDS: [u64; 2] = [0x005e_ed0f_0b5e_4e01, 0x0ddb_a11c_afef_00d1];

/// Applies `option_id` for `seat` with the host's guards (see the module
/// comment). A refusal changes nothing.
pub fn apply(game: &mut dyn HostedGame, seat: Seat, option_id: &str) -> Result<Applied, Refusal> {
    if game.outcome().is_some() {
        return Err(Refusal::GameOver);
    }
    if !game.deciders().contains(&seat) {
        return Err(Refusal::NotYourDecision);
    }
    let per_seat_secrets = !game.same_state_for_every_viewer();
    let before = per_seat_secrets.then(|| game.boxed_clone());
    let hidden = game.hidden_hash();
    let mut applied = game.apply(seat, option_id)?;
    applied.undoable = applied.undoable
        && match before {
            Some(before) => (0..PROBE_SEEDS.len())
                .all(|i| same_from_the_movers_view(before.as_ref(), game, &applied, seat, option_id, PROBE_SEEDS[i])),
            None => game.hidden_hash() == hidden,
        };
    Ok(applied)
}

/// True when the step, replayed on a state resampled from the mover's view
/// with `seed`, shows the mover and the public the same and says the same:
/// it depended on nothing the mover could not see, and revealed nothing.
pub fn same_from_the_movers_view(
    before: &dyn HostedGame,
    after: &dyn HostedGame,
    applied: &Applied,
    mover: Seat,
    option_id: &str,
    seed: u64,
) -> bool {
    let mut other = before.resampled(Viewer::Seat(mover), seed);
    match other.apply(mover, option_id) {
        Ok(again) => {
            again.events == applied.events
                && looks(other.as_ref(), Viewer::Seat(mover)) == looks(after, Viewer::Seat(mover))
                && looks(other.as_ref(), Viewer::Spectator) == looks(after, Viewer::Spectator)
        }
        Err(_) => false,
    }
}

/// A game's own part of a state.
type Looks = tabletop::pb::game_state::Detail;

/// What `viewer` is shown of `game`, its hash aside (the hash covers the
/// hidden part on purpose).
fn looks(game: &dyn HostedGame, viewer: Viewer) -> (Looks, tabletop::pb::Decision, Option<crate::game::Outcome>) {
    (game.view_detail(viewer), shown_decision(game, viewer), game.outcome())
}

/// The pending decision as `viewer` receives it: its options go to the
/// seats that may take them, unless the game shows every viewer the same.
pub fn shown_decision(game: &dyn HostedGame, viewer: Viewer) -> tabletop::pb::Decision {
    let mut d = game.decision();
    if !game.same_state_for_every_viewer() {
        match viewer {
            Viewer::Seat(s) => d.options.retain(|o| o.seats.contains(&u32::from(s))),
            Viewer::Spectator => d.options.clear(),
        }
    }
    d
}

/// Whether a history entry's option id goes to `viewer` (`None`: a
/// GetHistory caller, who shows no seat). In a game whose seats hold secrets
/// of their own an id may name one (`discard:e29`, a card paid face down),
/// so it goes only to the seat that chose it, until the game is over and
/// its seed public. The events of every step go to everyone: they are the
/// game's public account of it.
pub fn choice_shown(game: &dyn HostedGame, over: bool, viewer: Option<Viewer>, chooser: Seat) -> bool {
    over || game.same_state_for_every_viewer() || viewer == Some(Viewer::Seat(chooser))
}

/// The words a caller gets for a refusal: the service's own, naming only
/// what the caller sent or may see (the deciders, the decision's kind and,
/// for a decider, how many options it has).
pub fn refusal(game: &dyn HostedGame, refusal: Refusal, seat: Seat, option_id: &str) -> ServiceError {
    match refusal {
        Refusal::GameOver => ServiceError::Rule(Refusal::GameOver),
        Refusal::NotYourDecision => {
            let deciders: Vec<String> = game.deciders().iter().map(u8::to_string).collect();
            ServiceError::NotAllowed(format!(
                "seat {seat} does not hold the pending decision; it waits on seat {}",
                deciders.join(" or ")
            ))
        }
        Refusal::Illegal => {
            let d = shown_decision(game, Viewer::Seat(seat));
            let id: String = option_id.chars().take(80).collect();
            ServiceError::NotNow(format!(
                "'{id}' is not one of the {} options of the pending decision ({}); fetch the state and pick one of its option ids",
                d.options.len(),
                d.kind
            ))
        }
    }
}
