//! An engine choice as the typed `xodus.v1.XodusChoice`: what an option
//! does and what it aims at.

use crate::enums::*;
use crate::step::{source, target};
use tabletop::xodus_pb as x;
use xodus_engine::Choice;

/// The typed form of a choice.
pub fn typed(c: &Choice) -> x::XodusChoice {
    typed_with_json(c, &serde_json::to_string(c).unwrap_or_default())
}

/// The typed form of a choice whose JSON (`serde_json::to_string`) the
/// caller already has: the action's name is read from it.
pub fn typed_with_json(c: &Choice, json: &str) -> x::XodusChoice {
    let action =
        variant(json).map(str::to_string).unwrap_or_else(|| match serde_json::from_str::<serde_json::Value>(json) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
            _ => String::new(),
        });
    let mut t = x::XodusChoice { action, ..Default::default() };
    let n = u32::from;
    match c {
        Choice::StartTurn { seat }
        | Choice::Invite { seat }
        | Choice::Strain { seat }
        | Choice::Offense { seat }
        | Choice::DisengageOneHides { seat }
        | Choice::CarryKey { seat }
        | Choice::ReceiveModule { seat }
        | Choice::ScrapTo { seat } => t.seat = Some(n(*seat)),
        Choice::Probe { hex: h }
        | Choice::BlindJump { hex: h }
        | Choice::Jump { hex: h }
        | Choice::RushTo { hex: h }
        | Choice::RevealAt { hex: h }
        | Choice::PacifyAt { hex: h }
        | Choice::TakeExplorationMarker { hex: h } => t.hex = Some(hex(*h)),
        Choice::ScavengeKeys { from, to } => {
            t.from_seat = Some(n(*from));
            t.to_seat = Some(n(*to));
        }
        Choice::GiveScraps { from, to, amount } => {
            t.from_seat = Some(n(*from));
            t.to_seat = Some(n(*to));
            t.amount = Some(n(*amount));
        }
        Choice::GiveKey { from, to, key } => {
            t.from_seat = Some(n(*from));
            t.to_seat = Some(n(*to));
            t.key = Some(n(*key));
        }
        Choice::Orient { rotation } => t.rotation = Some(n(*rotation)),
        Choice::Attack { target: tg } => t.target = Some(target(*tg)),
        Choice::Defense { seat, die } => {
            t.seat = Some(n(*seat));
            t.die_color = color(*die) as i32;
        }
        Choice::Repair { target } | Choice::AllySkill { target } => t.target_seat = Some(n(*target)),
        Choice::RemoveDamaged { target, card } | Choice::AllyRemoveDamaged { target, card } => {
            t.target_seat = Some(n(*target));
            t.card = Some(n(*card));
        }
        Choice::PickOption { option } => t.option = Some(n(*option)),
        Choice::PickOptionFor { option, seats } => {
            t.option = Some(n(*option));
            t.seats = wide(seats);
        }
        Choice::Activate { seat, source: s, die, color: reserve } => {
            t.seat = Some(n(*seat));
            t.source = Some(source(*s));
            if let Some((owner, index)) = die {
                t.die_seat = Some(n(*owner));
                t.die_index = Some(n(*index));
            }
            if let Some(c) = reserve {
                t.die_color = color(*c) as i32;
            }
        }
        Choice::UseGrant { seat, grant: g, die } => {
            t.seat = Some(n(*seat));
            t.grant = grant(*g) as i32;
            t.die_index = Some(n(*die));
        }
        Choice::DiscardMod { effect } => t.mod_effect = Some(n(*effect)),
        Choice::ChooseMod { seat, effect } => {
            t.seat = Some(n(*seat));
            t.mod_effect = Some(n(*effect));
        }
        Choice::Buy { item, receiver } => {
            t.item = Some(n(*item));
            t.to_seat = Some(n(*receiver));
        }
        Choice::GiveModule { from, to, module } => {
            t.from_seat = Some(n(*from));
            t.to_seat = Some(n(*to));
            t.module = Some(n(*module));
        }
        Choice::Salvage { module } | Choice::DiscardModule { module } => t.module = Some(n(*module)),
        Choice::Rush
        | Choice::Explore
        | Choice::Instruction
        | Choice::Scavenge
        | Choice::Pacify
        | Choice::Maintenance
        | Choice::EndTurn
        | Choice::Accept
        | Choice::Decline
        | Choice::RollDetection
        | Choice::EngageVoluntarily
        | Choice::Disengage
        | Choice::DisengageAndHide
        | Choice::BuyEnergy
        | Choice::SkipMaintenance
        | Choice::FinishExploration
        | Choice::SkipEffect
        | Choice::ResolveAttack
        | Choice::Trade
        | Choice::EndTrade => {}
    }
    t
}

/// The variant name of an externally tagged enum's JSON: `"end_turn"` or
/// `{"jump":{...}}`. `None` for any other shape, or an escaped name.
fn variant(json: &str) -> Option<&str> {
    let rest = json.strip_prefix('"').or_else(|| json.strip_prefix("{\""))?;
    let name = &rest[..rest.find('"')?];
    (!name.contains('\\')).then_some(name)
}
