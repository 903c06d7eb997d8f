//! The nearest rim point, asked some hundred thousand times per piece and region (every
//! iterative-closest-points step of a fit asks it of every outline point: over a billion
//! times in one solve of a hundred pieces with three missing). A rim is a few hundred points
//! along a curve, bucketed in square cells of about four points each. The first query in a
//! cell lists the points that can be nearest to anywhere in it (those no farther from the
//! cell than the least distance of any point to the cell's farthest corner), in the order a
//! search in rings of cells outwards from it would meet them; every later query there only
//! compares those few. Ring by ring, a query asked some nine cells and fifteen points, and
//! four in ten queries find nothing within their reach, which the list's nearest bound now
//! answers at once. The answer is exact, and among equally near points the same one the ring
//! search gives. A query off the grid searches the rings, and a point far from the rim the
//! k-d tree.

use super::super::geometry::{bounds, P2};
use kiddo::{ImmutableKdTree, SquaredEuclidean};
use std::sync::OnceLock;

/// Points per occupied cell aimed at (see [`Rim::new`]).
const POINTS_PER_CELL: f64 = 4.0;
/// Cell side bounds (px): a rim of a few points, or of points all in one place, still gets
/// cells of a sensible size.
const CELL_RANGE: (f64, f64) = (2.0, 64.0);
/// The cells of the lists of points that can be nearest (see [`Near`]) split the search's
/// cells this many times each way: a list then holds the few points about its cell, where a
/// search cell's held a dozen and more (a solve of a hundred pieces with three missing took
/// 124 s unsplit, 103 s split in 2, 84 s in 4, 106 s in 8). A power of two …
const SPLIT: i64 = 4;
/// … unless that makes more cells than this: a long rim unthinned (thousands of points) is
/// split less, or not at all.
const MAX_FINE_CELLS: i64 = 1 << 16;
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
    /// How many times each way the cells of the lists of points that can be nearest split
    /// the search's (see [`SPLIT`]).
    split: i64,
    /// Per cell of a grid `split` times finer, the points that can be nearest to a query in
    /// it (see [`Near`]), listed on the first query there.
    near: Vec<OnceLock<Near>>,
    tree: ImmutableKdTree<f64, 2>,
}

