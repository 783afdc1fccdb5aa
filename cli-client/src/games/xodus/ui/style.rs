//! X-ODUS's colours and symbols, so that a tile kind or a die has the
//! same look on every panel (and the help screen's legend matches the
//! map); the colours every screen shares (seats, dim text, titles) come
//! from `crate::ui::style`.

pub use crate::ui::style::{dim, seat_color, seat_style, title};
use ratatui::style::Color;
use xodus_engine::content::{DieColor, Face, SystemKind};

/// Background of a tile kind on the map.
pub fn tile_bg(kind: SystemKind) -> Color {
    match kind {
        SystemKind::Allied => Color::Blue,
        SystemKind::Enemy => Color::Rgb(200, 110, 0),
        SystemKind::Corrupt => Color::Red,
        SystemKind::MainRift => Color::Magenta,
    }
}

/// One word for a tile kind.
pub fn kind_name(kind: SystemKind) -> &'static str {
    match kind {
        SystemKind::Allied => "allied",
        SystemKind::Enemy => "enemy",
        SystemKind::Corrupt => "corrupt",
        SystemKind::MainRift => "main rift",
    }
}

/// Colour of a player die.
pub fn die_color(c: DieColor) -> Color {
    match c {
        DieColor::Red => Color::LightRed,
        DieColor::Blue => Color::LightBlue,
        DieColor::Yellow => Color::LightYellow,
    }
}

/// Text of a die face.
pub fn face_text(f: Face) -> &'static str {
    match f {
        Face::Hit => "HIT",
        Face::Miss => "miss",
        Face::Special => "*",
    }
}

/// Map symbols, explained by the help screen's legend.
pub mod sym {
    /// Exploration marker.
    pub const EXPLORATION: char = '?';
    /// Wormhole.
    pub const WORMHOLE: char = '@';
    /// Ally trading post.
    pub const ALLY: char = '$';
    /// Patrol (followed by the number of Enemy cards).
    pub const PATROL: char = '!';
    /// Surveillance: always detected.
    pub const SURVEILLANCE: char = 'S';
    /// Stronger Enemies (drawn from the reserve).
    pub const STRONGER: char = '+';
    /// Precursor Key marker (followed by the Key number).
    pub const KEY: char = 'K';
    /// Open rift.
    pub const RIFT: char = '~';
    /// Disabled rift.
    pub const RIFT_CLOSED: char = 'x';
    /// Pacify marker.
    pub const PACIFIED: char = 'P';
    /// Enemy cards (followed by their count).
    pub const ENEMY: char = 'E';
    /// Avatar (followed by its number).
    pub const AVATAR: char = 'V';
    /// A ship destroyed.
    pub const WRECK: char = 'x';
    /// Unexplored open edge.
    pub const UNEXPLORED: char = '·';
}
