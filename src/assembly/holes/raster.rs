//! The cluster drawn into a bitmap, in the assembled frame: what its empty regions (see
//! `regions.rs`) are found in, and what fits are checked against.

use super::super::geometry::{convex_depth, convex_hull, min_area_rectangle, Rectangle, P2};
use super::super::grow::Growth;
use super::super::shapes::Shapes;
use super::hull_depth::HullDepth;
use crate::vision::trace_mask;
use image::{GrayImage, Luma};
use imageproc::distance_transform::Norm;
use imageproc::morphology::erode;

/// Seams between placed pieces are open by a pixel or two in the assembled frame; the placed
/// pieces are grown by this much so that a hole does not leak out through a seam.
pub(super) const SEAM_CLOSE_PX: i64 = 2;
/// See [`with_empty_corners`]: a corner piece's corner lies about 0.7 of a piece outside the
/// chord between its neighbours; where the corner piece is placed the rectangle's corner lies
/// on its outline.
const EMPTY_CORNER: f64 = 0.4;
/// See [`Frame::in_an_empty_corner`]: near the chord it replaces, the hull with an empty
/// corner taken in is deeper than the hull by up to half a piece (at the middle of the chord
/// across a missing corner piece of square cells); elsewhere the two hulls are one.
const CORNER_NOTCH: f64 = 0.2;
/// Frames over this many pixels are not rasterised (a 1000-piece puzzle at 120 px per piece
/// has about 15 million).
const MAX_FRAME_PIXELS: i64 = 60_000_000;

/// The placed pieces of one cluster rasterised in the assembled frame.
pub(super) struct Frame {
    pub(super) ox: i64,
    pub(super) oy: i64,
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) filled: Vec<bool>,
    /// Counter-clockwise in x-right y-up axes (see [`convex_hull`]).
    pub(super) hull: Vec<P2>,
    hull_depth: HullDepth,
    /// The least rectangle holding the cluster (see [`Frame::beyond_bounds`]).
    bounds: Option<Rectangle>,
    /// The corners of the least rectangle the hull takes in (see [`with_empty_corners`]).
    pub(super) corners_taken_in: Vec<P2>,
}

impl Frame {
    /// How far `p` lies inside the cluster's convex hull (negative: outside): the least
    /// distance to the lines of its sides, which for a convex polygon is the distance to its
    /// boundary. A hull of fewer than three points has no inside.
    pub fn depth(&self, p: &P2) -> f64 {
        self.hull_depth.depth(p)
    }

    /// Whether `p` lies deeper than `t` inside the cluster's convex hull: `depth(p) > t`, asked
    /// of every outline point in every step of a notch fit, and mostly answered without
    /// measuring (see `HullDepth::deeper_than`).
    pub fn deeper_than(&self, p: &P2, t: f64) -> bool {
        self.hull_depth.deeper_than(p, t)
    }

    /// Whether some of `points` lie deeper, by more than [`CORNER_NOTCH`] of the median piece
    /// size `size`, inside the hull with the empty corners of the least rectangle taken in (see
    /// [`with_empty_corners`]) than inside the hull itself: a notch that the hull's chord cuts
    /// across an empty corner, which is part of that corner's region once it is taken in.
    pub fn in_an_empty_corner(&self, points: &[P2], size: f64) -> bool {
        let (hull, corners) = with_empty_corners(self.hull.clone(), self.bounds, size);
        !corners.is_empty()
            && points
                .iter()
                .any(|q| convex_depth(&hull, q) - self.depth(q) > CORNER_NOTCH * size)
    }

    /// How far `p` lies outside the least rectangle holding the cluster (0 inside, or without
    /// one). A puzzle is a rectangle: a piece placed beyond the extent of the rest sticks out
    /// of its edge (irregular 100 photos seed 21: the pieces of a cluster left apart fitted,
    /// one by one, a notch of two border pieces, and stuck out of the puzzle's side by a piece).
    pub fn beyond_bounds(&self, p: &P2) -> f64 {
        self.bounds.map_or(0.0, |r| r.beyond(p))
    }

