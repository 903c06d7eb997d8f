//! Fitting a whole outline to the rim of an empty region by iterative closest points, from
//! rotations all round: the region, not a chainlet mating, decides where the piece goes.

use super::super::geometry::{fit_rigid, signed_area, P2};
use super::accept::tight;
use super::cache::Found;
use super::knobs::{lost_knob, sealed_socket, swallowed_knob};
use super::raster::Frame;
use super::regions::Hole;
pub(super) use super::rim::Rim;
use nalgebra::{Isometry2, Vector2};

/// Starting rotations of the fit, evenly spread.
const START_ROTATIONS: usize = 24;
pub(super) const ICP_ITERATIONS: usize = 25;
/// Iterations of each trimmed stage of a notch fit (see [`notch_stages`]).
const TRIMMED_ITERATIONS: usize = 8;
/// Points of the outline and of the rim the fit uses at most.
const FIT_POINTS: usize = 180;
/// A notch fit compares at least this share of the outline (what lies deep inside the hull):
/// a border piece meets its notch along three sides, a corner piece along two (0.35–0.46 of
/// the outline measured), while a piece laid into a wide dent of an irregular edge meets it
/// along one (irregular 20 photos seed 21: 0.24, at 2.94 px and colour 1.57, beside its
/// true notch at 2.35 px, which it made ambiguous).
const MIN_DEEP_SHARE: f64 = 0.3;

/// Every `step`-th point so that at most `n` remain.
fn thin(points: &[P2], n: usize) -> Vec<P2> {
    let step = points.len().div_ceil(n.max(1)).max(1);
    points.iter().step_by(step).copied().collect()
}

/// The distance from `p` to the nearest of `to`, a placed outline of a few hundred points
/// (one query per rim point and pose: no tree pays).
pub(super) fn distance_to(p: &P2, to: &[P2]) -> f64 {
    to.iter()
        .map(|q| (q - p).norm_squared())
        .fold(f64::MAX, f64::min)
        .sqrt()
}

/// One step of iterative closest points from `pose`: each of `points` (source pixels) that
/// `keep` takes at its current place is paired with its nearest rim point if that lies
/// within `reach`, and the rigid motion fitting the pairs found; with how far it moved (px,
/// plus 50 px per radian). `None` with fewer than `min_pairs` pairs. `keep` is asked first:
/// it is cheaper than the nearest rim point and turns most points away in a notch fit.
pub(super) fn icp_step(
    points: &[P2],
    rim: &Rim,
    pose: &Isometry2<f64>,
    keep: impl Fn(&P2) -> bool,
    reach: f64,
    min_pairs: usize,
) -> Option<(Isometry2<f64>, f64)> {
    let (from, targets): (Vec<P2>, Vec<P2>) = points
        .iter()
        .map(|q| (*q, pose * q))
        .filter(|(_, p)| keep(p))
        .filter_map(|(q, p)| rim.nearest_within(&p, reach).map(|(r, _)| (q, r)))
        .unzip();
    if from.len() < min_pairs {
        return None;
    }
    let (next, _) = fit_rigid(&from, &targets);
    let moved = (next.translation.vector - pose.translation.vector).norm()
        + (next.rotation.angle() - pose.rotation.angle()).abs() * 50.0;
    Some((next, moved))
}

/// The mean of `points` (the origin for none).
pub(super) fn mean_point(points: &[P2]) -> P2 {
    P2::from(points.iter().fold(Vector2::zeros(), |s, q| s + q.coords) / points.len().max(1) as f64)
}

/// Where iterative closest points start: `points` (source pixels) with their mean put on
/// `centre`, turned by each of [`START_ROTATIONS`] angles evenly spread.
pub(super) fn start_poses(points: &[P2], centre: P2) -> impl Iterator<Item = Isometry2<f64>> {
    let mean = mean_point(points);
    (0..START_ROTATIONS).map(move |k| {
        let angle = std::f64::consts::TAU * k as f64 / START_ROTATIONS as f64;
        Isometry2::translation(centre.x, centre.y)
            * Isometry2::rotation(angle)
            * Isometry2::translation(-mean.x, -mean.y)
    })
}

