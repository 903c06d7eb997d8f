//! Tolerant plane geometry: points, signed areas, and the segment predicates behind
//! Lynning's weak/strong intersection test.
//!
//! Why tolerant f64 and not exact arithmetic: tangram coordinates live in Z[√2] and photo
//! pieces are noisy, so one representation must serve exact and measured inputs alike. Every
//! comparison uses one length `eps` derived from the puzzle's scale (the square root of the
//! target's area) times a relative tolerance, so a puzzle drawn at 1 unit or at 1000 units
//! behaves the same. Rounding errors of rotations are ~1e-15 of the scale, while the default
//! relative tolerance is 1e-7: a real vertex-on-side contact is never missed (no false
//! "no solution"), and two distinct features closer than `eps` do not occur in real puzzles.

use serde::{Deserialize, Serialize};

/// A point (or a vector) in the plane, y up.
pub type Pt = [f64; 2];

pub fn sub(a: Pt, b: Pt) -> Pt {
    [a[0] - b[0], a[1] - b[1]]
}

pub fn add(a: Pt, b: Pt) -> Pt {
    [a[0] + b[0], a[1] + b[1]]
}

pub fn scale(a: Pt, s: f64) -> Pt {
    [a[0] * s, a[1] * s]
}

pub fn cross(a: Pt, b: Pt) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

pub fn dot(a: Pt, b: Pt) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

pub fn norm(a: Pt) -> f64 {
    a[0].hypot(a[1])
}

pub fn dist(a: Pt, b: Pt) -> f64 {
    norm(sub(a, b))
}

/// +1 or −1: the sign of `poly`'s area (its orientation), which its sides' outward normals
/// depend on.
pub fn orientation(poly: &[Pt]) -> f64 {
    if signed_area(poly) > 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// The signed area (shoelace formula): positive for counter-clockwise, y up.
pub fn signed_area(poly: &[Pt]) -> f64 {
    let n = poly.len();
    let mut s = 0.0;
    for i in 0..n {
        s += cross(poly[i], poly[(i + 1) % n]);
    }
    s / 2.0
}

/// Distance from `p` to the segment `a`–`b`.
pub fn dist_to_segment(p: Pt, a: Pt, b: Pt) -> f64 {
    let d = sub(b, a);
    let l2 = dot(d, d);
    if l2 == 0.0 {
        return dist(p, a);
    }
    let t = (dot(sub(p, a), d) / l2).clamp(0.0, 1.0);
    dist(p, add(a, scale(d, t)))
}

/// Squared distance: the tolerant search's contact tests compare every vertex with every
/// vertex or side, and `hypot` there took most of a measured search's time.
pub fn dist2(a: Pt, b: Pt) -> f64 {
    let d = sub(a, b);
    dot(d, d)
}

/// The sides of a closed polygon as (start, end).
pub fn sides(poly: &[Pt]) -> impl Iterator<Item = (Pt, Pt)> + '_ {
    (0..poly.len()).map(move |k| (poly[k], poly[(k + 1) % poly.len()]))
}

/// Squared distance from `p` to the segment `a`–`b`.
pub fn segment_dist2(p: Pt, a: Pt, b: Pt) -> f64 {
    dist2(p, closest_on_segment(p, a, b))
}

