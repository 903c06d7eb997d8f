//! Outward growth of a cluster by junction closure (Freeman & Garder, "Puzzle assembly").
//!
//! The cluster keeps its open chainlets (the exterior boundary). Every acceptable mating of
//! an open chainlet proposes a pose for an unplaced piece; proposals for the same piece that
//! agree on the pose are merged, so a piece that mates two or more open chainlets at once is
//! a *junction closure* (the paper's multiple closure falls out of the same test). Proposals
//! are taken in tiers: junction closures first (two matings agreeing on a pose are strong
//! evidence), then single matings that are mutually best (each chainlet is the other's best
//! mate), then the rest, as long as they fit as well as a good seam
//! ([`MatingTable::good_seam`]). Within a tier the cost is Δ in units of the puzzle's typical
//! Δ times the figure of merit (Δ over the Δ of the next-best alternative), so a mating must
//! be both good and unambiguous; ties go to the piece beside the last-mated one, which keeps
//! the growth a spiral around the seed.
//!
//! Before a piece joins it must pass the intersection test (no overlap with any placed piece)
//! and the closure test: wherever one of its chainlets now lies along an open chainlet of the
//! cluster (both ends within tolerance), the two must also match in shape; a mismatch is a
//! failed closure and the proposal is dropped, so the next alternative is tried in order of
//! merit. When no proposal is left the cluster is relaxed and its holes filled: a piece in a
//! pocket may close with seams the accumulated pose error has distorted (see `closure`).
//! Growth is linear in the number of proposals: no exponential search.

use super::geometry::{Pose, P2};
use super::grower::Grower;
use super::matings::MatingTable;
use super::merge::merge_clusters;
use super::relax::{joint_fit, relax};
use super::shapes::Shapes;
use super::weak::dissolve_weak_clusters;

/// Tolerances relative to the median piece size (`size` = √area).
pub(super) const POSE_FRACTION: f64 = 0.05;
pub(super) const ANGLE_TOLERANCE: f64 = 0.09; // radians, about 5°
pub(super) const ENDPOINT_FRACTION: f64 = 0.07;
/// A single mating whose Δ is more than this fraction of the next-best alternative's is
/// ambiguous: it may still be used, but only after every unambiguous one.
pub(super) const AMBIGUOUS_MERIT: f64 = 0.5;
/// A junction closure above this figure of merit is revisited like an ambiguous single mating
/// (see `restarts`): its merit is the least of its matings', so above 1 every one of them has
/// a better alternative with another piece, and two agreeing matings that are each second
/// best are no evidence. Irregular 100 scans seed 43: piece 42 closed a junction at merit
/// 1.49, piece 51 joined it, and both sat 770 px off their place; with such closures taken
/// back in turn the growth kept has 146 good seams instead of 142 and 91.96 → 98.21 %.
pub(super) const AMBIGUOUS_CLOSURE: f64 = 1.0;
/// Every this many placements the cluster is relaxed: each piece refitted to all its mated
/// neighbours. Small pose errors of single matings otherwise add up along the spiral until
/// true closures far from the seed fail the overlap test.
const RELAX_EVERY: usize = 25;
pub(super) const RELAX_SWEEPS: usize = 3;

#[derive(Clone, Debug)]
pub struct Placed {
    /// Source pixels of the piece → the cluster's frame.
    pub pose: Pose,
    pub sequence: u32,
    pub cluster: u32,
    /// How many cluster chainlets it mated when it joined (≥ 2: it closed a junction).
    pub supports: usize,
    /// Its Δ relative to the next-best alternative (smaller is surer), 1 if none.
    pub merit: f64,
    /// Of `supports`, the seams across a missed corner (see `spanning`): they hold the piece
    /// though no mate records them.
    pub spans: usize,
}

#[derive(Clone, Debug)]
pub struct ClosedJunction {
    pub cluster: u32,
    pub position: P2,
    pub merit: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Growth {
    pub placed: Vec<Option<Placed>>,
    /// Per chainlet, its mate and the Δ of that mating.
    pub mate_of: Vec<Option<(usize, f64)>>,
    pub junctions: Vec<ClosedJunction>,
    pub clusters: u32,
    /// Proposals tried and rejected by the intersection or closure test (error corrections).
    pub rejections: usize,
    /// Pieces set loose for resting on weak matings only: weak clusters and leaves (see `weak`).
    pub loose: Vec<usize>,
    /// Per chainlet, whether this growth takes it to have no mate in the set (an outer
    /// boundary, or its mate is missing): it is never mated. Empty: none is.
    pub boundary: Vec<bool>,
    /// The decisions error correction may revisit (see `restarts`), in order: the chainlet of
    /// the cluster and the figure of merit of every piece that joined on a single mating, and
    /// every cluster chainlet of a junction closure above [`AMBIGUOUS_CLOSURE`].
    pub revisable: Vec<(usize, f64)>,
}

impl Growth {
    /// Whether chainlet `a` may still be mated: not mated yet, and not taken as boundary.
    pub fn is_open(&self, a: usize) -> bool {
        self.mate_of[a].is_none() && !self.boundary.get(a).copied().unwrap_or(false)
    }

