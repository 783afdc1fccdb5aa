//! The store contract, one suite run against each store: SQLite (in a temp
//! directory) and PostgreSQL (a real server started for this test process
//! from the distribution's binaries, `tests/common/postgres.rs`, with a
//! fresh database per test). Appends, refusals, replay after a reopen,
//! briefs, retention, group commit, migrations and the stored-game
//! fixtures; then what only PostgreSQL has: leases and fencing.

use super::*;
use crate::model::{Claim, ClaimantKind, EntryKind, OpenTo, Resample, hash_token};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

#[path = "../../../tests/common/postgres.rs"]
mod pg_harness;

use crate::store::postgres::Lease;
use pg_harness::TempPostgres;

pub(crate) fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        game_type: "xodus".into(),
        config_json: "{}".into(),
        created_ms: 1,
        status: Status::Open,
        forked_from: None,
        idle_timeout_s: 30,
        seats: (0..3).map(|seat| SeatRecord { seat, open_to: OpenTo::Human, claim: None }).collect(),
        creator_hash: Some(hash_token("creator")),
        ended_ms: None,
        resamples: Vec::new(),
        seed_chosen: false,
        clock: None,
    }
}

pub(crate) fn entry(seq: u64) -> EntryRecord {
    let kind = if seq == 3 { EntryKind::Undo } else { EntryKind::Choice };
    EntryRecord { seq, kind, seat: 0, option_id: format!("opt{seq}"), at_ms: 5, played_by: None, clock_ms: None }
}

/// The PostgreSQL server of this test process, started on first use and
/// stopped when the process exits; `None` only when a local run opted out.
fn server() -> Option<&'static TempPostgres> {
    static SERVER: OnceLock<Option<TempPostgres>> = OnceLock::new();
    SERVER.get_or_init(TempPostgres::start_or_skip).as_ref()
}

/// Where a test's store lives; opening it again finds what was written.
pub(crate) enum Place {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Place {
    fn sqlite(tag: &str) -> Place {
        let dir = std::env::temp_dir().join(format!("xodus-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Place::Sqlite(dir)
    }

    fn postgres(tag: &str) -> Option<Place> {
        Some(Place::Postgres(server()?.fresh_database(tag)))
    }

    fn options(node: &str) -> PgOptions {
        PgOptions { node: node.into(), ..PgOptions::default() }
    }

    /// Opens the store (blocking; not inside an async runtime).
    fn open(&self) -> Box<dyn GameStore> {
        match self {
            Place::Sqlite(dir) => Box::new(SqliteStore::open_dir(dir, std::time::Duration::ZERO).expect("open sqlite")),
            Place::Postgres(url) => {
                Box::new(PostgresStore::connect(url, Self::options("test-node")).expect("connect postgres"))
            }
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Place::Sqlite(dir) = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// One `#[test]` per store for each suite function.
macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $name() { super::$name(&super::Place::sqlite(stringify!($name))) } )*
        }
        mod postgres {
            $( #[test] fn $name() {
                if let Some(place) = super::Place::postgres(stringify!($name)) { super::$name(&place) }
            } )*
        }
    };
}

suite!(
    roundtrip,
    refuses_duplicate_seq_and_unknown_game,
    briefs_take_seq_and_last_move_from_entries_newer_than_the_summary,
    survives_reopen,
    retention_deletes_a_game_with_its_seats_and_entries,
    concurrent_games_commit_together_and_a_refused_append_fails_alone,
    a_games_appends_queued_without_waiting_are_all_stored,
    stored_game_fixtures_read_back_whole,
    a_played_game_replays_after_a_reopen,
    talk_is_kept_in_order_apart_from_the_choices_and_goes_with_its_game,
    a_seats_mutes_are_replaced_kept_apart_from_the_lines_and_survive_a_reopen,
);

#[test]
fn memory_roundtrip() {
    roundtrip_on(&MemoryStore::default());
}

fn roundtrip(place: &Place) {
    roundtrip_on(place.open().as_ref());
}

fn roundtrip_on(store: &dyn GameStore) {
    store.create_game(&record("a"), &[]).expect("create a");
    let mut b = record("b");
    b.forked_from = Some(("a".into(), 2));
    b.resamples = vec![Resample { at_seq: 1, seed: 5 }, Resample { at_seq: 2, seed: u64::MAX - 3 }];
    b.seed_chosen = true;
    store.create_game(&b, &[entry(1), entry(2)]).expect("create b");
    store.append_entry("a", &entry(1)).expect("append");
    store.append_entry("b", &entry(3)).expect("append");
    let claim = Claim { token_hash: hash_token("t"), by: ClaimantKind::Ai };
    store.put_seat("a", &SeatRecord { seat: 1, open_to: OpenTo::Any, claim: Some(claim.clone()) }).expect("seat");
    store.set_status("a", Status::Finished, Some(77)).expect("status");
    let all = store.load_all().expect("load");
    assert_eq!(all.len(), 2);
    let a = find(&all, "a").expect("a");
    assert_eq!(a.record.status, Status::Finished);
    assert_eq!(a.record.ended_ms, Some(77));
    assert_eq!(a.record.creator_hash, Some(hash_token("creator")));
    assert_eq!(a.record.seats[1].claim, Some(claim));
    assert_eq!(a.record.seats[1].open_to, OpenTo::Any);
    assert_eq!(a.entries, vec![entry(1)]);
    assert!(!a.record.seed_chosen, "a drawn seed");
    let b = find(&all, "b").expect("b");
    assert!(b.record.seed_chosen, "a chosen seed is remembered");
    assert_eq!(b.record.forked_from, Some(("a".into(), 2)));
    assert_eq!(
        b.record.resamples,
        vec![Resample { at_seq: 1, seed: 5 }, Resample { at_seq: 2, seed: u64::MAX - 3 }],
        "all 64 bits kept"
    );
    assert_eq!(b.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2, 3]);
    store.delete_game("a").expect("delete");
    let all = store.load_all().expect("load");
    assert!(find(&all, "a").is_none(), "deleted");
    assert!(find(&all, "b").is_some(), "others kept");
}

