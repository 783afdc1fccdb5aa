//! Issue 51, end to end: three `xodus-server` nodes on one PostgreSQL,
//! tens of live X-ODUS games created through different nodes (some played
//! by `xodus-ai --fill` agents, some by this test through random nodes),
//! spectators streaming every game of a few through every node, and nodes
//! killed with SIGKILL one after another and restarted under the same
//! node id and port. Afterwards, read through any node: every acknowledged
//! choice is in the history with the option that was sent (none lost),
//! every history is seqs 1..n with no duplicate and no gap, every
//! spectator saw each seq once and in order (reopening on another node
//! from the last seq it saw), every node tells the same state of every
//! game, and no game is stuck. A summary line gives the figures.
//!
//! Sizes: `XODUS_FAILOVER_GAMES` (default 24), `XODUS_FAILOVER_KILLS`
//! (3), `XODUS_FAILOVER_SECS` (seconds of play after the last restart,
//! 10), `XODUS_FAILOVER_TTL_MS` (the nodes' lease, 3000);
//! `XODUS_FAILOVER_KEEP_LOGS=1` keeps the nodes' logs of a passing run;
//! `scripts/failover.sh` runs it bigger in release mode. Skipped when
//! `XODUS_SKIP_POSTGRES_TESTS=1`. Needs the binaries next to the test
//! executable: `cargo build -p xodus-server -p xodus-ai` first.

mod common;
#[path = "common/postgres.rs"]
mod pg;

use common::{Agent, HANG_GUARD, Server, creds, game_request, temp_dir};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::pb;
use tokio::sync::watch;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Nodes of the cluster.
const NODES: usize = 3;
/// Fill agents (each pinned to one node: agent k talks to node k).
const AGENTS: usize = 2;
/// Decisions of a game played at random, about (`xodus-ai selfplay
/// --policy random --ships 3`: 221 on 20 games); paces the games so that
/// most are still live when the last node is killed.
const DECISIONS_PER_GAME: f64 = 220.0;
/// Play before the first kill.
const WARMUP: Duration = Duration::from_secs(3);
/// Play between a restart and the next kill.
const UP_BETWEEN_KILLS: Duration = Duration::from_secs(3);
/// Past the lease: the survivors take the dead node's games over within
/// the lease's time and about a second, so a node stays down this much
/// longer than its lease.
const DOWN_PAST_LEASE: Duration = Duration::from_secs(2);
/// One call's deadline on the client side: a hang guard, far beyond a
/// slow machine's answer, so a call into a dying node cannot block a task.
const CALL_TIMEOUT: Duration = Duration::from_secs(20);
/// A spectator stream silent this long is reopened (a game whose agent
/// waits for its node is quiet, so this is no failure).
const STREAM_IDLE: Duration = Duration::from_secs(15);

/// The run's sizes.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    games: usize,
    kills: usize,
    secs: u64,
    ttl_ms: u64,
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

impl Sizes {
    fn from_env() -> Sizes {
        Sizes {
            games: env_or("XODUS_FAILOVER_GAMES", 24).max(2) as usize,
            kills: env_or("XODUS_FAILOVER_KILLS", 3) as usize,
            secs: env_or("XODUS_FAILOVER_SECS", 10),
            ttl_ms: env_or("XODUS_FAILOVER_TTL_MS", 3000).max(100),
        }
    }

    /// How long a node stays down.
    fn down(&self) -> Duration {
        Duration::from_millis(self.ttl_ms) + DOWN_PAST_LEASE
    }

    /// The planned play time, restarts not counted.
    fn planned(&self) -> Duration {
        WARMUP + (self.down() + UP_BETWEEN_KILLS) * self.kills as u32 + Duration::from_secs(self.secs)
    }
}

/// A small deterministic generator (SplitMix64): the test needs no more.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Lazy channels to every node: each reconnects on its own after its node
/// comes back.
#[derive(Clone)]
struct Pool {
    channels: Vec<Channel>,
}

