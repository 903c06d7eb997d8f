//! Every item fitted to a region: which fit applies by their areas (the whole region, a
//! notch, or part of a region a few pieces wide, see `partial`), with what limits, and
//! remembered across rounds (see `cache`). Which of the fits a round accepts is the round's
//! decision (see the module above).

use super::super::geometry::P2;
use super::super::shapes::Shapes;
use super::cache::{bounded_key, FitCache, Found};
use super::fit::{fit_to_notch, fit_to_rim, NotchLimits};
use super::items::Item;
use super::partial::fit_partial;
use super::raster::{Frame, SEAM_CLOSE_PX};
use super::regions::Hole;
use nalgebra::Isometry2;

/// A hole is a candidate for a piece when their areas (the hole's corrected for the grown
/// rim) agree within this fraction.
const AREA_TOLERANCE: f64 = 0.3;
/// A notch's area, cut by the hull's chord, lies within these fractions of its piece's: less
/// where the piece's edge bulges out past the chord, more where the hull also takes in dents
/// of an irregular exterior beside it.
pub(super) const NOTCH_AREA: (f64, f64) = (0.4, 1.6);
/// A seam point of a notch fit counts at most this fraction of the median piece size.
const NOTCH_CAP_FRACTION: f64 = 0.15;
/// Outline points of a notch fit, whole or partial, that may lie inside the cluster beyond
/// the tolerance: a knob reaching into a neighbour whose knob hole the front end partly
/// filled, or a neighbour's outline swollen by its shadow. Measured on true poses: 4.3 %
/// (irregular 20 photos seed 21), 6 % (irregular 100 photos seed 2, a partial fit); the best
/// wrong pose of classic 100 photos seed 3 cuts 9.7 %. Until session 15 whole fits allowed
/// 3 %, which left those pieces out; at 8 % three more pieces were placed on the sweep of
/// 146 sets, each right, and nothing else changed. A knob into a socket the front end sealed
/// whole cuts in further (see `fit::sealed_socket`).
const MAX_INTRUSION: f64 = 0.08;
/// Points of a notch fit, either way, that may lie over twice the tolerance from the other
/// side: a knob is about a sixth of a classic piece's outline.
const MAX_OUTLIERS: f64 = 0.08;
/// A knob spans at most this fraction of the median piece size: its head up to 0.23 of a
/// piece across and 0.27 high, in `jigsaw synth`'s cuts as in real puzzles (see
/// `knobs::swallowed_knob`, `knobs::lost_knob`).
const KNOB_SPAN_FRACTION: f64 = 0.35;
/// A notch fit compares the piece's outline and the notch's rim where they lie deeper inside
/// the hull than this fraction of the median piece size: the dents of an irregular exterior
/// are shallower (a sixth of a piece at most, in `jigsaw synth`), and so are the sides of a
/// piece that lie on the puzzle's edge.
const NOTCH_DEPTH_FRACTION: f64 = 0.2;
/// Fit accepted when its distance (see [`fit_to_rim`], [`fit_to_notch`]) is at most this
/// fraction of the median piece size (plus the seams' width).
const FIT_FRACTION: f64 = 0.02;
/// A region of up to this many pieces' area is filled from its ends, a piece at a time (see
/// [`partial`]): a run of three border pieces left out, with the hull's slack.
const MAX_RUN_AREA: f64 = 4.5;
/// … and of up to this many where a cluster that grew apart waits for the region, being at
/// least [`AWAITED_SHARE`] of it: a wide notch where the cluster belongs with a piece or two
/// beside it, which it does not fill whole (irregular 100 photos seed 97: seven pieces' area,
/// a cluster of five, and no fit at all until its two end pieces were fitted to their parts).
/// Not for every region: the strips between an irregular edge and the hull are as wide, and
/// fitting every left-out piece to parts of them tripled the time of irregular 100 photos
/// seed 13 with three missing and three extraneous pieces (75 → 237 s), for nothing.
const MAX_WIDE_RUN_AREA: f64 = 9.0;
const AWAITED_SHARE: f64 = 0.5;
/// Fits of a piece to part of a region, at different places, kept for the ambiguity tests.
const PARTIAL_PLACES: usize = 3;

/// What a notch fit accepts for pieces of `median_size` (see [`NotchLimits`]).
pub(super) fn notch_limits(median_size: f64) -> NotchLimits {
    NotchLimits {
        tolerance: FIT_FRACTION * median_size + SEAM_CLOSE_PX as f64,
        knob: KNOB_SPAN_FRACTION * median_size,
        cap: NOTCH_CAP_FRACTION * median_size,
        depth: NOTCH_DEPTH_FRACTION * median_size,
        max_intrusion: MAX_INTRUSION,
        max_outliers: MAX_OUTLIERS,
    }
}

