//! Colours shared by every screen's panels, so that a seat has the same
//! look everywhere: seats' colours, dim text, panel titles. A game's own
//! colours and symbols live in its folder (`games/<game>/ui/style.rs`).

use ratatui::style::{Color, Modifier, Style};

use crate::seats::Seat;

/// The colour of a seat's ship token.
pub fn seat_color(seat: Seat) -> Color {
    match seat % 4 {
        0 => Color::Cyan,
        1 => Color::Yellow,
        2 => Color::LightGreen,
        _ => Color::LightMagenta,
    }
}

/// Style of a seat's name or token.
pub fn seat_style(seat: Seat) -> Style {
    Style::new().fg(seat_color(seat)).add_modifier(Modifier::BOLD)
}

/// Dim text (labels, unexplored space).
pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// Panel titles.
pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}
