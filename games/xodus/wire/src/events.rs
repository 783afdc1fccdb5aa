//! The engine's events on the wire: every event with its kind, summary,
//! JSON and typed form (`xodus.v1.XodusEvent`).

use crate::enums::*;
use std::collections::HashMap;
use std::sync::OnceLock;
use tabletop::{any, pb, xodus_pb as x};
use xodus_engine::content::Content;
use xodus_engine::content::ExplorationType;
use xodus_engine::{EngageCause, Event, Hex, Public, RollPurpose};

fn purpose(p: RollPurpose) -> x::RollPurpose {
    match p {
        RollPurpose::Detection => x::RollPurpose::Detection,
        RollPurpose::Attack => x::RollPurpose::Attack,
        RollPurpose::Damage => x::RollPurpose::Damage,
        RollPurpose::Skill => x::RollPurpose::Skill,
        RollPurpose::AvatarMove => x::RollPurpose::AvatarMove,
    }
}

fn engage_cause(c: EngageCause) -> x::EngageCause {
    match c {
        EngageCause::Unstated => x::EngageCause::Unspecified,
        EngageCause::Avatar => x::EngageCause::Avatar,
        EngageCause::Detected => x::EngageCause::Detected,
        EngageCause::Surveillance => x::EngageCause::Surveillance,
        EngageCause::Voluntary => x::EngageCause::Voluntary,
        EngageCause::Pacify => x::EngageCause::Pacify,
        EngageCause::Guardian => x::EngageCause::Guardian,
        EngageCause::Fight => x::EngageCause::Fight,
    }
}

fn exploration_kind(k: ExplorationType) -> x::ExplorationKind {
    match k {
        ExplorationType::Analysis => x::ExplorationKind::Analysis,
        ExplorationType::Warning => x::ExplorationKind::Warning,
        ExplorationType::Danger => x::ExplorationKind::Danger,
    }
}

/// The catalog index of the entry with text id `id` among `ids`.
fn index<'a>(mut ids: impl Iterator<Item = &'a str>, id: &str) -> u32 {
    ids.position(|i| i == id).map_or(u32::MAX, |i| i as u32)
}

