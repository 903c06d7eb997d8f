//! The depth-first search of sections 5 and 6: MINIMAL AREA polygon, BEST VERTEX, larger
//! pieces first, ANGLE CHECK before PLACE, and the dead-end tests (polygon smaller than any
//! piece, generalised to "area not a sum of available pieces"; a short side between two
//! convex corners; a memo of regions proven impossible with the same multiset of pieces).

use super::geometry::{add, cross, scale, sub, Pt, Tol};
use super::place::{poses, rho_placed};
use super::records::RegionPolygon;
use super::symmetry::Anchor;
use std::collections::{HashMap, HashSet};
use std::f64::consts::PI;

/// Whether a piece side of length `len` laid from the region's vertex `j` along its next side
/// (`forward`) or back along its previous one, where the region turns inwards at the far
/// corner, leaves the region by more than `eps`. Why not simply "longer than the side": a
/// measured region corner that turns by a few degrees may be missing from a piece (or vice
/// versa), and the side running straight past it then stays within the tolerance of the
/// region (ρ decides the rest). How far it leaves is measured from the first region side
/// beyond the corner that is at least `eps` long: shorter ones are a jog where two placed
/// pieces' corners, each within the tolerance, do not quite meet (14-piece photo seed 94:
/// a 4 px jog 37 px along a side, which the true piece's 65 px side passes within 1.3 px).
fn overshoots(poly: &RegionPolygon, j: usize, len: f64, forward: bool, eps: f64) -> bool {
    let n = poly.v.len();
    let step = |k: usize| {
        if forward {
            (k + 1) % n
        } else {
            (k + n - 1) % n
        }
    };
    // The side along which the piece side runs, and the corner it may run past.
    let along = if forward { j } else { step(j) };
    if len - poly.v[along].len <= eps {
        return false;
    }
    let (s, c) = poly.v[along].dir.sin_cos();
    let dir = if forward { [c, s] } else { [-c, -s] };
    let end = add(poly.v[j].p, scale(dir, len));
    let mut side = step(along);
    for _ in 2..n {
        if poly.v[side].len >= eps {
            break;
        }
        side = step(side);
    }
    // The region is clockwise: its outside lies on the left of every side.
    let (s, c) = poly.v[side].dir.sin_cos();
    cross([c, s], sub(end, poly.v[side].p)) > eps
}

/// Beyond this many distinct subset sums the area test is skipped.
const MAX_SUMS: usize = 1 << 14;

/// A class of identical pieces as the search sees it.
#[derive(Debug, Clone)]
pub struct PieceClass {
    pub area: f64,
    pub shortest_side: f64,
    pub anchors: Vec<Anchor>,
    /// How many identical copies the puzzle has.
    pub count: u32,
}

/// One placing on the current path.
#[derive(Debug, Clone)]
pub struct Step {
    pub class: usize,
    pub anchor: usize,
    /// The placed piece, vertex for vertex with `anchors[anchor].local`.
    pub placed: Vec<Pt>,
    /// The region vertex p_j it was anchored at.
    pub at: Pt,
}

/// What the search reports back for each complete solution; returning `false` stops it.
pub trait Visitor {
    fn solution(&mut self, path: &[Step]) -> bool;
}

/// Why the search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    NodeLimit,
}

pub struct Search<'a, V: Visitor> {
    pub classes: &'a [PieceClass],
    pub tol: Tol,
    /// Pieces may be left unused (the target is covered by a subset).
    pub allow_leftover: bool,
    pub max_nodes: u64,
    /// Once a solution has been found, stop (without error) after this many more nodes.
    pub soft_limit: u64,
    /// The node count at the first solution.
    first_solution_at: Option<u64>,
    pub memo_limit: usize,
    /// Pose every placed piece by least squares against its contacts (measured pieces).
    pub refine: bool,
    pub nodes: u64,
    pub memo_hits: u64,
    /// Placings made legal by re-posing the pieces they touch (measured pieces).
    pub reposes: u64,
    solutions: u64,
    visitor: V,
    path: Vec<Step>,
    /// With `refine`: the region before each placing of the path, from which the region is
    /// rebuilt when placed pieces are re-posed.
    before: Vec<Vec<RegionPolygon>>,
    memo: HashSet<u128>,
    sums: HashMap<Vec<u32>, Vec<f64>>,
    stopped: bool,
}

