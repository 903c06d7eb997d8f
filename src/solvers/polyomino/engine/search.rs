//! The bitboard exact-cover search: always fill the first empty square (in board order), try
//! every unused kind's placements anchored there, and cut branches that leave an empty pocket
//! no combination of the remaining pieces can fill.
//!
//! Anchoring at the first empty square makes every tiling appear exactly once (its piece on
//! that square is forced to have it as its first cell), so no column choice heuristic is
//! needed: the "first empty square" is the most constrained column of the exact cover in
//! practice for packings, at the cost of one `trailing_zeros`.

use super::bits::Bits;
use super::table::Table;
use crate::solvers::polyomino::placements::Plan;

/// What the caller wants after seeing a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

pub struct Searcher<'p, const W: usize, F> {
    plan: &'p Plan,
    table: &'p Table<W>,
    pub remaining: Vec<u16>,
    /// Bit `k` set while kind `k` still has pieces to place.
    pub unused: u64,
    uniform_size: Option<u32>,
    not_first_minor: Bits<W>,
    not_last_minor: Bits<W>,
    minor: u32,
    prune: bool,
    pub nodes: u64,
    max_nodes: u64,
    pub stack: Vec<usize>,
    /// Set when the node limit was hit or the caller asked to stop.
    pub stopped: bool,
    pub limit_hit: bool,
    on_solution: F,
}

impl<'p, const W: usize, F: FnMut(&[usize]) -> Flow> Searcher<'p, W, F> {
    pub fn new(
        plan: &'p Plan,
        table: &'p Table<W>,
        prune: bool,
        max_nodes: Option<u64>,
        on_solution: F,
    ) -> Self {
        let len = plan.layout.len();
        let kinds = plan.kinds.len();
        let minor = plan.layout.minor_len();
        let (mut first, mut last) = (Bits::<W>::ZERO, Bits::<W>::ZERO);
        for i in 0..len {
            if i % minor == 0 {
                first.set(i);
            }
            if i % minor == minor - 1 {
                last.set(i);
            }
        }
        let sizes: Vec<u32> = plan.kinds.iter().map(|k| k.size as u32).collect();
        let uniform_size = match sizes.first() {
            Some(&s) if sizes.iter().all(|&t| t == s) => Some(s),
            _ => None,
        };
        Self {
            plan,
            table,
            remaining: plan
                .kinds
                .iter()
                .map(|k| k.instances.len() as u16)
                .collect(),
            unused: kinds_mask(kinds),
            uniform_size,
            not_first_minor: first.complement(),
            not_last_minor: last.complement(),
            minor: minor as u32,
            prune,
            nodes: 0,
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            stack: Vec::new(),
            stopped: false,
            limit_hit: false,
            on_solution,
        }
    }

    /// Squares that are not free at the start: outside the region or beyond the board.
    pub fn blocked(&self) -> Bits<W> {
        let mut b = Bits::ZERO;
        for i in 0..64 * W {
            if i >= self.plan.layout.len() || !self.plan.open[i] {
                b.set(i);
            }
        }
        b
    }

    pub fn mask(&self, placement: usize) -> Bits<W> {
        mask_of(&self.plan.placements[placement].cells)
    }

    /// Takes one piece of kind `k` (`put` false: puts it back).
    #[inline(always)]
    pub fn take(&mut self, k: usize, put: bool) {
        if put {
            self.remaining[k] += 1;
            self.unused |= 1 << k;
        } else {
            self.remaining[k] -= 1;
            if self.remaining[k] == 0 {
                self.unused &= !(1 << k);
            }
        }
    }

