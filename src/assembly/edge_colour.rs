//! The picture along each chainlet, just inside the cut: where two pieces truly mate the
//! printed picture runs on across the seam, so the colours a few pixels in from either side
//! agree, while a look-alike knob from elsewhere in the puzzle brings other colours.
//!
//! Freeman & Garder's method is apictorial, and for blank pieces (white-1000, masks given
//! without photos) it stays so. But at 500 pieces photographed with noise, chainlet shapes
//! alone admit look-alikes at the typical Δ (classic 500 photos: a third of the accepted
//! mates were false), and the photographs are already loaded to draw the solution.

use super::geometry::{Pose, P2};
use super::shapes::{ChainletShape, Shapes, SAMPLES};
use crate::plane::contains;
use crate::vision::{lab_distance, load_image, LabConverter, LoadLimits};
use image::{ImageDecoder, RgbImage};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// Lab colour at each comparison sample of a chainlet, `None` when the piece's image is not
/// available (pieces given as masks, a dump whose photos moved).
pub type Profile = Option<Vec<[f32; 3]>>;

/// How far inside the outline the picture is read, as a fraction of the piece size: past the
/// cut's anti-aliasing, the segmentation's fat edge and any bevel shading, still near enough
/// that the picture has not changed much from the other side of the seam.
const DEPTH_FRACTION: f64 = 0.04;
const MIN_DEPTH_PX: f64 = 3.0;
/// The background is read this many depths outside the cut: past the drop shadow's core.
const BACKGROUND_DEPTHS: f64 = 3.0;

/// How strongly the colour difference scales a mating's Δ: Δ × ((c + c₀) / c_typ)^β. Measured
/// on classic photos (500 pieces seed 2, 100 pieces seed 3) as the share of chainlets whose
/// best mating is a true one: β = 0 (shape only) 777 / 896 and 269 / 300; 0.25 gave 848 and
/// 287; 0.5 gave 862 and 291; 0.75 866 and 289; 1.0 864 and 287. True seams along an edge of
/// the picture differ in colour by ten times the typical, so colour only weighs, never vetoes.
const WEIGHT: f64 = 0.5;
/// c₀ as a fraction of the typical colour difference: below it a closer colour match says
/// no more (flat areas of the picture match any flat area of the same colour).
const FLOOR: f64 = 0.5;
/// The factor stays within these bounds, so a true seam across an edge in the picture still
/// passes the closure test and a perfect colour match does not rescue a poor shape.
const MIN_FACTOR: f64 = 0.7;
const MAX_FACTOR: f64 = 3.0;
/// A typical colour difference (ΔE²) below this means the pictures carry no colour to match:
/// JPEG noise alone on a printed picture gives tens.
const MIN_TYPICAL: f64 = 1.0;
/// Of the sample pairs across a seam the holes step reads, this share (the worst) is left out
/// (see [`trimmed_colour_delta`]).
const TRIMMED_SHARE: f64 = 0.2;
/// Lightness counts half in the colour difference: light falls unevenly across a photograph.
const LIGHTNESS_WEIGHT: f32 = 0.5;

/// The colour profiles of a puzzle's chainlets and the colour difference typical of best
/// matings, which is the unit the factor is measured in.
#[derive(Clone, Debug, Default)]
pub struct SeamColours {
    profiles: Vec<Profile>,
    typical: Option<f64>,
    /// Farther apart than this (pixels) two samples of a posed mating do not face each other
    /// across the seam: the chainlets mate over part of their length only.
    facing_px: f64,
}

impl SeamColours {
    /// Reads the profiles from the pieces' source images.
    pub fn read(shapes: &Shapes) -> Self {
        SeamColours {
            profiles: edge_colours(shapes),
            typical: None,
            facing_px: (DEPTH_FRACTION * shapes.median_size).max(MIN_DEPTH_PX),
        }
    }

    /// Profiles given, calibrated to `typical`, for tests of what reads them.
    #[cfg(test)]
    pub(crate) fn for_tests(profiles: Vec<Profile>, typical: f64) -> Self {
        SeamColours {
            profiles,
            typical: Some(typical),
            facing_px: 4.0,
        }
    }

