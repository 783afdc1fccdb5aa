//! Two real `xodus-server` nodes on one throwaway PostgreSQL (issue 51):
//! any node serves any game (calls and streams are forwarded to the
//! game's owner), the lobby of one node hears of the games of the other,
//! a forged cluster secret is refused, a dead node's game moves to the
//! survivor with its stream resumed from the last seq and its clock
//! running on, a drained node hands its games over, and readiness
//! follows the database. The longer kill -9 run is `cluster_failover.rs`.

mod common;
#[path = "common/postgres.rs"]
mod pg;

use common::*;
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// The lease time of these nodes: a dead node's games move within it
/// (plus a second).
const TTL_MS: &str = "2000";

/// Starts node `name` on the database at `url`.
fn node(name: &str, url: &str) -> Server {
    Server::start_in(
        temp_dir(&format!("cluster-{name}")),
        &["--database", url, "--node-id", name, "--lease-ttl-ms", TTL_MS],
    )
}

/// Starts PostgreSQL with a fresh database, or `None` when the tests are
/// told to skip it.
async fn database(tag: &'static str) -> Option<(pg::TempPostgres, String)> {
    let postgres = tokio::task::spawn_blocking(pg::TempPostgres::start_or_skip).await.expect("start")?;
    let url = postgres.fresh_database(tag);
    Some((postgres, url))
}

/// Waits (within the hang guard) until `check` holds, polling.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + HANG_GUARD;
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "never happened: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The next message of a stream, within the hang guard.
async fn next<T>(s: &mut tonic::Streaming<T>) -> Result<Option<T>, tonic::Status> {
    tokio::time::timeout(HANG_GUARD, s.message()).await.expect("the stream stalled")
}

/// A spectator's stream of `game` from `from_seq`.
async fn watch(
    c: &mut GameServiceClient<Channel>,
    game: &str,
    from_seq: u64,
) -> tonic::Streaming<pb::StreamGameResponse> {
    c.stream_game(pb::StreamGameRequest { game_id: game.into(), from_seq, ..Default::default() })
        .await
        .expect("stream")
        .into_inner()
}

/// The error a stream ends with once its node is gone or going, with no
/// update before it; panics when it ends as if the game were over.
async fn ending(stream: &mut tonic::Streaming<pb::StreamGameResponse>) -> tonic::Status {
    loop {
        match next(stream).await {
            Ok(Some(m)) => assert!(m.entry.is_none(), "no update once the node is gone or going"),
            Ok(None) => panic!("the stream ends with an error, not as if the game were over"),
            Err(status) => return status,
        }
    }
}

/// Reads `stream` until an update of seq `seq`; panics on a gap.
async fn until_seq(stream: &mut tonic::Streaming<pb::StreamGameResponse>, last: &mut u64, seq: u64) {
    while *last < seq {
        let m = next(stream).await.expect("the stream failed").expect("the stream ended");
        if m.entry.is_some() {
            assert_eq!(m.seq, *last + 1, "every seq once, in order");
            *last = m.seq;
        }
    }
}

#[tokio::test]
async fn any_node_serves_any_game_and_every_lobby_hears_of_it() {
    let Some((_postgres, url)) = database("cluster_any").await else { return };
    let (a, b) = (node("a", &url), node("b", &url));
    let (mut ca, mut cb) = (a.client().await, b.client().await);

    // b's lobby watcher, opened before the game exists.
    let mut lobby = cb.watch_lobby(pb::WatchLobbyRequest::default()).await.expect("watch lobby").into_inner();
    loop {
        let m = next(&mut lobby).await.expect("lobby").expect("lobby open");
        if m.change == pb::LobbyChange::SnapshotEnd as i32 {
            break;
        }
    }
    let id = create_game(&mut ca, 51).await;
    loop {
        let m = next(&mut lobby).await.expect("lobby").expect("lobby open");
        if m.game.as_ref().is_some_and(|g| g.game_id == id) {
            assert_eq!(m.change, pb::LobbyChange::Created as i32, "b hears of a's game as created");
            break;
        }
    }

    // Seats claimed through b, the game watched through b, played through
    // both: a owns it, b forwards.
    let tokens = claim_all(&mut cb, &id).await;
    loop {
        let m = next(&mut lobby).await.expect("lobby").expect("lobby open");
        let g = m.game.expect("game");
        if g.game_id == id && g.seats.iter().all(|s| s.claimed) {
            break;
        }
    }
    let mut stream = watch(&mut cb, &id, 0).await;
    let mut last = 0;
    for i in 0..6 {
        let c = if i % 2 == 0 { &mut ca } else { &mut cb };
        let acked = play_first(c, &id, &tokens).await.seq;
        until_seq(&mut stream, &mut last, acked).await;
    }
    let (sa, sb) = (state(&mut ca, &id).await, state(&mut cb, &id).await);
    assert_eq!((sa.seq, &sa.state_hash), (sb.seq, &sb.state_hash), "one game, whichever node answers");
    assert!(a.log().contains("seat claimed"), "a, the owner, served the claims");
    assert!(!b.log().contains("seat claimed"), "b forwarded them");

    // b's lobby catches up with the moves (the owner publishes progress).
    eventually("b's lobby shows the last seq", || {
        let mut cb = cb.clone();
        let (id, seq) = (id.clone(), sa.seq);
        async move {
            let games = cb.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner().games;
            games.iter().any(|g| g.game_id == id && g.seq == seq)
        }
    })
    .await;
}

