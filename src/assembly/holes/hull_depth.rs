//! How deep a point lies inside a convex polygon, asked millions of times per round: every
//! iterative-closest-points step of a notch fit asks it of every outline point (see
//! `partial`, `fit`). The answer is the least signed distance to the lines of the polygon's
//! sides; over a small cell of the plane only a few sides can give that least distance, so
//! each cell keeps just those and the answer stays exact.

use super::super::geometry::{side_depth_along, P2};
use nalgebra::Vector2;

/// Cell side in pixels: a 100-piece cluster at 120 px per piece has some 10,000 cells and a
/// hull of about 80 sides, of which a cell keeps one to three.
const CELL: f64 = 16.0;

pub(super) struct HullDepth {
    /// Counter-clockwise in x-right y-up axes.
    hull: Vec<P2>,
    /// Per side, its direction vector and length: `geometry::side_depth`'s arithmetic
    /// (`side_depth_along`), without a square root per question.
    along: Vec<(Vector2<f64>, f64)>,
    x0: f64,
    y0: f64,
    columns: usize,
    rows: usize,
    /// Per cell, row by row, the sides that may be nearest to a point in it: `sides[starts[k]
    /// .. starts[k + 1]]`.
    starts: Vec<usize>,
    sides: Vec<u32>,
    /// Per cell, the least and the greatest depth a point in it may have: the depth is the
    /// least of the sides' distances, each linear, so over the cell it is no less than the
    /// least of their values at the corners and no more than the least of their greatest
    /// there. Most cells lie wholly deeper or shallower than a notch's depth, which answers
    /// [`HullDepth::deeper_than`] without a side.
    range: Vec<(f64, f64)>,
}

/// Rounding allowance (px) on a cell's depth range: past it, a point's own depth, rounded
/// otherwise, lies on the same side of a threshold as the range does.
const RANGE_SLACK: f64 = 1e-6;

