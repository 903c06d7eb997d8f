//! Segmentation: one photo or scan → one filled binary mask per piece.
//!
//! The steps, each in its own module:
//! 1. [`colour`]: the image in CIELAB, where distance follows perceived colour difference.
//! 2. [`background`]: the background colour from the image border's dominant colour, then its
//!    slow field over the image (illumination flattening) from per-block robust estimates.
//! 3. [`threshold`]: distance of each pixel from the local background, split automatically
//!    (Otsu, floored at the background's own noise).
//! 4. [`morphology`]: open then close, to drop hairs and bridge hairline gaps.
//! 5. [`components`]: fill holes, label 8-connected blobs, crop each blob's mask.
//! 6. [`classify`]: speck / clipped / merged against the image's median piece, reading order.
//!
//! See `docs/segment.md` for the options, limits and measured quality.

mod background;
mod classify;
mod colour;
mod components;
mod morphology;
mod threshold;

use super::region::{PieceRegion, Segmentation};
use background::BackgroundField;
use classify::Verdict;
use colour::{distance, LabImage};
use image::{GrayImage, RgbImage};
use rayon::prelude::*;
use threshold::DistanceHistogram;

/// Tuning of [`segment`]. The defaults need no per-image change on any of the real sets; each
/// field exists so a flag can override it for an unusual capture.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentOptions {
    /// Fixed threshold on the distance from the background, in ΔE (CIE76) units, instead of the
    /// automatic one. Pixels further than this from the local background are piece.
    pub threshold: Option<f32>,
    /// The background colour (sRGB) instead of the one estimated from the image border. The
    /// illumination field is still estimated around it unless `flatten_illumination` is off.
    pub background: Option<[u8; 3]>,
    /// Estimate the background's slow variation across the image (uneven light, vignetting)
    /// instead of taking one colour for the whole image.
    pub flatten_illumination: bool,
    /// Weight of the lightness difference in the distance (1 = plain ΔE). Below 1 makes soft
    /// shadows (darker, same hue) count less; above 1 helps pieces whose colour matches the
    /// background's hue but not its lightness.
    pub lightness_weight: f32,
    /// A blob smaller than this fraction of the median piece area is a `speck` (dust, a hair,
    /// a label); default 0.2, since no real piece is a fifth of its neighbours' size.
    pub min_speck_fraction: f64,
    /// A blob larger than this multiple of the median piece area is `merged` (pieces touching);
    /// default 1.8, since two touching pieces make about 2× and real piece areas vary by ±30%.
    pub merged_factor: f64,
    /// Radius in pixels of the morphological open/close; `None` picks it from the image size
    /// (1 px per megapixel-side), `Some(0)` disables the clean-up.
    pub morphology_radius: Option<u8>,
}

impl Default for SegmentOptions {
    fn default() -> Self {
        SegmentOptions {
            threshold: None,
            background: None,
            flatten_illumination: true,
            lightness_weight: 1.0,
            min_speck_fraction: 0.2,
            merged_factor: 1.8,
            morphology_radius: None,
        }
    }
}

/// The lowest automatic threshold, in ΔE: about twice the just-noticeable difference. An image
/// with no piece at all has nothing this far from its background but noise.
pub const MIN_AUTO_THRESHOLD: f32 = 5.0;
/// The automatic threshold is at least this many times the median distance of the background
/// pixels from the background model (their noise level).
const NOISE_FACTOR: f32 = 4.0;
/// Background blocks per long side of the image.
const BLOCKS_PER_SIDE: u32 = 24;

/// What segmentation measured on the way: for debugging, docs and the overlays.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentDiagnostics {
    /// The background colour seed (Lab) from the border or the override.
    pub background_lab: [f32; 3],
    /// The distance threshold used, ΔE.
    pub threshold: f32,
    /// Median distance of background pixels from the model, ΔE.
    pub background_noise: f32,
    /// Morphology radius used, pixels.
    pub morphology_radius: u8,
}

