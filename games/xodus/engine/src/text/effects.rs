//! The immediate effects that Exploration cards and Precursor Signals
//! apply to the group that meets them.

use super::words::{count, list};
use crate::content::Effect;

/// One effect as a clause, e.g. "each ship loses 2 health".
pub fn effect(e: &Effect) -> String {
    match *e {
        Effect::LoseHealth { amount } => format!("each ship of the group loses {amount} health"),
        Effect::Damaged => "each ship of the group draws a Damaged card".into(),
        Effect::AdvanceCorruption => "the Corruption marker advances one space at once".into(),
        Effect::AvatarMovesUp => "the Avatars move one system further this turn".into(),
        Effect::AvatarMovesDown => "the Avatars move one system less this turn".into(),
        Effect::CreateRift => "a rift opens in the group's system".into(),
        Effect::EndTurn => "the group's turn ends".into(),
        Effect::RecoverHealth { amount } => format!("each ship of the group recovers {amount} health"),
        Effect::RecoverEnergy => "each ship of the group recovers all its energy".into(),
        Effect::GainScraps { amount } => {
            format!("the group gains {} to share out", count(amount, "scrap", "scraps"))
        }
        Effect::RevealSystems { amount } => format!("the group reveals {}", reveal(amount)),
        Effect::PacifySystems { amount } => format!(
            "the group pacifies {} anywhere on the board",
            count(amount, "revealed Enemy system", "revealed Enemy systems")
        ),
        Effect::DisableRift => "the rift in the group's system is disabled with a white Rift marker".into(),
        Effect::GainModule => "the group gains a free Ship Module and decides which ship takes it".into(),
        Effect::GainPrecursorModule => {
            "the group gains a free Precursor Ship Module and decides which ship takes it".into()
        }
        Effect::NewAlly => "an Ally not chosen at setup joins the game in this system".into(),
    }
}

/// Systems revealed anywhere: "2 systems anywhere on the board, each next
/// to a revealed one".
pub fn reveal(amount: u8) -> String {
    match amount {
        1 => "1 system anywhere on the board, next to a revealed one".into(),
        n => format!("{n} systems anywhere on the board, each next to a revealed one"),
    }
}

/// Several effects as one clause; "nothing happens" when there are none.
pub fn effects(es: &[Effect]) -> String {
    if es.is_empty() {
        return "nothing happens".into();
    }
    list(&es.iter().map(effect).collect::<Vec<_>>())
}
