//! Merging clusters. Growth stops where no piece passes the closure test: a row of missing
//! pieces, or a piece whose outline the front end got wrong, can cut the puzzle into two
//! clusters that both assembled correctly. Their open boundaries still mate where they touch,
//! and every such mating implies the same rigid motion of one cluster onto the other; two or
//! more agreeing matings, and no overlap or gap anywhere along the new seam, merge them.
//! Clusters of different puzzles (mixed sets) yield only scattered, disagreeing matings.

use super::closure::{Closed, ClosureTest};
use super::geometry::{fit_rigid, pose_difference, Pose};
use super::grow::{Growth, ANGLE_TOLERANCE, POSE_FRACTION};
use super::matings::MatingTable;
use super::member_grid::MemberGrid;
use super::pocket::POCKET_NEAR;
use super::relax::relax;
use super::shapes::Shapes;

/// Agreeing matings needed before a merge is tried.
const MIN_SUPPORT: usize = 2;
/// Where the piece-by-piece test refuses a merge, the clusters' seams are weighed together:
/// up to this share of them may stay open if the rest close and nothing overlaps. Growth
/// stops at a piece whose outline the front end damaged (a white knob on white paper cut
/// short), and the clusters that grew on either side then meet along it: each such piece has
/// one good seam and one that gaps, which the per-piece rule (two good beside one open)
/// refuses, though the motion agrees with seams all along the boundary.
const MAX_DAMAGED_SHARE: f64 = 0.5;

/// Where the clusters' seams are weighed together, this many moved pieces may overlap a
/// neighbour as deep as a damaged side bulges (`pocket::POCKET_OVERLAP_FRACTION`): a knob's
/// neck the colour of the background, traced with the drop shadow that fills it, bulges into
/// the neighbour whose knob it holds, and refused every motion, even the true one, of the
/// cluster beside it (irregular 20 photos seed 1 at 120 px: two true halves joined by one
/// wrong seam could not be rejoined, 14 px of piece 16's traced neck inside piece 8). As in a
/// surrounded piece's bulge (see `pocket`), the motion must then close one good seam more: on
/// two, a cluster of three merged with a bulge where it did not belong, and its neighbour was
/// left out (irregular 100 photos seed 13, 100 → 97.7 %).
const MAX_BULGING: usize = 1;

/// One motion of cluster `from` onto cluster `onto`, with the matings that imply it.
struct Motion {
    onto: u32,
    from: u32,
    pose: Pose,
    support: usize,
    delta: f64,
}

/// Merges clusters whose open boundaries mate consistently, largest support first, until no
/// pair of clusters can be merged. Returns how many merges were made.
pub fn merge_clusters(shapes: &Shapes, table: &MatingTable, g: &mut Growth, tol_end: f64) -> usize {
    let tol_pose = POSE_FRACTION * shapes.median_size;
    let mut merges = 0;
    let mut refused: Vec<(u32, u32, Pose)> = Vec::new();
    while g.clusters > 1 {
        let mut motions = motions(shapes, table, g, tol_pose);
        motions.retain(|m| {
            !refused.iter().any(|r| {
                (r.0, r.1) == (m.onto, m.from)
                    && pose_difference(&r.2, &m.pose, &shapes.pieces[0].centroid).0 < tol_pose
            })
        });
        motions.sort_by(|x, y| y.support.cmp(&x.support).then(x.delta.total_cmp(&y.delta)));
        let Some(m) = motions.into_iter().find(|m| m.support >= MIN_SUPPORT) else {
            break;
        };
        if apply(shapes, table, g, &m, tol_end) {
            merges += 1;
        } else {
            refused.push((m.onto, m.from, m.pose));
        }
    }
    merges
}

