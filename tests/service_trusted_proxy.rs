//! Behind a load balancer (issue 51): with `--trusted-proxy`, a call from
//! the balancer counts against the client its `x-forwarded-for` names
//! last, so the per-client caps hold per player, not for every player of
//! the balancer together; from anyone else the header changes nothing.

mod common;

use common::*;
use tabletop::pb;
use tonic::Code;

/// A WatchLobby call that says it comes for `client`.
fn lobby_for(client: &str) -> tonic::Request<pb::WatchLobbyRequest> {
    let mut req = tonic::Request::new(pb::WatchLobbyRequest {});
    req.metadata_mut().insert("x-forwarded-for", format!("203.0.113.9, {client}").parse().expect("ascii"));
    req
}

#[tokio::test]
async fn a_trusted_balancers_clients_are_counted_apart() {
    let flags = ["--max-streams-per-client", "1", "--trusted-proxy", "127.0.0.1"];
    let server = Server::start_in(temp_dir("trusted-proxy"), &flags);
    let mut c = server.client().await;
    let _a = c.watch_lobby(lobby_for("10.0.0.1")).await.expect("client 10.0.0.1's stream");
    let _b = c.watch_lobby(lobby_for("10.0.0.2")).await.expect("another client's stream, through the same balancer");
    let refused = c.watch_lobby(lobby_for("10.0.0.1")).await.expect_err("10.0.0.1's second stream");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
}

#[tokio::test]
async fn an_untrusted_callers_forwarded_for_is_ignored() {
    let server = Server::start_in(temp_dir("untrusted-proxy"), &["--max-streams-per-client", "1"]);
    let mut c = server.client().await;
    let _a = c.watch_lobby(lobby_for("10.0.0.1")).await.expect("the first stream");
    let refused = c.watch_lobby(lobby_for("10.0.0.2")).await.expect_err("the same caller, whatever it says");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
}
