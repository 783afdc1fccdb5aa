//! Table talk, game-neutrally: the lines a screen has heard (who spoke, to
//! whom, the text, the signal in the server's words, an AI's plan), the
//! line being typed (its text and audience), the seats muted, the
//! signals a game's keys give, and each heard line in words. Drawing is `ui::talk`; the calls
//! are in `remote`; each game's signal keys are in its folder.

use crate::seats::Seat;
use crate::table::Packed;

/// Lines a screen keeps.
const KEPT: usize = 200;

/// The most characters a line may have (the server's cap).
pub const MAX_CHARS: usize = 280;

/// Who a line is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Audience {
    /// Everyone at the table (spectators too).
    #[default]
    Table,
    /// The speaker's team (a cooperative game).
    Team,
    /// One seat (and the speaker).
    Seat(Seat),
}

impl Audience {
    /// "the table", "the team", "captain 2".
    pub fn words(self, name: impl Fn(Seat) -> String) -> String {
        match self {
            Audience::Table => "the table".into(),
            Audience::Team => "the team".into(),
            Audience::Seat(s) => name(s),
        }
    }
}

/// One line heard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heard {
    /// Its number in the game's talk (from 1).
    pub talk_seq: u64,
    /// The game's seq when it was said.
    pub game_seq: u64,
    /// The seat that spoke.
    pub speaker: Seat,
    /// An AI held the speaking seat.
    pub speaker_ai: bool,
    /// Who it was for.
    pub audience: Audience,
    /// What was said (control characters already replaced).
    pub text: String,
    /// The signal in the server's words ("" without one).
    pub signal_words: String,
    /// An AI's statement of its plan.
    pub intent: bool,
}

/// `text` with every control character (a line break, an escape) made a
/// space: a line stays one line and cannot drive the terminal.
pub fn clean(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

impl Heard {
    /// The line in words, with its speaker named by `name`: "captain 1
    /// (AI) plans: Heading to Veyra Drift (1,2): to explore it. [heading
    /// to (1,2) Veyra Drift]", "Commander 2 to you: hello".
    pub fn words(&self, name: impl Fn(Seat) -> String, mine: &[Seat]) -> String {
        let (head, body) = self.parts(name, mine);
        format!("{head}{body}")
    }

    /// The speaker's part ("captain 1 (AI) plans: ") and the rest.
    pub fn parts(&self, name: impl Fn(Seat) -> String, mine: &[Seat]) -> (String, String) {
        let mut head = name(self.speaker);
        if mine.contains(&self.speaker) {
            head.push_str(" (you)");
        } else if self.speaker_ai {
            head.push_str(" (AI)");
        }
        match self.audience {
            Audience::Table => {}
            Audience::Team => head.push_str(" to the team"),
            Audience::Seat(s) if mine.contains(&s) => head.push_str(" to you"),
            Audience::Seat(s) => head.push_str(&format!(" to {}", name(s))),
        }
        head.push_str(if self.intent { " plans: " } else { ": " });
        let text = clean(&self.text);
        let signal = clean(&self.signal_words);
        let body = match (text.trim().is_empty(), signal.trim().is_empty()) {
            (false, true) => text,
            (true, false) => format!("[{signal}]"),
            (false, false) => format!("{text} [{signal}]"),
            (true, true) => String::new(),
        };
        (head, body)
    }
}

/// The line being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// The text so far.
    pub text: String,
    /// Who it is for.
    pub audience: Audience,
}

impl Draft {
    /// Adds a character (none past the cap, no control character).
    pub fn push(&mut self, c: char) {
        if !c.is_control() && self.text.chars().count() < MAX_CHARS {
            self.text.push(c);
        }
    }

    /// The next audience of `choices` (Tab), round.
    pub fn next_audience(&mut self, choices: &[Audience]) {
        let at = choices.iter().position(|a| *a == self.audience);
        self.audience = match at {
            Some(i) => choices[(i + 1) % choices.len()],
            None => choices.first().copied().unwrap_or_default(),
        };
    }
}

