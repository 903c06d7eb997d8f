//! Mating candidates by feature similarity (Freeman & Garder, eqs. 1 and 2).
//!
//! Two chainlets are similar when |f_ik − g_jk| ≤ T_k for every feature k, where g_j is the
//! *complement* of chainlet j's features (a knob mates a hole: signed area, perpendicular
//! extremes and the area ratio change sign or side). Similar chainlets are ordered by the
//! weighted feature separation S_ij = Σ w_k (f_ik − g_jk)².
//!
//! Thresholds and weights come from the puzzle itself, never from constants tuned to a sample:
//! - the measurement precision σ_k of feature k comes from the residual |f_ik − g_jk| between
//!   each chainlet and its nearest complementary neighbour (in a puzzle most nearest neighbours
//!   are true mates, so this is the noise of the front end): the larger of 1.4826 × median and
//!   the 90th percentile / 1.645, because some features are integers (crossings) or heavy-tailed,
//!   where a median of 0 would reject true mates, while a loose threshold only costs time;
//!   T_k = 5 σ_k (with a floor of one pixel, or one crossing);
//! - the weight w_k = ln(1 + var_k / σ_k²) / σ_k²: deviations are measured in units of noise,
//!   and a feature counts more the more it varies across the puzzle relative to its noise (the
//!   paper's rule that a feature on which most chainlets agree gets a small weight).
//!
//! The box test is a Chebyshev ball of radius 1 once each feature is divided by T_k, which a
//! k-d tree answers far below quadratic time.

use super::shapes::{ChainletShape, Shapes};
use kiddo::ImmutableKdTree;
use kiddo::{Chebyshev, SquaredEuclidean};
use serde::Serialize;

pub const FEATURES: usize = 7;
const THRESHOLD_SIGMAS: f64 = 5.0;

/// The statistics the thresholds and weights were derived from (reported with `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct FeatureStats {
    pub names: [&'static str; FEATURES],
    pub precision: [f64; FEATURES],
    pub thresholds: [f64; FEATURES],
    pub weights: [f64; FEATURES],
}

const NAMES: [&str; FEATURES] = [
    "chain_length",
    "distance_vector_length",
    "signed_area",
    "max_perpendicular",
    "min_perpendicular",
    "crossings",
    "area_ratio",
];
/// Smallest meaningful threshold per feature: a pixel, a pixel², 2 %. Crossings get 7: the
/// shoulders of a knob run along the distance vector, so pixel noise adds or removes pairs of
/// crossings between true mates (0 against 4 is common); the count then only separates
/// chainlets that wind back and forth a lot.
const FLOORS: [f64; FEATURES] = [1.0, 1.0, 4.0, 1.0, 1.0, 7.0, 0.02];

fn own(c: &ChainletShape) -> [f64; FEATURES] {
    let f = &c.features;
    [
        c.length,
        f.distance_vector_length,
        f.signed_area,
        f.max_perpendicular,
        f.min_perpendicular,
        f.crossings as f64,
        f.area_ratio,
    ]
}

/// What a mate of `c` must look like, in `c`'s own terms.
fn complement(c: &ChainletShape) -> [f64; FEATURES] {
    let f = &c.features;
    [
        c.length,
        f.distance_vector_length,
        -f.signed_area,
        -f.min_perpendicular,
        -f.max_perpendicular,
        f.crossings as f64,
        1.0 - f.area_ratio,
    ]
}

/// A candidate mate and its feature separation.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub chainlet: usize,
    pub separation: f64,
}

/// For every chainlet, its similar chainlets on other pieces, nearest (smallest S) first, at
/// most `limit` of them. Straight chainlets get none: they are exterior-boundary candidates.
pub fn mating_candidates(shapes: &Shapes, limit: usize) -> (Vec<Vec<Candidate>>, FeatureStats) {
    let active: Vec<usize> = (0..shapes.chainlets.len())
        .filter(|&i| !shapes.chainlets[i].straight)
        .collect();
    let stats = feature_stats(shapes, &active);
    let scale = |v: [f64; FEATURES]| -> [f64; FEATURES] {
        std::array::from_fn(|k| v[k] / stats.thresholds[k])
    };
    let mut lists = vec![Vec::new(); shapes.chainlets.len()];
    if active.len() < 2 {
        return (lists, stats);
    }
    let points: Vec<[f64; FEATURES]> = active
        .iter()
        .map(|&i| scale(complement(&shapes.chainlets[i])))
        .collect();
    let tree: ImmutableKdTree<f64, FEATURES> = ImmutableKdTree::new_from_slice(&points);
    for &i in &active {
        let a = &shapes.chainlets[i];
        let fa = own(a);
        let mut found: Vec<Candidate> = tree
            .within_unsorted::<Chebyshev>(&scale(fa), 1.0)
            .into_iter()
            .map(|nn| active[nn.item as usize])
            .filter(|&j| shapes.chainlets[j].piece != a.piece)
            .map(|j| Candidate {
                chainlet: j,
                separation: separation(&fa, &complement(&shapes.chainlets[j]), &stats.weights),
            })
            .collect();
        found.sort_by(|x, y| x.separation.total_cmp(&y.separation));
        found.truncate(limit);
        lists[i] = found;
    }
    (lists, stats)
}

