//! The board as a graph (rulebook pp. 6-9): lanes connect two revealed
//! systems when both sides are open; wormhole systems are all adjacent to
//! one another; for Avatars, every open rift (Corrupt systems and created
//! rifts, minus disabled ones) is adjacent to every other, and wormholes
//! only when their die allows. Also the Probe, Jump and Rush rules.

use crate::content::SystemKind;
use crate::hex::{Hex, HexList, MAX_TILES, opposite};
use crate::small::Inline;
use crate::state::*;

impl Game {
    /// Whether a system holds an open rift (Avatars travel between them).
    pub(crate) fn has_rift(&self, hex: Hex) -> bool {
        self.tile_at(hex).is_some_and(|t| {
            let corrupt = self.content().tiles[t.tile as usize].kind == SystemKind::Corrupt;
            (corrupt || t.rift_created) && !t.rift_disabled
        })
    }

    /// Systems joined by a lane to the tile `i` of `pb.tiles`.
    fn lane_neighbors_of(&self, i: usize) -> HexList {
        let mut v = HexList::new();
        let lanes = self.pb.tiles[i].lanes;
        for d in 0..6u8 {
            if lanes & (1 << d) == 0 {
                continue;
            }
            if let Some(o) = self.board.next(i, d).map(|j| &self.pb.tiles[j])
                && o.lanes & (1 << opposite(d)) != 0
            {
                debug_assert_eq!(o.hex, self.pb.tiles[i].hex.neighbor(d));
                v.push(o.hex);
            }
        }
        v
    }

    /// Whether an Avatar's step from `a` to `b` goes through a wormhole:
    /// both systems hold one, with neither a lane nor open rifts between
    /// them.
    pub(crate) fn wormhole_hop(&self, a: Hex, b: Hex) -> bool {
        let Some(i) = self.tile_index(a) else { return false };
        let wormhole = |h: Hex| self.tile_at(h).is_some_and(|t| self.content().tiles[t.tile as usize].wormhole);
        wormhole(a) && wormhole(b) && !self.lane_neighbors_of(i).contains(&b) && !(self.has_rift(a) && self.has_rift(b))
    }

    /// Where a ship may Jump from `hex`: lanes and wormholes.
    pub(crate) fn jump_targets(&self, hex: Hex) -> HexList {
        let Some(i) = self.tile_index(hex) else { return HexList::new() };
        let mut v = self.lane_neighbors_of(i);
        if self.content().tiles[self.pb.tiles[i].tile as usize].wormhole {
            for t in &self.pb.tiles {
                if t.hex != hex && self.content().tiles[t.tile as usize].wormhole && !v.contains(&t.hex) {
                    v.push(t.hex);
                }
            }
        }
        v
    }

    /// Empty spaces a probe may be sent to from `hex`: adjacent, empty, and
    /// facing an open lane of the current system.
    pub(crate) fn probe_targets(&self, hex: Hex) -> HexList {
        let mut v = HexList::new();
        let Some(i) = self.tile_index(hex) else { return v };
        let lanes = self.pb.tiles[i].lanes;
        for d in 0..6u8 {
            if lanes & (1 << d) != 0 && self.board.next(i, d).is_none() {
                v.push(hex.neighbor(d));
            }
        }
        v
    }

    /// Whether a system holds an Avatar.
    pub(crate) fn avatar_in(&self, hex: Hex) -> bool {
        self.pb.avatars.iter().any(|a| a.place == AvatarPlace::Board { hex })
    }

    /// Whether a Rush of `left` more jumps can be completed from `from`
    /// without passing through an Avatar (p. 7: never rush past an Avatar;
    /// FAQ: exactly three jumps, wormholes allowed).
    pub(crate) fn rush_possible(&self, from: Hex, left: u8) -> bool {
        if left == 0 {
            return true;
        }
        let Some(i) = self.tile_index(from) else { return false };
        self.rush_possible_at(i, left, self.rush_shielded())
    }

    /// [`Game::rush_possible`] from the tile `i` of `pb.tiles` (`left` >
    /// 0): some jump target from which the rest can follow. Only whether
    /// one exists matters, so the targets are tried straight from the
    /// board index, without listing them.
    fn rush_possible_at(&self, i: usize, left: u8, shielded: bool) -> bool {
        self.any_jump_target(i, |j| {
            // The last jump may end anywhere.
            left == 1
                || ((shielded || !self.avatar_in(self.pb.tiles[j].hex)) && self.rush_possible_at(j, left - 1, shielded))
        })
    }

    /// Whether `f` holds for some tile a ship may Jump to from the tile
    /// `i` (the targets of [`Game::jump_targets`], tile indices).
    fn any_jump_target(&self, i: usize, mut f: impl FnMut(usize) -> bool) -> bool {
        let tiles = &self.pb.tiles;
        let c = self.content();
        let lanes = tiles[i].lanes;
        for d in 0..6u8 {
            if lanes & (1 << d) != 0
                && let Some(j) = self.board.next(i, d)
                && tiles[j].lanes & (1 << opposite(d)) != 0
                && f(j)
            {
                return true;
            }
        }
        c.tiles[tiles[i].tile as usize].wormhole
            && tiles.iter().enumerate().any(|(j, o)| j != i && c.tiles[o.tile as usize].wormhole && f(j))
    }

    /// Hyperspace Shield: this turn the active group's Rush may pass Avatars.
    fn rush_shielded(&self) -> bool {
        !self.pb.active.is_empty() && self.pb.active.iter().all(|&s| self.ship(s).rush_shield)
    }

