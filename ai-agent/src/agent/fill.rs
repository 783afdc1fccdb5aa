//! The `--fill` daemon: watches the lobby and plays every seat open to AI
//! agents, in every game, one table task per game (`table.rs`: one stream
//! for all the seats it holds there), and stands in for idle human seats
//! until their holder returns. A seat that another agent claims first is
//! simply dropped; when a game ends or its seats are lost, its slots free
//! up. Every table shares the process's few connections, its request
//! schedule and its think slots. The lobby stream is re-opened with
//! backoff after a server restart or a cut (its opening snapshot lists
//! every game again, so nothing is missed).

// The API's request messages grow fields (proto3 adds, never removes):
// every request here spells `..Default::default()` so a new field
// compiles as its default.
#![allow(clippy::needless_update)]

use super::backoff::Backoff;
use super::claims::Claims;
use super::conn::{Client, Pool};
use super::status::SeatEnd;
use super::table::{SeatToPlay, Shared, play_table};
use super::think::Thinkers;
use super::{AgentConfig, AgentError};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tabletop::pb;
use tokio::sync::mpsc;

/// Which seats the daemon takes.
#[derive(Clone, Debug)]
pub struct FillConfig {
    /// Also take seats open to anyone (humans or AI), not only AI seats.
    pub any: bool,
    /// At most this many seats at once (0: no limit).
    pub max_seats: usize,
}

/// Whether the daemon should take this seat.
pub fn wants(game: &pb::GameSummary, seat: &pb::SeatInfo, fill: &FillConfig) -> bool {
    let open = seat.open_to == pb::SeatOpenTo::Ai as i32 || (fill.any && seat.open_to == pb::SeatOpenTo::Any as i32);
    let live = game.status != pb::GameStatus::Finished as i32;
    // A human seat gone idle is offered to AI agents until its holder
    // returns (then the stand-in token stops working and the task ends).
    let idle = seat.idle && !seat.stand_in;
    live && ((open && !seat.claimed) || idle)
}

/// The seats and tables running: seats as (game, seat), tables by game
/// with the way to hand them another seat.
#[derive(Default)]
struct Running {
    seats: HashSet<(String, u32)>,
    tables: HashMap<String, mpsc::UnboundedSender<SeatToPlay>>,
}

/// Runs the daemon until the process stops.
pub async fn run(cfg: Arc<AgentConfig>, fill: FillConfig, claims: Claims) -> Result<(), AgentError> {
    let pool = Pool::new(&cfg)?;
    let shared = Shared {
        thinkers: Thinkers::new(cfg.think_slots()),
        cfg: cfg.clone(),
        pool: pool.clone(),
        claims,
        follows: Default::default(),
    };
    tokio::spawn(super::hints::serve(cfg.clone(), pool.clone(), shared.thinkers.clone()));
    let running: Arc<Mutex<Running>> = Arc::default();
    let mut backoff = Backoff::default();
    loop {
        let (mut client, dialed) = pool.dial("lobby").await;
        pool.pace.wait().await;
        let mut stream = match client.watch_lobby(pb::WatchLobbyRequest { ..Default::default() }).await {
            Ok(s) => s.into_inner(),
            // A refused agent key: no call of this process will pass.
            Err(s) if s.code() == tonic::Code::Unauthenticated => {
                return Err(AgentError::Refused(s.message().to_string()));
            }
            Err(s) => {
                pool.failed(dialed, &s).await;
                let d = if s.code() == tonic::Code::ResourceExhausted {
                    pool.pace.exhausted(backoff.attempt())
                } else {
                    pool.pace.jittered(backoff.delay())
                };
                backoff.bump();
                tracing::warn!(status = %s.message(), "lobby refused; retrying");
                tokio::time::sleep(d).await;
                continue;
            }
        };
        backoff.reset();
        tracing::info!(server = %cfg.server, "watching the lobby");
        // Besides the stream, a periodic rescan of the open games catches
        // seats whose claim raced with another agent and was lost.
        let mut rescan = tokio::time::interval(RESCAN);
        loop {
            let games: Vec<pb::GameSummary> = tokio::select! {
                m = stream.message() => match m {
                    Ok(Some(u)) => u.game.into_iter().collect(),
                    Ok(None) => break,
                    Err(s) => {
                        tracing::warn!(status = %s.message(), "lobby stream broke; reconnecting");
                        pool.failed(dialed, &s).await;
                        break;
                    }
                },
                _ = rescan.tick() => open_games(&pool, &mut client).await,
            };
            for game in games {
                start_tables(&shared, &fill, &running, &game);
            }
        }
        tokio::time::sleep(pool.pace.jittered(backoff.delay())).await;
    }
}

/// Every game with an open seat, page by page (what a rescan could list;
/// a failed page ends the rescan early, the next one tries again).
async fn open_games(pool: &Pool, client: &mut Client) -> Vec<pb::GameSummary> {
    let mut games = Vec::new();
    let mut page_token = String::new();
    loop {
        pool.pace.wait().await;
        let req = pb::ListGamesRequest {
            status: 0,
            only_open_seats: true,
            page_size: 1000,
            page_token,
            ..Default::default()
        };
        let Ok(page) = client.list_games(req).await.map(tonic::Response::into_inner) else { return games };
        games.extend(page.games);
        if page.next_page_token.is_empty() {
            return games;
        }
        page_token = page.next_page_token;
    }
}

