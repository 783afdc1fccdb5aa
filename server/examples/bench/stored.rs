//! `--stored N`: many stored games. Writes N games (90% abandoned, 10% live
//! and idle, each a copy of a real game played 40 choices in) into a fresh
//! data directory with batched inserts, starts the real `xodus-server`
//! binary over it, and measures the time until health answers SERVING and
//! the resident set after the start and after ListGames paged through all
//! of them, against the limits of issue #30 (2 s, 200 MB).

use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tabletop::GameServiceClient;
use tabletop::pb;
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

/// Resident set of process `pid`, KiB.
fn rss_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// Copies the first stored game `n` times in one transaction.
fn copy_games(db: &Path, n: usize) -> anyhow::Result<()> {
    let mut conn = rusqlite::Connection::open(db)?;
    let tx = conn.transaction()?;
    let template: String = tx.query_row("SELECT id FROM games ORDER BY created_ms LIMIT 1", [], |r| r.get(0))?;
    let now = xodus_now_ms();
    {
        let mut game = tx.prepare(
            "INSERT INTO games (id, kind, config_json, created_ms, status, forked_from, forked_at_seq, idle_timeout_s,
                                creator_hash, ended_ms, resamples, seq, last_move_ms, summary)
             SELECT ?2, kind, config_json, ?3, ?4, NULL, NULL, idle_timeout_s, creator_hash, ?5, resamples, seq, ?6,
                    summary FROM games WHERE id = ?1",
        )?;
        let mut seats = tx.prepare(
            "INSERT INTO seats (game_id, seat, open_to, token_hash, claimed_by)
             SELECT ?2, seat, open_to, token_hash, claimed_by FROM seats WHERE game_id = ?1",
        )?;
        let mut choices = tx.prepare(
            "INSERT INTO choices (game_id, seq, seat, option_id, at_ms, kind)
             SELECT ?2, seq, seat, option_id, at_ms, kind FROM choices WHERE game_id = ?1",
        )?;
        for i in 0..n {
            let id = format!("g-stored{i:010}");
            let live = i % 10 == 0;
            let (status, ended) = if live { ("playing", None) } else { ("abandoned", Some(now)) };
            game.execute(rusqlite::params![template, id, now - 1_000_000 + i as i64, status, ended, now])?;
            seats.execute(rusqlite::params![template, id])?;
            choices.execute(rusqlite::params![template, id])?;
        }
    }
    tx.commit()?;
    Ok(())
}

fn xodus_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Makes the template: one real game, seats claimed, 40 choices in.
async fn template(dir: &Path) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = tabletop_service::ServerConfig {
        storage: tabletop_service::Storage::Sqlite(dir.to_path_buf()),
        limits: tabletop_service::Limits::default(),
        registry: xodus_server::registry(),
        web: Default::default(),
        node: Default::default(),
    };
    let server = tokio::spawn(tabletop_service::run(listener, config, async move {
        let _ = stopped.await;
    }));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut c = GameServiceClient::new(Channel::from_shared(url)?.connect().await?);
    super::play(&mut c, super::Via::Submit, 7, 40, false).await?;
    let _ = stop.send(());
    server.await??;
    Ok(())
}

/// The `--stored N` run.
pub async fn run(n: usize, dir: &Path) -> anyhow::Result<()> {
    let data = dir.join("stored");
    let _ = std::fs::remove_dir_all(&data);
    template(&data).await?;
    let t = Instant::now();
    copy_games(&data.join("xodus.sqlite3"), n)?;
    println!("stored: wrote {n} games (90% abandoned, 10% live and idle; 40 choices each) in {:.2?}", t.elapsed());

    let exe = std::env::current_exe()?;
    let server = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("xodus-server"))
        .ok_or_else(|| anyhow::anyhow!("no target directory"))?;
    let started = Instant::now();
    let mut child = Command::new(&server)
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot start {} (cargo build --release --bins): {e}", server.display()))?;
    let stdout = child.stdout.take().ok_or_else(|| anyhow::anyhow!("no stdout"))?;
    let mut line = String::new();
    std::io::BufReader::new(stdout).read_line(&mut line)?;
    let addr = line.trim().strip_prefix("listening on ").ok_or_else(|| anyhow::anyhow!("unexpected '{line}'"))?;
    let url = format!("http://{addr}");
    let result = measure(&url, child.id(), started, n).await;
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&data);
    result
}

async fn measure(url: &str, pid: u32, started: Instant, n: usize) -> anyhow::Result<()> {
    let serving = loop {
        if let Ok(ch) = Channel::from_shared(url.to_string())?.connect().await {
            let mut h = HealthClient::new(ch);
            if let Ok(r) = h.check(HealthCheckRequest { service: String::new() }).await
                && r.into_inner().status == ServingStatus::Serving as i32
            {
                break started.elapsed();
            }
        }
        if started.elapsed() > Duration::from_secs(120) {
            anyhow::bail!("no SERVING within 120 s");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let rss_start = rss_of(pid);
    let mut c = GameServiceClient::new(Channel::from_shared(url.to_string())?.connect().await?);
    let t = Instant::now();
    let (mut token, mut listed) = (String::new(), 0);
    loop {
        let page = c
            .list_games(pb::ListGamesRequest { page_size: 1000, page_token: token, ..Default::default() })
            .await?
            .into_inner();
        listed += page.games.len();
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    let paged = t.elapsed();
    let rss_listed = rss_of(pid);
    let mb = |kib: u64| kib as f64 / 1024.0;
    println!(
        "stored: health SERVING {serving:.2?} after the start = {:.2}x the limit of 2 s: {}",
        serving.as_secs_f64() / 2.0,
        if serving <= Duration::from_secs(2) { "met" } else { "NOT met" }
    );
    println!(
        "stored: RSS after the start {:.0} MB, after ListGames paged through {listed} of {n} games (+1 template) \
         in {paged:.2?}: {:.0} MB = {:.2}x the limit of 200 MB: {}",
        mb(rss_start),
        mb(rss_listed),
        mb(rss_listed) / 200.0,
        if mb(rss_listed.max(rss_start)) <= 200.0 { "met" } else { "NOT met" }
    );
    Ok(())
}
