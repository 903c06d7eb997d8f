//! Plane geometry the generator needs: points, polygons, rigid maps, curve sampling.
//!
//! Coordinates are pixels with the centre of pixel (i, j) at (i, j), x right, y down: the
//! convention of the tracer's chain codes, so truth outlines and traced outlines agree.

/// A point or a vector in the plane.
pub type Pt = [f64; 2];

pub fn add(a: Pt, b: Pt) -> Pt {
    [a[0] + b[0], a[1] + b[1]]
}

pub fn sub(a: Pt, b: Pt) -> Pt {
    [a[0] - b[0], a[1] - b[1]]
}

pub fn scale(a: Pt, k: f64) -> Pt {
    [a[0] * k, a[1] * k]
}

pub fn dot(a: Pt, b: Pt) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

pub fn cross(a: Pt, b: Pt) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

pub fn norm(a: Pt) -> f64 {
    a[0].hypot(a[1])
}

pub fn dist(a: Pt, b: Pt) -> f64 {
    norm(sub(a, b))
}

pub fn lerp(a: Pt, b: Pt, t: f64) -> Pt {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// Shoelace signed area (positive when the vertices run clockwise on screen, y down).
pub fn signed_area(poly: &[Pt]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| cross(poly[i], poly[(i + 1) % n]))
        .sum::<f64>()
        / 2.0
}

/// Area centroid of a simple polygon.
pub fn centroid(poly: &[Pt]) -> Pt {
    let n = poly.len();
    let (mut cx, mut cy, mut a) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let c = cross(p, q);
        a += c;
        cx += (p[0] + q[0]) * c;
        cy += (p[1] + q[1]) * c;
    }
    if a.abs() < 1e-12 {
        let s = poly.iter().fold([0.0, 0.0], |s, p| add(s, *p));
        return scale(s, 1.0 / n.max(1) as f64);
    }
    [cx / (3.0 * a), cy / (3.0 * a)]
}

/// Axis-aligned bounds `[min_x, min_y, max_x, max_y]`.
pub fn bounds(points: &[Pt]) -> [f64; 4] {
    points
        .iter()
        .fold([f64::MAX, f64::MAX, f64::MIN, f64::MIN], |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        })
}

/// Douglas–Peucker simplification of an open polyline (ends kept): the rendered outline and
/// the truth outline are the same simplified polygon, so `tol` only bounds the deviation from
/// the ideal curve, never a disagreement between truth and image.
pub fn simplify(points: &[Pt], tol: f64) -> Vec<Pt> {
    if points.len() < 3 {
        return points.to_vec();
    }
    let mut keep = vec![false; points.len()];
    keep[0] = true;
    keep[points.len() - 1] = true;
    let mut stack = vec![(0usize, points.len() - 1)];
    while let Some((i, j)) = stack.pop() {
        let (a, b) = (points[i], points[j]);
        let ab = sub(b, a);
        let len = norm(ab).max(1e-12);
        let mut best = (0.0, 0usize);
        for (k, p) in points.iter().enumerate().take(j).skip(i + 1) {
            let d = if norm(ab) < 1e-12 {
                dist(*p, a)
            } else {
                (cross(ab, sub(*p, a)) / len).abs()
            };
            if d > best.0 {
                best = (d, k);
            }
        }
        if best.0 > tol {
            keep[best.1] = true;
            stack.push((i, best.1));
            stack.push((best.1, j));
        }
    }
    points
        .iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(*p))
        .collect()
}

/// Centripetal Catmull–Rom spline through `pts` (ends extended along the end chords), sampled
/// so consecutive samples are at most `step` apart. Centripetal parametrisation never forms
/// cusps or self-loops between control points, which keeps knob outlines simple.
pub fn catmull_rom(pts: &[Pt], step: f64) -> Vec<Pt> {
    let n = pts.len();
    let mut out = vec![pts[0]];
    for i in 0..n - 1 {
        let p1 = pts[i];
        let p2 = pts[i + 1];
        let p0 = if i == 0 {
            sub(scale(p1, 2.0), p2)
        } else {
            pts[i - 1]
        };
        let p3 = if i + 2 < n {
            pts[i + 2]
        } else {
            sub(scale(p2, 2.0), p1)
        };
        let t0 = 0.0;
        let t1 = t0 + dist(p0, p1).sqrt().max(1e-9);
        let t2 = t1 + dist(p1, p2).sqrt().max(1e-9);
        let t3 = t2 + dist(p2, p3).sqrt().max(1e-9);
        let steps = ((dist(p1, p2) * 1.3 / step).ceil() as usize).max(1);
        for s in 1..=steps {
            let t = t1 + (t2 - t1) * s as f64 / steps as f64;
            let a1 = add(
                scale(p0, (t1 - t) / (t1 - t0)),
                scale(p1, (t - t0) / (t1 - t0)),
            );
            let a2 = add(
                scale(p1, (t2 - t) / (t2 - t1)),
                scale(p2, (t - t1) / (t2 - t1)),
            );
            let a3 = add(
                scale(p2, (t3 - t) / (t3 - t2)),
                scale(p3, (t - t2) / (t3 - t2)),
            );
            let b1 = add(
                scale(a1, (t2 - t) / (t2 - t0)),
                scale(a2, (t - t0) / (t2 - t0)),
            );
            let b2 = add(
                scale(a2, (t3 - t) / (t3 - t1)),
                scale(a3, (t - t1) / (t3 - t1)),
            );
            out.push(add(
                scale(b1, (t2 - t) / (t2 - t1)),
                scale(b2, (t - t1) / (t2 - t1)),
            ));
        }
    }
    out
}

