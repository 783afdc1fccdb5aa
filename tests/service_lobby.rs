//! End-to-end tests of the lobby against a real `xodus-server` process:
//! create (chosen and random setups, refusals), list with filters, claim,
//! reclaim with the token, release, and the WatchLobby stream.

mod common;

use common::*;
use std::time::{Duration, Instant};
use tabletop::pb;
use tabletop::xodus_pb::XodusSetup;
use tonic::Code;

/// The idle timeout of the idle-seat test's server.
const IDLE_TIMEOUT: Duration = Duration::from_secs(1);

fn claim(game_id: &str, seat: u32, who: pb::Claimant, token: &str) -> pb::ClaimSeatRequest {
    pb::ClaimSeatRequest { game_id: game_id.into(), seat, claimant: who as i32, token: token.into() }
}

#[allow(deprecated)] // config_json is deprecated but still sent: checked here
#[tokio::test]
async fn create_list_claim_reclaim_release() {
    let server = Server::start("lobby");
    let mut c = server.client().await;
    let chosen = pb::CreateGameRequest {
        kind: pb::GameKind::Xodus as i32,
        seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32],
        game_type: String::new(),
        setup: Some(tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
            ship_count: 4,
            ships: vec!["warship".into(), "explorer".into(), "pirate_ship".into(), "proto_ship".into()],
            difficulty: "heroic".into(),
            allies: vec!["mercenary".into(), "cartographer".into()],
            seed: Some(42),
            nightmare: false,
        })),
        ..Default::default()
    };
    let g = c.create_game(chosen).await.expect("create").into_inner().game.expect("game");
    assert_eq!(g.seats.len(), 4);
    assert_eq!(g.seats[1].role, "explorer");
    assert_eq!(g.seats[1].open_to, pb::SeatOpenTo::Ai as i32);
    assert_eq!(g.seats[3].open_to, pb::SeatOpenTo::Human as i32, "unlisted seats are for humans");
    assert_eq!((g.seed, g.status), (Some(42), pb::GameStatus::Open as i32), "the creator's reply has the seed");
    assert!(g.config_json.contains("heroic"));
    let random = create_game(&mut c, 7).await;

    let list = c.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner().games;
    assert_eq!(list.iter().map(|g| g.game_id.as_str()).collect::<Vec<_>>(), vec![g.game_id.as_str(), &random]);
    // The lobby's typed configuration: what config_json says, with no seed.
    let typed: tabletop::xodus_pb::XodusConfig =
        tabletop::any::unpack(list[0].game_config.as_ref().expect("typed config")).expect("an XodusConfig");
    use tabletop::xodus_pb::{AllyKind, Difficulty, ShipKind};
    assert_eq!(
        typed.ships,
        [ShipKind::Warship, ShipKind::Explorer, ShipKind::PirateShip, ShipKind::ProtoShip].map(|k| k as i32).to_vec()
    );
    assert_eq!(typed.difficulty, Difficulty::Heroic as i32);
    assert_eq!(typed.allies, [AllyKind::Mercenary, AllyKind::Cartographer].map(|k| k as i32).to_vec());
    assert_eq!(typed.nightmare, Some(false));

    let err = c.claim_seat(claim(&g.game_id, 1, pb::Claimant::Human, "")).await.expect_err("AI seat");
    assert_eq!(err.code(), Code::PermissionDenied);
    let t0 = c.claim_seat(claim(&g.game_id, 0, pb::Claimant::Human, "")).await.expect("claim").into_inner().token;
    assert_eq!(t0.len(), 32);
    let err = c.claim_seat(claim(&g.game_id, 0, pb::Claimant::Human, "")).await.expect_err("taken");
    assert_eq!(err.code(), Code::FailedPrecondition);
    let again = c.claim_seat(claim(&g.game_id, 0, pb::Claimant::Human, &t0)).await.expect("reclaim").into_inner();
    assert_eq!(again.token, t0, "reclaim with the token after a disconnect");
    let err = c.claim_seat(claim(&g.game_id, 0, pb::Claimant::Human, "wrong")).await.expect_err("bad token");
    assert_eq!(err.code(), Code::Unauthenticated);
    // One person may hold several seats.
    let t2 = c.claim_seat(claim(&g.game_id, 2, pb::Claimant::Human, "")).await.expect("second seat").into_inner();
    assert_ne!(t2.token, t0);

    let open =
        pb::ListGamesRequest { status: pb::GameStatus::Open as i32, only_open_seats: true, ..Default::default() };
    assert_eq!(c.list_games(open).await.expect("list").into_inner().games.len(), 2);
    let err = c
        .list_games(pb::ListGamesRequest { status: 99, only_open_seats: false, ..Default::default() })
        .await
        .expect_err("bad enum");
    assert_eq!(err.code(), Code::InvalidArgument);

    let released = c
        .release_seat(pb::ReleaseSeatRequest {
            game_id: g.game_id.clone(),
            credentials: Some(pb::SeatCredentials { seat: 0, token: t0.clone() }),
        })
        .await
        .expect("release")
        .into_inner()
        .game
        .expect("game");
    assert!(!released.seats[0].claimed);
    let err = c
        .get_view(pb::GetViewRequest {
            game_id: g.game_id,
            credentials: Some(pb::SeatCredentials { seat: 0, token: t0 }),
            ..Default::default()
        })
        .await
        .expect_err("released token");
    assert_eq!(err.code(), Code::Unauthenticated);
    assert!(server.log().contains("game created") && server.log().contains("seat claimed"));
}

