//! Turn clocks, kept by the server for every game created with one: the
//! rules (capped Fischer, per move, absolute) and what happens when a seat's
//! time runs out, stored with the game ([`ClockRecord`]), and every seat's
//! time in memory ([`Clocks`]), rebuilt at load from the stored entries
//! (each choice made on a running clock stores the seat's time after it),
//! so deadlines survive a restart.
//!
//! A seat's clock runs while the game waits on it alone, from the moment
//! every seat was first claimed; a decision several seats may take (a
//! shared decision) runs nobody's clock.

use crate::model::EntryRecord;
use tabletop::pb;

/// The longest time a clock setting may give, in seconds (a day).
const MAX_SECONDS: u32 = 86_400;

pub use crate::model::{ClockKind, ClockRecord, OnTimeout};

/// A time in milliseconds since the Unix epoch as a protobuf Timestamp.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

impl ClockRecord {
    /// The clock a CreateGame request asks for (`None`: no clock), or what
    /// is wrong with it. A cooperative game cannot forfeit a seat.
    pub fn from_wire(rules: Option<&pb::ClockRules>, cooperative: bool) -> Result<Option<ClockRecord>, String> {
        let Some(r) = rules else { return Ok(None) };
        let kind = match pb::ClockKind::try_from(r.kind) {
            Ok(pb::ClockKind::Unspecified) => return Ok(None),
            Ok(pb::ClockKind::Fischer) => ClockKind::Fischer,
            Ok(pb::ClockKind::PerMove) => ClockKind::PerMove,
            Ok(pb::ClockKind::Absolute) => ClockKind::Absolute,
            Err(_) => return Err(format!("clock.kind = {} is not a ClockKind", r.kind)),
        };
        let seconds = |v: u32, field: &str, needed: bool| -> Result<i64, String> {
            if v > MAX_SECONDS || (needed && v == 0) {
                return Err(format!("clock.{field} must be 1 to {MAX_SECONDS} seconds for this clock, not {v}"));
            }
            Ok(i64::from(v) * 1000)
        };
        let on_timeout = match pb::TimeoutPolicy::try_from(r.on_timeout) {
            Ok(pb::TimeoutPolicy::Unspecified) if cooperative => OnTimeout::StandIn,
            Ok(pb::TimeoutPolicy::Unspecified) => OnTimeout::Forfeit,
            Ok(pb::TimeoutPolicy::AiStandIn) => OnTimeout::StandIn,
            Ok(pb::TimeoutPolicy::Skip) => OnTimeout::Skip,
            Ok(pb::TimeoutPolicy::Forfeit) if cooperative => {
                return Err("clock.on_timeout FORFEIT is for competitive games; a cooperative game takes \
                            AI_STAND_IN or SKIP"
                    .into());
            }
            Ok(pb::TimeoutPolicy::Forfeit) => OnTimeout::Forfeit,
            Err(_) => return Err(format!("clock.on_timeout = {} is not a TimeoutPolicy", r.on_timeout)),
        };
        Ok(Some(ClockRecord {
            kind,
            initial_ms: seconds(r.initial_seconds, "initial_seconds", kind != ClockKind::PerMove)?,
            increment_ms: seconds(r.increment_seconds, "increment_seconds", false)?,
            cap_ms: seconds(r.cap_seconds, "cap_seconds", false)?,
            per_move_ms: seconds(r.per_move_seconds, "per_move_seconds", kind == ClockKind::PerMove)?,
            on_timeout,
            started_ms: None,
            forfeited: Vec::new(),
        }))
    }

    /// The wire form of the rules.
    pub fn to_wire(&self) -> pb::ClockRules {
        let secs = |ms: i64| u32::try_from(ms / 1000).unwrap_or(u32::MAX);
        pb::ClockRules {
            kind: match self.kind {
                ClockKind::Fischer => pb::ClockKind::Fischer,
                ClockKind::PerMove => pb::ClockKind::PerMove,
                ClockKind::Absolute => pb::ClockKind::Absolute,
            } as i32,
            initial_seconds: secs(self.initial_ms),
            increment_seconds: secs(self.increment_ms),
            cap_seconds: secs(self.cap_ms),
            per_move_seconds: secs(self.per_move_ms),
            on_timeout: match self.on_timeout {
                OnTimeout::StandIn => pb::TimeoutPolicy::AiStandIn,
                OnTimeout::Skip => pb::TimeoutPolicy::Skip,
                OnTimeout::Forfeit => pb::TimeoutPolicy::Forfeit,
            } as i32,
        }
    }

