//! `xodus watch`: spectate a game, or with no game start a fresh all-AI
//! game (on a local server unless --server is given) and watch it to the
//! end, then print the result.

use super::{new_game, session};
use anyhow::Context;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use xodus_cli::cli::WatchArgs;
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
    // Field order matters on drop: AI captains first, then the server, then its directory.
    let mut ais: Vec<Guard> = Vec::new();
    let mut _server: Option<Guard> = None;
    let mut _temp: Option<TempDir> = None;
    let (remote, game, ai_seats) = match a.game {
        Some(game) => {
            let url = a.server.as_deref().unwrap_or(DEFAULT_SERVER);
            (Remote::connect(url).await?, game, Vec::new())
        }
        None => {
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
            let seats: Vec<u8> = (0..a.setup.ships.max(a.setup.ship_kinds.len() as u8)).collect();
            let req = new_game(&a.setup, seats.clone())?;
            let game = remote.create(&req).await.context("creating the game")?;
            eprintln!("game {game}: {} AI captains", seats.len());
            let agent_args = a.ai.agent_args();
            for s in &seats {
                ais.push(procs::start_ai(&url, &game, *s, None, &agent_args, None)?);
            }
            (remote, game, seats)
        }
    };
    let outcome = if plain {
        session::plain(remote, game.clone()).await?.public.outcome
    } else {
        let pace = std::time::Duration::from_millis(a.pace_ms);
        let children = std::mem::take(&mut ais);
        session::screen(remote, game.clone(), HashMap::new(), ai_seats, pace, children).await?
    };
    drop(ais);
    match outcome {
        Some(o) => session::say(&session::result_line(&game, &o)),
        None => session::say(&format!("left game {game} before its end")),
    }
    Ok(())
}
