//! Type II matings and the secondary critical points they reveal (Freeman & Garder,
//! "Feature determination and classification" and "Types of matings").
//!
//! Where the corner detector misses a junction on one piece (a junction corner flatter than
//! its floor, or a T-junction where the outline does not turn at all), or finds one that is
//! not there, two mates no longer run between the same pair of critical points: they share
//! one junction and coincide from there only as far as the shorter one reaches. Feature
//! similarity of whole chainlets is then no longer a necessary condition for mating, so the
//! paper introduces *subfeature vectors* over fixed-length initial and terminal portions.
//!
//! Here, once Type I matings are known, every chainlet that has no good Type I mate is
//! searched for a Type II one: its initial (terminal) portion's subfeatures are compared with
//! the complement of every other chainlet's terminal (initial) portion, thresholds and
//! weights taken from the portions of the puzzle's confirmed Type I mates; similar pairs are
//! compared as contours over the length of the shorter chainlet, from the shared junction. An
//! unambiguous good Type II mating puts a *secondary critical point* on the longer chainlet
//! where the shorter one ends, and the chainlets are cut there, so the two portions become
//! chainlets that mate in full (Type I) and junction closure handles them like any other.

mod joined;
mod portion;

use super::candidates::precision_of;
use super::compare::{compare_refined, overlaps};
use super::matings::MatingTable;
use super::shapes::{ChainletShape, Shapes};
use crate::piece_set::{CriticalKind, CriticalPoint, PieceSet};
use portion::{complement, portion, portion_after, subfeatures, End, Subfeatures, SUBFEATURES};
use rayon::prelude::*;

/// The portion length as a fraction of the average chainlet length: the paper's 1/10 to 1/3,
/// smaller the more chainlet lengths vary (so that short chainlets still have portions).
const MIN_FRACTION: f64 = 0.1;
const MAX_FRACTION: f64 = 1.0 / 3.0;
/// A chainlet with a Type I mating within this many typical Δ is mated: no search.
const MATED_FACTOR: f64 = 4.0;
/// A Type II mating is accepted within this many typical Δ …
const ACCEPT_FACTOR: f64 = 1.5;
/// … and when the next-best Type II mating of the same portion is at least this much worse.
const AMBIGUITY: f64 = 2.0;
/// Subfeature-similar candidates compared as contours, per portion.
const COMPARE_LIMIT: usize = 12;
const THRESHOLD_SIGMAS: f64 = 5.0;
/// Smallest thresholds: a pixel, four pixels², a pixel, a pixel.
const FLOORS: Subfeatures = [1.0, 4.0, 1.0, 1.0];
/// The slide test: the shorter chainlet shifted along the longer by this fraction of its
/// length must fit at least [`SLIDE_GAIN`] times worse than at the shared junction, and worse
/// than the puzzle's typical Δ. A portion of a gently curving side fits a plain short
/// chainlet wherever it is put; a true Type II mating is pinned by its shape.
const SLIDE_FRACTION: f64 = 0.15;
const SLIDE_GAIN: f64 = 4.0;
/// Overlap tolerance as a fraction of the median piece size (as for Type I matings).
const OVERLAP_FRACTION: f64 = 0.04;
/// A cut closer than this fraction of the portion length to another critical point adds
/// nothing: the two ends are the same junction.
const MIN_SEPARATION: f64 = 0.5;

/// A critical point to add (a secondary one) or to remove (a false corner): piece index in
/// the set and chain index on its outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    pub piece: usize,
    pub index: usize,
}

