//! Spectators: each game's spectator policy (public, delayed, team), the
//! seq a caller without a seat may see, and the team grants that let a
//! seat's chosen watchers see its own view.
//!
//! The policy is chosen at creation and travels in the game's public
//! summary (`GameSummary.spectator_policy`, `spectator_delay`), which the
//! store keeps with every game: a game is given its policy back from that
//! summary when it is loaded, and a game whose summary lacks it (stored
//! before policies existed) gets its game's default. Creation waits for
//! that summary's commit when the policy is not the default, so an
//! acknowledged game never comes back with a looser one.
//!
//! Grants are kept in memory only (hashed, like seat tokens): they end
//! when the server restarts, and a grant works only while the seat is
//! held by the claim that made it.

use super::{Credentials, GameData, Manager};
use crate::error::ServiceError;
use crate::game::{HostedGame, Seat, Viewer};
use crate::model::{hash_token, new_token};
use std::collections::HashMap;
use std::sync::Mutex;
use tabletop::pb;
use tracing::info;

/// A delayed spectator's lag when the creator names none.
pub const DEFAULT_DELAY: u32 = 10;
/// The longest delay a creator may ask for.
pub const MAX_DELAY: u32 = 10_000;

/// Who may watch without a seat, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Spectators see the game now.
    Public,
    /// Spectators see it `delay` choices behind.
    Delayed,
    /// As `Delayed`, and seats may grant their own view.
    Team,
}

impl Policy {
    fn to_wire(self) -> pb::SpectatorPolicy {
        match self {
            Policy::Public => pb::SpectatorPolicy::Public,
            Policy::Delayed => pb::SpectatorPolicy::Delayed,
            Policy::Team => pb::SpectatorPolicy::Team,
        }
    }
}

/// A game's spectator settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spectating {
    /// The policy.
    pub policy: Policy,
    /// Choices behind the game, under `Delayed` and `Team` (0 under `Public`).
    pub delay: u32,
}

impl Spectating {
    /// The default for `game`: delayed where seats hold secrets of their
    /// own (a spectator relaying hands live would be a cheat), public
    /// where every viewer sees the same.
    pub fn default_for(game: &dyn HostedGame) -> Spectating {
        if game.same_state_for_every_viewer() {
            Spectating { policy: Policy::Public, delay: 0 }
        } else {
            Spectating { policy: Policy::Delayed, delay: DEFAULT_DELAY }
        }
    }

    /// The settings a summary carries; `None` when it carries none.
    fn from_summary(s: &pb::GameSummary) -> Option<Spectating> {
        let policy = match pb::SpectatorPolicy::try_from(s.spectator_policy).ok()? {
            pb::SpectatorPolicy::Unspecified => return None,
            pb::SpectatorPolicy::Public => Policy::Public,
            pb::SpectatorPolicy::Delayed => Policy::Delayed,
            pb::SpectatorPolicy::Team => Policy::Team,
        };
        let delay = if policy == Policy::Public { 0 } else { s.spectator_delay.min(MAX_DELAY) };
        Some(Spectating { policy, delay })
    }
}

/// What CreateGame asked for, checked but not yet resolved against the
/// game's default.
#[derive(Clone, Copy, Debug)]
pub struct Requested {
    policy: Option<Policy>,
    delay: Option<u32>,
}

impl Requested {
    /// Reads and checks CreateGame's spectator fields.
    pub fn parse(req: &pb::CreateGameRequest) -> Result<Requested, ServiceError> {
        let policy = match pb::SpectatorPolicy::try_from(req.spectator_policy) {
            Ok(pb::SpectatorPolicy::Unspecified) => None,
            Ok(pb::SpectatorPolicy::Public) => Some(Policy::Public),
            Ok(pb::SpectatorPolicy::Delayed) => Some(Policy::Delayed),
            Ok(pb::SpectatorPolicy::Team) => Some(Policy::Team),
            Err(_) => {
                return Err(ServiceError::BadRequest(format!(
                    "spectator_policy = {} is not a SpectatorPolicy value",
                    req.spectator_policy
                )));
            }
        };
        if let Some(d) = req.spectator_delay
            && d > MAX_DELAY
        {
            return Err(ServiceError::BadRequest(format!("spectator_delay {d} is above the maximum, {MAX_DELAY}")));
        }
        Ok(Requested { policy, delay: req.spectator_delay })
    }

