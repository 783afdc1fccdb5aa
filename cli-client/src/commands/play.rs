//! `xodus play`: one command to a game in this terminal. Without --server
//! it starts a local `xodus-server` on a data directory, creates a game,
//! claims the person's seats, starts `xodus-ai` captains for the others
//! and opens the screen; every child process stops when it closes.

use super::{new_game, session};
use anyhow::{Context, bail};
use std::collections::HashMap;
use std::io::IsTerminal;
use xodus_cli::cli::PlayArgs;
use xodus_cli::procs::{self, Guard};
use xodus_cli::remote::Remote;

/// Runs `xodus play`.
pub async fn run(a: PlayArgs) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() {
        bail!("`xodus play` needs a terminal; scripts can use `xodus create`, `join` and `act`");
    }
    if a.game.is_some() && a.server.is_none() {
        bail!("--game needs --server (the server that hosts the game)");
    }
    // Drop order: AI captains first, then the server.
    let mut ais: Vec<Guard> = Vec::new();
    let mut _server: Option<Guard> = None;
    let url = match &a.server {
        Some(u) => u.clone(),
        None => {
            eprintln!("starting a local xodus-server in {}", a.data_dir.display());
            let (guard, url) = procs::start_server(&a.data_dir)?;
            _server = Some(guard);
            url
        }
    };
    let remote = Remote::connect(&url).await?;
    let mut ai_seats = Vec::new();
    let game = match &a.game {
        Some(g) => g.clone(),
        None => {
            let count = if a.setup.ship_kinds.is_empty() { a.setup.ships } else { a.setup.ship_kinds.len() as u8 };
            if let Some(bad) = a.seats.iter().find(|s| **s >= count) {
                bail!("seat {bad} does not exist in a {count}-ship game");
            }
            if !a.no_ai {
                ai_seats = (0..count).filter(|s| !a.seats.contains(s)).collect();
            }
            let req = new_game(&a.setup, ai_seats.clone())?;
            remote.create(&req).await.context("creating the game")?
        }
    };
    let mut tokens = HashMap::new();
    for s in &a.seats {
        let token = remote.join(&game, *s).await.with_context(|| format!("claiming seat {s}"))?;
        tokens.insert(*s, token);
    }
    let agent_args = a.ai.agent_args();
    for s in &ai_seats {
        let log = a.data_dir.join(format!("ai-{game}-seat{s}.log"));
        let log = if a.server.is_none() { Some(log.as_path()) } else { None };
        ais.push(procs::start_ai(&url, &game, *s, &agent_args, log)?);
    }
    let outcome =
        session::screen(remote, game.clone(), tokens, ai_seats, std::time::Duration::from_millis(a.pace_ms), ais)
            .await?;
    match outcome {
        Some(o) => session::say(&session::result_line(&game, &o)),
        None if a.server.is_none() => {
            session::say(&format!("left game {game}; it is saved in {}", a.data_dir.display()))
        }
        None => session::say(&format!("left game {game}; it stays on the server at {url}")),
    }
    Ok(())
}
