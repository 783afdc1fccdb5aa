//! Snapshot tests of rendered screens: real engine states (fixed seeds,
//! fixed picks) drawn with ratatui's `TestBackend`, compared with the text
//! files in `tests/snapshots/`. Each state is stored next to its picture
//! (`NAME.json`: the view, the events, the seats), so a change to the rules
//! does not move the pictures; only a change to the screen does (a stored
//! state whose shape no longer parses is rebuilt by play). After a deliberate change, regenerate states and
//! pictures with `UPDATE_SNAPSHOTS=1 cargo test -p xodus-cli --test
//! snapshots` (`UPDATE_PICTURES=1`: the pictures alone) and review the diff.

mod common;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use xodus_cli::games::xodus::ui::{Screen, draw};
use xodus_engine::{Difficulty, Event, Game, GameConfig, View, Viewer};

/// Deterministic picks for the tests' own choices (xorshift).
struct Pick(u64);
impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays from `seed` until `stop` holds (or the game ends), logging events.
fn play_until(seed: u64, stop: impl Fn(&Game) -> bool) -> (Game, Vec<Event>) {
    let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid config");
    let mut p = Pick(seed | 1);
    let mut events = Vec::new();
    while !stop(&g) && g.outcome().is_none() {
        let d = g.decision();
        let o = &d.options[p.next(d.options.len())];
        let seat = o.seats[p.next(o.seats.len())];
        let id = o.id.clone();
        events.extend(g.apply(seat, &id).expect("offered option accepted"));
    }
    (g, events)
}

/// A stored state: what a screen is built from.
#[derive(Serialize, Deserialize)]
struct Fixture {
    view: View,
    events: Vec<Event>,
    seats: Vec<u8>,
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn updating() -> bool {
    std::env::var_os("UPDATE_SNAPSHOTS").is_some()
}

/// The stored state `name`, or (when updating or missing) the one `make`
/// builds by play, stored for next time.
fn fixture(name: &str, make: impl FnOnce() -> (Game, Vec<Event>, Vec<u8>)) -> Screen {
    let path = dir().join(format!("{name}.json"));
    let stored = if updating() { None } else { std::fs::read_to_string(&path).ok() };
    // A stored state that no longer parses (the view's shape changed) is
    // rebuilt by play; only the picture then decides whether the test passes.
    let parsed = stored.and_then(|text| serde_json::from_str::<Fixture>(&text).ok());
    let f = match parsed {
        Some(f) => f,
        None => {
            let (g, events, seats) = make();
            let f = Fixture { view: g.view(Viewer::Spectator), events, seats };
            if updating() || !path.exists() {
                let text = serde_json::to_string(&f).expect("fixture to JSON");
                std::fs::write(&path, text).expect("write fixture");
            }
            f
        }
    };
    let mut s = Screen::new("g-test", f.view, f.seats);
    s.ai_seats = (0..4).filter(|x| !s.my_seats.contains(x)).collect();
    s.push_events(&f.events);
    s
}

fn render(screen: &Screen, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    term.draw(|f| draw(f, screen)).expect("draw");
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn check(name: &str, text: &str) {
    let path = dir().join(format!("{name}.txt"));
    // UPDATE_PICTURES=1 accepts new pictures of the stored states.
    let update = updating() || std::env::var_os("UPDATE_PICTURES").is_some();
    match std::fs::read_to_string(&path) {
        Ok(expected) if !update => {
            if expected != text {
                panic!(
                    "snapshot {name} differs from {}\n--- expected\n{expected}\n--- got\n{text}\n\
                     (UPDATE_SNAPSHOTS=1 accepts the new picture)",
                    path.display()
                );
            }
        }
        _ => {
            std::fs::write(&path, text).expect("write snapshot");
            if !update {
                panic!("new snapshot {name} written to {}: review it and rerun", path.display());
            }
        }
    }
}

#[test]
fn opening_screen_100x30() {
    let s = fixture("opening", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 1);
        (g, ev, vec![0])
    });
    check("opening_100x30", &render(&s, 100, 30));
}

#[test]
fn mid_game_120x40() {
    let s = fixture("mid_game", || {
        let (g, ev) = play_until(11, |g| g.public().seq >= 120);
        (g, ev, vec![1])
    });
    check("mid_game_120x40", &render(&s, 120, 40));
}

#[test]
fn fight_100x30() {
    let s = fixture("fight", || {
        let (g, ev) = play_until(5, |g| g.public().fight.is_some() && g.public().seq > 40);
        assert!(g.public().fight.is_some(), "seed 5 reaches a fight");
        (g, ev, vec![0, 1, 2, 3])
    });
    check("fight_100x30", &render(&s, 100, 30));
}

#[test]
fn game_over_100x30() {
    let s = fixture("game_over", || {
        let (g, ev) = play_until(3, |_| false);
        assert!(g.outcome().is_some());
        (g, ev, vec![])
    });
    check("game_over_100x30", &render(&s, 100, 30));
}

