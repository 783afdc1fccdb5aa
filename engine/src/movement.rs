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
    /// Whether a tile shows the wormhole symbol.
    pub(crate) fn has_wormhole(&self, hex: Hex) -> bool {
        self.tile_at(hex).is_some_and(|t| self.content().tiles[t.tile as usize].wormhole)
    }

    /// Whether a system holds an open rift (Avatars travel between them).
    pub(crate) fn has_rift(&self, hex: Hex) -> bool {
        self.tile_at(hex).is_some_and(|t| {
            let corrupt = self.content().tiles[t.tile as usize].kind == SystemKind::Corrupt;
            (corrupt || t.rift_created) && !t.rift_disabled
        })
    }

    /// Systems joined to `hex` by a hyperspace lane.
    pub(crate) fn lane_neighbors(&self, hex: Hex) -> HexList {
        let mut v = HexList::new();
        let Some(i) = self.tile_index(hex) else { return v };
        let lanes = self.pb.tiles[i].lanes;
        for d in 0..6u8 {
            if lanes & (1 << d) == 0 {
                continue;
            }
            if let Some(o) = self.board.next(i, d).map(|j| &self.pb.tiles[j])
                && o.lanes & (1 << opposite(d)) != 0
            {
                debug_assert_eq!(o.hex, hex.neighbor(d));
                v.push(o.hex);
            }
        }
        v
    }

    /// Where a ship may Jump from `hex`: lanes and wormholes.
    pub(crate) fn jump_targets(&self, hex: Hex) -> HexList {
        let mut v = self.lane_neighbors(hex);
        if self.has_wormhole(hex) {
            for t in &self.pb.tiles {
                if t.hex != hex && self.content().tiles[t.tile as usize].wormhole && !v.contains(&t.hex) {
                    v.push(t.hex);
                }
            }
        }
        v
    }

    /// Where an Avatar may move from `hex`.
    pub(crate) fn avatar_neighbors(&self, hex: Hex, wormholes: bool) -> HexList {
        let mut v = self.lane_neighbors(hex);
        let c = self.content();
        let rift = |t: &PlacedTile| {
            (c.tiles[t.tile as usize].kind == SystemKind::Corrupt || t.rift_created) && !t.rift_disabled
        };
        let wormhole = |t: &PlacedTile| c.tiles[t.tile as usize].wormhole;
        let Some(here) = self.tile_at(hex) else { return v };
        let (from_rift, from_wormhole) = (rift(here), wormholes && wormhole(here));
        if from_rift || from_wormhole {
            // Rifts first, then wormholes, as the rulebook lists them.
            if from_rift {
                for t in &self.pb.tiles {
                    if rift(t) && t.hex != hex && !v.contains(&t.hex) {
                        v.push(t.hex);
                    }
                }
            }
            if from_wormhole {
                for t in &self.pb.tiles {
                    if wormhole(t) && t.hex != hex && !v.contains(&t.hex) {
                        v.push(t.hex);
                    }
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
        let shielded = self.rush_shielded();
        self.jump_targets(from).into_iter().any(|n| self.rush_step_ok(n, left, shielded))
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
    /// (system, distance, predecessor), in the order reached.
    pub(crate) fn avatar_bfs(&self, from: Hex, wormholes: bool, blocked: &[Hex]) -> Inline<(Hex, u8, Hex), MAX_TILES> {
        let mut out: Inline<(Hex, u8, Hex), MAX_TILES> = Inline::new();
        out.push((from, 0, from));
        // `out` is also the queue: entries are reached in breadth-first order.
        let mut head = 0;
        while head < out.len() {
            let (h, d, _) = out[head];
            head += 1;
            if h != from && blocked.contains(&h) {
                continue;
            }
            for n in self.avatar_neighbors(h, wormholes) {
                if !out.iter().any(|x| x.0 == n) {
                    out.push((n, d + 1, h));
                }
            }
        }
        out
    }

    /// Lane distance between systems for ships (used to place new Avatars
    /// near the players).
    pub(crate) fn ship_distance(&self, from: Hex, to: Hex) -> Option<u8> {
        let mut seen: Inline<(Hex, u8), MAX_TILES> = Inline::new();
        seen.push((from, 0));
        let mut head = 0;
        while head < seen.len() {
            let (h, d) = seen[head];
            head += 1;
            if h == to {
                return Some(d);
            }
            for n in self.jump_targets(h) {
                if !seen.iter().any(|x| x.0 == n) {
                    seen.push((n, d + 1));
                }
            }
        }
        None
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
