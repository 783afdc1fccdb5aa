//! The `--fill` daemon: watches the lobby and plays every seat open to AI
//! agents, in every game, one task per seat, and stands in for idle human
//! seats until their holder returns. A seat that another agent
//! claims first is simply dropped; when a seat's game ends or the seat is
//! lost, its slot frees up. The lobby stream is re-opened with backoff
//! after a server restart or a cut (its opening snapshot lists every game
//! again, so nothing is missed).

use super::backoff::Backoff;
use super::claims::Claims;
use super::seat::{SeatEnd, connect, endpoint, play_seat};
use super::{AgentConfig, AgentError};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use xodus::pb;

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

/// Runs the daemon until the process stops.
pub async fn run(cfg: Arc<AgentConfig>, fill: FillConfig, claims: Claims) -> Result<(), AgentError> {
    let ep = endpoint(&cfg.server)?;
    let running: Arc<Mutex<HashSet<(String, u32)>>> = Arc::new(Mutex::new(HashSet::new()));
    let mut backoff = Backoff::default();
    loop {
        let mut client = connect(&ep, &mut backoff).await;
        let mut stream = match client.watch_lobby(pb::WatchLobbyRequest {}).await {
            Ok(s) => s.into_inner(),
            Err(s) => {
                let d = backoff.delay();
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
                        break;
                    }
                },
                _ = rescan.tick() => open_games(&mut client).await,
            };
            for game in games {
                start_tasks(&cfg, &fill, &running, &claims, &game);
            }
        }
        tokio::time::sleep(backoff.delay()).await;
    }
}

/// Every game with an open seat, page by page (what a rescan could list;
/// a failed page ends the rescan early, the next one tries again).
async fn open_games(client: &mut xodus::GameServiceClient<tonic::transport::Channel>) -> Vec<pb::GameSummary> {
    let mut games = Vec::new();
    let mut page_token = String::new();
    loop {
        let req = pb::ListGamesRequest { status: 0, only_open_seats: true, page_size: 1000, page_token };
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

/// Starts a seat task for each seat of `game` the daemon wants and does
/// not play yet.
fn start_tasks(
    cfg: &Arc<AgentConfig>,
    fill: &FillConfig,
    running: &Arc<Mutex<HashSet<(String, u32)>>>,
    claims: &Claims,
    game: &pb::GameSummary,
) {
    {
        for seat in game.seats.iter().filter(|s| wants(game, s, fill)) {
            let key = (game.game_id.clone(), seat.seat);
            {
                let Ok(mut set) = running.lock() else { continue };
                if set.contains(&key) || (fill.max_seats > 0 && set.len() >= fill.max_seats) {
                    continue;
                }
                set.insert(key.clone());
            }
            let (cfg, running, claims) = (cfg.clone(), running.clone(), claims.clone());
            tokio::spawn(async move {
                let end = play_seat(cfg, key.0.clone(), key.1, None, claims).await;
                match end {
                    Ok(SeatEnd::Finished { won, cause }) => {
                        tracing::info!(game = %key.0, seat = key.1, won, %cause, "game over")
                    }
                    Ok(SeatEnd::Lost(why)) => tracing::info!(game = %key.0, seat = key.1, %why, "seat not ours"),
                    Err(e) => tracing::warn!(game = %key.0, seat = key.1, error = %e, "seat task failed"),
                }
                if let Ok(mut set) = running.lock() {
                    set.remove(&key);
                }
            });
        }
    }
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
