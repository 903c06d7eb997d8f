//! The state of one cluster's growth (see [`super::grow`]): the proposals its open chainlets
//! make for unplaced pieces, the closure test's verdict on each, and the choice of the next
//! piece by tier, cost and nearness to the last one placed.

use super::closure::{Closed, ClosureTest};
use super::geometry::{pose_difference, Pose, P2};
use super::grow::{
    Growth, AMBIGUOUS_MERIT, ANGLE_TOLERANCE, ENDPOINT_FRACTION, POSE_FRACTION, RELAX_SWEEPS,
};
use super::matings::MatingTable;
use super::member_grid::MemberGrid;
use super::outer_frame::{self, ClusterHull};
use super::relax::relax;
use super::shapes::Shapes;
use std::cell::RefCell;

/// A mating along a chainlet shorter than this fraction of the median piece size is weak
/// evidence, as a straight one is: growth takes a piece on one such mating only once it has
/// stopped, mutual and unambiguous. Measured on the single shaped matings of the winning
/// growths of 225 irregular sets (session 30): with the shorter chainlet under 0.4 of a
/// piece, 10 false and 5 true (one in a pocket, one beside a piece already wrong, the others
/// among the last pieces); 0.4–0.7, 2 false and 5 true; over 0.7, 5 false and about 1725
/// true. Irregular 100 photos seed 67: piece 35 joined on one such mating (both chainlets
/// 0.21 of a piece, a bulge of 3 % of a piece, Δ 0.07 of the good-seam limit, merit 0.02,
/// colour 1.13), outside the puzzle's left edge, and grew on wrong (78.1 %; 90.8 % now). At
/// 0.35 another growth of irregular 100 photos seed 51 won, with a false mating at 0.36 of
/// a piece early in it (100 → 80.9 %).
/// The holes step joins left-out pieces by mutual best matings only along chainlets this long
/// too (see `holes::loose_groups`).
pub(super) const SHORT_MATING: f64 = 0.4;

#[derive(Clone, Debug)]
pub(super) struct Proposal {
    pub(super) pose: Pose,
    /// (open cluster chainlet, chainlet of the proposed piece, Δ).
    pub(super) supports: Vec<(usize, usize, f64)>,
    /// Figure of merit of the first support.
    pub(super) merit: f64,
    /// Whether the first support is a mutual best mating.
    pub(super) mutual: bool,
    /// Whether a shaped mating supports it; one made by straight matings alone (see
    /// `straight`) is taken only where it closes a junction.
    pub(super) shaped: bool,
    /// The closure test's outcome at this pose: the cluster chainlets it closes. `None` until
    /// evaluated, and again whenever a piece is placed nearby.
    pub(super) closes: Option<Closed>,
    /// How many seams it closes across a missed corner besides (see `spanning`): they count
    /// towards the junction closure but are not mates.
    pub(super) spans: usize,
}

pub(super) struct Grower<'a> {
    pub(super) shapes: &'a Shapes,
    pub(super) table: &'a MatingTable,
    pub(super) proposals: Vec<Vec<Proposal>>,
    pub(super) tol_pose: f64,
    pub(super) tol_end: f64,
    pub(super) members: Vec<usize>,
    /// Members by where their centroid lies in the cluster frame, so the closure test only
    /// looks at pieces that can touch the candidate.
    pub(super) grid: MemberGrid,
    /// Once growth has stopped: pockets may close with distorted seams (see `closure`).
    pub(super) pockets: bool,
    /// The pieces' summed area, which the puzzle's frame holds (see `outer_frame`).
    total_area: f64,
    /// The members' hull, for the frame.
    hull: RefCell<ClusterHull>,
}

impl<'a> Grower<'a> {
    pub(super) fn new(shapes: &'a Shapes, table: &'a MatingTable) -> Self {
        Grower {
            shapes,
            table,
            proposals: vec![Vec::new(); shapes.pieces.len()],
            tol_pose: POSE_FRACTION * shapes.median_size,
            tol_end: ENDPOINT_FRACTION * shapes.median_size,
            members: Vec::new(),
            grid: MemberGrid::for_pieces(shapes),
            pockets: false,
            total_area: outer_frame::total_area(shapes),
            hull: RefCell::default(),
        }
    }

