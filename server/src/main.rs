//! `xodus-server`: command-line flags (each with an env variable), logging,
//! binding the listen addresses (TCP and/or Unix sockets), printing
//! `listening on ADDR` on stdout for each, in the order given (tests and
//! the CLI read the first line), and running until SIGTERM or Ctrl-C.
//! A data directory another process holds is refused before anything is
//! bound (`tabletop_service::DataDirLock`).

use anyhow::Context;
use clap::Parser;
use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tabletop_service::{DataDirLock, Limits, Listener, NodeConfig, ServerConfig, Storage, WebConfig};

/// Every call allocates request, state and reply buffers on one thread and
/// often frees them on another; mimalloc handles that with less contention
/// than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Hosts X-ODUS and VII Legio games over gRPC (with gRPC-Web, health and reflection).
#[derive(Parser, Debug)]
#[command(name = "xodus-server", version)]
struct Args {
    /// Address to listen on: HOST:PORT (port 0 picks a free port), or
    /// unix:PATH for a Unix socket that only clients on this host can
    /// reach (as its file's permissions allow). Repeat it (or separate
    /// with commas) to listen on several, e.g. TCP for players and a
    /// socket for AI agents on this host.
    #[arg(long, env = "TABLETOP_LISTEN", default_value = "127.0.0.1:50051", value_parser = parse_listen, value_delimiter = ',')]
    listen: Vec<ListenAt>,
    /// Directory of the SQLite database (created on first start).
    #[arg(long, env = "TABLETOP_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// Keep games in memory only (nothing survives a restart).
    #[arg(long, env = "TABLETOP_IN_MEMORY", conflicts_with = "database")]
    in_memory: bool,
    /// Keep games in PostgreSQL instead of SQLite:
    /// postgres://USER@HOST:PORT/DB (several nodes may share one; each
    /// names itself with TABLETOP_NODE_ID, default the host's name).
    #[arg(long, env = "TABLETOP_DATABASE", value_parser = parse_database)]
    database: Option<String>,
    /// This node's name among the nodes sharing --database (default: the
    /// host's name). Two live nodes must not share one; a node restarted
    /// under its name takes its games back at once.
    #[arg(long, env = "TABLETOP_NODE_ID")]
    node_id: Option<String>,
    /// The URL the other nodes reach this node's gRPC at, e.g.
    /// http://10.0.0.5:50051 (default: the first --listen address, unless
    /// it is a wildcard such as 0.0.0.0). With --database only.
    #[arg(long, env = "TABLETOP_ADVERTISE", value_parser = parse_advertise)]
    advertise: Option<String>,
    /// How long a node owns its games without renewing (milliseconds):
    /// a dead node's games move to the others this long after its last
    /// renewal, plus up to a second. With --database only.
    #[arg(long, env = "TABLETOP_LEASE_TTL_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(500..=600_000))]
    lease_ttl_ms: u64,
    /// Log as JSON lines (level from RUST_LOG, default info).
    #[arg(long, env = "TABLETOP_LOG_JSON")]
    log_json: bool,
    /// Live games (not finished or abandoned) hosted at once.
    #[arg(long, env = "TABLETOP_MAX_GAMES", default_value_t = Limits::default().max_games)]
    max_games: usize,
    /// Live games one client (IP address) may have created since the start.
    #[arg(long, env = "TABLETOP_MAX_GAMES_PER_CLIENT", default_value_t = Limits::default().max_games_per_client)]
    max_games_per_client: usize,
    /// Streams one client (IP address) may hold open.
    #[arg(long, env = "TABLETOP_MAX_STREAMS_PER_CLIENT", default_value_t = Limits::default().max_streams_per_client)]
    max_streams_per_client: usize,
    /// Requests per second one client (IP address) may send, with a burst
    /// of as many.
    #[arg(long, env = "TABLETOP_RATE_LIMIT", default_value_t = Limits::default().requests_per_second)]
    rate_limit: u32,
    /// Connections open at once; more are closed as soon as accepted.
    #[arg(long, env = "TABLETOP_MAX_CONNECTIONS", default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Largest request message in bytes; larger ones are refused with
    /// RESOURCE_EXHAUSTED.
    #[arg(long, env = "TABLETOP_MAX_MESSAGE_BYTES", default_value_t = Limits::default().max_message_bytes)]
    max_message_bytes: usize,
    /// Seconds without a choice after which a live game ends as abandoned
    /// (0 = never).
    #[arg(long, env = "TABLETOP_ABANDON_AFTER", default_value_t = Limits::default().abandon_after.as_secs())]
    abandon_after_secs: u64,
    /// Seconds an ended (finished or abandoned) game stays readable before
    /// it is deleted (0 = kept forever).
    #[arg(long, env = "TABLETOP_RETENTION", default_value_t = Limits::default().retention.as_secs())]
    retention_secs: u64,
    /// Refuse games whose creator chooses the seed: such a game's hidden
    /// cards are only as secret as the seed (GameSummary.seed_chosen).
    /// Forks are then always resampled (a fresh server seed from the fork's
    /// seq on), never exact: an exact fork would run on a seed its creator,
    /// or anyone once the source is over, can read. For servers where
    /// strangers share tables.
    #[arg(long, env = "TABLETOP_REFUSE_CHOSEN_SEEDS")]
    refuse_chosen_seeds: bool,
    /// Also host the demonstration game High Card, a two-seat card game
    /// that shows how a game the service was not written for plugs in.
    #[arg(long, env = "TABLETOP_DEMO_GAMES")]
    demo_games: bool,
    /// Seconds a human seat may stay silent while a new game waits on it
    /// before it is offered to AI agents until its holder returns (0 = never).
    #[arg(long, env = "TABLETOP_IDLE_TIMEOUT", default_value_t = 0)]
    idle_timeout_secs: u32,
    /// Seat leases, in seconds: a seat the game waits on whose holder has
    /// no stream open and was not heard from for this long is taken back
    /// (an AI's seat is freed for the AI pool; a human's, after three times
    /// as long, goes to AI stand-ins until its holder returns). 0 = never.
    #[arg(long, env = "TABLETOP_SEAT_LEASE", default_value_t = Limits::default().seat_lease.as_secs())]
    seat_lease_secs: u64,
    /// An AI holder's lease, in milliseconds (never longer than the seat
    /// lease): every seat an AI holds, waited on or not, whose holder has
    /// no stream open on it and was not heard from for this long is freed
    /// for the AI pool, so a killed agent's seats come free together.
    #[arg(long, env = "TABLETOP_AI_SEAT_LEASE_MS", default_value_t = Limits::default().ai_seat_lease.as_millis() as u64)]
    ai_seat_lease_ms: u64,
    /// Games one client address (or agent key) may follow at once over
    /// FollowGames (one stream carries many; they do not count against
    /// --max-streams-per-client).
    #[arg(long, env = "TABLETOP_MAX_FOLLOWS_PER_CLIENT", default_value_t = Limits::default().max_follows_per_client)]
    max_follows_per_client: usize,
    /// Seconds a game may stay untouched in memory before it leaves it, to
    /// be replayed from storage when touched again (0 = never).
    #[arg(long, env = "TABLETOP_EVICT_IDLE", default_value_t = Limits::default().evict_idle.as_secs())]
    evict_idle_secs: u64,
    /// Seconds open connections get to close after SIGTERM or Ctrl-C
    /// before the server stops without them.
    #[arg(long, env = "TABLETOP_SHUTDOWN_GRACE", default_value_t = Limits::default().shutdown_grace.as_secs())]
    shutdown_grace_secs: u64,
    /// Deadline of a request, in seconds.
    #[arg(long, env = "TABLETOP_REQUEST_TIMEOUT", default_value_t = 10)]
    request_timeout_secs: u64,
    /// Microseconds a choice waiting alone for its commit, and the SQLite
    /// writer between commits, poll instead of sleeping: on a virtual
    /// machine this cuts a quiet game's acknowledgement by about a third,
    /// for up to this much CPU per choice (0 = sleep at once). Default:
    /// 300 on SQLite; 0 with --database, whose commit takes longer than
    /// polling is worth (it only burns the CPU PostgreSQL needs).
    #[arg(long, env = "TABLETOP_COMMIT_POLL_US")]
    commit_poll_us: Option<u64>,
    /// A directory of static files (the built web front-end, `web/dist`)
    /// to serve at `/` on the API's port.
    #[arg(long, env = "TABLETOP_WEB_DIR")]
    web_dir: Option<PathBuf>,
    /// An origin allowed to call the API from its own pages over gRPC-Web
    /// (repeatable, e.g. http://localhost:5173; `*` for any). Default:
    /// none; a page served with --web-dir is same-origin and needs none.
    #[arg(long = "cors-origin", env = "TABLETOP_CORS_ORIGINS", value_delimiter = ',')]
    cors_origins: Vec<String>,
    /// A file of agent keys (one a line: KEY or NAME KEY, `#` comments),
    /// for AI agent processes the operator trusts: a call carrying one as
    /// `x-agent-key` counts against the agent caps below, not against its
    /// address's; an unknown key is UNAUTHENTICATED.
    #[arg(long, env = "TABLETOP_AGENT_KEY_FILE")]
    agent_key_file: Option<PathBuf>,
    /// Streams one agent key may hold open at once.
    #[arg(long, env = "TABLETOP_AGENT_MAX_STREAMS", default_value_t = 8192)]
    agent_max_streams: usize,
    /// Requests per second one agent key may send, with a burst of as many.
    #[arg(long, env = "TABLETOP_AGENT_RATE_LIMIT", default_value_t = 50_000)]
    agent_rate_limit: u32,
    /// Load balancers (IP addresses, comma-separated) whose
    /// x-forwarded-for header is believed: their calls count against the
    /// client the header names last, not against the balancer.
    #[arg(long = "trusted-proxy", env = "TABLETOP_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Serve the operator's figures (OpenMetrics text at `GET /metrics`:
    /// calls, streams, games, commits, leases held and taken over, the
    /// node's start time) on this HOST:PORT, apart from the game port; off
    /// when not given.
    #[arg(long, env = "TABLETOP_METRICS_LISTEN")]
    metrics_listen: Option<std::net::SocketAddr>,
}

