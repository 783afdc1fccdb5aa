//! `--postgres --nodes 1,3`: the same clients on one node and on several
//! nodes sharing one PostgreSQL (each node an in-process server with its
//! own name, on loopback). Two ways for several nodes: "affine" clients
//! create and play their games through one node (which owns them), as a
//! load balancer with affinity would send them; "spread" clients create
//! through one node and send every choice through the next, so that each
//! choice is forwarded to the owner, as a round-robin balancer would.

use super::{Via, create, pct, play_by_submit};
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::dial::Target;
use tabletop::pb;
use tabletop_service::{Limits, NodeConfig, ServerConfig, Storage};

/// One measured run.
pub struct NodeRun {
    /// Nodes serving.
    pub nodes: usize,
    /// Whether each choice went through a node that does not own its game.
    pub spread: bool,
    /// Acknowledged choices per second.
    pub rate: f64,
    /// 99th percentile of a choice's latency.
    pub p99: Duration,
}

/// Starts `nodes` servers on the database at `url`; returns their URLs
/// and what stops them.
async fn start(url: &str, nodes: usize) -> anyhow::Result<(Vec<String>, Vec<tokio::sync::oneshot::Sender<()>>)> {
    let (mut urls, mut stops) = (Vec::new(), Vec::new());
    for i in 0..nodes {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        urls.push(format!("http://{}", listener.local_addr()?));
        let limits = Limits {
            max_games_per_client: usize::MAX,
            max_streams_per_client: usize::MAX,
            requests_per_second: 1_000_000,
            ..Limits::default()
        };
        let config = ServerConfig {
            storage: Storage::Postgres(url.to_string()),
            limits,
            registry: xodus_server::registry(),
            web: Default::default(),
            node: NodeConfig { name: Some(format!("bench-{i}")), ..Default::default() },
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(tabletop_service::run(tabletop_service::Listener::Tcp(listener), config, async move {
            let _ = stopped.await;
        }));
        stops.push(stop);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    Ok((urls, stops))
}

/// `clients` clients play `games` games of `choices` choices on `nodes`
/// nodes over the database at `url`.
pub async fn run(
    url: &str,
    nodes: usize,
    spread: bool,
    clients: usize,
    games: usize,
    choices: usize,
) -> anyhow::Result<NodeRun> {
    let (urls, stops) = start(url, nodes).await?;
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..clients {
        let home = &urls[i % nodes];
        let through = &urls[(i + usize::from(spread)) % nodes];
        let mut owner = GameServiceClient::new(Target::parse(home)?.connect().await?);
        let mut other = GameServiceClient::new(Target::parse(through)?.connect().await?);
        let next = std::sync::Arc::clone(&next);
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if g >= games {
                    return Ok::<_, anyhow::Error>(lat);
                }
                let game = owner.create_game(create(g as u64)).await?.into_inner().game;
                let id = game.ok_or_else(|| anyhow::anyhow!("no game"))?.game_id;
                let mut tokens = Vec::new();
                for seat in 0..4 {
                    let req = pb::ClaimSeatRequest { game_id: id.clone(), seat, ..Default::default() };
                    tokens.push(owner.claim_seat(req).await?.into_inner().token);
                }
                lat.extend(play_by_submit(&mut other, &id, &tokens, choices).await?.0);
            }
        }));
    }
    let mut lat = Vec::new();
    for t in tasks {
        lat.extend(t.await??);
    }
    let elapsed = started.elapsed();
    for stop in stops {
        let _ = stop.send(());
    }
    lat.sort();
    let rate = lat.len() as f64 / elapsed.as_secs_f64();
    let p99 = pct(&lat, 0.99);
    println!(
        "nodes: {nodes} node(s) on one postgres, {} via {}, {clients} clients, {} acknowledged choices in {:.2}s: {rate:.0} choices/s, p50={:.2?} p99={p99:.2?}",
        if spread {
            "spread (every choice forwarded to the game's owner)"
        } else {
            "affine (each client on its games' owner)"
        },
        Via::Submit,
        lat.len(),
        elapsed.as_secs_f64(),
        pct(&lat, 0.5),
    );
    // Let the nodes stop before the next run starts on the same cores.
    tokio::time::sleep(Duration::from_millis(500)).await;
    Ok(NodeRun { nodes, spread, rate, p99 })
}