    /// Leaves piece `i` out again, its seams unmated on both sides.
    pub fn unplace(&mut self, shapes: &Shapes, i: usize) {
        self.placed[i] = None;
        for &c in &shapes.pieces[i].chainlets {
            if let Some((o, _)) = self.mate_of[c].take() {
                self.mate_of[o] = None;
            }
        }
    }
}

/// Grows every cluster, the first from `first` (else the most certain seed).
pub fn grow_from(
    shapes: &Shapes,
    table: &MatingTable,
    first: Option<usize>,
    boundary: Vec<bool>,
) -> Growth {
    let n = shapes.pieces.len();
    let mut g = Growth {
        placed: vec![None; n],
        mate_of: vec![None; shapes.chainlets.len()],
        boundary,
        ..Growth::default()
    };
    let mut sequence = 0;
    let mut exhausted = vec![false; n];
    let mut first = first;
    while let Some(seed) = first
        .take()
        .or_else(|| choose_seed(shapes, table, &g, &exhausted))
    {
        exhausted[seed] = true;
        let cluster = g.clusters;
        let mut grower = Grower::new(shapes, table);
        sequence += 1;
        g.placed[seed] = Some(Placed {
            pose: Pose::identity(),
            sequence,
            cluster,
            supports: 0,
            merit: 1.0,
            spans: 0,
        });
        grower.members.push(seed);
        grower.grid.insert(seed, &shapes.pieces[seed].centroid);
        grower.propose_from(seed, &g);
        extend(&mut grower, &mut g, cluster, &mut sequence, seed);
        relax(shapes, &mut g, &grower.members, RELAX_SWEEPS);
        g.clusters += 1;
        if grower.members.len() == 1 {
            // A lone piece is not a cluster: it stays unplaced (no mate found).
            g.placed[seed] = None;
            g.clusters -= 1;
            sequence -= 1;
        }
    }
    let tol_end = ENDPOINT_FRACTION * shapes.median_size;
    if merge_clusters(shapes, table, &mut g, tol_end) > 0 {
        regrow(shapes, table, &mut g, &mut sequence);
        merge_clusters(shapes, table, &mut g, tol_end);
    }
    g.loose = dissolve_weak_clusters(shapes, &mut g);
    g
}

/// Grows `cluster` (the grower's members) until no proposal is left, then fills its pockets.
fn extend(grower: &mut Grower, g: &mut Growth, cluster: u32, sequence: &mut u32, last: usize) {
    let shapes = grower.shapes;
    let mut last = last;
    loop {
        g.rejections += grower.refresh(g);
        let Some((piece, proposal)) = grower.best(g, last) else {
            if grower.pockets {
                break;
            }
            // Growth has stopped: relax the cluster, then fill the holes it left.
            grower.pockets = true;
            grower.relax(g);
            continue;
        };
        let closed = proposal.closes.clone().unwrap_or_default();
        let pose = if closed.len() >= 2 {
            joint_fit(shapes, g, &closed, &proposal.pose)
        } else {
            proposal.pose
        };
        *sequence += 1;
        for &(a, b, d) in &closed {
            g.mate_of[a] = Some((b, d));
            g.mate_of[b] = Some((a, d));
        }
        record_revisable(g, &closed, proposal.spans, proposal.merit);
        if closed.len() + proposal.spans >= 2 {
            let position = junction_point(shapes, &closed, &proposal.pose);
            g.junctions.push(ClosedJunction {
                cluster,
                position,
                merit: proposal.merit,
            });
        }
        g.placed[piece] = Some(Placed {
            pose,
            sequence: *sequence,
            cluster,
            supports: closed.len() + proposal.spans,
            merit: proposal.merit,
            spans: proposal.spans,
        });
        grower.members.push(piece);
        grower
            .grid
            .insert(piece, &(pose * shapes.pieces[piece].centroid));
        grower.proposals[piece].clear();
        if grower.members.len().is_multiple_of(RELAX_EVERY) {
            grower.relax(g);
        } else {
            grower.invalidate_near(&(pose * shapes.pieces[piece].centroid));
            grower.propose_from(piece, g);
        }
        last = piece;
    }
}

/// Records the choice of a piece that joined on the matings `closed` (and `spans` seams across
/// missed corners) at figure of merit `merit`, if error correction may take it back: a single
/// mating, or every mating of an ambiguous junction closure (see [`AMBIGUOUS_CLOSURE`]).
fn record_revisable(g: &mut Growth, closed: &[(usize, usize, f64)], spans: usize, merit: f64) {
    if let ([(a, _, _)], 0) = (closed, spans) {
        g.revisable.push((*a, merit));
    } else if merit > AMBIGUOUS_CLOSURE {
        g.revisable
            .extend(closed.iter().map(|&(a, _, _)| (a, merit)));
    }
}

/// After clusters merged, the pieces that fit between them have neighbours on both sides at
/// last: every cluster grows again (then fills its pockets), and merges are tried again.
fn regrow(shapes: &Shapes, table: &MatingTable, g: &mut Growth, sequence: &mut u32) {
    for cluster in 0..g.clusters {
        let mut members: Vec<usize> = (0..g.placed.len())
            .filter(|&i| g.placed[i].as_ref().is_some_and(|p| p.cluster == cluster))
            .collect();
        members.sort_by_key(|&i| g.placed[i].as_ref().map(|p| p.sequence));
        let Some(&last) = members.last() else {
            continue;
        };
        let mut grower = Grower::new(shapes, table);
        grower.members = members;
        grower.rebuild_grid(g);
        grower.repropose(g);
        extend(&mut grower, g, cluster, sequence, last);
        relax(shapes, g, &grower.members, RELAX_SWEEPS);
    }
}

/// The unplaced piece with the most chainlets whose best mate is mutual ("best buddies"),
/// ties broken by the smaller total Δ: the most certain start for a spiral.
fn choose_seed(
    shapes: &Shapes,
    table: &MatingTable,
    g: &Growth,
    exhausted: &[bool],
) -> Option<usize> {
    seed_ranking(shapes, table, g, exhausted).first().copied()
}

/// Unplaced pieces with at least one best buddy, most certain first.
pub(super) fn seed_ranking(
    shapes: &Shapes,
    table: &MatingTable,
    g: &Growth,
    exhausted: &[bool],
) -> Vec<usize> {
    let free = |c: usize| g.placed[shapes.chainlets[c].piece].is_none();
    let mut ranked: Vec<(usize, usize, f64)> = (0..shapes.pieces.len())
        .filter(|&p| g.placed[p].is_none() && !exhausted[p])
        .filter_map(|p| {
            let mut buddies = 0;
            let mut total = 0.0;
            for &a in &shapes.pieces[p].chainlets {
                let Some(m) = table.per_chainlet[a].iter().find(|m| free(m.b)) else {
                    continue;
                };
                let back = table.per_chainlet[m.b].iter().find(|m| free(m.b));
                if back.is_some_and(|r| r.b == a) {
                    buddies += 1;
                    total += m.delta;
                }
            }
            (buddies > 0).then_some((p, buddies, total))
        })
        .collect();
    ranked.sort_by(|x, y| y.1.cmp(&x.1).then(x.2.total_cmp(&y.2)).then(x.0.cmp(&y.0)));
    ranked.into_iter().map(|(p, _, _)| p).collect()
}

/// Where the closed chainlets meet: the critical point shared by two consecutive chainlets of
/// the new piece (the end of one is the start of the next), in the cluster frame.
fn junction_point(shapes: &Shapes, closed: &[(usize, usize, f64)], pose: &Pose) -> P2 {
    for &(_, b1, _) in closed {
        for &(_, b2, _) in closed {
            let (c1, c2) = (&shapes.chainlets[b1], &shapes.chainlets[b2]);
            if b1 != b2 && c1.end == c2.start {
                return pose * c1.points[c1.points.len() - 1];
            }
        }
    }
    pose * shapes.chainlets[closed[0].1].points[0]
}

#[cfg(test)]
impl Placed {
    /// The `k`-th piece placed (sequence `k + 1`) in cluster 0 at `pose`, as growth places a
    /// piece that closed a junction: for tests of what is done with placed pieces.
    pub fn as_cut(k: usize, pose: Pose) -> Placed {
        Placed {
            pose,
            sequence: k as u32 + 1,
            cluster: 0,
            supports: 2,
            merit: 0.5,
            spans: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ambiguous_junction_closures_are_revisable_like_single_matings() {
        let mut g = Growth::default();
        record_revisable(&mut g, &[(3, 9, 10.0)], 0, 0.7);
        // Unambiguous closures are not revisited; a single mating beside a span is a closure.
        record_revisable(&mut g, &[(4, 10, 10.0), (5, 11, 10.0)], 0, 0.9);
        record_revisable(&mut g, &[(6, 12, 10.0)], 1, 1.4);
        // Each of its matings second best: every one is taken back in turn.
        record_revisable(&mut g, &[(7, 13, 10.0), (8, 14, 10.0)], 0, 1.49);
        assert_eq!(g.revisable, vec![(3, 0.7), (6, 1.4), (7, 1.49), (8, 1.49)]);
    }
}