/// Where `--listen` says to listen.
#[derive(Clone, Debug)]
enum ListenAt {
    /// A TCP address.
    Tcp(SocketAddr),
    /// A Unix socket's path.
    Unix(PathBuf),
}

fn parse_listen(s: &str) -> Result<ListenAt, String> {
    if let Some(path) = s.strip_prefix("unix:") {
        if path.is_empty() {
            return Err("unix: needs a path, e.g. unix:/run/xodus/server.sock".into());
        }
        return Ok(ListenAt::Unix(PathBuf::from(path)));
    }
    s.parse().map(ListenAt::Tcp).map_err(|e| format!("{e}: expected HOST:PORT (e.g. 127.0.0.1:50051) or unix:PATH"))
}

fn parse_advertise(s: &str) -> Result<String, String> {
    if s.starts_with("http://") || s.starts_with("https://") {
        Ok(s.trim_end_matches('/').to_string())
    } else {
        Err(format!("'{s}' is not a URL the other nodes can dial: write it as http://HOST:PORT"))
    }
}

fn parse_database(s: &str) -> Result<String, String> {
    if s.starts_with("postgres://") || s.starts_with("postgresql://") {
        Ok(s.to_string())
    } else {
        Err("expected a PostgreSQL URL, postgres://USER@HOST:PORT/DB (SQLite is the default: --data-dir)".into())
    }
}

