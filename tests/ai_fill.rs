//! End to end: a real `xodus-server`, three `xodus-ai --fill` processes
//! (one with the default policy, mcts, two with the heuristic; one seat
//! each) filling the three AI seats of a
//! four-seat game, and this test as a scripted human captain on the
//! fourth seat (it starts its turn and ends it, or takes the first legal
//! option). The game must be played to its end, with choices from every
//! seat. A second test checks how agents share a decision with a human
//! teammate (who plays next): they leave it to the human for the courtesy
//! time, then the lowest AI seat takes it. Binaries are found next to the
//! test executable, so build them first: `cargo build --workspace --bins`.

mod common;

use common::{Agent, Server, ai_binary, create_from, game_request};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tabletop::pb;

/// Agent processes, killed when the test ends (pass or fail).
struct Agents(Vec<Child>);

impl Drop for Agents {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_ai_agents_and_a_scripted_captain_finish_a_game() {
    let server = Server::start("ai_fill");
    let mut c = server.client().await;
    let seats = [pb::SeatOpenTo::Ai, pb::SeatOpenTo::Ai, pb::SeatOpenTo::Ai, pb::SeatOpenTo::Human];
    let game_id = create_from(&mut c, game_request(7, &seats)).await;

    let mut agents = Agents(Vec::new());
    for i in 0..3 {
        let log = std::fs::File::create(server.data_dir.join(format!("ai-{i}.log"))).expect("agent log");
        // The first agent plays the default policy (mcts); its think time
        // is capped so the debug build keeps the test short.
        let policy: &[&str] = if i == 0 { &[] } else { &["--policy", "heuristic"] };
        let child = Command::new(ai_binary())
            .args(["--server", &server.url, "--fill", "--max-seats", "1", "--think-ms", "50"])
            .args(policy)
            .args(["--seed", &i.to_string()])
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("spawn xodus-ai");
        agents.0.push(child);
    }

    let creds = claim_as_human(&mut c, &game_id, 3).await;

    // A hang guard, not a speed check: the game must end, however long it takes within it.
    let play = async {
        loop {
            let st = c
                .get_view(pb::GetViewRequest {
                    game_id: game_id.clone(),
                    credentials: creds.clone(),
                    ..Default::default()
                })
                .await
                .expect("view")
                .into_inner()
                .state
                .expect("state");
            if let Some(o) = st.outcome {
                return o;
            }
            let d = st.decision.expect("decision");
            if !d.deciders.contains(&3) {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
            let mine: Vec<&pb::ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&3)).collect();
            let pick = mine.iter().find(|o| o.id == "end_turn").or_else(|| mine.first()).expect("an option for seat 3");
            // A teammate may move first (ABORTED): just look again.
            let _ = c
                .submit_choice(pb::SubmitChoiceRequest {
                    game_id: game_id.clone(),
                    credentials: creds.clone(),
                    expected_seq: Some(st.seq),
                    choice: Some(pb::submit_choice_request::Choice::OptionId(pick.id.clone())),
                })
                .await;
        }
    };
    let outcome = match tokio::time::timeout(Duration::from_secs(300), play).await {
        Ok(o) => o,
        Err(_) => {
            let logs: Vec<String> = (0..3)
                .map(|i| std::fs::read_to_string(server.data_dir.join(format!("ai-{i}.log"))).unwrap_or_default())
                .collect();
            panic!("the game did not end; agent logs:\n{}", logs.join("\n---\n"));
        }
    };
    assert!(
        ["rift_sealed", "corruption_risen", "all_ships_destroyed"].contains(&outcome.cause.as_str()),
        "{outcome:?}"
    );

    // Every AI seat was claimed by an AI agent and made choices.
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: game_id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    let summary = h.game.expect("game");
    for seat in 0..3u32 {
        let info = summary.seats.iter().find(|s| s.seat == seat).expect("seat info");
        assert!(info.claimed && info.claimed_by == pb::Claimant::Ai as i32, "seat {seat}: {info:?}");
        assert!(h.entries.iter().any(|e| e.seat == seat), "seat {seat} never chose");
    }
    assert!(h.entries.iter().any(|e| e.seat == 3), "the scripted captain never chose");
    drop(agents);
}

/// Claims `seat` as a human; its credentials.
async fn claim_as_human(
    c: &mut tabletop::GameServiceClient<tonic::transport::Channel>,
    game_id: &str,
    seat: u32,
) -> Option<pb::SeatCredentials> {
    let request = pb::ClaimSeatRequest {
        game_id: game_id.into(),
        seat,
        claimant: pb::Claimant::Human as i32,
        token: String::new(),
    };
    let token = c.claim_seat(request).await.expect("claim the human seat").into_inner().token;
    Some(pb::SeatCredentials { seat, token })
}

/// The game's state and seats as `creds` sees them.
async fn view(
    c: &mut tabletop::GameServiceClient<tonic::transport::Channel>,
    game_id: &str,
    creds: &Option<pb::SeatCredentials>,
) -> (pb::GameState, pb::GameSummary) {
    let r = c
        .get_view(pb::GetViewRequest { game_id: game_id.into(), credentials: creds.clone(), ..Default::default() })
        .await
        .expect("view")
        .into_inner();
    (r.state.expect("state"), r.game.expect("game"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_leave_a_shared_decision_to_a_human_for_a_while_then_the_lowest_ai_seat_takes_it() {
    let server = Server::start("ai_shared");
    let mut c = server.client().await;
    let seats = [pb::SeatOpenTo::Ai, pb::SeatOpenTo::Ai, pb::SeatOpenTo::Human];
    let game_id = create_from(&mut c, game_request(11, &seats)).await;
    let creds = claim_as_human(&mut c, &game_id, 2).await;

    let courtesy = Duration::from_millis(2500);
    let courtesy_ms = courtesy.as_millis().to_string();
    let _agent = Agent::spawn_fill_with(&server.url, &server.data_dir, "heuristic", &["--courtesy-ms", &courtesy_ms]);

    // The game opens on "who plays next", which all three captains may take.
    let (first, _) = view(&mut c, &game_id, &creds).await;
    let d = first.decision.expect("decision");
    assert_eq!((d.kind.as_str(), d.deciders.as_slice()), ("next_player", &[0, 1, 2][..]));
    let claimed = async {
        loop {
            let (_, game) = view(&mut c, &game_id, &creds).await;
            if game.seats.iter().filter(|s| s.claimed_by == pb::Claimant::Ai as i32).count() == 2 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), claimed).await.expect("the agent claims both AI seats");

    // The human is given the courtesy time: nothing moves in its first part.
    tokio::time::sleep(courtesy / 3).await;
    let (st, _) = view(&mut c, &game_id, &creds).await;
    let agent_log = || std::fs::read_to_string(server.data_dir.join("ai.log")).unwrap_or_default();
    assert_eq!(st.seq, 0, "an agent took the shared decision before the human's time was up; log:\n{}", agent_log());

    // Then the lowest AI seat takes it, and the game goes on.
    let moved = async {
        loop {
            let (st, _) = view(&mut c, &game_id, &creds).await;
            if st.seq > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), moved).await.expect("the agents never took the decision");
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: game_id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    let first = h.entries.first().expect("a first entry");
    assert_eq!((first.seat, first.option_id.as_str()), (0, "start:0"), "log:\n{}", agent_log());
    // Nobody raced for it: the server refused no choice.
    assert!(!server.log().contains("choice refused"), "{}", server.log());
}
