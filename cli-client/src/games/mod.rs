//! The games this client knows, one [`ClientGame`] each in [`GAMES`], the
//! one list a new game is added to; each game's terminal parts live in its
//! folder here (`xodus/`, `legio/`: its screen, its text report, its
//! reader). A [`ClientGame`] says how the game is named on screen, how its
//! seats are named, how its setup flags become a CreateGame setup, how its
//! typed state is read, which screen draws it, and what the scripted
//! commands print for it. The rest of the client asks this module and
//! never matches on a game's name; a game the server hosts but this list
//! lacks is still created with no setup, listed, watched and played from
//! its platform decision alone (on the table screen: VII Legio's, which
//! draws any game from its decision and log).

pub mod legio;
pub mod xodus;

use crate::cli::SetupArgs;
use crate::seats::Seat;
use crate::table::{Packed, Table, Typed};
use crate::tui::Front;
use tabletop::pb;

/// The setup of a new game, as its game built it from the flags.
#[derive(Clone, Debug)]
pub struct NewSetup {
    /// The game's registered name.
    pub game_type: String,
    /// Its number of seats.
    pub seats: u8,
    /// The deprecated `GameKind` number, for older servers (0: none).
    pub kind: i32,
    /// The CreateGame setup (None: the game's default).
    pub wire: Option<pb::create_game_request::Setup>,
}

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
    /// The game's terminal screen on `table`, for this terminal's `seats`
    /// (none: a spectator; a game with private hands gets one), or why the
    /// state does not read. By default the table screen.
    fn screen(&self, game_id: &str, table: Table, seats: Vec<Seat>) -> Result<Box<dyn Front>, String> {
        Ok(table_screen(game_id, table, seats))
    }
    /// A seat with what it plays, for the plain watcher's lines ("seat 1
    /// Commander 2").
    fn seat_title(&self, _table: &Table, seat: Seat) -> String {
        format!("seat {seat} {}", self.seat_name(u32::from(seat)))
    }
    /// The plain watcher's lines for a step's events, when the game words
    /// them itself (None: the server's summaries).
    fn event_lines(&self, _events: &[pb::Event], _table: &Table) -> Option<Vec<String>> {
        None
    }
    /// What `xodus act` prints, when the game prints its own JSON (None:
    /// the platform's decision and outcome).
    fn act_json(
        &self,
        _game_id: &str,
        _seat: Seat,
        _option: &str,
        _events: &[pb::Event],
        _table: &Table,
    ) -> Option<serde_json::Value> {
        None
    }
    /// What `xodus view` prints, when the game prints its own JSON (None:
    /// `Table::to_json`).
    fn view_json(&self, _table: &Table) -> Option<serde_json::Value> {
        None
    }
    /// What `xodus view --text` prints, when the game has its own report
    /// and the state reads (None: the platform's report, `plain::any`).
    fn report(&self, _game_id: &str, _table: &Table) -> Option<String> {
        None
    }
    /// A signal of this game from `xodus say --signal KIND[:ARG]`, packed
    /// (None: KIND is not one of this game's; an error: its argument is
    /// missing or bad).
    fn signal(&self, _spec: &str) -> Option<Result<Packed, String>> {
        None
    }
    /// This game's `--signal` kinds, in words ("" for none).
    fn signal_kinds(&self) -> &'static str {
        ""
    }
    /// The level a game's configuration (`GameSummary.game_config`) names,
    /// for `xodus list` (None: not this game's, or no level).
    fn level(&self, _config: &prost_types::Any) -> Option<&'static str> {
        None
    }
}

/// Every game this client knows; the first is the default of `--game`,
/// the game a state that names none is of (older servers), and the game
/// `xodus play` plays with no flags.
pub static GAMES: &[&dyn ClientGame] = &[&xodus::Xodus, &legio::Legio];

/// The default `--game`.
pub fn default_type() -> &'static str {
    GAMES[0].game_type()
}

/// Reads a state: the platform part always, the game's own view when the
/// client knows the game (a state that names no game is of the default).
pub fn read(state: &pb::GameState) -> Table {
    let mut table = Table::platform(state, default_type());
    if let Some(g) = game(&table.game_type) {
        table.typed = g.read(state).unwrap_or_else(|e| Typed::Unread(Some(e)));
    }
    table
}

/// The table screen: VII Legio's, which draws any game it has no board
/// for from its decision and log; it plays one seat (the lowest given).
pub fn table_screen(game_id: &str, table: Table, seats: Vec<Seat>) -> Box<dyn Front> {
    Box::new(legio::ui::LegioScreen::new(game_id, table, seats.into_iter().min()))
}

/// The screen of the game `table` is a state of (the table screen for a
/// game this client does not know), or why it does not read.
pub fn open_screen(game_id: &str, table: Table, seats: Vec<Seat>) -> Result<Box<dyn Front>, String> {
    match game(&table.game_type) {
        Some(g) => g.screen(game_id, table, seats),
        None => Ok(table_screen(game_id, table, seats)),
    }
}

/// Whether a screen of a game of `game_type` follows one seat (its own
/// secrets, its own options): a game with private hands, or one this
/// client does not know. Otherwise it follows as a spectator, and may send
/// choices for several seats.
pub fn one_seat_per_screen(game_type: &str) -> bool {
    game(game_type).is_none_or(|g| g.private_hands())
}

/// "seat 2 Pirate Ship", "seat 1 Commander 2", "seat 3" (a game this
/// client does not know), for the plain watcher's lines.
pub fn seat_title(table: &Table, seat: Seat) -> String {
    game(&table.game_type).map_or_else(|| format!("seat {seat}"), |g| g.seat_title(table, seat))
}

/// The level a game's configuration names, for `xodus list` ("" when none
/// does).
pub fn level(config: &prost_types::Any) -> String {
    GAMES.iter().find_map(|g| g.level(config)).unwrap_or_default().to_string()
}

/// The signal `xodus say --signal` names, of whichever game has that
/// kind (the server refuses one of another game than the table's), or
/// why none does.
pub fn signal(spec: &str) -> Result<Packed, String> {
    if let Some(found) = GAMES.iter().find_map(|g| g.signal(spec)) {
        return found;
    }
    let kinds: Vec<String> = GAMES
        .iter()
        .filter(|g| !g.signal_kinds().is_empty())
        .map(|g| format!("{}: {}", g.title(), g.signal_kinds()))
        .collect();
    Err(format!("--signal {spec}: no game has that signal; {}", kinds.join("; ")))
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

    #[test]
    fn a_state_is_read_by_its_game_and_screens_follow_one_seat_where_hands_are_private() {
        assert_eq!(read(&pb::GameState::default()).game_type, default_type(), "an unnamed game is the default");
        assert!(one_seat_per_screen("legio") && one_seat_per_screen("high_card"));
        assert!(!one_seat_per_screen("xodus"), "X-ODUS's seats share one public view");
        let unknown = read(&pb::GameState { game_type: "high_card".into(), ..Default::default() });
        assert_eq!(seat_title(&unknown, 3), "seat 3");
        let legio = read(&pb::GameState { game_type: "legio".into(), ..Default::default() });
        assert_eq!(seat_title(&legio, 1), "seat 1 Commander 2");
        assert_eq!(level(&prost_types::Any::default()), "", "no game's configuration");
    }
}
