//! Outward growth of a cluster by junction closure (Freeman & Garder, "Puzzle assembly").
//!
//! The cluster keeps its open chainlets (the exterior boundary). Every acceptable mating of
//! an open chainlet proposes a pose for an unplaced piece; proposals for the same piece that
//! agree on the pose are merged, so a piece that mates two or more open chainlets at once is
//! a *junction closure* (the paper's multiple closure falls out of the same test). Proposals
//! are taken in tiers: junction closures first (two matings agreeing on a pose are strong
//! evidence), then single matings that are mutually best (each chainlet is the other's best
//! mate), then the rest. Within a tier the cost is Δ in units of the puzzle's typical Δ times
//! the figure of merit (Δ over the Δ of the next-best alternative), so a mating must be both
//! good and unambiguous; ties go to the piece beside the last-mated one, which keeps the growth
//! a spiral around the seed.
//!
//! Before a piece joins it must pass the intersection test (no overlap with any placed piece)
//! and the closure test: wherever one of its chainlets now lies along an open chainlet of the
//! cluster (both ends within tolerance), the two must also match in shape; a mismatch is a
//! failed closure and the proposal is dropped, so the next alternative is tried in order of
//! merit. When no proposal is left the cluster is relaxed and its holes filled: a piece in a
//! pocket may close with seams the accumulated pose error has distorted (see `closure`).
//! Growth is linear in the number of proposals: no exponential search.

use super::closure::{Closed, ClosureTest};
use super::geometry::{pose_difference, Pose, P2};
use super::matings::MatingTable;
use super::member_grid::MemberGrid;
use super::merge::merge_clusters;
use super::relax::{joint_fit, relax};
use super::shapes::Shapes;
use super::weak::dissolve_weak_clusters;

/// Tolerances relative to the median piece size (`size` = √area).
pub(super) const POSE_FRACTION: f64 = 0.05;
pub(super) const ANGLE_TOLERANCE: f64 = 0.09; // radians, about 5°
const ENDPOINT_FRACTION: f64 = 0.07;
/// A single mating whose Δ is more than this fraction of the next-best alternative's is
/// ambiguous: it may still be used, but only after every unambiguous one.
const AMBIGUOUS_MERIT: f64 = 0.5;
/// Every this many placements the cluster is relaxed: each piece refitted to all its mated
/// neighbours. Small pose errors of single matings otherwise add up along the spiral until
/// true closures far from the seed fail the overlap test.
const RELAX_EVERY: usize = 25;
const RELAX_SWEEPS: usize = 3;

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
}

#[derive(Clone, Debug)]
pub struct ClosedJunction {
    pub cluster: u32,
    pub position: P2,
    pub merit: f64,
}

#[derive(Debug, Default)]
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
}

#[derive(Clone, Debug)]
struct Proposal {
    pose: Pose,
    /// (open cluster chainlet, chainlet of the proposed piece, Δ).
    supports: Vec<(usize, usize, f64)>,
    /// Figure of merit of the first support.
    merit: f64,
    /// Whether the first support is a mutual best mating.
    mutual: bool,
    /// Whether a shaped mating supports it; one made by straight matings alone (see
    /// `straight`) is taken only where it closes a junction.
    shaped: bool,
    /// The closure test's outcome at this pose: the cluster chainlets it closes. `None` until
    /// evaluated, and again whenever a piece is placed nearby.
    closes: Option<Closed>,
}

