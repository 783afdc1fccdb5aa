//! The VII Legio screen drawn from real engine views of seeded random
//! games (seat 0's view, as the server would send it) into ratatui's
//! `TestBackend`: the viewer's hand shows by name, no other commander's
//! hand ever does, the decision's options are on the menu, the final
//! result is shown, and every size from tiny to large draws without a
//! panic. One mid-game picture is also kept as a snapshot (its state
//! stored beside it, like `snapshots.rs`; `UPDATE_SNAPSHOTS=1` rewrites
//! both after a deliberate change).

mod common;

use legio_engine::{Game, GameConfig, Seat, Viewer};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;
use xodus_cli::games::legio::read as legio_read;
use xodus_cli::games::legio::ui::{LegioScreen, draw, names};

/// Deterministic picks (xorshift).
struct Pick(u64);
impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A game of `players` from `seed`, played by random legal picks until
/// `stop` holds (or the game ends).
fn play_until(players: u8, seed: u64, stop: impl Fn(&Game) -> bool) -> Game {
    let mut g = Game::new(GameConfig::new(players, seed)).expect("valid config");
    let mut p = Pick(seed | 1);
    let mut steps = 0;
    while !stop(&g) && g.outcome().is_none() && steps < 20_000 {
        let d = g.decision();
        let seat = d.seat.expect("a decider before the end");
        let id = d.options[p.next(d.options.len())].id.clone();
        g.apply(seat, &id).expect("offered option accepted");
        steps += 1;
    }
    g
}

/// Seat 0's screen of `g`.
fn screen(g: &Game, seat: Seat) -> LegioScreen {
    let table = legio_read::table(g.view(Viewer::Seat(seat)), g.public().seq);
    let mut s = LegioScreen::new("g-test", table, Some(seat));
    s.ai_seats = (0..g.players() as Seat).filter(|x| *x != seat).collect();
    s.note("Following game g-test");
    s
}

