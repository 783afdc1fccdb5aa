//! Plays one seat of one game to its end.
//!
//! A reader task follows `StreamGame` and keeps only the newest state in a
//! `watch` channel, so a slow thinker never answers a stale state it has
//! already been overtaken on; the decision loop thinks on the newest state
//! (on a blocking thread, the policy is plain CPU work) and submits with
//! `expected_seq`. ABORTED means someone moved first: wait for the next
//! state. A decision other seats may also take is first left to them for
//! a while (`shared`). When the stream breaks (server restart, network cut) it
//! reconnects with backoff and resumes from the last sequence number seen;
//! the seat token survives restarts, so nothing is claimed twice.

use super::backoff::Backoff;
use super::claims::Claims;
use super::{AgentConfig, AgentError};
use crate::policy::{Policy, options_for};
use crate::rng::mix;
use std::sync::Arc;
use tokio::sync::watch;
use tonic::transport::Channel;
use tonic::{Code, Status};
use xodus::GameServiceClient;
use xodus::dial::Target;
use xodus::pb;

/// How a seat's play ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatEnd {
    /// The game ended: won or not, and why.
    Finished {
        /// The Rift was sealed.
        won: bool,
        /// The engine's cause.
        cause: String,
    },
    /// The seat is not ours (claimed by someone else, token revoked, game
    /// gone).
    Lost(String),
}

/// Reads the configured server address (`http://HOST:PORT` or `unix:PATH`).
pub fn endpoint(url: &str) -> Result<Target, AgentError> {
    Target::parse(url).map_err(|e| AgentError::Url(url.to_string(), e.why))
}

/// Connects, retrying with backoff until it works.
pub async fn connect(ep: &Target, backoff: &mut Backoff) -> GameServiceClient<Channel> {
    loop {
        match ep.connect().await {
            Ok(ch) => return GameServiceClient::new(ch),
            Err(e) => {
                let d = backoff.delay();
                tracing::warn!(error = %e, delay_ms = d.as_millis() as u64, "server unreachable; retrying");
                tokio::time::sleep(d).await;
            }
        }
    }
}

/// Whether a status is worth retrying after reconnecting.
fn transient(s: &Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Internal
            | Code::Cancelled
            | Code::DeadlineExceeded
            | Code::ResourceExhausted
    )
}

/// Whether a status says the seat is not ours any more.
fn seat_lost(s: &Status) -> bool {
    matches!(s.code(), Code::Unauthenticated | Code::NotFound)
        || (s.code() == Code::PermissionDenied && s.message().contains("token"))
}

/// Plays `seat` of `game_id`, claiming it as an AI unless `token` is given.
/// A seat it claims is held in `claims` until the seat's play ends.
pub async fn play_seat(
    cfg: Arc<AgentConfig>,
    game_id: String,
    seat: u32,
    token: Option<String>,
    claims: Claims,
) -> Result<SeatEnd, AgentError> {
    let end = play_claimed(cfg, &game_id, seat, token, &claims).await;
    claims.forget(&game_id, seat);
    end
}