    /// Adds the proposals that the open chainlets of newly placed `piece` make.
    pub(super) fn propose_from(&mut self, piece: usize, g: &Growth) {
        let pose = g.placed[piece].as_ref().expect("placed").pose;
        for &a in &self.shapes.pieces[piece].chainlets {
            if !g.is_open(a) {
                continue;
            }
            let tables = self.table;
            let lists = [(&tables.per_chainlet, true), (&tables.straight, false)];
            for (table, shaped) in lists {
                let Some(list) = table.get(a) else { continue };
                self.propose_along(g, &pose, a, list, table, shaped);
            }
        }
    }

    /// The proposals that the matings `list` of open chainlet `a` (of a piece at `pose`)
    /// make; `table` is the list of every chainlet of the same kind, for mutual best.
    fn propose_along(
        &mut self,
        g: &Growth,
        pose: &Pose,
        a: usize,
        list: &[super::matings::Mating],
        table: &[Vec<super::matings::Mating>],
        shaped: bool,
    ) {
        for (rank, m) in list.iter().enumerate() {
            let j = self.shapes.chainlets[m.b].piece;
            if g.placed[j].is_some() || !g.is_open(m.b) {
                continue;
            }
            // The figure of merit is Δ over that of the best alternative: for any but the
            // first of the list that is the first, so a poor mating never looks unambiguous
            // for lack of a worse one after it (svalat: a mating last in its list, at twice
            // the best one's Δ, read as the surest in the puzzle).
            let next = list
                .iter()
                .enumerate()
                .find(|(r, o)| *r != rank && self.shapes.chainlets[o.b].piece != j)
                .map_or(self.table.delta_threshold, |(_, o)| o.delta);
            let merit = m.delta / next.max(f64::MIN_POSITIVE);
            let mutual = table[m.b]
                .iter()
                .find(|r| g.placed[self.shapes.chainlets[r.b].piece].is_some() || r.b == a)
                .is_some_and(|r| r.b == a)
                && list
                    .iter()
                    .find(|o| g.placed[self.shapes.chainlets[o.b].piece].is_none())
                    .is_some_and(|o| o.b == m.b);
            let p = pose * m.pose;
            let centroid = self.shapes.pieces[j].centroid;
            let existing = self.proposals[j].iter_mut().find(|q| {
                let (d, ang) = pose_difference(&q.pose, &p, &centroid);
                d < self.tol_pose && ang < ANGLE_TOLERANCE
            });
            match existing {
                Some(q) if !q.supports.iter().any(|s| s.0 == a || s.1 == m.b) => {
                    q.supports.push((a, m.b, m.delta));
                    q.merit = q.merit.min(merit);
                    q.shaped |= shaped;
                    q.closes = None;
                }
                Some(_) => {}
                None => self.proposals[j].push(Proposal {
                    pose: p,
                    supports: vec![(a, m.b, m.delta)],
                    merit,
                    mutual,
                    shaped,
                    closes: None,
                    spans: 0,
                }),
            }
        }
    }

    /// Whether chainlet `c` is shorter than [`SHORT_MATING`] of the median piece.
    fn is_short(&self, c: usize) -> bool {
        self.shapes.chainlets[c].length < SHORT_MATING * self.shapes.median_size
    }

