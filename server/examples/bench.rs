//! Service benchmark: starts the server in-process on 127.0.0.1:0 (SQLite in
//! a temp directory, or memory with `--memory`), creates games, and lets N
//! concurrent clients (one connection each) play them as fast as they can,
//! once per client count of `--clients` and way of sending choices of
//! `--via` (a SubmitChoice call each, or messages on open Play streams),
//! each on a fresh server. Prints
//! acknowledged choices per second, choice latency p50/p99, and the
//! memory one hosted game costs (resident set size growth per game).
//!
//! With SQLite it first measures the limit in the same run, on the same
//! directory's disk: a loop that overwrites 64 bytes of a small file and
//! calls `File::sync_all` (fsync), one after another; every figure is then
//! printed as a ratio to that serial write+fsync rate, against the targets
//! of issue #30 (16 clients: >= 4x with p99 <= 5 ms; 1 client: >= 0.5x).
//! Each run of 16 or more clients is then repeated on the same store with
//! no fsync at all (`synchronous=OFF`, not durable): a ceiling that shows
//! what the durable path costs on these cores apart from the disk.
//!
//! Each run also measures the transport's own limit on the same machine:
//! the same number of clients calling the empty gRPC health check, on this
//! server and on a bare tonic server, since client and server share the
//! two cores and no acknowledged choice can be cheaper than an empty call.
//!
//! `cargo run --release -p xodus-server --example bench -- --clients 1,16 --games 64 [--choices 40] [--memory]`
//!
//! `--stored 100000` measures a restart over many stored games instead
//! (`bench/stored.rs`; needs `cargo build --release --bins` first).
//!
//! `--postgres` keeps the games in PostgreSQL instead: a throwaway server
//! started from the distribution's binaries (`tests/common/postgres.rs`)
//! with the durable defaults (`fsync=on`, `synchronous_commit=on`), and
//! measures that server's serial-commit ceiling first with its own
//! `pgbench`: one small insert per transaction, one after another (and
//! the same with 16 clients at once, PostgreSQL's own group commit).

#[path = "bench/nodes.rs"]
mod nodes;
#[path = "bench/stored.rs"]
mod stored;

#[path = "../../tests/common/postgres.rs"]
mod pg_harness;

use clap::Parser;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::dial::Target;
use tabletop::pb;
use tabletop_service::{Limits, ServerConfig, Storage};
use tonic::transport::Channel;

/// The allocator `xodus-server` uses, so the figures are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Benchmark flags.
#[derive(Parser, Debug)]
struct Args {
    /// Concurrent clients, one connection each; one run per count listed.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 16])]
    clients: Vec<usize>,
    /// Games played (spread over the clients).
    #[arg(long, default_value_t = 64)]
    games: usize,
    /// Choices per game (fewer if a game ends first). The default plays
    /// each game to its end (about 330 choices for 4 ships), so a game's
    /// creation, seat claims and stream openings weigh on the rate as they
    /// do in real play.
    #[arg(long, default_value_t = 10_000)]
    choices: usize,
    /// Extra idle games hosted to measure memory per game.
    #[arg(long, default_value_t = 1000)]
    memory_games: usize,
    /// Keep games in memory instead of SQLite.
    #[arg(long)]
    memory: bool,
    /// Instead: store this many games, start `xodus-server` over them, and
    /// measure the time to SERVING and the resident set.
    #[arg(long)]
    stored: Option<usize>,
    /// Write+fsync iterations of the serial limit loop.
    #[arg(long, default_value_t = 3000)]
    fsyncs: usize,
    /// Play against this running server (e.g. `http://127.0.0.1:50051`)
    /// instead of one started in-process: to run the server as its own
    /// process, pinned to its own cores (`taskset`). Start it with a rate
    /// limit and a per-client game cap the bench cannot reach, e.g.
    /// `xodus-server --in-memory --rate-limit 1000000 --max-games-per-client 1000000`.
    #[arg(long)]
    server: Option<String>,
    /// How choices are sent: `submit` (a SubmitChoice call each) and/or
    /// `play` (one open Play stream per seat); one run per way and count.
    #[arg(long, value_delimiter = ',', default_values_t = [Via::Submit, Via::Play])]
    via: Vec<Via>,
    /// Serve the in-process server on a Unix socket (in the bench's
    /// directory) instead of loopback TCP, as for clients on the same host.
    #[arg(long)]
    unix: bool,
    /// How long a choice waiting alone for its commit, and the SQLite
    /// writer between batches, poll before sleeping, in microseconds (the
    /// server's `--commit-poll-us`; by default as the server: 300 on
    /// SQLite, 0 on PostgreSQL).
    #[arg(long)]
    commit_poll_us: Option<u64>,
    /// Also hold a StreamGame open for each seat of each game, as the
    /// seats' front-ends and AI agents do: every choice is then sent to
    /// four watchers as well as answered. (With `--server`, start it with
    /// `--max-streams-per-client` above 8 times the clients.)
    #[arg(long)]
    watch: bool,
    /// Keep games in a throwaway PostgreSQL (see the top of this file).
    #[arg(long, conflicts_with = "memory")]
    postgres: bool,
    /// Transactions of each pgbench run of the serial-commit ceiling.
    #[arg(long, default_value_t = 3000)]
    pg_commits: usize,
    /// With --postgres: also run the clients of --clients on this many
    /// nodes sharing the database (each count listed; see bench/nodes.rs).
    #[arg(long, value_delimiter = ',', requires = "postgres")]
    nodes: Vec<usize>,
}

