//! The depth-first search of sections 5 and 6: MINIMAL AREA polygon, BEST VERTEX, larger
//! pieces first, ANGLE CHECK before PLACE, and the dead-end tests (polygon smaller than any
//! piece, generalised to "area not a sum of available pieces"; a short side between two
//! convex corners; a memo of regions proven impossible with the same multiset of pieces).

use super::geometry::{Pt, Tol};
use super::place::rho;
use super::polygon::RegionPolygon;
use super::symmetry::Anchor;
use std::collections::{HashMap, HashSet};
use std::f64::consts::PI;
use std::hash::{DefaultHasher, Hash, Hasher};

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
    pub memo_limit: usize,
    pub nodes: u64,
    pub memo_hits: u64,
    visitor: V,
    path: Vec<Step>,
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
            memo_limit: 4_000_000,
            nodes: 0,
            memo_hits: 0,
            visitor,
            path: Vec::new(),
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
        if self.nodes > self.max_nodes {
            self.stopped = true;
            return 0;
        }
        if region.is_empty() {
            if avail.iter().any(|&c| c > 0) && !self.allow_leftover {
                return 0;
            }
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
        let Some(j) = self.best_vertex(poly) else {
            return 0;
        };
        let vertex_angle = poly.angle(j);
        let pts = poly.points();
        let mut found = 0;
        for c in 0..self.classes.len() {
            if avail[c] == 0 {
                continue;
            }
            let class = &self.classes[c];
            for (ai, anchor) in class.anchors.iter().enumerate() {
                // ANGLE CHECK before PLACE.
                if anchor.angle > vertex_angle + self.tol.angle_eps {
                    continue;
                }
                let Ok((polys, placed)) =
                    rho(&pts, poly.area, j, &anchor.local, class.area, &self.tol)
                else {
                    continue;
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
                avail[c] -= 1;
                self.path.push(Step {
                    class: c,
                    anchor: ai,
                    placed,
                });
                found += self.solve(next, avail);
                self.path.pop();
                avail[c] += 1;
                if self.stopped {
                    return found;
                }
            }
        }
        if found == 0 && self.memo.len() < self.memo_limit {
            self.memo.insert(key);
        }
        found
    }

    /// BEST VERTEX: among corners with an interior angle below π, the one with the smallest
    /// angle, then the shortest adjacent sides (fewest pieces fit there).
    fn best_vertex(&self, poly: &RegionPolygon) -> Option<usize> {
        let n = poly.v.len();
        let mut best: Option<(f64, f64, usize)> = None;
        for i in 0..n {
            let a = poly.angle(i);
            if a >= PI - self.tol.angle_eps {
                continue;
            }
            let sides = poly.v[i].len + poly.v[(i + n - 1) % n].len;
            let better = match best {
                None => true,
                Some((ba, bs, _)) => {
                    a < ba - self.tol.angle_eps || (a <= ba + self.tol.angle_eps && sides < bs)
                }
            };
            if better {
                best = Some((a, sides, i));
            }
        }
        best.map(|b| b.2)
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
                if poly.v[i].len < shortest - self.tol.eps
                    && poly.angle(i) < PI - self.tol.angle_eps
                    && poly.angle((i + 1) % n) < PI - self.tol.angle_eps
                {
                    return true;
                }
            }
        }
        let sums = self.subset_sums(avail);
        region.iter().any(|poly| {
            let k = sums.partition_point(|&s| s < poly.area - area_eps);
            k == sums.len() || sums[k] > poly.area + area_eps
        })
    }

    fn area_eps(&self) -> f64 {
        let total: f64 = self.classes.iter().map(|c| c.area * c.count as f64).sum();
        self.tol.eps * total.sqrt() * 64.0
    }

    /// The sorted areas that some sub-multiset of the available pieces covers: a polygon
    /// of any other area cannot be filled (dead-end test 1 asks only for "at least the
    /// smallest piece").
    fn subset_sums(&mut self, avail: &[u32]) -> &Vec<f64> {
        if !self.sums.contains_key(avail) {
            let eps = self.area_eps();
            let mut sums: Vec<f64> = vec![0.0];
            for (c, &k) in avail.iter().enumerate() {
                for _ in 0..k {
                    let a = self.classes[c].area;
                    let more: Vec<f64> = sums.iter().map(|s| s + a).collect();
                    sums.extend(more);
                    sums.sort_by(f64::total_cmp);
                    sums.dedup_by(|x, y| (*x - *y).abs() <= eps);
                }
            }
            sums.remove(0);
            self.sums.insert(avail.to_vec(), sums);
        }
        &self.sums[avail]
    }

    /// A 128-bit hash of the region (each polygon up to translation, the polygons as a
    /// multiset) and of the multiset of available pieces. Only failures are stored, so a
    /// near-miss of the quantisation costs time, never a solution.
    fn memo_key(&self, region: &[RegionPolygon], avail: &[u32]) -> u128 {
        let mut polys: Vec<Vec<i64>> = region
            .iter()
            .map(|poly| {
                let q: Vec<(i64, i64)> = poly
                    .v
                    .iter()
                    .map(|v| (self.tol.q(v.p[0]), self.tol.q(v.p[1])))
                    .collect();
                let start = (0..q.len()).min_by_key(|&i| q[i]).unwrap_or(0);
                let o = q[start];
                (0..q.len())
                    .flat_map(|k| {
                        let p = q[(start + k) % q.len()];
                        [p.0 - o.0, p.1 - o.1]
                    })
                    .collect()
            })
            .collect();
        polys.sort_unstable();
        let mut h1 = DefaultHasher::new();
        let mut h2 = DefaultHasher::new();
        0xA5A5_u16.hash(&mut h2);
        for h in [&mut h1, &mut h2] {
            polys.hash(h);
            avail.hash(h);
        }
        ((h1.finish() as u128) << 64) | h2.finish() as u128
    }
}
