//! The engine's pending step (where in the rules the table waits, with
//! what the step carries: the dice on the Combat board, the Exploration
//! card, the tile being oriented) as a typed `Step`, both ways.

use crate::WireError;
use crate::enums::*;
use tabletop::xodus_pb as x;
use tabletop::xodus_pb::step::Step as S;
use xodus_engine::{Pending, RolledDie, SeatRoll, Source, Target};

/// A target.
pub fn target(t: Target) -> x::Target {
    x::Target {
        target: Some(match t {
            Target::Enemy(i) => x::target::Target::Enemy(u32::from(i)),
            Target::Avatar(i) => x::target::Target::Avatar(u32::from(i)),
        }),
    }
}

/// A target back.
pub fn target_back(t: Option<&x::Target>) -> Result<Target, WireError> {
    match t.and_then(|t| t.target) {
        Some(x::target::Target::Enemy(i)) => Ok(Target::Enemy(small(i, "target.enemy")?)),
        Some(x::target::Target::Avatar(i)) => Ok(Target::Avatar(small(i, "target.avatar")?)),
        None => Err(WireError::Missing("target")),
    }
}

/// A power's source.
pub fn source(s: Source) -> x::PowerSource {
    x::PowerSource {
        source: Some(match s {
            Source::Module(m) => x::power_source::Source::Module(u32::from(m)),
            Source::Mod(m) => x::power_source::Source::ModEffect(u32::from(m)),
        }),
    }
}

/// A power's source back.
pub fn source_back(s: Option<&x::PowerSource>) -> Result<Source, WireError> {
    match s.and_then(|s| s.source) {
        Some(x::power_source::Source::Module(m)) => Ok(Source::Module(small(m, "source.module")?)),
        Some(x::power_source::Source::ModEffect(m)) => Ok(Source::Mod(small(m, "source.mod_effect")?)),
        None => Err(WireError::Missing("source")),
    }
}

fn powers(v: &[(u8, Source)]) -> Vec<x::SeatPower> {
    v.iter().map(|&(seat, s)| x::SeatPower { seat: u32::from(seat), source: Some(source(s)) }).collect()
}

fn powers_back(v: &[x::SeatPower]) -> Result<Vec<(u8, Source)>, WireError> {
    v.iter().map(|p| Ok((small(p.seat, "power.seat")?, source_back(p.source.as_ref())?))).collect()
}

/// An attack roll.
pub fn roll(r: &SeatRoll) -> x::SeatRoll {
    x::SeatRoll {
        seat: u32::from(r.seat),
        offense: r.offense,
        dice: r
            .dice
            .iter()
            .map(|d| x::RolledDie {
                color: color(d.color) as i32,
                face: face(d.face) as i32,
                rerolled: d.rerolled,
                used: d.used,
                ignored: d.ignored,
                doubled: d.doubled,
            })
            .collect(),
        bonus_hits: u32::from(r.bonus_hits),
    }
}

fn roll_back(r: &x::SeatRoll) -> Result<SeatRoll, WireError> {
    Ok(SeatRoll {
        seat: small(r.seat, "roll.seat")?,
        offense: r.offense,
        dice: r
            .dice
            .iter()
            .map(|d| {
                Ok(RolledDie {
                    color: color_back(d.color)?,
                    face: face_back(d.face)?,
                    rerolled: d.rerolled,
                    used: d.used,
                    ignored: d.ignored,
                    doubled: d.doubled,
                })
            })
            .collect::<Result<_, WireError>>()?,
        bonus_hits: small(r.bonus_hits, "roll.bonus_hits")?,
    })
}

