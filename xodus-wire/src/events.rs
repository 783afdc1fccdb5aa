//! The engine's events on the wire: every event with its kind, summary and
//! JSON, and the main ones also typed (`xodus.v1.XodusEvent`).

use crate::enums::*;
use std::collections::HashMap;
use std::sync::OnceLock;
use xodus::{any, pb, xodus_pb as x};
use xodus_engine::content::Content;
use xodus_engine::{Event, RollPurpose};

fn purpose(p: RollPurpose) -> x::RollPurpose {
    match p {
        RollPurpose::Detection => x::RollPurpose::Detection,
        RollPurpose::Attack => x::RollPurpose::Attack,
        RollPurpose::Damage => x::RollPurpose::Damage,
        RollPurpose::Skill => x::RollPurpose::Skill,
        RollPurpose::AvatarMove => x::RollPurpose::AvatarMove,
    }
}

/// The catalog index of the entry with text id `id` among `ids`.
fn index<'a>(mut ids: impl Iterator<Item = &'a str>, id: &str) -> u32 {
    ids.position(|i| i == id).map_or(u32::MAX, |i| i as u32)
}

/// The typed form of an event, for the events X-ODUS types.
pub fn typed(e: &Event) -> Option<x::XodusEvent> {
    use x::xodus_event::Event as T;
    let c = Content::get();
    let tile = |id: &str| index(c.tiles.iter().map(|t| t.id.as_str()), id);
    let enemy = |id: &str| index(c.enemies.iter().map(|t| t.id.as_str()), id);
    let avatar = |id: &str| index(c.avatars.iter().map(|t| t.id.as_str()), id);
    let signal = |id: &str| index(c.signals.iter().map(|t| t.id.as_str()), id);
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
        Event::Engaged { seats, hex: h } => T::Engaged(x::Engaged { seats: wide(seats), hex: Some(hex(*h)) }),
        Event::EnemyDrawn { enemy: id, hex: h, from_reserve } => T::EnemyDrawn(x::EnemyDrawn {
            enemy_id: id.clone(),
            hex: Some(hex(*h)),
            from_reserve: *from_reserve,
            enemy: enemy(id),
        }),
        Event::TargetDamaged { target, damage, health_left } => T::TargetDamaged(x::TargetDamaged {
            target: target.clone(),
            damage: u32::from(*damage),
            health_left: u32::from(*health_left),
        }),
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
        _ => return None,
    };
    Some(x::XodusEvent { event: Some(t) })
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
    let raw = e.summary();
    let names = names();
    let mut out = String::with_capacity(raw.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(names.get(word.as_str()).map_or(word.as_str(), String::as_str));
        word.clear();
    };
    for ch in raw.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The wire form of an event: its snake-case kind, its summary (with
/// names), its JSON and, for the main events, its typed form.
pub fn event(e: &Event) -> pb::Event {
    let value = serde_json::to_value(e).unwrap_or_default();
    let kind = value.get("event").and_then(|k| k.as_str()).unwrap_or_default().to_string();
    pb::Event {
        kind,
        summary: named_summary(e),
        event_json: value.to_string(),
        detail: typed(e).map(|t| any::pack(&t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
