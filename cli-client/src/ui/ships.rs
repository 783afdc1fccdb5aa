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

/// Lines for one ship; `detailed` adds a line naming the Damaged cards.
fn ship_lines(screen: &Screen, s: &Ship, detailed: bool) -> Vec<Line<'static>> {
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
        let mut third = vec![Span::raw("  ")];
        if !modules.is_empty() {
            third.push(Span::styled(format!("modules: {} ", modules.join(", ")), Style::new().fg(Color::LightCyan)));
        }
        if !mods.is_empty() {
            third.push(Span::styled(format!("mods: {} ", mods.join(", ")), Style::new().fg(Color::LightMagenta)));
        }
        if !damaged.is_empty() {
            third.push(Span::styled(format!("dmg: {}", damaged.join(", ")), Style::new().fg(Color::LightRed)));
        }
        if modules.is_empty() && mods.is_empty() && damaged.is_empty() {
            third.push(Span::styled("no modules, no damage", style::dim()));
        }
        out.push(Line::from(third));
    }
    out
}

/// The panel's lines for `rows` available rows.
pub fn lines(screen: &Screen, rows: usize) -> Vec<Line<'static>> {
    let ships = &screen.view.public.ships;
    let detailed = rows >= ships.len() * 3;
    ships.iter().flat_map(|s| ship_lines(screen, s, detailed)).collect()
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
