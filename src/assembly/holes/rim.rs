//! The nearest rim point, asked some hundred thousand times per piece and region (every
//! iterative-closest-points step of a fit asks it of every outline point). A rim is a few
//! hundred points along a curve; bucketed in square cells of about four points each, the
//! nearest one lies in the few cells round the query, where a k-d tree visits several leaves
//! of 32. The answer is exact: the cells are searched in square rings outwards until no
//! unsearched cell can hold a nearer point.

use super::super::geometry::{bounds, P2};
use kiddo::{ImmutableKdTree, SquaredEuclidean};

/// Points per occupied cell aimed at (see [`Rim::new`]).
const POINTS_PER_CELL: f64 = 4.0;
/// Cell side bounds (px): a rim of a few points, or of points all in one place, still gets
/// cells of a sensible size.
const CELL_RANGE: (f64, f64) = (2.0, 64.0);
/// Rings of cells searched at most: a query farther from the rim than this many cells (a
/// point of a piece turned across the cluster) asks the k-d tree, whose cost does not grow
/// with the distance.
const MAX_RINGS: i64 = 3;
/// Allowance (px) for rounding in the bound on the distance of unsearched cells.
const ROUNDING: f64 = 1e-9;

pub(super) struct Rim {
    pub points: Vec<P2>,
    x0: f64,
    y0: f64,
    cell: f64,
    columns: i64,
    rows: i64,
    /// The points of cell `k` (row by row) are `order[starts[k] .. starts[k + 1]]`.
    starts: Vec<u32>,
    order: Vec<u32>,
    tree: ImmutableKdTree<f64, 2>,
}

