//! Command-line arguments (clap). Raw arguments only: the commands resolve
//! them (defaults, local server or not) in their own modules. The
//! binary's name and the default `--game` are given by the caller
//! ([`Cli::command_for`]): Cargo names the binary, the client's list of
//! games (`games`) names the default.

use crate::clock::{ClockRules, OnTimeout};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;

/// A command line that parses but asks for what cannot be (a setup out of
/// range, flags that do not go together): exit code 2, as for clap's own
/// refusals.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Exit code of a bad command line (clap's, and [`UsageError`]'s).
pub const USAGE_EXIT: i32 = 2;

/// The terminal client of the game service (X-ODUS, VII Legio).
#[derive(Debug, Parser)]
#[command(version, about = "Play, watch and script X-ODUS and VII Legio games", long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The arguments whose default is the client's default game.
const GAME_TYPE_ARGS: [(&str, &str); 2] = [("watch", "game_type"), ("create", "game_type")];

impl Cli {
    /// The command line as clap reads it, for the binary `name`, with
    /// `--game TYPE` (of `watch` and `create`) defaulting to
    /// `default_game`, and variables read under their earlier names too
    /// (`tabletop::env`).
    pub fn command_for(name: &'static str, default_game: &'static str) -> clap::Command {
        let cmd = GAME_TYPE_ARGS.iter().fold(Cli::command().name(name), |cmd, (sub, arg)| {
            cmd.mut_subcommand(*sub, |c| c.mut_arg(*arg, |a| a.required(false).default_value(default_game)))
        });
        tabletop::env::with_old_names(cmd)
    }

    /// Reads `args` (the binary's name first) with [`Cli::command_for`].
    pub fn try_parse_for<I, T>(name: &'static str, default_game: &'static str, args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut cmd = Cli::command_for(name, default_game);
        let matches = cmd.try_get_matches_from_mut(args)?;
        Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
    }

