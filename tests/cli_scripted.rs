//! End-to-end test of the `xodus` scripted commands: a real `xodus-server`
//! process, three real `xodus-ai` captains, and seat 0 played by running
//! `xodus create`, `join`, `view`, `act` and `list` as processes, to the
//! end of a game; `xodus watch --plain` follows the same game from the
//! side and must say who took each seat and print its result. Also checks that refusals come back as
//! one clear line and a distinct exit code.
//!
//! The binaries are looked up in the target directory (next to `deps/`);
//! `cargo test --workspace` builds them.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long the game (and each wait) may take before it counts as a hang:
/// not a speed check, the AI captains take what they take.
const HANG_GUARD: Duration = Duration::from_secs(600);

/// A child process killed on drop.
struct Proc(Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A data directory removed on drop.
struct Dir(PathBuf);
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target directory");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "{} is missing: run `cargo build --workspace --bins` first", path.display());
    path
}

fn temp_dir(tag: &str) -> Dir {
    let d = std::env::temp_dir().join(format!("xodus-cli-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    Dir(d)
}

/// Starts a server on a free port; returns it with its URL.
fn server(dir: &Dir) -> (Proc, String) {
    let mut child = Command::new(bin("xodus-server"))
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&dir.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start xodus-server");
    let stdout = child.stdout.take().expect("server stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(addr) = line.split("listening on ").nth(1)
                && let Some(tx) = tx.take()
            {
                let _ = tx.send(addr.trim().to_string());
            }
        }
    });
    let proc = Proc(child);
    let addr = rx.recv_timeout(HANG_GUARD).expect("the server prints `listening on ADDR`");
    let url = if addr.starts_with("http") { addr } else { format!("http://{addr}") };
    (proc, url)
}

fn xodus(args: &[&str]) -> Output {
    Command::new(bin("xodus")).args(args).stdin(Stdio::null()).output().expect("run xodus")
}