/// The pending step.
pub fn step(p: &Pending) -> x::Step {
    let s = match p {
        Pending::NextPlayer => S::NextPlayer(x::NextPlayerStep {}),
        Pending::Action => S::Action(x::ActionStep {}),
        Pending::FleetInvite { invitee } => S::FleetInvite(x::FleetInviteStep { invitee: u32::from(*invitee) }),
        Pending::Orientation { hex: h, tile, then_jump, anywhere } => S::Orientation(x::OrientationStep {
            hex: Some(hex(*h)),
            tile: u32::from(*tile),
            then_jump: *then_jump,
            anywhere: anywhere.map(u32::from),
        }),
        Pending::RushStep { done, start } => S::Rush(x::RushStep { done: u32::from(*done), start: Some(hex(*start)) }),
        Pending::Detection { seats } => S::Detection(x::DetectionStep { seats: wide(seats) }),
        Pending::CombatCommand => S::CombatCommand(x::CombatCommandStep {}),
        Pending::Manoeuvre { target: t, chosen, before, reserve } => S::Manoeuvre(x::ManoeuvreStep {
            target: Some(target(*t)),
            chosen: chosen
                .iter()
                .map(|&(seat, die)| x::Manoeuvre { seat: u32::from(seat), defense_die: die.map(|c| color(c) as i32) })
                .collect(),
            before: powers(before),
            reserve: reserve
                .iter()
                .map(|&(seat, c)| x::ReserveColor { seat: u32::from(seat), color: color(c) as i32 })
                .collect(),
        }),
        Pending::Maintenance { remaining } => S::Maintenance(x::MaintenanceStep { remaining: wide(remaining) }),
        Pending::KeyCarrier { key } => S::KeyCarrier(x::KeyCarrierStep { key: u32::from(*key) }),
        Pending::Exploration { card, picked, took } => {
            S::Exploration(x::ExplorationStep { card: u32::from(*card), picked: wide(picked), took: wide(took) })
        }
        Pending::RevealAnywhere { left, near } => {
            S::RevealAnywhere(x::RevealAnywhereStep { left: u32::from(*left), near: near.map(hex) })
        }
        Pending::PacifyAnywhere { left } => S::PacifyAnywhere(x::PacifyAnywhereStep { left: u32::from(*left) }),
        Pending::AfterRoll { target: t, rolls, used, grants, ignore_shields, cancel_ability, relayed } => {
            S::AfterRoll(x::AfterRollStep {
                target: Some(target(*t)),
                rolls: rolls.iter().map(roll).collect(),
                used: powers(used),
                grants: grants
                    .iter()
                    .map(|&(seat, g)| x::SeatGrant { seat: u32::from(seat), grant: grant(g) as i32 })
                    .collect(),
                ignore_shields: *ignore_shields,
                cancel_ability: *cancel_ability,
                relayed: *relayed,
            })
        }
        Pending::ChooseMod { seat, level } => {
            S::ChooseMod(x::ChooseModStep { seat: u32::from(*seat), level: u32::from(*level) })
        }
        Pending::GiveModule { card, among } => {
            S::GiveModule(x::GiveModuleStep { card: u32::from(*card), among: wide(among) })
        }
        Pending::ShareScraps { left, rewarded, among } => {
            S::ShareScraps(x::ShareScrapsStep { left: u32::from(*left), rewarded: *rewarded, among: wide(among) })
        }
        Pending::Trade { with_ally, outsider } => {
            S::Trade(x::TradeStep { with_ally: *with_ally, outsider: outsider.map(u32::from) })
        }
        Pending::DiscardModule { seat } => S::DiscardModule(x::DiscardModuleStep { seat: u32::from(*seat) }),
        Pending::MoveExplorationMarker { to, seats } => {
            S::MoveExplorationMarker(x::MoveExplorationMarkerStep { to: Some(hex(*to)), seats: wide(seats) })
        }
        Pending::Over => S::Over(x::OverStep {}),
    };
    x::Step { step: Some(s) }
}

