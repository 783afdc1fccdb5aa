//! The score tracks and the common cards: PC per commander with the
//! Imperator's pawn (25 ends the game), the Xeno track (PX: 10 to be
//! eligible to win, 13 to declare the end, 15 ends it), the win rule, the Imperator's card, and the contacts
//! A1 (face up), A2 and B (face down unless this viewer decoded them:
//! "face down (decoded by 1)" says who else knows it).

use super::help::WIN_RULE;
use super::names;
use crate::ui::menu::wrap;
use crate::ui::style;
use legio_engine::{View, XENO_MAX};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The panel's lines for `cols` columns.
pub fn lines(v: &View, cols: usize) -> Vec<Line<'static>> {
    let pb = &v.public;
    let seats = |f: &dyn Fn(&legio_engine::Ship) -> String| -> Vec<Span<'static>> {
        pb.ships
            .iter()
            .flat_map(|s| {
                [
                    Span::styled(format!("{}:", names::short(s.seat)), Style::new().fg(style::seat_color(s.seat))),
                    Span::raw(f(s)),
                ]
            })
            .collect()
    };
    let mut pc = vec![Span::styled("PC   ", style::title())];
    pc.extend(seats(&|s| format!("{:<4}", s.pc)));
    pc.push(Span::raw(format!(" Imperator {}/25", pb.imperator.score)));
    let mut px = vec![Span::styled("Xeno ", style::title())];
    px.extend(seats(&|s| format!("{:<4}", s.px)));
    px.push(Span::styled(format!(" 10+ to win, {XENO_MAX} ends"), style::dim()));
    let card = pb.imperator.card.map_or("none".to_string(), names::imperator);
    let mut out = vec![
        Line::from(pc),
        Line::from(px),
        Line::raw(format!("Imperator card: {card} (deck {})", v.counts.imperator_deck)),
    ];
    let a1 = pb.contact_a1.map_or("-".to_string(), names::extrasolar_long);
    out.push(Line::raw(format!("A1 {a1}")));
    for (slot, name) in [(0usize, "A2"), (1, "B ")] {
        let decoded = v.mine.as_ref().and_then(|m| m.contacts[slot]);
        let text = match (pb.contact_down[slot], decoded) {
            (false, _) => "-".to_string(),
            (true, Some(card)) => format!("{} decoded", names::extrasolar_long(card)),
            (true, None) => {
                let seen = &pb.contact_seen[slot];
                if seen.is_empty() {
                    "face down".to_string()
                } else {
                    let who: Vec<String> = seen.iter().map(|s| names::short(*s)).collect();
                    format!("face down (decoded by {})", who.join(", "))
                }
            }
        };
        out.push(Line::raw(format!("{name} {text}")));
    }
    if let Some(cause) = &pb.end {
        let text = format!("End triggered: {}; the round is played out", names::cause(cause));
        out.extend(wrap(&text, cols, 2).into_iter().map(|l| Line::styled(l, style::title())));
    }
    out.extend(wrap(&format!("Win: {WIN_RULE}"), cols, 2).into_iter().map(|l| Line::styled(l, style::dim())));
    out
}
