//! `xodus`: the terminal client's entry point. Parses the command line,
//! sets up logging (to stderr, off unless RUST_LOG says otherwise, so the
//! screen and scripted output stay clean), runs one command (dropped on a
//! stop signal nothing else handles: exit code 130), and turns any error
//! into one readable line and an exit code.

mod commands;

use xodus_cli::cli::{Cli, Command};
use xodus_cli::games;

/// The exit code after a stop signal (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "off".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse_for(env!("CARGO_BIN_NAME"), games::default_type());
    let run = async {
        match cli.command {
            Command::Play(a) => commands::play::run(a).await,
            Command::Watch(a) => commands::watch::run(a).await,
            Command::Create(a) => commands::script::create(a).await,
            Command::List(a) => commands::script::list(a).await,
            Command::Join(a) => commands::script::join(a).await,
            Command::Leave(a) => commands::script::leave(a).await,
            Command::Act(a) => commands::script::act(a).await,
            Command::View(a) => commands::script::view(a).await,
            Command::Say(a) => commands::script::say(a).await,
            Command::Hint(a) => commands::script::hint(a).await,
        }
    };
    // A stop signal no part handles drops the command: its child
    // processes stop as their handles drop.
    // Biased: the signal handlers are set before the command's first step
    // (which may block while it starts the local server).
    let result = tokio::select! {
        biased;
        () = commands::interrupt::unhandled() => None,
        r = run => Some(r),
    };
    let Some(result) = result else {
        eprintln!("xodus: interrupted");
        std::process::exit(INTERRUPTED);
    };
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            eprintln!("xodus: {}", chain.join(": "));
            commands::script::exit_code(&e)
        }
    };
    // Exit without waiting for a screen thread stuck on a vanished
    // terminal; every child process was already stopped by its guard.
    std::process::exit(code);
}