/// A step back.
pub fn step_back(s: Option<&x::Step>) -> Result<Pending, WireError> {
    let s = s.and_then(|s| s.step.as_ref()).ok_or(WireError::Missing("step"))?;
    Ok(match s {
        S::NextPlayer(_) => Pending::NextPlayer,
        S::Action(_) => Pending::Action,
        S::FleetInvite(f) => Pending::FleetInvite { invitee: small(f.invitee, "fleet_invite.invitee")? },
        S::Orientation(o) => Pending::Orientation {
            hex: hex_back(o.hex.as_ref(), "orientation.hex")?,
            tile: small(o.tile, "orientation.tile")?,
            then_jump: o.then_jump,
            anywhere: o.anywhere.map(|a| small(a, "orientation.anywhere")).transpose()?,
        },
        S::Rush(r) => {
            Pending::RushStep { done: small(r.done, "rush.done")?, start: hex_back(r.start.as_ref(), "rush.start")? }
        }
        S::Detection(d) => Pending::Detection { seats: smalls(&d.seats, "detection.seats")? },
        S::CombatCommand(_) => Pending::CombatCommand,
        S::Manoeuvre(m) => Pending::Manoeuvre {
            target: target_back(m.target.as_ref())?,
            chosen: m
                .chosen
                .iter()
                .map(|c| Ok((small(c.seat, "manoeuvre.seat")?, c.defense_die.map(color_back).transpose()?)))
                .collect::<Result<_, WireError>>()?,
            before: powers_back(&m.before)?,
            reserve: m
                .reserve
                .iter()
                .map(|r| Ok((small(r.seat, "manoeuvre.reserve.seat")?, color_back(r.color)?)))
                .collect::<Result<_, WireError>>()?,
        },
        S::Maintenance(m) => Pending::Maintenance { remaining: smalls(&m.remaining, "maintenance.remaining")? },
        S::KeyCarrier(k) => Pending::KeyCarrier { key: small(k.key, "key_carrier.key")? },
        S::Exploration(e) => Pending::Exploration {
            card: small(e.card, "exploration.card")?,
            picked: smalls(&e.picked, "exploration.picked")?,
            took: smalls(&e.took, "exploration.took")?,
        },
        S::RevealAnywhere(r) => Pending::RevealAnywhere {
            left: small(r.left, "reveal_anywhere.left")?,
            near: r.near.as_ref().map(|h| hex_back(Some(h), "reveal_anywhere.near")).transpose()?,
        },
        S::PacifyAnywhere(p) => Pending::PacifyAnywhere { left: small(p.left, "pacify_anywhere.left")? },
        S::AfterRoll(a) => Pending::AfterRoll {
            target: target_back(a.target.as_ref())?,
            rolls: a.rolls.iter().map(roll_back).collect::<Result<_, _>>()?,
            used: powers_back(&a.used)?,
            grants: a
                .grants
                .iter()
                .map(|g| Ok((small(g.seat, "grant.seat")?, grant_back(g.grant)?)))
                .collect::<Result<_, WireError>>()?,
            ignore_shields: a.ignore_shields,
            cancel_ability: a.cancel_ability,
            relayed: a.relayed,
        },
        S::ChooseMod(c) => {
            Pending::ChooseMod { seat: small(c.seat, "choose_mod.seat")?, level: small(c.level, "choose_mod.level")? }
        }
        S::GiveModule(g) => Pending::GiveModule {
            card: small(g.card, "give_module.card")?,
            among: smalls(&g.among, "give_module.among")?,
        },
        S::ShareScraps(s) => Pending::ShareScraps {
            left: small(s.left, "share_scraps.left")?,
            rewarded: s.rewarded,
            among: smalls(&s.among, "share_scraps.among")?,
        },
        S::Trade(t) => Pending::Trade {
            with_ally: t.with_ally,
            outsider: t.outsider.map(|s| small(s, "trade.outsider")).transpose()?,
        },
        S::DiscardModule(d) => Pending::DiscardModule { seat: small(d.seat, "discard_module.seat")? },
        S::MoveExplorationMarker(m) => Pending::MoveExplorationMarker {
            to: hex_back(m.to.as_ref(), "move_exploration_marker.to")?,
            seats: smalls(&m.seats, "move_exploration_marker.seats")?,
        },
        S::Over(_) => Pending::Over,
    })
}
