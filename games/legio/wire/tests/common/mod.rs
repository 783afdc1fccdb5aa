//! Seeded random games for the tests: every step of a game played with
//! random legal options, half of the seeds avoiding the passive ones so
//! that missions, Sector X (entered whenever it is offered) and the real
//! end triggers come up.

#![allow(dead_code)]

use legio_engine::{Event, Game};

/// Options that let a game idle.
const PASSIVE: [&str; 6] = ["end_turn", "draw:0", "decline", "abort_landing", "leave_nobody", "dismiss_nobody"];

/// A small deterministic generator.
pub struct Pick(pub u64);

impl Pick {
    /// A number below `n` (n > 0).
    pub fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A new game at the current rules.
pub fn new_game(players: u8, seed: u64) -> Game {
    let setup = tabletop::legio_pb::LegioSetup { players: u32::from(players), seed: Some(seed), round_limit: None };
    Game::new(legio_wire::config(&setup, 0).expect("valid setup")).expect("valid config")
}

/// Plays a seeded random game to its end, calling `before` with the game
/// before every step and `after` with each step's events and the game
/// after it. Returns the finished game.
pub fn play(players: u8, seed: u64, mut before: impl FnMut(&Game), mut after: impl FnMut(&[Event], &Game)) -> Game {
    let mut g = new_game(players, seed);
    let mut p = Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..20_000 {
        before(&g);
        if g.outcome().is_some() {
            return g;
        }
        let d = g.decision();
        let seat = d.seat.expect("a decider before the end");
        let active: Vec<&str> = d.options.iter().map(|o| o.id.as_str()).filter(|id| !PASSIVE.contains(id)).collect();
        let id = if seed % 2 == 1 && active.contains(&"enter_sector_x") {
            // Sector X is open from 9 PX only: take it when offered.
            "enter_sector_x".to_string()
        } else if seed % 2 == 1 && !active.is_empty() && p.next(4) != 0 {
            active[p.next(active.len())].to_string()
        } else {
            d.options[p.next(d.options.len())].id.clone()
        };
        let events = g.apply(seat, &id).unwrap_or_else(|e| panic!("offered option {id} refused: {e}"));
        after(&events, &g);
    }
    panic!("seed {seed}: the game did not end in 20 000 steps");
}

/// The fields of a oneof message of `legio.v1` by number, from the API's
/// descriptor set.
pub fn oneof_fields(file: &str, message: &str) -> std::collections::BTreeMap<u64, String> {
    use prost::Message;
    let set = prost_types::FileDescriptorSet::decode(tabletop::FILE_DESCRIPTOR_SET).expect("descriptor set");
    let f = set.file.iter().find(|f| f.name() == file).unwrap_or_else(|| panic!("{file}"));
    let msg = f.message_type.iter().find(|m| m.name() == message).unwrap_or_else(|| panic!("{message}"));
    assert_eq!(msg.oneof_decl.len(), 1, "{message} has one oneof");
    // Besides its oneof, an option carries its price (legio.v1.LegioChoice.price).
    let outside: Vec<&str> = msg.field.iter().filter(|x| x.oneof_index != Some(0)).map(|x| x.name()).collect();
    assert!(outside.is_empty() || outside == ["price"], "{message}'s fields outside its oneof: {outside:?}");
    msg.field.iter().filter(|x| x.oneof_index == Some(0)).map(|x| (x.number() as u64, x.name().to_string())).collect()
}

/// The name of the oneof field a message sets: its first tag on the wire.
pub fn set_field(bytes: &[u8], fields: &std::collections::BTreeMap<u64, String>) -> String {
    let tag = prost::encoding::decode_varint(&mut &bytes[..]).expect("a tag");
    fields.get(&(tag >> 3)).cloned().unwrap_or_else(|| panic!("field {} is not in the oneof", tag >> 3))
}