/// How the bench's clients send their choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Via {
    /// One SubmitChoice call per choice.
    Submit,
    /// One message per choice on an open Play stream (one per seat).
    Play,
}

impl std::fmt::Display for Via {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Via::Submit => "submit",
            Via::Play => "play",
        })
    }
}

/// The serial limit: overwrite 64 bytes of a file in `dir`, then fsync it
/// (`File::sync_all`), `n` times one after another. Returns the rate per
/// second and the latencies, sorted.
fn fsync_loop(dir: &std::path::Path, n: usize) -> anyhow::Result<(f64, Vec<Duration>)> {
    use std::io::{Seek, Write};
    std::fs::create_dir_all(dir)?;
    let path = dir.join("fsync-probe");
    let mut f = std::fs::File::create(&path)?;
    let mut lat = Vec::with_capacity(n);
    let started = Instant::now();
    for i in 0..n {
        let t = Instant::now();
        f.seek(std::io::SeekFrom::Start(0))?;
        f.write_all(&[(i % 251) as u8; 64])?;
        f.sync_all()?;
        lat.push(t.elapsed());
    }
    let rate = n as f64 / started.elapsed().as_secs_f64();
    std::fs::remove_file(&path)?;
    lat.sort();
    Ok((rate, lat))
}

/// One run's figures.
struct Run {
    via: Via,
    clients: usize,
    rate: f64,
    p99: Duration,
    /// The transport's own limit on the same server: empty health checks.
    floor: f64,
    /// The same for one message each way on an open stream.
    streamed: f64,
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// CPU time this process has used so far (user + system, every thread),
/// from `/proc/self/stat` (clock ticks of 10 ms): divided by the choices of
/// a run, what a choice costs client and server together. When both cores
/// are busy it only mirrors the rate; it tells more when they are not.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name, which is in parentheses.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let ticks: u64 = rest.split_whitespace().skip(11).take(2).filter_map(|f| f.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 10)
}

