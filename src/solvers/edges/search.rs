//! The fast engine: a fixed cell order over precomputed candidate lists ([`Tables`]), an
//! explicit stack instead of recursion, and symmetry breaking so that the rotations of a
//! solution are searched once.
//!
//! Symmetry breaking: the board rotations that keep its shape (4 for a square board, 2 for a
//! rectangle) map the corner cells onto each other, and every rotation puts a different tile
//! into the top-left corner. So each group of rotated solutions has exactly one member whose
//! top-left tile has the smallest number among the corner tiles it can be rotated to; the
//! search keeps only that member (a cheap `tile > anchor` test at the other corners) and
//! multiplies back: raw = distinct × 4 (or × 2). The rotations act freely on solutions (every
//! turn moves the top-left tile away), so the multiplication is exact even for puzzles with
//! symmetric or repeated tiles.

use super::puzzle::{Placement, Puzzle, Solution};
use super::tables::{Cand, Tables};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The order in which cells are filled. Each places a cell after its left and top neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    RowMajor,
    ColMajor,
    /// Anti-diagonals from the top-left corner, each from top-right to bottom-left.
    Diagonal,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "rowmajor" | "row-major" | "rows" => Ok(Order::RowMajor),
            "colmajor" | "col-major" | "columns" => Ok(Order::ColMajor),
            "diagonal" => Ok(Order::Diagonal),
            other => Err(format!(
                "unknown order '{other}' (rowmajor, colmajor or diagonal)"
            )),
        }
    }
}

impl Order {
    /// The default: sweep along the shorter side, so the frontier of placed cells whose
    /// neighbours are still open stays short (row-major for square and tall boards).
    pub fn for_board(rows: usize, cols: usize) -> Order {
        if cols > rows {
            Order::ColMajor
        } else {
            Order::RowMajor
        }
    }

    /// The cells (row-major indices) in this order.
    pub fn cells(self, rows: usize, cols: usize) -> Vec<usize> {
        match self {
            Order::RowMajor => (0..rows * cols).collect(),
            Order::ColMajor => (0..cols)
                .flat_map(|c| (0..rows).map(move |r| r * cols + c))
                .collect(),
            Order::Diagonal => (0..rows + cols - 1)
                .flat_map(|d| {
                    (0..rows)
                        .filter(move |&r| d >= r && d - r < cols)
                        .map(move |r| r * cols + d - r)
                })
                .collect(),
        }
    }
}

/// Why a search ended before exploring everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// As many solutions as were asked for were found.
    Enough,
    TimeLimit,
    PlacementLimit,
}

/// Explicit resource limits: a search never runs unbounded when they are set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub time: Option<Duration>,
    pub placements: Option<u64>,
}

impl Limits {
    /// Whether a limit is exceeded (checked every million placements or so).
    pub fn check(&self, placements: u64, start: Instant) -> Option<Stop> {
        if self.placements.is_some_and(|m| placements >= m) {
            return Some(Stop::PlacementLimit);
        }
        if self.time.is_some_and(|t| start.elapsed() >= t) {
            return Some(Stop::TimeLimit);
        }
        None
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Solutions counting every board rotation separately.
    pub raw: u64,
    /// Solutions up to board rotation.
    pub distinct: u64,
    /// (tile, rotation, cell) triples tested.
    pub placements: u64,
    /// Placements accepted (search nodes).
    pub nodes: u64,
    /// The distinct solutions kept (fast engine) or the raw ones (naive engine).
    pub solutions: Vec<Solution>,
    pub stopped: Option<Stop>,
    /// True when the whole search space was explored, so the counts are exact.
    pub complete: bool,
    pub elapsed: Duration,
}

/// What the fast engine should do.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub order: Order,
    /// How many distinct solutions to keep.
    pub keep: usize,
    /// Stop after this many distinct solutions (`None`: count them all).
    pub stop_after: Option<u64>,
    pub limits: Limits,
}

