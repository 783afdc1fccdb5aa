//! Turn clocks as the terminal shows them: the rules a game was created
//! with (`--clock`, `--on-timeout`), each seat's clock from a state, the
//! time left at a given moment (a running clock counts down from its
//! deadline), "m:ss" in words, when a seat's time is low, and who made a
//! choice the seat's holder did not make. Pure data: the screens and the
//! plain reports draw from it, `remote` reads it from the wire.

use serde::Serialize;
use std::time::{SystemTime, UNIX_EPOCH};
use tabletop::pb;

/// The longest time a clock takes, in seconds (the server's limit: a day).
pub const MAX_SECONDS: u32 = 86_400;
/// Under this, a seat's time is low whatever the clock.
pub const LOW_MS: i64 = 15_000;
/// Under this share of the starting time (one fifth), a seat's time is low.
pub const LOW_SHARE: i64 = 5;

/// Which clock times the seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// A bank of time, topped up after each choice (up to a cap).
    Fischer,
    /// A fixed time for each decision, nothing banked.
    PerMove,
    /// One bank of time for the whole game.
    Absolute,
}

/// What happens when a seat's time runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The game's own default (the server decides).
    Default,
    /// An AI agent stands in until the holder returns.
    StandIn,
    /// The server passes for the seat.
    Skip,
    /// The seat forfeits.
    Forfeit,
}

impl OnTimeout {
    /// Reads `--on-timeout`: `stand-in`, `skip` or `forfeit`.
    pub fn parse(s: &str) -> Result<OnTimeout, String> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "stand-in" | "standin" | "ai" => Ok(OnTimeout::StandIn),
            "skip" => Ok(OnTimeout::Skip),
            "forfeit" => Ok(OnTimeout::Forfeit),
            _ => Err(format!("{s:?} is not a timeout policy; choose stand-in, skip or forfeit")),
        }
    }

    fn words(self) -> &'static str {
        match self {
            OnTimeout::Default => "",
            OnTimeout::StandIn => "AI stands in",
            OnTimeout::Skip => "skip",
            OnTimeout::Forfeit => "forfeit",
        }
    }
}

/// How a game's seats are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockRules {
    /// Which clock.
    pub kind: ClockKind,
    /// Fischer and absolute: each seat's starting time, in seconds.
    pub initial_seconds: u32,
    /// Fischer: seconds added after each choice.
    pub increment_seconds: u32,
    /// Fischer: the most a seat may bank, in seconds (0: no cap).
    pub cap_seconds: u32,
    /// Per move: seconds for each decision.
    pub per_move_seconds: u32,
    /// What happens when the time runs out.
    pub on_timeout: OnTimeout,
}

/// Reads a number of seconds from 1 to [`MAX_SECONDS`] (0 too when `zero_ok`).
fn seconds(s: &str, what: &str, zero_ok: bool) -> Result<u32, String> {
    let n: u32 = s.trim().parse().map_err(|_| format!("{what} {s:?} is not a whole number of seconds"))?;
    if (n == 0 && !zero_ok) || n > MAX_SECONDS {
        return Err(format!("{what} must be 1 to {MAX_SECONDS} seconds, not {n}"));
    }
    Ok(n)
}

