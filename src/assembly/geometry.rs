//! Plane geometry for matching outlines: arc-length resampling, least-squares rigid fits,
//! point-in-polygon and distances. Everything is in source-image pixels (y down).

use nalgebra::{Isometry2, Point2, Vector2};

pub type P2 = Point2<f64>;
pub type Pose = Isometry2<f64>;

/// Resamples an open polyline to `n` points evenly spaced by arc length, first and last
/// points kept. Mating chainlets are compared point by point, so both must be sampled alike.
pub fn resample(points: &[P2], n: usize) -> Vec<P2> {
    if points.len() < 2 || n < 2 {
        return vec![points.first().copied().unwrap_or_else(P2::origin); n.max(1)];
    }
    let mut cumulative = Vec::with_capacity(points.len());
    let mut total = 0.0;
    cumulative.push(0.0);
    for w in points.windows(2) {
        total += (w[1] - w[0]).norm();
        cumulative.push(total);
    }
    let mut out = Vec::with_capacity(n);
    let mut seg = 0;
    for i in 0..n {
        let s = total * i as f64 / (n - 1) as f64;
        while seg + 2 < cumulative.len() && cumulative[seg + 1] < s {
            seg += 1;
        }
        let span = cumulative[seg + 1] - cumulative[seg];
        let t = if span > 0.0 {
            ((s - cumulative[seg]) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push(points[seg] + (points[seg + 1] - points[seg]) * t);
    }
    out
}

/// The rigid motion (rotation + translation, no scale, no reflection) that best maps `from[i]`
/// onto `to[i]` in the least-squares sense (2-D Kabsch), and the sum of squared residuals.
pub fn fit_rigid(from: &[P2], to: &[P2]) -> (Pose, f64) {
    fit_rigid_weighted(from, to, None)
}

/// [`fit_rigid`] with a weight per correspondence.
pub fn fit_rigid_weighted(from: &[P2], to: &[P2], weights: Option<&[f64]>) -> (Pose, f64) {
    let n = from.len().min(to.len());
    let w = |i: usize| weights.map_or(1.0, |w| w[i]);
    let total_w: f64 = (0..n).map(w).sum::<f64>().max(f64::MIN_POSITIVE);
    let mut cf = Vector2::zeros();
    let mut ct = Vector2::zeros();
    for i in 0..n {
        cf += from[i].coords * w(i);
        ct += to[i].coords * w(i);
    }
    cf /= total_w;
    ct /= total_w;
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for i in 0..n {
        let p = from[i].coords - cf;
        let q = to[i].coords - ct;
        sxx += w(i) * (p.x * q.x + p.y * q.y);
        sxy += w(i) * (p.x * q.y - p.y * q.x);
    }
    let angle = sxy.atan2(sxx);
    let rot = nalgebra::Rotation2::new(angle);
    let t = ct - rot * cf;
    let pose = Isometry2::new(t, angle);
    let residual = (0..n)
        .map(|i| (pose * from[i] - to[i]).norm_squared())
        .sum();
    (pose, residual)
}

/// Distance from `p` to the closed polygon's boundary.
pub fn distance_to_boundary(poly: &[P2], p: &P2) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| distance_to_segment(p, &poly[i], &poly[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

pub fn distance_to_segment(p: &P2, a: &P2, b: &P2) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 == 0.0 {
        return (p - a).norm();
    }
    let t = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// The axis-aligned bounds `[x0, y0, x1, y1]` of `points`; for none, `[MAX, MAX, MIN, MIN]`
/// (every test of a point against them fails).
pub fn bounds<'a>(points: impl IntoIterator<Item = &'a P2>) -> [f64; 4] {
    points.into_iter().fold(
        [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
        |[x0, y0, x1, y1], q| [x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y)],
    )
}

/// The convex hull of `points` (Andrew's monotone chain), counter-clockwise in x-right y-up
/// axes, so its [`signed_area`] is positive; collinear points are dropped. Fewer than three
/// distinct points give them back as they are.
pub fn convex_hull(points: &[P2]) -> Vec<P2> {
    let mut sorted: Vec<P2> = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let cross = |o: &P2, a: &P2, b: &P2| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    let chain = |points: &mut dyn Iterator<Item = &P2>| {
        let mut chain: Vec<P2> = Vec::new();
        for p in points {
            while chain.len() >= 2
                && cross(&chain[chain.len() - 2], &chain[chain.len() - 1], p) <= 0.0
            {
                chain.pop();
            }
            chain.push(*p);
        }
        chain.pop();
        chain
    };
    let mut hull = chain(&mut sorted.iter());
    hull.extend(chain(&mut sorted.iter().rev()));
    hull
}

/// The signed distance from the line through `a` and `b` to `p`, positive on its left in
/// x-right y-up axes (inside a polygon turning counter-clockwise there); infinite for `a` on
/// `b`, which bounds nothing.
pub fn side_depth(a: &P2, b: &P2, p: &P2) -> f64 {
    let along = b - a;
    side_depth_along(a, &along, along.norm(), p)
}

/// [`side_depth`] for the side from `a` along `along` (of norm `length`), for callers that
/// keep a side's direction and length to ask it of many points.
pub fn side_depth_along(a: &P2, along: &Vector2<f64>, length: f64, p: &P2) -> f64 {
    if length == 0.0 {
        return f64::INFINITY;
    }
    (along.x * (p.y - a.y) - along.y * (p.x - a.x)) / length
}

/// How far `p` lies inside the convex polygon `hull` (counter-clockwise in x-right y-up axes,
/// as [`convex_hull`] gives it; negative: outside): the least [`side_depth`] over its sides,
/// which for a convex polygon is the distance to its boundary. Minus infinity for fewer than
/// three points, which have no inside.
pub fn convex_depth(hull: &[P2], p: &P2) -> f64 {
    let n = hull.len();
    if n < 3 {
        return f64::NEG_INFINITY;
    }
    (0..n)
        .map(|k| side_depth(&hull[k], &hull[(k + 1) % n], p))
        .fold(f64::INFINITY, f64::min)
}

/// A rectangle at any angle: its centre, the unit direction of one side, and its half
/// extents along that side and across it.
#[derive(Clone, Copy, Debug)]
pub struct Rectangle {
    pub centre: P2,
    pub along: Vector2<f64>,
    pub half: (f64, f64),
}

impl Rectangle {
    /// Its four corners, in order round it.
    pub fn corners(&self) -> [P2; 4] {
        let across = Vector2::new(-self.along.y, self.along.x);
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
            .map(|(a, b)| self.centre + self.along * (a * self.half.0) + across * (b * self.half.1))
    }

    /// How far `p` lies outside the rectangle along either axis (0 inside).
    pub fn beyond(&self, p: &P2) -> f64 {
        let d = p - self.centre;
        let across = Vector2::new(-self.along.y, self.along.x);
        (d.dot(&self.along).abs() - self.half.0)
            .max(d.dot(&across).abs() - self.half.1)
            .max(0.0)
    }
}

/// The rectangle of least area holding the convex polygon `hull`: one of its sides lies along
/// a side of the hull (Freeman & Shapira 1975), so each side's direction is tried. `None` for
/// fewer than three points.
pub fn min_area_rectangle(hull: &[P2]) -> Option<Rectangle> {
    let n = hull.len();
    if n < 3 {
        return None;
    }
    let mut best: Option<(f64, Rectangle)> = None;
    for k in 0..n {
        let edge = hull[(k + 1) % n] - hull[k];
        let Some(along) = edge.try_normalize(1e-12) else {
            continue;
        };
        let across = Vector2::new(-along.y, along.x);
        let (mut u0, mut u1, mut v0, mut v1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for q in hull {
            let (u, v) = (q.coords.dot(&along), q.coords.dot(&across));
            (u0, u1, v0, v1) = (u0.min(u), u1.max(u), v0.min(v), v1.max(v));
        }
        let area = (u1 - u0) * (v1 - v0);
        if best.as_ref().is_none_or(|b| area < b.0) {
            let centre = P2::from(along * (u0 + u1) / 2.0 + across * (v0 + v1) / 2.0);
            let half = ((u1 - u0) / 2.0, (v1 - v0) / 2.0);
            best = Some((
                area,
                Rectangle {
                    centre,
                    along,
                    half,
                },
            ));
        }
    }
    best.map(|b| b.1)
}

/// Signed area (shoelace); positive for a polygon clockwise on screen (y down).
pub fn signed_area(poly: &[P2]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum::<f64>()
        / 2.0
}

/// Smooths a closed outline with a circular Gaussian of `sigma` samples, keeping one point per
/// input point so chain indices still address it. Removes the staircase of the pixel grid.
pub fn smooth_closed(points: &[P2], sigma: f64) -> Vec<P2> {
    let n = points.len();
    if n < 3 || sigma <= 0.0 {
        return points.to_vec();
    }
    let radius = (3.0 * sigma).ceil() as isize;
    let kernel: Vec<f64> = (-radius..=radius)
        .map(|k| (-(k * k) as f64 / (2.0 * sigma * sigma)).exp())
        .collect();
    let norm: f64 = kernel.iter().sum();
    (0..n as isize)
        .map(|i| {
            let mut acc = Vector2::zeros();
            for (k, w) in (-radius..=radius).zip(&kernel) {
                acc += points[(i + k).rem_euclid(n as isize) as usize].coords * *w;
            }
            P2::from(acc / norm)
        })
        .collect()
}

/// Moves every point `by` pixels along the inward normal of the outline it belongs to (`sign`:
/// that outline's orientation, the sign of its [`signed_area`]; left normals point inward on a
/// positively oriented outline). `closed` wraps the neighbours used for the tangent.
pub fn inset_points(points: &[P2], closed: bool, sign: f64, by: f64) -> Vec<P2> {
    let n = points.len();
    if by == 0.0 || n < 2 {
        return points.to_vec();
    }
    (0..n)
        .map(|i| {
            let (prev, next) = if closed {
                ((i + n - 1) % n, (i + 1) % n)
            } else {
                (i.saturating_sub(1), (i + 1).min(n - 1))
            };
            let t = points[next] - points[prev];
            let inward = Vector2::new(-t.y, t.x) * sign / t.norm().max(1e-9);
            points[i] + inward * by
        })
        .collect()
}

/// Rotation angle of a pose, radians.
pub fn pose_angle(p: &Pose) -> f64 {
    p.rotation.angle()
}

/// How far apart two poses of the same piece are: translation of its centroid and rotation.
pub fn pose_difference(a: &Pose, b: &Pose, centroid: &P2) -> (f64, f64) {
    let d = (a * centroid - b * centroid).norm();
    let mut ang = (pose_angle(a) - pose_angle(b)).abs() % std::f64::consts::TAU;
    if ang > std::f64::consts::PI {
        ang = std::f64::consts::TAU - ang;
    }
    (d, ang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_rectangle_of_a_turned_rectangle_is_itself() {
        // A 200 × 100 rectangle turned by 0.3 rad about (50, 40), with a bump on a long side
        // that the hull keeps but the rectangle does not grow for.
        let turn = Isometry2::new(Vector2::new(50.0, 40.0), 0.3);
        let corners = [
            (-100.0, -50.0),
            (100.0, -50.0),
            (100.0, 50.0),
            (-100.0, 50.0),
        ];
        let mut points: Vec<P2> = corners.iter().map(|&(x, y)| turn * P2::new(x, y)).collect();
        points.push(turn * P2::new(0.0, 49.0));
        let r = min_area_rectangle(&convex_hull(&points)).expect("a rectangle");
        let (long, short) = (r.half.0.max(r.half.1), r.half.0.min(r.half.1));
        assert!((long - 100.0).abs() < 1e-9 && (short - 50.0).abs() < 1e-9);
        assert!((r.centre - P2::new(50.0, 40.0)).norm() < 1e-9);
        assert_eq!(r.beyond(&(turn * P2::new(90.0, 40.0))), 0.0);
        assert!((r.beyond(&(turn * P2::new(0.0, 62.0))) - 12.0).abs() < 1e-9);
        assert!((r.beyond(&(turn * P2::new(-130.0, 0.0))) - 30.0).abs() < 1e-9);
        assert!(min_area_rectangle(&[P2::new(0.0, 0.0), P2::new(1.0, 1.0)]).is_none());
    }

    #[test]
    fn resample_keeps_ends_and_spacing() {
        let pts = vec![P2::new(0.0, 0.0), P2::new(10.0, 0.0), P2::new(10.0, 10.0)];
        let r = resample(&pts, 5);
        assert_eq!(r.len(), 5);
        assert!((r[2] - P2::new(10.0, 0.0)).norm() < 1e-9);
        assert!((r[4] - P2::new(10.0, 10.0)).norm() < 1e-9);
    }

    #[test]
    fn rigid_fit_recovers_a_known_motion() {
        let from: Vec<P2> = (0..20)
            .map(|i| P2::new(i as f64, (i * i) as f64 * 0.1))
            .collect();
        let truth = Isometry2::new(Vector2::new(5.0, -3.0), 0.7);
        let to: Vec<P2> = from.iter().map(|p| truth * p).collect();
        let (pose, res) = fit_rigid(&from, &to);
        assert!(res < 1e-9);
        assert!((pose_angle(&pose) - 0.7).abs() < 1e-9);
    }

    #[test]
    fn polygon_predicates() {
        let sq = [
            P2::new(0.0, 0.0),
            P2::new(10.0, 0.0),
            P2::new(10.0, 10.0),
            P2::new(0.0, 10.0),
        ];
        assert!(crate::plane::contains(&sq, P2::new(5.0, 5.0)));
        assert!(!crate::plane::contains(&sq, P2::new(15.0, 5.0)));
        assert!((distance_to_boundary(&sq, &P2::new(5.0, 4.0)) - 4.0).abs() < 1e-12);
        assert!(signed_area(&sq) > 0.0, "clockwise on screen is positive");
    }

    /// A square with points inside and along its sides (collinear, repeated): its four
    /// corners, counter-clockwise (positive area); collinear points give back their ends.
    #[test]
    fn the_convex_hull_keeps_the_corners_only() {
        let mut points = vec![
            P2::new(5.0, 5.0),
            P2::new(0.0, 0.0),
            P2::new(10.0, 0.0),
            P2::new(5.0, 0.0),
            P2::new(10.0, 10.0),
            P2::new(0.0, 10.0),
            P2::new(0.0, 5.0),
            P2::new(3.0, 7.0),
            P2::new(10.0, 10.0),
        ];
        let hull = convex_hull(&points);
        assert_eq!(hull.len(), 4, "{hull:?}");
        assert!((signed_area(&hull) - 100.0).abs() < 1e-9);
        points.truncate(0);
        points.extend((0..5).map(|k| P2::new(k as f64, 2.0 * k as f64)));
        assert_eq!(
            convex_hull(&points),
            vec![P2::new(0.0, 0.0), P2::new(4.0, 8.0)]
        );
        assert!(convex_hull(&[]).is_empty());
    }
}
