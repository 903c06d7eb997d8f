//! The fast engine's inner loop over one subtree of the search.
//!
//! [`Prepared`] holds everything that depends only on the puzzle and the cell order (the
//! candidate tables, and per depth: the list base of the cell's class, where its left and top
//! keys come from, whether it is a corner constrained by the symmetry breaking).
//! [`Prepared::run`] searches every completion of a given prefix of placements.

use super::puzzle::{Placement, Puzzle, Solution};
use super::search::{Config, Order, Stop};
use super::tables::{Cand, Tables};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The puzzle compiled for a given cell order.
pub struct Prepared {
    pub t: Tables,
    pub n: usize,
    pub rows: usize,
    pub cols: usize,
    pub tiles: usize,
    /// Row-major cell index at each depth.
    pub cells: Vec<usize>,
    pub base: Vec<usize>,
    /// Cell whose `rneed` / `bneed` gives the left / top key at each depth (`n`: the outside).
    pub left_src: Vec<usize>,
    pub top_src: Vec<usize>,
    /// The cell at this depth is a corner whose tile must be numbered above the top-left one.
    pub above_anchor: Vec<bool>,
    /// Symmetry breaking is on (every board but 1 × 1).
    pub breaks: bool,
}

/// State shared by parallel workers: a stop flag and running totals for the limits.
#[derive(Default)]
pub struct Shared {
    pub stop: AtomicBool,
    pub placements: AtomicU64,
    pub found: AtomicU64,
}

/// What one subtree search produced.
#[derive(Default)]
pub struct Part {
    pub found: u64,
    pub placements: u64,
    pub nodes: u64,
    pub kept: Vec<Solution>,
    pub stopped: Option<Stop>,
}

impl Prepared {
    pub fn new(p: &Puzzle, order: Order) -> Prepared {
        let t = Tables::build(p);
        let n = p.rows * p.cols;
        let cells = order.cells(p.rows, p.cols);
        // Symmetry breaking needs distinct corner cells; a 1x1 board is searched whole.
        let breaks = n > 1;
        let corners: Vec<usize> = if p.rows == p.cols {
            vec![p.cols - 1, n - 1, n - p.cols]
        } else {
            vec![n - 1]
        };
        let mut base = vec![0usize; n];
        let mut left_src = vec![n; n];
        let mut top_src = vec![n; n];
        let mut above_anchor = vec![false; n];
        for (d, &cell) in cells.iter().enumerate() {
            let (r, c) = (cell / p.cols, cell % p.cols);
            base[d] = t.class_base(t.class_of(p, r, c));
            if c > 0 {
                left_src[d] = cell - 1;
            }
            if r > 0 {
                top_src[d] = cell - p.cols;
            }
            above_anchor[d] = breaks && corners.contains(&cell);
        }
        Prepared {
            t,
            n,
            rows: p.rows,
            cols: p.cols,
            tiles: p.tiles.len(),
            cells,
            base,
            left_src,
            top_src,
            above_anchor,
            breaks,
        }
    }

    /// The candidate list range for depth `d`, given the keys placed so far.
    #[inline(always)]
    fn list(&self, d: usize, rneed: &[u16], bneed: &[u16]) -> (u32, u32) {
        let list = self.base[d]
            + rneed[self.left_src[d]] as usize * self.t.keys
            + bneed[self.top_src[d]] as usize;
        (self.t.start[list], self.t.start[list + 1])
    }

    /// The candidates accepted at depth `prefix.len()` after `prefix` (candidate indices, one
    /// per depth), and how many placements were tested to find them.
    pub fn children(&self, prefix: &[u32]) -> (Vec<u32>, u64) {
        let (rneed, bneed, used) = self.replay(prefix);
        let d = prefix.len();
        let (from, to) = self.list(d, &rneed, &bneed);
        let floor = self.floor(d, prefix);
        let mut out = Vec::new();
        for at in from..to {
            let c = self.t.cands[at as usize];
            if !used[c.tile as usize] && c.tile >= floor {
                out.push(at);
            }
        }
        (out, u64::from(to - from))
    }

    fn floor(&self, d: usize, prefix: &[u32]) -> u16 {
        if self.above_anchor[d] {
            self.t.cands[prefix[0] as usize].tile + 1
        } else {
            0
        }
    }

    /// Rebuilds `rneed`, `bneed` and `used` after placing `prefix`.
    fn replay(&self, prefix: &[u32]) -> (Vec<u16>, Vec<u16>, Vec<bool>) {
        let mut rneed = vec![self.t.outer; self.n + 1];
        let mut bneed = vec![self.t.outer; self.n + 1];
        let mut used = vec![false; self.tiles];
        for (d, &at) in prefix.iter().enumerate() {
            let c = self.t.cands[at as usize];
            rneed[self.cells[d]] = c.right;
            bneed[self.cells[d]] = c.bottom;
            used[c.tile as usize] = true;
        }
        (rneed, bneed, used)
    }