    /// The proposal to try next: most junctions closed, then best merit, then beside `last`.
    pub(super) fn best(&self, g: &Growth, last: usize) -> Option<(usize, Proposal)> {
        let last_pose = g.placed[last].as_ref().map(|p| p.pose);
        let near_last = |j: usize, pose: &Pose| {
            last_pose.map_or(f64::INFINITY, |lp| {
                (lp * self.shapes.pieces[last].centroid - pose * self.shapes.pieces[j].centroid)
                    .norm()
            })
        };
        let unit = self.table.delta_typical;
        let good_seam = self.table.good_seam();
        let mut best: Option<(usize, &Proposal, (u8, f64, f64))> = None;
        // The puzzle's frame, once the cluster shows it; read when first asked for.
        let mut frame = None;
        for (j, list) in self.proposals.iter().enumerate() {
            for q in list {
                let Some(closes) = &q.closes else {
                    continue;
                };
                let count = closes.len() + q.spans;
                // A straight mating alone slides along its mate and fits many straight sides,
                // so growth never takes one; once growth has stopped, one that is mutual and
                // unambiguous is taken last: where missed corners leave a region of an
                // irregular cut joined to the rest by straight seams only, nothing else
                // reaches it (irregular 20 scans seeds 1–20: mean 95.8 → 99.2 %).
                // So does one along a short chainlet: a stretch of a fifth of a piece, nearly
                // flat, fits many others as closely as its mate (see [`SHORT_MATING`]).
                let short = closes
                    .iter()
                    .any(|s| self.is_short(s.0) || self.is_short(s.1));
                let lone_weak = (!q.shaped || short) && count < 2;
                let sure = q.mutual && q.merit <= AMBIGUOUS_MERIT;
                // Nor does it take a piece on one mating that is neither sure nor as good as
                // a good seam: that says little, and a wrong one is built on. Irregular 100
                // photos seed 51: piece 31 joined on one mating at twice the limit (not
                // mutual; its chainlet fits another piece better), and 37 pieces grew from it
                // a piece's width off their places (77.8 %; 94.4 % without, 100 % with the
                // revisions' budget of `restarts`). Such a piece waits to close a junction,
                // or starts a cluster that merges on two agreeing matings. Sure ones stay:
                // with those refused too, irregular 100 photos seed 32 left out a true piece
                // that joins on a sure mating at 1.8 times the limit, and grew wrong
                // elsewhere (100 → 84.8 %).
                let poor = count == 1 && !sure && closes.iter().any(|s| s.2 > good_seam);
                if closes.is_empty() || poor || (lone_weak && !(self.pockets && sure)) {
                    continue;
                }
                // Nor, where the cut has straight interior sides, one that hangs the piece
                // outside the puzzle's frame once the cluster shows it: a straight side on
                // the puzzle's edge stays open and fits another straight side as closely as
                // a true seam does, and the pieces that mate the one hung there grow on into
                // a tail (see `outer_frame`). Where every interior side is shaped, no border
                // side is mated, and a piece hung outside on a shaped mating is left to the
                // re-examination: its partner seated in the wrong notch, refused there, would
                // keep that notch (classic 100 photos seed 55, 100 → 95.6 %; svalat).
                if count == 1 && self.table.straight_seams {
                    let frame = frame.get_or_insert_with(|| {
                        let fill = if self.pockets {
                            outer_frame::FILL_STOPPED
                        } else {
                            outer_frame::FILL_GROWING
                        };
                        let area = fill * self.total_area;
                        let members = &self.members;
                        self.hull.borrow_mut().frame(self.shapes, g, members, area)
                    });
                    if frame
                        .as_ref()
                        .is_some_and(|f| outer_frame::reaches_past(self.shapes, f, j, &q.pose))
                    {
                        continue;
                    }
                }
                let tier = match count {
                    1 if lone_weak => 3,
                    1 if sure => 1,
                    1 => 2,
                    _ => 0,
                };
                let mean = closes.iter().map(|s| s.2).sum::<f64>() / closes.len() as f64;
                let cost = (mean / unit) * q.merit.max(0.05);
                let key = (tier, cost, near_last(j, &q.pose));
                let better = match &best {
                    None => true,
                    Some((_, _, k)) => {
                        key.0 < k.0
                            || (key.0 == k.0 && (key.1 < k.1 || (key.1 == k.1 && key.2 < k.2)))
                    }
                };
                if better {
                    best = Some((j, q, key));
                }
            }
        }
        best.map(|(j, q, _)| (j, q.clone()))
    }

