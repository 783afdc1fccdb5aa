//! VII Legio's signal keys and its talk panel: each key gives a
//! `legio.v1.LegioSignal` (never a card: hands stay secret). V invite me,
//! I I will invite, N no deal, P then 1-5 land with me in sector S1-S5.
//! The table screen of a game this client does not know has the talk
//! line but no signals.

use super::model::LegioScreen;
use super::names;
use crate::table::Packed;
use crate::talk::SignalStep;
use crate::ui::frame::{inner_cols, inner_rows, panel};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use tabletop::legio_pb::{LegioSignal, LegioSignalKind as K};

/// The talk keys in words, for the rules card.
pub const KEYS_HELP: [&str; 2] = [
    "  T  talk: type a line, Tab picks one commander, Enter says it, Esc drops it",
    "  signals: V invite me, I I will invite, N no deal, P then 1-5 land with me in S1-S5",
];

fn packed(signal: &LegioSignal) -> Packed {
    let any = tabletop::any::pack(signal);
    Packed { type_url: any.type_url, value: any.value }
}

/// The signal for `keys` (a key, or "P" and a sector's digit), or None
/// when they start no signal (or the game is not VII Legio).
pub fn signal_key(screen: &LegioScreen, keys: &str) -> Option<SignalStep> {
    screen.view()?;
    let mut chars = keys.chars();
    let first = chars.next()?;
    let (kind, sector, words) = match (first, chars.next()) {
        ('V', None) => (K::InviteMe, None, "invite me to your landing".to_string()),
        ('I', None) => (K::IWillInvite, None, "I will invite you to my landing".to_string()),
        ('N', None) => (K::NoDeal, None, "no deal".to_string()),
        ('P', None) => return Some(SignalStep::More("Land with me in which sector? 1-5 (S1-S5; other: none)".into())),
        ('P', Some(d @ '1'..='5')) => {
            let sector = d.to_digit(10).map_or(0, |n| n - 1);
            (K::ProposeLanding, Some(sector), format!("land with me in {}", names::sector(sector as u8)))
        }
        _ => return None,
    };
    Some(SignalStep::Send(packed(&LegioSignal { kind: kind as i32, sector }), words))
}

/// The `--signal` kinds of `xodus say`, in words.
pub const SPEC_KINDS: &str =
    "invite-me[:SECTOR] i-will-invite[:SECTOR] no-deal land-with-me:SECTOR declined (SECTOR 0-4, or S1-S5)";

/// A VII Legio signal from `xodus say --signal KIND[:SECTOR]`: None when
/// KIND is not one of VII Legio's, an error when its sector is missing or
/// bad. A sector is 0-4 (as on the wire) or S1-S5.
pub fn parse_spec(spec: &str) -> Option<Result<Packed, String>> {
    let (kind, arg) = spec.split_once(':').map_or((spec, None), |(k, a)| (k, Some(a)));
    let kind = kind.trim().to_ascii_lowercase().replace('_', "-");
    let (kind, may_sector) = match kind.as_str() {
        "invite-me" => (K::InviteMe, true),
        "i-will-invite" => (K::IWillInvite, true),
        "no-deal" => (K::NoDeal, false),
        "land-with-me" | "propose-landing" => (K::ProposeLanding, true),
        "declined" => (K::Declined, false),
        _ => return None,
    };
    let sector = match arg.map(str::trim) {
        None if kind == K::ProposeLanding => {
            return Some(Err(format!("--signal {spec}: name the sector, e.g. {spec}:S2 (or 1)")));
        }
        None => None,
        Some(_) if !may_sector => return Some(Err(format!("--signal {spec}: this signal names no sector"))),
        Some(a) => {
            let n = match a.strip_prefix(['S', 's']) {
                Some(rest) => rest.parse::<u32>().ok().and_then(|n| n.checked_sub(1)),
                None => a.parse::<u32>().ok(),
            };
            match n.filter(|n| *n < 5) {
                Some(n) => Some(n),
                None => return Some(Err(format!("--signal {spec}: a sector is 0-4, or S1-S5"))),
            }
        }
    };
    Some(Ok(packed(&LegioSignal { kind: kind as i32, sector })))
}

/// The talk panel in `area`.
pub fn draw_panel(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    panel(
        crate::ui::talk::title(&screen.talk, area.width),
        panel_lines(screen, inner_rows(area), inner_cols(area)),
        area,
        buf,
    );
}

/// The talk's lines in `rows` rows of `cols` columns, commanders named as
/// the game names them.
pub fn panel_lines(screen: &LegioScreen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    let name = |s: u8| crate::games::seat_name(&screen.table.game_type, u32::from(s));
    let mine: Vec<u8> = screen.my_seat.into_iter().collect();
    crate::ui::talk::lines(&screen.talk, &name, &mine, rows, cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn say_signal_specs_read_into_signals() {
        let land = |spec| parse_spec(spec).and_then(Result::ok).and_then(|p| p.unpack::<LegioSignal>());
        assert_eq!(land("land-with-me:S2").map(|s| (s.kind, s.sector)), Some((K::ProposeLanding as i32, Some(1))));
        assert_eq!(land("propose_landing:4").map(|s| s.sector), Some(Some(4)));
        assert_eq!(land("invite-me").map(|s| (s.kind, s.sector)), Some((K::InviteMe as i32, None)));
        assert!(matches!(parse_spec("land-with-me"), Some(Err(_))));
        assert!(matches!(parse_spec("land-with-me:5"), Some(Err(_))));
        assert!(matches!(parse_spec("no-deal:1"), Some(Err(_))));
        assert!(parse_spec("go-ahead").is_none(), "another game's");
    }

    #[test]
    fn signal_keys_give_legio_signals_and_p_asks_for_the_sector() {
        let g = legio_engine::Game::new(legio_engine::GameConfig::new(3, 5)).expect("a game");
        let table = crate::games::legio::read::table(g.view(legio_engine::Viewer::Seat(0)), 0);
        let s = LegioScreen::new("g-test", table, Some(0));
        assert!(matches!(signal_key(&s, "P"), Some(SignalStep::More(_))));
        let Some(SignalStep::Send(p, words)) = signal_key(&s, "P3") else { panic!("a landing in S3") };
        let signal = p.unpack::<LegioSignal>().expect("a VII Legio signal");
        assert_eq!((signal.kind, signal.sector), (K::ProposeLanding as i32, Some(2)));
        assert_eq!(words, "land with me in S3");
        assert_eq!(signal_key(&s, "P9"), None);
        let Some(SignalStep::Send(p, _)) = signal_key(&s, "V") else { panic!("invite me") };
        assert_eq!(p.unpack::<LegioSignal>().map(|s| s.kind), Some(K::InviteMe as i32));
        assert_eq!(signal_key(&s, "x"), None);
        let unknown =
            crate::games::read(&tabletop::pb::GameState { game_type: "high_card".into(), ..Default::default() });
        assert_eq!(signal_key(&LegioScreen::new("g-1", unknown, Some(0)), "V"), None, "no signals for another game");
    }
}
