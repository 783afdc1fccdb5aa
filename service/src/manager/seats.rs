//! Seats: claiming (and reclaiming with a held token), releasing, idle
//! holders' stand-ins, and checking a seat's token on every request made
//! as that seat. Only the SHA-256 of a token is ever kept.

use super::{GameData, Manager, blocking};
use crate::error::ServiceError;
use crate::game::{Seat, Viewer};
use crate::model::{Claim, ClaimantKind, Presence, SeatRecord, hash_token, new_token};
use tabletop::pb;
use tracing::info;

/// A seat and its token, as sent by a client.
#[derive(Clone, Debug)]
pub struct Credentials {
    /// Seat number.
    pub seat: u32,
    /// Secret token.
    pub token: String,
}

impl From<pb::SeatCredentials> for Credentials {
    fn from(c: pb::SeatCredentials) -> Credentials {
        Credentials { seat: c.seat, token: c.token }
    }
}

/// Who presented a seat's token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Holder {
    /// The seat's holder.
    Owner,
    /// An AI agent standing in for an idle holder.
    StandIn,
}

impl GameData {
    /// The seat index of `seat`, or INVALID_ARGUMENT naming the range.
    fn seat_index(&self, seat: u32) -> Result<usize, ServiceError> {
        let n = self.record.seats.len();
        usize::try_from(seat).ok().filter(|&s| s < n).ok_or_else(|| {
            ServiceError::BadRequest(format!("seat {seat} does not exist; this game has seats 0 to {}", n - 1))
        })
    }

    /// Checks seat number and token; returns the seat, who presented the
    /// token, and whether an idle holder just came back.
    fn authenticate(&mut self, creds: &Credentials) -> Result<(Seat, Holder, bool), ServiceError> {
        let seat = self.seat_index(creds.seat)?;
        if creds.token.is_empty() {
            return Err(ServiceError::BadCredentials(format!(
                "missing token for seat {seat}; claim the seat first and send its token"
            )));
        }
        let hash = hash_token(&creds.token);
        let presence = &mut self.presence[seat];
        let result = match &self.record.seats[seat].claim {
            None if presence.released.as_deref() == Some(hash.as_str()) => Err(ServiceError::BadCredentials(format!(
                "seat {seat} was released with this token, which no longer works; the seat is free: \
                     claim it afresh with ClaimSeat and no token"
            ))),
            None => Err(ServiceError::BadCredentials(format!(
                "seat {seat} is free (nobody holds it, so no token works for it): claim it with ClaimSeat and no token"
            ))),
            Some(c) if c.token_hash == hash => {
                presence.since = tokio::time::Instant::now();
                let returned = presence.idle;
                presence.idle = false;
                if let Some(stand_in) = presence.stand_in.take() {
                    presence.dismissed = Some(stand_in);
                }
                Ok((seat as Seat, Holder::Owner, returned))
            }
            Some(_) if presence.idle && presence.stand_in.as_deref() == Some(hash.as_str()) => {
                // Heard from: the stand-in's own lease (see upkeep).
                presence.since = tokio::time::Instant::now();
                Ok((seat as Seat, Holder::StandIn, false))
            }
            Some(_) if presence.dismissed.as_deref() == Some(hash.as_str()) => Err(ServiceError::BadCredentials(
                format!("this stand-in token for seat {seat} stopped working when the seat's holder returned"),
            )),
            Some(_) => Err(ServiceError::BadCredentials(format!(
                "wrong token for seat {seat}: it is not the token ClaimSeat gave for this seat"
            ))),
        };
        if let Ok((back, Holder::Owner, true)) = result {
            self.hand_back_clock(back);
        }
        result
    }
}

impl GameData {
    /// A holder back from a stand-in gets at least the clock's grace, so
    /// that its first decision is not out of time at once.
    fn hand_back_clock(&mut self, seat: Seat) {
        let (Some(rec), Some(clocks)) = (self.record.clock.as_ref(), self.clocks.as_mut()) else { return };
        let now = crate::model::now_ms();
        let running = crate::clock::Clocks::running(rec, &self.deciders) == Some(seat);
        let left = clocks.remaining(seat, running, now);
        if let Some(bank) = clocks.banks.get_mut(usize::from(seat)) {
            *bank = rec.hand_back(left);
        }
        if running {
            clocks.turn_started_ms = now;
        }
    }
}

