//! System tiles (`content/tiles.toml`, rulebook pp. 8-9): each tile's
//! kind, printed lanes and symbols; 31 tiles with the Starting System and
//! the Main Rift among them.

use super::*;

/// The kind of a system tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SystemKind {
    /// Blue tiles: safe, no detection.
    Allied,
    /// Orange tiles: detection rolls, patrols.
    Enemy,
    /// Red tiles: secondary rifts, cannot be explored.
    Corrupt,
    /// The Main Rift, where the Keys are activated.
    MainRift,
}

/// One system tile as printed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileDef {
    /// Stable identifier, e.g. "A01".
    pub id: String,
    /// Display name.
    pub name: String,
    /// Colour of the tile.
    pub kind: SystemKind,
    /// Lane openings, six '0'/'1' characters (E, NE, NW, W, SW, SE).
    pub lanes: String,
    /// An Exploration marker goes here when revealed.
    #[serde(default)]
    pub exploration: bool,
    /// A wormhole is open here.
    #[serde(default)]
    pub wormhole: bool,
    /// The Precursor Key (1-4) whose Signal is found here.
    #[serde(default)]
    pub signal: Option<u8>,
    /// An Ally trades here.
    #[serde(default)]
    pub ally: bool,
    /// Enemy cards drawn when detected here.
    #[serde(default)]
    pub patrol: u8,
    /// Always detected when entering.
    #[serde(default)]
    pub surveillance: bool,
    /// Enemies are drawn from the reserve instead of the deck.
    #[serde(default)]
    pub stronger: bool,
    /// Removed in the 3-ship variant (the white dot).
    #[serde(default)]
    pub three_player_removed: bool,
}

impl TileDef {
    /// Lane openings as booleans, side 0..6 before rotation.
    pub fn lane_mask(&self) -> u8 {
        self.lanes.chars().enumerate().fold(0u8, |m, (i, c)| if c == '1' { m | (1 << i) } else { m })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TilesFile {
    tile: Vec<TileDef>,
}

pub(super) fn validate_tiles(tiles: &[TileDef]) -> Result<(), ContentError> {
    const F: &str = "tiles.toml";
    unique_ids(F, tiles.iter().map(|t| t.id.as_str()))?;
    if tiles.len() > crate::hex::MAX_TILES {
        return Err(err(F, "tiles", format!("at most {} tiles, found {}", crate::hex::MAX_TILES, tiles.len())));
    }
    let count = |k| tiles.iter().filter(|t| t.kind == k).count();
    for (k, n) in
        [(SystemKind::Allied, 12), (SystemKind::Enemy, 12), (SystemKind::Corrupt, 6), (SystemKind::MainRift, 1)]
    {
        if count(k) != n {
            return Err(err(F, format!("{k:?}"), format!("{n} tiles expected, found {}", count(k))));
        }
    }
    let mut keys = Vec::new();
    for t in tiles {
        if t.lanes.len() != 6 || t.lanes.chars().any(|c| c != '0' && c != '1') {
            return Err(err(F, &t.id, "lanes must be six '0'/'1' characters"));
        }
        if t.lane_mask().count_ones() < 2 {
            return Err(err(F, &t.id, "a tile needs at least two lanes"));
        }
        match t.kind {
            SystemKind::Enemy if t.patrol == 0 => {
                return Err(err(F, &t.id, "an Enemy system needs a patrol of 1 or 2"));
            }
            SystemKind::Allied | SystemKind::Corrupt | SystemKind::MainRift
                if t.patrol > 0 || t.surveillance || t.stronger =>
            {
                return Err(err(F, &t.id, "only Enemy systems have patrols, surveillance or stronger enemies"));
            }
            SystemKind::Corrupt | SystemKind::MainRift if t.exploration || t.signal.is_some() || t.ally => {
                return Err(err(F, &t.id, "Corrupt systems and the Main Rift cannot be explored"));
            }
            _ => {}
        }
        if t.patrol > 2 {
            return Err(err(F, &t.id, "a patrol is one or two Enemies"));
        }
        if t.exploration && t.signal.is_some() {
            return Err(err(F, &t.id, "a Signal system takes the Key marker instead of an Exploration marker"));
        }
        if let Some(k) = t.signal {
            if !(1..=4).contains(&k) {
                return Err(err(F, &t.id, "signal must be a Key number 1 to 4"));
            }
            keys.push((k, t.three_player_removed));
        }
    }
    keys.sort();
    if keys.iter().map(|k| k.0).collect::<Vec<_>>() != vec![1, 2, 3, 4] {
        return Err(err(F, "signal", "Keys 1, 2, 3 and 4 must each have exactly one Signal system"));
    }
    if keys.iter().filter(|k| k.1).map(|k| k.0).collect::<Vec<_>>() != vec![4] {
        return Err(err(F, "signal", "only Key 4's Signal system is removed in the 3-ship variant"));
    }
    let removed = |k| tiles.iter().filter(|t| t.kind == k && t.three_player_removed).count();
    if removed(SystemKind::Allied) + removed(SystemKind::Enemy) != 4 || removed(SystemKind::Corrupt) != 1 {
        return Err(err(F, "three_player_removed", "the 3-ship variant removes 4 blue/orange tiles and 1 red tile"));
    }
    let markers = tiles.iter().filter(|t| t.exploration).count();
    if markers > 20 {
        return Err(err(F, "exploration", format!("only 20 Exploration markers exist, {markers} symbols printed")));
    }
    Ok(())
}

/// Parses and validates `tiles.toml`.
pub(super) fn load(text: &str) -> Result<Vec<TileDef>, ContentError> {
    let tiles = parse::<TilesFile>("tiles.toml", text)?.tile;
    validate_tiles(&tiles)?;
    Ok(tiles)
}
