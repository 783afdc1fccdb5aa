//! The scriptable commands: `create`, `list`, `join`, `leave`, `act`, `view`,
//! `say` and `hint`.
//! Each makes one or two calls and prints one result on stdout (JSON, a
//! token, or a table) so that shell scripts and tests can drive a game.
//! They work on any game: a game may print its own JSON and text report
//! (`ClientGame::act_json`, `view_json`, `report`: X-ODUS keeps its engine
//! view), the others print the platform's decision and outcome, with the
//! game's own view under `state` when the client reads that game.

use super::new_game;
use serde_json::json;
use xodus_cli::cli::{
    ActArgs, CreateArgs, HintArgs, JoinArgs, LeaveArgs, ListArgs, SayArgs, USAGE_EXIT, UsageError, ViewArgs,
};
use xodus_cli::clock::Clocks;
use xodus_cli::remote::{Remote, RemoteError};
use xodus_cli::table::{Table, Typed};
use xodus_cli::talk::{Audience, MAX_CHARS, Saying};
use xodus_cli::{games, plain};

/// Prints on stdout like `print!`; see [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => { write_out(&format!($($arg)*)) };
}

/// Prints a line on stdout like `println!`; see [`write_out`].
macro_rules! outln {
    ($($arg:tt)*) => { write_out(&format!("{}\n", format_args!($($arg)*))) };
}

/// Writes `text` on stdout. A reader that went away (`xodus view G | head`)
/// ends the process quietly with status 0, as Unix filters do, where
/// `println!` would panic; these commands hold no child process or seat
/// that an early exit would leave behind.
fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        tracing::warn!(%e, "stdout could not be written");
    }
}

/// `xodus create`: prints `{"game": ID, ...}`.
pub async fn create(a: CreateArgs) -> anyhow::Result<()> {
    let req = new_game(&a.setup, &a.game_type, a.ai_seats.clone())?;
    let remote = Remote::connect(&a.server.server).await?;
    let id = remote.create(&req).await?;
    if a.id_only {
        outln!("{id}");
        return Ok(());
    }
    let seats: Vec<u8> = (0..req.seat_count()).collect();
    let human: Vec<u8> = seats.iter().copied().filter(|s| !req.ai_seats.contains(s)).collect();
    let out = json!({
        "game": id,
        "game_type": req.game_type(),
        "human_seats": human,
        "ai_seats": req.ai_seats,
        "clock": req.clock,
    });
    outln!("{out}");
    Ok(())
}

/// `xodus list`: a table, or JSON with --json.
pub async fn list(a: ListArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let games = remote.list().await?;
    if a.json {
        outln!("{}", serde_json::to_string(&games)?);
        return Ok(());
    }
    if games.is_empty() {
        outln!("no games on {}", remote.url());
        return Ok(());
    }
    outln!(
        "{:<28} {:<6} {:<10} {:<9} {:>5} {:<12} {:<22} seats",
        "game",
        "type",
        "status",
        "level",
        "seq",
        "open seats",
        "clock"
    );
    let marked = games.iter().any(|g| g.seed_chosen);
    for g in games {
        let open: Vec<String> = g.open_seats.iter().map(|s| s.to_string()).collect();
        outln!(
            "{:<28} {:<6} {:<10} {:<9} {:>5} {:<12} {:<22} {}",
            if g.seed_chosen { format!("{}*", g.id) } else { g.id },
            g.game_type,
            g.status,
            if g.difficulty.is_empty() { "-".to_string() } else { g.difficulty },
            g.seq,
            if open.is_empty() { "-".into() } else { open.join(",") },
            g.clock.map(|c| c.short()).unwrap_or_else(|| "-".into()),
            g.ships.join(",")
        );
    }
    if marked {
        outln!("* the creator chose the seed: whoever guesses it can work out every hidden card");
    }
    Ok(())
}

/// `xodus join`: prints the token alone.
pub async fn join(a: JoinArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let token = remote.join(&a.game, a.seat).await?;
    outln!("{token}");
    Ok(())
}

/// `xodus leave`: gives the seat back and prints
/// `{"game","seat","open_seats"}` (the game's open seats afterwards).
pub async fn leave(a: LeaveArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let game = remote.release(a.game_id(), a.seat, &a.token).await?;
    outln!("{}", json!({ "game": game.id, "seat": a.seat, "open_seats": game.open_seats }));
    Ok(())
}