/// A line of talk from `speaker`.
fn line(talk_seq: u64, speaker: u8, audience: crate::model::Audience) -> crate::model::TalkRecord {
    crate::model::TalkRecord {
        talk_seq,
        game_seq: talk_seq / 2,
        speaker,
        speaker_ai: speaker == 1,
        audience,
        text: format!("line {talk_seq}: \"quoted\" <b>not markup</b> é"),
        signal: (talk_seq == 2).then(|| crate::model::SignalRecord {
            type_url: "type.googleapis.com/xodus.v1.XodusSignal".into(),
            value: vec![8, 2, 0, 255],
            words: "wait for me at (1,-2)".into(),
        }),
        intent: talk_seq == 3,
        said_ms: 1_000 + talk_seq as i64,
    }
}

#[test]
fn memory_talk() {
    talk_on(&MemoryStore::default());
}

fn talk_is_kept_in_order_apart_from_the_choices_and_goes_with_its_game(place: &Place) {
    talk_on(place.open().as_ref());
    // Durable: the other game's line is there after a reopen.
    let again = place.open();
    assert_eq!(again.load_game("b").expect("load").expect("b").talk, vec![line(1, 2, crate::model::Audience::Table)]);
}

fn talk_on(s: &dyn GameStore) {
    use crate::model::Audience;
    for id in ["a", "b"] {
        s.create_game(&record(id), &[]).expect("create");
    }
    s.append_entry("a", &entry(1)).expect("a choice");
    let said = vec![line(1, 0, Audience::Table), line(2, 1, Audience::Team), line(3, 1, Audience::Seat(0))];
    for l in &said {
        s.append_talk("a", l).expect("talk");
    }
    s.append_talk("b", &line(1, 2, Audience::Table)).expect("another game's talk");
    assert!(s.append_talk("zz", &line(1, 0, Audience::Table)).is_err(), "an unknown game");
    let a = s.load_game("a").expect("load").expect("a");
    assert_eq!(a.talk, said, "every field, in talk_seq order");
    assert_eq!(a.entries, vec![entry(1)], "the choices untouched");
    s.set_status("a", Status::Finished, Some(10)).expect("ended");
    s.delete_game("a").expect("retention");
    s.create_game(&record("a"), &[]).expect("the id again");
    assert!(s.load_game("a").expect("load").expect("a").talk.is_empty(), "retention took its talk");
    assert_eq!(s.load_game("b").expect("load").expect("b").talk.len(), 1, "the other game's kept");
}

#[test]
fn memory_mutes() {
    mutes_on(&MemoryStore::default());
}