impl Rim {
    pub fn new(points: Vec<P2>) -> Rim {
        let [x0, y0, x1, y1] = if points.is_empty() {
            [0.0; 4]
        } else {
            bounds(&points)
        };
        // Along a curve through a box of side D, n points lie some 4D/n apart; a cell of side
        // c holds about c / (4D/n) of them.
        let side = (x1 - x0).max(y1 - y0).max(1.0);
        let spacing = 4.0 * side / points.len().max(1) as f64;
        let cell = (POINTS_PER_CELL * spacing).clamp(CELL_RANGE.0, CELL_RANGE.1);
        let columns = ((x1 - x0) / cell).floor() as i64 + 1;
        let rows = ((y1 - y0) / cell).floor() as i64 + 1;
        let cell_of = |q: &P2| {
            let c = (((q.x - x0) / cell) as i64).min(columns - 1);
            let r = (((q.y - y0) / cell) as i64).min(rows - 1);
            (r * columns + c) as usize
        };
        let mut starts = vec![0u32; (columns * rows) as usize + 1];
        for q in &points {
            starts[cell_of(q) + 1] += 1;
        }
        for k in 1..starts.len() {
            starts[k] += starts[k - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0u32; points.len()];
        for (i, q) in points.iter().enumerate() {
            let k = cell_of(q);
            order[next[k] as usize] = i as u32;
            next[k] += 1;
        }
        let coords: Vec<[f64; 2]> = points.iter().map(|q| [q.x, q.y]).collect();
        let tree = ImmutableKdTree::new_from_slice(&coords);
        Rim {
            tree,
            points,
            x0,
            y0,
            cell,
            columns,
            rows,
            starts,
            order,
        }
    }

    /// The rim point nearest to `p`, and its distance (infinite for an empty rim).
    pub fn nearest(&self, p: &P2) -> (P2, f64) {
        self.search(p, f64::INFINITY)
            .map_or((*p, f64::INFINITY), |(i, d2)| (self.points[i], d2.sqrt()))
    }

    /// [`Rim::nearest`] where it lies within `reach`, else `None`; it stops searching once
    /// nothing within `reach` is left unsearched.
    pub fn nearest_within(&self, p: &P2, reach: f64) -> Option<(P2, f64)> {
        self.search(p, reach)
            .map(|(i, d2)| (self.points[i], d2.sqrt()))
            .filter(|(_, d)| *d <= reach)
    }

    /// The index and squared distance of the nearest point, searching rings of cells round
    /// `p`'s cell until every point left lies farther than the best found or than `reach`.
    fn search(&self, p: &P2, reach: f64) -> Option<(usize, f64)> {
        if self.points.is_empty() {
            return None;
        }
        let (fx, fy) = ((p.x - self.x0) / self.cell, (p.y - self.y0) / self.cell);
        // Cell indices as integers must not saturate (a point of a degenerate pose).
        if !(fx.abs() < 1e12 && fy.abs() < 1e12) {
            return Some(self.nearest_in_tree(p));
        }
        let (cx, cy) = (floor(fx), floor(fy));
        // How far p lies from the sides of its own cell, in cells.
        let edge = (fx - cx as f64)
            .min(cx as f64 + 1.0 - fx)
            .min(fy - cy as f64)
            .min(cy as f64 + 1.0 - fy)
            .max(0.0);
        // Rings nearer than this hold no cell of the grid.
        let gap = |v: i64, n: i64| if v < 0 { -v } else { (v - (n - 1)).max(0) };
        let first = gap(cx, self.columns).max(gap(cy, self.rows));
        // Beyond this ring every cell has been searched.
        let last = [cx, self.columns - 1 - cx, cy, self.rows - 1 - cy]
            .iter()
            .map(|v| v.abs())
            .max()
            .unwrap_or(0);
        let mut best: Option<(usize, f64)> = None;
        for r in first..=last {
            // Every point in ring r or beyond lies outside the square of rings before it,
            // which reaches r - 1 cells and p's distance to its own cell's side past p.
            if r > 0 {
                let bound = ((r - 1) as f64 + edge) * self.cell - ROUNDING;
                if bound > reach || best.is_some_and(|(_, d2)| d2 <= bound * bound) {
                    break;
                }
            }
            if r - first > MAX_RINGS {
                return Some(self.nearest_in_tree(p));
            }
            self.search_ring(p, cx, cy, r, &mut best);
        }
        best
    }

    /// The index and squared distance of the nearest point, from the k-d tree.
    fn nearest_in_tree(&self, p: &P2) -> (usize, f64) {
        let found = self.tree.nearest_one::<SquaredEuclidean>(&[p.x, p.y]);
        (found.item as usize, found.distance)
    }

    fn search_ring(&self, p: &P2, cx: i64, cy: i64, r: i64, best: &mut Option<(usize, f64)>) {
        let (r0, r1) = ((cy - r).max(0), (cy + r).min(self.rows - 1));
        for row in r0..=r1 {
            let edge_row = row == cy - r || row == cy + r;
            let step = if edge_row { 1 } else { (2 * r).max(1) };
            let mut column = cx - r;
            while column <= cx + r {
                if column >= 0 && column < self.columns {
                    self.search_cell(p, (row * self.columns + column) as usize, best);
                }
                column += step;
            }
        }
    }

    fn search_cell(&self, p: &P2, k: usize, best: &mut Option<(usize, f64)>) {
        for &i in &self.order[self.starts[k] as usize..self.starts[k + 1] as usize] {
            let q = &self.points[i as usize];
            let (dx, dy) = (p.x - q.x, p.y - q.y);
            let d2 = dx * dx + dy * dy;
            if best.is_none_or(|(_, b)| d2 < b) {
                *best = Some((i as usize, d2));
            }
        }
    }
}

/// `v.floor()` as an integer, without the library call `f64::floor` makes on a baseline
/// x86-64 target (a few percent of a solve's time).
fn floor(v: f64) -> i64 {
    let t = v as i64;
    if (t as f64) > v {
        t - 1
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(points: &[P2], p: &P2) -> f64 {
        points
            .iter()
            .map(|q| (q - p).norm_squared())
            .fold(f64::INFINITY, f64::min)
            .sqrt()
    }

    #[test]
    fn the_cells_give_the_nearest_point_anywhere() {
        // A wavy closed curve of 300 points, and queries inside, on and far outside it.
        let points: Vec<P2> = (0..300)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 300.0;
                let r = 150.0 + 20.0 * (5.0 * a).sin();
                P2::new(200.0 + r * a.cos(), 180.0 + r * a.sin())
            })
            .collect();
        let rim = Rim::new(points.clone());
        for i in 0..70 {
            for j in 0..70 {
                let p = P2::new(-400.0 + 17.3 * i as f64, -380.0 + 16.9 * j as f64);
                let want = brute(&points, &p);
                let (q, d) = rim.nearest(&p);
                assert_eq!(d, want, "{p:?}");
                assert_eq!((q - p).norm_squared().sqrt(), want);
                for reach in [5.0, 30.0, 200.0] {
                    let within = rim.nearest_within(&p, reach).map(|(_, d)| d);
                    assert_eq!(within, (want <= reach).then_some(want), "{p:?} {reach}");
                }
            }
        }
    }

    #[test]
    fn a_rim_of_one_place_or_none_answers() {
        let rim = Rim::new(vec![P2::new(3.0, 4.0); 5]);
        assert_eq!(rim.nearest(&P2::new(0.0, 0.0)).1, 5.0);
        assert_eq!(rim.nearest_within(&P2::new(0.0, 0.0), 4.9), None);
        let empty = Rim::new(Vec::new());
        assert_eq!(empty.nearest(&P2::new(1.0, 1.0)).1, f64::INFINITY);
        let far = P2::new(-1e300, 1e300);
        assert_eq!(rim.nearest(&far).0, P2::new(3.0, 4.0));
        // A point of no place gets an answer, not a panic.
        let _ = rim.nearest(&P2::new(f64::NAN, 0.0));
    }
}
