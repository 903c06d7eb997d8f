//! Matings of straight chainlets, for cuts whose interior sides are straight.
//!
//! In a four-sided puzzle every interior side carries a knob or a hole, and a chainlet too
//! close to a straight line to be matched by shape is a border side (Freeman & Garder's
//! exterior-boundary candidates). An irregular cut is different: many interior sides run
//! nearly straight from junction to junction (bowing 2–7 % of their chord), and a piece all
//! of whose sides are such gets no mating candidate at all. Measured on generated irregular 20
//! scans (seeds 1–10): none of the mates growth chose was wrong, and every piece left out was
//! one with no shaped side (mostly border pieces, whose interior sides are plain).
//!
//! Two straight chainlets of similar length always fit fairly well, so a single straight
//! mating says little. These matings are kept apart from the mating table's shaped ones
//! (they enter neither its typical Δ nor the seed ranking) and growth uses them only where
//! the piece then closes a junction: at least two of its chainlets lie along open chainlets
//! of the cluster and match there (see `grow`), which pins both its position along the side
//! and its turn.
//!
//! They are made only where the puzzle has interior straight sides: where several pieces
//! have three or more straight chainlets (a four-sided piece has at most two border sides).

use super::compare::compare_coarse;
use super::edge_colour::SeamColours;
use super::matings::{refined_of, Mating};
use super::shapes::Shapes;
use rayon::prelude::*;

/// Straight chainlets on a piece beyond what a four-sided corner piece has.
const INTERIOR_STRAIGHT: usize = 3;
/// Pieces with that many straight chainlets, at least this many and this fraction of all.
const MIN_PIECES: usize = 2;
const MIN_FRACTION: f64 = 0.05;
/// Mates differ in arc length by critical points found a little apart: candidates are those
/// within this fraction of the longer one's length. They are refined and checked for overlap
/// as shaped matings are ([`super::matings::refined_of`]). Neither this window nor the number
/// refined is critical: 0.08 or 0.25 here, 3 or 12 refined instead of 6, gave the same
/// irregular 20 and 100 scan results.
const LENGTH_TOLERANCE: f64 = 0.15;
/// Whether `shapes` has interior straight sides (an irregular cut).
pub fn has_interior_straight_sides(shapes: &Shapes) -> bool {
    let many = shapes
        .pieces
        .iter()
        .filter(|p| {
            p.chainlets
                .iter()
                .filter(|&&c| shapes.chainlets[c].straight)
                .count()
                >= INTERIOR_STRAIGHT
        })
        .count();
    many >= MIN_PIECES && many as f64 >= MIN_FRACTION * shapes.pieces.len() as f64
}

/// Per chainlet, its acceptable matings with straight chainlets of other pieces, best Δ first
/// (empty for shaped chainlets); `None` where the puzzle has no interior straight sides, so
/// its straight chainlets are border sides that mate nothing.
pub fn straight_matings(
    shapes: &Shapes,
    delta_threshold: f64,
    colours: &SeamColours,
) -> Option<Vec<Vec<Mating>>> {
    let n = shapes.chainlets.len();
    if !has_interior_straight_sides(shapes) {
        return None;
    }
    let mut by_length: Vec<usize> = (0..n).filter(|&i| shapes.chainlets[i].straight).collect();
    by_length.sort_by(|&x, &y| {
        shapes.chainlets[x]
            .length
            .total_cmp(&shapes.chainlets[y].length)
    });
    let lengths: Vec<f64> = by_length
        .iter()
        .map(|&i| shapes.chainlets[i].length)
        .collect();
    let lists = (0..n)
        .into_par_iter()
        .map(|a| {
            let ca = &shapes.chainlets[a];
            if !ca.straight {
                return Vec::new();
            }
            let lo = lengths.partition_point(|&l| l < ca.length * (1.0 - LENGTH_TOLERANCE));
            let hi = lengths.partition_point(|&l| l <= ca.length / (1.0 - LENGTH_TOLERANCE));
            let coarse: Vec<(usize, f64)> = by_length[lo..hi]
                .iter()
                .copied()
                .filter(|&b| shapes.chainlets[b].piece != ca.piece)
                .map(|b| (b, compare_coarse(ca, &shapes.chainlets[b]).delta))
                .collect();
            let mut out = refined_of(shapes, a, &coarse, colours);
            out.retain(|m| m.delta <= delta_threshold);
            out
        })
        .collect();
    Some(lists)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::shapes::{ChainletShape, PieceShape};

    /// `pieces` pieces of four chainlets each, the first `straight[i]` of piece `i` straight.
    fn shapes(straight: &[usize]) -> Shapes {
        let mut s = Shapes::default();
        for (p, &k) in straight.iter().enumerate() {
            let ids: Vec<usize> = (0..4).map(|c| 4 * p + c).collect();
            s.pieces
                .push(PieceShape::bare(p as u32 + 1, String::new(), ids));
            for c in 0..4 {
                s.chainlets.push(ChainletShape::bare(p, c, 100.0, c < k));
            }
        }
        s
    }

    #[test]
    fn four_sided_puzzles_have_no_interior_straight_sides() {
        // A 3 × 4 grid: four corner pieces with two border sides, six edge pieces with one.
        let grid = [2, 1, 1, 2, 1, 0, 0, 1, 2, 1, 1, 2];
        assert!(!has_interior_straight_sides(&shapes(&grid)));
        assert!(straight_matings(&shapes(&grid), 1e9, &SeamColours::default()).is_none());
    }

    #[test]
    fn pieces_with_three_straight_sides_mark_an_irregular_cut() {
        assert!(has_interior_straight_sides(&shapes(&[3, 1, 0, 4, 2, 1])));
        // One damaged piece is not enough.
        assert!(!has_interior_straight_sides(&shapes(&[3, 1, 0, 1, 2, 1])));
    }
}