#[test]
fn small_terminal_degrades_80x24() {
    let s = fixture("compact", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 30);
        (g, ev, vec![2])
    });
    check("compact_80x24", &render(&s, 80, 24));
}

#[test]
fn tiny_terminal_says_so() {
    let s = fixture("opening", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 1);
        (g, ev, vec![0])
    });
    check("tiny_20x5", &render(&s, 20, 5));
}

#[test]
fn help_overlay_100x30() {
    let mut s = fixture("opening", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 1);
        (g, ev, vec![0])
    });
    s.show_help = true;
    check("help_100x30", &render(&s, 100, 30));
}

#[test]
fn orientation_preview_100x30() {
    let mut s = fixture("orientation", || {
        let (g, ev) = play_until(9, |g| {
            matches!(g.public().pending, xodus_engine::Pending::Orientation { .. }) && g.public().seq > 20
        });
        let seats = g.decision().deciders.clone();
        (g, ev, seats)
    });
    s.move_selection(1);
    check("orientation_100x30", &render(&s, 100, 30));
}

#[test]
fn resizing_redraws_at_the_new_size() {
    let s = fixture("opening", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 1);
        (g, ev, vec![0])
    });
    let mut term = Terminal::new(TestBackend::new(100, 30)).expect("test backend");
    term.draw(|f| draw(f, &s)).expect("draw");
    term.backend_mut().resize(140, 45);
    term.autoresize().expect("autoresize");
    term.draw(|f| draw(f, &s)).expect("draw");
    assert_eq!(term.backend().buffer().area.width, 140);
    let last: String = (0..140).map(|x| term.backend().buffer()[(x, 44)].symbol()).collect();
    assert!(last.starts_with('└'), "the bottom panels reach the new last row: {last:?}");
}

/// A captain's Action of 13 options, jumps among them.
fn my_action() -> Screen {
    fixture("my_action", || {
        let (g, ev) = play_until(21, |g| {
            let d = g.decision();
            d.kind == xodus_engine::DecisionKind::Action
                && g.public().seq > 30
                && d.options.iter().any(|o| o.id.starts_with("jump:"))
        });
        let seats = g.decision().deciders.clone();
        (g, ev, seats)
    })
}

#[test]
fn my_action_with_highlighted_target_100x30() {
    let mut s = my_action();
    let jump = s.my_options().iter().position(|(_, o)| o.id.starts_with("jump:")).expect("a jump option");
    assert!(s.select(jump));
    check("my_action_100x30", &render(&s, 100, 30));
}

#[test]
fn a_shared_decision_names_who_else_may_take_it() {
    let mut s = fixture("compact", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 30);
        (g, ev, vec![2])
    });
    assert_eq!(s.view.decision.deciders, vec![0, 1, 2, 3], "the fixture opens on who plays next");
    assert_eq!(s.shared_hint().as_deref(), Some("shared with AI captains 0, 1, 3: they wait a few seconds for you"));
    s.ai_seats = vec![0, 3];
    assert_eq!(s.shared_hint().as_deref(), Some("shared with captains 0 (AI), 1, 3 (AI): the first answer counts"));
    s.my_seats = vec![0, 1, 2, 3];
    assert_eq!(s.shared_hint(), None, "nobody else may take it");
}

/// Issue #60: at 100x30, 120x40 and 80x24, every option of an X-ODUS
/// decision can be brought into view by its key and then shows whole
/// (nothing cut mid-word), and the rules card says how the crew wins.
#[test]
fn every_option_shows_whole_by_its_key_at_every_size() {
    let mut s = my_action();
    let labels: Vec<String> = s.my_options().iter().map(|(_, o)| o.label.clone()).collect();
    assert!(labels.len() > 9, "a menu past 9 options: {labels:?}");
    for (w, h) in [(100u16, 30u16), (120, 40), (80, 24)] {
        for (i, label) in labels.iter().enumerate() {
            let key = xodus_cli::ui::menu::key(i).expect("a key");
            assert!(s.select(xodus_cli::ui::menu::index_of(key).expect("the key picks it")));
            let picture = render(&s, w, h);
            let rows = common::panel_rows(&picture, "Decision").expect("the decision panel");
            assert!(common::has_words(&rows, &format!("> {key} {label}")), "{w}x{h}: {label:?} not whole:\n{picture}");
        }
        s.show_help = true;
        let card = render(&s, w, h);
        s.show_help = false;
        assert!(card.contains("How the crew wins"), "{w}x{h}:\n{card}");
    }
}

/// Issue #62: the talk a screen heard (an AI captain's plan with its
/// signal in words, a person's line to one captain, a signal alone) beside
/// the log, and the line being typed under it; a line of 280 characters
/// and one with control characters never break the layout.
fn talking(s: &mut Screen) {
    use xodus_cli::talk::{Audience, Draft, Heard};
    s.talk.hear(vec![
        Heard {
            talk_seq: 1,
            speaker: 1,
            speaker_ai: true,
            intent: true,
            text: "Heading to Veyra Drift (1,2): to explore it.".into(),
            signal_words: "heading to (1,2) Veyra Drift".into(),
            ..Heard::default()
        },
        Heard {
            talk_seq: 2,
            speaker: 2,
            audience: Audience::Seat(0),
            text: "hold at the Rift".into(),
            ..Heard::default()
        },
        Heard { talk_seq: 3, speaker: 3, signal_words: "don't seal yet".into(), ..Heard::default() },
    ]);
    s.talk.draft = Some(Draft { text: "on my way".into(), audience: Audience::Team });
}

