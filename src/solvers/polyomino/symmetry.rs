//! Counting tilings up to the region's symmetries, and searching only one representative
//! per symmetry class.
//!
//! The group used is `G'`: the region's symmetries that map every kind's allowed orientation
//! set onto itself, so that the image of a tiling is again a legal tiling (with fixed
//! orientation, a half turn of the rectangle is not a symmetry of the puzzle unless every
//! piece looks the same turned round). A tiling is the set of its placements (kind,
//! squares), so swapping two identical pieces never makes a new tiling.
//!
//! Symmetry breaking: a kind `K` that occurs once is placed first, only at one
//! representative `r` of each orbit of its placements. Every class of tilings has a member
//! with `K` at some representative. For a tiling `S` found from `r`, orbit–stabiliser gives
//! its weight in the raw count, `|G'| / |Stab(r)|`, and its share of a class among the found
//! tilings (tilings compared as sets of placements), `|Stab(r) ∩ Stab(S)| / |Stab(r)|`; summing shares counts classes without ever
//! storing a tiling.

use super::piece::{Shape, Transform};
use super::placements::Plan;
use std::collections::HashMap;

/// The usable symmetry group with its action on placements.
pub struct Symmetry {
    /// `G'`, identity first.
    pub group: Vec<Transform>,
    /// `images[g][p]`: the placement that placement `p` becomes under `group[g]`.
    pub images: Vec<Vec<usize>>,
}

/// Where the search starts and which group elements fix each start.
pub struct Breaking {
    pub starts: Vec<Vec<usize>>,
    /// Indices into `Symmetry::group` of the elements fixing each start.
    pub stabilisers: Vec<Vec<usize>>,
    /// The kind placed first, when symmetry breaking applies.
    pub fixed_kind: Option<usize>,
}

impl Symmetry {
    pub fn new(plan: &Plan, region_symmetries: &[Transform]) -> Self {
        let group: Vec<Transform> = region_symmetries
            .iter()
            .copied()
            .filter(|&g| {
                plan.kinds
                    .iter()
                    .all(|k| maps_onto_itself(&k.orientations, g))
            })
            .collect();
        let l = plan.layout;
        let index: HashMap<(usize, &[usize]), usize> = plan
            .placements
            .iter()
            .enumerate()
            .map(|(p, pl)| ((pl.kind, pl.cells.as_slice()), p))
            .collect();
        let images = group
            .iter()
            .map(|&g| {
                let perm: Vec<usize> = (0..l.len())
                    .map(|i| {
                        let (r, c) = l.coords(i);
                        let (r2, c2) = g.apply((r as i32, c as i32), l.rows as i32, l.cols as i32);
                        l.index(r2 as usize, c2 as usize)
                    })
                    .collect();
                plan.placements
                    .iter()
                    .map(|pl| {
                        let mut cells: Vec<usize> = pl.cells.iter().map(|&i| perm[i]).collect();
                        cells.sort_unstable();
                        // A region symmetry compatible with every kind maps a legal placement
                        // to a legal placement of the same kind.
                        index[&(pl.kind, cells.as_slice())]
                    })
                    .collect()
            })
            .collect();
        Self { group, images }
    }

    pub fn order(&self) -> usize {
        self.group.len()
    }

    /// A tiling (its placements, sorted) moved by group element `g`.
    pub fn moved(&self, g: usize, tiling: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = tiling.iter().map(|&p| self.images[g][p]).collect();
        out.sort_unstable();
        out
    }

    /// How many of `among` leave the tiling unchanged.
    pub fn fixing(&self, tiling: &[usize], among: &[usize]) -> usize {
        let own = sorted(tiling);
        among
            .iter()
            .filter(|&&g| g == 0 || self.moved(g, &own) == own)
            .count()
    }

    /// True when the tiling is the least of its images under `among` (one per class).
    pub fn is_least(&self, tiling: &[usize], among: &[usize]) -> bool {
        let own = sorted(tiling);
        among.iter().all(|&g| g == 0 || own <= self.moved(g, &own))
    }

    /// Chooses the once-occurring kind with the fewest placement orbits and returns one start
    /// per orbit; without such a kind (or with a trivial group), one empty start.
    pub fn breaking(&self, plan: &Plan) -> Breaking {
        let everything = Breaking {
            starts: vec![vec![]],
            stabilisers: vec![(0..self.order()).collect()],
            fixed_kind: None,
        };
        if self.order() <= 1 {
            return everything;
        }
        let mut best: Option<(usize, Vec<usize>, Vec<Vec<usize>>)> = None;
        for (k, kind) in plan.kinds.iter().enumerate() {
            if kind.instances.len() != 1 {
                continue;
            }
            let mut seen = vec![false; plan.placements.len()];
            let (mut reps, mut stabs) = (Vec::new(), Vec::new());
            for (p, pl) in plan.placements.iter().enumerate() {
                if pl.kind != k || seen[p] {
                    continue;
                }
                let mut stab = Vec::new();
                for g in 0..self.order() {
                    let q = self.images[g][p];
                    seen[q] = true;
                    if q == p {
                        stab.push(g);
                    }
                }
                reps.push(p);
                stabs.push(stab);
            }
            if best.as_ref().is_none_or(|b| reps.len() < b.1.len()) {
                best = Some((k, reps, stabs));
            }
        }
        match best {
            Some((k, reps, stabs)) => Breaking {
                starts: reps.into_iter().map(|p| vec![p]).collect(),
                stabilisers: stabs,
                fixed_kind: Some(k),
            },
            None => everything,
        }
    }
}

fn sorted(tiling: &[usize]) -> Vec<usize> {
    let mut v = tiling.to_vec();
    v.sort_unstable();
    v
}

fn maps_onto_itself(orientations: &[Shape], g: Transform) -> bool {
    orientations
        .iter()
        .all(|o| orientations.contains(&o.transformed(g)))
}
