//! The intersection and closure tests of junction closure (Freeman & Garder, "Puzzle
//! assembly"): a proposed piece must not overlap the cluster, and wherever one of its
//! chainlets comes to lie along an open chainlet of the cluster the two must match in shape.
//!
//! A proposal's pose comes from one mating (or a few agreeing ones), so it carries that
//! mating's small error; a piece dropped into a pocket between three or four placed
//! neighbours is then a few pixels off the far sides and a true closure would fail on the
//! remaining gap. So the test fits the pose to every chainlet pair it found lying along each
//! other, as the paper measures the gap left *after* closing the junction, and only rejects a
//! closure that fails at the fitted pose and at the proposed one alike.

use super::border_line;
use super::compare::{delta_at, overlaps};
use super::geometry::Pose;
use super::grow::Growth;
use super::matings::MatingTable;
use super::member_grid::MemberGrid;
use super::pocket::{POCKET_OVERLAP_FRACTION, SURROUNDED_GOOD_SEAMS};
use super::relax::joint_fit;
use super::shapes::{Shapes, SAMPLES};
use super::spanning::spanning_seams;

/// Overlap allowed before two pieces intersect, relative to the median piece size.
const OVERLAP_FRACTION: f64 = 0.08;
/// Chainlets lying along each other must match within this many times the puzzle's typical Δ
/// (Δ of best matings, measured the same closest-point way). Measured on generated classic
/// scans at 1000 pieces: 30 let wrong pieces close (54–63 % neighbour accuracy), 10 gave 82 %,
/// 4–6 refused true closures of noisier outlines (76–80 %).
const CLOSURE_FACTOR: f64 = 10.0;
/// … or, where the photos were taken one by one (their zoom corrected, see `zoom`), an RMS
/// distance of this fraction of the median piece size, if larger. Each hand-held photo is also
/// tilted a little differently, so a piece's sides are foreshortened by a percent or two
/// against its neighbours', which the closure of a junction adds up; the typical Δ of single
/// matings, which fitting absorbs, does not show it. On pikachu-100 (zoom corrected) 10 ×
/// typical alone left 3 true pieces unplaced; 0.017–0.03 all gave 100 %; 0.012 gave 95.6 %.
/// On puzzles in shared photos or scans the same floor let wrong closures in (generated
/// irregular 100: 72 → 59 %), hence only for one-by-one photos.
const TILT_FRACTION: f64 = 0.02;
/// How far along its mate (fraction of the chainlet's length) a seam's points may slide when
/// its gap is measured: enough for critical points found a pixel or two apart, little enough
/// that a contour lying near its mate only by sliding along it is still charged. Measured on
/// svalat's real photo: 1/8 (the comparison's own window) found 3 of the author's 9
/// adjacencies, 1/40 found 6, fixed correspondences 5; generated classic sets are unchanged.
const CLOSURE_SLIDE: f64 = 0.025;

/// One seam may stay open where a piece sits in a pocket and at least this many others
/// close: a piece whose outline the front end damaged on one side (print the colour of the
/// background cut off a knob) otherwise never closes anywhere, though its other sides pin it.
/// The damaged seam is left unmated.
const MAX_OPEN_SEAMS: usize = 1;
const MIN_GOOD_BESIDE_OPEN: usize = 2;

/// (open cluster chainlet, chainlet of the proposed piece, Δ at the accepted pose).
pub type Closed = Vec<(usize, usize, f64)>;

/// The pairs a piece lies along, measured: within the closure limit or not.
pub struct Seams {
    pub good: Closed,
    pub open: Closed,
    /// Whether it overlaps a neighbour only as deep as a damaged side bulges (in pockets, and
    /// where seams are weighed together, see [`ClosureTest::seams_at`]).
    pub bulging: bool,
}

pub struct ClosureTest<'a> {
    pub shapes: &'a Shapes,
    pub table: &'a MatingTable,
    /// Distance within which two chainlet ends count as meeting.
    pub tol_end: f64,
    /// Whether a pocket's distorted seams are tolerated (see `pocket`).
    pub pockets: bool,
}

