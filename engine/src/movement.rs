//! The board as a graph (rulebook pp. 6-9): lanes connect two revealed
//! systems when both sides are open; wormhole systems are all adjacent to
//! one another; for Avatars, every open rift (Corrupt systems and created
//! rifts, minus disabled ones) is adjacent to every other, and wormholes
//! only when their die allows. Also the Probe, Jump and Rush rules.

use crate::content::SystemKind;
use crate::hex::{Hex, opposite};
use crate::state::*;
use std::collections::VecDeque;

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
    pub(crate) fn lane_neighbors(&self, hex: Hex) -> Vec<Hex> {
        let Some(t) = self.tile_at(hex) else { return Vec::new() };
        (0..6u8)
            .filter(|&d| t.lanes & (1 << d) != 0)
            .filter_map(|d| {
                let n = hex.neighbor(d);
                let o = self.tile_at(n)?;
                (o.lanes & (1 << opposite(d)) != 0).then_some(n)
            })
            .collect()
    }

    /// Where a ship may Jump from `hex`: lanes and wormholes.
    pub(crate) fn jump_targets(&self, hex: Hex) -> Vec<Hex> {
        let mut v = self.lane_neighbors(hex);
        if self.has_wormhole(hex) {
            for t in &self.pb.tiles {
                if t.hex != hex && self.has_wormhole(t.hex) && !v.contains(&t.hex) {
                    v.push(t.hex);
                }
            }
        }
        v
    }

    /// Where an Avatar may move from `hex`.
    pub(crate) fn avatar_neighbors(&self, hex: Hex, wormholes: bool) -> Vec<Hex> {
        let mut v = self.lane_neighbors(hex);
        let add = |v: &mut Vec<Hex>, h: Hex| {
            if h != hex && !v.contains(&h) {
                v.push(h);
            }
        };
        if self.has_rift(hex) {
            for t in &self.pb.tiles {
                if self.has_rift(t.hex) {
                    add(&mut v, t.hex);
                }
            }
        }
        if wormholes && self.has_wormhole(hex) {
            for t in &self.pb.tiles {
                if self.has_wormhole(t.hex) {
                    add(&mut v, t.hex);
                }
            }
        }
        v
    }

    /// Empty spaces a probe may be sent to from `hex`: adjacent, empty, and
    /// facing an open lane of the current system.
    pub(crate) fn probe_targets(&self, hex: Hex) -> Vec<Hex> {
        let Some(t) = self.tile_at(hex) else { return Vec::new() };
        (0..6u8)
            .filter(|&d| t.lanes & (1 << d) != 0)
            .map(|d| hex.neighbor(d))
            .filter(|n| self.tile_at(*n).is_none())
            .collect()
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
        self.rush_steps(from, left).next().is_some()
    }

    /// Legal next jumps of a Rush with `left` jumps to go (including this one).
    pub(crate) fn rush_steps(&self, from: Hex, left: u8) -> impl Iterator<Item = Hex> + '_ {
        self.jump_targets(from).into_iter().filter(move |&n| {
            // Hyperspace Shield: this turn the Rush may pass Avatars.
            let shielded = !self.pb.active.is_empty() && self.pb.active.iter().all(|&s| self.ship(s).rush_shield);
            left == 1 || ((shielded || !self.avatar_in(n)) && self.rush_possible(n, left - 1))
        })
    }

    /// Breadth-first distances over the Avatar graph from `from`, skipping
    /// `blocked` systems (they can be targets but not passed through).
    pub(crate) fn avatar_bfs(&self, from: Hex, wormholes: bool, blocked: &[Hex]) -> Vec<(Hex, u8, Hex)> {
        // (system, distance, predecessor)
        let mut out: Vec<(Hex, u8, Hex)> = vec![(from, 0, from)];
        let mut q = VecDeque::from([from]);
        while let Some(h) = q.pop_front() {
            let d = out.iter().find(|x| x.0 == h).map(|x| x.1).unwrap_or(0);
            if h != from && blocked.contains(&h) {
                continue;
            }
            for n in self.avatar_neighbors(h, wormholes) {
                if !out.iter().any(|x| x.0 == n) {
                    out.push((n, d + 1, h));
                    q.push_back(n);
                }
            }
        }
        out
    }

    /// Lane distance between systems for ships (used to place new Avatars
    /// near the players).
    pub(crate) fn ship_distance(&self, from: Hex, to: Hex) -> Option<u8> {
        let mut seen = vec![(from, 0u8)];
        let mut q = VecDeque::from([from]);
        while let Some(h) = q.pop_front() {
            let d = seen.iter().find(|x| x.0 == h).map(|x| x.1).unwrap_or(0);
            if h == to {
                return Some(d);
            }
            for n in self.jump_targets(h) {
                if !seen.iter().any(|x| x.0 == n) {
                    seen.push((n, d + 1));
                    q.push_back(n);
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
