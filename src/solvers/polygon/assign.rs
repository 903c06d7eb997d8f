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
//! polygon, and scored by how far its corners are from the outlines around it (the other
//! placed pieces and the target) and theirs from its outline ([`super::contacts`]); the members of a class are then assigned to its placings
//! by the lowest total score. Ties (exact puzzles) keep the search's own choice.

use super::contacts::{misfit, pose_on_outlines, touching};
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
    /// How badly it fits the outlines around it ([`misfit`], squared pixels).
    pub cost: f64,
    /// The variant's vertices (in its anchor order) where the pose puts them.
    pub vertices: Vec<Pt>,
    /// The member's input outline (every vertex the measurement kept, also those too flat
    /// to be corners to the search) where the pose puts it: what its neighbours are fitted
    /// against, since a flat vertex on a side marks where a neighbour's corner meets it.
    pub outline: Vec<Pt>,
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
/// counter-clockwise polygons, `outlines[i]` the input polygons in the same frame (a superset
/// of the cleaned vertices), `fixed` the target's polygons.
pub fn assign(
    placed: &[Placed<'_>],
    members: &[Vec<usize>],
    pieces: &[Vec<Pt>],
    outlines: &[Vec<Pt>],
    flip: bool,
    fixed: &[Vec<Pt>],
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
    let mut outline_now = current.clone();
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
                    let others: Vec<&[Pt]> = outline_now
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, p)| p.as_slice())
                        .chain(fixed.iter().map(Vec::as_slice))
                        .collect();
                    let touch = if exact(tol) {
                        Vec::new()
                    } else {
                        touching(&outline_now[i], &others, 3.0 * tol.eps)
                    };
                    let at = Placed {
                        vertices: &current[i],
                        ..placed[i]
                    };
                    let around = Around {
                        outlines: &others,
                        touch: &touch,
                    };
                    mem.iter()
                        .map(|&m| {
                            let member = Member {
                                variants: &variants[m],
                                piece: &pieces[m],
                                outline: &outlines[m],
                            };
                            best_variant(&at, &member, &around, tol)
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
                    if c < low - tie(tol) {
                        low = c;
                        pick = p.to_vec();
                    }
                });
            }
            for (k, &i) in steps.iter().enumerate() {
                if let Some(v) = &best[k][pick[k]] {
                    current[i] = v.vertices.clone();
                    outline_now[i] = v.outline.clone();
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
                    outline: placed[i].vertices.to_vec(),
                };
                (m, v)
            })
        })
        .collect()
}

/// Exact puzzles (angle tolerance at rounding level): every variant that lies on the placed
/// polygon fits exactly, so none is scored or re-posed and the search's own choice stands.
fn exact(tol: &Tol) -> bool {
    tol.angle_eps < 1e-5
}

/// Costs below this apart are a tie (squared lengths: exact puzzles' rounding).
fn tie(tol: &Tol) -> f64 {
    (tol.eps * 1e-3).powi(2)
}

/// One member of a class: its anchors (both chiralities), its cleaned polygon and its input
/// outline.
struct Member<'a> {
    variants: &'a [Anchor],
    piece: &'a [Pt],
    outline: &'a [Pt],
}

/// What surrounds a placing: the outlines of the other pieces and of the target, and the
/// corners among them that touch the placing.
struct Around<'a> {
    outlines: &'a [&'a [Pt]],
    touch: &'a [Pt],
}

/// The member's variant (chirality and starting vertex) that fits the placing best; among
/// equal fits (within the tolerance) the first, which is the search's own. Each variant is
/// posed onto the placed polygon, then by closest points onto the outlines around it, and
/// scored by [`misfit`]: corners measured against sides, so that a corner at a T-junction
/// counts, and the two chiralities of a nearly symmetric piece are told apart by a few
/// tenths of a pixel where their corners meet the neighbours' sides.
fn best_variant(
    placed: &Placed<'_>,
    member: &Member<'_>,
    around: &Around<'_>,
    tol: &Tol,
) -> Option<Variant> {
    let (piece, reach) = (member.piece, 3.0 * tol.eps);
    let mut best: Option<Variant> = None;
    for a in member.variants {
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
        let pose = fit_pose(&from, placed.vertices);
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
        // Posed onto the outlines around it, so that the score does not favour the shape the
        // search happened to place.
        let full: Vec<Pt> = member
            .outline
            .iter()
            .map(|&q| if a.mirror { mirror_pt(q) } else { q })
            .collect();
        let rounds = if exact(tol) { 0 } else { 4 };
        let pose = pose_on_outlines(&full, pose, around.outlines, around.touch, reach, rounds);
        let outline: Vec<Pt> = full.iter().map(|&q| pose.apply(q)).collect();
        let cost = if exact(tol) {
            0.0
        } else {
            misfit(&outline, around.outlines, around.touch, reach)
        };
        if best.as_ref().is_none_or(|b| cost < b.cost - tie(tol)) {
            best = Some(Variant {
                mirror: a.mirror,
                pose,
                cost,
                vertices: from.iter().map(|&q| pose.apply(q)).collect(),
                outline,
            });
        }
    }
    best
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
#[path = "assign_tests.rs"]
mod tests;
