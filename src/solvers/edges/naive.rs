//! The seeds' naive backtracking, kept exact so its placement count can be compared with the
//! published numbers (56,592 for Impuzzable, 66,384 for the Arc puzzle).
//!
//! Both seed programs fill the cells one by one in a fixed order and, at each cell, try every
//! unused tile in file order in all four rotations, counting every tried placement (Impuzzable's
//! `tot = tot + 1` in `CheckPoss`, called for every tile and rotation, including at the first and
//! the last cell), descending only when the placement fits its already placed neighbours.
//! Impuzzable fills columns right to left, each top to bottom, which is row-major order on the
//! board turned a quarter turn; a whole-board rotation maps the search tree onto itself, so
//! row-major order gives the same count.

use super::puzzle::{rotated, Placement, Puzzle, Solution, BOTTOM, LEFT, RIGHT, TOP};
use super::search::{Limits, Outcome, Stop};

/// Runs the naive search; `keep` says how many solutions to return, `stop_at` after how many
/// solutions to stop (`None` = all).
pub fn solve_naive(p: &Puzzle, keep: usize, stop_at: Option<u64>, limits: &Limits) -> Outcome {
    let mut s = Naive {
        p,
        n: p.rows * p.cols,
        used: vec![false; p.tiles.len()],
        board: Vec::with_capacity(p.rows * p.cols),
        placements: 0,
        nodes: 0,
        raw: 0,
        solutions: Vec::new(),
        keep,
        stop_at,
        limits,
        stop: None,
        start: std::time::Instant::now(),
    };
    s.recurse();
    let complete = s.stop.is_none();
    // Each board rotation maps a solution to a different one (some tile's rotation changes),
    // so the rotations partition the raw solutions into equal groups. A search cut short has
    // seen only part of some groups: count those as groups too.
    let distinct = if complete {
        s.raw / p.symmetry_order()
    } else {
        s.raw.div_ceil(p.symmetry_order())
    };
    Outcome {
        raw: s.raw,
        distinct,
        placements: s.placements,
        nodes: s.nodes,
        solutions: s.solutions,
        stopped: s.stop,
        complete,
        elapsed: s.start.elapsed(),
    }
}

struct Naive<'a> {
    p: &'a Puzzle,
    n: usize,
    used: Vec<bool>,
    board: Vec<(usize, u8, [i32; 4])>,
    placements: u64,
    nodes: u64,
    raw: u64,
    solutions: Vec<Solution>,
    keep: usize,
    stop_at: Option<u64>,
    limits: &'a Limits,
    stop: Option<Stop>,
    start: std::time::Instant,
}

impl Naive<'_> {
    fn fits(&self, cell: usize, e: &[i32; 4]) -> bool {
        let (r, c) = (cell / self.p.cols, cell % self.p.cols);
        if let Some(b) = self.p.border {
            let outside = [r == 0, c + 1 == self.p.cols, r + 1 == self.p.rows, c == 0];
            if (0..4).any(|s| outside[s] != (e[s] == b)) {
                return false;
            }
        }
        if c > 0 && !self.p.rule.fits(self.board[cell - 1].2[RIGHT], e[LEFT]) {
            return false;
        }
        if r > 0
            && !self
                .p
                .rule
                .fits(self.board[cell - self.p.cols].2[BOTTOM], e[TOP])
        {
            return false;
        }
        true
    }

    fn recurse(&mut self) {
        let cell = self.board.len();
        for t in 0..self.p.tiles.len() {
            if self.used[t] {
                continue;
            }
            for rot in 0..4u8 {
                if self.stop.is_some() {
                    return;
                }
                self.placements += 1;
                if self.placements & 0xfffff == 0 {
                    self.stop = self.limits.check(self.placements, self.start);
                }
                let e = rotated(&self.p.tiles[t], rot);
                if !self.fits(cell, &e) {
                    continue;
                }
                self.nodes += 1;
                self.board.push((t, rot, e));
                if cell + 1 == self.n {
                    self.raw += 1;
                    if self.solutions.len() < self.keep {
                        self.solutions.push(Solution {
                            rows: self.p.rows,
                            cols: self.p.cols,
                            cells: self
                                .board
                                .iter()
                                .map(|&(tile, rot, _)| Placement { tile, rot })
                                .collect(),
                        });
                    }
                    if self.stop_at.is_some_and(|k| self.raw >= k) {
                        self.stop = Some(Stop::Enough);
                    }
                } else {
                    self.used[t] = true;
                    self.recurse();
                    self.used[t] = false;
                }
                self.board.pop();
            }
        }
    }
}
