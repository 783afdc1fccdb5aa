//! `xodus play`: one command to a game in this terminal. Without --server
//! it starts a local `xodus-server` on a data directory, creates a game
//! (X-ODUS, or VII Legio with `--game legio`), claims the person's seats,
//! starts `xodus-ai` players for the others and opens the game's screen;
//! every child process stops when it closes. The seats are saved in the
//! data directory, so `--resume` takes an unfinished game back (its type
//! is asked of the server); `--web` serves the browser front-end instead.

use super::{new_game, seat_count, session, usage, web};
use anyhow::{Context, bail};
use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal;
use std::path::PathBuf;
use xodus_cli::cli::PlayArgs;
use xodus_cli::games;
use xodus_cli::procs::{self, Guard};
use xodus_cli::remote::{Remote, RemoteError};
use xodus_cli::saved::{self, SavedGame};

/// Runs `xodus play`.
pub async fn run(a: PlayArgs) -> anyhow::Result<()> {
    if a.web {
        return web::run(a).await;
    }
    // --game names a game to create (a type) or one to join (an id).
    let (game_type, join) = match a.game.as_deref() {
        Some(t) if !games::is_game_id(t) => (t.to_string(), None),
        Some(id) => (games::default_type().to_string(), Some(id.to_string())),
        None => (games::default_type().to_string(), None),
    };
    if join.is_some() && a.server.is_none() {
        usage!("--game {} needs --server (the server that hosts the game)", join.unwrap_or_default());
    }
    if let Some(g) = games::game(&game_type).filter(|g| g.private_hands())
        && a.seats.len() > 1
    {
        usage!("{} hides each seat's secrets: one seat per terminal (--seats N)", g.title());
    }
    if !std::io::stdout().is_terminal() {
        bail!("`xodus play` needs a terminal; scripts can use `xodus create`, `join` and `act`");
    }
    let resumed = if a.resume { Some(saved::load(&a.data_dir)?) } else { None };
    if resumed.is_none()
        && a.game.is_none()
        && let Ok(old) = saved::load(&a.data_dir)
    {
        eprintln!("note: game {} is unfinished; `xodus play --resume` takes it back", old.game);
    }
    let server_url = resumed.as_ref().map(|r| r.server.clone()).filter(|s| !s.is_empty()).or(a.server.clone());
    // Locals drop in reverse order: on an early return the AI captains stop
    // before the server they talk to.
    let mut _server: Option<Guard> = None;
    let mut ais: Vec<Guard> = Vec::new();
    let url = match &server_url {
        Some(u) => u.clone(),
        None => {
            eprintln!("starting a local xodus-server in {}", a.data_dir.display());
            let (guard, url) =
                procs::start_server_with(&a.data_dir, a.listen.as_deref().unwrap_or(procs::ANY_PORT), &[])?;
            _server = Some(guard);
            url
        }
    };
    let remote = Remote::connect(&url).await?;
    let (game, tokens, ai_seats, ai_tokens) = match resumed {
        Some(r) => {
            let seats = take_back(&remote, &r.game, &r.seats, false).await?;
            let ai_tokens = take_back(&remote, &r.game, &r.ai_tokens, true).await?;
            eprintln!("resuming game {}", r.game);
            (r.game, seats.into_iter().collect::<HashMap<_, _>>(), r.ai_seats, ai_tokens)
        }
        None => {
            let mut ai_seats = Vec::new();
            let game = match &join {
                Some(g) => g.clone(),
                None => {
                    let count = seat_count(&a.setup, &game_type);
                    if let Some(bad) = a.seats.iter().find(|s| **s >= count) {
                        usage!("--seats names seat {bad}, but a {count}-seat game has seats 0 to {}", count - 1);
                    }
                    if !a.no_ai {
                        ai_seats = (0..count).filter(|s| !a.seats.contains(s)).collect();
                    }
                    let req = new_game(&a.setup, &game_type, ai_seats.clone())?;
                    remote.create(&req).await.context("creating the game")?
                }
            };
            let mut tokens = HashMap::new();
            for s in &a.seats {
                let token = remote.join(&game, *s).await.with_context(|| format!("claiming seat {s}"))?;
                tokens.insert(*s, token);
            }
            // The AI captains' seats are claimed here and their tokens kept,
            // so that the captains `--resume` starts hold the same seats (a
            // captain that claimed its own seat would take its token with it).
            let mut ai_tokens = BTreeMap::new();
            for s in &ai_seats {
                let token =
                    remote.claim_for_ai(&game, *s).await.with_context(|| format!("claiming seat {s} for an AI"))?;
                ai_tokens.insert(*s, token);
            }
            (game, tokens, ai_seats, ai_tokens)
        }
    };
    let keep = SavedGame {
        game: game.clone(),
        server: a.server.clone().unwrap_or_default(),
        seats: tokens.iter().map(|(s, t)| (*s, t.clone())).collect::<BTreeMap<_, _>>(),
        ai_seats: ai_seats.clone(),
        ai_tokens: ai_tokens.clone(),
    };
    if let Err(e) = saved::save(&a.data_dir, &keep) {
        eprintln!("warning: the seats could not be saved for --resume: {e}");
    }
    let agent_args = a.ai.agent_args();
    for s in &ai_seats {
        let log = a.data_dir.join(format!("ai-{game}-seat{s}.log"));
        let log = if server_url.is_none() { Some(log.as_path()) } else { None };
        let token = ai_tokens.get(s).map(String::as_str);
        ais.push(procs::start_ai(&url, &game, *s, token, &agent_args, log)?);
    }
    let pace = std::time::Duration::from_millis(a.pace_ms);
    let left = forget_left_seats(a.data_dir.clone(), keep);
    let outcome = session::screen(remote, game.clone(), tokens, Some(left), ai_seats, pace, ais).await?;
    match outcome {
        Some(o) => {
            saved::clear(&a.data_dir);
            session::say(&session::result_line(&game, &o))
        }
        None if server_url.is_none() => session::say(&format!(
            "left game {game}; it is saved in {}: `xodus play --resume` takes it back",
            a.data_dir.display()
        )),
        None => session::say(&format!(
            "left game {game}; it stays on the server at {url}: `xodus play --resume` takes it back"
        )),
    }
    Ok(())
}

