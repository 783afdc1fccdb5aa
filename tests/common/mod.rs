//! Shared helpers of the end-to-end tests: start the real `xodus-server`
//! binary on 127.0.0.1:0 with a fresh data directory, read the address it
//! prints, connect a generated tonic client, and a few game moves that most
//! tests need (create a seeded game, claim every seat, play the first
//! offered option). Each test file uses what it needs. Every wait here is
//! a generous hang guard (`HANG_GUARD`), never a speed check: CI is a small,
//! possibly loaded machine.
#![allow(dead_code)]

pub mod cli;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;
use tonic::transport::Channel;

/// How long any wait of a test may take before it counts as a hang: far
/// beyond what a slow, loaded machine needs.
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// A binary of the workspace next to this test executable (in
/// `target/<profile>/`, the parent of `deps/`).
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().and_then(Path::parent).expect("target/<profile> directory");
    let bin = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --workspace --bins` before the end-to-end tests",
        bin.display()
    );
    bin
}

/// The `xodus-server` binary.
pub fn server_binary() -> PathBuf {
    workspace_binary("xodus-server")
}

/// The `xodus-ai` binary.
pub fn ai_binary() -> PathBuf {
    workspace_binary("xodus-ai")
}

/// A fresh, empty directory under the system temp dir.
pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "xodus-e2e-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// A running server process.
pub struct Server {
    /// The process.
    child: Child,
    /// `http://127.0.0.1:PORT`, or `unix:PATH` for a Unix socket.
    pub url: String,
    /// Its data directory (kept across restarts).
    pub data_dir: PathBuf,
    /// Remove the data directory when dropped.
    cleanup: bool,
}

impl Server {
    /// Starts a server with a fresh data directory.
    pub fn start(tag: &str) -> Server {
        Server::start_in(temp_dir(tag), &[])
    }

    /// Starts a server on `data_dir` with extra flags.
    pub fn start_in(data_dir: PathBuf, extra: &[&str]) -> Server {
        Server::start_at(data_dir, "127.0.0.1:0", extra)
    }

    /// Starts a server on `data_dir` listening on `listen` (a fixed
    /// address, for a restart that clients must find again) with extra flags.
    pub fn start_at(data_dir: PathBuf, listen: &str, extra: &[&str]) -> Server {
        Server::try_start_at(data_dir, listen, extra).unwrap_or_else(|why| panic!("{why}"))
    }

    /// Like [`Server::start_at`], but a server that does not come up (say,
    /// its fixed address is taken) is an error, not a panic.
    pub fn try_start_at(data_dir: PathBuf, listen: &str, extra: &[&str]) -> Result<Server, String> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(data_dir.join("server.log"))
            .expect("server log file");
        let mut child = Command::new(server_binary())
            .args(["--listen", listen, "--data-dir"])
            .arg(&data_dir)
            .args(extra)
            // Accepted choices and read calls are logged at debug; the
            // tests read them.
            .env("RUST_LOG", "info,tabletop_service::manager::play=debug,tabletop_service::access=debug")
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
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
        let Some(addr) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            let _ = child.wait();
            let log = std::fs::read_to_string(data_dir.join("server.log")).unwrap_or_default();
            return Err(format!("server did not print `listening on ADDR` (got {line:?}); log:\n{log}"));
        };
        let url = if addr.starts_with("unix:") { addr.to_string() } else { format!("http://{addr}") };
        Ok(Server { child, url, data_dir, cleanup: true })
    }

    /// The address it listens on (`127.0.0.1:PORT`).
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// A client connected to this server.
    pub async fn client(&self) -> GameServiceClient<Channel> {
        GameServiceClient::new(self.channel().await)
    }

    /// A raw channel to this server.
    pub async fn channel(&self) -> Channel {
        tabletop::dial::Target::parse(&self.url).expect("url").connect().await.expect("connect")
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `kill -9`: no shutdown, no flush. Returns the data directory.
    pub fn kill9(mut self) -> PathBuf {
        self.child.kill().expect("SIGKILL");
        let _ = self.child.wait();
        self.cleanup = false;
        self.data_dir.clone()
    }

    /// Sends SIGTERM and waits for the exit status (unix only), within
    /// the hang guard.
    #[cfg(unix)]
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let start = std::time::Instant::now();
        while start.elapsed() < HANG_GUARD {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("server did not exit within {HANG_GUARD:?} of SIGTERM");
    }

    /// Sends SIGTERM, waits for the exit and keeps the data directory
    /// (unix only).
    #[cfg(unix)]
    pub fn terminate_keep(self) -> PathBuf {
        self.terminate_keep_status().0
    }

    /// [`Server::terminate_keep`], with the exit status (unix only).
    #[cfg(unix)]
    pub fn terminate_keep_status(mut self) -> (PathBuf, std::process::ExitStatus) {
        self.cleanup = false;
        let dir = self.data_dir.clone();
        let status = self.terminate();
        (dir, status)
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.data_dir.join("server.log")).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.cleanup && !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.data_dir);
        }
    }
}

