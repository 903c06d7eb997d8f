//! Deaconu's algorithm exactly as published: the checksum test, pieces sorted descending by
//! `N(P)`, then `SolveRecursively(k)` tries every position `(i, j)` of piece `k` in row-major
//! order and returns the first complete placement. Positions are the paper's 1-based
//! `(a_i, b_i)`: the top-left of the piece's matrix inside `R`.
//!
//! The paper keeps pieces in their given orientation; its suggested extension (rotations,
//! reflections) is honoured here by trying each allowed orientation at each position. This
//! solver is kept for fidelity and as an independent cross-check of the engine; it finds one
//! solution and is exponential without the engine's pruning, hence the node limit.

use super::piece::{CellMatrix, Shape};
use super::{validate, PiecePosition, PolyominoError, Problem, Solution};

/// The outcome of the paper's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperResult {
    /// The first solution found, or `None` ("No solution" in the paper).
    pub solution: Option<Solution>,
    /// Successful `PieceCanBePositionedAt` calls.
    pub nodes: u64,
    /// False when the node limit stopped the search before an answer.
    pub complete: bool,
    /// The order pieces were placed in (0-based input numbers, largest first).
    pub order: Vec<usize>,
}

struct State<'a> {
    rows: usize,
    cols: usize,
    /// 0 = free, `usize::MAX` = outside the region, `k + 1` = piece `k`.
    board: Vec<usize>,
    order: Vec<usize>,
    orientations: Vec<Vec<Shape>>,
    positions: Vec<(usize, usize, usize)>,
    nodes: u64,
    max_nodes: u64,
    limit_hit: bool,
    pieces: &'a [CellMatrix],
}

/// Runs the paper's algorithm on `problem` (after the same validation as the engine).
pub fn solve(problem: &Problem, max_nodes: Option<u64>) -> Result<PaperResult, PolyominoError> {
    validate(problem)?;
    let region = &problem.region;
    let (rows, cols) = (region.rows(), region.cols());
    let mut order: Vec<usize> = (0..problem.pieces.len()).collect();
    // "Sort (P[i]) descending by N(·)"; a stable sort keeps input order among equals.
    order.sort_by_key(|&i| std::cmp::Reverse(problem.pieces[i].count()));
    let board = region
        .grid
        .cells
        .iter()
        .map(|&open| if open { 0 } else { usize::MAX })
        .collect();
    let orientations = problem
        .pieces
        .iter()
        .map(|p| Shape::from_coords(&p.coords()).orientations(problem.freedom))
        .collect();
    let mut st = State {
        rows,
        cols,
        board,
        order: order.clone(),
        orientations,
        positions: vec![(0, 0, 0); problem.pieces.len()],
        nodes: 0,
        max_nodes: max_nodes.unwrap_or(u64::MAX),
        limit_hit: false,
        pieces: &problem.pieces,
    };
    let found = st.solve_recursively(0);
    let solution = found.then(|| st.solution());
    Ok(PaperResult {
        solution,
        nodes: st.nodes,
        complete: !st.limit_hit,
        order,
    })
}

impl State<'_> {
    fn solve_recursively(&mut self, k: usize) -> bool {
        if k == self.order.len() {
            return true;
        }
        let piece = self.order[k];
        for o in 0..self.orientations[piece].len() {
            let shape = self.orientations[piece][o].clone();
            let (h, w) = (shape.rows() as usize, shape.cols() as usize);
            if h > self.rows || w > self.cols {
                continue;
            }
            for i in 0..=self.rows - h {
                for j in 0..=self.cols - w {
                    if !self.can_be_positioned_at(&shape, i, j) {
                        continue;
                    }
                    if self.nodes == self.max_nodes {
                        self.limit_hit = true;
                        return false;
                    }
                    self.nodes += 1;
                    self.mark(&shape, i, j, piece + 1);
                    self.positions[piece] = (i, j, o);
                    if self.solve_recursively(k + 1) {
                        return true;
                    }
                    self.mark(&shape, i, j, 0);
                    if self.limit_hit {
                        return false;
                    }
                }
            }
        }
        false
    }

    fn can_be_positioned_at(&self, shape: &Shape, i: usize, j: usize) -> bool {
        shape
            .0
            .iter()
            .all(|&(r, c)| self.board[(i + r as usize) * self.cols + j + c as usize] == 0)
    }

    fn mark(&mut self, shape: &Shape, i: usize, j: usize, value: usize) {
        for &(r, c) in &shape.0 {
            self.board[(i + r as usize) * self.cols + j + c as usize] = value;
        }
    }

    fn solution(&self) -> Solution {
        let grid = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| match self.board[r * self.cols + c] {
                        0 | usize::MAX => None,
                        v => Some(v - 1),
                    })
                    .collect()
            })
            .collect();
        let positions = (0..self.pieces.len())
            .map(|p| {
                let (i, j, o) = self.positions[p];
                PiecePosition {
                    piece: p + 1,
                    a: i + 1,
                    b: j + 1,
                    placed: self.orientations[p][o].to_matrix(),
                }
            })
            .collect();
        Solution { grid, positions }
    }
}
