//! The background model: the background's colour field over the image (illumination
//! flattening), every pixel's distance from it, and the threshold and noise level read off
//! those distances. Everything later in segmentation thresholds these distances.

use super::background::{BackgroundField, Growth};
use super::clipping;
use super::colour::{self, distance, shadow_distance, LabConverter, LabImage};
use super::threshold::{self, DistanceHistogram};
use super::{auto_low, dominant, SegmentOptions, MIN_AUTO_THRESHOLD};
use image::RgbImage;
use rayon::prelude::*;

/// The automatic threshold is at least this many times the median distance of the background
/// pixels from the background model (their noise level).
const NOISE_FACTOR: f32 = 4.0;
/// Pixels in the point sample the background model is fitted on.
const MODEL_PIXELS: f64 = 1.0e6;
/// Largest colour step (ΔE) between neighbouring background blocks: well above the change of
/// light over one block (a 40-unit vignette over 24 blocks is under 2 per block), well below
/// the contrast of any piece the threshold could find.
const GROWTH_TOLERANCE: f32 = 6.0;
/// Background blocks per long side of the image.
const BLOCKS_PER_SIDE: u32 = 24;

/// The background model's result: every pixel's distance from it and the threshold.
pub(super) struct BackgroundModel {
    pub distances: Vec<f32>,
    /// Distances with shadows of the background forgiven ([`colour::shadow_distance`]): what
    /// the low pass of the hysteresis reads, so it grows into faint print but not into shade.
    pub shadowless: Vec<f32>,
    pub threshold: f32,
    pub noise: f32,
    /// The noise of the background where it is not clipped, which scales the shade test: the
    /// same as `noise` unless part of the background is overexposed (see [`clipping`]).
    pub shade_noise: f32,
    pub seed: [f32; 3],
}

pub(super) fn model_background(img: &RgbImage, opts: &SegmentOptions) -> BackgroundModel {
    let (width, height) = img.dimensions();
    // The model is fitted on a point sample of at most about a megapixel: the field is slow
    // and the histogram needs no more, and it keeps 12 MP photos fast.
    let step = ((width as f64 * height as f64 / MODEL_PIXELS).sqrt().ceil() as u32).max(1);
    let lab = LabImage::sampled(img, step);
    let seed = opts
        .background
        .map(colour::rgb_to_lab)
        .unwrap_or_else(|| dominant::border_colour(&lab));
    let wl = opts.lightness_weight;

    // Two fields, each grown over block colours and then refined once from the pixels it
    // classes as background. The distances are measured from the field grown step by step,
    // which may creep into a faint piece's face through the mixed blocks at its edge: that
    // face then stays out of the low pass as a whole and the rim closure fills it from its
    // outline. The shade test asks whether a pixel is the background in shade, so it reads
    // the consensus field (every block agrees with its neighbours), which never takes a
    // piece's colour: against a field tinted by a blue piece, the piece's own drop shadow
    // stood 4–7 ΔE off the shade ray and joined the mask up to 15 px deep (classic photos
    // seed 3, and 4 pieces of seed 12 at 500 pieces). The consensus field for the distances
    // too put pale faces half in the low pass, where they came out ragged: irregular 100
    // photos seed 21 fell from 100 to 86.6 %.
    let block = (width.max(height) / BLOCKS_PER_SIDE).max(8);
    let grown = |growth| {
        if opts.flatten_illumination {
            BackgroundField::grow(&lab, block, seed, GROWTH_TOLERANCE, growth)
        } else {
            BackgroundField::uniform(seed)
        }
    };
    let mut field = grown(Growth::Stepwise);
    let mut shade_field = grown(Growth::Consensus);
    // Only pixels near the first field count as background for the refined one, by the low
    // threshold: a piece whose colour is near the background sits under Otsu's threshold, and
    // taking its pixels in would tint the field around it.
    let dist = sampled_distances(&lab, &field, wl);
    let (t, noise) = auto_threshold(&dist, opts);
    let low = auto_low(noise).min(t);
    // The same pixels show the background's true tint where it is not overexposed.
    let chromaticity = clipping::unclipped_chromaticity(img, &lab, |i| dist[i] <= low);
    if opts.flatten_illumination {
        field = BackgroundField::estimate(&lab, block, seed, |i| dist[i] <= low);
        let near_shade_field = sampled_distances(&lab, &shade_field, wl);
        shade_field = BackgroundField::estimate(&lab, block, seed, |i| near_shade_field[i] <= low);
    }
    drop(dist);
    let (dist, mut shadowless) = full_distances(img, &field, &shade_field, wl, chromaticity);
    threshold::box_blur(&mut shadowless, width as usize, 1);
    let (threshold, noise) = auto_threshold(&dist, opts);
    // Overexposure hides the noise as well as the tint: clipped pixels sit at distance 0 and
    // pull the median down (to 0.4–0.9 ΔE on the classic photos on white paper, against
    // 1.1 where the paper is not clipped). A shadow is never clipped, so the shade test is
    // scaled by the noise of the unclipped background: pixels under the low threshold.
    let shade_noise = match chromaticity {
        Some(_) => {
            let low = auto_low(noise).min(threshold);
            let unclipped = dist
                .iter()
                .zip(img.pixels())
                .filter(|&(&d, p)| d <= low && !clipping::is_clipped(p.0))
                .map(|(&d, _)| d);
            DistanceHistogram::of(unclipped).median_below(low)
        }
        None => noise,
    };
    BackgroundModel {
        shade_noise,
        distances: dist,
        shadowless,
        threshold,
        noise,
        seed,
    }
}

