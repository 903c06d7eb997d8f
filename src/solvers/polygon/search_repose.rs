//! The search's side of re-posing ([`crate::solvers::polygon::repose`]): when a measured
//! piece is refused by ρ but nearly fits, it and the placed pieces it touches are posed
//! jointly, and the region is rebuilt by placing the path again from the first piece moved.

use super::{Search, Step, Visitor};
use crate::solvers::polygon::geometry::{dist, segment_dist2, Pt, Tol};
use crate::solvers::polygon::place::rho_placed;
use crate::solvers::polygon::records::RegionPolygon;
use crate::solvers::polygon::repose::repose;

/// A placing made possible by re-posing: the region it leaves, where the new piece lies, and
/// the placed pieces of the path that moved (path index, new polygon).
pub(in crate::solvers::polygon) struct Reposed {
    pub next: Vec<RegionPolygon>,
    pub placed: Vec<Pt>,
    pub moved: Vec<(usize, Vec<Pt>)>,
}

/// Whether two outlines come within `reach` of each other (a vertex of one near the other).
fn touch(a: &[Pt], b: &[Pt], reach: f64) -> bool {
    let (ba, bb) = (bounds(a), bounds(b));
    if ba[0] > bb[2] + reach
        || bb[0] > ba[2] + reach
        || ba[1] > bb[3] + reach
        || bb[1] > ba[3] + reach
    {
        return false;
    }
    let r2 = reach * reach;
    let near = |p: Pt, poly: &[Pt]| {
        let n = poly.len();
        (0..n).any(|i| segment_dist2(p, poly[i], poly[(i + 1) % n]) <= r2)
    };
    a.iter().any(|&p| near(p, b)) || b.iter().any(|&p| near(p, a))
}

/// The bounding box `[min x, min y, max x, max y]`.
fn bounds(p: &[Pt]) -> [f64; 4] {
    p.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, q| {
            [
                b[0].min(q[0]),
                b[1].min(q[1]),
                b[2].max(q[0]),
                b[3].max(q[1]),
            ]
        },
    )
}

impl<V: Visitor> Search<'_, V> {
    /// Searches below the placing `step` (leaving `next`), with the placed pieces `moved`
    /// (path index, polygon) in their re-posed places meanwhile; returns the solutions found.
    pub(super) fn descend(
        &mut self,
        next: Vec<RegionPolygon>,
        avail: &mut Vec<u32>,
        step: Step,
        moved: Vec<(usize, Vec<Pt>)>,
    ) -> u64 {
        let mut kept = Vec::with_capacity(moved.len());
        for (k, p) in moved {
            kept.push((k, std::mem::replace(&mut self.path[k].placed, p)));
        }
        let c = step.class;
        avail[c] -= 1;
        self.path.push(step);
        let found = self.solve(next, avail);
        self.path.pop();
        avail[c] += 1;
        for (k, p) in kept {
            self.path[k].placed = p;
        }
        found
    }

    /// The placing of `placed` (class `class`, anchored at vertex `j` of `poly`, refused by
    /// ρ) once it and the placed pieces it touches are posed jointly, if the region can then
    /// be rebuilt with every placing legal. Only tried for pieces that ρ accepts at twice
    /// the tolerance (a misfit of a few pixels, not a piece in the wrong place).
    pub(in crate::solvers::polygon) fn try_repose(
        &self,
        poly: &RegionPolygon,
        j: usize,
        placed: &[Pt],
        class: usize,
    ) -> Option<Reposed> {
        let area = self.classes[class].area;
        let loose = Tol {
            eps: 2.0 * self.tol.eps,
            ..self.tol
        };
        rho_placed(&poly.points(), poly.area, j, placed, area, &loose).ok()?;
        let reach = 2.0 * self.tol.eps;
        let neighbours: Vec<usize> = (0..self.path.len())
            .filter(|&k| touch(placed, &self.path[k].placed, reach))
            .collect();
        let first = *neighbours.first()?;
        let target = self.before.first()?;
        let target_pts: Vec<Vec<Pt>> = target.iter().map(RegionPolygon::points).collect();
        let fixed: Vec<&[Pt]> = (0..self.path.len())
            .filter(|k| !neighbours.contains(k))
            .map(|k| self.path[k].placed.as_slice())
            .chain(target_pts.iter().map(Vec::as_slice))
            .collect();
        let movable: Vec<Vec<Pt>> = std::iter::once(placed.to_vec())
            .chain(neighbours.iter().map(|&k| self.path[k].placed.clone()))
            .collect();
        let posed = repose(&movable, &fixed, reach, &self.tol)?;
        // A re-pose moves pieces by a fraction of the tolerance, not into another place.
        for (old, new) in movable.iter().zip(&posed) {
            if old.iter().zip(new).any(|(&a, &b)| dist(a, b) > reach) {
                return None;
            }
        }
        let moved: Vec<(usize, Vec<Pt>)> = neighbours
            .iter()
            .copied()
            .zip(posed[1..].to_vec())
            .collect();
        let mut region = self.before.get(first)?.clone();
        for k in first..self.path.len() {
            let step = &self.path[k];
            let poly_k = moved
                .iter()
                .find(|m| m.0 == k)
                .map_or(&step.placed, |m| &m.1);
            region = self.put(region, step.at, poly_k, self.classes[step.class].area)?;
        }
        let at = poly.v[j].p;
        let next = self.put(region, at, &posed[0], area)?;
        Some(Reposed {
            next,
            placed: posed[0].clone(),
            moved,
        })
    }

    /// `region` with `placed` put in at the region vertex nearest to `at` (where the piece
    /// was anchored), by σ and LEGAL; `None` when that is no longer legal.
    fn put(
        &self,
        mut region: Vec<RegionPolygon>,
        at: Pt,
        placed: &[Pt],
        piece_area: f64,
    ) -> Option<Vec<RegionPolygon>> {
        let (pi, j, d) = region
            .iter()
            .enumerate()
            .flat_map(|(pi, r)| {
                r.v.iter()
                    .enumerate()
                    .map(move |(j, v)| (pi, j, dist(v.p, at)))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2))?;
        if d > 2.0 * self.tol.eps {
            return None;
        }
        let r = region.swap_remove(pi);
        let polys = rho_placed(&r.points(), r.area, j, placed, piece_area, &self.tol).ok()?;
        region.extend(polys.iter().map(|p| RegionPolygon::new(p)));
        Some(region)
    }
}

#[cfg(test)]
impl<V: Visitor> Search<'_, V> {
    /// Diagnosis (`replay_tests`): records a placing made outside [`Search::solve`] as the
    /// search would, with the region before it and the path's pieces it re-posed, so that
    /// [`Search::try_repose`] sees the same path.
    pub(in crate::solvers::polygon) fn record(
        &mut self,
        before: Vec<RegionPolygon>,
        step: Step,
        moved: Vec<(usize, Vec<Pt>)>,
    ) {
        for (k, p) in moved {
            self.path[k].placed = p;
        }
        self.before.push(before);
        self.path.push(step);
    }
}