impl<'a, V: Visitor> Search<'a, V> {
    pub fn new(classes: &'a [PieceClass], tol: Tol, visitor: V) -> Self {
        Search {
            classes,
            tol,
            allow_leftover: false,
            max_nodes: u64::MAX,
            soft_limit: u64::MAX,
            first_solution_at: None,
            memo_limit: 4_000_000,
            refine: false,
            nodes: 0,
            memo_hits: 0,
            reposes: 0,
            solutions: 0,
            visitor,
            path: Vec::new(),
            before: Vec::new(),
            memo: HashSet::new(),
            sums: HashMap::new(),
            stopped: false,
        }
    }

    pub fn into_visitor(self) -> V {
        self.visitor
    }

    /// Runs the search on `region` (clockwise polygons) with every piece available.
    pub fn run(&mut self, region: Vec<RegionPolygon>) -> Result<u64, Stop> {
        let mut avail: Vec<u32> = self.classes.iter().map(|c| c.count).collect();
        let found = self.solve(region, &mut avail);
        if self.nodes > self.max_nodes {
            return Err(Stop::NodeLimit);
        }
        Ok(found)
    }

    /// The recursive `solve(R, A)` of section 5; returns how many solutions lie below.
    fn solve(&mut self, region: Vec<RegionPolygon>, avail: &mut Vec<u32>) -> u64 {
        self.nodes += 1;
        let soft_stop = self
            .first_solution_at
            .is_some_and(|first| self.nodes > first.saturating_add(self.soft_limit));
        if self.nodes > self.max_nodes || soft_stop {
            self.stopped = true;
            return 0;
        }
        if region.is_empty() {
            if avail.iter().any(|&c| c > 0) && !self.allow_leftover {
                return 0;
            }
            self.solutions += 1;
            self.first_solution_at.get_or_insert(self.nodes);
            if !self.visitor.solution(&self.path) {
                self.stopped = true;
            }
            return 1;
        }
        if avail.iter().all(|&c| c == 0) || self.dead_end(&region, avail) {
            return 0;
        }
        let key = self.memo_key(&region, avail);
        if self.memo.contains(&key) {
            self.memo_hits += 1;
            return 0;
        }
        // MINIMAL AREA, then BEST VERTEX.
        let pi = (0..region.len())
            .min_by(|&a, &b| region[a].area.total_cmp(&region[b].area))
            .unwrap_or(0);
        let poly = &region[pi];
        let Some((j, candidates)) = self.best_vertex(poly, avail) else {
            if self.memo.len() < self.memo_limit {
                self.memo.insert(key);
            }
            return 0;
        };
        let pts = poly.points();
        if self.refine {
            self.before.push(region.clone());
        }
        let mut found = 0;
        // Measured pieces: placings that ρ refused, tried again with the placed pieces they
        // touch re-posed once the placings that fit as they are have been explored; and the
        // poses least squares moved away from, tried last (`place::poses`).
        let mut refused: Vec<(usize, usize, Vec<Pt>)> = Vec::new();
        let mut unrefined: Vec<(usize, usize, Vec<Pt>)> = Vec::new();
        for (c, ai) in candidates {
            let anchor = &self.classes[c].anchors[ai];
            let mut poses = poses(&pts, j, &anchor.local, &self.tol, self.refine).into_iter();
            let Some(placed) = poses.next() else { continue };
            unrefined.extend(poses.map(|p| (c, ai, p)));
            match self.place(&region, pi, &pts, j, c, ai, placed, avail) {
                Ok(n) => found += n,
                Err(placed) if self.refine => refused.push((c, ai, placed)),
                Err(_) => {}
            }
            if self.stopped {
                break;
            }
        }
        if self.refine {
            for (c, ai, placed) in refused {
                if self.stopped {
                    break;
                }
                let Some(r) = self.try_repose(poly, j, &placed, c) else {
                    continue;
                };
                self.reposes += 1;
                let step = Step {
                    class: c,
                    anchor: ai,
                    placed: r.placed,
                    at: pts[j],
                };
                found += self.descend(r.next, avail, step, r.moved);
            }
            // Only where nothing else led to a solution: each is a whole subtree more.
            if found == 0 {
                for (c, ai, placed) in unrefined {
                    if self.stopped {
                        break;
                    }
                    found += self
                        .place(&region, pi, &pts, j, c, ai, placed, avail)
                        .unwrap_or(0);
                }
            }
            self.before.pop();
        }
        if self.stopped {
            return found;
        }
        if found == 0 && self.memo.len() < self.memo_limit {
            self.memo.insert(key);
        }
        found
    }