/// Grows every cluster, the first from `first` (else the most certain seed).
pub fn grow_from(shapes: &Shapes, table: &MatingTable, first: Option<usize>) -> Growth {
    let n = shapes.pieces.len();
    let mut g = Growth {
        placed: vec![None; n],
        mate_of: vec![None; shapes.chainlets.len()],
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
        if closed.len() >= 2 {
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
            supports: closed.len(),
            merit: proposal.merit,
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

struct Grower<'a> {
    shapes: &'a Shapes,
    table: &'a MatingTable,
    proposals: Vec<Vec<Proposal>>,
    tol_pose: f64,
    tol_end: f64,
    members: Vec<usize>,
    /// Members by where their centroid lies in the cluster frame, so the closure test only
    /// looks at pieces that can touch the candidate.
    grid: MemberGrid,
    /// Once growth has stopped: pockets may close with distorted seams (see `closure`).
    pockets: bool,
}

impl<'a> Grower<'a> {
    fn new(shapes: &'a Shapes, table: &'a MatingTable) -> Self {
        Grower {
            shapes,
            table,
            proposals: vec![Vec::new(); shapes.pieces.len()],
            tol_pose: POSE_FRACTION * shapes.median_size,
            tol_end: ENDPOINT_FRACTION * shapes.median_size,
            members: Vec::new(),
            grid: MemberGrid::for_pieces(shapes),
            pockets: false,
        }
    }

    /// Adds the proposals that the open chainlets of newly placed `piece` make.
    fn propose_from(&mut self, piece: usize, g: &Growth) {
        let pose = g.placed[piece].as_ref().expect("placed").pose;
        for &a in &self.shapes.pieces[piece].chainlets {
            if g.mate_of[a].is_some() {
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
            if g.placed[j].is_some() {
                continue;
            }
            let next = list[rank + 1..]
                .iter()
                .find(|o| self.shapes.chainlets[o.b].piece != j)
                .map_or(self.table.delta_threshold, |o| o.delta);
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
                }),
            }
        }
    }

    /// The proposal to try next: most junctions closed, then best merit, then beside `last`.
    fn best(&self, g: &Growth, last: usize) -> Option<(usize, Proposal)> {
        let last_pose = g.placed[last].as_ref().map(|p| p.pose);
        let near_last = |j: usize, pose: &Pose| {
            last_pose.map_or(f64::INFINITY, |lp| {
                (lp * self.shapes.pieces[last].centroid - pose * self.shapes.pieces[j].centroid)
                    .norm()
            })
        };
        let unit = self.table.delta_typical;
        let mut best: Option<(usize, &Proposal, (u8, f64, f64))> = None;
        for (j, list) in self.proposals.iter().enumerate() {
            for q in list {
                let Some(closes) = &q.closes else {
                    continue;
                };
                if closes.is_empty() || (!q.shaped && closes.len() < 2) {
                    continue;
                }
                let tier = match closes.len() {
                    1 if q.mutual && q.merit <= AMBIGUOUS_MERIT => 1,
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
    fn refresh(&mut self, g: &Growth) -> usize {
        let mut dropped = 0;
        for j in 0..self.proposals.len() {
            if self.proposals[j].iter().all(|q| q.closes.is_some()) {
                continue;
            }
            let outcomes: Vec<Option<Closed>> = self.proposals[j]
                .iter()
                .map(|q| match &q.closes {
                    Some(c) => Some(c.clone()),
                    None => ClosureTest {
                        shapes: self.shapes,
                        table: self.table,
                        tol_end: self.tol_end,
                        pockets: self.pockets,
                    }
                    .run(&self.grid, g, j, &q.pose),
                })
                .collect();
            let before = self.proposals[j].len();
            let mut kept = Vec::with_capacity(before);
            for (mut q, outcome) in self.proposals[j].drain(..).zip(outcomes) {
                if let Some(c) = outcome {
                    q.closes = Some(c);
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
    fn relax(&mut self, g: &mut Growth) {
        relax(self.shapes, g, &self.members, RELAX_SWEEPS);
        self.rebuild_grid(g);
        self.repropose(g);
    }

    fn rebuild_grid(&mut self, g: &Growth) {
        let mut grid = MemberGrid::new(self.grid.cell);
        for &m in &self.members {
            let pose = g.placed[m].as_ref().expect("member").pose;
            grid.insert(m, &(pose * self.shapes.pieces[m].centroid));
        }
        self.grid = grid;
    }

    /// Proposals made afresh from every member's current pose (after relaxation).
    fn repropose(&mut self, g: &Growth) {
        for list in &mut self.proposals {
            list.clear();
        }
        for &m in &self.members.clone() {
            self.propose_from(m, g);
        }
    }

    /// A piece placed at `at` may change the closure of proposals around it.
    fn invalidate_near(&mut self, at: &P2) {
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