/// `set` with secondary critical points where unambiguous Type II matings end, and false
/// ones removed where a run of chainlets matches another piece's chainlet joined (see
/// [`joined`], irregular cuts only), its chainlets re-cut; `None` when nothing changed.
pub fn split_at_partial_matings(
    set: &PieceSet,
    shapes: &Shapes,
    table: &MatingTable,
) -> Option<(PieceSet, Revisions)> {
    let false_corners = if table.straight_seams {
        joined::false_corners(shapes, &table.per_chainlet, table.delta_typical)
    } else {
        Vec::new()
    };
    // A Type II cut on a chainlet that a joined run takes in would cut what was just joined.
    let joined_at = |c: &ChainletShape| {
        false_corners
            .iter()
            .any(|f| f.piece == c.piece && (f.index == c.start || f.index == c.end))
    };
    let mut cuts = secondary_cuts(shapes, table);
    cuts.retain(|cut| {
        !shapes.pieces[cut.piece]
            .chainlets
            .iter()
            .map(|&c| &shapes.chainlets[c])
            .any(|c| joined_at(c) && within(c, cut.index, shapes.pieces[cut.piece].outline.len()))
    });
    if cuts.is_empty() && false_corners.is_empty() {
        return None;
    }
    let mut out = set.clone();
    let mut revised = Revisions::default();
    for (pi, piece) in out.pieces.iter_mut().enumerate() {
        let n = piece.chain.len();
        let on_piece = |list: &[Cut]| -> Vec<usize> {
            list.iter()
                .filter(|c| c.piece == pi)
                .map(|c| c.index % n.max(1))
                .collect()
        };
        let (mine, gone) = (on_piece(&cuts), on_piece(&false_corners));
        if (mine.is_empty() && gone.is_empty()) || n == 0 {
            continue;
        }
        let before = piece.critical_points.len();
        piece
            .critical_points
            .retain(|c| !gone.contains(&(c.index % n)));
        revised.removed += before - piece.critical_points.len();
        let unit = piece.chain_unit;
        for index in mine {
            if piece.critical_points.iter().any(|c| c.index == index) {
                continue;
            }
            let p = piece.chain.point_at(index);
            piece.critical_points.push(CriticalPoint {
                index,
                x: f64::from(p[0]) * unit,
                y: f64::from(p[1]) * unit,
                angle_deg: 0.0,
                kind: CriticalKind::Secondary,
            });
            revised.added += 1;
        }
        piece.critical_points.sort_by_key(|c| c.index);
        piece.chainlets =
            crate::vision::chainlets_between(piece.id, &piece.chain, &piece.critical_points, unit);
    }
    (revised.added + revised.removed > 0).then_some((out, revised))
}

/// Whether outline index `i` lies on chainlet `c` (its ends included) of an outline of `n`.
fn within(c: &ChainletShape, i: usize, n: usize) -> bool {
    let n = n.max(1);
    let (s, e, i) = (c.start % n, c.end % n, i % n);
    if s <= e {
        (s..=e).contains(&i)
    } else {
        i >= s || i <= e
    }
}

/// How [`split_at_partial_matings`] revised the critical points.
#[derive(Clone, Copy, Debug, Default)]
pub struct Revisions {
    /// Secondary critical points added where Type II matings end.
    pub added: usize,
    /// False critical points removed between joined chainlets.
    pub removed: usize,
}