impl HullDepth {
    /// For points in `[x0, x1] × [y0, y1]` mostly; points outside are answered too, more
    /// slowly.
    pub fn new(hull: Vec<P2>, x0: f64, y0: f64, x1: f64, y1: f64) -> HullDepth {
        let columns = ((x1 - x0) / CELL).ceil().max(1.0) as usize;
        let rows = ((y1 - y0) / CELL).ceil().max(1.0) as usize;
        let n = hull.len();
        let along = (0..n)
            .map(|k| {
                let v = hull[(k + 1) % n] - hull[k];
                (v, v.norm())
            })
            .collect();
        let mut depth = HullDepth {
            hull,
            along,
            x0,
            y0,
            columns,
            rows,
            starts: vec![0],
            sides: Vec::new(),
            range: Vec::new(),
        };
        if n < 3 {
            depth.rows = 0;
            return depth;
        }
        for r in 0..rows {
            for c in 0..columns {
                let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map(|(dx, dy)| {
                    P2::new(x0 + (c as f64 + dx) * CELL, y0 + (r as f64 + dy) * CELL)
                });
                // Each side's distance is linear in the point: over the cell it lies between
                // its least and greatest at the corners. A side whose least exceeds another's
                // greatest is never the nearest there.
                let range: Vec<(f64, f64)> = (0..n)
                    .map(|k| {
                        corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                            let d = depth.side_distance(k, p);
                            (lo.min(d), hi.max(d))
                        })
                    })
                    .collect();
                let bound = range.iter().map(|r| r.1).fold(f64::MAX, f64::min);
                let least = range.iter().map(|r| r.0).fold(f64::MAX, f64::min);
                depth.range.push((least, bound));
                depth
                    .sides
                    .extend((0..n).filter(|&k| range[k].0 <= bound).map(|k| k as u32));
                depth.starts.push(depth.sides.len());
            }
        }
        depth
    }

    /// How far `p` lies inside the polygon (negative: outside); minus infinity for a polygon
    /// of fewer than three points, which has no inside.
    pub fn depth(&self, p: &P2) -> f64 {
        let n = self.hull.len();
        if n < 3 {
            return f64::NEG_INFINITY;
        }
        if let Some(k) = self.cell(p) {
            self.sides[self.starts[k]..self.starts[k + 1]]
                .iter()
                .map(|&s| self.side_distance(s as usize, p))
                .fold(f64::INFINITY, f64::min)
        } else {
            (0..n)
                .map(|s| self.side_distance(s, p))
                .fold(f64::INFINITY, f64::min)
        }
    }

    /// Whether `p` lies deeper than `t` inside the polygon: `depth(p) > t`, answered from the
    /// cell's depth range where that settles it.
    pub fn deeper_than(&self, p: &P2, t: f64) -> bool {
        if self.hull.len() >= 3 {
            if let Some(k) = self.cell(p) {
                let (least, greatest) = self.range[k];
                if least > t + RANGE_SLACK {
                    return true;
                }
                if greatest <= t - RANGE_SLACK {
                    return false;
                }
            }
        }
        self.depth(p) > t
    }

    /// The cell holding `p`, if any.
    fn cell(&self, p: &P2) -> Option<usize> {
        let (cx, cy) = ((p.x - self.x0) / CELL, (p.y - self.y0) / CELL);
        (cx >= 0.0 && cy >= 0.0 && (cx as usize) < self.columns && (cy as usize) < self.rows)
            .then(|| cy as usize * self.columns + cx as usize)
    }

    /// The sides that may give the depth of a point in `[x0, x1] × [y0, y1]`, by their ends:
    /// all of them where that reaches beyond the cells.
    pub fn sides_within(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<(P2, P2)> {
        let n = self.hull.len();
        let side = |k: usize| (self.hull[k], self.hull[(k + 1) % n]);
        let (c0, r0) = ((x0 - self.x0) / CELL, (y0 - self.y0) / CELL);
        let (c1, r1) = ((x1 - self.x0) / CELL, (y1 - self.y0) / CELL);
        if n < 3 || c0 < 0.0 || r0 < 0.0 || c1 >= self.columns as f64 || r1 >= self.rows as f64 {
            return (0..n).map(side).collect();
        }
        let mut sides: Vec<u32> = Vec::new();
        for r in r0 as usize..=r1 as usize {
            for c in c0 as usize..=c1 as usize {
                let k = r * self.columns + c;
                sides.extend_from_slice(&self.sides[self.starts[k]..self.starts[k + 1]]);
            }
        }
        sides.sort_unstable();
        sides.dedup();
        sides.into_iter().map(|k| side(k as usize)).collect()
    }

    /// The signed distance from the line of side `k` to `p`, positive on its left (inside).
    fn side_distance(&self, k: usize, p: &P2) -> f64 {
        let (along, length) = &self.along[k];
        side_depth_along(&self.hull[k], along, *length, p)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::geometry::convex_depth;
    use super::*;

    #[test]
    fn the_cells_give_the_depth_by_every_side() {
        // A 40-gon of radius 100 about (120, 110), counter-clockwise.
        let hull: Vec<P2> = (0..40)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 40.0;
                P2::new(120.0 + 100.0 * a.cos(), 110.0 + 100.0 * a.sin())
            })
            .collect();
        let depth = HullDepth::new(hull.clone(), 15.0, 5.0, 225.0, 215.0);
        for i in 0..60 {
            for j in 0..60 {
                // Inside the cells, and beyond them on every side.
                let p = P2::new(-20.0 + 4.5 * i as f64, -30.0 + 4.7 * j as f64);
                let (fast, slow) = (depth.depth(&p), convex_depth(&hull, &p));
                assert_eq!(fast, slow, "{p:?}");
                for t in [-10.0, 0.0, 3.0, 24.0, 60.0, slow] {
                    assert_eq!(depth.deeper_than(&p, t), slow > t, "{p:?} {t}");
                }
            }
        }
        assert_eq!(depth.depth(&P2::new(120.0, 110.0)).round(), 100.0);
    }

    #[test]
    fn a_hull_of_two_points_has_no_inside() {
        let depth = HullDepth::new(
            vec![P2::new(0.0, 0.0), P2::new(5.0, 0.0)],
            0.0,
            0.0,
            9.0,
            9.0,
        );
        assert_eq!(depth.depth(&P2::new(1.0, 1.0)), f64::NEG_INFINITY);
    }
}