/// The typed form of an event. Every event has one: the match names every
/// engine event, so a new kind does not compile until it is typed here.
pub fn typed(e: &Event) -> x::XodusEvent {
    use x::xodus_event::Event as T;
    let c = Content::get();
    let tile = |id: &str| index(c.tiles.iter().map(|t| t.id.as_str()), id);
    let enemy = |id: &str| index(c.enemies.iter().map(|t| t.id.as_str()), id);
    let avatar = |id: &str| index(c.avatars.iter().map(|t| t.id.as_str()), id);
    let signal = |id: &str| index(c.signals.iter().map(|t| t.id.as_str()), id);
    let damaged = |id: &str| index(c.damaged.iter().map(|t| t.id.as_str()), id);
    let exploration = |id: &str| index(c.explorations.iter().map(|t| t.id.as_str()), id);
    let module = |id: &str| index(c.modules.iter().map(|t| t.id.as_str()), id);
    let mod_effect = |id: &str| index(c.mod_effects.iter().map(|t| t.id.as_str()), id);
    let ally_kind = |id: &str| c.allies.iter().find(|a| a.kind.as_str() == id).map(|a| ally(a.kind));
    // A power is a module or a mod effect; no id is both (the catalog test
    // `module_and_mod_effect_ids_differ` checks).
    let power = |id: &str| match module(id) {
        u32::MAX => x::power_source::Source::ModEffect(mod_effect(id)),
        m => x::power_source::Source::Module(m),
    };
    let seat = |s: &u8| u32::from(*s);
    let t = match e {
        Event::PhaseStarted { phase: p, round } => {
            T::PhaseStarted(x::PhaseStarted { phase: phase(*p) as i32, round: *round })
        }
        Event::TurnStarted { seat } => T::TurnStarted(x::TurnStarted { seat: u32::from(*seat) }),
        Event::TurnEnded { seat } => T::TurnEnded(x::TurnEnded { seat: u32::from(*seat) }),
        Event::TileRevealed { hex: h, tile: tile_id, rotation } => T::TileRevealed(x::TileRevealed {
            hex: Some(hex(*h)),
            tile_id: tile_id.clone(),
            rotation: u32::from(*rotation),
            tile: tile(tile_id),
        }),
        Event::ShipMoved { seat, from, to } => {
            T::ShipMoved(x::ShipMoved { seat: u32::from(*seat), from: Some(hex(*from)), to: Some(hex(*to)) })
        }
        Event::DiceRolled { seat, purpose: p, dice } => T::DiceRolled(x::DiceRolled {
            seat: seat.map(u32::from),
            purpose: purpose(*p) as i32,
            dice: dice.iter().map(|&(c, f)| x::Die { color: color(c) as i32, face: face(f) as i32 }).collect(),
        }),
        Event::Engaged { seats, hex: h, cause } => {
            T::Engaged(x::Engaged { seats: wide(seats), hex: Some(hex(*h)), cause: engage_cause(*cause) as i32 })
        }
        Event::Regenerated { target, amount, health_left } => {
            // Enemy and Avatar ids differ (`enemy_and_avatar_ids_differ`).
            let (as_enemy, as_avatar) = (enemy(target), avatar(target));
            T::Regenerated(x::Regenerated {
                target: target.clone(),
                amount: u32::from(*amount),
                health_left: u32::from(*health_left),
                enemy: (as_enemy != u32::MAX).then_some(as_enemy),
                avatar: (as_avatar != u32::MAX).then_some(as_avatar),
            })
        }
        Event::PacifyMarkersTurned { lifted, turned } => T::PacifyMarkersTurned(x::PacifyMarkersTurned {
            lifted: lifted.iter().map(|h| hex(*h)).collect(),
            turned: turned.iter().map(|h| hex(*h)).collect(),
        }),
        Event::FoesRepaired { foes } => T::FoesRepaired(x::FoesRepaired { foe_ids: foes.clone() }),
        Event::EnemiesReturned { enemies } => T::EnemiesReturned(x::EnemiesReturned {
            enemy_ids: enemies.clone(),
            enemies: enemies.iter().map(|id| enemy(id)).collect(),
        }),
        Event::ExplorationDrawn { card, kind, skill } => T::ExplorationDrawn(x::ExplorationDrawn {
            exploration_id: card.clone(),
            exploration: exploration(card),
            kind: exploration_kind(*kind) as i32,
            skill: u32::from(*skill),
        }),
        Event::EnemyDrawn { enemy: id, hex: h, from_reserve } => T::EnemyDrawn(x::EnemyDrawn {
            enemy_id: id.clone(),
            hex: Some(hex(*h)),
            from_reserve: *from_reserve,
            enemy: enemy(id),
        }),
        Event::TargetDamaged { target, damage, health_left, hits, blocked } => {
            // Enemy and Avatar ids differ (`enemy_and_avatar_ids_differ`).
            let (as_enemy, as_avatar) = (enemy(target), avatar(target));
            T::TargetDamaged(x::TargetDamaged {
                target: target.clone(),
                damage: u32::from(*damage),
                health_left: u32::from(*health_left),
                hits: u32::from(*hits),
                blocked: u32::from(*blocked),
                enemy: (as_enemy != u32::MAX).then_some(as_enemy),
                avatar: (as_avatar != u32::MAX).then_some(as_avatar),
            })
        }
        Event::EnemyDefeated { enemy: id } => {
            T::EnemyDefeated(x::EnemyDefeated { enemy_id: id.clone(), enemy: enemy(id) })
        }
        Event::HealthLost { seat, amount, health } => T::HealthLost(x::HealthLost {
            seat: u32::from(*seat),
            amount: u32::from(*amount),
            health: u32::from(*health),
        }),
        Event::HealthRecovered { seat, amount, health } => T::HealthRecovered(x::HealthRecovered {
            seat: u32::from(*seat),
            amount: u32::from(*amount),
            health: u32::from(*health),
        }),
        Event::ShipDestroyed { seat } => T::ShipDestroyed(x::ShipDestroyed { seat: u32::from(*seat) }),
        Event::CorruptionAdvanced { position } => {
            T::CorruptionAdvanced(x::CorruptionAdvanced { position: u32::from(*position) })
        }
        Event::AvatarArrived { avatar: id, hex: h } => {
            T::AvatarArrived(x::AvatarArrived { avatar_id: id.clone(), hex: Some(hex(*h)), avatar: avatar(id) })
        }
        Event::AvatarMoved { avatar: id, path } => T::AvatarMoved(x::AvatarMoved {
            avatar_id: id.clone(),
            path: path.iter().copied().map(hex).collect(),
            avatar: avatar(id),
        }),
        Event::SignalRevealed { key, card } => {
            T::SignalRevealed(x::SignalRevealed { key: u32::from(*key), signal_id: card.clone(), signal: signal(card) })
        }
        Event::KeyAccessed { key, seat } => {
            T::KeyAccessed(x::KeyAccessed { key: u32::from(*key), seat: u32::from(*seat) })
        }
        Event::KeysActivated { keys, total } => {
            T::KeysActivated(x::KeysActivated { keys: wide(keys), total: u32::from(*total) })
        }
        Event::Pacified { hex: h } => T::Pacified(x::Pacified { hex: Some(hex(*h)) }),
        Event::GameOver { won, cause } => T::GameOver(x::GameOver { won: *won, cause: cause.clone() }),
        Event::FleetJoined { seats } => T::FleetJoined(x::FleetJoined { seats: wide(seats) }),
        Event::InviteDeclined { seat: s } => T::InviteDeclined(x::InviteDeclined { seat: seat(s) }),
        Event::AvatarDieRolled { avatar: id, moves, wormhole } => T::AvatarDieRolled(x::AvatarDieRolled {
            avatar_id: id.clone(),
            avatar: avatar(id),
            moves: u32::from(*moves),
            wormhole: *wormhole,
        }),
        Event::Undetected { seats } => T::Undetected(x::Undetected { seats: wide(seats) }),
        Event::EnemyDeckReshuffled => T::EnemyDeckReshuffled(x::EnemyDeckReshuffled {}),
        Event::EnemiesReinforced { count } => T::EnemiesReinforced(x::EnemiesReinforced { count: u32::from(*count) }),
        Event::AvatarEscaped { avatar: id, space } => T::AvatarEscaped(x::AvatarEscaped {
            avatar_id: id.clone(),
            avatar: avatar(id),
            space: space.map(u32::from),
        }),
        Event::HealthMarkerDiscarded { seat: s } => {
            T::HealthMarkerDiscarded(x::HealthMarkerDiscarded { seat: seat(s) })
        }
        Event::EnergyMarkerDiscarded { seat: s } => {
            T::EnergyMarkerDiscarded(x::EnergyMarkerDiscarded { seat: seat(s) })
        }
        Event::DamagedDrawn { seat: s, card } => {
            T::DamagedDrawn(x::DamagedDrawn { seat: seat(s), damaged_id: card.clone(), damaged: damaged(card) })
        }
        Event::DamagedRemoved { seat: s, card } => {
            T::DamagedRemoved(x::DamagedRemoved { seat: seat(s), damaged_id: card.clone(), damaged: damaged(card) })
        }
        Event::ScrapsChanged { seat: s, delta, scraps } => {
            T::ScrapsChanged(x::ScrapsChanged { seat: seat(s), delta: i32::from(*delta), scraps: u32::from(*scraps) })
        }
        Event::EnergyChanged { seat: s, available, total } => T::EnergyChanged(x::EnergyChanged {
            seat: seat(s),
            available: u32::from(*available),
            total: u32::from(*total),
        }),
        Event::XpGained { seat: s, xp, level } => {
            T::XpGained(x::XpGained { seat: seat(s), xp: u32::from(*xp), level: u32::from(*level) })
        }
        Event::Strained { seat: s } => T::Strained(x::Strained { seat: seat(s) }),
        Event::Disengaged { seats, hid } => T::Disengaged(x::Disengaged { seats: wide(seats), hid: *hid }),
        Event::ExplorationMarkerMoved { from, to } => {
            T::ExplorationMarkerMoved(x::ExplorationMarkerMoved { from: Some(hex(*from)), to: Some(hex(*to)) })
        }
        Event::SignalProgress { key, progress, needed } => T::SignalProgress(x::SignalProgress {
            key: u32::from(*key),
            progress: u32::from(*progress),
            needed: u32::from(*needed),
        }),
        Event::KeyMoved { key, from, to } => {
            T::KeyMoved(x::KeyMoved { key: u32::from(*key), from_seat: seat(from), to_seat: seat(to) })
        }
        Event::RiftChanged { hex: h, open } => T::RiftChanged(x::RiftChanged { hex: Some(hex(*h)), open: *open }),
        Event::AvatarMovementChanged { this_turn } => {
            T::AvatarMovementChanged(x::AvatarMovementChanged { this_turn: i32::from(*this_turn) })
        }
        Event::AllyMet { ally: id, hex: h, modules } => T::AllyMet(x::AllyMet {
            ally_id: id.clone(),
            ally: ally_kind(id).unwrap_or(x::AllyKind::Unspecified) as i32,
            hex: Some(hex(*h)),
            module_ids: modules.clone(),
            modules: modules.iter().map(|m| module(m)).collect(),
        }),
        Event::ModuleRevealed { module: id } => {
            T::ModuleRevealed(x::ModuleRevealed { module_id: id.clone(), module: module(id) })
        }
        Event::ModuleGained { seat: s, module: id } => {
            T::ModuleGained(x::ModuleGained { seat: seat(s), module_id: id.clone(), module: module(id) })
        }
        Event::ModuleLost { seat: s, module: id } => {
            T::ModuleLost(x::ModuleLost { seat: seat(s), module_id: id.clone(), module: module(id) })
        }
        Event::ModLost { seat: s, power: id } => {
            T::ModLost(x::ModLost { seat: seat(s), mod_effect_id: id.clone(), mod_effect: mod_effect(id) })
        }
        Event::PowerUsed { seat: s, power: id } => T::PowerUsed(x::PowerUsed {
            seat: seat(s),
            power_id: id.clone(),
            source: Some(x::PowerSource { source: Some(power(id)) }),
        }),
        Event::ModUnlocked { seat: s, power: id } => {
            T::ModUnlocked(x::ModUnlocked { seat: seat(s), mod_effect_id: id.clone(), mod_effect: mod_effect(id) })
        }
        Event::EnemyDecoyed { enemy: id } => {
            T::EnemyDecoyed(x::EnemyDecoyed { enemy_id: id.clone(), enemy: enemy(id) })
        }
    };
    x::XodusEvent { event: Some(t) }
}

