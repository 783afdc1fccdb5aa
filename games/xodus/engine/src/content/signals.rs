//! Precursor Signals (`content/signals.toml`, rulebook p. 12): tier, the
//! challenge that opens the Key and the effects on reveal; four per tier.

use super::*;

/// Danger level of a Precursor Signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalTier {
    /// Blue cards.
    Hazardous,
    /// Yellow cards.
    Perilous,
    /// Red cards.
    Lethal,
}

/// How a Precursor Signal's Key is reached.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Challenge {
    /// Remove damage markers by `[Repair]` instructions.
    Repairs {
        /// Markers placed on the card.
        amount: u8,
    },
    /// Pay scraps by `[Offer]` instructions.
    Tribute {
        /// Scraps owed.
        amount: u8,
    },
    /// Pass a Skill Roll by `[Attempt]` instructions.
    Trial {
        /// Specials needed.
        amount: u8,
        /// Suffered on a failed attempt.
        #[serde(default)]
        on_fail: Vec<Effect>,
    },
    /// Defeat a guardian engaged by `[Assault]`.
    Guardian {
        /// Minimum level of the guardian.
        amount: u8,
    },
}

/// A Precursor Signal card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignalDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Danger level.
    pub tier: SignalTier,
    /// How the Key is reached.
    pub challenge: Challenge,
    /// Applied when the card is revealed.
    #[serde(default)]
    pub on_reveal: Vec<Effect>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SignalsFile {
    signal: Vec<SignalDef>,
}

pub(super) fn validate_signals(signals: &[SignalDef]) -> Result<(), ContentError> {
    const F: &str = "signals.toml";
    unique_ids(F, signals.iter().map(|s| s.id.as_str()))?;
    for tier in [SignalTier::Hazardous, SignalTier::Perilous, SignalTier::Lethal] {
        if signals.iter().filter(|s| s.tier == tier).count() != 4 {
            return Err(err(F, format!("{tier:?}"), "4 Signals per tier expected"));
        }
    }
    for s in signals {
        let amount = match &s.challenge {
            Challenge::Repairs { amount } | Challenge::Tribute { amount } | Challenge::Trial { amount, .. } => *amount,
            Challenge::Guardian { amount } if *amount > 4 => 0,
            Challenge::Guardian { amount } => *amount,
        };
        if amount == 0 {
            return Err(err(F, &s.id, "challenge amount out of range"));
        }
    }
    Ok(())
}

/// Parses and validates `signals.toml`.
pub(super) fn load(text: &str) -> Result<Vec<SignalDef>, ContentError> {
    let signals = parse::<SignalsFile>("signals.toml", text)?.signal;
    validate_signals(&signals)?;
    Ok(signals)
}