/// `xodus act`: prints the new sequence number, the events and the next
/// decision as JSON.
pub async fn act(a: ActArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    // The seat's own view: a spectator's may be behind the live game (a
    // delayed spectator policy, VII Legio's default), and its seq stale.
    let expect = match a.expect_seq {
        Some(s) => s,
        None => remote.state(&a.game, Some((a.seat, &a.token))).await?.seq,
    };
    let step = remote.act(&a.game, a.seat, &a.token, &a.option, expect).await?;
    let table = match step.table.clone() {
        Some(t) => t,
        None => remote.state(&a.game, Some((a.seat, &a.token))).await?,
    };
    let own = games::game(&table.game_type).and_then(|g| g.act_json(&a.game, a.seat, &a.option, &step.events, &table));
    let out = own.unwrap_or_else(|| act_json(&a.game, a.seat, &a.option, &step.lines, &table));
    outln!("{out}");
    Ok(())
}

/// `xodus act`'s answer for a game that prints no JSON of its own: the
/// events' lines and the platform's decision and outcome.
pub fn act_json(game: &str, seat: u8, option: &str, lines: &[String], table: &Table) -> serde_json::Value {
    json!({
        "game": game,
        "game_type": table.game_type,
        "seat": seat,
        "option": option,
        "seq": table.seq,
        "events": lines,
        "decision": table.decision,
        "outcome": table.outcome,
    })
}

/// `xodus view`: the view as JSON (or a text report), as a spectator or,
/// with --seat and --token, as that seat.
pub async fn view(a: ViewArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let seat = a.seat.zip(a.token.as_deref());
    let table = remote.state(&a.game, seat).await?;
    if let Typed::Unread(Some(why)) = &table.typed {
        eprintln!("note: the {} state is shown from its decision alone ({why})", table.game_type);
    }
    let game = games::game(&table.game_type);
    if a.text {
        let report = game.and_then(|g| g.report(&a.game, &table));
        out!("{}", with_delay(report.unwrap_or_else(|| plain::any::report(&a.game, &table)), &table));
    } else {
        let json = game.and_then(|g| g.view_json(&table)).unwrap_or_else(|| table.to_json(&a.game));
        outln!("{json}");
    }
    if a.text
        && let Some(line) = Clocks::new(None, table.clocks.clone()).line(|s| seat_name(&table, s))
    {
        outln!("{line}");
    }
    Ok(())
}

/// `xodus say`: says a line (text, a signal, or both) as the seat and
/// prints the line as the server kept it, JSON (`signal_words`: the
/// signal in the server's words).
pub async fn say(a: SayArgs) -> anyhow::Result<()> {
    let (game, line) = saying(&a)?;
    let remote = Remote::connect(&a.server.server).await?;
    let kept = remote.say(&game, a.seat, &a.token, &line).await?;
    outln!("{}", serde_json::to_string(&kept)?);
    Ok(())
}

/// `xodus hint`: asks the AI agent serving hints for the seat's best
/// options now and prints `{"game","seat","seq","options":[{"option_id",
/// "label","estimate","reason"}],"think_ms"}`, best first. Refusals: 6 no
/// decision now or no agent serves hints (the server's words), 8 asked
/// again within 2 s, 9 the agent did not answer in time.
pub async fn hint(a: HintArgs) -> anyhow::Result<()> {
    let remote = Remote::connect(&a.server.server).await?;
    let hint = remote.ask_hint(a.game(), a.seat, &a.token).await?;
    outln!("{}", serde_json::to_string(&hint)?);
    Ok(())
}

/// The game and the line `xodus say`'s arguments ask for; a usage error
/// when no game is named, it says nothing or names no signal any game
/// has. The text goes to the server as typed: it refuses what it does not
/// take, in its own words.
fn saying(a: &SayArgs) -> Result<(String, Saying), UsageError> {
    let (game, words) =
        a.game_and_words().ok_or_else(|| UsageError("name the game: xodus say GAME --seat N --token T TEXT".into()))?;
    let text = words.join(" ");
    let signal = a.signal.as_deref().map(games::signal).transpose().map_err(UsageError)?;
    if text.trim().is_empty() && signal.is_none() {
        return Err(UsageError(format!("nothing to say: give TEXT (up to {MAX_CHARS} characters) or --signal")));
    }
    let audience = match (a.to, a.team) {
        (Some(seat), _) => Audience::Seat(seat),
        (None, true) => Audience::Team,
        (None, false) => Audience::Table,
    };
    Ok((game.to_string(), Saying { audience, text, signal }))
}

/// A text report with, under its first line, the line saying how far
/// behind the live game the state is, when it is.
fn with_delay(report: String, table: &Table) -> String {
    let Some(words) = table.delay_words() else {
        return report;
    };
    match report.split_once('\n') {
        Some((head, rest)) => format!("{head}\n{words}\n{rest}"),
        None => format!("{report}\n{words}\n"),
    }
}

/// A seat as the text reports name it: "captain 2" (X-ODUS), "Commander
/// 3" (VII Legio, seat 2), "seat 2" (any other game).
pub fn seat_name(table: &Table, seat: u32) -> String {
    xodus_cli::games::seat_name(&table.game_type, seat)
}