async fn play_claimed(
    cfg: Arc<AgentConfig>,
    game_id: &str,
    seat: u32,
    token: Option<String>,
    claims: &Claims,
) -> Result<SeatEnd, AgentError> {
    let game_id = game_id.to_string();
    let ep = endpoint(&cfg.server)?;
    let mut backoff = Backoff::default();
    let seat8 = u8::try_from(seat).map_err(|_| AgentError::Refused(format!("seat {seat} out of range")))?;
    let mut policy: Box<dyn Policy> = cfg.policy.build(mix(&[cfg.seed, hash_str(&game_id), u64::from(seat)]));
    if let Some(m) = policy_threads(&cfg) {
        policy = m;
    }
    let mut token = token;
    let mut last_seq = 0u64;
    loop {
        let mut client = connect(&ep, &mut backoff).await;
        let tok = match &token {
            Some(t) => t.clone(),
            None => {
                let req = pb::ClaimSeatRequest {
                    game_id: game_id.clone(),
                    seat,
                    claimant: pb::Claimant::Ai as i32,
                    token: String::new(),
                };
                match client.claim_seat(req).await {
                    Ok(r) => {
                        let t = r.into_inner().token;
                        tracing::info!(game = %game_id, seat, "claimed seat");
                        claims.hold(&game_id, seat, &t);
                        token = Some(t.clone());
                        t
                    }
                    Err(s) if transient(&s) => {
                        tokio::time::sleep(backoff.delay()).await;
                        continue;
                    }
                    Err(s) => return Ok(SeatEnd::Lost(format!("claim refused: {}", s.message()))),
                }
            }
        };
        let creds = pb::SeatCredentials { seat, token: tok };
        let req = pb::StreamGameRequest {
            game_id: game_id.clone(),
            from_seq: last_seq,
            credentials: Some(creds.clone()),
            seat_updates: false,
            ..Default::default()
        };
        let mut stream = match client.stream_game(req).await {
            Ok(s) => s.into_inner(),
            Err(s) if seat_lost(&s) => return Ok(SeatEnd::Lost(s.message().to_string())),
            Err(s) => {
                let d = backoff.delay();
                tracing::warn!(game = %game_id, seat, status = %s.message(), "stream refused; retrying");
                tokio::time::sleep(d).await;
                continue;
            }
        };
        backoff.reset();
        tracing::info!(game = %game_id, seat, from_seq = last_seq, "following the game");
        let (tx, mut rx) = watch::channel::<Option<pb::GameState>>(None);
        let reader = tokio::spawn(async move {
            loop {
                match stream.message().await {
                    Ok(Some(u)) => {
                        if let Some(st) = u.state
                            && tx.send(Some(st)).is_err()
                        {
                            return None;
                        }
                    }
                    Ok(None) => return None,
                    Err(s) => return Some(s),
                }
            }
        });
        let mut current: Option<pb::GameState> = None;
        loop {
            if current.is_none() {
                if rx.changed().await.is_err() {
                    break; // the stream ended: reconnect
                }
                current = rx.borrow_and_update().clone();
            }
            let Some(st) = current.take() else { continue };
            last_seq = last_seq.max(st.seq);
            if let Some(o) = &st.outcome {
                reader.abort();
                return Ok(SeatEnd::Finished { won: o.won, cause: o.cause.clone() });
            }
            let Some(d) = &st.decision else { continue };
            if !d.deciders.contains(&seat) {
                continue;
            }
            if d.deciders.len() > 1 {
                let wait = shared_wait(&mut client, &cfg, &game_id, &creds, &d.deciders).await;
                if let Some(wait) = wait {
                    tracing::debug!(game = %game_id, seat, seq = st.seq, wait_ms = wait.as_millis() as u64,
                                    "a shared decision: giving teammates the first move");
                    match tokio::time::timeout(wait, rx.changed()).await {
                        // The game moved on: look at the new state.
                        Ok(Ok(())) => {
                            current = rx.borrow_and_update().clone();
                            continue;
                        }
                        Ok(Err(_)) => break, // the stream ended: reconnect
                        Err(_) => {}         // nobody took it: take it now
                    }
                }
            }
            let (picked, think_ms) = match xodus_wire::view(&st) {
                Ok(view) => {
                    let budget = cfg.budget.clone();
                    let thinking = std::time::Instant::now();
                    let (p, picked) = match tokio::task::spawn_blocking(move || {
                        let mut p = policy;
                        let id = p
                            .choose(&view, seat8, &budget)
                            .or_else(|| options_for(&view, seat8).first().map(|o| o.id.clone()));
                        (p, id)
                    })
                    .await
                    {
                        Ok(x) => x,
                        Err(e) => return Err(AgentError::Refused(format!("policy task failed: {e}"))),
                    };
                    policy = p;
                    (picked, thinking.elapsed().as_millis() as u64)
                }
                // A game this agent has no policy of its own for: it is
                // played from the wire decision alone.
                Err(xodus_wire::WireError::NotXodus) => {
                    (crate::policy::any_game::pick(d, seat, mix(&[cfg.seed, hash_str(&game_id), st.seq])), 0)
                }
                Err(e) => {
                    // Usually a server built from another engine version.
                    tracing::warn!(game = %game_id, seq = st.seq, error = %e, "unreadable typed state");
                    continue;
                }
            };
            let Some(id) = picked else { continue };
            if rx.has_changed().unwrap_or(false) {
                // Overtaken while thinking: think again on the newest state.
                continue;
            }
            let req = pb::SubmitChoiceRequest {
                game_id: game_id.clone(),
                credentials: Some(creds.clone()),
                expected_seq: Some(st.seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(id.clone())),
            };
            match client.submit_choice(req).await {
                Ok(r) => {
                    let r = r.into_inner();
                    tracing::debug!(game = %game_id, seat, seq = r.seq, option = %id, think_ms, "choice accepted");
                    // The response's state is the newest unless the stream has more.
                    if !rx.has_changed().unwrap_or(false) {
                        current = r.state;
                    }
                }
                Err(s) if s.code() == Code::Aborted => {
                    tracing::debug!(game = %game_id, seat, "stale choice; waiting for the newer state");
                }
                Err(s) if seat_lost(&s) => {
                    reader.abort();
                    return Ok(SeatEnd::Lost(s.message().to_string()));
                }
                Err(s) if transient(&s) => {
                    tracing::warn!(game = %game_id, seat, status = %s.message(), "submit failed; reconnecting");
                    break;
                }
                Err(s) => {
                    // Refused by the rules or not ours to take now: look again.
                    tracing::warn!(game = %game_id, seat, option = %id, status = %s.message(), "choice refused; refetching");
                    let req = pb::GetViewRequest {
                        game_id: game_id.clone(),
                        credentials: Some(creds.clone()),
                        ..Default::default()
                    };
                    match client.get_view(req).await {
                        Ok(v) => {
                            let fresh = v.into_inner().state;
                            if fresh.as_ref().is_some_and(|f| f.seq != st.seq || f.outcome.is_some()) {
                                current = fresh;
                            }
                        }
                        Err(s) if seat_lost(&s) => {
                            reader.abort();
                            return Ok(SeatEnd::Lost(s.message().to_string()));
                        }
                        Err(_) => break,
                    }
                }
            }
        }
        // Left on a failed request while the stream may still be up: stop the
        // reader, or awaiting it would wait for that stream forever.
        reader.abort();
        match reader.await {
            Ok(Some(s)) if seat_lost(&s) => return Ok(SeatEnd::Lost(s.message().to_string())),
            Ok(Some(s)) => tracing::warn!(game = %game_id, seat, status = %s.message(), "stream broke; reconnecting"),
            _ => tracing::warn!(game = %game_id, seat, "stream ended; reconnecting"),
        }
        tokio::time::sleep(backoff.delay()).await;
    }
}

