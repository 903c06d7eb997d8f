//! Polyomino packing (Deaconu): cover a region with given polyomino pieces, no overlap,
//! every square covered.
//!
//! Any source of pieces (a text drawing, JSON, a photo via [`photo`]) produces a [`Problem`]: a list
//! of 0-1 [`CellMatrix`] pieces, a [`Region`] and the allowed [`Freedom`]. Two solvers read
//! it: [`paper::solve`], the paper's backtracking exactly as published (largest piece first,
//! positions `(a_i, b_i)`), and [`solve`], the fast bitboard exact-cover [`engine`] that
//! enumerates and counts all tilings, up to the region's symmetries ([`symmetry`]).

pub mod engine;
pub mod enumerate;
pub mod paper;
pub mod parse;
pub mod photo;
mod photo_lattice;
pub mod photo_synth;
pub mod piece;
pub mod placements;
pub mod region;
pub mod render;
pub mod symmetry;

pub use enumerate::solve;
pub use piece::{CellMatrix, Freedom, Transform};
pub use region::Region;

use serde::{Deserialize, Serialize};

/// Most exact-cover rows (kind × orientation × offset) the engine will build.
pub const MAX_PLACEMENTS: usize = 2_000_000;

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
    #[error(
        "the pieces have {count} possible placements in the region, more than the limit of {limit}"
    )]
    TooManyPlacements { count: usize, limit: usize },
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
    /// Search the symmetry-breaking starts on all cores (only when enumerating without a
    /// node limit).
    pub parallel: bool,
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

#[cfg(test)]
mod crosscheck;
#[cfg(test)]
mod photo_tests;
#[cfg(test)]
mod tests;