/// Every content id with its display name.
fn names() -> &'static HashMap<String, String> {
    static NAMES: OnceLock<HashMap<String, String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let c = Content::get();
        let mut m = HashMap::new();
        let mut add = |id: &str, name: &str| {
            m.insert(id.to_string(), name.to_string());
        };
        c.tiles.iter().for_each(|t| add(&t.id, &t.name));
        c.signals.iter().for_each(|t| add(&t.id, &t.name));
        c.modules.iter().for_each(|t| add(&t.id, &t.name));
        c.mod_effects.iter().for_each(|t| add(&t.id, &t.name));
        c.explorations.iter().for_each(|t| add(&t.id, &t.name));
        c.enemies.iter().for_each(|t| add(&t.id, &t.name));
        c.avatars.iter().for_each(|t| add(&t.id, &t.name));
        c.damaged.iter().for_each(|t| add(&t.id, &t.name));
        c.allies.iter().for_each(|t| add(t.kind.as_str(), &t.name));
        m
    })
}

/// The engine's summary with content ids replaced by their names, for
/// display ("watcher_drone takes 2 damage" reads "Watcher Drone takes 2
/// damage").
pub fn named_summary(e: &Event) -> String {
    with_names(&e.summary())
}

/// The line a log shows for `e`: content ids replaced by their names, and
/// every system the event places something in named after the tile that
/// lies there on `board` (the public state after the step), with its
/// coordinates: "Captain 2 jumps to Veyra Drift (1,1)". A hex with no tile on the board keeps bare coordinates. Tiles on
/// the board are public, so the line tells no viewer anything hidden.
pub fn log_line(e: &Event, board: Option<&Public>) -> String {
    let Some(board) = board else { return named_summary(e) };
    let tiles = &Content::get().tiles;
    let place = |h: Hex| match board.tiles.iter().find(|t| t.hex == h).and_then(|t| tiles.get(usize::from(t.tile))) {
        // The tile's id, named by `with_names` with every other id.
        Some(tile) => format!("{} ({},{})", tile.id, h.q, h.r),
        None => format!("({},{})", h.q, h.r),
    };
    with_names(&e.summary_with(&place))
}

