//! The puzzle's outer frame as a growing cluster reveals it. Once the least rectangle holding
//! the cluster is as large as all the pieces together can fill, it is the puzzle's outline,
//! and a piece placed reaching well past it hangs outside the puzzle.
//!
//! Growth asks it of the pieces it takes on one mating, where the cut has straight interior
//! sides (see `grower`): from [`FILL_GROWING`] while it grows, from [`FILL_STOPPED`] in the
//! pocket pass. A straight side on the puzzle's edge stays open for good, and late in the
//! growth a piece whose own straight side fits it as closely as a true seam (mutual, Δ a
//! quarter of the good-seam limit) was taken there, outside the frame; the pieces that mate
//! it then grew on into a tail a piece's width off the puzzle (irregular 100 photos seed 83:
//! nine pieces, 91.7 %).

use super::geometry::{convex_hull, min_area_rectangle, Pose, Rectangle, P2};
use super::grow::Growth;
use super::shapes::Shapes;

/// Once growth has stopped, the least rectangle of a cluster is the puzzle's frame from this
/// share of the pieces' total area. A complete cluster's reads 1.05–1.09 on irregular 100
/// photos (a wavy edge bows out past the straight line, and photo outlines are a pixel fat);
/// one missing a row of a 10 × 10 puzzle about 0.96, and its missing row must still be placed
/// beyond it. On 103 irregular 100 photo sets, the pocket pass's single matings that hung a
/// piece outside the frame measured 1.04–1.52 (more where a wrong part already stuck out).
/// Extraneous pieces add to the total, so the frame shows later; two puzzles mixed never
/// fill it.
pub(super) const FILL_STOPPED: f64 = 1.02;
/// While the cluster still grows, from this share: a row short it reads up to 0.96 with its
/// pieces still to come past the rectangle. The single matings taken before the pocket pass
/// that hung a piece past the frame measured 1.05–1.11 (irregular 100 photos seeds 1, 24, 48,
/// 56, 59); one true one (seed 11) reached past it at 1.035, beside a part itself misplaced.
pub(super) const FILL_GROWING: f64 = 1.04;
/// How far past the frame (a fraction of the median piece size) a piece may reach: a wavy
/// edge bows out by a tenth of a piece. Measured on the same sets, 210 single matings of the
/// pocket pass in frame-sized clusters: the 13 false ones reached 0.62–1.39; of the true
/// ones, 17 reached past 0.4, all but two beside a part itself misplaced outside the frame
/// (fill 1.15–1.76), and the rest 0.40 at most (irregular 20 photos and scans: 0.21).
const FRAME_MARGIN: f64 = 0.4;

/// The summed area of the pieces' outlines (pixels², each its size squared), the area their
/// frame must hold.
pub(super) fn total_area(shapes: &Shapes) -> f64 {
    shapes.pieces.iter().map(|p| p.size.powi(2)).sum()
}

/// The convex hull of a growing cluster's pieces, each folded in as it is first asked for at
/// its pose then: growth asks for the frame at every placement, and a hull of all the pieces'
/// outlines each time would cost more than the growth itself on 1000 pieces. Relaxation
/// moves pieces by a pixel or two afterwards, far under [`FRAME_MARGIN`].
#[derive(Default)]
pub(super) struct ClusterHull {
    /// How many of the members are folded in.
    folded: usize,
    hull: Vec<P2>,
    /// The least rectangle of `hull`, while it is unchanged.
    rectangle: Option<Rectangle>,
}

impl ClusterHull {
    /// The least rectangle holding `members` (placed in `g`), if its area is at least `area`:
    /// then it is the puzzle's frame.
    pub(super) fn frame(
        &mut self,
        shapes: &Shapes,
        g: &Growth,
        members: &[usize],
        area: f64,
    ) -> Option<Rectangle> {
        if members.len() < self.folded {
            *self = ClusterHull::default();
        }
        if members.len() > self.folded {
            let mut points = self.hull.clone();
            for &i in &members[self.folded..] {
                if let Some(p) = g.placed[i].as_ref() {
                    points.extend(shapes.pieces[i].outline.iter().map(|q| p.pose * q));
                }
            }
            let hull = convex_hull(&points);
            if hull != self.hull {
                self.rectangle = min_area_rectangle(&hull);
                self.hull = hull;
            }
            self.folded = members.len();
        }
        self.rectangle.filter(|r| 4.0 * r.half.0 * r.half.1 >= area)
    }
}

/// Whether piece `i` at `pose` reaches past `frame` by more than [`FRAME_MARGIN`].
pub(super) fn reaches_past(shapes: &Shapes, frame: &Rectangle, i: usize, pose: &Pose) -> bool {
    let limit = FRAME_MARGIN * shapes.median_size;
    shapes.pieces[i]
        .outline
        .iter()
        .any(|q| frame.beyond(&(pose * q)) > limit)
}

/// `n` square pieces of side `side`, one to a 100-pixel cell (a seam between), each outlined
/// about its own origin and of one chainlet; piece `i` placed in cluster 0 at cell `cells[i]`.
#[cfg(test)]
pub(super) fn squares_in_cells(n: usize, side: f64, cells: &[(f64, f64)]) -> (Shapes, Growth) {
    use super::grow::Placed;
    let mut shapes = Shapes::bare(n, 1);
    let along = || (0..24).map(move |k| k as f64 * side / 24.0);
    for p in &mut shapes.pieces {
        p.size = side;
        p.outline = along()
            .map(|x| P2::new(x, 0.0))
            .chain(along().map(|y| P2::new(side, y)))
            .chain(along().map(|x| P2::new(side - x, side)))
            .chain(along().map(|y| P2::new(0.0, side - y)))
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
        let (shapes, g) = squares_in_cells(4, 96.0, &BLOCK);
        let frame = ClusterHull::default()
            .frame(
                &shapes,
                &g,
                &[0, 1, 2, 3],
                FILL_GROWING * total_area(&shapes),
            )
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
        let (shapes, g) = squares_in_cells(5, 96.0, &BLOCK);
        let area = FILL_STOPPED * total_area(&shapes);
        assert!(ClusterHull::default()
            .frame(&shapes, &g, &[0, 1, 2, 3], area)
            .is_none());
    }

    #[test]
    fn a_hull_folded_in_as_the_cluster_grows_gives_the_frame_of_all_its_pieces_at_once() {
        let (shapes, g) = squares_in_cells(4, 96.0, &BLOCK);
        let mut growing = ClusterHull::default();
        assert!(growing.frame(&shapes, &g, &[0, 1], 0.0).is_some());
        let folded = growing
            .frame(&shapes, &g, &[0, 1, 2, 3], 0.0)
            .expect("frame");
        let at_once = ClusterHull::default()
            .frame(&shapes, &g, &[0, 1, 2, 3], 0.0)
            .expect("frame");
        assert!((folded.half.0 * folded.half.1 - at_once.half.0 * at_once.half.1).abs() < 1e-6);
        assert!((folded.half.0 * folded.half.1 - 98.0 * 98.0).abs() < 1e-6);
    }
}
