//! Error correction over whole growths (Freeman & Garder, "Monitoring of assembly"): growth is
//! greedy, so when the first growth is not clean it is repeated from other certain seeds and
//! the growth whose seams fit best is kept.

use super::grow::{grow_from, seed_ranking, Growth};
use super::matings::MatingTable;
use super::shapes::Shapes;
use rayon::prelude::*;

/// Growths started from this many of the most certain seeds are compared (see [`grow`]).
const STARTS: usize = 4;
/// A seam (a pair of mated chainlets) is good when its Δ is within this many times the
/// puzzle's typical Δ of best matings.
const GOOD_SEAM_FACTOR: f64 = 4.0;
/// Share of pieces placed, and of seams good, above which the first growth is kept as it is.
const CLEAN_SHARE: f64 = 0.98;

/// Grows clusters from several first seeds and keeps the growth with the most good seams.
///
/// Growth is greedy: one wrong placement early on (a seed whose best buddies are false, or a
/// single mating that looked as good as a true one) is built upon, and the rest of the cluster
/// follows it. Freeman & Garder re-examine earlier junctions when the running quality
/// degrades; growing from a few independent starts and keeping the one whose seams fit best
/// is the bounded form of that: a wrong start leaves seams that fit badly (its pieces were
/// forced together), the right start leaves nearly all seams as good as its best matings.
pub fn grow(shapes: &Shapes, table: &MatingTable) -> Growth {
    let firsts = ranked_seeds(shapes, table, STARTS);
    let first = grow_from(shapes, table, firsts.first().copied());
    let limit = GOOD_SEAM_FACTOR * table.delta_typical;
    let good = |g: &Growth| g.mate_of.iter().flatten().filter(|m| m.1 <= limit).count();
    let seams = first.mate_of.iter().flatten().count();
    // A growth that placed nearly every piece in one cluster with nearly every seam good
    // leaves nothing for another start to improve: skip them (they cost as much again).
    let placed = first.placed.iter().flatten().count();
    if firsts.len() <= 1
        || (first.clusters == 1
            && placed as f64 >= CLEAN_SHARE * shapes.pieces.len() as f64
            && good(&first) as f64 >= CLEAN_SHARE * seams as f64)
    {
        return first;
    }
    let others: Vec<Growth> = firsts[1..]
        .par_iter()
        .map(|&s| grow_from(shapes, table, Some(s)))
        .collect();
    let mut best = (good(&first), first);
    for g in others {
        let score = good(&g);
        if score > best.0 {
            best = (score, g);
        }
    }
    best.1
}

/// The `k` most certain seeds of an empty assembly.
fn ranked_seeds(shapes: &Shapes, table: &MatingTable, k: usize) -> Vec<usize> {
    let g = Growth {
        placed: vec![None; shapes.pieces.len()],
        ..Growth::default()
    };
    let mut seeds = seed_ranking(shapes, table, &g, &vec![false; shapes.pieces.len()]);
    seeds.truncate(k);
    seeds
}
