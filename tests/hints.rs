//! Advice on request (issue #62), on the real binaries: a seat asks for a
//! hint and gets the best three of its own options, each with an estimate
//! and a reason, from an `xodus-ai --fill` serving hints; a seat without a
//! decision, a seat asking twice at once and a server with no agent are
//! told why; on a server with agent keys, serving hints needs one.

mod common;

use common::{Agent, HANG_GUARD, Server, claim_all, create_game, creds, temp_dir};
use std::time::{Duration, Instant};
use tabletop::pb;
use tokio_stream::StreamExt;

#[tokio::test]
async fn a_seat_gets_its_best_options_with_reasons_from_an_agent() {
    let server = Server::start("hints");
    let mut c = server.client().await;
    let game = create_game(&mut c, 31).await;
    let tokens = claim_all(&mut c, &game).await;
    let st = c
        .get_view(pb::GetViewRequest { game_id: game.clone(), credentials: creds(&tokens, 0), ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state");
    let d = st.decision.clone().expect("decision");
    let decider = d.deciders[0];
    let idle = (0..3).find(|s| !d.deciders.contains(s));
    let ask = |seat: u32| pb::AskHintRequest { game_id: game.clone(), credentials: creds(&tokens, seat) };

    let e = c.ask_hint(ask(decider)).await.expect_err("no agent yet");
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    assert!(e.message().contains("no AI agent serves hints"), "{}", e.message());

    let dir = temp_dir("hints-agent");
    // The agent thinks 20 ms a decision (and a hint).
    let mut agent = Agent::spawn_fill_with(&server.url, &dir, "heuristic", &[]);
    let began = Instant::now();
    let hint = loop {
        assert!(began.elapsed() < HANG_GUARD, "the agent serves hints");
        match c.ask_hint(ask(decider)).await {
            Ok(r) => break r.into_inner(),
            Err(e) if e.code() == tonic::Code::FailedPrecondition || e.code() == tonic::Code::ResourceExhausted => {
                tokio::time::sleep(Duration::from_millis(2_100)).await;
            }
            Err(e) => panic!("{e:?}"),
        }
    };
    assert_eq!(hint.seq, st.seq);
    assert!(!hint.options.is_empty() && hint.options.len() <= 3, "{hint:?}");
    let mine: Vec<&pb::ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&decider)).collect();
    for o in &hint.options {
        let shown = mine.iter().find(|m| m.id == o.option_id).expect("one of the seat's own options");
        assert_eq!(o.label, shown.label);
        assert!(!o.reason.is_empty(), "a reason: {o:?}");
    }
    assert!(hint.options.windows(2).all(|w| w[0].estimate >= w[1].estimate), "best first: {hint:?}");
    // One round of futures is always scored, however short the budget: a
    // debug build on a loaded machine may take longer than 20 ms for it.
    assert!(hint.think_ms < 5_000, "the agent says how long it thought: {} ms", hint.think_ms);

    let e = c.ask_hint(ask(decider)).await.expect_err("again at once");
    assert_eq!(e.code(), tonic::Code::ResourceExhausted);
    if let Some(idle) = idle {
        let e = c.ask_hint(ask(idle)).await.expect_err("no decision");
        assert_eq!(e.code(), tonic::Code::FailedPrecondition, "{e:?}");
    }
    agent.terminate(Duration::from_secs(10));
}

#[tokio::test]
async fn with_agent_keys_serving_hints_needs_one() {
    let dir = temp_dir("hints-keys");
    let keys = dir.join("agent-keys");
    std::fs::write(&keys, "hints-1 k3y-for-hints-0123456789abcdef\n").expect("key file");
    let server = Server::start_in(dir, &["--agent-key-file", keys.to_str().expect("path")]);
    let mut c = server.client().await;
    let first = pb::ServeHintsRequest { think_ms: 100, ..Default::default() };
    let e = c.serve_hints(tokio_stream::iter(vec![first]).chain(tokio_stream::pending())).await.expect_err("no key");
    assert_eq!(e.code(), tonic::Code::PermissionDenied);
    assert!(e.message().contains("agent key"), "{}", e.message());
    // With the key, the server takes the stream.
    let mut keyed = tonic::Request::new(
        tokio_stream::iter(vec![pb::ServeHintsRequest { think_ms: 100, ..Default::default() }])
            .chain(tokio_stream::pending()),
    );
    keyed.metadata_mut().insert("x-agent-key", "k3y-for-hints-0123456789abcdef".parse().expect("ascii"));
    let mut jobs = c.serve_hints(keyed).await.expect("an agent with the key serves").into_inner();
    // No job comes while nobody asks; the stream is open.
    assert!(tokio::time::timeout(Duration::from_millis(200), jobs.next()).await.is_err());
}
