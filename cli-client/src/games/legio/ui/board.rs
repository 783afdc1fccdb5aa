//! The Red Nebula: sectors S1..S5 and Sector X, each with its zone, the
//! ships in it, its active planets (Extrasolar card and discoverer) and
//! how many planets were explored there against the sector's limit.

use super::names;
use crate::ui::style;
use legio_engine::View;
use legio_engine::content::{Content, Pile};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The panel's lines for `cols` columns: a sector's border costs go on its
/// line when they fit, else on the next.
pub fn lines(v: &View, cols: usize) -> Vec<Line<'static>> {
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
        let borders = borders(sector);
        let width: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        if width + borders.chars().count() < cols {
            spans.push(Span::styled(format!(" {borders}"), style::dim()));
            out.push(Line::from(spans));
        } else {
            out.push(Line::from(spans));
            out.push(Line::styled(format!("    {borders}"), style::dim()));
        }
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

/// What leaving a sector costs: "to S2 1, S3 2 cards" (S1..S5), "to the
/// Star Base 3 cards" (Sector X); entering X costs its own price from
/// anywhere.
fn borders(sector: u8) -> String {
    let c = Content::get();
    if usize::from(sector) >= 5 {
        return format!("leave for S1 {} cards", c.nebula.x.leave_cost);
    }
    let costs: Vec<String> = (0..5u8)
        .filter_map(|to| {
            c.nebula.cost[usize::from(sector)][usize::from(to)].map(|n| format!("{} {n}", names::sector(to)))
        })
        .collect();
    format!("cross to {} cards", costs.join(", "))
}
