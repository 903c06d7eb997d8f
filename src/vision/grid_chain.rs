//! Freeman & Garder's coarse-grid chain: the boundary laid on a square grid of `N`-pixel
//! spacing, each crossing of a grid line replaced by the grid node nearest to it ("curve
//! points"), successive curve points joined into a chain. The paper encodes pieces this way to
//! keep chains short; `--grid N` reproduces it from the fine pixel outline.

use super::trace::TraceError;
use crate::chain::{code_of_step, ChainCode};

/// The grid chain of a closed fine outline. The result is in grid units: node `(i, j)` is the
/// source pixel `(i·N, j·N)`. Clockwise, starting at the topmost-then-leftmost node.
pub fn grid_chain(fine: &ChainCode, spacing: u32) -> Result<ChainCode, TraceError> {
    if spacing == 0 {
        return Err(TraceError::BadGrid);
    }
    let n = spacing as f64;
    let mut points = fine.points();
    points.pop();
    let mut nodes: Vec<[i32; 2]> = Vec::new();
    let count = points.len();
    for i in 0..count {
        let p = points[i].map(f64::from);
        let q = points[(i + 1) % count].map(f64::from);
        let mut hits: Vec<(f64, [i32; 2])> = Vec::with_capacity(2);
        for axis in 0..2 {
            // Half-open rule: a point exactly on a line counts as past it, so every crossing
            // is found once whatever the direction of travel.
            let (a, b) = (p[axis] / n, q[axis] / n);
            let line = if a.floor() != b.floor() {
                Some(a.max(b).floor())
            } else {
                None
            };
            if let Some(line) = line {
                let c = line * n;
                let t = (c - p[axis]) / (q[axis] - p[axis]);
                let other = p[1 - axis] + t * (q[1 - axis] - p[1 - axis]);
                let mut node = [0i32; 2];
                node[axis] = line as i32;
                node[1 - axis] = (other / n).round() as i32;
                hits.push((t, node));
            }
        }
        hits.sort_by(|x, y| x.0.total_cmp(&y.0));
        for (_, node) in hits {
            push_node(&mut nodes, node);
        }
    }
    while nodes.len() > 1 && nodes.first() == nodes.last() {
        nodes.pop();
    }
    if nodes.is_empty() {
        let s = fine.start;
        let node = [
            (f64::from(s[0]) / n).round() as i32,
            (f64::from(s[1]) / n).round() as i32,
        ];
        return Ok(ChainCode::new(node, Vec::new()));
    }
    let first = (0..nodes.len())
        .min_by_key(|&i| (nodes[i][1], nodes[i][0]))
        .expect("non-empty");
    nodes.rotate_left(first);
    let mut closed = nodes.clone();
    closed.push(nodes[0]);
    let mut codes = Vec::with_capacity(closed.len());
    for w in closed.windows(2) {
        codes.extend(steps_between(w[0], w[1]));
    }
    Ok(ChainCode::new(nodes[0], codes))
}

/// Appends a curve point, skipping repeats, and filling any gap (a tie in rounding can skip a
/// node) so the chain stays 8-connected.
fn push_node(nodes: &mut Vec<[i32; 2]>, node: [i32; 2]) {
    if nodes.last() != Some(&node) {
        nodes.push(node);
    }
}

/// Unit steps from `a` to `b`: one code for 8-neighbours, a straight run of codes otherwise.
fn steps_between(a: [i32; 2], b: [i32; 2]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut p = a;
    while p != b {
        let dx = (b[0] - p[0]).signum();
        let dy = (b[1] - p[1]).signum();
        out.push(code_of_step(dx, dy).expect("a unit step"));
        p = [p[0] + dx, p[1] + dy];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::trace::trace_mask;
    use image::{GrayImage, Luma};

    fn disc(r: f64, c: f64, size: u32) -> GrayImage {
        GrayImage::from_fn(size, size, |x, y| {
            let d = ((x as f64 - c).powi(2) + (y as f64 - c).powi(2)).sqrt();
            Luma([if d <= r { 255 } else { 0 }])
        })
    }

    #[test]
    fn grid_of_one_pixel_is_a_closed_chain_near_the_outline() {
        let fine = trace_mask(&disc(20.0, 32.0, 64)).unwrap();
        let coarse = grid_chain(&fine, 1).unwrap();
        assert!(coarse.is_closed());
        let ratio = coarse.length() / fine.length();
        assert!((0.9..1.1).contains(&ratio), "ratio {ratio}");
    }

    #[test]
    fn coarse_grid_shortens_the_chain_and_stays_on_the_outline() {
        let fine = trace_mask(&disc(40.0, 50.0, 100)).unwrap();
        let coarse = grid_chain(&fine, 8).unwrap();
        assert!(coarse.is_closed());
        assert!(coarse.len() < fine.len() / 5);
        for p in coarse.points() {
            let (x, y) = (f64::from(p[0] * 8), f64::from(p[1] * 8));
            let r = ((x - 50.0).powi(2) + (y - 50.0).powi(2)).sqrt();
            assert!((r - 40.0).abs() <= 8.0, "node {p:?} at radius {r}");
        }
        // Clockwise on screen: positive shoelace area in y-down coordinates.
        let pts = coarse.points();
        let area: i32 = pts
            .windows(2)
            .map(|w| w[0][0] * w[1][1] - w[1][0] * w[0][1])
            .sum();
        assert!(area > 0);
    }

    #[test]
    fn zero_spacing_is_rejected() {
        let fine = ChainCode::from_digits([0, 0], "0642").unwrap();
        assert_eq!(grid_chain(&fine, 0), Err(TraceError::BadGrid));
    }
}
