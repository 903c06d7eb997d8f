//! Everything about "the same": a piece's distinct placings (its own symmetries and its
//! mirror image), classes of identical pieces, the target's symmetries, and the canonical key
//! that counts solutions as distinct up to both.

use super::geometry::{cross, dot, interior_angle_cw, sub, Pt, Tol};

/// One way to put a piece down: vertex q_l of one side of the piece (the piece itself or its
/// mirror image) in the anchor frame used by PLACE.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    /// q_l at the origin, q_(l−1) on +x, the others in counter-clockwise order from q_(l+1).
    pub local: Vec<Pt>,
    /// Interior angle at q_l (what ANGLE CHECK compares).
    pub angle: f64,
    /// Interior angles at q_(l−1) and q_(l+1), and the lengths of the sides q_l q_(l−1) and
    /// q_l q_(l+1): the SIDE CHECK that runs with ANGLE CHECK before PLACE.
    pub angle_prev: f64,
    pub angle_next: f64,
    pub side_prev: f64,
    pub side_next: f64,
    /// Lengths of the sides beyond those: q_(l−1) q_(l−2) and q_(l+1) q_(l+2). The angles at
    /// q_(l−1) and q_(l+1) are only as good as the directions of their shorter sides.
    pub beyond_prev: f64,
    pub beyond_next: f64,
    pub mirror: bool,
    /// For each local vertex, its index in the (cleaned, counter-clockwise) piece.
    pub order: Vec<usize>,
}

/// x ↦ −x: the mirror image used for flipped pieces.
pub fn mirror_pt(p: Pt) -> Pt {
    [-p[0], p[1]]
}

/// All anchors of a counter-clockwise piece, with the mirror image's when `flip` is allowed,
/// dropping duplicates: two anchors with the same local shape place the piece identically,
/// so a symmetric piece is tried only once per distinct position.
pub fn anchors(ccw: &[Pt], flip: bool, tol: &Tol) -> Vec<Anchor> {
    let n = ccw.len();
    let mut out: Vec<Anchor> = Vec::new();
    for mirror in [false, true] {
        if mirror && !flip {
            break;
        }
        // The mirror image reversed is counter-clockwise again; `idx` maps back.
        let idx: Vec<usize> = if mirror {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        };
        let pts: Vec<Pt> = idx
            .iter()
            .map(|&i| if mirror { mirror_pt(ccw[i]) } else { ccw[i] })
            .collect();
        for l in 0..n {
            let ql = pts[l];
            let prev = pts[(l + n - 1) % n];
            let d = sub(prev, ql);
            let len = d[0].hypot(d[1]);
            let (c, s) = (d[0] / len, d[1] / len);
            let mut local = Vec::with_capacity(n);
            let mut order = Vec::with_capacity(n);
            for k in 0..n {
                let v = sub(pts[(l + k) % n], ql);
                // Rotate by −atan2(s, c): the side q_l→q_(l−1) lands on +x.
                local.push([v[0] * c + v[1] * s, -v[0] * s + v[1] * c]);
                order.push(idx[(l + k) % n]);
            }
            local[0] = [0.0, 0.0];
            local[n - 1] = [len, 0.0];
            // The interior of a counter-clockwise piece is on the left of q_l→q_(l+1); its
            // interior angle is the clockwise interior angle of the reversed walk.
            let angle_at =
                |k: usize| interior_angle_cw(pts[(k + 1) % n], pts[k], pts[(k + n - 1) % n]);
            let side_next = local[1][0].hypot(local[1][1]);
            let beyond_prev = super::geometry::dist(local[n - 1], local[n - 2]);
            let beyond_next = super::geometry::dist(local[1], local[2 % n]);
            let a = Anchor {
                local,
                angle: angle_at(l),
                angle_prev: angle_at((l + n - 1) % n),
                angle_next: angle_at((l + 1) % n),
                side_prev: len,
                side_next,
                beyond_prev,
                beyond_next,
                mirror,
                order,
            };
            if !out.iter().any(|b| same_shape(&a.local, &b.local, tol)) {
                out.push(a);
            }
        }
    }
    out
}

/// Same vertex lists up to the tolerance.
pub fn same_shape(a: &[Pt], b: &[Pt], tol: &Tol) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| tol.same(*p, *q))
}

/// Groups pieces into classes of congruent pieces (mirror images count as congruent when
/// flipping is allowed). Returns, per class, the member indices in increasing order.
pub fn identical_classes(all_anchors: &[Vec<Anchor>], tol: &Tol) -> Vec<Vec<usize>> {
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for (i, an) in all_anchors.iter().enumerate() {
        let found = classes.iter_mut().find(|c| {
            let rep = &all_anchors[c[0]];
            rep.len() == an.len() && rep.iter().any(|a| same_shape(&a.local, &an[0].local, tol))
        });
        match found {
            Some(c) => c.push(i),
            None => classes.push(vec![i]),
        }
    }
    classes
}

/// A rigid motion x ↦ m·x + t (a rotation, or a reflection when det m = −1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Iso {
    pub m: [[f64; 2]; 2],
    pub t: Pt,
}

impl Iso {
    pub fn apply(&self, p: Pt) -> Pt {
        [
            self.m[0][0] * p[0] + self.m[0][1] * p[1] + self.t[0],
            self.m[1][0] * p[0] + self.m[1][1] * p[1] + self.t[1],
        ]
    }
}

