//! The candidate table the search reads at every node: for each anchor square, the
//! placements whose first square it is, pre-filtered by the occupancy of up to eight *key*
//! squares just after the anchor, and with the placements no tiling can use left out.
//!
//! Most candidates at a node fail because they need a square just below or beside the
//! anchor that is already covered. Reading the key squares with two shifts and jumping to
//! the list made for that occupancy pattern skips them without touching their masks. The
//! key is two windows of consecutive squares: the ones right after the anchor (the rest of
//! its line) and the ones around its neighbour on the next line, which are contiguous when
//! lines are short (a 6×10 board is numbered along its 6-square side).

use super::bits::Bits;
use crate::solvers::polyomino::placements::Plan;

/// Most key squares per window (two windows: 256 lists per anchor).
const MAX_HALF: u32 = 4;
/// Memory budget for the duplicated candidate lists.
const BUDGET_BYTES: usize = 64 << 20;
/// Most list entries for which the table build also runs the local pocket test.
const LOCAL_CUT_LISTS: usize = 1 << 20;
/// Growth steps of the static pocket test before a flood is taken to be open board.
const POCKET_STEPS: usize = 8;

/// One candidate: the squares it covers, its placement index and its kind (16 bytes on a
/// one-word board, so a list is read as one contiguous run).
#[derive(Clone, Copy, Debug)]
pub struct Entry<const W: usize> {
    pub mask: Bits<W>,
    pub pid: u32,
    pub kind: u32,
}

pub struct Table<const W: usize> {
    /// Key squares per window.
    half: u32,
    /// Offset from the anchor of the second window (the first starts at `anchor + 1`).
    second: usize,
    /// `starts[(anchor << 2 * half) | key]`: first entry of that list; one extra at the end.
    starts: Vec<u32>,
    pub entries: Vec<Entry<W>>,
}

/// The board geometry the static and dynamic pocket tests share.
#[derive(Clone, Copy)]
pub struct Geometry<const W: usize> {
    /// Squares outside the region or beyond the board.
    pub blocked: Bits<W>,
    not_first_minor: Bits<W>,
    not_last_minor: Bits<W>,
    minor: u32,
}

impl<const W: usize> Geometry<W> {
    pub fn new(plan: &Plan) -> Self {
        let len = plan.layout.len();
        let minor = plan.layout.minor_len();
        let (mut first, mut last, mut blocked) = (Bits::ZERO, Bits::ZERO, Bits::ZERO);
        for i in 0..64 * W {
            if i % minor == 0 {
                first.set(i);
            }
            if i % minor == minor - 1 {
                last.set(i);
            }
            if i >= len || !plan.open[i] {
                blocked.set(i);
            }
        }
        Self {
            blocked,
            not_first_minor: first.complement(),
            not_last_minor: last.complement(),
            minor: minor as u32,
        }
    }

    /// The squares next to `x` (not `x` itself unless it has a neighbour in `x`).
    #[inline(always)]
    pub fn neighbours(&self, x: Bits<W>) -> Bits<W> {
        x.shifted_up(1)
            .and(self.not_first_minor)
            .or(x.shifted_down(1).and(self.not_last_minor))
            .or(x.shifted_up(self.minor))
            .or(x.shifted_down(self.minor))
    }

    /// True when some empty square has no empty neighbour: a one-square pocket.
    #[inline(always)]
    pub fn has_lone_square(&self, occupied: Bits<W>) -> bool {
        let empty = occupied.complement();
        !empty.and_not(self.neighbours(empty)).is_zero()
    }

    /// True when a square of `seeds` lies in a closed pocket of empty squares (the complement
    /// of `occupied`) smaller than `min`. Each flood stops once it reaches `min` squares.
    pub fn walls_off_small(&self, occupied: Bits<W>, seeds: Bits<W>, min: u32) -> bool {
        let empty = occupied.complement();
        let mut seeds = seeds.and(empty);
        while !seeds.is_zero() {
            let mut comp = seeds.lowest_bit();
            while comp.count() < min {
                let grown = comp.or(self.neighbours(comp)).and(empty);
                if grown == comp {
                    return true;
                }
                comp = grown;
            }
            seeds = seeds.and_not(comp);
        }
        false
    }

