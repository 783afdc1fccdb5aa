//! Balance across nodes on one throwaway PostgreSQL (issue #63), on the
//! real binaries: 30 live games made on node a alone; when nodes b and c
//! join, each ends up owning a fair share (within 20% of the mean), read
//! from each node's own `/metrics` (`xodus_leases_held`); when c is
//! `kill -9`'d its games move to a and b, and when it returns it takes its
//! share back; every game still answers, at the seq it had.

mod common;
#[path = "common/postgres.rs"]
mod pg;

use common::*;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The lease time of these nodes.
const TTL_MS: &str = "2000";

/// A free TCP port for a node's metrics.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}

/// Starts node `name` on `url`, its metrics on `metrics`, in `dir`.
fn node(name: &str, url: &str, dir: std::path::PathBuf, metrics: u16) -> Server {
    let metrics = format!("127.0.0.1:{metrics}");
    Server::start_in(
        dir,
        &["--database", url, "--node-id", name, "--lease-ttl-ms", TTL_MS, "--metrics-listen", &metrics],
    )
}

/// The games node's metrics say it holds the leases of now.
fn leases_held(port: u16) -> Option<i64> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n").ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    out.lines().find_map(|l| l.strip_prefix("xodus_leases_held ")?.trim().parse().ok())
}

/// Waits until every node's share is within 20% of the mean of `total`
/// games; returns how long it took and the shares.
fn balanced(ports: &[u16], total: i64, what: &str) -> (Duration, Vec<i64>) {
    let began = Instant::now();
    let mean = total as f64 / ports.len() as f64;
    loop {
        let shares: Vec<i64> = ports.iter().map(|p| leases_held(*p).unwrap_or(-1)).collect();
        let fair = shares.iter().all(|&s| (s as f64 - mean).abs() <= 0.2 * mean) && shares.iter().sum::<i64>() == total;
        if fair {
            return (began.elapsed(), shares);
        }
        assert!(began.elapsed() < HANG_GUARD, "{what}: shares never fair: {shares:?} of {total}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_that_join_or_return_take_a_fair_share_of_the_live_games() {
    let Some(postgres) = tokio::task::spawn_blocking(pg::TempPostgres::start_or_skip).await.expect("start") else {
        return;
    };
    let url = postgres.fresh_database("balance");
    let ports = [free_port(), free_port(), free_port()];
    let a = node("a", &url, temp_dir("balance-a"), ports[0]);
    let mut c = a.client().await;
    let mut games = Vec::new();
    for seed in 0..30 {
        let id = create_game(&mut c, seed).await;
        let tokens = claim_all(&mut c, &id).await;
        play_first(&mut c, &id, &tokens).await;
        games.push(id);
    }
    let (_, alone) = balanced(&ports[..1], 30, "node a alone");
    assert_eq!(alone, [30]);

    // Two nodes join: each takes a share.
    let b = node("b", &url, temp_dir("balance-b"), ports[1]);
    let c_dir = temp_dir("balance-c");
    let c_node = node("c", &url, c_dir.clone(), ports[2]);
    let (joined, shares) = balanced(&ports, 30, "after b and c joined");
    println!("b and c joined: shares {shares:?} after {joined:?}");

    // c dies: its games move to a and b; it returns and takes its share.
    let c_dir = {
        let dir = c_node.kill9();
        assert_eq!(dir, c_dir);
        dir
    };
    let (moved, shares) = balanced(&ports[..2], 30, "after c died");
    println!("c killed: shares {shares:?} after {moved:?}");
    let _c_again = node("c", &url, c_dir, ports[2]);
    let (returned, shares) = balanced(&ports, 30, "after c returned");
    println!("c returned: shares {shares:?} after {returned:?}");
    assert!(returned < Duration::from_secs(60), "within 60 s of its return: {returned:?}");

    // Every game answers through any node, at the seq it had.
    let mut via_b = b.client().await;
    for id in &games {
        assert_eq!(state(&mut via_b, id).await.seq, 1, "game {id} kept its one choice");
    }
    assert!(a.log().contains("handed the game to another node (balance)"), "a says what it handed");
    assert!(b.log().contains("took up a game whose lease names this node"), "b says what it took up");
}