/// Runs `xodus`, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = xodus(args);
    assert!(out.status.success(), "xodus {args:?} failed: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Seat 0's first offered option, if seat 0 decides now.
fn my_option(view: &Value) -> Option<String> {
    let options = view["decision"]["options"].as_array()?;
    options
        .iter()
        .find(|o| o["seats"].as_array().is_some_and(|s| s.iter().any(|x| x.as_u64() == Some(0))))
        .and_then(|o| o["id"].as_str())
        .map(str::to_string)
}

#[test]
fn scripted_commands_play_a_game_to_its_end_with_ai_teammates() {
    let dir = temp_dir("scripted");
    let (_server, url) = server(&dir);
    let created = json(&ok(&["create", "--server", &url, "--ships", "4", "--seed", "42", "--ai-seats", "1,2,3"]));
    let game = created["game"].as_str().expect("game id").to_string();

    // The watcher starts first, so it sees every seat taken.
    let mut watcher = Proc(
        Command::new(bin("xodus"))
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
    let listing = lines.last().cloned().unwrap_or_default();
    assert_eq!(listing.matches("(open)").count(), 4, "every seat is open before anyone joins: {listing:?}");

    let _ais: Vec<Proc> = (1..=3)
        .map(|s| {
            Proc(
                Command::new(bin("xodus-ai"))
                    .args(["--server", &url, "--game", &game, "--seat", &s.to_string(), "--policy", "heuristic"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start xodus-ai"),
            )
        })
        .collect();
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]).trim().to_string();
    assert_eq!(token.len(), 32, "a 32-character token: {token:?}");

    let mut acted = 0;
    let mut outcome = Value::Null;
    let start = std::time::Instant::now();
    while start.elapsed() < HANG_GUARD {
        let view = json(&ok(&["view", &game, "--server", &url]));
        if !view["public"]["outcome"].is_null() {
            outcome = view["public"]["outcome"].clone();
            break;
        }
        let Some(option) = my_option(&view) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let seq = seq_of(&view["public"]["seq"]);
        let out = xodus(&[
            "act",
            &game,
            "--seat",
            "0",
            "--token",
            &token,
            "--option",
            &option,
            "--expect-seq",
            &seq.to_string(),
            "--server",
            &url,
        ]);
        match out.status.code() {
            Some(0) => {
                let r = json(&String::from_utf8_lossy(&out.stdout));
                assert!(r["seq"].as_u64().expect("seq") > seq, "the choice moved the game on");
                acted += 1;
            }
            // An AI teammate moved first (a shared decision): look again.
            Some(5) => {}
            _ => panic!("act {option} at {seq} failed: {}", String::from_utf8_lossy(&out.stderr)),
        }
    }
    assert!(!outcome.is_null(), "the game did not end within {HANG_GUARD:?}");
    assert!(acted > 0, "seat 0 made choices");

    let listed = json(&ok(&["list", "--server", &url, "--json"]));
    let entry = listed.as_array().and_then(|g| g.iter().find(|x| x["id"] == game.as_str())).expect("listed");
    assert_eq!(entry["status"], "finished");
    assert_eq!(entry["seed_chosen"], true, "created with --seed 42");
    let table = ok(&["list", "--server", &url]);
    assert!(table.contains(&format!("{game}*")) && table.contains("the creator chose the seed"), "{table}");

    // The watcher saw the seats taken and the same end.
    loop {
        match line_rx.recv_timeout(HANG_GUARD) {
            Ok(line) => lines.push(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("watch did not end with the game: {lines:#?}"),
        }
    }
    assert!(watcher.0.wait().expect("watch exits").success(), "watch exits cleanly at the end of the game");
    for seat in 0..=3 {
        let who = if seat == 0 { "a person took it" } else { "an AI agent took it" };
        assert!(
            lines.iter().any(|l| l.contains(&format!("seat {seat} ")) && l.ends_with(who)),
            "watch said who took seat {seat}: {lines:#?}"
        );
    }
    let last = lines.last().cloned().unwrap_or_default();
    let word = if outcome["won"].as_bool() == Some(true) { "VICTORY" } else { "DEFEAT" };
    assert!(last.contains(word) && last.contains(&game), "watch ends with the result: {last:?}");
    assert!(lines.iter().any(|l| l.contains("starts their turn")), "watch printed events");
}

#[test]
fn refusals_are_one_clear_line_and_an_exit_code() {
    // No server at all.
    let out = xodus(&["list", "--server", "http://127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(7));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no X-ODUS server at http://127.0.0.1:9"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");

    // An AI policy that does not exist is refused before anything starts.
    let out = xodus(&["watch", "--ai-policy", "smart"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("smart") && err.contains("mcts"), "names the value and the choices: {err}");

    let dir = temp_dir("refusals");
    let (_server, url) = server(&dir);
    // Unknown game.
    let out = xodus(&["view", "g-nope", "--server", &url]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));

    let created = json(&ok(&["create", "--server", &url, "--ships", "3", "--seed", "5"]));
    let game = created["game"].as_str().expect("game id").to_string();
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]).trim().to_string();
    // A seat already taken is a seat refused (4), as the README says.
    let out = xodus(&["join", &game, "--seat", "0", "--server", &url]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already claimed"));
    let view = json(&ok(&["view", &game, "--server", &url]));
    let option = view["decision"]["options"][0]["id"].as_str().expect("an option").to_string();
    let seat = view["decision"]["options"][0]["seats"][0].as_u64().expect("a seat").to_string();

    // A wrong token.
    let bad = "0".repeat(32);
    let out = xodus(&["act", &game, "--seat", "0", "--token", &bad, "--option", &option, "--server", &url]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("xodus: refused"));

    // A stale sequence number (claim the deciding seat first).
    let token =
        if seat == "0" { token } else { ok(&["join", &game, "--seat", &seat, "--server", &url]).trim().to_string() };
    let out = xodus(&[
        "act",
        &game,
        "--seat",
        &seat,
        "--token",
        &token,
        "--option",
        &option,
        "--expect-seq",
        "7",
        "--server",
        &url,
    ]);
    assert_eq!(out.status.code(), Some(5), "{}", String::from_utf8_lossy(&out.stderr));
    // Nothing changed.
    let again = json(&ok(&["view", &game, "--server", &url]));
    assert_eq!(again["public"]["seq"], view["public"]["seq"]);
    // The right one goes through.
    let r = json(&ok(&["act", &game, "--seat", &seat, "--token", &token, "--option", &option, "--server", &url]));
    assert_eq!(r["seq"].as_u64(), Some(seq_of(&view["public"]["seq"]) + 1));
}

#[test]
fn a_reader_that_stops_early_ends_view_quietly() {
    // `xodus view G | head`: the reader's end of the pipe is closed before
    // the view is printed. The process ends with status 0 and says nothing;
    // `println!` used to panic there.
    let dir = temp_dir("pipe");
    let (_server, url) = server(&dir);
    let created = json(&ok(&["create", "--server", &url, "--ships", "3", "--seed", "5"]));
    let game = created["game"].as_str().expect("game id").to_string();
    for args in [vec!["view", &game, "--server", &url], vec!["view", &game, "--text", "--server", &url]] {
        let mut child = Command::new(bin("xodus"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start xodus");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("xodus ends");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_reader_that_stops_early_ends_watch_plain() {
    // `xodus watch G --plain | head`: once the reader's end of the pipe
    // is closed, nobody watches any more. Nobody plays this game either,
    // so a watcher that kept following would wait for ever.
    let dir = temp_dir("watch-pipe");
    let (_server, url) = server(&dir);
    let created = json(&ok(&["create", "--server", &url, "--ships", "3", "--seed", "5"]));
    let game = created["game"].as_str().expect("game id").to_string();
    let mut child = Command::new(bin("xodus"))
        .args(["watch", &game, "--server", &url, "--plain"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start xodus watch");
    drop(child.stdout.take());
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll xodus watch") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("xodus watch kept following after its reader went away");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    assert!(status.success(), "{status:?} {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn watch_without_a_game_runs_a_local_all_ai_game_to_its_end() {
    // stdout is a pipe here, so watch prints lines and then the result.
    // The heuristic keeps a debug build fast; the default (mcts) is
    // measured by `xodus-ai selfplay`.
    let out = ok(&["watch", "--seed", "3", "--ships", "3", "--ai-policy", "heuristic"]);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("game g-") && (last.contains("VICTORY") || last.contains("DEFEAT")),
        "watch ends with the result: {last:?}"
    );
    assert!(out.lines().any(|l| l.contains("Game over")), "the game-over event was printed");
}

#[test]
fn play_without_a_terminal_says_what_to_use_instead() {
    let out = xodus(&["play", "--server", "http://127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal") && err.contains("xodus create"), "{err}");
}

/// A 64-bit number of the view's JSON, which writes it as a decimal string
/// (so that JavaScript reads it exactly).
fn seq_of(v: &Value) -> u64 {
    v.as_str().and_then(|s| s.parse().ok()).or_else(|| v.as_u64()).unwrap_or_else(|| panic!("not a seq: {v}"))
}
