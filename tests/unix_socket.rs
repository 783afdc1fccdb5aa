//! End to end over a Unix socket (`xodus-server --listen unix:PATH`): real
//! `xodus-server` and `xodus-ai` processes on one host, every client
//! dialling `unix:PATH`. An AI agent fills a game and plays it to its end;
//! the per-client caps count a socket peer as the loopback address; a
//! second server on a live socket is refused, a socket file left by a
//! `kill -9` is replaced and the game kept; SIGTERM removes the file; one
//! server listens on TCP and a socket at once, on the same games.

mod common;

use common::{
    Agent, HANG_GUARD, Server, claim_all, create_from, create_game, creds, game_request, play_first, state, temp_dir,
};
use std::path::PathBuf;
use std::time::Instant;
use tabletop::pb;
use tokio_stream::StreamExt;
use tonic::Code;

/// `unix:DIR/xodus.sock` for a server's data directory.
fn socket_in(dir: &std::path::Path) -> (PathBuf, String) {
    let path = dir.join("xodus.sock");
    let listen = format!("unix:{}", path.display());
    (path, listen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_agent_fills_and_finishes_a_game_over_a_unix_socket() {
    let dir = temp_dir("unix-fill");
    let (path, listen) = socket_in(&dir);
    let server = Server::start_at(dir, &listen, &[]);
    assert_eq!(server.url, listen, "the server prints the socket it listens on");
    let mut c = server.client().await;
    let game_id = create_from(&mut c, game_request(11, &[pb::SeatOpenTo::Ai; 3])).await;
    let _agent = Agent::spawn_fill(&server.url, &server.data_dir, "heuristic");

    let start = Instant::now();
    let outcome = loop {
        if let Some(o) = state(&mut c, &game_id).await.outcome {
            break o;
        }
        assert!(
            start.elapsed() < HANG_GUARD,
            "the game did not end; agent log:\n{}",
            std::fs::read_to_string(server.data_dir.join("ai.log")).unwrap_or_default()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(["rift_sealed", "corruption_risen", "all_ships_destroyed"].contains(&outcome.cause.as_str()));
    let h = c
        .get_history(pb::GetHistoryRequest { game_id: game_id.clone(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    for seat in 0..3u32 {
        assert!(h.entries.iter().any(|e| e.seat == seat), "seat {seat} never chose");
    }

    drop(c);
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    assert!(!path.exists(), "SIGTERM leaves no socket file behind");
}

#[tokio::test]
async fn per_client_caps_count_a_socket_peer_as_the_loopback_address() {
    let dir = temp_dir("unix-caps");
    let (_, listen) = socket_in(&dir);
    let server = Server::start_at(dir, &listen, &["--max-streams-per-client", "1"]);
    // Two connections: the cap is per client address, not per connection.
    let (mut a, mut b) = (server.client().await, server.client().await);
    let id = create_game(&mut a, 1).await;
    let req = || pb::StreamGameRequest {
        game_id: id.clone(),
        from_seq: 0,
        credentials: None,
        seat_updates: false,
        ..Default::default()
    };
    let _held = a.stream_game(req()).await.expect("first stream");
    let err = b.stream_game(req()).await.expect_err("second stream from another connection");
    assert_eq!(err.code(), Code::ResourceExhausted, "{}", err.message());
}

#[tokio::test]
async fn a_live_socket_is_not_taken_and_a_stale_one_is_replaced_with_the_games_kept() {
    let dir = temp_dir("unix-restart");
    let (path, listen) = socket_in(&dir);
    let server = Server::start_at(dir.clone(), &listen, &[]);
    let mut c = server.client().await;
    let id = create_game(&mut c, 5).await;
    let tokens = claim_all(&mut c, &id).await;
    let acked = play_first(&mut c, &id, &tokens).await.seq;

    // A second server on the same socket while the first one serves.
    let other = temp_dir("unix-restart-other");
    let refused = Server::try_start_at(other, &listen, &[]).err().expect("the socket is in use");
    assert!(refused.contains("already listening"), "{refused}");
    assert_eq!(state(&mut c, &id).await.seq, acked, "the first server still answers");

    drop(c);
    let dir = server.kill9();
    assert!(path.exists(), "kill -9 leaves the socket file");
    let server = Server::start_at(dir, &listen, &[]);
    assert!(server.log().contains("replacing a stale socket file"), "{}", server.log());
    let mut c = server.client().await;
    assert_eq!(state(&mut c, &id).await.seq, acked, "the acknowledged choice survived");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_serves_tcp_and_a_unix_socket_at_once_on_the_same_games() {
    let dir = temp_dir("unix-both");
    let (path, unix) = socket_in(&dir);
    let server = Server::start_at(dir, "127.0.0.1:0", &["--listen", &unix]);
    assert!(server.url.starts_with("http://127.0.0.1:"), "the first line names the first listener: {}", server.url);
    let mut over_tcp = server.client().await;
    let channel =
        tabletop::dial::Target::parse(&unix).expect("target").connect().await.expect("connect over the socket");
    let mut over_socket = tabletop::GameServiceClient::new(channel);

    // Created over TCP, watched over TCP, played over the socket.
    let id = create_game(&mut over_tcp, 9).await;
    let mut updates = over_tcp
        .stream_game(pb::StreamGameRequest {
            game_id: id.clone(),
            from_seq: 0,
            credentials: None,
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    let snapshot = updates.next().await.expect("snapshot").expect("snapshot ok");
    assert_eq!(snapshot.seq, 0);
    let tokens = claim_all(&mut over_socket, &id).await;
    let s = state(&mut over_socket, &id).await;
    let o = s.decision.expect("decision").options.into_iter().next().expect("an option");
    let seat = o.seats[0];
    let accepted = over_socket
        .submit_choice(pb::SubmitChoiceRequest {
            game_id: id.clone(),
            credentials: creds(&tokens, seat),
            expected_seq: Some(s.seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(o.id)),
        })
        .await
        .expect("a choice over the socket")
        .into_inner();
    let seen = tokio::time::timeout(HANG_GUARD, async {
        loop {
            let u = updates.next().await.expect("an update").expect("update ok");
            if u.seq == accepted.seq {
                return u.seq;
            }
        }
    })
    .await
    .expect("the TCP watcher saw the socket's choice");
    assert_eq!(seen, accepted.seq);
    assert_eq!(state(&mut over_tcp, &id).await.seq, accepted.seq);

    drop((over_tcp, over_socket, updates));
    assert!(server.terminate().success());
    assert!(!path.exists(), "SIGTERM removes the socket file of a server with two listeners");
}

#[tokio::test]
async fn a_file_that_is_not_a_socket_is_never_replaced() {
    let dir = temp_dir("unix-not-a-socket");
    let (path, listen) = socket_in(&dir);
    std::fs::write(&path, "someone's notes").expect("a plain file");
    let refused = Server::try_start_at(dir.clone(), &listen, &[]).err().expect("the path holds a plain file");
    assert!(refused.contains("is not a socket"), "{refused}");
    assert_eq!(std::fs::read_to_string(&path).expect("still there"), "someone's notes");
    let _ = std::fs::remove_dir_all(&dir);
}
