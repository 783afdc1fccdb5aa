//! The PostgreSQL store: the same contract as SQLite's, on a database that
//! several server nodes can share, with ownership of games fenced by the
//! database itself.
//!
//! - The store owns a small tokio runtime of its own (the trait is
//!   blocking and is called from `spawn_blocking` threads and plain tests)
//!   and its connections: the writers' (`postgres/writer.rs`: group
//!   commit, one transaction for the requests of concurrent games; each
//!   game's requests always go to the same writer, in order, and several
//!   writers let one batch run while another waits for its WAL flush), the
//!   readers' and the lease keeper's.
//! - Ownership: a game is owned by one node at a time through its row in
//!   `leases` (owner, epoch, expiry read against the database's `now()`).
//!   Every append (and every other write to an existing game: seats,
//!   clock, status, summary) is one statement that writes only while this
//!   node's epoch is the game's and its lease is live, locking the lease row
//!   (`FOR SHARE`) until the commit, so a take-over waits for the appends
//!   in flight and a former owner's later appends are refused
//!   ([`StoreError::LeaseLost`]) with nothing written. The primary key
//!   (game, seq) refuses a duplicate ([`StoreError::Duplicate`]). No
//!   advisory lock is involved.
//! - A node holds the games it creates and those it loads ([`GameStore::own`],
//!   which a node restarted under the same id uses to fence its former
//!   self by raising the epoch), renews what it holds every third of the
//!   lease's time, gives a game up when it leaves memory (its row keeps
//!   the epoch, with no owner), and takes over live games whose owner's
//!   lease ran out ([`GameStore::take_over_lapsed`]).
//! - Nodes find each other and the lobby's changes through the database
//!   (`postgres/cluster.rs`).

use super::{ClusterStore, Done, GameStore, StoreError};
use crate::model::{
    Claim, ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Resample, SeatRecord, Status, StoredBrief,
    StoredGame, TalkRecord,
};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, NoTls};
use tracing::{info, warn};

mod cluster;
mod writer;

use writer::{Op, Request};

/// How a node uses the database.
#[derive(Clone, Debug)]
pub struct PgOptions {
    /// This node's name in `leases.owner`. Two live nodes must not share
    /// one; a node restarted under its name takes its games back at once.
    pub node: String,
    /// How long a lease lasts without renewal.
    pub lease_ttl: Duration,
    /// How often the leases held are renewed; `None`: never (tests that
    /// play a node that stalls).
    pub renew_every: Option<Duration>,
    /// Writer connections, each committing its own batches; a game's
    /// requests always go to the same one (`$TABLETOP_PG_WRITERS`, default 4).
    pub writers: usize,
}

impl Default for PgOptions {
    fn default() -> Self {
        let ttl = Duration::from_secs(10);
        let writers = tabletop::env::var("PG_WRITERS").and_then(|n| n.parse().ok()).unwrap_or(4usize).max(1);
        PgOptions { node: default_node_name(), lease_ttl: ttl, renew_every: Some(ttl / 3), writers }
    }
}

/// `$TABLETOP_NODE_ID`, else the host's name (`$HOSTNAME` or
/// `/etc/hostname`), else "tabletop".
pub fn default_node_name() -> String {
    tabletop::env::var("NODE_ID")
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tabletop".to_string())
}

/// A lease this node holds on a game.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The game.
    pub game: String,
    /// The owner (this node).
    pub owner: String,
    /// The epoch its writes carry.
    pub epoch: i64,
}

/// The epochs of the leases this node holds, by game.
pub(super) type Held = Arc<Mutex<HashMap<String, i64>>>;

fn lock(held: &Held) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
    held.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records that this node holds `game` with `epoch`, unless it already
/// knows a newer epoch of its own: two acquisitions racing on one node
/// each raise the epoch, and whichever answer arrives last, the node must
/// write with the newest (an older one would fence the node out of its own
/// game).
pub(super) fn hold(held: &mut HashMap<String, i64>, game: &str, epoch: i64) -> i64 {
    let e = held.entry(game.to_string()).or_insert(epoch);
    *e = (*e).max(epoch);
    *e
}

