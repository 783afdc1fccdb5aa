//! The board as the AI sees it: lane and wormhole adjacency over the
//! public tiles, breadth-first distances, and the frontier (open lanes
//! facing empty space, where probes reveal new systems). Recomputed from
//! `Public` so it works on a view as well as on a determinized game. The
//! lane links, wormholes and rifts are listed once when the board is made,
//! so the many searches of one evaluation only walk lists.

use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{Hex, PlacedTile, Public};

/// Direction index opposite to `d` (hex directions 0..6).
fn opposite(d: u8) -> u8 {
    (d + 3) % 6
}

/// Side of the square lookup grid (axial coordinates offset by half).
const GRID: usize = 48;

/// The systems one tile's lanes lead to (at most six).
#[derive(Clone, Copy, Default)]
struct Links {
    len: u8,
    to: [u8; 6],
}

impl Links {
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.to[..usize::from(self.len)].iter().map(|&j| usize::from(j))
    }
}

/// Graph over the revealed systems of one public state.
pub struct Board<'a> {
    tiles: &'a [PlacedTile],
    content: &'static Content,
    /// Tile index + 1 by grid cell (0 = empty space); inline, as a board
    /// is made for every evaluation.
    grid: [u8; GRID * GRID],
    /// Each tile's lane-linked systems, in direction order.
    lanes: Vec<Links>,
    /// The systems with a wormhole, in tile order.
    wormholes: Vec<usize>,
    /// The open rifts, in tile order.
    rifts: Vec<usize>,
}

fn cell(hex: Hex) -> Option<usize> {
    let q = usize::try_from(i32::from(hex.q) + (GRID / 2) as i32).ok()?;
    let r = usize::try_from(i32::from(hex.r) + (GRID / 2) as i32).ok()?;
    (q < GRID && r < GRID).then_some(q * GRID + r)
}

impl<'a> Board<'a> {
    /// The board of a public state.
    pub fn new(pb: &'a Public) -> Board<'a> {
        let mut grid = [0u8; GRID * GRID];
        for (i, t) in pb.tiles.iter().enumerate() {
            if let Some(c) = cell(t.hex) {
                grid[c] = u8::try_from(i + 1).unwrap_or(0);
            }
        }
        let mut board = Board {
            tiles: &pb.tiles,
            content: Content::get(),
            grid,
            lanes: Vec::new(),
            wormholes: Vec::new(),
            rifts: Vec::new(),
        };
        board.lanes = (0..board.tiles.len()).map(|i| board.lane_links(i)).collect();
        board.wormholes = (0..board.tiles.len()).filter(|&i| board.wormhole(i)).collect();
        board.rifts = (0..board.tiles.len()).filter(|&i| board.is_rift(i)).collect();
        board
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
    fn lane_links(&self, i: usize) -> Links {
        let mut out = Links::default();
        let t = &self.tiles[i];
        for d in 0..6u8 {
            if t.lanes & (1 << d) == 0 {
                continue;
            }
            let n = t.hex.neighbor(d);
            if let Some(j) = self.index(n)
                && self.tiles[j].lanes & (1 << opposite(d)) != 0
                && let Ok(j) = u8::try_from(j)
            {
                out.to[usize::from(out.len)] = j;
                out.len += 1;
            }
        }
        out
    }

    /// Breadth-first distances from `from` over `next(i)`'s systems.
    fn search<I: Iterator<Item = usize>>(&self, from: usize, next: impl Fn(usize) -> I) -> Vec<Option<u8>> {
        let mut dist = vec![None; self.tiles.len()];
        if from >= self.tiles.len() {
            return dist;
        }
        dist[from] = Some(0);
        // Every system enters the queue at most once, and a board has at
        // most 255 of them (the grid numbers them in a byte).
        let mut queue = [0usize; 256];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        while head < tail {
            let i = queue[head];
            head += 1;
            let d = dist[i].unwrap_or(0);
            for j in next(i) {
                if dist[j].is_none() {
                    dist[j] = Some(d + 1);
                    if let Some(q) = queue.get_mut(tail) {
                        *q = j;
                        tail += 1;
                    }
                }
            }
        }
        dist
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
        self.search(from, |i| {
            let rifts: &[usize] = if self.rifts.binary_search(&i).is_ok() { &self.rifts } else { &[] };
            self.lanes[i].iter().chain(rifts.iter().copied().filter(move |&j| j != i))
        })
    }

    /// Jump distances from `from` to every revealed system (`None` when
    /// unreachable), indexed like `Public::tiles`.
    pub fn distances(&self, from: Hex) -> Vec<Option<u8>> {
        let Some(s) = self.index(from) else { return vec![None; self.tiles.len()] };
        self.search(s, |i| {
            // A wormhole leads to every other wormhole (the lane links are
            // already counted; a system found twice is skipped anyway).
            let wormholes: &[usize] = if self.wormholes.binary_search(&i).is_ok() { &self.wormholes } else { &[] };
            self.lanes[i].iter().chain(wormholes.iter().copied().filter(move |&j| j != i))
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig};

    /// Jump distances found the plain way: a system's neighbours are read
    /// from the tile list on every step (lanes both ways, then wormholes).
    fn plain_distances(pb: &Public, from: usize) -> Vec<Option<u8>> {
        let content = Content::get();
        let at = |h: Hex| pb.tiles.iter().position(|t| t.hex == h);
        let worm = |i: usize| content.tiles.get(pb.tiles[i].tile as usize).is_some_and(|d| d.wormhole);
        let mut dist = vec![None; pb.tiles.len()];
        dist[from] = Some(0u8);
        let mut frontier = vec![from];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &i in &frontier {
                let t = &pb.tiles[i];
                let mut nb: Vec<usize> = (0..6u8)
                    .filter(|&d| t.lanes & (1 << d) != 0)
                    .filter_map(|d| at(t.hex.neighbor(d)).filter(|&j| pb.tiles[j].lanes & (1 << opposite(d)) != 0))
                    .collect();
                if worm(i) {
                    nb.extend((0..pb.tiles.len()).filter(|&j| j != i && worm(j)));
                }
                for j in nb {
                    if dist[j].is_none() {
                        dist[j] = dist[i].map(|d| d + 1);
                        next.push(j);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    #[test]
    fn listed_links_give_the_plain_distances_on_played_boards() {
        for seed in 0..6 {
            let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid");
            let mut step = 0usize;
            while g.outcome().is_none() && step < 600 {
                if step.is_multiple_of(40) {
                    let pb = g.public();
                    let board = Board::new(pb);
                    for (i, t) in pb.tiles.iter().enumerate() {
                        let want = plain_distances(pb, i);
                        assert_eq!(board.distances(t.hex), want, "seed {seed}, step {step}, from tile {i}");
                    }
                }
                let legal = g.legal();
                let m = &legal.moves[(step * 7 + seed as usize) % legal.moves.len()];
                let seat = m.seats.first().expect("a seat");
                g.apply_move(seat, &m.choice.clone()).expect("listed");
                step += 1;
            }
        }
    }
}