    /// The sides of the hull that may give the depth of a point in `[x0, x1] × [y0, y1]`.
    pub fn hull_sides_within(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<(P2, P2)> {
        self.hull_depth.sides_within(x0, y0, x1, y1)
    }

    /// The outline of the drawn pieces taken as one, traced clockwise (assembled frame, pixel
    /// centres): seams closed by growing the pieces by [`SEAM_CLOSE_PX`] and shrinking them
    /// back, the outer border of the largest part. Empty if nothing is drawn.
    pub fn outer_outline(&self) -> Vec<P2> {
        let grown = grow(&self.filled, self.w, self.h, SEAM_CLOSE_PX as usize);
        let mask = GrayImage::from_fn(self.w as u32, self.h as u32, |x, y| {
            Luma([if grown[y as usize * self.w + x as usize] {
                255
            } else {
                0
            }])
        });
        let closed = erode(&mask, Norm::LInf, SEAM_CLOSE_PX as u8);
        let Ok(chain) = trace_mask(&closed) else {
            return Vec::new();
        };
        chain
            .points()
            .iter()
            .map(|&[x, y]| P2::new((x as i64 + self.ox) as f64, (y as i64 + self.oy) as f64))
            .collect()
    }

    /// The centre of pixel `k` (row-major index) in the assembled frame.
    pub(super) fn pixel_centre(&self, k: usize) -> P2 {
        P2::new(
            (k % self.w) as f64 + self.ox as f64,
            (k / self.w) as f64 + self.oy as f64,
        )
    }

    /// Whether `p` (assembled frame) lies on a placed piece.
    pub fn covers(&self, p: &P2) -> bool {
        let (x, y) = (
            (p.x - self.ox as f64).round() as i64,
            (p.y - self.oy as f64).round() as i64,
        );
        x >= 0
            && y >= 0
            && (x as usize) < self.w
            && (y as usize) < self.h
            && self.filled[y as usize * self.w + x as usize]
    }
}

/// `cluster`'s placed pieces drawn at their poses; `None` when it is empty or too large to draw.
/// With `empty_corners`, the hull also takes in the corners of the least rectangle where the
/// puzzle's corner piece is missing (see [`with_empty_corners`]).
pub(super) fn cluster_frame(
    shapes: &Shapes,
    g: &Growth,
    cluster: u32,
    empty_corners: bool,
) -> Option<Frame> {
    let outlines: Vec<Vec<P2>> = g
        .placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().filter(|p| p.cluster == cluster).map(|p| (i, p)))
        .map(|(i, p)| {
            shapes.pieces[i]
                .outline
                .iter()
                .map(|q| p.pose * q)
                .collect()
        })
        .collect();
    let points: Vec<P2> = outlines.iter().flatten().copied().collect();
    let hull = convex_hull(&points);
    let bounds = min_area_rectangle(&hull);
    let (hull, corners_taken_in) = if empty_corners {
        with_empty_corners(hull, bounds, shapes.median_size)
    } else {
        (hull, Vec::new())
    };
    let [x0, y0, x1, y1] = super::super::geometry::bounds(points.iter().chain(&hull));
    if outlines.is_empty() || !(x1 > x0 && y1 > y0) {
        return None;
    }
    let margin = 2 * SEAM_CLOSE_PX + 2;
    let (ox, oy) = (x0.floor() as i64 - margin, y0.floor() as i64 - margin);
    let (w, h) = (
        x1.ceil() as i64 - ox + margin + 1,
        y1.ceil() as i64 - oy + margin + 1,
    );
    if w * h > MAX_FRAME_PIXELS {
        return None;
    }
    let (w, h) = (w as usize, h as usize);
    let mut filled = vec![false; w * h];
    for outline in &outlines {
        fill_polygon(outline, ox, oy, w, h, &mut filled);
    }
    let hull_depth = HullDepth::new(
        hull.clone(),
        ox as f64,
        oy as f64,
        (ox + w as i64) as f64,
        (oy + h as i64) as f64,
    );
    Some(Frame {
        ox,
        oy,
        w,
        h,
        filled,
        hull,
        hull_depth,
        bounds,
        corners_taken_in,
    })
}

