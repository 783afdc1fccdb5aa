//! The manager's own tests: claims, refusals, undo, streams, forks and the
//! hidden seed, over the memory and SQLite stores.

use super::*;
use crate::model::ClaimantKind;
use crate::store::MemoryStore;

fn create_req(seed: u64) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        kind: pb::GameKind::Xodus as i32,
        seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32, pb::SeatOpenTo::Any as i32],
        game_type: String::new(),
        setup: Some(tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
            ship_count: 3,
            seed: Some(seed),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// The registry the shipped server has for X-ODUS.
fn standard() -> Registry {
    Registry::new().with(Arc::new(crate::xodus_for_tests::Xodus))
}

async fn manager(store: Arc<dyn GameStore>) -> Arc<Manager> {
    Arc::new(Manager::load(store, Limits::default(), standard()).await.expect("load"))
}

/// Claims every seat; returns their tokens.
async fn claim_all(m: &Arc<Manager>, id: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for (seat, who) in [(0, ClaimantKind::Human), (1, ClaimantKind::Ai), (2, ClaimantKind::Human)] {
        tokens.push(m.seats().claim_seat(id, seat, who, "").await.expect("claim").0);
    }
    tokens
}

/// Plays the first offered option `n` times.
async fn play(m: &Arc<Manager>, id: &str, tokens: &[String], n: usize) {
    for _ in 0..n {
        let (state, _) = m.seats().get_view(id, None).await.expect("view");
        let d = state.decision.expect("decision");
        let o = &d.options[0];
        let seat = o.seats[0];
        let creds = Credentials { seat, token: tokens[seat as usize].clone() };
        m.play().submit(id, &creds, Some(state.seq), &o.id).await.expect("submit");
    }
}

#[tokio::test]
async fn games_made_in_the_same_millisecond_list_in_the_order_they_were_made() {
    let m = manager(Arc::new(MemoryStore::default())).await;
    let mut made = Vec::new();
    for seed in 0..20 {
        made.push(m.lobby().create_game(None, &create_req(seed)).await.expect("create").0.game_id);
    }
    let listed: Vec<String> =
        m.lobby().list_games(None, false, 0, "").await.expect("list").games.into_iter().map(|g| g.game_id).collect();
    assert_eq!(listed, made);
}

async fn idle_seats(m: &Arc<Manager>, id: &str) -> usize {
    let games = m.lobby().list_games(None, false, 0, "").await.expect("list").games;
    games.into_iter().find(|g| g.game_id == id).expect("listed").seats.iter().filter(|s| s.idle).count()
}

#[tokio::test]
async fn a_seat_claimed_late_starts_its_idle_clock_at_the_claim() {
    let limits = Limits { idle_timeout_s: 1, ..Limits::default() };
    let m = Arc::new(Manager::load(Arc::new(MemoryStore::default()), limits, standard()).await.expect("load"));
    let id = m.lobby().create_game(None, &create_req(3)).await.expect("create").0.game_id;
    // The game waits for its crew longer than the idle timeout.
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    claim_all(&m, &id).await;
    m.mark_idle_seats().await;
    assert_eq!(idle_seats(&m, &id).await, 0, "nobody has been silent for a second since claiming");
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    m.mark_idle_seats().await;
    assert!(idle_seats(&m, &id).await > 0, "the silent human deciders go idle");
}

#[tokio::test]
async fn claims_follow_the_seat_rules() {
    let m = manager(Arc::new(MemoryStore::default())).await;
    let (g, _) = m.lobby().create_game(None, &create_req(1)).await.expect("create");
    assert_eq!(g.status, pb::GameStatus::Open as i32);
    let id = g.game_id;
    let err = m.seats().claim_seat(&id, 1, ClaimantKind::Human, "").await.expect_err("AI seat");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    let (t0, _) = m.seats().claim_seat(&id, 0, ClaimantKind::Human, "").await.expect("claim");
    assert_eq!(t0.len(), 32);
    let err = m.seats().claim_seat(&id, 0, ClaimantKind::Human, "").await.expect_err("taken");
    assert_eq!(err.code(), tonic::Code::FailedPrecondition);
    let (again, _) = m.seats().claim_seat(&id, 0, ClaimantKind::Human, &t0).await.expect("reclaim");
    assert_eq!(again, t0);
    let err = m.seats().claim_seat(&id, 0, ClaimantKind::Human, "nope").await.expect_err("bad token");
    assert_eq!(err.code(), tonic::Code::Unauthenticated);
    assert!(!err.to_string().contains("stand-in"), "no stand-in was ever there: {err}");
    m.seats().claim_seat(&id, 1, ClaimantKind::Ai, "").await.expect("ai");
    let (_, g) = m.seats().claim_seat(&id, 2, ClaimantKind::Ai, "").await.expect("any");
    assert_eq!(g.status, pb::GameStatus::Playing as i32);
    let g = m.seats().release_seat(&id, &Credentials { seat: 0, token: t0.clone() }).await.expect("release");
    assert_eq!(g.status, pb::GameStatus::Open as i32);
    let err = m.seats().get_view(&id, Some(&Credentials { seat: 0, token: t0 })).await.expect_err("released token");
    assert_eq!(err.code(), tonic::Code::Unauthenticated);
    assert_eq!(
        m.seats().claim_seat(&id, 9, ClaimantKind::Human, "").await.expect_err("no seat").code(),
        tonic::Code::InvalidArgument
    );
    assert_eq!(
        m.seats().claim_seat("g-none", 0, ClaimantKind::Human, "").await.expect_err("no game").code(),
        tonic::Code::NotFound
    );
}

#[tokio::test]
async fn refusals_change_nothing_and_choices_survive_a_reload() {
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
    let m = manager(Arc::clone(&store)).await;
    let id = m.lobby().create_game(None, &create_req(2)).await.expect("create").0.game_id;
    let tokens = claim_all(&m, &id).await;
    play(&m, &id, &tokens, 3).await;
    let (before, _) = m.seats().get_view(&id, None).await.expect("view");
    let d = before.decision.clone().expect("decision");
    let seat = d.options[0].seats[0];
    let ok = Credentials { seat, token: tokens[seat as usize].clone() };
    let stale = m.play().submit(&id, &ok, Some(before.seq - 1), &d.options[0].id).await.err().map(|e| e.code());
    assert_eq!(stale, Some(tonic::Code::Aborted));
    let missing = m.play().submit(&id, &ok, None, &d.options[0].id).await.err().map(|e| e.code());
    assert_eq!(missing, Some(tonic::Code::InvalidArgument));
    let bad = Credentials { seat, token: "0".repeat(32) };
    let wrong = m.play().submit(&id, &bad, Some(before.seq), &d.options[0].id).await.err().map(|e| e.code());
    assert_eq!(wrong, Some(tonic::Code::Unauthenticated));
    let illegal = m.play().submit(&id, &ok, Some(before.seq), "no_such_option").await.err().map(|e| e.code());
    assert_eq!(illegal, Some(tonic::Code::FailedPrecondition));
    let (after, _) = m.seats().get_view(&id, None).await.expect("view");
    assert_eq!(after.state_hash, before.state_hash);
    assert_eq!(after.seq, before.seq);

    let m2 = manager(store).await;
    let (reloaded, g) = m2.seats().get_view(&id, None).await.expect("view");
    assert_eq!(reloaded.state_hash, before.state_hash);
    assert_eq!(g.seats.iter().filter(|s| s.claimed).count(), 3);
}

#[tokio::test]
async fn undo_takes_back_own_safe_choices_and_replays() {
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
    let m = manager(Arc::clone(&store)).await;
    let (g, creator) = m.lobby().create_game(None, &create_req(4)).await.expect("create");
    let id = g.game_id;
    let tokens = claim_all(&m, &id).await;
    let creds = |seat: u32| Credentials { seat, token: tokens[seat as usize].clone() };
    // Play the first option until a choice may be undone.
    let (before_hash, seat, seq) = loop {
        let (state, _) = m.seats().get_view(&id, None).await.expect("view");
        let o = state.decision.expect("decision").options.remove(0);
        let seat = o.seats[0];
        let a = m.play().submit(&id, &creds(seat), Some(state.seq), &o.id).await.expect("submit");
        if a.state.can_undo {
            break (state.state_hash, seat, a.seq);
        }
        assert!(a.seq < 80, "no undoable choice in 80 choices");
    };
    let other = (seat + 1) % 3;
    let err = m.undo(&id, &creds(other), Some(seq)).await.err().map(|e| e.code());
    assert_eq!(err, Some(tonic::Code::FailedPrecondition), "not your choice");
    let err = m.undo(&id, &creds(seat), Some(seq - 1)).await.err().map(|e| e.code());
    assert_eq!(err, Some(tonic::Code::Aborted));
    let mut rx = m.streams().stream_game(None, &id, seq, None, false).await.expect("stream");
    rx.recv().await.expect("snapshot").expect("ok");
    let (undo_seq, state) = m.undo(&id, &creds(seat), Some(seq)).await.expect("undo");
    assert_eq!(undo_seq, seq + 1);
    assert_eq!(state.state_hash, before_hash, "back to the state before the choice");
    let live = rx.recv().await.expect("live").expect("ok");
    assert_eq!(live.entry.expect("entry").kind, pb::EntryKind::Undo as i32);
    assert_eq!(live.state.expect("state").state_hash, before_hash);
    let (_, history) = m.lobby().history(&id, "").await.expect("history");
    assert_eq!(history.last().map(|e| e.option_id.as_str()), Some("undo"));
    // Replays agree: a stream from the start, a fork, a reload.
    let mut rx = m.streams().stream_game(None, &id, 0, None, false).await.expect("stream");
    let mut last = None;
    for _ in 0..=undo_seq {
        last = rx.recv().await.expect("update").expect("ok").state;
    }
    assert_eq!(last.expect("state").state_hash, before_hash);
    let fork = m.lobby().fork_game(None, &id, undo_seq, &[], &creator).await.expect("fork").0;
    assert_eq!(m.seats().get_view(&fork.game_id, None).await.expect("view").0.state_hash, before_hash);
    let m2 = manager(store).await;
    assert_eq!(m2.seats().get_view(&id, None).await.expect("view").0.state_hash, before_hash);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_submits_of_the_same_seq_act_once() {
    let m = manager(Arc::new(crate::store::SqliteStore::open_in_memory().expect("db"))).await;
    let id = m.lobby().create_game(None, &create_req(5)).await.expect("create").0.game_id;
    let tokens = claim_all(&m, &id).await;
    let (state, _) = m.seats().get_view(&id, None).await.expect("view");
    let o = state.decision.expect("decision").options.remove(0);
    let creds = Credentials { seat: o.seats[0], token: tokens[o.seats[0] as usize].clone() };
    let click = || {
        let (m, id, creds, o) = (Arc::clone(&m), id.clone(), creds.clone(), o.id.clone());
        tokio::spawn(async move { m.play().submit(&id, &creds, Some(0), &o).await.map(|a| a.seq) })
    };
    let (a, b) = (click(), click());
    let results = [a.await.expect("join"), b.await.expect("join")];
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "exactly one click acts");
    let refused = results.iter().find_map(|r| r.as_ref().err()).expect("one refused");
    assert_eq!(refused.code(), tonic::Code::Aborted);
    assert_eq!(m.lobby().history(&id, "").await.expect("history").1.len(), 1);
}

#[tokio::test]
async fn streams_replay_then_follow_and_forks_match() {
    let m = manager(Arc::new(MemoryStore::default())).await;
    let (g, creator) = m.lobby().create_game(None, &create_req(3)).await.expect("create");
    let id = g.game_id;
    let tokens = claim_all(&m, &id).await;
    play(&m, &id, &tokens, 4).await;
    let mut rx = m.streams().stream_game(None, &id, 1, None, false).await.expect("stream");
    let first = rx.recv().await.expect("snapshot").expect("ok");
    assert!(first.snapshot);
    assert_eq!(first.seq, 1);
    for seq in 2..=4 {
        let u = rx.recv().await.expect("replayed").expect("ok");
        assert_eq!(u.seq, seq);
        assert_eq!(u.entry.expect("entry").seq, seq);
    }
    play(&m, &id, &tokens, 1).await;
    let live = rx.recv().await.expect("live").expect("ok");
    assert_eq!(live.seq, 5);
    let (now, _) = m.seats().get_view(&id, None).await.expect("view");
    assert_eq!(live.state.expect("state").state_hash, now.state_hash);

    let (fork, _) = m.lobby().fork_game(None, &id, 5, &[], &creator).await.expect("fork");
    assert_eq!(fork.seq, 5);
    let (forked, _) = m.seats().get_view(&fork.game_id, None).await.expect("view");
    assert_eq!(forked.state_hash, now.state_hash);
    assert_eq!(m.lobby().fork_game(None, &id, 99, &[], "").await.expect_err("range").code(), tonic::Code::OutOfRange);
    assert_eq!(
        m.streams().stream_game(None, &id, 99, None, false).await.err().map(|e| e.code()),
        Some(tonic::Code::OutOfRange)
    );

    m.begin_shutdown();
    let last = rx.recv().await.expect("a last word at shutdown").expect_err("an error, not an update");
    assert_eq!(last.code(), tonic::Code::Unavailable, "{last:?}");
    assert!(last.message().contains("from_seq 5"), "it says where to resume: {last:?}");
    assert!(rx.recv().await.is_none(), "then the stream ends");
}

#[tokio::test]
async fn games_load_when_touched_and_leave_memory_when_idle() {
    let dir = std::env::temp_dir().join(format!("xodus-lazy-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (id, before) = {
        let store: Arc<dyn GameStore> =
            Arc::new(crate::store::SqliteStore::open_dir(&dir, Limits::default().commit_poll).expect("db"));
        let m = manager(store).await;
        let id = m.lobby().create_game(None, &create_req(4)).await.expect("create").0.game_id;
        let tokens = claim_all(&m, &id).await;
        play(&m, &id, &tokens, 5).await;
        (id.clone(), m.seats().get_view(&id, None).await.expect("view").0)
    };
    let store: Arc<dyn GameStore> =
        Arc::new(crate::store::SqliteStore::open_dir(&dir, Limits::default().commit_poll).expect("reopen"));
    let limits = Limits { evict_idle: std::time::Duration::from_millis(1), ..Limits::default() };
    let m = Arc::new(Manager::load(store, limits, standard()).await.expect("load"));
    assert_eq!(m.game_count(), 1);
    assert!(m.games.read().expect("lock").is_empty(), "nothing replayed at start");
    let listed = m.lobby().list_games(None, false, 0, "").await.expect("list").games;
    assert_eq!((listed[0].seq, listed[0].seats.iter().filter(|s| s.claimed).count()), (5, 3), "from the index");
    let (view, _) = m.seats().get_view(&id, None).await.expect("view loads it");
    assert_eq!((view.seq, &view.state_hash), (before.seq, &before.state_hash));
    assert_eq!(m.games.read().expect("lock").len(), 1);
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    m.end_and_sweep().await;
    assert!(m.games.read().expect("lock").is_empty(), "evicted when idle");
    let (again, _) = m.seats().get_view(&id, None).await.expect("back on demand");
    assert_eq!(again.state_hash, before.state_hash);
    let _ = std::fs::remove_dir_all(&dir);
}

/// X-ODUS, counting how many states it renders (issue 30: each update is
/// rendered once per seq and viewer, and shared).
mod counting {
    use crate::game::{Applied, GameError, GameType, HostedGame, Outcome, Refusal, Seat, Setup, Viewer};
    use crate::xodus_for_tests::Xodus;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tabletop::pb;

    pub struct CountingXodus(pub Arc<AtomicUsize>);

    struct Counted(Box<dyn HostedGame>, Arc<AtomicUsize>);

    impl GameType for CountingXodus {
        fn name(&self) -> &'static str {
            "counting-xodus"
        }
        fn wire_kind(&self) -> pb::GameKind {
            pb::GameKind::Xodus
        }
        fn setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, GameError> {
            Xodus.setup(request, random_seed)
        }
        fn start(&self, config_json: &str) -> Result<Box<dyn HostedGame>, GameError> {
            Ok(Box::new(Counted(Xodus.start(config_json)?, Arc::clone(&self.0))))
        }
    }

    impl HostedGame for Counted {
        fn seat_roles(&self) -> Vec<String> {
            self.0.seat_roles()
        }
        fn decision(&self) -> pb::Decision {
            self.0.decision()
        }
        fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Applied, Refusal> {
            self.0.apply(seat, option_id)
        }
        fn view_detail(&self, viewer: Viewer) -> pb::game_state::Detail {
            self.1.fetch_add(1, Ordering::SeqCst);
            self.0.view_detail(viewer)
        }
        fn schema_version(&self) -> u32 {
            self.0.schema_version()
        }
        fn type_name(&self) -> &'static str {
            self.0.type_name()
        }
        fn hidden_hash(&self) -> u64 {
            self.0.hidden_hash()
        }
        fn same_state_for_every_viewer(&self) -> bool {
            self.0.same_state_for_every_viewer()
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn round(&self) -> u32 {
            self.0.round()
        }
        fn state_hash(&self) -> u64 {
            self.0.state_hash()
        }
        fn resampled(&self, viewer: Viewer, seed: u64) -> Box<dyn HostedGame> {
            Box::new(Counted(self.0.resampled(viewer, seed), Arc::clone(&self.1)))
        }
        fn boxed_clone(&self) -> Box<dyn HostedGame> {
            Box::new(Counted(self.0.boxed_clone(), Arc::clone(&self.1)))
        }
    }
}

#[tokio::test]
async fn each_update_is_rendered_once_per_viewer_and_shared_by_reply_view_and_streams() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let renders = Arc::new(AtomicUsize::new(0));
    let registry = standard().with(Arc::new(counting::CountingXodus(Arc::clone(&renders))));
    let m = Arc::new(Manager::load(Arc::new(MemoryStore::default()), Limits::default(), registry).await.expect("load"));
    let mut req = create_req(21);
    req.game_type = "counting-xodus".into();
    let id = m.lobby().create_game(None, &req).await.expect("create").0.game_id;
    let tokens = claim_all(&m, &id).await;
    let (state, _) = m.seats().get_view(&id, None).await.expect("view");
    let o = state.decision.clone().expect("decision").options[0].clone();
    let mover = o.seats[0];
    let creds = |seat: u32| Credentials { seat, token: tokens[seat as usize].clone() };
    // Three spectators and the mover's own stream, all caught up.
    let mut streams = Vec::new();
    for who in [None, None, None, Some(creds(mover))] {
        let mut rx = m.streams().stream_game(None, &id, state.seq, who.as_ref(), false).await.expect("stream");
        rx.recv().await.expect("snapshot").expect("ok");
        streams.push(rx);
    }
    let before = renders.load(Ordering::SeqCst);
    let accepted = m.play().submit(&id, &creds(mover), Some(state.seq), &o.id).await.expect("submit");
    let mut seen = Vec::new();
    for rx in &mut streams {
        let u = rx.recv().await.expect("update").expect("ok");
        assert_eq!(u.seq, accepted.seq);
        seen.push(u.state.expect("state"));
    }
    let (view, _) = m.seats().get_view(&id, Some(&creds(mover))).await.expect("view");
    let (spectator_view, _) = m.seats().get_view(&id, None).await.expect("view");
    assert_eq!(seen[3], accepted.state, "the mover's stream carries the reply's state");
    assert_eq!(view, accepted.state, "and so does the mover's GetView");
    assert!(seen[..3].iter().all(|s| *s == spectator_view), "spectators share one state");
    assert_eq!(
        renders.load(Ordering::SeqCst) - before,
        1,
        "X-ODUS shows every viewer the same state: one render for the reply, two GetViews and four streams"
    );
}

