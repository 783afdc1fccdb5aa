//! `xodus watch`: spectate a game, or with no game start a fresh all-AI
//! game (X-ODUS, or VII Legio with `--game legio`; on a local server
//! unless --server is given) and watch it to the end, then print the
//! result. Any game can be watched: as lines, or on X-ODUS's screen, or
//! on VII Legio's (which shows other games from their decision and log).

use super::{new_game, seat_count, session};
use anyhow::Context;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use xodus_cli::cli::WatchArgs;
use xodus_cli::games;
use xodus_cli::procs::{self, Guard};
use xodus_cli::remote::Remote;

/// Default server for watching a named game.
const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// A temporary data directory removed on drop.
struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `xodus watch`.
pub async fn run(a: WatchArgs) -> anyhow::Result<()> {
    let plain = a.plain || !std::io::stdout().is_terminal();
    // Locals drop in reverse order: on an early return the AI captains stop
    // first, then the server, then its directory goes.
    let mut _temp: Option<TempDir> = None;
    let mut _server: Option<Guard> = None;
    let mut ais: Vec<Guard> = Vec::new();
    let (remote, game, ai_seats) = match a.game {
        Some(game) => {
            let url = a.server.as_deref().unwrap_or(DEFAULT_SERVER);
            (Remote::connect(url).await?, game, Vec::new())
        }
        None => {
            let seats: Vec<u8> = (0..seat_count(&a.setup, &a.game_type)).collect();
            let req = new_game(&a.setup, &a.game_type, seats.clone())?;
            let url = match a.server {
                Some(u) => u,
                None => {
                    let dir = match a.data_dir {
                        Some(d) => d,
                        None => {
                            let d = std::env::temp_dir().join(format!("xodus-watch-{}", std::process::id()));
                            _temp = Some(TempDir(d.clone()));
                            d
                        }
                    };
                    eprintln!("starting a local xodus-server in {}", dir.display());
                    let (guard, url) = procs::start_server(&dir)?;
                    _server = Some(guard);
                    url
                }
            };
            let remote = Remote::connect(&url).await?;
            let game = remote.create(&req).await.context("creating the game")?;
            let who = games::holders(req.game_type());
            eprintln!("game {game}: {} AI {who}", seats.len());
            let agent_args = a.ai.agent_args();
            for s in &seats {
                ais.push(procs::start_ai(&url, &game, *s, None, &agent_args, None)?);
            }
            (remote, game, seats)
        }
    };
    let outcome = if plain {
        session::plain(remote, game.clone()).await?.outcome
    } else {
        let pace = std::time::Duration::from_millis(a.pace_ms);
        let children = std::mem::take(&mut ais);
        session::screen(remote, game.clone(), HashMap::new(), None, ai_seats, pace, children).await?
    };
    procs::stop_all(ais);
    match outcome {
        Some(o) => session::say(&session::result_line(&game, &o)),
        None => session::say(&format!("left game {game} before its end")),
    }
    Ok(())
}
