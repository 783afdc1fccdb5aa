//! The binaries' environment variables, from outside: the documented
//! `TABLETOP_*` names configure them, the `XODUS_*` names of earlier
//! releases still do when the new name is unset, and the new name wins
//! when both are set.

mod common;

use common::{HANG_GUARD, ai_binary, server_binary, temp_dir};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts `xodus-server` with no flags and these variables; returns the
/// address it says it listens on, then stops it.
fn listening_with(dir: &Path, vars: &[(&str, String)]) -> String {
    let mut child = Command::new(server_binary())
        .env_remove("TABLETOP_LISTEN")
        .env_remove("XODUS_LISTEN")
        .env_remove("TABLETOP_DATA_DIR")
        .env_remove("XODUS_DATA_DIR")
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn xodus-server");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(HANG_GUARD).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        dir.join("server.lock").exists() || dir.join("games.db").exists(),
        "the data directory came from the variables"
    );
    line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("no listening line: {line:?}")).to_string()
}

#[test]
fn the_new_names_configure_the_server_and_the_old_ones_still_do() {
    let dir = temp_dir("env-new");
    let at = listening_with(
        &dir,
        &[("TABLETOP_LISTEN", "127.0.0.1:0".into()), ("TABLETOP_DATA_DIR", dir.display().to_string())],
    );
    assert!(at.starts_with("127.0.0.1:"), "{at}");

    let dir = temp_dir("env-old");
    let at =
        listening_with(&dir, &[("XODUS_LISTEN", "127.0.0.1:0".into()), ("XODUS_DATA_DIR", dir.display().to_string())]);
    assert!(at.starts_with("127.0.0.1:"), "{at}");

    // Both set: the new name wins.
    let dir = temp_dir("env-both");
    let socket = dir.join("s.sock");
    let at = listening_with(
        &dir,
        &[
            ("TABLETOP_LISTEN", format!("unix:{}", socket.display())),
            ("XODUS_LISTEN", "127.0.0.1:0".into()),
            ("XODUS_DATA_DIR", dir.display().to_string()),
        ],
    );
    assert_eq!(at, format!("unix:{}", socket.display()));
}

#[test]
fn every_binary_documents_the_new_names() {
    for (bin, args, var) in [
        (server_binary(), &["--help"][..], "TABLETOP_LISTEN"),
        (ai_binary(), &["--help"][..], "TABLETOP_SERVER"),
        (common::workspace_binary("xodus"), &["list", "--help"][..], "TABLETOP_SERVER"),
    ] {
        let out = Command::new(&bin).args(args).output().expect("run --help");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains(var), "{} --help names {var}:\n{help}", bin.display());
        assert!(!help.contains("XODUS_"), "{} --help shows only the new names:\n{help}", bin.display());
    }
}
