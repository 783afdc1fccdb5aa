//! The Red Nebula (`content/nebula.toml`; rulebook "La Nébuleuse Rouge",
//! "Se déplacer", "Explorer le secteur X"): sectors, zones, discovery limits
//! per number of commanders, borders and their costs.

use super::*;

/// A sector's index: 0..=4 are S1..S5, [`SECTOR_X`] is Sector X.
pub type Sector = u8;

/// Sector X's index.
pub const SECTOR_X: Sector = 5;

/// The Star Base's sector (S1).
pub const BASE: Sector = 0;

/// One of S1..S5.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectorDef {
    /// `s1`..`s5`.
    pub id: String,
    /// Exploration zone: A or B.
    pub zone: Pile,
    /// Discovery limit with 2, 3 and 4 commanders.
    pub planets: [u8; 3],
}

/// A border between two sectors.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BorderDef {
    /// The two sectors' ids.
    pub between: [String; 2],
    /// Cards to cross it.
    pub cost: u8,
}

/// Sector X's access costs.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectorXDef {
    /// Cards to enter from anywhere.
    pub enter_cost: u8,
    /// Cards to leave, to the Star Base.
    pub leave_cost: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    sector: Vec<SectorDef>,
    border: Vec<BorderDef>,
    sector_x: SectorXDef,
}

/// The map, validated.
#[derive(Clone, Debug)]
pub struct Nebula {
    /// S1..S5.
    pub sectors: Vec<SectorDef>,
    /// Crossing cost between sectors (`None`: not neighbours).
    pub cost: [[Option<u8>; 5]; 5],
    /// Sector X.
    pub x: SectorXDef,
}

impl Nebula {
    /// The discovery limit of a sector for a number of commanders.
    pub fn limit(&self, sector: Sector, players: usize) -> u8 {
        self.sectors.get(usize::from(sector)).map_or(0, |s| s.planets[players.clamp(2, 4) - 2])
    }

    /// The zone of a sector (X has none: `None`).
    pub fn zone(&self, sector: Sector) -> Option<Pile> {
        self.sectors.get(usize::from(sector)).map(|s| s.zone)
    }
}

pub(super) fn load(text: &str) -> Result<Nebula, ContentError> {
    const F: &str = "nebula.toml";
    let file = parse::<File>(F, text)?;
    let ids: Vec<&str> = file.sector.iter().map(|s| s.id.as_str()).collect();
    if ids != ["s1", "s2", "s3", "s4", "s5"] {
        return Err(err(F, "sector", "sectors s1..s5, in order"));
    }
    for s in &file.sector {
        if s.zone == Pile::X || s.planets.contains(&0) || s.planets.windows(2).any(|w| w[0] > w[1]) {
            return Err(err(F, &s.id, "zone a or b, and non-decreasing limits from 1"));
        }
    }
    let total: [u32; 3] = std::array::from_fn(|i| file.sector.iter().map(|s| u32::from(s.planets[i])).sum::<u32>());
    if total[2] > 50 {
        return Err(err(F, "sector", "no more discoveries than the 50 explored-planet tokens"));
    }
    let mut cost = [[None; 5]; 5];
    for b in &file.border {
        let name = format!("border {}-{}", b.between[0], b.between[1]);
        let find = |id: &str| ids.iter().position(|&s| s == id);
        let (Some(x), Some(y)) = (find(&b.between[0]), find(&b.between[1])) else {
            return Err(err(F, name, "unknown sector"));
        };
        if x == y || b.cost == 0 || cost[x][y].is_some() {
            return Err(err(F, name, "two different sectors, once, at a cost from 1"));
        }
        cost[x][y] = Some(b.cost);
        cost[y][x] = Some(b.cost);
    }
    // Every sector is reachable from the Star Base.
    let mut seen = [false; 5];
    let mut todo = vec![0usize];
    while let Some(s) = todo.pop() {
        if !std::mem::replace(&mut seen[s], true) {
            todo.extend((0..5).filter(|&t| cost[s][t].is_some()));
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(err(F, ids[i], "not reachable from the Star Base"));
    }
    Ok(Nebula { sectors: file.sector, cost, x: file.sector_x })
}