impl Manager {
    /// Checks a seat's token (see `GameData::authenticate`) and announces
    /// an idle holder's return.
    pub(super) fn auth(&self, d: &mut GameData, creds: &Credentials) -> Result<(Seat, Holder), ServiceError> {
        let (seat, holder, returned) = d.authenticate(creds)?;
        if returned {
            info!(game = %d.record.id, seat, "idle seat's holder is back; stand-in dismissed");
            self.announce(pb::LobbyChange::Seat, d.summary());
        }
        Ok((seat, holder))
    }

    /// The viewer for optional credentials.
    pub(super) fn viewer(&self, d: &mut GameData, creds: Option<&Credentials>) -> Result<Viewer, ServiceError> {
        Ok(self.viewer_and_holder(d, creds)?.0)
    }

    /// The viewer for optional credentials, and whether they are the
    /// seat holder's own (not a stand-in's).
    pub(super) fn viewer_and_holder(
        &self,
        d: &mut GameData,
        creds: Option<&Credentials>,
    ) -> Result<(Viewer, bool), ServiceError> {
        Ok(match creds {
            Some(c) => {
                let (seat, holder) = self.auth(d, c)?;
                (Viewer::Seat(seat), holder == Holder::Owner)
            }
            None => (Viewer::Spectator, false),
        })
    }

    /// Starts the clocks the first time every seat is claimed (stored, so
    /// a restart does not start them again).
    async fn start_clocks(&self, game_id: &str, d: &mut GameData) {
        let Some(rec) = d.record.clock.as_mut() else { return };
        if rec.started_ms.is_some() || d.record.status != crate::model::Status::Playing {
            return;
        }
        let now = crate::model::now_ms();
        rec.started_ms = Some(now);
        let (store, id, rec) = (std::sync::Arc::clone(&self.store), game_id.to_string(), rec.clone());
        if let Err(e) = blocking(move || store.set_clock(&id, &rec)).await {
            tracing::warn!(game = %game_id, error = %e, "could not store the clocks' start; they start again at the next load");
        }
        if let Some(clocks) = d.clocks.as_mut() {
            clocks.turn_started_ms = now;
        }
        info!(game = %game_id, "every seat is claimed: the clocks start");
    }

    /// Stores a seat change (and the status it implies), then applies it.
    pub(super) async fn save_seat(
        &self,
        game_id: &str,
        d: &mut GameData,
        seat: SeatRecord,
    ) -> Result<(), ServiceError> {
        let old = std::mem::replace(&mut d.record.seats[usize::from(seat.seat)], seat.clone());
        let status = if d.is_over() { d.record.status } else { d.derived_status() };
        let changed = status != d.record.status;
        let (store, id, ended) = (std::sync::Arc::clone(&self.store), game_id.to_string(), d.record.ended_ms);
        let res = blocking(move || {
            store.put_seat(&id, &seat)?;
            if changed {
                store.set_status(&id, status, ended)?;
            }
            Ok(())
        })
        .await;
        match res {
            Ok(()) => {
                d.record.status = status;
                // A seat that changed hands hears everyone again (its
                // stored mutes name the holder who chose them).
                if old.claim.as_ref().map(|c| &c.token_hash)
                    != d.record.seats[usize::from(old.seat)].claim.as_ref().map(|c| &c.token_hash)
                {
                    d.talk.forget_mutes(old.seat);
                }
                self.start_clocks(game_id, d).await;
                Ok(())
            }
            Err(e) => {
                let i = usize::from(old.seat);
                d.record.seats[i] = old;
                Err(e)
            }
        }
    }
}