    /// False when `occupied` walls off, next to `placed`, a pocket whose size is below
    /// `min` or not a multiple of `gcd` (no set of pieces fills it). Floods stop after
    /// [`POCKET_STEPS`], so large pockets pass: a weaker test, never a wrong one.
    pub fn pockets_fillable(&self, occupied: Bits<W>, placed: Bits<W>, min: u32, gcd: u32) -> bool {
        let empty = occupied.complement();
        let mut seeds = self.neighbours(placed).and(empty);
        while !seeds.is_zero() {
            let mut comp = seeds.lowest_bit();
            let mut closed = false;
            for _ in 0..POCKET_STEPS {
                let grown = comp.or(self.neighbours(comp)).and(empty);
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

/// The smallest piece size and the gcd of all sizes: every pocket of a tiling is a sum of
/// piece sizes, so at least `min` and a multiple of `gcd`.
pub fn size_bounds(plan: &Plan) -> (u32, u32) {
    let min = plan.kinds.iter().map(|k| k.size as u32).min().unwrap_or(1);
    let gcd = plan
        .kinds
        .iter()
        .fold(0, |g, k| gcd_u32(g, k.size as u32))
        .max(1);
    (min, gcd)
}

fn gcd_u32(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd_u32(b, a % b)
    }
}

pub fn mask_of<const W: usize>(cells: &[usize]) -> Bits<W> {
    let mut m = Bits::ZERO;
    for &i in cells {
        m.set(i);
    }
    m
}

impl<const W: usize> Table<W> {
    /// Builds the lists from every placement that can be part of a tiling as far as the
    /// region's own walls tell: one that walls off an unfillable pocket against the border
    /// or a hole is left out once here instead of being tried at every node.
    pub fn new(plan: &Plan, geometry: &Geometry<W>) -> Self {
        let len = plan.layout.len();
        let minor = plan.layout.minor_len();
        let (min, gcd) = size_bounds(plan);
        let mut by_anchor: Vec<Vec<usize>> = vec![Vec::new(); len];
        for (p, pl) in plan.placements.iter().enumerate() {
            let m = mask_of::<W>(&pl.cells);
            if geometry.pockets_fillable(geometry.blocked.or(m), m, min, gcd) {
                by_anchor[pl.cells[0]].push(p);
            }
        }
        let entry_bytes = std::mem::size_of::<Entry<W>>();
        let mut half = MAX_HALF;
        let (second, footprints, lists) = loop {
            let second = (1 + half as usize).max(minor.saturating_sub(1));
            let footprints = footprints(plan, &by_anchor, half, second);
            let lists: usize = footprints
                .iter()
                .flatten()
                .map(|&f| 1usize << (2 * half - f.count_ones()))
                .sum();
            let bytes = lists * entry_bytes + (len << (2 * half)) * 4;
            if half == 0 || bytes <= BUDGET_BYTES {
                break (second, footprints, lists);
            }
            half -= 1;
        };
        let mut t = Table {
            half,
            second,
            starts: Vec::with_capacity((len << (2 * half)) + 1),
            entries: Vec::new(),
        };
        let masks: Vec<Bits<W>> = plan.placements.iter().map(|p| mask_of(&p.cells)).collect();
        let local_cut = min >= 2 && lists <= LOCAL_CUT_LISTS;
        let mut before = Bits::<W>::ZERO;
        for (anchor, cands) in by_anchor.iter().enumerate() {
            let fps = &footprints[anchor];
            let key_cells: Vec<usize> = (0..half as usize)
                .map(|j| anchor + 1 + j)
                .chain((0..half as usize).map(|j| anchor + second + j))
                .collect();
            for key in 0..1u32 << (2 * half) {
                t.starts.push(t.entries.len() as u32);
                // What the search knows here: every square before the anchor is covered, and
                // the key squares are covered or empty as the key says.
                let (mut known, mut empty) = (geometry.blocked.or(before), Bits::<W>::ZERO);
                for (j, &c) in key_cells.iter().enumerate().filter(|(_, &c)| c < 64 * W) {
                    if key >> j & 1 == 1 {
                        known.set(c);
                    } else {
                        empty.set(c);
                    }
                }
                for (&p, &fp) in cands.iter().zip(fps) {
                    let m = masks[p];
                    if fp & key != 0
                        || (local_cut && geometry.walls_off_small(known.or(m), empty, min))
                    {
                        continue;
                    }
                    t.entries.push(Entry {
                        mask: m,
                        pid: p as u32,
                        kind: plan.placements[p].kind as u32,
                    });
                }
            }
            before.set(anchor);
        }
        t.starts.push(t.entries.len() as u32);
        t
    }

    /// The candidates at `anchor` that fit the occupancy of its key squares.
    #[inline(always)]
    pub fn candidates(&self, anchor: usize, occupied: &Bits<W>) -> (usize, usize) {
        let low = (1u64 << self.half) - 1;
        let key = (occupied.window(anchor + 1) & low)
            | (occupied.window(anchor + self.second) & low) << self.half;
        let slot = (anchor << (2 * self.half)) | key as usize;
        (self.starts[slot] as usize, self.starts[slot + 1] as usize)
    }
}

/// For each anchor's candidates, which key squares they cover (bit `j`: the `j`-th).
fn footprints(plan: &Plan, by_anchor: &[Vec<usize>], half: u32, second: usize) -> Vec<Vec<u32>> {
    by_anchor
        .iter()
        .enumerate()
        .map(|(anchor, cands)| {
            cands
                .iter()
                .map(|&p| {
                    let mut fp = 0;
                    for &c in &plan.placements[p].cells[1..] {
                        let d = c - anchor;
                        let h = half as usize;
                        if (1..=h).contains(&d) {
                            fp |= 1 << (d - 1);
                        }
                        if (second..second + h).contains(&d) {
                            fp |= 1 << (h + d - second);
                        }
                    }
                    fp
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::polyomino::{parse, Freedom, Region};

    /// A 3×4 board (numbered down its 3-square columns) for trominoes.
    fn geometry() -> (Plan, Geometry<1>) {
        let pieces = parse::pieces_text("###\n\n###\n\n###\n\n###").unwrap();
        let plan = Plan::new(&pieces, &Region::rectangle(3, 4), Freedom::default());
        let g = Geometry::new(&plan);
        (plan, g)
    }

    #[test]
    fn pocket_tests_see_walled_off_squares() {
        let (plan, g) = geometry();
        let at = |r: usize, c: usize| plan.layout.index(r, c);
        assert_eq!(size_bounds(&plan), (3, 3));
        // Column 0 full, and (0, 1), (2, 1) covered: (1, 1) is empty with an empty right
        // neighbour (1, 2), so no lone square, but with (1, 2) covered too it is one.
        let mut occ = g.blocked;
        for i in [at(0, 0), at(1, 0), at(2, 0), at(0, 1), at(2, 1)] {
            occ.set(i);
        }
        assert!(!g.has_lone_square(occ));
        let mut walled = occ;
        walled.set(at(1, 2));
        assert!(g.has_lone_square(walled));
        // (1, 1) and (1, 2) walled off together: a 2-square pocket, too small for a tromino
        // but fine if dominoes were the smallest pieces.
        let mut pair = occ;
        for i in [at(0, 2), at(2, 2), at(1, 3)] {
            pair.set(i);
        }
        let mut seed = Bits::ZERO;
        seed.set(at(1, 1));
        assert!(g.walls_off_small(pair, seed, 3));
        assert!(!g.walls_off_small(pair, seed, 2));
        assert!(
            !g.walls_off_small(occ, seed, 3),
            "open to the rest of the board"
        );
    }
}
