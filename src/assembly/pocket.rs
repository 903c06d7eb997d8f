//! Filling the holes growth leaves (the pocket pass of the closure test, see `closure`):
//! once a cluster can grow no more, a piece lying along three or more open chainlets sits in
//! a hole whose shape the cluster's accumulated pose error has distorted, or beside a side
//! the front end damaged; these rules say when it still closes, and on which seams.

use super::closure::{Closed, ClosureTest};
use super::geometry::Pose;
use super::grow::Growth;
use super::relax::joint_fit;

/// In a pocket (a piece lying along at least this many open chainlets), up to
/// [`POCKET_OPEN_SEAMS`] seams may exceed the limit, by at most [`POCKET_FACTOR`] times, if
/// the mating table holds each of them as the best mate of one side. Around a hole the
/// cluster has grown along two paths, and their small pose errors meet there: the hole is a
/// little out of shape, so the piece that fills it fits two sides at once but not all four,
/// though each of its sides was independently found to match exactly the chainlet it now
/// lies along. Where per-photo zoom differs (single-piece phone photos) the hole is out of
/// shape all round, hence the second rule. Only tried once growth has stopped (see `grow`),
/// so it fills holes and never steers the spiral.
pub(super) const POCKET_SEAMS: usize = 3;
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
pub(super) const SURROUNDED_GOOD_SEAMS: usize = 2;
const POCKET_OPEN_SEAMS: usize = 2;
const POCKET_FACTOR: f64 = 4.0;
/// … or every seam within this many times the limit, table or not.
pub(super) const POCKET_NEAR: f64 = 2.0;
/// In a pocket, a neighbour the mating table pairs with the piece may be overlapped this deep
/// (fraction of the median piece size): it is the neighbour that the distortion displaced, and
/// the relaxation after growth moves it back.
pub(super) const POCKET_OVERLAP_FRACTION: f64 = 0.2;

impl ClosureTest<'_> {
    /// In a pocket, the pose fitted to every seam but the worst at `fitted`: one side the
    /// front end damaged gapes by many times the limit and drags a joint fit off the sides
    /// that do match, so none of them closes.
    pub(super) fn trimmed_fit(&self, g: &Growth, pairs: &Closed, fitted: &Pose) -> Option<Pose> {
        if !self.pockets || pairs.len() < POCKET_SEAMS {
            return None;
        }
        let deltas: Vec<f64> = pairs
            .iter()
            .map(|&(a, b, _)| self.seam_delta(g, a, b, fitted))
            .collect();
        let worst = (0..pairs.len()).max_by(|&i, &j| deltas[i].total_cmp(&deltas[j]))?;
        if deltas[worst] <= self.limit() {
            return None;
        }
        let rest: Closed = (0..pairs.len())
            .filter(|&i| i != worst)
            .map(|i| pairs[i])
            .collect();
        Some(joint_fit(self.shapes, g, &rest, fitted))
    }

    /// Whether an open chainlet of member `m` and a chainlet of `piece` are a best mate in the
    /// mating table (either way round): then `m` is the piece's neighbour, whatever the pose.
    pub(super) fn table_neighbours(&self, g: &Growth, m: usize, piece: usize) -> bool {
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
    pub(super) fn pocket_fills(&self, good: Closed, open: Closed, border: usize) -> Option<Closed> {
        let limit = self.limit();
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
        // Surrounded (a border side continuing the border line counts as a side), one side
        // damaged: every other seam near, as a pocket's would be.
        let (close, far): (Closed, Closed) = open.iter().partition(|s| near(s));
        if self.pockets
            && good.len() + open.len() + border >= SURROUNDED_SEAMS
            && !good.is_empty()
            && far.len() <= 1
        {
            return Some(good.into_iter().chain(close).collect());
        }
        self.surrounded(&good, &open, SURROUNDED_GOOD_SEAMS)
            .then_some(good)
    }

    /// Whether a piece lies along at least [`SURROUNDED_SEAMS`] open chainlets and closes
    /// `need` seams that are each a best mate in the mating table.
    pub(super) fn surrounded(&self, good: &Closed, open: &Closed, need: usize) -> bool {
        self.pockets
            && good.len() + open.len() >= SURROUNDED_SEAMS
            && good.len() >= need
            && good.iter().all(|&(a, b, _)| self.best_mates(a, b))
    }
}
