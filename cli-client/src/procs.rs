//! Child processes: a local `xodus-server` and `xodus-ai` captains. The
//! binaries are looked up next to our own executable (they are built into
//! the same target directory). Every child is killed when its handle is
//! dropped, so leaving `xodus` by any normal path leaves nothing running.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a local server may take to say where it listens.
const SERVER_START: Duration = Duration::from_secs(30);

/// A child process that is killed when dropped.
#[derive(Debug)]
pub struct Guard {
    /// What it is, for messages.
    pub name: String,
    child: Child,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Guard {
    /// The process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

/// Why a child could not be started.
#[derive(Debug, thiserror::Error)]
pub enum ProcError {
    /// The binary is not next to ours.
    #[error("cannot find {name} at {path}: run `cargo build --release --workspace --bins` first")]
    Missing {
        /// Binary name.
        name: String,
        /// Where it was looked for.
        path: String,
    },
    /// The OS refused to start it.
    #[error("cannot start {name}: {source}")]
    Spawn {
        /// Binary name.
        name: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The server exited or never printed its address.
    #[error("the local xodus-server did not start: {0}")]
    ServerStart(String),
}

/// The path of a sibling binary (`xodus-server`, `xodus-ai`). Test
/// executables live one level deeper (`target/debug/deps`), so the parent
/// of that is tried too.
pub fn sibling(name: &str) -> Result<PathBuf, ProcError> {
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().map_err(|e| ProcError::Missing { name: name.into(), path: e.to_string() })?;
    let mut tried = Vec::new();
    let mut dir = exe.parent();
    for _ in 0..2 {
        let Some(d) = dir else { break };
        let candidate = d.join(&file);
        if candidate.is_file() {
            return Ok(candidate);
        }
        tried.push(candidate.display().to_string());
        dir = d.parent();
    }
    Err(ProcError::Missing { name: name.into(), path: tried.join(" or ") })
}

/// Starts `xodus-server` on a free loopback port with `data_dir`, waits
/// for its `listening on ADDR` line and returns it with its URL. Its
/// stderr (the logs) goes to `server.log` in the data directory.
pub fn start_server(data_dir: &Path) -> Result<(Guard, String), ProcError> {
    start_server_with(data_dir, "127.0.0.1:0", &[])
}

/// Like [`start_server`], listening on `listen`, with `extra` flags.
pub fn start_server_with(data_dir: &Path, listen: &str, extra: &[String]) -> Result<(Guard, String), ProcError> {
    let bin = sibling("xodus-server")?;
    std::fs::create_dir_all(data_dir)
        .map_err(|e| ProcError::ServerStart(format!("data dir {}: {e}", data_dir.display())))?;
    let log = std::fs::File::create(data_dir.join("server.log"))
        .map_err(|e| ProcError::ServerStart(format!("log file in {}: {e}", data_dir.display())))?;
    let mut child = Command::new(&bin)
        .arg("--listen")
        .arg(listen)
        .arg("--data-dir")
        .arg(data_dir)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(|source| ProcError::Spawn { name: "xodus-server".into(), source })?;
    let stdout = child.stdout.take();
    let mut guard = Guard { name: "xodus-server".into(), child };
    let Some(stdout) = stdout else {
        return Err(ProcError::ServerStart("no stdout".into()));
    };
    // Read stdout on a thread for the whole life of the server, so it never
    // blocks on a full pipe; the first address line comes back here.
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
    match rx.recv_timeout(SERVER_START) {
        Ok(addr) => {
            let url =
                if addr.starts_with("http") || addr.starts_with("unix:") { addr } else { format!("http://{addr}") };
            Ok((guard, url))
        }
        Err(_) => {
            let why = if guard.exited() { "it exited" } else { "no `listening on` line in time" };
            Err(ProcError::ServerStart(format!("{why}; see {}", data_dir.join("server.log").display())))
        }
    }
}

/// Starts an `xodus-ai --fill` daemon, which takes every seat open to AI
/// on the server; its logs go to `log` (or nowhere).
pub fn start_fill(server: &str, extra: &[String], log: Option<&Path>) -> Result<Guard, ProcError> {
    let bin = sibling("xodus-ai")?;
    let err: Stdio = match log.map(std::fs::File::create) {
        Some(Ok(f)) => f.into(),
        _ => Stdio::null(),
    };
    let child = Command::new(&bin)
        .arg("--server")
        .arg(server)
        .arg("--fill")
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .map_err(|source| ProcError::Spawn { name: "xodus-ai".into(), source })?;
    Ok(Guard { name: "xodus-ai --fill".into(), child })
}

/// Starts an `xodus-ai` captain for one seat (with the seat's token when
/// it was claimed for it: passed in the environment, not on the command
/// line that other users may read); its logs go to `log` (or nowhere).
pub fn start_ai(
    server: &str,
    game: &str,
    seat: u8,
    token: Option<&str>,
    extra: &[String],
    log: Option<&Path>,
) -> Result<Guard, ProcError> {
    let bin = sibling("xodus-ai")?;
    let err: Stdio = match log.map(std::fs::File::create) {
        Some(Ok(f)) => f.into(),
        _ => Stdio::null(),
    };
    let mut command = Command::new(&bin);
    if let Some(token) = token {
        command.env("XODUS_SEAT_TOKEN", token);
    }
    let child = command
        .arg("--server")
        .arg(server)
        .arg("--game")
        .arg(game)
        .arg("--seat")
        .arg(seat.to_string())
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .map_err(|source| ProcError::Spawn { name: "xodus-ai".into(), source })?;
    Ok(Guard { name: format!("xodus-ai seat {seat}"), child })
}