/// Finds the pieces in `img`. Pieces are sorted in reading order (see
/// [`classify::reading_order`]); each mask is cropped to its box, 255 inside with holes filled.
/// Blobs touching the border are rejected as clipped, blobs much larger than the median piece
/// as merged, small ones as specks. An image with no piece gives an empty segmentation.
pub fn segment(img: &RgbImage, opts: &SegmentOptions) -> Segmentation {
    segment_with_diagnostics(img, opts).0
}

/// [`segment`], also returning what it measured.
pub fn segment_with_diagnostics(
    img: &RgbImage,
    opts: &SegmentOptions,
) -> (Segmentation, SegmentDiagnostics) {
    let (width, height) = img.dimensions();
    let lab = LabImage::from_rgb(img);
    let seed = opts
        .background
        .map(colour::rgb_to_lab)
        .unwrap_or_else(|| background::border_colour(&lab));
    let wl = opts.lightness_weight;

    // Pass 1 against one colour; passes 2 and 3 against a field estimated from the pixels the
    // previous pass called background.
    let mut field = BackgroundField::uniform(seed);
    let mut dist = distances(&lab, &field, wl);
    let (mut t, mut noise) = auto_threshold(&dist, opts);
    if opts.flatten_illumination {
        let block = (width.max(height) / BLOCKS_PER_SIDE).max(8);
        for _ in 0..2 {
            let prev = &dist;
            field = BackgroundField::estimate(&lab, block, seed, |i| prev[i] <= t);
            dist = distances(&lab, &field, wl);
            (t, noise) = auto_threshold(&dist, opts);
        }
    }

    let mut mask = GrayImage::from_raw(
        width,
        height,
        dist.iter().map(|&d| if d > t { 255 } else { 0 }).collect(),
    )
    .expect("mask has the image's size");
    drop(dist);
    let radius = opts
        .morphology_radius
        .unwrap_or_else(|| morphology::auto_radius(width, height));
    morphology::open_close(&mut mask, radius);
    components::fill_holes(&mut mask);
    let (labels, blobs) = components::label_blobs(&mask);

    let reference = classify::reference_area(&blobs, width, height);
    let mut pieces = Vec::new();
    let mut rejected = Vec::new();
    for blob in &blobs {
        match classify::classify(
            blob,
            reference,
            width,
            height,
            opts.min_speck_fraction,
            opts.merged_factor,
        ) {
            Verdict::Piece => pieces.push(blob),
            Verdict::Reject(reason) => rejected.push(classify::rejected(blob, reason)),
        }
    }
    let pieces = classify::reading_order(&pieces)
        .into_iter()
        .map(|i| {
            let blob = pieces[i];
            PieceRegion {
                bbox: blob.bbox,
                mask: components::crop_mask(&labels, blob),
                area: blob.area,
            }
        })
        .collect();
    rejected.sort_by_key(|r| (r.bbox[1], r.bbox[0]));
    (
        Segmentation { pieces, rejected },
        SegmentDiagnostics {
            background_lab: seed,
            threshold: t,
            background_noise: noise,
            morphology_radius: radius,
        },
    )
}

/// Distance of every pixel from the background model, row-parallel.
fn distances(lab: &LabImage, field: &BackgroundField, wl: f32) -> Vec<f32> {
    let w = lab.width as usize;
    let mut out = vec![0f32; lab.pixels.len()];
    out.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        let src = &lab.pixels[y * w..(y + 1) * w];
        for (x, (d, &p)) in row.iter_mut().zip(src).enumerate() {
            *d = distance(p, field.at(x as u32, y as u32), wl);
        }
    });
    out
}

/// The threshold (override or automatic) and the background noise level.
fn auto_threshold(dist: &[f32], opts: &SegmentOptions) -> (f32, f32) {
    let hist = DistanceHistogram::new(dist);
    let otsu = hist.otsu();
    let noise = hist.median_below(otsu);
    let t = opts
        .threshold
        .unwrap_or_else(|| otsu.max(NOISE_FACTOR * noise).max(MIN_AUTO_THRESHOLD));
    (t, noise)
}