fn a_seats_mutes_are_replaced_kept_apart_from_the_lines_and_survive_a_reopen(place: &Place) {
    mutes_on(place.open().as_ref());
    let again = place.open();
    let a = again.load_game("a").expect("load").expect("a");
    assert_eq!(a.mutes.len(), 2, "durable: {:?}", a.mutes);
}

fn mutes_on(s: &dyn GameStore) {
    use crate::model::{Audience, MuteRecord};
    s.create_game(&record("a"), &[]).expect("create");
    s.append_talk("a", &line(1, 0, Audience::Table)).expect("talk");
    let first = MuteRecord { seat: 0, holder: "h0".into(), muted: vec![1, 2] };
    s.put_mutes("a", &first).expect("mutes");
    let replaced = MuteRecord { seat: 0, holder: "h0".into(), muted: vec![2] };
    s.put_mutes("a", &replaced).expect("replaced");
    let other = MuteRecord { seat: 3, holder: "h3".into(), muted: vec![0] };
    s.put_mutes("a", &other).expect("another seat's");
    let a = s.load_game("a").expect("load").expect("a");
    let mut mutes = a.mutes.clone();
    mutes.sort_by_key(|m| m.seat);
    assert_eq!(mutes, vec![replaced, other], "one record a seat, the newest");
    assert_eq!(a.talk, vec![line(1, 0, Audience::Table)], "the lines untouched");
}

fn refuses_duplicate_seq_and_unknown_game(place: &Place) {
    let s = place.open();
    s.create_game(&record("a"), &[]).expect("create");
    s.append_entry("a", &entry(1)).expect("first");
    let dup = EntryRecord { option_id: "other".into(), ..entry(1) };
    assert!(s.append_entry("a", &dup).is_err(), "same seq twice");
    assert!(s.append_entry("zz", &entry(1)).is_err(), "unknown game");
    assert!(s.set_status("zz", Status::Open, None).is_err());
    assert_eq!(s.load_game("a").expect("load").expect("a").entries, vec![entry(1)], "the first kept, alone");
}

fn summary(s: &dyn GameStore, id: &str, seq: u64) {
    s.put_summary(id, vec![1, 2], seq, 4).blocking_recv().expect("answer").expect("summary");
}

fn briefs_take_seq_and_last_move_from_entries_newer_than_the_summary(place: &Place) {
    let s = place.open();
    let s = s.as_ref();
    for id in ["a", "over", "fresh", "older", "never"] {
        s.create_game(&record(id), &[]).expect("create");
    }
    for id in ["a", "over", "fresh"] {
        summary(s, id, 0);
    }
    s.append_entry("a", &entry(1)).expect("append");
    summary(s, "a", 1);
    s.append_entry("a", &EntryRecord { at_ms: 9, ..entry(2) }).expect("append");
    // A game that ended with no summary after its last entry (a kill -9
    // in between).
    s.append_entry("over", &entry(1)).expect("append");
    s.set_status("over", Status::Finished, Some(9)).expect("over");
    // A summary older than the stored entries.
    s.append_entry("older", &entry(1)).expect("append");
    s.append_entry("older", &EntryRecord { at_ms: 6, ..entry(2) }).expect("append");
    summary(s, "older", 1);
    s.append_entry("never", &entry(1)).expect("append");
    let briefs = s.load_briefs().expect("briefs");
    let brief = |id: &str| briefs.iter().find(|b| b.id == id).map(|b| (b.seq, b.last_move_ms)).expect("brief");
    assert_eq!(brief("a"), (Some(2), Some(9)), "from the newest entry");
    assert_eq!(brief("over"), (Some(1), Some(5)), "from the newest entry");
    assert_eq!(brief("fresh"), (Some(0), Some(4)), "the copies stored with the summary");
    assert_eq!(brief("older"), (Some(2), Some(6)), "entry 2 is past the summary's seq");
    assert_eq!(brief("never"), (None, None), "no summary: replayed at start");
    assert_eq!(briefs.iter().find(|b| b.id == "a").and_then(|b| b.summary.clone()), Some(vec![1, 2]));
}

fn survives_reopen(place: &Place) {
    {
        let s = place.open();
        s.create_game(&record("a"), &[]).expect("create");
        s.append_entry("a", &entry(1)).expect("append");
    }
    let s = place.open();
    assert_eq!(s.load_all().expect("load")[0].entries, vec![entry(1)]);
    s.append_entry("a", &entry(2)).expect("append after a reopen");
    assert_eq!(s.load_game("a").expect("load").expect("a").entries, vec![entry(1), entry(2)]);
}