    /// The settings for `game`.
    pub fn resolve(self, game: &dyn HostedGame) -> Result<Spectating, ServiceError> {
        let default = Spectating::default_for(game);
        let policy = self.policy.unwrap_or(default.policy);
        let delay = match (policy, self.delay) {
            (Policy::Public, None | Some(0)) => 0,
            (Policy::Public, Some(d)) => {
                return Err(ServiceError::BadRequest(format!(
                    "spectator_delay {d} with SPECTATOR_POLICY_PUBLIC: a public game has no delay; \
                     ask for SPECTATOR_POLICY_DELAYED"
                )));
            }
            (Policy::Delayed, Some(0)) => {
                return Err(ServiceError::BadRequest(
                    "spectator_delay 0 with SPECTATOR_POLICY_DELAYED: ask for SPECTATOR_POLICY_PUBLIC".into(),
                ));
            }
            (_, Some(d)) => d,
            (_, None) => DEFAULT_DELAY,
        };
        Ok(Spectating { policy, delay })
    }
}

impl From<Spectating> for Requested {
    /// A fork asks for its source's settings.
    fn from(s: Spectating) -> Requested {
        Requested { policy: Some(s.policy), delay: (s.policy != Policy::Public).then_some(s.delay) }
    }
}

/// A game's spectator state: its settings and the delayed spectators'
/// replay cursor.
#[derive(Default)]
pub(super) struct Spectators {
    /// The settings; `None` until set (the game's default applies).
    settings: Option<Spectating>,
    /// The game at the seq delayed spectators see, stepped forward as the
    /// game moves (memory only).
    pub(super) cursor: Option<super::replays::Cursor>,
}

impl Spectators {
    /// Sets the settings.
    pub(super) fn set(&mut self, s: Spectating) {
        self.settings = Some(s);
    }

    /// The settings for `game`.
    pub(super) fn settings(&self, game: &dyn HostedGame) -> Spectating {
        self.settings.unwrap_or_else(|| Spectating::default_for(game))
    }
}

impl GameData {
    /// The spectator settings.
    pub(super) fn spectator_settings(&self) -> Spectating {
        self.spectating.settings(self.game.as_ref())
    }

    /// Puts the spectator settings in a summary.
    pub(super) fn show_spectating(&self, s: &mut pb::GameSummary) {
        let settings = self.spectator_settings();
        s.spectator_policy = settings.policy.to_wire() as i32;
        s.spectator_delay = settings.delay;
    }

    /// Gives a game loaded from the store its settings back from its last
    /// stored summary (the game's default when it has none).
    pub(super) fn restore_spectating(&mut self, stored: Option<&pb::GameSummary>) {
        if let Some(s) = stored.and_then(Spectating::from_summary) {
            self.spectating.set(s);
        }
    }

    /// The last seq `viewer` may see now: everything for a seat and once
    /// the game is over; for a spectator of a live delayed game, `delay`
    /// choices behind.
    pub(super) fn visible_seq(&self, viewer: Viewer) -> u64 {
        let settings = self.spectator_settings();
        if matches!(viewer, Viewer::Seat(_)) || self.is_over() || settings.policy == Policy::Public {
            self.seq()
        } else {
            self.seq().saturating_sub(u64::from(settings.delay))
        }
    }

    /// Refuses a spectator's request past what it may see.
    pub(super) fn check_visible(&self, viewer: Viewer, seq: u64, what: &str) -> Result<(), ServiceError> {
        let visible = self.visible_seq(viewer);
        if seq > visible {
            return Err(ServiceError::NotAllowed(format!(
                "{what} {seq} is past what spectators may see of this live game: they see it {} choices behind, \
                 at most seq {visible} now; claim a seat, or wait",
                self.spectator_settings().delay
            )));
        }
        Ok(())
    }
}

/// One seat's grant.
#[derive(Clone, Debug)]
struct Grant {
    /// The seat shown.
    seat: Seat,
    /// Hash of the view token.
    token_hash: String,
    /// Hash of the seat token of the claim that made it: the grant ends
    /// with that claim.
    holder_hash: String,
}

/// Every game's grants, in memory (they end with the server).
pub struct Grants {
    by_game: Mutex<HashMap<String, Vec<Grant>>>,
    /// Bumped whenever a grant ends or is replaced: granted streams look
    /// again at once.
    ended: tokio::sync::watch::Sender<u64>,
}

