//! The engine's small enums and coordinates as wire values, both ways.

use crate::WireError;
use tabletop::xodus_pb as x;
use xodus_engine::content::{DieColor, Face, SystemKind};
use xodus_engine::{AllyKind, Difficulty, Grant, Hex, Pacified, Phase, ShipKind};

/// A hex on the wire.
pub fn hex(h: Hex) -> x::Hex {
    x::Hex { q: i32::from(h.q), r: i32::from(h.r) }
}

/// A wire hex back, refusing coordinates off any board.
pub fn hex_back(h: Option<&x::Hex>, field: &'static str) -> Result<Hex, WireError> {
    let h = h.ok_or(WireError::Missing(field))?;
    let q = i8::try_from(h.q).map_err(|_| WireError::OutOfRange(field))?;
    let r = i8::try_from(h.r).map_err(|_| WireError::OutOfRange(field))?;
    Ok(Hex::new(q, r))
}

/// A small number back, refusing what does not fit.
pub fn small(n: u32, field: &'static str) -> Result<u8, WireError> {
    u8::try_from(n).map_err(|_| WireError::OutOfRange(field))
}

/// Small numbers back.
pub fn smalls(v: &[u32], field: &'static str) -> Result<Vec<u8>, WireError> {
    v.iter().map(|&n| small(n, field)).collect()
}

/// Small numbers out.
pub fn wide(v: &[u8]) -> Vec<u32> {
    v.iter().map(|&n| u32::from(n)).collect()
}

/// The phase.
pub fn phase(p: Phase) -> x::Phase {
    match p {
        Phase::Action => x::Phase::Action,
        Phase::Corruption => x::Phase::Corruption,
        Phase::End => x::Phase::End,
        Phase::Over => x::Phase::Over,
    }
}

/// The phase back.
pub fn phase_back(p: i32) -> Result<Phase, WireError> {
    match x::Phase::try_from(p) {
        Ok(x::Phase::Action) => Ok(Phase::Action),
        Ok(x::Phase::Corruption) => Ok(Phase::Corruption),
        Ok(x::Phase::End) => Ok(Phase::End),
        Ok(x::Phase::Over) => Ok(Phase::Over),
        _ => Err(WireError::OutOfRange("phase_kind")),
    }
}

/// A ship kind.
pub fn ship(k: ShipKind) -> x::ShipKind {
    match k {
        ShipKind::Warship => x::ShipKind::Warship,
        ShipKind::Battlecruiser => x::ShipKind::Battlecruiser,
        ShipKind::Explorer => x::ShipKind::Explorer,
        ShipKind::PirateShip => x::ShipKind::PirateShip,
        ShipKind::DroneSpecialist => x::ShipKind::DroneSpecialist,
        ShipKind::ProtoShip => x::ShipKind::ProtoShip,
    }
}

/// A ship kind back.
pub fn ship_back(k: i32) -> Result<ShipKind, WireError> {
    match x::ShipKind::try_from(k) {
        Ok(x::ShipKind::Warship) => Ok(ShipKind::Warship),
        Ok(x::ShipKind::Battlecruiser) => Ok(ShipKind::Battlecruiser),
        Ok(x::ShipKind::Explorer) => Ok(ShipKind::Explorer),
        Ok(x::ShipKind::PirateShip) => Ok(ShipKind::PirateShip),
        Ok(x::ShipKind::DroneSpecialist) => Ok(ShipKind::DroneSpecialist),
        Ok(x::ShipKind::ProtoShip) => Ok(ShipKind::ProtoShip),
        _ => Err(WireError::OutOfRange("ship kind")),
    }
}

/// A difficulty.
pub fn difficulty(d: Difficulty) -> x::Difficulty {
    match d {
        Difficulty::Casual => x::Difficulty::Casual,
        Difficulty::Hardened => x::Difficulty::Hardened,
        Difficulty::Heroic => x::Difficulty::Heroic,
    }
}

/// A difficulty back.
pub fn difficulty_back(d: i32) -> Result<Difficulty, WireError> {
    match x::Difficulty::try_from(d) {
        Ok(x::Difficulty::Casual) => Ok(Difficulty::Casual),
        Ok(x::Difficulty::Hardened) => Ok(Difficulty::Hardened),
        Ok(x::Difficulty::Heroic) => Ok(Difficulty::Heroic),
        _ => Err(WireError::OutOfRange("difficulty")),
    }
}