impl ClockRules {
    /// Reads `--clock`: `fischer:INITIAL+INCREMENT[/CAP]`,
    /// `per-move:SECONDS` or `absolute:SECONDS` (all in seconds). The
    /// timeout policy is the game's default until [`ClockRules::on_timeout`]
    /// is set.
    pub fn parse(s: &str) -> Result<ClockRules, String> {
        const FORMS: &str = "fischer:INITIAL+INCREMENT[/CAP], per-move:SECONDS or absolute:SECONDS";
        let Some((kind, rest)) = s.split_once(':') else {
            return Err(format!("{s:?} is not a clock; write {FORMS}"));
        };
        let none = ClockRules {
            kind: ClockKind::Fischer,
            initial_seconds: 0,
            increment_seconds: 0,
            cap_seconds: 0,
            per_move_seconds: 0,
            on_timeout: OnTimeout::Default,
        };
        match kind.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "fischer" => {
                let (times, cap) = match rest.split_once('/') {
                    Some((t, c)) => (t, seconds(c, "the cap", true)?),
                    None => (rest, 0),
                };
                let Some((initial, increment)) = times.split_once('+') else {
                    return Err(format!("a Fischer clock is fischer:INITIAL+INCREMENT[/CAP], not {s:?}"));
                };
                let initial = seconds(initial, "the initial time", false)?;
                let increment = seconds(increment, "the increment", true)?;
                if cap != 0 && cap < initial {
                    return Err(format!("the cap ({cap} s) is below the initial time ({initial} s)"));
                }
                Ok(ClockRules { initial_seconds: initial, increment_seconds: increment, cap_seconds: cap, ..none })
            }
            "per-move" | "permove" => {
                let per = seconds(rest, "the time per move", false)?;
                Ok(ClockRules { kind: ClockKind::PerMove, per_move_seconds: per, ..none })
            }
            "absolute" => {
                let initial = seconds(rest, "the time", false)?;
                Ok(ClockRules { kind: ClockKind::Absolute, initial_seconds: initial, ..none })
            }
            other => Err(format!("{other:?} is not a clock kind; write {FORMS}")),
        }
    }

    /// From the wire (None: no clock).
    pub fn from_wire(c: &pb::ClockRules) -> Option<ClockRules> {
        let kind = match pb::ClockKind::try_from(c.kind) {
            Ok(pb::ClockKind::Fischer) => ClockKind::Fischer,
            Ok(pb::ClockKind::PerMove) => ClockKind::PerMove,
            Ok(pb::ClockKind::Absolute) => ClockKind::Absolute,
            _ => return None,
        };
        let on_timeout = match pb::TimeoutPolicy::try_from(c.on_timeout) {
            Ok(pb::TimeoutPolicy::AiStandIn) => OnTimeout::StandIn,
            Ok(pb::TimeoutPolicy::Skip) => OnTimeout::Skip,
            Ok(pb::TimeoutPolicy::Forfeit) => OnTimeout::Forfeit,
            _ => OnTimeout::Default,
        };
        Some(ClockRules {
            kind,
            initial_seconds: c.initial_seconds,
            increment_seconds: c.increment_seconds,
            cap_seconds: c.cap_seconds,
            per_move_seconds: c.per_move_seconds,
            on_timeout,
        })
    }

    /// For a CreateGame request.
    pub fn to_wire(&self) -> pb::ClockRules {
        let kind = match self.kind {
            ClockKind::Fischer => pb::ClockKind::Fischer,
            ClockKind::PerMove => pb::ClockKind::PerMove,
            ClockKind::Absolute => pb::ClockKind::Absolute,
        };
        let on_timeout = match self.on_timeout {
            OnTimeout::Default => pb::TimeoutPolicy::Unspecified,
            OnTimeout::StandIn => pb::TimeoutPolicy::AiStandIn,
            OnTimeout::Skip => pb::TimeoutPolicy::Skip,
            OnTimeout::Forfeit => pb::TimeoutPolicy::Forfeit,
        };
        pb::ClockRules {
            kind: kind as i32,
            initial_seconds: self.initial_seconds,
            increment_seconds: self.increment_seconds,
            cap_seconds: self.cap_seconds,
            per_move_seconds: self.per_move_seconds,
            on_timeout: on_timeout as i32,
        }
    }

    /// A seat's full time in milliseconds: the initial time, or the time
    /// per move.
    pub fn full_ms(&self) -> i64 {
        let s = if self.kind == ClockKind::PerMove { self.per_move_seconds } else { self.initial_seconds };
        i64::from(s) * 1000
    }

    /// The clock alone, as a lobby column: "fischer 5:00+5/10:00",
    /// "per-move 0:30", "absolute 20:00".
    pub fn short(&self) -> String {
        let t = |s: u32| mmss(i64::from(s) * 1000);
        match self.kind {
            ClockKind::Fischer if self.cap_seconds > 0 => {
                format!("fischer {}+{}/{}", t(self.initial_seconds), self.increment_seconds, t(self.cap_seconds))
            }
            ClockKind::Fischer => format!("fischer {}+{}", t(self.initial_seconds), self.increment_seconds),
            ClockKind::PerMove => format!("per-move {}", t(self.per_move_seconds)),
            ClockKind::Absolute => format!("absolute {}", t(self.initial_seconds)),
        }
    }

    /// "fischer 5:00+5 cap 10:00", "per move 0:30", "absolute 20:00",
    /// then the timeout policy when one was chosen ("; out of time: skip").
    pub fn words(&self) -> String {
        let t = |s: u32| mmss(i64::from(s) * 1000);
        let mut w = match self.kind {
            ClockKind::Fischer => {
                let cap = if self.cap_seconds > 0 { format!(" cap {}", t(self.cap_seconds)) } else { String::new() };
                format!("fischer {}+{}{cap}", t(self.initial_seconds), self.increment_seconds)
            }
            ClockKind::PerMove => format!("per move {}", t(self.per_move_seconds)),
            ClockKind::Absolute => format!("absolute {}", t(self.initial_seconds)),
        };
        if self.on_timeout != OnTimeout::Default {
            w.push_str(&format!("; out of time: {}", self.on_timeout.words()));
        }
        w
    }
}