impl Pool {
    fn new(urls: &[String]) -> Pool {
        let channels = urls
            .iter()
            .map(|u| {
                Endpoint::from_shared(u.clone())
                    .expect("node url")
                    .connect_timeout(Duration::from_secs(1))
                    .timeout(CALL_TIMEOUT)
                    .connect_lazy()
            })
            .collect();
        Pool { channels }
    }

    fn client(&self, node: usize) -> GameServiceClient<Channel> {
        GameServiceClient::new(self.channels[node % self.channels.len()].clone())
    }

    fn len(&self) -> usize {
        self.channels.len()
    }
}

/// What a failed call means to a client of the cluster.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// The node is gone or the game is moving: try again, on another node.
    Retry,
    /// ABORTED: someone moved first (or a retried choice had landed).
    Stale,
    /// FAILED_PRECONDITION: the game is over, or the rules refuse it now.
    Refused,
    /// Anything else: not in the contract.
    Unexpected,
}

fn classify(s: &tonic::Status) -> Failure {
    use tonic::Code;
    match s.code() {
        Code::Unavailable | Code::Cancelled | Code::DeadlineExceeded | Code::ResourceExhausted | Code::Unknown => {
            Failure::Retry
        }
        // A connection cut in the middle of a call (the node was killed)
        // reaches tonic as an h2 error.
        Code::Internal if is_transport(s) => Failure::Retry,
        Code::Aborted => Failure::Stale,
        Code::FailedPrecondition => Failure::Refused,
        _ => Failure::Unexpected,
    }
}

fn is_transport(s: &tonic::Status) -> bool {
    let m = s.message().to_ascii_lowercase();
    ["h2 protocol", "transport", "connection", "broken pipe", "stream no longer needed"].iter().any(|w| m.contains(w))
}

/// A cluster node: its address, data directory (its log) and flags.
struct Node {
    listen: String,
    dir: PathBuf,
    flags: Vec<String>,
    server: Option<Server>,
}

impl Node {
    fn url(&self) -> String {
        format!("http://{}", self.listen)
    }

    /// Starts (or restarts) the node on its fixed address, trying again
    /// while the address is not free yet, then waits until its health
    /// service says SERVING.
    async fn start(&mut self) {
        let (dir, listen, flags) = (self.dir.clone(), self.listen.clone(), self.flags.clone());
        let server = tokio::task::spawn_blocking(move || {
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            let begun = Instant::now();
            loop {
                match Server::try_start_at(dir.clone(), &listen, &flags) {
                    Ok(server) => return server,
                    Err(why) if begun.elapsed() > HANG_GUARD => panic!("no node on {listen}: {why}"),
                    Err(_) => std::thread::sleep(Duration::from_millis(200)),
                }
            }
        })
        .await
        .expect("start a node");
        self.server = Some(server);
        wait_serving(&self.url()).await;
    }

    fn kill9(&mut self) {
        if let Some(server) = self.server.take() {
            server.kill9();
        }
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join("server.log")
    }
}