/// An Ally.
pub fn ally(a: AllyKind) -> x::AllyKind {
    match a {
        AllyKind::Cartographer => x::AllyKind::Cartographer,
        AllyKind::SpecialisedEngineer => x::AllyKind::SpecialisedEngineer,
        AllyKind::Mercenary => x::AllyKind::Mercenary,
        AllyKind::Smuggler => x::AllyKind::Smuggler,
    }
}

/// An Ally back.
pub fn ally_back(a: i32) -> Result<AllyKind, WireError> {
    match x::AllyKind::try_from(a) {
        Ok(x::AllyKind::Cartographer) => Ok(AllyKind::Cartographer),
        Ok(x::AllyKind::SpecialisedEngineer) => Ok(AllyKind::SpecialisedEngineer),
        Ok(x::AllyKind::Mercenary) => Ok(AllyKind::Mercenary),
        Ok(x::AllyKind::Smuggler) => Ok(AllyKind::Smuggler),
        _ => Err(WireError::OutOfRange("ally kind")),
    }
}

/// A system kind.
pub fn system(k: SystemKind) -> x::SystemKind {
    match k {
        SystemKind::Allied => x::SystemKind::Allied,
        SystemKind::Enemy => x::SystemKind::Enemy,
        SystemKind::Corrupt => x::SystemKind::Corrupt,
        SystemKind::MainRift => x::SystemKind::MainRift,
    }
}

/// A die colour.
pub fn color(c: DieColor) -> x::DieColor {
    match c {
        DieColor::Red => x::DieColor::Red,
        DieColor::Blue => x::DieColor::Blue,
        DieColor::Yellow => x::DieColor::Yellow,
    }
}

/// A die colour back.
pub fn color_back(c: i32) -> Result<DieColor, WireError> {
    match x::DieColor::try_from(c) {
        Ok(x::DieColor::Red) => Ok(DieColor::Red),
        Ok(x::DieColor::Blue) => Ok(DieColor::Blue),
        Ok(x::DieColor::Yellow) => Ok(DieColor::Yellow),
        _ => Err(WireError::OutOfRange("die color")),
    }
}

/// A die face.
pub fn face(f: Face) -> x::DieFace {
    match f {
        Face::Hit => x::DieFace::Hit,
        Face::Miss => x::DieFace::Miss,
        Face::Special => x::DieFace::Special,
    }
}

/// A die face back.
pub fn face_back(f: i32) -> Result<Face, WireError> {
    match x::DieFace::try_from(f) {
        Ok(x::DieFace::Hit) => Ok(Face::Hit),
        Ok(x::DieFace::Miss) => Ok(Face::Miss),
        Ok(x::DieFace::Special) => Ok(Face::Special),
        _ => Err(WireError::OutOfRange("die face")),
    }
}

/// A Pacify marker.
pub fn pacification(p: Option<Pacified>) -> x::Pacification {
    match p {
        None => x::Pacification::Unspecified,
        Some(Pacified::Green) => x::Pacification::Green,
        Some(Pacified::Red) => x::Pacification::Red,
    }
}

/// A Pacify marker back.
pub fn pacification_back(p: i32) -> Result<Option<Pacified>, WireError> {
    match x::Pacification::try_from(p) {
        Ok(x::Pacification::Unspecified) => Ok(None),
        Ok(x::Pacification::Green) => Ok(Some(Pacified::Green)),
        Ok(x::Pacification::Red) => Ok(Some(Pacified::Red)),
        Err(_) => Err(WireError::OutOfRange("pacified")),
    }
}

/// A die right.
pub fn grant(g: Grant) -> x::Grant {
    match g {
        Grant::IgnoreMiss => x::Grant::IgnoreMiss,
        Grant::Reroll => x::Grant::Reroll,
    }
}

/// A die right back.
pub fn grant_back(g: i32) -> Result<Grant, WireError> {
    match x::Grant::try_from(g) {
        Ok(x::Grant::IgnoreMiss) => Ok(Grant::IgnoreMiss),
        Ok(x::Grant::Reroll) => Ok(Grant::Reroll),
        _ => Err(WireError::OutOfRange("grant")),
    }
}