/// SQLite in memory whose choice acknowledgements arrive late: the entry
/// is committed at once, its caller hears of it after `delay` (a slow
/// fsync, seen from the server).
struct SlowAcks {
    inner: crate::store::SqliteStore,
    delay: std::time::Duration,
}

impl GameStore for SlowAcks {
    fn create_game(
        &self,
        game: &GameRecord,
        entries: &[crate::model::EntryRecord],
    ) -> Result<(), crate::store::StoreError> {
        self.inner.create_game(game, entries)
    }
    fn append_entry(&self, game_id: &str, entry: &crate::model::EntryRecord) -> Result<(), crate::store::StoreError> {
        self.inner.append_entry(game_id, entry)
    }
    fn append_entry_async(&self, game_id: &str, entry: &crate::model::EntryRecord) -> crate::store::Done {
        let committed = self.inner.append_entry_async(game_id, entry);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let delay = self.delay;
        std::thread::spawn(move || {
            let r =
                committed.blocking_recv().unwrap_or_else(|_| Err(crate::store::StoreError::Writer("dropped".into())));
            std::thread::sleep(delay);
            let _ = tx.send(r);
        });
        rx
    }
    fn set_clock(&self, game_id: &str, clock: &crate::clock::ClockRecord) -> Result<(), crate::store::StoreError> {
        self.inner.set_clock(game_id, clock)
    }
    fn append_talk(&self, game_id: &str, line: &crate::model::TalkRecord) -> Result<(), crate::store::StoreError> {
        self.inner.append_talk(game_id, line)
    }
    fn put_mutes(&self, game_id: &str, mutes: &crate::model::MuteRecord) -> Result<(), crate::store::StoreError> {
        self.inner.put_mutes(game_id, mutes)
    }
    fn put_seat(&self, game_id: &str, seat: &crate::model::SeatRecord) -> Result<(), crate::store::StoreError> {
        self.inner.put_seat(game_id, seat)
    }
    fn set_status(&self, game_id: &str, status: Status, ended_ms: Option<i64>) -> Result<(), crate::store::StoreError> {
        self.inner.set_status(game_id, status, ended_ms)
    }
    fn delete_game(&self, game_id: &str) -> Result<(), crate::store::StoreError> {
        self.inner.delete_game(game_id)
    }
    fn load_briefs(&self) -> Result<Vec<crate::model::StoredBrief>, crate::store::StoreError> {
        self.inner.load_briefs()
    }
    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, crate::store::StoreError> {
        self.inner.load_game(game_id)
    }
    fn put_summary(&self, game_id: &str, summary: Vec<u8>, seq: u64, last_move_ms: i64) -> crate::store::Done {
        self.inner.put_summary(game_id, summary, seq, last_move_ms)
    }
}