/// The point of the segment `a`–`b` nearest to `p`.
pub fn closest_on_segment(p: Pt, a: Pt, b: Pt) -> Pt {
    let d = sub(b, a);
    let l2 = dot(d, d);
    let t = if l2 > 0.0 {
        (dot(sub(p, a), d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [a[0] + d[0] * t, a[1] + d[1] * t]
}

/// A small rigid motion, as the pose refinements solve for it: rotation by `a` about `o`,
/// then translation `t`.
#[derive(Clone, Copy, Debug)]
pub struct Motion {
    pub a: f64,
    pub o: Pt,
    pub t: Pt,
}

impl Motion {
    pub fn apply(&self, q: Pt) -> Pt {
        let (s, c) = self.a.sin_cos();
        let v = sub(q, self.o);
        [
            self.o[0] + c * v[0] - s * v[1] + self.t[0],
            self.o[1] + s * v[0] + c * v[1] + self.t[1],
        ]
    }
}

/// Distance from `p` to the infinite line through `a` and `b` (`None` when `a` = `b`).
pub fn dist_to_line(p: Pt, a: Pt, b: Pt) -> Option<f64> {
    let d = sub(b, a);
    let l = norm(d);
    (l > 0.0).then(|| cross(d, sub(p, a)).abs() / l)
}

/// Angle at `b` turning from `a`→`b` to `b`→`c`, measured as the interior angle of a
/// clockwise polygon (interior on the right), in (0, 2π).
pub fn interior_angle_cw(a: Pt, b: Pt, c: Pt) -> f64 {
    let u = sub(a, b);
    let v = sub(c, b);
    // Clockwise polygon, interior on the right: sweep counter-clockwise from b→a to b→c.
    let ang = cross(u, v).atan2(dot(u, v));
    if ang <= 0.0 {
        ang + std::f64::consts::TAU
    } else {
        ang
    }
}

/// The tolerances of one puzzle, all derived from its scale.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Tol {
    /// Lengths closer than this are equal; a point nearer than this to a line is on it.
    pub eps: f64,
    /// Angles (radians) closer than this are equal.
    pub angle_eps: f64,
    /// Grid for canonical hashing of regions and solutions (8√2 `eps`; irrational so that it
    /// does not divide nice coordinates).
    pub quantum: f64,
}

impl Tol {
    /// `relative` times `scale`, the puzzle's typical length.
    pub fn new(scale: f64, relative: f64) -> Tol {
        let eps = scale * relative;
        Tol {
            eps,
            angle_eps: (relative * 4.0).max(1e-9),
            quantum: eps * 8.0 * std::f64::consts::SQRT_2,
        }
    }

    /// A tolerance for dropping the flat vertices of a measured polygon ([`clean_simple`]):
    /// a vertex within `eps_px` of its neighbours' chord is no corner. The angle tolerance
    /// (1e-3 rad) and the quantum play no part there.
    ///
    /// [`clean_simple`]: super::records::clean_simple
    pub fn flat_vertices(eps_px: f64) -> Tol {
        Tol {
            eps: eps_px,
            angle_eps: 1e-3,
            quantum: eps_px,
        }
    }

    /// The angle tolerance at a corner whose shorter side is `len` long: `angle_eps` plus the
    /// angle that a position error of `eps` subtends over that side. Why: a measured corner's
    /// angle is only as good as the direction of its shorter side; for exact puzzles the
    /// extra term is of the order of `angle_eps` itself.
    pub fn angle_at(&self, len: f64) -> f64 {
        self.angle_eps + (self.eps / len.max(self.eps)).min(0.25)
    }

    pub fn same(&self, a: Pt, b: Pt) -> bool {
        (a[0] - b[0]).abs() <= self.eps && (a[1] - b[1]).abs() <= self.eps && dist(a, b) <= self.eps
    }

    /// `v` quantised to the hashing grid. The grid is shifted by an irrational fraction of a
    /// cell (1/π): puzzle coordinates are usually "nice" numbers (integers, decimals, lattice
    /// points), and with an unshifted grid they can sit exactly on a cell boundary, where
    /// rounding noise of 1e-14 would send two equal points to different cells.
    pub fn q(&self, v: f64) -> i64 {
        (v / self.quantum + std::f64::consts::FRAC_1_PI).round() as i64
    }
}

/// How two non-consecutive sides of a pseudo-polygon meet (Lynning, section 2).
#[derive(Debug, Clone, PartialEq)]
pub enum Meet {
    /// No common point, or parallel sides (which by definition never intersect).
    None,
    /// A common point interior to both sides: the placing is invalid.
    Strong,
    /// Common points that are an end point of at least one side: the points that lie inside
    /// a side (and must be inserted there before the pseudo-polygon is split).
    Weak(Touches),
}

/// Up to four `(side, point)` pairs: `point` lies inside side 0 (`a`) or side 1 (`b`).
/// A fixed array, because `meet` runs in the innermost loop of the search.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Touches {
    len: usize,
    items: [(u8, Pt); 4],
}

impl Touches {
    fn push(&mut self, side: u8, p: Pt) {
        self.items[self.len] = (side, p);
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[(u8, Pt)] {
        &self.items[..self.len]
    }
}

/// Whether no two sides of the closed polygon cross or touch (adjacent sides share only
/// their common vertex).
pub fn is_simple(poly: &[Pt]) -> bool {
    let n = poly.len();
    let orient =
        |a: Pt, b: Pt, c: Pt| (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    let crosses = |a0: Pt, a1: Pt, b0: Pt, b1: Pt| {
        let (d0, d1) = (orient(a0, a1, b0), orient(a0, a1, b1));
        let (d2, d3) = (orient(b0, b1, a0), orient(b0, b1, a1));
        d0 * d1 <= 0.0 && d2 * d3 <= 0.0
    };
    (0..n).all(|i| {
        (i + 2..n)
            .filter(|&k| !(i == 0 && k == n - 1))
            .all(|k| !crosses(poly[i], poly[(i + 1) % n], poly[k], poly[(k + 1) % n]))
    }) && (0..n).all(|i| {
        // Adjacent sides folding back onto each other.
        let (a, b, c) = (poly[(i + n - 1) % n], poly[i], poly[(i + 1) % n]);
        let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
        (u[0] * v[1] - u[1] * v[0]).abs() > 1e-9 * dist(a, b) * dist(b, c)
            || u[0] * v[0] + u[1] * v[1] > 0.0
    })
}

/// `poly` with every side shorter than `min_len` collapsed into its midpoint, shortest
/// first, while more than three vertices are left. Why: a side that short carries no
/// direction a measurement can tell, and where it folds back (a photo polygon's edits and
/// edge offset left a 1.3 px zigzag on 10-piece photo seed 32) the sides either side of it
/// touch within the solver's tolerance, which refuses the piece as not simple.
pub fn collapse_short_sides(poly: &[Pt], min_len: f64) -> Vec<Pt> {
    let mut v = poly.to_vec();
    while v.len() > 3 {
        let n = v.len();
        let Some((k, len)) = (0..n)
            .map(|k| (k, dist(v[k], v[(k + 1) % n])))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        else {
            break;
        };
        if len >= min_len {
            break;
        }
        let (a, b) = (v[k], v[(k + 1) % n]);
        v[k] = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        v.remove((k + 1) % n);
    }
    v
}

/// Classifies the sides `a0`→`a1` and `b0`→`b1`. Endpoint contacts are found by distance
/// (so that collinear overlaps also split at their ends, which the paper gets from the
/// neighbouring non-parallel side); a crossing counts as strong only when all four end
/// points are farther than `eps` from the other side's line.
pub fn meet(a0: Pt, a1: Pt, b0: Pt, b1: Pt, tol: &Tol) -> Meet {
    let e = tol.eps;
    // Bounding boxes first: most pairs are far apart.
    if a0[0].max(a1[0]) + e < b0[0].min(b1[0])
        || b0[0].max(b1[0]) + e < a0[0].min(a1[0])
        || a0[1].max(a1[1]) + e < b0[1].min(b1[1])
        || b0[1].max(b1[1]) + e < a0[1].min(a1[1])
    {
        return Meet::None;
    }
    let mut touches = Touches::default();
    let mut touched = false;
    for (p, on_a) in [(b0, true), (b1, true), (a0, false), (a1, false)] {
        let (s0, s1) = if on_a { (a0, a1) } else { (b0, b1) };
        if dist_to_segment(p, s0, s1) <= e {
            touched = true;
            if !tol.same(p, s0) && !tol.same(p, s1) {
                touches.push(if on_a { 0 } else { 1 }, p);
            }
        }
    }
    if touched {
        return Meet::Weak(touches);
    }
    let da = sub(a1, a0);
    let db = sub(b1, b0);
    let la = norm(da);
    let lb = norm(db);
    if la == 0.0 || lb == 0.0 || cross(da, db).abs() <= tol.angle_eps * la * lb {
        return Meet::None;
    }
    // Signed distances of each end point from the other side's line.
    let sb0 = cross(da, sub(b0, a0)) / la;
    let sb1 = cross(da, sub(b1, a0)) / la;
    let sa0 = cross(db, sub(a0, b0)) / lb;
    let sa1 = cross(db, sub(a1, b0)) / lb;
    if sb0 * sb1 < 0.0 && sa0 * sa1 < 0.0 {
        Meet::Strong
    } else {
        Meet::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sides_collapse_into_their_midpoints() {
        // A zigzag of 1.3 px on a long side (folding back) and a 1.5 px side at a corner.
        let poly = [
            [0.0, 0.0],
            [40.0, 0.0],
            [40.0, 30.0],
            [20.1, 30.0],
            [20.1, 28.7],
            [1.5, 30.0],
            [0.0, 30.0],
        ];
        let out = collapse_short_sides(&poly, 2.0);
        assert_eq!(out.len(), 5, "{out:?}");
        assert!(
            out.contains(&[20.1, 29.35]) && out.contains(&[0.75, 30.0]),
            "{out:?}"
        );
        // Nothing shorter: unchanged; a triangle keeps its three vertices.
        assert_eq!(collapse_short_sides(&out, 2.0), out);
        let tiny = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        assert_eq!(collapse_short_sides(&tiny, 2.0), tiny.to_vec());
    }

    fn tol() -> Tol {
        Tol::new(1.0, 1e-9)
    }

    #[test]
    fn a_bow_tie_or_a_fold_is_not_simple() {
        assert!(is_simple(&[[0., 0.], [4., 0.], [4., 3.], [0., 3.]]));
        assert!(!is_simple(&[[0., 0.], [4., 3.], [4., 0.], [0., 3.]]));
        // A side folding back onto the one before it.
        assert!(!is_simple(&[[0., 0.], [4., 0.], [2., 0.], [2., 3.]]));
    }

    #[test]
    fn crossing_sides_meet_strongly() {
        assert_eq!(
            meet([0., 0.], [2., 2.], [0., 2.], [2., 0.], &tol()),
            Meet::Strong
        );
    }

    #[test]
    fn a_vertex_on_a_side_is_a_weak_contact_to_insert() {
        let m = meet([0., 0.], [2., 0.], [1., 0.], [1., 1.], &tol());
        let Meet::Weak(t) = m else { panic!("{m:?}") };
        assert_eq!(t.as_slice(), &[(0, [1., 0.])]);
    }

    #[test]
    fn parallel_sides_never_intersect() {
        assert_eq!(
            meet([0., 0.], [2., 0.], [0., 1.], [2., 1.], &tol()),
            Meet::None
        );
    }

    #[test]
    fn angles_of_a_clockwise_square_are_right() {
        let a = interior_angle_cw([1., 0.], [0., 0.], [0., 1.]);
        assert!((a - std::f64::consts::FRAC_PI_2).abs() < 1e-12, "{a}");
        let r = interior_angle_cw([0., 1.], [0., 0.], [1., 0.]);
        assert!((r - 1.5 * std::f64::consts::PI).abs() < 1e-12, "{r}");
    }
}