/// The pose that best brings `points` (source pixels) onto `rim`, each start rotated about
/// `centre` and the points' centroid put there, judged by `score` (smaller is better). Each
/// step pairs only the points that `keep` at their current place, and with a rim point within
/// the `stages`' reach: each stage runs until it settles (or for its iterations), and the pose
/// it leaves is judged too.
pub(super) fn best_icp(
    points: &[P2],
    rim: &Rim,
    centre: P2,
    keep: impl Fn(&P2) -> bool,
    stages: &[(f64, usize)],
    mut score: impl FnMut(&Isometry2<f64>) -> f64,
) -> (Isometry2<f64>, f64) {
    let mut best = (Isometry2::identity(), f64::MAX);
    if points.is_empty() || rim.points.is_empty() {
        return best;
    }
    for mut pose in start_poses(points, centre) {
        'stages: for &(reach, iterations) in stages {
            for _ in 0..iterations {
                let Some((next, moved)) = icp_step(points, rim, &pose, &keep, reach, 3) else {
                    break 'stages;
                };
                pose = next;
                if moved < 0.01 {
                    break;
                }
            }
            let d = score(&pose);
            if d < best.1 {
                best = (pose, d);
            }
        }
    }
    best
}

/// The pose fitting `outline` (source pixels) into the closed `hole`, and the symmetric mean
/// distance between the placed outline and the rim.
pub(super) fn fit_to_rim(outline: &[P2], hole: &Hole) -> (Isometry2<f64>, f64) {
    let piece = thin(outline, FIT_POINTS);
    let rim = Rim::new(thin(&hole.rim, 2 * FIT_POINTS));
    best_icp(
        &piece,
        &rim,
        hole.centroid,
        |_| true,
        &[(f64::INFINITY, ICP_ITERATIONS)],
        |pose| {
            let placed: Vec<P2> = piece.iter().map(|q| pose * q).collect();
            let there: f64 =
                placed.iter().map(|q| rim.nearest(q).1).sum::<f64>() / placed.len() as f64;
            let back: f64 = rim
                .points
                .iter()
                .map(|q| distance_to(q, &placed))
                .sum::<f64>()
                / rim.points.len() as f64;
            0.5 * (there + back)
        },
    )
}