/// Where Type II matings end on the longer chainlet of each unambiguous one.
pub fn secondary_cuts(shapes: &Shapes, table: &MatingTable) -> Vec<Cut> {
    let lengths: Vec<f64> = shapes.chainlets.iter().map(|c| c.length).collect();
    let Some(length) = portion_length(&lengths) else {
        return Vec::new();
    };
    let good = MATED_FACTOR * table.delta_typical;
    let mated: Vec<bool> = table
        .per_chainlet
        .iter()
        .map(|m| m.first().is_some_and(|m| m.delta <= good))
        .collect();
    // Every chainlet's portion at each end, with its subfeatures.
    let portions: Vec<[Option<Subfeatures>; 2]> = shapes
        .chainlets
        .par_iter()
        .map(|c| {
            [End::Initial, End::Terminal]
                .map(|e| portion(c, e, length).map(|(p, _)| subfeatures(&p)))
        })
        .collect();
    let stats = SubfeatureStats::from_type_one(table, &portions, good);
    let tol = OVERLAP_FRACTION * shapes.median_size;
    let accept = ACCEPT_FACTOR * table.delta_typical;
    let typical = table.delta_typical;
    let (portions, stats, mated) = (&portions, &stats, &mated);
    let mut cuts: Vec<Cut> = (0..shapes.chainlets.len())
        .into_par_iter()
        .filter(|&a| !mated[a] && !shapes.chainlets[a].straight)
        .flat_map_iter(|a| {
            [End::Initial, End::Terminal]
                .into_iter()
                .filter_map(move |end| {
                    best_partial(
                        shapes, portions, stats, mated, a, end, length, tol, accept, typical,
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    cuts.sort_by_key(|c| (c.piece, c.index));
    cuts.dedup();
    keep_separated(shapes, cuts, MIN_SEPARATION * length)
}

/// The portion length for chainlet lengths `lengths`: a fraction of their mean between 1/10
/// and 1/3, smaller as their coefficient of variation grows.
fn portion_length(lengths: &[f64]) -> Option<f64> {
    if lengths.len() < 4 {
        return None;
    }
    let mean = lengths.iter().sum::<f64>() / lengths.len() as f64;
    let var = lengths.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lengths.len() as f64;
    let cv = var.sqrt() / mean.max(1e-9);
    Some(mean * (MAX_FRACTION / (1.0 + cv)).clamp(MIN_FRACTION, MAX_FRACTION))
}

/// Thresholds and weights of the subfeatures, from the residuals between the portions of
/// good mutual-best Type I mates (the front end's measurement precision), as for features.
struct SubfeatureStats {
    thresholds: Subfeatures,
    weights: Subfeatures,
}

impl SubfeatureStats {
    fn from_type_one(
        table: &MatingTable,
        portions: &[[Option<Subfeatures>; 2]],
        good: f64,
    ) -> Self {
        let mut residuals: Vec<Vec<f64>> = vec![Vec::new(); SUBFEATURES];
        for (a, list) in table.per_chainlet.iter().enumerate() {
            let Some(m) = list.first().filter(|m| m.delta <= good) else {
                continue;
            };
            let mutual = table.per_chainlet[m.b].first().is_some_and(|x| x.b == a);
            if !mutual || a > m.b {
                continue;
            }
            for (ea, eb) in [(0, 1), (1, 0)] {
                if let (Some(fa), Some(fb)) = (portions[a][ea], portions[m.b][eb]) {
                    let g = complement(&fb);
                    for k in 0..SUBFEATURES {
                        residuals[k].push((fa[k] - g[k]).abs());
                    }
                }
            }
        }
        let sigma: Subfeatures =
            std::array::from_fn(|k| precision_of(&mut residuals[k], FLOORS[k] / THRESHOLD_SIGMAS));
        SubfeatureStats {
            thresholds: std::array::from_fn(|k| (THRESHOLD_SIGMAS * sigma[k]).max(FLOORS[k])),
            weights: std::array::from_fn(|k| 1.0 / (sigma[k] * sigma[k])),
        }
    }

    /// The weighted separation of `f` from `g`, or `None` if they fail a threshold.
    fn separation(&self, f: &Subfeatures, g: &Subfeatures) -> Option<f64> {
        let mut s = 0.0;
        for k in 0..SUBFEATURES {
            let d = (f[k] - g[k]).abs();
            if d > self.thresholds[k] {
                return None;
            }
            s += self.weights[k] * d * d;
        }
        Some(s)
    }
}

/// The cut made by chainlet `a`'s best Type II mating from its `end`, if one is good and
/// unambiguous.
#[allow(clippy::too_many_arguments)]
fn best_partial(
    shapes: &Shapes,
    portions: &[[Option<Subfeatures>; 2]],
    stats: &SubfeatureStats,
    mated: &[bool],
    a: usize,
    end: End,
    length: f64,
    tol: f64,
    accept: f64,
    typical: f64,
) -> Option<Cut> {
    let ea = end as usize;
    let eb = end.opposite() as usize;
    let fa = portions[a][ea]?;
    let ca = &shapes.chainlets[a];
    let mut similar: Vec<(usize, f64)> = portions
        .iter()
        .enumerate()
        // Both mates of a Type II mating lack a Type I mate: neither runs between the same
        // junctions as anything else.
        .filter(|(b, _)| shapes.chainlets[*b].piece != ca.piece && !mated[*b])
        .filter_map(|(b, p)| {
            let s = stats.separation(&fa, &complement(&p[eb]?))?;
            // Lengths alike: a Type I question, already answered.
            let diff = (shapes.chainlets[b].length - ca.length).abs();
            (diff >= MIN_SEPARATION * length).then_some((b, s))
        })
        .collect();
    similar.sort_by(|x, y| x.1.total_cmp(&y.1));
    similar.truncate(COMPARE_LIMIT);
    let mut found: Vec<(f64, Cut)> = similar
        .into_iter()
        .filter_map(|(b, _)| {
            let cb = &shapes.chainlets[b];
            let common = ca.length.min(cb.length);
            let shorter_is_a = ca.length <= cb.length;
            let shorter = if shorter_is_a { ca } else { cb };
            if shorter.straight {
                return None;
            }
            let (pa, stop_a) = portion(ca, end, common)?;
            let (pb, stop_b) = portion(cb, end.opposite(), common)?;
            let cmp = compare_refined(&pa, &pb);
            let (sa, sb) = (&shapes.pieces[ca.piece], &shapes.pieces[cb.piece]);
            if cmp.delta > accept || overlaps(sa, sb, &cmp.pose, tol) {
                return None;
            }
            // The slide test, on the longer chainlet.
            let longer_len = ca.length.max(cb.length);
            let shift = (SLIDE_FRACTION * common).min(longer_len - common);
            let slid = if shorter_is_a {
                let (qb, _) = portion_after(cb, end.opposite(), shift, common)?;
                compare_refined(&pa, &qb)
            } else {
                let (qa, _) = portion_after(ca, end, shift, common)?;
                compare_refined(&qa, &pb)
            };
            if slid.delta < SLIDE_GAIN * cmp.delta || slid.delta < typical {
                return None;
            }
            let cut = if shorter_is_a {
                Cut {
                    piece: cb.piece,
                    index: stop_b,
                }
            } else {
                Cut {
                    piece: ca.piece,
                    index: stop_a,
                }
            };
            Some((cmp.delta, cut))
        })
        .collect();
    found.sort_by(|x, y| x.0.total_cmp(&y.0));
    let best = found.first()?;
    let clear = found
        .get(1)
        .is_none_or(|next| next.0 >= AMBIGUITY * best.0.max(1e-9));
    clear.then_some(best.1)
}

/// `cuts` without those within `gap` pixels of arc of an existing critical point or an
/// earlier cut on the same piece.
fn keep_separated(shapes: &Shapes, cuts: Vec<Cut>, gap: f64) -> Vec<Cut> {
    let mut kept: Vec<Cut> = Vec::new();
    for cut in cuts {
        let piece = &shapes.pieces[cut.piece];
        let n = piece.outline.len();
        if n == 0 {
            continue;
        }
        let index = cut.index % n;
        let mut existing = piece
            .chainlets
            .iter()
            .map(|&c| shapes.chainlets[c].start)
            .chain(
                kept.iter()
                    .filter(|k| k.piece == cut.piece)
                    .map(|k| k.index),
            );
        let near = existing.any(|e| {
            let d = (index + n - e % n) % n;
            (d.min(n - d) as f64) < gap
        });
        if !near {
            kept.push(Cut {
                piece: cut.piece,
                index,
            });
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portion_length_is_a_third_of_the_mean_for_equal_chainlets_and_less_when_they_vary() {
        let equal = [90.0, 90.0, 90.0, 90.0];
        assert!((portion_length(&equal).unwrap() - 30.0).abs() < 1e-9);
        let varied = [10.0, 50.0, 150.0, 190.0];
        let l = portion_length(&varied).unwrap();
        assert!((10.0..100.0 / 3.0).contains(&l), "{l}");
        assert!(portion_length(&[1.0, 2.0]).is_none());
    }

    #[test]
    fn an_index_lies_on_a_chainlet_across_the_outline_start_too() {
        let mut c = ChainletShape::bare(0, 0, 10.0, false);
        (c.start, c.end) = (90, 5);
        assert!(within(&c, 95, 100) && within(&c, 3, 100) && within(&c, 105, 100));
        assert!(!within(&c, 50, 100));
        (c.start, c.end) = (10, 20);
        assert!(within(&c, 10, 100) && !within(&c, 21, 100));
    }
}
