//! Group commit on PostgreSQL: one task owns the writer's connection. It
//! takes every request waiting at once and writes them in one transaction:
//! `BEGIN`, the requests' statements sent back to back without waiting for
//! each answer (tokio-postgres pipelines concurrent queries on one
//! connection, in the order sent), then one `COMMIT`, so a batch costs
//! about two round trips and one WAL flush however many games it holds.
//! Only then is each caller told how its request went.
//!
//! Every write to an existing game (an append, a seat, the clock, the
//! status, the summary) is one statement fenced by this node's lease: it
//! writes only while the node's epoch is the game's and the lease is live,
//! and keeps the lease row share-locked until the commit. A write refused
//! for a reason the statement itself checks (lease lost, duplicate seq: no
//! row written) fails alone, with the rest of the batch committed. A statement error aborts the whole
//! transaction: then the batch is rolled back and each request is run
//! again in a transaction of its own, so each caller gets its own answer.
//! When a commit fails, every request of it gets the error: nothing of
//! that batch is ever reported durable.

use super::{Held, acquire_on, connect_one, holder_on, lock};
use crate::model::{EntryRecord, GameRecord, Resample, SeatRecord, Status};
use crate::store::StoreError;
use futures_util::future::join_all;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Statement};
use tracing::warn;

/// Most requests in one transaction.
const MAX_BATCH: usize = 512;

/// One write.
pub(crate) enum Op {
    /// A new game with its seats and first entries, and this node's lease.
    Create { game: Box<GameRecord>, entries: Vec<EntryRecord> },
    /// One entry, fenced by this node's lease.
    Append { game: String, entry: EntryRecord },
    /// A seat's record, fenced.
    Seat { game: String, seat: SeatRecord },
    /// The clock's JSON.
    Clock { game: String, json: String },
    /// One line of table talk (its JSON), fenced.
    Talk { game: String, talk_seq: i64, json: String },
    /// One seat's mutes (its row of the talk table), replaced, fenced.
    Mutes { game: String, row: i64, json: String },
    /// A status change.
    Status { game: String, status: Status, ended_ms: Option<i64> },
    /// Retention: the game with everything of it.
    Delete { game: String },
    /// The lobby's summary.
    Summary { game: String, summary: Vec<u8>, seq: i64, last_move_ms: i64 },
}

impl Op {
    /// The game it writes to.
    pub(crate) fn game(&self) -> &str {
        match self {
            Op::Create { game, .. } => &game.id,
            Op::Append { game, .. }
            | Op::Seat { game, .. }
            | Op::Clock { game, .. }
            | Op::Talk { game, .. }
            | Op::Mutes { game, .. }
            | Op::Status { game, .. }
            | Op::Delete { game }
            | Op::Summary { game, .. } => game,
        }
    }

    /// Several statements, each waiting for the one before: run alone,
    /// not pipelined with its neighbours.
    fn is_compound(&self) -> bool {
        matches!(self, Op::Create { .. })
    }

    /// Whether it changes what the lobby shows of its game.
    fn changes_the_lobby(&self) -> bool {
        matches!(self, Op::Create { .. } | Op::Status { .. } | Op::Summary { .. })
    }
}

/// A queued request.
pub(crate) struct Request {
    pub op: Op,
    pub done: oneshot::Sender<Result<(), StoreError>>,
}

/// What the writer knows of its node.
pub(crate) struct Context {
    /// Where to reconnect.
    pub url: String,
    /// This node.
    pub node: String,
    /// Lease time, ms.
    pub ttl_ms: i64,
    /// The leases held.
    pub held: Held,
}

/// The writer's prepared statements.
struct Stmts {
    append: Statement,
    seat: Statement,
    clock: Statement,
    talk: Statement,
    mutes: Statement,
    status: Statement,
    delete: Statement,
    summary: Statement,
    game: Statement,
    lease: Statement,
}