/// Runs the fast engine.
pub fn solve(p: &Puzzle, cfg: &Config) -> Outcome {
    let start = Instant::now();
    let t = Tables::build(p);
    let n = p.rows * p.cols;
    let cells = cfg.order.cells(p.rows, p.cols);
    // Symmetry breaking needs distinct corner cells; a 1x1 board has one, and is searched whole.
    let breaks = n > 1;
    let mult = if breaks { p.symmetry_order() } else { 1 };
    let corners: Vec<usize> = if p.rows == p.cols {
        vec![p.cols - 1, n - 1, n - p.cols]
    } else {
        vec![n - 1]
    };
    // Per depth: list base for its class, where its left/top keys come from, corner test.
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
    // `rneed[cell]`/`bneed[cell]`: key demanded of the right / lower neighbour; slot n holds
    // the key an outer side demands.
    let mut rneed = vec![t.outer; n + 1];
    let mut bneed = vec![t.outer; n + 1];
    let mut used = vec![false; p.tiles.len()];
    let mut pos = vec![0u32; n];
    let mut end = vec![0u32; n];
    let mut lo = vec![0u16; n];
    let keys = t.keys;
    let start_of = &t.start;
    let cands: &[Cand] = &t.cands;

    let mut placements: u64 = 0;
    let mut nodes: u64 = 0;
    let mut found: u64 = 0;
    let mut kept = Vec::new();
    let mut stopped = None;
    let mut next_check: u64 = 1 << 18;

    let first = base[0] + t.outer as usize * keys + t.outer as usize;
    pos[0] = start_of[first];
    end[0] = start_of[first + 1];
    let mut d = 0usize;
    // Tile placed at each depth, for undoing `used` on backtrack.
    let mut tile_at = vec![0u16; n];
    // SAFETY (for every `get_unchecked` below): list indices come from `base + left * keys +
    // top` with `left, top < keys`, so they index `start_of` (one entry longer than the lists);
    // `pos[d] < end[d] <= cands.len()` when read; tiles index `used`; cells are `< n` and
    // neighbour sources `<= n`, inside `rneed`/`bneed` (length n + 1); depths are `< n`.
    debug_assert!(start_of.len() == t.classes * keys * keys + 1);
    'search: loop {
        let stop = unsafe { *end.get_unchecked(d) };
        let floor = unsafe { *lo.get_unchecked(d) };
        let mut at = unsafe { *pos.get_unchecked(d) };
        // The hot loop: walk the candidate list to the first unused tile.
        let c = loop {
            if at == stop {
                // List exhausted: backtrack.
                if d == 0 {
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
            stopped = cfg.limits.check(placements, start);
            if stopped.is_some() {
                break;
            }
        }
        let cell = unsafe { *cells.get_unchecked(d) };
        unsafe {
            *rneed.get_unchecked_mut(cell) = c.right;
            *bneed.get_unchecked_mut(cell) = c.bottom;
        }
        if d + 1 == n {
            found += 1;
            if kept.len() < cfg.keep {
                let mut grid = vec![Placement { tile: 0, rot: 0 }; n];
                for k in 0..n {
                    let ck = cands[pos[k] as usize];
                    grid[cells[k]] = Placement {
                        tile: ck.tile as usize,
                        rot: ck.rot as u8,
                    };
                }
                kept.push(Solution {
                    rows: p.rows,
                    cols: p.cols,
                    cells: grid,
                });
            }
            if cfg.stop_after.is_some_and(|s| found >= s) {
                stopped = Some(Stop::Enough);
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
    let complete = stopped.is_none();
    let (raw, distinct) = if breaks {
        (found * mult, found)
    } else {
        (found, found / p.symmetry_order())
    };
    Outcome {
        raw,
        distinct,
        placements,
        nodes,
        solutions: kept,
        stopped,
        complete,
        elapsed: start.elapsed(),
    }
}