    /// Reads the process's arguments with [`Cli::command_for`]; exits
    /// with clap's message on an error, as `Cli::parse()` does.
    pub fn parse_for(name: &'static str, default_game: &'static str) -> Cli {
        Cli::try_parse_for(name, default_game, std::env::args_os()).unwrap_or_else(|e| e.exit())
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play in this terminal. Without --server: start a local server and AI teammates.
    Play(PlayArgs),
    /// Watch a game; without GAME, a fresh all-AI game on a local server (or on --server).
    Watch(WatchArgs),
    /// Create a game and print its id (JSON).
    Create(CreateArgs),
    /// List the games on a server.
    List(ListArgs),
    /// Claim a seat and print its token.
    Join(JoinArgs),
    /// Give a seat back: it opens again and its token stops working.
    Leave(LeaveArgs),
    /// Send one choice for a seat and print the result as JSON.
    Act(ActArgs),
    /// Print a game's current view (JSON, or text with --text).
    View(ViewArgs),
    /// Say a line at the table as a seat (text, a signal, or both) and
    /// print the line as kept (JSON).
    Say(SayArgs),
    /// Ask the AI agent serving hints for a seat's best options now and
    /// print them (JSON, best first, each with its reason).
    Hint(HintArgs),
}

/// A server to talk to.
#[derive(Debug, Args, Clone)]
pub struct ServerArg {
    /// Server address: a URL, or unix:PATH for a server on this host
    /// listening on a Unix socket. Several nodes of one service: their
    /// addresses separated by commas (the first that answers is used).
    #[arg(long, env = "TABLETOP_SERVER", default_value = "http://127.0.0.1:50051")]
    pub server: String,
}

/// A game's setup.
#[derive(Debug, Args, Clone)]
pub struct SetupArgs {
    /// Number of ships (3 or 4).
    #[arg(long, default_value_t = 4)]
    pub ships: u8,
    /// Ships by name (comma-separated, e.g. warship,explorer,pirate_ship); random if absent.
    #[arg(long, value_delimiter = ',')]
    pub ship_kinds: Vec<String>,
    /// Difficulty: casual, hardened or heroic.
    #[arg(long, default_value = "casual")]
    pub difficulty: String,
    /// The two Allies (comma-separated); random if absent.
    #[arg(long, value_delimiter = ',')]
    pub allies: Vec<String>,
    /// Seed fixing the whole game; random if absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Adds the permanent +1 Avatar movement marker (the rulebook's
    /// "true nightmare" on top of any difficulty, p. 19).
    #[arg(long)]
    pub nightmare: bool,
    /// VII Legio: the number of commanders (2 to 4; 3 if absent).
    #[arg(long)]
    pub players: Option<u8>,
    /// VII Legio: cut the game short after this many rounds (no ranking,
    /// no winner); the server's default safety net if absent.
    #[arg(long)]
    pub round_limit: Option<u32>,
    /// Time the seats (seconds): fischer:INITIAL+INCREMENT[/CAP],
    /// per-move:SECONDS or absolute:SECONDS. Untimed if absent.
    #[arg(long, value_name = "CLOCK", value_parser = ClockRules::parse)]
    pub clock: Option<ClockRules>,
    /// What happens when a seat's time runs out: stand-in (an AI plays
    /// until its holder is back), skip (the server passes for it) or
    /// forfeit (competitive games); the game's default if absent.
    #[arg(long, value_name = "POLICY", requires = "clock", value_parser = OnTimeout::parse)]
    pub on_timeout: Option<OnTimeout>,
}

impl SetupArgs {
    /// The clock asked for, with its timeout policy.
    pub fn clock_rules(&self) -> Option<ClockRules> {
        self.clock.map(|c| ClockRules { on_timeout: self.on_timeout.unwrap_or(c.on_timeout), ..c })
    }
}

/// `xodus play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Use a running server instead of starting one (a URL, or unix:PATH).
    #[arg(long, env = "TABLETOP_SERVER")]
    pub server: Option<String>,
    /// The game to create: `xodus` (the default) or `legio` (VII Legio);
    /// or the id of an existing game to join instead (needs --server).
    /// With --web, the game whose form the page opens on.
    #[arg(long)]
    pub game: Option<String>,
    /// Your seat(s), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    pub seats: Vec<u8>,
    /// Setup of a new game.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Data directory of the local server.
    #[arg(long, default_value = "./data")]
    pub data_dir: PathBuf,
    /// Do not start AI captains for the other seats (others join with `xodus join`).
    #[arg(long)]
    pub no_ai: bool,
    /// Pause after each step of the other captains, in milliseconds, so their moves can be followed.
    #[arg(long, default_value_t = 150)]
    pub pace_ms: u64,
    /// How the AI captains play.
    #[command(flatten)]
    pub ai: AiArgs,
    /// Take back the game this data directory's last `xodus play` left
    /// unfinished: the same seats, the same AI captains.
    #[arg(long, conflicts_with_all = ["game", "web"])]
    pub resume: bool,
    /// Play in a browser instead: start the server with the web front-end
    /// and AI captains that fill every AI seat, print the page's URL and
    /// run until Ctrl-C. The front-end is built (npm) on first use.
    #[arg(long)]
    pub web: bool,
    /// The built front-end to serve with --web (default: web/dist of this
    /// checkout).
    #[arg(long)]
    pub web_dir: Option<PathBuf>,
    /// Address of the local server (e.g. 127.0.0.1:8080). If absent: a
    /// free port, except that --web serves on the address it served on last
    /// time (kept in the data directory), while that port is free.
    #[arg(long)]
    pub listen: Option<String>,
}

/// `xodus watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The game to watch; a fresh all-AI game if absent.
    pub game: Option<String>,
    /// The fresh game's type: `xodus` (the default) or `legio`.
    #[arg(long = "game", value_name = "TYPE")]
    pub game_type: String,
    /// Use a running server instead of starting one (a URL, or unix:PATH).
    #[arg(long, env = "TABLETOP_SERVER")]
    pub server: Option<String>,
    /// Setup of the fresh game.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Data directory of the local server (a temporary one if absent).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Print lines instead of the screen, even on a terminal.
    #[arg(long)]
    pub plain: bool,
    /// Pause after each step on the screen, in milliseconds (AI captains play fast).
    #[arg(long, default_value_t = 300)]
    pub pace_ms: u64,
    /// How the AI captains of a fresh game play.
    #[command(flatten)]
    pub ai: AiArgs,
}

/// The AI captains that `play` and `watch` start.
#[derive(Debug, Args)]
pub struct AiArgs {
    /// Their policy: random, heuristic or mcts (default: xodus-ai's own, mcts, the strongest).
    #[arg(long, value_parser = ["random", "heuristic", "mcts"])]
    pub ai_policy: Option<String>,
    /// How long they leave you a decision you may also take (who plays
    /// next, a fleet's action) before one of them takes it, in milliseconds.
    #[arg(long, default_value_t = 15_000)]
    pub ai_courtesy_ms: u64,
}

