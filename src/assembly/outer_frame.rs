//! The puzzle's outer frame as a growing cluster reveals it. Once the least rectangle holding
//! the cluster is as large as all the pieces together can fill, it is the puzzle's outline,
//! and a piece placed reaching well past it hangs outside the puzzle.
//!
//! Growth asks it of the pieces it takes on one mating once it has stopped (the pocket pass,
//! see `grower`). A straight side on the puzzle's edge stays open for good, and late in the
//! growth a piece whose own straight side fits it as closely as a true seam (mutual, Δ a
//! quarter of the good-seam limit) was taken there, outside the frame; the pieces that mate
//! it then grew on into a tail a piece's width off the puzzle (irregular 100 photos seed 83:
//! nine pieces, 91.7 %).

use super::geometry::{convex_hull, min_area_rectangle, signed_area, Pose, Rectangle, P2};
use super::grow::Growth;
use super::shapes::Shapes;

/// The least rectangle of a cluster is the puzzle's frame from this share of the pieces' total
/// area. A complete cluster's reads 1.05–1.09 on irregular 100 photos (a wavy edge bows out
/// past the straight line, and photo outlines are a pixel fat); one missing a row of a 10 × 10
/// puzzle about 0.96, and its missing row must still be placed beyond it. On 103 irregular
/// 100 photo sets, the pocket pass's single matings that hung a piece outside the frame
/// measured 1.04–1.52 (more where a wrong part already stuck out); those at 0.83 and below
/// (clusters half grown) are left to the later steps. Extraneous pieces add to the total, so
/// the frame shows later; two puzzles mixed never fill it.
const FRAME_FILL: f64 = 1.02;
/// How far past the frame (a fraction of the median piece size) a piece may reach: a wavy
/// edge bows out by a tenth of a piece. Measured on the same sets, 210 single matings of the
/// pocket pass in frame-sized clusters: the 13 false ones reached 0.62–1.39; of the true
/// ones, 17 reached past 0.4, all but two beside a part itself misplaced outside the frame
/// (fill 1.15–1.76), and the rest 0.40 at most (irregular 20 photos and scans: 0.21).
const FRAME_MARGIN: f64 = 0.4;
/// Every this-many outline point of the cluster's pieces is taken for its hull: the hull
/// passes through outline corners a few pixels apart, so the frame hardly changes.
const HULL_STEP: usize = 2;

/// The summed area of the pieces' outlines (pixels²), the area their frame must hold.
pub(super) fn total_area(shapes: &Shapes) -> f64 {
    shapes
        .pieces
        .iter()
        .map(|p| signed_area(&p.outline).abs())
        .sum()
}

/// The least rectangle holding `members` (placed in `g`), if it holds [`FRAME_FILL`] of
/// `total_area`: then it is the puzzle's frame.
pub(super) fn frame_of(
    shapes: &Shapes,
    g: &Growth,
    members: &[usize],
    total_area: f64,
) -> Option<Rectangle> {
    let points: Vec<P2> = members
        .iter()
        .filter_map(|&i| g.placed[i].as_ref().map(|p| (i, p.pose)))
        .flat_map(|(i, pose)| {
            shapes.pieces[i]
                .outline
                .iter()
                .step_by(HULL_STEP)
                .map(move |q| pose * q)
        })
        .collect();
    let rect = min_area_rectangle(&convex_hull(&points))?;
    let area = 4.0 * rect.half.0 * rect.half.1;
    (area >= FRAME_FILL * total_area).then_some(rect)
}

/// Whether piece `i` at `pose` reaches past `frame` by more than [`FRAME_MARGIN`].
pub(super) fn reaches_past(shapes: &Shapes, frame: &Rectangle, i: usize, pose: &Pose) -> bool {
    let limit = FRAME_MARGIN * shapes.median_size;
    shapes.pieces[i]
        .outline
        .iter()
        .any(|q| frame.beyond(&(pose * q)) > limit)
}

/// `n` square pieces of side 96, one to a 100-pixel cell (a seam of 4 between), each outlined
/// about its own origin and of one chainlet; piece `i` placed in cluster 0 at cell `cells[i]`.
#[cfg(test)]
pub(super) fn squares_in_cells(n: usize, cells: &[(f64, f64)]) -> (Shapes, Growth) {
    use super::grow::Placed;
    let mut shapes = Shapes::bare(n, 1);
    let side = || (0..24).map(|k| k as f64 * 4.0);
    for p in &mut shapes.pieces {
        p.outline = side()
            .map(|x| P2::new(x, 0.0))
            .chain(side().map(|y| P2::new(96.0, y)))
            .chain(side().map(|x| P2::new(96.0 - x, 96.0)))
            .chain(side().map(|y| P2::new(0.0, 96.0 - y)))
            .collect();
    }
    let mut g = Growth {
        placed: vec![None; n],
        mate_of: vec![None; n],
        ..Growth::default()
    };
    for (i, &(cx, cy)) in cells.iter().enumerate() {
        g.placed[i] = Some(Placed {
            pose: Pose::translation(100.0 * cx, 100.0 * cy),
            sequence: i as u32 + 1,
            cluster: 0,
            supports: 1,
            merit: 0.1,
            spans: 0,
        });
    }
    (shapes, g)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCK: [(f64, f64); 4] = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];

    #[test]
    fn a_cluster_holding_every_piece_frames_the_puzzle_and_a_piece_beside_it_reaches_past() {
        let (shapes, g) = squares_in_cells(4, &BLOCK);
        let frame = frame_of(&shapes, &g, &[0, 1, 2, 3], total_area(&shapes))
            .expect("196 × 196 holds 1.04 times the four pieces' area");
        // Beside the block: outside the puzzle.
        assert!(reaches_past(
            &shapes,
            &frame,
            3,
            &Pose::translation(200.0, 0.0)
        ));
        // A little off its cell (a wavy edge bowing out): within the margin.
        assert!(!reaches_past(
            &shapes,
            &frame,
            3,
            &Pose::translation(130.0, 0.0)
        ));
    }

    #[test]
    fn a_cluster_short_of_a_piece_does_not_frame_the_puzzle() {
        let (shapes, g) = squares_in_cells(5, &BLOCK);
        assert!(frame_of(&shapes, &g, &[0, 1, 2, 3], total_area(&shapes)).is_none());
    }
}
