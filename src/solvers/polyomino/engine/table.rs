//! The candidate table the search reads at every node: for each anchor square, the
//! placements whose first square it is, split by kind and pre-filtered by the occupancy of a
//! few *key* squares next to the anchor.
//!
//! Most candidates at a node fail because they need a square just below or beside the
//! anchor that is already covered. Reading those key squares once and jumping to the list
//! made for that occupancy pattern skips them without touching their masks.

use super::bits::Bits;
use crate::solvers::polyomino::placements::Plan;

/// Most key squares per anchor (16 lists per anchor and kind).
const MAX_KEY: usize = 4;
/// Memory budget for the duplicated candidate lists.
const BUDGET_BYTES: usize = 64 << 20;

pub struct Table<const W: usize> {
    pub kinds: usize,
    pub key_len: usize,
    /// `key_cells[anchor * key_len + j]`: the `j`-th key square of that anchor.
    pub key_cells: Vec<u32>,
    /// `ranges[((anchor << key_len) | key) * kinds + kind]`: slice of `masks`/`pids`.
    pub ranges: Vec<(u32, u32)>,
    pub masks: Vec<Bits<W>>,
    pub pids: Vec<u32>,
}

impl<const W: usize> Table<W> {
    pub fn new(plan: &Plan) -> Self {
        let len = plan.layout.len();
        let kinds = plan.kinds.len();
        let entry_bytes = 8 * W + 4;
        let mut key_len = MAX_KEY;
        while key_len > 0 && (plan.placements.len() * entry_bytes) << key_len > BUDGET_BYTES {
            key_len -= 1;
        }
        let mut by_anchor: Vec<Vec<usize>> = vec![Vec::new(); len];
        for (p, pl) in plan.placements.iter().enumerate() {
            by_anchor[pl.cells[0]].push(p);
        }
        let mut t = Table {
            kinds,
            key_len,
            key_cells: Vec::with_capacity(len * key_len),
            ranges: vec![(0, 0); (len << key_len) * kinds],
            masks: Vec::new(),
            pids: Vec::new(),
        };
        for (anchor, cands) in by_anchor.iter_mut().enumerate() {
            cands.sort_by_key(|&p| plan.placements[p].kind);
            let keys = key_squares(plan, anchor, cands, key_len);
            t.key_cells.extend(keys.iter().map(|&c| c as u32));
            for key in 0..1usize << key_len {
                let blocked: Vec<usize> = (0..key_len)
                    .filter(|j| key >> j & 1 == 1)
                    .map(|j| keys[j])
                    .collect();
                for k in 0..kinds {
                    let start = t.masks.len() as u32;
                    for &p in cands.iter().filter(|&&p| plan.placements[p].kind == k) {
                        let cells = &plan.placements[p].cells;
                        if blocked.iter().any(|b| cells.contains(b)) {
                            continue;
                        }
                        let mut m = Bits::ZERO;
                        for &i in cells {
                            m.set(i);
                        }
                        t.masks.push(m);
                        t.pids.push(p as u32);
                    }
                    t.ranges[((anchor << key_len) | key) * kinds + k] =
                        (start, t.masks.len() as u32);
                }
            }
        }
        t
    }

    /// The occupancy pattern of `anchor`'s key squares.
    #[inline(always)]
    pub fn key(&self, anchor: usize, occupied: &Bits<W>) -> usize {
        let cells = &self.key_cells[anchor * self.key_len..(anchor + 1) * self.key_len];
        let mut key = 0;
        for (j, &c) in cells.iter().enumerate() {
            key |= (occupied.get(c as usize) as usize) << j;
        }
        key
    }
}

/// The squares (other than the anchor) most candidates need; padded with the anchor, which
/// is always empty when it is read and so filters nothing.
fn key_squares(plan: &Plan, anchor: usize, cands: &[usize], key_len: usize) -> Vec<usize> {
    let mut freq: Vec<(usize, usize)> = Vec::new();
    for &p in cands {
        for &c in &plan.placements[p].cells[1..] {
            match freq.iter_mut().find(|f| f.0 == c) {
                Some(f) => f.1 += 1,
                None => freq.push((c, 1)),
            }
        }
    }
    freq.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    let mut keys: Vec<usize> = freq.into_iter().take(key_len).map(|f| f.0).collect();
    keys.resize(key_len, anchor);
    keys
}
