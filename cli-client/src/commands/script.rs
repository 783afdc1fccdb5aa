//! The scriptable commands: `create`, `list`, `join`, `act` and `view`.
//! Each makes one or two calls and prints one result on stdout (JSON, a
//! token, or a table) so that shell scripts and tests can drive a game.

use super::new_game;
use serde_json::json;
use xodus_cli::cli::{ActArgs, CreateArgs, JoinArgs, ListArgs, ViewArgs};
use xodus_cli::plain;
use xodus_cli::remote::{Remote, RemoteError};

/// `xodus create`: prints `{"game": ID, ...}`.
pub async fn create(a: CreateArgs) -> anyhow::Result<()> {
    let req = new_game(&a.setup, a.ai_seats.clone())?;
    let remote = Remote::connect(&a.server.server).await?;
    let id = remote.create(&req).await?;
    if a.id_only {
        println!("{id}");
        return Ok(());
    }
    let seats: Vec<u8> = (0..req.ship_count).collect();
    let human: Vec<u8> = seats.iter().copied().filter(|s| !req.ai_seats.contains(s)).collect();
    println!("{}", json!({ "game": id, "human_seats": human, "ai_seats": req.ai_seats }));
    Ok(())
}

/// `xodus list`: a table, or JSON with --json.
pub async fn list(a: ListArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let games = remote.list().await?;
    if a.json {
        println!("{}", serde_json::to_string(&games)?);
        return Ok(());
    }
    if games.is_empty() {
        println!("no games on {}", remote.url());
        return Ok(());
    }
    println!("{:<28} {:<10} {:<9} {:>5} {:<12} ships", "game", "status", "level", "seq", "open seats");
    let marked = games.iter().any(|g| g.seed_chosen);
    for g in games {
        let open: Vec<String> = g.open_seats.iter().map(|s| s.to_string()).collect();
        println!(
            "{:<28} {:<10} {:<9} {:>5} {:<12} {}",
            if g.seed_chosen { format!("{}*", g.id) } else { g.id },
            g.status,
            g.difficulty,
            g.seq,
            if open.is_empty() { "-".into() } else { open.join(",") },
            g.ships.join(",")
        );
    }
    if marked {
        println!("* the creator chose the seed: whoever guesses it can work out every hidden card");
    }
    Ok(())
}

/// `xodus join`: prints the token alone.
pub async fn join(a: JoinArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let token = remote.join(&a.game, a.seat).await?;
    println!("{token}");
    Ok(())
}

/// `xodus act`: prints the new sequence number, the events and the next
/// decision as JSON.
pub async fn act(a: ActArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let expect = match a.expect_seq {
        Some(s) => s,
        None => remote.view(&a.game).await?.public.seq,
    };
    let step = remote.act(&a.game, a.seat, &a.token, &a.option, expect).await?;
    let view = match step.view {
        Some(v) => v,
        None => remote.view(&a.game).await?,
    };
    let out = json!({
        "game": a.game,
        "seat": a.seat,
        "option": a.option,
        "seq": view.public.seq,
        "events": step.events.iter().map(|e| xodus_wire::events::log_line(e, Some(&view.public))).collect::<Vec<_>>(),
        "decision": view.decision,
        "outcome": view.public.outcome,
    });
    println!("{out}");
    Ok(())
}

/// `xodus view`: the view as JSON (or a text report).
pub async fn view(a: ViewArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let view = remote.view(&a.game).await?;
    if a.text {
        print!("{}", plain::report(&a.game, &view));
    } else {
        println!("{}", serde_json::to_string(&view)?);
    }
    Ok(())
}

/// The exit code for an error: the remote error's own, else 1.
pub fn exit_code(e: &anyhow::Error) -> i32 {
    e.downcast_ref::<RemoteError>().map(RemoteError::exit_code).unwrap_or(1)
}
