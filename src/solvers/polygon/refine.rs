//! Least-squares posing of a measured piece against the region it is placed in.
//!
//! PLACE puts vertex q_l exactly on p_j and lays one side along p_j p_(j+1) (turned by
//! [`super::place::corner_turn`] at most). For exact pieces that is the placing. For measured
//! pieces every vertex carries an error of some tenths of a pixel and every region vertex
//! built from earlier placings carries theirs: anchoring at one corner passes that corner's
//! error on to the next piece, and along a chain of placings the errors add up until a piece
//! no longer fits its hole within the tolerance. Here the piece is posed by all its contacts
//! at once: every piece vertex near a region vertex (pulled onto it), every piece vertex near
//! a region side and every region vertex near a piece side (pulled onto the line), solved
//! for a small rotation and translation by linearised least squares (Gauss–Newton, with a
//! little damping so that a piece touching at one corner stays put). Errors are then shared
//! between the contacts instead of carried forward.

use super::geometry::{dist2, dot, norm, segment_dist2, sub, Motion, Pt, Tol};

/// Gauss–Newton rounds (contacts are recomputed each round).
const ROUNDS: usize = 2;

/// `placed` (the piece as PLACE put it) moved to fit `region` by its contacts. Contacts are
/// features within `2·eps` of each other.
pub fn refine(region: &[Pt], placed: &[Pt], tol: &Tol) -> Vec<Pt> {
    let mut cur = placed.to_vec();
    for _ in 0..ROUNDS {
        let Some(step) = solve_step(region, &cur, tol) else {
            break;
        };
        cur = cur.iter().map(|&q| step.apply(q)).collect();
    }
    cur
}

/// One Gauss–Newton step over the current contacts; `None` without contacts.
fn solve_step(region: &[Pt], piece: &[Pt], tol: &Tol) -> Option<Motion> {
    let reach = 2.0 * tol.eps;
    let m = piece.len();
    let o = {
        let s = piece
            .iter()
            .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
        [s[0] / m as f64, s[1] / m as f64]
    };
    // Rows of J (d residual / d(a, tx, ty)) and residuals.
    let mut rows: Vec<([f64; 3], f64)> = Vec::new();
    let perp = |v: Pt| [-v[1], v[0]];
    for &q in piece {
        let r = sub(q, o);
        if let Some(&w) = region
            .iter()
            .filter(|&&w| dist2(q, w) <= reach * reach)
            .min_by(|a, b| dist2(q, **a).total_cmp(&dist2(q, **b)))
        {
            rows.push(([-r[1], 1.0, 0.0], q[0] - w[0]));
            rows.push(([r[0], 0.0, 1.0], q[1] - w[1]));
            continue;
        }
        if let Some((nrm, w)) = nearest_side(region, q, reach) {
            rows.push(([dot(nrm, perp(r)), nrm[0], nrm[1]], dot(nrm, sub(q, w))));
        }
    }
    for &v in region {
        if piece.iter().any(|&q| dist2(q, v) <= reach * reach) {
            continue;
        }
        if let Some((nrm, a)) = nearest_side(piece, v, reach) {
            // The side moves with the piece: the residual changes by minus the motion of the
            // side at v.
            let r = sub(v, o);
            rows.push(([-dot(nrm, perp(r)), -nrm[0], -nrm[1]], dot(nrm, sub(v, a))));
        }
    }
    if rows.is_empty() {
        return None;
    }
    // Normal equations with damping: rotation measured as arc length at the piece's size.
    let size = piece
        .iter()
        .map(|&q| norm(sub(q, o)))
        .fold(0.0, f64::max)
        .max(tol.eps);
    let mut h = [[0.0; 3]; 3];
    let mut g = [0.0; 3];
    for (j, r) in &rows {
        for a in 0..3 {
            g[a] += j[a] * r;
            for b in 0..3 {
                h[a][b] += j[a] * j[b];
            }
        }
    }
    let damp = 1e-3;
    h[0][0] += damp * size * size;
    h[1][1] += damp;
    h[2][2] += damp;
    let x = solve3(h, [-g[0], -g[1], -g[2]])?;
    // A step larger than the contact reach is not a refinement.
    if x[0].abs() * size > reach || x[1].hypot(x[2]) > reach {
        return None;
    }
    Some(Motion {
        a: x[0],
        o,
        t: [x[1], x[2]],
    })
}

/// The side of `poly` nearest to `p` within `reach` (by distance to the segment, its
/// interior only): its unit normal and a point on it.
fn nearest_side(poly: &[Pt], p: Pt, reach: f64) -> Option<(Pt, Pt)> {
    let n = poly.len();
    let mut best: Option<(f64, Pt, Pt)> = None;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let d = segment_dist2(p, a, b);
        if d > reach * reach || best.is_some_and(|x| x.0 <= d) {
            continue;
        }
        let e = sub(b, a);
        let l = norm(e);
        if l == 0.0 {
            continue;
        }
        let along = dot(sub(p, a), e) / l;
        if along <= 0.0 || along >= l {
            continue;
        }
        best = Some((d, [-e[1] / l, e[0] / l], a));
    }
    best.map(|b| (b.1, b.2))
}

/// Solves the 3×3 system `h x = g` (Cramer's rule); `None` when singular.
fn solve3(h: [[f64; 3]; 3], g: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(h);
    if d.abs() < 1e-300 || !d.is_finite() {
        return None;
    }
    let mut x = [0.0; 3];
    for (k, xk) in x.iter_mut().enumerate() {
        let mut m = h;
        for r in 0..3 {
            m[r][k] = g[r];
        }
        *xk = det(m) / d;
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_off_by_a_pixel_is_pulled_onto_its_hole() {
        // A 100 × 60 hole (clockwise) and the piece placed 0.8 px too far right and turned
        // by 0.5°.
        let hole = vec![[0.0, 0.0], [0.0, 60.0], [100.0, 60.0], [100.0, 0.0]];
        let piece = [[0.0, 0.0], [100.0, 0.0], [100.0, 60.0], [0.0, 60.0]];
        let step = Motion {
            a: 0.5f64.to_radians(),
            o: [50.0, 30.0],
            t: [0.8, 0.0],
        };
        let off: Vec<Pt> = piece.iter().map(|&q| step.apply(q)).collect();
        let tol = Tol::new(77.0, 0.03);
        let got = refine(&hole, &off, &tol);
        for (g, w) in got.iter().zip(&piece) {
            assert!(dist2(*g, *w) < 0.05 * 0.05, "{got:?}");
        }
    }
}