/// The fence of an update of game `$1`: this node (`$n`) holds its lease
/// with epoch `$n+1`, live; the lease row stays share-locked until the
/// commit.
fn fence(n: usize) -> String {
    format!(
        "EXISTS (SELECT 1 FROM leases l WHERE l.game_id = $1 AND l.owner = ${n} AND l.epoch = ${}
                                          AND l.expires_at > now() FOR SHARE)",
        n + 1
    )
}

impl Stmts {
    async fn prepare(c: &Client) -> Result<Stmts, tokio_postgres::Error> {
        Ok(Stmts {
            // The fence: the row is inserted only while this node's epoch
            // is the game's and its lease is live, and the lease row stays
            // share-locked until the commit, so a take-over (an UPDATE of
            // that row) waits for it, and an append after the take-over
            // sees the new epoch and inserts nothing.
            append: c
                .prepare(
                    "INSERT INTO choices (game_id, seq, seat, option_id, at_ms, kind, played_by, clock_ms)
                     SELECT l.game_id, $2::bigint, $3::smallint, $4::text, $5::bigint, $6::text, $7::text, $8::bigint
                       FROM leases l
                      WHERE l.game_id = $1 AND l.owner = $9 AND l.epoch = $10 AND l.expires_at > now()
                        FOR SHARE
                     ON CONFLICT (game_id, seq) DO NOTHING",
                )
                .await?,
            // The game's other writes carry the same fence.
            seat: c
                .prepare(
                    "INSERT INTO seats (game_id, seat, open_to, token_hash, claimed_by)
                     SELECT l.game_id, $2::smallint, $3::text, $4::text, $5::text FROM leases l
                      WHERE l.game_id = $1 AND l.owner = $6 AND l.epoch = $7 AND l.expires_at > now()
                        FOR SHARE
                     ON CONFLICT (game_id, seat) DO UPDATE
                        SET open_to = EXCLUDED.open_to, token_hash = EXCLUDED.token_hash,
                            claimed_by = EXCLUDED.claimed_by",
                )
                .await?,
            clock: c.prepare(&format!("UPDATE games SET clock = $2 WHERE id = $1 AND {}", fence(3))).await?,
            talk: c
                .prepare(
                    "INSERT INTO talk (game_id, talk_seq, line)
                     SELECT l.game_id, $2::bigint, $3::text FROM leases l
                      WHERE l.game_id = $1 AND l.owner = $4 AND l.epoch = $5 AND l.expires_at > now()
                        FOR SHARE
                     ON CONFLICT (game_id, talk_seq) DO NOTHING",
                )
                .await?,
            mutes: c
                .prepare(
                    "INSERT INTO talk (game_id, talk_seq, line)
                     SELECT l.game_id, $2::bigint, $3::text FROM leases l
                      WHERE l.game_id = $1 AND l.owner = $4 AND l.epoch = $5 AND l.expires_at > now()
                        FOR SHARE
                     ON CONFLICT (game_id, talk_seq) DO UPDATE SET line = EXCLUDED.line",
                )
                .await?,
            status: c
                .prepare(&format!(
                    "UPDATE games SET status = $2, ended_ms = $3, lobby_seq = nextval('lobby_seq') WHERE id = $1 AND {}",
                    fence(4)
                ))
                .await?,
            delete: c.prepare("DELETE FROM games WHERE id = $1").await?,
            summary: c
                .prepare(&format!(
                    "UPDATE games SET summary = $2, seq = $3, last_move_ms = $4, lobby_seq = nextval('lobby_seq')
                      WHERE id = $1 AND {}",
                    fence(5)
                ))
                .await?,
            game: c
                .prepare(
                    "INSERT INTO games (id, kind, config_json, created_ms, status, forked_from, forked_at_seq,
                                        idle_timeout_s, creator_hash, ended_ms, resamples, seed_chosen, clock)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                )
                .await?,
            lease: c
                .prepare(
                    "INSERT INTO leases (game_id, owner, epoch, expires_at)
                     VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond')",
                )
                .await?,
        })
    }
}

/// The values of an append's statement.
struct AppendArgs {
    seq: i64,
    seat: i16,
    kind: &'static str,
    played_by: Option<&'static str>,
}

