//! Segmentation: one photo or scan → one filled binary mask per piece.
//!
//! The steps, each in its own module:
//! 1. [`colour`]: the image in CIELAB, where distance follows perceived colour difference.
//! 2. [`background`]: the background colour from the image border's dominant colour, then its
//!    slow field over the image (illumination flattening) from per-block robust estimates;
//!    [`model`] measures every pixel's distance from it and the noise.
//! 3. [`threshold`]: distance of each pixel from the local background, split automatically
//!    (Otsu, floored at the background's own noise).
//! 4. [`morphology`]: close, fill holes, open, fill holes: bridge hairline gaps in a piece's
//!    rim, fill the piece, then drop hairs and dust.
//! 5. [`components`]: hole filling, 8-connected blobs, each blob's cropped mask.
//! 6. [`classify`]: speck / clipped / merged against the image's median piece, reading order.
//!
//! See `docs/segment.md` for the options, limits and measured quality.

mod background;
mod classify;
mod clipping;
mod colour;
mod components;
mod dominant;
mod faces;
mod faint;
mod labelling;
mod model;
mod morphology;
mod necks;
mod rim;
mod rim_gaps;
mod sealed_sockets;
mod threshold;
mod welded;

use super::region::{PieceRegion, Segmentation};
use crate::piece_set::RejectReason;
use classify::Verdict;
pub use colour::{distance as lab_distance, LabConverter};
use image::{GrayImage, RgbImage};
pub use model::background_distance;
use model::{model_background, BackgroundModel};
use rayon::prelude::*;

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
    /// a printed grid label); default 0.4. The smallest real piece, a corner piece with two
    /// holes, is about 0.55 of an interior piece with four knobs and 0.8 of a typical one, while
    /// gathanase's grid labels reach 0.34 of its median piece.
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
            min_speck_fraction: 0.4,
            merged_factor: 1.8,
            morphology_radius: None,
        }
    }
}

/// The lowest automatic threshold, in ΔE: about twice the just-noticeable difference. An image
/// with no piece at all has nothing this far from its background but noise.
pub const MIN_AUTO_THRESHOLD: f32 = 5.0;
/// The low threshold of the hysteresis pass, in multiples of the background noise.
const LOW_NOISE_FACTOR: f32 = 4.0;
/// How far (in multiples of the background noise) a pixel of the low pass must be from every
/// shade of the background: low, because the box-averaged distance has little noise left.
const SHADE_NOISE_FACTOR: f32 = 3.0;
/// Floor of that distance from every shade, ΔE: a very clean background (noise under 1 ΔE)
/// would otherwise let the growth follow the faint tint of a real shadow.
const MIN_SHADE_DISTANCE: f32 = 2.5;
/// A ridge of the distance image (averaged along 7 pixels of rim) must be this many times the
/// background noise to count as rim: measured on generated photos, JPEG ringing along a rim
/// stays under 1.2× the noise, a white piece's rim on white paper reaches 2–3 ΔE.
const RIM_NOISE_FACTOR: f32 = 1.5;
/// The least ridge height that counts as rim, ΔE: on a clipped white background the noise is
/// near zero.
const MIN_RIM_RIDGE: f32 = 1.0;
/// A ridge this many times the background noise starts a rim growth of its own (see
/// [`rim::RimEvidence::seed_ridge`]): on classic photo seed 55 the rim of a cream piece on white
/// paper stands 4–6 ΔE above its sides with the noise at 1.1, while 99 % of the background's
/// ridge values are under 1.0 ΔE.
const RIM_SEED_NOISE_FACTOR: f32 = 3.0;
/// A face enclosed only by rims must be at least this fraction of the median piece, so that
/// small pockets a rim growth closes in shadows and sockets are not added. Measured: a white
/// band along one side of a piece (piece 1000 of classic photo seed 23) is just under 10 %
/// and was lost at 10 %; at 3 % no generated set (classic photos 12–1000, scans, polygonal)
/// got fatter (median area/perimeter offsets within about 0.01 px of before).
const MIN_FACE_FRACTION: f64 = 0.03;
/// A blob of the low pass with no strong pixel is a faint piece if its mean distance is at least
/// this many times the low threshold (and it is as large as a piece): well clear of the
/// background, as a pale piece is over most of its face.
const FAINT_LOW_FACTOR: f32 = 2.0;
/// The widest neck [`necks`] cuts a merged blob at, as a fraction of the side of the reference
/// piece (the square root of its area), in disc radius: 0.2 cuts bridges up to 40 % of a
/// piece's side wide, narrower than any piece's body.
const MAX_NECK_FRACTION: f64 = 0.2;
/// An image whose pieces' sizes vary by at least this coefficient of variation is an irregular
/// cut, where a blob over the merged factor with no neck can be one large piece (see
/// [`welded::WeldEvidence::largest_piece`]). Measured on the truth of 100 fresh generated
/// sets: classic cuts' images 0.01–0.11, the irregular images holding a piece over 1.8 times
/// the median 0.175–0.25 (without it).
const VARIED_SIZES: f64 = 0.14;
/// … and where a single piece reaches this multiple of the reference piece (the generated
/// irregular cuts' largest: 1.97 times the median, its blob 5 % more with its rim).
const LARGEST_PIECE_FACTOR: f64 = 2.5;

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