/// The exit code for an error: the remote error's own, 2 for a bad
/// command line, else 1 (README, "Exit codes").
pub fn exit_code(e: &anyhow::Error) -> i32 {
    if e.downcast_ref::<UsageError>().is_some() {
        return USAGE_EXIT;
    }
    e.downcast_ref::<RemoteError>().map(RemoteError::exit_code).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::pb;
    use xodus_cli::cli::{Cli, Command};

    fn say_args(args: &[&str]) -> SayArgs {
        let base = ["xodus", "say", "g-1", "--seat", "0", "--token", "t"];
        let all: Vec<&str> = base.iter().chain(args).copied().collect();
        match Cli::try_parse_for("xodus", "xodus", all).expect("parses").command {
            Command::Say(a) => a,
            other => panic!("not say: {other:?}"),
        }
    }

    #[test]
    fn say_reads_its_audience_text_and_signal_and_refuses_nothing_to_say() {
        let (game, s) = saying(&say_args(&["--to", "2", "on", "my", "way"])).expect("a line");
        assert_eq!((s.audience, s.text.as_str(), s.signal.is_none()), (Audience::Seat(2), "on my way", true));
        assert_eq!(game, "g-1");
        let (_, s) = saying(&say_args(&["--team", "--signal", "dont-seal"])).expect("a signal");
        assert_eq!((s.audience, s.text.as_str(), s.signal.is_some()), (Audience::Team, "", true));
        assert!(saying(&say_args(&[])).is_err(), "nothing to say");
        let e = saying(&say_args(&["--signal", "dance"])).expect_err("no such signal");
        assert!(e.0.contains("heading-to") && e.0.contains("land-with-me"), "{e}");
        let both = ["xodus", "say", "g", "--seat", "0", "--token", "t", "--to", "1", "--team", "hi"];
        assert_eq!(Cli::try_parse_for("xodus", "xodus", both).map(|_| ()).map_err(|e| e.exit_code()), Err(2));
    }

    #[test]
    fn say_and_hint_name_their_game_first_as_act_and_view_do_and_still_take_the_older_game_flag() {
        let parse = |args: &[&str]| Cli::try_parse_for("xodus", "xodus", args.iter().copied()).expect("parses").command;
        let said = |args: &[&str]| match parse(args) {
            Command::Say(a) => saying(&a).map(|(g, s)| (g, s.text)).expect("a line"),
            other => panic!("not say: {other:?}"),
        };
        let new = said(&["xodus", "say", "g-7", "--seat", "1", "--token", "t", "hello", "there"]);
        let old = said(&["xodus", "say", "--game", "g-7", "--seat", "1", "--token", "t", "hello", "there"]);
        assert_eq!(new, ("g-7".to_string(), "hello there".to_string()));
        assert_eq!(old, new);
        for args in [
            &["xodus", "hint", "g-7", "--seat", "1", "--token", "t"][..],
            &["xodus", "hint", "--seat", "1", "--token", "t", "--game", "g-7"][..],
        ] {
            match parse(args) {
                Command::Hint(a) => assert_eq!(a.game(), "g-7"),
                other => panic!("not hint: {other:?}"),
            }
        }
        let none = ["xodus", "hint", "--seat", "1", "--token", "t"];
        assert_eq!(Cli::try_parse_for("xodus", "xodus", none).map(|_| ()).map_err(|e| e.exit_code()), Err(2));
        match parse(&["xodus", "say", "--seat", "1", "--token", "t"]) {
            Command::Say(a) => assert!(saying(&a).is_err(), "no game named"),
            other => panic!("not say: {other:?}"),
        }
    }

    #[test]
    fn acting_in_a_game_without_a_reader_answers_with_the_platform_decision() {
        let state = pb::GameState {
            seq: 4,
            game_type: "high_card".into(),
            decision: Some(pb::Decision {
                kind: "draw".into(),
                deciders: vec![1],
                prompt: "Draw or stand".into(),
                options: vec![pb::ChoiceOption {
                    id: "stand".into(),
                    label: "Stand".into(),
                    seats: vec![1],
                    ..Default::default()
                }],
            }),
            ..Default::default()
        };
        let table = games::read(&state);
        let out = act_json("g-9", 0, "draw", &["seat 0 draws a card".to_string()], &table);
        assert_eq!(out["seq"], 4);
        assert_eq!(out["game_type"], "high_card");
        assert_eq!(out["events"][0], "seat 0 draws a card");
        assert_eq!(out["decision"]["prompt"], "Draw or stand");
        assert_eq!(out["decision"]["deciders"][0], 1);
        assert_eq!(out["decision"]["options"][0]["id"], "stand");
        assert!(out["outcome"].is_null());
    }
}