/// `raw` with every word that is a content id replaced by its name.
fn with_names(raw: &str) -> String {
    let names = names();
    let mut out = String::with_capacity(raw.len() + 16);
    // Words (runs of ASCII letters, digits and `_`) are looked up as slices
    // of the summary; everything between them is copied as it is.
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let word = is_word(bytes[i]);
        while i < bytes.len() && is_word(bytes[i]) == word {
            i += 1;
        }
        // Word boundaries are ASCII bytes, so both ends are char boundaries.
        let piece = &raw[start..i];
        out.push_str(if word { names.get(piece).map_or(piece, String::as_str) } else { piece });
    }
    out
}

/// The variant name an internally tagged enum's JSON starts with
/// (`{"event":"ship_moved",...}` gives `ship_moved`); serde writes the tag
/// first. `None` for any other shape.
fn leading_tag<'a>(json: &'a str, tag: &str) -> Option<&'a str> {
    let rest = json.strip_prefix("{\"")?.strip_prefix(tag)?.strip_prefix("\":\"")?;
    let name = &rest[..rest.find('"')?];
    (!name.contains('\\')).then_some(name)
}

/// The wire form of an event: its snake-case kind, its summary (the
/// [`log_line`] on `board`, the public state after the step), its JSON and
/// its typed form.
pub fn event(e: &Event, board: Option<&Public>) -> pb::Event {
    // One serialization gives both the JSON and, from its leading tag, the
    // kind; the parse is only a fallback for a shape serde never writes.
    let event_json = serde_json::to_string(e).unwrap_or_default();
    let kind = match leading_tag(&event_json, "event") {
        Some(kind) => kind.to_string(),
        None => serde_json::from_str::<serde_json::Value>(&event_json)
            .ok()
            .and_then(|v| v.get("event").and_then(|k| k.as_str()).map(str::to_string))
            .unwrap_or_default(),
    };
    pb::Event { kind, summary: log_line(e, board), event_json, detail: Some(any::pack(&typed(e))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    use xodus_engine::{Difficulty, Game, GameConfig};

    /// Plays 4 random 4-ship games (the option `step * stride` each time)
    /// and hands every event to `each` with the game after its step.
    fn every_event(stride: usize, mut each: impl FnMut(&Event, &Game)) {
        for seed in 0..4u64 {
            let mut game = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("config");
            for step in 0..3000usize {
                let d = game.decision();
                let Some(o) = d.options.get(step * stride % d.options.len().max(1)) else { break };
                let (seat, id) = (o.seats[0], o.id.clone());
                for e in game.apply(seat, &id).expect("legal") {
                    each(&e, &game);
                }
            }
        }
    }

    #[test]
    fn log_lines_name_the_systems_on_the_board() {
        let mut jumps = 0;
        every_event(5, |e, game| {
            let line = log_line(e, Some(game.public()));
            assert!(!line.contains('_'), "an id left in {line:?}");
            if let Event::ShipMoved { seat, to, .. } = e {
                // The ship stands on a revealed tile: its name and place.
                let tile = game.public().tiles.iter().find(|t| t.hex == *to).expect("a tile there");
                let name = &Content::get().tiles[usize::from(tile.tile)].name;
                assert_eq!(line, format!("Captain {seat} jumps to {name} ({},{})", to.q, to.r));
                // Without a board, coordinates alone.
                assert_eq!(log_line(e, None), format!("Captain {seat} jumps to ({},{})", to.q, to.r));
                jumps += 1;
            }
        });
        assert!(jumps > 20, "only {jumps} jumps");
        // A place with no tile on the board keeps its coordinates only.
        let game = Game::new(GameConfig::random(1, 3, Difficulty::Casual)).expect("config");
        let e = Event::Pacified { hex: Hex::new(9, 9) };
        assert_eq!(log_line(&e, Some(game.public())), "System (9,9) is pacified");
    }

    #[test]
    fn the_kind_is_read_from_the_leading_tag_only() {
        assert_eq!(leading_tag(r#"{"event":"ship_moved","seat":0}"#, "event"), Some("ship_moved"));
        assert_eq!(leading_tag(r#"{"event":"game_over"}"#, "event"), Some("game_over"));
        assert_eq!(leading_tag(r#"{"seat":0,"event":"ship_moved"}"#, "event"), None);
        assert_eq!(leading_tag(r#"{"event":"a\"b"}"#, "event"), None);
        assert_eq!(leading_tag(r#"{"event":"#, "event"), None);
        assert_eq!(leading_tag("", "event"), None);
    }

    /// The summary as a word-by-word rewrite, char by char: what
    /// `named_summary` must equal.
    fn named_slowly(raw: &str) -> String {
        let mut out = String::new();
        let mut word = String::new();
        for ch in raw.chars().chain(std::iter::once('\0')) {
            if ch.is_ascii_alphanumeric() || ch == '_' {
                word.push(ch);
                continue;
            }
            out.push_str(names().get(&word).map_or(word.as_str(), String::as_str));
            word.clear();
            if ch != '\0' {
                out.push(ch);
            }
        }
        out
    }

    #[test]
    fn summaries_of_random_games_name_every_id() {
        let mut events = 0;
        every_event(7, |e, _| {
            assert_eq!(named_summary(e), named_slowly(&e.summary()));
            events += 1;
        });
        assert!(events > 1000, "only {events} events");
        let enemy = &Content::get().enemies[0].id;
        for text in ["", "é", "_", "a é,b", enemy.as_str(), &format!("«{enemy}»: {enemy}_x ({enemy})")] {
            assert_eq!(with_names(text), named_slowly(text), "{text:?}");
        }
    }

    #[test]
    fn summaries_show_names_not_ids() {
        let c = Content::get();
        let enemy = &c.enemies[0];
        let e = Event::EnemyDefeated { enemy: enemy.id.clone() };
        let s = named_summary(&e);
        assert!(s.contains(&enemy.name), "{s}");
        assert!(!s.contains(&enemy.id) || enemy.id == enemy.name, "{s}");
        let t = &c.tiles[3];
        let s =
            named_summary(&Event::TileRevealed { hex: xodus_engine::Hex::new(1, 0), tile: t.id.clone(), rotation: 2 });
        assert!(s.contains(&t.name), "{s}");
        assert!(s.contains("(1,0)"), "coordinates are kept: {s}");
    }
}