/// A black-and-white image (a mask made by another tool, or a scan already thresholded), or
/// one saved lossily (see [`is_black_and_white`]). Returns the mask, thresholded at mid-grey,
/// with the border's majority value as background, and whether that background is white;
/// `None` for any other image.
fn binary_mask(img: &RgbImage) -> Option<(GrayImage, bool)> {
    if !is_black_and_white(img) {
        return None;
    }
    let (w, h) = img.dimensions();
    let white = |x: u32, y: u32| img.get_pixel(x, y)[0] >= 128;
    let border = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
    let (mut whites, mut total) = (0usize, 0usize);
    for (x, y) in border {
        total += 1;
        whites += usize::from(white(x, y));
    }
    let background_white = 2 * whites > total;
    let mask = GrayImage::from_fn(w, h, |x, y| {
        image::Luma([if white(x, y) != background_white {
            255
        } else {
            0
        }])
    });
    Some((mask, background_white))
}

/// The most a grey level of a mask saved as JPEG strays from black or white, and its channels
/// from one another: lucaSartore's 222 JPEG masks stay within 31 of black or white and are
/// grey to the level, while a photograph of pieces has most of its pixels in between (70 % of
/// each pikachu-100 photo lies between 32 and 223).
const MASK_NOISE: u8 = 48;

/// Whether every pixel of `img` is black or white (within [`MASK_NOISE`], so that a mask saved
/// as JPEG counts): a mask, not a photograph. Such an image is thresholded at mid-grey, with
/// nothing to model, and its outlines are not snapped to colour edges.
pub fn is_black_and_white(img: &RgbImage) -> bool {
    img.pixels().all(|p| {
        let [r, g, b] = p.0;
        let (lo, hi) = (r.min(g).min(b), r.max(g).max(b));
        hi - lo <= MASK_NOISE / 4 && (hi <= MASK_NOISE || lo >= 255 - MASK_NOISE)
    })
}

