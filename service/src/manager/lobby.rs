//! The lobby: creating and forking games (with the caps that bound them),
//! listing them page by page, and their history. The creator of a game gets
//! a creator token: the only credential that reads the seed of a live game
//! or forks it exactly. Anyone else's fork of a live game is resampled.

use super::index::Brief;
use super::{GameData, Manager, Slot, blocking};
use crate::error::ServiceError;
use crate::game::{Seat, Viewer};
use crate::model::{
    EntryRecord, GameRecord, OpenTo, Resample, SeatRecord, Status, hash_token, new_game_id, new_token, now_ms,
};
use crate::replay::Recipe;
use crate::wire;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tabletop::pb;
use tracing::info;

/// Default and largest ListGames page.
const DEFAULT_PAGE: usize = 100;
const MAX_PAGE: usize = 1000;

/// One page of ListGames.
pub struct Page {
    /// The games, oldest first.
    pub games: Vec<pb::GameSummary>,
    /// The token of the next page; empty on the last.
    pub next_page_token: String,
}

/// A ListGames page token: the (creation stamp, id) of the last game sent,
/// as text. Opaque to clients.
fn token_after(g: &pb::GameSummary) -> String {
    format!("after:{}:{}", g.created_unix_ms, g.game_id)
}

fn parse_page_token(token: &str) -> Result<Option<(i64, String)>, ServiceError> {
    if token.is_empty() {
        return Ok(None);
    }
    let bad = || {
        ServiceError::BadRequest(format!(
            "page_token '{}' was not made by this server; send the next_page_token of the previous reply",
            token.chars().take(60).collect::<String>()
        ))
    };
    let rest = token.strip_prefix("after:").ok_or_else(bad)?;
    let (ms, id) = rest.split_once(':').ok_or_else(bad)?;
    Ok(Some((ms.parse().map_err(|_| bad())?, id.to_string())))
}

impl Manager {
    /// The creation stamp for a new game: now, or one past the last stamp
    /// when the clock has not moved on (or went back).
    fn next_creation_stamp(&self) -> i64 {
        let now = now_ms();
        let previous = self
            .last_created_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| Some(now.max(last.saturating_add(1))))
            .unwrap_or_else(|last| last);
        now.max(previous.saturating_add(1))
    }

    /// Takes one place under `max_games` (live games), or refuses.
    fn reserve_live_game(&self) -> Result<(), ServiceError> {
        let max = self.limits.max_games;
        self.live_games
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < max).then_some(n + 1))
            .map(|_| ())
            .map_err(|_| {
                ServiceError::OverLimit(format!("the server hosts its maximum of {max} live games; try later"))
            })
    }

    /// Hosts a new game (a fresh one, or a fork with initial entries);
    /// returns its summary for the creator and the creator token.
    #[allow(clippy::too_many_arguments)]
    async fn host(
        &self,
        client: Option<IpAddr>,
        recipe: Recipe,
        seats: Vec<OpenTo>,
        idle_timeout_s: u32,
        entries: Vec<EntryRecord>,
        forked_from: Option<(String, u64)>,
        clock: Option<crate::clock::ClockRecord>,
        spectating: super::spectators::Requested,
    ) -> Result<(pb::GameSummary, String), ServiceError> {
        let (game, steps) = recipe.replay(&entries).map_err(ServiceError::BadRequest)?;
        let spectating = spectating.resolve(game.as_ref())?;
        if game.outcome().is_some() {
            return Err(ServiceError::NotNow("the game would be over at its start; fork at an earlier seq".into()));
        }
        self.reserve_live_game()?;
        if let Err(e) = self.caps.count_game(client, self.limits.max_games_per_client) {
            self.live_games.fetch_sub(1, Ordering::SeqCst);
            return Err(e);
        }
        let creator_token = new_token();
        let record = GameRecord {
            id: new_game_id(),
            game_type: recipe.game_type.name().to_string(),
            config_json: recipe.config_json.clone(),
            created_ms: self.next_creation_stamp(),
            status: Status::Open,
            forked_from,
            idle_timeout_s,
            seats: seats
                .into_iter()
                .enumerate()
                .map(|(i, open_to)| SeatRecord { seat: i as Seat, open_to, claim: None })
                .collect(),
            creator_hash: Some(hash_token(&creator_token)),
            ended_ms: None,
            resamples: recipe.resamples.clone(),
            seed_chosen: recipe.seed_chosen,
            clock,
        };
        let mut data = GameData::new(record, recipe, game, entries, steps);
        data.creator_ip = client;
        data.last_move_ms = data.record.created_ms;
        data.spectating.set(spectating);
        let stored = {
            let (store, record, entries) = (Arc::clone(&self.store), data.record.clone(), data.entries.clone());
            blocking(move || store.create_game(&record, &entries)).await
        };
        if let Err(e) = stored {
            self.game_ended(&data);
            return Err(e);
        }
        // The spectator policy lives in the stored summary: durable before
        // the game is acknowledged, unless it is the game's default (which
        // a game without a stored summary gets back anyway).
        if spectating != super::spectators::Spectating::default_for(data.game.as_ref()) {
            let public = data.summary();
            let bytes = prost::Message::encode_to_vec(&public);
            let done = self.store.put_summary(&data.record.id, bytes, public.seq, data.last_move_ms);
            let committed = match done.await {
                Ok(r) => r.map_err(ServiceError::from),
                Err(_) => Err(ServiceError::Internal("the store dropped the game's summary".into())),
            };
            if let Err(e) = committed {
                self.game_ended(&data);
                let (store, id) = (Arc::clone(&self.store), data.record.id.clone());
                drop(blocking(move || store.delete_game(&id)).await);
                return Err(e);
            }
        }
        let summary = data.summary_for(true);
        let id = data.record.id.clone();
        info!(game = %id, forked_from = ?data.record.forked_from, resampled = !data.record.resamples.is_empty(),
              seq = summary.seq, "game created");
        let public = data.summary();
        self.games.write().unwrap_or_else(|e| e.into_inner()).insert(id.clone(), Arc::new(Slot::new(id, data)));
        self.announce(pb::LobbyChange::Created, public);
        Ok((summary, creator_token))
    }

    /// The public summaries of `games`: live for those in memory, as last
    /// stored for the others.
    pub(super) async fn summaries(&self, games: Vec<(String, Brief)>) -> Vec<pb::GameSummary> {
        let mut out = Vec::with_capacity(games.len());
        for (id, brief) in games {
            let slot = self.games.read().unwrap_or_else(|e| e.into_inner()).get(&id).cloned();
            match slot {
                Some(slot) => {
                    let d = slot.data.lock().await;
                    out.push(if d.evicted { brief.summary(&id) } else { d.summary() });
                }
                None => out.push(brief.summary(&id)),
            }
        }
        out
    }
}

