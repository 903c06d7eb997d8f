//! Error correction over whole growths (Freeman & Garder, "Ambiguities" and "Monitoring of
//! assembly"): growth is greedy, so when the first growth is not clean it is repeated from
//! other certain seeds, and then with its ambiguous matings revisited, and the growth whose
//! seams fit best is kept.

use super::grow::{grow_from, seed_ranking, Growth, AMBIGUOUS_MERIT};
use super::matings::MatingTable;
use super::shapes::Shapes;
use rayon::prelude::*;
use std::cmp::Ordering;

/// Growths started from this many of the most certain seeds are compared (see [`grow`]).
const STARTS: usize = 4;
/// Share of pieces placed, and of seams good, above which the first growth is kept as it is.
const CLEAN_SHARE: f64 = 0.98;
/// Revisited growths may place this many pieces in all: many revisions on a small puzzle,
/// where every mating has look-alikes, and few on a large one, where they cost most. At
/// 2000 a 100-piece puzzle had 20, all spent on the starts' own ambiguous matings, so no
/// growth ever took back two (irregular 100 photos seed 51: 94.4 %; with 48, 100 %).
const REVISION_PLACEMENTS: usize = 6000;
const MAX_REVISIONS: usize = 48;

/// A growth and what it was grown from.
struct Grown {
    seed: usize,
    growth: Growth,
    quality: Quality,
}

/// How well a growth fits: its good seams, then (between growths with as many) Σ over its
/// seams of (limit − Δ), so better fitting seams make the better growth and a seam worse than
/// the limit costs. The count comes first: across growths of a large puzzle the relaxed
/// seams differ by a few percent in Δ, which says nothing, while a good seam more is a piece
/// more placed right (classic 100 photos seed 17: ranked by the sum, a growth with 3 seams
/// fewer and one piece misplaced won).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(super) struct Quality {
    pub good: usize,
    pub fit: f64,
}

/// Grows clusters from several first seeds, revisits the ambiguous matings of the best, and
/// keeps the growth whose seams fit best.
///
/// Growth is greedy: one wrong placement early on (a seed whose best buddies are false, or a
/// single mating that looked as good as a true one) is built upon, and the rest of the cluster
/// follows it. Freeman & Garder re-examine earlier junctions when the running quality
/// degrades; growing from a few independent starts, and again without each ambiguous mating,
/// and keeping the growth whose seams fit best is the bounded form of that: a wrong choice
/// leaves seams that fit badly (its pieces were forced together), the right one leaves nearly
/// all seams as good as its best matings.
pub fn grow(shapes: &Shapes, table: &MatingTable) -> Growth {
    let firsts = ranked_seeds(shapes, table, STARTS);
    let none = vec![false; shapes.chainlets.len()];
    let limit = table.good_seam();
    let grown = |seed: usize, boundary: Vec<bool>| {
        let growth = grow_from(shapes, table, Some(seed), boundary);
        let quality = quality(&growth, limit);
        Grown {
            seed,
            growth,
            quality,
        }
    };
    let Some(&seed) = firsts.first() else {
        return grow_from(shapes, table, None, none);
    };
    let first = grown(seed, none.clone());
    if firsts.len() <= 1 || clean(shapes, &first.growth, limit) {
        return first.growth;
    }
    let others: Vec<Grown> = firsts[1..]
        .par_iter()
        .map(|&s| grown(s, none.clone()))
        .collect();
    let mut starts = vec![first];
    starts.extend(others);
    starts.sort_by(|x, y| y.quality.partial_cmp(&x.quality).unwrap_or(Ordering::Equal));
    // Revisions: each ambiguous single mating of a growth, and each mating of an ambiguous
    // junction closure (see `grow::AMBIGUOUS_CLOSURE`), most ambiguous first, is taken back
    // by growing again with its chainlet as boundary (the paper's outer boundary
    // routine: a chainlet whose true mate is not in the set still has look-alikes). First
    // those of every start, then those of the best growth while one improves on it, so a
    // growth may take back several matings in turn.
    let mut budget = (REVISION_PLACEMENTS / shapes.pieces.len().max(1)).min(MAX_REVISIONS);
    let mut revisions: Vec<(usize, Vec<bool>)> =
        starts.iter().flat_map(revisions_of).take(budget).collect();
    let mut best = starts.swap_remove(0);
    while !revisions.is_empty() {
        budget -= revisions.len();
        let revised = revisions
            .par_iter()
            .map(|(seed, boundary)| grown(*seed, boundary.clone()))
            .reduce_with(|x, y| if y.quality > x.quality { y } else { x });
        match revised {
            Some(r) if r.quality > best.quality => best = r,
            _ => break,
        }
        revisions = revisions_of(&best).take(budget).collect();
    }
    best.growth
}