/// The symmetries of the target (the identity first): rigid motions mapping its vertex set
/// onto itself, found by sending the first side onto every side of the same length.
pub fn target_symmetries(target: &[Vec<Pt>], tol: &Tol) -> Vec<Iso> {
    let all: Vec<Pt> = target.iter().flatten().copied().collect();
    let (mut cx, mut cy, mut aw) = (0.0, 0.0, 0.0);
    for poly in target {
        let n = poly.len();
        for i in 0..n {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            let c = cross(p, q);
            cx += (p[0] + q[0]) * c;
            cy += (p[1] + q[1]) * c;
            aw += 3.0 * c;
        }
    }
    let centre = [cx / aw, cy / aw];
    let d0 = sub(target[0][1], target[0][0]);
    let l0 = d0[0].hypot(d0[1]);
    let mut out: Vec<Iso> = Vec::new();
    for poly in target {
        let n = poly.len();
        for i in 0..n {
            let e = sub(poly[(i + 1) % n], poly[i]);
            if (e[0].hypot(e[1]) - l0).abs() > tol.eps {
                continue;
            }
            for reflect in [false, true] {
                for dir in [e, [-e[0], -e[1]]] {
                    let src = if reflect { [d0[0], -d0[1]] } else { d0 };
                    let (c, s) = (dot(src, dir) / (l0 * l0), cross(src, dir) / (l0 * l0));
                    let r = [[c, -s], [s, c]];
                    let m = if reflect {
                        [[r[0][0], -r[0][1]], [r[1][0], -r[1][1]]]
                    } else {
                        r
                    };
                    let mc = [
                        m[0][0] * centre[0] + m[0][1] * centre[1],
                        m[1][0] * centre[0] + m[1][1] * centre[1],
                    ];
                    let iso = Iso {
                        m,
                        t: sub(centre, mc),
                    };
                    let maps = all
                        .iter()
                        .all(|&p| all.iter().any(|&q| tol.same(iso.apply(p), q)));
                    let new = !out.iter().any(|o| {
                        o.m.iter()
                            .flatten()
                            .zip(iso.m.iter().flatten())
                            .all(|(a, b)| (a - b).abs() < 1e-6)
                    });
                    if maps && new {
                        out.push(iso);
                    }
                }
            }
        }
    }
    // Identity first.
    if let Some(k) = out
        .iter()
        .position(|o| (o.m[0][0] - 1.0).abs() < 1e-6 && (o.m[1][1] - 1.0).abs() < 1e-6)
    {
        out.swap(0, k);
    }
    out
}

/// The key of a solution as a set of (piece class, placed vertex set): equal keys are the
/// same picture, whatever the order of placing or which of two identical pieces went where.
pub fn arrangement_key(placed: &[(usize, Vec<Pt>)], iso: &Iso, tol: &Tol) -> Vec<i64> {
    let mut pieces: Vec<Vec<i64>> = placed
        .iter()
        .map(|(class, pts)| {
            let mut v: Vec<(i64, i64)> = pts
                .iter()
                .map(|&p| {
                    let q = iso.apply(p);
                    (tol.q(q[0]), tol.q(q[1]))
                })
                .collect();
            v.sort_unstable();
            let mut k = vec![*class as i64, v.len() as i64];
            k.extend(v.into_iter().flat_map(|(x, y)| [x, y]));
            k
        })
        .collect();
    pieces.sort_unstable();
    pieces.concat()
}

/// The smallest key over the target's symmetries: one representative per orbit.
pub fn canonical_key(placed: &[(usize, Vec<Pt>)], syms: &[Iso], tol: &Tol) -> Vec<i64> {
    syms.iter()
        .map(|g| arrangement_key(placed, g, tol))
        .min()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol() -> Tol {
        Tol::new(1.0, 1e-9)
    }

    #[test]
    fn a_square_has_one_anchor_and_eight_symmetries() {
        let sq = vec![[0., 0.], [1., 0.], [1., 1.], [0., 1.]];
        assert_eq!(anchors(&sq, true, &tol()).len(), 1);
        assert_eq!(target_symmetries(&[sq], &tol()).len(), 8);
    }

    #[test]
    fn a_scalene_triangle_has_six_anchors_with_flips_and_three_without() {
        let t = vec![[0., 0.], [3., 0.], [1., 2.]];
        assert_eq!(anchors(&t, true, &tol()).len(), 6);
        assert_eq!(anchors(&t, false, &tol()).len(), 3);
    }

    #[test]
    fn a_parallelogram_is_congruent_to_its_mirror_only_when_flipping() {
        let p = vec![[0., 0.], [2., 0.], [3., 1.], [1., 1.]];
        let m: Vec<Pt> = p.iter().rev().map(|&q| mirror_pt(q)).collect();
        let fl = [anchors(&p, true, &tol()), anchors(&m, true, &tol())];
        assert_eq!(identical_classes(&fl, &tol()).len(), 1);
        let nf = [anchors(&p, false, &tol()), anchors(&m, false, &tol())];
        assert_eq!(identical_classes(&nf, &tol()).len(), 2);
    }

    #[test]
    fn a_rectangle_has_four_symmetries() {
        let r = vec![[0., 0.], [2., 0.], [2., 1.], [0., 1.]];
        assert_eq!(target_symmetries(&[r], &tol()).len(), 4);
    }
}