/// One seat's clock, as a state reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeatClock {
    /// The seat.
    pub seat: u32,
    /// Time left when the state was made, in milliseconds.
    pub remaining_ms: i64,
    /// The game waits on this seat: its time runs.
    pub running: bool,
    /// When a running clock reaches 0, in milliseconds since the Unix
    /// epoch (server time).
    pub deadline_ms: Option<i64>,
    /// Its time ran out at least once.
    pub timed_out: bool,
    /// The seat forfeited.
    pub forfeited: bool,
}

impl SeatClock {
    /// From the wire.
    pub fn from_wire(c: &pb::SeatClock) -> SeatClock {
        SeatClock {
            seat: c.seat,
            remaining_ms: c.remaining_ms.max(0),
            running: c.running,
            deadline_ms: c.deadline.as_ref().map(|d| d.seconds * 1000 + i64::from(d.nanos) / 1_000_000),
            timed_out: c.timed_out,
            forfeited: c.forfeited,
        }
    }

    /// Time left at `now_ms`: a running clock counts down to its deadline
    /// (never showing more than the state said, so a client clock behind
    /// the server's does not add time); a stopped one keeps its time.
    pub fn left_ms(&self, now_ms: i64) -> i64 {
        match (self.running, self.deadline_ms) {
            (true, Some(deadline)) => (deadline - now_ms).clamp(0, self.remaining_ms),
            _ => self.remaining_ms,
        }
    }

    /// Out of time at `now_ms`: no time left, on a running clock or on one
    /// the server says ran out. (`timed_out` alone stays set once a seat
    /// ran out: a per-move clock starts afresh on the next decision.)
    pub fn out(&self, now_ms: i64) -> bool {
        self.left_ms(now_ms) == 0 && (self.running || self.timed_out)
    }

    /// The seat ran out of time before, and has time again now.
    pub fn ran_out_before(&self, now_ms: i64) -> bool {
        self.timed_out && !self.out(now_ms)
    }

    /// "4:32", with "running", "out of time" or "forfeited" after it when
    /// that applies: one seat's entry in the plain clocks line.
    pub fn words(&self, now_ms: i64) -> String {
        let mut w = mmss(self.left_ms(now_ms));
        if self.forfeited {
            w.push_str(" forfeited");
        } else if self.out(now_ms) {
            w.push_str(" out of time");
        } else if self.timed_out {
            w.push_str(" (ran out before)");
        }
        if self.running && !self.forfeited {
            w.push_str(" running");
        }
        w
    }
}

/// Time as "m:ss" ("1:02:03" from an hour up), rounded up to the second so
/// that "0:00" is shown only once the time is gone.
pub fn mmss(ms: i64) -> String {
    let s = (ms.max(0) + 999) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The time now, in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or_default()
}

/// `left_ms` is low: under [`LOW_MS`], or under a fifth of the seat's full
/// time (when the rules are known).
pub fn is_low(rules: Option<&ClockRules>, left_ms: i64) -> bool {
    left_ms < LOW_MS || rules.is_some_and(|r| left_ms * LOW_SHARE < r.full_ms())
}

/// The seats' clocks on a screen: the rules (once the server sent the
/// game's summary), the latest clocks, and which of this terminal's
/// seats were already warned of low time.
#[derive(Clone, Debug, Default)]
pub struct Clocks {
    /// The game's clock rules, once known.
    pub rules: Option<ClockRules>,
    /// Every seat's clock, from the latest state (empty: no clock).
    pub seats: Vec<SeatClock>,
    /// A fixed "now" (tests); the system clock when None.
    pub fixed_now_ms: Option<i64>,
    /// Seats whose low time was already logged (until their time is no
    /// longer low).
    warned: Vec<u32>,
}

