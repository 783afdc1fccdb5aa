//! What nodes sharing one PostgreSQL learn of each other through it: where
//! each answers gRPC (`nodes`, renewed with the leases), the cluster's
//! secret (`cluster`), and the lobby's changes. A change is announced by
//! `NOTIFY xodus_lobby` after its commit (`writer.rs`), but a notification
//! can be missed (a broken connection) and is never replayed, so the feed
//! reads by `lobby_seq` (every summary or status written takes the next)
//! on each notification and every second. Sequence numbers are taken
//! before their transactions commit, and four writers commit
//! concurrently, so a smaller number can become visible after a larger
//! one: the feed also sweeps back over the last few seconds of numbers
//! now and then. The receiver keeps only what is newer than what it has.

use super::Conn;
use crate::model::{Status, StoredBrief};
use crate::store::StoreError;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};
use tokio_postgres::{AsyncMessage, Client, NoTls};
use tracing::{debug, warn};

/// How far back the sweep reads: longer than any writer's transaction.
const SWEEP_BACK: Duration = Duration::from_secs(5);
/// How often the feed reads without a notification, and sweeps.
const POLL_EVERY: Duration = Duration::from_secs(1);
/// Most rows read at once.
const PAGE: i64 = 2000;

/// The cluster's secret.
pub(super) async fn secret(c: &Client) -> Result<String, StoreError> {
    Ok(c.query_one("SELECT secret FROM cluster WHERE id = 1", &[]).await?.get(0))
}

/// The newest lobby number now.
pub(super) async fn newest_lobby_seq(c: &Client) -> Result<i64, StoreError> {
    Ok(c.query_one("SELECT COALESCE(MAX(lobby_seq), 0) FROM games", &[]).await?.get(0))
}

/// Says where `node` answers, now.
pub(super) async fn publish(c: &Client, node: &str, address: &str) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO nodes (name, address, seen_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET address = EXCLUDED.address, seen_at = EXCLUDED.seen_at",
        &[&node, &address],
    )
    .await?;
    Ok(())
}

/// The live games each live node owns (a node is live when it said where
/// it answers within the last `alive_ms`; one owning none counts 0).
pub(super) async fn ownership(c: &Client, alive_ms: i64) -> Result<Vec<(String, i64)>, StoreError> {
    let rows = c
        .query(
            "SELECT n.name, count(l.game_id)
               FROM nodes n
               LEFT JOIN (leases l JOIN games g ON g.id = l.game_id AND g.status IN ('open', 'playing'))
                      ON l.owner = n.name AND l.expires_at > now()
              WHERE n.seen_at > now() - $1::bigint * interval '1 millisecond'
              GROUP BY n.name
              ORDER BY n.name",
            &[&alive_ms],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Where `node` answers, if it said.
pub(super) async fn address_of(c: &Client, node: &str) -> Result<Option<String>, StoreError> {
    Ok(c.query_opt("SELECT address FROM nodes WHERE name = $1", &[&node]).await?.map(|r| r.get(0)))
}

/// Opens the listening connection; its notifications wake `woken`.
async fn listen(url: &str, woken: Arc<Notify>) -> Result<Client, StoreError> {
    let (client, mut conn) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(_))) => woken.notify_one(),
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    warn!(error = %e, "the lobby's listening connection broke; reading by seq until it is back");
                    woken.notify_one();
                    return;
                }
                None => return,
            }
        }
    });
    client.batch_execute("LISTEN xodus_lobby").await?;
    Ok(client)
}

/// The rows of games whose lobby number is after `after`, in order.
async fn read_changes(c: &Client, after: i64) -> Result<Vec<(i64, StoredBrief)>, StoreError> {
    let rows = c
        .query(
            "SELECT id, created_ms, status, ended_ms, last_move_ms, seq, summary, lobby_seq FROM games
              WHERE lobby_seq > $1 AND summary IS NOT NULL
              ORDER BY lobby_seq LIMIT $2",
            &[&after, &PAGE],
        )
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        let status: String = r.get(2);
        let Some(status) = Status::parse(&status) else {
            warn!(game = %id, status, "a stored game's status does not parse; left out of the lobby");
            continue;
        };
        let brief = StoredBrief {
            id,
            created_ms: r.get(1),
            status,
            ended_ms: r.get(3),
            last_move_ms: r.get(4),
            seq: r.get::<_, Option<i64>>(5).map(|n| n.max(0) as u64),
            summary: r.get(6),
        };
        out.push((r.get(7), brief));
    }
    Ok(out)
}

/// Sends every lobby change after `from` to `tx`, for as long as someone
/// receives.
pub(super) async fn lobby_feed(url: String, reader: Arc<Conn>, from: i64, tx: mpsc::UnboundedSender<StoredBrief>) {
    let woken = Arc::new(Notify::new());
    let mut listener: Option<Client> = None;
    let mut last = from;
    // (when, the last number read then): the sweep goes back to the
    // number read SWEEP_BACK ago.
    let mut marks: VecDeque<(Instant, i64)> = VecDeque::new();
    let mut last_sweep = Instant::now();
    loop {
        if listener.as_ref().is_none_or(Client::is_closed) {
            listener = match listen(&url, Arc::clone(&woken)).await {
                Ok(c) => Some(c),
                Err(e) => {
                    debug!(error = %e, "cannot listen for lobby changes yet");
                    None
                }
            };
        }
        tokio::select! {
            () = woken.notified() => {}
            () = tokio::time::sleep(POLL_EVERY) => {}
            () = tx.closed() => return,
        }
        let Ok(c) = reader.get().await else { continue };
        let sweep = last_sweep.elapsed() >= POLL_EVERY;
        let after = if sweep {
            last_sweep = Instant::now();
            while marks.len() > 1 && marks.get(1).is_some_and(|(t, _)| t.elapsed() >= SWEEP_BACK) {
                marks.pop_front();
            }
            marks.front().map_or(from, |(_, n)| *n).min(last)
        } else {
            last
        };
        let mut cursor = after;
        loop {
            match read_changes(&c, cursor).await {
                Ok(rows) => {
                    let full = rows.len() as i64 == PAGE;
                    for (n, brief) in rows {
                        cursor = cursor.max(n);
                        if tx.send(brief).is_err() {
                            return;
                        }
                    }
                    if !full {
                        break;
                    }
                }
                Err(e) => {
                    warn!(error = %e, "reading the lobby's changes failed; retrying");
                    break;
                }
            }
        }
        if cursor > last {
            last = cursor;
            marks.push_back((Instant::now(), last));
        }
    }
}
