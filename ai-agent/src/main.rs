//! `xodus-ai`: the command line. `selfplay` measures a policy on local
//! games; without a subcommand the binary is the network agent (one seat
//! with `--game/--seat`, or every open seat with `--fill`).

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Instant;
use xodus_ai::agent::{self, AgentConfig, claims::Claims, fill::FillConfig, status::SeatEnd};
use xodus_ai::selfplay::{self, SelfplayConfig};
use xodus_ai::stats::Summary;
use xodus_ai::{Budget, PolicyKind};
use xodus_engine::Difficulty;

/// The search clones and drops game states by the million; mimalloc's
/// thread-local free lists serve that far cheaper than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Fit the search's value model on self-play games and report how well
    /// it tells won games from lost ones.
    FitValue(FitArgs),
}

#[derive(Args, Debug)]
struct FitArgs {
    /// random, heuristic or mcts (the policy whose games are learned from).
    #[arg(long, default_value = "heuristic")]
    policy: String,
    /// Games per table size and difficulty.
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Table sizes, comma-separated.
    #[arg(long, default_value = "3,4")]
    ships: String,
    /// Difficulties, comma-separated.
    #[arg(long, default_value = "casual,hardened,heroic")]
    difficulties: String,
    /// Base seed (game i of every setting uses seed + i).
    #[arg(long, default_value_t = 50_000)]
    seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1.0)]
    ridge: f64,
    /// Search iterations per decision (search policies).
    #[arg(long)]
    iterations: Option<u32>,
    /// Write the fitted model's JSON here (e.g. ai-agent/content/value.json).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
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
    /// Adds the permanent +1 Avatar movement marker (the rulebook's "true
    /// nightmare" on top of any difficulty, p. 19).
    #[arg(long)]
    nightmare: bool,
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
    /// The game: xodus (a co-operative crew, every seat one policy) or
    /// legio (rival commanders, one policy per seat from --policies).
    #[arg(long, default_value = "xodus")]
    game: String,
    /// random, heuristic or mcts.
    #[arg(long, default_value = "heuristic")]
    policy: String,
    /// VII Legio: commanders per game, 2 to 4.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// VII Legio: one policy per seat, comma-separated (e.g.
    /// mcts,heuristic,heuristic), rotated one seat further each game;
    /// default: --policy at every seat.
    #[arg(long)]
    policies: Option<String>,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Ships per game: 3 or 4.
    #[arg(long, default_value_t = 4)]
    ships: usize,
    /// casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    difficulty: String,
    /// Adds the permanent +1 Avatar movement marker (the rulebook's "true
    /// nightmare" on top of any difficulty, p. 19).
    #[arg(long)]
    nightmare: bool,
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
    /// Server address: a URL (http://127.0.0.1:50051) or, for a server
    /// on this host listening on a Unix socket, unix:PATH. Several nodes
    /// of one service: their addresses separated by commas; the agent
    /// spreads its connections over them and moves off one that is gone.
    #[arg(long, env = "XODUS_SERVER")]
    server: Option<String>,
    /// Play one seat of this game (with --seat).
    #[arg(long)]
    game: Option<String>,
    /// The seat to play, from 0 (with --game).
    #[arg(long)]
    seat: Option<u32>,
    /// The seat's token, if already claimed (otherwise the agent claims it as an AI).
    #[arg(long, env = "XODUS_SEAT_TOKEN")]
    token: Option<String>,
    /// Daemon: watch the lobby and play every seat open to AI agents.
    #[arg(long)]
    fill: bool,
    /// With --fill, also take seats open to anyone (humans or AI).
    #[arg(long)]
    fill_any: bool,
    /// With --fill, play at most this many seats at once (0: no limit).
    #[arg(long, default_value_t = 0)]
    max_seats: usize,
    /// random, heuristic or mcts. The default is the strongest teammate
    /// measured (ai-agent/NOTES.md, "Figures"); heuristic is the cheap one.
    #[arg(long, default_value = "mcts")]
    policy: String,
    /// Thinking time per decision, in milliseconds: the limit, whatever
    /// --iterations says.
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// Search playouts per decision (mcts), deterministic for a seed. By
    /// default the search plays playouts until --think-ms is spent (the
    /// engine's fast path made them cheap enough to fill it; the figures
    /// before that were for 24).
    #[arg(long)]
    iterations: Option<u32>,
    /// Seed of the policies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search threads per decision (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// On a decision a human teammate may also take (who plays next, a
    /// fleet's action), give the human this many milliseconds to take it
    /// before the agent does.
    #[arg(long, default_value_t = 4000)]
    courtesy_ms: u64,
    /// The operator's agent credential (from the server's --agent-key-file),
    /// sent as `x-agent-key` so the server counts this process against its
    /// agent caps instead of the per-address ones. Never logged.
    #[arg(long, env = "XODUS_AGENT_KEY", hide_env_values = true)]
    agent_key: Option<String>,
    /// Connections to the server, shared by every seat played.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Requests per second the process sends at most (0: no limit). The
    /// default stays under the server's default per-address rate (2000);
    /// with --agent-key, 20000 unless given.
    #[arg(long)]
    max_rps: Option<u32>,
    /// Games followed at once, one stream each (with --fill). The default
    /// stays under the server's per-address stream cap (512); with
    /// --agent-key, 4000 unless given.
    #[arg(long)]
    max_streams: Option<usize>,
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Selfplay(args)) => run_selfplay(args),
        Some(Command::Trace(args)) => run_trace(args),
        Some(Command::FitValue(args)) => run_fit(args),
        None => run_agent(cli.agent),
    }
}

