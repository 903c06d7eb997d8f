//! Precomputed candidate tables for the fast engine.
//!
//! Every search order used here ([`super::search::Order`]) places a cell after its left and top
//! neighbours and before its right and bottom ones, so what a cell demands of a new tile is
//! fully described by three things: the symbol its left edge must carry, the symbol its top edge
//! must carry, and which of its sides face the outside (for the border rule). For every such
//! triple the table lists, once and for all, the (tile, rotation) pairs that satisfy it; the
//! search then only walks a list and skips tiles already used, instead of testing edges.

use super::puzzle::{rotated, Puzzle, BOTTOM, LEFT, RIGHT, TOP};
use std::collections::BTreeMap;

/// One (tile, rotation) pair in a candidate list, with the keys it imposes on the cells to its
/// right and below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Cand {
    pub tile: u16,
    pub rot: u16,
    /// Key the right neighbour's left edge must match.
    pub right: u16,
    /// Key the lower neighbour's top edge must match.
    pub bottom: u16,
}

/// The candidate lists for all (outside sides, left key, top key) triples.
pub struct Tables {
    /// Number of keys: one per distinct symbol, then `wild`, then `none`.
    pub keys: usize,
    /// Key of an outer side when there is no border rule: anything goes.
    pub wild: u16,
    /// Key of a symbol that occurs on no tile: no list under it has entries.
    pub none: u16,
    /// Key a left or top side on the outside demands (the border symbol, or `wild`).
    pub outer: u16,
    /// Entries of list `i` are `cands[start[i]..start[i + 1]]`.
    pub start: Vec<u32>,
    pub cands: Vec<Cand>,
    /// Whether the outside-sides class matters (only with a border rule).
    pub classes: usize,
}

impl Tables {
    /// Index of the list for a cell of outside-class `class` whose left and top edges must
    /// carry `left` and `top`.
    #[inline(always)]
    pub fn list(&self, class: usize, left: u16, top: u16) -> usize {
        (class * self.keys + left as usize) * self.keys + top as usize
    }

    /// Base index of `class`, so that `list = base + left * keys + top`.
    pub fn class_base(&self, class: usize) -> usize {
        class * self.keys * self.keys
    }

    /// The outside-class of cell (r, c): bit `side` set when that side faces the outside.
    /// Without a border rule all cells share class 0.
    pub fn class_of(&self, p: &Puzzle, r: usize, c: usize) -> usize {
        if self.classes == 1 {
            return 0;
        }
        let outside = [r == 0, c + 1 == p.cols, r + 1 == p.rows, c == 0];
        (0..4).filter(|&s| outside[s]).map(|s| 1 << s).sum()
    }

    /// Builds the tables of `p`.
    pub fn build(p: &Puzzle) -> Tables {
        let mut index: BTreeMap<i32, u16> = BTreeMap::new();
        for t in &p.tiles {
            for &s in t {
                let next = index.len() as u16;
                index.entry(s).or_insert(next);
            }
        }
        let k = index.len();
        let wild = k as u16;
        let none = k as u16 + 1;
        let keys = k + 2;
        let key_of = |s: i32| index.get(&s).copied().unwrap_or(none);
        let classes = if p.border.is_some() { 16 } else { 1 };
        let outer = p.border.map(key_of).unwrap_or(wild);
        let mut lists: Vec<Vec<Cand>> = vec![Vec::new(); classes * keys * keys];
        for class in 0..classes {
            let outside = |side: usize| classes > 1 && class & (1 << side) != 0;
            for (t, tile) in p.tiles.iter().enumerate() {
                for rot in 0..4u8 {
                    let e = rotated(tile, rot);
                    if let Some(b) = p.border {
                        if (0..4).any(|s| outside(s) != (e[s] == b)) {
                            continue;
                        }
                    }
                    let cand = Cand {
                        tile: t as u16,
                        rot: rot as u16,
                        right: key_of(p.rule.partner(e[RIGHT])),
                        bottom: key_of(p.rule.partner(e[BOTTOM])),
                    };
                    let (l, tp) = (key_of(e[LEFT]), key_of(e[TOP]));
                    // Outer sides are keyed by the border symbol (already in `l`/`tp`) or,
                    // without a border rule, also listed under the wildcard.
                    let lefts: &[u16] = if p.border.is_none() { &[l, wild] } else { &[l] };
                    let tops: &[u16] = if p.border.is_none() {
                        &[tp, wild]
                    } else {
                        &[tp]
                    };
                    for &lk in lefts {
                        for &tk in tops {
                            lists[(class * keys + lk as usize) * keys + tk as usize].push(cand);
                        }
                    }
                }
            }
        }
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut cands = Vec::new();
        for l in &lists {
            start.push(cands.len() as u32);
            cands.extend_from_slice(l);
        }
        start.push(cands.len() as u32);
        Tables {
            keys,
            wild,
            none,
            outer,
            start,
            cands,
            classes,
        }
    }
}
