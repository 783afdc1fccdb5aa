//! The pending step and the queued tasks as `legio.v1.Step` and
//! `legio.v1.Task`, and back.

use crate::WireError;
use crate::enums::*;
use legio_engine::{Pending, Purpose, Task};
use tabletop::legio_pb as l;

fn purpose(p: Purpose) -> l::Purpose {
    use l::PurposeKind as K;
    let mut t = l::Purpose::default();
    let kind = match p {
        Purpose::Recruit(x) => {
            t.personnel = personnel(x) as i32;
            K::Recruit
        }
        Purpose::Equip(g) => {
            t.gear = gear(g) as i32;
            K::Equip
        }
        Purpose::Move(s) => {
            t.sector = Some(u32::from(s));
            K::Move
        }
        Purpose::EnterX => K::EnterX,
        Purpose::LeaveX => K::LeaveX,
        Purpose::Decode(s) => {
            t.slot = Some(u32::from(s));
            K::Decode
        }
        Purpose::Risk(c) => {
            t.card = Some(u32::from(c));
            K::Risk
        }
    };
    t.kind = kind as i32;
    t
}

fn purpose_back(p: Option<&l::Purpose>) -> Result<Purpose, WireError> {
    use l::PurposeKind as K;
    let p = p.ok_or(WireError::Missing("step.purpose"))?;
    let need = |v: Option<u32>, f: &'static str| v.ok_or(WireError::Missing(f)).and_then(|v| small(v, f));
    Ok(match K::try_from(p.kind) {
        Ok(K::Recruit) => Purpose::Recruit(personnel_back(p.personnel, "purpose.personnel")?),
        Ok(K::Equip) => Purpose::Equip(gear_back(p.gear, "purpose.gear")?),
        Ok(K::Move) => Purpose::Move(need(p.sector, "purpose.sector")?),
        Ok(K::EnterX) => Purpose::EnterX,
        Ok(K::LeaveX) => Purpose::LeaveX,
        Ok(K::Decode) => Purpose::Decode(need(p.slot, "purpose.slot")?),
        Ok(K::Risk) => Purpose::Risk(need(p.card, "purpose.card")?),
        _ => return Err(WireError::OutOfRange("purpose.kind")),
    })
}

/// The pending step.
pub fn step(p: &Pending) -> l::Step {
    use l::StepKind as K;
    let mut t = l::Step { seat: p.seat().map(u32::from), ..Default::default() };
    let kind = match *p {
        Pending::Settling => K::Settling,
        Pending::Profile { promotion, .. } => {
            t.promotion = promotion;
            K::Profile
        }
        Pending::Expert { promotion, .. } => {
            t.promotion = promotion;
            K::Expert
        }
        Pending::KeepObjective { .. } => K::KeepObjective,
        Pending::Draw { .. } => K::Draw,
        Pending::Turn { .. } => K::Turn,
        Pending::Pay { left, purpose: pu, .. } => {
            t.left = u32::from(left);
            t.purpose = Some(purpose(pu));
            K::Pay
        }
        Pending::Contact { planet, .. } => {
            t.planet = Some(u32::from(planet));
            K::Contact
        }
        Pending::Combat { card, .. } => {
            t.card = Some(u32::from(card));
            K::Combat
        }
        Pending::Invite { .. } => K::Invite,
        Pending::Answer { .. } => K::Answer,
        Pending::Confirm { .. } => K::Confirm,
        Pending::Domain { .. } => K::Domain,
        Pending::Spend { amount, .. } => {
            t.amount = u32::from(amount);
            K::Spend
        }
        Pending::Star { .. } => K::Star,
        Pending::Dismiss { .. } => K::Dismiss,
        Pending::Tech { .. } => K::Tech,
        Pending::ChooseX { .. } => K::ChooseX,
        Pending::Over => K::Over,
    };
    t.kind = kind as i32;
    t
}

