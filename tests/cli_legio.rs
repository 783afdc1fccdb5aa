//! End-to-end test of the `xodus` scripted commands on VII Legio (game
//! type "legio"): a real `xodus-server`, an `xodus-ai --fill` daemon for
//! the AI commanders, and seat 0 played by `xodus create --game legio`,
//! `join`, `view` (as the seat: its own hand; as a spectator: nobody's)
//! and `act` processes; `xodus watch --plain` follows the game from the
//! side, and `xodus watch --game legio` plays a fresh all-AI game on a
//! local server to its result line; `xodus play --game legio` in a real
//! pseudo-terminal (util-linux `script`) is left with `q` and taken back
//! with `--resume`, its AI commanders on their seats again.
//!
//! Needs the server to host "legio" (service/src/games/legio.rs, registered
//! in `Registry::standard()`); the binaries are looked up in the target
//! directory (`cargo build --workspace --bins`).

mod common;

use common::cli::*;
use common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A child process killed on drop.
struct Proc(std::process::Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Seat 0's choices this test makes before it stops acting (a whole game
/// of random play takes hundreds).
const MY_CHOICES: usize = 40;

#[test]
fn scripted_commands_play_vii_legio_with_ai_commanders() {
    let server = Server::start("cli-legio");
    let url = server.url.clone();
    let created = json(&ok(&[
        "create",
        "--server",
        &url,
        "--game",
        "legio",
        "--players",
        "3",
        "--seed",
        "11",
        "--ai-seats",
        "1,2",
    ]));
    assert_eq!(created["game_type"], "legio", "{created}");
    assert_eq!(created["human_seats"], serde_json::json!([0]), "{created}");
    let game = created["game"].as_str().expect("game id").to_string();

    // The watcher starts first, so it sees every seat taken.
    let mut watcher = Proc(
        Command::new(workspace_binary("xodus"))
            .args(["watch", &game, "--server", &url, "--plain"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xodus watch"),
    );
    let stdout = watcher.0.stdout.take().expect("watch stdout");
    let (line_tx, line_rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line_tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.contains("seats:")) {
        lines.push(line_rx.recv_timeout(HANG_GUARD).expect("watch lists the seats"));
    }

    let _fill = Agent::spawn_fill(&url, &server.data_dir, "random");
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]).trim().to_string();
    assert_eq!(token.len(), 32, "a 32-character token: {token:?}");

    let listed = json(&ok(&["list", "--server", &url, "--json"]));
    let entry = listed.as_array().and_then(|g| g.iter().find(|x| x["id"] == game.as_str())).expect("listed");
    assert_eq!(entry["game_type"], "legio", "{entry}");
    assert!(ok(&["list", "--server", &url]).contains("legio"), "the table names the game type");

    let mut acted = 0;
    let mut saw_hand = false;
    let start = std::time::Instant::now();
    while acted < MY_CHOICES && start.elapsed() < HANG_GUARD * 3 {
        let view = json(&ok(&["view", &game, "--server", &url, "--seat", "0", "--token", &token]));
        assert_eq!(view["game_type"], "legio", "{view}");
        assert_eq!(view["viewer_seat"], 0);
        if !view["outcome"].is_null() {
            break;
        }
        let state = &view["state"];
        assert!(state["mine"].is_object(), "a seat sees its own secrets: {state}");
        let hand = state["mine"]["hand"].as_array().map(Vec::len).unwrap_or(0);
        if hand > 0 && !saw_hand {
            // The text report names the cards of this seat's hand.
            let text = ok(&["view", &game, "--server", &url, "--seat", "0", "--token", &token, "--text"]);
            assert!(text.contains("hand ["), "{text}");
            let spectator = json(&ok(&["view", &game, "--server", &url]));
            assert!(spectator["state"]["mine"].is_null(), "a spectator sees no hand: {spectator}");
            saw_hand = true;
        }
        let mine: Vec<&Value> = view["decision"]["options"]
            .as_array()
            .map(|o| o.iter().filter(|o| o["seats"].as_array().is_some_and(|s| s.contains(&Value::from(0)))).collect())
            .unwrap_or_default();
        // Draw as many cards as offered (so that the hand fills), else
        // go round the options.
        let ids: Vec<&str> = mine.iter().filter_map(|o| o["id"].as_str()).collect();
        let draw = ids.iter().rfind(|id| id.starts_with("draw:")).copied();
        let Some(option) = draw.or_else(|| ids.get(acted % ids.len().max(1)).copied()) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let seq = num(&view["seq"]);
        let out = xodus(&[
            "act",
            &game,
            "--seat",
            "0",
            "--token",
            &token,
            "--option",
            option,
            "--expect-seq",
            &seq.to_string(),
            "--server",
            &url,
        ]);
        match out.status.code() {
            Some(0) => {
                let r = json(&String::from_utf8_lossy(&out.stdout));
                assert_eq!(r["game_type"], "legio", "{r}");
                assert!(num(&r["seq"]) > seq, "the choice moved the game on: {r}");
                assert!(r["events"].is_array() && r["decision"].is_object(), "{r}");
                acted += 1;
            }
            Some(5) => {}
            _ => panic!("act {option} at {seq} failed: {}", String::from_utf8_lossy(&out.stderr)),
        }
    }
    assert!(acted > 0, "seat 0 made choices");
    assert!(saw_hand, "seat 0 held cards at some point");

    // The watcher named every seat's holder and printed the events' lines.
    let deadline = std::time::Instant::now() + HANG_GUARD;
    while std::time::Instant::now() < deadline
        && !(lines.iter().any(|l| l.ends_with("a person took it")) && lines.len() > 20)
    {
        match line_rx.recv_timeout(HANG_GUARD) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    assert!(lines.iter().any(|l| l.contains("seat 0 ") && l.ends_with("a person took it")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("seat 1 ") && l.ends_with("an AI agent took it")), "{lines:#?}");
    assert!(lines.iter().filter(|l| l.starts_with('[')).count() > 10, "event lines: {lines:#?}");
}

#[test]
fn watch_without_a_game_runs_a_local_all_ai_legio_game_to_its_end() {
    let out = ok(&["watch", "--game", "legio", "--players", "2", "--seed", "3"]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("game g-") && last.contains("OVER"), "watch ends with the result: {last:?}");
}

#[test]
fn legio_setup_flags_are_checked_before_anything_starts() {
    let out = xodus(&["create", "--game", "legio", "--players", "5", "--server", "http://127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(2), "a bad command line");
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 4 commanders"));
    // A name that cannot be a game type is refused here; another game
    // goes to the server (which says what it hosts), but not with flags
    // of the games this client knows.
    let out = xodus(&["create", "--game", "Chess!", "--server", "http://127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(2), "a bad command line");
    assert!(String::from_utf8_lossy(&out.stderr).contains("games are xodus, legio"));
    let out = xodus(&["create", "--game", "chess", "--round-limit", "5", "--server", "http://127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(2), "a bad command line");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a game this client knows (xodus, legio)"));
}

/// Runs `xodus ARGS` in a pseudo-terminal, presses Enter once the screen
/// had time to open (the first option of the person's decision), then
/// `q`, and returns everything it printed.
fn play_in_a_terminal(args: &str) -> String {
    let line = format!("stty cols 120 rows 40; exec {} {args}", workspace_binary("xodus").display());
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_secs(5));
    let _ = stdin.write_all(b"\r");
    let _ = stdin.flush();
    std::thread::sleep(Duration::from_secs(2));
    let _ = stdin.write_all(b"q");
    let _ = stdin.flush();
    std::thread::sleep(Duration::from_secs(2));
    drop(stdin);
    let out = child.wait_with_output().expect("xodus exits");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A terminal's output without its escape sequences (cursor moves and
/// colours), each replaced by a space, spaces squeezed.
fn without_escapes(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                while let Some(&n) = chars.peek() {
                    chars.next();
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            push_space(&mut out);
        } else if c.is_whitespace() {
            push_space(&mut out);
        } else {
            out.push(c);
        }
    }
    out
}

fn push_space(out: &mut String) {
    if !out.ends_with(' ') {
        out.push(' ');
    }
}

#[test]
fn a_terminal_legio_game_is_played_left_and_taken_back_with_resume() {
    let dir = temp_dir("cli-legio-play");
    let d = dir.display();
    let first =
        play_in_a_terminal(&format!("play --game legio --players 3 --seed 4 --data-dir {d} --ai-courtesy-ms 0"));
    assert!(first.contains("VII LEGIO"), "the VII Legio screen opened: {first}");
    assert!(first.contains("--resume"), "quitting says how to come back: {first}");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("last-game.json")).expect("seats are saved"))
            .expect("saved seats are JSON");
    let game = saved["game"].as_str().expect("a game id").to_string();
    assert_eq!(saved["seats"].as_object().map(|s| s.len()), Some(1), "one seat for the person: {saved}");
    let ai_tokens = saved["ai_tokens"].as_object().expect("AI tokens are kept");
    assert_eq!(ai_tokens.keys().collect::<Vec<_>>(), vec!["1", "2"], "{saved}");

    let again = play_in_a_terminal(&format!("play --data-dir {d} --resume"));
    assert!(again.contains(&format!("resuming game {game}")), "{again}");
    assert!(again.contains("VII LEGIO"), "the game's own screen again: {again}");
    // The resumed screen logs the game so far, from its history (the
    // choices made before quitting: every commander's command profile).
    let text = without_escapes(&again);
    assert!(text.contains("sets its command profile: Diplomacy +"), "the log so far after --resume: {text}");
    assert!(!again.contains("has stopped"), "an AI commander stopped: {again}");
    for seat in [1, 2] {
        let log = std::fs::read_to_string(dir.join(format!("ai-{game}-seat{seat}.log"))).unwrap_or_default();
        assert!(!log.contains("not ours") && !log.contains("Error"), "seat {seat}'s commander after --resume: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_refuses_two_seats_of_a_game_with_private_hands() {
    let out = xodus(&["play", "--game", "legio", "--seats", "0,1", "--server", "http://127.0.0.1:9"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a bad command line: {err}");
    assert!(err.contains("one seat per terminal"), "{err}");
}