    /// Colour difference of `a` and `b` sample by sample along their arc length, `b`
    /// inverted: for ranking many coarse matches cheaply, before any pose is refined.
    pub fn delta(&self, a: usize, b: usize) -> Option<f64> {
        let pa = self.profiles.get(a)?.as_ref()?;
        let pb = self.profiles.get(b)?.as_ref()?;
        colour_delta(
            pa,
            pb,
            (0..SAMPLES).map(|i| (i, SAMPLES - 1 - i)),
            SAMPLES / 2,
        )
    }

    /// Colour difference with `b`'s piece held at `pose` in `a`'s frame: each sample of `a`
    /// against the sample of `b` facing it. Where critical points of mates were found apart
    /// (irregular pieces, partial matings) arc length pairs the wrong samples.
    pub fn delta_at(
        &self,
        (a, ca): (usize, &ChainletShape),
        (b, cb): (usize, &ChainletShape),
        pose: &Pose,
    ) -> Option<f64> {
        let pa = self.profiles.get(a)?.as_ref()?;
        let pb = self.profiles.get(b)?.as_ref()?;
        let moved: Vec<P2> = cb.samples.iter().map(|p| pose * p).collect();
        let window = SAMPLES / 6;
        let limit = self.facing_px * self.facing_px;
        let pairs = ca.samples.iter().enumerate().filter_map(|(i, p)| {
            let centre = SAMPLES - 1 - i;
            let lo = centre.saturating_sub(window);
            let hi = (centre + window + 1).min(SAMPLES);
            let (j, d) = (lo..hi)
                .map(|j| (j, (moved[j] - p).norm_squared()))
                .min_by(|x, y| x.1.total_cmp(&y.1))?;
            (d <= limit).then_some((i, j))
        });
        colour_delta(pa, pb, pairs, SAMPLES / 2)
    }

    /// Takes the median colour difference over `pairs` (each chainlet's best mating by
    /// shape) as the typical one. Without enough pairs the factor stays 1.
    pub fn calibrate(&mut self, pairs: impl Iterator<Item = (usize, usize)>) {
        let mut v: Vec<f64> = pairs.filter_map(|(a, b)| self.delta(a, b)).collect();
        v.sort_by(f64::total_cmp);
        // Pieces given as masks, or blank pieces, read one colour everywhere: no information.
        self.typical = (v.len() >= 8)
            .then(|| v[v.len() / 2])
            .filter(|&t| t >= MIN_TYPICAL);
    }

    /// Whether the pictures carry colour to compare (calibrated, and not blank pieces).
    pub fn knows_colours(&self) -> bool {
        self.typical.is_some()
    }

    /// What the mating of `a` with `b` has its Δ multiplied by: above 1 for colours that do
    /// not continue across the seam, below 1 for colours that do.
    pub fn factor(&self, a: usize, b: usize) -> f64 {
        self.factor_of(|| self.delta(a, b))
    }

    /// [`Self::factor`] with the colours compared at a pose (see [`Self::delta_at`]).
    pub fn factor_at(
        &self,
        a: (usize, &ChainletShape),
        b: (usize, &ChainletShape),
        pose: &Pose,
    ) -> f64 {
        self.factor_of(|| self.delta_at(a, b, pose))
    }

    /// [`Self::factor`] over the given pairs of samples (of `a`, of `b`) that face each other
    /// once placed, the worst of them left out (see [`trimmed_colour_delta`]); `None` where
    /// the profiles are unknown or fewer than `min_pairs` pairs are given: a seam too short to
    /// read is no evidence either way.
    pub fn factor_facing(
        &self,
        a: usize,
        b: usize,
        pairs: &[(usize, usize)],
        min_pairs: usize,
    ) -> Option<f64> {
        let t = self.typical?;
        let pa = self.profiles.get(a)?.as_ref()?;
        let pb = self.profiles.get(b)?.as_ref()?;
        let c = trimmed_colour_delta(pa, pb, pairs.iter().copied(), min_pairs)?;
        Some(factor_for(t, c))
    }

