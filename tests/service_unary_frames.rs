//! A method that takes one request message gets exactly one, from outside
//! over real HTTP/2 with hand-made bodies: no message, two messages, a cut
//! frame and a gRPC-Web request with an empty body are INVALID_ARGUMENT
//! (INTERNAL is kept for the server's own faults) and change nothing; one
//! whole message is served as before. `service.proto`'s status table.

mod common;

use common::*;
use prost::Message;
use tabletop::pb;
use tonic::Code;
use tonic::codegen::Body as _;
use tonic::transport::Channel;

/// One gRPC frame around `msg`: flag 0, big-endian length, the bytes.
fn frame(msg: &[u8]) -> Vec<u8> {
    let mut f = vec![0];
    f.extend_from_slice(&(msg.len() as u32).to_be_bytes());
    f.extend_from_slice(msg);
    f
}

/// Posts `body` to `method` with `content_type` over the channel's HTTP/2
/// connection; the status the server answers with.
async fn post(channel: &Channel, addr: &str, method: &str, content_type: &str, body: Vec<u8>) -> (Code, String) {
    // The hand-made bodies here are all ASCII, which the body type for
    // text takes as it is.
    let text = String::from_utf8(body).expect("these test bodies are ASCII");
    let request = tonic::codegen::http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}/tabletop.v1.GameService/{method}"))
        .header("content-type", content_type)
        .header("te", "trailers")
        .body(tonic::body::Body::new(text))
        .expect("request");
    let response = tokio::time::timeout(HANG_GUARD, tower::ServiceExt::oneshot(channel.clone(), request))
        .await
        .expect("an answer within the hang guard")
        .expect("an HTTP answer");
    if let Some(status) = tonic::Status::from_header_map(response.headers()) {
        return (status.code(), status.message().to_string());
    }
    // Not trailers-only: read the body to its trailers (gRPC) or to its
    // trailer frame (gRPC-Web, flag 0x80).
    let mut body = response.into_body();
    let mut data = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.expect("body frame");
        if let Some(trailers) = frame.trailers_ref()
            && let Some(status) = tonic::Status::from_header_map(trailers)
        {
            return (status.code(), status.message().to_string());
        }
        if let Ok(d) = frame.into_data() {
            data.extend_from_slice(&d);
        }
    }
    let text = String::from_utf8_lossy(&data).to_string();
    let code = text.split("grpc-status:").nth(1).and_then(|s| s.trim().split(|c: char| !c.is_ascii_digit()).next());
    (Code::from(code.and_then(|c| c.parse::<i32>().ok()).expect("a grpc-status somewhere")), text)
}

#[tokio::test]
async fn a_unary_call_takes_exactly_one_whole_message() {
    let server = Server::start("unary-frames");
    let mut c = server.client().await;
    let game = create_game(&mut c, 3).await;
    let channel = server.channel().await;
    let addr = server.addr().to_string();
    let grpc = "application/grpc";
    let view = pb::GetViewRequest { game_id: game.clone(), credentials: None, ..Default::default() }.encode_to_vec();

    // One whole message: served.
    let (code, why) = post(&channel, &addr, "GetView", grpc, frame(&view)).await;
    assert_eq!(code, Code::Ok, "{why}");

    // No message at all (tonic alone says INTERNAL "Missing request message").
    let (code, why) = post(&channel, &addr, "GetView", grpc, Vec::new()).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");
    assert!(why.contains("none"), "{why}");

    // A frame cut short, in its body and in its header.
    let whole = frame(&view);
    let (code, why) = post(&channel, &addr, "GetView", grpc, whole[..whole.len() - 2].to_vec()).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");
    let (code, why) = post(&channel, &addr, "GetView", grpc, whole[..3].to_vec()).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");

    // Two messages on a call that takes one (tonic alone answers the first
    // and drops the second): refused, and the first did nothing either.
    let claim = |seat: u32| {
        pb::ClaimSeatRequest { game_id: game.clone(), seat, claimant: pb::Claimant::Human as i32, token: String::new() }
            .encode_to_vec()
    };
    let two = [frame(&claim(0)), frame(&claim(1))].concat();
    let (code, why) = post(&channel, &addr, "ClaimSeat", grpc, two).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");
    assert!(why.contains("more"), "{why}");
    let summary = c
        .list_games(pb::ListGamesRequest {
            status: 0,
            only_open_seats: false,
            page_size: 10,
            page_token: String::new(),
        })
        .await
        .expect("list")
        .into_inner();
    let listed = summary.games.iter().find(|g| g.game_id == game).expect("the game is listed");
    assert!(listed.seats.iter().all(|s| !s.claimed), "no seat was claimed: {:?}", listed.seats);

    // A server-streaming method takes one request message too.
    let stream = pb::StreamGameRequest { game_id: game.clone(), ..Default::default() }.encode_to_vec();
    let (code, why) = post(&channel, &addr, "StreamGame", grpc, [frame(&stream), frame(&stream)].concat()).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");

    // gRPC-Web with an empty body, and with one empty message (served).
    let web = "application/grpc-web+proto";
    let (code, why) = post(&channel, &addr, "ListGames", web, Vec::new()).await;
    assert_eq!(code, Code::InvalidArgument, "{why}");
    let (code, why) = post(&channel, &addr, "ListGames", web, frame(&[])).await;
    assert_eq!(code, Code::Ok, "{why}");

    // The refused calls left the game as it was, and the server serves on.
    let after = state(&mut c, &game).await;
    assert_eq!(after.seq, 0);
    assert!(!server.log().contains("panicked"), "{}", server.log());
}
