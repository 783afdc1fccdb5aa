//! The hosting core hosts a game it was not written for: High Card
//! (`games/high-card`), registered here as `xodus-server --demo-games` does.
//! The server is the real service over a real socket, started in this
//! process with the extra game in its registry; the generic AI agent is the
//! real `xodus-ai` process, and a scripted client plays the other seat.
//! Hidden hands, undo, resampled and exact forks and the competitive
//! outcome go through the same paths as X-ODUS.

mod common;

use common::{Agent, HANG_GUARD, temp_dir};
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;
use tabletop_service::{Limits, ServerConfig, Storage};
use tonic::transport::Channel;

/// Starts the service with High Card registered, on 127.0.0.1:0, with its
/// SQLite data in `dir`: its URL and a handle that stops it when dropped.
async fn start_server(dir: &std::path::Path) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let config = ServerConfig {
        storage: Storage::Sqlite(dir.to_path_buf()),
        limits: Limits::default(),
        registry: xodus_server::registry_with_demo(),
        web: Default::default(),
        node: Default::default(),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(tabletop_service::run(listener, config, async move {
        let _ = stopped.await;
    }));
    (url, stop)
}

async fn client(url: &str) -> GameServiceClient<Channel> {
    let start = std::time::Instant::now();
    loop {
        if let Ok(c) = GameServiceClient::connect(url.to_string()).await {
            return c;
        }
        assert!(start.elapsed() < HANG_GUARD, "the in-process server never answered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn view_json(state: &pb::GameState) -> serde_json::Value {
    match &state.detail {
        Some(pb::game_state::Detail::Json(j)) => serde_json::from_str(&j.view_json).expect("view JSON"),
        other => panic!("High Card's state is JSON, got {other:?}"),
    }
}

async fn seat_state(c: &mut GameServiceClient<Channel>, game: &str, seat: u32, token: &str) -> pb::GameState {
    c.get_view(pb::GetViewRequest {
        game_id: game.into(),
        credentials: Some(pb::SeatCredentials { seat, token: token.into() }),
        ..Default::default()
    })
    .await
    .expect("view")
    .into_inner()
    .state
    .expect("state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_the_service_was_not_written_for_is_played_end_to_end() {
    let dir = temp_dir("high_card");
    let (url, _stop) = start_server(&dir).await;
    let mut c = client(&url).await;
    let created = c
        .create_game(pb::CreateGameRequest {
            game_type: "high_card".into(),
            seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32],
            setup: Some(pb::create_game_request::Setup::SetupJson("{\"seed\": 5}".into())),
            // Hidden hands would delay spectators by default; this game's
            // stranger forks the live game at its seq now.
            spectator_policy: pb::SpectatorPolicy::Public as i32,
            ..Default::default()
        })
        .await
        .expect("create a High Card game")
        .into_inner();
    let game = created.game.expect("game");
    assert_eq!((game.game_type.as_str(), game.seats.len()), ("high_card", 2));
    assert_eq!(game.seats[1].role, "south");
    let id = game.game_id;
    let token = c
        .claim_seat(pb::ClaimSeatRequest {
            game_id: id.clone(),
            seat: 0,
            claimant: pb::Claimant::Human as i32,
            token: String::new(),
        })
        .await
        .expect("claim seat 0")
        .into_inner()
        .token;

    // Hidden hands: seat 0 sees its three cards, a spectator sees none.
    let mine = seat_state(&mut c, &id, 0, &token).await;
    assert_eq!(view_json(&mine)["hand"].as_array().map(Vec::len), Some(3));
    let spectator = c
        .get_view(pb::GetViewRequest { game_id: id.clone(), credentials: None, ..Default::default() })
        .await
        .expect("spectator")
        .into_inner()
        .state
        .expect("state");
    assert!(view_json(&spectator)["hand"].is_null(), "a spectator sees no hand");

    // Undo goes through the same path: a selection reveals nothing.
    let option = mine.decision.as_ref().expect("decision").options[0].id.clone();
    let selected = c
        .submit_choice(pb::SubmitChoiceRequest {
            game_id: id.clone(),
            credentials: Some(pb::SeatCredentials { seat: 0, token: token.clone() }),
            expected_seq: Some(mine.seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(option)),
        })
        .await
        .expect("select")
        .into_inner();
    assert!(selected.state.as_ref().is_some_and(|s| s.can_undo), "a selection may be taken back");
    let undone = c
        .undo(pb::UndoRequest {
            game_id: id.clone(),
            credentials: Some(pb::SeatCredentials { seat: 0, token: token.clone() }),
            expected_seq: Some(selected.seq),
        })
        .await
        .expect("undo")
        .into_inner();
    assert_eq!(undone.state.expect("state").state_hash, mine.state_hash, "back where it was");

    // Forks of a live game whose seats hold secrets are resampled for
    // everyone, the creator included (a creator is usually a seated rival,
    // and an exact copy would show it every hand): same public past, a
    // fresh hidden part.
    let at_seq = undone.seq;
    let fork = |creator_token: String| pb::ForkGameRequest {
        source_game_id: id.clone(),
        at_seq,
        seats: vec![],
        creator_token,
        ..Default::default()
    };
    let stranger = c.fork_game(fork(String::new())).await.expect("fork").into_inner().game.expect("game");
    let creators =
        c.fork_game(fork(created.creator_token.clone())).await.expect("fork").into_inner().game.expect("game");
    assert!(stranger.resampled && creators.resampled, "no exact copy of a live game with private hands");
    assert_eq!(creators.seed, None, "nor its seed");

    // The generic agent (a real xodus-ai process) takes seat 1; the script
    // plays seat 0 from the wire decision alone, to the end.
    let _agent = Agent::spawn_fill(&url, &dir, "random");
    let start = std::time::Instant::now();
    let outcome = loop {
        assert!(start.elapsed() < HANG_GUARD, "the game did not end");
        let s = seat_state(&mut c, &id, 0, &token).await;
        if let Some(o) = s.outcome {
            break o;
        }
        let d = s.decision.expect("decision");
        let Some(o) = d.options.iter().find(|o| o.seats.contains(&0)) else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let _ = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: Some(pb::SeatCredentials { seat: 0, token: token.clone() }),
                expected_seq: Some(s.seq),
                choice: Some(pb::submit_choice_request::Choice::ChoiceJson(o.payload_json.clone())),
            })
            .await;
    };
    assert_eq!(outcome.cause, "hands_played");
    assert_eq!((outcome.scores.len(), outcome.ranking.len()), (2, 2), "a competitive outcome: scores and ranking");
    assert_eq!(outcome.scores.iter().sum::<i64>(), 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 - remaining(&mut c, &id).await);
    let history = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    assert_eq!(history.game.expect("game").seed, Some(5), "an ended game's seed is public");
}