/// How often the open games are listed again.
const RESCAN: std::time::Duration = std::time::Duration::from_secs(2);

/// Hands each seat of `game` the daemon wants and does not play yet to the
/// game's table, starting one if the game has none (within the stream
/// budget: one stream per table, one for the lobby).
fn start_tables(sh: &Shared, fill: &FillConfig, running: &Arc<Mutex<Running>>, game: &pb::GameSummary) {
    for seat in game.seats.iter().filter(|s| wants(game, s, fill)) {
        let key = (game.game_id.clone(), seat.seat);
        let Ok(mut r) = running.lock() else { return };
        if r.seats.contains(&key) || (fill.max_seats > 0 && r.seats.len() >= fill.max_seats) {
            continue;
        }
        if let Some(table) = r.tables.get(&key.0) {
            if table.send((key.1, None)).is_ok() {
                r.seats.insert(key);
            }
            continue;
        }
        if r.tables.len() + 1 >= sh.cfg.max_streams.max(2) {
            // At the table budget: left to another agent, or for later.
            at_table_budget(sh.cfg.max_streams);
            continue;
        }
        let (tx, rx) = mpsc::unbounded_channel();
        r.tables.insert(key.0.clone(), tx);
        r.seats.insert(key.clone());
        drop(r);
        let (sh, running) = (sh.clone(), running.clone());
        tokio::spawn(async move {
            let game_id = key.0.clone();
            let seat_ended = {
                let (running, game_id) = (running.clone(), game_id.clone());
                move |seat: u32, end: &SeatEnd| {
                    tracing::info!(game = %game_id, seat, end = ?end, "seat done");
                    if let Ok(mut r) = running.lock() {
                        r.seats.remove(&(game_id.clone(), seat));
                    }
                }
            };
            match play_table(sh, game_id.clone(), (key.1, None), rx, seat_ended).await {
                Ok(end) => {
                    for (seat, e) in &end.seats {
                        match e {
                            SeatEnd::Finished { won, cause } => {
                                tracing::info!(game = %game_id, seat, won, %cause, "game over")
                            }
                            SeatEnd::Lost(why) => tracing::info!(game = %game_id, seat, %why, "seat not ours"),
                        }
                    }
                }
                Err(e) => tracing::warn!(game = %game_id, error = %e, "table task failed"),
            }
            if let Ok(mut r) = running.lock() {
                r.tables.remove(&game_id);
                r.seats.retain(|(g, _)| g != &game_id);
            }
        });
    }
}

/// Says, at most once a minute, that tables wait because the agent plays
/// as many as `--max-streams` allows.
fn at_table_budget(max: usize) {
    static LAST: Mutex<Option<std::time::Instant>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if last.is_some_and(|t| t.elapsed() < std::time::Duration::from_secs(60)) {
        return;
    }
    *last = Some(std::time::Instant::now());
    tracing::warn!(
        max,
        "playing as many tables as --max-streams allows: more wait for another agent; raise --max-streams"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(status: pb::GameStatus, seats: Vec<(pb::SeatOpenTo, bool)>) -> pb::GameSummary {
        pb::GameSummary {
            game_id: "g".into(),
            status: status as i32,
            seats: seats
                .into_iter()
                .enumerate()
                .map(|(i, (o, c))| pb::SeatInfo { seat: i as u32, open_to: o as i32, claimed: c, ..Default::default() })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn takes_only_free_ai_seats_of_live_games() {
        let only_ai = FillConfig { any: false, max_seats: 0 };
        let any = FillConfig { any: true, max_seats: 0 };
        let g = game(
            pb::GameStatus::Open,
            vec![
                (pb::SeatOpenTo::Ai, false),
                (pb::SeatOpenTo::Ai, true),
                (pb::SeatOpenTo::Human, false),
                (pb::SeatOpenTo::Any, false),
            ],
        );
        let taken: Vec<bool> = g.seats.iter().map(|s| wants(&g, s, &only_ai)).collect();
        assert_eq!(taken, vec![true, false, false, false]);
        let taken: Vec<bool> = g.seats.iter().map(|s| wants(&g, s, &any)).collect();
        assert_eq!(taken, vec![true, false, false, true]);
        let mut idle =
            game(pb::GameStatus::Playing, vec![(pb::SeatOpenTo::Human, true), (pb::SeatOpenTo::Human, true)]);
        idle.seats[0].idle = true;
        idle.seats[1].idle = true;
        idle.seats[1].stand_in = true;
        assert!(wants(&idle, &idle.seats[0], &only_ai), "an idle human seat is stood in for");
        assert!(!wants(&idle, &idle.seats[1], &only_ai), "someone already stands in");
        let over = game(pb::GameStatus::Finished, vec![(pb::SeatOpenTo::Ai, false)]);
        assert!(!wants(&over, &over.seats[0], &any));
    }
}
