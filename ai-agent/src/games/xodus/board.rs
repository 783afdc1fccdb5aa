//! The board as the AI sees it: lane and wormhole adjacency over the
//! public tiles, breadth-first distances, and the frontier (open lanes
//! facing empty space, where probes reveal new systems). Recomputed from
//! `Public` so it works on a view as well as on a determinized game.
//!
//! What depends only on where the revealed tiles lie, their lanes and
//! their rifts (the lookup grid, the lane links, every distance searched
//! so far) is a [`Geometry`] kept in a small per-thread cache: the search
//! evaluates thousands of states a decision that share one layout, so a
//! board is mostly a cache hit and each distance is searched once.

use std::cell::RefCell;
use std::rc::Rc;

use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{Hex, PlacedTile, Public};

/// Direction index opposite to `d` (hex directions 0..6).
fn opposite(d: u8) -> u8 {
    (d + 3) % 6
}

/// Side of the square lookup grid (axial coordinates offset by half).
const GRID: usize = 48;

/// Layouts a thread keeps (a decision's samples share one; the systems a
/// playout reveals add a few more).
const CACHED_LAYOUTS: usize = 8;

/// Distances from one system to every revealed one (`None`: unreachable),
/// indexed like `Public::tiles`; shared, as the cache keeps it.
pub type Distances = Rc<[Option<u8>]>;

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

/// One tile's part of a layout: place, card, lanes and rift markers.
fn layout_key(t: &PlacedTile) -> u64 {
    u64::from(t.hex.q as u8)
        | u64::from(t.hex.r as u8) << 8
        | u64::from(t.tile) << 16
        | u64::from(t.lanes) << 24
        | u64::from(t.rift_created) << 32
        | u64::from(t.rift_disabled) << 33
}

/// What a board's searches need from its layout, built once a layout.
struct Geometry {
    /// Each tile's [`layout_key`], in tile order: the cache's key.
    key: Vec<u64>,
    /// Tile index + 1 by grid cell (0 = empty space).
    grid: Box<[u8]>,
    /// Each tile's lane-linked systems, in direction order.
    lanes: Vec<Links>,
    /// The systems with a wormhole, in tile order.
    wormholes: Vec<usize>,
    /// The open rifts, in tile order.
    rifts: Vec<usize>,
    /// The systems with an open lane facing empty space, in tile order.
    frontier: Vec<usize>,
    /// Jump distances by source tile, each searched when first asked.
    jumps: RefCell<Vec<Option<Distances>>>,
    /// Avatar move distances by source tile, likewise.
    avatar_moves: RefCell<Vec<Option<Distances>>>,
}

thread_local! {
    /// The layouts this thread used last, most recent first.
    static LAYOUTS: RefCell<Vec<Rc<Geometry>>> = const { RefCell::new(Vec::new()) };
}

fn cell(hex: Hex) -> Option<usize> {
    let q = usize::try_from(i32::from(hex.q) + (GRID / 2) as i32).ok()?;
    let r = usize::try_from(i32::from(hex.r) + (GRID / 2) as i32).ok()?;
    (q < GRID && r < GRID).then_some(q * GRID + r)
}

impl Geometry {
    /// The geometry of `tiles`, from the cache when this thread has seen
    /// the layout lately.
    fn of(tiles: &[PlacedTile]) -> Rc<Geometry> {
        LAYOUTS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let found = cache
                .iter()
                .position(|g| g.key.len() == tiles.len() && g.key.iter().zip(tiles).all(|(k, t)| *k == layout_key(t)));
            let geo = match found {
                Some(i) => cache.remove(i),
                None => Rc::new(Geometry::build(tiles)),
            };
            cache.insert(0, Rc::clone(&geo));
            cache.truncate(CACHED_LAYOUTS);
            geo
        })
    }

    fn build(tiles: &[PlacedTile]) -> Geometry {
        let content = Content::get();
        let mut grid = vec![0u8; GRID * GRID].into_boxed_slice();
        for (i, t) in tiles.iter().enumerate() {
            if let Some(c) = cell(t.hex) {
                grid[c] = u8::try_from(i + 1).unwrap_or(0);
            }
        }
        let index = |hex: Hex| match cell(hex).map(|c| grid[c]) {
            Some(0) | None => None,
            Some(i) => Some(usize::from(i) - 1),
        };
        let lanes = tiles
            .iter()
            .map(|t| {
                let mut out = Links::default();
                for d in 0..6u8 {
                    if t.lanes & (1 << d) == 0 {
                        continue;
                    }
                    if let Some(j) = index(t.hex.neighbor(d))
                        && tiles[j].lanes & (1 << opposite(d)) != 0
                        && let Ok(j) = u8::try_from(j)
                    {
                        out.to[usize::from(out.len)] = j;
                        out.len += 1;
                    }
                }
                out
            })
            .collect();
        let def = |t: &PlacedTile| content.tiles.get(t.tile as usize);
        let wormholes = (0..tiles.len()).filter(|&i| def(&tiles[i]).is_some_and(|d| d.wormhole)).collect();
        let rifts = (0..tiles.len())
            .filter(|&i| {
                let t = &tiles[i];
                let corrupt = def(t).is_some_and(|d| d.kind == SystemKind::Corrupt);
                (corrupt || t.rift_created) && !t.rift_disabled
            })
            .collect();
        let frontier = (0..tiles.len())
            .filter(|&i| {
                let t = &tiles[i];
                (0..6u8).any(|d| t.lanes & (1 << d) != 0 && index(t.hex.neighbor(d)).is_none())
            })
            .collect();
        Geometry {
            key: tiles.iter().map(layout_key).collect(),
            grid,
            lanes,
            wormholes,
            rifts,
            frontier,
            jumps: RefCell::new(vec![None; tiles.len()]),
            avatar_moves: RefCell::new(vec![None; tiles.len()]),
        }
    }

    /// Breadth-first distances from `from` over `next(i)`'s systems.
    fn search<I: Iterator<Item = usize>>(&self, from: usize, next: impl Fn(usize) -> I) -> Distances {
        let n = self.lanes.len();
        let mut dist = vec![None; n];
        if from >= n {
            return dist.into();
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
        dist.into()
    }

    /// `memo[from]`, searched with `next` the first time.
    fn memoized<I: Iterator<Item = usize>>(
        &self,
        memo: &RefCell<Vec<Option<Distances>>>,
        from: usize,
        next: impl Fn(usize) -> I,
    ) -> Distances {
        if let Some(Some(d)) = memo.borrow().get(from) {
            return Rc::clone(d);
        }
        let d = self.search(from, next);
        if let Some(slot) = memo.borrow_mut().get_mut(from) {
            *slot = Some(Rc::clone(&d));
        }
        d
    }

    fn jumps_from(&self, from: usize) -> Distances {
        self.memoized(&self.jumps, from, |i| {
            // A wormhole leads to every other wormhole (the lane links are
            // already counted; a system found twice is skipped anyway).
            let wormholes: &[usize] = if self.wormholes.binary_search(&i).is_ok() { &self.wormholes } else { &[] };
            self.lanes[i].iter().chain(wormholes.iter().copied().filter(move |&j| j != i))
        })
    }

    fn avatar_moves_from(&self, from: usize) -> Distances {
        self.memoized(&self.avatar_moves, from, |i| {
            let rifts: &[usize] = if self.rifts.binary_search(&i).is_ok() { &self.rifts } else { &[] };
            self.lanes[i].iter().chain(rifts.iter().copied().filter(move |&j| j != i))
        })
    }
}

