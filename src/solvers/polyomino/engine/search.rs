//! The bitboard exact-cover search: always fill the first empty square (in board order), try
//! every unused kind's placements anchored there, and cut branches that leave an empty pocket
//! no combination of the remaining pieces can fill.
//!
//! Anchoring at the first empty square makes every tiling appear exactly once (its piece on
//! that square is forced to have it as its first cell), so no column choice heuristic is
//! needed: the "first empty square" is the most constrained column of the exact cover in
//! practice for packings, at the cost of one `trailing_zeros`.

use super::bits::Bits;
use crate::solvers::polyomino::placements::Plan;

/// What the caller wants after seeing a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

pub struct Searcher<'p, const W: usize, F> {
    plan: &'p Plan,
    anchor_start: Vec<u32>,
    entry_kind: Vec<u16>,
    entry_mask: Vec<Bits<W>>,
    entry_pid: Vec<u32>,
    pub remaining: Vec<u16>,
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
    pub fn new(plan: &'p Plan, prune: bool, max_nodes: Option<u64>, on_solution: F) -> Self {
        let len = plan.layout.len();
        let mut order: Vec<usize> = (0..plan.placements.len()).collect();
        order.sort_by_key(|&p| (plan.placements[p].cells[0], plan.placements[p].kind));
        let mut anchor_start = vec![0u32; len + 1];
        for &p in &order {
            anchor_start[plan.placements[p].cells[0] + 1] += 1;
        }
        for i in 0..len {
            anchor_start[i + 1] += anchor_start[i];
        }
        let entry_kind = order
            .iter()
            .map(|&p| plan.placements[p].kind as u16)
            .collect();
        let entry_mask = order
            .iter()
            .map(|&p| mask_of(&plan.placements[p].cells))
            .collect();
        let entry_pid = order.iter().map(|&p| p as u32).collect();
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
            anchor_start,
            entry_kind,
            entry_mask,
            entry_pid,
            remaining: plan
                .kinds
                .iter()
                .map(|k| k.instances.len() as u16)
                .collect(),
            uniform_size,
            not_first_minor: first.not(),
            not_last_minor: last.not(),
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

    /// Searches from `occupied` (with `self.stack` and `self.remaining` describing the
    /// pieces already placed there).
    pub fn search(&mut self, occupied: Bits<W>) {
        let Some(cell) = occupied.not().lowest() else {
            if (self.on_solution)(&self.stack) == Flow::Stop {
                self.stopped = true;
            }
            return;
        };
        let (lo, hi) = (
            self.anchor_start[cell] as usize,
            self.anchor_start[cell + 1] as usize,
        );
        for e in lo..hi {
            let k = self.entry_kind[e] as usize;
            if self.remaining[k] == 0 {
                continue;
            }
            let m = self.entry_mask[e];
            if m.intersects(occupied) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                self.stopped = true;
                self.limit_hit = true;
                return;
            }
            let next = occupied.or(m);
            self.remaining[k] -= 1;
            if !self.prune || self.fillable(next) {
                self.stack.push(self.entry_pid[e] as usize);
                self.search(next);
                self.stack.pop();
            }
            self.remaining[k] += 1;
            if self.stopped {
                return;
            }
        }
    }

    /// False when some connected pocket of empty squares cannot be filled by the remaining
    /// pieces: smaller than the smallest, or not a multiple of the gcd of their sizes.
    fn fillable(&self, occupied: Bits<W>) -> bool {
        let (min, gcd) = match self.uniform_size {
            Some(s) => (s, s),
            None => {
                let mut min = u32::MAX;
                let mut g = 0;
                for (k, kind) in self.plan.kinds.iter().enumerate() {
                    if self.remaining[k] > 0 {
                        min = min.min(kind.size as u32);
                        g = gcd_u32(g, kind.size as u32);
                    }
                }
                (min, g.max(1))
            }
        };
        let mut empty = occupied.not();
        while !empty.is_zero() {
            let mut comp = empty.lowest_bit();
            loop {
                let grown = comp
                    .or(comp.shl(1).and(self.not_first_minor))
                    .or(comp.shr(1).and(self.not_last_minor))
                    .or(comp.shl(self.minor))
                    .or(comp.shr(self.minor))
                    .and(empty);
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            let size = comp.count();
            if size < min || size % gcd != 0 {
                return false;
            }
            empty = empty.and_not(comp);
        }
        true
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
