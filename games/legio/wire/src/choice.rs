//! An engine choice as the typed `legio.v1.LegioChoice` (the oneof field
//! set is named like the option id's first word), and back.

use crate::WireError;
use crate::enums::*;
use legio_engine::Choice;
use tabletop::legio_pb as l;

/// The typed form of a choice.
pub fn typed(c: &Choice) -> l::LegioChoice {
    use l::legio_choice::Choice as T;
    let n = u32::from;
    let t = match *c {
        Choice::Profile(p) => T::Profile(n(p)),
        Choice::Expert(k) => T::Expert(expert(k) as i32),
        Choice::Objective(o) => T::Objective(n(o)),
        Choice::Draw(k) => T::Draw(n(k)),
        Choice::BigDiscover => T::DiscardAllToDiscover(true),
        Choice::Recruit(p) => T::Recruit(personnel(p) as i32),
        Choice::Equip(g) => T::Equip(gear(g) as i32),
        Choice::Move(s) => T::Move(n(s)),
        Choice::EnterX => T::EnterSectorX(true),
        Choice::LeaveX => T::LeaveSectorX(true),
        Choice::Decode(s) => T::Decode(n(s)),
        Choice::Explore(card) => T::Explore(n(card)),
        Choice::Land(p) => T::Land(n(p)),
        Choice::Repair => T::Repair(true),
        Choice::DeclareEnd => T::DeclareEnd(true),
        Choice::EndTurn => T::EndTurn(true),
        Choice::Pay(card) => T::Discard(n(card)),
        Choice::Contact(s) => T::Contact(n(s)),
        Choice::Fight => T::Fight(true),
        Choice::Evade => T::Evade(true),
        Choice::Invite(s) => T::Invite(n(s)),
        Choice::SendInvitations => T::SendInvitations(true),
        Choice::Accept => T::Accept(true),
        Choice::Decline => T::Decline(true),
        Choice::LandNow => T::LandNow(true),
        Choice::LandWithImperator => T::LandWithImperator(true),
        Choice::Abort => T::AbortLanding(true),
        Choice::Domain(d) => T::Domain(domain(d) as i32),
        Choice::Spend { adventurers, points } => T::Spend(l::Spend { adventurers: n(adventurers), points: n(points) }),
        Choice::Leave { counts: [squads, diplomats, adventurers, hunters] } => T::Leave(l::Leave {
            squads: n(squads),
            diplomats: n(diplomats),
            adventurers: n(adventurers),
            hunters: n(hunters),
        }),
        Choice::Stay => T::LeaveNobody(true),
        Choice::Dismiss(p) => T::Dismiss(personnel(p) as i32),
        Choice::Keep => T::DismissNobody(true),
        Choice::Tech(t) => T::Tech(tech(t) as i32),
        Choice::XCard(card) => T::XCard(n(card)),
    };
    l::LegioChoice { choice: Some(t), price: None }
}

/// The typed form of an offered option: the choice with its price (unset
/// when it costs and brings nothing at once).
pub fn typed_priced(c: &Choice, p: &legio_engine::Price) -> l::LegioChoice {
    let price = (!p.is_free()).then(|| l::Price {
        cards: u32::from(p.cards),
        whole_hand: p.whole_hand,
        pc: p.pc,
        px: u32::from(p.px),
    });
    l::LegioChoice { price, ..typed(c) }
}

/// The engine choice a typed one names (for clients that send structured
/// choices; `choice_back(&typed(c))` is `c`).
pub fn choice_back(t: &l::LegioChoice) -> Result<Choice, WireError> {
    use l::legio_choice::Choice as T;
    let f = "choice";
    Ok(match t.choice.as_ref().ok_or(WireError::Missing("choice"))? {
        T::Profile(p) => Choice::Profile(small(*p, f)?),
        T::Expert(k) => Choice::Expert(expert_back(*k, f)?),
        T::Objective(o) => Choice::Objective(small(*o, f)?),
        T::Draw(k) => Choice::Draw(small(*k, f)?),
        T::DiscardAllToDiscover(_) => Choice::BigDiscover,
        T::Recruit(p) => Choice::Recruit(personnel_back(*p, f)?),
        T::Equip(g) => Choice::Equip(gear_back(*g, f)?),
        T::Move(s) => Choice::Move(small(*s, f)?),
        T::EnterSectorX(_) => Choice::EnterX,
        T::LeaveSectorX(_) => Choice::LeaveX,
        T::Decode(s) => Choice::Decode(small(*s, f)?),
        T::Explore(c) => Choice::Explore(small(*c, f)?),
        T::Land(p) => Choice::Land(small(*p, f)?),
        T::Repair(_) => Choice::Repair,
        T::DeclareEnd(_) => Choice::DeclareEnd,
        T::EndTurn(_) => Choice::EndTurn,
        T::Discard(c) => Choice::Pay(small(*c, f)?),
        T::Contact(s) => Choice::Contact(small(*s, f)?),
        T::Fight(_) => Choice::Fight,
        T::Evade(_) => Choice::Evade,
        T::Invite(s) => Choice::Invite(small(*s, f)?),
        T::SendInvitations(_) => Choice::SendInvitations,
        T::Accept(_) => Choice::Accept,
        T::Decline(_) => Choice::Decline,
        T::LandNow(_) => Choice::LandNow,
        T::LandWithImperator(_) => Choice::LandWithImperator,
        T::AbortLanding(_) => Choice::Abort,
        T::Domain(d) => Choice::Domain(domain_back(*d, f)?.ok_or(WireError::OutOfRange(f))?),
        T::Spend(s) => Choice::Spend { adventurers: small(s.adventurers, f)?, points: small(s.points, f)? },
        T::Leave(x) => Choice::Leave {
            counts: [small(x.squads, f)?, small(x.diplomats, f)?, small(x.adventurers, f)?, small(x.hunters, f)?],
        },
        T::LeaveNobody(_) => Choice::Stay,
        T::Dismiss(p) => Choice::Dismiss(personnel_back(*p, f)?),
        T::DismissNobody(_) => Choice::Keep,
        T::Tech(t) => Choice::Tech(tech_back(*t, f)?),
        T::XCard(c) => Choice::XCard(small(*c, f)?),
    })
}