/// `hull` with each corner of the least rectangle holding the cluster that lies more than
/// [`EMPTY_CORNER`] of the median piece size `size` outside it, and those corners: the puzzle's
/// corner piece is missing there, and the hull's chord would cut its notch in half
/// (irregular 20 photos seed 43: under 0.4 of the piece, and the piece was left out).
fn with_empty_corners(hull: Vec<P2>, bounds: Option<Rectangle>, size: f64) -> (Vec<P2>, Vec<P2>) {
    let Some(r) = bounds.filter(|_| hull.len() >= 3) else {
        return (hull, Vec::new());
    };
    let empty: Vec<P2> = r
        .corners()
        .into_iter()
        .filter(|c| convex_depth(&hull, c) < -EMPTY_CORNER * size)
        .collect();
    (convex_hull(&[hull, empty.clone()].concat()), empty)
}

/// Even-odd scanline fill of a closed polygon, sampled at pixel centres. Each side adds its
/// crossings to the rows it spans (a thousand outlines of hundreds of points fill a frame of
/// millions of pixels: testing every side on every row took most of the step's time).
pub(super) fn fill_polygon(poly: &[P2], ox: i64, oy: i64, w: usize, h: usize, out: &mut [bool]) {
    if poly.is_empty() || h == 0 {
        return;
    }
    let (lo, hi) = poly
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.y), b.max(q.y)));
    let (r0, r1) = (
        ((lo - oy as f64).floor().max(0.0)) as usize,
        ((hi - oy as f64).ceil().max(0.0) as usize).min(h - 1),
    );
    if r0 > r1 {
        return;
    }
    let mut rows: Vec<Vec<f64>> = vec![Vec::new(); r1 - r0 + 1];
    for (k, a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        // Rows whose centre line y has min ≤ y < max.
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        let first = ((y0 - oy as f64).ceil().max(r0 as f64)) as usize;
        let end = ((y1 - oy as f64).ceil().max(0.0) as usize).min(r1 + 1);
        for row in first..end {
            let y = row as f64 + oy as f64;
            rows[row - r0].push(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
        }
    }
    for (i, xs) in rows.iter_mut().enumerate() {
        let row = r0 + i;
        xs.sort_by(|a, b| a.total_cmp(b));
        for pair in xs.chunks(2) {
            if let [a, b] = pair {
                // Pixel centres `x` with a ≤ x < b.
                let c0 = (a - ox as f64).ceil().max(0.0) as usize;
                let c1 = (b - ox as f64).ceil().max(0.0) as usize;
                for c in c0..c1.min(w) {
                    out[row * w + c] = true;
                }
            }
        }
    }
}

/// `mask` dilated by a square of radius `r`.
pub(super) fn grow(mask: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let mut rows = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if mask[y * w + x] {
                for c in x.saturating_sub(r)..=(x + r).min(w - 1) {
                    rows[y * w + c] = true;
                }
            }
        }
    }
    let mut out = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if rows[y * w + x] {
                for r2 in y.saturating_sub(r)..=(y + r).min(h - 1) {
                    out[r2 * w + x] = true;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_polygon_is_filled_at_pixel_centres() {
        let square = [
            P2::new(2.0, 2.0),
            P2::new(7.0, 2.0),
            P2::new(7.0, 7.0),
            P2::new(2.0, 7.0),
        ];
        let mut out = vec![false; 100];
        fill_polygon(&square, 0, 0, 10, 10, &mut out);
        assert_eq!(out.iter().filter(|&&f| f).count(), 25);
        assert!(out[2 * 10 + 2] && !out[7 * 10 + 7]);
    }
}
