//! The ship mats: per ship its hull, energy, scraps, XP and level, Actions
//! left, Keys carried, Damaged cards, and its turn and fleet status.

use super::model::Screen;
use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use xodus_engine::Ship;
use xodus_engine::content::Content;

fn status_words(s: &Ship) -> String {
    let mut w = Vec::new();
    if s.defeated {
        w.push("DESTROYED".to_string());
    }
    if let Some(f) = s.fleet {
        w.push(format!("fleet{f}"));
    }
    if s.engaged {
        w.push("engaged".into());
    }
    if s.hidden {
        w.push("hidden".into());
    }
    if s.strained {
        w.push("strained".into());
    }
    if s.played {
        w.push("done".into());
    }
    w.join(" ")
}

/// How much of a ship's cards the panel has room to name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Counts only, on the second line.
    Counts,
    /// One line naming them all, the Damaged cards first.
    OneLine,
    /// A line for each kind: Damaged cards, modules, mods.
    LinePerKind,
}

/// Lines for one ship at the given detail.
fn ship_lines(screen: &Screen, s: &Ship, detail: Detail) -> Vec<Line<'static>> {
    let detailed = detail != Detail::Counts;
    let content = Content::get();
    let def = content.ship(s.kind);
    let active = screen.view.public.active.contains(&s.seat);
    let marker = if active { "▶" } else { " " };
    let who = screen.seat_mark(s.seat).map(|m| format!(" ({m})")).unwrap_or_default();
    let hull_style = if s.health * 3 <= s.max_health { Style::new().fg(Color::LightRed) } else { Style::new() };
    let first = Line::from(vec![
        Span::styled(marker.to_string(), Style::new().add_modifier(Modifier::BOLD)),
        Span::styled(format!("{} {}", s.seat, def.name), style::seat_style(s.seat)),
        Span::styled(who, style::dim()),
        Span::raw(" hull "),
        Span::styled(format!("{}/{}", s.health, s.max_health), hull_style),
        Span::raw(format!(" nrg {}/{}", s.energy_total.saturating_sub(s.energy_used), s.energy_total)),
    ]);
    let keys: String = s.keys.iter().map(|k| format!("K{k}")).collect::<Vec<_>>().join(",");
    let mut second = vec![Span::raw(format!("  scr {} xp {} L{} act {}", s.scraps, s.xp, s.level, s.actions_left))];
    if !keys.is_empty() {
        second.push(Span::styled(format!(" {keys}"), Style::new().fg(Color::LightYellow)));
    }
    if !s.modules.is_empty() && !detailed {
        second.push(Span::styled(format!(" mdl{}", s.modules.len()), Style::new().fg(Color::LightCyan)));
    }
    if !s.mods.is_empty() && !detailed {
        second.push(Span::styled(format!(" mod{}", s.mods.len()), Style::new().fg(Color::LightMagenta)));
    }
    if !s.damaged.is_empty() && !detailed {
        second.push(Span::styled(format!(" dmg{}", s.damaged.len()), Style::new().fg(Color::LightRed)));
    }
    second.push(Span::styled(format!(" {}", status_words(s)), style::dim()));
    let mut out = vec![first, Line::from(second)];
    if detailed {
        let damaged: Vec<&str> =
            s.damaged.iter().filter_map(|d| content.damaged.get(*d as usize).map(|c| c.name.as_str())).collect();
        let modules: Vec<String> = s
            .modules
            .iter()
            .filter_map(|m| content.modules.get(*m as usize))
            .map(|m| if m.precursor { format!("{}*", m.name) } else { m.name.clone() })
            .collect();
        let mods: Vec<&str> =
            s.mods.iter().filter_map(|m| content.mod_effects.get(*m as usize)).map(|m| m.name.as_str()).collect();
        // The Damaged cards first: a long list of modules must not push
        // them off the panel's edge.
        let kinds: Vec<Span<'static>> = [
            ("dmg", damaged.iter().map(|d| d.to_string()).collect::<Vec<_>>(), Color::LightRed),
            ("modules", modules, Color::LightCyan),
            ("mods", mods.iter().map(|m| m.to_string()).collect(), Color::LightMagenta),
        ]
        .into_iter()
        .filter(|(_, names, _)| !names.is_empty())
        .map(|(label, names, color)| Span::styled(format!("{label}: {}", names.join(", ")), Style::new().fg(color)))
        .collect();
        if kinds.is_empty() {
            out.push(Line::from(vec![Span::styled("  no modules, no damage", style::dim())]));
        } else if detail == Detail::LinePerKind {
            out.extend(kinds.into_iter().map(|k| Line::from(vec![Span::raw("  "), k])));
        } else {
            let mut line = vec![Span::raw("  ")];
            for k in kinds {
                line.push(k);
                line.push(Span::raw(" "));
            }
            out.push(Line::from(line));
        }
    }
    out
}

/// Rows one ship takes with its cards listed: its two lines, then one
/// line for each kind of card it holds (at least one).
fn detailed_rows(s: &Ship) -> usize {
    2 + [!s.damaged.is_empty(), !s.modules.is_empty(), !s.mods.is_empty()].iter().filter(|b| **b).count().max(1)
}

/// The panel's lines for `rows` available rows.
pub fn lines(screen: &Screen, rows: usize) -> Vec<Line<'static>> {
    let ships = &screen.view.public.ships;
    let detail = if rows >= ships.iter().map(detailed_rows).sum::<usize>() {
        Detail::LinePerKind
    } else if rows >= ships.len() * 3 {
        Detail::OneLine
    } else {
        Detail::Counts
    };
    ships.iter().flat_map(|s| ship_lines(screen, s, detail)).collect()
}

/// One line per ship, for small terminals.
pub fn short_lines(screen: &Screen) -> Vec<Line<'static>> {
    screen
        .view
        .public
        .ships
        .iter()
        .map(|s| {
            let active = if screen.view.public.active.contains(&s.seat) { "▶" } else { " " };
            let keys: String = s.keys.iter().map(|k| format!(" K{k}")).collect();
            Line::from(vec![
                Span::raw(active.to_string()),
                Span::styled(format!("{} {}", s.seat, Content::get().ship(s.kind).name), style::seat_style(s.seat)),
                Span::raw(format!(
                    " hull {}/{} nrg {}/{} scr {} L{}{keys} {}",
                    s.health,
                    s.max_health,
                    s.energy_total.saturating_sub(s.energy_used),
                    s.energy_total,
                    s.scraps,
                    s.level,
                    status_words(s)
                )),
            ])
        })
        .collect()
}
