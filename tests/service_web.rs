//! Browsers and the server, from outside over raw HTTP/1.1: a CORS
//! preflight for gRPC-Web is answered for a configured origin and refused
//! (no Access-Control headers) for any other and by default; a gRPC-Web
//! call from an allowed origin exposes the gRPC status to scripts; the
//! static front-end is served on the API's port with its content types,
//! and paths never leave the web directory.

mod common;

use common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends `request` (HTTP/1.1 with `Connection: close`) and reads the whole
/// answer as text.
async fn http(server: &Server, request: String, body: &[u8]) -> String {
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut tcp = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    tcp.write_all(request.replace("{addr}", &addr).as_bytes()).await.expect("write");
    tcp.write_all(body).await.expect("write body");
    let mut raw = Vec::new();
    tokio::time::timeout(HANG_GUARD, tcp.read_to_end(&mut raw)).await.expect("an answer in time").expect("read");
    String::from_utf8_lossy(&raw).into_owned()
}

fn preflight(origin: &str) -> String {
    format!(
        "OPTIONS /tabletop.v1.GameService/ListGames HTTP/1.1\r\nHost: {{addr}}\r\nOrigin: {origin}\r\n\
         Access-Control-Request-Method: POST\r\n\
         Access-Control-Request-Headers: content-type,x-grpc-web,x-user-agent\r\nConnection: close\r\n\r\n"
    )
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

#[tokio::test]
async fn cross_origin_calls_are_refused_by_default() {
    let server = Server::start("cors-default");
    let answer = lower(&http(&server, preflight("http://evil.example"), b"").await);
    assert!(!answer.contains("access-control-allow-origin"), "{answer}");
}

#[tokio::test]
async fn a_configured_origin_gets_its_preflight_and_the_grpc_status() {
    let server = Server::start_in(temp_dir("cors-on"), &["--cors-origin", "http://localhost:5173"]);
    let answer = lower(&http(&server, preflight("http://localhost:5173"), b"").await);
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(answer.contains("access-control-allow-origin: http://localhost:5173"), "{answer}");
    assert!(answer.contains("access-control-allow-headers"), "{answer}");
    assert!(answer.contains("x-grpc-web"), "{answer}");
    assert!(answer.contains("access-control-allow-methods"), "{answer}");

    let other = lower(&http(&server, preflight("http://evil.example"), b"").await);
    assert!(!other.contains("access-control-allow-origin"), "another origin is not allowed: {other}");

    // The call itself: the status trailers are readable by the page.
    let call = "POST /tabletop.v1.GameService/ListGames HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://localhost:5173\r\n\
                Content-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\n";
    let answer = lower(&http(&server, call.to_string(), &[0, 0, 0, 0, 0]).await);
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(answer.contains("access-control-allow-origin: http://localhost:5173"), "{answer}");
    assert!(answer.contains("access-control-expose-headers") && answer.contains("grpc-status"), "{answer}");
}

#[tokio::test]
async fn the_front_end_is_served_on_the_api_port() {
    let web = temp_dir("web-files");
    std::fs::create_dir_all(web.join("assets")).expect("dir");
    std::fs::write(web.join("index.html"), "<!doctype html><title>X-ODUS</title>").expect("index");
    std::fs::write(web.join("app.js"), "console.log('hi')").expect("js");
    std::fs::write(web.join("assets/style.css"), "body{}").expect("css");
    let dir = web.to_string_lossy().into_owned();
    let server = Server::start_in(temp_dir("web-server"), &["--web-dir", &dir]);
    let get = |path: &str| format!("GET {path} HTTP/1.1\r\nHost: {{addr}}\r\nConnection: close\r\n\r\n");

    let index = http(&server, get("/"), b"").await;
    assert!(index.starts_with("HTTP/1.1 200"), "{index}");
    assert!(lower(&index).contains("content-type: text/html"), "{index}");
    assert!(index.contains("<title>X-ODUS</title>"), "{index}");
    let js = lower(&http(&server, get("/app.js"), b"").await);
    assert!(js.starts_with("http/1.1 200") && js.contains("content-type: text/javascript"), "{js}");
    let css = lower(&http(&server, get("/assets/style.css"), b"").await);
    assert!(css.contains("content-type: text/css"), "{css}");
    let missing = http(&server, get("/nope.js"), b"").await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    for escape in ["/../server.log", "/assets/../../server.log", "/%2e%2e/server.log"] {
        let answer = http(&server, get(escape), b"").await;
        assert!(!answer.starts_with("HTTP/1.1 200"), "{escape} must not leave the web directory: {answer}");
    }

    // The API still answers on the same port.
    let mut c = server.client().await;
    create_game(&mut c, 1).await;
}

#[test]
fn a_web_dir_without_an_index_is_refused_at_start() {
    let empty = temp_dir("web-empty");
    let out = std::process::Command::new(server_binary())
        .args(["--listen", "127.0.0.1:0", "--in-memory", "--web-dir"])
        .arg(&empty)
        .output()
        .expect("run the server");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("index.html"), "{err}");
}