#[tokio::test]
async fn a_forged_cluster_secret_is_refused_and_a_forwarded_for_header_alone_changes_nothing() {
    let Some((_postgres, url)) = database("cluster_forged").await else { return };
    let a = node("a", &url);
    let mut c = a.client().await;
    let id = create_game(&mut c, 52).await;
    // The header's name, and the name earlier releases used (still read).
    for (secret_key, for_key) in
        [("x-tabletop-cluster", "x-tabletop-forwarded-for"), ("x-xodus-cluster", "x-xodus-forwarded-for")]
    {
        let mut forged = tonic::Request::new(pb::GetViewRequest { game_id: id.clone(), ..Default::default() });
        forged.metadata_mut().insert(secret_key, "0123456789abcdef".parse().expect("ascii"));
        forged.metadata_mut().insert(for_key, "10.9.8.7".parse().expect("ascii"));
        let refused = c.get_view(forged).await.expect_err("a forged secret");
        assert_eq!(refused.code(), tonic::Code::Unauthenticated, "{refused:?}");
        assert!(refused.message().contains(secret_key), "the refusal says what was wrong: {refused:?}");

        let mut alone = tonic::Request::new(pb::GetViewRequest { game_id: id.clone(), ..Default::default() });
        alone.metadata_mut().insert(for_key, "10.9.8.7".parse().expect("ascii"));
        c.get_view(alone).await.expect("without the secret the header is just ignored");
    }
}

#[tokio::test]
async fn a_dead_nodes_game_moves_to_the_survivor_and_its_stream_resumes() {
    let Some((_postgres, url)) = database("cluster_dead").await else { return };
    let (a, b) = (node("a", &url), node("b", &url));
    let (mut ca, mut cb) = (a.client().await, b.client().await);
    let id = create_game(&mut ca, 53).await;
    let tokens = claim_all(&mut ca, &id).await;
    let mut stream = watch(&mut cb, &id, 0).await;
    let mut last = 0;
    for _ in 0..4 {
        let acked = play_first(&mut ca, &id, &tokens).await.seq;
        until_seq(&mut stream, &mut last, acked).await;
    }
    // A line of table talk said on a, and kept through the failover.
    let said = ca
        .say(pb::SayRequest {
            game_id: id.clone(),
            credentials: Some(pb::SeatCredentials { seat: 0, token: tokens[0].clone() }),
            text: "hold the line".into(),
            ..Default::default()
        })
        .await
        .expect("say on a")
        .into_inner()
        .line
        .expect("line");
    let before = state(&mut ca, &id).await;
    drop(ca);
    let _ = a.kill9();

    // The stream relayed by b from a ends with an error.
    let status = ending(&mut stream).await;
    assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");

    // b takes the game over once a's lease runs out, with every
    // acknowledged choice, and the game goes on through b.
    eventually("b serves the game", || {
        let mut cb = cb.clone();
        let id = id.clone();
        async move { cb.get_view(pb::GetViewRequest { game_id: id, ..Default::default() }).await.is_ok() }
    })
    .await;
    let after = state(&mut cb, &id).await;
    assert_eq!((after.seq, &after.state_hash), (before.seq, &before.state_hash), "the same game, bit for bit");
    let talk = cb
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("history on b")
        .into_inner()
        .talk;
    assert_eq!(talk, vec![said], "the talk survives the failover");
    eventually("b says it owns the game", || {
        let log = b.log();
        async move { log.contains("took the game over") || log.contains("owns the game now") }
    })
    .await;
    let mut stream = watch(&mut cb, &id, last).await;
    let acked = play_first(&mut cb, &id, &tokens).await.seq;
    assert_eq!(acked, before.seq + 1);
    until_seq(&mut stream, &mut last, acked).await;
}