/// Every pixel's distance (ΔE) from the modelled background, and the threshold segmentation
/// would use: for overlays and debugging pictures.
pub fn background_distance(
    img: &RgbImage,
    opts: &SegmentOptions,
) -> (image::ImageBuffer<image::Luma<f32>, Vec<f32>>, f32) {
    if img.width() == 0 || img.height() == 0 {
        return (image::ImageBuffer::new(img.width(), img.height()), 0.0);
    }
    let m = model_background(img, opts);
    let buf = image::ImageBuffer::from_raw(img.width(), img.height(), m.distances)
        .expect("one distance per pixel");
    (buf, m.threshold)
}

/// Distance of every sample of `lab` from the background model.
fn sampled_distances(lab: &LabImage, field: &BackgroundField, wl: f32) -> Vec<f32> {
    let w = lab.width as usize;
    let mut out = vec![0f32; lab.pixels.len()];
    out.par_chunks_mut(w)
        .enumerate()
        .for_each_init(Vec::new, |bg, (j, row)| {
            field.row(j as u32 * lab.step, lab.width, lab.step, bg);
            let src = &lab.pixels[j * w..(j + 1) * w];
            for ((d, &p), &q) in row.iter_mut().zip(src).zip(bg.iter()) {
                *d = distance(p, q, wl);
            }
        });
    out
}

/// Distance of every source pixel from the background model, plain (from `field`) and with
/// shadows forgiven (from `shade_field`, see [`model_background`]), row-parallel, converting
/// to Lab on the fly (a full-size Lab copy of a 12 MP photo would be 144 MB). With the `chromaticity` of an overexposed background's unclipped part, a shadow
/// may follow either the field's own shade ray or the one with that chromaticity (see
/// [`clipping`]).
fn full_distances(
    img: &RgbImage,
    field: &BackgroundField,
    shade_field: &BackgroundField,
    wl: f32,
    chromaticity: Option<[f32; 2]>,
) -> (Vec<f32>, Vec<f32>) {
    let w = img.width() as usize;
    let conv = LabConverter::new();
    let mut out = vec![0f32; w * img.height() as usize];
    let mut shadowless = vec![0f32; out.len()];
    out.par_chunks_mut(w)
        .zip(shadowless.par_chunks_mut(w))
        .zip(img.par_chunks(3 * w))
        .enumerate()
        .for_each_init(
            || (Vec::new(), Vec::new()),
            |(bg, sbg), (y, ((row, row_s), src))| {
                field.row(y as u32, img.width(), 1, bg);
                shade_field.row(y as u32, img.width(), 1, sbg);
                // Runs of one colour (masks, whitened or flat backgrounds) convert once.
                let mut last = ([0u8; 3], conv.lab([0; 3]));
                for ((((d, s), p), &q), &sq) in row
                    .iter_mut()
                    .zip(row_s.iter_mut())
                    .zip(src.chunks_exact(3))
                    .zip(bg.iter())
                    .zip(sbg.iter())
                {
                    let rgb = [p[0], p[1], p[2]];
                    if rgb != last.0 {
                        last = (rgb, conv.lab(rgb));
                    }
                    *d = distance(last.1, q, wl);
                    *s = shadow_distance(last.1, sq, wl);
                    if let Some(c) = chromaticity {
                        let shade = shadow_distance(last.1, clipping::with_chromaticity(sq, c), wl);
                        *s = s.min(shade);
                    }
                }
            },
        );
    (out, shadowless)
}

/// The threshold (override or automatic) and the background noise level.
pub(super) fn auto_threshold(dist: &[f32], opts: &SegmentOptions) -> (f32, f32) {
    let hist = DistanceHistogram::new(dist);
    let otsu = hist.otsu();
    let noise = hist.median_below(otsu);
    let t = opts
        .threshold
        .unwrap_or_else(|| otsu.max(NOISE_FACTOR * noise).max(MIN_AUTO_THRESHOLD));
    (t, noise)
}
