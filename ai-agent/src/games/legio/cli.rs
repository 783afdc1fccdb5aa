//! VII Legio's part of `xodus-ai`'s command line: `selfplay --game legio`
//! (rival commanders, one policy per seat, rotated each game).

use super::LegioKind;
use super::selfplay::{LegioSelfplay, LegioSummary, run};
use crate::budget::Budget;
use crate::runner::{SelfplayArgs, progress_bar, threads_or_cores};
use anyhow::{Context, Result, bail};
use std::time::Instant;

/// Self-play of rival commanders.
pub fn selfplay_games(args: &SelfplayArgs) -> Result<()> {
    if !(2..=4).contains(&args.players) {
        bail!("--players must be 2 to 4, not {}", args.players);
    }
    let names: Vec<String> = match &args.policies {
        Some(list) => list.split(',').map(|p| p.trim().to_string()).collect(),
        None => vec![args.policy.clone(); args.players],
    };
    if names.len() != args.players {
        bail!("--policies names {} policies for {} players", names.len(), args.players);
    }
    let policies = names
        .iter()
        .map(|n| LegioKind::parse(n).with_context(|| format!("unknown policy '{n}' (random, heuristic, mcts)")))
        .collect::<Result<Vec<_>>>()?;
    let cfg = LegioSelfplay {
        policies: policies.clone(),
        games: args.games,
        seed: args.seed,
        jobs: threads_or_cores(args.jobs),
        budget: Budget::new(args.iterations, args.think_ms),
    };
    let bar = progress_bar(args.games as u64);
    let start = Instant::now();
    let games = run(&cfg, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let summary = LegioSummary::new(&policies, &games, start.elapsed().as_secs_f64());
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print!("{}", summary.table());
    }
    Ok(())
}