impl Clocks {
    /// Clocks of these rules (when known) and seats.
    pub fn new(rules: Option<ClockRules>, seats: Vec<SeatClock>) -> Clocks {
        Clocks { rules, seats, ..Clocks::default() }
    }

    /// The moment the clocks are drawn at.
    pub fn now_ms(&self) -> i64 {
        self.fixed_now_ms.unwrap_or_else(now_ms)
    }

    /// The game has clocks to show.
    pub fn shown(&self) -> bool {
        !self.seats.is_empty()
    }

    /// `seat`'s clock is low now.
    pub fn low(&self, c: &SeatClock) -> bool {
        !c.forfeited && is_low(self.rules.as_ref(), c.left_ms(self.now_ms()))
    }

    /// Which of `mine` just went low while running (each once, until its
    /// time is topped up again): the seats to warn about in the log.
    pub fn newly_low(&mut self, mine: &[u32]) -> Vec<u32> {
        let now = self.now_ms();
        let mut fresh = Vec::new();
        for c in &self.seats {
            if !mine.contains(&c.seat) {
                continue;
            }
            let low = !c.forfeited && is_low(self.rules.as_ref(), c.left_ms(now));
            let warned = self.warned.contains(&c.seat);
            if low && c.running && !warned {
                self.warned.push(c.seat);
                fresh.push(c.seat);
            } else if !low && warned {
                self.warned.retain(|s| *s != c.seat);
            }
        }
        fresh
    }

    /// The plain clocks line: "clocks (per move 0:30): seat 0 0:21
    /// running, seat 1 0:30", each seat named by `name`; None without clocks.
    pub fn line(&self, name: impl Fn(u32) -> String) -> Option<String> {
        if !self.shown() {
            return None;
        }
        let now = self.now_ms();
        let rules = self.rules.map(|r| format!(" ({})", r.words())).unwrap_or_default();
        let seats: Vec<String> = self.seats.iter().map(|c| format!("{} {}", name(c.seat), c.words(now))).collect();
        Some(format!("clocks{rules}: {}", seats.join(", ")))
    }
}