/// Graph over the revealed systems of one public state.
pub struct Board<'a> {
    tiles: &'a [PlacedTile],
    content: &'static Content,
    geo: Rc<Geometry>,
}

impl<'a> Board<'a> {
    /// The board of a public state.
    pub fn new(pb: &'a Public) -> Board<'a> {
        Board { tiles: &pb.tiles, content: Content::get(), geo: Geometry::of(&pb.tiles) }
    }

    /// Index into `Public::tiles` of the system at `hex`.
    pub fn index(&self, hex: Hex) -> Option<usize> {
        match cell(hex).map(|c| self.geo.grid[c]) {
            Some(0) | None => None,
            Some(i) => Some(usize::from(i) - 1),
        }
    }

    /// Kind of the system at `hex`, if revealed.
    pub fn kind(&self, hex: Hex) -> Option<SystemKind> {
        self.index(hex).and_then(|i| self.content.tiles.get(self.tiles[i].tile as usize)).map(|d| d.kind)
    }

    /// Whether tile `i` holds an open rift (Corrupt system or a created
    /// rift, not disabled): Avatars travel between all of them at once.
    pub fn is_rift(&self, i: usize) -> bool {
        self.geo.rifts.binary_search(&i).is_ok()
    }

    /// Whether tile `i` is the Main Rift, where Keys are activated.
    pub fn is_main_rift(&self, i: usize) -> bool {
        self.content.tiles.get(self.tiles[i].tile as usize).is_some_and(|d| d.kind == SystemKind::MainRift)
    }

    /// Avatar move distances from tile `from` (lanes, and every rift next
    /// to every other; wormholes left out, the die grants them rarely).
    pub fn avatar_distances(&self, from: usize) -> Distances {
        self.geo.avatar_moves_from(from)
    }

    /// Jump distances from `from` to every revealed system (`None` when
    /// unreachable), indexed like `Public::tiles`.
    pub fn distances(&self, from: Hex) -> Distances {
        match self.index(from) {
            Some(s) => self.geo.jumps_from(s),
            None => vec![None; self.tiles.len()].into(),
        }
    }

    /// Whether tile `i` has an open lane facing an empty space.
    pub fn is_frontier(&self, i: usize) -> bool {
        self.geo.frontier.binary_search(&i).is_ok()
    }

    /// The systems with an open lane facing an empty space, in tile order.
    pub fn frontier(&self) -> &[usize] {
        &self.geo.frontier
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
    fn the_cached_geometry_gives_the_plain_distances_and_frontier_on_played_boards() {
        for seed in 0..6 {
            let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid");
            let mut step = 0usize;
            while g.outcome().is_none() && step < 600 {
                if step.is_multiple_of(40) {
                    let pb = g.public();
                    let board = Board::new(pb);
                    for (i, t) in pb.tiles.iter().enumerate() {
                        let want = plain_distances(pb, i);
                        assert_eq!(
                            &*board.distances(t.hex),
                            want.as_slice(),
                            "seed {seed}, step {step}, from tile {i}"
                        );
                        let open = (0..6u8)
                            .any(|d| t.lanes & (1 << d) != 0 && !pb.tiles.iter().any(|u| u.hex == t.hex.neighbor(d)));
                        assert_eq!(board.is_frontier(i), open, "seed {seed}, step {step}, frontier at tile {i}");
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