impl super::api::Seats<'_> {
    /// ClaimSeat: returns the token and the game after the claim.
    pub async fn claim_seat(
        &self,
        game_id: &str,
        seat: u32,
        claimant: ClaimantKind,
        token: &str,
    ) -> Result<(String, pb::GameSummary), ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        if !token.is_empty() {
            let (seat, _) = self.auth(&mut d, &Credentials { seat, token: token.to_string() })?;
            info!(seat, "seat reclaimed");
            return Ok((token.to_string(), d.summary()));
        }
        let i = d.seat_index(seat)?;
        if d.is_over() {
            return Err(ServiceError::NotNow(format!(
                "game {game_id} is over ({}); its seats can no longer be claimed",
                d.record.status.as_str()
            )));
        }
        let rec = &d.record.seats[i];
        if rec.claim.is_some() {
            let p = &d.presence[i];
            if p.idle && p.stand_in.is_none() && claimant == ClaimantKind::Ai {
                let token = new_token();
                d.presence[i].stand_in = Some(hash_token(&token));
                info!(seat, "AI agent stands in for an idle seat");
                let summary = d.summary();
                self.announce(pb::LobbyChange::Seat, summary.clone());
                return Ok((token, summary));
            }
            return Err(ServiceError::NotNow(format!(
                "seat {seat} is already claimed; to take it back after a disconnect, send its token"
            )));
        }
        if !rec.open_to.admits(claimant) {
            return Err(ServiceError::NotAllowed(format!(
                "seat {seat} is open to {} only, not to a claimant of kind {}",
                rec.open_to.as_str(),
                claimant.as_str()
            )));
        }
        let token = new_token();
        let mut new_seat = rec.clone();
        new_seat.claim = Some(Claim { token_hash: hash_token(&token), by: claimant });
        self.save_seat(&slot.id, &mut d, new_seat).await?;
        // The new holder's idle clock starts now, not when the game was made.
        d.presence[i] = Presence::now();
        info!(seat, claimant = claimant.as_str(), "seat claimed");
        let summary = d.summary();
        self.announce(pb::LobbyChange::Seat, summary.clone());
        Ok((token, summary))
    }

    /// ReleaseSeat.
    pub async fn release_seat(&self, game_id: &str, creds: &Credentials) -> Result<pb::GameSummary, ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let (seat, holder) = self.auth(&mut d, creds)?;
        let i = usize::from(seat);
        if holder == Holder::StandIn {
            d.presence[i].stand_in = None;
            info!(seat, "stand-in left an idle seat");
            let summary = d.summary();
            self.announce(pb::LobbyChange::Seat, summary.clone());
            return Ok(summary);
        }
        let mut new_seat = d.record.seats[i].clone();
        new_seat.claim = None;
        self.save_seat(&slot.id, &mut d, new_seat).await?;
        d.presence[i] = Presence { released: Some(hash_token(&creds.token)), ..Presence::now() };
        info!(seat, "seat released");
        let summary = d.summary();
        self.announce(pb::LobbyChange::Seat, summary.clone());
        Ok(summary)
    }

    /// GetView.
    pub async fn get_view(
        &self,
        game_id: &str,
        creds: Option<&Credentials>,
    ) -> Result<(pb::GameState, pb::GameSummary), ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let viewer = self.viewer(&mut d, creds)?;
        Ok((d.state(&slot.id, viewer), d.summary()))
    }

    /// VoteExpel: a seat's holder votes to expel a rival out of time; the
    /// rival forfeits once a majority of the other seats still in the game
    /// voted. Returns the votes, the votes needed, whether it is expelled,
    /// and the game after the vote.
    pub async fn vote_expel(
        &self,
        game_id: &str,
        creds: &Credentials,
        target: u32,
    ) -> Result<(u32, u32, bool, pb::GameSummary), ServiceError> {
        let (slot, mut d) = self.game(game_id).await?;
        let (voter, holder) = self.auth(&mut d, creds)?;
        if holder != Holder::Owner {
            return Err(ServiceError::NotAllowed(
                "a stand-in cannot vote to expel a seat; only a seat's holder can".into(),
            ));
        }
        let i = d.seat_index(target)?;
        let target = i as Seat;
        if target == voter {
            return Err(ServiceError::BadRequest(format!("seat {voter} cannot vote to expel itself")));
        }
        if d.is_over() {
            return Err(ServiceError::NotNow("the game is over; nobody can be expelled".into()));
        }
        if d.recipe.game_type.cooperative() {
            return Err(ServiceError::NotNow(
                "a cooperative game expels no seat: a seat out of time is stood in for by an AI".into(),
            ));
        }
        let Some(rec) = d.record.clock.clone() else {
            return Err(ServiceError::NotNow(
                "this game has no clock: only a seat whose time ran out can be expelled".into(),
            ));
        };
        if rec.forfeited(target) {
            return Err(ServiceError::NotNow(format!("seat {target} has already forfeited")));
        }
        let out_of_time = d.clocks.as_ref().is_some_and(|c| c.timed_out.get(i).copied().unwrap_or(false));
        if !out_of_time {
            return Err(ServiceError::NotNow(format!("seat {target}'s time has not run out; it cannot be expelled")));
        }
        let others = (0..d.record.seats.len() as Seat).filter(|&s| s != target && !rec.forfeited(s)).count();
        let needed = (others / 2 + 1) as u32;
        let votes = {
            let set = d.expel_votes.entry(target).or_default();
            set.insert(voter);
            set.len() as u32
        };
        info!(game = %slot.id, voter, target, votes, needed, "vote to expel a seat out of time");
        let expelled = votes >= needed;
        if expelled {
            self.forfeit(&slot, &mut d, target, "expelled by its rivals' vote").await?;
        }
        Ok((votes, needed, expelled, d.summary()))
    }
}
