//! Straight sides fitted to a traced outline: the polygon a piece was cut as, recovered from
//! the staircase of its boundary pixels.
//!
//! Why not simplify the outline's own points: a vertex of the staircase is off the true corner
//! by up to a pixel, and a dissection corner that turns a side by a few degrees bends it by only
//! one or two pixels, about the size of the staircase itself. Lines fitted to many points are
//! far more precise than any single point, so the outline is cut into runs that are straight
//! within the digitisation noise (split and merge), a total-least-squares line is fitted to the
//! middle of each run, and the vertices are the intersections of neighbouring lines.
//!
//! 1. Split: Douglas–Peucker on the closed chain with a tolerance below the staircase's
//!    amplitude, so that every real corner, however flat, becomes a break (straight sides are
//!    over-split too).
//! 2. Merge: repeatedly join the two neighbouring runs whose union is straightest, while the
//!    union's largest distance from its fitted line stays within `straight_px` (a digital
//!    straight line stays within about half a pixel of its line; a real corner adds its bend).
//! 3. Runs shorter than `short_px` are the clipped tips of sharp corners: they are dropped and
//!    their neighbours meet at the intersection of their lines.
//! 4. Each line is moved outwards by the mean inset of boundary pixel centres, which for a line
//!    at angle φ to the pixel grid is ½·max(|cos φ|, |sin φ|): the pixel rows (or columns)
//!    crossed by the line each contribute the last pixel whose centre is inside, at a distance
//!    uniform on [0, max(|cos φ|, |sin φ|)).

use super::geometry::{dist, is_simple, signed_area, Pt};

/// How the outline is cut into sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideParams {
    /// Douglas–Peucker split tolerance, pixels.
    pub split_px: f64,
    /// Largest distance of a run's points from its fitted line for the run to count as one
    /// straight side, pixels.
    pub straight_px: f64,
    /// Runs shorter than this (chord length, pixels) are corner tips, not sides.
    pub short_px: f64,
    /// The points are boundary pixel centres, which lie inside the outline by a mean inset
    /// that each line is moved out by (step 4); `false` for points already on the edge
    /// ([`super::edge_snap::snap_outline`]).
    pub pixel_centres: bool,
}

impl Default for SideParams {
    fn default() -> Self {
        SideParams {
            split_px: 0.8,
            straight_px: 1.05,
            short_px: 6.0,
            pixel_centres: true,
        }
    }
}

/// The fitted polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct FittedSides {
    /// Vertices (intersections of neighbouring side lines), in the chain's orientation.
    pub polygon: Vec<Pt>,
    /// RMS distance of the fitted points from their lines, pixels.
    pub residual: f64,
    /// Number of points that took part in the fits.
    pub samples: usize,
}

/// A fitted line: a point on it and its unit direction.
#[derive(Clone, Copy, Debug)]
struct Line {
    c: Pt,
    d: Pt,
    /// Largest and RMS distance of the fitted points from the line.
    max: f64,
    rms: f64,
    n: usize,
    /// The middle of the fitted points (projected on the line).
    mid: Pt,
}

/// Fits straight sides to `chain`, the closed sequence of boundary pixel centres (a repeated
/// closing point is allowed). `None` when fewer than three sides are found.
pub fn fit_sides(chain: &[Pt], params: &SideParams) -> Option<FittedSides> {
    let mut pts: Vec<Pt> = chain.to_vec();
    if pts.len() > 1 && pts[0] == pts[pts.len() - 1] {
        pts.pop();
    }
    let n = pts.len();
    if n < 6 {
        return None;
    }
    let area = signed_area(&pts);
    if !area.is_finite() || area == 0.0 {
        return None;
    }
    let mut breaks = split(&pts, params.split_px);
    merge(&pts, &mut breaks, params);
    drop_tips(&pts, &mut breaks, params);
    merge(&pts, &mut breaks, params);
    let outward = if area > 0.0 { 1.0 } else { -1.0 };
    let (mut polygon, mut lines) = shape(&pts, &mut breaks, outward, params.pixel_centres)?;
    // A fitted side shorter than `short_px` is a corner's tip too, whose run was longer than
    // that: a blurred photo rounds a corner over several pixels, and the rounding became a run
    // of its own between two breaks. Its neighbours' lines meet at the corner.
    while breaks.len() > 3 {
        let m = breaks.len();
        let (k, len) = (0..m)
            .map(|k| (k, dist(polygon[k], polygon[(k + 1) % m])))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .expect("non-empty");
        if len >= params.short_px {
            break;
        }
        let (a, b) = (breaks[k], breaks[(k + 1) % m]);
        let mut fewer = breaks.clone();
        fewer[k] = (a + ((b + n - a) % n) / 2) % n;
        fewer.remove((k + 1) % m);
        fewer.sort_unstable();
        fewer.dedup();
        let Some(fitted) = shape(&pts, &mut fewer, outward, params.pixel_centres) else {
            break;
        };
        (breaks, (polygon, lines)) = (fewer, fitted);
    }
    // A polygon that crosses itself is no piece: a spurious break (a bump of the mask, two
    // runs of one side) put a vertex where neighbouring lines cross far off. The break whose
    // removal leaves a simple polygon with the smallest fit residual goes, until it is simple.
    while !is_simple(&polygon) && breaks.len() > 3 {
        let Some(best) = (0..breaks.len())
            .filter_map(|k| {
                let mut fewer = breaks.clone();
                fewer.remove(k);
                let (poly, ls) = shape(&pts, &mut fewer, outward, params.pixel_centres)?;
                let cost = ls.iter().map(|l| l.rms * l.rms * l.n as f64).sum::<f64>();
                Some((is_simple(&poly), cost, fewer, poly, ls))
            })
            .min_by(|x, y| y.0.cmp(&x.0).then(x.1.total_cmp(&y.1)))
        else {
            break;
        };
        (breaks, polygon, lines) = (best.2, best.3, best.4);
    }
    let (mut sq, mut samples) = (0.0, 0usize);
    for line in &lines {
        sq += line.rms * line.rms * line.n as f64;
        samples += line.n;
    }
    (polygon.len() >= 3 && signed_area(&polygon).abs() > 0.0).then(|| FittedSides {
        polygon,
        residual: if samples > 0 {
            (sq / samples as f64).sqrt()
        } else {
            0.0
        },
        samples,
    })
}