impl ClosureTest<'_> {
    /// The pairs closed by `piece` at `pose`, and the seams it closes across a missed corner
    /// (see `spanning`), or `None` if the piece overlaps the cluster or leaves a gap at some
    /// closure.
    pub fn run(
        &self,
        grid: &MemberGrid,
        g: &Growth,
        piece: usize,
        pose: &Pose,
    ) -> Option<(Closed, Closed)> {
        let near = self.near(grid, g, piece, pose);
        let pairs = self.lying_along(&near, g, piece, pose);
        if pairs.is_empty() {
            return None;
        }
        let fitted = (pairs.len() >= 2).then(|| joint_fit(self.shapes, g, &pairs, pose));
        // The trimmed fit only if neither of the others passes.
        let trimmed = std::iter::once_with(|| fitted.and_then(|f| self.trimmed_fit(g, &pairs, &f)));
        let (at, (closed, spans)) = fitted
            .into_iter()
            .chain(std::iter::once(*pose))
            .chain(trimmed.flatten())
            .find_map(|at| Some((at, self.check_at(&near, &pairs, g, piece, &at)?)))?;
        // Δ where the piece will be placed (see `grow::extend`): fitted to the closed seams
        // alone, or the proposal itself for one seam. A pose fitted to a gaping seam too may
        // be where the test passed, but a seam's Δ there is not the piece's.
        let placed = if closed.len() >= 2 {
            joint_fit(self.shapes, g, &closed, pose)
        } else {
            *pose
        };
        if placed == at {
            return Some((closed, spans));
        }
        let closed = closed
            .into_iter()
            .map(|(a, b, _)| (a, b, self.seam_delta(g, a, b, &placed)))
            .collect();
        Some((closed, spans))
    }

    /// The same tests with the piece held at `pose` (no fitting): `Some` of the pairs it
    /// closes, empty if it touches no member; `None` on overlap or a gap. Used when a whole
    /// cluster is moved rigidly onto another (see `merge`).
    pub fn at_pose(
        &self,
        grid: &MemberGrid,
        g: &Growth,
        piece: usize,
        pose: &Pose,
    ) -> Option<Closed> {
        let near = self.near(grid, g, piece, pose);
        let pairs = self.lying_along(&near, g, piece, pose);
        self.check_at(&near, &pairs, g, piece, pose)
            .map(|(closed, _)| closed)
    }

    /// The pairs (cluster chainlet, piece chainlet) lying along each other with `piece` held
    /// at `pose`, unmeasured.
    pub fn pairs_at(&self, grid: &MemberGrid, g: &Growth, piece: usize, pose: &Pose) -> Closed {
        let near = self.near(grid, g, piece, pose);
        self.lying_along(&near, g, piece, pose)
    }

    /// Members within reach of `piece` at `pose`, with their poses.
    fn near(&self, grid: &MemberGrid, g: &Growth, piece: usize, pose: &Pose) -> Vec<(usize, Pose)> {
        let shape = &self.shapes.pieces[piece];
        let here = pose * shape.centroid;
        let reach = 2.5 * self.shapes.median_size.max(shape.size);
        grid.near(&here)
            .filter_map(|m| {
                let q = g.placed[m].as_ref().expect("member").pose;
                ((q * self.shapes.pieces[m].centroid - here).norm() <= reach).then_some((m, q))
            })
            .collect()
    }

    /// Pairs (cluster chainlet, piece chainlet) whose ends meet at `pose`; straight pairs
    /// (two border sides) are left out, they say nothing about fit, except in a puzzle with
    /// interior straight sides (see `straight`), where they are seams like any other.
    fn lying_along(&self, near: &[(usize, Pose)], g: &Growth, piece: usize, pose: &Pose) -> Closed {
        let shape = &self.shapes.pieces[piece];
        let mut pairs = Vec::new();
        for (m, q) in near {
            for &a in &self.shapes.pieces[*m].chainlets {
                if !g.is_open(a) {
                    continue;
                }
                let ca = &self.shapes.chainlets[a];
                let (a0, a1) = (q * ca.points[0], q * ca.points[ca.points.len() - 1]);
                for &b in &shape.chainlets {
                    let cb = &self.shapes.chainlets[b];
                    if (ca.straight && cb.straight && !self.table.straight_seams) || !g.is_open(b) {
                        continue;
                    }
                    let (b0, b1) = (pose * cb.points[0], pose * cb.points[cb.points.len() - 1]);
                    if (a0 - b1).norm() <= self.tol_end && (a1 - b0).norm() <= self.tol_end {
                        pairs.push((a, b, 0.0));
                    }
                }
            }
        }
        pairs
    }

    fn check_at(
        &self,
        near: &[(usize, Pose)],
        pairs: &Closed,
        g: &Growth,
        piece: usize,
        pose: &Pose,
    ) -> Option<(Closed, Closed)> {
        let Seams {
            good,
            open,
            bulging,
        } = self.measure(near, pairs, g, piece, pose, self.pockets)?;
        if bulging {
            return self
                .surrounded(&good, &open, SURROUNDED_GOOD_SEAMS + 1)
                .then_some((good, Closed::new()));
        }
        // Seams across a missed corner (irregular cuts, see `spanning`).
        let spans = if self.table.straight_seams && self.pockets {
            spanning_seams(
                self.shapes,
                g,
                near,
                piece,
                pose,
                pairs,
                (self.tol_end, self.limit()),
            )
        } else {
            Closed::new()
        };
        // In a pocket, a border side continuing a neighbour's border line stands in for a
        // good seam (see `border_line`): a border piece has one or two seams fewer.
        let border = if self.pockets && !good.is_empty() {
            border_line::continued(self.shapes, near, piece, pose, self.tol_end)
        } else {
            0
        };
        let tolerated = open.len() <= MAX_OPEN_SEAMS
            && good.len() + spans.len() + border >= MIN_GOOD_BESIDE_OPEN;
        if open.is_empty() || tolerated {
            return Some((good, spans));
        }
        self.pocket_fills(good, open, border)
            .map(|closed| (closed, Closed::new()))
    }

    /// The seams of `piece` held at `pose`, split at the limit, with no verdict on the open
    /// ones: `None` only if it overlaps a member. Used where the evidence of many pieces is
    /// weighed together (a whole cluster moved onto another, see `merge`): there an overlap as
    /// deep as a damaged side bulges is let through and flagged ([`Seams::bulging`]), for the
    /// caller to weigh.
    pub fn seams_at(
        &self,
        grid: &MemberGrid,
        g: &Growth,
        piece: usize,
        pose: &Pose,
    ) -> Option<Seams> {
        let near = self.near(grid, g, piece, pose);
        let pairs = self.lying_along(&near, g, piece, pose);
        self.measure(&near, &pairs, g, piece, pose, true)
    }

    /// The intersection test, then Δ of every pair lying along each other; with `bulge` (in
    /// pockets, and where seams are weighed together, see [`Self::seams_at`]) an overlap as
    /// deep as a damaged side bulges is let through and flagged.
    fn measure(
        &self,
        near: &[(usize, Pose)],
        pairs: &Closed,
        g: &Growth,
        piece: usize,
        pose: &Pose,
        bulge: bool,
    ) -> Option<Seams> {
        let shape = &self.shapes.pieces[piece];
        let tol = OVERLAP_FRACTION * self.shapes.median_size;
        let pocket_tol = POCKET_OVERLAP_FRACTION * self.shapes.median_size;
        // Whether the piece overlaps a neighbour only as deep as a damaged side bulges.
        let mut bulging = false;
        for (m, q) in near {
            let table_neighbour = self.pockets && self.table_neighbours(g, *m, piece);
            let tol = if table_neighbour { pocket_tol } else { tol };
            let at = q.inverse() * pose;
            if overlaps(&self.shapes.pieces[*m], shape, &at, tol) {
                if bulge && !overlaps(&self.shapes.pieces[*m], shape, &at, pocket_tol) {
                    bulging = true;
                    continue;
                }
                return None;
            }
        }
        let limit = self.limit();
        // Δ weighed by colour, as in the mating table whose typical Δ the limit is in units
        // of. Gating on shape alone was measured too (classic 100 photos, seeds 1–12: mean
        // 97.1 % against 98.5 %; irregular 20, seeds 1–6: 61.7 % against 56.0 %).
        let measured: Closed = pairs
            .iter()
            .map(|&(a, b, _)| (a, b, self.seam_delta(g, a, b, pose)))
            .collect();
        let (good, open) = measured.into_iter().partition(|m| m.2 <= limit);
        Some(Seams {
            good,
            open,
            bulging,
        })
    }

    /// Δ of the seam between cluster chainlet `a` and chainlet `b` of a piece at `pose`.
    pub(super) fn seam_delta(&self, g: &Growth, a: usize, b: usize, pose: &Pose) -> f64 {
        let q = g.placed[self.shapes.chainlets[a].piece]
            .as_ref()
            .expect("member")
            .pose;
        let (ca, cb) = (&self.shapes.chainlets[a], &self.shapes.chainlets[b]);
        let at = q.inverse() * pose;
        let colour = self.table.colours.factor_at((a, ca), (b, cb), &at);
        delta_at(ca, cb, &at, CLOSURE_SLIDE) * colour
    }

    /// Δ within which chainlets lying along each other close.
    pub(super) fn limit(&self) -> f64 {
        let noise = CLOSURE_FACTOR * self.table.delta_typical;
        let tilt = if self.shapes.zoom_corrected {
            (TILT_FRACTION * self.shapes.median_size).powi(2) * SAMPLES as f64
        } else {
            0.0
        };
        (2.0 * self.table.delta_threshold).min(noise.max(tilt))
    }
}