fn retention_deletes_a_game_with_its_seats_and_entries(place: &Place) {
    let s = place.open();
    for id in ["old", "live"] {
        s.create_game(&record(id), &[entry(1)]).expect("create");
        s.append_entry(id, &entry(2)).expect("append");
    }
    let claim = Claim { token_hash: hash_token("t"), by: ClaimantKind::Human };
    s.put_seat("old", &SeatRecord { seat: 0, open_to: OpenTo::Human, claim: Some(claim) }).expect("seat");
    s.set_status("old", Status::Finished, Some(10)).expect("ended");
    s.delete_game("old").expect("retention");
    assert!(s.load_game("old").expect("load").is_none());
    assert_eq!(s.load_briefs().expect("briefs").iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), vec!["live"]);
    // Nothing of it is left: the same id starts afresh.
    s.create_game(&record("old"), &[]).expect("the id again");
    s.append_entry("old", &entry(1)).expect("seq 1 again");
    let again = s.load_game("old").expect("load").expect("old");
    assert_eq!((again.entries.len(), again.record.seats[0].claim.clone()), (1, None));
    assert_eq!(s.load_game("live").expect("load").expect("live").entries.len(), 2, "the other game kept");
}

fn concurrent_games_commit_together_and_a_refused_append_fails_alone(place: &Place) {
    let s = place.open();
    let ids: Vec<String> = (0..40).map(|i| format!("g{i}")).collect();
    for id in &ids {
        s.create_game(&record(id), &[entry(1)]).expect("create");
    }
    // All queued at once, so the writer takes many in one transaction; one
    // of them repeats a stored seq.
    let mut pending: Vec<_> = ids.iter().map(|id| s.append_entry_async(id, &entry(2))).collect();
    pending.insert(20, s.append_entry_async("g7", &entry(1)));
    let answers: Vec<bool> = pending.into_iter().map(|d| d.blocking_recv().expect("answer").is_ok()).collect();
    assert_eq!(answers.iter().filter(|ok| !**ok).count(), 1, "only the duplicate refused");
    assert!(!answers[20]);
    for id in &ids {
        let g = s.load_game(id).expect("load").expect("game");
        assert_eq!(g.entries, vec![entry(1), entry(2)], "{id}");
    }
}

/// Appends of several games queued at once, many per game, land in
/// batches that hold several entries of one game (on PostgreSQL, all
/// through that game's writer): every one is stored.
fn a_games_appends_queued_without_waiting_are_all_stored(place: &Place) {
    let s = place.open();
    for id in ["a", "b", "c"] {
        s.create_game(&record(id), &[]).expect("create");
    }
    let mut pending = Vec::new();
    for seq in 1..=60 {
        for id in ["a", "b", "c"] {
            pending.push(s.append_entry_async(id, &EntryRecord { at_ms: seq as i64, ..entry(seq) }));
        }
    }
    for d in pending {
        d.blocking_recv().expect("answer").expect("appended");
    }
    for id in ["a", "b", "c"] {
        let g = s.load_game(id).expect("load").expect("game");
        assert_eq!(g.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), (1..=60).collect::<Vec<_>>(), "{id}");
    }
}