fn separation(f: &[f64; FEATURES], g: &[f64; FEATURES], w: &[f64; FEATURES]) -> f64 {
    (0..FEATURES).map(|k| w[k] * (f[k] - g[k]).powi(2)).sum()
}

/// Precision from nearest complementary neighbours, in a space normalised by each feature's
/// spread so that no single feature dominates the neighbour search.
fn feature_stats(shapes: &Shapes, active: &[usize]) -> FeatureStats {
    let own_v: Vec<[f64; FEATURES]> = active.iter().map(|&i| own(&shapes.chainlets[i])).collect();
    let comp_v: Vec<[f64; FEATURES]> = active
        .iter()
        .map(|&i| complement(&shapes.chainlets[i]))
        .collect();
    let spread: [f64; FEATURES] = std::array::from_fn(|k| {
        let col: Vec<f64> = own_v.iter().map(|v| v[k]).collect();
        robust_spread(&col).max(FLOORS[k])
    });
    let variance: [f64; FEATURES] = std::array::from_fn(|k| {
        let col: Vec<f64> = own_v.iter().map(|v| v[k]).collect();
        let mean = col.iter().sum::<f64>() / col.len().max(1) as f64;
        col.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / col.len().max(1) as f64
    });
    let mut residuals: Vec<Vec<f64>> = vec![Vec::new(); FEATURES];
    if active.len() >= 2 {
        let norm =
            |v: &[f64; FEATURES]| -> [f64; FEATURES] { std::array::from_fn(|k| v[k] / spread[k]) };
        let pts: Vec<[f64; FEATURES]> = comp_v.iter().map(norm).collect();
        let tree: ImmutableKdTree<f64, FEATURES> = ImmutableKdTree::new_from_slice(&pts);
        for (ai, &i) in active.iter().enumerate() {
            let piece = shapes.chainlets[i].piece;
            let nearest = tree
                .nearest_n::<SquaredEuclidean>(
                    &norm(&own_v[ai]),
                    std::num::NonZero::new(8).unwrap(),
                )
                .into_iter()
                .map(|nn| nn.item as usize)
                .find(|&j| shapes.chainlets[active[j]].piece != piece);
            if let Some(j) = nearest {
                for k in 0..FEATURES {
                    residuals[k].push((own_v[ai][k] - comp_v[j][k]).abs());
                }
            }
        }
    }
    let precision: [f64; FEATURES] =
        std::array::from_fn(|k| precision_of(&mut residuals[k], FLOORS[k] / THRESHOLD_SIGMAS));
    FeatureStats {
        names: NAMES,
        precision,
        thresholds: std::array::from_fn(|k| (THRESHOLD_SIGMAS * precision[k]).max(FLOORS[k])),
        weights: std::array::from_fn(|k| {
            let s2 = precision[k] * precision[k];
            (1.0 + variance[k] / s2).ln() / s2
        }),
    }
}

/// The measurement precision σ behind `residuals` (|f − g| between mates): the larger of
/// 1.4826 × median and the 90th percentile / 1.645 (integer or heavy-tailed residuals would
/// give a median of 0), and at least `floor`. Sorts `residuals`.
pub(super) fn precision_of(residuals: &mut [f64], floor: f64) -> f64 {
    let mad = 1.4826 * median(residuals);
    let q90 = quantile(residuals, 0.9) / 1.645;
    mad.max(q90).max(floor)
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The `q` quantile of `v` (sorted in place).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn robust_spread(v: &[f64]) -> f64 {
    let mut c = v.to_vec();
    let m = median(&mut c);
    let mut dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
    1.4826 * median(&mut dev)
}
