//! Advice on request (AskHint), game-neutrally: the options an AI agent
//! advises a seat, best first, each with its estimate and reason; which
//! of a menu's options they are and how the menu marks them; when the
//! advice is void (the game moved past its seq); and the server's
//! refusals in a player's words. The call is in `remote`, the key in
//! `tui`, the marks on each game's screen.

use crate::seats::Seat;
use serde::Serialize;

/// The key that asks for a hint on every screen.
pub const HINT_KEY: char = 'B';

/// The key that mutes a seat (or hears it again): the seat's number
/// follows.
pub const MUTE_KEY: char = 'Z';

/// The mark before an advised option's rank in the menu and on a map.
pub const MARK: char = '◆';

/// One option advised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    /// The option's id in the seat's decision.
    pub option_id: String,
    /// Its label, as the decision shows it.
    pub label: String,
    /// The search's estimate (higher is better, the game's own scale).
    pub estimate: f64,
    /// Why, in one line.
    pub reason: String,
}

/// A hint: the options advised for one seat at one seq.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The game.
    pub game: String,
    /// The seat advised.
    pub seat: Seat,
    /// The seq of the state it is about: void once the game moved on.
    pub seq: u64,
    /// Up to three options, best first.
    pub options: Vec<Advice>,
    /// How long the agent thought, in milliseconds.
    pub think_ms: u32,
}

impl Hint {
    /// Still about the state at `seq` (not past it).
    pub fn current(&self, seq: u64) -> bool {
        seq <= self.seq
    }

    /// The rank (1 best) of option `id`, if advised.
    pub fn rank(&self, id: &str) -> Option<usize> {
        self.options.iter().position(|a| a.option_id == id).map(|i| i + 1)
    }

    /// A menu label for option `id`: marked with its rank and reason when
    /// advised ("◆1 Jump to (1,0) — explores a Signal"), else as is.
    pub fn label(&self, id: &str, label: &str) -> (String, bool) {
        match self.options.iter().position(|a| a.option_id == id) {
            Some(i) => {
                let reason = crate::talk::clean(&self.options[i].reason);
                let reason = reason.trim();
                let text = if reason.is_empty() {
                    format!("{MARK}{} {label}", i + 1)
                } else {
                    format!("{MARK}{} {label} — {reason}", i + 1)
                };
                (text, true)
            }
            None => (label.to_string(), false),
        }
    }

    /// The line over a menu the hint marks.
    pub fn banner(&self) -> String {
        format!("{MARK} the AI's hint, best first ({HINT_KEY} asks again)")
    }
}

/// Labels for a menu, marked by `hint` when it is about the state at
/// `seq`: each option's (id, label) in, each label and whether it is
/// advised out.
pub fn mark_labels(hint: Option<&Hint>, seq: u64, options: &[(String, String)]) -> (Vec<String>, Vec<bool>) {
    let hint = hint.filter(|h| h.current(seq));
    options
        .iter()
        .map(|(id, label)| match hint {
            Some(h) => h.label(id, label),
            None => (label.clone(), false),
        })
        .unzip()
}

/// "wait 2 s" from the server's "... retry in 1.3 s" (rounded up), or
/// None when it names no time.
pub fn wait_words(msg: &str) -> Option<String> {
    let (_, rest) = msg.rsplit_once("retry in ")?;
    let secs: f64 = rest.split_whitespace().next()?.parse().ok()?;
    let whole = secs.max(0.0).ceil() as u64;
    Some(format!("wait {} s", whole.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint() -> Hint {
        let advice = |id: &str, reason: &str| Advice {
            option_id: id.into(),
            label: format!("label {id}"),
            estimate: 0.5,
            reason: reason.into(),
        };
        Hint {
            game: "g".into(),
            seat: 1,
            seq: 7,
            options: vec![advice("b", "best\nline"), advice("a", "")],
            think_ms: 9,
        }
    }

    #[test]
    fn advised_options_get_their_rank_and_reason_and_the_rest_stay() {
        let h = hint();
        let options: Vec<(String, String)> =
            ["a", "b", "c"].iter().map(|id| (id.to_string(), format!("Do {id}"))).collect();
        let (labels, marked) = mark_labels(Some(&h), 7, &options);
        assert_eq!(labels, ["◆2 Do a", "◆1 Do b — best line", "Do c"]);
        assert_eq!(marked, [true, true, false]);
        assert_eq!(h.rank("b"), Some(1));
        assert_eq!(h.rank("c"), None);
        let (later, marked) = mark_labels(Some(&h), 8, &options);
        assert_eq!(later, ["Do a", "Do b", "Do c"], "void once the seq moved past the hint's");
        assert!(marked.iter().all(|m| !m));
    }

    #[test]
    fn the_servers_retry_time_becomes_a_wait_in_whole_seconds() {
        assert_eq!(wait_words("a seat may ask for a hint every 2 s; retry in 1.3 s").as_deref(), Some("wait 2 s"));
        assert_eq!(wait_words("retry in 0.0 s").as_deref(), Some("wait 1 s"));
        assert_eq!(wait_words("the agent is busy; retry in a moment"), None);
    }
}