/// A game on a store whose acknowledgements take 300 ms, every seat
/// claimed: its manager, id, tokens, state, and the first option with the
/// credentials of the seat that takes it.
struct SlowGame {
    m: Arc<Manager>,
    id: String,
    tokens: Vec<String>,
    state: pb::GameState,
    option: pb::ChoiceOption,
    creds: Credentials,
}

async fn slow_game(seed: u64) -> SlowGame {
    let store = SlowAcks {
        inner: crate::store::SqliteStore::open_in_memory().expect("sqlite"),
        delay: std::time::Duration::from_millis(300),
    };
    let m = manager(Arc::new(store)).await;
    let id = m.lobby().create_game(None, &create_req(seed)).await.expect("create").0.game_id;
    let tokens = claim_all(&m, &id).await;
    let (state, _) = m.seats().get_view(&id, None).await.expect("view");
    let option = state.decision.clone().expect("decision").options[0].clone();
    let creds = Credentials { seat: option.seats[0], token: tokens[option.seats[0] as usize].clone() };
    SlowGame { m, id, tokens, state, option, creds }
}

#[tokio::test]
async fn a_choice_whose_caller_gives_up_during_the_commit_still_lands_and_the_game_goes_on() {
    let SlowGame { m, id, tokens, state, option: o, creds } = slow_game(31).await;
    // The caller's deadline passes while the store is committing.
    let gave_up = tokio::time::timeout(
        std::time::Duration::from_millis(50),
        m.play().submit_detached(id.clone(), creds, Some(state.seq), crate::wire::Pick::Id(o.id.clone())),
    )
    .await;
    assert!(gave_up.is_err(), "the caller left before the acknowledgement");
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (after, _) = m.seats().get_view(&id, None).await.expect("view");
    assert_eq!(after.seq, state.seq + 1, "the committed choice was swapped in although nobody waited for it");
    // The game goes on: the next choice is stored after it, not on top of it.
    play(&m, &id, &tokens, 1).await;
    assert_eq!(m.seats().get_view(&id, None).await.expect("view").0.seq, state.seq + 2);
}

