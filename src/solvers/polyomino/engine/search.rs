//! The bitboard exact-cover search: always fill the first empty square (in board order), try
//! the candidates anchored there (one list per occupancy of its key squares, see [`Table`]),
//! and cut branches that leave a lone empty square when no piece is a single square.
//!
//! Anchoring at the first empty square makes every tiling appear exactly once (its piece on
//! that square is forced to have it as its first cell), so no column choice heuristic is
//! needed: the "first empty square" is the most constrained column of the exact cover in
//! practice for packings, at the cost of one `trailing_zeros`.
//!
//! Pockets of more than one square are not looked for at every node: a flood fill costs more
//! than it saves here (the table already leaves out placements that wall off a pocket against
//! the region's border), and the search reaches a pocket soon anyway, as squares are filled
//! in order.

use super::bits::Bits;
use super::table::{size_bounds, Geometry, Table};
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
    geometry: &'p Geometry<W>,
    pub remaining: Vec<u16>,
    /// Bit `k` set while kind `k` still has pieces to place.
    pub unused: u64,
    /// Kinds with more than one piece (the others need no count, only their `unused` bit).
    multiple: u64,
    /// Cut branches with a lone empty square (only when no piece is a single square).
    lone_cut: bool,
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
        geometry: &'p Geometry<W>,
        prune: bool,
        max_nodes: Option<u64>,
        on_solution: F,
    ) -> Self {
        Self {
            plan,
            table,
            geometry,
            remaining: plan
                .kinds
                .iter()
                .map(|k| k.instances.len() as u16)
                .collect(),
            unused: kinds_mask(plan.kinds.len()),
            multiple: plan
                .kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| k.instances.len() > 1)
                .fold(0, |m, (i, _)| m | 1 << i),
            lone_cut: prune && size_bounds(plan).0 >= 2,
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
        self.geometry.blocked
    }

    pub fn mask(&self, placement: usize) -> Bits<W> {
        super::table::mask_of(&self.plan.placements[placement].cells)
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

    /// True when the board after placing is worth searching.
    #[inline(always)]
    fn viable(&self, next: Bits<W>) -> bool {
        !self.lone_cut || !self.geometry.has_lone_square(next)
    }

    /// The placements [`Searcher::search`] would recurse into from `occupied`, in the same
    /// order, counting every fitting candidate in `self.nodes` as it does: splitting a run
    /// here into independent tasks changes neither the solutions' order nor the node count.
    /// `None` when the board is already full.
    pub fn children(&mut self, occupied: Bits<W>) -> Option<Vec<usize>> {
        let cell = occupied.complement().lowest()?;
        let t = self.table;
        let (lo, hi) = t.candidates(cell, &occupied);
        let mut out = Vec::new();
        for entry in &t.entries[lo..hi] {
            if entry.mask.intersects(occupied) || self.unused >> entry.kind & 1 == 0 {
                continue;
            }
            self.nodes += 1;
            if self.viable(occupied.or(entry.mask)) {
                out.push(entry.pid as usize);
            }
        }
        Some(out)
    }

    /// Searches from `occupied` (with `self.stack`, `self.remaining` and `self.unused`
    /// describing the pieces already placed there).
    pub fn search(&mut self, occupied: Bits<W>) {
        let depth = self.stack.len();
        let pieces: usize = self.plan.kinds.iter().map(|k| k.instances.len()).sum();
        self.stack.resize(depth.max(pieces) + 1, usize::MAX);
        self.descend(occupied, self.unused, depth);
        self.stack.truncate(depth);
    }

    /// One level of [`Searcher::search`]: `unused` and `depth` travel as arguments and the
    /// stack is a fixed buffer, so a node touches memory only for its candidates.
    fn descend(&mut self, occupied: Bits<W>, unused: u64, depth: usize) {
        let Some(cell) = occupied.complement().lowest() else {
            if (self.on_solution)(&self.stack[..depth]) == Flow::Stop {
                self.stopped = true;
            }
            return;
        };
        let t = self.table;
        let (lo, hi) = t.candidates(cell, &occupied);
        for entry in &t.entries[lo..hi] {
            // One branch for both tests: a clash on the board, or no piece of the kind left.
            if entry.mask.overlap(occupied) | (!unused >> entry.kind & 1) != 0 {
                continue;
            }
            if self.nodes == self.max_nodes {
                self.stopped = true;
                self.limit_hit = true;
                return;
            }
            self.nodes += 1;
            let next = occupied.or(entry.mask);
            if !self.viable(next) {
                continue;
            }
            self.stack[depth] = entry.pid as usize;
            let bit = 1 << entry.kind;
            if bit & self.multiple == 0 {
                self.descend(next, unused & !bit, depth + 1);
            } else {
                let k = entry.kind as usize;
                self.remaining[k] -= 1;
                let left = if self.remaining[k] == 0 {
                    unused & !bit
                } else {
                    unused
                };
                self.descend(next, left, depth + 1);
                self.remaining[k] += 1;
            }
            if self.stopped {
                return;
            }
        }
    }
}

/// The bit set of kinds `0..n`.
pub fn kinds_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
