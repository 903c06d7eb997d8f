//! Lynning's vertex records (coordinates, length and angle of the issuing side) and the checks
//! every input polygon must pass before the search may trust it.

use super::geometry::{cross, dist, interior_angle_cw, meet, signed_area, sub, Meet, Pt, Tol};

/// One vertex record of section 3: where the vertex is, and the side that leaves it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    pub p: Pt,
    /// Length of the side from this vertex to the next.
    pub len: f64,
    /// Angle from the x axis to that side, radians in (-π, π].
    pub dir: f64,
}

/// A region polygon (clockwise) with its records and area, as the search keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionPolygon {
    pub v: Vec<Vertex>,
    /// Positive area (the polygon itself is clockwise).
    pub area: f64,
}

impl RegionPolygon {
    /// Builds the records of a clockwise polygon.
    pub fn new(pts: &[Pt]) -> RegionPolygon {
        let n = pts.len();
        let v = (0..n)
            .map(|i| {
                let d = sub(pts[(i + 1) % n], pts[i]);
                Vertex {
                    p: pts[i],
                    len: d[0].hypot(d[1]),
                    dir: d[1].atan2(d[0]),
                }
            })
            .collect();
        RegionPolygon {
            v,
            area: -signed_area(pts),
        }
    }

    pub fn points(&self) -> Vec<Pt> {
        self.v.iter().map(|v| v.p).collect()
    }

    /// Interior angle at vertex `i`, from the records' side angles.
    pub fn angle(&self, i: usize) -> f64 {
        let n = self.v.len();
        let prev = &self.v[(i + n - 1) % n];
        interior_angle_cw(prev.p, self.v[i].p, self.v[(i + 1) % n].p)
    }
}

/// Why an input polygon was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Defect {
    TooFewVertices(usize),
    NonFinite,
    ZeroArea,
    /// Two sides cross or touch (sides `i` and `k`, 0-based).
    SelfIntersecting(usize, usize),
}

impl std::fmt::Display for Defect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Defect::TooFewVertices(n) => write!(f, "has {n} distinct vertices, needs at least 3"),
            Defect::NonFinite => write!(f, "has a coordinate that is not a finite number"),
            Defect::ZeroArea => write!(f, "has zero area"),
            Defect::SelfIntersecting(i, k) => write!(
                f,
                "is not simple: side {i} and side {k} cross or touch (sides numbered from 0)"
            ),
        }
    }
}

/// Drops repeated and collinear vertices (a closing copy of the first vertex included) and
/// checks that what is left is a simple polygon of non-zero area. Orientation is returned
/// untouched: callers orient (input of either orientation is accepted and fixed silently).
pub fn clean_simple(pts: &[Pt], tol: &Tol) -> Result<Vec<Pt>, Defect> {
    if pts.iter().any(|p| !p[0].is_finite() || !p[1].is_finite()) {
        return Err(Defect::NonFinite);
    }
    let mut v: Vec<Pt> = Vec::with_capacity(pts.len());
    for &p in pts {
        if v.last().is_none_or(|&q| !tol.same(p, q)) {
            v.push(p);
        }
    }
    while v.len() > 1 && tol.same(v[0], v[v.len() - 1]) {
        v.pop();
    }
    // Straight-through vertices are not corners (a side split in two is one side). The
    // straightest goes first: judged against neighbours that are themselves straight-through
    // points (a T-junction next to a flat corner), a real corner can look straight.
    while v.len() >= 3 {
        let n = v.len();
        let straightest = (0..n)
            .filter_map(|i| {
                let (a, b, c) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
                let ac = dist(a, c);
                let h = cross(sub(b, a), sub(c, b)).abs();
                (super::geometry::dot(sub(b, a), sub(c, b)) > 0.0 && h <= tol.eps * ac)
                    .then(|| (i, h / ac.max(f64::MIN_POSITIVE)))
            })
            .min_by(|x, y| x.1.total_cmp(&y.1));
        match straightest {
            Some((i, _)) => {
                v.remove(i);
            }
            None => break,
        }
    }
    if v.len() < 3 {
        return Err(Defect::TooFewVertices(v.len()));
    }
    if signed_area(&v).abs() <= tol.eps * tol.eps {
        return Err(Defect::ZeroArea);
    }
    let n = v.len();
    for i in 0..n {
        for k in i + 1..n {
            if k == i + 1 || (i == 0 && k == n - 1) {
                continue;
            }
            if meet(v[i], v[(i + 1) % n], v[k], v[(k + 1) % n], tol) != Meet::None {
                return Err(Defect::SelfIntersecting(i, k));
            }
        }
    }
    Ok(v)
}

/// `pts` turned to the wanted orientation (counter-clockwise for pieces, clockwise for
/// regions), reversing the order when needed.
pub fn oriented(mut pts: Vec<Pt>, ccw: bool) -> Vec<Pt> {
    if (signed_area(&pts) > 0.0) != ccw {
        pts.reverse();
    }
    pts
}

pub use crate::plane::contains;

#[cfg(test)]
mod tests {
    use super::*;

    fn tol() -> Tol {
        Tol::new(1.0, 1e-9)
    }

    #[test]
    fn a_bow_tie_is_refused() {
        let e = clean_simple(&[[0., 0.], [2., 2.], [2., 0.], [0., 1.]], &tol()).unwrap_err();
        assert!(matches!(e, Defect::SelfIntersecting(_, _)), "{e:?}");
    }

    #[test]
    fn closing_copies_and_straight_vertices_are_dropped() {
        let v = clean_simple(
            &[[0., 0.], [1., 0.], [2., 0.], [2., 2.], [0., 2.], [0., 0.]],
            &tol(),
        )
        .unwrap();
        assert_eq!(v.len(), 4);
    }

    #[test]
    fn records_carry_lengths_angles_and_area() {
        let sq = oriented(vec![[0., 0.], [2., 0.], [2., 2.], [0., 2.]], false);
        let r = RegionPolygon::new(&sq);
        assert!((r.area - 4.0).abs() < 1e-12);
        assert!(r.v.iter().all(|v| (v.len - 2.0).abs() < 1e-12));
        for i in 0..4 {
            assert!((r.angle(i) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        }
    }
}
