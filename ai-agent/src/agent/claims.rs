//! The seats this agent process claimed, with their tokens, so that it can
//! hand them back with `ReleaseSeat` when it is stopped (Ctrl-C or
//! SIGTERM): the seats open again at once for another agent or a human,
//! instead of holding a game up with a token nobody plays. Seats played
//! with a token given on the command line are not ours to release.

use super::dial::targets;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabletop::GameServiceClient;
use tabletop::pb;

/// How long one release may take when the agent stops.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(2);

/// Releases in flight at once (a thousand tables hold three thousand seats).
pub const RELEASES_AT_ONCE: usize = 64;

/// The seats held by this process: (game, seat) to token.
#[derive(Clone, Debug, Default)]
pub struct Claims(Arc<Mutex<HashMap<(String, u32), String>>>);

impl Claims {
    /// Records a seat this process just claimed.
    pub fn hold(&self, game_id: &str, seat: u32, token: &str) {
        if let Ok(mut m) = self.0.lock() {
            m.insert((game_id.to_string(), seat), token.to_string());
        }
    }

    /// Forgets a seat whose game ended or that is not ours any more.
    pub fn forget(&self, game_id: &str, seat: u32) {
        if let Ok(mut m) = self.0.lock() {
            m.remove(&(game_id.to_string(), seat));
        }
    }

    /// The seats held now, in a stable order.
    pub fn held(&self) -> Vec<(String, u32, String)> {
        let mut v: Vec<(String, u32, String)> = match self.0.lock() {
            Ok(m) => m.iter().map(|((g, s), t)| (g.clone(), *s, t.clone())).collect(),
            Err(_) => Vec::new(),
        };
        v.sort();
        v
    }

    /// Hands every held seat back to `server` (its first address that
    /// answers, if several); returns how many the server took back. A server that cannot be reached in time keeps them: their
    /// tokens stay valid, and `--token` can take one up again.
    pub async fn release_all(&self, server: &str) -> usize {
        self.release_all_as(server, None, 1_500).await
    }

    /// [`Claims::release_all`] with the agent key (`x-agent-key`) if any,
    /// at most `per_second` releases a second (0: no limit), at most
    /// [`RELEASES_AT_ONCE`] in flight.
    pub async fn release_all_as(&self, server: &str, agent_key: Option<&str>, per_second: u32) -> usize {
        let held = self.held();
        if held.is_empty() {
            return 0;
        }
        let Ok(targets) = targets(server) else { return 0 };
        // Any node takes a release: the first that answers, in time.
        let connect = tokio::time::timeout(RELEASE_TIMEOUT * targets.len() as u32, targets.connect_any());
        let Ok(Ok((channel, _))) = connect.await else {
            tracing::warn!(seats = held.len(), "server unreachable: seats not released");
            return 0;
        };
        let key = agent_key.and_then(|k| k.parse().ok());
        let client = GameServiceClient::with_interceptor(channel, super::conn::AgentKey::new(key));
        let pace = std::sync::Arc::new(super::pace::Pace::new(per_second, 1));
        let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(RELEASES_AT_ONCE));
        // Many seats at once over the one connection, within the rate and
        // a bounded number in flight, each within its timeout.
        let mut releases = tokio::task::JoinSet::new();
        for (game_id, seat, token) in held {
            let mut client = client.clone();
            let (pace, slots) = (pace.clone(), slots.clone());
            releases.spawn(async move {
                let _slot = slots.acquire().await.ok();
                pace.wait().await;
                let req = pb::ReleaseSeatRequest {
                    game_id: game_id.clone(),
                    credentials: Some(pb::SeatCredentials { seat, token }),
                };
                let answer = tokio::time::timeout(RELEASE_TIMEOUT, client.release_seat(req)).await;
                (game_id, seat, answer)
            });
        }
        let mut released = 0;
        while let Some(done) = releases.join_next().await {
            let Ok((game_id, seat, answer)) = done else { continue };
            match answer {
                Ok(Ok(_)) => {
                    tracing::info!(game = %game_id, seat, "seat released");
                    self.forget(&game_id, seat);
                    released += 1;
                }
                Ok(Err(s)) => tracing::warn!(game = %game_id, seat, status = %s.message(), "release refused"),
                Err(_) => tracing::warn!(game = %game_id, seat, "release timed out"),
            }
        }
        released
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_and_forgets_seats() {
        let c = Claims::default();
        c.hold("g-2", 1, "t1");
        c.hold("g-1", 3, "t3");
        c.hold("g-1", 0, "t0");
        assert_eq!(
            c.held().iter().map(|h| (h.0.as_str(), h.1)).collect::<Vec<_>>(),
            [("g-1", 0), ("g-1", 3), ("g-2", 1)]
        );
        c.forget("g-1", 3);
        assert_eq!(c.held().len(), 2);
        let shared = c.clone();
        shared.forget("g-2", 1);
        assert_eq!(c.held(), vec![("g-1".to_string(), 0, "t0".to_string())], "clones share one registry");
    }

    #[tokio::test]
    async fn an_unreachable_server_keeps_the_seats_and_does_not_hang() {
        // Nothing listens on port 1: the release gives up (within its
        // timeout) and the tokens stay held, valid for `--token` later.
        let c = Claims::default();
        c.hold("g-1", 2, "t2");
        assert_eq!(c.release_all("http://127.0.0.1:1").await, 0);
        assert_eq!(c.held().len(), 1);
        assert_eq!(Claims::default().release_all("not a url").await, 0, "nothing held, nothing to do");
    }
}