    /// Runs the closure test on every proposal not yet evaluated; drops those that fail.
    /// Returns how many were dropped.
    pub(super) fn refresh(&mut self, g: &Growth) -> usize {
        let mut dropped = 0;
        for j in 0..self.proposals.len() {
            if self.proposals[j].iter().all(|q| q.closes.is_some()) {
                continue;
            }
            let outcomes: Vec<Option<(Closed, usize)>> = self.proposals[j]
                .iter()
                .map(|q| match &q.closes {
                    Some(c) => Some((c.clone(), q.spans)),
                    None => ClosureTest {
                        shapes: self.shapes,
                        table: self.table,
                        tol_end: self.tol_end,
                        pockets: self.pockets,
                    }
                    .run(&self.grid, g, j, &q.pose)
                    .map(|(closed, spans)| (closed, spans.len())),
                })
                .collect();
            let before = self.proposals[j].len();
            let mut kept = Vec::with_capacity(before);
            for (mut q, outcome) in self.proposals[j].drain(..).zip(outcomes) {
                if let Some((c, spans)) = outcome {
                    q.closes = Some(c);
                    q.spans = spans;
                    kept.push(q);
                }
            }
            dropped += before - kept.len();
            self.proposals[j] = kept;
        }
        dropped
    }

    /// Relaxes the cluster (see [`relax`]) and makes every proposal afresh from the poses it
    /// leaves.
    pub(super) fn relax(&mut self, g: &mut Growth) {
        relax(self.shapes, g, &self.members, RELAX_SWEEPS);
        self.rebuild_grid(g);
        self.repropose(g);
    }

    pub(super) fn rebuild_grid(&mut self, g: &Growth) {
        let mut grid = MemberGrid::new(self.grid.cell);
        for &m in &self.members {
            let pose = g.placed[m].as_ref().expect("member").pose;
            grid.insert(m, &(pose * self.shapes.pieces[m].centroid));
        }
        self.grid = grid;
    }

    /// Proposals made afresh from every member's current pose (after relaxation).
    pub(super) fn repropose(&mut self, g: &Growth) {
        for list in &mut self.proposals {
            list.clear();
        }
        for &m in &self.members.clone() {
            self.propose_from(m, g);
        }
    }

