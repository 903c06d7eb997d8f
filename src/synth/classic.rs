//! Classic grid puzzles: a rows × cols grid of slightly irregular cells, straight border, one
//! knob on every interior cut pointing into one of its two pieces at random.

use super::curves::{cut, Knob};
use super::network::{Network, Tiling, TilingError};
use super::random::Random;

/// Rows and columns for about `n` pieces: the product nearest `n`, then the squarest, never
/// more elongated than 1.8 : 1 (so 12 → 3 × 4, 1000 → 25 × 40, 100 → 10 × 10).
pub fn grid_shape(n: usize) -> (usize, usize) {
    let mut best = (1, n.max(1));
    let mut key = (usize::MAX, usize::MAX);
    for rows in 1..=n.max(1) {
        let ideal = n as f64 / rows as f64;
        for cols in [ideal.floor() as usize, ideal.ceil() as usize] {
            if cols < rows || cols == 0 || cols as f64 > 1.8 * rows as f64 {
                continue;
            }
            let k = (rows * cols).abs_diff(n);
            let cand = (k, cols - rows);
            if cand < key {
                key = cand;
                best = (rows, cols);
            }
        }
    }
    best
}

/// The cut network of a classic puzzle with piece size `size` pixels.
pub fn build(rows: usize, cols: usize, size: f64, seed: u64) -> Result<Network, TilingError> {
    let mut rng = Random::new(seed, 10);
    let jitter = 0.05 * size;
    let mut vertices = Vec::with_capacity((rows + 1) * (cols + 1));
    for i in 0..=rows {
        for j in 0..=cols {
            let (inner_x, inner_y) = (j > 0 && j < cols, i > 0 && i < rows);
            let dx = if inner_x {
                rng.uniform(-jitter, jitter)
            } else {
                0.0
            };
            let dy = if inner_y {
                rng.uniform(-jitter, jitter)
            } else {
                0.0
            };
            vertices.push([j as f64 * size + dx, i as f64 * size + dy]);
        }
    }
    let v = |i: usize, j: usize| i * (cols + 1) + j;
    let faces = (0..rows)
        .flat_map(|i| {
            (0..cols).map(move |j| vec![v(i, j), v(i, j + 1), v(i + 1, j + 1), v(i + 1, j)])
        })
        .collect();
    let mut network = Tiling { vertices, faces }.network()?;
    for e in &mut network.edges {
        if e.right.is_none() {
            continue;
        }
        let (a, b) = (network.vertices[e.a], network.vertices[e.b]);
        let len = super::geometry::dist(a, b);
        let knob = Knob::random(&mut rng, len);
        let wave = [
            rng.uniform(-0.02, 0.02) * len,
            rng.uniform(-0.02, 0.02) * len,
        ];
        e.points = cut(a, b, Some(knob), wave);
    }
    Ok(network)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_shapes_are_near_square() {
        assert_eq!(grid_shape(12), (3, 4));
        assert_eq!(grid_shape(100), (10, 10));
        assert_eq!(grid_shape(1000), (25, 40));
        assert_eq!(grid_shape(30), (5, 6));
        assert_eq!(grid_shape(1), (1, 1));
        let (r, c) = grid_shape(7);
        assert!(r * c >= 6 && r * c <= 8);
    }

    #[test]
    fn every_interior_cut_has_a_knob_and_the_border_is_straight() {
        let n = build(3, 4, 80.0, 5).unwrap();
        for e in &n.edges {
            if e.right.is_none() {
                assert_eq!(e.points.len(), 2);
            } else {
                assert!(e.points.len() > 20);
            }
        }
        assert_eq!(n.junctions().iter().filter(|j| !j.exterior).count(), 6);
        assert!(n
            .junctions()
            .iter()
            .all(|j| j.faces.len() + usize::from(j.exterior) >= 3));
    }
}
