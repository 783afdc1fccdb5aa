//! The games this client knows, one [`ClientGame`] each in [`GAMES`], the
//! one list a new game is added to: how the game is named on screen, how
//! its seats are named, how its setup flags become a CreateGame setup, and
//! how its typed state is read. The rest of the client asks this module
//! and never matches on a game's name; a game the server hosts but this
//! list lacks is still created with no setup, listed, watched and played
//! from its platform decision alone.

pub mod legio;
pub mod xodus;

use crate::cli::SetupArgs;
use crate::remote::NewSetup;
use crate::table::Typed;
use tabletop::pb;

/// One game the terminal client knows.
pub trait ClientGame: Sync {
    /// The type name the server gives the game.
    fn game_type(&self) -> &'static str;
    /// Its name on screen ("X-ODUS", "VII Legio").
    fn title(&self) -> &'static str;
    /// A seat as the game names it where people read it.
    fn seat_name(&self, seat: u32) -> String;
    /// Its seats' holders, in the plural ("captains", "commanders").
    fn holders(&self) -> &'static str;
    /// Seats hold secrets from each other (one terminal plays one seat).
    fn private_hands(&self) -> bool;
    /// The setup flags checked, as a CreateGame setup; an error says which
    /// flag is wrong (a usage error, exit 2).
    fn setup(&self, flags: &SetupArgs) -> anyhow::Result<NewSetup>;
    /// The seats the flags give a game (before they are checked).
    fn seat_count(&self, flags: &SetupArgs) -> u8;
    /// The game's own view in a state, or why it does not read.
    fn read(&self, state: &pb::GameState) -> Result<Typed, String>;
    /// The page's route to this game's create form ("" for the lobby's
    /// first form).
    fn web_form(&self) -> &'static str;
    /// Which screen draws the game in a terminal.
    fn screen(&self) -> ScreenKind {
        ScreenKind::Table
    }
}

/// The terminal screens a game may be drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenKind {
    /// The hex map with the ships' mats (`xodus::ui::Screen`, X-ODUS's).
    Map,
    /// The table screen (`legio::ui::LegioScreen`): a game's own panels
    /// when it has a view, else its decision and log.
    Table,
}

/// The screen a game of `game_type` is drawn on (a game this client does
/// not know: the table screen, from its decision and log).
pub fn screen(game_type: &str) -> ScreenKind {
    game(game_type).map_or(ScreenKind::Table, |g| g.screen())
}

/// Every game this client knows; the first is the default of `--game`.
pub static GAMES: &[&dyn ClientGame] = &[&xodus::Xodus, &legio::Legio];

/// The default `--game`.
pub fn default_type() -> &'static str {
    GAMES[0].game_type()
}

/// The game of a type name, if this client knows it.
pub fn game(game_type: &str) -> Option<&'static dyn ClientGame> {
    GAMES.iter().copied().find(|g| g.game_type() == game_type)
}

/// The known type names: "xodus, legio".
pub fn names() -> String {
    GAMES.iter().map(|g| g.game_type()).collect::<Vec<_>>().join(", ")
}

/// Seats of a game this client does not know when `--players` is absent.
pub const OTHER_GAME_SEATS: u8 = 2;

/// The setup of a game this client does not know: `--players` seats (2 by
/// default) and the game's default setup, or `--seed` as `{"seed":"N"}`
/// JSON (the hosting convention), for the server to check. Other games'
/// flags (ships, Allies, round limit) are refused.
pub fn other_game(game_type: &str, flags: &SetupArgs) -> anyhow::Result<NewSetup> {
    let named =
        !flags.ship_kinds.is_empty() || !flags.allies.is_empty() || flags.round_limit.is_some() || flags.nightmare;
    if named {
        return Err(anyhow::Error::new(crate::cli::UsageError(format!(
            "{game_type} is not a game this client knows ({}): only --players, --seed and --clock apply to it",
            names()
        ))));
    }
    let seats = flags.players.unwrap_or(OTHER_GAME_SEATS);
    if seats == 0 {
        return Err(anyhow::Error::new(crate::cli::UsageError("--players must be at least 1".into())));
    }
    let wire = flags.seed.map(|seed| {
        pb::create_game_request::Setup::SetupJson(serde_json::json!({ "seed": seed.to_string() }).to_string())
    });
    Ok(NewSetup { game_type: game_type.to_string(), seats, kind: 0, wire })
}

/// Whether `--game` names a game id (to join) rather than a game type (to
/// create): the server's ids start with "g-".
pub fn is_game_id(name: &str) -> bool {
    name.starts_with("g-")
}

/// A seat of a game of `game_type` as people read it: the game's own name
/// for it, or "seat N".
pub fn seat_name(game_type: &str, seat: u32) -> String {
    game(game_type).map_or_else(|| format!("seat {seat}"), |g| g.seat_name(seat))
}

/// The title of a game of `game_type`: its own, or its type name.
pub fn title(game_type: &str) -> String {
    game(game_type).map_or_else(|| game_type.to_uppercase(), |g| g.title().to_string())
}

/// The plural of the seats' holders: the game's word, or "players".
pub fn holders(game_type: &str) -> &'static str {
    game(game_type).map_or("players", |g| g.holders())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_type_and_names_its_seats() {
        assert_eq!(default_type(), "xodus");
        assert_eq!(names(), "xodus, legio");
        assert_eq!(seat_name("legio", 0), "Commander 1");
        assert_eq!(seat_name("xodus", 2), "captain 2");
        assert_eq!(seat_name("high_card", 1), "seat 1");
        assert_eq!(title("legio"), "VII Legio");
        assert_eq!(title("high_card"), "HIGH_CARD");
        assert!(game("legio").is_some_and(|g| g.private_hands()));
        assert!(game("xodus").is_some_and(|g| !g.private_hands()));
        for g in GAMES {
            assert_eq!(game(g.game_type()).map(|x| x.game_type()), Some(g.game_type()));
        }
    }
}