/// The pose fitting `outline` (source pixels) into the open `notch`. Both ways, only what
/// lies deeper than `depth` inside the cluster's hull is compared: the outline's points with
/// the rim, the rim's with the outline. Nearer the hull's edge lie the piece's sides on the
/// puzzle's edge, which no rim faces, and the rim of dents of an irregular exterior beside the
/// notch, which the piece does not reach. Each point's distance is capped at `cap` in the
/// means. Means forgive a knob missing where the rim has a hole; hence a second test: either
/// way at most `max_outliers` of the points may lie over twice `tolerance` away. Returns the
/// pose and the mean of the two means; `None` where no pose passes that test, or the placed
/// outline cuts into the cluster by more than `tolerance` at more than `max_intrusion` of its
/// points, but for a knob the front end damaged: into a sealed socket (see [`sealed_socket`],
/// and the mirror, [`swallowed_knob`]) or lost (see [`lost_knob`]). Its points count at the
/// cap and are left out of the outlier test, and the fit carries its distance without them
/// (`excused`), which the round asks to be tight.
/// A point on the item's own `border` sides that, placed, lies nearer the hull's edge than to
/// any rim faces the outside and is not compared, and the closest points are paired both
/// from the whole outline and without the border sides (see [`on_border`]).
pub(super) fn fit_to_notch(
    outline: &[P2],
    border: Option<&Rim>,
    notch: &Hole,
    frame: &Frame,
    limits: NotchLimits,
) -> Option<Found> {
    let (outline, rim, deep) = thinned_with_deep_rim(outline, notch, frame, limits)?;
    let on_own_border: Vec<bool> = outline.iter().map(|q| on_border(border, q)).collect();
    let deep_inside = |q: &P2| frame.deeper_than(q, limits.depth);
    let far = limits.far();
    let stages = notch_stages(limits);
    let turn = signed_area(&outline).signum();
    let outliers = |d: &[f64]| d.iter().filter(|&&d| d > far).count() as f64 / d.len() as f64;
    let mean = |d: &[f64]| d.iter().map(|d| d.min(limits.cap)).sum::<f64>() / d.len() as f64;
    // The pose's distance, and where a knob is excused (see `sealed_socket`,
    // `swallowed_knob`, `lost_knob`), the distance with its points left out; `None` where the
    // pose fails a test.
    let judge = |pose: &Isometry2<f64>| -> Option<(f64, Option<f64>)> {
        let placed: Vec<P2> = outline.iter().map(|q| pose * q).collect();
        let to_rim: Vec<f64> = placed.iter().map(|q| rim.nearest(q).1).collect();
        let cutting: Vec<bool> = placed
            .iter()
            .zip(&to_rim)
            .map(|(q, &d)| frame.covers(q) && d > limits.tolerance)
            .collect();
        let knob = sealed_socket(&cutting, limits.max_intrusion)?;
        let depths: Vec<f64> = placed.iter().map(|q| frame.depth(q)).collect();
        let back: Vec<f64> = deep.iter().map(|q| distance_to(q, &placed)).collect();
        let judged = |excused_outline: &[bool], excused_back: &[bool]| {
            let (there, excused_there): (Vec<f64>, Vec<bool>) = placed
                .iter()
                .enumerate()
                .zip(&depths)
                .zip(&on_own_border)
                .filter(|&((_, &depth), _)| depth > limits.depth)
                .map(|(((k, _), &depth), &own)| (k, to_rim[k], own, depth))
                // A point of the item's border side nearer the hull's edge than to any rim, or
                // far from the rim and with nothing of the cluster before it out to the hull's
                // edge, faces the outside, as the puzzle's edge does.
                .filter(|&(k, d, own, depth)| {
                    !(own
                        && (depth < d || d > far && faces_outside(&placed, k, turn, frame, limits)))
                })
                .map(|(k, d, _, _)| (d, excused_outline[k]))
                .unzip();
            let excused = excused_outline.iter().chain(excused_back).any(|&e| e);
            let deep_points = depths.iter().filter(|&&depth| depth > limits.depth).count();
            let (judged_there, judged_back) = (
                left_out(&there, &excused_there),
                left_out(&back, excused_back),
            );
            if (deep_points as f64) < MIN_DEEP_SHARE * placed.len() as f64
                || judged_there.is_empty()
                || judged_back.is_empty()
                || outliers(&judged_there) > limits.max_outliers
                || outliers(&judged_back) > limits.max_outliers
            {
                return None;
            }
            let distance = 0.5
                * (mean(&at_cap(&there, &excused_there, limits.cap))
                    + mean(&at_cap(&back, excused_back, limits.cap)));
            let elsewhere = excused.then(|| 0.5 * (mean(&judged_there) + mean(&judged_back)));
            Some((distance, elsewhere))
        };
        let as_traced = swallowed_knob(&deep, &back, &placed, limits)
            .and_then(|excused_back| judged(&knob, &excused_back));
        as_traced.or_else(|| {
            if knob.iter().any(|&k| k) {
                return None;
            }
            let deep_far: Vec<bool> = to_rim
                .iter()
                .zip(&depths)
                .map(|(&d, &depth)| d > far && depth > limits.depth)
                .collect();
            let (excused_outline, excused_back) =
                lost_knob(&placed, &deep_far, &deep, &back, limits)?;
            judged(&excused_outline, &excused_back)
        })
    };
    // A pose that excuses a knob competes by its fit elsewhere where that is tight (as the
    // round asks it to be, see `accept::tight_beside_an_excused_knob`): with the knob's points
    // at the cap, the true pose of a corner piece whose knob belongs in a neighbour's sealed
    // socket (2.97 px, 1.26 without the knob) lost to the piece turned a quarter round, its
    // knob out past the puzzle's edge and its flat side across the sealed socket (2.17 px;
    // fresh classic 100 photos seed 201).
    let score = |pose: &Isometry2<f64>| {
        judge(pose).map_or(f64::MAX, |(d, elsewhere)| match elsewhere {
            Some(e) if tight(e, limits.tolerance) => e,
            _ => d,
        })
    };
    let mut best = best_icp(&outline, &rim, notch.centroid, deep_inside, &stages, score);
    // Paired without its border sides too: paired with the rim where the hull lies beyond the
    // puzzle's edge, they pull the item off (irregular 100 photos seed 24). Not instead: a
    // straight side not mated may still face the rim (an irregular cut's), and without it a
    // corner cluster did not find its corner (irregular 100 photos seed 1).
    let inner: Vec<P2> = outline
        .iter()
        .zip(&on_own_border)
        .filter(|&(_, &own)| !own)
        .map(|(q, _)| *q)
        .collect();
    if inner.len() >= 8 && inner.len() < outline.len() {
        let other = best_icp(&inner, &rim, notch.centroid, deep_inside, &stages, score);
        if other.1 < best.1 {
            best = other;
        }
    }
    let (distance, excused) = judge(&best.0)?;
    Some(Found {
        pose: best.0,
        distance,
        partial: false,
        excused,
    })
}

/// `d` without the points `excused`.
fn left_out(d: &[f64], excused: &[bool]) -> Vec<f64> {
    d.iter()
        .zip(excused)
        .filter(|&(_, &e)| !e)
        .map(|(&d, _)| d)
        .collect()
}

/// `d` with the points `excused` at `cap`.
fn at_cap(d: &[f64], excused: &[bool], cap: f64) -> Vec<f64> {
    d.iter()
        .zip(excused)
        .map(|(&d, &e)| if e { cap } else { d })
        .collect()
}

