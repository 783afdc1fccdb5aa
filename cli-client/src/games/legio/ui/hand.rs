//! The viewer's own secrets: its hand (card names, what each teaches and
//! risks), its objectives (kept and on offer), the face-down contacts it
//! decoded and the X pile once it has seen it. A spectator sees only the
//! sizes.

use super::names;
use crate::ui::style;
use legio_engine::View;
use ratatui::text::Line;

/// The panel's lines for `rows` rows of `cols` columns: one card per line
/// with what it teaches and risks when they fit, else the names alone;
/// long lines wrapped at words.
pub fn lines(v: &View, rows: usize, cols: usize) -> Vec<Line<'static>> {
    crate::ui::menu::wrap_lines(raw(v, rows), cols, 4)
}

fn raw(v: &View, rows: usize) -> Vec<Line<'static>> {
    let Some(mine) = &v.mine else {
        let hands: Vec<String> =
            v.counts.hands.iter().enumerate().map(|(s, n)| format!("{} {n}", names::short(s as u8))).collect();
        return vec![Line::styled(format!("spectator: cards in hand {}", hands.join(", ")), style::dim())];
    };
    let mut out = Vec::new();
    let long = mine.hand.len() + mine.objectives.len() + mine.offer.len() + usize::from(mine.pile_x.is_some()) <= rows;
    if mine.hand.is_empty() {
        out.push(Line::styled("hand: empty", style::dim()));
    } else if long {
        out.extend(mine.hand.iter().map(|c| Line::raw(format!("  {}", names::card_long(*c)))));
    } else {
        out.push(Line::raw(short(v)));
    }
    for o in &mine.objectives {
        out.push(Line::raw(format!("kept: {}", names::objective_long(*o))));
    }
    for o in &mine.offer {
        out.push(Line::styled(format!("offer: {}", names::objective_long(*o)), style::title()));
    }
    if let Some(x) = &mine.pile_x {
        let cards: Vec<&str> = x.iter().map(|c| names::extrasolar(*c)).collect();
        out.push(Line::styled(format!("X pile: {}", cards.join(", ")), style::dim()));
    }
    out
}

/// The hand's card names on one line (small screens).
pub fn short(v: &View) -> String {
    match &v.mine {
        Some(mine) => {
            let names: Vec<&str> = mine.hand.iter().map(|c| names::card(*c)).collect();
            let offer = if mine.offer.is_empty() { "" } else { "  (objectives on offer)" };
            format!("hand: {}{offer}", if names.is_empty() { "empty".to_string() } else { names.join(", ") })
        }
        None => "spectator".into(),
    }
}
