//! X-ODUS's signal keys and its talk panel: each key gives a
//! `xodus.v1.XodusSignal` about the system under the map's highlight (the
//! space the option under the cursor names) or, when that is no revealed
//! system, the system of this terminal's first ship. G heading to, W wait
//! for me, I then k/s/f I take the Key/Signal/fight, N need help, D don't
//! seal, A go ahead, M never mind.

use super::map::choice_hex;
use super::model::Screen;
use crate::table::Packed;
use crate::talk::SignalStep;
use crate::ui::frame::{inner_cols, inner_rows, panel};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tabletop::xodus_pb::{XodusSignal, XodusSignalKind as K, XodusTarget};
use xodus_engine::Hex;
use xodus_engine::content::Content;

/// The signal keys in words, for the rules card.
pub const KEYS_HELP: [&str; 2] = [
    "  signals on the highlighted system (else your ship's): G heading to, W wait for me, N need help,",
    "     I then k/s/f I take its Key/Signal/fight; D don't seal yet, A go ahead, M never mind",
];

/// The system a signal is about: the highlighted space when it is a
/// revealed system, else this terminal's first ship's.
fn system(screen: &Screen) -> Option<Hex> {
    let revealed = |h: &Hex| screen.view.public.tiles.iter().any(|t| t.hex == *h);
    let highlighted = screen.selected_option().and_then(|(_, o)| choice_hex(&o.choice)).filter(revealed);
    let own = || {
        let seat = screen.my_seats.first()?;
        screen.view.public.ships.iter().find(|s| s.seat == *seat).map(|s| s.hex).filter(revealed)
    };
    highlighted.or_else(own)
}

/// "(1,2) Veyra Drift".
fn place(screen: &Screen, hex: Hex) -> String {
    let tile = screen.view.public.tiles.iter().find(|t| t.hex == hex);
    match tile.and_then(|t| Content::get().tiles.get(usize::from(t.tile))) {
        Some(def) => format!("({},{}) {}", hex.q, hex.r, def.name),
        None => format!("({},{})", hex.q, hex.r),
    }
}

fn packed(signal: &XodusSignal) -> Packed {
    let any = tabletop::any::pack(signal);
    Packed { type_url: any.type_url, value: any.value }
}

/// The signal for `keys` (a key, or "I" and the one after it), or None
/// when they start no signal.
pub fn signal_key(screen: &Screen, keys: &str) -> Option<SignalStep> {
    let mut chars = keys.chars();
    let first = chars.next()?;
    let (kind, target, words) = match (first, chars.next()) {
        ('G', None) => (K::HeadingTo, XodusTarget::Unspecified, "heading to"),
        ('W', None) => (K::WaitForMe, XodusTarget::Unspecified, "wait for me at"),
        ('N', None) => (K::NeedHelp, XodusTarget::Unspecified, "need help at"),
        ('D', None) => (K::DontSeal, XodusTarget::Unspecified, "don't seal yet"),
        ('A', None) => (K::GoAhead, XodusTarget::Unspecified, "go ahead"),
        ('M', None) => (K::Withdraw, XodusTarget::Unspecified, "never mind"),
        ('I', None) => {
            return Some(SignalStep::More("I take... k: the Key, s: the Signal, f: the fight (other: none)".into()));
        }
        ('I', Some('k' | 'K')) => (K::ITake, XodusTarget::Key, "I take the Key at"),
        ('I', Some('s' | 'S')) => (K::ITake, XodusTarget::Signal, "I take the Signal at"),
        ('I', Some('f' | 'F')) => (K::ITake, XodusTarget::Fight, "I take the fight at"),
        _ => return None,
    };
    let needs_system = matches!(kind, K::HeadingTo | K::WaitForMe | K::ITake | K::NeedHelp);
    if !needs_system {
        let signal = XodusSignal { kind: kind as i32, system: None, target: 0 };
        return Some(SignalStep::Send(packed(&signal), words.to_string()));
    }
    let Some(hex) = system(screen) else {
        return Some(SignalStep::Refuse(format!(
            "{words}: no revealed system highlighted and no ship of yours on one; highlight a move to a revealed system"
        )));
    };
    let signal = XodusSignal { kind: kind as i32, system: Some(xodus_wire::enums::hex(hex)), target: target as i32 };
    Some(SignalStep::Send(packed(&signal), format!("{words} {}", place(screen, hex))))
}

/// The `--signal` kinds of `xodus say`, in words.
pub const SPEC_KINDS: &str = "heading-to:Q,R wait-for-me:Q,R need-help:Q,R i-take-key:Q,R i-take-signal:Q,R i-take-fight:Q,R dont-seal go-ahead never-mind";