    /// The factor for the colour difference `delta` yields; 1 (and `delta` not computed)
    /// before calibration or when the pictures carry no colour.
    fn factor_of(&self, delta: impl FnOnce() -> Option<f64>) -> f64 {
        match (self.typical, self.typical.and_then(|_| delta())) {
            (Some(t), Some(c)) => factor_for(t, c),
            _ => 1.0,
        }
    }
}

/// The factor a colour difference `c` yields against the typical difference `t`.
fn factor_for(t: f64, c: f64) -> f64 {
    ((c + FLOOR * t) / t)
        .powf(WEIGHT)
        .clamp(MIN_FACTOR, MAX_FACTOR)
}

/// Colour profiles of every chainlet of `shapes`, reading each source image once.
fn edge_colours(shapes: &Shapes) -> Vec<Profile> {
    let mut by_image: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, p) in shapes.pieces.iter().enumerate() {
        by_image.entry(p.image.as_str()).or_default().push(i);
    }
    let per_image: Vec<ImageSamples> = by_image
        .into_par_iter()
        .filter_map(|(path, pieces)| {
            if !in_colour(Path::new(path)) {
                return None;
            }
            let img = load_image(Path::new(path), &LoadLimits::default()).ok()?;
            let mut background = Vec::new();
            let profiles = pieces
                .iter()
                .flat_map(|&pi| shapes.pieces[pi].chainlets.iter().copied())
                .map(|c| (c, profile(shapes, c, &img, &mut background)))
                .collect();
            Some(ImageSamples {
                profiles,
                background: median_rgb(&mut background),
            })
        })
        .collect();
    // White balance: every photo's background is the same table or paper, so scaling each
    // photo's channels to bring its background to the common one undoes the camera's
    // per-shot white balance and exposure (pikachu-100: one piece per photo).
    let mut backgrounds: Vec<[f32; 3]> = per_image.iter().filter_map(|i| i.background).collect();
    let reference = median_rgb(&mut backgrounds);
    let conv = LabConverter::new();
    let mut out = vec![None; shapes.chainlets.len()];
    for image in per_image {
        let gain: [f32; 3] = match (reference, image.background) {
            (Some(r), Some(b)) => std::array::from_fn(|k| r[k] / b[k].max(1.0)),
            _ => [1.0; 3],
        };
        for (c, rgb) in image.profiles {
            let lab = rgb
                .iter()
                .map(|p| {
                    if p[0].is_nan() {
                        return [f32::NAN; 3];
                    }
                    let v: [u8; 3] =
                        std::array::from_fn(|k| (p[k] * gain[k]).round().clamp(0.0, 255.0) as u8);
                    conv.lab(v)
                })
                .collect();
            out[c] = Some(lab);
        }
    }
    out
}

/// One source image's chainlet profiles (RGB, before white balance) and its background.
struct ImageSamples {
    profiles: Vec<(usize, Vec<[f32; 3]>)>,
    background: Option<[f32; 3]>,
}

fn median_rgb(v: &mut [[f32; 3]]) -> Option<[f32; 3]> {
    if v.is_empty() {
        return None;
    }
    let mid = v.len() / 2;
    Some(std::array::from_fn(|k| {
        v.select_nth_unstable_by(mid, |a, b| a[k].total_cmp(&b[k]));
        v[mid][k]
    }))
}

/// Whether the image at `path` has colour channels, read from its header only: masks (1-bit
/// or grey) carry no picture, and decoding a thousand of them cost white-1000 10 s.
fn in_colour(path: &Path) -> bool {
    image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .ok()
        .and_then(|r| r.into_decoder().ok())
        .is_some_and(|d| d.color_type().has_color())
}

