//! The Red Nebula: sectors S1..S5 and Sector X, each with its zone, the
//! ships in it, its active planets (Extrasolar card and discoverer) and
//! how many planets were explored there against the sector's limit.

use super::names;
use crate::ui::style;
use legio_engine::View;
use legio_engine::content::{Content, Pile};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The panel's lines.
pub fn lines(v: &View) -> Vec<Line<'static>> {
    let c = Content::get();
    let pb = &v.public;
    let players = pb.ships.len();
    let mut out = Vec::new();
    for sector in 0..6u8 {
        let mut spans = vec![Span::styled(format!("{:<3}", names::sector(sector)), style::title())];
        let zone = match c.nebula.zone(sector) {
            Some(Pile::A) => "A",
            Some(Pile::B) => "B",
            _ => " ",
        };
        spans.push(Span::styled(format!("{zone} "), style::dim()));
        if usize::from(sector) < 5 {
            let active = pb.planets.iter().flatten().filter(|p| p.sector == sector).count();
            let explored = pb.explored[usize::from(sector)];
            let limit = c.nebula.limit(sector, players);
            spans.push(Span::raw(format!("explored {explored:<2} active {active}/{limit:<2} ")));
        } else {
            spans.push(Span::raw(format!("{:<22}", format!("{} X cards", v.counts.pile_x))));
        }
        spans.push(Span::raw("ships "));
        let here: Vec<_> = pb.ships.iter().filter(|s| s.sector == sector).collect();
        if here.is_empty() {
            spans.push(Span::styled("-", style::dim()));
        }
        for s in here {
            spans.push(Span::styled(format!("{} ", names::short(s.seat)), style::seat_style(s.seat)));
        }
        out.push(Line::from(spans));
        for (i, p) in pb.planets.iter().enumerate() {
            let Some(p) = p.filter(|p| p.sector == sector) else { continue };
            out.push(Line::from(vec![
                Span::raw(format!("  {} {} ", names::planet(i as u8), names::extrasolar_long(p.card))),
                Span::styled(
                    format!("by {}", names::short(p.discoverer)),
                    Style::new().fg(style::seat_color(p.discoverer)),
                ),
            ]));
        }
    }
    out
}
