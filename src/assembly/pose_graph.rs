//! Joint least-squares refinement of many rigid poses from point pairs between pieces: every
//! piece's pose moved at once so that each pair's two points coincide as nearly as possible,
//! one piece held still. Piece-by-piece relaxation (Gauss–Seidel) needs on the order of n²
//! sweeps to straighten a drift across n pieces, which on a 1000-piece puzzle is thousands
//! of sweeps; solving the linearised problem for all poses at once (Gauss–Newton, the normal
//! equations solved by conjugate gradients with a block-Jacobi preconditioner) takes a few
//! steps, each linear in the number of pairs.

use super::geometry::{Pose, P2};
use nalgebra::{Matrix3, Vector2, Vector3};

/// Pairs between piece `from` and piece `to`: `pairs[k].0` (in `from`'s frame) should lie on
/// `pairs[k].1` (in `to`'s frame), each pair weighted by `weight`.
pub struct PairSet {
    pub from: usize,
    pub to: usize,
    pub pairs: Vec<(P2, P2)>,
    pub weight: f64,
}

/// How many Gauss–Newton steps (each re-linearised at the poses the last gave).
const STEPS: usize = 3;
/// Conjugate-gradient iterations per step at most, and the relative residual it stops at.
const CG_ITERATIONS: usize = 2000;
const CG_TOLERANCE: f64 = 1e-10;
/// Damping added to every piece's block, relative to its own stiffness: a piece with no
/// pairs (or held along one straight seam only) stays where it is instead of making the
/// system singular.
const DAMPING: f64 = 1e-6;

/// Moves the poses of `pieces` (indices into `poses`; `fixed` stays) to the least-squares
/// fit of every pair set between them. Pair sets naming a piece not in `pieces` hold the
/// other piece to it as it lies. `scale` is the typical piece size (it balances rotation
/// against translation in the solve). Returns the largest distance a piece's `centroid`
/// moved.
pub fn refine(
    poses: &mut [Pose],
    centroids: &[P2],
    pieces: &[usize],
    fixed: usize,
    sets: &[PairSet],
    scale: f64,
) -> f64 {
    let mut index = vec![usize::MAX; poses.len()];
    let mut order = Vec::new();
    for &p in pieces {
        if p != fixed && index[p] == usize::MAX {
            index[p] = order.len();
            order.push(p);
        }
    }
    if order.is_empty() {
        return 0.0;
    }
    let start: Vec<P2> = order.iter().map(|&p| poses[p] * centroids[p]).collect();
    for _ in 0..STEPS {
        let system = normal_equations(poses, centroids, &index, order.len(), sets, scale);
        let step = system.solve();
        for (k, &p) in order.iter().enumerate() {
            let d = step[k];
            let c = poses[p] * centroids[p];
            let turn = Pose::rotation(d[2] / scale);
            let shift = Vector2::new(d[0], d[1]);
            // Turn about the piece's placed centroid, then shift.
            poses[p] = Pose::translation(c.x + shift.x, c.y + shift.y)
                * turn
                * Pose::translation(-c.x, -c.y)
                * poses[p];
        }
    }
    order
        .iter()
        .zip(&start)
        .map(|(&p, s)| (poses[p] * centroids[p] - s).norm())
        .fold(0.0, f64::max)
}

/// The block-sparse normal equations H δ = −g of the linearised problem, one 3-vector
/// (dx, dy, scale · dθ) per moving piece.
struct System {
    diagonal: Vec<Matrix3<f64>>,
    /// (i, j, H_ij) for i ≠ j; H_ji is its transpose.
    off: Vec<(usize, usize, Matrix3<f64>)>,
    rhs: Vec<Vector3<f64>>,
}

