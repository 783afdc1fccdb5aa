//! End-to-end tests of the standard services a gRPC user expects from the
//! real `xodus-server`: the health protocol, server reflection (listing the
//! game service), gRPC-Web over plain HTTP/1.1, and a graceful SIGTERM
//! that a silent client cannot hold past the shutdown grace.

mod common;

use common::*;
use tabletop::pb;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

#[tokio::test]
async fn health_reports_serving() {
    let server = Server::start("health");
    let mut h = HealthClient::new(server.channel().await);
    for service in ["", tabletop::SERVICE_NAME] {
        let r = h
            .check(tonic_health::pb::HealthCheckRequest { service: service.into() })
            .await
            .expect("check")
            .into_inner();
        assert_eq!(r.status, ServingStatus::Serving as i32, "service {service:?}");
    }
}

#[tokio::test]
async fn reflection_lists_the_game_service_and_its_file() {
    let server = Server::start("reflect");
    let mut r = ServerReflectionClient::new(server.channel().await);
    let reqs = vec![
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        },
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::FileContainingSymbol(tabletop::SERVICE_NAME.into())),
        },
    ];
    let mut answers = r.server_reflection_info(tokio_stream::iter(reqs)).await.expect("reflection").into_inner();
    let list = answers.message().await.expect("ok").expect("list");
    let Some(MessageResponse::ListServicesResponse(list)) = list.message_response else { panic!("list answer") };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&tabletop::SERVICE_NAME.to_string()), "{names:?}");
    assert!(names.iter().any(|n| n == "grpc.health.v1.Health"), "{names:?}");
    let file = answers.message().await.expect("ok").expect("file");
    let Some(MessageResponse::FileDescriptorResponse(f)) = file.message_response else { panic!("file answer") };
    assert!(!f.file_descriptor_proto.is_empty());
}

#[tokio::test]
async fn grpc_web_over_http1() {
    let server = Server::start("web");
    let mut c = server.client().await;
    create_game(&mut c, 5).await;
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut tcp = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    // An empty ListGamesRequest in one gRPC-Web frame: flag 0, length 0.
    let head = format!(
        "POST /tabletop.v1.GameService/ListGames HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/grpc-web+proto\r\n\
         X-Grpc-Web: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.expect("write");
    tcp.write_all(&[0, 0, 0, 0, 0]).await.expect("write body");
    let mut raw = Vec::new();
    tokio::time::timeout(HANG_GUARD, tcp.read_to_end(&mut raw))
        .await
        .expect("an answer within the hang guard")
        .expect("read");
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.to_ascii_lowercase().contains("application/grpc-web"), "{text}");
    assert!(text.contains("grpc-status:0"), "{text}");
    assert!(text.contains("g-"), "the listed game's id is in the answer: {text}");
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_closes_streams_and_exits_cleanly() {
    let server = Server::start("sigterm");
    let mut c = server.client().await;
    let id = create_game(&mut c, 6).await;
    let mut stream = c
        .stream_game(pb::StreamGameRequest {
            game_id: id,
            from_seq: 0,
            credentials: None,
            seat_updates: false,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    stream.message().await.expect("ok").expect("snapshot");
    let status = tokio::task::spawn_blocking(move || server.terminate()).await.expect("join");
    assert!(status.success(), "exit status {status:?}");
    let end = stream.message().await;
    assert!(matches!(end, Ok(None) | Err(_)), "the stream ended: {end:?}");
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_while_the_server_starts_up_is_a_graceful_stop() {
    // The server prints its addresses before it opens its store and
    // serves: a SIGTERM sent at once (a supervisor stopping a server it
    // just started) must find the handler already installed, not the
    // default action that ends the process with nothing in the log.
    let server = Server::start_in(temp_dir("sigterm-early"), &[]);
    let (dir, status) = tokio::task::spawn_blocking(move || server.terminate_keep_status()).await.expect("join");
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(status.success(), "exit status {status:?}; log:\n{log}");
    assert!(log.contains("stopped"), "{log}");
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_within_the_grace_when_a_client_never_answers() {
    let server = Server::start_in(temp_dir("sigterm-grace"), &["--shutdown-grace-secs", "1"]);
    // An HTTP/2 client that opens its connection and then goes silent: it
    // never acknowledges the server's goodbye, so a graceful close alone
    // would wait for it forever.
    let mut silent = tokio::net::TcpStream::connect(server.addr()).await.expect("connect");
    silent.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0").await.expect("preface and settings");
    let mut settings_header = [0u8; 9];
    silent.read_exact(&mut settings_header).await.expect("the server's settings");
    assert_eq!(settings_header[3], 4, "an HTTP/2 SETTINGS frame");
    let dir = tokio::task::spawn_blocking(move || server.terminate_keep()).await.expect("join");
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(log.contains("stopping without them"), "{log}");
    drop(silent);
}