/// An X-ODUS signal from `xodus say --signal KIND[:Q,R]`: None when KIND
/// is not one of X-ODUS's, an error when its system is missing or bad.
pub fn parse_spec(spec: &str) -> Option<Result<Packed, String>> {
    let (kind, arg) = spec.split_once(':').map_or((spec, None), |(k, a)| (k, Some(a)));
    let kind = kind.trim().to_ascii_lowercase().replace('_', "-");
    let (kind, target) = match kind.as_str() {
        "heading-to" => (K::HeadingTo, XodusTarget::Unspecified),
        "wait-for-me" => (K::WaitForMe, XodusTarget::Unspecified),
        "need-help" => (K::NeedHelp, XodusTarget::Unspecified),
        "i-take-key" => (K::ITake, XodusTarget::Key),
        "i-take-signal" => (K::ITake, XodusTarget::Signal),
        "i-take-fight" => (K::ITake, XodusTarget::Fight),
        "dont-seal" => (K::DontSeal, XodusTarget::Unspecified),
        "go-ahead" => (K::GoAhead, XodusTarget::Unspecified),
        "never-mind" | "withdraw" => (K::Withdraw, XodusTarget::Unspecified),
        _ => return None,
    };
    let needs_system = matches!(kind, K::HeadingTo | K::WaitForMe | K::ITake | K::NeedHelp);
    let system = match (needs_system, arg) {
        (false, None) => None,
        (false, Some(_)) => return Some(Err(format!("--signal {spec}: this signal names no system"))),
        (true, None) => return Some(Err(format!("--signal {spec}: name the system, e.g. {spec}:1,-2 (q,r)"))),
        (true, Some(a)) => {
            let parsed = a.split_once(',').and_then(|(q, r)| Some((q.trim().parse().ok()?, r.trim().parse().ok()?)));
            match parsed {
                Some((q, r)) => Some(xodus_wire::enums::hex(Hex { q, r })),
                None => return Some(Err(format!("--signal {spec}: the system is q,r, e.g. 1,-2"))),
            }
        }
    };
    Some(Ok(packed(&XodusSignal { kind: kind as i32, system, target: target as i32 })))
}

/// The talk panel in `area`.
pub fn draw_panel(screen: &Screen, area: Rect, buf: &mut Buffer) {
    let name = |s: u8| format!("captain {s}");
    let lines = crate::ui::talk::lines(&screen.talk, &name, &screen.my_seats, inner_rows(area), inner_cols(area));
    panel(crate::ui::talk::title(&screen.talk, area.width), lines, area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

    fn screen(seats: Vec<u8>) -> Screen {
        let game = Game::new(GameConfig::random(7, 3, Difficulty::Casual)).expect("valid config");
        Screen::new("g-test", game.view(Viewer::Spectator), seats)
    }

    fn sent(step: Option<SignalStep>) -> (XodusSignal, String) {
        match step {
            Some(SignalStep::Send(p, words)) => (p.unpack::<XodusSignal>().expect("an X-ODUS signal"), words),
            other => panic!("not a signal to send: {other:?}"),
        }
    }

    #[test]
    fn signal_keys_point_at_the_ships_system_and_i_asks_what_is_taken() {
        let s = screen(vec![0]);
        let ship = s.view.public.ships[0].hex;
        let (heading, words) = sent(signal_key(&s, "G"));
        assert_eq!(heading.kind, K::HeadingTo as i32);
        assert_eq!(heading.system, Some(xodus_wire::enums::hex(ship)));
        assert!(words.starts_with(&format!("heading to ({},{}) ", ship.q, ship.r)), "{words}");
        assert!(matches!(signal_key(&s, "I"), Some(SignalStep::More(_))));
        let (take, _) = sent(signal_key(&s, "If"));
        assert_eq!((take.kind, take.target), (K::ITake as i32, XodusTarget::Fight as i32));
        assert_eq!(signal_key(&s, "Iz"), None, "no such target: no signal");
        let (seal, _) = sent(signal_key(&s, "D"));
        assert_eq!((seal.kind, seal.system), (K::DontSeal as i32, None));
        assert_eq!(signal_key(&s, "x"), None, "not a signal key");
        for key in ["H", "J", "K", "L", "T"] {
            assert_eq!(signal_key(&s, key), None, "{key} is another key's");
        }
    }

    #[test]
    fn say_signal_specs_read_into_signals() {
        let p = parse_spec("wait_for_me:1,-2").expect("X-ODUS's").expect("valid");
        let w = p.unpack::<XodusSignal>().expect("a signal");
        assert_eq!(w.kind, K::WaitForMe as i32);
        assert_eq!(w.system.map(|h| (h.q, h.r)), Some((1, -2)));
        let t = parse_spec("i-take-key:0,0").and_then(Result::ok).and_then(|p| p.unpack::<XodusSignal>());
        assert_eq!(t.map(|t| t.target), Some(XodusTarget::Key as i32));
        assert!(matches!(parse_spec("go-ahead"), Some(Ok(_))));
        assert!(matches!(parse_spec("heading-to"), Some(Err(_))), "a system is needed");
        assert!(matches!(parse_spec("need-help:x"), Some(Err(_))));
        assert!(matches!(parse_spec("dont-seal:1,1"), Some(Err(_))));
        assert!(parse_spec("no-deal").is_none(), "another game's");
    }

    #[test]
    fn a_spectator_has_no_ship_to_point_at() {
        let s = screen(Vec::new());
        assert!(matches!(signal_key(&s, "W"), Some(SignalStep::Refuse(_))));
        assert!(matches!(signal_key(&s, "A"), Some(SignalStep::Send(..))), "go ahead needs no system");
    }
}