fn normal_equations(
    poses: &[Pose],
    centroids: &[P2],
    index: &[usize],
    n: usize,
    sets: &[PairSet],
    scale: f64,
) -> System {
    let mut s = System {
        diagonal: vec![Matrix3::zeros(); n],
        off: Vec::new(),
        rhs: vec![Vector3::zeros(); n],
    };
    // The Jacobian of a placed point w of piece p with respect to (dx, dy, scale · dθ).
    let jacobian = |p: usize, w: &P2| {
        let c = poses[p] * centroids[p];
        nalgebra::Matrix2x3::new(
            1.0,
            0.0,
            -(w.y - c.y) / scale,
            0.0,
            1.0,
            (w.x - c.x) / scale,
        )
    };
    for set in sets {
        let (i, j) = (index[set.from], index[set.to]);
        if i == usize::MAX && j == usize::MAX {
            continue;
        }
        let mut hii = Matrix3::zeros();
        let mut hjj = Matrix3::zeros();
        let mut hij = Matrix3::zeros();
        let mut gi = Vector3::zeros();
        let mut gj = Vector3::zeros();
        for (a, b) in &set.pairs {
            let wa = poses[set.from] * a;
            let wb = poses[set.to] * b;
            let e = (wa - wb) * set.weight.sqrt();
            let ja = jacobian(set.from, &wa) * set.weight.sqrt();
            let jb = -jacobian(set.to, &wb) * set.weight.sqrt();
            hii += ja.transpose() * ja;
            hjj += jb.transpose() * jb;
            hij += ja.transpose() * jb;
            gi += ja.transpose() * e;
            gj += jb.transpose() * e;
        }
        if i != usize::MAX {
            s.diagonal[i] += hii;
            s.rhs[i] -= gi;
        }
        if j != usize::MAX {
            s.diagonal[j] += hjj;
            s.rhs[j] -= gj;
        }
        if i != usize::MAX && j != usize::MAX {
            s.off.push((i, j, hij));
        }
    }
    for d in &mut s.diagonal {
        let damping = DAMPING * d.trace().max(1.0);
        *d += Matrix3::identity() * damping;
    }
    s
}

impl System {
    fn multiply(&self, x: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
        let mut y: Vec<Vector3<f64>> = self.diagonal.iter().zip(x).map(|(d, v)| d * v).collect();
        for (i, j, h) in &self.off {
            y[*i] += h * x[*j];
            y[*j] += h.transpose() * x[*i];
        }
        y
    }

    /// Preconditioned conjugate gradients (block Jacobi: each piece's own 3 × 3 block).
    fn solve(&self) -> Vec<Vector3<f64>> {
        let n = self.rhs.len();
        let inverses: Vec<Matrix3<f64>> = self
            .diagonal
            .iter()
            .map(|d| d.try_inverse().unwrap_or_else(Matrix3::zeros))
            .collect();
        let dot = |a: &[Vector3<f64>], b: &[Vector3<f64>]| -> f64 {
            a.iter().zip(b).map(|(x, y)| x.dot(y)).sum()
        };
        let mut x = vec![Vector3::zeros(); n];
        let mut r = self.rhs.clone();
        let mut z: Vec<Vector3<f64>> = inverses.iter().zip(&r).map(|(m, v)| m * v).collect();
        let mut p = z.clone();
        let mut rz = dot(&r, &z);
        let target = CG_TOLERANCE * dot(&r, &r).max(f64::MIN_POSITIVE);
        for _ in 0..CG_ITERATIONS {
            if dot(&r, &r) <= target {
                break;
            }
            let q = self.multiply(&p);
            let pq = dot(&p, &q);
            if pq <= 0.0 {
                break;
            }
            let alpha = rz / pq;
            for k in 0..n {
                x[k] += p[k] * alpha;
                r[k] -= q[k] * alpha;
            }
            z = inverses.iter().zip(&r).map(|(m, v)| m * v).collect();
            let rz_next = dot(&r, &z);
            let beta = rz_next / rz;
            rz = rz_next;
            for k in 0..n {
                p[k] = z[k] + p[k] * beta;
            }
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of unit squares, each joined to the next along their shared side, with every
    /// piece but the first knocked off its place: the refinement puts them all back.
    #[test]
    fn a_row_of_pieces_knocked_off_their_places_comes_back_into_line() {
        let n = 12;
        let size = 10.0;
        let centroids: Vec<P2> = (0..n).map(|_| P2::new(5.0, 5.0)).collect();
        let truth: Vec<Pose> = (0..n)
            .map(|k| Pose::translation(k as f64 * size, 0.0))
            .collect();
        let mut poses: Vec<Pose> = truth
            .iter()
            .enumerate()
            .map(|(k, t)| {
                if k == 0 {
                    *t
                } else {
                    let wobble = (k as f64 * 1.7).sin();
                    Pose::new(
                        Vector2::new(0.8 * wobble, 1.5 * wobble.cos()),
                        0.03 * wobble,
                    ) * t
                }
            })
            .collect();
        // Piece k's right side (x = 10) lies on piece k + 1's left side (x = 0).
        let sets: Vec<PairSet> = (0..n - 1)
            .map(|k| PairSet {
                from: k,
                to: k + 1,
                pairs: (0..=10)
                    .map(|y| (P2::new(10.0, y as f64), P2::new(0.0, y as f64)))
                    .collect(),
                weight: 1.0,
            })
            .collect();
        let pieces: Vec<usize> = (0..n).collect();
        refine(&mut poses, &centroids, &pieces, 0, &sets, size);
        for (p, t) in poses.iter().zip(&truth) {
            let c = P2::new(5.0, 5.0);
            assert!((p * c - t * c).norm() < 1e-3, "{} against {}", p * c, t * c);
        }
    }
}