/// The growths that take back one ambiguous mating of `g` (single, or of an ambiguous junction
/// closure), most ambiguous first: its seed, and its boundary with the mating's cluster
/// chainlet added.
fn revisions_of(g: &Grown) -> impl Iterator<Item = (usize, Vec<bool>)> + '_ {
    let mut ambiguous: Vec<(usize, f64)> = g
        .growth
        .revisable
        .iter()
        .filter(|m| m.1 > AMBIGUOUS_MERIT)
        .copied()
        .collect();
    ambiguous.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    ambiguous.into_iter().map(|(a, _)| {
        let mut boundary = g.growth.boundary.clone();
        boundary[a] = true;
        (g.seed, boundary)
    })
}

fn quality(g: &Growth, limit: f64) -> Quality {
    seam_quality(g.mate_of.iter().flatten().map(|m| m.1), limit)
}

/// The [`Quality`] of seams whose Δs are `deltas`, each seam's given twice, as it is recorded
/// on both its chainlets.
pub(super) fn seam_quality(deltas: impl Iterator<Item = f64> + Clone, limit: f64) -> Quality {
    Quality {
        good: deltas.clone().filter(|&d| d <= limit).count() / 2,
        fit: deltas.map(|d| limit - d).sum::<f64>() / 2.0,
    }
}

/// A growth that placed nearly every piece in one cluster with nearly every seam good leaves
/// nothing for another start to improve.
fn clean(shapes: &Shapes, g: &Growth, limit: f64) -> bool {
    let seams = g.mate_of.iter().flatten().count();
    let good = g.mate_of.iter().flatten().filter(|m| m.1 <= limit).count();
    let placed = g.placed.iter().flatten().count();
    g.clusters == 1
        && placed as f64 >= CLEAN_SHARE * shapes.pieces.len() as f64
        && good as f64 >= CLEAN_SHARE * seams as f64
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

#[cfg(test)]
mod tests {
    use super::*;

    fn growth(seams: &[(usize, usize, f64)], chainlets: usize) -> Growth {
        let mut g = Growth {
            mate_of: vec![None; chainlets],
            boundary: vec![false; chainlets],
            ..Growth::default()
        };
        for &(a, b, d) in seams {
            g.mate_of[a] = Some((b, d));
            g.mate_of[b] = Some((a, d));
        }
        g
    }

    #[test]
    fn a_good_seam_more_outweighs_a_better_fit() {
        let more = quality(
            &growth(&[(0, 1, 30.0), (2, 3, 30.0), (4, 5, 30.0)], 8),
            40.0,
        );
        let tighter = quality(&growth(&[(0, 1, 1.0), (2, 3, 1.0), (4, 5, 60.0)], 8), 40.0);
        assert_eq!((more.good, tighter.good), (3, 2));
        assert!(tighter.fit > more.fit && more > tighter);
        // As many good seams: the better fit wins, and a seam over the limit costs.
        let worse = quality(
            &growth(&[(0, 1, 30.0), (2, 3, 30.0), (4, 5, 50.0)], 8),
            40.0,
        );
        let fewer = quality(&growth(&[(0, 1, 30.0), (2, 3, 30.0)], 8), 40.0);
        assert!(fewer > worse, "{fewer:?} {worse:?}");
    }

    #[test]
    fn revisions_take_back_ambiguous_matings_most_ambiguous_first() {
        let mut g = growth(&[(0, 1, 1.0)], 6);
        g.boundary[5] = true;
        g.revisable = vec![(0, 0.3), (2, 0.7), (4, 0.95), (3, 0.5)];
        let grown = Grown {
            seed: 7,
            growth: g,
            quality: Quality { good: 1, fit: 0.0 },
        };
        let revised: Vec<(usize, Vec<bool>)> = revisions_of(&grown).collect();
        let taken: Vec<Vec<usize>> = revised
            .iter()
            .map(|(seed, b)| {
                assert_eq!(*seed, 7);
                (0..6).filter(|&a| b[a]).collect()
            })
            .collect();
        // Merit 0.3 and 0.5 are unambiguous; the boundary already taken is kept.
        assert_eq!(taken, vec![vec![4, 5], vec![2, 5]]);
    }
}
