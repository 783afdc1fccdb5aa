//! `xodus play` keeps its seats in its data directory and `xodus play
//! --resume` takes the game back after the terminal was closed: run in a
//! real pseudo-terminal (util-linux `script`), quit with `q`, start again
//! with `--resume`, and the same game comes back on the same seat.

mod common;

use common::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `xodus ARGS` in a pseudo-terminal, presses `q` once the screen
/// had time to open, and returns everything it printed.
fn play_in_a_terminal(args: &str) -> String {
    let xodus = server_binary().with_file_name("xodus");
    let line = format!("stty cols 140 rows 45; exec {} {args}", xodus.display());
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_secs(6));
    let _ = stdin.write_all(b"q");
    let _ = stdin.flush();
    std::thread::sleep(Duration::from_secs(2));
    drop(stdin);
    let out = child.wait_with_output().expect("xodus exits");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn a_terminal_game_is_taken_back_with_resume() {
    let dir = temp_dir("cli-resume");
    let d = dir.display();
    let first = play_in_a_terminal(&format!("play --data-dir {d} --ships 3 --seed 5 --no-ai --seats 0,1"));
    assert!(first.contains("--resume"), "quitting says how to come back: {first}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("last-game.json")).expect("seats are saved"))
            .expect("saved seats are JSON");
    let game = saved["game"].as_str().expect("a game id").to_string();
    assert_eq!(saved["seats"].as_object().map(|s| s.len()), Some(2), "{saved}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("last-game.json")).expect("file").permissions().mode();
        assert_eq!(mode & 0o077, 0, "seat tokens are readable by their owner only");
    }

    let again = play_in_a_terminal(&format!("play --data-dir {d} --resume"));
    assert!(again.contains(&format!("resuming game {game}")), "{again}");
    assert!(!again.to_lowercase().contains("error"), "{again}");

    let fresh = temp_dir("cli-resume-none");
    let none = play_in_a_terminal(&format!("play --data-dir {} --resume", fresh.display()));
    assert!(none.contains("no unfinished game is saved"), "{none}");
}

/// A new player's trial found `--resume` stuck for good: the AI captains
/// of the first session had claimed their own seats and taken the tokens
/// with them, so the captains started again were refused every seat and
/// the game waited on them forever. `play` now claims the AI seats itself
/// and keeps their tokens beside the human ones.
#[test]
fn resumed_ai_captains_take_back_their_own_seats() {
    let dir = temp_dir("cli-resume-ai");
    let d = dir.display();
    play_in_a_terminal(&format!("play --data-dir {d} --ships 3 --seed 5 --seats 0 --ai-policy random"));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("last-game.json")).expect("seats are saved"))
            .expect("saved seats are JSON");
    let game = saved["game"].as_str().expect("a game id").to_string();
    let ai_tokens = saved["ai_tokens"].as_object().expect("AI tokens are kept");
    assert_eq!(ai_tokens.keys().collect::<Vec<_>>(), vec!["1", "2"], "{saved}");

    let again = play_in_a_terminal(&format!("play --data-dir {d} --resume"));
    assert!(again.contains(&format!("resuming game {game}")), "{again}");
    assert!(!again.contains("has stopped"), "an AI captain stopped: {again}");
    for seat in [1, 2] {
        let log = std::fs::read_to_string(dir.join(format!("ai-{game}-seat{seat}.log"))).unwrap_or_default();
        assert!(!log.contains("not ours") && !log.contains("Error"), "seat {seat}'s captain after --resume: {log}");
    }
}