/// Mean RGB at each sample of chainlet `c`, a little inside the cut; pushes onto `background`
/// what lies as far outside it.
fn profile(
    shapes: &Shapes,
    c: usize,
    img: &RgbImage,
    background: &mut Vec<[f32; 3]>,
) -> Vec<[f32; 3]> {
    let ch = &shapes.chainlets[c];
    let piece = &shapes.pieces[ch.piece];
    let depth = (DEPTH_FRACTION * piece.size).max(MIN_DEPTH_PX);
    let s = &ch.samples;
    let n = s.len();
    let normal = |i: usize| {
        let t = s[(i + 1).min(n - 1)] - s[i.saturating_sub(1)];
        let len = t.norm().max(1e-9);
        P2::new(-t.y / len, t.x / len).coords
    };
    // Which side of the chainlet is the piece: tried where the chainlet is, at mid-length.
    let mid = n / 2;
    let side = if contains(&piece.outline, s[mid] + normal(mid) * depth) {
        1.0
    } else {
        -1.0
    };
    let as_f32 = |rgb: [u8; 3]| rgb.map(f32::from);
    (0..n)
        .map(|i| {
            let nrm = normal(i) * side;
            if let Some(rgb) = pixel(img, &(s[i] - nrm * depth * BACKGROUND_DEPTHS)) {
                background.push(as_f32(rgb));
            }
            let mut acc = [0f32; 3];
            let mut k = 0.0;
            for step in [0.0, 0.5, 1.0] {
                if let Some(rgb) = pixel(img, &(s[i] + nrm * depth * (1.0 + step))) {
                    for (a, v) in acc.iter_mut().zip(as_f32(rgb)) {
                        *a += v;
                    }
                    k += 1.0;
                }
            }
            if k > 0.0 {
                acc.map(|a| a / k)
            } else {
                [f32::NAN; 3]
            }
        })
        .collect()
}

fn pixel(img: &RgbImage, p: &P2) -> Option<[u8; 3]> {
    let (x, y) = (p.x.round(), p.y.round());
    if x < 0.0 || y < 0.0 || x >= img.width() as f64 || y >= img.height() as f64 {
        return None;
    }
    Some(img.get_pixel(x as u32, y as u32).0)
}

/// Mean squared colour difference (ΔE², lightness weighted by [`LIGHTNESS_WEIGHT`]) over the
/// `pairs` of samples (of `a`, of `b`) that face each other; `None` when fewer than
/// `min_pairs` have a readable partner (half of `a`'s samples for a whole seam).
fn colour_delta(
    a: &[[f32; 3]],
    b: &[[f32; 3]],
    pairs: impl Iterator<Item = (usize, usize)>,
    min_pairs: usize,
) -> Option<f64> {
    let (sum, k) = squared_differences(a, b, pairs).fold((0.0, 0), |(s, k), d| (s + d, k + 1));
    (k >= min_pairs).then(|| sum / k as f64)
}

/// The squared colour difference of each pair of samples whose colours are both read.
fn squared_differences<'a>(
    a: &'a [[f32; 3]],
    b: &'a [[f32; 3]],
    pairs: impl Iterator<Item = (usize, usize)> + 'a,
) -> impl Iterator<Item = f64> + 'a {
    pairs
        .map(|(i, j)| f64::from(lab_distance(a[i], b[j], LIGHTNESS_WEIGHT)).powi(2))
        .filter(|d| d.is_finite())
}

