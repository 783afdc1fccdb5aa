//! The hex map. Each revealed system is a 7x3 block in its kind's colour;
//! its six lanes are drawn on its rim (`─` east and west, `╱ ╲` on the
//! corners), its symbols on the top line, ships on the middle line and
//! threats (Enemy cards, Avatars) on the bottom line. Open lanes that lead
//! to unrevealed space show a dim `·` where a system could appear, and the
//! space named by the highlighted menu option is bracketed by `▶ ◀`; a
//! space a hint's option aims at (`xodus.v1.XodusChoice.hex`) gets `◆`
//! and the option's rank beside its top line.
//!
//! Axial (q, r) maps to the character grid as x = (2q + r) * 4, y = 3r,
//! so east-west neighbours sit 8 columns apart and rows 3 lines apart.

use super::style::{self, sym};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{AvatarPlace, Choice, Hex, Pending, PlacedTile, View};

/// Width of a system block.
const TILE_W: i32 = 7;
/// Lane characters by direction (E, NE, NW, W, SW, SE) and their offset
/// from the block's centre.
const LANES: [(char, i32, i32); 6] =
    [('─', 3, 0), ('╱', 3, -1), ('╲', -3, -1), ('─', -3, 0), ('╱', -3, 1), ('╲', 3, 1)];

/// Where a hex's centre falls on the unshifted character grid.
fn grid(h: Hex) -> (i32, i32) {
    ((2 * h.q as i32 + h.r as i32) * 4, h.r as i32 * 3)
}

/// The space an option points at, if any (highlighted on the map).
pub fn choice_hex(c: &Choice) -> Option<Hex> {
    match c {
        Choice::Probe { hex }
        | Choice::BlindJump { hex }
        | Choice::Jump { hex }
        | Choice::RushTo { hex }
        | Choice::RevealAt { hex }
        | Choice::PacifyAt { hex } => Some(*hex),
        _ => None,
    }
}

/// The spaces the options of `screen`'s hint aim at (their typed
/// `XodusChoice.hex`), with each option's rank (1 best); none once the
/// hint is about an older state.
pub fn hint_hexes(screen: &super::model::Screen) -> Vec<(Hex, usize)> {
    let Some(hint) = screen.hint.as_ref().filter(|h| h.current(screen.view.public.seq)) else {
        return Vec::new();
    };
    let options = &screen.view.decision.options;
    let mut out: Vec<(Hex, usize)> = Vec::new();
    for (i, advice) in hint.options.iter().enumerate() {
        let Some(o) = options.iter().find(|o| o.id == advice.option_id) else { continue };
        let typed = xodus_wire::choice::typed(&o.choice);
        if let Ok(hex) = xodus_wire::enums::hex_back(typed.hex.as_ref(), "hex")
            && !out.iter().any(|(h, _)| *h == hex)
        {
            out.push((hex, i + 1));
        }
    }
    out
}

/// The tile being oriented, drawn where it will lie with the lanes of the
/// highlighted rotation (or as printed when no rotation is highlighted).
pub fn orientation_preview(view: &View, choice: Option<&Choice>) -> Option<PlacedTile> {
    let Pending::Orientation { hex, tile, .. } = &view.public.pending else {
        return None;
    };
    let def = Content::get().tiles.get(*tile as usize)?;
    let rotation = match choice {
        Some(Choice::Orient { rotation }) => *rotation % 6,
        _ => 0,
    };
    let m = def.lane_mask() & 0b11_1111;
    let lanes = if rotation == 0 { m } else { ((m << rotation) | (m >> (6 - rotation))) & 0b11_1111 };
    Some(PlacedTile {
        tile: *tile,
        hex: *hex,
        rotation,
        lanes,
        exploration_marker: def.exploration,
        key_marker: def.signal,
        pacified: None,
        rift_created: false,
        rift_disabled: false,
        keys_activated: Vec::new(),
    })
}