/// The pending step back.
pub fn step_back(s: Option<&l::Step>) -> Result<Pending, WireError> {
    use l::StepKind as K;
    let s = s.ok_or(WireError::Missing("step"))?;
    let seat = || s.seat.ok_or(WireError::Missing("step.seat")).and_then(|v| small(v, "step.seat"));
    let need = |v: Option<u32>, f: &'static str| v.ok_or(WireError::Missing(f)).and_then(|v| small(v, f));
    Ok(match K::try_from(s.kind) {
        Ok(K::Settling) => Pending::Settling,
        Ok(K::Profile) => Pending::Profile { seat: seat()?, promotion: s.promotion },
        Ok(K::Expert) => Pending::Expert { seat: seat()?, promotion: s.promotion },
        Ok(K::KeepObjective) => Pending::KeepObjective { seat: seat()? },
        Ok(K::Draw) => Pending::Draw { seat: seat()? },
        Ok(K::Turn) => Pending::Turn { seat: seat()? },
        Ok(K::Pay) => Pending::Pay {
            seat: seat()?,
            left: small(s.left, "step.left")?,
            purpose: purpose_back(s.purpose.as_ref())?,
        },
        Ok(K::Contact) => Pending::Contact { seat: seat()?, planet: need(s.planet, "step.planet")? },
        Ok(K::Combat) => Pending::Combat { seat: seat()?, card: need(s.card, "step.card")? },
        Ok(K::Invite) => Pending::Invite { seat: seat()? },
        Ok(K::Answer) => Pending::Answer { seat: seat()? },
        Ok(K::Confirm) => Pending::Confirm { seat: seat()? },
        Ok(K::Domain) => Pending::Domain { seat: seat()? },
        Ok(K::Spend) => Pending::Spend { seat: seat()?, amount: small(s.amount, "step.amount")? },
        Ok(K::Star) => Pending::Star { seat: seat()? },
        Ok(K::Dismiss) => Pending::Dismiss { seat: seat()? },
        Ok(K::Tech) => Pending::Tech { seat: seat()? },
        Ok(K::ChooseX) => Pending::ChooseX { seat: seat()? },
        Ok(K::Over) => Pending::Over,
        _ => return Err(WireError::OutOfRange("step.kind")),
    })
}

/// A queued task.
pub fn task(t: &Task) -> l::Task {
    use l::TaskKind as K;
    let (kind, seat) = match *t {
        Task::Profile(s) => (K::Profile, Some(s)),
        Task::StartingExpert(s) => (K::StartingExpert, Some(s)),
        Task::Objective(s) => (K::Objective, Some(s)),
        Task::StartTurn(s) => (K::StartTurn, Some(s)),
        Task::Draw(s) => (K::Draw, Some(s)),
        Task::Answer(s) => (K::Answer, Some(s)),
        Task::Confirm => (K::Confirm, None),
        Task::Domain(s) => (K::Domain, Some(s)),
        Task::Experience => (K::Experience, None),
        Task::Spend(s) => (K::Spend, Some(s)),
        Task::Award => (K::Award, None),
        Task::Star(s) => (K::Star, Some(s)),
        Task::Dismiss(s) => (K::Dismiss, Some(s)),
        Task::Leave => (K::Leave, None),
        Task::Tech(s) => (K::Tech, Some(s)),
        Task::Promote(s) => (K::Promote, Some(s)),
        Task::PromotionProfile(s) => (K::PromotionProfile, Some(s)),
        Task::PromotionExpert(s) => (K::PromotionExpert, Some(s)),
    };
    l::Task { kind: kind as i32, seat: seat.map(u32::from) }
}

/// A queued task back.
pub fn task_back(t: &l::Task) -> Result<Task, WireError> {
    use l::TaskKind as K;
    let seat = || t.seat.ok_or(WireError::Missing("task.seat")).and_then(|v| small(v, "task.seat"));
    Ok(match K::try_from(t.kind) {
        Ok(K::Profile) => Task::Profile(seat()?),
        Ok(K::StartingExpert) => Task::StartingExpert(seat()?),
        Ok(K::Objective) => Task::Objective(seat()?),
        Ok(K::StartTurn) => Task::StartTurn(seat()?),
        Ok(K::Draw) => Task::Draw(seat()?),
        Ok(K::Answer) => Task::Answer(seat()?),
        Ok(K::Confirm) => Task::Confirm,
        Ok(K::Domain) => Task::Domain(seat()?),
        Ok(K::Experience) => Task::Experience,
        Ok(K::Spend) => Task::Spend(seat()?),
        Ok(K::Award) => Task::Award,
        Ok(K::Star) => Task::Star(seat()?),
        Ok(K::Dismiss) => Task::Dismiss(seat()?),
        Ok(K::Leave) => Task::Leave,
        Ok(K::Tech) => Task::Tech(seat()?),
        Ok(K::Promote) => Task::Promote(seat()?),
        Ok(K::PromotionProfile) => Task::PromotionProfile(seat()?),
        Ok(K::PromotionExpert) => Task::PromotionExpert(seat()?),
        _ => return Err(WireError::OutOfRange("task.kind")),
    })
}