    /// ρ for `placed` (anchor `ai` of class `c`) at vertex `j` of region polygon `pi` (whose
    /// points are `pts`), and the search below it if legal: the solutions found, or the pose
    /// back when ρ refuses it.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        region: &[RegionPolygon],
        pi: usize,
        pts: &[Pt],
        j: usize,
        c: usize,
        ai: usize,
        placed: Vec<Pt>,
        avail: &mut Vec<u32>,
    ) -> Result<u64, Vec<Pt>> {
        let area = region[pi].area;
        let Ok(polys) = rho_placed(pts, area, j, &placed, self.classes[c].area, &self.tol) else {
            return Err(placed);
        };
        let mut next: Vec<RegionPolygon> = Vec::with_capacity(region.len() + 1);
        next.extend(
            region
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != pi)
                .map(|(_, r)| r.clone()),
        );
        next.extend(polys.iter().map(|p| RegionPolygon::new(p)));
        let step = Step {
            class: c,
            anchor: ai,
            placed,
            at: pts[j],
        };
        Ok(self.descend(next, avail, step, Vec::new()))
    }

    /// BEST VERTEX: among corners with an interior angle below π, the one where the fewest
    /// pieces pass ANGLE CHECK and SIDE CHECK (ties: smaller angle, then shorter adjacent
    /// sides), with those candidates in search order (larger pieces first). `None` when some
    /// convex corner admits no piece at all: a dead end.
    pub(super) fn best_vertex(
        &self,
        poly: &RegionPolygon,
        avail: &[u32],
    ) -> Option<(usize, Vec<(usize, usize)>)> {
        let n = poly.v.len();
        let angles: Vec<f64> = (0..n).map(|i| poly.angle(i)).collect();
        // (candidate count, angle, adjacent sides, vertex, candidates)
        type Choice = (usize, f64, f64, usize, Vec<(usize, usize)>);
        let mut best: Option<Choice> = None;
        for i in 0..n {
            let a = angles[i];
            // A corner flatter than its own angular uncertainty may be no piece's corner
            // (measured pieces lose such corners), so it is not one to build on.
            let flat = self
                .tol
                .angle_at(poly.v[i].len.min(poly.v[(i + n - 1) % n].len));
            // Likewise a needle tip sharper than that: the wedge left between two measured
            // pieces that should touch, which no piece fills; it falls away as a nil-polygon
            // when a piece closes its base.
            if a >= PI - flat || a <= flat {
                continue;
            }
            let cands = self.candidates(poly, &angles, i, avail);
            let sides = poly.v[i].len + poly.v[(i + n - 1) % n].len;
            let better = match &best {
                None => true,
                Some((bc, ba, bs, _, _)) => {
                    cands.len() < *bc
                        || (cands.len() == *bc
                            && (a < ba - self.tol.angle_eps
                                || (a <= ba + self.tol.angle_eps && sides < *bs)))
                }
            };
            if better {
                best = Some((cands.len(), a, sides, i, cands));
            }
            if best.as_ref().is_some_and(|b| b.0 == 0) {
                return None;
            }
        }
        best.map(|b| (b.3, b.4))
    }

    /// The (class, anchor) pairs that pass ANGLE CHECK at vertex `j`, and SIDE CHECK: a piece
    /// side along a region side ending in a convex corner may not be longer than it, and when
    /// both end there the piece's angle must fit in the corner's (the same on the other side
    /// when the piece fills the corner's angle exactly). Those two angles are compared within
    /// the tolerance of the shortest of the four sides meeting there (as ANGLE CHECK does at
    /// p_j): a piece corner cut by an 11 px side is 5° off its hole's and still within eps.
    fn candidates(
        &self,
        poly: &RegionPolygon,
        angles: &[f64],
        j: usize,
        avail: &[u32],
    ) -> Vec<(usize, usize)> {
        let n = poly.v.len();
        let (e, reach) = (self.tol.eps, self.reach());
        let alpha = angles[j];
        let (next_len, next_angle) = (poly.v[j].len, angles[(j + 1) % n]);
        let (prev_len, prev_angle) = (poly.v[(j + n - 1) % n].len, angles[(j + n - 1) % n]);
        let arms = next_len.min(prev_len);
        let beyond_next_len = poly.v[(j + 1) % n].len;
        let beyond_prev_len = poly.v[(j + n - 2) % n].len;
        let mut out = Vec::new();
        for (c, class) in self.classes.iter().enumerate() {
            if avail[c] == 0 {
                continue;
            }
            for (ai, an) in class.anchors.iter().enumerate() {
                // Angles are compared with the tolerance of the shorter side at the corner.
                let at = self.tol.angle_at(an.side_prev.min(an.side_next).min(arms));
                if an.angle > alpha + at {
                    continue;
                }
                if next_angle < PI {
                    if overshoots(poly, j, an.side_prev, true, reach) {
                        continue;
                    }
                    // Both corners' angles are only as good as their shorter sides.
                    let at = self.tol.angle_at(
                        an.side_prev
                            .min(next_len)
                            .min(an.beyond_prev)
                            .min(beyond_next_len),
                    );
                    if an.side_prev >= next_len - e && an.angle_prev > next_angle + at {
                        continue;
                    }
                }
                if an.angle >= alpha - at && prev_angle < PI {
                    if overshoots(poly, j, an.side_next, false, reach) {
                        continue;
                    }
                    let at = self.tol.angle_at(
                        an.side_next
                            .min(prev_len)
                            .min(an.beyond_next)
                            .min(beyond_prev_len),
                    );
                    if an.side_next >= prev_len - e && an.angle_next > prev_angle + at {
                        continue;
                    }
                }
                out.push((c, ai));
            }
        }
        out
    }

    /// The dead-end tests of section 6, (1) and (2).
    fn dead_end(&mut self, region: &[RegionPolygon], avail: &[u32]) -> bool {
        let area_eps = self.area_eps();
        let shortest = (0..avail.len())
            .filter(|&c| avail[c] > 0)
            .map(|c| self.classes[c].shortest_side)
            .fold(f64::INFINITY, f64::min);
        for poly in region {
            let n = poly.v.len();
            for i in 0..n {
                if poly.v[i].len < shortest - self.reach()
                    && poly.angle(i) < PI - self.tol.angle_eps
                    && poly.angle((i + 1) % n) < PI - self.tol.angle_eps
                {
                    return true;
                }
            }
        }
        let sums = self.subset_sums(avail);
        if sums.last() == Some(&f64::INFINITY) {
            return false;
        }
        region.iter().any(|poly| {
            let k = sums.partition_point(|&s| s < poly.area - area_eps);
            k == sums.len() || sums[k] > poly.area + area_eps
        })
    }

    /// How much longer than a region side a piece side may be and still fit along it: `eps`,
    /// and when pieces are posed by least squares ([`super::refine`]) another `eps`, by which
    /// the pose may slide the piece along the side. Why: SIDE CHECK and the short-side dead
    /// end only prune for ρ, which decides on the posed piece; at `eps` they refused the last
    /// piece of a noisy puzzle whose short side came out 3.4 px (1.1 eps) longer than its
    /// hole's, which ρ accepts once the pose has shared the excess between both ends.
    fn reach(&self) -> f64 {
        if self.refine {
            2.0 * self.tol.eps
        } else {
            self.tol.eps
        }
    }

    fn area_eps(&self) -> f64 {
        // A length error of eps along the perimeter (≈ 4√area) of the whole puzzle.
        let total: f64 = self.classes.iter().map(|c| c.area * c.count as f64).sum();
        self.tol.eps * total.sqrt() * 4.0
    }
}

#[path = "search_memo.rs"]
mod memo;

#[path = "search_repose.rs"]
mod repose;

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
