//! Lynning (1973): filling a polygonal region with polygonal pieces.
//!
//! A region is a set of clockwise polygons, pieces are counter-clockwise polygons (each with
//! its mirror image unless flipping is off or the piece is symmetric). The search places one
//! piece at a time with the placing function ρ ([`place`]) at the best vertex of the smallest
//! region polygon ([`search`]), and counts solutions up to the target's symmetries and to
//! swapping identical pieces ([`symmetry`]). Entry point: [`solve`] over the plain serde types
//! [`Puzzle`], [`Options`] and [`Report`]; the photo path (`jigsaw solve --solver polygon`)
//! will call it with pieces measured from photographs, hence the relative tolerance.
//!
//! Regions may be several disjoint polygons (touching at most at vertices); holes are not
//! supported.

pub mod assign;
#[cfg(test)]
mod chirality_tests;
pub mod contacts;
/// Snapping outlines to the photo's colour edges lives with the vision stage, which also uses it.
pub use crate::vision::edge_snap;
pub mod geometry;
pub mod parse;
pub mod photo;
pub mod place;
#[cfg(test)]
mod place_tests;
pub mod records;
pub mod refine;
pub mod render;
#[cfg(test)]
mod replay_tests;
pub mod repose;
pub mod search;
#[cfg(test)]
mod side_offset_survey_tests;
pub mod sides;
mod solution;
#[cfg(test)]
mod straightening_survey_tests;
pub mod symmetry;
#[cfg(test)]
mod truth_masks;

pub use parse::{parse_puzzle, PuzzleFormat};

use geometry::{signed_area, Pt, Tol};
use serde::{Deserialize, Serialize};

/// A puzzle: the JSON contract `{"pieces": [[[x,y],…],…], "target": [[[x,y],…],…],
/// "flip": true}`. Any orientation is accepted; `names` is optional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    pub pieces: Vec<Vec<Pt>>,
    pub target: Vec<Vec<Pt>>,
    #[serde(default = "yes")]
    pub flip: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How to search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Find every solution instead of stopping at the first.
    pub all: bool,
    /// How many distinct solutions to keep in the report (counts stay complete).
    pub max_print: usize,
    /// Pieces may be left unused when their total area exceeds the target's.
    pub allow_leftover: bool,
    /// Length tolerance relative to the puzzle's scale (√ of the target area). 1e-7 suits
    /// exact puzzles; measured pieces need ~1e-2.
    pub tolerance: f64,
    /// Input vertices (pieces' and target's) closer than this (relative, like `tolerance`) to
    /// the line through their neighbours are dropped as not being corners; `None` =
    /// `tolerance`. Why separate:
    /// measured pieces come with corners already judged against the measurement noise, and a
    /// flat corner (a few degrees between short sides) is within `tolerance` of its chord, so
    /// cleaning at `tolerance` would delete a corner that the target, whose sides there are
    /// longer, keeps; the piece then cannot fill it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner_tolerance: Option<f64>,
    /// Pose each placed piece by least squares against all its contacts with the region
    /// instead of by its anchor corner alone (measured pieces: stops errors from adding up
    /// along chains of placings), and when ρ refuses a piece that nearly fits, pose it
    /// jointly with the placed pieces it touches ([`repose`]: a pose set by short levers is
    /// corrected by the later piece's long ones). Off for exact puzzles, where it would
    /// change nothing.
    #[serde(default)]
    pub refine: bool,
    /// Measured pieces: keep searching after the first solution (for [`RANK_NODES`] more
    /// search nodes) and report the solutions best fit first, by how far the pieces' corners
    /// lie from the outlines around them. Why: at a tolerance of a few pixels a piece may fit
    /// a hole in two ways (turned over, 3.7 px off on 14-piece seed 7) and the first found is
    /// not always the true one. Off for exact puzzles, whose solutions all fit exactly.
    #[serde(default)]
    pub rank: bool,
    /// Relative tolerance of the area checksum (pieces' total area = target area).
    pub area_tolerance: f64,
    /// Give up (error) after this many search nodes.
    pub max_nodes: u64,
    /// At most this many impossible regions are remembered.
    pub memo_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            all: false,
            max_print: 1,
            allow_leftover: false,
            tolerance: 1e-7,
            corner_tolerance: None,
            refine: false,
            rank: false,
            area_tolerance: 1e-6,
            max_nodes: 2_000_000_000,
            memo_limit: 4_000_000,
        }
    }
}

