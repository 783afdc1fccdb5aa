//! The Corruption mat (`content/corruption.toml`, rulebook p. 17): its
//! two sides, for four ships and for three.

use super::*;

/// One side of the Corruption mat.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MatSide {
    /// Index of the Rise of the Corruption space.
    pub rise: u8,
    /// Spaces holding an Avatar token at setup.
    pub avatar_spaces: Vec<u8>,
    /// Extra reinforcement spaces of the first, mistaken mat, kept for
    /// configurations stored before the fix (see
    /// [`crate::GameConfig::legacy_reinforcements`]).
    pub legacy_reinforcements: Vec<u8>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MatFile {
    four_ships: MatSide,
    three_ships: MatSide,
}

pub(super) fn validate_mat(name: &str, m: &MatSide, avatars: usize) -> Result<(), ContentError> {
    const F: &str = "corruption.toml";
    if m.avatar_spaces.len() != avatars {
        return Err(err(F, name, format!("{avatars} Avatar spaces expected")));
    }
    for &s in m.avatar_spaces.iter().chain(&m.legacy_reinforcements) {
        if s == 0 || s > m.rise {
            return Err(err(F, name, format!("space {s} is off the timeline (1..={})", m.rise)));
        }
    }
    if m.legacy_reinforcements.iter().any(|r| m.avatar_spaces.contains(r)) {
        return Err(err(F, name, "a legacy reinforcement and an Avatar space share a space"));
    }
    Ok(())
}

/// Parses and validates `corruption.toml`: the four-ship side, then the
/// three-ship side.
pub(super) fn load(text: &str) -> Result<(MatSide, MatSide), ContentError> {
    let mat: MatFile = parse("corruption.toml", text)?;
    validate_mat("four_ships", &mat.four_ships, 3)?;
    validate_mat("three_ships", &mat.three_ships, 2)?;
    Ok((mat.four_ships, mat.three_ships))
}