    /// Whether jumping to `n` with `left` jumps to go (including this one)
    /// can still complete the Rush.
    fn rush_step_ok(&self, n: Hex, left: u8, shielded: bool) -> bool {
        left == 1 || ((shielded || !self.avatar_in(n)) && self.rush_possible(n, left - 1))
    }

    /// Legal next jumps of a Rush with `left` jumps to go (including this one).
    pub(crate) fn rush_steps(&self, from: Hex, left: u8) -> impl Iterator<Item = Hex> + '_ {
        let shielded = self.rush_shielded();
        self.jump_targets(from).into_iter().filter(move |&n| self.rush_step_ok(n, left, shielded))
    }

    /// Breadth-first distances over the Avatar graph from `from`, skipping
    /// `blocked` systems (they can be targets but not passed through):
    /// (system, distance, predecessor), in the order reached. Where an Avatar
    /// may move from a system: its lanes (by direction), then, from an open
    /// rift, every other open rift, then, when the die allows, from a
    /// wormhole every other wormhole (each by tile order).
    pub(crate) fn avatar_bfs(&self, from: Hex, wormholes: bool, blocked: &[Hex]) -> Inline<(Hex, u8, Hex), MAX_TILES> {
        let c = self.content();
        let rift = |t: &PlacedTile| {
            (c.tiles[t.tile as usize].kind == SystemKind::Corrupt || t.rift_created) && !t.rift_disabled
        };
        let (rifts, holes) = self.tile_masks(rift, |t| wormholes && c.tiles[t.tile as usize].wormhole);
        self.tile_bfs(from, blocked, |i| {
            (if rifts & (1 << i) != 0 { rifts } else { 0 }, if holes & (1 << i) != 0 { holes } else { 0 })
        })
    }

    /// Lane distances for ships from `from` to every system it reaches,
    /// in breadth-first order (used to place new Avatars near the players);
    /// neighbours in [`Game::jump_targets`]' order.
    pub(crate) fn ship_distances(&self, from: Hex) -> Inline<(Hex, u8, Hex), MAX_TILES> {
        let c = self.content();
        let (_, holes) = self.tile_masks(|_| false, |t| c.tiles[t.tile as usize].wormhole);
        self.tile_bfs(from, &[], |i| (0, if holes & (1 << i) != 0 { holes } else { 0 }))
    }

    /// Bit masks over tile indices of the tiles passing `a` and `b`.
    fn tile_masks(&self, a: impl Fn(&PlacedTile) -> bool, b: impl Fn(&PlacedTile) -> bool) -> (u32, u32) {
        let (mut ma, mut mb) = (0u32, 0u32);
        for (i, t) in self.pb.tiles.iter().enumerate().take(MAX_TILES) {
            ma |= (a(t) as u32) << i;
            mb |= (b(t) as u32) << i;
        }
        (ma, mb)
    }

    /// Breadth-first search over the tiles from `from`: lane neighbours by
    /// direction, then the tiles of the two masks `extra(i)` gives for tile
    /// `i`, each in tile order. Returns (system, distance, predecessor).
    fn tile_bfs(
        &self,
        from: Hex,
        blocked: &[Hex],
        extra: impl Fn(usize) -> (u32, u32),
    ) -> Inline<(Hex, u8, Hex), MAX_TILES> {
        let mut out: Inline<(Hex, u8, Hex), MAX_TILES> = Inline::new();
        out.push((from, 0, from));
        let Some(start) = self.tile_index(from) else { return out };
        let tiles = &self.pb.tiles;
        let mut order: Inline<u8, MAX_TILES> = Inline::new();
        order.push(start as u8);
        let mut seen = 1u32 << start;
        // `out` is also the queue.
        let mut head = 0;
        while head < out.len() {
            let (h, d, _) = out[head];
            let i = order[head] as usize;
            head += 1;
            if h != from && blocked.contains(&h) {
                continue;
            }
            let mut visit = |j: usize| {
                if seen & (1 << j) == 0 {
                    seen |= 1 << j;
                    out.push((tiles[j].hex, d + 1, h));
                    order.push(j as u8);
                }
            };
            let lanes = tiles[i].lanes;
            for dir in 0..6u8 {
                if lanes & (1 << dir) != 0
                    && let Some(j) = self.board.next(i, dir)
                    && tiles[j].lanes & (1 << opposite(dir)) != 0
                {
                    visit(j);
                }
            }
            let (m1, m2) = extra(i);
            for mut m in [m1, m2] {
                while m != 0 {
                    visit(m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
        }
        out
    }

    /// Orientations that connect a tile placed at `hex` to `from` by a lane,
    /// one per distinct lane layout.
    pub(crate) fn orientations(&self, tile: u8, hex: Hex, from: Hex) -> Vec<u8> {
        let mask = self.content().tiles[tile as usize].lane_mask();
        let Some(d) = hex.direction_to(from) else { return Vec::new() };
        let mut seen: Vec<u8> = Vec::new();
        let mut out = Vec::new();
        for r in 0..6 {
            let m = crate::hex::rotate_mask(mask, r);
            if m & (1 << d) != 0 && !seen.contains(&m) {
                seen.push(m);
                out.push(r);
            }
        }
        out
    }

    /// Draws the top tile of the System stack and updates the public piles.
    pub(crate) fn draw_tile(&mut self) -> Option<u8> {
        let tile = self.hid.stack.pop()?;
        let kind = self.content().tiles[tile as usize].kind;
        if let Some(p) = self.pb.piles.iter_mut().rev().find(|p| p.remaining > 0) {
            p.remaining -= 1;
            if matches!(kind, SystemKind::Corrupt | SystemKind::MainRift) {
                p.special_left = false;
            }
        }
        Some(tile)
    }
}
