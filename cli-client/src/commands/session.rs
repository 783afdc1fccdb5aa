//! Following one game: on its screen (the game's own, or the table
//! screen, which shows any game from its decision; with choices sent for
//! this terminal's seats) or as plain lines. Both resume the server stream
//! from the last sequence number seen if it breaks.

use super::interrupt;
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use xodus_cli::clock::{ClockRules, Clocks, played_by_line};
use xodus_cli::games;
use xodus_cli::procs::{self, Guard};
use xodus_cli::remote::{Remote, RemoteError, Step};
use xodus_cli::seats::{self, Seat, SeatHolder};
use xodus_cli::table::{self, Table};
use xodus_cli::talk::Heard;
use xodus_cli::tui::{self, Front, Request, Submit, Update};

/// Times a broken stream is reopened before giving up.
const RESUMES: u32 = 10;

/// Called with the seats this terminal gave back (`play` forgets them in
/// its saved game).
pub type LeaveHook = Box<dyn FnMut(&[Seat]) + Send>;

/// Follows `game` from `from_seq` and its talk from `from_talk_seq` (as a
/// spectator, or as `seat` with its token), reopening the stream where it
/// broke (the last seq and talk_seq seen) when it breaks, until the game
/// ends, the receiver is dropped (the stream closes at once) or the server
/// stays away.
pub fn spawn_follow(
    remote: Remote,
    game: String,
    (from_seq, from_talk_seq): (u64, u64),
    seat: Option<(Seat, String)>,
) -> mpsc::UnboundedReceiver<Step> {
    let (tx, rx) = mpsc::unbounded_channel();
    let gone = tx.clone();
    let follow = async move {
        let last = Arc::new(AtomicU64::new(from_seq));
        let last_talk = Arc::new(AtomicU64::new(from_talk_seq));
        let mut failures = 0;
        loop {
            let (step_tx, mut step_rx) = mpsc::unbounded_channel::<Step>();
            let fwd_tx = tx.clone();
            let fwd_last = last.clone();
            let fwd_talk = last_talk.clone();
            let forward = tokio::spawn(async move {
                let mut over = false;
                while let Some(step) = step_rx.recv().await {
                    fwd_last.store(step.seq, Ordering::SeqCst);
                    if let Some(t) = step.talk.iter().map(|l| l.talk_seq).max() {
                        fwd_talk.fetch_max(t, Ordering::SeqCst);
                    }
                    over |= step.over();
                    if fwd_tx.send(step).is_err() {
                        return true;
                    }
                }
                over
            });
            let (seq, talk) = (last.load(Ordering::SeqCst), last_talk.load(Ordering::SeqCst));
            let result = remote.follow(&game, seq, talk, seat.clone(), step_tx).await;
            let done = forward.await.unwrap_or(true);
            if done || tx.is_closed() {
                return;
            }
            match result {
                Ok(()) => failures = 0,
                Err(e) => {
                    failures += 1;
                    tracing::warn!("stream of {game} broke: {e}");
                    if failures > RESUMES {
                        return;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(300 * failures as u64 + 100)).await;
        }
    };
    tokio::spawn(async move {
        tokio::select! {
            () = follow => {}
            () = gone.closed() => {}
        }
    });
    rx
}

/// Runs the game's own screen (`games::open_screen`; the table screen for
/// a game this client does not know) for `game` with `tokens` for this
/// terminal's seats (none: spectator), watching `children` (stopped when
/// the screen closes), pausing `pace` after each step with events so that
/// fast AI players can be followed. A game whose seats keep secrets (or
/// one this client does not know) is followed as one seat, the lowest of
/// this terminal's, and a spectator again once that seat is given back;
/// another is followed as a spectator, with choices sent for each of this
/// terminal's seats. Returns the outcome if the game ended.
pub async fn screen(
    remote: Remote,
    game: String,
    mut tokens: HashMap<Seat, String>,
    on_leave: Option<LeaveHook>,
    ai_seats: Vec<Seat>,
    pace: Duration,
    children: Vec<Guard>,
) -> anyhow::Result<Option<table::Outcome>> {
    let first = remote.state(&game, None).await?;
    let seat = if games::one_seat_per_screen(&first.game_type) {
        // One seat's secrets on one screen: the lowest seat of this terminal.
        let lowest = tokens.iter().min_by_key(|(s, _)| **s).map(|(s, t)| (*s, t.clone()));
        tokens = lowest.iter().cloned().collect();
        lowest
    } else {
        None
    };
    let creds = seat.as_ref().map(|(s, t)| (*s, t.as_str()));
    let table = if creds.is_some() { remote.state(&game, creds).await? } else { first };
    let from = table.seq;
    let mut seats: Vec<Seat> = tokens.keys().copied().collect();
    seats.sort();
    // The seat's mutes, kept with the game: shown from the start.
    let muted: Vec<Seat> = table.muted.iter().filter_map(|&s| Seat::try_from(s).ok()).collect();
    let mut screen = games::open_screen(&game, table, seats).map_err(RemoteError::Other)?;
    screen.set_ai_seats(ai_seats);
    screen.talk_mut().muted = muted;
    // A game in progress (a resume, a second terminal): its log so far.
    if from > 0 {
        match remote.past(&game, creds).await {
            Ok(past) => screen.replay_log(&past),
            Err(e) => screen.note(format!("the log so far could not be read: {e}")),
        }
    }
    screen.note(format!("Following game {game} on {}", remote.url()));

    let (upd_tx, upd_rx) = std::sync::mpsc::channel::<Update>();
    let mut steps = spawn_follow(remote.clone(), game.clone(), (from, 0), seat.clone());
    let feed_tx = upd_tx.clone();
    let feed_remote = remote.clone();
    let feed_game = game.clone();
    let mut feed_seat = seat.clone();
    let (spectate, mut spectate_rx) = mpsc::unbounded_channel::<()>();
    let feed = tokio::spawn(async move {
        let mut last = from;
        let mut last_talk = 0;
        loop {
            let mut step = tokio::select! {
                s = steps.recv() => match s {
                    Some(s) => s,
                    None => break,
                },
                Some(()) = spectate_rx.recv() => {
                    // The seat was given back: follow on as a spectator.
                    feed_seat = None;
                    steps = spawn_follow(feed_remote.clone(), feed_game.clone(), (last, last_talk), None);
                    continue;
                }
            };
            last = step.seq;
            // Said at this step's seq: heard after its update.
            let talk = std::mem::take(&mut step.talk);
            last_talk = talk.iter().map(|l| l.talk_seq).max().unwrap_or(last_talk).max(last_talk);
            let talk = (!talk.is_empty()).then_some(Update::Talk(talk));
            if let Some(seats) = step.seats.clone()
                && feed_tx.send(Update::Seats(seats)).is_err()
            {
                return;
            }
            if !send_clock_news(&feed_tx, &step) {
                return;
            }
            if !step.state_sent {
                if let Some(talk) = talk
                    && feed_tx.send(talk).is_err()
                {
                    return;
                }
                continue;
            }
            let table = match step.table {
                Some(t) => Some(t),
                None => {
                    let creds = feed_seat.as_ref().map(|(s, t)| (*s, t.as_str()));
                    feed_remote.state(&feed_game, creds).await.ok()
                }
            };
            // A state without clocks (the stream's first snapshot) keeps the
            // clocks already shown: a timed game's states all have some.
            if let Some(t) = table.as_ref().filter(|t| !t.clocks.is_empty())
                && feed_tx.send(Update::Clocks(t.clocks.clone())).is_err()
            {
                return;
            }
            let update = match table {
                Some(t) => Update::State { table: Box::new(t), events: step.events, undo: step.undo },
                None => Update::Notice("lost the view; retrying".into()),
            };
            let paced = matches!(&update, Update::State { events, .. } if !events.is_empty());
            if feed_tx.send(update).is_err() {
                return;
            }
            if let Some(talk) = talk
                && feed_tx.send(talk).is_err()
            {
                return;
            }
            if paced && !pace.is_zero() {
                tokio::time::sleep(pace).await;
            }
        }
        let _ = feed_tx.send(Update::Closed("the server stream ended".into()));
    });
    let spectate = seat.is_some().then_some(spectate);
    let seating = Seating { tokens, on_leave, spectate };
    let screen = run_front(screen, remote, game, seating, upd_tx, upd_rx, feed, children).await?;
    Ok(screen.and_then(|s| s.outcome()))
}

/// Tells a screen the game's clock rules when the step carries them, and
/// who made the step's choice when it was not the seat's holder. False
/// once the screen is gone.
fn send_clock_news(tx: &std::sync::mpsc::Sender<Update>, step: &Step) -> bool {
    if let Some(rules) = step.clock
        && tx.send(Update::ClockRules(rules)).is_err()
    {
        return false;
    }
    match step.played_by {
        Some((seat, by)) => tx.send(Update::PlayedBy(seat, by)).is_ok(),
        None => true,
    }
}

/// This terminal's seats on a screen, and what happens when it gives them
/// back.
struct Seating {
    /// Each seat and its token (empty: a spectator).
    tokens: HashMap<Seat, String>,
    /// Told which seats were given back.
    on_leave: Option<LeaveHook>,
    /// Told once no seat is left, to follow the game as a spectator (a
    /// feed that follows as a seat).
    spectate: Option<mpsc::UnboundedSender<()>>,
}

/// The keyboard loop over `front`, fed by `feed` through `upd_rx`, with the
/// person's choices, undos and leave sent for `seating`'s seats and `children`
/// watched (a notice when one stops; all stopped at the end). Returns the
/// screen, or None when the process was asked to stop.
#[allow(clippy::too_many_arguments)]
async fn run_front(
    front: Box<dyn Front>,
    remote: Remote,
    game: String,
    seating: Seating,
    upd_tx: std::sync::mpsc::Sender<Update>,
    upd_rx: std::sync::mpsc::Receiver<Update>,
    feed: tokio::task::JoinHandle<()>,
    children: Vec<Guard>,
) -> anyhow::Result<Option<Box<dyn Front>>> {
    let quit_tx = upd_tx.clone();
    let notices = upd_tx.clone();
    let (sub_tx, mut sub_rx) = mpsc::unbounded_channel::<Submit>();
    let Seating { mut tokens, mut on_leave, spectate } = seating;
    let actor = tokio::spawn(async move {
        while let Some(s) = sub_rx.recv().await {
            match &s.request {
                Request::Choose(id) => {
                    let Some(token) = tokens.get(&s.seat) else { continue };
                    if let Err(e) = remote.act(&game, s.seat, token, id, s.expect_seq).await {
                        let _ = upd_tx.send(Update::Notice(e.to_string()));
                    }
                }
                Request::Undo => {
                    // Only the seat that made the last choice may take it back.
                    let mut last_err = None;
                    let mut done = false;
                    for (seat, token) in &tokens {
                        match remote.undo(&game, *seat, token, s.expect_seq).await {
                            Ok(_) => {
                                done = true;
                                break;
                            }
                            Err(e) => last_err = Some(e),
                        }
                    }
                    // Done: the stream's undo step says so in the log.
                    let refusal = match (done, last_err) {
                        (true, _) => None,
                        (false, Some(e)) => Some(format!("cannot undo: {e}")),
                        (false, None) => Some("cannot undo: no seat here".to_string()),
                    };
                    if let Some(line) = refusal {
                        let _ = upd_tx.send(Update::Notice(line));
                    }
                }
                Request::Say(line) => {
                    let Some(token) = tokens.get(&s.seat) else { continue };
                    // Said: the line comes back on the stream.
                    if let Err(e) = remote.say(&game, s.seat, token, line).await {
                        let _ = upd_tx.send(Update::TalkRefused(format!("not said: {e}")));
                    }
                }
                Request::Hint => {
                    let Some(token) = tokens.get(&s.seat).cloned() else { continue };
                    // The agent thinks a while: a choice sent meanwhile
                    // does not wait for it.
                    let (remote, game, tx, seat) = (remote.clone(), game.clone(), upd_tx.clone(), s.seat);
                    tokio::spawn(async move {
                        let update = match remote.ask_hint(&game, seat, &token).await {
                            Ok(hint) => Update::Hint(hint),
                            Err(e) => Update::HintRefused(hint_refusal(&e)),
                        };
                        let _ = tx.send(update);
                    });
                }
                Request::Mute { seat, muted } => {
                    let Some(token) = tokens.get(&s.seat) else { continue };
                    match remote.mute(&game, (s.seat, token), *seat, *muted).await {
                        Ok(now) => {
                            let _ = upd_tx.send(Update::Muted(now));
                        }
                        Err(e) => {
                            let _ = upd_tx.send(Update::TalkRefused(format!("not muted: {e}")));
                        }
                    }
                }
                Request::Leave => {
                    let mut seats: Vec<Seat> = tokens.keys().copied().collect();
                    seats.sort();
                    let mut left = Vec::new();
                    let mut refusal = None;
                    for seat in seats {
                        let Some(token) = tokens.get(&seat) else { continue };
                        match remote.release(&game, seat, token).await {
                            Ok(_) => {
                                tokens.remove(&seat);
                                left.push(seat);
                            }
                            Err(e) => refusal = Some(format!("cannot leave seat {seat}: {e}")),
                        }
                    }
                    if !left.is_empty() {
                        if let Some(hook) = on_leave.as_mut() {
                            hook(&left);
                        }
                        if tokens.is_empty()
                            && let Some(tx) = &spectate
                        {
                            let _ = tx.send(());
                        }
                        let _ = upd_tx.send(Update::Left(left));
                    }
                    if let Some(line) = refusal {
                        let _ = upd_tx.send(Update::Notice(line));
                    }
                }
            }
        }
    });
    // Say so when a child process (an AI captain, the local server) stops.
    // The children stay here, to be stopped when the screen closes (or
    // dropped, and stopped one by one, if this unwinds).
    let children = Arc::new(Mutex::new(children));
    let watched = Arc::clone(&children);
    let watchdog = tokio::spawn(async move {
        let mut reported: Vec<String> = Vec::new();
        loop {
            if let Ok(mut children) = watched.lock() {
                for c in children.iter_mut() {
                    if !reported.contains(&c.name) && c.exited() {
                        reported.push(c.name.clone());
                        let _ = notices.send(Update::Notice(format!("{} has stopped; see its log", c.name)));
                    }
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });

    let mut tui = tokio::task::spawn_blocking(move || {
        tui::run(front, upd_rx, move |s| {
            let _ = sub_tx.send(s);
        })
    });
    let _signals = interrupt::handled_here();
    let result = tokio::select! {
        r = &mut tui => r,
        () = interrupt::stop_asked() => {
            let _ = quit_tx.send(Update::Quit);
            // A vanished terminal can keep the input thread busy: do not wait
            // for it, so the children are still stopped and the process ends.
            match tokio::time::timeout(Duration::from_secs(1), tui).await {
                Ok(r) => r,
                Err(_) => {
                    feed.abort();
                    actor.abort();
                    watchdog.abort();
                    stop_children(&children).await;
                    return Ok(None);
                }
            }
        }
    };
    feed.abort();
    actor.abort();
    watchdog.abort();
    stop_children(&children).await;
    Ok(Some(result??))
}

/// Why no hint came, in a player's words for the status line: the
/// server's own words when there is no decision now or no agent serves
/// hints, how long to wait when asked too soon, that the agent did not
/// answer in time.
fn hint_refusal(e: &RemoteError) -> String {
    match e {
        RemoteError::Invalid(why) => format!("no hint: {why}"),
        RemoteError::TooFast(why) => match xodus_cli::hint::wait_words(why) {
            Some(wait) => format!("no hint yet: {wait} (a seat may ask every 2 s)"),
            None => format!("no hint yet: {why}"),
        },
        RemoteError::NoAnswer(_) => {
            format!("no hint: the AI agent did not answer in time; {} asks again", xodus_cli::hint::HINT_KEY)
        }
        other => format!("no hint: {other}"),
    }
}

/// Stops the children a screen watched, all at once (SIGTERM, then a
/// kill after the grace), off the async threads.
async fn stop_children(children: &Arc<Mutex<Vec<Guard>>>) {
    let taken = match children.lock() {
        Ok(mut c) => std::mem::take(&mut *c),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    let _ = tokio::task::spawn_blocking(move || procs::stop_all(taken)).await;
}

/// Prints the game as lines until it ends; returns the final state. Any
/// game: its own lines when it words its events (`ClientGame::event_lines`),
/// else the server's summaries.
pub async fn plain(remote: Remote, game: String) -> anyhow::Result<Table> {
    let mut table = remote.state(&game, None).await?;
    let mut out = std::io::stdout();
    if !emit(&mut out, &format!("watching game {game} on {} from seq {}", remote.url(), table.seq)) {
        return Ok(table);
    }
    if table.over() {
        return Ok(table);
    }
    let mut steps = spawn_follow(remote.clone(), game.clone(), (table.seq, 0), None);
    let mut seats: Vec<SeatHolder> = Vec::new();
    let mut rules: Option<ClockRules> = None;
    let _signals = interrupt::handled_here();
    loop {
        let step = tokio::select! {
            s = steps.recv() => s,
            () = interrupt::stop_asked() => {
                say("stopped");
                return Ok(table);
            }
        };
        let Some(step) = step else { break };
        rules = step.clock.or(rules);
        let mut lines: Vec<String> = Vec::new();
        if let Some((seat, by)) = step.played_by
            && let Some(line) = played_by_line(by, &seat_title(&table, seat))
        {
            lines.push(line);
        }
        if let Some(now) = &step.seats {
            let name = |s: Seat| seat_title(&table, s);
            if seats.is_empty() {
                lines.push(seats::listing(now, name));
            } else {
                lines.extend(seats::changes(&seats, now, name));
            }
            seats = now.clone();
        }
        let talk: Vec<String> = step.talk.iter().map(|l| talk_line(&table, l)).collect();
        if !step.state_sent {
            lines.extend(talk);
            if !emit_all(&mut out, step.seq, &lines) {
                return Ok(table);
            }
            continue;
        }
        // The game's own words for its events (X-ODUS names the systems on
        // its board), else the server's summaries.
        let own = step.table.as_ref().and_then(|t| games::game(&t.game_type)?.event_lines(&step.events, t));
        lines.extend(own.unwrap_or_else(|| step.lines.clone()));
        if let Some(t) = step.table {
            table = t;
        } else if let Ok(t) = remote.state(&game, None).await {
            table = t;
        }
        lines.extend(Clocks::new(rules, table.clocks.clone()).line(|s| seat_title(&table, s as Seat)));
        lines.extend(talk);
        if !emit_all(&mut out, step.seq, &lines) {
            // The reader went away (`xodus watch --plain | head`): nobody
            // is watching any more, so stop following.
            return Ok(table);
        }
        if table.over() {
            break;
        }
    }
    if !table.over() {
        anyhow::bail!("the server stream of game {game} ended before the game did");
    }
    Ok(table)
}

/// Writes `line` and flushes; false when the reader of stdout has gone
/// away (a closed pipe). Other write errors are logged and ignored.
fn emit(out: &mut impl Write, line: &str) -> bool {
    match writeln!(out, "{line}").and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => false,
        Err(e) => {
            tracing::warn!(%e, "stdout could not be written");
            true
        }
    }
}

/// Each of `lines` as "[seq] line" (see [`emit`]); false when the reader
/// has gone away.
fn emit_all(out: &mut impl Write, seq: u64, lines: &[String]) -> bool {
    lines.iter().all(|line| emit(out, &format!("[{seq}] {line}")))
}

/// A line of talk as the plain lines print it: "talk: captain 1 (AI)
/// plans: ...".
fn talk_line(table: &Table, line: &Heard) -> String {
    let name = |s: Seat| games::seat_name(&table.game_type, u32::from(s));
    format!("talk: {}", line.words(name, &[]))
}

/// A seat as the plain lines name it (`games::seat_title`).
fn seat_title(table: &Table, seat: Seat) -> String {
    games::seat_title(table, seat)
}

/// Prints a line on stdout, ignoring a closed stdout (the terminal may be
/// gone when a result is printed).
pub fn say(line: &str) {
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// One line for a result, any game: "game G: VICTORY (rift sealed) in
/// round 9", "game G: OVER (declared) in round 12: ranking seat 2 (31), ...".
pub fn result_line(game: &str, o: &table::Outcome) -> String {
    format!("game {game}: {}", o.words())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_hint_is_worded_for_the_status_line() {
        let no_agent = RemoteError::Invalid("no AI agent serves hints on this server: start `xodus-ai --fill`".into());
        assert_eq!(
            hint_refusal(&no_agent),
            "no hint: no AI agent serves hints on this server: start `xodus-ai --fill`"
        );
        let soon = RemoteError::TooFast("a seat may ask for a hint every 2 s; retry in 1.4 s".into());
        assert_eq!(hint_refusal(&soon), "no hint yet: wait 2 s (a seat may ask every 2 s)");
        let slow = RemoteError::NoAnswer("the agent serving hints did not answer within 1700 ms".into());
        assert_eq!(hint_refusal(&slow), "no hint: the AI agent did not answer in time; B asks again");
    }
}
