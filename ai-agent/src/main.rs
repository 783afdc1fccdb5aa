//! `xodus-ai`: the command line. `selfplay` measures a policy on local
//! games; without a subcommand the binary is the network agent (one seat
//! with `--game/--seat`, or every open seat with `--fill`).

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Instant;
use xodus_ai::selfplay::{self, SelfplayConfig};
use xodus_ai::stats::Summary;
use xodus_ai::{Budget, PolicyKind};
use xodus_engine::Difficulty;

/// AI captains for X-ODUS.
#[derive(Parser, Debug)]
#[command(name = "xodus-ai", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    agent: AgentArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play whole games locally (no server) and report the figures.
    Selfplay(SelfplayArgs),
    /// Play one local game and print every decision (for debugging policies).
    Trace(TraceArgs),
}

#[derive(Args, Debug)]
struct TraceArgs {
    /// random, heuristic or mcts.
    #[arg(long, default_value = "heuristic")]
    policy: String,
    /// Ships: 3 or 4.
    #[arg(long, default_value_t = 4)]
    ships: usize,
    /// casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    difficulty: String,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search iterations per decision.
    #[arg(long)]
    iterations: Option<u32>,
    /// Thinking time per decision, in milliseconds.
    #[arg(long)]
    think_ms: Option<u64>,
}

#[derive(Args, Debug)]
struct SelfplayArgs {
    /// random, heuristic or mcts.
    #[arg(long, default_value = "heuristic")]
    policy: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Ships per game: 3 or 4.
    #[arg(long, default_value_t = 4)]
    ships: usize,
    /// casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    difficulty: String,
    /// Base seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Thinking time per decision, in milliseconds (search policies).
    #[arg(long)]
    think_ms: Option<u64>,
    /// Search iterations per decision (deterministic for a seed).
    #[arg(long)]
    iterations: Option<u32>,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long)]
    json: bool,
}

/// The network agent's options.
#[derive(Args, Debug)]
struct AgentArgs {
    /// Server URL, e.g. http://127.0.0.1:50051.
    #[arg(long, env = "XODUS_SERVER")]
    server: Option<String>,
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Selfplay(args)) => run_selfplay(args),
        Some(Command::Trace(args)) => run_trace(args),
        None => match cli.agent.server {
            Some(_) => bail!("the network agent is not built yet"),
            None => bail!("nothing to do: use `xodus-ai selfplay ...` or `xodus-ai --server URL ...` (see --help)"),
        },
    }
}

fn run_selfplay(args: SelfplayArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy)
        .with_context(|| format!("unknown policy '{}' (random, heuristic, mcts)", args.policy))?;
    let difficulty = Difficulty::parse(&args.difficulty)
        .with_context(|| format!("unknown difficulty '{}' (casual, hardened, heroic)", args.difficulty))?;
    if !(3..=4).contains(&args.ships) {
        bail!("--ships must be 3 or 4, not {}", args.ships);
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).max(1);
    let cfg = SelfplayConfig {
        policy,
        games: args.games,
        ships: args.ships,
        difficulty,
        seed: args.seed,
        jobs,
        budget: Budget::new(args.iterations, args.think_ms),
    };
    let bar = ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{elapsed_precise}<{eta_precise}] {wide_bar}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let results = selfplay::run(&cfg, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let summary = Summary::new(policy.as_str(), &results, start.elapsed().as_secs_f64());
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print!("{}", summary.table());
    }
    Ok(())
}

fn run_trace(args: TraceArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy).with_context(|| format!("unknown policy '{}'", args.policy))?;
    let difficulty =
        Difficulty::parse(&args.difficulty).with_context(|| format!("unknown difficulty '{}'", args.difficulty))?;
    let budget = Budget::new(args.iterations, args.think_ms);
    let mut out = std::io::stdout().lock();
    xodus_ai::selfplay::trace_game(policy, args.ships, difficulty, args.seed, &budget, &mut out)?;
    Ok(())
}
