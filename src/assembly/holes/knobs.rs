//! Knobs the front end damaged, excused in a notch fit (see `fit::fit_to_notch`): a knob
//! into a neighbour's socket that was sealed, a neighbour's knob swallowed by the piece's own
//! sealed socket, and a knob lost, traced as a socket. Each leaves one knob's worth of
//! points far from the other side, in one place; the rest of the fit must then be tight.

use super::super::geometry::P2;
use super::fit::NotchLimits;
use super::partial::longest_cyclic_run;
use crate::plane::contains;

/// A knob is at most this share of a piece's outline, and where it cuts into a sealed socket
/// the rest of the outline cuts in at most at this share (see [`sealed_socket`]).
const KNOB_SHARE: f64 = 0.15;
const KNOB_REST: f64 = 0.04;

/// Which outline points a knob cutting into a sealed socket excuses, given which cut into the
/// cluster (`cutting`, in outline order): none where at most `max_intrusion` of them cut in;
/// one run of them no longer than a knob ([`KNOB_SHARE`]) where it cuts in with at most
/// [`KNOB_REST`] of the outline cutting in elsewhere; `None` where the fit cuts in otherwise.
/// The front end seals a socket where its clean-up bridges the lips of a narrow neck and the
/// bowl is filled: the neighbour's outline runs straight across it, and the knob of the piece
/// that belongs there cuts 6–20 px into it, 10–11 % of its outline (irregular 100 photos seeds
/// 3, 64 and 87; the neighbour's truth outline up to 12.8 px inside the traced one).
pub(super) fn sealed_socket(cutting: &[bool], max_intrusion: f64) -> Option<Vec<bool>> {
    let n = cutting.len() as f64;
    let count = cutting.iter().filter(|&&c| c).count();
    if count as f64 <= max_intrusion * n {
        return Some(vec![false; cutting.len()]);
    }
    knob_long_run(cutting).map(|(_, mask)| mask)
}

/// The longest run of `flags` (in outline order) where it is no longer than a knob
/// ([`KNOB_SHARE`] of them) and at most [`KNOB_REST`] of them are set elsewhere: its points in
/// order, as indices, and as a mask; `None` otherwise, or where none is set.
fn knob_long_run(flags: &[bool]) -> Option<(Vec<usize>, Vec<bool>)> {
    let n = flags.len();
    let count = flags.iter().filter(|&&f| f).count();
    let (start, len) = longest_cyclic_run(flags)?;
    if len as f64 > KNOB_SHARE * n as f64 || (count - len) as f64 > KNOB_REST * n as f64 {
        return None;
    }
    let run: Vec<usize> = (0..len).map(|t| (start + t) % n).collect();
    let mut mask = vec![false; n];
    for &k in &run {
        mask[k] = true;
    }
    Some((run, mask))
}

/// Which of the deep rim points (`deep`, at distances `back` from the `placed` outline) a knob
/// of the cluster swallowed by the item's own sealed socket excuses: none where at most
/// `max_outliers` of them lie over twice the tolerance away; those inside the placed outline
/// where they lie within a knob's span (`limits.knob`) of one another and at most
/// [`KNOB_REST`] of the rim lies that far elsewhere; `None` otherwise. The mirror of
/// [`sealed_socket`]: where the front end sealed the item's own socket, its outline runs
/// across the socket's mouth and the neighbour's knob lies inside it, 10–17 px from the
/// outline (irregular 100 photos seed 88: a corner piece, 12–14 % of its notch's deep rim that
/// far at its true pose, 8 % allowed).
pub(super) fn swallowed_knob(
    deep: &[P2],
    back: &[f64],
    placed: &[P2],
    limits: NotchLimits,
) -> Option<Vec<bool>> {
    let far = limits.far();
    let n = back.len() as f64;
    let count = back.iter().filter(|&&d| d > far).count();
    if count as f64 <= limits.max_outliers * n {
        return Some(vec![false; back.len()]);
    }
    let mask: Vec<bool> = deep
        .iter()
        .zip(back)
        .map(|(q, &d)| d > far && contains(placed, *q))
        .collect();
    let knob = masked(deep, &mask);
    let rest = count - knob.len();
    (!knob.is_empty() && span(&knob) <= limits.knob && rest as f64 <= KNOB_REST * n).then_some(mask)
}

/// Which outline points (of `placed`, those far from the rim and deep inside the hull:
/// `deep_far`) and which deep rim points (`deep`, at distances `back` from the outline) a knob
/// the front end lost excuses: the outline's far points in one run no longer than a knob's
/// ([`KNOB_SHARE`], at most [`KNOB_REST`] of the outline far elsewhere), the rim's far points
/// outside the placed outline, no more than a knob's share of the rim either, within a knob's
/// span (`limits.knob`) of one another (at most [`KNOB_REST`] of the rim far elsewhere), and
/// the two meeting within a knob's span; `None` otherwise, or where either is missing. Where
/// the print of a knob is the colour of the paper, the piece is traced with a socket in its
/// place: at the true pose its outline runs deep inside the piece there, and the neighbour's
/// socket that the knob fills stays empty (classic 100 photos seed 13, a white knob on white
/// paper: 12.1 % of the outline and 9–10.5 % of the notch's deep rim that far, 8 % allowed;
/// the rest fits at 0.39 of the tolerance). Without the bound on the rim, a region a fifth to
/// a third of whose rim the piece left empty, within a knob's span, passed (irregular 100
/// photos seed 13 with three missing and three extraneous pieces).
pub(super) fn lost_knob(
    placed: &[P2],
    deep_far: &[bool],
    deep: &[P2],
    back: &[f64],
    limits: NotchLimits,
) -> Option<(Vec<bool>, Vec<bool>)> {
    let far = limits.far();
    let (run, outline_mask) = knob_long_run(deep_far)?;
    let far_back = back.iter().filter(|&&d| d > far).count();
    let back_mask: Vec<bool> = deep
        .iter()
        .zip(back)
        .map(|(q, &d)| d > far && !contains(placed, *q))
        .collect();
    let bowl = masked(deep, &back_mask);
    let run: Vec<P2> = run.iter().map(|&k| placed[k]).collect();
    let rest = far_back - bowl.len();
    let meet = bowl
        .iter()
        .flat_map(|a| run.iter().map(move |b| (a - b).norm()))
        .fold(f64::INFINITY, f64::min);
    (!bowl.is_empty()
        && bowl.len() as f64 <= KNOB_SHARE * back.len() as f64
        && span(&bowl) <= limits.knob
        && rest as f64 <= KNOB_REST * back.len() as f64
        && meet <= limits.knob)
        .then_some((outline_mask, back_mask))
}

/// The `points` whose `mask` is set.
fn masked(points: &[P2], mask: &[bool]) -> Vec<P2> {
    points
        .iter()
        .zip(mask)
        .filter(|(_, &m)| m)
        .map(|(q, _)| *q)
        .collect()
}

/// The largest distance between two of `points` (0 for fewer than two).
fn span(points: &[P2]) -> f64 {
    points
        .iter()
        .flat_map(|a| points.iter().map(move |b| (a - b).norm()))
        .fold(0.0, f64::max)
}