impl AppendArgs {
    fn of(e: &EntryRecord) -> Result<AppendArgs, StoreError> {
        Ok(AppendArgs {
            seq: i64::try_from(e.seq).map_err(|_| StoreError::Corrupt(format!("seq {} too large", e.seq)))?,
            seat: i16::from(e.seat),
            kind: e.kind.as_str(),
            played_by: e.played_by.map(crate::model::PlayedBy::as_str),
        })
    }
}

/// Sends one fenced append; the rows inserted (0 or 1).
async fn append(
    c: &Client,
    st: &Stmts,
    ctx: &Context,
    game: &String,
    entry: &EntryRecord,
    epoch: i64,
) -> Result<u64, StoreError> {
    let a = AppendArgs::of(entry)?;
    let params: [&(dyn ToSql + Sync); 10] = [
        game,
        &a.seq,
        &a.seat,
        &entry.option_id,
        &entry.at_ms,
        &a.kind,
        &a.played_by,
        &entry.clock_ms,
        &ctx.node,
        &epoch,
    ];
    Ok(c.execute(&st.append, &params).await?)
}

/// Sends one seat's upsert.
async fn put_seat(
    c: &Client,
    st: &Stmts,
    ctx: &Context,
    game: &String,
    seat: &SeatRecord,
    epoch: i64,
) -> Result<u64, StoreError> {
    let (seat_no, open_to) = (i16::from(seat.seat), seat.open_to.as_str());
    let hash = seat.claim.as_ref().map(|c| c.token_hash.as_str());
    let by = seat.claim.as_ref().map(|c| c.by.as_str());
    Ok(c.execute(&st.seat, &[game, &seat_no, &open_to, &hash, &by, &ctx.node, &epoch]).await?)
}

/// Runs one op's statements; returns the rows the last one touched.
async fn exec(c: &Client, st: &Stmts, ctx: &Context, op: &Op, epoch: i64) -> Result<u64, StoreError> {
    Ok(match op {
        Op::Append { game, entry } => append(c, st, ctx, game, entry, epoch).await?,
        Op::Seat { game, seat } => put_seat(c, st, ctx, game, seat, epoch).await?,
        Op::Clock { game, json } => c.execute(&st.clock, &[game, json, &ctx.node, &epoch]).await?,
        Op::Talk { game, talk_seq, json } => c.execute(&st.talk, &[game, talk_seq, json, &ctx.node, &epoch]).await?,
        Op::Mutes { game, row, json } => c.execute(&st.mutes, &[game, row, json, &ctx.node, &epoch]).await?,
        Op::Status { game, status, ended_ms } => {
            c.execute(&st.status, &[game, &status.as_str(), ended_ms, &ctx.node, &epoch]).await?
        }
        Op::Delete { game } => c.execute(&st.delete, &[game]).await?,
        Op::Summary { game, summary, seq, last_move_ms } => {
            c.execute(&st.summary, &[game, summary, seq, last_move_ms, &ctx.node, &epoch]).await?
        }
        Op::Create { game, entries } => {
            let g = game.as_ref();
            let forked_at = g.forked_from.as_ref().map(|f| i64::try_from(f.1).unwrap_or(i64::MAX));
            c.execute(
                &st.game,
                &[
                    &g.id,
                    &g.game_type,
                    &g.config_json,
                    &g.created_ms,
                    &g.status.as_str(),
                    &g.forked_from.as_ref().map(|f| f.0.as_str()),
                    &forked_at,
                    &i64::from(g.idle_timeout_s),
                    &g.creator_hash,
                    &g.ended_ms,
                    &Resample::encode(&g.resamples),
                    &g.seed_chosen,
                    &g.clock.as_ref().and_then(|c| serde_json::to_string(c).ok()),
                ],
            )
            .await?;
            c.execute(&st.lease, &[&g.id, &ctx.node, &ctx.ttl_ms]).await?;
            for r in join_all(g.seats.iter().map(|s| put_seat(c, st, ctx, &g.id, s, 1))).await {
                r?;
            }
            // The game's first entries (a fork's), under the lease just taken.
            for (e, r) in entries.iter().zip(join_all(entries.iter().map(|e| append(c, st, ctx, &g.id, e, 1))).await) {
                if r? == 0 {
                    return Err(StoreError::Duplicate { game: g.id.clone(), seq: e.seq });
                }
            }
            1
        }
    })
}