/// The polygon of the sides between `breaks` and their lines. A vertex must lie ahead of the
/// middle of the side before it and behind the middle of the side after it: two runs of one
/// straight side (split at a T-junction of the cut, or at a bump) have lines a fraction of a
/// degree apart that cross anywhere, often far behind one of them. Such a break is no
/// corner, so it is removed (from `breaks`) and the side refitted.
fn shape(
    pts: &[Pt],
    breaks: &mut Vec<usize>,
    outward: f64,
    centres: bool,
) -> Option<(Vec<Pt>, Vec<Line>)> {
    loop {
        let m = breaks.len();
        if m < 3 {
            return None;
        }
        let lines = side_lines(pts, breaks, outward, centres)?;
        let polygon: Vec<Pt> = (0..m)
            .map(|k| intersect(&lines[(k + m - 1) % m], &lines[k]).unwrap_or(pts[breaks[k]]))
            .collect();
        let misplaced = (0..m).find(|&k| {
            let (a, b, x) = (&lines[(k + m - 1) % m], &lines[k], polygon[k]);
            let ahead = (x[0] - a.mid[0]) * a.d[0] + (x[1] - a.mid[1]) * a.d[1];
            let behind = (b.mid[0] - x[0]) * b.d[0] + (b.mid[1] - x[1]) * b.d[1];
            ahead <= 0.0 || behind <= 0.0
        });
        match misplaced {
            Some(k) if m > 3 => {
                breaks.remove(k);
            }
            _ => return Some((polygon, lines)),
        }
    }
}

/// The fitted line of every run between consecutive breaks, moved outwards by the mean
/// inset of boundary pixel centres (see the module documentation).
fn side_lines(pts: &[Pt], breaks: &[usize], outward: f64, centres: bool) -> Option<Vec<Line>> {
    let m = breaks.len();
    let mut lines = Vec::with_capacity(m);
    for k in 0..m {
        let run = run_points(pts, breaks[k], breaks[(k + 1) % m]);
        let mut line = fit(&trimmed(&run))?;
        // Positive signed area: the interior is to the left of the direction.
        let nrm = [line.d[1] * outward, -line.d[0] * outward];
        let inset = if centres {
            0.5 * line.d[0].abs().max(line.d[1].abs())
        } else {
            0.0
        };
        line.c = [line.c[0] + inset * nrm[0], line.c[1] + inset * nrm[1]];
        line.mid = line.c;
        lines.push(line);
    }
    Some(lines)
}

/// Douglas–Peucker on a closed chain: sorted break indices, starting from two points far
/// apart (both of them corners of the convex hull, so real corners).
fn split(pts: &[Pt], tol: f64) -> Vec<usize> {
    let n = pts.len();
    let far = |from: usize| {
        (0..n)
            .max_by(|&a, &b| dist(pts[from], pts[a]).total_cmp(&dist(pts[from], pts[b])))
            .expect("non-empty")
    };
    let i1 = far(0);
    let i0 = far(i1);
    let mut breaks = vec![i0, i1];
    split_open(pts, i0, i1, tol, &mut breaks);
    split_open(pts, i1, i0, tol, &mut breaks);
    breaks.sort_unstable();
    breaks.dedup();
    breaks
}

