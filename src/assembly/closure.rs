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

use super::compare::{delta_at, overlaps};
use super::geometry::Pose;
use super::grow::Growth;
use super::matings::MatingTable;
use super::member_grid::MemberGrid;
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

/// In a pocket (a piece lying along at least this many open chainlets), up to
/// [`POCKET_OPEN_SEAMS`] seams may exceed the limit, by at most [`POCKET_FACTOR`] times, if
/// the mating table holds each of them as the best mate of one side. Around a hole the
/// cluster has grown along two paths, and their small pose errors meet there: the hole is a
/// little out of shape, so the piece that fills it fits two sides at once but not all four,
/// though each of its sides was independently found to match exactly the chainlet it now
/// lies along. Where per-photo zoom differs (single-piece phone photos) the hole is out of
/// shape all round, hence the second rule. Only tried once growth has stopped (see `grow`),
/// so it fills holes and never steers the spiral.
const POCKET_SEAMS: usize = 3;
/// A piece lying along this many open chainlets is surrounded: it may close on
/// [`SURROUNDED_GOOD_SEAMS`] seams alone if each is a best mate in the mating table, its other
/// seams left open (unmated). The front end damaged those sides (white print on white paper
/// eaten at a corner, a knob the colour of the background cut short), so no rule that
/// measures them can accept the piece, yet two independently found best mates and the
/// neighbours all round pin it. Measured on the sweep: classic 100 photos seeds 13 and 21
/// 92.2 → 96.7 % and 96.7 → 98.9 %, classic 100 scans seed 3 97.8 → 100 %, classic 500 scans
/// seed 11 97.5 → 97.9 %; no other result changed (irregular, pikachu, svalat included).
/// A damaged side often bulges into the neighbour it faces: a surrounded piece may overlap
/// any neighbour as deep as [`POCKET_OVERLAP_FRACTION`] if it closes one best-mate seam more
/// (classic 100 photos seeds 6 and 9 97.8 → 100 %, classic 500 scans seed 11 97.9 → 99.2 %,
/// photos seeds 11 and 12 98.2 → 98.6 % and 98.1 → 98.5 %; held-out photo seeds 24–31 and
/// the rest unchanged).
const SURROUNDED_SEAMS: usize = 4;
const SURROUNDED_GOOD_SEAMS: usize = 2;
const POCKET_OPEN_SEAMS: usize = 2;
const POCKET_FACTOR: f64 = 4.0;
/// … or every seam within this many times the limit, table or not.
const POCKET_NEAR: f64 = 2.0;
/// In a pocket, a neighbour the mating table pairs with the piece may be overlapped this deep
/// (fraction of the median piece size): it is the neighbour that the distortion displaced, and
/// the relaxation after growth moves it back.
const POCKET_OVERLAP_FRACTION: f64 = 0.2;

/// (open cluster chainlet, chainlet of the proposed piece, Δ at the accepted pose).
pub type Closed = Vec<(usize, usize, f64)>;