fn create(seed: u64) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        kind: pb::GameKind::Xodus as i32,
        seats: vec![pb::SeatOpenTo::Any as i32; 4],
        game_type: String::new(),
        setup: Some(tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
            ship_count: 4,
            seed: Some(seed),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// Creates a game, claims its seats, plays it by `via`; returns the
/// latencies of the choices and the encoded size of the replies.
async fn play(
    c: &mut GameServiceClient<Channel>,
    via: Via,
    seed: u64,
    choices: usize,
    watch: bool,
) -> anyhow::Result<(Vec<Duration>, usize)> {
    use tokio_stream::StreamExt;
    let game = c.create_game(create(seed)).await?.into_inner().game.ok_or_else(|| anyhow::anyhow!("no game"))?;
    let mut tokens = Vec::new();
    for seat in 0..4 {
        let req = pb::ClaimSeatRequest { game_id: game.game_id.clone(), seat, ..Default::default() };
        tokens.push(c.claim_seat(req).await?.into_inner().token);
    }
    let mut watchers = tokio::task::JoinSet::new();
    if watch {
        for (seat, token) in tokens.iter().enumerate() {
            let credentials = Some(pb::SeatCredentials { seat: seat as u32, token: token.clone() });
            let req = pb::StreamGameRequest {
                game_id: game.game_id.clone(),
                from_seq: 0,
                credentials,
                seat_updates: false,
                ..Default::default()
            };
            let mut updates = c.stream_game(req).await?.into_inner();
            // Read every update, as a front-end would, until the game ends.
            watchers.spawn(async move {
                while let Some(Ok(u)) = updates.next().await {
                    std::hint::black_box(u);
                }
            });
        }
    }
    let played = match via {
        Via::Submit => play_by_submit(c, &game.game_id, &tokens, choices).await,
        Via::Play => play_by_stream(c, &game.game_id, &tokens, choices).await,
    };
    watchers.abort_all();
    played
}

/// The first option of `state`'s decision, and the seat that takes it.
fn first_option(state: &pb::GameState) -> Option<(u32, String)> {
    let o = state.decision.as_ref().and_then(|d| d.options.first())?;
    Some((*o.seats.first()?, o.id.clone()))
}

/// Plays with one SubmitChoice call per choice.
async fn play_by_submit(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    tokens: &[String],
    choices: usize,
) -> anyhow::Result<(Vec<Duration>, usize)> {
    use prost::Message;
    let view = pb::GetViewRequest { game_id: game_id.to_string(), credentials: None, ..Default::default() };
    let mut state = c.get_view(view).await?.into_inner().state.ok_or_else(|| anyhow::anyhow!("no state"))?;
    let mut lat = Vec::with_capacity(choices);
    let mut bytes = 0;
    for _ in 0..choices {
        let Some((seat, id)) = first_option(&state) else { break };
        let req = pb::SubmitChoiceRequest {
            game_id: game_id.to_string(),
            credentials: Some(pb::SeatCredentials { seat, token: tokens[seat as usize].clone() }),
            expected_seq: Some(state.seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(id)),
        };
        let t = Instant::now();
        let r = c.submit_choice(req).await?.into_inner();
        lat.push(t.elapsed());
        bytes += r.encoded_len();
        state = r.state.ok_or_else(|| anyhow::anyhow!("no state"))?;
    }
    Ok((lat, bytes))
}

/// Plays with one open Play stream per seat, a message per choice.
async fn play_by_stream(
    c: &mut GameServiceClient<Channel>,
    game_id: &str,
    tokens: &[String],
    choices: usize,
) -> anyhow::Result<(Vec<Duration>, usize)> {
    use pb::play_response::Kind;
    use prost::Message;
    use tokio_stream::StreamExt;
    let mut seats = Vec::new();
    let mut state = None;
    for (seat, token) in tokens.iter().enumerate() {
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        let open = pb::PlayOpen {
            game_id: game_id.to_string(),
            credentials: Some(pb::SeatCredentials { seat: seat as u32, token: token.clone() }),
        };
        tx.send(pb::PlayRequest { kind: Some(pb::play_request::Kind::Open(open)) }).await?;
        let mut answers = c.play(tokio_stream::wrappers::ReceiverStream::new(rx)).await?.into_inner();
        match answers.next().await.ok_or_else(|| anyhow::anyhow!("the Play stream closed"))??.kind {
            Some(Kind::Opened(s)) => state = state.or(Some(s)),
            other => anyhow::bail!("expected the opened state, got {other:?}"),
        }
        seats.push((tx, answers));
    }
    let mut state = state.ok_or_else(|| anyhow::anyhow!("no seats"))?;
    let mut lat = Vec::with_capacity(choices);
    let mut bytes = 0;
    for _ in 0..choices {
        let Some((seat, id)) = first_option(&state) else { break };
        let (tx, answers) = &mut seats[seat as usize];
        let choice =
            pb::PlayChoice { expected_seq: Some(state.seq), choice: Some(pb::play_choice::Choice::OptionId(id)) };
        let t = Instant::now();
        tx.send(pb::PlayRequest { kind: Some(pb::play_request::Kind::Choice(choice)) }).await?;
        let answer = answers.next().await.ok_or_else(|| anyhow::anyhow!("the Play stream closed"))??;
        lat.push(t.elapsed());
        bytes += answer.encoded_len();
        match answer.kind {
            Some(Kind::Accepted(r)) => state = r.state.ok_or_else(|| anyhow::anyhow!("no state"))?,
            other => anyhow::bail!("choice not accepted: {other:?}"),
        }
    }
    Ok((lat, bytes))
}

/// The same limit on a bare tonic server in this process that serves only
/// the health check (none of this server's layers: rate limit, CORS,
/// gRPC-Web, deadlines, connection cap).
/// Over a Unix socket in `unix_dir` when given, else loopback TCP.
async fn bare_floor(clients: usize, calls: usize, unix_dir: Option<&std::path::Path>) -> anyhow::Result<f64> {
    let (_r, svc) = tonic_health::server::health_reporter();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let stopped = async move {
        let _ = stopped.await;
    };
    let (url, server) = match unix_dir {
        Some(dir) => {
            let path = dir.join("bare.sock");
            let _ = std::fs::remove_file(&path);
            let listener = tokio::net::UnixListener::bind(&path)?;
            let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
            let server =
                tonic::transport::Server::builder().add_service(svc).serve_with_incoming_shutdown(incoming, stopped);
            (format!("unix:{}", path.display()), tokio::spawn(server))
        }
        None => {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let url = format!("http://{}", listener.local_addr()?);
            let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
            (
                url,
                tokio::spawn(
                    tonic::transport::Server::builder()
                        .add_service(svc)
                        .serve_with_incoming_shutdown(incoming, stopped),
                ),
            )
        }
    };
    let r = transport_floor(&url, clients, calls).await;
    let _ = stop.send(());
    server.await??;
    r
}

/// The transport's limit on the same server and connections: `clients`
/// clients calling the gRPC health check (an empty request, a two-byte
/// answer) as fast as they can, `calls` in all. Calls per second.
async fn transport_floor(url: &str, clients: usize, calls: usize) -> anyhow::Result<f64> {
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let mut c = HealthClient::new(Target::parse(url)?.connect().await?);
        let next = Arc::clone(&next);
        tasks.push(tokio::spawn(async move {
            while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < calls {
                c.check(HealthCheckRequest { service: String::new() }).await?;
            }
            Ok::<_, anyhow::Error>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(calls as f64 / started.elapsed().as_secs_f64())
}

/// The transport's limit for messages on open streams: `clients` clients,
/// each holding one bidirectional stream to this server's reflection
/// service, send a request and wait for its answer (a list of about 150
/// bytes), `calls` in all. Messages per second: what a choice sent on an
/// open stream, instead of a unary call, could at best reach.
async fn stream_floor(url: &str, clients: usize, calls: usize) -> anyhow::Result<f64> {
    use tokio_stream::StreamExt;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::{ServerReflectionRequest, server_reflection_request::MessageRequest};
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let ask = || ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut opened = Vec::new();
    for _ in 0..clients {
        let mut c = ServerReflectionClient::new(Target::parse(url)?.connect().await?);
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        tx.send(ask()).await?;
        let mut answers = c.server_reflection_info(tokio_stream::wrappers::ReceiverStream::new(rx)).await?.into_inner();
        answers.next().await.ok_or_else(|| anyhow::anyhow!("the stream closed"))??;
        opened.push((c, tx, answers));
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (c, tx, mut answers) in opened {
        let next = Arc::clone(&next);
        tasks.push(tokio::spawn(async move {
            let _client = c;
            while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < calls {
                tx.send(ask()).await?;
                answers.next().await.ok_or_else(|| anyhow::anyhow!("the stream closed"))??;
            }
            Ok::<_, anyhow::Error>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(calls as f64 / started.elapsed().as_secs_f64())
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Starts a fresh server, lets `clients` clients play, and (when
/// `memory_games` > 0) measures memory per hosted game.
async fn run_once(
    args: &Args,
    via: Via,
    clients: usize,
    dir: &std::path::Path,
    memory_games: usize,
    without_fsync: bool,
    postgres: Option<&str>,
) -> anyhow::Result<Run> {
    let (url, stop, server) = match &args.server {
        Some(url) => (url.clone(), None, None),
        None => {
            let _ = std::fs::remove_dir_all(dir.join("db"));
            let storage = match (postgres, args.memory, without_fsync) {
                (Some(pg), _, _) => Storage::Postgres(pg.to_string()),
                (None, true, _) => Storage::Memory,
                (None, false, false) => Storage::Sqlite(dir.join("db")),
                (None, false, true) => Storage::SqliteWithoutFsync(dir.join("db")),
            };
            let limits = Limits {
                max_games_per_client: usize::MAX,
                max_streams_per_client: usize::MAX,
                requests_per_second: 1_000_000,
                commit_poll: args.commit_poll_us.map_or_else(
                    || if args.postgres { Duration::ZERO } else { Limits::default().commit_poll },
                    Duration::from_micros,
                ),
                ..Limits::default()
            };
            let (listener, url) = if args.unix {
                std::fs::create_dir_all(dir)?;
                let listener = tabletop_service::Listener::bind_unix(&dir.join("bench.sock")).await?;
                let url = listener.address();
                (listener, url)
            } else {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let url = format!("http://{}", listener.local_addr()?);
                (tabletop_service::Listener::Tcp(listener), url)
            };
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let config = ServerConfig {
                storage,
                limits,
                registry: xodus_server::registry(),
                web: Default::default(),
                node: Default::default(),
            };
            let server = tokio::spawn(tabletop_service::run(listener, config, async move {
                let _ = stopped.await;
            }));
            tokio::time::sleep(Duration::from_millis(200)).await;
            (url, Some(stop), Some(server))
        }
    };

    let started = Instant::now();
    let cpu_before = cpu_time();
    let mut tasks = Vec::new();
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for _ in 0..clients {
        let mut c = GameServiceClient::new(Target::parse(&url)?.connect().await?);
        let (next, games, choices, watch) = (Arc::clone(&next), args.games, args.choices, args.watch);
        tasks.push(tokio::spawn(async move {
            let (mut lat, mut bytes) = (Vec::new(), 0);
            loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if g >= games {
                    return Ok::<_, anyhow::Error>((lat, bytes));
                }
                let (l, b) = play(&mut c, via, g as u64, choices, watch).await?;
                lat.extend(l);
                bytes += b;
            }
        }));
    }
    let (mut lat, mut bytes) = (Vec::new(), 0);
    for t in tasks {
        let (l, b) = t.await??;
        lat.extend(l);
        bytes += b;
    }
    let elapsed = started.elapsed();
    let cpu = cpu_time().saturating_sub(cpu_before);
    lat.sort();
    let (rate, p50, p99) = (lat.len() as f64 / elapsed.as_secs_f64(), pct(&lat, 0.5), pct(&lat, 0.99));
    println!(
        "storage={} over={} via={via} clients={} games={} acknowledged choices={} in {:.2}s: {:.0} choices/s, choice latency p50={:.2?} p99={:.2?}, {:.0} bytes per reply",
        match (&args.server, args.memory) {
            (Some(url), _) => format!("the server at {url}"),
            (None, true) => "memory".to_string(),
            (None, false) if postgres.is_some() => "postgres(synchronous_commit=on, fsync=on)".to_string(),
            (None, false) if without_fsync => "sqlite(synchronous=OFF, no fsync: a ceiling, not durable)".to_string(),
            (None, false) => "sqlite(synchronous=FULL)".to_string(),
        },
        if url.starts_with("unix:") { "unix-socket" } else { "tcp" },
        clients,
        args.games,
        lat.len(),
        elapsed.as_secs_f64(),
        rate,
        p50,
        p99,
        bytes as f64 / lat.len().max(1) as f64
    );
    println!(
        "cpu: {:.1} us of CPU per acknowledged choice, client and server together ({:.2}s of CPU in {:.2}s; the game's creation, seat claims and stream openings included)",
        cpu.as_secs_f64() * 1e6 / lat.len().max(1) as f64,
        cpu.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    // The transport's limits, measured after the run so they do not share
    // the cores with it.
    let floor = transport_floor(&url, clients, lat.len().max(1000)).await?;
    let bare = bare_floor(clients, lat.len().max(1000), url.starts_with("unix:").then_some(dir)).await?;
    let streamed = stream_floor(&url, clients, lat.len().max(1000)).await?;
    let run = Run { via, clients, rate, p99, floor, streamed };
    println!(
        "transport: {clients} clients calling the empty health check: {floor:.0} calls/s on this server, {bare:.0} calls/s on a bare tonic server; acknowledged choices reach {:.2}x of this server's",
        run.rate / floor
    );
    println!(
        "transport on open streams: {clients} clients, one bidirectional stream each, request and answer in turn: {streamed:.0} messages/s ({:.2}x the unary health check)",
        streamed / floor
    );

    if memory_games > 0 && args.server.is_none() {
        let mut c = GameServiceClient::new(Target::parse(&url)?.connect().await?);
        let before = rss_kib();
        for g in 0..memory_games {
            c.create_game(create(1_000_000 + g as u64)).await?;
        }
        let after = rss_kib();
        println!(
            "memory: {} more hosted games grew the resident set by {} KiB: about {:.1} KiB per game",
            memory_games,
            after.saturating_sub(before),
            after.saturating_sub(before) as f64 / memory_games.max(1) as f64
        );
    }
    if let (Some(stop), Some(server)) = (stop, server) {
        let _ = stop.send(());
        server.await??;
    }
    Ok(run)
}

/// What one rendering of a seat's state costs (the engine's view, the
/// labelled decision, the typed state packed in `Any`, the state hash):
/// the work a render shared per seq saves for every further viewer.
fn render_cost() -> anyhow::Result<()> {
    use prost::Message;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};
    let mut g = Game::new(GameConfig::random(5, 4, Difficulty::Casual))?;
    for i in 0..60 {
        let d = g.decision();
        let Some(o) = d.options.get(i % d.options.len().max(1)) else { break };
        let (seat, id) = (o.seats[0], o.id.clone());
        g.apply(seat, &id)?;
    }
    let n = 5_000;
    let t = Instant::now();
    let mut bytes = 0;
    for i in 0..n {
        bytes = std::hint::black_box(xodus_wire::game_state("g", i, &g, Viewer::Seat(0))).encoded_len();
    }
    println!(
        "render: {:.1} us per GameState of a seat, 60 choices into a 4-ship game ({bytes} bytes encoded)",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    // Every viewer of one seq (the four seats' streams and a spectator):
    // each rendered, or one rendering copied with each seat, as the server
    // does for a game that shows every viewer the same state.
    let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2), Viewer::Seat(3), Viewer::Spectator];
    let t = Instant::now();
    for i in 0..n / 5 {
        for v in viewers {
            std::hint::black_box(xodus_wire::game_state("g", i, &g, v));
        }
    }
    let each = t.elapsed().as_secs_f64() * 1e6 / (n / 5) as f64;
    let t = Instant::now();
    for i in 0..n / 5 {
        let shared = xodus_wire::game_state("g", i, &g, Viewer::Spectator);
        for v in viewers {
            let mut copy = shared.clone();
            copy.viewer_seat = match v {
                Viewer::Seat(s) => Some(u32::from(s)),
                Viewer::Spectator => None,
            };
            std::hint::black_box(copy);
        }
    }
    let shared = t.elapsed().as_secs_f64() * 1e6 / (n / 5) as f64;
    println!(
        "render, every viewer of one seq (4 seats and a spectator): {shared:.1} us shared, against {each:.1} us each rendered ({:.1}x)",
        each / shared
    );
    Ok(())
}

/// What the service's own work on one choice costs, without the transport
/// and on one core: over whole 4-ship games (the first option each time, as
/// the clients below play), the game cloned and the choice applied with its
/// events converted to messages, the mover's state rendered, and the reply
/// encoded and decoded again (the client's half of the codec).
fn work_cost() -> anyhow::Result<()> {
    use prost::Message;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};
    let (mut apply, mut render, mut codec) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut choices, mut bytes) = (0u64, 0usize);
    for seed in 0..16 {
        let mut game = Game::new(GameConfig::random(seed, 4, Difficulty::Casual))?;
        for _ in 0..5_000 {
            if game.outcome().is_some() {
                break;
            }
            let d = game.decision();
            let Some((&seat, id)) = d.options.first().and_then(|o| Some((o.seats.first()?, o.id.clone()))) else {
                break;
            };
            let t = Instant::now();
            let mut next = game.clone();
            let applied = next.apply(seat, &id)?;
            let events: Vec<pb::Event> = applied.iter().map(|e| xodus_wire::event(e, Some(next.public()))).collect();
            apply += t.elapsed();
            let t = Instant::now();
            let state = xodus_wire::game_state("g", choices, &next, Viewer::Seat(seat));
            render += t.elapsed();
            let t = Instant::now();
            let reply = pb::SubmitChoiceResponse { seq: choices, events, state: Some(state) }.encode_to_vec();
            bytes += reply.len();
            std::hint::black_box(pb::SubmitChoiceResponse::decode(reply.as_slice())?);
            codec += t.elapsed();
            game = next;
            choices += 1;
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / choices.max(1) as f64;
    println!(
        "work: {:.1} us per choice on one core without the transport ({choices} choices of 16 whole 4-ship games): apply with events {:.1}, the mover's state {:.1}, reply encoded and decoded {:.1} ({} bytes)",
        per(apply + render + codec),
        per(apply),
        per(render),
        per(codec),
        bytes / choices.max(1) as usize
    );
    Ok(())
}

/// pgbench on `db` of `pg`: `clients` clients (one connection each), each
/// transaction one small insert, `n` transactions in all. Returns the
/// transactions per second and the average latency as pgbench reports them.
fn pgbench(pg: &pg_harness::TempPostgres, db: &str, clients: usize, n: usize) -> anyhow::Result<(f64, String)> {
    let bin = pg_harness::bin_dir().ok_or_else(|| anyhow::anyhow!("no PostgreSQL binaries"))?;
    let script = pg.dir.join(format!("serial-{clients}.sql"));
    std::fs::write(&script, "INSERT INTO bench_serial (at) VALUES (1);\n")?;
    let psql = std::process::Command::new(bin.join("psql"))
        .args(["-X", "-q", "-h", "127.0.0.1", "-U", "postgres", "-p", &pg.port.to_string(), "-d", db, "-c"])
        .arg("CREATE TABLE IF NOT EXISTS bench_serial (n BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL)")
        .output()?;
    anyhow::ensure!(psql.status.success(), "psql: {}", String::from_utf8_lossy(&psql.stderr));
    let per_client = (n / clients).max(1);
    let out = std::process::Command::new(bin.join("pgbench"))
        .args(["-n", "-h", "127.0.0.1", "-U", "postgres", "-p", &pg.port.to_string()])
        .args(["-c", &clients.to_string(), "-j", &clients.min(2).to_string(), "-t", &per_client.to_string(), "-f"])
        .arg(&script)
        .arg(db)
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    anyhow::ensure!(out.status.success(), "pgbench: {text}{}", String::from_utf8_lossy(&out.stderr));
    let tps = text
        .lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l.split_whitespace().nth(2))
        .and_then(|t| t.parse::<f64>().ok())
        .ok_or_else(|| anyhow::anyhow!("no tps in pgbench's output: {text}"))?;
    let latency = text
        .lines()
        .find(|l| l.starts_with("latency average"))
        .map_or_else(String::new, |l| l.trim_start_matches("latency average = ").to_string());
    Ok((tps, latency))
}

/// `--postgres`: the serial-commit ceiling of a throwaway PostgreSQL, then
/// the service's runs on it, each on a fresh database and server.
async fn postgres_runs(args: &Args, dir: &std::path::Path) -> anyhow::Result<()> {
    let settings = pg_harness::PgSettings { durable: true, ..Default::default() };
    let pg = tokio::task::spawn_blocking(move || pg_harness::TempPostgres::start_with(&settings)).await?;
    pg.create_database("ceiling");
    let (serial, serial_lat) = pgbench(&pg, "ceiling", 1, args.pg_commits)?;
    println!(
        "limit: PostgreSQL serial commits (pgbench, 1 client, one small INSERT per transaction, fsync=on, synchronous_commit=on) in {}: {serial:.0}/s, latency average {serial_lat}",
        pg.dir.display()
    );
    let (grouped, grouped_lat) = pgbench(&pg, "ceiling", 16, args.pg_commits)?;
    println!(
        "limit: the same with 16 pgbench clients at once (PostgreSQL's own group commit): {grouped:.0}/s = {:.2}x serial, latency average {grouped_lat}",
        grouped / serial
    );
    let ways: Vec<(Via, usize)> =
        args.via.iter().flat_map(|&via| args.clients.iter().map(move |&clients| (via, clients))).collect();
    let mut runs = Vec::new();
    for (i, &(via, clients)) in ways.iter().enumerate() {
        let url = pg.create_database(&format!("run_{i}"));
        runs.push(run_once(args, via, clients, dir, 0, false, Some(&url)).await?);
    }
    for r in &runs {
        println!(
            "ratio: postgres, via {}, {} clients: {:.0} acknowledged choices/s = {:.2}x the serial-commit ceiling ({serial:.0}/s), {:.2}x 16 pgbench clients ({grouped:.0}/s), p99 {:.2?}",
            r.via,
            r.clients,
            r.rate,
            r.rate / serial,
            r.rate / grouped,
            r.p99
        );
    }
    let mut node_runs = Vec::new();
    for &n in &args.nodes {
        for spread in [false, true] {
            if n == 1 && spread {
                continue;
            }
            for &clients in &args.clients {
                let url = pg.create_database(&format!("nodes_{n}_{}_{clients}", u8::from(spread)));
                node_runs.push((clients, nodes::run(&url, n.max(1), spread, clients, args.games, args.choices).await?));
            }
        }
    }
    for (clients, r) in &node_runs {
        let one = node_runs.iter().find(|(c, o)| c == clients && o.nodes == 1).map(|(_, o)| o.rate);
        println!(
            "ratio: {} node(s), {}, {clients} clients: {:.0} acknowledged choices/s{}, p99 {:.2?}",
            r.nodes,
            if r.spread { "spread" } else { "affine" },
            r.rate,
            one.map(|o| format!(" = {:.2}x one node", r.rate / o)).unwrap_or_default(),
            r.p99
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    drop(pg);
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let dir = std::env::temp_dir().join(format!("xodus-bench-{}", std::process::id()));
    if let Some(n) = args.stored {
        return stored::run(n, &dir).await;
    }
    if args.postgres {
        return postgres_runs(&args, &dir).await;
    }
    render_cost()?;
    work_cost()?;
    let fsync = if args.memory {
        None
    } else {
        let (rate, lat) = fsync_loop(&dir, args.fsyncs)?;
        println!(
            "limit: serial write(64 B)+fsync (File::sync_all) in {}: {:.0}/s, p50={:.2?} p99={:.2?}",
            dir.display(),
            rate,
            pct(&lat, 0.5),
            pct(&lat, 0.99)
        );
        let poll = args.commit_poll_us.map_or(Limits::default().commit_poll, Duration::from_micros);
        let (probe_dir, n) = (dir.join("probe-store"), args.fsyncs);
        let appends =
            tokio::task::spawn_blocking(move || tabletop_service::probe::serial_appends(&probe_dir, n, poll)).await??;
        let store_rate = appends.len() as f64 / appends.iter().sum::<Duration>().as_secs_f64();
        let mut appends = appends;
        appends.sort();
        println!(
            "limit: the server's SQLite store alone, one durable append after another (no game, no transport): {:.0}/s = {:.2}x the fsync rate, p50={:.2?} p99={:.2?}",
            store_rate,
            store_rate / rate,
            pct(&appends, 0.5),
            pct(&appends, 0.99)
        );
        Some((rate, store_rate))
    };
    let mut runs = Vec::new();
    let ways: Vec<(Via, usize)> =
        args.via.iter().flat_map(|&via| args.clients.iter().map(move |&clients| (via, clients))).collect();
    for (i, &(via, clients)) in ways.iter().enumerate() {
        let last = i + 1 == ways.len();
        runs.push(run_once(&args, via, clients, &dir, if last { args.memory_games } else { 0 }, false, None).await?);
    }
    // The same clients against the same store with no fsync at all: what
    // the durable path costs apart from the disk, on these cores.
    let mut unsynced = Vec::new();
    if fsync.is_some() && args.server.is_none() {
        for &(via, clients) in ways.iter().filter(|(_, c)| *c >= 16) {
            unsynced.push(run_once(&args, via, clients, &dir, 0, true, None).await?);
        }
    }
    if let Some((limit, store_rate)) = fsync {
        for r in &runs {
            let (want, p99_ok) = match r.clients {
                1 => (0.5, true),
                n if n >= 16 => (4.0, r.p99 <= Duration::from_millis(5)),
                _ => (0.0, true),
            };
            let ratio = r.rate / limit;
            println!(
                "ratio: via {}, {} clients: {:.0}/s = {:.2}x the serial fsync rate (target >= {want}x{}): {}",
                r.via,
                r.clients,
                r.rate,
                ratio,
                if r.clients >= 16 { format!(", p99 {:.2?} <= 5 ms", r.p99) } else { String::new() },
                if ratio >= want && p99_ok { "met" } else { "NOT met" }
            );
            if r.clients == 1 {
                // One client waits for each answer before it sends its next
                // choice, so a choice costs at least one durable append
                // plus one empty round trip the same way (a unary call for
                // SubmitChoice, a message each way on an open stream for Play).
                let (trip, what) = match r.via {
                    Via::Submit => (r.floor, "an empty call"),
                    Via::Play => (r.streamed, "an empty message each way on an open stream"),
                };
                let ceiling = 1.0 / (1.0 / store_rate + 1.0 / trip);
                println!(
                    "ceiling: via {}, 1 client: one store append, then {what}, one after the other: {:.0}/s = {:.2}x the serial fsync rate; the run reached {:.0}% of it",
                    r.via,
                    ceiling,
                    ceiling / limit,
                    100.0 * r.rate / ceiling
                );
            }
            if let Some(u) = unsynced.iter().find(|u| u.via == r.via && u.clients == r.clients) {
                println!(
                    "ceiling: via {}, {} clients: the same SQLite store with no fsync at all (synchronous=OFF): {:.0}/s = {:.2}x the serial fsync rate; the durable run reached {:.0}% of it",
                    r.via,
                    r.clients,
                    u.rate,
                    u.rate / limit,
                    100.0 * r.rate / u.rate
                );
            }
        }
    } else {
        for r in &runs {
            println!(
                "ratio: memory, via {}, {} clients: {:.0}/s = {:.2}x the target of 25,000/s: {} (the empty health check reaches {:.0}/s here)",
                r.via,
                r.clients,
                r.rate,
                r.rate / 25_000.0,
                if r.rate >= 25_000.0 { "met" } else { "NOT met" },
                r.floor
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