/// Unrevealed spaces that a revealed lane opens onto.
pub fn open_edges(view: &View) -> Vec<Hex> {
    let tiles = &view.public.tiles;
    let mut out = Vec::new();
    for t in tiles {
        for d in 0..6u8 {
            if t.lanes & (1 << d) == 0 {
                continue;
            }
            let n = t.hex.neighbor(d);
            if !tiles.iter().any(|o| o.hex == n) && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// The map widget.
pub struct MapWidget<'a> {
    /// What to draw.
    pub view: &'a View,
    /// Panning in hex columns and rows.
    pub pan: (i16, i16),
    /// A space to bracket (the highlighted option's target).
    pub highlight: Option<Hex>,
    /// A tile being oriented, drawn on top.
    pub preview: Option<PlacedTile>,
    /// The space to keep in view when the board is larger than the panel.
    pub focus: Option<Hex>,
    /// The spaces a hint's options aim at, with their rank.
    pub hinted: Vec<(Hex, usize)>,
}

/// Writes `text` at grid position (x, y) relative to the area origin,
/// dropping what falls outside.
fn put(buf: &mut Buffer, area: Rect, x: i32, y: i32, text: &str, style: Style) {
    if y < 0 || y >= area.height as i32 {
        return;
    }
    for (i, ch) in text.chars().enumerate() {
        let cx = x + i as i32;
        if cx < 0 || cx >= area.width as i32 {
            continue;
        }
        if let Some(cell) = buf.cell_mut((area.x + cx as u16, area.y + y as u16)) {
            cell.set_char(ch).set_style(style);
        }
    }
}

/// Coloured pieces of one line inside a block.
type Pieces = Vec<(String, Style)>;

/// Writes pieces centred in the 5 inner columns of a block, truncated.
fn put_centered(buf: &mut Buffer, area: Rect, cx: i32, y: i32, pieces: &Pieces) {
    let mut chars: Vec<(char, Style)> = pieces.iter().flat_map(|(s, st)| s.chars().map(move |c| (c, *st))).collect();
    chars.truncate(5);
    let start = cx - (chars.len() as i32) / 2;
    for (i, (c, st)) in chars.iter().enumerate() {
        put(buf, area, start + i as i32, y, &c.to_string(), *st);
    }
}

impl MapWidget<'_> {
    fn top_line(&self, t: &PlacedTile, base: Style) -> Pieces {
        let def = &Content::get().tiles[t.tile as usize];
        let bold = base.add_modifier(Modifier::BOLD);
        let mut p: Pieces = Vec::new();
        match def.kind {
            SystemKind::MainRift => {
                let n = t.keys_activated.len();
                p.push((if n > 0 { format!("RIFT{n}") } else { "RIFT".into() }, bold));
            }
            SystemKind::Corrupt if !t.rift_disabled => p.push((sym::RIFT.to_string(), bold)),
            _ => {}
        }
        if t.rift_created && !t.rift_disabled {
            p.push((sym::RIFT.to_string(), bold));
        }
        if t.rift_disabled {
            p.push((sym::RIFT_CLOSED.to_string(), bold));
        }
        if let Some(k) = t.key_marker {
            p.push((format!("{}{k}", sym::KEY), bold.fg(Color::LightYellow)));
        }
        if t.exploration_marker {
            p.push((sym::EXPLORATION.to_string(), bold));
        }
        if def.wormhole {
            p.push((sym::WORMHOLE.to_string(), bold));
        }
        if def.ally {
            p.push((sym::ALLY.to_string(), bold));
        }
        if def.patrol > 0 {
            p.push((format!("{}{}", sym::PATROL, def.patrol), bold));
        }
        if def.stronger {
            p.push((sym::STRONGER.to_string(), bold));
        }
        if def.surveillance {
            p.push((sym::SURVEILLANCE.to_string(), bold));
        }
        if let Some(pc) = t.pacified {
            let c = match pc {
                xodus_engine::Pacified::Green => Color::LightGreen,
                xodus_engine::Pacified::Red => Color::LightRed,
            };
            p.push((sym::PACIFIED.to_string(), bold.fg(c).bg(Color::Black)));
        }
        p
    }

    fn ship_line(&self, hex: Hex) -> Pieces {
        self.view
            .public
            .ships
            .iter()
            .filter(|s| s.hex == hex)
            .map(|s| {
                let mut st = style::seat_style(s.seat).bg(Color::Black);
                if s.fleet.is_some() {
                    st = st.add_modifier(Modifier::UNDERLINED);
                }
                let text = if s.defeated { sym::WRECK.to_string() } else { s.seat.to_string() };
                (text, st)
            })
            .collect()
    }

    fn threat_line(&self, hex: Hex, base: Style) -> Pieces {
        let c = Content::get();
        let mut p: Pieces = Vec::new();
        let enemies = self.view.public.board_enemies.iter().filter(|e| e.hex == hex).count();
        if enemies > 0 {
            p.push((format!("{}{enemies}", sym::ENEMY), base.fg(Color::White).add_modifier(Modifier::BOLD)));
        }
        for a in &self.view.public.avatars {
            if a.place == (AvatarPlace::Board { hex }) {
                let n = c.avatars.get(a.card as usize).map(|d| d.number).unwrap_or(0);
                p.push((format!("{}{n}", sym::AVATAR), Style::new().fg(Color::Black).bg(Color::White)));
            }
        }
        p
    }

    fn draw_tile(&self, buf: &mut Buffer, area: Rect, t: &PlacedTile, cx: i32, cy: i32) {
        let kind = Content::get().tiles[t.tile as usize].kind;
        let base = Style::new().bg(style::tile_bg(kind)).fg(Color::White);
        for dy in -1..=1 {
            put(buf, area, cx - 3, cy + dy, &" ".repeat(TILE_W as usize), base);
        }
        for (d, (ch, dx, dy)) in LANES.iter().enumerate() {
            if t.lanes & (1 << d) != 0 {
                put(buf, area, cx + dx, cy + dy, &ch.to_string(), base.add_modifier(Modifier::BOLD));
            }
        }
        put_centered(buf, area, cx, cy - 1, &self.top_line(t, base));
        put_centered(buf, area, cx, cy, &self.ship_line(t.hex));
        put_centered(buf, area, cx, cy + 1, &self.threat_line(t.hex, base));
    }

    /// Renders into `area` of `buf`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let tiles = &self.view.public.tiles;
        let edges = open_edges(self.view);
        let points: Vec<(i32, i32)> = tiles.iter().map(|t| grid(t.hex)).chain(edges.iter().map(|h| grid(*h))).collect();
        if points.is_empty() || area.width == 0 || area.height == 0 {
            return;
        }
        let (min_x, max_x) =
            (points.iter().map(|p| p.0).min().unwrap_or(0), points.iter().map(|p| p.0).max().unwrap_or(0));
        let (min_y, max_y) =
            (points.iter().map(|p| p.1).min().unwrap_or(0), points.iter().map(|p| p.1).max().unwrap_or(0));
        // The whole board when it fits; otherwise the space in focus (the
        // highlighted choice, else the active ship), kept inside the board.
        let focus = self.highlight.or(self.focus).map(grid);
        let centre = |lo: i32, hi: i32, room: i32, f: Option<i32>| -> i32 {
            match f {
                Some(f) if hi - lo + TILE_W > room => f.clamp(lo + room / 2 - TILE_W, hi - room / 2 + TILE_W),
                _ => (lo + hi) / 2,
            }
        };
        let cx = centre(min_x, max_x, area.width as i32, focus.map(|p| p.0));
        let cy = centre(min_y, max_y, area.height as i32, focus.map(|p| p.1));
        let off_x = area.width as i32 / 2 - cx - self.pan.0 as i32 * 8;
        let off_y = area.height as i32 / 2 - cy - self.pan.1 as i32 * 3;
        for h in &edges {
            let (x, y) = grid(*h);
            put(buf, area, x + off_x, y + off_y, &sym::UNEXPLORED.to_string(), style::dim());
        }
        for t in tiles {
            let (x, y) = grid(t.hex);
            self.draw_tile(buf, area, t, x + off_x, y + off_y);
        }
        if let Some(t) = &self.preview {
            let (x, y) = grid(t.hex);
            self.draw_tile(buf, area, t, x + off_x, y + off_y);
        }
        let mark = Style::new().fg(Color::Black).bg(Color::LightYellow).add_modifier(Modifier::BOLD);
        for (h, rank) in &self.hinted {
            let (x, y) = grid(*h);
            put(buf, area, x + off_x - 4, y + off_y - 1, &crate::hint::MARK.to_string(), mark);
            put(buf, area, x + off_x + 4, y + off_y - 1, &rank.to_string(), mark);
        }
        if let Some(h) = self.highlight.or(self.preview.as_ref().map(|t| t.hex)) {
            let (x, y) = grid(h);
            let st = Style::new().fg(Color::White).add_modifier(Modifier::BOLD);
            put(buf, area, x + off_x - 4, y + off_y, "▶", st);
            put(buf, area, x + off_x + 4, y + off_y, "◀", st);
        }
    }
}
