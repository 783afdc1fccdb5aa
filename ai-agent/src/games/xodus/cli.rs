//! X-ODUS's part of `xodus-ai`'s command line: `selfplay --game xodus`
//! (a crew of one policy on local games), `trace` (one game, every
//! decision printed) and `fit-value` (the learned value model).

use super::policy::PolicyKind;
use super::results::{GameLine, Summary};
use super::selfplay::{self, SelfplayConfig};
use crate::budget::Budget;
use crate::runner::{SelfplayArgs, progress_bar, threads_or_cores};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::time::Instant;
use xodus_engine::Difficulty;

/// `xodus-ai fit-value`: fit the search's value model on self-play games.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// random, heuristic or mcts (the policy whose games are learned from).
    #[arg(long, default_value = "heuristic")]
    pub policy: String,
    /// Games per table size and difficulty.
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// Table sizes, comma-separated.
    #[arg(long, default_value = "3,4")]
    pub ships: String,
    /// Difficulties, comma-separated.
    #[arg(long, default_value = "casual,hardened,heroic")]
    pub difficulties: String,
    /// Base seed (game i of every setting uses seed + i).
    #[arg(long, default_value_t = 50_000)]
    pub seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1.0)]
    pub ridge: f64,
    /// Search iterations per decision (search policies).
    #[arg(long)]
    pub iterations: Option<u32>,
    /// Write the fitted model's JSON here (e.g.
    /// ai-agent/src/games/xodus/value.json).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

/// `xodus-ai trace`: play one local game and print every decision.
#[derive(Args, Debug)]
pub struct TraceArgs {
    /// random, heuristic or mcts.
    #[arg(long, default_value = "heuristic")]
    pub policy: String,
    /// Ships: 3 or 4.
    #[arg(long, default_value_t = 4)]
    pub ships: usize,
    /// casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    pub difficulty: String,
    /// Adds the permanent +1 Avatar movement marker (the rulebook's "true
    /// nightmare" on top of any difficulty, p. 19).
    #[arg(long)]
    pub nightmare: bool,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search iterations per decision.
    #[arg(long)]
    pub iterations: Option<u32>,
    /// Thinking time per decision, in milliseconds.
    #[arg(long)]
    pub think_ms: Option<u64>,
}

/// Self-play of an X-ODUS crew, every seat one policy.
pub fn selfplay_games(args: &SelfplayArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy)
        .with_context(|| format!("unknown policy '{}' (random, heuristic, mcts)", args.policy))?;
    let difficulty = Difficulty::parse(&args.difficulty)
        .with_context(|| format!("unknown difficulty '{}' (casual, hardened, heroic)", args.difficulty))?;
    if !(3..=4).contains(&args.ships) {
        bail!("--ships must be 3 or 4, not {}", args.ships);
    }
    let jobs = threads_or_cores(args.jobs);
    let cfg = SelfplayConfig {
        policy,
        games: args.games,
        ships: args.ships,
        difficulty,
        nightmare: args.nightmare,
        seed: args.seed,
        jobs,
        budget: Budget::new(args.iterations, args.think_ms),
        calls: args.calls,
    };
    let bar = progress_bar(args.games as u64);
    let start = Instant::now();
    // With --json, each game is also one JSON line on stderr as it ends,
    // so a run stopped early keeps what it played.
    let results = selfplay::run(&cfg, &|r| {
        if args.json {
            let line = serde_json::to_string(&GameLine::of(r)).unwrap_or_default();
            if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) }
        }
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    let summary = Summary::new(policy.as_str(), &results, start.elapsed().as_secs_f64());
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print!("{}", summary.table());
    }
    Ok(())
}

/// Runs `fit-value`.
pub fn fit(args: &FitArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy).with_context(|| format!("unknown policy '{}'", args.policy))?;
    let jobs = threads_or_cores(args.jobs);
    let mut settings = Vec::new();
    for ships in args.ships.split(',') {
        let ships: usize = ships.trim().parse().with_context(|| format!("--ships: '{ships}' is not a number"))?;
        if !(3..=4).contains(&ships) {
            bail!("--ships takes 3 or 4, not {ships}");
        }
        for name in args.difficulties.split(',') {
            let difficulty = Difficulty::parse(name.trim())
                .with_context(|| format!("unknown difficulty '{name}' (casual, hardened, heroic)"))?;
            settings.push(SelfplayConfig {
                policy,
                games: args.games,
                ships,
                difficulty,
                nightmare: false,
                seed: args.seed,
                jobs,
                budget: Budget::new(args.iterations, None),
                calls: false,
            });
        }
    }
    let bar = progress_bar((args.games * settings.len()) as u64);
    let report = super::fitting::fit_value(&settings, args.ridge, &|| bar.inc(1))?;
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&report.model)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

/// Runs `trace`.
pub fn trace(args: &TraceArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy).with_context(|| format!("unknown policy '{}'", args.policy))?;
    let difficulty =
        Difficulty::parse(&args.difficulty).with_context(|| format!("unknown difficulty '{}'", args.difficulty))?;
    let budget = Budget::new(args.iterations, args.think_ms);
    let mut out = std::io::stdout().lock();
    selfplay::trace_game(policy, args.ships, difficulty, args.nightmare, args.seed, &budget, &mut out)?;
    Ok(())
}