/// [`segment`], also returning what it measured.
pub fn segment_with_diagnostics(
    img: &RgbImage,
    opts: &SegmentOptions,
) -> (Segmentation, SegmentDiagnostics) {
    let (width, height) = img.dimensions();
    if width == 0 || height == 0 {
        return (
            Segmentation::default(),
            SegmentDiagnostics {
                background_lab: [0.0; 3],
                threshold: 0.0,
                background_noise: 0.0,
                morphology_radius: 0,
            },
        );
    }
    let (mut mask, strong, model, radius) = match binary_mask(img) {
        // Already a mask: the border's value is background, nothing to model or clean up
        // beyond filling holes.
        Some((mask, background_white)) => {
            let lab = if background_white {
                [100.0, 0.0, 0.0]
            } else {
                [0.0; 3]
            };
            let model = BackgroundModel {
                distances: Vec::new(),
                shadowless: Vec::new(),
                threshold: 0.5,
                noise: 0.0,
                shade_noise: 0.0,
                seed: lab,
            };
            (mask, None, model, 0)
        }
        None => {
            let model = model_background(img, opts);
            let radius = opts
                .morphology_radius
                .unwrap_or_else(|| morphology::auto_radius(width, height));
            let (mask, strong) = threshold_masks(&model, width, height, opts);
            (mask, Some(strong), model, radius)
        }
    };
    let (t, noise, seed) = (model.threshold, model.noise, model.seed);
    let grown = strong.is_some().then(|| mask.clone());
    morphology::clean(&mut mask, radius);
    let (mut labels, mut blobs) = components::label_blobs(&mask);
    let mut reference = classify::reference_area(&blobs, width, height);
    // The rim closure's mask (if it closed any) and the hysteresis result, before their
    // clean-up, for [`faces::enclosed_faces`].
    let mut unclean = None;
    if let (Some(mut grown), Some(piece)) = (grown, reference) {
        let min_mean = FAINT_LOW_FACTOR * auto_low(noise).min(t);
        let min_area = (opts.min_speck_fraction * piece as f64) as u64;
        if let Some(more) = faint::add_faint_pieces(
            &grown,
            &model.distances,
            low_pass(&model, opts),
            min_area,
            min_mean,
        ) {
            grown = more;
            mask = grown.clone();
            morphology::clean(&mut mask, radius);
            (labels, blobs) = components::label_blobs(&mask);
            reference = classify::reference_area(&blobs, width, height);
        }
        let evidence = rim::RimEvidence {
            distances: &model.distances,
            width: width as usize,
            ridge: rim_ridge(noise),
            min_interior: (MIN_FACE_FRACTION * piece as f64) as u64,
            seed_ridge: RIM_SEED_NOISE_FACTOR * noise.max(MIN_RIM_RIDGE),
        };
        let closed = rim::close_rims(&grown, &evidence, low_pass(&model, opts));
        if let Some(closed) = &closed {
            mask = closed.clone();
            morphology::clean(&mut mask, radius);
            (labels, blobs) = components::label_blobs(&mask);
            reference = classify::reference_area(&blobs, width, height);
        }
        unclean = Some((closed, grown, evidence.min_interior));
    }
    drop(model);
    let verdict = |blob: &components::Blob| {
        classify::classify(
            blob,
            reference,
            width,
            height,
            opts.min_speck_fraction,
            opts.merged_factor,
        )
    };
    let mut pieces = Vec::new();
    let mut rejected = Vec::new();
    // Only a merged blob is segmented again with its faces (see [`welded`]).
    let merged = |b: &components::Blob| verdict(b) == Verdict::Reject(RejectReason::Merged);
    let faces = match &unclean {
        Some((closed, grown, min_area)) if blobs.iter().any(merged) => {
            let before = closed.as_ref().unwrap_or(grown);
            Some((faces::enclosed_faces(before, grown, *min_area), *min_area))
        }
        _ => None,
    };
    drop(unclean);
    let piece_areas: Vec<u64> = blobs
        .iter()
        .filter(|b| verdict(b) == Verdict::Piece)
        .map(|b| b.area)
        .collect();
    let varied = classify::size_spread(&piece_areas).is_some_and(|spread| spread >= VARIED_SIZES);
    let welds = strong.as_ref().map(|strong| welded::WeldEvidence {
        labels: &labels,
        strong,
        faces: faces.as_ref().map(|(f, a)| (f, *a)),
        radius,
        necks: reference.map(|piece| {
            let min_part = (opts.min_speck_fraction * piece as f64) as u64;
            let max_radius = (MAX_NECK_FRACTION * (piece as f64).sqrt()).ceil() as u32;
            (min_part, max_radius)
        }),
        largest_piece: reference
            .filter(|_| varied)
            .map(|piece| (LARGEST_PIECE_FACTOR * piece as f64) as u64),
    });
    for blob in &blobs {
        match (verdict(blob), &welds) {
            (Verdict::Piece, _) => pieces.push((blob.clone(), region_of(&labels, blob))),
            (Verdict::Reject(RejectReason::Merged | RejectReason::Clipped), Some(welds)) => {
                for (v, part, mask) in welded::resegment(blob, welds, verdict) {
                    match v {
                        Verdict::Piece => {
                            let region = PieceRegion {
                                bbox: part.bbox,
                                mask,
                                area: part.area,
                            };
                            pieces.push((part, region));
                        }
                        Verdict::Reject(reason) => rejected.push(classify::rejected(&part, reason)),
                    }
                }
            }
            (Verdict::Reject(reason), _) => rejected.push(classify::rejected(blob, reason)),
        }
    }
    if strong.is_some() {
        reopen_sealed_sockets(img, &mut pieces, noise);
    }
    let order = classify::reading_order(&pieces.iter().map(|p| &p.0).collect::<Vec<_>>());
    let mut slots: Vec<Option<PieceRegion>> = pieces.into_iter().map(|p| Some(p.1)).collect();
    let pieces = order.into_iter().filter_map(|i| slots[i].take()).collect();
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

/// Gives each piece's sealed sockets back to the background (see [`sealed_sockets`]).
fn reopen_sealed_sockets(
    img: &RgbImage,
    pieces: &mut [(components::Blob, PieceRegion)],
    noise: f32,
) {
    let (w, h) = img.dimensions();
    let mut occupied = vec![false; w as usize * h as usize];
    for (_, region) in pieces.iter() {
        let [x0, y0, ..] = region.bbox;
        for (x, y, p) in region.mask.enumerate_pixels() {
            if p[0] != 0 {
                occupied[(y0 + y) as usize * w as usize + (x0 + x) as usize] = true;
            }
        }
    }
    let around = sealed_sockets::Surroundings {
        image: img,
        pieces: &occupied,
        noise,
    };
    pieces.par_iter_mut().for_each(|(_, region)| {
        if let Some(reopened) = sealed_sockets::reopen(region, &around) {
            *region = reopened;
        }
    });
}

/// A blob's cropped mask as a piece region.
fn region_of(labels: &components::Labels, blob: &components::Blob) -> PieceRegion {
    PieceRegion {
        bbox: blob.bbox,
        mask: components::crop_mask(labels, blob),
        area: blob.area,
    }
}

/// The piece mask by hysteresis (see [`threshold::hysteresis`]), and the strong pixels alone.
///
/// The low pass accepts a pixel at [`LOW_NOISE_FACTOR`] × the background noise from the
/// background, unless it looks like the background in shade: its shadow-forgiving distance,
/// averaged over a 3 × 3 box so JPEG and sensor noise do not let the growth leak through a
/// shadow pixel by pixel, must also exceed [`SHADE_NOISE_FACTOR`] × the noise.
fn threshold_masks(
    model: &BackgroundModel,
    width: u32,
    height: u32,
    opts: &SegmentOptions,
) -> (GrayImage, GrayImage) {
    let (dist, t) = (&model.distances, model.threshold);
    let strong: Vec<u8> = dist.iter().map(|&d| u8::from(d > t) * 255).collect();
    let mask = threshold::hysteresis(strong.clone(), width as usize, low_pass(model, opts));
    let image = |v| GrayImage::from_raw(width, height, v).expect("mask has the image's size");
    (image(mask), image(strong))
}

/// The low pass of the hysteresis: a pixel at [`LOW_NOISE_FACTOR`] × the background noise from
/// the background that does not look like the background in shade (by [`SHADE_NOISE_FACTOR`] ×
/// the noise of the unclipped background, see [`clipping`]).
fn low_pass<'a>(model: &'a BackgroundModel, opts: &SegmentOptions) -> impl Fn(usize) -> bool + 'a {
    let (t, noise) = (model.threshold, model.noise);
    let low = opts.threshold.unwrap_or_else(|| auto_low(noise)).min(t);
    let shade = (SHADE_NOISE_FACTOR * model.shade_noise).max(MIN_SHADE_DISTANCE);
    move |j| model.distances[j] > low && model.shadowless[j] > shade
}

/// The ridge height that counts as rim, ΔE: [`RIM_NOISE_FACTOR`] × the background noise, at
/// least [`MIN_RIM_RIDGE`].
fn rim_ridge(noise: f32) -> f32 {
    (RIM_NOISE_FACTOR * noise).max(MIN_RIM_RIDGE)
}

/// The automatic low threshold of the hysteresis, ΔE, from the background noise.
fn auto_low(noise: f32) -> f32 {
    (LOW_NOISE_FACTOR * noise).max(MIN_AUTO_THRESHOLD)
}

#[cfg(test)]
mod tests;