    /// Searches every completion of `prefix` (which must be a consistent partial placement
    /// shorter than the board).
    pub fn run(&self, cfg: &Config, prefix: &[u32], start: Instant, shared: &Shared) -> Part {
        let n = self.n;
        let top = prefix.len();
        debug_assert!(top < n);
        let (mut rneed, mut bneed, mut used) = self.replay(prefix);
        let mut pos = vec![0u32; n];
        let mut end = vec![0u32; n];
        let mut lo = vec![0u16; n];
        let mut tile_at = vec![0u16; n];
        for (d, &at) in prefix.iter().enumerate() {
            pos[d] = at;
            tile_at[d] = self.t.cands[at as usize].tile;
        }
        let (from, to) = self.list(top, &rneed, &bneed);
        pos[top] = from;
        end[top] = to;
        lo[top] = self.floor(top, prefix);
        let keys = self.t.keys;
        let start_of: &[u32] = &self.t.start;
        let cands: &[Cand] = &self.t.cands;
        let (cells, base, left_src, top_src, above_anchor) = (
            &self.cells[..],
            &self.base[..],
            &self.left_src[..],
            &self.top_src[..],
            &self.above_anchor[..],
        );
        let mut part = Part::default();
        let (mut placements, mut nodes) = (0u64, 0u64);
        let mut reported = 0u64;
        let mut next_check: u64 = 1 << 18;
        let mut d = top;
        // SAFETY (every `get_unchecked` below): list indices are `base + left * keys + top`
        // with `left, top < keys`, inside `start_of` (one entry longer than the lists);
        // `pos[d] < end[d] <= cands.len()` when a candidate is read; tiles index `used`;
        // cells are `< n` and neighbour sources `<= n`, inside `rneed`/`bneed` (n + 1 long);
        // depths stay in `top..n`.
        debug_assert!(start_of.len() == self.t.classes * keys * keys + 1);
        'search: loop {
            let stop = unsafe { *end.get_unchecked(d) };
            let floor = unsafe { *lo.get_unchecked(d) };
            let mut at = unsafe { *pos.get_unchecked(d) };
            // The hot loop: walk the candidate list to the first unused tile.
            let c = loop {
                if at == stop {
                    if d == top {
                        break 'search;
                    }
                    d -= 1;
                    unsafe {
                        *used.get_unchecked_mut(*tile_at.get_unchecked(d) as usize) = false;
                        *pos.get_unchecked_mut(d) += 1;
                    }
                    continue 'search;
                }
                let c = unsafe { *cands.get_unchecked(at as usize) };
                placements += 1;
                if !unsafe { *used.get_unchecked(c.tile as usize) } && c.tile >= floor {
                    break c;
                }
                at += 1;
            };
            unsafe { *pos.get_unchecked_mut(d) = at };
            nodes += 1;
            if nodes >= next_check {
                next_check += 1 << 18;
                let total = shared
                    .placements
                    .fetch_add(placements - reported, Ordering::Relaxed)
                    + placements
                    - reported;
                reported = placements;
                part.stopped = cfg.limits.check(total, start);
                if part.stopped.is_some() {
                    shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
                if shared.stop.load(Ordering::Relaxed) {
                    part.stopped = Some(Stop::Enough);
                    break;
                }
            }
            let cell = unsafe { *cells.get_unchecked(d) };
            unsafe {
                *rneed.get_unchecked_mut(cell) = c.right;
                *bneed.get_unchecked_mut(cell) = c.bottom;
            }
            if d + 1 == n {
                part.found += 1;
                if part.kept.len() < cfg.keep {
                    part.kept.push(self.solution(&pos));
                }
                let total = shared.found.fetch_add(1, Ordering::Relaxed) + 1;
                if cfg.stop_after.is_some_and(|s| total >= s) {
                    shared.stop.store(true, Ordering::Relaxed);
                    part.stopped = Some(Stop::Enough);
                    break;
                }
                pos[d] = at + 1;
                continue;
            }
            unsafe {
                *used.get_unchecked_mut(c.tile as usize) = true;
                *tile_at.get_unchecked_mut(d) = c.tile;
            }
            d += 1;
            unsafe {
                let list = *base.get_unchecked(d)
                    + *rneed.get_unchecked(*left_src.get_unchecked(d)) as usize * keys
                    + *bneed.get_unchecked(*top_src.get_unchecked(d)) as usize;
                *pos.get_unchecked_mut(d) = *start_of.get_unchecked(list);
                *end.get_unchecked_mut(d) = *start_of.get_unchecked(list + 1);
                *lo.get_unchecked_mut(d) = if *above_anchor.get_unchecked(d) {
                    *tile_at.get_unchecked(0) + 1
                } else {
                    0
                };
            }
        }
        part.placements = placements;
        part.nodes = nodes;
        part
    }

    /// The board described by the candidate index at every depth.
    fn solution(&self, pos: &[u32]) -> Solution {
        let mut grid = vec![Placement { tile: 0, rot: 0 }; self.n];
        for (d, &at) in pos.iter().enumerate() {
            let c = self.t.cands[at as usize];
            grid[self.cells[d]] = Placement {
                tile: c.tile as usize,
                rot: c.rot as u8,
            };
        }
        Solution {
            rows: self.rows,
            cols: self.cols,
            cells: grid,
        }
    }
}
