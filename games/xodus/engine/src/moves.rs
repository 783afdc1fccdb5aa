//! The fast path for search: the legal options of the pending decision as
//! compact values ([`Move`]: a [`Choice`] and the seats that may take it,
//! inline), with no label, prompt or text id built. The labelled
//! [`crate::Decision`] for clients is made from the same enumeration (the
//! option builders build a label only when asked), so both list the same
//! choices in the same order.

use crate::decision::{Choice, DecisionKind};
use crate::state::Seat;

/// Most seats an option can name (a game has at most four ships).
const MAX_SEATS: usize = 4;

/// The seats that may take an option, in the order the labelled decision
/// lists them, held inline (no allocation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats {
    len: u8,
    seats: [Seat; MAX_SEATS],
}

impl Seats {
    /// The seats of `list`, in order (a game has at most four ships).
    pub fn of(list: impl AsRef<[Seat]>) -> Seats {
        let list = list.as_ref();
        debug_assert!(list.len() <= MAX_SEATS, "more seats than ships: {list:?}");
        let mut out = Seats::default();
        let n = list.len().min(MAX_SEATS);
        out.seats[..n].copy_from_slice(&list[..n]);
        out.len = n as u8;
        out
    }

    /// The seats as a slice.
    pub fn as_slice(&self) -> &[Seat] {
        &self.seats[..self.len as usize]
    }

    /// Whether `seat` may take the option.
    pub fn contains(&self, seat: Seat) -> bool {
        self.as_slice().contains(&seat)
    }

    /// The first seat listed (the one a client would send it as).
    pub fn first(&self) -> Option<Seat> {
        self.as_slice().first().copied()
    }
}

/// One legal option as a value: what [`crate::Game::apply_move`] takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The choice.
    pub choice: Choice,
    /// Seats allowed to pick it.
    pub seats: Seats,
    /// The label, built only for the labelled decision (empty otherwise).
    pub(crate) label: String,
}

impl Move {
    pub(crate) fn new(seats: impl AsRef<[Seat]>, choice: Choice, label: String) -> Move {
        Move { choice, seats: Seats::of(seats), label }
    }
}

/// The pending decision as the fast path sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Legal {
    /// Kind of decision.
    pub kind: DecisionKind,
    /// The legal options, in the labelled decision's order (empty only
    /// when the game is over).
    pub moves: Vec<Move>,
}

/// `opt!(lab, seats, label, choice)`: one option; the label expression is
/// evaluated only when `lab` (the caller builds the labelled decision).
macro_rules! opt {
    ($lab:expr, $seats:expr, $label:expr, $choice:expr $(,)?) => {
        $crate::moves::Move::new(
            $seats,
            $choice,
            if $lab { ::std::string::String::from($label) } else { ::std::string::String::new() },
        )
    };
}

/// `text!(lab, expr)`: a prompt or label part, built only when `lab`.
macro_rules! text {
    ($lab:expr, $text:expr $(,)?) => {
        if $lab { ::std::string::String::from($text) } else { ::std::string::String::new() }
    };
}

pub(crate) use opt;
pub(crate) use text;