/// What `rows` touched means for `op`: an append that inserted nothing is
/// asked why (in the same transaction); an update of no game is refused.
async fn judge(c: &Client, ctx: &Context, op: &Op, epoch: i64, rows: u64) -> Result<(), StoreError> {
    match op {
        Op::Append { game, entry } if rows == 0 => {
            let seq = i64::try_from(entry.seq).unwrap_or(i64::MAX);
            let r = c
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1),
                            EXISTS (SELECT 1 FROM leases WHERE game_id = $1 AND owner = $3 AND epoch = $4
                                                          AND expires_at > now()),
                            EXISTS (SELECT 1 FROM choices WHERE game_id = $1 AND seq = $2)",
                    &[game, &seq, &ctx.node, &epoch],
                )
                .await?;
            let (exists, owned, dup): (bool, bool, bool) = (r.get(0), r.get(1), r.get(2));
            Err(if !exists {
                StoreError::NoSuchGame(game.clone())
            } else if !owned {
                forget_if(&ctx.held, game, epoch);
                let held_by = holder_on(c, game).await?;
                StoreError::LeaseLost { game: game.clone(), node: ctx.node.clone(), epoch, held_by }
            } else if dup {
                StoreError::Duplicate { game: game.clone(), seq: entry.seq }
            } else {
                StoreError::Commit(format!("game {game}: entry {} was not written", entry.seq))
            })
        }
        Op::Seat { game, .. }
        | Op::Clock { game, .. }
        | Op::Talk { game, .. }
        | Op::Mutes { game, .. }
        | Op::Status { game, .. }
        | Op::Summary { game, .. }
            if rows == 0 =>
        {
            let r = c
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1),
                            EXISTS (SELECT 1 FROM leases WHERE game_id = $1 AND owner = $2 AND epoch = $3
                                                          AND expires_at > now())",
                    &[game, &ctx.node, &epoch],
                )
                .await?;
            let (exists, owned): (bool, bool) = (r.get(0), r.get(1));
            Err(if !exists {
                StoreError::NoSuchGame(game.clone())
            } else if !owned {
                forget_if(&ctx.held, game, epoch);
                let held_by = holder_on(c, game).await?;
                StoreError::LeaseLost { game: game.clone(), node: ctx.node.clone(), epoch, held_by }
            } else {
                StoreError::Commit(format!("game {game}: nothing was written"))
            })
        }
        _ => Ok(()),
    }
}

/// The writer task: batches until every sender is gone.
pub(crate) async fn run(mut client: Client, mut rx: mpsc::UnboundedReceiver<Request>, ctx: Context) {
    let mut stmts = match Stmts::prepare(&client).await {
        Ok(s) => Some(s),
        Err(e) => {
            warn!(error = %e, "cannot prepare the writer's statements");
            None
        }
    };
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if stmts.is_none() || client.is_closed() {
            match reconnect(&ctx.url).await {
                Ok((c, s)) => (client, stmts) = (c, Some(s)),
                Err(e) => {
                    warn!(error = %e, requests = batch.len(), "the writer cannot reach PostgreSQL");
                    for r in batch.drain(..) {
                        let _ = r.done.send(Err(StoreError::Commit(format!("no connection: {e}"))));
                    }
                    continue;
                }
            }
        }
        let Some(st) = stmts.as_ref() else { continue };
        let (ops, dones): (Vec<Op>, Vec<_>) = batch.drain(..).map(|r| (r.op, r.done)).unzip();
        let results = write_batch(&client, st, &ctx, &ops).await;
        crate::metrics::global().commit_batch(ops.len());
        if ops.iter().zip(&results).any(|(op, r)| r.is_ok() && op.changes_the_lobby()) {
            // A hint for the other nodes' lobbies (they also poll): sent
            // after the commit, so whoever reads on it sees the rows.
            if let Err(e) = client.batch_execute("NOTIFY xodus_lobby").await {
                warn!(error = %e, "could not notify the other nodes of a lobby change");
            }
        }
        for (done, r) in dones.into_iter().zip(results) {
            let _ = done.send(r);
        }
    }
}

