//! A throwaway PostgreSQL server for tests and benchmarks: Debian's
//! `postgresql` binaries (`initdb`, `pg_ctl`) in a fresh temp directory,
//! listening on 127.0.0.1 on a free port, run as the `postgres` user when
//! this process is root (PostgreSQL refuses to run as root). No Docker, no
//! mock. A watchdog shell holds the read end of a pipe whose write end this
//! process keeps: when the process exits, however it exits, the watchdog
//! stops the server and deletes its directory.
//!
//! Std only, so that any test crate or example can include it with
//! `#[path = ".../tests/common/postgres.rs"] mod postgres;`.
//!
//! Missing binaries fail loudly, as CI must; a local run without
//! PostgreSQL may set `XODUS_SKIP_POSTGRES_TESTS=1`, and then
//! [`TempPostgres::start_or_skip`] returns `None` and says so on stderr.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// The env variable that lets a local run skip the PostgreSQL tests.
pub const SKIP_ENV: &str = "XODUS_SKIP_POSTGRES_TESTS";

/// The env variable naming the directory of PostgreSQL's binaries.
pub const BIN_ENV: &str = "XODUS_PG_BIN";

/// How a server is started.
#[derive(Clone, Debug)]
pub struct PgSettings {
    /// `fsync` and `synchronous_commit` on (the defaults, what a benchmark
    /// of durable commits needs); off makes a test server faster.
    pub durable: bool,
    /// `max_connections`.
    pub max_connections: u32,
}

impl Default for PgSettings {
    fn default() -> Self {
        PgSettings { durable: false, max_connections: 100 }
    }
}

/// A running server; stopped (and its directory deleted) on drop or when
/// this process exits.
pub struct TempPostgres {
    /// Its directory (data directory and socket inside).
    pub dir: PathBuf,
    /// The port on 127.0.0.1.
    pub port: u16,
    /// Holds the watchdog's stdin: closing it stops the server.
    watchdog: Option<(Child, ChildStdin)>,
}

/// The directory of PostgreSQL's binaries: `$XODUS_PG_BIN`, else the
/// newest `/usr/lib/postgresql/*/bin` holding `initdb`.
pub fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(BIN_ENV) {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    // The effective uid without libc: /proc/self/status's "Uid:" line
    // lists real, effective, saved and filesystem uids.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(2).map(|uid| uid == "0"))
        .unwrap_or(false)
}

/// A command running `program` as the `postgres` user when we are root.
fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local address").port()
}