impl Default for Grants {
    fn default() -> Grants {
        Grants { by_game: Mutex::default(), ended: tokio::sync::watch::channel(0).0 }
    }
}

impl Grants {
    /// A receiver that changes whenever some grant ends or is replaced.
    pub(super) fn ends(&self) -> tokio::sync::watch::Receiver<u64> {
        self.ended.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Grant>>> {
        self.by_game.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new grant of `seat`'s view, replacing its earlier one: the token.
    fn grant(&self, game: &str, seat: Seat, holder_hash: String) -> String {
        let token = new_token();
        let mut all = self.lock();
        let grants = all.entry(game.to_string()).or_default();
        grants.retain(|g| g.seat != seat);
        grants.push(Grant { seat, token_hash: hash_token(&token), holder_hash });
        drop(all);
        self.ended.send_modify(|n| *n += 1);
        token
    }

    /// Ends `seat`'s grant; whether there was one.
    fn revoke(&self, game: &str, seat: Seat) -> bool {
        let mut all = self.lock();
        let Some(grants) = all.get_mut(game) else { return false };
        let before = grants.len();
        grants.retain(|g| g.seat != seat);
        let revoked = grants.len() != before;
        if grants.is_empty() {
            all.remove(game);
        }
        drop(all);
        self.ended.send_modify(|n| *n += 1);
        revoked
    }

    /// Forgets the grants of games that are gone.
    fn prune(&self, keep: impl Fn(&str) -> bool) {
        self.lock().retain(|game, _| keep(game));
    }

    /// The seat a view token shows, when it is a grant of `game` still
    /// held by the claim that made it.
    pub(super) fn seat_of(&self, game: &str, token_hash: &str, d: &GameData) -> Option<Seat> {
        let all = self.lock();
        let g = all.get(game)?.iter().find(|g| g.token_hash == token_hash)?;
        let claim = d.record.seats.get(usize::from(g.seat))?.claim.as_ref()?;
        (claim.token_hash == g.holder_hash).then_some(g.seat)
    }
}

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Who {
    /// A seat with its token (`holder`: the holder's own, not a stand-in's).
    Seat(Seat, bool),
    /// A watcher with a seat's view token.
    Granted(Seat),
    /// Anyone else.
    Spectator,
}

impl Who {
    /// The viewer the game renders for.
    pub(super) fn viewer(self) -> Viewer {
        match self {
            Who::Seat(s, _) | Who::Granted(s) => Viewer::Seat(s),
            Who::Spectator => Viewer::Spectator,
        }
    }
}

/// A state as a granted watcher sees it: the seat's view with no option
/// it could not see as a spectator, and no right to act.
pub(super) fn watch_only(state: &mut pb::GameState, game: &dyn HostedGame) {
    if !game.same_state_for_every_viewer()
        && let Some(d) = state.decision.as_mut()
    {
        d.options.clear();
    }
    state.can_undo = false;
}

impl Manager {
    /// Who the caller is: a seat (its token checked), a granted watcher
    /// (its view token checked) or a spectator.
    pub(super) fn who(
        &self,
        d: &mut GameData,
        creds: Option<&Credentials>,
        view_token: &str,
    ) -> Result<Who, ServiceError> {
        match (creds, view_token.is_empty()) {
            (Some(_), false) => Err(ServiceError::BadRequest(
                "send either credentials (a seat) or view_token (a granted view), not both".into(),
            )),
            (Some(_), true) => match self.viewer_and_holder(d, creds)? {
                (Viewer::Seat(s), holder) => Ok(Who::Seat(s, holder)),
                (Viewer::Spectator, _) => Ok(Who::Spectator),
            },
            (None, false) => {
                self.grants.seat_of(&d.record.id, &hash_token(view_token), d).map(Who::Granted).ok_or_else(|| {
                    ServiceError::BadCredentials(format!(
                        "view_token is not a current grant of game {}: it was revoked or replaced, its seat was \
                         released, or the server restarted; ask the seat for a new one",
                        d.record.id
                    ))
                })
            }
            (None, true) => Ok(Who::Spectator),
        }
    }
}

impl super::api::Seats<'_> {
    /// GrantView: a new view token for the seat's view, replacing its
    /// earlier grant.
    pub async fn grant_view(&self, game_id: &str, creds: &Credentials) -> Result<String, ServiceError> {
        let (_, mut d) = self.game(game_id).await?;
        let (seat, holder) = self.viewer_and_holder(&mut d, Some(creds))?;
        let Viewer::Seat(seat) = seat else { return Err(ServiceError::Internal("credentials without a seat".into())) };
        if !holder {
            return Err(ServiceError::NotAllowed(
                "a stand-in cannot share the seat's view; only its holder can".into(),
            ));
        }
        if d.spectator_settings().policy != Policy::Team {
            return Err(ServiceError::NotNow(format!(
                "game {game_id} was not created with SPECTATOR_POLICY_TEAM: its seats cannot share their views"
            )));
        }
        let holder_hash = d.record.seats[usize::from(seat)]
            .claim
            .as_ref()
            .map(|c| c.token_hash.clone())
            .ok_or_else(|| ServiceError::Internal("a seat authenticated without a claim".into()))?;
        let index = self.index.read().unwrap_or_else(|e| e.into_inner());
        self.grants.prune(|g| index.get(g).is_some());
        drop(index);
        info!(seat, "seat's view granted");
        Ok(self.grants.grant(game_id, seat, holder_hash))
    }

    /// RevokeView: ends the seat's grant; whether there was one.
    pub async fn revoke_view(&self, game_id: &str, creds: &Credentials) -> Result<bool, ServiceError> {
        let (_, mut d) = self.game(game_id).await?;
        let (seat, holder) = self.viewer_and_holder(&mut d, Some(creds))?;
        let Viewer::Seat(seat) = seat else { return Err(ServiceError::Internal("credentials without a seat".into())) };
        if !holder {
            return Err(ServiceError::NotAllowed("a stand-in cannot end the seat's grant".into()));
        }
        let revoked = self.grants.revoke(game_id, seat);
        info!(seat, revoked, "seat's view grant ended");
        Ok(revoked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(policy: pb::SpectatorPolicy, delay: Option<u32>) -> pb::CreateGameRequest {
        pb::CreateGameRequest { spectator_policy: policy as i32, spectator_delay: delay, ..Default::default() }
    }

    #[test]
    fn requests_resolve_to_the_games_default_or_are_refused() {
        let xodus = crate::xodus_for_tests::Table::new(
            xodus_engine::Game::new(xodus_engine::GameConfig::random(3, 4, xodus_engine::Difficulty::Casual))
                .expect("config"),
        );
        let r = |p, d| Requested::parse(&req(p, d)).and_then(|r| r.resolve(&xodus));
        use pb::SpectatorPolicy as P;
        assert_eq!(r(P::Unspecified, None).expect("default"), Spectating { policy: Policy::Public, delay: 0 });
        assert_eq!(r(P::Delayed, None).expect("delayed"), Spectating { policy: Policy::Delayed, delay: DEFAULT_DELAY });
        assert_eq!(r(P::Team, Some(0)).expect("team live"), Spectating { policy: Policy::Team, delay: 0 });
        assert_eq!(r(P::Delayed, Some(3)).expect("3"), Spectating { policy: Policy::Delayed, delay: 3 });
        for bad in [(P::Delayed, Some(0)), (P::Public, Some(2)), (P::Team, Some(MAX_DELAY + 1))] {
            assert_eq!(r(bad.0, bad.1).expect_err("refused").code(), tonic::Code::InvalidArgument, "{bad:?}");
        }
        let unknown = pb::CreateGameRequest { spectator_policy: 42, ..Default::default() };
        assert!(Requested::parse(&unknown).is_err());
    }

    #[test]
    fn a_summary_gives_the_settings_back() {
        for s in [
            Spectating { policy: Policy::Public, delay: 0 },
            Spectating { policy: Policy::Delayed, delay: 7 },
            Spectating { policy: Policy::Team, delay: 0 },
        ] {
            let summary = pb::GameSummary {
                spectator_policy: s.policy.to_wire() as i32,
                spectator_delay: s.delay,
                ..Default::default()
            };
            assert_eq!(Spectating::from_summary(&summary), Some(s));
        }
        assert_eq!(Spectating::from_summary(&pb::GameSummary::default()), None, "stored before policies");
    }
}
