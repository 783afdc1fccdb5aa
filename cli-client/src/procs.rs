//! Child processes: a local `xodus-server` and `xodus-ai` captains. The
//! binaries are looked up next to our own executable (they are built into
//! the same target directory). Every child is always stopped: gently
//! first (SIGTERM, so an AI captain hands back the seats it claimed and the
//! server closes its streams), killed if it is still there after
//! [`STOP_GRACE`]. [`stop_all`] does that for several at once; a handle
//! dropped on any other path (an error, a panic unwinding) does it alone.
//! Children run in their own process group, so the terminal's Ctrl-C
//! reaches `xodus` only, which then stops them in order (the captains
//! before the server they release their seats on).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a local server may take to say where it listens.
const SERVER_START: Duration = Duration::from_secs(30);

/// A free loopback port, for a local server.
pub const ANY_PORT: &str = "127.0.0.1:0";

/// How long a child may take to stop after SIGTERM before it is killed.
pub const STOP_GRACE: Duration = Duration::from_secs(3);

/// The seconds a local server gives open streams (a browser's) to close
/// after SIGTERM: less than [`STOP_GRACE`], so it ends on its own.
const SERVER_SHUTDOWN_GRACE_SECS: &str = "2";

/// A child process that is stopped (gently, then for good) when dropped.
#[derive(Debug)]
pub struct Guard {
    /// What it is, for messages.
    pub name: String,
    child: Child,
    /// Already stopped and reaped.
    stopped: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.stopped {
            self.ask_to_stop();
            self.wait_or_kill(Instant::now() + STOP_GRACE);
        }
    }
}

impl Guard {
    fn new(name: impl Into<String>, child: Child) -> Guard {
        Guard { name: name.into(), child, stopped: false }
    }

    /// The process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM (nothing where there are no signals: the kill after
    /// the grace stops it).
    fn ask_to_stop(&mut self) {
        if self.stopped || self.exited() {
            return;
        }
        #[cfg(unix)]
        {
            // Not reaped yet, so the id is still this child's.
            let sent = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if !sent.is_ok_and(|s| s.success()) {
                tracing::warn!("could not send SIGTERM to {}", self.name);
            }
        }
    }

    /// Waits for the exit until `deadline`, then kills; reaps the child.
    fn wait_or_kill(&mut self, deadline: Instant) {
        while !self.exited() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(25));
        }
        if !self.exited() {
            tracing::warn!("{} did not stop within {STOP_GRACE:?} of SIGTERM: killed", self.name);
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        self.stopped = true;
    }
}

/// Stops every child at once: SIGTERM to each, then SIGKILL to those still
/// running after [`STOP_GRACE`]. Blocks for at most that long (plus the
/// kill). Give the AI captains before the server they talk to, in two calls.
pub fn stop_all(guards: Vec<Guard>) {
    let mut guards = guards;
    for g in &mut guards {
        g.ask_to_stop();
    }
    let deadline = Instant::now() + STOP_GRACE;
    for g in &mut guards {
        g.wait_or_kill(deadline);
    }
}

/// A command whose process gets a group of its own, out of reach of the
/// terminal's Ctrl-C (which `xodus` handles, stopping it in its turn).
fn command(bin: &Path) -> Command {
    let mut c = Command::new(bin);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        c.process_group(0);
    }
    c
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
    start_server_with(data_dir, ANY_PORT, &[])
}

