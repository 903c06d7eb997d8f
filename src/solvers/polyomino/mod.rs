//! Polyomino packing (Deaconu): cover a region with given polyomino pieces, no overlap,
//! every square covered.
//!
//! Any source of pieces (a text drawing, JSON, later a photo) produces a [`Problem`]: a list
//! of 0-1 [`CellMatrix`] pieces, a [`Region`] and the allowed [`Freedom`]. Two solvers read
//! it: [`paper::solve`], the paper's backtracking exactly as published (largest piece first,
//! positions `(a_i, b_i)`), and [`solve`], the fast bitboard exact-cover [`engine`] that
//! enumerates and counts all tilings, up to the region's symmetries ([`symmetry`]).

pub mod engine;
pub mod paper;
pub mod parse;
pub mod piece;
pub mod placements;
pub mod region;
pub mod render;
pub mod symmetry;

pub use piece::{CellMatrix, Freedom, Transform};
pub use region::Region;

use engine::Flow;
use placements::Plan;
use serde::{Deserialize, Serialize};
use symmetry::Symmetry;

/// Most pieces: each needs one label character (`1`–`9`, `a`–`z`, `A`–`Z`).
pub const MAX_PIECES: usize = 61;

/// A packing puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub pieces: Vec<CellMatrix>,
    pub region: Region,
    pub freedom: Freedom,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PolyominoError {
    #[error("no pieces were given")]
    NoPieces,
    #[error("piece {piece} is empty: it has no squares")]
    EmptyPiece { piece: usize },
    #[error(
        "piece {piece} is not connected: some of its squares touch the others at most at a corner"
    )]
    DisconnectedPiece { piece: usize },
    #[error("{count} pieces is more than the limit of {limit} (one label character each: 1-9, a-z, A-Z)")]
    TooManyPieces { count: usize, limit: usize },
    #[error("the region has no squares")]
    EmptyRegion,
    #[error("the region's bounding box is {rows}x{cols} = {cells} squares, more than the limit of {limit}")]
    RegionTooBig {
        rows: usize,
        cols: usize,
        cells: usize,
        limit: usize,
    },
    #[error("checksum test failed: the pieces have {pieces} squares in total but the region has {region} (they must be equal)")]
    ChecksumMismatch { pieces: usize, region: usize },
}

/// Checks a problem before any search: every error a user can cause, with 1-based piece
/// numbers, including the paper's checksum test (sum of `N(P^i)` equals the region's area).
pub fn validate(problem: &Problem) -> Result<(), PolyominoError> {
    if problem.pieces.is_empty() {
        return Err(PolyominoError::NoPieces);
    }
    if problem.pieces.len() > MAX_PIECES {
        return Err(PolyominoError::TooManyPieces {
            count: problem.pieces.len(),
            limit: MAX_PIECES,
        });
    }
    for (i, p) in problem.pieces.iter().enumerate() {
        if p.count() == 0 {
            return Err(PolyominoError::EmptyPiece { piece: i + 1 });
        }
        if !p.is_connected() {
            return Err(PolyominoError::DisconnectedPiece { piece: i + 1 });
        }
    }
    let r = &problem.region;
    if r.rows() * r.cols() > engine::MAX_BOARD {
        return Err(PolyominoError::RegionTooBig {
            rows: r.rows(),
            cols: r.cols(),
            cells: r.rows() * r.cols(),
            limit: engine::MAX_BOARD,
        });
    }
    if r.area() == 0 {
        return Err(PolyominoError::EmptyRegion);
    }
    let pieces: usize = problem.pieces.iter().map(CellMatrix::count).sum();
    if pieces != r.area() {
        return Err(PolyominoError::ChecksumMismatch {
            pieces,
            region: r.area(),
        });
    }
    Ok(())
}

