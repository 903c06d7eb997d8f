//! Which input piece, turned which way, lies at each placing of a solution: chosen by best
//! fit, not first fit.
//!
//! The search works with classes of pieces congruent within the tolerance and with each
//! piece's placings deduplicated within it, so a piece whose mirror image is the same shape
//! within the tolerance is placed once, in whichever chirality comes first, and copies of a
//! class are interchangeable. For exact puzzles that is all the same. For measured pieces the
//! tolerance is a few pixels and two chiralities (or two near-identical pieces) differ by a
//! pixel or two: the picture is then right only if the variant that fits its neighbours best
//! is chosen. Every variant of every member is posed by least squares onto the placed
//! polygon, and scored by how far its vertices are from the vertices around it (the other
//! placed pieces and the target); the members of a class are then assigned to its placings
//! by the lowest total score. Ties (exact puzzles) keep the search's own choice.

use super::geometry::{add, cross, dist, dot, sub, Pt, Tol};
use super::symmetry::{anchors, mirror_pt, Anchor};

/// A rigid motion `q ↦ R(θ)·q + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    pub theta: f64,
    pub t: Pt,
}

impl Pose {
    pub fn apply(&self, q: Pt) -> Pt {
        let (s, c) = self.theta.sin_cos();
        add([c * q[0] - s * q[1], s * q[0] + c * q[1]], self.t)
    }
}

/// The rotation and translation taking `from` onto `to` (same length, corresponding points)
/// with the least sum of squared distances (2-D Procrustes without reflection).
pub fn fit_pose(from: &[Pt], to: &[Pt]) -> Pose {
    let n = from.len().min(to.len()).max(1) as f64;
    let mean = |v: &[Pt]| {
        let s = v.iter().fold([0.0, 0.0], |a, p| add(a, *p));
        [s[0] / n, s[1] / n]
    };
    let (ca, cb) = (mean(from), mean(to));
    let (mut sc, mut sd) = (0.0, 0.0);
    for (a, b) in from.iter().zip(to) {
        let (u, v) = (sub(*a, ca), sub(*b, cb));
        sc += cross(u, v);
        sd += dot(u, v);
    }
    let theta = sc.atan2(sd);
    let rot = Pose {
        theta,
        t: [0.0, 0.0],
    };
    Pose {
        theta,
        t: sub(cb, rot.apply(ca)),
    }
}

/// Rounds of re-choosing every placing against its neighbours' refined positions.
const ROUNDS: usize = 3;

/// One way to lay a member piece on a placing.
#[derive(Debug, Clone)]
pub struct Variant {
    pub mirror: bool,
    pub pose: Pose,
    /// Sum over its vertices of the distance to the nearest surrounding vertex (capped).
    pub cost: f64,
    /// The variant's vertices (in its anchor order) where the pose puts them.
    pub vertices: Vec<Pt>,
}

/// A placed polygon of the solution, the piece class it came from and the local shape the
/// search used.
#[derive(Clone, Copy)]
pub struct Placed<'a> {
    pub class: usize,
    pub local: &'a [Pt],
    pub vertices: &'a [Pt],
}