/// PostgreSQL, through `tokio-postgres` (plain TCP or a Unix socket; no TLS).
#[cfg_attr(not(test), allow(dead_code))]
pub struct PostgresStore {
    /// The store's own runtime (shut down in the background on drop).
    rt: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    /// The writer tasks' queues.
    writers: Vec<mpsc::UnboundedSender<Request>>,
    /// Reads (pipelined when concurrent).
    reader: Arc<Conn>,
    /// Lease acquisition, renewal and take-over.
    keeper: Arc<Conn>,
    node: String,
    ttl_ms: i64,
    held: Held,
    /// The cluster's secret (`postgres/cluster.rs`).
    secret: String,
    /// Where this node answers gRPC, once told (published with every
    /// renewal).
    advertised: Arc<Mutex<Option<String>>>,
    /// The lobby's changes, until taken.
    lobby: Mutex<Option<mpsc::UnboundedReceiver<StoredBrief>>>,
}

/// Connects one client, its connection driven by a task of the current
/// runtime.
pub(super) async fn connect_one(url: &str) -> Result<Client, StoreError> {
    let (client, conn) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            warn!(error = %e, "a PostgreSQL connection ended");
        }
    });
    Ok(client)
}

/// A connection made again when it broke (PostgreSQL restarted, a
/// network cut): the next request after it reconnects.
pub(super) struct Conn {
    url: String,
    client: tokio::sync::Mutex<Arc<Client>>,
}

impl Conn {
    async fn open(url: &str) -> Result<Conn, StoreError> {
        Ok(Conn { url: url.to_string(), client: tokio::sync::Mutex::new(Arc::new(connect_one(url).await?)) })
    }

    async fn get(&self) -> Result<Arc<Client>, StoreError> {
        let mut c = self.client.lock().await;
        if c.is_closed() {
            *c = Arc::new(connect_one(&self.url).await?);
        }
        Ok(Arc::clone(&c))
    }
}