impl AiArgs {
    /// The `xodus-ai` arguments these options stand for.
    pub fn agent_args(&self) -> Vec<String> {
        let mut args = vec!["--courtesy-ms".to_string(), self.ai_courtesy_ms.to_string()];
        if let Some(p) = &self.ai_policy {
            args.extend(["--policy".to_string(), p.clone()]);
        }
        args
    }
}

/// `xodus create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game: `xodus` (the default) or `legio` (VII Legio).
    #[arg(long = "game", value_name = "TYPE")]
    pub game_type: String,
    /// Setup.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Seats open to AI agents (comma-separated); the others are open to humans.
    #[arg(long, value_delimiter = ',')]
    pub ai_seats: Vec<u8>,
    /// Print only the game id (for `G=$(xodus create --id-only)`).
    #[arg(long)]
    pub id_only: bool,
}

/// `xodus list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `xodus join`.
#[derive(Debug, Args)]
pub struct JoinArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game.
    pub game: String,
    /// The seat to claim.
    #[arg(long)]
    pub seat: u8,
}

/// `xodus leave`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("the_game").required(true).args(["game", "game_flag"]))]
pub struct LeaveArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game (or --game ID).
    pub game: Option<String>,
    /// The game (the same as GAME).
    #[arg(long = "game", value_name = "ID")]
    pub game_flag: Option<String>,
    /// The seat to give back.
    #[arg(long)]
    pub seat: u8,
    /// The seat's token (from `xodus join`).
    #[arg(long, env = "TABLETOP_TOKEN")]
    pub token: String,
}

impl LeaveArgs {
    /// The game, however it was given.
    pub fn game_id(&self) -> &str {
        self.game.as_deref().or(self.game_flag.as_deref()).unwrap_or_default()
    }
}

/// `xodus act`.
#[derive(Debug, Args)]
pub struct ActArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game.
    pub game: String,
    /// The seat choosing.
    #[arg(long)]
    pub seat: u8,
    /// The seat's token (from `xodus join`).
    #[arg(long, env = "TABLETOP_TOKEN")]
    pub token: String,
    /// The option id (from the view's decision).
    #[arg(long)]
    pub option: String,
    /// The sequence number the choice answers (refused if stale); the current one if absent.
    #[arg(long)]
    pub expect_seq: Option<u64>,
}

/// `xodus view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game.
    pub game: String,
    /// A text report instead of JSON.
    #[arg(long)]
    pub text: bool,
    /// Look as this seat (its own hand and options, in a game with
    /// secrets); needs --token.
    #[arg(long, requires = "token")]
    pub seat: Option<u8>,
    /// The seat's token (from `xodus join`).
    #[arg(long, requires = "seat")]
    pub token: Option<String>,
}

/// `xodus say`.
#[derive(Debug, Args)]
pub struct SayArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game.
    #[arg(value_name = "GAME")]
    pub game: Option<String>,
    /// The game, the older way to name it (`--game ID`).
    #[arg(long = "game", value_name = "ID", hide = true)]
    pub game_flag: Option<String>,
    /// The speaking seat.
    #[arg(long)]
    pub seat: u8,
    /// The seat's token (from `xodus join`).
    #[arg(long, env = "TABLETOP_TOKEN")]
    pub token: String,
    /// Say it to this seat alone (the whole table if absent).
    #[arg(long, value_name = "SEAT", conflicts_with = "team")]
    pub to: Option<u8>,
    /// Say it to your team (a cooperative game).
    #[arg(long)]
    pub team: bool,
    /// A signal of the game's own: KIND, KIND:Q,R (X-ODUS: a revealed
    /// system, e.g. wait-for-me:1,-2) or KIND:SECTOR (VII Legio, e.g.
    /// land-with-me:S2). X-ODUS: heading-to, wait-for-me, need-help,
    /// i-take-key, i-take-signal, i-take-fight, dont-seal, go-ahead,
    /// never-mind; VII Legio: invite-me, i-will-invite, no-deal,
    /// land-with-me, declined.
    #[arg(long, value_name = "KIND[:ARG]")]
    pub signal: Option<String>,
    /// What to say (plain text, at most 280 characters; the words are
    /// joined by spaces).
    #[arg(value_name = "TEXT", trailing_var_arg = true)]
    pub text: Vec<String>,
}

