//! VII Legio's table signals (`legio.v1.LegioSignal`), about landings:
//! read from their packed form and written in the players' words. A signal
//! names no card, so it can tell nothing of a hand.

use tabletop::legio_pb::{self as l, LegioSignalKind as K};

/// The signal packed in `any`.
pub fn read(any: &prost_types::Any) -> Result<l::LegioSignal, String> {
    tabletop::any::unpack::<l::LegioSignal>(any)
        .ok_or_else(|| format!("a VII Legio signal is a legio.v1.LegioSignal, not {}", any.type_url))
}

/// The signal in words ("invite me to your landing in sector 3" for sector
/// index 2), or why it is refused.
pub fn words(signal: &l::LegioSignal) -> Result<String, String> {
    let sector = match signal.sector {
        Some(s) if s > 4 => return Err(format!("sector {s} does not exist: the Red Nebula has sectors 0 to 4")),
        // Sectors are numbered from 1 at the table (S1..S5).
        Some(s) => format!(" in sector {}", s + 1),
        None => String::new(),
    };
    Ok(match K::try_from(signal.kind).unwrap_or(K::Unspecified) {
        K::Unspecified => return Err("the signal's kind is unset or unknown".into()),
        K::InviteMe => format!("invite me to your landing{sector}"),
        K::IWillInvite => format!("I will invite you to my landing{sector}"),
        K::NoDeal => "no deal".into(),
        K::ProposeLanding => {
            if signal.sector.is_none() {
                return Err("a landing proposal names its sector".into());
            }
            format!("land with me{sector}")
        }
        K::Declined => "declined".into(),
    })
}