/// Waits (within the hang guard) until `url`'s health service reports
/// the game service SERVING: the node reaches its store.
async fn wait_serving(url: &str) {
    let begun = Instant::now();
    loop {
        let ok = async {
            let channel = Endpoint::from_shared(url.to_string()).ok()?.connect().await.ok()?;
            let r = HealthClient::new(channel)
                .check(tonic_health::pb::HealthCheckRequest { service: tabletop::SERVICE_NAME.into() })
                .await
                .ok()?;
            (r.into_inner().status == ServingStatus::Serving as i32).then_some(())
        }
        .await;
        if ok.is_some() {
            return;
        }
        assert!(begun.elapsed() < HANG_GUARD, "{url} never reported SERVING");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local address").port()
}

/// Runs `call` against random nodes until it succeeds or fails for a
/// reason other than a node going away (within the hang guard).
async fn any_node<T, F, Fut>(pool: &Pool, rng: &mut Rng, what: &str, mut call: F) -> Result<T, tonic::Status>
where
    F: FnMut(GameServiceClient<Channel>) -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<T>, tonic::Status>>,
{
    let begun = Instant::now();
    loop {
        match call(pool.client(rng.below(pool.len()))).await {
            Ok(r) => return Ok(r.into_inner()),
            Err(e) if classify(&e) == Failure::Retry && begun.elapsed() < HANG_GUARD => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => return Err(tonic::Status::new(e.code(), format!("{what}: {}", e.message()))),
        }
    }
}

/// A game of the run.
struct Game {
    id: String,
    /// Seats played by the fill agents; else by this test.
    ai: bool,
}

/// What a playing task saw of its game.
#[derive(Default)]
struct PlayReport {
    /// Acknowledged choices: (seq from the reply, option id sent).
    acked: Vec<(u64, String)>,
    /// The longest wait between two acknowledgements (a figure: about
    /// the lease and a second when the game's node was killed).
    longest_gap: Duration,
    /// Submits tried again after a node went away.
    retries: u64,
    /// A submit retried after an UNAVAILABLE (or a cut connection) then
    /// refused as stale: the first try had landed after all (possible
    /// only for a cut connection; the contract says UNAVAILABLE wrote
    /// nothing).
    landed_after_failure: u64,
    /// Calls that failed outside the contract (code: message).
    unexpected: Vec<String>,
}

/// Plays every seat of a human-seated game: reads the state through a
/// random node, submits a random legal option through another, retries a
/// submit that met a dying node on a fresh node with the same
/// expected_seq, until the game ends or `stop`.
async fn play(
    pool: Pool,
    game_id: String,
    tokens: Vec<String>,
    pace: Duration,
    seed: u64,
    stop: watch::Receiver<bool>,
) -> PlayReport {
    let mut rng = Rng(seed);
    let mut report = PlayReport::default();
    let mut last_ack = Instant::now();
    while !*stop.borrow() {
        let view = pool
            .client(rng.below(pool.len()))
            .get_view(pb::GetViewRequest { game_id: game_id.clone(), ..Default::default() })
            .await;
        let state = match view {
            Ok(v) => v.into_inner().state.unwrap_or_default(),
            Err(e) => {
                if classify(&e) != Failure::Retry {
                    report.unexpected.push(format!("GetView {:?}: {}", e.code(), e.message()));
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if state.outcome.is_some() {
            break;
        }
        let options = state.decision.map(|d| d.options).unwrap_or_default();
        if options.is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let option = &options[rng.below(options.len())];
        let Some(&seat) = option.seats.get(rng.below(option.seats.len())) else {
            report.unexpected.push(format!("option {} offered to no seat", option.id));
            continue;
        };
        let request = pb::SubmitChoiceRequest {
            game_id: game_id.clone(),
            credentials: creds(&tokens, seat),
            expected_seq: Some(state.seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(option.id.clone())),
        };
        let mut failed_before = false;
        let begun = Instant::now();
        let mut node = rng.below(pool.len());
        loop {
            match pool.client(node).submit_choice(request.clone()).await {
                Ok(r) => {
                    let seq = r.into_inner().seq;
                    if seq != state.seq + 1 {
                        report.unexpected.push(format!("acknowledged seq {seq} for expected_seq {}", state.seq));
                    }
                    report.acked.push((seq, option.id.clone()));
                    report.longest_gap = report.longest_gap.max(last_ack.elapsed());
                    last_ack = Instant::now();
                    break;
                }
                Err(e) => match classify(&e) {
                    Failure::Retry if begun.elapsed() < HANG_GUARD && !*stop.borrow() => {
                        report.retries += 1;
                        failed_before = true;
                        // The same choice, on another node.
                        node = (node + 1 + rng.below(pool.len() - 1)) % pool.len();
                        tokio::time::sleep(Duration::from_millis(20 + rng.below(80) as u64)).await;
                    }
                    Failure::Retry => break,
                    Failure::Stale => {
                        // Only this task plays the game: a stale seq after
                        // a failed try means that try was written.
                        report.landed_after_failure += u64::from(failed_before);
                        break;
                    }
                    Failure::Refused => break,
                    Failure::Unexpected => {
                        report.unexpected.push(format!("SubmitChoice {:?}: {}", e.code(), e.message()));
                        break;
                    }
                },
            }
        }
        // Half to one and a half times the pace.
        tokio::time::sleep(pace.mul_f64(0.5 + rng.unit())).await;
    }
    report
}

/// What a spectator stream saw.
#[derive(Default)]
struct WatchReport {
    /// Every update, in the order received: (seq, option id of its entry).
    seen: Vec<(u64, String)>,
    /// Updates whose seq skipped past the next one.
    gaps: u64,
    /// Updates whose seq was not past the last one seen.
    duplicates: u64,
    /// Opening snapshots at another seq than asked for.
    bad_snapshots: u64,
    /// Streams reopened (after an error, an end or silence).
    reopens: u64,
    /// Why streams ended, by status code.
    ends: BTreeMap<String, u64>,
}

/// Follows a game as a spectator, starting on `node`: on an error, an end
/// or silence, reopens on the next node from the last seq seen (the
/// proto's `from_seq`: the last seq seen, so the snapshot comes at it and
/// the updates after it), until the game ends or `stop`.
async fn spectate(pool: Pool, game_id: String, mut node: usize, mut stop: watch::Receiver<bool>) -> WatchReport {
    let mut r = WatchReport::default();
    let mut last = 0u64;
    'streams: loop {
        if *stop.borrow() {
            break;
        }
        let request = pb::StreamGameRequest { game_id: game_id.clone(), from_seq: last, ..Default::default() };
        let mut client = pool.client(node);
        let opened = tokio::select! {
            _ = stop.changed() => break,
            o = client.stream_game(request) => o,
        };
        let mut stream = match opened {
            Ok(s) => s.into_inner(),
            Err(e) => {
                *r.ends.entry(format!("open {:?}", e.code())).or_default() += 1;
                node = (node + 1) % pool.len();
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        loop {
            let message = tokio::select! {
                _ = stop.changed() => break 'streams,
                m = tokio::time::timeout(STREAM_IDLE, stream.message()) => m,
            };
            let m = match message {
                Ok(Ok(Some(m))) => m,
                Ok(Ok(None)) => {
                    *r.ends.entry("end".into()).or_default() += 1;
                    break;
                }
                Ok(Err(e)) => {
                    *r.ends.entry(format!("{:?}", e.code())).or_default() += 1;
                    break;
                }
                Err(_) => {
                    *r.ends.entry("idle".into()).or_default() += 1;
                    break;
                }
            };
            let Some(state) = m.state else { continue };
            if m.snapshot {
                r.bad_snapshots += u64::from(m.seq != last);
            } else {
                if m.seq <= last {
                    r.duplicates += 1;
                    continue;
                }
                r.gaps += m.seq - last - 1;
                r.seen.push((m.seq, m.entry.map(|e| e.option_id).unwrap_or_default()));
                last = m.seq;
            }
            if state.outcome.is_some() {
                break 'streams;
            }
        }
        r.reopens += 1;
        node = (node + 1) % pool.len();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    r
}

/// The history of a game through any node.
async fn history(pool: &Pool, rng: &mut Rng, id: &str) -> Vec<pb::HistoryEntry> {
    any_node(pool, rng, "GetHistory", |mut c| {
        let req = pb::GetHistoryRequest { game_id: id.into(), ..Default::default() };
        async move { c.get_history(req).await }
    })
    .await
    .unwrap_or_else(|e| panic!("history of {id}: {e}"))
    .entries
}

/// The spectator's state of a game through `node` (any node when `None`).
async fn state_via(pool: &Pool, rng: &mut Rng, node: Option<usize>, id: &str) -> pb::GameState {
    let req = pb::GetViewRequest { game_id: id.into(), ..Default::default() };
    let reply = match node {
        None => {
            any_node(pool, rng, "GetView", |mut c| {
                let req = req.clone();
                async move { c.get_view(req).await }
            })
            .await
        }
        Some(n) => pool.client(n).get_view(req).await.map(tonic::Response::into_inner),
    };
    reply.unwrap_or_else(|e| panic!("view of {id}: {e}")).state.unwrap_or_default()
}

/// Every game the lobby of `node` lists, by id.
async fn lobby(pool: &Pool, node: usize) -> BTreeMap<String, pb::GameSummary> {
    let mut games = BTreeMap::new();
    let mut page_token = String::new();
    loop {
        let req = pb::ListGamesRequest { page_size: 1000, page_token: page_token.clone(), ..Default::default() };
        let reply = pool.client(node).list_games(req).await.unwrap_or_else(|e| panic!("ListGames on node {node}: {e}"));
        let reply = reply.into_inner();
        games.extend(reply.games.into_iter().map(|g| (g.game_id.clone(), g)));
        if reply.next_page_token.is_empty() {
            return games;
        }
        page_token = reply.next_page_token;
    }
}

/// Lobby entries, over every node, that differ from the game's history
/// (missing, another seq, finished or not unlike its state), once the
/// lobby had the hang guard to catch up (it is fanned out between nodes).
async fn lobby_faults(pool: &Pool, games: &[Game], histories: &[Vec<pb::HistoryEntry>], over: &[bool]) -> u64 {
    let begun = Instant::now();
    loop {
        let mut faults = 0;
        for node in 0..pool.len() {
            let listed = lobby(pool, node).await;
            for (g, game) in games.iter().enumerate() {
                let fine = listed.get(&game.id).is_some_and(|s| {
                    s.seq == histories[g].len() as u64 && (s.status == pb::GameStatus::Finished as i32) == over[g]
                });
                faults += u64::from(!fine);
            }
        }
        if faults == 0 || begun.elapsed() > HANG_GUARD {
            return faults;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// A history's faults: (duplicate seqs, seqs missing from 1..=the
/// largest, entries out of order).
fn seq_faults(entries: &[pb::HistoryEntry]) -> (u64, u64, u64) {
    let mut seen = std::collections::BTreeSet::new();
    let duplicates = entries.iter().filter(|e| !seen.insert(e.seq)).count() as u64;
    let missing = seen.last().copied().unwrap_or(0) - seen.len() as u64 + u64::from(seen.contains(&0));
    let out_of_order = entries.windows(2).filter(|w| w[1].seq <= w[0].seq).count() as u64;
    (duplicates, missing, out_of_order)
}

/// Acknowledged choices missing from a history, or there with another
/// option.
fn losses(acked: &[(u64, String)], entries: &[pb::HistoryEntry]) -> u64 {
    let by_seq: BTreeMap<u64, &str> = entries.iter().map(|e| (e.seq, e.option_id.as_str())).collect();
    acked.iter().filter(|(seq, option)| by_seq.get(seq) != Some(&option.as_str())).count() as u64
}

/// Updates a spectator saw that the history tells otherwise.
fn mismatches(seen: &[(u64, String)], entries: &[pb::HistoryEntry]) -> u64 {
    let by_seq: BTreeMap<u64, &str> = entries.iter().map(|e| (e.seq, e.option_id.as_str())).collect();
    seen.iter().filter(|(seq, option)| by_seq.get(seq) != Some(&option.as_str())).count() as u64
}

/// Now, as seconds since the Unix epoch (UTC, to the millisecond), to
/// line the kills up with the nodes' logs.
fn unix_time() -> String {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!("{}.{:03}", t.as_secs(), t.subsec_millis())
}

/// Where the logs are, for a failure message.
fn logs_hint(nodes: &[Node], agent_dirs: &[PathBuf]) -> String {
    let nodes = nodes.iter().map(|n| n.log_path());
    let agents = agent_dirs.iter().map(|d| d.join("ai.log"));
    nodes.chain(agents).map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Lines of every node's log (all its lives) that contain `what`.
fn log_lines(nodes: &[Node], what: &str) -> usize {
    nodes
        .iter()
        .map(|n| std::fs::read_to_string(n.log_path()).unwrap_or_default().lines().filter(|l| l.contains(what)).count())
        .sum()
}

/// The nodes' WARN and ERROR lines, grouped by where and what (fields
/// left out), most frequent first: for the reader of a run.
fn log_digest(nodes: &[Node]) -> Vec<(usize, String)> {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for n in nodes {
        for line in std::fs::read_to_string(n.log_path()).unwrap_or_default().lines() {
            let Some(at) = line.find(" WARN ").or_else(|| line.find(" ERROR ")) else { continue };
            let words: Vec<&str> = line[at..].split_whitespace().take_while(|w| !w.contains('=')).collect();
            *kinds.entry(words.join(" ")).or_default() += 1;
        }
    }
    let mut kinds: Vec<(usize, String)> = kinds.into_iter().map(|(k, n)| (n, k)).collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.0));
    kinds
}

/// Whether `xodus-ai --server` takes several nodes' addresses (a comma
/// list), as its help says.
fn agent_takes_several_nodes() -> bool {
    std::process::Command::new(common::ai_binary())
        .arg("--help")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("separated by commas"))
        .unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_loses_no_acknowledged_choice_across_repeated_kill9() {
    let Some(postgres) = tokio::task::spawn_blocking(pg::TempPostgres::start_or_skip).await.expect("start") else {
        return;
    };
    let sizes = Sizes::from_env();
    let database = postgres.fresh_database("failover");
    let ttl = sizes.ttl_ms.to_string();
    let mut nodes: Vec<Node> = (0..NODES)
        .map(|i| {
            let listen = format!("127.0.0.1:{}", free_port());
            let flags = vec![
                "--database".to_string(),
                database.clone(),
                "--node-id".into(),
                format!("node{i}"),
                "--advertise".into(),
                format!("http://{listen}"),
                "--lease-ttl-ms".into(),
                ttl.clone(),
            ];
            Node { listen, dir: temp_dir(&format!("failover-node{i}")), flags, server: None }
        })
        .collect();
    for node in &mut nodes {
        node.start().await;
    }
    let urls: Vec<String> = nodes.iter().map(Node::url).collect();
    let pool = Pool::new(&urls);
    let mut rng = Rng(51);

    // The games, created through every node in turn; even ones for the
    // agents, odd ones for this test.
    let mut games = Vec::new();
    for g in 0..sizes.games {
        let ai = g % 2 == 0;
        let open = if ai { pb::SeatOpenTo::Ai } else { pb::SeatOpenTo::Human };
        let request = game_request(1000 + g as u64, &[open; 3]);
        let reply = pool.client(g).create_game(request).await.expect("create a game");
        let id = reply.into_inner().game.expect("game").game_id;
        games.push(Game { id, ai });
    }

    // Pacing: a game of about DECISIONS_PER_GAME decisions lasts about
    // the planned time, so that most games are live through every kill.
    let planned = sizes.planned().mul_f64(1.2);
    let pace = planned.div_f64(DECISIONS_PER_GAME);
    let ai_games = games.iter().filter(|g| g.ai).count();
    let per_agent = ai_games.div_ceil(AGENTS) as f64;
    let agent_rps = ((per_agent * DECISIONS_PER_GAME / planned.as_secs_f64()) * 2.0).ceil().max(4.0) as u64;
    let agent_rps = agent_rps.to_string();
    let several = agent_takes_several_nodes();
    let agent_dirs: Vec<PathBuf> = (0..AGENTS).map(|k| temp_dir(&format!("failover-ai{k}"))).collect();
    let agents: Vec<Agent> = agent_dirs
        .iter()
        .enumerate()
        .map(|(k, dir)| {
            // Every node, agent k's first, when the agent takes a list;
            // else node k alone (its games wait while node k is down).
            let server = if several {
                (0..NODES).map(|i| urls[(k + i) % NODES].as_str()).collect::<Vec<_>>().join(",")
            } else {
                urls[k % NODES].clone()
            };
            Agent::spawn_fill_with(&server, dir, "random", &["--max-rps", &agent_rps])
        })
        .collect();

    let (stop_tx, stop) = watch::channel(false);
    let mut players = Vec::new();
    for (g, game) in games.iter().enumerate().filter(|(_, g)| !g.ai) {
        let mut tokens = Vec::new();
        for seat in 0..3 {
            let reply = pool
                .client(g + 1 + seat as usize)
                .claim_seat(pb::ClaimSeatRequest {
                    game_id: game.id.clone(),
                    seat,
                    claimant: pb::Claimant::Human as i32,
                    token: String::new(),
                })
                .await
                .expect("claim a seat");
            tokens.push(reply.into_inner().token);
        }
        players.push(tokio::spawn(play(pool.clone(), game.id.clone(), tokens, pace, 7 + g as u64, stop.clone())));
    }
    // Spectators: every node watches the first games of each kind, two
    // of each or a twelfth of the games.
    let watched: Vec<usize> = {
        let each = (games.len() / 12).max(2);
        let ai = games.iter().enumerate().filter(|(_, g)| g.ai).map(|(i, _)| i).take(each);
        let human = games.iter().enumerate().filter(|(_, g)| !g.ai).map(|(i, _)| i).take(each);
        ai.chain(human).collect()
    };
    let mut watchers = Vec::new();
    for &g in &watched {
        for node in 0..NODES {
            let task = tokio::spawn(spectate(pool.clone(), games[g].id.clone(), node, stop.clone()));
            watchers.push((g, task));
        }
    }

    // The kills: node k % 3, down past its lease, then back under the
    // same id and port.
    tokio::time::sleep(WARMUP).await;
    for k in 0..sizes.kills {
        let victim = k % NODES;
        eprintln!("{} kill -9 node{victim}", unix_time());
        nodes[victim].kill9();
        tokio::time::sleep(sizes.down()).await;
        nodes[victim].start().await;
        eprintln!("{} node{victim} serving again", unix_time());
        if k + 1 < sizes.kills {
            tokio::time::sleep(UP_BETWEEN_KILLS).await;
        }
    }
    let mut after_restart = Vec::new();
    for game in &games {
        after_restart.push(state_via(&pool, &mut rng, None, &game.id).await.seq);
    }
    tokio::time::sleep(Duration::from_secs(sizes.secs)).await;

    // Stop playing, then read everything back.
    stop_tx.send(true).expect("stop");
    let mut reports = Vec::new();
    for p in players {
        let r = tokio::time::timeout(HANG_GUARD, p).await.expect("a player stops").expect("player task");
        reports.push(r);
    }
    let mut watch_reports = Vec::new();
    for (g, w) in watchers {
        let r = tokio::time::timeout(HANG_GUARD, w).await.expect("a watcher stops").expect("watcher task");
        watch_reports.push((g, r));
    }
    drop(agents);

    let mut histories = Vec::new();
    for game in &games {
        histories.push(history(&pool, &mut rng, &game.id).await);
    }
    let (mut duplicate_seqs, mut seq_gaps, mut disorder) = (0, 0, 0);
    let (mut stuck, mut finished, mut disagreements) = (0, 0, 0);
    let mut over = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let (d, gaps, o) = seq_faults(&histories[g]);
        duplicate_seqs += d;
        seq_gaps += gaps;
        disorder += o;
        // Nothing moves any more: every node must tell the same state,
        // the history's length.
        let mut states = Vec::new();
        for node in 0..NODES {
            states.push(state_via(&pool, &mut rng, Some(node), &game.id).await);
        }
        let first = &states[0];
        if states.iter().any(|s| (s.seq, s.state_hash) != (first.seq, first.state_hash))
            || first.seq != histories[g].len() as u64
        {
            disagreements += 1;
            eprintln!(
                "game {} ({}): nodes tell seqs {:?}, history has {} entries",
                game.id,
                if game.ai { "ai" } else { "human" },
                states.iter().map(|s| s.seq).collect::<Vec<_>>(),
                histories[g].len()
            );
        }
        over.push(first.outcome.is_some());
        if first.outcome.is_some() {
            finished += 1;
        } else if first.seq <= after_restart[g] {
            stuck += 1;
            eprintln!("game {} stuck at seq {} since the last restart", game.id, first.seq);
        }
    }
    let lobby_faults = lobby_faults(&pool, &games, &histories, &over).await;
    let human: Vec<usize> = games.iter().enumerate().filter(|(_, g)| !g.ai).map(|(i, _)| i).collect();
    let mut acknowledged = 0u64;
    let mut longest_gap = Duration::ZERO;
    let mut lost = 0u64;
    let (mut retries, mut landed, mut unexpected) = (0, 0, Vec::new());
    for (r, &g) in reports.iter().zip(&human) {
        acknowledged += r.acked.len() as u64;
        longest_gap = longest_gap.max(r.longest_gap);
        lost += losses(&r.acked, &histories[g]);
        retries += r.retries;
        landed += r.landed_after_failure;
        unexpected.extend(r.unexpected.iter().cloned());
    }
    let (mut w_gaps, mut w_dups, mut w_bad_snapshots, mut w_mismatches, mut w_reopens, mut w_updates) =
        (0, 0, 0, 0, 0, 0);
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    for (g, r) in &watch_reports {
        w_gaps += r.gaps;
        w_dups += r.duplicates;
        w_bad_snapshots += r.bad_snapshots;
        w_mismatches += mismatches(&r.seen, &histories[*g]);
        w_reopens += r.reopens;
        w_updates += r.seen.len() as u64;
        for (k, v) in &r.ends {
            *ends.entry(k.clone()).or_default() += v;
        }
    }
    let entries: usize = histories.iter().map(Vec::len).sum();
    // What the nodes' logs say happened (information, not checked: the
    // checks above are on what clients see).
    let takeovers = log_lines(&nodes, "took the game over");
    let leases_lost = log_lines(&nodes, "lost the game's lease");
    let (log_errors, log_warnings) = (log_lines(&nodes, " ERROR "), log_lines(&nodes, " WARN "));
    for (n, kind) in log_digest(&nodes).iter().take(8) {
        eprintln!("node logs: {n} x {kind}");
    }
    println!(
        "failover summary: nodes={NODES} games={} kills={} ttl_ms={} secs={} agents={AGENTS} agent_servers={} entries={entries} \
         finished={finished} takeovers={takeovers} leases_lost={leases_lost} \
         log_errors={log_errors} log_warnings={log_warnings} \
         acknowledged={acknowledged} longest_ack_gap_ms={} lost={lost} duplicate_seqs={duplicate_seqs} seq_gaps={seq_gaps} out_of_order={disorder} stuck={stuck} \
         node_disagreements={disagreements} lobby_faults={lobby_faults} submit_retries={retries} landed_after_failure={landed} unexpected={} \
         watchers={} watcher_updates={w_updates} watcher_gaps={w_gaps} watcher_duplicates={w_dups} \
         watcher_bad_snapshots={w_bad_snapshots} watcher_mismatches={w_mismatches} watcher_reopens={w_reopens} \
         stream_ends={ends:?}",
        games.len(),
        sizes.kills,
        sizes.ttl_ms,
        sizes.secs,
        if several { "every-node" } else { "one-node" },
        longest_gap.as_millis(),
        unexpected.len(),
        watch_reports.len(),
    );
    let logs = logs_hint(&nodes, &agent_dirs);
    if std::env::var_os("XODUS_FAILOVER_KEEP_LOGS").is_some() {
        // kill -9 keeps a node's directory, and so its log.
        nodes.iter_mut().for_each(Node::kill9);
        eprintln!("logs kept: {logs}");
    }
    assert!(acknowledged > 0, "the test acknowledged no choice: nothing was checked (logs: {logs})");
    assert_eq!(lost, 0, "acknowledged choices lost (logs: {logs})");
    assert_eq!(
        (duplicate_seqs, seq_gaps, disorder),
        (0, 0, 0),
        "histories with duplicate, missing or disordered seqs (logs: {logs})"
    );
    assert_eq!(disagreements, 0, "nodes that tell a game otherwise (logs: {logs})");
    assert_eq!(lobby_faults, 0, "lobby entries unlike the games, through some node (logs: {logs})");
    assert_eq!(stuck, 0, "games stuck since the last restart (logs: {logs})");
    assert!(unexpected.is_empty(), "calls failed outside the contract: {unexpected:#?} (logs: {logs})");
    assert!(w_updates > 0, "the spectators saw nothing: nothing was checked");
    assert_eq!(
        (w_gaps, w_dups, w_bad_snapshots, w_mismatches),
        (0, 0, 0, 0),
        "spectators' gaps, duplicates, bad snapshots, updates unlike the history (logs: {logs})"
    );
    drop(nodes);
    drop(postgres);
}
