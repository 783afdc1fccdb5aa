//! End to end: `xodus leave` gives a seat back (ReleaseSeat). A real
//! `xodus-server`, and `xodus create`, `join`, `leave`, `list`, `view` and
//! `act` run as processes: after a leave the lobby lists the seat open
//! again, the old token is refused everywhere (exit code 4), and the seat
//! can be claimed afresh; refusals change nothing.
//!
//! The binaries are looked up in the target directory (next to `deps/`):
//! `cargo build --workspace --bins` first.

mod common;

use common::{Server, workspace_binary};
use serde_json::Value;
use std::process::{Command, Output, Stdio};

fn xodus(args: &[&str]) -> Output {
    Command::new(workspace_binary("xodus")).args(args).stdin(Stdio::null()).output().expect("run xodus")
}

/// Runs `xodus`, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = xodus(args);
    assert!(out.status.success(), "xodus {args:?} failed: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Runs `xodus`, expects exit code `code` and one `xodus: ...` line on stderr.
fn refused(args: &[&str], code: i32) -> String {
    let out = xodus(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "xodus {args:?}: {err}");
    assert!(err.starts_with("xodus: "), "one readable line: {err}");
    err
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The open seats of `game` as `xodus list --json` prints them.
fn open_seats(url: &str, game: &str) -> Vec<u64> {
    let games = json(&ok(&["list", "--server", url, "--json"]));
    let g = games.as_array().expect("a list").iter().find(|g| g["id"] == game).expect("the game is listed");
    g["open_seats"].as_array().expect("open_seats").iter().filter_map(Value::as_u64).collect()
}

#[test]
fn leave_opens_the_seat_again_and_the_old_token_stops_working() {
    let server = Server::start("cli-leave");
    let url = server.url.clone();
    let game = ok(&["create", "--server", &url, "--ships", "3", "--seed", "5", "--id-only"]);
    let token = ok(&["join", &game, "--seat", "1", "--server", &url]);
    let other = ok(&["join", &game, "--seat", "0", "--server", &url]);
    assert_eq!(open_seats(&url, &game), [2]);
    ok(&["view", &game, "--seat", "1", "--token", &token, "--server", &url]);

    // A wrong token leaves nothing: refused (4), the seat still held.
    refused(&["leave", "--game", &game, "--seat", "1", "--token", "not-the-token", "--server", &url], 4);
    assert_eq!(open_seats(&url, &game), [2], "a refused leave changes nothing");
    // An unknown game is "not found" (3).
    refused(&["leave", "--game", "no-such-game", "--seat", "1", "--token", &token, "--server", &url], 3);

    let left = json(&ok(&["leave", "--game", &game, "--seat", "1", "--token", &token, "--server", &url]));
    assert_eq!(left["game"], game.as_str());
    assert_eq!(left["seat"], 1);
    assert_eq!(left["open_seats"], serde_json::json!([1, 2]), "the answer lists the seat open: {left}");
    assert_eq!(open_seats(&url, &game), [1, 2], "the lobby lists seat 1 open again");

    // The old token works nowhere any more: not to look, act or leave again.
    refused(&["view", &game, "--seat", "1", "--token", &token, "--server", &url], 4);
    let view = json(&ok(&["view", &game, "--server", &url]));
    let option = view["decision"]["options"][0]["id"].as_str().expect("an option id").to_string();
    refused(&["act", &game, "--seat", "1", "--token", &token, "--option", &option, "--server", &url], 4);
    refused(&["leave", &game, "--seat", "1", "--token", &token, "--server", &url], 4);
    // The other seat is untouched.
    ok(&["view", &game, "--seat", "0", "--token", &other, "--server", &url]);

    // The seat is free for anyone: a new claim, a new token.
    let again = ok(&["join", &game, "--seat", "1", "--server", &url]);
    assert_ne!(again, token);
    assert_eq!(open_seats(&url, &game), [2]);
    ok(&["view", &game, "--seat", "1", "--token", &again, "--server", &url]);
    // The positional form works like --game.
    ok(&["leave", &game, "--seat", "1", "--token", &again, "--server", &url]);
    assert_eq!(open_seats(&url, &game), [1, 2]);
}

#[test]
fn leave_without_a_game_is_a_command_line_error() {
    let out = xodus(&["leave", "--seat", "0", "--token", "t"]);
    assert_eq!(out.status.code(), Some(2), "clap refuses it: {}", String::from_utf8_lossy(&out.stderr));
}