#[tokio::test]
async fn a_choice_sent_on_a_play_stream_whose_client_leaves_during_the_commit_still_lands() {
    let SlowGame { m, id, tokens, state, option: o, creds } = slow_game(32).await;
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let inbound = tokio_stream::wrappers::ReceiverStream::new(rx);
    let mut answers = m.play().play_stream(None, id.clone(), creds, inbound).await.expect("open");
    assert!(matches!(
        answers.recv().await,
        Some(Ok(pb::PlayResponse { kind: Some(pb::play_response::Kind::Opened(_)) }))
    ));
    let choice =
        pb::PlayChoice { expected_seq: Some(state.seq), choice: Some(pb::play_choice::Choice::OptionId(o.id.clone())) };
    tx.send(Ok(pb::PlayRequest { kind: Some(pb::play_request::Kind::Choice(choice)) })).await.expect("send");
    // The client leaves while the store is committing: both halves of its
    // stream are gone before the acknowledgement.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    drop(tx);
    drop(answers);
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (after, _) = m.seats().get_view(&id, None).await.expect("view");
    assert_eq!(after.seq, state.seq + 1, "the committed choice was swapped in although nobody waited for it");
    play(&m, &id, &tokens, 1).await;
    assert_eq!(m.seats().get_view(&id, None).await.expect("view").0.seq, state.seq + 2);
}