/// Iterative closest points of a notch fit pairs every deep point at first, then only those
/// within the cap, then within twice the tolerance, each stage until it settles, and the fit
/// judges the pose each stage leaves. A side of the piece that faces no rim (its border side
/// where the puzzle's edge bows in, deep inside the hull) pairs with the far ends of the
/// notch's rim: paired to the end it pulled the piece 10 px off its true pose, where the
/// fit's tests pass at 1.3 px (irregular 100 photos seed 72, whose notch piece was left out).
/// The untrimmed pose stays a candidate: where a neighbour's socket is partly sealed, the
/// pull of the points cutting into it takes the piece to a pose that passes, and trimmed
/// they stay where they cut (irregular 100 photos seed 22: 8.8 % of the outline cuts in at
/// the trimmed pose, 8 % allowed).
pub(super) fn notch_stages(limits: NotchLimits) -> [(f64, usize); 3] {
    [
        (f64::INFINITY, ICP_ITERATIONS),
        (limits.cap, TRIMMED_ITERATIONS),
        (limits.far(), TRIMMED_ITERATIONS),
    ]
}

/// `outline` and `region`'s rim thinned for a fit, the rim in a tree, and the rim points
/// deeper than `limits.depth` inside the cluster's hull; `None` where fewer than eight are.
pub(super) fn thinned_with_deep_rim(
    outline: &[P2],
    region: &Hole,
    frame: &Frame,
    limits: NotchLimits,
) -> Option<(Vec<P2>, Rim, Vec<P2>)> {
    let outline = thin(outline, FIT_POINTS);
    let rim = Rim::new(thin(&region.rim, 2 * FIT_POINTS));
    let deep: Vec<P2> = rim
        .points
        .iter()
        .filter(|q| frame.deeper_than(q, limits.depth))
        .copied()
        .collect();
    (deep.len() >= 8).then_some((outline, rim, deep))
}

/// How far (in notch depths, a fifth of the median piece each) [`faces_outside`] looks.
const OUTSIDE_REACH: f64 = 10.0;

/// Whether point `k` of the `placed` outline (`turn` 1 if clockwise on screen, -1 if not)
/// faces the outside: straight out from it, across the outline, the hull's edge comes before
/// any of the cluster's pieces, within [`OUTSIDE_REACH`]. Where the puzzle's edge bows in,
/// the hull's chord runs far beyond a border piece's side, and the middle of that side lies
/// deeper in the hull than it lies from the rim, facing only the empty bay (irregular 100
/// scans seed 36: 9.2 % of the outline outliers at the true pose, 8 % allowed).
pub(super) fn faces_outside(
    placed: &[P2],
    k: usize,
    turn: f64,
    frame: &Frame,
    limits: NotchLimits,
) -> bool {
    let n = placed.len();
    let Some(along) = (placed[(k + 1) % n] - placed[(k + n - 1) % n]).try_normalize(1e-9) else {
        return false;
    };
    let out = Vector2::new(along.y, -along.x) * turn;
    let start = placed[k];
    (1..=(OUTSIDE_REACH * limits.depth) as usize)
        .map(|t| start + out * t as f64)
        .take_while(|q| !frame.covers(q))
        .any(|q| frame.depth(&q) < 0.0)
}

/// A point this close (px) to a border side lies on it.
const ON_BORDER_PX: f64 = 2.0;

/// Whether `q` lies on one of the `border` sides of an item: the puzzle's edge faces no piece,
/// and where the edge is wavy the hull runs outside it, so that the item's border side lies
/// deep in the hull, far from any rim (irregular 100 photos seed 24: a pair's border side made
/// 9–12 % of its whole-notch fit's points outliers, over the 8 % allowed, and the pair hung
/// outside). The frame's own border sides are kept among the deep rim: in an earlier form of
/// this change, leaving them out too lost irregular 100 photos seed 23 (100 → 97.7 %).
pub(super) fn on_border(border: Option<&Rim>, q: &P2) -> bool {
    border.is_some_and(|b| b.nearest_within(q, ON_BORDER_PX).is_some())
}

/// What [`fit_to_notch`] accepts, in pixels but for `max_intrusion`, a share of the outline.
#[derive(Clone, Copy, Debug)]
pub(super) struct NotchLimits {
    pub tolerance: f64,
    /// The span of a knob (see `knobs::swallowed_knob`, `knobs::lost_knob`).
    pub knob: f64,
    pub cap: f64,
    pub depth: f64,
    pub max_intrusion: f64,
    pub max_outliers: f64,
}

impl NotchLimits {
    /// Over this distance from the other side a point of a fit is an outlier (see
    /// `max_outliers`): twice the tolerance.
    pub fn far(&self) -> f64 {
        2.0 * self.tolerance
    }
}