/// The thread count asked for, else the machine's cores (at least one).
fn threads_or_cores(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).max(1)
}

fn run_selfplay(args: SelfplayArgs) -> Result<()> {
    match args.game.as_str() {
        "xodus" => {}
        "legio" => return run_legio_selfplay(args),
        other => bail!("unknown game '{other}' (xodus, legio)"),
    }
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
    };
    let bar = ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{elapsed_precise}<{eta_precise}] {wide_bar}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    // With --json, each game is also one JSON line on stderr as it ends,
    // so a run stopped early keeps what it played.
    let results = selfplay::run(&cfg, &|r| {
        if args.json {
            let line = serde_json::to_string(&xodus_ai::stats::GameLine::of(r)).unwrap_or_default();
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

fn run_legio_selfplay(args: SelfplayArgs) -> Result<()> {
    use xodus_ai::legio::selfplay::{LegioSelfplay, LegioSummary, run};
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
        .map(|n| {
            xodus_ai::legio::LegioKind::parse(n)
                .with_context(|| format!("unknown policy '{n}' (random, heuristic, mcts)"))
        })
        .collect::<Result<Vec<_>>>()?;
    let cfg = LegioSelfplay {
        policies: policies.clone(),
        games: args.games,
        seed: args.seed,
        jobs: threads_or_cores(args.jobs),
        budget: Budget::new(args.iterations, args.think_ms),
    };
    let bar = ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
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

fn run_fit(args: FitArgs) -> Result<()> {
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
            });
        }
    }
    let bar = ProgressBar::with_draw_target(Some((args.games * settings.len()) as u64), ProgressDrawTarget::stderr());
    let report = xodus_ai::fitting::fit_value(&settings, args.ridge, &|| bar.inc(1))?;
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&report.model)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

fn run_trace(args: TraceArgs) -> Result<()> {
    let policy = PolicyKind::parse(&args.policy).with_context(|| format!("unknown policy '{}'", args.policy))?;
    let difficulty =
        Difficulty::parse(&args.difficulty).with_context(|| format!("unknown difficulty '{}'", args.difficulty))?;
    let budget = Budget::new(args.iterations, args.think_ms);
    let mut out = std::io::stdout().lock();
    xodus_ai::selfplay::trace_game(policy, args.ships, difficulty, args.nightmare, args.seed, &budget, &mut out)?;
    Ok(())
}

fn run_agent(args: AgentArgs) -> Result<()> {
    let Some(server) = args.server.clone() else {
        bail!(
            "nothing to do: use `xodus-ai selfplay ...` or `xodus-ai --server URL (--game ID --seat N | --fill)` (see --help)"
        );
    };
    if !xodus_ai::games::known_policy(&args.policy) {
        bail!("unknown policy '{}' ({})", args.policy, xodus_ai::games::policy_names());
    }
    let policy = args.policy.clone();
    let threads = threads_or_cores(args.jobs);
    let cfg = std::sync::Arc::new(AgentConfig {
        server,
        policy,
        budget: Budget::new(args.iterations, Some(args.think_ms)),
        seed: args.seed,
        threads,
        courtesy: std::time::Duration::from_millis(args.courtesy_ms),
        max_rps: args.max_rps.unwrap_or(if args.agent_key.is_some() { 20_000 } else { 1_500 }),
        max_streams: args.max_streams.unwrap_or(if args.agent_key.is_some() { 4_000 } else { 448 }),
        agent_key: args.agent_key.clone(),
        connections: args.connections,
        cores: threads_or_cores(None),
    });
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let claims = Claims::default();
    rt.block_on(async move {
        let server = cfg.server.clone();
        let (key, max_rps) = (cfg.agent_key.clone(), cfg.max_rps);
        if args.fill {
            let fill = FillConfig { any: args.fill_any, max_seats: args.max_seats };
            tokio::select! {
                r = agent::fill::run(cfg, fill, claims.clone()) => r.map_err(anyhow::Error::from),
                () = stop_signal() => {
                    let n = claims.release_all_as(&server, key.as_deref(), max_rps).await;
                    tracing::info!(released = n, "stopped");
                    Ok(())
                }
            }
        } else {
            let (Some(game), Some(seat)) = (args.game.clone(), args.seat) else {
                bail!("give --game ID and --seat N to play one seat, or --fill to fill the lobby");
            };
            let play = agent::seat::play_seat(cfg, game.clone(), seat, args.token.clone(), claims.clone());
            let end = tokio::select! {
                end = play => end?,
                () = stop_signal() => {
                    let n = claims.release_all_as(&server, key.as_deref(), max_rps).await;
                    tracing::info!(released = n, "stopped");
                    return Ok(());
                }
            };
            match end {
                SeatEnd::Finished { won, cause } => {
                    tracing::info!(%game, seat, won, %cause, "game over");
                    Ok(())
                }
                SeatEnd::Lost(why) => bail!("seat {seat} of game {game} is not ours: {why}"),
            }
        }
    })
}

/// Resolves when the process is asked to stop: Ctrl-C, or SIGTERM from a
/// supervisor on Unix. The agent then hands back the seats it claimed.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