/// Where one piece went: the paper's `(a_i, b_i)` (1-based row and column of the top-left of
/// the placed matrix's bounding box) and the orientation used, as a matrix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PiecePosition {
    /// 1-based input number.
    pub piece: usize,
    pub a: usize,
    pub b: usize,
    pub placed: CellMatrix,
}

/// One tiling: `grid[r][c]` is the 0-based input piece covering that square (`None` outside
/// the region), and every piece's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    pub grid: Vec<Vec<Option<usize>>>,
    pub positions: Vec<PiecePosition>,
}

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Enumerate every tiling (else stop at the first).
    pub all: bool,
    /// Keep at most this many tilings in the report.
    pub keep: usize,
    /// Search and keep every raw tiling instead of one per symmetry class.
    pub raw: bool,
    /// Stop after this many search nodes (the report then says `complete: false`).
    pub max_nodes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Tilings up to the usable symmetries (equal to `raw` for a trivial group).
    pub distinct: u64,
    /// All tilings, identical pieces interchangeable.
    pub raw: u64,
    pub nodes: u64,
    /// True when the whole search space was explored (counts are exact).
    pub complete: bool,
    /// True when the node limit stopped the search.
    pub limit_hit: bool,
    /// The symmetries used for `distinct`.
    pub symmetries: Vec<Transform>,
    /// The kept tilings: one per symmetry class unless [`Options::raw`].
    pub solutions: Vec<Solution>,
}

/// The fast engine: validates, plans, searches with symmetry breaking and counts.
pub fn solve(problem: &Problem, options: &Options) -> Result<Report, PolyominoError> {
    validate(problem)?;
    let plan = Plan::new(&problem.pieces, &problem.region, problem.freedom);
    let sym = Symmetry::new(&plan, &problem.region.symmetries());
    let breaking = if options.all && !options.raw {
        sym.breaking(&plan)
    } else {
        symmetry::Breaking {
            starts: vec![vec![]],
            stabilisers: vec![(0..sym.order()).collect()],
            fixed_kind: None,
        }
    };
    let order = sym.order() as u64;
    let (mut raw, mut shares, mut found) = (0u64, 0u64, 0u64);
    let mut solutions = Vec::new();
    let mut on_solution = |start: usize, chosen: &[usize]| {
        let stab = &breaking.stabilisers[start];
        let weight = order / stab.len() as u64;
        raw += weight;
        shares += sym.fixing(chosen, stab) as u64 * weight;
        found += 1;
        let keep = if options.raw {
            true
        } else {
            sym.is_least(chosen, stab)
        };
        if keep && solutions.len() < options.keep {
            solutions.push(to_solution(&plan, chosen));
        }
        if options.all {
            Flow::Continue
        } else {
            Flow::Stop
        }
    };
    let outcome = engine::enumerate(
        &plan,
        &breaking.starts,
        true,
        options.max_nodes,
        &mut on_solution,
    );
    let (raw, distinct) = if options.all {
        (raw, shares / order)
    } else {
        (found, found)
    };
    Ok(Report {
        distinct,
        raw,
        nodes: outcome.nodes,
        complete: outcome.complete,
        limit_hit: outcome.limit_hit,
        symmetries: sym.group.clone(),
        solutions,
    })
}

fn to_solution(plan: &Plan, chosen: &[usize]) -> Solution {
    let l = plan.layout;
    let mut grid = vec![vec![None; l.cols]; l.rows];
    let mut positions = Vec::new();
    for (piece, p) in plan.assign_pieces(chosen) {
        let pl = &plan.placements[p];
        for &i in &pl.cells {
            let (r, c) = l.coords(i);
            grid[r][c] = Some(piece);
        }
        positions.push(PiecePosition {
            piece: piece + 1,
            a: pl.row + 1,
            b: pl.col + 1,
            placed: plan.kinds[pl.kind].orientations[pl.orientation].to_matrix(),
        });
    }
    positions.sort_by_key(|p| p.piece);
    Solution { grid, positions }
}

#[cfg(test)]
mod tests;