/// An affine map `[[a, b, tx], [c, d, ty]]`: `x' = a x + b y + tx`, `y' = c x + d y + ty`.
/// Rigid (rotation + translation) or, for flipped polygonal pieces, a reflection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine(pub [[f64; 3]; 2]);

impl Affine {
    pub const IDENTITY: Affine = Affine([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);

    /// Rotation by `angle` (radians, clockwise on screen since y points down) after an
    /// optional mirror in x, taking `from` to `to`.
    pub fn rigid(angle: f64, flip: bool, from: Pt, to: Pt) -> Affine {
        let (s, c) = angle.sin_cos();
        let f = if flip { -1.0 } else { 1.0 };
        let (a, b, cc, d) = (c * f, -s, s * f, c);
        let tx = to[0] - (a * from[0] + b * from[1]);
        let ty = to[1] - (cc * from[0] + d * from[1]);
        Affine([[a, b, tx], [cc, d, ty]])
    }

    pub fn apply(&self, p: Pt) -> Pt {
        let m = &self.0;
        [
            m[0][0] * p[0] + m[0][1] * p[1] + m[0][2],
            m[1][0] * p[0] + m[1][1] * p[1] + m[1][2],
        ]
    }

    pub fn det(&self) -> f64 {
        self.0[0][0] * self.0[1][1] - self.0[0][1] * self.0[1][0]
    }

    pub fn inverse(&self) -> Affine {
        let m = &self.0;
        let det = self.det();
        let (a, b, c, d) = (m[1][1] / det, -m[0][1] / det, -m[1][0] / det, m[0][0] / det);
        Affine([
            [a, b, -(a * m[0][2] + b * m[1][2])],
            [c, d, -(c * m[0][2] + d * m[1][2])],
        ])
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Affine) -> Affine {
        let (m, n) = (&self.0, &other.0);
        let mut r = [[0.0; 3]; 2];
        for (i, row) in r.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = m[i][0] * n[0][j] + m[i][1] * n[1][j] + if j == 2 { m[i][2] } else { 0.0 };
            }
        }
        Affine(r)
    }
}

/// Rounds to 1/1000 px for compact, stable JSON.
pub fn round3(p: Pt) -> Pt {
    [
        (p[0] * 1000.0).round() / 1000.0,
        (p[1] * 1000.0).round() / 1000.0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_inverse_and_compose() {
        let t = Affine::rigid(0.7, true, [3.0, 4.0], [10.0, -2.0]);
        let p = [5.5, -1.25];
        let q = t.inverse().apply(t.apply(p));
        assert!(dist(p, q) < 1e-9);
        assert!((t.det() + 1.0).abs() < 1e-12);
        let u = Affine::rigid(-1.1, false, [0.0, 0.0], [1.0, 1.0]);
        let r = u.compose(&t).apply(p);
        assert!(dist(r, u.apply(t.apply(p))) < 1e-9);
        assert!(dist(t.apply([3.0, 4.0]), [10.0, -2.0]) < 1e-9);
    }

    #[test]
    fn area_and_centroid_of_a_square() {
        let sq = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        assert_eq!(signed_area(&sq), 4.0);
        assert_eq!(centroid(&sq), [1.0, 1.0]);
    }

    #[test]
    fn simplify_keeps_corners_and_drops_collinear_points() {
        let pts: Vec<Pt> = (0..=10)
            .map(|i| [i as f64, 0.0])
            .chain((1..=10).map(|i| [10.0, i as f64]))
            .collect();
        assert_eq!(
            simplify(&pts, 0.01),
            vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]
        );
    }

    #[test]
    fn catmull_rom_passes_through_its_control_points() {
        let ctrl = [[0.0, 0.0], [5.0, 3.0], [9.0, -1.0], [12.0, 0.0]];
        let s = catmull_rom(&ctrl, 0.5);
        for c in ctrl {
            assert!(s.iter().any(|p| dist(*p, c) < 1e-9));
        }
        assert!(s.windows(2).all(|w| dist(w[0], w[1]) < 1.0));
    }
}