impl super::api::Lobby<'_> {
    /// CreateGame: the summary (with the seed) and the creator token.
    pub async fn create_game(
        &self,
        client: Option<IpAddr>,
        req: &pb::CreateGameRequest,
    ) -> Result<(pb::GameSummary, String), ServiceError> {
        let game_type = self.registry.for_request(req).map_err(ServiceError::BadRequest)?;
        let drawn = rand::random();
        let setup = game_type.setup(req, drawn).map_err(|e| ServiceError::BadRequest(e.to_string()))?;
        let seats = wire::seats(&req.seats, setup.seats)?;
        // A stored seed other than the one drawn here came from the request.
        let seed_chosen = crate::game::seed_of(&setup.config_json) != drawn;
        if seed_chosen && self.limits.refuse_chosen_seeds {
            return Err(ServiceError::NotNow(
                "this server refuses chosen seeds (--refuse-chosen-seeds): a game whose creator picks the seed \
                 is only as secret as that seed; leave the seed unset and the server draws a secret one"
                    .into(),
            ));
        }
        let clock = crate::clock::ClockRecord::from_wire(req.clock.as_ref(), game_type.cooperative())
            .map_err(ServiceError::BadRequest)?;
        let recipe = Recipe { game_type, config_json: setup.config_json, resamples: Vec::new(), seed_chosen };
        let spectating = super::spectators::Requested::parse(req)?;
        self.host(client, recipe, seats, self.limits.idle_timeout_s, Vec::new(), None, clock, spectating).await
    }

    /// ForkGame: exact for the creator or over a finished game, resampled
    /// otherwise (always, under `refuse_chosen_seeds`). Returns the fork's
    /// summary and its creator token.
    #[cfg(test)]
    pub async fn fork_game(
        &self,
        client: Option<IpAddr>,
        source: &str,
        at_seq: u64,
        seats: &[i32],
        creator_token: &str,
    ) -> Result<(pb::GameSummary, String), ServiceError> {
        self.fork_game_as(client, source, at_seq, seats, creator_token, None).await
    }

    /// ForkGame by a seat of the source (`creds`) or a spectator (`None`,
    /// held to the spectator policy's delay while the source is live).
    pub async fn fork_game_as(
        &self,
        client: Option<IpAddr>,
        source: &str,
        at_seq: u64,
        seats: &[i32],
        creator_token: &str,
        creds: Option<&super::Credentials>,
    ) -> Result<(pb::GameSummary, String), ServiceError> {
        let (recipe, entries, open, idle_timeout_s, clock, spectating) = {
            let (_, mut d) = self.game(source).await?;
            if at_seq > d.seq() {
                return Err(ServiceError::BeyondHistory(format!(
                    "at_seq {at_seq} is beyond game {source}, which is at seq {}",
                    d.seq()
                )));
            }
            let creator = d.is_creator(creator_token)?;
            let viewer = self.viewer(&mut d, creds)?;
            d.check_visible(viewer, at_seq, "at_seq")?;
            let spectating = super::spectators::Requested::from(d.spectator_settings());
            // The state at `at_seq` is this game's own only from its last
            // resampling on; before it, it is another game's hidden part.
            let own = d.recipe.resamples.iter().all(|r| r.at_seq <= at_seq);
            let mut recipe = d.recipe.up_to(at_seq);
            let creator = creator && d.creator_may_know_the_seed();
            // A server that refuses chosen seeds refuses known ones too: an
            // exact fork would run on a seed its creator (or, the source
            // being over, anyone) can read, so every fork is resampled.
            if self.limits.refuse_chosen_seeds || !((creator || d.is_over()) && own) {
                recipe.resamples.push(Resample { at_seq, seed: rand::random() });
            } else if d.is_over() {
                // An exact fork of a finished game runs on a seed anyone
                // can read: flagged like a chosen one.
                recipe.seed_chosen = true;
            }
            let open: Vec<OpenTo> = d.record.seats.iter().map(|s| s.open_to).collect();
            // The fork keeps the source's clock rules, afresh.
            let clock = d.record.clock.clone().map(|c| crate::clock::ClockRecord {
                started_ms: None,
                forfeited: Vec::new(),
                ..c
            });
            (recipe, d.entries[..at_seq as usize].to_vec(), open, d.record.idle_timeout_s, clock, spectating)
        };
        let seats = if seats.is_empty() {
            open
        } else {
            let n = open.len();
            wire::seats(seats, n)?
        };
        let now = now_ms();
        let entries = entries.into_iter().map(|e| EntryRecord { at_ms: now, ..e }).collect();
        let forked_from = Some((source.to_string(), at_seq));
        self.host(client, recipe, seats, idle_timeout_s, entries, forked_from, clock, spectating).await
    }

    /// ListGames, oldest first, one page.
    pub async fn list_games(
        &self,
        status: Option<Status>,
        only_open_seats: bool,
        page_size: u32,
        page_token: &str,
    ) -> Result<Page, ServiceError> {
        let after = parse_page_token(page_token)?;
        let size = match page_size as usize {
            0 => DEFAULT_PAGE,
            n => n.min(MAX_PAGE),
        };
        let keep = |b: &super::index::Brief| status.is_none_or(|s| s == b.status) && (!only_open_seats || b.open);
        let picked = self.index.read().unwrap_or_else(|e| e.into_inner()).page(after.as_ref(), size + 1, keep);
        let out = self.summaries(picked).await;
        let mut out = out;
        let more = out.len() > size;
        out.truncate(size);
        let next_page_token = if more { out.last().map(token_after).unwrap_or_default() } else { String::new() };
        Ok(Page { games: out, next_page_token })
    }

    /// GetCatalog: the content of the game registered as `game_type`.
    pub fn catalog(&self, game_type: &str) -> Result<Vec<pb::CatalogEntry>, ServiceError> {
        let game = self
            .registry
            .get(game_type)
            .ok_or_else(|| ServiceError::UnknownGameType(game_type.chars().take(40).collect()))?;
        Ok(game.catalog())
    }

    /// GetHistory: the summary (with the seed for the creator or once the
    /// game is over) and every entry.
    #[cfg(test)]
    pub async fn history(
        &self,
        game_id: &str,
        creator_token: &str,
    ) -> Result<(pb::GameSummary, Vec<pb::HistoryEntry>), ServiceError> {
        self.history_as(game_id, creator_token, None).await.map(|(game, entries, _)| (game, entries))
    }

    /// GetHistory by a seat (`creds`: its own option ids while the game is
    /// live) or a spectator (`None`: up to the seq the spectator policy
    /// lets it see).
    pub async fn history_as(
        &self,
        game_id: &str,
        creator_token: &str,
        creds: Option<&super::Credentials>,
    ) -> Result<(pb::GameSummary, Vec<pb::HistoryEntry>, Vec<pb::TalkLine>), ServiceError> {
        let (_, mut d) = self.game(game_id).await?;
        let creator = d.is_creator(creator_token)?;
        let viewer = self.viewer(&mut d, creds)?;
        let visible = usize::try_from(d.visible_seq(viewer)).unwrap_or(usize::MAX).min(d.entries.len());
        let own_from = super::replays::own_from(&d.recipe);
        let shown = |e: &EntryRecord| {
            let caller = creds.map(|_| viewer);
            super::replays::id_shown(d.game.as_ref(), d.is_over(), caller, e, own_from)
        };
        // A replay from the start gives each entry the label of the option
        // picked (where its id is shown) and the events the stream sent.
        let internal = |why: String| ServiceError::Internal(format!("replaying the history: {why}"));
        let mut cursor = super::replays::Cursor::at(&d.recipe, &d.entries, 0).map_err(internal)?;
        let mut entries = Vec::with_capacity(visible);
        for e in &d.entries[..visible] {
            let shown = shown(e);
            let label = if shown && e.kind == crate::model::EntryKind::Choice {
                cursor.game.decision().options.into_iter().find(|o| o.id == e.option_id).map(|o| o.label)
            } else {
                None
            };
            let events = cursor.step(&d.recipe, &d.entries).map_err(internal)?;
            entries.push(pb::HistoryEntry { label: label.unwrap_or_default(), events, ..wire::entry(e, shown) });
        }
        // The talk the caller hears, up to what it may see of the game.
        let listener = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let talk =
            d.talk.heard(listener.as_slice(), 0, visible as u64).iter().map(|l| super::talk::wire_line(l)).collect();
        Ok((d.summary_for(creator), entries, talk))
    }
}