/// The value of the cards never played (each seat keeps cards at the end).
async fn remaining(c: &mut GameServiceClient<Channel>, id: &str) -> i64 {
    let s = c
        .get_view(pb::GetViewRequest { game_id: id.into(), credentials: None, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state");
    let played: i64 =
        view_json(&s)["played"].as_array().expect("played").iter().map(|p| p[1].as_i64().unwrap_or(0)).sum();
    45 - played
}

#[test]
fn a_resampled_table_looks_the_same_to_its_viewer() {
    use tabletop_service::game::{GameType, Viewer};
    let mut table = high_card::HighCard.start("{\"seed\":\"9\"}").expect("table");
    for _ in 0..3 {
        let d = table.decision();
        let o = &d.options[0];
        table.apply(o.seats[0] as u8, &o.id).expect("first option");
    }
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        let mut differs = false;
        for seed in 0..20 {
            let sample = table.resampled(viewer, seed);
            assert_eq!(sample.view_detail(viewer), table.view_detail(viewer), "{viewer:?} sees the same table");
            assert_eq!(sample.decision(), table.decision());
            differs |= sample.state_hash() != table.state_hash();
        }
        assert!(differs, "{viewer:?}: the hidden part is drawn afresh");
    }
}

#[test]
fn high_card_passes_the_conformance_suite() {
    // The same suite X-ODUS and VII Legio pass (games/<game>/host), on a
    // game the service was not written for.
    let setups: Vec<pb::CreateGameRequest> = (0..6)
        .map(|seed| pb::CreateGameRequest {
            game_type: "high_card".into(),
            setup: Some(pb::create_game_request::Setup::SetupJson(format!("{{\"seed\":{seed}}}"))),
            ..Default::default()
        })
        .collect();
    let seen = tabletop_service::conformance::check(&high_card::HighCard, &setups, 50).expect("conformance");
    assert_eq!(seen.ended, 6, "every game ended: {seen:?}");
    assert!(seen.undoable > 0 && seen.secrets_redrawn > 0, "selections were undoable and hands redrawn: {seen:?}");
}

/// Runs the `xodus` binary with `args`; its exit status and stdout.
async fn xodus_cli(args: Vec<String>) -> (bool, String, String) {
    let out = tokio::process::Command::new(common::workspace_binary("xodus"))
        .args(&args)
        .output()
        .await
        .expect("the xodus binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue #61: a game the terminal client has no code for (High Card,
/// registered only in this server) is created, joined, viewed and played
/// to its end with the scripted `xodus` commands, against the generic AI
/// agent (a real `xodus-ai --fill`), and opens on the `xodus play` screen
/// from its decision and log alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_client_plays_a_game_it_has_no_code_for() {
    let dir = temp_dir("cli-high-card");
    let (url, _stop) = start_server(&dir).await;
    let _ = client(&url).await;
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let (ok, id, err) = xodus_cli(s(&[
        "create",
        "--server",
        &url,
        "--game",
        "high_card",
        "--players",
        "2",
        "--ai-seats",
        "1",
        "--id-only",
    ]))
    .await;
    assert!(ok, "create: {err}");
    let id = id.trim().to_string();
    let (ok, token, err) = xodus_cli(s(&["join", &id, "--seat", "0", "--server", &url])).await;
    assert!(ok, "join: {err}");
    let token = token.trim().to_string();
    let mut agent = Agent::spawn_fill(&url, &dir, "mcts");
    let start = std::time::Instant::now();
    let mut acted = 0;
    let outcome = loop {
        assert!(start.elapsed() < HANG_GUARD, "the game did not end");
        let (ok, out, err) = xodus_cli(s(&["view", &id, "--seat", "0", "--token", &token, "--server", &url])).await;
        assert!(ok, "view: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("view prints JSON");
        assert_eq!(v["game_type"], "high_card", "{v}");
        if !v["outcome"].is_null() {
            break v["outcome"].clone();
        }
        let mine = v["decision"]["options"].as_array().and_then(|o| o.iter().find(|o| o["seats"][0] == 0).cloned());
        let Some(option) = mine else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let option = option["id"].as_str().expect("an option id").to_string();
        let (ok, out, err) =
            xodus_cli(s(&["act", &id, "--seat", "0", "--token", &token, "--option", &option, "--server", &url])).await;
        assert!(ok, "act {option}: {err} {out}");
        acted += 1;
    };
    assert!(acted > 0, "the script made choices");
    assert_eq!(outcome["cause"], "hands_played", "{outcome}");
    let (ok, text, err) = xodus_cli(s(&["view", &id, "--text", "--server", &url])).await;
    assert!(ok && text.contains("high_card"), "view --text: {err} {text}");

    // `xodus play` on a new High Card table: the table screen, from the
    // decision and the log, in a pseudo-terminal (with its own AI player:
    // the filling agent stops first).
    agent.terminate(HANG_GUARD);
    let line = format!(
        "stty cols 100 rows 30; exec {} play --server {url} --game high_card --players 2",
        common::workspace_binary("xodus").display()
    );
    let mut child = std::process::Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs");
    let mut stdin = child.stdin.take().expect("stdin");
    tokio::time::sleep(Duration::from_secs(4)).await;
    use std::io::Write;
    let _ = stdin.write_all(b"q");
    let _ = stdin.flush();
    tokio::time::sleep(Duration::from_secs(2)).await;
    drop(stdin);
    let out = child.wait_with_output().expect("xodus exits");
    let screen = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(screen.contains("HIGH_CARD"), "the game's name in the status bar: {screen}");
    assert!(screen.contains("no board for high_card games"), "{screen}");
    let _ = std::fs::remove_dir_all(&dir);
}