#[tokio::test]
async fn malformed_creates_are_invalid_arguments() {
    let server = Server::start("lobby-bad");
    let mut c = server.client().await;
    let setup = |x: XodusSetup| pb::CreateGameRequest {
        kind: pb::GameKind::Xodus as i32,
        seats: vec![],
        game_type: String::new(),
        setup: Some(tabletop::any::game_setup(x)),
        ..Default::default()
    };
    let bad = vec![
        ("five ships", setup(XodusSetup { ship_count: 5, ..Default::default() })),
        ("unknown ship", setup(XodusSetup { ships: vec!["canoe".into(); 3], ..Default::default() })),
        (
            "same ship twice",
            setup(XodusSetup {
                ships: vec!["warship".into(), "warship".into(), "explorer".into()],
                ..Default::default()
            }),
        ),
        ("difficulty", setup(XodusSetup { ship_count: 3, difficulty: "nightmare".into(), ..Default::default() })),
        ("one ally", setup(XodusSetup { ship_count: 3, allies: vec!["smuggler".into()], ..Default::default() })),
        ("no kind", pb::CreateGameRequest { kind: 0, ..create_request(1) }),
        (
            "a setup of another type",
            pb::CreateGameRequest {
                setup: Some(pb::create_game_request::Setup::GameSetup(tabletop::any::pack(&pb::SeatInfo::default()))),
                ..create_request(1)
            },
        ),
        (
            "setup_json for X-ODUS",
            pb::CreateGameRequest {
                setup: Some(pb::create_game_request::Setup::SetupJson("{}".into())),
                ..create_request(1)
            },
        ),
        ("too many seats", pb::CreateGameRequest { seats: vec![1; 5], ..create_request(1) }),
    ];
    for (what, req) in bad {
        let err = c.create_game(req).await.expect_err(what);
        assert_eq!(err.code(), Code::InvalidArgument, "{what}: {}", err.message());
    }
    assert!(c.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner().games.is_empty());
}

#[tokio::test]
async fn watch_lobby_sends_a_snapshot_then_changes() {
    let server = Server::start("watch");
    let mut c = server.client().await;
    let first = create_game(&mut c, 1).await;
    let mut watch = c.watch_lobby(pb::WatchLobbyRequest {}).await.expect("watch").into_inner();
    let snap = watch.message().await.expect("ok").expect("snapshot");
    assert_eq!(snap.change, pb::LobbyChange::Snapshot as i32);
    assert_eq!(snap.game.expect("game").game_id, first);
    let end = watch.message().await.expect("ok").expect("end");
    assert_eq!(end.change, pb::LobbyChange::SnapshotEnd as i32);

    let second = create_game(&mut c, 2).await;
    let created = watch.message().await.expect("ok").expect("created");
    assert_eq!(created.change, pb::LobbyChange::Created as i32);
    assert_eq!(created.game.expect("game").game_id, second);
    c.claim_seat(claim(&second, 1, pb::Claimant::Ai, "")).await.expect("claim");
    let seat = watch.message().await.expect("ok").expect("seat");
    assert_eq!(seat.change, pb::LobbyChange::Seat as i32);
    assert!(seat.game.expect("game").seats[1].claimed);
}

