//! Fits remembered across rounds and trials. A round fits every item to every region, and the
//! next round (or a re-examination trial, see `reexamine`) finds most regions and items as
//! they were: only those beside what was placed or taken off change. A fit depends on the
//! item's outline, the region, and the cluster around it (the sides of its hull nearby, for
//! the depth of a notch, and its pixels, for what a fit cuts into), so those make the key.

use super::super::geometry::{bounds, P2};
use super::raster::Frame;
use super::regions::Hole;
use nalgebra::Isometry2;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// A fit as found, before its colours are read (see `Fit`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    pub pose: Isometry2<f64>,
    pub distance: f64,
    pub partial: bool,
    /// With a knob excused (see `fit::fit_to_notch`): the distance with its points left out.
    pub excused: Option<f64>,
}

/// Fits of an item to a region, by their keys (see [`item_key`], [`region_key`]).
#[derive(Default)]
pub(crate) struct FitCache {
    fits: Mutex<HashMap<(u64, u64), Vec<Found>>>,
}

impl FitCache {
    /// The fits of the item and region keyed, computed by `fit` the first time.
    pub(super) fn get(
        &self,
        item: u64,
        region: u64,
        fit: impl FnOnce() -> Vec<Found>,
    ) -> Vec<Found> {
        if let Some(found) = self.lock().get(&(item, region)) {
            return found.clone();
        }
        let found = fit();
        self.lock().insert((item, region), found.clone());
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(u64, u64), Vec<Found>>> {
        // A panic elsewhere cannot leave a half-written entry: the map is used as it is.
        self.fits.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// An item's key: its pieces and their poses in its frame.
pub(super) fn item_key(members: &[(usize, Isometry2<f64>)]) -> u64 {
    let mut h = DefaultHasher::new();
    for (i, pose) in members {
        i.hash(&mut h);
        for x in [
            pose.translation.x,
            pose.translation.y,
            pose.rotation.angle(),
        ] {
            x.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

/// A region's key: its rim, inside and area, and around it (within `margin` of the rim's
/// bounds, where a fit to it lies) the cluster's pixels, which a fit must not cut into, and
/// the sides of the cluster's hull that give the depth of a point there.
pub(super) fn region_key(hole: &Hole, frame: &Frame, margin: f64) -> u64 {
    let mut h = DefaultHasher::new();
    hole.open.hash(&mut h);
    hole.area.to_bits().hash(&mut h);
    hash_points(&hole.rim, &mut h);
    hash_points(&hole.inside, &mut h);
    let [x0, y0, x1, y1] = bounds(&hole.rim);
    // The window in the frame's pixels, clamped to it; the frame's origin places it.
    let column = |x: f64| ((x - frame.ox as f64).floor().max(0.0) as usize).min(frame.w);
    let row = |y: f64| ((y - frame.oy as f64).floor().max(0.0) as usize).min(frame.h);
    let (c0, c1) = (column(x0 - margin), column(x1 + margin + 1.0));
    let (r0, r1) = (row(y0 - margin), row(y1 + margin + 1.0));
    (frame.ox + c0 as i64, frame.oy + r0 as i64, c1 - c0, r1 - r0).hash(&mut h);
    for r in r0..r1 {
        frame.filled[r * frame.w + c0..r * frame.w + c1].hash(&mut h);
    }
    // What the depth inside the hull is made of there: the hull's other sides do not count.
    for (a, b) in frame.hull_sides_within(
        (frame.ox + c0 as i64) as f64,
        (frame.oy + r0 as i64) as f64,
        (frame.ox + c1 as i64) as f64 - 1.0,
        (frame.oy + r1 as i64) as f64 - 1.0,
    ) {
        hash_points(&[a, b], &mut h);
    }
    h.finish()
}

/// A region's key for the fits allowed up to `run_area` pieces' area filled from its ends
/// (see `region_fits::run_area`): the same region gives other fits under another bound.
pub(super) fn bounded_key(region: u64, run_area: f64) -> u64 {
    let mut h = DefaultHasher::new();
    (region, run_area.to_bits()).hash(&mut h);
    h.finish()
}

fn hash_points(points: &[P2], h: &mut DefaultHasher) {
    points.len().hash(h);
    for q in points {
        q.x.to_bits().hash(h);
        q.y.to_bits().hash(h);
    }
}
