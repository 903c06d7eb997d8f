//! Plane geometry shared by stages that keep their points as plain `[x, y]` arrays (the
//! polygon solver, the corner finder, the generator's truth masks).

use std::ops::Range;

/// A plane point, whichever type the stage keeps it in (plain arrays, or nalgebra points in
/// the assembly), so the geometry below is written once.
pub trait Xy: Copy {
    fn xy(self) -> [f64; 2];
}

impl Xy for [f64; 2] {
    fn xy(self) -> [f64; 2] {
        self
    }
}

impl Xy for nalgebra::Point2<f64> {
    fn xy(self) -> [f64; 2] {
        [self.x, self.y]
    }
}

/// Whether `p` is strictly inside the closed polygon `poly` (either orientation), by ray
/// casting (even-odd rule).
pub fn contains<T: Xy>(poly: &[T], p: T) -> bool {
    let p = p.xy();
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i].xy(), poly[(i + 1) % n].xy());
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if x > p[0] {
                inside = !inside;
            }
        }
    }
    inside
}

/// Euclidean distance between two points.
pub fn dist(a: &[f64; 2], b: &[f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The runs of pixel columns, within `cols`, whose centres on pixel row `row` lie inside
/// `poly` (either orientation), left to right. Non-zero winding, so a small loop where
/// neighbouring points of a traced outline crossed over does not punch a hole (for a simple
/// polygon it is the even–odd rule). Half-open in x and y, so polygons sharing a side share
/// no pixel: scanline filling is written once, for masks and drawings alike.
pub fn row_spans(poly: &[[f64; 2]], row: u32, cols: Range<u32>) -> Vec<Range<u32>> {
    let y = f64::from(row) + 0.5;
    let mut crossings: Vec<(f64, i32)> = Vec::new();
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        // Half-open in y so a vertex on the scan line counts once.
        if (a[1] <= y) != (b[1] <= y) {
            let x = a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            crossings.push((x, if b[1] > a[1] { 1 } else { -1 }));
        }
    }
    crossings.sort_by(|p, q| p.0.total_cmp(&q.0));
    let (lo, hi) = (f64::from(cols.start), f64::from(cols.end));
    let mut spans = Vec::new();
    let mut winding = 0;
    for pair in crossings.windows(2) {
        winding += pair[0].1;
        if winding == 0 {
            continue;
        }
        // Pixel centres x + 0.5 in [pair[0].0, pair[1].0).
        let first = (pair[0].0 - 0.5).ceil().clamp(lo, hi) as u32;
        let last = (pair[1].0 - 0.5).ceil().clamp(lo, hi) as u32;
        if last > first {
            spans.push(first..last);
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_spans_hold_the_pixel_centres_inside() {
        // Centres 2.5 … 6.5 lie in [2.2, 6.8); row 1 (centre 1.5) is outside.
        let square = [[2.2, 2.2], [6.8, 2.2], [6.8, 6.8], [2.2, 6.8]];
        assert_eq!(row_spans(&square, 4, 0..20), vec![2..7]);
        assert!(row_spans(&square, 1, 0..20).is_empty());
        assert_eq!(row_spans(&square, 4, 3..5), vec![3..5]);
        // Two squares sharing the side x = 5 share no pixel.
        let left = [[0.0, 0.0], [5.0, 0.0], [5.0, 3.0], [0.0, 3.0]];
        let right = [[5.0, 0.0], [10.0, 0.0], [10.0, 3.0], [5.0, 3.0]];
        assert_eq!(row_spans(&left, 1, 0..20), vec![0..5]);
        assert_eq!(row_spans(&right, 1, 0..20), vec![5..10]);
        // A loop turning the same way twice is filled once (non-zero), a hole turning the
        // other way is left out.
        let ring = [
            [0.0, 0.0],
            [9.0, 0.0],
            [9.0, 3.0],
            [0.0, 3.0],
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [6.0, 3.0],
            [6.0, 0.0],
        ];
        assert_eq!(row_spans(&ring, 1, 0..20), vec![0..3, 6..9]);
    }
}
