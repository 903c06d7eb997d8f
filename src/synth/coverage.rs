//! Exact-area anti-aliasing: the fraction of each pixel a polygon covers.
//!
//! Each polygon side is cut at every pixel row and column line; a piece lying in one cell
//! adds its signed height times the part of the cell to its right, and its full height to
//! every cell further right. A running sum along each row then gives the covered area,
//! exactly, for any simple polygon, with no supersampling.

use super::geometry::{bounds, Pt};

/// Coverage of a window of pixels: `data[y * w + x]` is the covered fraction of pixel
/// `(x0 + x, y0 + y)`, whose centre is at those integer coordinates.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub x0: i64,
    pub y0: i64,
    pub w: usize,
    pub h: usize,
    pub data: Vec<f32>,
}

impl Coverage {
    pub fn at(&self, x: i64, y: i64) -> f32 {
        if x < self.x0 || y < self.y0 {
            return 0.0;
        }
        let (lx, ly) = ((x - self.x0) as usize, (y - self.y0) as usize);
        if lx >= self.w || ly >= self.h {
            return 0.0;
        }
        self.data[ly * self.w + lx]
    }
}

/// Rasterises a closed polygon (either orientation).
pub fn rasterize(poly: &[Pt]) -> Coverage {
    let b = bounds(poly);
    // Pixel (i, j) spans [i - 0.5, i + 0.5]: shift by a half so cells are [i, i + 1].
    let x0 = (b[0] + 0.5).floor() as i64;
    let y0 = (b[1] + 0.5).floor() as i64;
    let w = ((b[2] + 0.5).floor() as i64 - x0 + 1).max(1) as usize;
    let h = ((b[3] + 0.5).floor() as i64 - y0 + 1).max(1) as usize;
    let stride = w + 2;
    let mut acc = vec![0f64; stride * h];
    let local = |p: Pt| [p[0] + 0.5 - x0 as f64, p[1] + 0.5 - y0 as f64];
    for i in 0..poly.len() {
        let (p, q) = (local(poly[i]), local(poly[(i + 1) % poly.len()]));
        side(&mut acc, stride, h, p, q);
    }
    let mut data = vec![0f32; w * h];
    for y in 0..h {
        let mut run = 0.0;
        for x in 0..w {
            run += acc[y * stride + x];
            data[y * w + x] = run.abs().min(1.0) as f32;
        }
    }
    Coverage { x0, y0, w, h, data }
}

/// Adds one side's contributions, cutting it at every integer x and y it crosses.
fn side(acc: &mut [f64], stride: usize, h: usize, p: Pt, q: Pt) {
    if p[1] == q[1] {
        return;
    }
    let mut cuts = vec![0.0, 1.0];
    for k in 0..2 {
        let (a, b) = (p[k].min(q[k]), p[k].max(q[k]));
        let mut v = a.floor() + 1.0;
        while v < b {
            cuts.push((v - p[k]) / (q[k] - p[k]));
            v += 1.0;
        }
    }
    cuts.sort_by(f64::total_cmp);
    for w in cuts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        if t1 - t0 <= 0.0 {
            continue;
        }
        let a = [p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0];
        let b = [p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1];
        let dy = b[1] - a[1];
        let xm = 0.5 * (a[0] + b[0]);
        let ym = 0.5 * (a[1] + b[1]);
        let row = ym.floor();
        if row < 0.0 || row as usize >= h {
            continue;
        }
        let col = xm.floor().max(0.0);
        let frac = xm - col;
        let base = row as usize * stride + col as usize;
        acc[base] += dy * (1.0 - frac);
        acc[base + 1] += dy * frac;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(c: &Coverage) -> f64 {
        c.data.iter().map(|&v| v as f64).sum()
    }

    #[test]
    fn an_aligned_square_covers_whole_pixels() {
        // Pixels 2..=4 in x and 1..=2 in y, edges on pixel boundaries.
        let sq = [[1.5, 0.5], [4.5, 0.5], [4.5, 2.5], [1.5, 2.5]];
        let c = rasterize(&sq);
        assert!((total(&c) - 6.0).abs() < 1e-9);
        assert_eq!(c.at(2, 1), 1.0);
        assert_eq!(c.at(4, 2), 1.0);
        assert_eq!(c.at(5, 2), 0.0);
    }

    #[test]
    fn coverage_sums_to_the_area_of_a_rotated_polygon() {
        let tri = [[3.2, 1.1], [17.9, 6.4], [5.5, 14.75]];
        let area = super::super::geometry::signed_area(&tri).abs();
        let c = rasterize(&tri);
        assert!((total(&c) - area).abs() < 1e-4, "{} vs {area}", total(&c));
        let mut rev = tri;
        rev.reverse();
        assert!((total(&rasterize(&rev)) - area).abs() < 1e-4);
        // A pixel the diagonal halves: a half-plane through its centre.
        let half = [[0.0, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
        assert!((rasterize(&half).at(0, 0) - 0.75).abs() < 1e-6);
    }
}