fn init_logs(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

/// Resolves on Ctrl-C or SIGTERM. On unix the handlers are installed when
/// this is called, not when the future is first polled: the server calls
/// it before it binds, so a signal that comes while it starts up is not
/// left to the default action, which ends the process with no graceful
/// stop and nothing in the log.
fn shutdown_signal() -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut interrupt)) => Box::pin(async move {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = interrupt.recv() => {}
                }
            }),
            (Err(e), _) | (_, Err(e)) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM; only Ctrl-C stops the server gracefully");
                Box::pin(async {
                    let _ = tokio::signal::ctrl_c().await;
                })
            }
        }
    }
    #[cfg(not(unix))]
    {
        Box::pin(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Args = tabletop::env::parse();
    init_logs(args.log_json);
    let shutdown = shutdown_signal();
    let config = ServerConfig {
        registry: if args.demo_games { xodus_server::registry_with_demo() } else { xodus_server::registry() },
        storage: match (&args.database, args.in_memory) {
            (Some(url), _) => Storage::Postgres(url.clone()),
            (None, true) => Storage::Memory,
            (None, false) => Storage::Sqlite(args.data_dir.clone()),
        },
        limits: Limits {
            max_games: args.max_games,
            max_games_per_client: args.max_games_per_client,
            max_streams_per_client: args.max_streams_per_client,
            requests_per_second: args.rate_limit,
            max_connections: args.max_connections,
            max_message_bytes: args.max_message_bytes,
            abandon_after: Duration::from_secs(args.abandon_after_secs),
            retention: Duration::from_secs(args.retention_secs),
            request_timeout: Duration::from_secs(args.request_timeout_secs.max(1)),
            idle_timeout_s: args.idle_timeout_secs,
            seat_lease: Duration::from_secs(args.seat_lease_secs),
            ai_seat_lease: Duration::from_millis(args.ai_seat_lease_ms).min(Duration::from_secs(args.seat_lease_secs)),
            max_follows_per_client: args.max_follows_per_client,
            evict_idle: Duration::from_secs(args.evict_idle_secs),
            shutdown_grace: Duration::from_secs(args.shutdown_grace_secs),
            commit_poll: args.commit_poll_us.map_or_else(
                || if args.database.is_some() { Duration::ZERO } else { Limits::default().commit_poll },
                Duration::from_micros,
            ),
            refuse_chosen_seeds: args.refuse_chosen_seeds,
            trusted_proxies: args.trusted_proxies.clone(),
            ..Limits::default()
        }
        .with_agent_keys(args.agent_key_file.as_deref(), args.agent_max_streams, args.agent_rate_limit)?,
        web: WebConfig { dir: args.web_dir.clone(), cors_origins: args.cors_origins.clone() },
        node: NodeConfig {
            name: args.node_id.clone(),
            advertise: args.advertise.clone(),
            lease_ttl: Some(Duration::from_millis(args.lease_ttl_ms)),
        },
    };
    // One server per data directory, refused before it binds anything: a
    // second one would hold the same games and both would write. The
    // store opened below shares this lock; the OS lets it go when this
    // process ends, however it ends.
    let _dir_lock = match &config.storage {
        Storage::Sqlite(dir) => Some(DataDirLock::acquire(dir)?),
        _ => None,
    };
    let mut listeners = Vec::new();
    for at in &args.listen {
        listeners.push(match at {
            ListenAt::Tcp(addr) => Listener::Tcp(
                tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?,
            ),
            ListenAt::Unix(path) => {
                Listener::bind_unix(path).await.with_context(|| format!("cannot listen on unix:{}", path.display()))?
            }
        });
    }
    // One line per listener, in the order given, in one write: a reader
    // that stops after the first line (and closes the pipe) cannot make a
    // later line fail. A stdout nobody reads does not stop the server.
    let lines: String = listeners.iter().map(|l| format!("listening on {}\n", l.address())).collect();
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(lines.as_bytes()).and_then(|()| out.flush()) {
        tracing::warn!(error = %e, "could not print the listen addresses on stdout");
    }
    drop(out);
    if let Some(addr) = args.metrics_listen {
        let metrics =
            tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot serve metrics on {addr}"))?;
        tracing::info!(%addr, "serving metrics at /metrics");
        tokio::spawn(tabletop_service::metrics::serve(metrics, || {}));
    }
    tabletop_service::run_on(listeners, config, shutdown).await.context("server failed")?;
    Ok(())
}