/// For each placing, the member of its class and the variant to use. `members[c]` are the
/// input indices of class `c` in the search's order, `pieces[i]` the cleaned
/// counter-clockwise polygons, `fixed` the target's vertices.
pub fn assign(
    placed: &[Placed<'_>],
    members: &[Vec<usize>],
    pieces: &[Vec<Pt>],
    flip: bool,
    fixed: &[Pt],
    tol: &Tol,
) -> Vec<(usize, Variant)> {
    let fine = Tol {
        eps: tol.eps * 1e-3,
        ..*tol
    };
    let variants: Vec<Vec<Anchor>> = pieces.iter().map(|p| anchors(p, flip, &fine)).collect();
    let mut out: Vec<Option<(usize, Variant)>> = vec![None; placed.len()];
    // Where each placing's piece is now: the search's polygon at first, then the chosen
    // variant's. Re-choosing against the neighbours' refined positions spreads the search's
    // accumulated error instead of scoring against it.
    let mut current: Vec<Vec<Pt>> = placed.iter().map(|p| p.vertices.to_vec()).collect();
    for _round in 0..ROUNDS {
        for (c, mem) in members.iter().enumerate() {
            let steps: Vec<usize> = (0..placed.len())
                .filter(|&i| placed[i].class == c)
                .collect();
            if steps.is_empty() {
                continue;
            }
            // best[k][m]: the best variant of member m on step k.
            let best: Vec<Vec<Option<Variant>>> = steps
                .iter()
                .map(|&i| {
                    let others: Vec<Pt> = current
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .flat_map(|(_, p)| p.iter().copied())
                        .chain(fixed.iter().copied())
                        .collect();
                    mem.iter()
                        .map(|&m| {
                            let at = Placed {
                                vertices: &current[i],
                                ..placed[i]
                            };
                            best_variant(&at, &variants[m], &pieces[m], &others, tol)
                        })
                        .collect()
                })
                .collect();
            let cost = |pick: &[usize]| -> f64 {
                pick.iter()
                    .enumerate()
                    .map(|(k, &m)| best[k][m].as_ref().map_or(f64::INFINITY, |v| v.cost))
                    .sum()
            };
            // The search's own choice: copies handed out in order, the first matching variant.
            let mut pick: Vec<usize> = (0..steps.len()).collect();
            let mut low = cost(&pick);
            if mem.len() <= 6 {
                permutations(mem.len(), steps.len(), &mut |p| {
                    let c = cost(p);
                    if c < low - tol.eps * 1e-3 {
                        low = c;
                        pick = p.to_vec();
                    }
                });
            }
            for (k, &i) in steps.iter().enumerate() {
                if let Some(v) = &best[k][pick[k]] {
                    current[i] = v.vertices.clone();
                    out[i] = Some((mem[pick[k]], v.clone()));
                }
            }
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(i, o)| {
            o.unwrap_or_else(|| {
                // No variant of any member matches (cannot happen for a class of congruent
                // pieces): the first member, posed as it is.
                let m = members[placed[i].class][0];
                let pose = fit_pose(&pieces[m], placed[i].vertices);
                let v = Variant {
                    mirror: false,
                    pose,
                    cost: f64::INFINITY,
                    vertices: placed[i].vertices.to_vec(),
                };
                (m, v)
            })
        })
        .collect()
}

/// The member's variant (chirality and starting vertex) that fits the placing best; among
/// equal fits (within the tolerance) the first, which is the search's own.
fn best_variant(
    placed: &Placed<'_>,
    variants: &[Anchor],
    piece: &[Pt],
    others: &[Pt],
    tol: &Tol,
) -> Option<Variant> {
    let tie = tol.eps * 1e-3;
    let mut best: Option<Variant> = None;
    for a in variants {
        if a.local.len() != placed.local.len() {
            continue;
        }
        let from: Vec<Pt> = a
            .order
            .iter()
            .map(|&k| {
                if a.mirror {
                    mirror_pt(piece[k])
                } else {
                    piece[k]
                }
            })
            .collect();
        let mut pose = fit_pose(&from, placed.vertices);
        // Only variants that lie where the search put the piece, within the tolerance: both
        // chiralities of a piece that passed ρ either way, not a piece turned around.
        let off = from
            .iter()
            .zip(placed.vertices)
            .map(|(&q, &v)| dist(pose.apply(q), v))
            .fold(0.0, f64::max);
        if off > 2.0 * tol.eps {
            continue;
        }
        // Two rounds of closest points: pose the variant onto the surrounding corners it
        // meets, so that the score does not favour the shape the search happened to place.
        for _ in 0..2 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for &q in &from {
                let v = pose.apply(q);
                if let Some(w) = nearest(v, others).filter(|w| dist(v, *w) <= 3.0 * tol.eps) {
                    a.push(q);
                    b.push(w);
                }
            }
            if a.len() < 2 {
                break;
            }
            pose = fit_pose(&a, &b);
        }
        let cost: f64 = from
            .iter()
            .map(|&q| {
                let v = pose.apply(q);
                nearest(v, others).map_or(3.0 * tol.eps, |w| dist(v, w).min(3.0 * tol.eps))
            })
            .sum();
        if best.as_ref().is_none_or(|b| cost < b.cost - tie) {
            best = Some(Variant {
                mirror: a.mirror,
                pose,
                cost,
                vertices: from.iter().map(|&q| pose.apply(q)).collect(),
            });
        }
    }
    best
}

fn nearest(v: Pt, among: &[Pt]) -> Option<Pt> {
    among
        .iter()
        .copied()
        .min_by(|a, b| dist(v, *a).total_cmp(&dist(v, *b)))
}

/// Calls `f` with every injective map from `k` slots to `n` members (as a slice of member
/// indices), in lexicographic order.
fn permutations(n: usize, k: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(
        n: usize,
        k: usize,
        cur: &mut Vec<usize>,
        used: &mut [bool],
        f: &mut dyn FnMut(&[usize]),
    ) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for m in 0..n {
            if !used[m] {
                used[m] = true;
                cur.push(m);
                go(n, k, cur, used, f);
                cur.pop();
                used[m] = false;
            }
        }
    }
    if k <= n {
        go(n, k, &mut Vec::with_capacity(k), &mut vec![false; n], f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pose_is_recovered_from_corresponding_points() {
        let from = [[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]];
        let want = Pose {
            theta: 0.7,
            t: [5.0, -2.0],
        };
        let to: Vec<Pt> = from.iter().map(|&q| want.apply(q)).collect();
        let got = fit_pose(&from, &to);
        assert!((got.theta - 0.7).abs() < 1e-12 && dist(got.t, want.t) < 1e-12);
    }

    #[test]
    fn a_near_symmetric_piece_is_turned_the_way_its_neighbours_say() {
        // A kite almost symmetric about the x axis (the tip is 0.3 off it), so that its mirror
        // image is the same shape within the tolerance. The search placed it face up; the
        // corners around it are those of the kite reflected about its axis.
        let kite = vec![[0.0, 0.0], [6.0, -2.0], [10.0, 0.3], [6.0, 2.0]];
        let tol = Tol::new(10.0, 0.1);
        let pose = Pose {
            theta: 0.3,
            t: [20.0, 10.0],
        };
        let local = anchors(&kite, true, &tol)[0].local.clone();
        let placed_pts: Vec<Pt> = kite.iter().map(|&q| pose.apply(q)).collect();
        let around: Vec<Pt> = kite.iter().map(|&q| pose.apply([q[0], -q[1]])).collect();
        let placed = [Placed {
            class: 0,
            local: &local,
            vertices: &placed_pts,
        }];
        let got = assign(
            &placed,
            &[vec![0]],
            std::slice::from_ref(&kite),
            true,
            &around,
            &tol,
        );
        assert!(got[0].1.mirror, "{:?}", got[0].1);
        assert!(got[0].1.cost < 1e-9, "{:?}", got[0].1);
        // Face up it fits its own placed outline, and the neighbours only to 0.6 at the tip.
        let up = assign(
            &placed,
            &[vec![0]],
            std::slice::from_ref(&kite),
            false,
            &placed_pts,
            &tol,
        );
        assert!(!up[0].1.mirror && up[0].1.cost < 1e-9);
    }

    #[test]
    fn congruent_copies_go_where_they_fit() {
        // Two squares, one 0.2 larger: the search hands out copies in order, the fit swaps
        // them when the surrounding corners say so.
        let small = vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        let large = vec![[0.0, 0.0], [4.2, 0.0], [4.2, 4.2], [0.0, 4.2]];
        let tol = Tol::new(10.0, 0.05);
        let local = anchors(&small, true, &tol)[0].local.clone();
        let a: Vec<Pt> = large.clone();
        let b: Vec<Pt> = small.iter().map(|q| [q[0] + 10.0, q[1]]).collect();
        let around: Vec<Pt> = a.iter().chain(&b).copied().collect();
        let placed = [
            Placed {
                class: 0,
                local: &local,
                vertices: &a,
            },
            Placed {
                class: 0,
                local: &local,
                vertices: &b,
            },
        ];
        let got = assign(
            &placed,
            &[vec![0, 1]],
            &[small, large],
            false,
            &around,
            &tol,
        );
        assert_eq!((got[0].0, got[1].0), (1, 0));
    }
}
