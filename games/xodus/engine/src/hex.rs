//! Hexagonal board geometry in axial coordinates. Side `i` of a hex faces
//! direction `i` (0 = E, 1 = NE, 2 = NW, 3 = W, 4 = SW, 5 = SE); a tile
//! rotated by `r` shows its printed side `s` towards direction `(s + r) % 6`.

use serde::{Deserialize, Serialize};

/// A space on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    /// Axial column.
    pub q: i8,
    /// Axial row.
    pub r: i8,
}

/// Most systems a board can hold: one per tile of the content (checked
/// when the content loads).
pub(crate) const MAX_TILES: usize = 32;

/// Systems held inline, at most one per tile (neighbours, reachable sets).
pub(crate) type HexList = crate::small::Inline<Hex, MAX_TILES>;

/// Axial offsets of the six directions.
pub const DIRS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Hex {
    /// The centre of the board, where the Starting System goes.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// A hex from coordinates.
    pub const fn new(q: i8, r: i8) -> Hex {
        Hex { q, r }
    }

    /// The neighbour in direction `d` (0..6).
    pub fn neighbor(self, d: u8) -> Hex {
        let (dq, dr) = DIRS[(d % 6) as usize];
        Hex::new(self.q.saturating_add(dq), self.r.saturating_add(dr))
    }

    /// The direction from `self` to an adjacent `other`, if adjacent.
    pub fn direction_to(self, other: Hex) -> Option<u8> {
        (0..6).find(|&d| self.neighbor(d) == other)
    }

    /// Hex distance.
    pub fn distance(self, other: Hex) -> u8 {
        let dq = (self.q as i16 - other.q as i16).abs();
        let dr = (self.r as i16 - other.r as i16).abs();
        let ds = (self.q as i16 + self.r as i16 - other.q as i16 - other.r as i16).abs();
        dq.max(dr).max(ds) as u8
    }

    /// "q,r" text, used in stable choice ids.
    pub fn key(self) -> String {
        format!("{},{}", self.q, self.r)
    }
}

/// Opposite direction.
pub fn opposite(d: u8) -> u8 {
    (d + 3) % 6
}

/// Rotates a printed lane mask by `rot` steps: bit d of the result is set
/// when the tile shows a lane towards direction d.
pub fn rotate_mask(mask: u8, rot: u8) -> u8 {
    let rot = rot % 6;
    let m = mask & 0b11_1111;
    ((m << rot) | (m >> (6 - rot))) & 0b11_1111
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbors_are_adjacent_and_opposite() {
        let h = Hex::new(2, -1);
        for d in 0..6 {
            let n = h.neighbor(d);
            assert_eq!(h.distance(n), 1);
            assert_eq!(n.direction_to(h), Some(opposite(d)));
        }
    }

    #[test]
    fn rotation_moves_sides_round() {
        assert_eq!(rotate_mask(0b000001, 1), 0b000010);
        assert_eq!(rotate_mask(0b100000, 1), 0b000001);
        assert_eq!(rotate_mask(0b101010, 6), 0b101010);
    }
}
