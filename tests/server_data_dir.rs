//! One server per data directory, with real processes: a second
//! `xodus-server` on a directory in use exits non-zero naming the first
//! one's pid (and so does `xodus watch --data-dir`, which starts a local
//! server there); after a `kill -9` of the first, whose lock the OS lets
//! go, a new server starts on the directory and has its games.

mod common;

use common::cli::xodus;
use common::{HANG_GUARD, Server, server_binary, temp_dir};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Instant;

/// Runs `xodus-server` on `dir` to its end (a refusal ends it at once;
/// the hang guard kills one that started after all).
fn run_second(dir: &Path) -> Output {
    let child = Command::new(server_binary())
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the second xodus-server");
    wait_output(child)
}

/// Waits for `child` to end within the hang guard (killed after it).
fn wait_output(mut child: Child) -> Output {
    let begun = Instant::now();
    while begun.elapsed() < HANG_GUARD {
        if let Ok(Some(_)) = child.try_wait() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    panic!("still running after {HANG_GUARD:?}: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_second_server_on_a_data_directory_in_use_is_refused_naming_the_first() {
    let dir = temp_dir("dir-lock");
    let first = Server::start_in(dir.clone(), &[]);
    let pid = first.pid();

    let out = run_second(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the second server started: {err}");
    assert!(out.stdout.is_empty(), "refused before it listens: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.contains("in use by another process") && err.contains(&format!("pid {pid}")), "{err}");

    // `xodus watch` starts a local server on its data directory: refused
    // the same way, in its own words.
    let d = dir.display().to_string();
    let out = xodus(&["watch", "--data-dir", &d, "--plain", "--ai-policy", "random"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("pid {pid}")) && err.contains("in use"), "{err}");

    // The first one still serves.
    let listed = xodus(&["list", "--server", &first.url]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    drop(first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lock_left_by_a_killed_server_is_taken_over() {
    let dir = temp_dir("dir-lock-kill");
    let first = Server::start_in(dir.clone(), &[]);
    let created = xodus(&["create", "--server", &first.url, "--ships", "3", "--id-only"]);
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let game = String::from_utf8_lossy(&created.stdout).trim().to_string();
    let old_pid = first.pid();
    first.kill9();
    assert!(dir.join("server.lock").exists(), "the killed server left its lock file");

    let second = Server::start_in(dir.clone(), &[]);
    let lock = std::fs::read_to_string(dir.join("server.lock")).expect("lock file");
    assert_eq!(lock.trim(), second.pid().to_string(), "the new server's pid (was {old_pid})");
    let view = xodus(&["view", &game, "--server", &second.url]);
    assert!(view.status.success(), "the game is there: {}", String::from_utf8_lossy(&view.stderr));
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}