#[test]
fn talk_beside_the_log_100x30_and_80x24() {
    let mut s = fixture("opening", || {
        let (g, ev) = play_until(7, |g| g.public().seq >= 1);
        (g, ev, vec![0])
    });
    talking(&mut s);
    check("talk_100x30", &render(&s, 100, 30));
    check("talk_80x24", &render(&s, 80, 24));
    // A long line and one with control characters stay in their panel.
    let long = xodus_cli::talk::Heard { talk_seq: 4, speaker: 2, text: "word ".repeat(56), ..Default::default() };
    let rude = xodus_cli::talk::Heard { talk_seq: 5, speaker: 1, text: "a\nb\u{1b}[2Jc".into(), ..Default::default() };
    s.talk.hear(vec![long, rude]);
    for (w, h) in [(100u16, 30u16), (80, 24), (120, 40), (40, 12)] {
        let picture = render(&s, w, h);
        assert_eq!(picture.lines().count(), usize::from(h), "{w}x{h}");
        assert!(picture.lines().all(|l| l.chars().count() <= usize::from(w)), "{w}x{h}:\n{picture}");
        assert!(!picture.contains('\u{1b}'), "no escape reaches the terminal");
    }
    assert!(render(&s, 100, 30).contains("captain 1: a b [2Jc"), "{}", render(&s, 100, 30));
}

/// A hint on `s`'s state advising `ids`, best first.
fn hint_for(s: &Screen, ids: &[&str]) -> xodus_cli::hint::Hint {
    let options = ids
        .iter()
        .map(|id| xodus_cli::hint::Advice {
            option_id: id.to_string(),
            label: String::new(),
            estimate: 0.5,
            reason: format!("reason for {id}"),
        })
        .collect();
    xodus_cli::hint::Hint { game: "g-test".into(), seat: 0, seq: s.view.public.seq, options, think_ms: 400 }
}

/// Issue #62: a hint marks its options in the menu (rank and reason, in
/// its colour) and the systems its jumps aim at on the map (◆ and the
/// rank); a newer state takes the marks away.
#[test]
fn hint_marks_the_menu_and_the_map_100x30() {
    let mut s = my_action();
    let ids: Vec<String> = s.my_options().iter().map(|(_, o)| o.id.clone()).collect();
    let jump = ids.iter().find(|id| id.starts_with("jump:")).cloned().expect("a jump option");
    let other = ids.iter().find(|id| **id != jump).cloned().expect("another option");
    s.hint = Some(hint_for(&s, &[&jump, &other]));
    let at = ids.iter().position(|id| *id == jump).expect("its place");
    assert!(s.select(at));
    let picture = render(&s, 100, 30);
    let rows = common::panel_rows(&picture, "Decision").expect("the decision panel");
    assert!(common::has_words(&rows, &format!("◆1 {} — reason for {jump}", label_of(&s, &jump))), "{picture}");
    // The banner, the jump's line, and on the map the two systems aimed at.
    assert_eq!(picture.matches('◆').count(), 4, "{picture}");
    assert!(s.select(0));
    let top = render(&s, 100, 30);
    let rows = common::panel_rows(&top, "Decision").expect("the decision panel");
    assert!(common::has_words(&rows, &format!("◆2 {}", label_of(&s, &other))), "{top}");
    assert!(picture.contains("the AI's hint, best first"), "{picture}");
    check("hint_100x30", &picture);
    let mut later = s.view.clone();
    later.public.seq += 1;
    s.set_view(later);
    let after = render(&s, 100, 30);
    assert!(!after.contains('◆'), "void once the game moved on:\n{after}");
}

fn label_of(s: &Screen, id: &str) -> String {
    s.my_options().iter().find(|(_, o)| o.id == id).map(|(_, o)| o.label.clone()).expect("an option")
}

/// Issue #62: the card lists the hint and mute keys at 100x30 and 80x24.
#[test]
fn the_card_lists_the_hint_and_mute_keys_at_100x30_and_80x24() {
    let mut s = my_action();
    s.show_help = true;
    for (w, h) in [(100, 30), (80, 24)] {
        let card = render(&s, w, h);
        // The card's rows inside its border, wrapped lines read as words.
        let rows: Vec<String> = card.lines().map(|l| l.replace('│', " ")).collect();
        for words in ["B hint: the AI's best options", "Z then a captain's number mute/unmute it", "T talk"] {
            assert!(common::has_words(&rows, words), "{w}x{h}: {words}\n{card}");
        }
    }
}
