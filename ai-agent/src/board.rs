//! The board as the AI sees it: lane and wormhole adjacency over the
//! public tiles, breadth-first distances, and the frontier (open lanes
//! facing empty space, where probes reveal new systems). Recomputed from
//! `Public` so it works on a view as well as on a determinized game.

use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{Hex, PlacedTile, Public};

/// Direction index opposite to `d` (hex directions 0..6).
fn opposite(d: u8) -> u8 {
    (d + 3) % 6
}

/// Side of the square lookup grid (axial coordinates offset by half).
const GRID: usize = 48;

/// Graph over the revealed systems of one public state.
pub struct Board<'a> {
    tiles: &'a [PlacedTile],
    content: &'static Content,
    /// Tile index + 1 by grid cell (0 = empty space).
    grid: Vec<u8>,
}

fn cell(hex: Hex) -> Option<usize> {
    let q = usize::try_from(i32::from(hex.q) + (GRID / 2) as i32).ok()?;
    let r = usize::try_from(i32::from(hex.r) + (GRID / 2) as i32).ok()?;
    (q < GRID && r < GRID).then_some(q * GRID + r)
}

impl<'a> Board<'a> {
    /// The board of a public state.
    pub fn new(pb: &'a Public) -> Board<'a> {
        let mut grid = vec![0u8; GRID * GRID];
        for (i, t) in pb.tiles.iter().enumerate() {
            if let Some(c) = cell(t.hex) {
                grid[c] = u8::try_from(i + 1).unwrap_or(0);
            }
        }
        Board { tiles: &pb.tiles, content: Content::get(), grid }
    }

    /// Index into `Public::tiles` of the system at `hex`.
    pub fn index(&self, hex: Hex) -> Option<usize> {
        match cell(hex).map(|c| self.grid[c]) {
            Some(0) | None => None,
            Some(i) => Some(usize::from(i) - 1),
        }
    }

    /// Kind of the system at `hex`, if revealed.
    pub fn kind(&self, hex: Hex) -> Option<SystemKind> {
        self.index(hex).and_then(|i| self.content.tiles.get(self.tiles[i].tile as usize)).map(|d| d.kind)
    }

    fn wormhole(&self, i: usize) -> bool {
        self.content.tiles.get(self.tiles[i].tile as usize).is_some_and(|d| d.wormhole)
    }

    /// Indices of the systems joined to tile `i` by a hyperspace lane.
    fn lane_neighbors(&self, i: usize, out: &mut Vec<usize>) {
        out.clear();
        let t = &self.tiles[i];
        for d in 0..6u8 {
            if t.lanes & (1 << d) == 0 {
                continue;
            }
            let n = t.hex.neighbor(d);
            if let Some(j) = self.index(n)
                && self.tiles[j].lanes & (1 << opposite(d)) != 0
            {
                out.push(j);
            }
        }
    }

    /// Indices of the systems a ship may jump to from tile `i`.
    fn neighbors(&self, i: usize, out: &mut Vec<usize>) {
        self.lane_neighbors(i, out);
        if self.wormhole(i) {
            for j in 0..self.tiles.len() {
                if j != i && self.wormhole(j) && !out.contains(&j) {
                    out.push(j);
                }
            }
        }
    }

    /// Whether tile `i` holds an open rift (Corrupt system or a created
    /// rift, not disabled): Avatars travel between all of them at once.
    pub fn is_rift(&self, i: usize) -> bool {
        let t = &self.tiles[i];
        let corrupt = self.content.tiles.get(t.tile as usize).is_some_and(|d| d.kind == SystemKind::Corrupt);
        (corrupt || t.rift_created) && !t.rift_disabled
    }

    /// Whether tile `i` is the Main Rift, where Keys are activated.
    pub fn is_main_rift(&self, i: usize) -> bool {
        self.content.tiles.get(self.tiles[i].tile as usize).is_some_and(|d| d.kind == SystemKind::MainRift)
    }

    /// Avatar move distances from tile `from` (lanes, and every rift next
    /// to every other; wormholes left out, the die grants them rarely).
    pub fn avatar_distances(&self, from: usize) -> Vec<Option<u8>> {
        let mut dist = vec![None; self.tiles.len()];
        if from >= self.tiles.len() {
            return dist;
        }
        let rifts: Vec<usize> = (0..self.tiles.len()).filter(|&j| self.is_rift(j)).collect();
        dist[from] = Some(0);
        let mut queue = std::collections::VecDeque::from([from]);
        let mut nb = Vec::new();
        while let Some(i) = queue.pop_front() {
            let d = dist[i].unwrap_or(0);
            self.lane_neighbors(i, &mut nb);
            if self.is_rift(i) {
                nb.extend(rifts.iter().copied().filter(|&j| j != i));
            }
            for &j in &nb {
                if dist[j].is_none() {
                    dist[j] = Some(d + 1);
                    queue.push_back(j);
                }
            }
        }
        dist
    }

    /// Jump distances from `from` to every revealed system (`None` when
    /// unreachable), indexed like `Public::tiles`.
    pub fn distances(&self, from: Hex) -> Vec<Option<u8>> {
        let mut dist = vec![None; self.tiles.len()];
        let Some(s) = self.index(from) else { return dist };
        dist[s] = Some(0);
        let mut queue = std::collections::VecDeque::from([s]);
        let mut nb = Vec::new();
        while let Some(i) = queue.pop_front() {
            let d = dist[i].unwrap_or(0);
            self.neighbors(i, &mut nb);
            for &j in &nb {
                if dist[j].is_none() {
                    dist[j] = Some(d + 1);
                    queue.push_back(j);
                }
            }
        }
        dist
    }

    /// Whether tile `i` has an open lane facing an empty space.
    pub fn is_frontier(&self, i: usize) -> bool {
        let t = &self.tiles[i];
        (0..6u8).any(|d| t.lanes & (1 << d) != 0 && self.index(t.hex.neighbor(d)).is_none())
    }

    /// Number of revealed systems.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether nothing is revealed.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The tile at index `i`.
    pub fn tile(&self, i: usize) -> &PlacedTile {
        &self.tiles[i]
    }
}
