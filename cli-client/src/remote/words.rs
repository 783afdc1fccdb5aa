//! The server's refusals in the CLI's words. The server writes for
//! front-end authors and names its calls and fields (ClaimSeat,
//! expected_seq, option_id); a person at the `xodus` command line is told
//! which `xodus` command to run instead. Messages this module does not
//! know pass through unchanged.

use crate::seats::Seat;

/// What a call was about, to name the commands that fix a refusal.
#[derive(Clone, Copy, Debug, Default)]
pub struct About<'a> {
    /// The game ("" when the call names none).
    pub game: &'a str,
    /// The seat, when the call was made for one.
    pub seat: Option<Seat>,
}

impl About<'_> {
    fn game(&self) -> &str {
        if self.game.is_empty() { "GAME" } else { self.game }
    }

    fn seat(&self) -> String {
        self.seat.map_or_else(|| "N".to_string(), |s| s.to_string())
    }

    /// `xodus join G --seat N`.
    fn join(&self) -> String {
        format!("`xodus join {} --seat {}`", self.game(), self.seat())
    }

    /// `xodus view G --seat N --token TOKEN`.
    fn view(&self) -> String {
        format!("`xodus view {} --seat {} --token TOKEN`", self.game(), self.seat())
    }
}

/// `msg` (a server's status message) with the calls and fields it names
/// replaced by the `xodus` commands and flags that do the same.
pub fn cli_words(msg: &str, about: About<'_>) -> String {
    if let Some(stale) = stale_seq(msg, about) {
        return stale;
    }
    let join = about.join();
    let view = about.view();
    let phrases: [(&str, String); 9] = [
        (
            "claim it afresh with ClaimSeat and no token",
            format!("claim it afresh with {join}, which prints a new token"),
        ),
        ("claim it with ClaimSeat and no token", format!("claim it with {join}")),
        (
            "it is not the token ClaimSeat gave for this seat",
            "it is not the token `xodus join` printed for this seat".into(),
        ),
        (
            "claim the seat first and send its token",
            format!("claim the seat first with {join} and pass its token with --token"),
        ),
        (
            "to take it back after a disconnect, send its token",
            "`xodus list` shows the open seats (if it is yours, its token still works with --token)".into(),
        ),
        (
            "option_id is empty; send one of the offered ids",
            format!("--option is empty; give one of the ids {view} lists"),
        ),
        ("option_id", "--option".into()),
        ("fetch the state and pick one of its option ids", format!("{view} lists them")),
        ("game_id is empty", "the game id is empty; `xodus list` shows the server's games".into()),
    ];
    let mut out = msg.to_string();
    for (from, to) in phrases {
        if out.contains(from) {
            out = out.replace(from, &to);
        }
    }
    if out.starts_with("no game with id") && !about.game.is_empty() {
        out.push_str("; `xodus list` shows the server's games");
    }
    out
}

/// A stale (or early) seq: "expected_seq 0 is stale: the game is at seq
/// 3; fetch the new state and decide again".
fn stale_seq(msg: &str, about: About<'_>) -> Option<String> {
    let rest = msg.strip_prefix("expected_seq ")?;
    let (seq, rest) = rest.split_once(' ')?;
    let again = format!("look again with {} and choose again", about.view());
    let rest = rest.replace("fetch the new state and decide again", &again);
    Some(format!("the choice was for seq {seq}, which {rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABOUT: About<'static> = About { game: "g-1", seat: Some(2) };

    #[test]
    fn server_refusals_name_xodus_commands_not_calls() {
        let cases = [
            (
                "seat 2 was released with this token, which no longer works; the seat is free: claim it afresh with ClaimSeat and no token",
                "claim it afresh with `xodus join g-1 --seat 2`, which prints a new token",
            ),
            (
                "seat 2 is free (nobody holds it, so no token works for it): claim it with ClaimSeat and no token",
                "claim it with `xodus join g-1 --seat 2`",
            ),
            (
                "wrong token for seat 2: it is not the token ClaimSeat gave for this seat",
                "the token `xodus join` printed",
            ),
            (
                "seat 2 is already claimed; to take it back after a disconnect, send its token",
                "`xodus list` shows the open seats",
            ),
            ("option_id is longer than 4096 bytes", "--option is longer than 4096 bytes"),
            ("option_id is empty; send one of the offered ids", "`xodus view g-1 --seat 2 --token TOKEN` lists"),
            (
                "'x' is not one of the 4 options of the pending decision (action); fetch the state and pick one of its option ids",
                "(action); `xodus view g-1 --seat 2 --token TOKEN` lists them",
            ),
            ("no game with id 'g-1'", "`xodus list` shows"),
            ("game_id is empty", "the game id is empty; `xodus list` shows"),
        ];
        for (server, want) in cases {
            let said = cli_words(server, ABOUT);
            assert!(said.contains(want), "{server:?} became {said:?}");
            for call in ["ClaimSeat", "option_id", "game_id", "expected_seq", "GetView", "SubmitChoice"] {
                assert!(!said.contains(call), "{said:?} still names {call}");
            }
        }
    }

    #[test]
    fn a_stale_seq_says_to_look_again() {
        let said =
            cli_words("expected_seq 0 is stale: the game is at seq 3; fetch the new state and decide again", ABOUT);
        assert_eq!(
            said,
            "the choice was for seq 0, which is stale: the game is at seq 3; look again with `xodus view g-1 --seat 2 --token TOKEN` and choose again"
        );
        assert_eq!(
            cli_words("seat 7 does not exist; this game has seats 0 to 3", ABOUT),
            "seat 7 does not exist; this game has seats 0 to 3"
        );
    }
}
