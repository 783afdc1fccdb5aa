//! End-to-end test of turn clocks in the terminal client: a real
//! `xodus-server`, `xodus create --game legio --players 2 --clock
//! per-move:30 --ai-seats 1`, then `xodus list` (JSON and table) shows the
//! game's clock, and `xodus view` (text: a clocks line; JSON: `clocks`)
//! shows every seat's time. Bad clock flags are refused by the command
//! line (exit 2) with a message naming the flag, before any server is
//! asked. No timing is asserted: the clocks have not started (seat 0 is
//! still open), so every seat shows its full 0:30.
//!
//! The binaries are looked up in the target directory (`cargo build
//! --workspace --bins`).

mod common;

use common::*;
use serde_json::Value;
use std::process::{Command, Output, Stdio};

fn xodus(args: &[&str]) -> Output {
    Command::new(workspace_binary("xodus")).args(args).stdin(Stdio::null()).output().expect("run xodus")
}

fn ok(args: &[&str]) -> String {
    let out = xodus(args);
    assert!(out.status.success(), "xodus {args:?} failed: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn a_game_created_with_a_clock_shows_it_in_the_lobby_and_the_view() {
    let server = Server::start("cli-clock");
    let url = server.url.as_str();
    let created = json(&ok(&[
        "create",
        "--server",
        url,
        "--game",
        "legio",
        "--players",
        "2",
        "--clock",
        "per-move:30",
        "--ai-seats",
        "1",
    ]));
    let game = created["game"].as_str().expect("a game id").to_string();

    let games = json(&ok(&["list", "--server", url, "--json"]));
    let listed = games.as_array().and_then(|g| g.iter().find(|g| g["id"] == game.as_str())).expect("listed");
    assert_eq!(listed["clock"]["kind"], "per_move", "{listed}");
    assert_eq!(listed["clock"]["per_move_seconds"], 30, "{listed}");
    let table = ok(&["list", "--server", url]);
    let row = table.lines().find(|l| l.starts_with(&game)).unwrap_or_else(|| panic!("no row for {game}:\n{table}"));
    assert!(row.contains("per-move 0:30"), "the clock column: {row}");

    let text = ok(&["view", &game, "--server", url, "--text"]);
    let line = text.lines().find(|l| l.starts_with("clocks")).unwrap_or_else(|| panic!("no clocks line:\n{text}"));
    assert!(line.contains("Commander 1 0:30") && line.contains("Commander 2 0:30"), "{line}");

    let view = json(&ok(&["view", &game, "--server", url]));
    let clocks = view["clocks"].as_array().unwrap_or_else(|| panic!("no clocks in {view}"));
    assert_eq!(clocks.len(), 2);
    assert_eq!(clocks[1]["remaining_ms"], 30_000);
    assert_eq!(clocks[0]["running"], false, "not started while seat 0 is open");

    // An untimed game: no clock in the lobby, no clocks line.
    let plain = json(&ok(&["create", "--server", url, "--game", "legio", "--players", "2", "--ai-seats", "1"]));
    let plain_id = plain["game"].as_str().expect("a game id");
    let games = json(&ok(&["list", "--server", url, "--json"]));
    let listed = games.as_array().and_then(|g| g.iter().find(|g| g["id"] == plain_id)).expect("listed");
    assert!(listed["clock"].is_null(), "{listed}");
    let text = ok(&["view", plain_id, "--server", url, "--text"]);
    assert!(!text.lines().any(|l| l.starts_with("clocks")), "{text}");
}

#[test]
fn bad_clock_flags_are_refused_with_exit_code_2_naming_the_flag() {
    for (args, flag) in [
        (vec!["create", "--game", "legio", "--clock", "per-move:0"], "--clock"),
        (vec!["create", "--clock", "fischer:300"], "--clock"),
        (vec!["play", "--clock", "minutes:5"], "--clock"),
        (vec!["create", "--clock", "absolute:600", "--on-timeout", "resign"], "--on-timeout"),
        (vec!["play", "--on-timeout", "skip"], "--clock"),
    ] {
        let mut full = args.clone();
        full.extend(["--server", "http://127.0.0.1:9"]);
        let out = xodus(&full);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?} should name {flag}: {err}");
    }
}