#[tokio::test]
async fn a_node_is_ready_only_while_its_database_answers() {
    let Some((mut postgres, url)) = database("cluster_ready").await else { return };
    let a = node("a", &url);
    let channel = a.channel().await;
    let health = |channel: Channel| async move {
        HealthClient::new(channel)
            .check(tonic_health::pb::HealthCheckRequest { service: tabletop::SERVICE_NAME.into() })
            .await
            .map(|r| r.into_inner().status)
    };
    assert_eq!(health(channel.clone()).await.expect("health"), ServingStatus::Serving as i32);
    tokio::task::spawn_blocking(move || postgres.stop()).await.expect("stop PostgreSQL");
    eventually("the node reports NOT_SERVING", || {
        let channel = channel.clone();
        async move { health(channel).await.is_ok_and(|s| s == ServingStatus::NotServing as i32) }
    })
    .await;
}

#[tokio::test]
async fn a_drained_node_ends_its_streams_with_unavailable_and_hands_its_games_over() {
    let Some((_postgres, url)) = database("cluster_drain").await else { return };
    let (a, b) = (node("a", &url), node("b", &url));
    let (mut ca, mut cb) = (a.client().await, b.client().await);
    let id = create_game(&mut ca, 54).await;
    let tokens = claim_all(&mut ca, &id).await;
    let mut stream = watch(&mut ca, &id, 0).await;
    let mut last = 0;
    let acked = play_first(&mut ca, &id, &tokens).await.seq;
    until_seq(&mut stream, &mut last, acked).await;

    let a_dir = tokio::task::spawn_blocking(move || a.terminate_keep());
    let ended = ending(&mut stream).await;
    assert_eq!(ended.code(), tonic::Code::Unavailable, "{ended:?}");
    assert!(ended.message().contains(&format!("from_seq {last}")), "it says where to resume: {ended:?}");
    let a_dir = a_dir.await.expect("a stopped");
    let log = std::fs::read_to_string(a_dir.join("server.log")).expect("a's log");
    assert!(log.contains("gave every game up to the other nodes games=1"), "a gave its game up:\n{log}");

    let mut stream = watch(&mut cb, &id, last).await;
    let acked = play_first(&mut cb, &id, &tokens).await.seq;
    until_seq(&mut stream, &mut last, acked).await;
    assert_eq!(last, 2, "the game went on through b from where it was");
}

#[tokio::test]
async fn a_seats_clock_runs_on_on_the_node_that_takes_the_game_over() {
    let Some((_postgres, url)) = database("cluster_clock").await else { return };
    let (a, b) = (node("a", &url), node("b", &url));
    let (mut ca, mut cb) = (a.client().await, b.client().await);
    let clock = pb::ClockRules {
        kind: pb::ClockKind::PerMove as i32,
        per_move_seconds: 3,
        on_timeout: pb::TimeoutPolicy::Skip as i32,
        ..Default::default()
    };
    // VII Legio: its rules let the server pass for a seat (X-ODUS has no
    // pass in most decisions).
    let request = legio_clocked([pb::SeatOpenTo::Human; 2], clock);
    let id = create_from(&mut ca, request).await;
    claim_seats(&mut ca, &id, 2).await;
    // Nobody plays; the owner dies with the first seat's clock running.
    let _ = a.kill9();
    eventually("b passes for the seat whose time ran out", || {
        let mut cb = cb.clone();
        let id = id.clone();
        async move {
            let h = cb.get_history(pb::GetHistoryRequest { game_id: id, ..Default::default() }).await;
            h.is_ok_and(|h| !h.into_inner().entries.is_empty())
        }
    })
    .await;
    let s = state(&mut cb, &id).await;
    assert!(s.seq >= 1, "the game moved on without a choice from anyone");
    let log = b.log();
    assert!(log.contains("took the game over") || log.contains("owns the game now"), "b took the game over:\n{log}");
}