/// The log line for a choice its seat's holder did not make (`played_by`,
/// a `tabletop.v1.PlayedBy`), naming the seat as `seat`; None for the
/// holder's own (or one not recorded).
pub fn played_by_line(played_by: i32, seat: &str) -> Option<String> {
    match pb::PlayedBy::try_from(played_by) {
        Ok(pb::PlayedBy::StandIn) => Some(format!("an AI stand-in chose for {seat}")),
        Ok(pb::PlayedBy::Server) => Some(format!("the server chose for {seat} (out of time)")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_flags_read_every_form_and_refuse_the_rest() {
        let f = ClockRules::parse("fischer:300+5/600").expect("fischer with a cap");
        assert_eq!((f.kind, f.initial_seconds, f.increment_seconds, f.cap_seconds), (ClockKind::Fischer, 300, 5, 600));
        assert_eq!(f.words(), "fischer 5:00+5 cap 10:00");
        assert_eq!(f.short(), "fischer 5:00+5/10:00");
        let f = ClockRules::parse("fischer:60+0").expect("fischer without a cap");
        assert_eq!((f.initial_seconds, f.increment_seconds, f.cap_seconds), (60, 0, 0));
        let p = ClockRules::parse("per-move:30").expect("per move");
        assert_eq!((p.kind, p.per_move_seconds, p.full_ms()), (ClockKind::PerMove, 30, 30_000));
        let a = ClockRules::parse("absolute:1200").expect("absolute");
        assert_eq!((a.kind, a.initial_seconds), (ClockKind::Absolute, 1200));
        assert_eq!(a.to_wire().kind, pb::ClockKind::Absolute as i32);
        assert_eq!(ClockRules::from_wire(&a.to_wire()), Some(a), "the wire form reads back");
        assert_eq!(ClockRules::from_wire(&pb::ClockRules::default()), None, "unset kind: no clock");
        for bad in [
            "",
            "fischer",
            "fischer:300",
            "fischer:0+5",
            "fischer:300+x",
            "fischer:300+5/100",
            "per-move:0",
            "per-move:-3",
            "absolute:86401",
            "hourglass:30",
        ] {
            assert!(ClockRules::parse(bad).is_err(), "{bad:?} should be refused");
        }
        assert_eq!(OnTimeout::parse("stand-in"), Ok(OnTimeout::StandIn));
        assert_eq!(OnTimeout::parse("skip"), Ok(OnTimeout::Skip));
        assert_eq!(OnTimeout::parse("forfeit"), Ok(OnTimeout::Forfeit));
        assert!(OnTimeout::parse("resign").is_err());
        let skip = ClockRules { on_timeout: OnTimeout::Skip, ..p };
        assert_eq!(skip.to_wire().on_timeout, pb::TimeoutPolicy::Skip as i32);
        assert_eq!(skip.words(), "per move 0:30; out of time: skip");
    }

    #[test]
    fn a_running_clock_counts_down_to_its_deadline_and_a_stopped_one_keeps_its_time() {
        let running = SeatClock {
            seat: 1,
            remaining_ms: 30_000,
            running: true,
            deadline_ms: Some(1_000_030_000),
            timed_out: false,
            forfeited: false,
        };
        assert_eq!(running.left_ms(1_000_000_000), 30_000);
        assert_eq!(mmss(running.left_ms(1_000_008_500)), "0:22", "21.5 s left shows as 0:22");
        assert_eq!(running.left_ms(999_990_000), 30_000, "a client clock behind the server's adds no time");
        assert_eq!(running.left_ms(1_000_040_000), 0);
        assert!(running.out(1_000_040_000) && !running.out(1_000_000_000));
        assert_eq!(running.words(1_000_040_000), "0:00 out of time running");
        let stopped = SeatClock { running: false, deadline_ms: None, ..running };
        assert_eq!(stopped.left_ms(1_000_040_000), 30_000);
        let again = SeatClock { timed_out: true, ..running };
        assert!(!again.out(1_000_000_000), "a seat that ran out before has a new move's time");
        assert!(again.ran_out_before(1_000_000_000));
        assert_eq!(again.words(1_000_000_000), "0:30 (ran out before) running");
        let flagged = SeatClock { remaining_ms: 0, timed_out: true, ..stopped };
        assert!(flagged.out(0), "stopped at 0 after running out");
        assert_eq!(mmss(3_723_000), "1:02:03");
        assert_eq!(mmss(0), "0:00");
        assert_eq!(mmss(59_001), "1:00");
    }

    #[test]
    fn low_time_is_under_fifteen_seconds_or_a_fifth_of_the_full_time_and_is_warned_once() {
        let rules = ClockRules::parse("absolute:600").ok();
        assert!(is_low(rules.as_ref(), 119_000), "under a fifth of 10:00");
        assert!(!is_low(rules.as_ref(), 121_000));
        assert!(is_low(None, 14_000) && !is_low(None, 16_000), "15 s whatever the clock");
        let mut clocks = Clocks {
            rules: ClockRules::parse("per-move:30").ok(),
            seats: vec![SeatClock {
                seat: 0,
                remaining_ms: 30_000,
                running: true,
                deadline_ms: Some(100_000),
                timed_out: false,
                forfeited: false,
            }],
            fixed_now_ms: Some(80_000),
            ..Clocks::default()
        };
        assert!(clocks.newly_low(&[0]).is_empty(), "20 s left is not low");
        clocks.fixed_now_ms = Some(90_000);
        assert_eq!(clocks.newly_low(&[0]), vec![0]);
        assert!(clocks.newly_low(&[0]).is_empty(), "warned once");
        assert!(clocks.newly_low(&[1]).is_empty(), "only this terminal's seats");
        clocks.seats[0].deadline_ms = Some(120_000);
        assert!(clocks.newly_low(&[0]).is_empty(), "a new move's time is not low");
        clocks.fixed_now_ms = Some(110_000);
        assert_eq!(clocks.newly_low(&[0]), vec![0], "low again on the next move: warned again");
        assert_eq!(
            clocks.line(|s| format!("seat {s}")).as_deref(),
            Some("clocks (per move 0:30): seat 0 0:10 running")
        );
        assert_eq!(Clocks::default().line(|s| s.to_string()), None);
    }

    #[test]
    fn a_choice_the_holder_did_not_make_says_who_made_it() {
        assert_eq!(played_by_line(pb::PlayedBy::Holder as i32, "seat 1"), None);
        assert_eq!(played_by_line(0, "seat 1"), None, "unrecorded: the holder's");
        assert_eq!(
            played_by_line(pb::PlayedBy::StandIn as i32, "captain 2").as_deref(),
            Some("an AI stand-in chose for captain 2")
        );
        assert!(played_by_line(pb::PlayedBy::Server as i32, "x").is_some_and(|l| l.contains("server")));
    }
}