fn render(screen: &LegioScreen, w: u16, h: u16) -> String {
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

/// Seeds and table sizes the property tests go through.
fn games() -> Vec<(u8, u64)> {
    (0..12u64).map(|i| (2 + (i % 3) as u8, 100 + i)).collect()
}

#[test]
fn your_hand_shows_by_name_at_both_sizes() {
    let mut checked = 0;
    for (players, seed) in games() {
        // Seat 0 holds cards on its own turn, after its draw.
        let g = play_until(players, seed, |g| g.public().active == 0 && g.public().round > 1 && !g.hand(0).is_empty());
        if g.hand(0).is_empty() {
            continue;
        }
        let s = screen(&g, 0);
        for (w, h) in [(80, 24), (120, 40)] {
            let text = render(&s, w, h);
            for card in g.hand(0) {
                assert!(text.contains(names::card(*card)), "{w}x{h}: card {} missing:\n{text}", names::card(*card));
            }
        }
        checked += 1;
    }
    assert!(checked >= 6, "too few states with a hand: {checked}");
}

#[test]
fn another_commanders_hand_never_shows() {
    let mut checked = 0;
    for (players, seed) in games() {
        // Another commander's turn, with cards in hand.
        let g = play_until(players, seed, |g| {
            let a = g.public().active;
            a != 0 && g.public().round > 1 && !g.hand(a).is_empty()
        });
        let active = g.public().active;
        if active == 0 || g.hand(active).is_empty() {
            continue;
        }
        let s = screen(&g, 0);
        let mine: Vec<&str> = g.hand(0).iter().map(|c| names::card(*c)).collect();
        for (w, h) in [(80, 24), (120, 40), (200, 60)] {
            let text = render(&s, w, h);
            for card in g.hand(active) {
                let name = names::card(*card);
                if mine.contains(&name) {
                    continue;
                }
                assert!(!text.contains(name), "{w}x{h}: commander {active}'s card {name} shows:\n{text}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 6, "too few states with another hand: {checked}");
}

#[test]
fn the_decisions_options_are_on_the_menu() {
    let mut checked = 0;
    for (players, seed) in games() {
        let g = play_until(players, seed, |g| g.public().round > 2 && g.decision().seat == Some(0));
        let d = g.decision();
        if d.seat != Some(0) {
            continue;
        }
        let s = screen(&g, 0);
        for (w, h) in [(80, 24), (120, 40)] {
            let text = render(&s, w, h);
            let first: String = d.options[0].label.chars().take(30).collect();
            assert!(text.contains(&first), "{w}x{h}: first option {first:?} missing:\n{text}");
        }
        // The large screen lists every option when they fit its menu.
        let text = render(&s, 200, 60);
        if d.options.len() <= 12 {
            for o in &d.options {
                let label: String = o.label.chars().take(20).collect();
                assert!(text.contains(&label), "option {label:?} missing:\n{text}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 6, "too few states with seat 0 deciding: {checked}");
}

#[test]
fn a_finished_game_shows_its_result() {
    let mut checked = 0;
    for (players, seed) in games().into_iter().take(4) {
        let g = play_until(players, seed, |_| false);
        let Some(o) = g.outcome() else { continue };
        let text = render(&screen(&g, 0), 120, 40);
        assert!(text.contains("GAME OVER"), "{text}");
        if o.truncated {
            assert!(text.contains("truncated"), "{text}");
        } else {
            assert!(text.contains("1. Commander"), "a ranking: {text}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no game ended");
}

#[test]
fn every_size_draws_without_a_panic() {
    let g = play_until(4, 7, |g| g.public().round > 3);
    for seat in 0..4 {
        let s = screen(&g, seat);
        for (w, h) in [(1, 1), (20, 5), (30, 8), (60, 20), (80, 24), (99, 29), (100, 30), (120, 40), (250, 80)] {
            render(&s, w, h);
        }
    }
    // A spectator, and a game the client has no board for.
    let spectator = legio_read::table(g.view(Viewer::Spectator), 9);
    render(&LegioScreen::new("g-test", spectator, None), 120, 40);
    let mut unknown = legio_read::table(g.view(Viewer::Seat(0)), 9);
    unknown.game_type = "high_card".into();
    unknown.typed = xodus_cli::table::Typed::Unread(None);
    let text = render(&LegioScreen::new("g-test", unknown, Some(0)), 80, 24);
    assert!(text.contains("no board for high_card games"), "{text}");
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

#[test]
fn mid_game_snapshot() {
    let updating = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let state = dir().join("legio_mid_game.json");
    // The state is stored, so that a rules change does not move the picture;
    // a stored state that no longer reads is rebuilt by play.
    let stored = if updating { None } else { std::fs::read_to_string(&state).ok() };
    let view = match stored.and_then(|t| serde_json::from_str::<legio_engine::View>(&t).ok()) {
        Some(v) => v,
        None => {
            let g =
                play_until(3, 42, |g| g.public().round > 4 && g.decision().seat == Some(0) && !g.hand(0).is_empty());
            let v = g.view(Viewer::Seat(0));
            std::fs::write(&state, serde_json::to_string(&v).expect("view to JSON")).expect("write state");
            v
        }
    };
    let seq = view.public.seq;
    let mut s = LegioScreen::new("g-test", legio_read::table(view, seq), Some(0));
    s.ai_seats = vec![1, 2];
    s.note("Following game g-test");
    for (w, h) in [(120, 40), (80, 24)] {
        let text = render(&s, w, h);
        let path = dir().join(format!("legio_mid_game_{w}x{h}.txt"));
        match std::fs::read_to_string(&path) {
            Ok(expected) if !updating => assert_eq!(expected, text, "snapshot {} differs", path.display()),
            _ => {
                std::fs::write(&path, &text).expect("write snapshot");
                assert!(updating, "new snapshot written to {}: review it and rerun", path.display());
            }
        }
    }
}

#[test]
fn a_servers_state_reads_back_into_the_seats_own_view() {
    for (players, seed) in games().into_iter().take(4) {
        let g = play_until(players, seed, |g| g.public().round > 2 && g.public().active == 1);
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let wire = legio_wire::game_state(&g, viewer);
            let t = xodus_cli::games::read(&wire);
            assert_eq!(t.game_type, "legio");
            assert_eq!(xodus_cli::games::legio::view(&t), Some(&g.view(viewer)), "{viewer:?} reads back its own view");
            // The options go to the decider alone.
            let decider = g.decision().seat.map(u32::from);
            let shown = t.decision.options.len();
            if viewer == Viewer::Seat(1) && decider == Some(1) {
                assert_eq!(shown, g.decision().options.len());
            } else if decider != t.viewer_seat {
                assert_eq!(shown, 0, "{viewer:?} sees no one else's options");
            }
        }
    }
}

/// Issue #60: at 120x40 and 80x24, every option of a long decision can be
/// brought into view by its key (1-9, then letters) and then shows whole,
/// price included (nothing cut mid-word), and the win rule is on screen (the
/// status bar at 120x40, the rules card behind `?` at 80x24).
#[test]
fn every_option_of_a_long_menu_shows_whole_with_its_price_at_both_sizes() {
    let mut checked = 0;
    for (players, seed) in games() {
        let g = play_until(players, seed, |g| g.decision().seat == Some(0) && g.decision().options.len() >= 12);
        let d = g.decision();
        if d.seat != Some(0) || d.options.len() < 12 {
            continue;
        }
        let mut s = screen(&g, 0);
        for (w, h) in [(120u16, 40u16), (80, 24)] {
            for (i, o) in d.options.iter().enumerate() {
                let key = xodus_cli::ui::menu::key(i).expect("every option of these menus has a key");
                s.selected = xodus_cli::ui::menu::index_of(key).expect("the key picks it");
                let picture = render(&s, w, h);
                let rows = common::panel_rows(&picture, "Decision").expect("the decision panel");
                let shown = format!("> {key} {}", o.label);
                assert!(common::has_words(&rows, &shown), "{w}x{h}: option {i} {shown:?} not whole:\n{picture}");
                if !o.price.is_free() {
                    let says = ["card", "PC", "PX"].iter().any(|w| o.label.contains(w));
                    assert!(says, "option {} says its price: {}", o.id, o.label);
                }
            }
            s.selected = 0;
            let picture = render(&s, w, h);
            if w == 120 {
                assert!(picture.contains("most PC among commanders with 10+ PX wins"), "{picture}");
            } else {
                assert!(picture.contains("? rules"), "{picture}");
                s.show_help = true;
                let card = render(&s, w, h);
                s.show_help = false;
                assert!(card.contains("the most PC wins"), "{card}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "too few long menus: {checked}");
}

/// Issue #60: a landing shows each participant's squads and domain
/// against what the planet's card asks ("Land?").
#[test]
fn a_landing_shows_each_participants_domain_against_the_requirement() {
    let mut checked = 0;
    for (players, seed) in games().into_iter().chain((200..230).map(|i| (3, i))) {
        let g = play_until(players, seed, |g| {
            g.decision().seat == Some(0) && g.public().landing.is_some() && g.public().active == 0
        });
        if g.decision().seat != Some(0) || g.public().landing.is_none() {
            continue;
        }
        let picture = render(&screen(&g, 0), 120, 40);
        let rows = common::panel_rows(&picture, "Decision").expect("the decision panel");
        assert!(rows.iter().any(|r| r.contains("Landing on") && r.contains("asks")), "{picture}");
        assert!(rows.iter().any(|r| r.contains("Commander 1:") && r.contains(" sq, ")), "{picture}");
        assert!(rows.iter().any(|r| r.contains("together:")), "{picture}");
        checked += 1;
        if checked >= 2 {
            break;
        }
    }
    assert!(checked >= 1, "no landing met");
}

/// Issue #62: the talk shows on the table at 120x40 and 80x24, on the
/// log's page and on the table screen of a game without a board:
/// commanders named as the server names them, an AI's line marked, a
/// signal in words, a whisper to this seat; a line of 280 characters stays
/// in its panel at every size.
#[test]
fn the_talk_shows_at_every_size_and_stays_in_its_panel() {
    use xodus_cli::talk::{Audience, Draft, Heard};
    let g = play_until(3, 11, |g| g.public().round > 2);
    let mut s = screen(&g, 0);
    s.talk.hear(vec![
        Heard {
            talk_seq: 1,
            speaker: 1,
            speaker_ai: true,
            signal_words: "invite me to your landing".into(),
            ..Heard::default()
        },
        Heard { talk_seq: 2, speaker: 2, audience: Audience::Seat(0), text: "S3 together?".into(), ..Heard::default() },
    ]);
    for (w, h) in [(120u16, 40u16), (80, 24)] {
        let text = render(&s, w, h);
        assert!(text.contains("Commander 2 (AI): [invite me"), "{w}x{h}:\n{text}");
        assert!(text.contains("Commander 3 to you: S3 together?"), "{w}x{h}:\n{text}");
    }
    s.page = 3;
    assert!(render(&s, 80, 24).contains("Commander 3 to you"), "the log's page");
    s.page = 0;
    s.talk.hear(vec![Heard { talk_seq: 3, speaker: 2, text: "x".repeat(280), ..Heard::default() }]);
    s.talk.draft = Some(Draft { text: "y".repeat(280), audience: Audience::Table });
    for (w, h) in [(30u16, 8u16), (60, 20), (80, 24), (100, 30), (120, 40)] {
        let text = render(&s, w, h);
        assert_eq!(text.lines().count(), usize::from(h), "{w}x{h}");
        assert!(text.lines().all(|l| l.chars().count() <= usize::from(w)), "{w}x{h}:\n{text}");
    }
    assert!(render(&s, 120, 40).contains("yyyy_"), "the end of the line typed shows");
    let mut unknown = legio_read::table(g.view(Viewer::Seat(0)), 9);
    unknown.game_type = "high_card".into();
    unknown.typed = xodus_cli::table::Typed::Unread(None);
    let mut bare = LegioScreen::new("g-test", unknown, Some(0));
    bare.talk.hear(vec![Heard { talk_seq: 1, speaker: 1, text: "gg".into(), ..Heard::default() }]);
    assert!(render(&bare, 120, 40).contains("seat 1: gg"), "{}", render(&bare, 120, 40));
}

/// Issue #62: a hint marks its options in the menu with rank and reason
/// at both sizes, goes away once the state moves past its seq, and the
/// card lists the hint and mute keys at 100x30 and 80x24.
#[test]
fn a_hint_marks_the_menu_and_the_card_lists_its_key() {
    let g = play_until(3, 104, |g| g.decision().seat == Some(0) && g.decision().options.len() >= 3);
    let mut s = screen(&g, 0);
    let ids: Vec<String> = s.my_options().iter().map(|o| o.id.clone()).collect();
    assert!(ids.len() >= 2, "a choice to advise on: {ids:?}");
    let advice = |id: &String, why: &str| xodus_cli::hint::Advice {
        option_id: id.clone(),
        label: String::new(),
        estimate: 0.4,
        reason: why.into(),
    };
    let options = vec![advice(&ids[1], "keeps the hand"), advice(&ids[0], "")];
    s.hint = Some(xodus_cli::hint::Hint { game: "g-test".into(), seat: 0, seq: s.table.seq, options, think_ms: 300 });
    let second = s.my_options()[1].label.clone();
    for (w, h) in [(100u16, 30u16), (80, 24)] {
        let picture = render(&s, w, h);
        let rows = common::panel_rows(&picture, "Decision").unwrap_or_default();
        assert!(common::has_words(&rows, &format!("◆1 {second} — keeps the hand")), "{w}x{h}:\n{picture}");
        s.show_help = true;
        let card = render(&s, w, h);
        s.show_help = false;
        let rows: Vec<String> = card.lines().map(|l| l.replace('│', " ")).collect();
        for words in ["B hint: the AI's best options, marked ◆", "Z then a commander's number mute/unmute them"] {
            assert!(common::has_words(&rows, words), "{w}x{h}: {words}\n{card}");
        }
        assert!(card.contains("the most PC wins") || w == 80, "{w}x{h}:\n{card}");
    }
    let mut later = s.table.clone();
    later.seq += 1;
    s.set_table(later);
    assert!(!render(&s, 100, 30).contains('◆'), "void once the game moved on");
}
