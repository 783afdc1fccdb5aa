//! End to end: table talk (issue #62) from the terminal client. A real
//! `xodus-server`; `xodus say` says a line and signals to it and prints
//! the kept line as JSON (the signal in the server's words); refused
//! lines (too long, a wrong token, too many at once) exit non-zero with
//! the server's words; and `xodus play --server URL --game ID` in a real
//! pseudo-terminal (util-linux `script`) shows a line another seat says,
//! and says one typed after `T`.
//!
//! The binaries are looked up in the target directory (next to `deps/`):
//! `cargo build --workspace --bins` first.
#![cfg(unix)]

mod common;

use common::cli::{Screen, json, ok, wait_for, xodus};
use common::{HANG_GUARD, Server, temp_dir, workspace_binary};
use std::time::{Duration, Instant};

/// A 3-ship game on `url` with seats 0 and 1 claimed; its id and tokens.
fn game_with_two_seats(url: &str) -> (String, String, String) {
    let game = ok(&["create", "--server", url, "--ships", "3", "--seed", "7", "--id-only"]).trim().to_string();
    let t0 = ok(&["join", &game, "--seat", "0", "--server", url]).trim().to_string();
    let t1 = ok(&["join", &game, "--seat", "1", "--server", url]).trim().to_string();
    (game, t0, t1)
}

#[test]
fn xodus_say_says_lines_and_signals_and_refusals_exit_with_the_servers_words() {
    let server = Server::start("cli-talk-say");
    let url = server.url.clone();
    let (game, t0, t1) = game_with_two_seats(&url);
    let say = |seat: &str, token: &str, rest: &[&str]| {
        let mut args = vec!["say", "--server", &url, &game, "--seat", seat, "--token", token];
        args.extend_from_slice(rest);
        xodus(&args)
    };

    let out = say("0", &t0, &["hello", "crew"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(line["text"], "hello crew");
    assert_eq!((line["talk_seq"].as_u64(), line["speaker"].as_u64()), (Some(1), Some(0)));
    assert_eq!(line["audience"], "table");
    assert_eq!(line["signal_words"], "");

    // A signal about seat 0's own system (a revealed one), to the team.
    let view = json(&ok(&["view", &game, "--server", &url]));
    let hex = &view["public"]["ships"][0]["hex"];
    let (q, r) = (hex["q"].as_i64().expect("q"), hex["r"].as_i64().expect("r"));
    let spec = format!("wait-for-me:{q},{r}");
    let out = say("0", &t0, &["--team", "--signal", &spec]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = json(&String::from_utf8_lossy(&out.stdout));
    let words = line["signal_words"].as_str().expect("signal_words");
    assert!(words.contains("wait for me") && words.contains(&format!("({q},{r})")), "{line}");
    assert_eq!(line["audience"], "team");
    // Text and a signal, to one seat.
    let out = say("1", &t1, &["--to", "0", "--signal", "dont-seal", "not", "yet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!((line["text"].as_str(), line["to_seat"].as_u64()), (Some("not yet"), Some(0)));
    assert!(!line["signal_words"].as_str().unwrap_or_default().is_empty(), "{line}");

    // Refusals: too long (invalid, 6), a wrong token (4), a signal no game
    // has (a bad command line, 2), another game's signal (invalid, 6).
    let long = "x".repeat(281);
    let out = say("1", &t1, &[&long]);
    assert_eq!(out.status.code(), Some(6), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("280"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = say("1", &t0, &["whose token?"]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    let out = say("1", &t1, &["--signal", "dance"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let out = say("1", &t1, &["--signal", "no-deal"]);
    assert_eq!(out.status.code(), Some(6), "{}", String::from_utf8_lossy(&out.stderr));

    // Too many at once: 5 lines, then one per 2 s; the refusal says when
    // to retry (8).
    let refused = (0..8).map(|i| say("0", &t0, &[&format!("line {i}")])).find(|o| !o.status.success());
    let out = refused.expect("a seat is stopped after 5 lines at once");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(8), "{err}");
    assert!(err.contains("retry in"), "{err}");
}

#[test]
fn the_play_screen_shows_a_line_another_seat_says_and_says_a_typed_one() {
    let server = Server::start("cli-talk-screen");
    let url = server.url.clone();
    let (game, t0, _t1) = game_with_two_seats(&url);
    ok(&["say", "--server", &url, &game, "--seat", "0", "--token", &t0, "said", "before"]);
    let dir = temp_dir("cli-talk-screen-data");
    let line = format!(
        "stty cols 140 rows 45; exec {} play --server {url} --game {game} --seats 2 --data-dir {}",
        workspace_binary("xodus").display(),
        dir.display()
    );
    let mut s = Screen::open(&line);

    wait_for("the screen opens", || s.shown().contains("? rules"), || s.shown());
    // The talk said before the screen opened is heard from the start.
    wait_for("the earlier line shows", || s.shown().contains("said before"), || s.shown());
    // A line said now, by another seat, shows (ratatui redraws only the
    // cells that changed and jumps over the rest: one word will do).
    // The older form, --game ID, still works.
    ok(&["say", "--server", &url, "--game", &game, "--seat", "0", "--token", &t0, "ahoy", "screen", "folk"]);
    wait_for("the new line shows", || s.shown().contains("ahoy") || s.shown().contains("folk"), || s.shown());

    // T, a line, Enter: said by seat 2, kept with the game.
    s.press(b"T");
    wait_for("the talk line opens", || s.shown().contains("table>"), || s.shown());
    // Typed a key at a time, each drawn apart: the words show whole only
    // once heard back, shifted by the speaker's name.
    s.press(b"from the pty\r");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let heard = || {
        rt.block_on(async {
            let mut c = server.client().await;
            let req = tabletop::pb::GetHistoryRequest { game_id: game.clone(), ..Default::default() };
            c.get_history(req).await.expect("history").into_inner().talk
        })
    };
    wait_for(
        "the typed line is said",
        || heard().iter().any(|l| l.text == "from the pty" && l.speaker == 2),
        || format!("{:?}\n{}", heard(), s.shown()),
    );
    wait_for("it comes back on the screen", || s.shown().contains("pty"), || s.shown());

    s.press(b"q");
    s.close_keys();
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = s.child.try_wait() {
            break status;
        }
        assert!(start.elapsed() < HANG_GUARD, "`q` closes the screen: {}", s.shown());
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}: {}", s.shown());
    let _ = std::fs::remove_dir_all(&dir);
}