/// An item (see [`items`]) fitted to a region.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fit {
    /// Index into the round's items.
    pub item: usize,
    /// From the item's frame to the cluster's.
    pub pose: Isometry2<f64>,
    /// Pixels: see [`fit_to_rim`], [`fit_to_notch`] and [`fit_partial`].
    pub distance: f64,
    /// The item's centroid placed.
    pub centre: P2,
    /// To part of the region (see [`partial`]).
    pub partial: bool,
    /// With a knob excused (into a sealed socket, swallowed or lost, see [`fit_to_notch`]): the
    /// distance with its points left out.
    pub excused: Option<f64>,
    /// The item's (see [`item_limits`]).
    pub tolerance: f64,
    /// How well the picture runs on across its seams (see [`seam_colour`]).
    pub colour: f64,
    /// How many seams that colour was read from (0 before it is read).
    pub seams: usize,
}

/// Every item that fits `hole` at all, best first; a region a few pieces wide gives each
/// item's fits to part of it at up to [`PARTIAL_PLACES`] places.
pub(super) fn region_fits(
    shapes: &Shapes,
    frame: &Frame,
    limits: NotchLimits,
    (hole, region): (&Hole, u64),
    items: &[Item],
    cache: &FitCache,
) -> Vec<Fit> {
    let mut fits: Vec<Fit> = Vec::new();
    let most = run_area(hole, items);
    let region = bounded_key(region, most);
    for (k, item) in items.iter().enumerate() {
        let limits = item_limits(limits, item);
        let fit = |f: Found| Fit {
            item: k,
            pose: f.pose,
            distance: f.distance,
            centre: f.pose * item.centroid,
            partial: f.partial,
            excused: f.excused,
            tolerance: limits.tolerance,
            colour: f64::MAX,
            seams: 0,
        };
        let whole = |(pose, distance): (Isometry2<f64>, f64)| Found {
            pose,
            distance,
            partial: false,
            excused: None,
        };
        let found = cache.get(item.key, region, || {
            if fits_area(hole, item.area) {
                let found = if hole.open {
                    fit_to_notch(&item.outline, item.border.as_ref(), hole, frame, limits)
                } else {
                    Some(whole(fit_to_rim(&item.outline, hole)))
                };
                found.into_iter().collect()
            } else if holds_a_run(hole, item.area, most) {
                fit_partial(
                    &item.outline,
                    item.border.as_ref(),
                    hole,
                    frame,
                    limits,
                    shapes.median_size,
                )
                .into_iter()
                .take(PARTIAL_PLACES)
                .map(|f| Found {
                    partial: true,
                    ..whole(f)
                })
                .collect()
            } else {
                Vec::new()
            }
        });
        fits.extend(found.into_iter().map(fit));
    }
    fits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    fits
}

/// `limits` for `item`: a cluster's outline is longer and its pieces' seams add up, so its
/// tolerance scales with its own size, not the median piece's (a two-piece cluster on classic
/// 100 photos seed 43 fits its hole at 4.9 px, where a piece's tolerance is 4.4).
fn item_limits(limits: NotchLimits, item: &Item) -> NotchLimits {
    match item.cluster {
        Some(_) => NotchLimits {
            tolerance: FIT_FRACTION * item.area.sqrt() + SEAM_CLOSE_PX as f64,
            ..limits
        },
        None => limits,
    }
}

/// Whether a piece of `area` pixels may fill `hole`.
pub(super) fn fits_area(hole: &Hole, area: f64) -> bool {
    if hole.open {
        hole.area >= NOTCH_AREA.0 * area && hole.area <= NOTCH_AREA.1 * area
    } else {
        (hole.area - area).abs() <= AREA_TOLERANCE * area
    }
}

/// How many pieces' area a region filled from its ends may have (see [`MAX_WIDE_RUN_AREA`]).
pub(super) fn run_area(hole: &Hole, items: &[Item]) -> f64 {
    let awaited = items
        .iter()
        .any(|it| it.cluster.is_some() && it.area >= AWAITED_SHARE * hole.area);
    if awaited {
        MAX_WIDE_RUN_AREA
    } else {
        MAX_RUN_AREA
    }
}

/// Whether `hole` is too large for a piece of `area` pixels but may take a run of a few, up to
/// `most` pieces' area (see [`run_area`]).
pub(super) fn holds_a_run(hole: &Hole, area: f64, most: f64) -> bool {
    let single = if hole.open {
        NOTCH_AREA.1
    } else {
        1.0 + AREA_TOLERANCE
    };
    hole.area > single * area && hole.area <= most * area
}
