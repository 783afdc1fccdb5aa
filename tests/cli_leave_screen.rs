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

use common::{HANG_GUARD, Server, temp_dir, workspace_binary};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Waits (a hang guard, not a timing) until `ready` holds.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool, why: impl Fn() -> String) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < HANG_GUARD, "{what}: {}", why());
        std::thread::sleep(Duration::from_millis(100));
    }
}

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
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs");
    let mut keys = child.stdin.take().expect("stdin");
    let screen = Arc::new(Mutex::new(Vec::<u8>::new()));
    let mut stdout = child.stdout.take().expect("stdout");
    let sink = Arc::clone(&screen);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().expect("screen buffer").extend_from_slice(&buf[..n]);
        }
    });
    let shown = || String::from_utf8_lossy(&screen.lock().expect("screen buffer")).into_owned();
    let mut press = |k: &[u8]| {
        keys.write_all(k).expect("a key reaches the terminal");
        keys.flush().expect("flush");
    };

    // The seats are claimed and saved, then the screen opens (its status
    // line ends with "? rules").
    wait_for("the seats are saved", || saved(&dir).is_some(), shown);
    let game = saved(&dir).and_then(|s| s["game"].as_str().map(str::to_string)).expect("a game id");
    wait_for("the screen opens", || shown().contains("? rules"), shown);
    assert_eq!(open_seats(&url, &game), [2], "seats 0 and 1 held (no AI: seat 2 waits for someone)");

    let clear = || screen.lock().expect("screen buffer").clear();
    // `x` asks; `n` answers no: nothing is given back.
    clear();
    press(b"x");
    wait_for("`x` asks first", || shown().contains("Leave captain 0 and captain 1?"), shown);
    clear();
    press(b"n");
    wait_for("`n` keeps them", || shown().contains("you keep") || shown().contains("your seats"), shown);
    assert_eq!(open_seats(&url, &game), [2], "both seats still held");
    // `x` then `y`: both seats go back.
    clear();
    press(b"x");
    // The terminal redraws only the cells that changed since the last
    // frame, so a letter the two frames share may be missing: either half
    // of the question will do.
    wait_for(
        "`x` asks again",
        || shown().contains("Leave captain 0") || shown().contains("captain 1? It opens"),
        shown,
    );
    press(b"y");
    wait_for("the lobby lists seats 0 and 1 open", || open_seats(&url, &game) == [0, 1, 2], shown);
    wait_for(
        "the screen says so",
        || shown().contains("you left captain 0") || shown().contains("captain 1: watching now"),
        shown,
    );
    wait_for(
        "the saved game forgets the seats",
        || saved(&dir).is_some_and(|s| s["seats"].as_object().is_some_and(|m| m.is_empty())),
        || format!("{:?}", saved(&dir)),
    );
    assert!(matches!(child.try_wait(), Ok(None)), "the screen goes on, watching: {}", shown());

    press(b"q");
    drop(keys);
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        assert!(start.elapsed() < HANG_GUARD, "`q` closes the screen: {}", shown());
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}: {}", shown());
    assert!(shown().contains(&format!("left game {game}")), "{}", shown());
    // The old tokens went with the seats: the game still waits for people.
    assert_eq!(open_seats(&url, &game), [0, 1, 2]);
    let _ = std::fs::remove_dir_all(&dir);
}