/// Takes the saved seats of `game` back with their tokens (the AI seats'
/// tokens are only checked: their captains claim them). A seat whose token
/// is refused (given back, or its hold ran out) is claimed afresh if it is
/// open, else left out with a note: the screen watches it.
async fn take_back(
    remote: &Remote,
    game: &str,
    saved: &BTreeMap<u8, String>,
    ai: bool,
) -> anyhow::Result<BTreeMap<u8, String>> {
    let mut held = BTreeMap::new();
    for (seat, token) in saved {
        let seat = *seat;
        let check = if ai {
            remote.state(game, Some((seat, token))).await.map(|_| ())
        } else {
            remote.reclaim(game, seat, token).await
        };
        match check {
            Ok(()) => {
                held.insert(seat, token.clone());
            }
            Err(RemoteError::Refused(why)) => {
                let fresh = if ai { remote.claim_for_ai(game, seat).await } else { remote.join(game, seat).await };
                match fresh {
                    Ok(token) => {
                        eprintln!("seat {seat}: its saved token was refused ({why}); claimed it afresh");
                        held.insert(seat, token);
                    }
                    Err(e) => eprintln!("seat {seat}: its saved token was refused ({why}) and it is taken ({e})"),
                }
            }
            Err(e) => return Err(e).with_context(|| format!("taking back seat {seat}")),
        }
    }
    Ok(held)
}

/// Once the screen gives seats back, `--resume` must not ask for them
/// again: they leave the saved game at once.
fn forget_left_seats(data_dir: PathBuf, mut kept: SavedGame) -> session::LeaveHook {
    Box::new(move |seats: &[u8]| {
        kept.seats.retain(|s, _| !seats.contains(s));
        if let Err(e) = saved::save(&data_dir, &kept) {
            tracing::warn!("the saved game could not forget the seats left: {e}");
        }
    })
}
