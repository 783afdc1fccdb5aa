//! The Corruption mat: the timeline from the start to the Rise (marker,
//! face-down Avatar tokens, red boxes), the Precursor Keys' progress, and
//! the Avatars whose identity is known.

use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use xodus_engine::content::{Challenge, Content};
use xodus_engine::{AvatarPlace, View};

/// Spans of the timeline: `●` marker, `━` spaces passed, `A` face-down
/// Avatar, `r` red box, `X` the Rise, `·` an empty space.
fn timeline(view: &View) -> Vec<Span<'static>> {
    let c = &view.public.corruption;
    (0..=c.rise)
        .map(|i| {
            if i == c.position {
                Span::styled("●", Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD))
            } else if i == c.rise {
                Span::styled("X", Style::new().fg(Color::Red).add_modifier(Modifier::BOLD))
            } else if c.face_down.contains(&i) {
                Span::styled("A", Style::new().fg(Color::White))
            } else if c.red_boxes.contains(&i) {
                Span::styled("r", Style::new().fg(Color::Red))
            } else if i < c.position {
                Span::styled("━", Style::new().fg(Color::Red))
            } else {
                Span::styled("·", style::dim())
            }
        })
        .collect()
}

/// The Keys: `K1 ok`, `K2 1/3`, `K3 ?` (Signal still face down).
fn keys(view: &View) -> Vec<Span<'static>> {
    let content = Content::get();
    let mut out = vec![Span::styled("Keys ", style::dim())];
    for s in &view.public.signals {
        let text = if s.solved {
            format!("K{} ok ", s.key)
        } else if let Some(card) = s.card.and_then(|c| content.signals.get(c as usize)) {
            let needed = match &card.challenge {
                Challenge::Repairs { amount }
                | Challenge::Tribute { amount }
                | Challenge::Trial { amount, .. }
                | Challenge::Guardian { amount } => *amount,
            };
            format!("K{} {}/{} ", s.key, s.progress, needed)
        } else {
            format!("K{} ? ", s.key)
        };
        let st = if s.solved { Style::new().fg(Color::LightGreen) } else { Style::new() };
        out.push(Span::styled(text, st));
    }
    out
}

/// Face-up Avatars on the mat and their movement modifiers.
fn avatars(view: &View) -> Vec<Span<'static>> {
    let content = Content::get();
    let c = &view.public.corruption;
    let mut out = vec![Span::styled("Avatars ", style::dim())];
    for a in &view.public.avatars {
        let n = content.avatars.get(a.card as usize).map(|d| d.number).unwrap_or(0);
        let place = match a.place {
            AvatarPlace::Mat { space } => format!("mat {space}"),
            AvatarPlace::Board { hex } => format!("({},{})", hex.q, hex.r),
            AvatarPlace::Gone => "gone".into(),
        };
        out.push(Span::raw(format!("V{n} {place} ")));
    }
    let moves = c.movement_this_turn + c.movement_permanent;
    if moves != 0 {
        out.push(Span::raw(format!("move{moves:+} ")));
    }
    if c.rift_rush {
        out.push(Span::styled("RIFT RUSH", Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)));
    }
    out
}

/// The panel's lines.
pub fn lines(view: &View) -> Vec<Line<'static>> {
    let c = &view.public.corruption;
    let mut first = vec![Span::styled(format!("{:>2}/{} ", c.position, c.rise), style::title())];
    first.extend(timeline(view));
    vec![Line::from(first), Line::from(keys(view)), Line::from(avatars(view))]
}