/// The fixture's games and the seq each was stored at.
fn fixture() -> (Vec<StoredGame>, Vec<(String, u64)>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/stored-games");
    let dir = std::env::temp_dir().join(format!(
        "xodus-store-fixture-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(root.join("xodus.sqlite3"), dir.join("xodus.sqlite3")).expect("copy the fixture");
    let games = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("open").load_all().expect("load");
    let _ = std::fs::remove_dir_all(&dir);
    let expected = std::fs::read_to_string(root.join("expected.txt"))
        .expect("expected.txt")
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(id, seq)| (id.to_string(), seq.trim().parse().expect("a seq")))
        .collect();
    (games, expected)
}

/// The games an earlier release stored (tests/fixtures/stored-games) are
/// written into the store as they are, and read back equal.
fn stored_game_fixtures_read_back_whole(place: &Place) {
    let (games, expected) = fixture();
    assert!(!games.is_empty());
    let s = place.open();
    for g in &games {
        s.create_game(&g.record, &g.entries).expect("copy a stored game");
    }
    let back = s.load_all().expect("load");
    assert_eq!(back.len(), games.len());
    for g in &games {
        assert_eq!(find(&back, &g.record.id), Some(g), "{} read back whole", g.record.id);
    }
    for (id, seq) in expected {
        let g = find(&back, &id).unwrap_or_else(|| panic!("fixture game {id}"));
        assert_eq!(g.entries.last().map_or(0, |e| e.seq), seq, "{id}");
    }
}

/// A game played through the manager replays to the same state from the
/// reopened store.
fn a_played_game_replays_after_a_reopen(place: &Place) {
    use crate::manager::{Credentials, Manager};
    use tabletop::pb;
    let registry = || crate::game::Registry::new().with(Arc::new(crate::xodus_for_tests::Xodus));
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let store: Arc<dyn GameStore> = Arc::from(place.open());
    let (id, before) = rt.block_on(async {
        let m = Arc::new(Manager::load(store, crate::Limits::default(), registry()).await.expect("load"));
        let req = pb::CreateGameRequest {
            kind: pb::GameKind::Xodus as i32,
            seats: vec![pb::SeatOpenTo::Human as i32; 3],
            setup: Some(tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
                ship_count: 3,
                seed: Some(11),
                ..Default::default()
            })),
            ..Default::default()
        };
        let id = m.lobby().create_game(None, &req).await.expect("create").0.game_id;
        let mut tokens = Vec::new();
        for seat in 0..3 {
            tokens.push(m.seats().claim_seat(&id, seat, ClaimantKind::Human, "").await.expect("claim").0);
        }
        for _ in 0..8 {
            let (state, _) = m.seats().get_view(&id, None).await.expect("view");
            let o = &state.decision.expect("decision").options[0];
            let creds = Credentials { seat: o.seats[0], token: tokens[o.seats[0] as usize].clone() };
            m.play().submit(&id, &creds, Some(state.seq), &o.id).await.expect("submit");
        }
        let before = m.seats().get_view(&id, None).await.expect("view").0;
        (id, before)
    });
    drop(rt);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let store: Arc<dyn GameStore> = Arc::from(place.open());
    rt.block_on(async {
        let m = Arc::new(Manager::load(store, crate::Limits::default(), registry()).await.expect("reload"));
        let (after, _) = m.seats().get_view(&id, None).await.expect("view");
        assert_eq!(before.seq, 8);
        assert_eq!((after.seq, after.state_hash), (before.seq, before.state_hash));
    });
}

// ---- PostgreSQL only: migrations, leases and fencing ----

fn pg(tag: &str) -> Option<String> {
    Some(server()?.fresh_database(tag))
}

/// A plain client on `url` and a runtime to drive it.
fn client(url: &str) -> (tokio::runtime::Runtime, tokio_postgres::Client) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let c = rt.block_on(crate::store::postgres::connect_one(url)).expect("connect");
    (rt, c)
}

#[test]
fn postgres_migrations_are_versioned_and_run_once() {
    let Some(url) = pg("migrations") else { return };
    let (rt, mut c) = client(&url);
    use crate::store::migrations::postgres::{MIGRATIONS, migrate, migrate_to};
    // A database at version 1 (before leases) with a game in it.
    assert_eq!(rt.block_on(migrate_to(&mut c, 1)).expect("v1"), 1);
    rt.block_on(c.batch_execute(
        "INSERT INTO games (id, kind, config_json, created_ms, status) VALUES ('old', 'xodus', '{}', 1, 'open');
         INSERT INTO choices (game_id, seq, seat, option_id, at_ms, kind) VALUES ('old', 1, 0, 'start:0', 2, 'choice')",
    ))
    .expect("a game at version 1");
    assert_eq!(rt.block_on(migrate(&mut c)).expect("latest"), MIGRATIONS.len());
    assert_eq!(rt.block_on(migrate(&mut c)).expect("again: nothing to do"), MIGRATIONS.len());
    let versions: Vec<i32> = rt
        .block_on(c.query("SELECT version FROM xodus_schema ORDER BY version", &[]))
        .expect("versions")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, (1..=MIGRATIONS.len() as i32).collect::<Vec<_>>(), "each applied once");
    drop((rt, c));
    let s = PostgresStore::connect(&url, Place::options("n")).expect("open the upgraded database");
    assert_eq!(s.load_game("old").expect("load").expect("old").entries.len(), 1);
    s.append_entry("old", &entry(2)).expect("an append takes a lease on a game from before leases");
}