/// Every motion of one cluster onto another implied by matings of open chainlets, agreeing
/// matings grouped. The smaller cluster (by id: clusters are numbered in growth order, the
/// first is the largest start) is moved onto the larger.
fn motions(shapes: &Shapes, table: &MatingTable, g: &Growth, tol_pose: f64) -> Vec<Motion> {
    let placed = |c: usize| g.placed[shapes.chainlets[c].piece].as_ref();
    let mut out: Vec<Motion> = Vec::new();
    for a in 0..table.per_chainlet.len() {
        let Some(pa) = placed(a) else { continue };
        if !g.is_open(a) {
            continue;
        }
        for m in table.all_of(a) {
            let Some(pb) = placed(m.b) else { continue };
            if pb.cluster <= pa.cluster || !g.is_open(m.b) {
                continue;
            }
            let pose = pa.pose * m.pose * pb.pose.inverse();
            let centre = pb.pose * shapes.pieces[shapes.chainlets[m.b].piece].centroid;
            let same = out.iter_mut().find(|o| {
                (o.onto, o.from) == (pa.cluster, pb.cluster) && {
                    let (d, ang) = pose_difference(&o.pose, &pose, &centre);
                    d < tol_pose && ang < ANGLE_TOLERANCE
                }
            });
            match same {
                Some(o) => {
                    o.support += 1;
                    o.delta += m.delta;
                }
                None => out.push(Motion {
                    onto: pa.cluster,
                    from: pb.cluster,
                    pose,
                    support: 1,
                    delta: m.delta,
                }),
            }
        }
    }
    out
}

/// Moves cluster `m.from` by `m.pose` onto `m.onto` if every moved piece passes the
/// intersection and closure tests against the other cluster and at least [`MIN_SUPPORT`]
/// seams close; renumbers the clusters above `m.from`.
fn apply(shapes: &Shapes, table: &MatingTable, g: &mut Growth, m: &Motion, tol_end: f64) -> bool {
    let members = |g: &Growth, k: u32| -> Vec<usize> {
        let mut v: Vec<usize> = (0..g.placed.len())
            .filter(|&i| g.placed[i].as_ref().is_some_and(|p| p.cluster == k))
            .collect();
        v.sort_by_key(|&i| g.placed[i].as_ref().map(|p| p.sequence));
        v
    };
    let (onto, from) = (members(g, m.onto), members(g, m.from));
    let mut grid = MemberGrid::for_pieces(shapes);
    for &i in &onto {
        let pose = g.placed[i].as_ref().expect("member").pose;
        grid.insert(i, &(pose * shapes.pieces[i].centroid));
    }
    let test = ClosureTest {
        shapes,
        table,
        tol_end,
        pockets: false,
    };
    // The motion comes from a few matings; a long cluster that grew along single matings
    // carries their small errors to its far end, so where the rigid motion leaves a gap the
    // motion is fitted to every seam the two clusters would close, and tested again.
    let mut motion = m.pose;
    let mut seams = seams_at(&test, &grid, g, &from, &motion);
    let mut refit = None;
    if seams.is_none() {
        refit = refit_motion(shapes, &test, &grid, g, &from, &m.pose, false);
        if let Some(refit) = refit {
            motion = refit;
            seams = seams_at(&test, &grid, g, &from, &motion);
        }
    }
    if seams.is_none() {
        // Weighed as a whole (see [`MAX_DAMAGED_SHARE`]), at the best of three motions: the
        // matings', the refit one, and one fitted to the table's matings only.
        let whole =
            |motion: Pose| Some((motion, damaged_seams_at(&test, &grid, g, &from, &motion)?));
        let tabled = refit_motion(shapes, &test, &grid, g, &from, &m.pose, true);
        let best = [Some(m.pose), refit, tabled]
            .into_iter()
            .flatten()
            .filter_map(whole)
            .max_by_key(|(_, s)| s.len());
        if let Some((at, good)) = best {
            motion = at;
            seams = Some(good);
        }
    }
    let Some(seams) = seams else {
        return false;
    };
    if seams.len() < MIN_SUPPORT {
        return false;
    }
    for &(a, b, d) in &seams {
        g.mate_of[a] = Some((b, d));
        g.mate_of[b] = Some((a, d));
    }
    move_cluster(g, m.from, m.onto, &motion);
    let merged: Vec<usize> = onto.iter().chain(&from).copied().collect();
    relax(shapes, g, &merged, 3);
    true
}

