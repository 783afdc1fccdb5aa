//! Who holds each seat, as the server's stream reports it (`seat_updates`),
//! and the words the screen and the plain watcher use for it and for its
//! changes. No gRPC here: `remote` turns the wire's seats into these.

/// A seat of a game, numbered from 0 (every game's engine numbers its
/// seats so, as a u8).
pub type Seat = u8;

/// Who holds one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// Nobody: the seat waits for a claim.
    Open,
    /// A person at a front-end.
    Human,
    /// An AI agent.
    Ai,
    /// A person who has been silent past the game's idle timeout.
    Idle,
    /// An AI agent standing in for an idle person.
    StandIn,
}

impl Holder {
    /// From the wire's seat fields.
    pub fn from_wire(claimed: bool, by_ai: bool, idle: bool, stand_in: bool) -> Holder {
        match (claimed, stand_in, idle, by_ai) {
            (false, ..) => Holder::Open,
            (true, true, ..) => Holder::StandIn,
            (true, false, true, _) => Holder::Idle,
            (true, false, false, true) => Holder::Ai,
            (true, false, false, false) => Holder::Human,
        }
    }

    /// An AI plays the seat now.
    pub fn is_ai(self) -> bool {
        matches!(self, Holder::Ai | Holder::StandIn)
    }

    /// A short mark for a seat's name, e.g. "AI" or "open".
    pub fn mark(self) -> &'static str {
        match self {
            Holder::Open => "open",
            Holder::Human => "person",
            Holder::Ai => "AI",
            Holder::Idle => "idle",
            Holder::StandIn => "AI for idle",
        }
    }

    /// What happened when a seat went from `before` to `self`, or `None`
    /// when nothing a person cares about changed.
    pub fn change_from(self, before: Holder) -> Option<&'static str> {
        if self == before {
            return None;
        }
        Some(match (before, self) {
            (_, Holder::Open) => "free again",
            (Holder::Open, Holder::Human) => "a person took it",
            (Holder::Open, Holder::Ai) | (Holder::Human, Holder::Ai) => "an AI agent took it",
            (_, Holder::Idle) => "its player went idle",
            (_, Holder::StandIn) => "an AI agent stands in for its idle captain",
            (Holder::Idle, Holder::Human) | (Holder::StandIn, Holder::Human) => "its player is back",
            (_, Holder::Human) => "a person took it",
            (_, Holder::Ai) => "an AI agent took it",
        })
    }
}

/// One seat and its holder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatHolder {
    /// The seat.
    pub seat: Seat,
    /// Who holds it.
    pub holder: Holder,
}

/// The lines saying what changed between two reports of the seats, given
/// a name for each seat (e.g. "seat 2 Pirate Ship").
pub fn changes(before: &[SeatHolder], after: &[SeatHolder], name: impl Fn(Seat) -> String) -> Vec<String> {
    after
        .iter()
        .filter_map(|now| {
            let was = before.iter().find(|b| b.seat == now.seat).map_or(Holder::Open, |b| b.holder);
            now.holder.change_from(was).map(|what| format!("{}: {what}", name(now.seat)))
        })
        .collect()
}

/// One line listing every seat with its holder.
pub fn listing(seats: &[SeatHolder], name: impl Fn(Seat) -> String) -> String {
    let parts: Vec<String> = seats.iter().map(|s| format!("{} ({})", name(s.seat), s.holder.mark())).collect();
    format!("seats: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seat: Seat, holder: Holder) -> SeatHolder {
        SeatHolder { seat, holder }
    }

    #[test]
    fn the_wire_fields_name_the_holder() {
        assert_eq!(Holder::from_wire(false, true, false, false), Holder::Open);
        assert_eq!(Holder::from_wire(true, false, false, false), Holder::Human);
        assert_eq!(Holder::from_wire(true, true, false, false), Holder::Ai);
        assert_eq!(Holder::from_wire(true, false, true, false), Holder::Idle);
        assert_eq!(Holder::from_wire(true, false, true, true), Holder::StandIn);
    }

    #[test]
    fn only_the_seats_that_changed_get_a_line() {
        let before = [at(0, Holder::Human), at(1, Holder::Open), at(2, Holder::Ai), at(3, Holder::Idle)];
        let after = [at(0, Holder::Human), at(1, Holder::Ai), at(2, Holder::Open), at(3, Holder::Human)];
        let lines = changes(&before, &after, |s| format!("seat {s}"));
        assert_eq!(lines, ["seat 1: an AI agent took it", "seat 2: free again", "seat 3: its player is back"]);
    }

    #[test]
    fn an_idle_captain_and_the_stand_in_are_told_apart() {
        let lines = changes(&[at(0, Holder::Human)], &[at(0, Holder::Idle)], |s| format!("seat {s}"));
        assert_eq!(lines, ["seat 0: its player went idle"]);
        let lines = changes(&[at(0, Holder::Idle)], &[at(0, Holder::StandIn)], |s| format!("seat {s}"));
        assert_eq!(lines, ["seat 0: an AI agent stands in for its idle captain"]);
        assert!(Holder::StandIn.is_ai() && !Holder::Idle.is_ai());
    }

    #[test]
    fn the_listing_marks_every_seat() {
        let line = listing(&[at(0, Holder::Human), at(1, Holder::Open)], |s| format!("{s} Warship"));
        assert_eq!(line, "seats: 0 Warship (person), 1 Warship (open)");
    }
}
