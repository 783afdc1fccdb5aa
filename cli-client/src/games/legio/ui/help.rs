//! The rules card and the keys (`?`): the keys first (the talk's, the
//! hint's and the mute key too, so they show on the smallest screen), how
//! the game ends and is won, what a turn may do and what it costs, what
//! each card's risk tag means, what the tracks are, and the panels'
//! abbreviations. Facts as
//! the engine plays them (games/legio/engine/src/score.rs, turn.rs, explore.rs).

use crate::ui::{menu, style};
use legio_engine::XENO_MAX;
use ratatui::text::Line;

/// The win rule in one line, for the status bar and the scores panel.
pub const WIN_RULE: &str = "most PC among commanders with 10+ PX wins";

/// The rules card's and keys' lines.
pub fn lines() -> Vec<Line<'static>> {
    let t = |s: &str| Line::styled(s.to_string(), style::title());
    let r = |s: String| Line::raw(s);
    vec![
        t("Keys"),
        r(format!("  Up/Down or j/k  move in the menu   {}   Enter  send", menu::keys_help())),
        r("  Tab  (small screens) the Red Nebula, the commanders, the log   PgUp/PgDn  scroll the log".into()),
        r("  u  undo your last choice (if nothing hidden or random happened)   x  leave your seat (asks)".into()),
        r("  ?  this card   q or Esc  quit".into()),
        r("  B  hint: the AI's best options, marked ◆   Z then a commander's number  mute/unmute them".into()),
        r(super::talk::KEYS_HELP[0].into()),
        r(super::talk::KEYS_HELP[1].into()),
        t("How the game ends and who wins"),
        r(format!(
            "  The round is played out once: a commander with 13+ PX declares the end, one reaches {XENO_MAX} PX,"
        )),
        r("  the Imperator reaches 25 PC, or no sector can take another planet.".into()),
        r("  Then, among commanders with 10 PX or more, the most PC wins (a tie: more PX). Nobody at".into()),
        r("  10 PX: nobody wins. A hosted game cut at its round limit has no winner.".into()),
        t("Your turn"),
        r("  Draw 0 to N cards (N: your propulsors). Pay with cards face down: recruit 3, equip 2 (the first".into()),
        r("  propulsor 1), cross a border (its cost: see the Red Nebula), decode contact A 1, B 2. Play a card".into()),
        r("  face up to explore. Land once a turn on a planet of your sector: the card asks squads and".into()),
        r("  experience; invite the ships of your sector to add theirs. Every card left at the end costs 1 PC.".into()),
        r("  An option's price is in brackets; one that takes your whole hand, or PC, asks you first.".into()),
        t("Card risks (the tag after a card's name)"),
        r("  signal: none   discard N: N more cards   drift: your ship goes back to the Star Base (S1)".into()),
        r("  hazard: one damage roll   discovery: a new planet in your sector   Oz ore: PC and PX (3+ PX)".into()),
        r("  Xeno ship: a damage roll per missing laser; a laser at the start wins its trophy; a laser is lost".into()),
        t("Tracks"),
        r("  PC: command points, the score.  PX: Xeno points; 6 teaches a technology, 9 opens Sector X,".into()),
        r("  10 lets you win.  12 PC at the Star Base promotes a Frombola to a Spatha.  xp dip/cap:".into()),
        r("  experience spent on missions of that domain.".into()),
        t("Abbreviations"),
        r("  > the active commander; prop propulsors, las lasers, dec decoder, det risk detectors, sq squads,".into()),
        r("  exp experts (D diplomats, A adventurers, H hunters), obj secret objectives, calls Imperator calls".into()),
    ]
}