#[tokio::test]
async fn silent_human_seat_goes_idle_and_an_ai_stands_in_until_the_holder_returns() {
    let server = Server::start_in(temp_dir("idle"), &["--idle-timeout-secs", &IDLE_TIMEOUT.as_secs().to_string()]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 3).await;
    let tokens = claim_all(&mut c, &id).await;
    let list = || pb::ListGamesRequest { status: 0, only_open_seats: true, ..Default::default() };
    // Held seats whose holders spoke less than the idle timeout ago are not
    // open. The seats' clocks run from the game's creation, so the holders
    // speak first, and only a round that took less than the timeout (here
    // a slow machine may need another round) shows that.
    let start = Instant::now();
    loop {
        let round = Instant::now();
        for s in 0..3 {
            c.get_view(pb::GetViewRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, s),
                ..Default::default()
            })
            .await
            .expect("holder's view");
        }
        let open = c.list_games(list()).await.expect("list").into_inner().games;
        if round.elapsed() < IDLE_TIMEOUT {
            assert!(open.is_empty(), "all seats held: {open:?}");
            break;
        }
        assert!(start.elapsed() < HANG_GUARD, "no round of three views and a list within {IDLE_TIMEOUT:?}");
    }
    let seat = state(&mut c, &id).await.decision.expect("decision").deciders[0];
    let game = loop {
        let games = c.list_games(list()).await.expect("list").into_inner().games;
        if let Some(g) = games.into_iter().find(|g| g.seats[seat as usize].idle) {
            break g;
        }
        assert!(start.elapsed() < HANG_GUARD, "seat {seat} never went idle");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(game.idle_timeout_seconds, 1);
    let err = c.claim_seat(claim(&id, seat, pb::Claimant::Human, "")).await.expect_err("humans wait");
    assert_eq!(err.code(), Code::FailedPrecondition);
    let stand_in = c.claim_seat(claim(&id, seat, pb::Claimant::Ai, "")).await.expect("stand in").into_inner();
    assert!(stand_in.game.expect("game").seats[seat as usize].stand_in);
    assert!(server.log().contains("seat idle"));

    // The stand-in plays for the seat.
    let s = state(&mut c, &id).await;
    let o = s.decision.expect("decision").options.into_iter().find(|o| o.seats.contains(&seat)).expect("option");
    let sub = pb::SubmitChoiceRequest {
        game_id: id.clone(),
        credentials: Some(pb::SeatCredentials { seat, token: stand_in.token.clone() }),
        expected_seq: Some(s.seq),
        choice: Some(pb::submit_choice_request::Choice::OptionId(o.id)),
    };
    c.submit_choice(sub).await.expect("stand-in choice");

    // The holder comes back with the token: the stand-in is dismissed.
    let back = c
        .get_view(pb::GetViewRequest { game_id: id.clone(), credentials: creds(&tokens, seat), ..Default::default() })
        .await
        .expect("holder returns")
        .into_inner()
        .game
        .expect("game");
    assert!(!back.seats[seat as usize].idle && !back.seats[seat as usize].stand_in);
    let err = c
        .get_view(pb::GetViewRequest {
            game_id: id,
            credentials: Some(pb::SeatCredentials { seat, token: stand_in.token }),
            ..Default::default()
        })
        .await
        .expect_err("stand-in token void");
    assert_eq!(err.code(), Code::Unauthenticated);
    assert!(err.message().contains("stopped working when the seat's holder returned"), "{}", err.message());
}
