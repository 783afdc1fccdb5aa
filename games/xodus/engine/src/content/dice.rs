//! Dice (`content/dice.toml`): the faces of the three player dice and of
//! the Avatar die.

use super::*;

/// A face of a player die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// A hit.
    Hit,
    /// A miss.
    Miss,
    /// A special symbol.
    Special,
}

/// The three player dice colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DieColor {
    /// Red die.
    Red,
    /// Blue die.
    Blue,
    /// Yellow die.
    Yellow,
}

impl DieColor {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DieColor::Red => "red",
            DieColor::Blue => "blue",
            DieColor::Yellow => "yellow",
        }
    }
}

/// One face of the Avatar die.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AvatarFace {
    /// Systems moved.
    pub moves: u8,
    /// May also travel through wormholes this turn.
    pub wormhole: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerDieDef {
    faces: Vec<Face>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerDice {
    red: PlayerDieDef,
    blue: PlayerDieDef,
    yellow: PlayerDieDef,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DiceFile {
    player: PlayerDice,
    avatar: Vec<AvatarFace>,
}

/// Parses and validates `dice.toml`: the red, blue and yellow faces, then
/// the Avatar die.
pub(super) fn load(text: &str) -> Result<([[Face; 6]; 3], [AvatarFace; 6]), ContentError> {
    let dice: DiceFile = parse("dice.toml", text)?;
    let die = |name: &str, d: PlayerDieDef| -> Result<[Face; 6], ContentError> {
        let faces: [Face; 6] =
            d.faces.try_into().map_err(|_| err("dice.toml", name.to_string(), "a player die needs exactly 6 faces"))?;
        for f in [Face::Hit, Face::Miss, Face::Special] {
            if !faces.contains(&f) {
                return Err(err("dice.toml", name.to_string(), format!("no {f:?} face")));
            }
        }
        Ok(faces)
    };
    let dice_faces = [
        die("player.red", dice.player.red)?,
        die("player.blue", dice.player.blue)?,
        die("player.yellow", dice.player.yellow)?,
    ];
    let avatar_die: [AvatarFace; 6] =
        dice.avatar.try_into().map_err(|_| err("dice.toml", "avatar", "the Avatar die needs exactly 6 faces"))?;
    if avatar_die.iter().any(|f| f.moves > 3) {
        return Err(err("dice.toml", "avatar", "an Avatar die face moves 0 to 3 systems"));
    }
    if !avatar_die.iter().any(|f| f.wormhole) {
        return Err(err("dice.toml", "avatar", "some faces must show the wormhole symbol"));
    }
    Ok((dice_faces, avatar_die))
}