#[test]
fn postgres_refuses_a_schema_newer_than_it_knows() {
    let Some(url) = pg("newer") else { return };
    let (rt, mut c) = client(&url);
    rt.block_on(crate::store::migrations::postgres::migrate(&mut c)).expect("latest");
    rt.block_on(c.batch_execute("INSERT INTO xodus_schema (version) VALUES (999)")).expect("a future version");
    assert!(matches!(PostgresStore::connect(&url, Place::options("n")), Err(StoreError::Corrupt(_))));
}

/// Fencing (issue 51: "a node that lost its lease, for example after a
/// long pause, cannot write"): node A holds epoch 1 and stalls (no
/// renewal); its lease runs out; node B takes the game over with epoch 2;
/// A's append is refused with `LeaseLost` and nothing is written (nor are
/// its seat, status or summary writes), while B's goes through.
#[test]
fn a_stale_owners_append_is_refused_and_writes_nothing() {
    let Some(url) = pg("fencing") else { return };
    let stalled = PgOptions {
        node: "node-a".into(),
        lease_ttl: std::time::Duration::from_millis(300),
        renew_every: None,
        ..PgOptions::default()
    };
    let a = PostgresStore::connect(&url, stalled).expect("node a");
    let b = PostgresStore::connect(&url, Place::options("node-b")).expect("node b");
    a.create_game(&record("g"), &[]).expect("create on a");
    a.append_entry("g", &entry(1)).expect("a owns g");
    assert_eq!(a.held(), vec![("g".to_string(), 1)]);
    assert!(matches!(b.acquire("g"), Err(StoreError::LeaseHeld { epoch: 1, .. })), "a's lease is live");
    assert!(matches!(b.append_entry("g", &entry(2)), Err(StoreError::LeaseLost { .. })), "b does not own g");
    // A stalls past its lease; B takes the game over (waiting on the
    // database's clock, not ours).
    let taken = loop {
        let t = b.take_over_expired(10).expect("take over");
        if !t.is_empty() {
            break t;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(taken, vec![Lease { game: "g".into(), owner: "node-b".into(), epoch: 2 }]);
    let refused = a.append_entry("g", &EntryRecord { option_id: "stale".into(), ..entry(2) });
    match refused {
        Err(StoreError::LeaseLost { game, node, epoch, held_by }) => {
            assert_eq!((game.as_str(), node.as_str(), epoch), ("g", "node-a", 1));
            assert_eq!(held_by, "node-b epoch 2");
        }
        other => panic!("a stale owner's append must be refused, got {other:?}"),
    }
    assert!(matches!(
        a.renew(&Lease { game: "g".into(), owner: "node-a".into(), epoch: 1 }),
        Err(StoreError::LeaseLost { .. })
    ));
    assert!(a.held().is_empty(), "a forgot the lease it lost");
    assert!(matches!(a.append_entry("g", &entry(2)), Err(StoreError::LeaseLost { .. })), "nor can a take it back");
    // Its other writes to the game are fenced alike.
    let claim = Claim { token_hash: hash_token("stale"), by: ClaimantKind::Human };
    let seat = SeatRecord { seat: 0, open_to: OpenTo::Human, claim: Some(claim) };
    assert!(matches!(a.put_seat("g", &seat), Err(StoreError::LeaseLost { .. })), "a seat");
    assert!(matches!(a.set_status("g", Status::Abandoned, Some(9)), Err(StoreError::LeaseLost { .. })), "the status");
    let summary = a.put_summary("g", vec![9], 2, 9).blocking_recv().expect("answer");
    assert!(matches!(summary, Err(StoreError::LeaseLost { .. })), "the summary");
    b.append_entry("g", &entry(2)).expect("the new owner writes");
    let g = b.load_game("g").expect("load").expect("g");
    assert_eq!(g.entries, vec![entry(1), entry(2)], "nothing of a's stale write");
    assert_eq!((g.record.status, g.record.seats[0].claim.clone()), (Status::Open, None), "nor of its other writes");
    assert_eq!(b.load_briefs().expect("briefs")[0].summary, None);
}

#[test]
fn leases_are_renewed_released_and_taken_back_by_a_restarted_node() {
    let Some(url) = pg("leases") else { return };
    let a = PostgresStore::connect(&url, Place::options("node-a")).expect("a");
    a.create_game(&record("g"), &[]).expect("create");
    let lease = Lease { game: "g".into(), owner: "node-a".into(), epoch: 1 };
    assert_eq!(a.renew(&lease).expect("renew"), lease);
    assert_eq!(a.holder("g").expect("holder"), "node-a epoch 1");
    // The same node after a restart raises the epoch, fencing its former
    // self at once.
    let again = PostgresStore::connect(&url, Place::options("node-a")).expect("a again");
    again.append_entry("g", &entry(1)).expect("takes its game back");
    assert_eq!(again.held(), vec![("g".to_string(), 2)]);
    assert!(matches!(a.append_entry("g", &entry(2)), Err(StoreError::LeaseLost { .. })), "the former self");
    // A drain: released, another node takes it over at once.
    again.release(&Lease { epoch: 2, ..lease.clone() }).expect("release");
    let b = PostgresStore::connect(&url, Place::options("node-b")).expect("b");
    assert_eq!(b.acquire("g").expect("acquire").epoch, 3);
    b.append_entry("g", &entry(2)).expect("b writes");
    // An ended game is not taken over.
    b.set_status("g", Status::Finished, Some(1)).expect("ended");
    b.release(&Lease { game: "g".into(), owner: "node-b".into(), epoch: 3 }).expect("release");
    assert!(a.take_over_expired(10).expect("sweep").is_empty());
}

/// The answers of two acquisitions on one node can arrive in either order
/// (the lease keeper's, a writer's, the take-over sweep's connections):
/// an older epoch arriving last never replaces the newer one.
#[test]
fn a_late_answer_with_an_older_epoch_does_not_replace_a_newer_one() {
    let mut held = std::collections::HashMap::new();
    assert_eq!(crate::store::postgres::hold(&mut held, "g", 11), 11);
    assert_eq!(crate::store::postgres::hold(&mut held, "g", 9), 11, "epoch 9 answered after 11");
    assert_eq!(crate::store::postgres::hold(&mut held, "g", 12), 12);
    assert_eq!(held.get("g"), Some(&12));
}

/// Several calls on one node taking one game at once (a stream, a choice
/// and the take-over sweep after its owner died) each raise the epoch; the
/// node must keep the newest, whatever order their answers arrive in, or
/// it fences itself out of its own game.
#[test]
fn concurrent_takes_of_one_game_leave_the_node_with_the_newest_epoch() {
    let Some(url) = pg("concurrent_own") else { return };
    let b = PostgresStore::connect(&url, Place::options("node-b")).expect("b");
    b.create_game(&record("g"), &[]).expect("create");
    b.release(&Lease { game: "g".into(), owner: "node-b".into(), epoch: 1 }).expect("release");
    let a = std::sync::Arc::new(PostgresStore::connect(&url, Place::options("node-a")).expect("a"));
    let takers: Vec<_> = (0..8)
        .map(|_| {
            let a = std::sync::Arc::clone(&a);
            std::thread::spawn(move || a.acquire("g").map(|l| l.epoch))
        })
        .collect();
    let epochs: Vec<i64> = takers.into_iter().map(|t| t.join().expect("thread").expect("acquire")).collect();
    let newest = *epochs.iter().max().expect("epochs");
    assert_eq!(a.holder("g").expect("holder"), format!("node-a epoch {newest}"));
    assert_eq!(a.held(), vec![("g".to_string(), newest)], "the node writes with the database's epoch");
    a.append_entry("g", &entry(1)).expect("so its writes go through");
}

/// The store makes its connections again after PostgreSQL restarted (a
/// server of its own: the shared one stays up for the other tests). A
/// request cut by the restart may fail (it was not acknowledged); the
/// next ones go through, and nothing acknowledged is lost.
#[test]
fn the_store_reconnects_after_postgresql_restarts() {
    let Some(own) = TempPostgres::start_or_skip() else { return };
    let url = own.create_database("restart");
    let s = PostgresStore::connect(&url, Place::options("n")).expect("connect");
    s.create_game(&record("g"), &[]).expect("create");
    s.append_entry("g", &entry(1)).expect("append");
    own.restart();
    let mut appended = false;
    for _ in 0..3 {
        if s.append_entry("g", &entry(2)).is_ok() {
            appended = true;
            break;
        }
    }
    assert!(appended, "the writer reconnects");
    let mut loaded = None;
    for _ in 0..3 {
        if let Ok(g) = s.load_game("g") {
            loaded = g;
            break;
        }
    }
    assert_eq!(loaded.expect("the reader reconnects").entries, vec![entry(1), entry(2)]);
}
