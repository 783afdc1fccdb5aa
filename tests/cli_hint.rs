//! End to end: advice on request (issue #62) from the terminal client. A
//! real `xodus-server` and games whose seats the test claims with `xodus
//! join`; `xodus hint ID --seat N --token T` for the deciding seat
//! prints 1 to 3 options as JSON, each one of that seat's own options (as
//! `xodus view --seat N --token T` shows them) with a reason, once an
//! `xodus-ai --fill` serves hints; without an agent, a seat with no
//! decision, asking again at once and a wrong token exit non-zero with the
//! server's words.
//!
//! The binaries are looked up in the target directory (next to `deps/`):
//! `cargo build --workspace --bins` first.
#![cfg(unix)]

mod common;

use common::cli::{json, num, ok, xodus};
use common::{Agent, HANG_GUARD, Server, temp_dir};
use serde_json::Value;
use std::process::Output;
use std::time::{Duration, Instant};

/// Claims every seat of `game` (`seats` of them); their tokens.
fn claim_all(url: &str, game: &str, seats: u32) -> Vec<String> {
    (0..seats).map(|s| ok(&["join", game, "--seat", &s.to_string(), "--server", url]).trim().to_string()).collect()
}

/// The seat's own view (`xodus view --seat N --token T`).
fn view(url: &str, game: &str, seat: u32, token: &str) -> Value {
    json(&ok(&["view", game, "--server", url, "--seat", &seat.to_string(), "--token", token]))
}

/// `xodus hint` for `seat`.
fn hint(url: &str, game: &str, seat: u32, token: &str) -> Output {
    xodus(&["hint", "--server", url, game, "--seat", &seat.to_string(), "--token", token])
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The seat deciding now and a seat that is not (if any), from seat 0's view.
fn deciders(v: &Value, seats: u32) -> (u32, Option<u32>) {
    let deciders: Vec<u32> = v["decision"]["deciders"]
        .as_array()
        .expect("deciders")
        .iter()
        .filter_map(|d| d.as_u64().map(|d| d as u32))
        .collect();
    let decider = *deciders.first().expect("someone decides");
    (decider, (0..seats).find(|s| !deciders.contains(s)))
}

/// Asks until the agent answers (it registers shortly after it starts;
/// a seat may ask every 2 s): the hint's JSON.
fn hint_once_served(url: &str, game: &str, seat: u32, token: &str) -> Value {
    let start = Instant::now();
    loop {
        let out = hint(url, game, seat, token);
        if out.status.success() {
            return json(&String::from_utf8_lossy(&out.stdout));
        }
        let code = out.status.code();
        assert!(matches!(code, Some(6 | 8 | 9)), "unexpected refusal {code:?}: {}", stderr(&out));
        assert!(start.elapsed() < HANG_GUARD, "no agent served the hint: {}", stderr(&out));
        std::thread::sleep(Duration::from_millis(2_100));
    }
}

/// The hint is about the seat's state, names 1 to 3 of its own options
/// (ids and labels as its view shows them), each with a reason, best first.
fn check_hint(h: &Value, own: &Value, game: &str, seat: u32) {
    assert_eq!(h["game"], game, "{h}");
    assert_eq!(h["seat"], seat, "{h}");
    // X-ODUS's view has its seq under "public" (a decimal string).
    let seq = if own["seq"].is_null() { num(&own["public"]["seq"]) } else { num(&own["seq"]) };
    assert_eq!(num(&h["seq"]), seq, "{h}\n{own}");
    let options = h["options"].as_array().expect("options");
    assert!((1..=3).contains(&options.len()), "1 to 3 options: {h}");
    let mine: Vec<&Value> = own["decision"]["options"]
        .as_array()
        .expect("the seat's options")
        .iter()
        .filter(|o| o["seats"].as_array().is_some_and(|s| s.iter().any(|x| x.as_u64() == Some(u64::from(seat)))))
        .collect();
    for o in options {
        let shown = mine.iter().find(|m| m["id"] == o["option_id"]).unwrap_or_else(|| panic!("not its own: {o}"));
        assert_eq!(o["label"], shown["label"], "{o}");
        assert!(o["reason"].as_str().is_some_and(|r| !r.trim().is_empty()), "a reason: {o}");
        assert!(o["estimate"].is_number(), "{o}");
    }
    let estimates: Vec<f64> = options.iter().filter_map(|o| o["estimate"].as_f64()).collect();
    assert!(estimates.windows(2).all(|w| w[0] >= w[1]), "best first: {h}");
}

#[test]
fn xodus_hint_prints_the_deciding_seats_best_options_and_refusals_exit_with_the_servers_words() {
    let server = Server::start("cli-hint");
    let url = server.url.clone();
    let game = ok(&["create", "--server", &url, "--ships", "3", "--seed", "7", "--id-only"]).trim().to_string();
    let legio = ok(&["create", "--server", &url, "--game", "legio", "--players", "2", "--seed", "5", "--id-only"])
        .trim()
        .to_string();
    let tokens = claim_all(&url, &game, 3);
    let legio_tokens = claim_all(&url, &legio, 2);
    // Past the opening (who plays next, shared by all): one captain's
    // own Action, the others idle.
    let opening = view(&url, &game, 0, &tokens[0]);
    let start = opening["decision"]["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["seats"].as_array().is_some_and(|s| s.iter().any(|x| x == 0))))
        .and_then(|o| o["id"].as_str())
        .expect("seat 0 may start")
        .to_string();
    ok(&["act", &game, "--server", &url, "--seat", "0", "--token", &tokens[0], "--option", &start]);
    let (decider, idle) = deciders(&view(&url, &game, 0, &tokens[0]), 3);
    let token = tokens[decider as usize].as_str();

    // No agent serves hints yet: the server's words, exit 6.
    let out = hint(&url, &game, decider, token);
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(stderr(&out).contains("no AI agent serves hints"), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "nothing printed on a refusal");

    let dir = temp_dir("cli-hint-agent");
    let mut agent = Agent::spawn_fill_with(&url, &dir, "heuristic", &[]);
    let h = hint_once_served(&url, &game, decider, token);
    check_hint(&h, &view(&url, &game, decider, token), &game, decider);

    // Again at once: too soon, exit 8, with when to retry.
    let out = hint(&url, &game, decider, token);
    assert_eq!(out.status.code(), Some(8), "{}", stderr(&out));
    assert!(stderr(&out).contains("retry in"), "{}", stderr(&out));
    // A seat with nothing to decide: exit 6, the server says so.
    if let Some(idle) = idle {
        let out = hint(&url, &game, idle, &tokens[idle as usize]);
        assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
        assert!(stderr(&out).contains("no decision"), "{}", stderr(&out));
    }
    // A wrong token: refused, exit 4.
    let out = hint(&url, &game, decider, "not-the-token");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));

    // VII Legio: the hint names the commander's own options (its hand
    // stays its own: the view is read as the seat).
    let (commander, _) = deciders(&view(&url, &legio, 0, &legio_tokens[0]), 2);
    let token = legio_tokens[commander as usize].as_str();
    let h = hint_once_served(&url, &legio, commander, token);
    check_hint(&h, &view(&url, &legio, commander, token), &legio, commander);
    agent.terminate(Duration::from_secs(10));
}