    /// A piece placed at `at` may change the closure of proposals around it.
    pub(super) fn invalidate_near(&mut self, at: &P2) {
        let reach = 2.5 * self.shapes.median_size;
        for (j, list) in self.proposals.iter_mut().enumerate() {
            let c = self.shapes.pieces[j].centroid;
            for q in list.iter_mut() {
                if (q.pose * c - at).norm() < reach {
                    q.closes = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::grow::Placed;

    /// Three bare pieces of four chainlets, piece 0 placed; the typical Δ is 10, so a good
    /// seam's is up to 40.
    fn first_piece_placed() -> (Shapes, MatingTable, Growth) {
        let shapes = Shapes::bare(3, 4);
        let table = MatingTable::bare(vec![Vec::new(); 12], 100.0, 10.0);
        let mut g = Growth {
            placed: vec![None; 3],
            mate_of: vec![None; 12],
            ..Growth::default()
        };
        g.placed[0] = Some(Placed {
            pose: Pose::identity(),
            sequence: 1,
            cluster: 0,
            supports: 0,
            merit: 1.0,
            spans: 0,
        });
        (shapes, table, g)
    }

    /// A mutual proposal whose closure test found `closes`, of figure of merit `merit`.
    fn closing(closes: &[(usize, usize, f64)], merit: f64) -> Proposal {
        Proposal {
            pose: Pose::identity(),
            supports: closes.to_vec(),
            merit,
            mutual: true,
            shaped: true,
            closes: Some(closes.to_vec()),
            spans: 0,
        }
    }

    #[test]
    fn a_piece_is_not_taken_on_one_ambiguous_mating_worse_than_a_good_seam() {
        let (shapes, table, g) = first_piece_placed();
        let mut grower = Grower::new(&shapes, &table);
        grower.proposals[1].push(closing(&[(0, 4, 45.0)], 0.8));
        assert!(grower.best(&g, 0).is_none(), "one mating at 4.5 typical Δ");
        grower.proposals[2].push(closing(&[(1, 8, 35.0)], 0.8));
        assert_eq!(grower.best(&g, 0).map(|b| b.0), Some(2), "one at 3.5");
        // Two such matings agreeing on the pose close a junction, which comes first.
        grower.proposals[1][0] = closing(&[(0, 4, 45.0), (3, 5, 45.0)], 0.8);
        assert_eq!(grower.best(&g, 0).map(|b| b.0), Some(1), "a junction");
        // An unambiguous mutual mating is taken however poorly it fits.
        grower.proposals[1][0] = closing(&[(0, 4, 45.0)], 0.3);
        assert_eq!(grower.best(&g, 0).map(|b| b.0), Some(1), "a sure one");
    }

    #[test]
    fn a_piece_is_taken_on_one_mating_along_a_short_chainlet_only_once_growth_has_stopped() {
        let (mut shapes, table, g) = first_piece_placed();
        // Piece 1's chainlet 4 is a fifth of a piece long.
        shapes.chainlets[4].length = 20.0;
        let mut grower = Grower::new(&shapes, &table);
        grower.proposals[1].push(closing(&[(0, 4, 5.0)], 0.1));
        assert!(grower.best(&g, 0).is_none(), "while growing");
        grower.pockets = true;
        assert_eq!(
            grower.best(&g, 0).map(|b| b.0),
            Some(1),
            "mutual, unambiguous"
        );
        // After every other single mating, as a straight one.
        grower.proposals[2].push(closing(&[(1, 8, 35.0)], 0.8));
        assert_eq!(
            grower.best(&g, 0).map(|b| b.0),
            Some(2),
            "a longer one first"
        );
        grower.proposals[2].clear();
        grower.proposals[1][0].mutual = false;
        assert!(grower.best(&g, 0).is_none(), "not mutual");
        // Closing a junction with another mating, it counts as any seam.
        grower.pockets = false;
        grower.proposals[1][0] = closing(&[(0, 4, 5.0), (3, 5, 5.0)], 0.1);
        assert_eq!(grower.best(&g, 0).map(|b| b.0), Some(1), "a junction");
    }

    #[test]
    fn a_piece_is_not_hung_outside_the_puzzles_frame_on_one_mating() {
        // Five of six pieces of side 97 placed as a 3 × 2 block short of its last cell: its
        // least rectangle holds 1.036 times all six pieces' area, the puzzle's frame once
        // growth has stopped (from 1.02) but not yet while it grows (from 1.04).
        let cells = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0), (1.0, 1.0)];
        let (shapes, g) = outer_frame::squares_in_cells(6, 97.0, &cells);
        let mut table = MatingTable::bare(vec![Vec::new(); 6], 100.0, 10.0);
        table.straight_seams = true;
        let mut grower = Grower::new(&shapes, &table);
        grower.members = (0..5).collect();
        let beside = Proposal {
            pose: Pose::translation(300.0, 0.0),
            ..closing(&[(2, 5, 5.0)], 0.1)
        };
        grower.proposals[5].push(beside);
        assert_eq!(grower.best(&g, 4).map(|b| b.0), Some(5), "while growing");
        grower.pockets = true;
        assert!(
            grower.best(&g, 4).is_none(),
            "beside the frame, growth over"
        );
        let in_its_cell = Proposal {
            pose: Pose::translation(200.0, 100.0),
            ..closing(&[(4, 5, 5.0)], 0.1)
        };
        grower.proposals[5].push(in_its_cell);
        let taken = grower.best(&g, 4).expect("its own cell");
        assert_eq!(taken.1.pose.translation.x, 200.0);
        // Past 1.04 the frame holds while growing too: a 3 × 2 block of side 96 fills 1.049.
        let (shapes, g) = outer_frame::squares_in_cells(6, 96.0, &cells);
        let mut grower = Grower::new(&shapes, &table);
        grower.members = (0..5).collect();
        grower.proposals[5].push(Proposal {
            pose: Pose::translation(300.0, 0.0),
            ..closing(&[(2, 5, 5.0)], 0.1)
        });
        assert!(grower.best(&g, 4).is_none(), "beside the frame, growing");
        // A cut whose interior sides all carry knobs mates no border side: no frame is asked.
        table.straight_seams = false;
        let mut grower = Grower::new(&shapes, &table);
        grower.members = (0..5).collect();
        grower.proposals[5].push(Proposal {
            pose: Pose::translation(300.0, 0.0),
            ..closing(&[(2, 5, 5.0)], 0.1)
        });
        assert_eq!(grower.best(&g, 4).map(|b| b.0), Some(5), "a classic cut");
    }
}
