//! X-ODUS's table signals (`xodus.v1.XodusSignal`): read from their packed
//! form against the public board, and written in the players' words. The
//! server shows these words on every front-end; AI captains read the typed
//! signal.

use tabletop::xodus_pb::{self as x, XodusSignalKind as K, XodusTarget as T};
use xodus_engine::content::Content;
use xodus_engine::{Hex, Public};

/// A signal that names a system, its hex; why not, when it does not.
fn system(signal: &x::XodusSignal, public: &Public) -> Result<(Hex, String), String> {
    let hex = crate::enums::hex_back(signal.system.as_ref(), "system")
        .map_err(|_| "this signal names a system: set `system` to a revealed tile's hex".to_string())?;
    let tile = public
        .tiles
        .iter()
        .find(|t| t.hex == hex)
        .ok_or_else(|| format!("no revealed system at ({},{})", hex.q, hex.r))?;
    let name = &Content::get().tiles[usize::from(tile.tile)].name;
    Ok((hex, format!("{name} ({},{})", hex.q, hex.r)))
}

/// The signal packed in `any`, checked against the public board.
pub fn read(any: &prost_types::Any) -> Result<x::XodusSignal, String> {
    tabletop::any::unpack::<x::XodusSignal>(any)
        .ok_or_else(|| format!("an X-ODUS signal is a xodus.v1.XodusSignal, not {}", any.type_url))
}

/// The signal in words ("wait for me at Collapsing Star (1,-2)"), or why
/// it is refused (an unknown kind, a system not on the board).
pub fn words(signal: &x::XodusSignal, public: &Public) -> Result<String, String> {
    let kind = K::try_from(signal.kind).unwrap_or(K::Unspecified);
    Ok(match kind {
        K::Unspecified => return Err("the signal's kind is unset or unknown".into()),
        K::HeadingTo => format!("heading to {}", system(signal, public)?.1),
        K::WaitForMe => format!("wait for me at {}", system(signal, public)?.1),
        K::NeedHelp => format!("need help at {}", system(signal, public)?.1),
        K::ITake => {
            let what = match T::try_from(signal.target).unwrap_or(T::Unspecified) {
                T::Key => "the Key",
                T::Signal => "the Signal",
                T::Fight => "the fight",
                T::Unspecified => return Err("an I_TAKE signal names its target: KEY, SIGNAL or FIGHT".into()),
            };
            format!("I take {what} at {}", system(signal, public)?.1)
        }
        K::DontSeal => "don't seal yet".into(),
        K::GoAhead => "go ahead".into(),
        K::Withdraw => "never mind: my calls are off".into(),
    })
}

/// The signal's system, when it names one.
pub fn system_of(signal: &x::XodusSignal) -> Option<Hex> {
    crate::enums::hex_back(signal.system.as_ref(), "system").ok()
}