    /// A seat's time before its first decision.
    pub fn start_bank(&self) -> i64 {
        match self.kind {
            ClockKind::PerMove => self.per_move_ms,
            _ => self.initial_ms,
        }
    }

    /// A seat's time after a choice that took `spent` ms of `bank`.
    pub fn after_choice(&self, bank: i64, spent: i64) -> i64 {
        let left = (bank - spent.max(0)).max(0);
        match self.kind {
            ClockKind::Fischer => {
                let topped = left + self.increment_ms;
                if self.cap_ms > 0 { topped.min(self.cap_ms.max(left)) } else { topped }
            }
            ClockKind::PerMove => self.per_move_ms,
            ClockKind::Absolute => left,
        }
    }

    /// The least time a holder who returns to a stood-in seat gets back, so
    /// that its first decision is not timed out at once.
    pub fn hand_back(&self, bank: i64) -> i64 {
        let grace = match self.kind {
            ClockKind::PerMove => self.per_move_ms,
            ClockKind::Fischer => self.increment_ms.max(15_000),
            ClockKind::Absolute => 15_000,
        };
        bank.max(grace)
    }

    /// Whether `seat` forfeited.
    pub fn forfeited(&self, seat: u8) -> bool {
        self.forfeited.contains(&seat)
    }
}

/// Every seat's time, in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Each seat's time as of `turn_started_ms`, ms.
    pub banks: Vec<i64>,
    /// When the current decision began (or the clocks started), ms since
    /// the epoch.
    pub turn_started_ms: i64,
    /// Seats whose time ran out at least once.
    pub timed_out: Vec<bool>,
}

impl Clocks {
    /// The clocks after `entries`, for a game with `seats` seats.
    pub fn rebuild(rec: &ClockRecord, seats: usize, entries: &[EntryRecord]) -> Clocks {
        let mut banks = vec![rec.start_bank(); seats];
        for e in entries {
            if let (Some(ms), Some(bank)) = (e.clock_ms, banks.get_mut(usize::from(e.seat))) {
                *bank = ms;
            }
        }
        let last = entries.last().map_or(0, |e| e.at_ms);
        let mut timed_out = vec![false; seats];
        for &s in &rec.forfeited {
            if let Some(t) = timed_out.get_mut(usize::from(s)) {
                *t = true;
            }
        }
        Clocks { banks, turn_started_ms: last.max(rec.started_ms.unwrap_or(0)), timed_out }
    }

    /// The seat whose clock runs now: the one seat the game waits on, once
    /// the clocks have started.
    pub fn running(rec: &ClockRecord, deciders: &[u8]) -> Option<u8> {
        match (rec.started_ms, deciders) {
            (Some(_), [only]) => Some(*only),
            _ => None,
        }
    }

    /// `seat`'s time left at `now`.
    pub fn remaining(&self, seat: u8, running: bool, now_ms: i64) -> i64 {
        let bank = self.banks.get(usize::from(seat)).copied().unwrap_or(0);
        if running { (bank - (now_ms - self.turn_started_ms).max(0)).max(0) } else { bank }
    }

    /// Every seat's clock on the wire at `now`.
    pub fn wire(&self, rec: &ClockRecord, deciders: &[u8], over: bool, now_ms: i64) -> Vec<pb::SeatClock> {
        let runner = if over { None } else { Clocks::running(rec, deciders) };
        (0..self.banks.len())
            .map(|i| {
                let seat = u8::try_from(i).unwrap_or(u8::MAX);
                let running = runner == Some(seat);
                let remaining = self.remaining(seat, running, now_ms);
                pb::SeatClock {
                    seat: u32::from(seat),
                    remaining_ms: remaining,
                    running,
                    deadline: running.then(|| timestamp(now_ms + remaining)),
                    timed_out: self.timed_out.get(i).copied().unwrap_or(false),
                    forfeited: rec.forfeited(seat),
                }
            })
            .collect()
    }
}