/// [`colour_delta`] without the worst [`TRIMMED_SHARE`] of the pairs. Samples paired by
/// place, as the holes step pairs them, disagree where a boundary of the picture meets the
/// seam obliquely (each side is read 4 % of a piece inside its cut, so the boundary is read
/// apart along the seam) and at a corner, where a sample inside one cut lies in the other
/// piece's shadow: on irregular 20 photos seed 37 a corner piece's two true seams read 3.0
/// and 2.3 from a handful of such pairs (ΔE 40–70) among colours that otherwise run on. A
/// look-alike's colours break along the whole seam, which no trimming hides.
fn trimmed_colour_delta(
    a: &[[f32; 3]],
    b: &[[f32; 3]],
    pairs: impl Iterator<Item = (usize, usize)>,
    min_pairs: usize,
) -> Option<f64> {
    let mut d: Vec<f64> = squared_differences(a, b, pairs).collect();
    if d.len() < min_pairs {
        return None;
    }
    d.sort_by(f64::total_cmp);
    let keep = d.len() - (TRIMMED_SHARE * d.len() as f64) as usize;
    Some(d[..keep].iter().sum::<f64>() / keep as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(offset: f32) -> Vec<[f32; 3]> {
        (0..SAMPLES)
            .map(|i| [50.0, i as f32 + offset, -(i as f32)])
            .collect()
    }

    fn mirrored(p: &[[f32; 3]]) -> Vec<[f32; 3]> {
        p.iter().rev().copied().collect()
    }

    #[test]
    fn a_picture_running_on_across_the_seam_differs_by_nothing() {
        // The mate is traversed the other way round, as in contour comparison.
        let a = ramp(0.0);
        let c = seam_colours(vec![Some(a.clone()), Some(mirrored(&a)), Some(a)]);
        assert_eq!(c.delta(0, 1), Some(0.0));
        assert!(c.delta(0, 2).unwrap() > 100.0);
    }

    #[test]
    fn unreadable_samples_are_skipped_and_too_few_give_nothing() {
        let a = ramp(0.0);
        let mut b = mirrored(&a);
        for p in b.iter_mut().take(SAMPLES / 2 - 1) {
            *p = [f32::NAN; 3];
        }
        let c = seam_colours(vec![Some(a.clone()), Some(b.clone())]);
        assert_eq!(c.delta(0, 1), Some(0.0));
        for p in b.iter_mut().take(SAMPLES / 2 + 1) {
            *p = [f32::NAN; 3];
        }
        let c = seam_colours(vec![Some(a), Some(b)]);
        assert_eq!(c.delta(0, 1), None);
    }

    fn seam_colours(profiles: Vec<Profile>) -> SeamColours {
        SeamColours {
            profiles,
            typical: None,
            facing_px: 4.0,
        }
    }

    #[test]
    fn a_few_pairs_read_across_a_picture_boundary_do_not_break_a_seam_that_runs_on() {
        let a = ramp(0.0);
        let mut shifted = mirrored(&a);
        // Five samples at one end read the other side of a boundary of the picture.
        for p in shifted.iter_mut().take(5) {
            *p = [50.0, 60.0, 40.0];
        }
        let pairs: Vec<(usize, usize)> = (0..SAMPLES).map(|i| (i, SAMPLES - 1 - i)).collect();
        let plain = colour_delta(&a, &shifted, pairs.iter().copied(), 12).unwrap();
        let trimmed = trimmed_colour_delta(&a, &shifted, pairs.iter().copied(), 12).unwrap();
        assert!(plain > 300.0 && trimmed == 0.0, "{plain} {trimmed}");
        // Colours that differ all along stay apart.
        let other = mirrored(&ramp(40.0));
        let apart = trimmed_colour_delta(&a, &other, pairs.iter().copied(), 12).unwrap();
        assert!(apart > 1000.0, "{apart}");
        assert_eq!(
            trimmed_colour_delta(&a, &other, pairs[..11].iter().copied(), 12),
            None
        );
    }

    #[test]
    fn colour_weighs_within_bounds_and_only_once_calibrated() {
        let a = ramp(0.0);
        let near = mirrored(&ramp(3.0));
        let far = mirrored(&ramp(40.0));
        let mut c = seam_colours(vec![Some(a), Some(near), Some(far), None]);
        assert_eq!(c.factor(0, 2), 1.0, "uncalibrated");
        c.calibrate(std::iter::repeat_n((0, 1), 8));
        assert_eq!(c.typical, Some(9.0));
        let (good, bad) = (c.factor(0, 1), c.factor(0, 2));
        assert!((good - 1.5f64.sqrt()).abs() < 1e-9, "{good}");
        assert_eq!(bad, MAX_FACTOR);
        assert_eq!(c.factor(0, 3), 1.0, "no picture for piece 3");
    }

    #[test]
    fn background_median_is_taken_per_channel() {
        let mut v = vec![[200.0, 10.0, 0.0], [180.0, 30.0, 5.0], [250.0, 20.0, 90.0]];
        assert_eq!(median_rgb(&mut v), Some([200.0, 20.0, 5.0]));
        assert_eq!(median_rgb(&mut []), None);
    }

    #[test]
    fn one_colour_everywhere_is_no_information() {
        let flat = vec![[100.0, 0.0, 0.0]; SAMPLES];
        let mut c = seam_colours(vec![Some(flat.clone()), Some(flat)]);
        c.calibrate(std::iter::repeat_n((0, 1), 8));
        assert_eq!(c.typical, None);
        assert_eq!(c.factor(0, 1), 1.0);
    }
}
