//! End to end: leaving your seats from the `xodus play` screen. A real
//! `xodus-server`, and `xodus play --server URL` in a real pseudo-terminal
//! (util-linux `script`) holding seats 0 and 1: `x` asks first, any key
//! but `y` keeps the seats, `x` then `y` gives them back (ReleaseSeat): the
//! lobby lists them open, the saved game forgets them (so `--resume` does
//! not ask for them again), and the screen goes on as a spectator until
//! `q`.
//!
//! The binaries are looked up in the target directory (next to `deps/`):
//! `cargo build --workspace --bins` first.
#![cfg(unix)]

mod common;

use common::cli::{Screen, wait_for};
use common::{HANG_GUARD, Server, temp_dir, workspace_binary};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The open seats of `game` as `xodus list --json` prints them.
fn open_seats(url: &str, game: &str) -> Vec<u64> {
    let out = Command::new(workspace_binary("xodus")).args(["list", "--server", url, "--json"]).output().expect("list");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let g = games.as_array().expect("a list").iter().find(|g| g["id"] == game).expect("the game is listed");
    g["open_seats"].as_array().expect("open_seats").iter().filter_map(Value::as_u64).collect()
}

/// The saved game in `dir`, if written.
fn saved(dir: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("last-game.json")).ok()?).ok()
}

#[test]
fn the_play_screen_gives_its_seats_back_after_asking_and_goes_on_watching() {
    let server = Server::start("cli-leave-screen");
    let url = server.url.clone();
    let dir = temp_dir("cli-leave-screen-data");
    let line = format!(
        "stty cols 140 rows 45; exec {} play --server {url} --data-dir {} --ships 3 --seed 5 --no-ai --seats 0,1",
        workspace_binary("xodus").display(),
        dir.display()
    );
    let mut s = Screen::open(&line);

    // The seats are claimed and saved, then the screen opens (its status
    // line ends with "? rules").
    wait_for("the seats are saved", || saved(&dir).is_some(), || s.shown());
    let game = saved(&dir).and_then(|s| s["game"].as_str().map(str::to_string)).expect("a game id");
    wait_for("the screen opens", || s.shown().contains("? rules"), || s.shown());
    assert_eq!(open_seats(&url, &game), [2], "seats 0 and 1 held (no AI: seat 2 waits for someone)");

    // `x` asks; `n` answers no: nothing is given back.
    s.clear();
    s.press(b"x");
    wait_for("`x` asks first", || s.shown().contains("Leave captain 0 and captain 1?"), || s.shown());
    s.clear();
    s.press(b"n");
    wait_for("`n` keeps them", || s.shown().contains("you keep") || s.shown().contains("your seats"), || s.shown());
    assert_eq!(open_seats(&url, &game), [2], "both seats still held");
    // `x` then `y`: both seats go back.
    s.clear();
    s.press(b"x");
    // The terminal redraws only the cells that changed since the last
    // frame, so a letter the two frames share may be missing: either half
    // of the question will do.
    wait_for(
        "`x` asks again",
        || s.shown().contains("Leave captain 0") || s.shown().contains("captain 1? It opens"),
        || s.shown(),
    );
    s.press(b"y");
    wait_for("the lobby lists seats 0 and 1 open", || open_seats(&url, &game) == [0, 1, 2], || s.shown());
    wait_for(
        "the screen says so",
        || s.shown().contains("you left captain 0") || s.shown().contains("captain 1: watching now"),
        || s.shown(),
    );
    wait_for(
        "the saved game forgets the seats",
        || saved(&dir).is_some_and(|s| s["seats"].as_object().is_some_and(|m| m.is_empty())),
        || format!("{:?}", saved(&dir)),
    );
    assert!(matches!(s.child.try_wait(), Ok(None)), "the screen goes on, watching: {}", s.shown());

    s.press(b"q");
    s.close_keys();
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = s.child.try_wait() {
            break status;
        }
        assert!(start.elapsed() < HANG_GUARD, "`q` closes the screen: {}", s.shown());
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}: {}", s.shown());
    assert!(s.shown().contains(&format!("left game {game}")), "{}", s.shown());
    // The old tokens went with the seats: the game still waits for people.
    assert_eq!(open_seats(&url, &game), [0, 1, 2]);
    let _ = std::fs::remove_dir_all(&dir);
}
