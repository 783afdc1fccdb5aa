//! The scripted commands on a game whose spectators see it late (VII
//! Legio: SPECTATOR_POLICY_DELAYED, 10 choices behind): `xodus act`
//! without `--expect-seq` answers the seat's own, live state (it used to
//! take the spectator's seq, stale); `xodus view` as a spectator says
//! that it is delayed and by how much (text and JSON), and as a seat it
//! is live. Also the exit code of setup flags that cannot be (2, a bad
//! command line) and refusals worded as `xodus` commands. Real
//! `xodus-server` and `xodus` processes.

mod common;

use common::cli::*;
use common::*;
use serde_json::Value;

/// The first option `seat` may pick in `view`, if it decides now.
fn option_for(view: &Value, seat: u64) -> Option<String> {
    view["decision"]["options"]
        .as_array()?
        .iter()
        .find(|o| o["seats"].as_array().is_some_and(|s| s.iter().any(|x| x.as_u64() == Some(seat))))
        .and_then(|o| o["id"].as_str())
        .map(str::to_string)
}

/// The live seq, as `xodus list` gives it.
fn live_seq(url: &str, game: &str) -> u64 {
    let listed = json(&ok(&["list", "--server", url, "--json"]));
    let entry = listed.as_array().and_then(|g| g.iter().find(|x| x["id"] == game)).expect("listed");
    num(&entry["seq"])
}

#[test]
fn act_without_expect_seq_and_a_delayed_view_in_vii_legio() {
    let server = Server::start("cli-delayed");
    let url = server.url.clone();
    // Seed 1: commander 2 (seat 1) sets its profile first, so the
    // others move before seat 0 does. Every seat is taken here.
    let created = json(&ok(&["create", "--server", &url, "--game", "legio", "--players", "3", "--seed", "1"]));
    let game = created["game"].as_str().expect("game id").to_string();
    let tokens: Vec<String> =
        (0..3).map(|s| ok(&["join", &game, "--seat", &s.to_string(), "--server", &url]).trim().to_string()).collect();
    let as_seat = |s: usize| -> Vec<String> {
        ["--seat", &s.to_string(), "--token", &tokens[s], "--server", &url].iter().map(|a| a.to_string()).collect()
    };
    let view_as = |s: usize| {
        let mut args = vec!["view".to_string(), game.clone()];
        args.extend(as_seat(s));
        json(&ok(&args.iter().map(String::as_str).collect::<Vec<_>>()))
    };
    let act_as = |s: usize, option: &str| {
        let mut args = vec!["act".to_string(), game.clone(), "--option".into(), option.into()];
        args.extend(as_seat(s));
        xodus(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // The others choose (without --expect-seq) until seat 0 decides, on a
    // game that has moved on.
    let mut mine = None;
    for _ in 0..20 {
        if let Some(option) = option_for(&view_as(0), 0)
            && live_seq(&url, &game) > 0
        {
            mine = Some(option);
            break;
        }
        let (seat, option) =
            (1..3).find_map(|s| option_for(&view_as(s), s as u64).map(|o| (s, o))).expect("some seat decides");
        let out = act_as(seat, &option);
        assert!(out.status.success(), "seat {seat} {option}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let option = mine.expect("seat 0 decides after the others moved");
    let live = live_seq(&url, &game);

    // A spectator sees the game late, and is told so.
    let spectator = json(&ok(&["view", &game, "--server", &url]));
    let shown = num(&spectator["seq"]);
    assert!(shown < live, "delayed: seq {shown} shown, {live} live");
    assert_eq!(spectator["behind"].as_u64(), Some(live - shown), "{spectator}");
    let text = ok(&["view", &game, "--server", &url, "--text"]);
    let words = format!("{} choices behind the live game (seq {live})", live - shown);
    assert!(text.lines().nth(1).is_some_and(|l| l.starts_with("delayed:") && l.contains(&words)), "{text}");
    // A seat's own view is live.
    let seated = view_as(0);
    assert_eq!((num(&seated["seq"]), &seated["behind"]), (live, &Value::Null), "{seated}");
    let seated_text = ok(&["view", &game, "--text", "--seat", "0", "--token", &tokens[0], "--server", &url]);
    assert!(!seated_text.contains("delayed"), "{seated_text}");

    // `act` without --expect-seq takes the seat's own seq.
    let out = act_as(0, &option);
    assert!(
        out.status.success(),
        "act {option} (exit {:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(num(&r["seq"]), live + 1, "{r}");

    // A stale --expect-seq is refused (5) in the CLI's words.
    let seat_args = as_seat(0);
    let mut args = vec!["act", &game, "--option", &option, "--expect-seq", "0"];
    args.extend(seat_args.iter().map(String::as_str));
    let out = xodus(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains(&format!("`xodus view {game} --seat 0 --token TOKEN`")) && !err.contains("expected_seq"),
        "{err}"
    );
}

#[test]
fn refusals_name_xodus_commands_and_bad_setups_exit_2() {
    // All seats AI in a 3-seat game, counted from 1: seat 3 does not exist.
    let out = xodus(&[
        "create",
        "--game",
        "legio",
        "--players",
        "3",
        "--ai-seats",
        "1,2,3",
        "--server",
        "http://127.0.0.1:9",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--ai-seats") && err.contains("seats 0 to 2"), "{err}");
    // --players without --game legio.
    let out = xodus(&["create", "--ai-seats", "1,2,3", "--players", "3", "--server", "http://127.0.0.1:9"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--game legio"), "{err}");
    // A --server address that cannot be dialled is a bad command line too.
    let out = xodus(&["list", "--server", "unix:"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));

    let server = Server::start("cli-words");
    let url = server.url.clone();
    let game = ok(&["create", "--server", &url, "--ships", "3", "--id-only"]).trim().to_string();
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]).trim().to_string();
    ok(&["leave", &game, "--seat", "0", "--token", &token, "--server", &url]);
    // The token of a seat given back: claim it afresh, with `xodus join`.
    let out = xodus(&["view", &game, "--seat", "0", "--token", &token, "--server", &url]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("`xodus join {game} --seat 0`")) && !err.contains("ClaimSeat"), "{err}");
    let bad = "0".repeat(32);
    let token = ok(&["join", &game, "--seat", "0", "--server", &url]).trim().to_string();
    assert_eq!(token.len(), 32);
    let out = xodus(&["act", &game, "--seat", "0", "--token", &bad, "--option", "start:0", "--server", &url]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("`xodus join` printed") && !err.contains("ClaimSeat"), "{err}");
}
