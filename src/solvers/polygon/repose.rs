//! Re-posing pieces already placed when a later piece brings new contacts.
//!
//! [`super::refine`] poses a measured piece by its contacts with the region *when it is
//! placed*, and the pose is then frozen. A piece that touches the region only along short
//! stretches (a corner with an 11 px side and 20 px of a neighbour's side) has its rotation
//! set by short levers, and a few tenths of a pixel of noise there turn it by a degree or two,
//! several pixels at its far end. The piece that later lies along its long side then crosses
//! it and is refused, though it fits the truth. Here such a placing is solved jointly: the new
//! piece and every placed piece it touches are moved together (three unknowns each, a small
//! rotation about the piece's centroid and a translation) by linearised least squares over all
//! their contacts with each other, with the other placed pieces and with the target (the same
//! contacts as [`super::refine`]: a vertex near a vertex is pulled onto it, a vertex near a
//! side onto its line). Errors are then shared by every contact a piece has so far instead of
//! only those it had when placed.

use super::geometry::{dist2, dot, norm, segment_dist2, sub, Motion, Pt, Tol};

/// Gauss–Newton rounds (contacts are recomputed each round).
const ROUNDS: usize = 3;

/// `movable` (placed polygons) moved jointly to fit each other and `fixed`; contacts are
/// features within `reach`. `None` when no round made a step (no contacts, a singular system
/// or a step longer than `reach`, which is not a refinement).
pub fn repose(movable: &[Vec<Pt>], fixed: &[&[Pt]], reach: f64, tol: &Tol) -> Option<Vec<Vec<Pt>>> {
    let mut cur = movable.to_vec();
    let mut moved = false;
    for _ in 0..ROUNDS {
        let Some(steps) = solve_step(&cur, fixed, reach, tol) else {
            break;
        };
        for (poly, step) in cur.iter_mut().zip(&steps) {
            for q in poly.iter_mut() {
                *q = step.apply(*q);
            }
        }
        moved = true;
    }
    moved.then_some(cur)
}

/// One linearised residual: its derivatives by (piece, unknown 0..3) and its value.
struct Row {
    terms: Vec<(usize, [f64; 3])>,
    r: f64,
}

/// The derivatives of a point `p` of a piece with centre `o`, moved by the piece's motion,
/// projected on `n`: rotation (arc at p) and translation.
fn moving(n: Pt, p: Pt, o: Pt) -> [f64; 3] {
    let r = sub(p, o);
    [dot(n, [-r[1], r[0]]), n[0], n[1]]
}

fn neg(v: [f64; 3]) -> [f64; 3] {
    [-v[0], -v[1], -v[2]]
}

/// The feature of `polys` nearest to `q` within `reach`, skipping polygon `skip`: a vertex
/// (polygon, point) if any lies within reach, else a side (polygon, unit normal, foot point).
enum Feature {
    Vertex(usize, Pt),
    Side(usize, Pt, Pt),
}

fn nearest_feature(q: Pt, polys: &[&[Pt]], skip: usize, reach: f64) -> Option<Feature> {
    let r2 = reach * reach;
    let mut vertex: Option<(f64, usize, Pt)> = None;
    let mut side: Option<(f64, usize, Pt, Pt)> = None;
    for (k, poly) in polys.iter().enumerate() {
        if k == skip {
            continue;
        }
        let n = poly.len();
        for i in 0..n {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let d = dist2(q, a);
            if d <= r2 && vertex.is_none_or(|v| d < v.0) {
                vertex = Some((d, k, a));
            }
            if vertex.is_some() {
                continue;
            }
            let d = segment_dist2(q, a, b);
            if d > r2 || side.is_some_and(|s| s.0 <= d) {
                continue;
            }
            let e = sub(b, a);
            let l = norm(e);
            let along = if l > 0.0 { dot(sub(q, a), e) / l } else { 0.0 };
            if along <= 0.0 || along >= l {
                continue;
            }
            let u = [e[0] / l, e[1] / l];
            let foot = [a[0] + u[0] * along, a[1] + u[1] * along];
            side = Some((d, k, [-u[1], u[0]], foot));
        }
    }
    if let Some((_, k, p)) = vertex {
        return Some(Feature::Vertex(k, p));
    }
    side.map(|(_, k, nrm, foot)| Feature::Side(k, nrm, foot))
}

