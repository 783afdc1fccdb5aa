//! Experiment hook: evaluation weights overridden at run time from the
//! environment variable `XODUS_AI_TUNE` ("name=value,name=value"), read
//! once. Unset (the normal case), every weight keeps its built-in value.
//! It exists so weight sweeps by self-play need no rebuild; see NOTES.md.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The variable holding the overrides.
pub const VAR: &str = "XODUS_AI_TUNE";

fn overrides() -> &'static HashMap<String, f64> {
    static CELL: OnceLock<HashMap<String, f64>> = OnceLock::new();
    CELL.get_or_init(|| std::env::var(VAR).map(|s| parse(&s)).unwrap_or_default())
}

/// Parses "a=1.5,b=2"; malformed pairs are ignored with a warning.
fn parse(s: &str) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match pair.split_once('=').map(|(k, v)| (k.trim(), v.trim().parse::<f64>())) {
            Some((k, Ok(v))) => {
                out.insert(k.to_string(), v);
            }
            _ => tracing::warn!(pair, "ignoring a malformed {VAR} entry"),
        }
    }
    out
}

/// The weight `name`: its override if one is set, else `default`.
pub fn weight(name: &str, default: f64) -> f64 {
    // Unset is the normal case, and the evaluation asks for weights by
    // the million: no hashing then.
    let map = overrides();
    if map.is_empty() {
        return default;
    }
    map.get(name).copied().unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pairs_and_skips_malformed_ones() {
        let m = parse("avatar=1.5, lost_turn = 4,bad,x=y");
        assert_eq!(m.get("avatar"), Some(&1.5));
        assert_eq!(m.get("lost_turn"), Some(&4.0));
        assert_eq!(m.len(), 2);
    }
}