    /// The placements [`Searcher::search`] would recurse into from `occupied`, in the same
    /// order, counting every fitting candidate in `self.nodes` as it does: splitting a run
    /// here into independent tasks changes neither the solutions' order nor the node count.
    /// `None` when the board is already full.
    pub fn children(&mut self, occupied: Bits<W>) -> Option<Vec<usize>> {
        let cell = occupied.complement().lowest()?;
        let t = self.table;
        let base = ((cell << t.key_len) | t.key(cell, &occupied)) * t.kinds;
        let mut out = Vec::new();
        let mut kinds = self.unused;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let (lo, hi) = t.ranges[base + k];
            let (lo, hi) = (lo as usize, hi as usize);
            for (e, &m) in t.masks[lo..hi].iter().enumerate() {
                if m.intersects(occupied) {
                    continue;
                }
                self.nodes += 1;
                self.take(k, false);
                if !self.prune || self.fillable(occupied.or(m), m) {
                    out.push(t.pids[lo + e] as usize);
                }
                self.take(k, true);
            }
        }
        Some(out)
    }

    /// Searches from `occupied` (with `self.stack`, `self.remaining` and `self.unused`
    /// describing the pieces already placed there).
    pub fn search(&mut self, occupied: Bits<W>) {
        let Some(cell) = occupied.complement().lowest() else {
            if (self.on_solution)(&self.stack) == Flow::Stop {
                self.stopped = true;
            }
            return;
        };
        let t = self.table;
        let base = ((cell << t.key_len) | t.key(cell, &occupied)) * t.kinds;
        let mut kinds = self.unused;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let (lo, hi) = t.ranges[base + k];
            let (lo, hi) = (lo as usize, hi as usize);
            for (e, &m) in t.masks[lo..hi].iter().enumerate() {
                if m.intersects(occupied) {
                    continue;
                }
                let pid = t.pids[lo + e];
                if self.nodes == self.max_nodes {
                    self.stopped = true;
                    self.limit_hit = true;
                    return;
                }
                self.nodes += 1;
                let next = occupied.or(m);
                self.take(k, false);
                if !self.prune || self.fillable(next, m) {
                    self.stack.push(pid as usize);
                    self.search(next);
                    self.stack.pop();
                }
                self.take(k, true);
                if self.stopped {
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn grow(&self, x: Bits<W>) -> Bits<W> {
        x.or(x.shifted_up(1).and(self.not_first_minor))
            .or(x.shifted_down(1).and(self.not_last_minor))
            .or(x.shifted_up(self.minor))
            .or(x.shifted_down(self.minor))
    }

    /// False when the piece just placed (`placed`) closed off a pocket of empty squares the
    /// remaining pieces cannot fill: smaller than the smallest, or not a multiple of the gcd
    /// of their sizes. Only pockets touching the new piece can be new, and only small ones
    /// matter, so each flood stops after [`POCKET_STEPS`] steps of growth (a weaker test,
    /// never a wrong one: it only ever cuts branches with no solution).
    fn fillable(&self, occupied: Bits<W>, placed: Bits<W>) -> bool {
        let (min, gcd) = match self.uniform_size {
            Some(s) => (s, s),
            None => {
                let mut min = u32::MAX;
                let mut g = 0;
                let mut kinds = self.unused;
                while kinds != 0 {
                    let k = kinds.trailing_zeros() as usize;
                    kinds &= kinds - 1;
                    let size = self.plan.kinds[k].size as u32;
                    min = min.min(size);
                    g = gcd_u32(g, size);
                }
                if min == u32::MAX {
                    return true;
                }
                (min, g.max(1))
            }
        };
        let empty = occupied.complement();
        let mut seeds = self.grow(placed).and(empty);
        while !seeds.is_zero() {
            let mut comp = seeds.lowest_bit();
            let mut closed = false;
            for _ in 0..POCKET_STEPS {
                let grown = self.grow(comp).and(empty);
                if grown == comp {
                    closed = true;
                    break;
                }
                comp = grown;
            }
            if closed {
                let size = comp.count();
                if size < min || !size.is_multiple_of(gcd) {
                    return false;
                }
            }
            seeds = seeds.and_not(comp);
        }
        true
    }
}

/// Growth steps before a flood is taken to be open board rather than a pocket.
const POCKET_STEPS: usize = 6;

/// The bit set of kinds `0..n`.
pub fn kinds_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn mask_of<const W: usize>(cells: &[usize]) -> Bits<W> {
    let mut m = Bits::ZERO;
    for &i in cells {
        m.set(i);
    }
    m
}

fn gcd_u32(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd_u32(b, a % b)
    }
}