async fn reconnect(url: &str) -> Result<(Client, Stmts), StoreError> {
    let c = connect_one(url).await?;
    let s = Stmts::prepare(&c).await?;
    Ok((c, s))
}

/// Forgets this node's lease on `game` if it is still `epoch` (a newer
/// one, taken meanwhile, stays).
fn forget_if(held: &super::Held, game: &str, epoch: i64) {
    let mut held = lock(held);
    if held.get(game) == Some(&epoch) {
        held.remove(game);
    }
}

/// The epoch each write of `ops` carries: the lease held, or one taken now
/// for a game this node has not written since it started.
async fn epochs(c: &Client, ctx: &Context, ops: &[Op]) -> Vec<Result<i64, StoreError>> {
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        // A new game takes its lease as it is made; retention deletes an
        // ended game whoever held it. Every other write is fenced.
        let (Op::Append { game, .. }
        | Op::Seat { game, .. }
        | Op::Clock { game, .. }
        | Op::Talk { game, .. }
        | Op::Mutes { game, .. }
        | Op::Status { game, .. }
        | Op::Summary { game, .. }) = op
        else {
            out.push(Ok(0));
            continue;
        };
        let known = lock(&ctx.held).get(game).copied();
        out.push(match known {
            Some(e) => Ok(e),
            None => match acquire_on(c, game, &ctx.node, ctx.ttl_ms).await {
                Ok(e) => Ok(super::hold(&mut lock(&ctx.held), game, e)),
                Err(StoreError::LeaseHeld { game, owner, epoch }) => Err(StoreError::LeaseLost {
                    game,
                    node: ctx.node.clone(),
                    epoch: 0,
                    held_by: format!("{owner} epoch {epoch}"),
                }),
                Err(e) => Err(e),
            },
        });
    }
    out
}

/// Writes `ops` in one transaction; one answer per op.
async fn write_batch(c: &Client, st: &Stmts, ctx: &Context, ops: &[Op]) -> Vec<Result<(), StoreError>> {
    let epochs = epochs(c, ctx, ops).await;
    let mut results: Vec<Option<Result<(), StoreError>>> =
        epochs.iter().map(|e| e.as_ref().err().map(|e| Err(clone_err(e)))).collect();
    let mut todo: Vec<usize> = (0..ops.len()).filter(|&i| results[i].is_none()).collect();
    // In the order of their game ids (each game's requests keep theirs):
    // the appends' share locks on lease rows are then taken in the order
    // the lease renewal takes its locks, so the two never deadlock.
    todo.sort_by(|&a, &b| ops[a].game().cmp(ops[b].game()));
    if todo.is_empty() {
        return results.into_iter().map(|r| r.unwrap_or(Ok(()))).collect();
    }
    let epoch = |i: usize| epochs[i].as_ref().copied().unwrap_or(0);
    match together(c, st, ctx, ops, &todo, &epoch).await {
        Ok(answers) => {
            for (i, a) in todo.iter().zip(answers) {
                results[*i] = Some(a);
            }
        }
        Err(Failure::Statement(e)) => {
            // One statement failed and took the transaction with it: each
            // request again, alone, for its own answer.
            warn!(error = %e, requests = todo.len(), "a batch failed; writing its requests one by one");
            for &i in &todo {
                results[i] = Some(alone(c, st, ctx, &ops[i], epoch(i)).await);
            }
        }
        Err(Failure::Commit(e)) => {
            warn!(error = %e, requests = todo.len(), "commit failed: no request of the batch is durable");
            for &i in &todo {
                results[i] = Some(Err(StoreError::Commit(e.clone())));
            }
        }
    }
    let results: Vec<Result<(), StoreError>> = results.into_iter().map(|r| r.unwrap_or(Ok(()))).collect();
    for (op, r) in ops.iter().zip(&results) {
        if let (Op::Create { game, .. }, Ok(())) = (op, r) {
            lock(&ctx.held).insert(game.id.clone(), 1);
        }
    }
    results
}

