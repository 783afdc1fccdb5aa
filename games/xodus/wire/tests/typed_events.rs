//! Every engine event reaches clients typed: `Event.detail` always holds an
//! `xodus.v1.XodusEvent`, the oneof field set in it is named as the event's
//! `kind`, and every content id in it has its catalog index. One event of
//! every kind is checked here, and every oneof field of `XodusEvent` must be
//! met among them; `events::typed` matches every engine event without a
//! wildcard, so a new engine event kind does not compile until it is typed,
//! and then fails here until it has a sample and a oneof field of its name.
//! Seeded games played to the end check the same on real events.

use prost::Message;
use std::collections::{BTreeMap, BTreeSet};
use tabletop::{any, xodus_pb as x};
use xodus_engine::content::{Content, DieColor, Face};
use xodus_engine::{Difficulty, Event, Game, GameConfig, Hex, Phase, RollPurpose};

/// The fields of the `XodusEvent` oneof, by number, from the API's
/// descriptor set.
fn oneof_fields() -> BTreeMap<u64, String> {
    let set = prost_types::FileDescriptorSet::decode(tabletop::FILE_DESCRIPTOR_SET).expect("descriptor set");
    let file = set.file.iter().find(|f| f.name() == "xodus/v1/events.proto").expect("events.proto");
    let msg = file.message_type.iter().find(|m| m.name() == "XodusEvent").expect("XodusEvent");
    assert_eq!(msg.oneof_decl.len(), 1, "XodusEvent has one oneof");
    msg.field.iter().map(|f| (f.number() as u64, f.name().to_string())).collect()
}

/// The name of the oneof field `t` sets: its first tag on the wire.
fn set_field(t: &x::XodusEvent, fields: &BTreeMap<u64, String>) -> String {
    let bytes = t.encode_to_vec();
    let tag = prost::encoding::decode_varint(&mut bytes.as_slice()).expect("a tag");
    fields.get(&(tag >> 3)).cloned().unwrap_or_else(|| panic!("field {} is not in XodusEvent", tag >> 3))
}

/// Checks one event's wire form and returns its kind.
fn check(e: &Event, fields: &BTreeMap<u64, String>) -> String {
    let wire = xodus_wire::event(e, None);
    let typed = any::event_detail::<tabletop::xodus_pb::XodusEvent>(&wire)
        .unwrap_or_else(|| panic!("{} has no typed detail", wire.kind));
    assert_eq!(typed, xodus_wire::events::typed(e), "{}", wire.kind);
    assert_eq!(set_field(&typed, fields), wire.kind, "the oneof field is named as the kind");
    // An id missing from the catalog would have index u32::MAX.
    assert!(!format!("{typed:?}").contains("4294967295"), "an unknown catalog index: {typed:?}");
    assert!(!format!("{typed:?}").contains("Unspecified"), "an enum left unset: {typed:?}");
    wire.kind
}