pub struct ClosureTest<'a> {
    pub shapes: &'a Shapes,
    pub table: &'a MatingTable,
    /// Distance within which two chainlet ends count as meeting.
    pub tol_end: f64,
    /// Whether a pocket's distorted seams are tolerated (see [`POCKET_SEAMS`]).
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
        fitted
            .iter()
            .chain(std::iter::once(pose))
            .find_map(|at| self.check_at(&near, &pairs, g, piece, at))
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
                if self.pockets && !overlaps(&self.shapes.pieces[*m], shape, &at, pocket_tol) {
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
            .map(|&(a, b, _)| {
                let q = g.placed[self.shapes.chainlets[a].piece]
                    .as_ref()
                    .expect("member")
                    .pose;
                let (ca, cb) = (&self.shapes.chainlets[a], &self.shapes.chainlets[b]);
                let at = q.inverse() * pose;
                let colour = self.table.colours.factor_at((a, ca), (b, cb), &at);
                (a, b, delta_at(ca, cb, &at, CLOSURE_SLIDE) * colour)
            })
            .collect();
        let (good, open): (Closed, Closed) = measured.into_iter().partition(|m| m.2 <= limit);
        if bulging {
            return self
                .surrounded(&good, &open, SURROUNDED_GOOD_SEAMS + 1)
                .then_some((good, Closed::new()));
        }
        let spans = if self.table.straight_seams && self.pockets {
            spanning_seams(
                self.shapes,
                g,
                near,
                piece,
                pose,
                pairs,
                (self.tol_end, limit),
            )
        } else {
            Closed::new()
        };
        let tolerated =
            open.len() <= MAX_OPEN_SEAMS && good.len() + spans.len() >= MIN_GOOD_BESIDE_OPEN;
        if open.is_empty() || tolerated {
            return Some((good, spans));
        }
        self.pocket_fills(good, open, limit)
            .map(|closed| (closed, Closed::new()))
    }

    /// Δ within which chainlets lying along each other close.
    fn limit(&self) -> f64 {
        let noise = CLOSURE_FACTOR * self.table.delta_typical;
        let tilt = if self.shapes.zoom_corrected {
            (TILT_FRACTION * self.shapes.median_size).powi(2) * SAMPLES as f64
        } else {
            0.0
        };
        (2.0 * self.table.delta_threshold).min(noise.max(tilt))
    }

    /// Whether an open chainlet of member `m` and a chainlet of `piece` are a best mate in the
    /// mating table (either way round): then `m` is the piece's neighbour, whatever the pose.
    fn table_neighbours(&self, g: &Growth, m: usize, piece: usize) -> bool {
        let theirs = &self.shapes.pieces[m].chainlets;
        let ours = &self.shapes.pieces[piece].chainlets;
        theirs
            .iter()
            .filter(|&&a| g.is_open(a))
            .any(|&a| ours.iter().any(|&b| self.best_mates(a, b)))
    }

    /// Whether `b` is `a`'s best mate in the mating table, or `a` is `b`'s.
    fn best_mates(&self, a: usize, b: usize) -> bool {
        let best_of = |c: usize| self.table.per_chainlet[c].first().map(|m| m.b);
        best_of(a) == Some(b) || best_of(b) == Some(a)
    }

    /// The seams of a piece filling a pocket, the distorted ones included, if every seam over
    /// the limit is near it or is one the mating table found on its own (see
    /// [`POCKET_SEAMS`]); or only its good seams, if it is surrounded (see
    /// [`SURROUNDED_SEAMS`]).
    fn pocket_fills(&self, good: Closed, open: Closed, limit: f64) -> Option<Closed> {
        let confirmed =
            |&(a, b, d): &(usize, usize, f64)| d <= POCKET_FACTOR * limit && self.best_mates(a, b);
        let near = |&(_, _, d): &(usize, usize, f64)| d <= POCKET_NEAR * limit;
        let fills = self.pockets
            && good.len() + open.len() >= POCKET_SEAMS
            && (open.iter().all(near)
                || (open.len() <= POCKET_OPEN_SEAMS
                    && !good.is_empty()
                    && open.iter().all(confirmed)));
        if fills {
            return Some(good.into_iter().chain(open).collect());
        }
        self.surrounded(&good, &open, SURROUNDED_GOOD_SEAMS)
            .then_some(good)
    }

    /// Whether a piece lies along at least [`SURROUNDED_SEAMS`] open chainlets and closes
    /// `need` seams that are each a best mate in the mating table.
    fn surrounded(&self, good: &Closed, open: &Closed, need: usize) -> bool {
        self.pockets
            && good.len() + open.len() >= SURROUNDED_SEAMS
            && good.len() >= need
            && good.iter().all(|&(a, b, _)| self.best_mates(a, b))
    }
}