/// How long to leave a shared decision to teammates ([`super::shared`]),
/// from the seats' holders as GetView reports them. When they cannot be
/// read, the seat does not wait: a game must not stall on a failed call.
async fn shared_wait(
    client: &mut GameServiceClient<Channel>,
    cfg: &AgentConfig,
    game_id: &str,
    creds: &pb::SeatCredentials,
    deciders: &[u32],
) -> Option<std::time::Duration> {
    let req =
        pb::GetViewRequest { game_id: game_id.to_string(), credentials: Some(creds.clone()), ..Default::default() };
    let game = client.get_view(req).await.ok()?.into_inner().game?;
    let think = std::time::Duration::from_millis(cfg.budget.think_ms.unwrap_or(0));
    super::shared::wait_before_acting(creds.seat, deciders, &game.seats, think, cfg.courtesy)
}

/// The configured policy with search threads, when it searches.
fn policy_threads(cfg: &AgentConfig) -> Option<Box<dyn Policy>> {
    match cfg.policy {
        crate::policy::PolicyKind::Mcts if cfg.threads > 1 => {
            Some(Box::new(crate::policy::mcts::MctsPolicy::new(cfg.seed ^ 0x6d63_7473).with_threads(cfg.threads)))
        }
        _ => None,
    }
}

/// A stable 64-bit hash of a string (FNV-1a), for seeding per game.
pub fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
