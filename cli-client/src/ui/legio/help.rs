//! The help overlay: the keys and the abbreviations of the panels.

use crate::ui::style;
use ratatui::text::Line;

/// The help text.
pub fn lines() -> Vec<Line<'static>> {
    vec![
        Line::styled("Keys", style::title()),
        Line::raw("  Up/Down or j/k  move in the menu     1-9  jump to option"),
        Line::raw("  Enter           send the choice      PgUp/PgDn  scroll the log"),
        Line::raw("  u               undo your last choice (if nothing hidden or random happened)"),
        Line::raw("  x               leave your seat (asks first); you go on watching"),
        Line::raw("  ?               this help            q or Esc  quit"),
        Line::raw(""),
        Line::styled("Commanders", style::title()),
        Line::raw("  > the active commander; prop propulsors, las lasers, dec decoder, det risk detectors,"),
        Line::raw("  sq squads, exp experts (D diplomats, A adventurers, H hunters), xp experience"),
        Line::raw("  (dip Diplomacy / cap Capture), calls left: Imperator calls, obj secret objectives"),
        Line::styled("Cards", style::title()),
        Line::raw("  hand: name (+experience taught, risk); planets: name (squads to land,"),
        Line::raw("  experience asked and its domain, PC shared)"),
    ]
}