/// One Gauss–Newton step for every movable piece; `None` without contacts.
fn solve_step(movable: &[Vec<Pt>], fixed: &[&[Pt]], reach: f64, tol: &Tol) -> Option<Vec<Motion>> {
    let k = movable.len();
    let centre = |p: &[Pt]| {
        let s = p.iter().fold([0.0, 0.0], |a, q| [a[0] + q[0], a[1] + q[1]]);
        [s[0] / p.len() as f64, s[1] / p.len() as f64]
    };
    let centres: Vec<Pt> = movable.iter().map(|p| centre(p)).collect();
    // Movable pieces first, then the fixed outlines: indices below k move.
    let all: Vec<&[Pt]> = movable
        .iter()
        .map(Vec::as_slice)
        .chain(fixed.iter().copied())
        .collect();
    let mut rows: Vec<Row> = Vec::new();
    for i in 0..k {
        for &q in &movable[i] {
            match nearest_feature(q, &all, i, reach) {
                Some(Feature::Vertex(j, w)) => {
                    for (axis, n) in [[1.0, 0.0], [0.0, 1.0]].into_iter().enumerate() {
                        let mut terms = vec![(i, moving(n, q, centres[i]))];
                        if j < k {
                            terms.push((j, neg(moving(n, w, centres[j]))));
                        }
                        rows.push(Row {
                            terms,
                            r: q[axis] - w[axis],
                        });
                    }
                }
                Some(Feature::Side(j, n, foot)) => {
                    let mut terms = vec![(i, moving(n, q, centres[i]))];
                    if j < k {
                        terms.push((j, neg(moving(n, foot, centres[j]))));
                    }
                    rows.push(Row {
                        terms,
                        r: dot(n, sub(q, foot)),
                    });
                }
                None => {}
            }
        }
    }
    // Fixed corners on a movable piece's side (a fixed corner near one of its vertices is
    // already a vertex contact above).
    let only = &all[..k];
    for poly in fixed {
        for &v in poly.iter() {
            if let Some(Feature::Side(i, n, foot)) = nearest_feature(v, only, usize::MAX, reach) {
                rows.push(Row {
                    terms: vec![(i, neg(moving(n, foot, centres[i])))],
                    r: dot(n, sub(v, foot)),
                });
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    let dim = 3 * k;
    let mut h = vec![vec![0.0; dim]; dim];
    let mut g = vec![0.0; dim];
    for row in &rows {
        for &(p, jp) in &row.terms {
            for a in 0..3 {
                g[3 * p + a] += jp[a] * row.r;
                for &(q, jq) in &row.terms {
                    for b in 0..3 {
                        h[3 * p + a][3 * q + b] += jp[a] * jq[b];
                    }
                }
            }
        }
    }
    // Damping: a piece held by one contact stays put; rotation measured as arc length at the
    // piece's size.
    for (i, poly) in movable.iter().enumerate() {
        let size = poly
            .iter()
            .map(|&q| norm(sub(q, centres[i])))
            .fold(0.0, f64::max)
            .max(tol.eps);
        h[3 * i][3 * i] += 1e-3 * size * size;
        h[3 * i + 1][3 * i + 1] += 1e-3;
        h[3 * i + 2][3 * i + 2] += 1e-3;
    }
    let x = solve_dense(h, g.iter().map(|v| -v).collect())?;
    let mut out = Vec::with_capacity(k);
    for (i, poly) in movable.iter().enumerate() {
        let size = poly
            .iter()
            .map(|&q| norm(sub(q, centres[i])))
            .fold(0.0, f64::max);
        let (a, t) = (x[3 * i], [x[3 * i + 1], x[3 * i + 2]]);
        if a.abs() * size > reach || t[0].hypot(t[1]) > reach {
            return None;
        }
        out.push(Motion {
            a,
            o: centres[i],
            t,
        });
    }
    Some(out)
}

/// Solves `h x = g` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve_dense(mut h: Vec<Vec<f64>>, mut g: Vec<f64>) -> Option<Vec<f64>> {
    let n = g.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&a, &b| h[a][col].abs().total_cmp(&h[b][col].abs()))?;
        if h[piv][col].abs() < 1e-300 || !h[piv][col].is_finite() {
            return None;
        }
        h.swap(col, piv);
        g.swap(col, piv);
        let (top, rest) = h.split_at_mut(col + 1);
        let pivot = &top[col];
        for (k, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot[col];
            if f == 0.0 {
                continue;
            }
            for (x, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                *x -= f * p;
            }
            g[col + 1 + k] -= f * g[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| h[r][c] * x[c]).sum();
        x[r] = (g[r] - s) / h[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `poly` turned by `deg` degrees about `o`.
    fn turned(poly: &[Pt], deg: f64, o: Pt) -> Vec<Pt> {
        let m = Motion {
            a: deg.to_radians(),
            o,
            t: [0.0, 0.0],
        };
        poly.iter().map(|&q| m.apply(q)).collect()
    }

    #[test]
    fn a_piece_turned_on_short_levers_is_pulled_back_by_its_new_neighbour() {
        // A 200 × 100 hole; the left square was placed turned by 1.5° about its corner at the
        // origin (its far corner 3.7 px off), the right square lies where it belongs. Posed
        // jointly, the left one comes back onto the shared side and the hole's sides.
        let hole: Vec<Pt> = vec![[0.0, 0.0], [0.0, 100.0], [200.0, 100.0], [200.0, 0.0]];
        let left = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
        let right = vec![[100.0, 0.0], [200.0, 0.0], [200.0, 100.0], [100.0, 100.0]];
        let off = turned(&left, 1.5, [0.0, 0.0]);
        let tol = Tol::new(141.0, 0.0177);
        let got = repose(&[right.clone(), off], &[&hole], 2.0 * tol.eps, &tol).expect("moves");
        for (g, w) in got[1].iter().zip(&left) {
            assert!(dist2(*g, *w) < 0.01, "{:?}", got[1]);
        }
        for (g, w) in got[0].iter().zip(&right) {
            assert!(dist2(*g, *w) < 0.01, "{:?}", got[0]);
        }
    }

    #[test]
    fn pieces_without_contacts_are_not_moved() {
        let far = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]];
        let other: Vec<Pt> = vec![[50.0, 50.0], [51.0, 50.0], [51.0, 51.0]];
        let tol = Tol::new(10.0, 0.01);
        assert!(repose(&[far], &[&other], 0.2, &tol).is_none());
    }
}