/// With [`Options::rank`], the search stops looking for better solutions this many nodes
/// after its first one. Counted from the first solution, not from the start: a 14-piece
/// photo puzzle may take 100,000–420,000 nodes to its first solution, which then was the only
/// one looked at, and on held-out seeds it was the wrong one (photo 14:28, 14:35, 14:39; the
/// true one came within 100,000 nodes after it and ranked best). Most photo puzzles of 7–14
/// pieces are searched exhaustively within this.
pub const RANK_NODES: u64 = 100_000;

/// One piece in a solution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// 0-based index of the piece in the input.
    pub piece: usize,
    /// Whether the piece is turned over.
    pub mirror: bool,
    /// The input vertices, in input order, moved to target coordinates.
    pub vertices: Vec<Pt>,
    /// Rotation in degrees (counter-clockwise) applied after mirroring x ↦ −x.
    pub rotation: f64,
    /// Translation applied after the rotation.
    pub translation: Pt,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    pub placements: Vec<Placement>,
}

/// What [`solve`] found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Solutions distinct up to the target's symmetries and swapping identical pieces.
    pub distinct: u64,
    /// Solutions counting every symmetric image and every swap of identical pieces
    /// (= geometric arrangements × ∏ multiplicity!).
    pub raw: u64,
    /// Different pictures inside the fixed target (identical pieces interchangeable).
    pub arrangements: u64,
    /// Search nodes (calls of `solve(R, A)`).
    pub nodes: u64,
    pub memo_hits: u64,
    /// With [`Options::refine`]: placings made legal by re-posing the placed pieces they
    /// touch ([`repose`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reposes: u64,
    /// Number of symmetries of the target (1 = none but the identity).
    pub target_symmetries: usize,
    /// Groups of identical pieces with more than one member (0-based input indices).
    pub identical_pieces: Vec<Vec<usize>>,
    pub elapsed_ms: f64,
    /// Whether the search was exhaustive (`--all`) or stopped at the first solution.
    pub exhaustive: bool,
    /// Up to `max_print` distinct solutions (with [`Options::rank`], best fit first).
    pub solutions: Vec<Solution>,
    /// With [`Options::rank`]: the first solution's RMS distance of piece corners from the
    /// outlines around them (other pieces and the target), in the puzzle's units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub misfit_rms: Option<f64>,
}

/// Bad input and resource limits.
#[derive(Debug, thiserror::Error)]
pub enum PolygonError {
    #[error("the puzzle has no pieces")]
    NoPieces,
    #[error("the puzzle has no target polygon")]
    NoTarget,
    #[error("piece {index} {defect}")]
    BadPiece {
        index: usize,
        defect: records::Defect,
    },
    #[error("target polygon {index} {defect}")]
    BadTarget {
        index: usize,
        defect: records::Defect,
    },
    #[error("target polygons {0} and {1} overlap (holes are not supported)")]
    TargetsOverlap(usize, usize),
    #[error("area checksum: the pieces cover {pieces} but the target has area {target}{hint}")]
    AreaMismatch {
        pieces: f64,
        target: f64,
        hint: &'static str,
    },
    #[error("the tolerance must be a positive number below 0.1, got {0}")]
    BadTolerance(f64),
    #[error("search stopped after the node limit of {0} (raise --max-nodes)")]
    NodeLimit(u64),
}

/// Solves `puzzle`: the first solution, or with `options.all` every solution.
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Report, PolygonError> {
    let start = std::time::Instant::now();
    let prepared = solution::prepare(puzzle, options)?;
    let mut report = solution::run(&prepared, options)?;
    report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

/// The area of the target (all polygons), positive.
pub fn target_area(target: &[Vec<Pt>]) -> f64 {
    target.iter().map(|p| signed_area(p).abs()).sum()
}

/// The puzzle's scale: √ of the target's area (the unit of every tolerance).
pub fn puzzle_scale(puzzle: &Puzzle) -> f64 {
    let a = target_area(&puzzle.target);
    if a.is_finite() && a > 0.0 {
        a.sqrt()
    } else {
        1.0
    }
}

/// The tolerances `solve` uses for `puzzle`.
pub fn tolerances(puzzle: &Puzzle, options: &Options) -> Tol {
    Tol::new(puzzle_scale(puzzle), options.tolerance)
}