/// Splits the open run `a`→`b` (indices modulo the length) at its farthest point from the chord
/// while that is farther than `tol`.
fn split_open(pts: &[Pt], a: usize, b: usize, tol: f64, out: &mut Vec<usize>) {
    let n = pts.len();
    let len = (b + n - a) % n;
    if len < 2 {
        return;
    }
    let (mut best, mut at) = (0.0, a);
    for s in 1..len {
        let i = (a + s) % n;
        let h = height(pts[a], pts[i], pts[b]);
        if h > best {
            (best, at) = (h, i);
        }
    }
    if best > tol {
        out.push(at);
        split_open(pts, a, at, tol, out);
        split_open(pts, at, b, tol, out);
    }
}

/// Greedy merging: while some pair of neighbouring runs fits one straight line, join the
/// straightest pair (remove the break between them).
fn merge(pts: &[Pt], breaks: &mut Vec<usize>, params: &SideParams) {
    while breaks.len() > 3 {
        let m = breaks.len();
        let best = (0..m)
            .filter_map(|k| {
                let run = run_points(pts, breaks[(k + m - 1) % m], breaks[(k + 1) % m]);
                fit(&trimmed(&run)).map(|l| (k, l.max))
            })
            .min_by(|x, y| x.1.total_cmp(&y.1));
        match best {
            Some((k, cost)) if cost <= params.straight_px => {
                breaks.remove(k);
            }
            _ => break,
        }
    }
}

/// Drops runs whose chord is shorter than `short_px`: the clipped tip of a sharp corner is
/// replaced by one break in its middle, where the neighbours' lines will meet.
fn drop_tips(pts: &[Pt], breaks: &mut Vec<usize>, params: &SideParams) {
    let n = pts.len();
    loop {
        let m = breaks.len();
        if m <= 3 {
            return;
        }
        let shortest = (0..m)
            .map(|k| (k, dist(pts[breaks[k]], pts[breaks[(k + 1) % m]])))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .expect("non-empty");
        if shortest.1 >= params.short_px {
            return;
        }
        let k = shortest.0;
        let (a, b) = (breaks[k], breaks[(k + 1) % m]);
        let mid = (a + ((b + n - a) % n) / 2) % n;
        breaks[k] = mid;
        breaks.remove((k + 1) % m);
        breaks.sort_unstable();
        breaks.dedup();
    }
}

/// The points from break `a` to break `b` inclusive, walking forwards (modulo the length).
fn run_points(pts: &[Pt], a: usize, b: usize) -> Vec<Pt> {
    let n = pts.len();
    let len = (b + n - a) % n;
    let len = if len == 0 { n } else { len };
    (0..=len).map(|s| pts[(a + s) % n]).collect()
}

/// The middle of a run: points within 2 px (at most a fifth of the run) of either end are left
/// out, because the digitised corners are rounded.
fn trimmed(run: &[Pt]) -> Vec<Pt> {
    let (a, b) = (run[0], run[run.len() - 1]);
    let cut = (0.2 * dist(a, b)).min(2.0);
    let mid: Vec<Pt> = run
        .iter()
        .copied()
        .filter(|&p| dist(p, a) >= cut && dist(p, b) >= cut)
        .collect();
    if mid.len() >= 2 {
        mid
    } else {
        run.to_vec()
    }
}

/// Total least squares line through `pts` (`None` for fewer than two points), oriented from
/// the first point towards the last.
fn fit(pts: &[Pt]) -> Option<Line> {
    if pts.len() < 2 {
        return None;
    }
    let n = pts.len() as f64;
    let c = [
        pts.iter().map(|p| p[0]).sum::<f64>() / n,
        pts.iter().map(|p| p[1]).sum::<f64>() / n,
    ];
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in pts {
        let (x, y) = (p[0] - c[0], p[1] - c[1]);
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let mut d = [theta.cos(), theta.sin()];
    let (a, b) = (pts[0], pts[pts.len() - 1]);
    if d[0] * (b[0] - a[0]) + d[1] * (b[1] - a[1]) < 0.0 {
        d = [-d[0], -d[1]];
    }
    let (mut max, mut sq) = (0.0f64, 0.0);
    for p in pts {
        let e = ((p[0] - c[0]) * d[1] - (p[1] - c[1]) * d[0]).abs();
        max = max.max(e);
        sq += e * e;
    }
    Some(Line {
        c,
        d,
        max,
        rms: (sq / n).sqrt(),
        n: pts.len(),
        mid: c,
    })
}

/// Where two lines cross; `None` when they are within about 1° of parallel.
fn intersect(l0: &Line, l1: &Line) -> Option<Pt> {
    let (p, d, q, e) = (l0.c, l0.d, l1.c, l1.d);
    let den = d[0] * e[1] - d[1] * e[0];
    if den.abs() < 0.02 {
        return None;
    }
    let t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den;
    Some([p[0] + t * d[0], p[1] + t * d[1]])
}

/// Distance of `p` from the line through `a` and `b` (from `a` if they coincide).
fn height(a: Pt, p: Pt, b: Pt) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        return dist(a, p);
    }
    ((p[0] - a[0]) * d[1] - (p[1] - a[1]) * d[0]).abs() / len
}
