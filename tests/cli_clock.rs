//! End-to-end test of turn clocks in the terminal client: a real
//! `xodus-server`, `xodus create --game legio --players 2 --clock
//! per-move:30 --ai-seats 1`, then `xodus list` (JSON and table) shows the
//! game's clock, and `xodus view` (text: a clocks line; JSON: `clocks`)
//! shows every seat's time. Bad clock flags are refused by the command
//! line (exit 2) with a message naming the flag, before any server is
//! asked. No timing is asserted: the clocks have not started (seat 0 is
//! still open), so every seat shows its full 0:30. Last, a game of one
//! second per move whose seats never choose: `xodus watch --plain` says
//! the server chose for the seat that ran out (`played_by`).
//!
//! The binaries are looked up in the target directory (`cargo build
//! --workspace --bins`).

mod common;

use common::cli::*;
use common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;

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

#[test]
fn watch_plain_says_when_the_server_chose_for_a_seat_out_of_time() {
    let server = Server::start("cli-clock-skip");
    let url = server.url.as_str();
    let game = ok(&[
        "create",
        "--server",
        url,
        "--game",
        "legio",
        "--players",
        "2",
        "--clock",
        "per-move:1",
        "--on-timeout",
        "skip",
        "--id-only",
    ]);
    let game = game.trim();
    // Both seats held by people who never choose: the clocks start, and
    // each decision's seat runs out.
    for seat in ["0", "1"] {
        ok(&["join", game, "--seat", seat, "--server", url]);
    }
    let mut watch = Command::new(workspace_binary("xodus"))
        .args(["watch", game, "--server", url, "--plain"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xodus watch");
    let stdout = watch.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    let found = loop {
        match rx.recv_timeout(HANG_GUARD) {
            Ok(line) if line.contains("the server chose for seat") => break Some(line),
            Ok(line) => seen.push(line),
            Err(_) => break None,
        }
    };
    let _ = watch.kill();
    let _ = watch.wait();
    let line = found.unwrap_or_else(|| panic!("no `the server chose for` line; saw:\n{}", seen.join("\n")));
    assert!(line.ends_with("(out of time)"), "{line}");
}
