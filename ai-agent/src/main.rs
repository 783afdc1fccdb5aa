//! `xodus-ai`: the command line. `selfplay` measures a policy on local
//! games; without a subcommand the binary is the network agent (one seat
//! with `--game/--seat`, or every open seat with `--fill`).

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use xodus_ai::Budget;
use xodus_ai::agent::{self, AgentConfig, claims::Claims, fill::FillConfig, status::SeatEnd};
use xodus_ai::games::{self, GameCommand};
use xodus_ai::runner::{SelfplayArgs, threads_or_cores};

/// The search clones and drops game states by the million; mimalloc's
/// thread-local free lists serve that far cheaper than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// AI players for the hosted games: self-play, and the network agent.
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
    /// The commands a game adds (its own tools).
    #[command(flatten)]
    Game(GameCommand),
}

/// The network agent's options.
#[derive(Args, Debug)]
struct AgentArgs {
    /// Server address: a URL (http://127.0.0.1:50051) or, for a server
    /// on this host listening on a Unix socket, unix:PATH. Several nodes
    /// of one service: their addresses separated by commas; the agent
    /// spreads its connections over them and moves off one that is gone.
    #[arg(long, env = "TABLETOP_SERVER")]
    server: Option<String>,
    /// Play one seat of this game (with --seat).
    #[arg(long)]
    game: Option<String>,
    /// The seat to play, from 0 (with --game).
    #[arg(long)]
    seat: Option<u32>,
    /// The seat's token, if already claimed (otherwise the agent claims it as an AI).
    #[arg(long, env = "TABLETOP_SEAT_TOKEN")]
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
    #[arg(long, env = "TABLETOP_AGENT_KEY", hide_env_values = true)]
    agent_key: Option<String>,
    /// Connections to the server, shared by every seat played.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Requests per second the process sends at most (0: no limit). The
    /// default stays under the server's default per-address rate (2000);
    /// with --agent-key, 20000 unless given.
    #[arg(long)]
    max_rps: Option<u32>,
    /// Games followed at once (with --fill), all of a connection's on one
    /// FollowGames stream. The default, 4000, stays under the server's
    /// per-address follow cap (4096).
    #[arg(long)]
    max_streams: Option<usize>,
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli: Cli = tabletop::env::parse();
    match cli.command {
        Some(Command::Selfplay(args)) => games::selfplay(&args),
        Some(Command::Game(cmd)) => games::run_command(&cmd),
        None => run_agent(cli.agent),
    }
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
        max_streams: args.max_streams.unwrap_or(4_000),
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
