//! Shared decisions: when several seats may take the pending decision (who
//! plays next, a fleet's action), the first choice to arrive wins and the
//! others are refused as stale. Racing for them would let an AI snatch
//! every such decision from a human teammate, and make AI teammates think
//! in parallel on a decision only one of them takes. So a seat waits
//! before it acts on one:
//!
//! - while a human teammate who is at the table (seat claimed by a human,
//!   not idle) may take it: the courtesy time, so the human can act first;
//! - while an AI teammate on a lower seat may take it: that teammate's
//!   think time and a grace, so the lowest AI seat takes it, as in local
//!   self-play (the first decider decides), and the game never stalls on
//!   an AI that went away.
//!
//! A wait ends early when the game moves on. A seat nobody holds yet counts
//! as whoever it is open to (a game's creator claims a seat just after
//! creating it; agents claim theirs one by one). An idle human no AI
//! stands in for is not waited for.

use std::time::Duration;
use tabletop::pb;

/// What a seat waits, beyond the lower AI's think time, before it takes
/// over a shared decision from a lower AI seat.
pub const AI_GRACE: Duration = Duration::from_millis(1000);

/// Who holds a seat, as far as a shared decision goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    /// A human at the table.
    Human,
    /// An AI agent (holding the seat, or standing in for an idle human).
    Ai,
    /// Nobody who will act soon: an idle human with no stand-in.
    Absent,
}

fn holder(info: &pb::SeatInfo) -> Holder {
    if !info.claimed {
        // Not taken yet: the creator of a game claims a seat just after
        // creating it, and AI agents claim theirs one by one.
        if info.open_to == pb::SeatOpenTo::Ai as i32 { Holder::Ai } else { Holder::Human }
    } else if info.stand_in || info.claimed_by == pb::Claimant::Ai as i32 {
        Holder::Ai
    } else if info.idle {
        Holder::Absent
    } else {
        Holder::Human
    }
}

/// How long `seat` waits before acting on a decision `deciders` may take,
/// given the game's seats; `None` to act at once. `think` is an AI
/// teammate's think time, `courtesy` what a human teammate is given.
pub fn wait_before_acting(
    seat: u32,
    deciders: &[u32],
    seats: &[pb::SeatInfo],
    think: Duration,
    courtesy: Duration,
) -> Option<Duration> {
    let others = || {
        deciders.iter().filter(move |&&s| s != seat).map(|&s| {
            let who = seats.iter().find(|i| i.seat == s).map_or(Holder::Absent, holder);
            (s, who)
        })
    };
    let human = others().any(|(_, who)| who == Holder::Human);
    let lower_ai = others().any(|(s, who)| who == Holder::Ai && s < seat);
    let wait = if human { courtesy } else { Duration::ZERO } + if lower_ai { think + AI_GRACE } else { Duration::ZERO };
    (!wait.is_zero()).then_some(wait)
}

#[cfg(test)]
mod tests {
    use super::*;

    const THINK: Duration = Duration::from_millis(500);
    const COURTESY: Duration = Duration::from_millis(4000);

    fn seat(seat: u32, claimed_by: Option<pb::Claimant>, idle: bool, stand_in: bool) -> pb::SeatInfo {
        pb::SeatInfo {
            seat,
            claimed: claimed_by.is_some(),
            claimed_by: claimed_by.map_or(0, |c| c as i32),
            idle,
            stand_in,
            ..Default::default()
        }
    }

    fn ai(s: u32) -> pb::SeatInfo {
        seat(s, Some(pb::Claimant::Ai), false, false)
    }

    fn human(s: u32) -> pb::SeatInfo {
        seat(s, Some(pb::Claimant::Human), false, false)
    }

    #[test]
    fn a_decision_of_its_own_is_taken_at_once() {
        assert_eq!(wait_before_acting(1, &[1], &[ai(0), ai(1), human(2)], THINK, COURTESY), None);
    }

    #[test]
    fn the_lowest_ai_seat_takes_a_decision_shared_with_ai_teammates_only() {
        let seats = [ai(0), ai(1), ai(2)];
        assert_eq!(wait_before_acting(0, &[0, 1, 2], &seats, THINK, COURTESY), None);
        assert_eq!(wait_before_acting(2, &[0, 1, 2], &seats, THINK, COURTESY), Some(THINK + AI_GRACE));
        // Seat 0 has played this round: seat 1 is now the lowest.
        assert_eq!(wait_before_acting(1, &[1, 2], &seats, THINK, COURTESY), None);
    }

    #[test]
    fn a_human_teammate_who_may_take_it_is_given_the_courtesy_time() {
        let seats = [ai(0), human(1), ai(2)];
        assert_eq!(wait_before_acting(0, &[0, 1, 2], &seats, THINK, COURTESY), Some(COURTESY));
        assert_eq!(wait_before_acting(2, &[0, 1, 2], &seats, THINK, COURTESY), Some(COURTESY + THINK + AI_GRACE));
        // The human already played this round: only the AI order is left.
        assert_eq!(wait_before_acting(0, &[0, 2], &seats, THINK, COURTESY), None);
    }

    #[test]
    fn an_idle_human_is_not_waited_for() {
        let idle_alone = seat(0, Some(pb::Claimant::Human), true, false);
        assert_eq!(wait_before_acting(2, &[0, 2], &[idle_alone, ai(2)], THINK, COURTESY), None);
        // Nor a seat missing from the list.
        assert_eq!(wait_before_acting(2, &[0, 1, 2], &[ai(2)], THINK, COURTESY), None);
    }

    #[test]
    fn a_seat_not_claimed_yet_counts_as_whoever_it_is_open_to() {
        let open = |s: u32, to: pb::SeatOpenTo| pb::SeatInfo { seat: s, open_to: to as i32, ..Default::default() };
        // The creator is about to claim seat 0.
        let seats = [open(0, pb::SeatOpenTo::Human), ai(1), ai(2)];
        assert_eq!(wait_before_acting(1, &[0, 1, 2], &seats, THINK, COURTESY), Some(COURTESY));
        let seats = [open(0, pb::SeatOpenTo::Any), ai(1)];
        assert_eq!(wait_before_acting(1, &[0, 1], &seats, THINK, COURTESY), Some(COURTESY));
        // An agent is about to claim seat 1.
        let seats = [ai(0), open(1, pb::SeatOpenTo::Ai), ai(2)];
        assert_eq!(wait_before_acting(2, &[0, 1, 2], &seats, THINK, COURTESY), Some(THINK + AI_GRACE));
        assert_eq!(wait_before_acting(0, &[0, 1, 2], &seats, THINK, COURTESY), None);
    }

    #[test]
    fn an_ai_standing_in_for_an_idle_human_counts_as_an_ai() {
        let stood_in = seat(0, Some(pb::Claimant::Human), true, true);
        assert_eq!(wait_before_acting(1, &[0, 1], &[stood_in, ai(1)], THINK, COURTESY), Some(THINK + AI_GRACE));
    }
}
