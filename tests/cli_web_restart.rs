//! End to end: `xodus play --web` stopped with Ctrl-C (SIGINT) and started
//! again on the same data directory. Real processes: `xodus play --web`
//! (with a stand-in page, `--web-dir`), the `xodus-server` and the
//! `xodus-ai --fill` it starts, and `xodus create`, `join`, `view`, `act`
//! and `list` for what the page would do. Checks the process side of
//! "seats are leases": the stop asks the captains to stop (SIGTERM, not a
//! kill), so they hand the AI seats back; the next run serves on the same
//! address (the page's origin, where the browser keeps its seat token),
//! its captains take the AI seats again and the person's token still
//! works; and a run whose old port is taken says so and serves on another.
//!
//! The binaries are looked up in the target directory (next to `deps/`):
//! `cargo build --workspace --bins` first.
#![cfg(unix)]

mod common;

use common::{HANG_GUARD, temp_dir, workspace_binary};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A running `xodus play --web`, asked to stop (SIGTERM) and then killed
/// if the test ends without stopping it, so that it stops its own
/// children.
struct Web {
    child: Option<Child>,
    /// The URL it printed.
    url: String,
    /// Its stderr, in a file.
    err: PathBuf,
}

impl Web {
    /// Starts `xodus play --web` on `data` serving the page in `page`,
    /// and reads the URL it prints.
    fn start(data: &Path, page: &Path, tag: &str) -> Web {
        let err = data.join(format!("play-web-{tag}.stderr"));
        let mut child = Command::new(workspace_binary("xodus"))
            .args(["play", "--web", "--ai-policy", "random", "--ai-courtesy-ms", "0"])
            .arg("--web-dir")
            .arg(page)
            .arg("--data-dir")
            .arg(data)
            // The captains inherit it: their log says which seats they hand back.
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(std::fs::File::create(&err).expect("stderr file")))
            .spawn()
            .expect("start xodus play --web");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("open ")
                    && let Some(tx) = tx.take()
                {
                    let url = rest.split_whitespace().next().unwrap_or_default();
                    let _ = tx.send(url.trim_end_matches('/').to_string());
                }
            }
        });
        let mut web = Web { child: Some(child), url: String::new(), err };
        match rx.recv_timeout(HANG_GUARD) {
            Ok(url) => web.url = url,
            Err(_) => panic!("`xodus play --web` printed no URL; its stderr:\n{}", web.stderr()),
        }
        web
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }

    /// `127.0.0.1:PORT`.
    fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// Sends `signal` and waits for the exit; true if it exited cleanly.
    fn stop(&mut self, signal: &str) -> bool {
        let Some(mut child) = self.child.take() else { return true };
        let _ = Command::new("kill").args([signal, &child.id().to_string()]).status();
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return status.success();
            }
            if start.elapsed() > HANG_GUARD {
                let _ = child.kill();
                let _ = child.wait();
                panic!("`xodus play --web` did not stop after {signal}; its stderr:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Web {
    fn drop(&mut self) {
        if self.child.is_some() {
            self.stop("-TERM");
        }
    }
}

fn xodus(args: &[&str]) -> Output {
    Command::new(workspace_binary("xodus")).args(args).stdin(Stdio::null()).output().expect("run xodus")
}

/// Runs `xodus`, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = xodus(args);
    assert!(out.status.success(), "xodus {args:?} failed: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
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

/// A view's sequence number (JSON carries 64-bit numbers as strings).
fn seq(view: &Value) -> u64 {
    let s = &view["public"]["seq"];
    s.as_u64().or_else(|| s.as_str().and_then(|t| t.parse().ok())).unwrap_or(0)
}

/// Waits (a hang guard, not a timing) until every seat of `game` is held.
fn wait_all_held(url: &str, game: &str, why: &str, log: &Path) {
    let start = Instant::now();
    while !open_seats(url, game).is_empty() {
        assert!(
            start.elapsed() < HANG_GUARD,
            "{why}: seats {:?} stay open; the captains' log:\n{}",
            open_seats(url, game),
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Lines of the captains' log about `game` that contain `what`.
fn log_lines(log: &Path, game: &str, what: &str) -> usize {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines().filter(|l| l.contains(what) && l.contains(game)).count()
}

#[test]
fn a_restarted_play_web_keeps_its_address_and_the_ai_seats_come_back() {
    let data = temp_dir("web-restart");
    let page = temp_dir("web-restart-page");
    std::fs::write(page.join("index.html"), "<!doctype html><title>stand-in</title>").expect("page");
    let fill_log = data.join("ai-fill.log");

    // First run: a game as the page makes it (seat 0 a person, 1 and 2 AI).
    let mut first = Web::start(&data, &page, "first");
    let url = first.url.clone();
    let game = ok(&["create", "--server", &url, "--ships", "3", "--seed", "21", "--ai-seats", "1,2", "--id-only"]);
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]);
    wait_all_held(&url, &game, "the first run's captains take seats 1 and 2", &fill_log);
    // A few moves: seat 0's first option whenever it decides, until three
    // choices are in (the captains make theirs meanwhile).
    let start = Instant::now();
    loop {
        let view = json(&ok(&["view", &game, "--seat", "0", "--token", &token, "--server", &url]));
        if seq(&view) >= 3 {
            break;
        }
        let mine = view["decision"]["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["seats"].as_array().is_some_and(|s| s.contains(&Value::from(0)))));
        if let Some(option) = mine.and_then(|o| o["id"].as_str()) {
            let at = seq(&view).to_string();
            // A captain may have moved in between: a stale refusal is fine.
            let _ = xodus(&[
                "act",
                &game,
                "--seat",
                "0",
                "--token",
                &token,
                "--option",
                option,
                "--expect-seq",
                &at,
                "--server",
                &url,
            ]);
        }
        assert!(start.elapsed() < HANG_GUARD, "the game did not move; last view: {view}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(first.stop("-INT"), "Ctrl-C ends `play --web` cleanly; its stderr:\n{}", first.stderr());

    // The captains were asked to stop, not killed: they handed both seats back.
    assert_eq!(
        log_lines(&fill_log, &game, "seat released"),
        2,
        "the captains hand seats 1 and 2 back on the way out; their log:\n{}",
        std::fs::read_to_string(&fill_log).unwrap_or_default()
    );
    // The server stopped too: its address is free.
    drop(std::net::TcpListener::bind(first.addr()).expect("the first run's server is gone"));

    // Second run: the same address, so the page's origin and its token.
    let mut second = Web::start(&data, &page, "second");
    assert_eq!(second.url, url, "the restart serves on the same address; its stderr:\n{}", second.stderr());
    wait_all_held(&url, &game, "the second run's captains take seats 1 and 2 again", &fill_log);
    assert_eq!(
        log_lines(&fill_log, &game, "claimed seat"),
        2,
        "a new captain claimed each AI seat; their log:\n{}",
        std::fs::read_to_string(&fill_log).unwrap_or_default()
    );
    let view = json(&ok(&["view", &game, "--seat", "0", "--token", &token, "--server", &url]));
    assert!(seq(&view) >= 3, "the same game, where it was: {view}");
    assert!(second.stop("-TERM"), "SIGTERM ends it cleanly too; its stderr:\n{}", second.stderr());
    assert_eq!(log_lines(&fill_log, &game, "seat released"), 2, "and hands the seats back again");

    // Third run, the old port taken by another program: a free port, and a note.
    let squatter = std::net::TcpListener::bind(second.addr()).expect("the port is free again");
    let mut third = Web::start(&data, &page, "third");
    assert_ne!(third.url, url, "another port when the old one is taken");
    assert!(third.stderr().contains("is taken"), "it says so: {}", third.stderr());
    assert!(third.stop("-INT"));
    drop(squatter);

    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&page);
}