impl SayArgs {
    /// The game and the words said: the first word after the flags is the
    /// game, unless `--game ID` named it (then it is the first word said).
    pub fn game_and_words(&self) -> Option<(&str, Vec<&str>)> {
        let words = self.text.iter().map(String::as_str);
        match (&self.game_flag, &self.game) {
            (Some(flag), first) => Some((flag.as_str(), first.iter().map(String::as_str).chain(words).collect())),
            (None, Some(game)) => Some((game.as_str(), words.collect())),
            (None, None) => None,
        }
    }
}

impl HintArgs {
    /// The game, named either way.
    pub fn game(&self) -> &str {
        self.game.as_deref().or(self.game_flag.as_deref()).unwrap_or_default()
    }
}

/// `xodus hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Server.
    #[command(flatten)]
    pub server: ServerArg,
    /// The game.
    #[arg(value_name = "GAME", required_unless_present = "game_flag", conflicts_with = "game_flag")]
    pub game: Option<String>,
    /// The game, the older way to name it (`--game ID`).
    #[arg(long = "game", value_name = "ID", hide = true)]
    pub game_flag: Option<String>,
    /// The seat asking (it must have a decision to take now).
    #[arg(long)]
    pub seat: u8,
    /// The seat's token (from `xodus join`).
    #[arg(long, env = "TABLETOP_TOKEN")]
    pub token: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockKind;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_for("xodus", "xodus", args)
    }

    fn setup(cli: Cli) -> SetupArgs {
        match cli.command {
            Command::Play(a) => a.setup,
            Command::Create(a) => a.setup,
            Command::Watch(a) => a.setup,
            other => panic!("not a command with a setup: {other:?}"),
        }
    }

    #[test]
    fn play_and_create_take_a_clock_and_a_timeout_policy() {
        let s = setup(parse(&["xodus", "create", "--game", "legio", "--clock", "per-move:30"]).expect("parses"));
        let c = s.clock_rules().expect("a clock");
        assert_eq!((c.kind, c.per_move_seconds, c.on_timeout), (ClockKind::PerMove, 30, OnTimeout::Default));
        let s =
            setup(parse(&["xodus", "play", "--clock", "fischer:300+5/600", "--on-timeout", "skip"]).expect("parses"));
        let c = s.clock_rules().expect("a clock");
        assert_eq!((c.initial_seconds, c.increment_seconds, c.cap_seconds), (300, 5, 600));
        assert_eq!(c.on_timeout, OnTimeout::Skip);
        let s = setup(parse(&["xodus", "play", "--clock", "absolute:900", "--on-timeout", "forfeit"]).expect("ok"));
        assert_eq!(s.clock_rules().map(|c| (c.kind, c.on_timeout)), Some((ClockKind::Absolute, OnTimeout::Forfeit)));
        assert_eq!(setup(parse(&["xodus", "create"]).expect("parses")).clock_rules(), None, "untimed by default");
    }

    #[test]
    fn the_game_type_defaults_to_the_game_the_caller_names() {
        let Command::Create(c) = Cli::try_parse_for("x", "first", ["x", "create"]).expect("parses").command else {
            panic!("create")
        };
        assert_eq!(c.game_type, "first");
        let Command::Watch(w) =
            Cli::try_parse_for("x", "first", ["x", "watch", "--game", "other"]).expect("ok").command
        else {
            panic!("watch")
        };
        assert_eq!(w.game_type, "other");
        assert_eq!(Cli::command_for("x", "first").get_name(), "x");
    }

    #[test]
    fn bad_clock_flags_are_refused_naming_the_flag_with_exit_code_2() {
        for (args, flag) in [
            (vec!["xodus", "create", "--clock", "per-move:0"], "--clock"),
            (vec!["xodus", "play", "--clock", "fischer:300"], "--clock"),
            (vec!["xodus", "create", "--clock", "sandglass:30"], "--clock"),
            (vec!["xodus", "create", "--clock", "per-move:30", "--on-timeout", "resign"], "--on-timeout"),
            (vec!["xodus", "create", "--on-timeout", "skip"], "--clock"),
        ] {
            let err = parse(&args).expect_err("refused");
            assert_eq!(err.exit_code(), 2, "{args:?}");
            assert!(err.to_string().contains(flag), "{args:?}: {err}");
        }
    }
}