/// One event of every kind, with real catalog ids.
fn samples() -> Vec<Event> {
    let c = Content::get();
    let (h, g) = (Hex::new(1, -1), Hex::new(0, 1));
    let mut v = vec![
        Event::PhaseStarted { phase: Phase::Corruption, round: 3 },
        Event::TurnStarted { seat: 1 },
        Event::TurnEnded { seat: 1 },
        Event::FleetJoined { seats: vec![0, 2] },
        Event::InviteDeclined { seat: 3 },
        Event::TileRevealed { hex: h, tile: c.tiles[5].id.clone(), rotation: 4 },
        Event::ShipMoved { seat: 0, from: g, to: h },
        Event::DiceRolled {
            seat: Some(2),
            purpose: RollPurpose::Damage,
            dice: vec![(DieColor::Red, Face::Hit), (DieColor::Blue, Face::Special)],
        },
        Event::AvatarDieRolled { avatar: c.avatars[1].id.clone(), moves: 2, wormhole: true },
        Event::Undetected { seats: vec![1] },
        Event::Engaged { seats: vec![0, 1], hex: h, cause: xodus_engine::EngageCause::Avatar },
        Event::Regenerated { target: c.enemies[0].id.clone(), amount: 1, health_left: 2 },
        Event::PacifyMarkersTurned { lifted: vec![h], turned: Vec::new() },
        Event::EnemiesReturned { enemies: vec![c.enemies[1].id.clone()] },
        Event::FoesRepaired { foes: vec![c.enemies[1].id.clone(), c.avatars[0].id.clone()] },
        Event::ExplorationDrawn {
            card: c.explorations[0].id.clone(),
            kind: c.explorations[0].kind,
            skill: c.explorations[0].skill.unwrap_or(0),
        },
        Event::EnemyDrawn { enemy: c.enemies[3].id.clone(), hex: h, from_reserve: true },
        Event::EnemyDeckReshuffled,
        Event::EnemiesReinforced { count: 4 },
        Event::TargetDamaged { target: c.enemies[3].id.clone(), damage: 1, health_left: 2, hits: 3, blocked: 2 },
        Event::EnemyDefeated { enemy: c.enemies[3].id.clone() },
        Event::AvatarEscaped { avatar: c.avatars[0].id.clone(), space: Some(7) },
        Event::AvatarEscaped { avatar: c.avatars[2].id.clone(), space: None },
        Event::HealthLost { seat: 0, amount: 2, health: 3 },
        Event::HealthRecovered { seat: 0, amount: 1, health: 4 },
        Event::HealthMarkerDiscarded { seat: 2 },
        Event::EnergyMarkerDiscarded { seat: 2 },
        Event::DamagedDrawn { seat: 1, card: c.damaged[4].id.clone() },
        Event::DamagedRemoved { seat: 1, card: c.damaged[4].id.clone() },
        Event::ShipDestroyed { seat: 3 },
        Event::ScrapsChanged { seat: 0, delta: -3, scraps: 2 },
        Event::ScrapsChanged { seat: 0, delta: 2, scraps: 4 },
        Event::EnergyChanged { seat: 1, available: 1, total: 3 },
        Event::XpGained { seat: 1, xp: 5, level: 3 },
        Event::Strained { seat: 0 },
        Event::Disengaged { seats: vec![0, 1], hid: true },
        Event::ExplorationMarkerMoved { from: g, to: h },
        Event::Pacified { hex: h },
        Event::CorruptionAdvanced { position: 6 },
        Event::AvatarArrived { avatar: c.avatars[1].id.clone(), hex: h },
        Event::AvatarMoved { avatar: c.avatars[1].id.clone(), path: vec![g, h] },
        Event::SignalRevealed { key: 2, card: c.signals[1].id.clone() },
        Event::SignalProgress { key: 2, progress: 1, needed: 3 },
        Event::KeyAccessed { key: 2, seat: 1 },
        Event::KeyMoved { key: 2, from: 1, to: 3 },
        Event::KeysActivated { keys: vec![1, 2], total: 3 },
        Event::RiftChanged { hex: h, open: false },
        Event::AvatarMovementChanged { this_turn: -1 },
        Event::ModuleRevealed { module: c.modules[6].id.clone() },
        Event::ModuleGained { seat: 2, module: c.modules[6].id.clone() },
        Event::ModuleLost { seat: 2, module: c.modules[6].id.clone() },
        Event::ModLost { seat: 3, power: c.mod_effects[9].id.clone() },
        Event::PowerUsed { seat: 3, power: c.modules[6].id.clone() },
        Event::PowerUsed { seat: 3, power: c.mod_effects[9].id.clone() },
        Event::ModUnlocked { seat: 3, power: c.mod_effects[9].id.clone() },
        Event::EnemyDecoyed { enemy: c.enemies[0].id.clone() },
        Event::GameOver { won: true, cause: "rift_sealed".into() },
    ];
    // Every Ally, with the modules it offers.
    for a in &c.allies {
        let modules = vec![c.modules[0].id.clone(), c.modules[11].id.clone()];
        v.push(Event::AllyMet { ally: a.kind.as_str().into(), hex: h, modules });
    }
    v
}

#[test]
fn every_event_kind_has_a_typed_message_named_as_its_kind() {
    let fields = oneof_fields();
    let kinds: BTreeSet<String> = samples().iter().map(|e| check(e, &fields)).collect();
    let names: BTreeSet<String> = fields.values().cloned().collect();
    assert_eq!(kinds, names, "every XodusEvent field has a sample event, and every sample a field");
}