/// An `xodus-ai` process, killed when the test ends (pass or fail).
pub struct Agent(pub Child);

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Agent {
    /// Starts `xodus-ai --fill` with `policy` on `url`, logging to `dir/ai.log`.
    pub fn spawn_fill(url: &str, dir: &Path, policy: &str) -> Agent {
        Agent::spawn_fill_with(url, dir, policy, &[])
    }

    /// The same, with `extra` flags for the agent.
    pub fn spawn_fill_with(url: &str, dir: &Path, policy: &str, extra: &[&str]) -> Agent {
        let log = std::fs::File::create(dir.join("ai.log")).expect("agent log");
        Agent(
            Command::new(ai_binary())
                .args(["--server", url, "--fill", "--policy", policy, "--think-ms", "20"])
                .args(extra)
                .env("RUST_LOG", "info")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::from(log))
                .spawn()
                .expect("spawn xodus-ai"),
        )
    }

    /// Sends SIGTERM and waits up to `guard` for the exit status (unix only).
    #[cfg(unix)]
    pub fn terminate(&mut self, guard: Duration) -> std::process::ExitStatus {
        let pid = self.0.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let start = std::time::Instant::now();
        while start.elapsed() < guard {
            if let Ok(Some(status)) = self.0.try_wait() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("xodus-ai did not exit within {guard:?} of SIGTERM");
    }
}

/// A 3-ship game with a fixed seed, seats open to anyone.
pub fn create_request(seed: u64) -> pb::CreateGameRequest {
    game_request(seed, &[pb::SeatOpenTo::Any; 3])
}

/// A Casual game with a fixed seed, one ship per entry of `seats`, each
/// seat open to whom its entry says.
pub fn game_request(seed: u64, seats: &[pb::SeatOpenTo]) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        kind: pb::GameKind::Xodus as i32,
        seats: seats.iter().map(|&s| s as i32).collect(),
        game_type: String::new(),
        setup: Some(tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
            ship_count: seats.len() as u32,
            seed: Some(seed),
            difficulty: "casual".into(),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// A two-commander VII Legio game of at most 6 rounds under `clock`, its
/// spectators seeing it as it is (VII Legio's default delays them).
pub fn legio_clocked(seats: [pb::SeatOpenTo; 2], clock: pb::ClockRules) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: seats.iter().map(|&s| s as i32).collect(),
        setup: Some(pb::create_game_request::Setup::GameSetup(tabletop::any::pack(&tabletop::legio_pb::LegioSetup {
            players: 2,
            round_limit: Some(6),
            ..Default::default()
        }))),
        clock: Some(clock),
        spectator_policy: pb::SpectatorPolicy::Public as i32,
        ..Default::default()
    }
}

/// Creates a seeded game; returns its id.
pub async fn create_game(c: &mut GameServiceClient<Channel>, seed: u64) -> String {
    create_from(c, create_request(seed)).await
}

/// Creates the game `request` describes; returns its id.
pub async fn create_from(c: &mut GameServiceClient<Channel>, request: pb::CreateGameRequest) -> String {
    create_as_creator(c, request).await.0
}

/// Creates the game `request` describes; returns its id and the creator
/// token (which reads the seed of the live game and forks it exactly).
pub async fn create_as_creator(c: &mut GameServiceClient<Channel>, request: pb::CreateGameRequest) -> (String, String) {
    let r = c.create_game(request).await.expect("create").into_inner();
    (r.game.expect("game").game_id, r.creator_token)
}

/// Claims every seat of a 3-seat game; returns the tokens in seat order.
pub async fn claim_all(c: &mut GameServiceClient<Channel>, game_id: &str) -> Vec<String> {
    claim_seats(c, game_id, 3).await
}

/// Claims seats 0 to `seats - 1` of a game as a human; returns the tokens
/// in seat order.
pub async fn claim_seats(c: &mut GameServiceClient<Channel>, game_id: &str, seats: u32) -> Vec<String> {
    let mut tokens = Vec::new();
    for seat in 0..seats {
        tokens.push(claim_human(c, game_id, seat).await);
    }
    tokens
}

/// Claims `seat` of `game_id` as a person; its token.
pub async fn claim_human(c: &mut GameServiceClient<Channel>, game_id: &str, seat: u32) -> String {
    c.claim_seat(pb::ClaimSeatRequest {
        game_id: game_id.into(),
        seat,
        claimant: pb::Claimant::Human as i32,
        token: String::new(),
    })
    .await
    .expect("claim")
    .into_inner()
    .token
}

/// The spectator's state of a game.
pub async fn state(c: &mut GameServiceClient<Channel>, game_id: &str) -> pb::GameState {
    c.get_view(pb::GetViewRequest { game_id: game_id.into(), credentials: None, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state")
}

/// Credentials of a seat.
pub fn creds(tokens: &[String], seat: u32) -> Option<pb::SeatCredentials> {
    Some(pb::SeatCredentials { seat, token: tokens[seat as usize].clone() })
}

/// Submits the first offered option with the first seat allowed to pick it.
pub async fn play_first(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    tokens: &[String],
) -> pb::SubmitChoiceResponse {
    let s = state(c, game_id).await;
    let o = s.decision.expect("decision").options.into_iter().next().expect("an option before the end");
    let seat = o.seats[0];
    c.submit_choice(pb::SubmitChoiceRequest {
        game_id: game_id.into(),
        credentials: creds(tokens, seat),
        expected_seq: Some(s.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId(o.id)),
    })
    .await
    .expect("submit")
    .into_inner()
}