fn run(mut c: Command, what: &str) {
    let out = c.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl TempPostgres {
    /// Starts a server with the test settings; panics (with what to do)
    /// when PostgreSQL is not installed.
    pub fn start() -> TempPostgres {
        Self::start_with(&PgSettings::default())
    }

    /// As [`TempPostgres::start`], but `None` when `XODUS_SKIP_POSTGRES_TESTS`
    /// is set (a local run without PostgreSQL).
    pub fn start_or_skip() -> Option<TempPostgres> {
        if std::env::var_os(SKIP_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
            eprintln!("{SKIP_ENV} is set: skipping a PostgreSQL test");
            return None;
        }
        Some(Self::start())
    }

    /// Starts a server with `settings`.
    pub fn start_with(settings: &PgSettings) -> TempPostgres {
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL's binaries are missing (no /usr/lib/postgresql/*/bin/initdb, {BIN_ENV} unset): \
                 install them with `apt-get install -y postgresql`, or set {SKIP_ENV}=1 to skip these tests locally"
            )
        });
        static N: AtomicU32 = AtomicU32::new(0);
        // As root the server runs as `postgres`, which must reach the
        // directory: /tmp, whatever $TMPDIR says.
        let base = if is_root() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
        let dir = base.join(format!("xodus-pg-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the PostgreSQL temp dir");
        if is_root() {
            run(
                {
                    let mut c = Command::new("chown");
                    c.arg("postgres:postgres").arg(&dir);
                    c
                },
                "chown postgres the temp dir",
            );
        }
        let data = dir.join("data");
        let mut initdb = as_postgres(&bin.join("initdb"));
        initdb.arg("-D").arg(&data).args(["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || run(initdb, "initdb")));
        if let Err(why) = made {
            // Nothing started yet: leave nothing behind either.
            let _ = std::fs::remove_dir_all(&dir);
            std::panic::resume_unwind(why);
        }
        let on_off = if settings.durable { "on" } else { "off" };
        let mut last_err = String::new();
        for _attempt in 0..3 {
            let port = free_port();
            let options = format!(
                "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='{}' \
                 -c max_connections={} -c fsync={on_off} -c synchronous_commit={on_off} \
                 -c full_page_writes={on_off}",
                dir.display(),
                settings.max_connections
            );
            let mut start = as_postgres(&bin.join("pg_ctl"));
            start
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(dir.join("log"))
                .args(["-w", "-t", "120", "-o", &options, "start"])
                .stdin(Stdio::null());
            let out = start.output().unwrap_or_else(|e| panic!("pg_ctl start: cannot run: {e}"));
            if out.status.success() {
                let watchdog = Self::watchdog(&bin, &dir, &data);
                return TempPostgres { dir, port, watchdog: Some(watchdog) };
            }
            last_err = format!(
                "{}{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                std::fs::read_to_string(dir.join("log")).unwrap_or_default()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        panic!("pg_ctl start failed three times:\n{last_err}");
    }

    /// A shell that waits for its stdin to close, then stops the server
    /// and deletes its directory.
    fn watchdog(bin: &Path, dir: &Path, data: &Path) -> (Child, ChildStdin) {
        let script = r#"read _unused; "$1" -D "$2" -m immediate -s stop >/dev/null 2>&1; rm -rf "$3""#;
        let mut c = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", "sh", "-c", script, "sh"]);
            c
        } else {
            let mut c = Command::new("sh");
            c.args(["-c", script, "sh"]);
            c
        };
        let mut child = c
            .arg(bin.join("pg_ctl"))
            .arg(data)
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the PostgreSQL watchdog");
        let stdin = child.stdin.take().expect("watchdog stdin");
        (child, stdin)
    }

    /// The URL of database `db` (see [`TempPostgres::create_database`]).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// Creates an empty database `db` and returns its URL.
    pub fn create_database(&self, db: &str) -> String {
        let bin = bin_dir().expect("PostgreSQL binaries");
        let mut c = Command::new(bin.join("psql"));
        c.args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(self.port.to_string())
            .args(["-d", "postgres", "-c"])
            .arg(format!("CREATE DATABASE \"{db}\""));
        run(c, "CREATE DATABASE");
        self.url(db)
    }

    /// A fresh database with a unique name, returning its URL.
    pub fn fresh_database(&self, tag: &str) -> String {
        static N: AtomicU32 = AtomicU32::new(0);
        self.create_database(&format!("{tag}_{}", N.fetch_add(1, Ordering::Relaxed)))
    }

    /// Restarts the server (fast shutdown: every connection is cut), with
    /// the same settings and port.
    pub fn restart(&self) {
        let bin = bin_dir().expect("PostgreSQL binaries");
        let mut c = as_postgres(&bin.join("pg_ctl"));
        c.arg("-D").arg(self.dir.join("data")).args(["-w", "-t", "120", "-m", "fast", "restart"]).stdin(Stdio::null());
        c.stdout(Stdio::null());
        run(c, "pg_ctl restart");
    }

    /// Stops the server now (what drop does).
    pub fn stop(&mut self) {
        if let Some((mut child, mut stdin)) = self.watchdog.take() {
            let _ = stdin.write_all(b"stop\n");
            drop(stdin);
            let _ = child.wait();
        }
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        self.stop();
    }
}