#[test]
fn typed_events_carry_what_the_event_json_carries() {
    use x::xodus_event::Event as T;
    let c = Content::get();
    let typed = |e: &Event| xodus_wire::events::typed(e).event.expect("set");
    // The Avatar die (audit F2): the Avatar by id and index, moves, wormhole.
    let e = Event::AvatarDieRolled { avatar: c.avatars[1].id.clone(), moves: 2, wormhole: true };
    assert_eq!(
        typed(&e),
        T::AvatarDieRolled(x::AvatarDieRolled {
            avatar_id: c.avatars[1].id.clone(),
            avatar: 1,
            moves: 2,
            wormhole: true
        })
    );
    // A damaged target says which kind it is and its catalog index.
    let hit = |id: &str| match typed(&Event::TargetDamaged {
        target: id.into(),
        damage: 1,
        health_left: 2,
        hits: 2,
        blocked: 1,
    }) {
        T::TargetDamaged(t) => (t.enemy, t.avatar),
        other => panic!("{other:?}"),
    };
    assert_eq!(hit(&c.enemies[3].id), (Some(3), None));
    assert_eq!(hit(&c.avatars[2].id), (None, Some(2)));
    // A power names its category: a module, or a mod effect.
    let source = |id: &str| match typed(&Event::PowerUsed { seat: 0, power: id.into() }) {
        T::PowerUsed(p) => p.source.and_then(|s| s.source),
        other => panic!("{other:?}"),
    };
    assert_eq!(source(&c.modules[6].id), Some(x::power_source::Source::Module(6)));
    assert_eq!(source(&c.mod_effects[9].id), Some(x::power_source::Source::ModEffect(9)));
    // An escape with no space is for good.
    let e = Event::AvatarEscaped { avatar: c.avatars[2].id.clone(), space: None };
    assert!(matches!(typed(&e), T::AvatarEscaped(x::AvatarEscaped { space: None, avatar: 2, .. })));
    // Signed numbers stay signed.
    assert!(matches!(
        typed(&Event::ScrapsChanged { seat: 0, delta: -3, scraps: 2 }),
        T::ScrapsChanged(x::ScrapsChanged { delta: -3, scraps: 2, .. })
    ));
    assert!(matches!(
        typed(&Event::AvatarMovementChanged { this_turn: -1 }),
        T::AvatarMovementChanged(x::AvatarMovementChanged { this_turn: -1 })
    ));
    // Allies by id and by enum, their offer by id and by index.
    let ally = &c.allies[2];
    let e = Event::AllyMet {
        ally: ally.kind.as_str().into(),
        hex: Hex::new(0, 1),
        modules: vec![c.modules[11].id.clone()],
    };
    let T::AllyMet(m) = typed(&e) else { panic!("not ally_met") };
    assert_eq!(m.ally(), xodus_wire::enums::ally(ally.kind));
    assert_eq!((m.ally_id.as_str(), m.modules.as_slice()), (ally.kind.as_str(), &[11][..]));
}

#[test]
fn module_and_mod_effect_ids_differ() {
    // `PowerUsed` names a module or a mod effect by id alone: no id may be
    // both for its `source` to be right.
    let c = Content::get();
    let modules: BTreeSet<&str> = c.modules.iter().map(|m| m.id.as_str()).collect();
    for e in &c.mod_effects {
        assert!(!modules.contains(e.id.as_str()), "{} is a module and a mod effect", e.id);
    }
}

#[test]
fn enemy_and_avatar_ids_differ() {
    // `TargetDamaged` tells an Enemy from an Avatar by its id alone.
    let c = Content::get();
    let enemies: BTreeSet<&str> = c.enemies.iter().map(|e| e.id.as_str()).collect();
    for a in &c.avatars {
        assert!(!enemies.contains(a.id.as_str()), "{} is an Enemy and an Avatar", a.id);
    }
}

#[test]
fn every_event_of_seeded_games_is_typed() {
    let fields = oneof_fields();
    let mut seen = BTreeSet::new();
    for seed in 0..8u64 {
        let difficulty = Difficulty::ALL[(seed % 3) as usize];
        let mut game = Game::new(GameConfig::random(seed, 3 + (seed % 2) as usize, difficulty)).expect("config");
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..5000 {
            if game.outcome().is_some() {
                break;
            }
            let d = game.decision();
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let o = &d.options[(pick % d.options.len() as u64) as usize];
            let (seat, id) = (o.seats[0], o.id.clone());
            for e in game.apply(seat, &id).expect("legal") {
                seen.insert(check(&e, &fields));
            }
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game did not end in 5000 steps");
    }
    // Random play meets most kinds; the samples above cover the rest.
    assert!(seen.len() >= 30, "only {} kinds met: {seen:?}", seen.len());
}
