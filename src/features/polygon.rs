//! Polygonal approximation of a piece for the polygon solver: vertices at the critical points,
//! each chainlet between them refined by Douglas–Peucker, so straight sides stay one edge and
//! curved ones get as many vertices as the tolerance asks.

use crate::chain::ChainCode;
use crate::piece_set::CriticalPoint;

/// Douglas–Peucker tolerance as a fraction of the piece size (√area), never under one pixel.
pub const DP_TOLERANCE: f64 = 0.01;

/// The polygon of a closed chain, clockwise on screen, starting at the first critical point
/// (or at the chain start if there is none).
pub fn piece_polygon(
    chain: &ChainCode,
    critical: &[CriticalPoint],
    tolerance: f64,
) -> Vec<[f64; 2]> {
    let mut pts: Vec<[f64; 2]> = chain.points().iter().map(|p| p.map(f64::from)).collect();
    pts.pop();
    let n = pts.len();
    if n < 3 {
        return pts;
    }
    let mut cuts: Vec<usize> = critical.iter().map(|c| c.index % n).collect();
    cuts.sort_unstable();
    cuts.dedup();
    if cuts.len() < 2 {
        // No corners to anchor on: anchor at the start and the point farthest from it.
        let s = cuts.first().copied().unwrap_or(0);
        let far = (0..n)
            .max_by(|&a, &b| dist2(pts[a], pts[s]).total_cmp(&dist2(pts[b], pts[s])))
            .unwrap_or(0);
        cuts = vec![s.min(far), s.max(far)];
        cuts.dedup();
    }
    let mut out = Vec::new();
    let m = cuts.len();
    for k in 0..m {
        let (a, b) = (cuts[k], cuts[(k + 1) % m]);
        let span = if b > a { b - a } else { b + n - a };
        let run: Vec<[f64; 2]> = (0..=span).map(|j| pts[(a + j) % n]).collect();
        let kept = douglas_peucker(&run, tolerance);
        out.extend(kept[..kept.len() - 1].iter().map(|&i| run[i]));
    }
    out
}

/// Indices of the points Douglas–Peucker keeps on an open polyline (first and last always).
pub fn douglas_peucker(pts: &[[f64; 2]], tolerance: f64) -> Vec<usize> {
    if pts.len() < 3 {
        return (0..pts.len()).collect();
    }
    let mut keep = vec![false; pts.len()];
    keep[0] = true;
    keep[pts.len() - 1] = true;
    let mut stack = vec![(0, pts.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        let (mut worst, mut at) = (0.0, a);
        for i in a + 1..b {
            let d = distance_to_segment(pts[i], pts[a], pts[b]);
            if d > worst {
                worst = d;
                at = i;
            }
        }
        if worst > tolerance {
            keep[at] = true;
            stack.push((a, at));
            stack.push((at, b));
        }
    }
    (0..pts.len()).filter(|&i| keep[i]).collect()
}

fn dist2(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)
}

fn distance_to_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let ab = [b[0] - a[0], b[1] - a[1]];
    let l2 = ab[0] * ab[0] + ab[1] * ab[1];
    if l2 < 1e-12 {
        return dist2(p, a).sqrt();
    }
    let t = (((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / l2).clamp(0.0, 1.0);
    dist2(p, [a[0] + t * ab[0], a[1] + t * ab[1]]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece_set::CriticalKind;

    #[test]
    fn rectangle_polygon_is_its_four_corners() {
        let c = ChainCode::from_digits([3, 2], "000066444422").unwrap();
        let cp = |index| CriticalPoint {
            index,
            x: 0.0,
            y: 0.0,
            angle_deg: 90.0,
            kind: CriticalKind::Discontinuity,
        };
        let poly = piece_polygon(&c, &[cp(0), cp(4), cp(6), cp(10)], 0.5);
        assert_eq!(poly, vec![[3.0, 2.0], [7.0, 2.0], [7.0, 4.0], [3.0, 4.0]]);
        // Without critical points the polygon still finds the corners.
        let poly = piece_polygon(&c, &[], 0.5);
        assert_eq!(poly.len(), 4, "{poly:?}");
    }

    #[test]
    fn douglas_peucker_keeps_the_peak() {
        let pts = [[0.0, 0.0], [1.0, 1.4], [2.0, 3.0], [3.0, 1.4], [4.0, 0.0]];
        assert_eq!(douglas_peucker(&pts, 0.5), vec![0, 2, 4]);
    }
}
