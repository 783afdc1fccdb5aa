//! The fight panel: the Enemies and Avatars engaged (or, outside a fight,
//! those in the active ship's system) with health and shields, and the
//! dice of the last roll.

use super::model::Screen;
use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use xodus_engine::content::{Ability, Content};
use xodus_engine::{AvatarPlace, Hex};

/// A short word for an ability.
fn ability(a: &Ability) -> String {
    match a {
        Ability::Swarm { amount, .. } => format!("swarm+{amount}"),
        Ability::Piercing { amount } => format!("pierce+{amount}"),
        Ability::Bulwark { amount } => format!("bulwark+{amount}"),
        Ability::Pillage { amount } => format!("pillage{amount}"),
        Ability::Drain { amount } => format!("drain{amount}"),
        Ability::Regenerate { amount } => format!("regen{amount}"),
        Ability::Pursuit { amount } => format!("pursuit+{amount}"),
        Ability::Sunder { amount } => format!("sunder{amount}"),
        Ability::Nullify { amount } => format!("nullify{amount}"),
        Ability::Dismantle { amount } => format!("dismantle{amount}"),
    }
}

/// The system whose threats are shown: the fight's, else the active ship's.
fn focus(screen: &Screen) -> Option<(Hex, bool)> {
    let pb = &screen.view.public;
    if let Some(f) = &pb.fight {
        return Some((f.hex, true));
    }
    let seat = pb.active.first()?;
    pb.ships.get(*seat as usize).map(|s| (s.hex, false))
}

fn health_line(name: String, health: u8, damage: u8, shields: u8, extra: String) -> Line<'static> {
    let left = health.saturating_sub(damage);
    Line::from(vec![
        Span::styled(name, Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(" hp "),
        Span::styled(format!("{left}/{health}"), Style::new().fg(Color::LightRed)),
        Span::raw(format!(" sh {shields} ")),
        Span::styled(extra, style::dim()),
    ])
}

/// Lines of the threats at the focus system.
fn threats(screen: &Screen) -> Vec<Line<'static>> {
    let content = Content::get();
    let pb = &screen.view.public;
    let Some((hex, fighting)) = focus(screen) else {
        return vec![Line::styled("No active ship", style::dim())];
    };
    let mut out = Vec::new();
    // The system as the log names it: its name, when a tile lies there.
    let place = match pb.tiles.iter().find(|t| t.hex == hex).and_then(|t| content.tiles.get(usize::from(t.tile))) {
        Some(tile) => format!("{} ({},{})", tile.name, hex.q, hex.r),
        None => format!("({},{})", hex.q, hex.r),
    };
    let head = if fighting {
        let seats = pb.fight.as_ref().map(|f| xodus_engine::text::words::captains(&f.seats)).unwrap_or_default();
        format!("FIGHT at {place}: {seats}")
    } else {
        format!("At {place}")
    };
    out.push(Line::styled(
        head,
        if fighting { Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD) } else { style::dim() },
    ));
    for (i, e) in pb.board_enemies.iter().enumerate().filter(|(_, e)| e.hex == hex) {
        if let Some(d) = content.enemies.get(e.card as usize) {
            let guard = e.guards_key.map(|k| format!(" guards K{k}")).unwrap_or_default();
            out.push(health_line(
                format!("E{i} {} L{}", d.name, d.level),
                d.health,
                e.damage,
                d.shields,
                format!("{}{guard}", ability(&d.ability)),
            ));
        }
    }
    for (i, a) in pb.avatars.iter().enumerate().filter(|(_, a)| a.place == AvatarPlace::Board { hex }) {
        if let Some(d) = content.avatars.get(a.card as usize) {
            out.push(health_line(
                format!("A{i} V{} {}", d.number, d.name),
                d.health,
                a.damage,
                d.shields,
                ability(&d.ability),
            ));
        }
    }
    if out.len() == 1 {
        out.push(Line::styled("no Enemies here", style::dim()));
    }
    out
}

/// The last choice's rolls as coloured dice, one line each (every ship of
/// a fleet fight).
fn dice(screen: &Screen) -> Vec<Line<'static>> {
    if screen.last_rolls.is_empty() {
        return vec![Line::styled("No dice rolled yet", style::dim())];
    }
    screen.last_rolls.iter().map(roll_line).collect()
}

/// One roll as coloured dice.
fn roll_line(roll: &super::model::LastRoll) -> Line<'static> {
    let who = roll.seat.map(|s| format!("captain {s}")).unwrap_or_else(|| "the Avatars".into());
    let mut spans = vec![Span::styled(format!("{who} {:?}: ", roll.purpose).to_lowercase(), style::dim())];
    for (color, face) in &roll.dice {
        spans.push(Span::styled(
            format!("[{}]", style::face_text(*face)),
            Style::new().fg(Color::Black).bg(style::die_color(*color)),
        ));
        spans.push(Span::raw(" "));
    }
    Line::from(spans)
}

/// The panel's lines for `rows` rows: the first two lines of threats (the
/// fight and its first foe) and at least the newest roll always stay; more
/// rolls (each ship of a fleet fight), then more threats, take the rest.
pub fn lines(screen: &Screen, rows: usize) -> Vec<Line<'static>> {
    let mut out = threats(screen);
    let mut dice = dice(screen);
    let room_for_dice = rows.saturating_sub(out.len().min(2)).max(1);
    let keep = dice.len().min(room_for_dice);
    let dice = dice.split_off(dice.len() - keep);
    out.truncate(rows.saturating_sub(dice.len()).max(1));
    out.extend(dice);
    out
}
