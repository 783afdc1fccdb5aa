//! A short list held inline (no allocation) for the hot paths of search:
//! neighbours, breadth-first frontiers, indices. Its capacity is fixed;
//! callers size it by a bound the content guarantees (at most one entry per
//! tile, per ship, per card).

use std::ops::Deref;

/// At most `N` values of a small `Copy` type, in insertion order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inline<T: Copy + Default, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline { len: 0, items: [T::default(); N] }
    }
}

impl<T: Copy + Default, const N: usize> Inline<T, N> {
    /// An empty list.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Appends `v`. The capacity is a bound the content guarantees; past
    /// it (never in a valid game) the value is dropped, checked in debug.
    pub(crate) fn push(&mut self, v: T) {
        debug_assert!(self.len < N, "inline list full ({N})");
        if self.len < N {
            self.items[self.len] = v;
            self.len += 1;
        }
    }

    /// The values as a slice.
    pub(crate) fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> Deref for Inline<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for Inline<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Inline<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Self::new();
        for v in iter {
            out.push(v);
        }
        out
    }
}