/// The talk a screen shows: the lines heard, the line being typed.
#[derive(Clone, Debug, Default)]
pub struct Talk {
    /// Lines heard, oldest first.
    pub lines: Vec<Heard>,
    /// The line being typed, while the talk line is open.
    pub draft: Option<Draft>,
    /// The seats this terminal's seat does not hear (MuteSeat), as the
    /// server last said.
    pub muted: Vec<Seat>,
}

impl Talk {
    /// Adds lines heard; a line already heard (a resumed stream says it
    /// again) is skipped.
    pub fn hear(&mut self, lines: Vec<Heard>) {
        for line in lines {
            if line.talk_seq == 0 || line.talk_seq > self.last_seq() {
                self.lines.push(line);
            }
        }
        if self.lines.len() > KEPT {
            let extra = self.lines.len() - KEPT;
            self.lines.drain(..extra);
        }
    }

    /// The last talk_seq heard (0: none).
    pub fn last_seq(&self) -> u64 {
        self.lines.iter().map(|l| l.talk_seq).max().unwrap_or(0)
    }

    /// Something to show: lines heard, a line being typed, or a seat
    /// muted.
    pub fn shown(&self) -> bool {
        !self.lines.is_empty() || self.draft.is_some() || !self.muted.is_empty()
    }
}

/// A line to say: to whom, the text, the signal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saying {
    /// Who it is for.
    pub audience: Audience,
    /// Plain text (may be empty with a signal).
    pub text: String,
    /// The game's signal, packed.
    pub signal: Option<Packed>,
}

/// What a signal key (or the keys so far of a signal that needs another)
/// gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignalStep {
    /// The signal to send, with its words for the status line.
    Send(Packed, String),
    /// The signal needs one more key: the question saying which.
    More(String),
    /// Not now, and why ("no revealed system under the cursor").
    Refuse(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: Seat) -> String {
        format!("captain {s}")
    }

    #[test]
    fn a_line_names_its_speaker_the_ai_the_plan_the_audience_and_the_signal() {
        let line = Heard {
            talk_seq: 3,
            speaker: 1,
            speaker_ai: true,
            intent: true,
            text: "Heading to Veyra Drift: to explore it.".into(),
            signal_words: "heading to (1,2) Veyra Drift".into(),
            ..Heard::default()
        };
        assert_eq!(
            line.words(name, &[0]),
            "captain 1 (AI) plans: Heading to Veyra Drift: to explore it. [heading to (1,2) Veyra Drift]"
        );
        let whisper = Heard { speaker: 2, audience: Audience::Seat(0), text: "psst".into(), ..Heard::default() };
        assert_eq!(whisper.words(name, &[0]), "captain 2 to you: psst");
        assert_eq!(whisper.words(name, &[2]), "captain 2 (you) to captain 0: psst");
        let team = Heard { audience: Audience::Team, signal_words: "don't seal yet".into(), ..Heard::default() };
        assert_eq!(team.words(name, &[]), "captain 0 to the team: [don't seal yet]");
        let rude = Heard { text: "two\nlines\u{1b}[2J".into(), ..Heard::default() };
        assert_eq!(rude.words(name, &[]), "captain 0: two lines [2J", "control characters never reach the terminal");
    }

    #[test]
    fn lines_heard_again_on_a_resumed_stream_are_kept_once() {
        let mut talk = Talk::default();
        let line = |n| Heard { talk_seq: n, text: format!("line {n}"), ..Heard::default() };
        talk.hear(vec![line(1), line(2)]);
        talk.hear(vec![line(2), line(3)]);
        assert_eq!(talk.lines.iter().map(|l| l.talk_seq).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(talk.last_seq(), 3);
    }

    #[test]
    fn a_draft_takes_plain_characters_up_to_the_cap_and_turns_its_audience() {
        let mut d = Draft::default();
        for c in "hi\u{7}!".chars() {
            d.push(c);
        }
        assert_eq!(d.text, "hi!");
        for _ in 0..400 {
            d.push('x');
        }
        assert_eq!(d.text.chars().count(), MAX_CHARS);
        let choices = [Audience::Table, Audience::Team, Audience::Seat(1)];
        d.next_audience(&choices);
        assert_eq!(d.audience, Audience::Team);
        d.next_audience(&choices);
        d.next_audience(&choices);
        assert_eq!(d.audience, Audience::Table);
    }
}
