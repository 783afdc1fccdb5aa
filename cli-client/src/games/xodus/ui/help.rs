//! The help screen: the keys first (the talk's, the hint's and the mute
//! key too, so they show on the smallest screen), the rules card (how
//! the crew wins and loses, what a round holds) and the map legend.

use super::style::{self, sym};
use crate::ui::menu;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use xodus_engine::content::SystemKind;

/// The win rule in a few words, for the status bar.
pub const WIN_RULE: &str = "seal the Rift with every Key before the Corruption rises";

/// The hint and mute keys in words.
pub const HINT_HELP: &str =
    "  B  hint: the AI's best options (◆ on menu and map)   Z then a captain's number  mute/unmute it";

/// The help text.
pub fn lines() -> Vec<Line<'static>> {
    let kind = |k: SystemKind| {
        vec![
            Span::raw("  "),
            Span::styled("     ", Style::new().bg(style::tile_bg(k))),
            Span::raw(format!(" {:<36}", format!("{} system", style::kind_name(k)))),
        ]
    };
    let legend = [
        (sym::EXPLORATION.to_string(), "Exploration marker"),
        (sym::WORMHOLE.to_string(), "wormhole"),
        (format!("{}n", sym::KEY), "Precursor Signal of Key n"),
        (sym::ALLY.to_string(), "Ally"),
        (format!("{}n", sym::PATROL), "patrol: n Enemies when detected"),
        (sym::STRONGER.to_string(), "stronger Enemies (reserve)"),
        (sym::SURVEILLANCE.to_string(), "surveillance: always detected"),
        (sym::RIFT.to_string(), "open rift (x: closed)"),
        (sym::PACIFIED.to_string(), "pacified (green new, red fading)"),
        ("0-3".into(), "ships (underlined: fleet, x: wreck)"),
        (format!("{}n", sym::ENEMY), "n Enemy cards in the system"),
        (format!("{}n", sym::AVATAR), "Avatar number n"),
        (sym::UNEXPLORED.to_string(), "unexplored space past a lane"),
        ("─ ╱ ╲".into(), "hyperspace lanes on a system's rim"),
        ("▶ ◀".into(), "where the highlighted choice goes"),
        (format!("{}  n", crate::hint::MARK), "where the hint's option n goes"),
    ];
    let mut out = vec![
        Line::styled("Keys", style::title()),
        Line::raw(format!("  Up/Down or j/k  move in the menu     {}", menu::keys_help())),
        Line::raw("  Enter  send the choice   PgUp/PgDn  scroll the log   H/J/K/L  pan the map   0  centre the map"),
        Line::raw("  u  undo your last choice (if nothing random happened since)   x  leave your seats (asks first)"),
        Line::raw("  ?  this card   q or Esc  quit   T  talk (Tab: to the team or one captain; Enter says it)"),
        Line::raw(HINT_HELP),
    ];
    out.extend(super::talk::KEYS_HELP.iter().map(|l| Line::raw(*l)));
    out.extend([
        Line::styled("How the crew wins (everyone wins or loses together)", style::title()),
        Line::raw("  Explore systems to find the Precursor Signals; solve a Signal's trial to access its Key;"),
        Line::raw("  carry every Key to the Main Rift and explore it there to activate them. When all Keys are"),
        Line::raw("  active and no Avatar stands in the Rift's system at the end of an Action phase, it is sealed."),
        Line::raw("  The crew loses when the Corruption marker must advance past its Rise space,"),
        Line::raw("  or when every ship is destroyed."),
        Line::raw("  Each round: every captain takes Actions (move, explore, fight, trade...), then the"),
        Line::raw("  Corruption advances a space (new Avatars come) and the Avatars hunt the nearest ship."),
        Line::raw(""),
        Line::styled("Map", style::title()),
    ]);
    for pair in [[SystemKind::Allied, SystemKind::Enemy], [SystemKind::Corrupt, SystemKind::MainRift]] {
        out.push(Line::from(pair.into_iter().flat_map(kind).collect::<Vec<_>>()));
    }
    let cell = |(s, t): &(String, &str)| {
        vec![Span::styled(format!("  {s:<5}"), Style::new().fg(Color::White)), Span::raw(format!(" {t:<36}"))]
    };
    for pair in legend.chunks(2) {
        out.push(Line::from(pair.iter().flat_map(cell).collect::<Vec<_>>()));
    }
    out.push(Line::raw(""));
    out.push(Line::styled("Corruption: ● marker, A face-down Avatar, r red box, X the Rise", style::dim()));
    out.push(Line::styled("Ships: hull, nrg free/total, scr scraps, xp/L level, act Actions, Kn Keys,", style::dim()));
    out.push(Line::styled("  modules (* Precursor), mods (Precursor Mods), dmg Damaged cards", style::dim()));
    out
}