/// Moves every piece and junction of cluster `from` by `motion` into cluster `onto`, and
/// numbers the clusters above `from` down by one (`onto` too, if it is above).
pub(super) fn move_cluster(g: &mut Growth, from: u32, onto: u32, motion: &Pose) {
    for p in g.placed.iter_mut().flatten() {
        if p.cluster == from {
            p.pose = motion * p.pose;
            p.cluster = onto;
        }
    }
    for j in &mut g.junctions {
        if j.cluster == from {
            j.cluster = onto;
            j.position = motion * j.position;
        }
    }
    renumber_after(g, from);
}

/// Numbers the clusters above `gone`, which holds nothing any more, down by one.
pub(super) fn renumber_after(g: &mut Growth, gone: u32) {
    for p in g.placed.iter_mut().flatten() {
        if p.cluster > gone {
            p.cluster -= 1;
        }
    }
    for j in &mut g.junctions {
        if j.cluster > gone {
            j.cluster -= 1;
        }
    }
    g.clusters -= 1;
}

/// The seams closed when every piece of `from` is moved by `motion`, or `None` if one of them
/// overlaps the other cluster or leaves a gap.
fn seams_at(
    test: &ClosureTest,
    grid: &MemberGrid,
    g: &Growth,
    from: &[usize],
    motion: &Pose,
) -> Option<Closed> {
    let mut seams = Vec::new();
    for &i in from {
        let pose = motion * g.placed[i].as_ref().expect("member").pose;
        seams.extend(test.at_pose(grid, g, i, &pose)?);
    }
    Some(seams)
}

/// The good seams closed when every piece of `from` is moved by `motion`, weighing the
/// clusters' seams together rather than piece by piece: `None` on any overlap but one bulge
/// (see [`MAX_BULGING`]), or unless at least [`MIN_SUPPORT`] seams close (one more with the
/// bulge) and the open ones are at most [`MAX_DAMAGED_SHARE`] of them. The open seams stay
/// unmated.
fn damaged_seams_at(
    test: &ClosureTest,
    grid: &MemberGrid,
    g: &Growth,
    from: &[usize],
    motion: &Pose,
) -> Option<Closed> {
    let (mut good, mut open, mut bulging) = (Vec::new(), 0, 0);
    let near_limit = POCKET_NEAR * test.limit();
    for &i in from {
        let pose = motion * g.placed[i].as_ref().expect("member").pose;
        let seams = test.seams_at(grid, g, i, &pose)?;
        bulging += usize::from(seams.bulging);
        if bulging > MAX_BULGING {
            return None;
        }
        let (near, far): (Closed, Closed) = seams.open.into_iter().partition(|s| s.2 <= near_limit);
        good.extend(seams.good);
        good.extend(near);
        open += far.len();
    }
    let allowed = (MAX_DAMAGED_SHARE * (good.len() + open) as f64).floor() as usize;
    // A bulge lets in one piece more than the seams show, so it costs one good seam more.
    let needed = MIN_SUPPORT + bulging;
    (good.len() >= needed && open <= allowed).then_some(good)
}

/// The motion of `from` that best fits every pair of chainlets lying along each other after
/// moving it by `motion` (least squares), if there are at least [`MIN_SUPPORT`] pairs; with
/// `tabled`, only the pairs the mating table holds as matings, so seams a damaged outline
/// leaves gaping do not pull the fit off the good ones.
fn refit_motion(
    shapes: &Shapes,
    test: &ClosureTest,
    grid: &MemberGrid,
    g: &Growth,
    from: &[usize],
    motion: &Pose,
    tabled: bool,
) -> Option<Pose> {
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    let mut pairs = 0;
    for &i in from {
        let own = g.placed[i].as_ref().expect("member").pose;
        for (a, b, _) in test.pairs_at(grid, g, i, &(motion * own)) {
            if tabled && !test.table.all_of(a).any(|m| m.b == b) {
                continue;
            }
            let ca = &shapes.chainlets[a];
            let q = g.placed[ca.piece].as_ref().expect("member").pose;
            src.extend(shapes.chainlets[b].samples.iter().rev().map(|p| own * p));
            dst.extend(ca.samples.iter().map(|p| q * p));
            pairs += 1;
        }
    }
    (pairs >= MIN_SUPPORT).then(|| fit_rigid(&src, &dst).0)
}