enum Failure {
    /// A statement failed; rolled back, nothing written.
    Statement(String),
    /// The commit failed (or its answer was lost): nothing is known durable.
    Commit(String),
}

/// `ops[todo]` in one transaction, pipelined between compound ops.
async fn together(
    c: &Client,
    st: &Stmts,
    ctx: &Context,
    ops: &[Op],
    todo: &[usize],
    epoch: &impl Fn(usize) -> i64,
) -> Result<Vec<Result<(), StoreError>>, Failure> {
    let mut rows: Vec<Result<u64, StoreError>> = Vec::with_capacity(todo.len());
    let begin = c.batch_execute("BEGIN");
    let mut begun = Some(begin);
    let mut k = 0;
    while k < todo.len() {
        // A run of single-statement ops, sent back to back.
        let mut end = k;
        while end < todo.len() && !ops[todo[end]].is_compound() {
            end += 1;
        }
        if end == k {
            end = k + 1;
        }
        let run = join_all(todo[k..end].iter().map(|&i| exec(c, st, ctx, &ops[i], epoch(i))));
        let (b, done) = match begun.take() {
            Some(b) => futures_util::future::join(b, run).await,
            None => (Ok(()), run.await),
        };
        if let Err(e) = b {
            return Err(Failure::Statement(e.to_string()));
        }
        rows.extend(done);
        k = end;
    }
    let mut answers = Vec::with_capacity(todo.len());
    for (&i, r) in todo.iter().zip(rows) {
        match r {
            Ok(n) => answers.push(judge(c, ctx, &ops[i], epoch(i), n).await),
            // A database error aborted the transaction; a compound op
            // refused halfway has written part of itself: roll back.
            Err(e) if matches!(e, StoreError::Postgres(_)) || ops[i].is_compound() => {
                let _ = c.batch_execute("ROLLBACK").await;
                return Err(Failure::Statement(e.to_string()));
            }
            // Refused before any statement (a seq out of range).
            Err(e) => answers.push(Err(e)),
        }
    }
    // A diagnosis query may fail too (an aborted transaction).
    if let Some(Err(StoreError::Postgres(e))) = answers.iter().find(|a| matches!(a, Err(StoreError::Postgres(_)))) {
        let why = e.to_string();
        let _ = c.batch_execute("ROLLBACK").await;
        return Err(Failure::Statement(why));
    }
    c.batch_execute("COMMIT").await.map_err(|e| Failure::Commit(e.to_string()))?;
    Ok(answers)
}

/// One op in a transaction of its own.
async fn alone(c: &Client, st: &Stmts, ctx: &Context, op: &Op, epoch: i64) -> Result<(), StoreError> {
    c.batch_execute("BEGIN").await?;
    let r = match exec(c, st, ctx, op, epoch).await {
        Ok(n) => judge(c, ctx, op, epoch, n).await,
        Err(e) => Err(e),
    };
    if r.is_ok() {
        c.batch_execute("COMMIT").await.map_err(|e| StoreError::Commit(e.to_string()))?;
    } else {
        let _ = c.batch_execute("ROLLBACK").await;
    }
    r
}

/// A copy of an error for a second caller (the database's own error is
/// carried as text).
fn clone_err(e: &StoreError) -> StoreError {
    match e {
        StoreError::NoSuchGame(g) => StoreError::NoSuchGame(g.clone()),
        StoreError::LeaseLost { game, node, epoch, held_by } => {
            StoreError::LeaseLost { game: game.clone(), node: node.clone(), epoch: *epoch, held_by: held_by.clone() }
        }
        StoreError::LeaseHeld { game, owner, epoch } => {
            StoreError::LeaseHeld { game: game.clone(), owner: owner.clone(), epoch: *epoch }
        }
        other => StoreError::Commit(other.to_string()),
    }
}