/// The points of the rim that can be nearest to some place in one cell, in the order the ring
/// search from that cell meets them, and a bound under the distance from anywhere in the cell
/// to any of them.
struct Near {
    points: Box<[u32]>,
    floor: f64,
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
        // Halved, so that a fine cell's search cell is its index halved exactly.
        let mut split = SPLIT;
        while split > 1 && columns * rows * split * split > MAX_FINE_CELLS {
            split /= 2;
        }
        Rim {
            tree,
            split,
            near: (0..columns * rows * split * split)
                .map(|_| OnceLock::new())
                .collect(),
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

    /// The index and squared distance of the nearest point; `None`, or a point farther than
    /// `reach`, where none lies within it. In a cell of the grid, from its list of points
    /// that can be nearest (see [`Near`]); elsewhere by [`Rim::search_rings`].
    fn search(&self, p: &P2, reach: f64) -> Option<(usize, f64)> {
        if self.points.is_empty() {
            return None;
        }
        let fine = self.cell / self.split as f64;
        let (fx, fy) = ((p.x - self.x0) / fine, (p.y - self.y0) / fine);
        let (columns, rows) = (self.columns * self.split, self.rows * self.split);
        let inside = |v: f64, n: i64| v >= 0.0 && v < n as f64;
        if !(inside(fx, columns) && inside(fy, rows)) {
            return self.search_rings(p, reach);
        }
        let (cx, cy) = (fx as i64, fy as i64);
        let near = self.near[(cy * columns + cx) as usize].get_or_init(|| self.list_near(cx, cy));
        if near.floor > reach {
            return None;
        }
        let mut best: Option<(usize, f64)> = None;
        self.compare(p, &near.points, &mut best);
        best
    }

    /// The points that can be nearest to some place in fine cell (`cx`, `cy`) (a search cell
    /// split `split` times each way). The point nearest the cell's centre lies within
    /// `d0 + h` of anywhere in it (`h` its half diagonal), so a point that can be nearer
    /// somewhere lies within `d0 + 2h` of the centre: of those, the ones no farther from the
    /// cell than the least of their farthest-corner distances. They are listed in the order
    /// the ring search from the cell meets them (ring, row, column, index), so that among
    /// equally near points the first is the one it gives.
    fn list_near(&self, cx: i64, cy: i64) -> Near {
        let fine = self.cell / self.split as f64;
        let (x0, y0) = (self.x0 + cx as f64 * fine, self.y0 + cy as f64 * fine);
        let (x1, y1) = (x0 + fine, y0 + fine);
        // The search cell the fine cell lies in, from which the ring search would start.
        let (cx, cy) = (cx / self.split, cy / self.split);
        let centre = P2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1));
        // Allowance for a query rounded into the cell from just outside it.
        let slack = 1e-6 * self.cell;
        let d0 = self
            .search_rings(&centre, f64::INFINITY)
            .map_or(0.0, |(_, d2)| d2.sqrt());
        let radius = d0 + std::f64::consts::SQRT_2 * fine + slack;
        let span = |v: f64, from: f64, n: i64| {
            let lo = floor((v - radius - from) / self.cell).clamp(0, n - 1);
            let hi = floor((v + radius - from) / self.cell).clamp(0, n - 1);
            lo..=hi
        };
        let distances = |q: &P2| {
            let dx = (x0 - q.x).max(q.x - x1).max(0.0);
            let dy = (y0 - q.y).max(q.y - y1).max(0.0);
            let fx = (q.x - x0).abs().max((q.x - x1).abs());
            let fy = (q.y - y0).abs().max((q.y - y1).abs());
            ((dx * dx + dy * dy).sqrt(), (fx * fx + fy * fy).sqrt())
        };
        let mut found: Vec<(i64, i64, i64, u32, f64)> = Vec::new();
        let mut bound = f64::INFINITY;
        for row in span(centre.y, self.y0, self.rows) {
            for column in span(centre.x, self.x0, self.columns) {
                let k = (row * self.columns + column) as usize;
                for &i in &self.order[self.starts[k] as usize..self.starts[k + 1] as usize] {
                    let q = &self.points[i as usize];
                    if (q - centre).norm() > radius {
                        continue;
                    }
                    let (near, far) = distances(q);
                    bound = bound.min(far);
                    let ring = (column - cx).abs().max((row - cy).abs());
                    found.push((ring, row, column, i, near));
                }
            }
        }
        found.retain(|f| f.4 <= bound + slack);
        found.sort_by_key(|f| (f.0, f.1, f.2, f.3));
        let floor = found.iter().map(|f| f.4).fold(f64::INFINITY, f64::min) - slack;
        Near {
            points: found.iter().map(|f| f.3).collect(),
            floor: floor.max(0.0),
        }
    }

    /// The index and squared distance of the nearest point, searching rings of cells round
    /// `p`'s cell until every point left lies farther than the best found or than `reach`.
    fn search_rings(&self, p: &P2, reach: f64) -> Option<(usize, f64)> {
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
        self.compare(
            p,
            &self.order[self.starts[k] as usize..self.starts[k + 1] as usize],
            best,
        );
    }

    /// `best` made the nearest of it and the points `indices` to `p`, the first where equal.
    fn compare(&self, p: &P2, indices: &[u32], best: &mut Option<(usize, f64)>) {
        for &i in indices {
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
    fn a_cells_list_gives_the_point_the_rings_give_among_equally_near_ones() {
        // Pixel points, queried on the half and whole pixels between them, where two or four
        // points are often equally near; and a rim doubled back on itself.
        let mut points: Vec<P2> = (0..200)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 200.0;
                P2::new((90.0 * a.cos()).round(), (60.0 * a.sin()).round())
            })
            .collect();
        points.extend((0..40).map(|k| P2::new(k as f64 - 20.0, 0.0)));
        let rim = Rim::new(points);
        let mut ties = 0;
        for i in 0..400 {
            for j in 0..280 {
                let p = P2::new(-100.0 + 0.5 * i as f64, -70.0 + 0.5 * j as f64);
                let listed = rim.search(&p, f64::INFINITY).unwrap();
                let ringed = rim.search_rings(&p, f64::INFINITY).unwrap();
                assert_eq!(listed.1, ringed.1, "{p:?}");
                if listed.1.sqrt() < 2.0 * rim.cell {
                    assert_eq!(listed.0, ringed.0, "{p:?}");
                    let d = listed.1;
                    ties += (rim
                        .points
                        .iter()
                        .filter(|q| (*q - p).norm_squared() == d)
                        .count()
                        > 1) as usize;
                }
            }
        }
        assert!(ties > 1000, "{ties}");
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
