//! `xodus play --web`: the game in a browser. Starts a local
//! `xodus-server` that also serves the built web front-end on its port,
//! and an `xodus-ai --fill` daemon that takes every seat open to AI; prints
//! the page's URL and runs until Ctrl-C. The front-end is built with npm
//! on first use when this is a checkout with `web/package.json`.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use xodus_cli::cli::PlayArgs;
use xodus_cli::procs;

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

/// Runs `xodus play --web`.
pub async fn run(a: PlayArgs) -> anyhow::Result<()> {
    let dist = front_end(&a)?;
    let dist = dist.canonicalize().with_context(|| format!("{}", dist.display()))?;
    let extra = vec!["--web-dir".to_string(), dist.display().to_string()];
    let (server, url) = match &a.server {
        Some(_) => bail!("--web starts its own server; leave out --server"),
        None => {
            eprintln!("starting a local xodus-server in {}", a.data_dir.display());
            procs::start_server_with(&a.data_dir, &a.listen, &extra)?
        }
    };
    let fill = procs::start_fill(&url, &a.ai.agent_args(), Some(&a.data_dir.join("ai-fill.log")))?;
    println!("open {url}/ in a browser (Ctrl-C stops the server and the AI captains)");
    tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
    drop(fill);
    drop(server);
    eprintln!("stopped; the games are kept in {}", a.data_dir.display());
    Ok(())
}