#[cfg_attr(not(test), allow(dead_code))]
impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`), brings the
    /// schema to this version and starts the writer and the lease keeper.
    /// Blocking: call it off any async runtime (`spawn_blocking`).
    pub fn connect(url: &str, options: PgOptions) -> Result<PostgresStore, StoreError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("pg-store")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Writer(format!("cannot start the PostgreSQL runtime: {e}")))?;
        let handle = rt.handle().clone();
        let (writer_clients, reader, keeper) = rt.block_on(async {
            let mut w = connect_one(url).await?;
            let version = crate::store::migrations::postgres::migrate(&mut w).await?;
            info!(version, node = %options.node, writers = options.writers, "PostgreSQL schema ready");
            let mut writers = vec![w];
            while writers.len() < options.writers {
                writers.push(connect_one(url).await?);
            }
            Ok::<_, StoreError>((writers, Arc::new(Conn::open(url).await?), Arc::new(Conn::open(url).await?)))
        })?;
        let (secret, from) = rt.block_on(async {
            let c = keeper.get().await?;
            Ok::<_, StoreError>((cluster::secret(&c).await?, cluster::newest_lobby_seq(&c).await?))
        })?;
        let (lobby_tx, lobby_rx) = mpsc::unbounded_channel();
        handle.spawn(cluster::lobby_feed(url.to_string(), Arc::clone(&reader), from, lobby_tx));
        let advertised: Arc<Mutex<Option<String>>> = Arc::default();
        let ttl_ms = i64::try_from(options.lease_ttl.as_millis()).unwrap_or(i64::MAX).max(1);
        let held: Held = Arc::default();
        let mut writers = Vec::with_capacity(writer_clients.len());
        for client in writer_clients {
            let (tx, rx) = mpsc::unbounded_channel();
            let ctx =
                writer::Context { url: url.to_string(), node: options.node.clone(), ttl_ms, held: Arc::clone(&held) };
            handle.spawn(writer::run(client, rx, ctx));
            writers.push(tx);
        }
        if let Some(every) = options.renew_every {
            let renew = Renewal {
                keeper: Arc::clone(&keeper),
                node: options.node.clone(),
                ttl_ms,
                every,
                held: Arc::clone(&held),
                advertised: Arc::clone(&advertised),
            };
            handle.spawn(renew_loop(renew));
        }
        Ok(PostgresStore {
            rt: Some(rt),
            handle,
            writers,
            reader,
            keeper,
            node: options.node,
            ttl_ms,
            held,
            secret,
            advertised,
            lobby: Mutex::new(Some(lobby_rx)),
        })
    }

    /// Runs `f` on the store's runtime and waits for it (blocking).
    fn block<T: Send + 'static>(
        &self,
        f: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.handle.spawn(async move {
            let _ = tx.send(f.await);
        });
        rx.blocking_recv()
            .unwrap_or_else(|_| Err(StoreError::Writer("the PostgreSQL runtime dropped a request".into())))
    }

    /// Queues `op` for its game's writer; the receiver completes once its
    /// batch committed.
    fn submit(&self, op: Op) -> Done {
        use std::hash::{Hash, Hasher};
        let (done, rx) = oneshot::channel();
        let mut h = std::hash::DefaultHasher::new();
        op.game().hash(&mut h);
        let Some(writer) = self.writers.get(h.finish() as usize % self.writers.len().max(1)) else {
            let _ = done.send(Err(StoreError::Writer("no PostgreSQL writer".into())));
            return rx;
        };
        if let Err(mpsc::error::SendError(r)) = writer.send(Request { op, done }) {
            let _ = r.done.send(Err(StoreError::Writer("the PostgreSQL writer has stopped".into())));
        }
        rx
    }

    fn write(&self, op: Op) -> Result<(), StoreError> {
        self.submit(op)
            .blocking_recv()
            .unwrap_or_else(|_| Err(StoreError::Writer("the PostgreSQL writer dropped a request".into())))
    }

    /// Takes the game's lease for this node: when it has none, when it ran
    /// out, or when it is this node's own (from before a restart: the
    /// epoch is raised all the same). [`StoreError::LeaseHeld`] when
    /// another node holds a live one.
    pub fn acquire(&self, game_id: &str) -> Result<Lease, StoreError> {
        let (keeper, game, node, ttl, held) =
            (Arc::clone(&self.keeper), game_id.to_string(), self.node.clone(), self.ttl_ms, Arc::clone(&self.held));
        self.block(async move {
            let keeper = keeper.get().await?;
            let epoch = acquire_on(&keeper, &game, &node, ttl).await?;
            let epoch = hold(&mut lock(&held), &game, epoch);
            Ok(Lease { game, owner: node, epoch })
        })
    }

    /// Extends `lease` by the lease time, as long as its epoch is still the
    /// game's (even when it ran out meanwhile: nobody else wrote);
    /// [`StoreError::LeaseLost`] otherwise.
    pub fn renew(&self, lease: &Lease) -> Result<Lease, StoreError> {
        let (keeper, lease, node, ttl, held) =
            (Arc::clone(&self.keeper), lease.clone(), self.node.clone(), self.ttl_ms, Arc::clone(&self.held));
        self.block(async move {
            let keeper = keeper.get().await?;
            let kept = renew_on(&keeper, &node, ttl, &[(lease.game.clone(), lease.epoch)]).await?;
            if kept.is_empty() {
                {
                    let mut held = lock(&held);
                    if held.get(&lease.game) == Some(&lease.epoch) {
                        held.remove(&lease.game);
                    }
                }
                let held_by = holder_on(&keeper, &lease.game).await?;
                return Err(StoreError::LeaseLost { game: lease.game, node, epoch: lease.epoch, held_by });
            }
            Ok(lease)
        })
    }

    /// Takes over up to `limit` live games (open or playing) whose leases
    /// ran out, whoever held them, each with its epoch raised.
    pub fn take_over_expired(&self, limit: i64) -> Result<Vec<Lease>, StoreError> {
        let (keeper, node, ttl, held) =
            (Arc::clone(&self.keeper), self.node.clone(), self.ttl_ms, Arc::clone(&self.held));
        self.block(async move {
            let keeper = keeper.get().await?;
            let rows = keeper
                .query(
                    "UPDATE leases l SET owner = $1, epoch = l.epoch + 1,
                            expires_at = now() + $2::bigint * interval '1 millisecond'
                      WHERE l.game_id IN (
                              SELECT x.game_id FROM leases x JOIN games g ON g.id = x.game_id
                               WHERE x.expires_at <= now() AND x.owner <> ''
                                 AND g.status IN ('open', 'playing')
                               ORDER BY x.expires_at LIMIT $3
                                 FOR UPDATE OF x SKIP LOCKED)
                        AND l.expires_at <= now()
                  RETURNING l.game_id, l.epoch",
                    &[&node, &ttl, &limit],
                )
                .await?;
            let mut held = lock(&held);
            Ok(rows
                .iter()
                .map(|r| {
                    let (game, epoch): (String, i64) = (r.get(0), r.get(1));
                    let epoch = hold(&mut held, &game, epoch);
                    Lease { game, owner: node.clone(), epoch }
                })
                .collect())
        })
    }

    /// Hands the lease of `game` this node holds to node `to`: its epoch
    /// raised (this node writes to it no more) and a fresh expiry; `to`
    /// adopts it ([`PostgresStore::adopt`]) or takes it up when first
    /// touched. False when this node held it no more.
    pub fn hand(&self, game: &str, to: &str) -> Result<bool, StoreError> {
        let Some(epoch) = lock(&self.held).remove(game) else { return Ok(false) };
        let (keeper, game, node, to, ttl) =
            (Arc::clone(&self.keeper), game.to_string(), self.node.clone(), to.to_string(), self.ttl_ms);
        self.block(async move {
            let n = keeper
                .get()
                .await?
                .execute(
                    "UPDATE leases SET owner = $3, epoch = epoch + 1,
                            expires_at = now() + $5::bigint * interval '1 millisecond'
                      WHERE game_id = $1 AND owner = $2 AND epoch = $4",
                    &[&game, &node, &to, &epoch, &ttl],
                )
                .await?;
            Ok(n == 1)
        })
    }

    /// Takes up the live games whose leases name this node and that it does
    /// not hold (handed to it by another node, or left by its previous run
    /// under the same name), each with its epoch raised: their ids.
    pub fn adopt(&self) -> Result<Vec<String>, StoreError> {
        let (keeper, node, ttl, held) =
            (Arc::clone(&self.keeper), self.node.clone(), self.ttl_ms, Arc::clone(&self.held));
        let holding: Vec<String> = lock(&held).keys().cloned().collect();
        self.block(async move {
            let rows = keeper
                .get()
                .await?
                .query(
                    "UPDATE leases l SET epoch = l.epoch + 1,
                            expires_at = now() + $2::bigint * interval '1 millisecond'
                       FROM games g
                      WHERE g.id = l.game_id AND g.status IN ('open', 'playing')
                        AND l.owner = $1 AND l.expires_at > now() AND l.game_id <> ALL($3::text[])
                  RETURNING l.game_id, l.epoch",
                    &[&node, &ttl, &holding],
                )
                .await?;
            let mut held = lock(&held);
            Ok(rows
                .iter()
                .map(|r| {
                    let (game, epoch): (String, i64) = (r.get(0), r.get(1));
                    hold(&mut held, &game, epoch);
                    game
                })
                .collect())
        })
    }

    /// Gives a lease up (a drain): it runs out now, so another node can
    /// take the game over at once; this node writes to it no more.
    pub fn release(&self, lease: &Lease) -> Result<(), StoreError> {
        let (keeper, lease, node, held) =
            (Arc::clone(&self.keeper), lease.clone(), self.node.clone(), Arc::clone(&self.held));
        self.block(async move {
            lock(&held).remove(&lease.game);
            keeper
                .get()
                .await?
                .execute(
                    "UPDATE leases SET expires_at = now() WHERE game_id = $1 AND owner = $2 AND epoch = $3",
                    &[&lease.game, &node, &lease.epoch],
                )
                .await?;
            Ok(())
        })
    }

    /// Who holds the game's lease, as the database says ("nobody", or
    /// "NODE epoch N", with "(expired)" when it ran out).
    pub fn holder(&self, game_id: &str) -> Result<String, StoreError> {
        let (keeper, game) = (Arc::clone(&self.keeper), game_id.to_string());
        self.block(async move { holder_on(&*keeper.get().await?, &game).await })
    }

    /// The leases this node believes it holds (game, epoch), by game.
    pub fn held(&self) -> Vec<(String, i64)> {
        let mut v: Vec<_> = lock(&self.held).iter().map(|(g, e)| (g.clone(), *e)).collect();
        v.sort();
        v
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            // Safe on an async thread too; requests in flight are answered
            // with an error (nothing unacknowledged counts as written).
            rt.shutdown_background();
        }
    }
}

/// The SQL that takes a game's lease (see [`PostgresStore::acquire`]);
/// returns the new epoch, or no row when another node holds it live or
/// the game does not exist.
pub(super) const ACQUIRE_SQL: &str = "
    INSERT INTO leases (game_id, owner, epoch, expires_at)
    SELECT id, $2, 1, now() + $3::bigint * interval '1 millisecond' FROM games WHERE id = $1
    ON CONFLICT (game_id) DO UPDATE
       SET owner = EXCLUDED.owner, epoch = leases.epoch + 1, expires_at = EXCLUDED.expires_at
     WHERE leases.expires_at <= now() OR leases.owner = EXCLUDED.owner
    RETURNING epoch";

pub(super) async fn acquire_on(c: &Client, game: &str, node: &str, ttl_ms: i64) -> Result<i64, StoreError> {
    let rows = c.query(ACQUIRE_SQL, &[&game, &node, &ttl_ms]).await?;
    if let Some(r) = rows.first() {
        return Ok(r.get(0));
    }
    let row = c.query_opt("SELECT owner, epoch FROM leases WHERE game_id = $1", &[&game]).await?;
    match row {
        Some(r) => Err(StoreError::LeaseHeld { game: game.to_string(), owner: r.get(0), epoch: r.get(1) }),
        None => Err(StoreError::NoSuchGame(game.to_string())),
    }
}

async fn renew_on(c: &Client, node: &str, ttl_ms: i64, leases: &[(String, i64)]) -> Result<Vec<String>, StoreError> {
    let games: Vec<&str> = leases.iter().map(|(g, _)| g.as_str()).collect();
    let epochs: Vec<i64> = leases.iter().map(|(_, e)| *e).collect();
    let rows = c
        .query(
            // The rows are locked in the byte order of their game ids (the
            // "C" collation), the order in which the writer takes its share
            // locks on them, so the two never deadlock.
            r#"WITH mine AS (
                SELECT l.game_id FROM leases l
                  JOIN unnest($3::text[], $4::bigint[]) AS h(game_id, epoch)
                    ON l.game_id = h.game_id AND l.epoch = h.epoch
                 WHERE l.owner = $1
                 ORDER BY l.game_id COLLATE "C"
                   FOR UPDATE OF l)
             UPDATE leases l SET expires_at = now() + $2::bigint * interval '1 millisecond'
               FROM mine WHERE l.game_id = mine.game_id
             RETURNING l.game_id"#,
            &[&node, &ttl_ms, &games, &epochs],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

pub(super) async fn holder_on(c: &Client, game: &str) -> Result<String, StoreError> {
    let row = c
        .query_opt(
            "SELECT owner || ' epoch ' || epoch || CASE WHEN expires_at > now() THEN '' ELSE ' (expired)' END
               FROM leases WHERE game_id = $1",
            &[&game],
        )
        .await?;
    Ok(row.map_or_else(|| "nobody".to_string(), |r| r.get(0)))
}

/// What the renewal task needs.
struct Renewal {
    keeper: Arc<Conn>,
    node: String,
    ttl_ms: i64,
    every: Duration,
    held: Held,
    advertised: Arc<Mutex<Option<String>>>,
}

/// Renews every lease held, every `every`, and says where this node
/// answers; forgets the leases lost.
async fn renew_loop(r: Renewal) {
    let Renewal { keeper, node, ttl_ms, every, held, advertised } = r;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let address = advertised.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(address) = address {
            let published = match keeper.get().await {
                Ok(c) => cluster::publish(&c, &node, &address).await,
                Err(e) => Err(e),
            };
            if let Err(e) = published {
                warn!(error = %e, "could not say where this node answers; retrying");
            }
        }
        let leases: Vec<(String, i64)> = lock(&held).iter().map(|(g, e)| (g.clone(), *e)).collect();
        crate::metrics::global().set_leases_held(leases.len());
        if leases.is_empty() {
            continue;
        }
        let renewed = match keeper.get().await {
            Ok(c) => renew_on(&c, &node, ttl_ms, &leases).await,
            Err(e) => Err(e),
        };
        match renewed {
            Ok(kept) => {
                let kept: std::collections::HashSet<String> = kept.into_iter().collect();
                let mut held = lock(&held);
                for (game, epoch) in leases {
                    if !kept.contains(&game) && held.get(&game) == Some(&epoch) {
                        warn!(game, epoch, "lease lost: another node owns the game now");
                        held.remove(&game);
                    }
                }
            }
            Err(e) => warn!(error = %e, "renewing leases failed; retrying"),
        }
    }
}

impl GameStore for PostgresStore {
    fn create_game(&self, game: &GameRecord, entries: &[EntryRecord]) -> Result<(), StoreError> {
        self.write(Op::Create { game: Box::new(game.clone()), entries: entries.to_vec() })
    }

    fn append_entry(&self, game_id: &str, entry: &EntryRecord) -> Result<(), StoreError> {
        self.append_entry_async(game_id, entry)
            .blocking_recv()
            .unwrap_or_else(|_| Err(StoreError::Writer("the PostgreSQL writer dropped a request".into())))
    }

    fn append_entry_async(&self, game_id: &str, entry: &EntryRecord) -> Done {
        self.submit(Op::Append { game: game_id.to_string(), entry: entry.clone() })
    }

    fn set_clock(&self, game_id: &str, clock: &crate::clock::ClockRecord) -> Result<(), StoreError> {
        let json = serde_json::to_string(clock).map_err(|e| StoreError::Corrupt(format!("clock of {game_id}: {e}")))?;
        self.write(Op::Clock { game: game_id.to_string(), json })
    }

    fn put_mutes(&self, game_id: &str, mutes: &crate::model::MuteRecord) -> Result<(), StoreError> {
        let json = crate::store::mutes_to_json(mutes)?;
        let row = crate::model::MuteRecord::row(mutes.seat);
        self.write(Op::Mutes { game: game_id.to_string(), row, json })
    }

    fn append_talk(&self, game_id: &str, line: &TalkRecord) -> Result<(), StoreError> {
        let json = crate::store::talk_to_json(line)?;
        let talk_seq = i64::try_from(line.talk_seq).map_err(|_| StoreError::Corrupt("talk_seq too large".into()))?;
        self.write(Op::Talk { game: game_id.to_string(), talk_seq, json })
    }

    fn put_seat(&self, game_id: &str, seat: &SeatRecord) -> Result<(), StoreError> {
        self.write(Op::Seat { game: game_id.to_string(), seat: seat.clone() })
    }

    fn set_status(&self, game_id: &str, status: Status, ended_ms: Option<i64>) -> Result<(), StoreError> {
        // An ended game keeps its lease (and its renewal) until retention
        // deletes it: its summary is still written after its end.
        self.write(Op::Status { game: game_id.to_string(), status, ended_ms })
    }

    fn delete_game(&self, game_id: &str) -> Result<(), StoreError> {
        lock(&self.held).remove(game_id);
        self.write(Op::Delete { game: game_id.to_string() })
    }

    fn load_briefs(&self) -> Result<Vec<StoredBrief>, StoreError> {
        let reader = Arc::clone(&self.reader);
        self.block(async move { load_briefs(&*reader.get().await?).await })
    }

    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
        let (reader, id) = (Arc::clone(&self.reader), game_id.to_string());
        self.block(async move { load_game(&*reader.get().await?, &id).await })
    }

    fn put_summary(&self, game_id: &str, summary: Vec<u8>, seq: u64, last_move_ms: i64) -> Done {
        let seq = i64::try_from(seq).unwrap_or(i64::MAX);
        self.submit(Op::Summary { game: game_id.to_string(), summary, seq, last_move_ms })
    }

    fn own(&self, game_id: &str) -> Result<Option<i64>, StoreError> {
        if lock(&self.held).contains_key(game_id) {
            return Ok(None);
        }
        self.acquire(game_id).map(|l| Some(l.epoch))
    }

    fn owns(&self, game_id: &str) -> bool {
        lock(&self.held).contains_key(game_id)
    }

    fn disown(&self, game_id: &str) {
        let Some(epoch) = lock(&self.held).remove(game_id) else { return };
        let (keeper, game, node) = (Arc::clone(&self.keeper), game_id.to_string(), self.node.clone());
        self.handle.spawn(async move {
            let given_up = match keeper.get().await {
                Ok(c) => c
                    .execute(
                        "UPDATE leases SET owner = '', expires_at = now()
                          WHERE game_id = $1 AND owner = $2 AND epoch = $3",
                        &[&game, &node, &epoch],
                    )
                    .await
                    .map_err(StoreError::from),
                Err(e) => Err(e),
            };
            if let Err(e) = given_up {
                // The lease runs out by itself.
                warn!(game, error = %e, "could not give a game's lease up");
            }
        });
    }

    fn take_over_lapsed(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        Ok(self.take_over_expired(limit)?.into_iter().map(|l| l.game).collect())
    }

    fn cluster(&self) -> Option<&dyn ClusterStore> {
        Some(self)
    }
}

impl ClusterStore for PostgresStore {
    fn node(&self) -> &str {
        &self.node
    }

    fn secret(&self) -> &str {
        &self.secret
    }

    fn advertise(&self, address: &str) {
        *self.advertised.lock().unwrap_or_else(|e| e.into_inner()) = Some(address.to_string());
        let (keeper, node, address) = (Arc::clone(&self.keeper), self.node.clone(), address.to_string());
        let published = self.block(async move { cluster::publish(&*keeper.get().await?, &node, &address).await });
        if let Err(e) = published {
            warn!(error = %e, "could not say where this node answers yet; retrying with the leases");
        }
    }

    fn node_address(&self, node: &str) -> Result<Option<String>, StoreError> {
        let (reader, node) = (Arc::clone(&self.reader), node.to_string());
        self.block(async move { cluster::address_of(&*reader.get().await?, &node).await })
    }

    fn lobby_changes(&self) -> Option<mpsc::UnboundedReceiver<StoredBrief>> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn ping(&self) -> Result<(), StoreError> {
        let reader = Arc::clone(&self.reader);
        self.block(async move {
            reader.get().await?.simple_query("SELECT 1").await?;
            Ok(())
        })
    }

    fn ownership(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let (reader, alive_ms) = (Arc::clone(&self.reader), self.ttl_ms.saturating_mul(2));
        self.block(async move { cluster::ownership(&*reader.get().await?, alive_ms).await })
    }

    fn hand_over(&self, game_id: &str, to: &str) -> Result<bool, StoreError> {
        self.hand(game_id, to)
    }

    fn adopt_handed(&self) -> Result<Vec<String>, StoreError> {
        self.adopt()
    }

    fn release_all(&self) -> Result<usize, StoreError> {
        let leases: Vec<(String, i64)> = std::mem::take(&mut *lock(&self.held)).into_iter().collect();
        // A draining node says no more where it answers: the others count it
        // out of the balance and hand it nothing.
        *self.advertised.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let (keeper, node) = (Arc::clone(&self.keeper), self.node.clone());
        let n = leases.len();
        self.block(async move {
            let (games, epochs): (Vec<String>, Vec<i64>) = leases.into_iter().unzip();
            let keeper = keeper.get().await?;
            keeper.execute("UPDATE nodes SET seen_at = 'epoch' WHERE name = $1", &[&node]).await?;
            keeper
                .execute(
                    "UPDATE leases l SET expires_at = now()
                       FROM unnest($2::text[], $3::bigint[]) AS h(game_id, epoch)
                      WHERE l.game_id = h.game_id AND l.epoch = h.epoch AND l.owner = $1",
                    &[&node, &games, &epochs],
                )
                .await?;
            Ok(n)
        })
    }
}

/// The lobby's view of every game. A game played since its stored
/// summary takes its seq and last move from its newest entry (one descent
/// of the choices key, only for such games).
async fn load_briefs(c: &Client) -> Result<Vec<StoredBrief>, StoreError> {
    let rows = c
        .query(
            "SELECT g.id, g.created_ms, g.status, g.ended_ms, g.last_move_ms, g.seq, g.summary, n.seq, n.at_ms
               FROM games g
               LEFT JOIN LATERAL (SELECT c.seq, c.at_ms FROM choices c
                                   WHERE c.game_id = g.id AND g.seq IS NOT NULL AND c.seq > g.seq
                                   ORDER BY c.seq DESC LIMIT 1) n ON true
              ORDER BY g.created_ms, g.id",
            &[],
        )
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        let status: String = r.get(2);
        let status =
            Status::parse(&status).ok_or_else(|| StoreError::Corrupt(format!("game {id}: status '{status}'")))?;
        let (mut seq, mut last_move_ms): (Option<i64>, Option<i64>) = (r.get(5), r.get(4));
        if let (Some(s), Some(at)) = (r.get::<_, Option<i64>>(7), r.get::<_, Option<i64>>(8)) {
            (seq, last_move_ms) = (Some(s), Some(at));
        }
        out.push(StoredBrief {
            id,
            created_ms: r.get(1),
            status,
            ended_ms: r.get(3),
            last_move_ms,
            seq: seq.map(|n| n.max(0) as u64),
            summary: r.get(6),
        });
    }
    Ok(out)
}

/// One game with its seats and entries.
async fn load_game(c: &Client, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(g) = c
        .query_opt(
            "SELECT config_json, created_ms, status, forked_from, forked_at_seq, idle_timeout_s, creator_hash,
                    ended_ms, resamples, kind, seed_chosen, clock FROM games WHERE id = $1",
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let corrupt = |what: String| StoreError::Corrupt(format!("game {id}: {what}"));
    let status: String = g.get(2);
    let status = Status::parse(&status).ok_or_else(|| corrupt(format!("status '{status}'")))?;
    let resamples = match g.get::<_, Option<String>>(8) {
        None => Vec::new(),
        Some(text) => Resample::decode(&text).ok_or_else(|| corrupt(format!("resamples '{text}'")))?,
    };
    let clock = match g.get::<_, Option<String>>(11) {
        None => None,
        Some(text) => Some(serde_json::from_str(&text).map_err(|e| corrupt(format!("clock '{text}': {e}")))?),
    };
    let forked_from = g.get::<_, Option<String>>(3).map(|f| (f, g.get::<_, Option<i64>>(4).unwrap_or(0).max(0) as u64));
    let mut seats = Vec::new();
    for r in c
        .query("SELECT seat, open_to, token_hash, claimed_by FROM seats WHERE game_id = $1 ORDER BY seat", &[&id])
        .await?
    {
        let seat = u8::try_from(r.get::<_, i16>(0)).map_err(|_| corrupt("a seat out of range".into()))?;
        let open_to: String = r.get(1);
        let open_to = OpenTo::parse(&open_to).ok_or_else(|| corrupt(format!("seat {seat}: open_to '{open_to}'")))?;
        let claim = match (r.get::<_, Option<String>>(2), r.get::<_, Option<String>>(3)) {
            (Some(token_hash), Some(by)) => Some(Claim {
                token_hash,
                by: ClaimantKind::parse(&by).ok_or_else(|| corrupt(format!("seat {seat}: by '{by}'")))?,
            }),
            _ => None,
        };
        seats.push(SeatRecord { seat, open_to, claim });
    }
    let mut entries = Vec::new();
    for r in c
        .query(
            "SELECT seq, seat, option_id, at_ms, kind, played_by, clock_ms FROM choices
              WHERE game_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?
    {
        let seq: i64 = r.get(0);
        let kind: String = r.get(4);
        let kind = EntryKind::parse(&kind).ok_or_else(|| corrupt(format!("entry {seq}: kind '{kind}'")))?;
        entries.push(EntryRecord {
            seq: seq.max(0) as u64,
            kind,
            seat: u8::try_from(r.get::<_, i16>(1)).map_err(|_| corrupt(format!("entry {seq}: seat")))?,
            option_id: r.get(2),
            at_ms: r.get(3),
            played_by: r.get::<_, Option<String>>(5).as_deref().and_then(crate::model::PlayedBy::parse),
            clock_ms: r.get(6),
        });
    }
    let (mut talk, mut mutes) = (Vec::new(), Vec::new());
    for r in c.query("SELECT talk_seq, line FROM talk WHERE game_id = $1 ORDER BY talk_seq", &[&id]).await? {
        crate::store::talk_row(id, r.get(0), &r.get::<_, String>(1), &mut talk, &mut mutes)?;
    }
    Ok(Some(StoredGame {
        record: GameRecord {
            id: id.to_string(),
            game_type: g.get(9),
            config_json: g.get(0),
            created_ms: g.get(1),
            status,
            forked_from,
            idle_timeout_s: u32::try_from(g.get::<_, i64>(5)).unwrap_or(0),
            seats,
            creator_hash: g.get(6),
            ended_ms: g.get(7),
            resamples,
            seed_chosen: g.get(10),
            clock,
        },
        entries,
        talk,
        mutes,
    }))
}