/// Like [`start_server`], listening on `listen`, with `extra` flags.
pub fn start_server_with(data_dir: &Path, listen: &str, extra: &[String]) -> Result<(Guard, String), ProcError> {
    let bin = sibling("xodus-server")?;
    std::fs::create_dir_all(data_dir)
        .map_err(|e| ProcError::ServerStart(format!("data dir {}: {e}", data_dir.display())))?;
    let log = std::fs::File::create(data_dir.join("server.log"))
        .map_err(|e| ProcError::ServerStart(format!("log file in {}: {e}", data_dir.display())))?;
    let mut child = command(&bin)
        .arg("--listen")
        .arg(listen)
        .arg("--data-dir")
        .arg(data_dir)
        .args(["--shutdown-grace-secs", SERVER_SHUTDOWN_GRACE_SECS])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(|source| ProcError::Spawn { name: "xodus-server".into(), source })?;
    let stdout = child.stdout.take();
    let mut guard = Guard::new("xodus-server", child);
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
            // Its stdout closes just before it exits: give it a moment.
            let begun = Instant::now();
            while !guard.exited() && begun.elapsed() < Duration::from_secs(1) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let log = data_dir.join("server.log");
            let why = match (guard.exited(), refusal(&log)) {
                (true, Some(line)) => line,
                (true, None) => "it exited".to_string(),
                (false, _) => "no `listening on` line in time".to_string(),
            };
            Err(ProcError::ServerStart(format!("{why}; see {}", log.display())))
        }
    }
}

/// Why a server that exited at start said it did (its log's last
/// `Error: ...` line, as `xodus-server` prints a refusal such as a data
/// directory held by another process).
fn refusal(log: &Path) -> Option<String> {
    let text = std::fs::read_to_string(log).ok()?;
    let line = text.lines().rev().find_map(|l| l.strip_prefix("Error: "))?;
    Some(line.trim().to_string())
}

/// Starts an `xodus-ai --fill` daemon, which takes every seat open to AI
/// on the server; its logs go to `log` (or nowhere).
pub fn start_fill(server: &str, extra: &[String], log: Option<&Path>) -> Result<Guard, ProcError> {
    let bin = sibling("xodus-ai")?;
    let err: Stdio = match log.map(std::fs::File::create) {
        Some(Ok(f)) => f.into(),
        _ => Stdio::null(),
    };
    let child = command(&bin)
        .arg("--server")
        .arg(server)
        .arg("--fill")
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .map_err(|source| ProcError::Spawn { name: "xodus-ai".into(), source })?;
    Ok(Guard::new("xodus-ai --fill", child))
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
    let mut cmd = command(&bin);
    if let Some(token) = token {
        cmd.env("TABLETOP_SEAT_TOKEN", token);
    }
    let child = cmd
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
    Ok(Guard::new(format!("xodus-ai seat {seat}"), child))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn shell(script: &str) -> Guard {
        let child = command(Path::new("/bin/sh")).args(["-c", script]).spawn().expect("sh starts");
        Guard::new("sh", child)
    }

    #[test]
    fn children_are_asked_to_stop_before_they_are_killed() {
        let dir = std::env::temp_dir().join(format!("xodus-procs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let marker = dir.join("terminated");
        // One child leaves a mark when SIGTERM reaches it (as a captain
        // hands its seats back), one ignores SIGTERM and must be killed.
        let (ready1, ready2) = (dir.join("ready1"), dir.join("ready2"));
        let polite = shell(&format!(
            "trap 'echo bye > {}; exit 0' TERM; : > {}; while :; do sleep 0.05; done",
            marker.display(),
            ready1.display()
        ));
        let stubborn = shell(&format!("trap '' TERM; : > {}; while :; do sleep 0.05; done", ready2.display()));
        // Both traps are set before the stop (a hang guard, not a timing).
        let start = Instant::now();
        while !(ready1.exists() && ready2.exists()) {
            assert!(start.elapsed() < Duration::from_secs(60), "the shells never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        stop_all(vec![polite, stubborn]);
        assert_eq!(std::fs::read_to_string(&marker).expect("SIGTERM came first").trim(), "bye");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_dropped_guard_stops_its_child() {
        let mut g = shell("while :; do sleep 0.05; done");
        assert!(!g.exited());
        let pid = g.id();
        drop(g);
        // The id is reaped: signal 0 to it finds no such process.
        let alive = Command::new("kill").args(["-0", &pid.to_string()]).stderr(Stdio::null()).status();
        assert!(!alive.expect("kill runs").success(), "the child is gone");
    }
}
