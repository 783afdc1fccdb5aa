//! What an operator reads, tried on the real binary: one log line per
//! call at its end (method, game, seat, status, latency; reads at debug),
//! a NOT_FOUND included, and the figures served as Prometheus text on a
//! port of their own (`--metrics-listen`): calls by method and status,
//! open streams, live games.

mod common;

use common::{Server, create_game, temp_dir};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use tabletop::pb;

/// A free loopback port (bound and released; the server binds it next).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// `GET /metrics` on `port`, as a scraper does.
fn scrape(port: u16) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect to the metrics port");
    s.write_all(b"GET /metrics HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n").expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    assert!(out.starts_with("HTTP/1.1 200 OK"), "{out}");
    out
}

/// The value of one sample line of the exposition, if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
}

/// Waits until `cond` holds on a fresh scrape (the figures of a call are
/// recorded when its answer has been written, a moment after the client
/// has read it).
fn scrape_until(port: u16, what: &str, cond: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = scrape(port);
        if cond(&text) {
            return text;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{what} never showed in:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_call_is_logged_at_its_end_and_counted_by_method_and_status() {
    let port = free_port();
    let metrics = format!("127.0.0.1:{port}");
    let server = Server::start_in(temp_dir("operator"), &["--metrics-listen", &metrics]);
    let mut c = server.client().await;

    // A read of a game that does not exist: NOT_FOUND, at debug.
    let missing = c
        .get_view(pb::GetViewRequest { game_id: "g-nosuchgame".into(), ..Default::default() })
        .await
        .expect_err("no such game");
    assert_eq!(missing.code(), tonic::Code::NotFound);
    c.list_games(pb::ListGamesRequest::default()).await.expect("list");
    let game = create_game(&mut c, 7).await;
    let refused = c
        .submit_choice(pb::SubmitChoiceRequest { game_id: game.clone(), ..Default::default() })
        .await
        .expect_err("no credentials");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    let mut stream = c
        .stream_game(pb::StreamGameRequest { game_id: game.clone(), ..Default::default() })
        .await
        .expect("stream")
        .into_inner();
    stream.message().await.expect("first update").expect("an update");

    let path = |m: &str| format!("/tabletop.v1.GameService/{m}");
    let count = |m: &str, status: &str| {
        format!("xodus_rpc_duration_seconds_count{{method=\"{}\",status=\"{status}\"}}", path(m))
    };
    let text = scrape_until(port, "the open stream", |t| sample(t, "xodus_open_streams") == Some(1.0));
    assert_eq!(sample(&text, &count("GetView", "NotFound")), Some(1.0), "{text}");
    assert_eq!(sample(&text, &count("ListGames", "Ok")), Some(1.0), "{text}");
    assert_eq!(sample(&text, &count("CreateGame", "Ok")), Some(1.0), "{text}");
    assert_eq!(sample(&text, &count("SubmitChoice", "Unauthenticated")), Some(1.0), "{text}");
    assert!(sample(&text, "xodus_live_games").is_some(), "{text}");
    assert!(text.contains("# TYPE xodus_commit_batch_requests histogram"), "{text}");

    // The stream's line and figures come at its end.
    drop(stream);
    // The gauge drops as the stream closes; the call is counted at its end,
    // a moment later: wait for both.
    let text = scrape_until(port, "the stream's end", |t| {
        sample(t, "xodus_open_streams") == Some(0.0) && sample(t, &count("StreamGame", "Cancelled")).is_some()
    });
    assert_eq!(sample(&text, &count("StreamGame", "Cancelled")), Some(1.0), "{text}");

    let log = server.log();
    let line = |m: &str, status: &str| {
        log.lines()
            .find(|l| l.contains(&format!("method={}", path(m))) && l.contains(&format!("status={status} ")))
            .unwrap_or_else(|| panic!("no {m} {status} line in the log:\n{log}"))
            .to_string()
    };
    let get_view = line("GetView", "NotFound");
    assert!(get_view.contains("DEBUG"), "reads are logged at debug: {get_view}");
    assert!(get_view.contains("game=g-nosuchgame") && get_view.contains("latency_us="), "{get_view}");
    let submit = line("SubmitChoice", "Unauthenticated");
    assert!(submit.contains("INFO") && submit.contains(&format!("game={game}")), "{submit}");
    let stream_line = line("StreamGame", "Cancelled");
    assert!(stream_line.contains(&format!("game={game}")), "{stream_line}");
    line("ListGames", "Ok");
}