/// A ranked outcome with the forfeited seats last (in the order they
/// forfeited, the last to forfeit first) and none of them among the
/// winners.
pub fn with_forfeits(mut outcome: pb::Outcome, forfeited: &[u8]) -> pb::Outcome {
    if forfeited.is_empty() || outcome.kind != pb::OutcomeKind::Ranked as i32 {
        return outcome;
    }
    let out: Vec<u32> = forfeited.iter().rev().map(|&s| u32::from(s)).collect();
    if !outcome.ranking.is_empty() {
        outcome.ranking.retain(|s| !out.contains(s));
        outcome.ranking.extend(out.iter().copied());
    }
    outcome.winners.retain(|s| !out.contains(s));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer() -> ClockRecord {
        let rules = pb::ClockRules {
            kind: pb::ClockKind::Fischer as i32,
            initial_seconds: 60,
            increment_seconds: 10,
            cap_seconds: 90,
            ..Default::default()
        };
        ClockRecord::from_wire(Some(&rules), false).expect("valid").expect("a clock")
    }

    #[test]
    fn fischer_tops_up_after_each_choice_up_to_its_cap() {
        let c = fischer();
        assert_eq!(c.on_timeout, OnTimeout::Forfeit, "a competitive game forfeits by default");
        assert_eq!(c.after_choice(60_000, 5_000), 65_000);
        assert_eq!(c.after_choice(85_000, 0), 90_000, "capped");
        assert_eq!(c.after_choice(1_000, 5_000), 10_000, "out of time: only the increment");
    }

    #[test]
    fn per_move_and_absolute_clocks() {
        let per_move =
            pb::ClockRules { kind: pb::ClockKind::PerMove as i32, per_move_seconds: 30, ..Default::default() };
        let c = ClockRecord::from_wire(Some(&per_move), true).expect("valid").expect("clock");
        assert_eq!((c.start_bank(), c.after_choice(30_000, 29_000)), (30_000, 30_000));
        assert_eq!(c.on_timeout, OnTimeout::StandIn, "a cooperative game stands in by default");
        let absolute =
            pb::ClockRules { kind: pb::ClockKind::Absolute as i32, initial_seconds: 100, ..Default::default() };
        let c = ClockRecord::from_wire(Some(&absolute), true).expect("valid").expect("clock");
        assert_eq!(c.after_choice(100_000, 40_000), 60_000, "never topped up");
    }

    #[test]
    fn bad_rules_name_the_field() {
        let no_time = pb::ClockRules { kind: pb::ClockKind::Fischer as i32, ..Default::default() };
        assert!(ClockRecord::from_wire(Some(&no_time), false).expect_err("no time").contains("initial_seconds"));
        let forfeit_coop = pb::ClockRules {
            kind: pb::ClockKind::PerMove as i32,
            per_move_seconds: 5,
            on_timeout: pb::TimeoutPolicy::Forfeit as i32,
            ..Default::default()
        };
        assert!(ClockRecord::from_wire(Some(&forfeit_coop), true).expect_err("coop").contains("cooperative"));
        assert_eq!(ClockRecord::from_wire(None, true), Ok(None));
    }

    #[test]
    fn clocks_rebuild_from_the_stored_entries_and_run_for_the_sole_decider() {
        let mut c = fischer();
        c.started_ms = Some(1_000);
        let mut e = EntryRecord::choice(1, 1, "x".into(), 5_000);
        e.clock_ms = Some(50_000);
        let clocks = Clocks::rebuild(&c, 2, &[e]);
        assert_eq!(clocks.banks, [60_000, 50_000]);
        assert_eq!(clocks.turn_started_ms, 5_000);
        let wire = clocks.wire(&c, &[0], false, 8_000);
        assert!(wire[0].running && !wire[1].running);
        assert_eq!(wire[0].remaining_ms, 57_000);
        assert_eq!(Clocks::running(&c, &[0, 1]), None, "a shared decision runs no clock");
    }

    #[test]
    fn forfeited_seats_rank_last_and_never_win() {
        let o = pb::Outcome {
            kind: pb::OutcomeKind::Ranked as i32,
            ranking: vec![2, 0, 1],
            winners: vec![2],
            ..Default::default()
        };
        let o = with_forfeits(o, &[2]);
        assert_eq!((o.ranking, o.winners), (vec![0, 1, 2], vec![]));
    }
}
