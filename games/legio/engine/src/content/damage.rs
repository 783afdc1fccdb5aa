//! The damage table (`content/damage.toml`; rulebook "Combat Spatial"):
//! what a d10 face costs the ship.

use super::*;

/// What a damage roll takes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// One propulsor.
    Propulsor,
    /// One laser.
    Laser,
    /// One squad.
    Squad,
    /// The signal decoder's marker goes back to 0.
    Decoder,
    /// Nothing.
    Nothing,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Band {
    faces: Vec<u8>,
    lose: Loss,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    band: Vec<Band>,
}

pub(super) fn load(text: &str) -> Result<[Loss; 10], ContentError> {
    const F: &str = "damage.toml";
    let bands = parse::<File>(F, text)?.band;
    let mut table: [Option<Loss>; 10] = [None; 10];
    for (i, b) in bands.iter().enumerate() {
        for &f in &b.faces {
            let slot = table
                .get_mut(usize::from(f).wrapping_sub(1))
                .ok_or_else(|| err(F, format!("band {}", i + 1), format!("face {f} is not 1-10")))?;
            if slot.replace(b.lose).is_some() {
                return Err(err(F, format!("band {}", i + 1), format!("face {f} appears twice")));
            }
        }
    }
    let mut out = [Loss::Nothing; 10];
    for (i, t) in table.iter().enumerate() {
        out[i] = t.ok_or_else(|| err(F, "band", format!("face {} has no band", i + 1)))?;
    }
    Ok(out)
}
