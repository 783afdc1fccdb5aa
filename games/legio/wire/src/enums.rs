//! The engine's small enums and numbers as `legio.v1` values, and back.
//! Every `*_back` refuses a value the engine never uses, naming the field.

use crate::WireError;
use legio_engine::content::{Domain, Loss};
use legio_engine::{ExpertKind, Gear, Personnel, Side, Tech};
use tabletop::legio_pb as l;

/// A wire number as the engine's `u8`, or an out-of-range error.
pub fn small(v: u32, field: &'static str) -> Result<u8, WireError> {
    u8::try_from(v).map_err(|_| WireError::OutOfRange(field))
}

/// Wire numbers as the engine's `u8`s.
pub fn smalls(v: &[u32], field: &'static str) -> Result<Vec<u8>, WireError> {
    v.iter().map(|&x| small(x, field)).collect()
}

/// The engine's `u8`s as wire numbers.
pub fn wide(v: &[u8]) -> Vec<u32> {
    v.iter().map(|&x| u32::from(x)).collect()
}

/// A ship side.
pub fn side(s: Side) -> l::Side {
    match s {
        Side::Frombola => l::Side::Frombola,
        Side::Spatha => l::Side::Spatha,
    }
}

/// A ship side back.
pub fn side_back(v: i32) -> Result<Side, WireError> {
    match l::Side::try_from(v) {
        Ok(l::Side::Frombola) => Ok(Side::Frombola),
        Ok(l::Side::Spatha) => Ok(Side::Spatha),
        _ => Err(WireError::OutOfRange("ship.side")),
    }
}

/// An expert kind.
pub fn expert(k: ExpertKind) -> l::ExpertKind {
    match k {
        ExpertKind::Diplomat => l::ExpertKind::Diplomat,
        ExpertKind::Adventurer => l::ExpertKind::Adventurer,
        ExpertKind::Hunter => l::ExpertKind::Hunter,
    }
}

/// An expert kind back.
pub fn expert_back(v: i32, field: &'static str) -> Result<ExpertKind, WireError> {
    match l::ExpertKind::try_from(v) {
        Ok(l::ExpertKind::Diplomat) => Ok(ExpertKind::Diplomat),
        Ok(l::ExpertKind::Adventurer) => Ok(ExpertKind::Adventurer),
        Ok(l::ExpertKind::Hunter) => Ok(ExpertKind::Hunter),
        _ => Err(WireError::OutOfRange(field)),
    }
}

/// A technology.
pub fn tech(t: Tech) -> l::Tech {
    match t {
        Tech::Holodeck => l::Tech::Holodeck,
        Tech::Nanoprobes => l::Tech::Nanoprobes,
    }
}

/// A technology back.
pub fn tech_back(v: i32, field: &'static str) -> Result<Tech, WireError> {
    match l::Tech::try_from(v) {
        Ok(l::Tech::Holodeck) => Ok(Tech::Holodeck),
        Ok(l::Tech::Nanoprobes) => Ok(Tech::Nanoprobes),
        _ => Err(WireError::OutOfRange(field)),
    }
}

/// An experience domain.
pub fn domain(d: Domain) -> l::Domain {
    match d {
        Domain::Diplomacy => l::Domain::Diplomacy,
        Domain::Capture => l::Domain::Capture,
    }
}

/// An experience domain back; `None` for DOMAIN_UNSPECIFIED.
pub fn domain_back(v: i32, field: &'static str) -> Result<Option<Domain>, WireError> {
    match l::Domain::try_from(v) {
        Ok(l::Domain::Unspecified) => Ok(None),
        Ok(l::Domain::Diplomacy) => Ok(Some(Domain::Diplomacy)),
        Ok(l::Domain::Capture) => Ok(Some(Domain::Capture)),
        Err(_) => Err(WireError::OutOfRange(field)),
    }
}

/// Personnel.
pub fn personnel(p: Personnel) -> l::Personnel {
    match p {
        Personnel::Squad => l::Personnel::Squad,
        Personnel::Expert(ExpertKind::Diplomat) => l::Personnel::Diplomat,
        Personnel::Expert(ExpertKind::Adventurer) => l::Personnel::Adventurer,
        Personnel::Expert(ExpertKind::Hunter) => l::Personnel::Hunter,
    }
}

/// Personnel back.
pub fn personnel_back(v: i32, field: &'static str) -> Result<Personnel, WireError> {
    match l::Personnel::try_from(v) {
        Ok(l::Personnel::Squad) => Ok(Personnel::Squad),
        Ok(l::Personnel::Diplomat) => Ok(Personnel::Expert(ExpertKind::Diplomat)),
        Ok(l::Personnel::Adventurer) => Ok(Personnel::Expert(ExpertKind::Adventurer)),
        Ok(l::Personnel::Hunter) => Ok(Personnel::Expert(ExpertKind::Hunter)),
        _ => Err(WireError::OutOfRange(field)),
    }
}

/// Equipment.
pub fn gear(g: Gear) -> l::Gear {
    match g {
        Gear::Propulsor => l::Gear::Propulsor,
        Gear::Laser => l::Gear::Laser,
        Gear::Decoder => l::Gear::Decoder,
        Gear::Detector => l::Gear::Detector,
    }
}

/// Equipment back.
pub fn gear_back(v: i32, field: &'static str) -> Result<Gear, WireError> {
    match l::Gear::try_from(v) {
        Ok(l::Gear::Propulsor) => Ok(Gear::Propulsor),
        Ok(l::Gear::Laser) => Ok(Gear::Laser),
        Ok(l::Gear::Decoder) => Ok(Gear::Decoder),
        Ok(l::Gear::Detector) => Ok(Gear::Detector),
        _ => Err(WireError::OutOfRange(field)),
    }
}

/// A damage-table loss.
pub fn loss(x: Loss) -> l::Loss {
    match x {
        Loss::Propulsor => l::Loss::Propulsor,
        Loss::Laser => l::Loss::Laser,
        Loss::Squad => l::Loss::Squad,
        Loss::Decoder => l::Loss::Decoder,
        Loss::Nothing => l::Loss::Nothing,
    }
}
