//! `xodus play --web`: the game in a browser. Starts a local
//! `xodus-server` that also serves the built web front-end on its port,
//! and an `xodus-ai --fill` daemon that takes every seat open to AI; prints
//! the page's URL and runs until Ctrl-C (or SIGTERM), then stops the
//! captains (which hand their seats back) and the server. It serves on the
//! same address as last time when it can, so the page keeps its origin
//! and with it the seat tokens the browser saved. The front-end is built
//! with npm on first use when this is a checkout with `web/package.json`.
//! The page's lobby creates either game; `--game legio` opens it on VII
//! Legio's setup form.

use super::{interrupt, usage};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use xodus_cli::cli::PlayArgs;
use xodus_cli::games;
use xodus_cli::{procs, saved};

/// The checkout's `web/` folder: under the working directory, or above
/// the binary (`target/<profile>/xodus`).
fn web_source() -> Option<PathBuf> {
    let here = PathBuf::from("web");
    if here.join("package.json").is_file() {
        return Some(here);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().skip(1).take(4).map(|d| d.join("web")).find(|w| w.join("package.json").is_file())
}

fn npm(dir: &Path, args: &[&str]) -> anyhow::Result<()> {
    eprintln!("building the web front-end: npm {} (in {})", args.join(" "), dir.display());
    let status = Command::new("npm")
        .args(args)
        .current_dir(dir)
        .status()
        .context("running npm (Node.js and npm are needed to build the web front-end)")?;
    if !status.success() {
        bail!("npm {} failed in {} ({status})", args.join(" "), dir.display());
    }
    Ok(())
}

/// The built front-end to serve, building it if needed.
fn front_end(a: &PlayArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &a.web_dir {
        if !dir.join("index.html").is_file() {
            bail!("--web-dir {}: no index.html there", dir.display());
        }
        return Ok(dir.clone());
    }
    let Some(src) = web_source() else {
        bail!("no web front-end found: run this from the project's checkout, or give --web-dir");
    };
    let dist = src.join("dist");
    if !dist.join("index.html").is_file() {
        npm(&src, &["ci", "--no-audit", "--no-fund"])?;
        npm(&src, &["run", "build"])?;
    }
    Ok(dist)
}

/// The address to serve on: `--listen`; else the address of the last
/// run in this data directory while its port is free (the same origin,
/// where the browser keeps its seat tokens); else a free port, saying so.
fn listen_address(a: &PlayArgs) -> String {
    if let Some(listen) = &a.listen {
        return listen.clone();
    }
    let Some(last) = saved::load_web(&a.data_dir) else {
        return procs::ANY_PORT.to_string();
    };
    // A probe, dropped at once: the server binds the port right after.
    match std::net::TcpListener::bind(&last.listen) {
        Ok(_probe) => last.listen,
        Err(e) => {
            eprintln!(
                "note: {} (the last address) is taken ({e}); serving on a free port instead: \
                 a page open at the old address keeps its seats there, not at the new one",
                last.listen
            );
            procs::ANY_PORT.to_string()
        }
    }
}

/// Runs `xodus play --web`.
/// The lobby's address suffix for `--game TYPE`: that game's setup form
/// (none for X-ODUS, the lobby's first form).
fn lobby_form(game: Option<&str>) -> anyhow::Result<String> {
    match game {
        None => Ok(String::new()),
        Some(t) => match games::game(t) {
            Some(g) => Ok(g.web_form().to_string()),
            None => usage!("--web creates games in the page; --game {t:?} is not a game type ({})", games::names()),
        },
    }
}

pub async fn run(a: PlayArgs) -> anyhow::Result<()> {
    if a.server.is_some() {
        usage!("--web starts its own server; leave out --server");
    }
    let form = lobby_form(a.game.as_deref())?;
    let dist = front_end(&a)?;
    let dist = dist.canonicalize().with_context(|| format!("{}", dist.display()))?;
    let extra = vec!["--web-dir".to_string(), dist.display().to_string()];
    let listen = listen_address(&a);
    eprintln!("starting a local xodus-server in {}", a.data_dir.display());
    let (server, url) = procs::start_server_with(&a.data_dir, &listen, &extra)?;
    if let Some(addr) = url.strip_prefix("http://")
        && let Err(e) = saved::save_web(&a.data_dir, addr)
    {
        eprintln!("warning: the address could not be kept for the next run: {e}");
    }
    let fill = procs::start_fill(&url, &a.ai.agent_args(), Some(&a.data_dir.join("ai-fill.log")))?;
    let _signals = interrupt::handled_here();
    println!("open {url}/{form} in a browser (Ctrl-C stops the server and the AI captains)");
    interrupt::stop_asked().await;
    eprintln!("stopping: the AI captains hand their seats back, then the server stops");
    // The captains first, while the server is there to take the seats back.
    tokio::task::spawn_blocking(move || {
        procs::stop_all(vec![fill]);
        procs::stop_all(vec![server]);
    })
    .await
    .context("stopping the children")?;
    eprintln!("stopped; the games are kept in {}", a.data_dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::lobby_form;

    #[test]
    fn game_picks_the_lobby_form_the_page_opens_on() {
        assert_eq!(lobby_form(None).ok().as_deref(), Some(""));
        assert_eq!(lobby_form(Some("xodus")).ok().as_deref(), Some(""));
        assert_eq!(lobby_form(Some("legio")).ok().as_deref(), Some("#/new/legio"));
        assert!(lobby_form(Some("g-0123456789abcdef")).is_err(), "a game id is not a type to create");
    }
}
