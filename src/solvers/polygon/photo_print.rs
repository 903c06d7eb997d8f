//! Poses that the outlines cannot tell apart, decided by the print across the cuts.
//!
//! Why: the solver knows the pieces only as polygons, so a piece whose outline maps onto
//! itself under a turn or a flip, within the measuring noise, fits its hole in every one of
//! those poses alike: a near-parallelogram (two cuts almost parallel, which a dissection
//! makes often) fits turned by 180° as well as it fits the right way. Which pose the search
//! keeps is then decided by noise of a few tenths of a pixel (12-piece photo seed 17: a
//! quadrilateral whose 180° turn lies 0.36 px from itself, placed upside down). The
//! photograph does tell: the picture printed on the puzzle runs on across every cut, so in
//! the right pose the colours just inside the piece's sides match the colours just inside
//! its neighbours', and in a wrong one they do not.
//!
//! So every placement is given each pose that puts its polygon's corners onto its placed
//! outline within 1.25 times the solver's length tolerance (a self-symmetry of the outline,
//! turned or flipped), or that puts its whole outline there within that reach where the
//! corners do not correspond (`photo_print_poses`), and keeps the one whose print continues
//! best into its neighbours' (median colour difference across its shared sides, as RGB and
//! with the brightness taken out: the light falls unevenly on a photograph), if better than
//! the solver's by both and clearly by one (clearly by both where the outline lies beyond
//! the tolerance itself).

use crate::piece_set::PieceSet;
use crate::solvers::polygon::geometry::{add, sub, Pt};
use crate::solvers::polygon::symmetry::mirror_pt;
use crate::solvers::polygon::{Placement, Solution};
use cuts::{cut_samples, deep_inside, differences_at, CutSample};
use image::RgbImage;
use poses::other_poses;

/// A pose's print is judged on at least this many samples (shared sides long enough).
const MIN_SAMPLES: usize = 12;
/// Another pose replaces the solver's only when it is better by both colour measures and its
/// median difference by at least one is below this fraction of the solver's pose's (see
/// `Difference`): a pose that merely ties keeps the solver's choice.
const CLEARLY_BETTER: f64 = 0.7;
/// A sample's colour difference counts at most this much in a whole solution's mismatch:
/// a wrong neighbour differs by tens to a hundred or more, a right one by the blur and noise.
const DIFFERENCE_CAP: f64 = 120.0;
/// Another solution replaces the outline's best only when its print mismatch is below this
/// fraction of the best's by both measures: measured, a wrong solution's is 1.15–1.35 times
/// the true one's, and solutions that differ only by noise tie within 1 %.
const PRINT_RANKS_BETTER: f64 = 0.9;
/// Passes over the placements.
const ROUNDS: usize = 2;

/// One pose of a piece: `placed = R(rotation)·M·p + translation`, `M` = x ↦ −x when mirrored.
#[derive(Clone, Copy, Debug)]
struct Pose {
    mirror: bool,
    rotation: f64,
    translation: Pt,
}

impl Pose {
    fn of(p: &Placement) -> Pose {
        Pose {
            mirror: p.mirror,
            rotation: p.rotation,
            translation: p.translation,
        }
    }

    /// Target frame → the piece's source image.
    fn in_image(&self, q: Pt) -> Pt {
        let (s, c) = self.rotation.to_radians().sin_cos();
        let d = sub(q, self.translation);
        let p = [c * d[0] + s * d[1], -s * d[0] + c * d[1]];
        if self.mirror {
            mirror_pt(p)
        } else {
            p
        }
    }

    /// Source image → the target frame.
    fn place(&self, p: Pt) -> Pt {
        let m = if self.mirror { mirror_pt(p) } else { p };
        let (s, c) = self.rotation.to_radians().sin_cos();
        add([c * m[0] - s * m[1], s * m[0] + c * m[1]], self.translation)
    }
}

/// `solution` with every placement whose outline admits other poses (within `tolerance_px`)
/// put in the pose whose print continues best into its neighbours' ([`module docs`](self)).
/// `polygons[k]` is piece k's straightened polygon (source-image pixels, as the solver got
/// it), `set` gives its source image, which `image(path)` reads (`None`: that piece keeps
/// its pose). Placements without a symmetric pose, or without neighbours to compare with,
/// are left as they are.
pub fn settle_by_print(
    set: &PieceSet,
    ids: &[u32],
    polygons: &[Vec<Pt>],
    solution: &Solution,
    tolerance_px: f64,
    image: impl FnMut(&str) -> Option<RgbImage>,
) -> Solution {
    let paths = source_paths(set, ids, solution);
    settle(&paths, polygons, solution, tolerance_px, image)
}

/// The index in `solutions` (ranked best outline fit first, each already settled by
/// [`settle_by_print`]) of the one whose print runs on best across its cuts: the first,
/// unless another's mean colour difference across the cuts ([`solution_print_mismatch`]) is
/// below [`PRINT_RANKS_BETTER`] of the first's by both measures (RGB and hue). Why: the
/// outline fit ranks solutions by tenths of a pixel, within the measuring noise, and a wrong
/// one (two pieces traded between holes of nearly the same shape) may fit a little better;
/// the print across a wrong cut differs by tens of levels (12-piece photo seed 13: 50.8
/// against the true solution's 38.8). Why both: where the print is nearly one colour the
/// light alone moves the RGB mismatch (7-piece photo seed 143, a magenta print: two pieces
/// traded at 12.3 RGB levels against the truth's 16.0, while their hue mismatch is the
/// higher, 3.64 against 3.48); where a trade is real both fall (by 0.59–0.77 in hue on the
/// 760 rendered photos).
pub fn choose_by_print(
    set: &PieceSet,
    ids: &[u32],
    polygons: &[Vec<Pt>],
    solutions: &[Solution],
    mut image: impl FnMut(&str) -> Option<RgbImage>,
) -> usize {
    let scores: Vec<Option<Difference>> = solutions
        .iter()
        .map(|s| solution_print_mismatch(set, ids, polygons, s, &mut image))
        .collect();
    choose_among(&scores)
}

/// [`choose_by_print`] over the solutions' print mismatches.
fn choose_among(scores: &[Option<Difference>]) -> usize {
    let Some(Some(first)) = scores.first().copied() else {
        return 0;
    };
    scores
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.map(|s| (k, s)))
        .filter(|(_, s)| s.below(PRINT_RANKS_BETTER, &first))
        .min_by(|a, b| a.1.rgb.total_cmp(&b.1.rgb))
        .map_or(0, |(k, _)| k)
}

/// How badly the print runs on across the cuts of a whole solution: the mean colour
/// difference across every shared side of every placement, by both measures (each sample
/// capped at [`DIFFERENCE_CAP`]; the mean, not the median, because a wrong solution may
/// differ from the true one at a few cuts only), `None` with fewer than [`MIN_SAMPLES`]
/// samples.
pub fn solution_print_mismatch(
    set: &PieceSet,
    ids: &[u32],
    polygons: &[Vec<Pt>],
    solution: &Solution,
    image: impl FnMut(&str) -> Option<RgbImage>,
) -> Option<Difference> {
    mismatch_of(&source_paths(set, ids, solution), polygons, solution, image)
}

/// [`solution_print_mismatch`] with `paths[k]`, the source image of placement k.
fn mismatch_of(
    paths: &[Option<String>],
    polygons: &[Vec<Pt>],
    solution: &Solution,
    image: impl FnMut(&str) -> Option<RgbImage>,
) -> Option<Difference> {
    let images = read_once(paths, image);
    let image_of = |k: usize| image_at(paths, &images, k);
    let mut all = Vec::new();
    for (k, pl) in solution.placements.iter().enumerate() {
        let Some(poly) = polygons.get(pl.piece) else {
            continue;
        };
        let pose = Pose::of(pl);
        let placed: Vec<Pt> = poly.iter().map(|&p| pose.place(p)).collect();
        let samples = cut_samples(k, &placed, &solution.placements);
        if let Some(d) = differences_at(k, &pose, &samples, &solution.placements, &image_of) {
            all.extend(d.into_iter().flatten());
        }
    }
    if all.len() < MIN_SAMPLES {
        return None;
    }
    let mean = |f: fn(&Difference) -> f64| {
        all.iter().map(|d| f(d).min(DIFFERENCE_CAP)).sum::<f64>() / all.len() as f64
    };
    Some(Difference {
        rgb: mean(|d| d.rgb),
        hue: mean(|d| d.hue),
    })
}

/// The source image of every placement of `solution`.
fn source_paths(set: &PieceSet, ids: &[u32], solution: &Solution) -> Vec<Option<String>> {
    solution
        .placements
        .iter()
        .map(|p| {
            ids.get(p.piece)
                .and_then(|&id| set.piece(id))
                .map(|piece| piece.image.clone())
        })
        .collect()
}

/// Every distinct image of `paths`, read once.
fn read_once(
    paths: &[Option<String>],
    mut image: impl FnMut(&str) -> Option<RgbImage>,
) -> Vec<(String, Option<RgbImage>)> {
    let mut images: Vec<(String, Option<RgbImage>)> = Vec::new();
    for path in paths.iter().flatten() {
        if !images.iter().any(|(p, _)| p == path) {
            images.push((path.clone(), image(path)));
        }
    }
    images
}

/// The image of placement `k`.
fn image_at<'a>(
    paths: &[Option<String>],
    images: &'a [(String, Option<RgbImage>)],
    k: usize,
) -> Option<&'a RgbImage> {
    let path = paths.get(k)?.as_ref()?;
    images.iter().find(|(p, _)| p == path)?.1.as_ref()
}

/// [`settle_by_print`] with `paths[k]`, the source image of placement k.
fn settle(
    paths: &[Option<String>],
    polygons: &[Vec<Pt>],
    solution: &Solution,
    tolerance_px: f64,
    image: impl FnMut(&str) -> Option<RgbImage>,
) -> Solution {
    let mut out = solution.clone();
    let images = read_once(paths, image);
    let image_of = |k: usize| image_at(paths, &images, k);
    // A second round: a piece judged against a neighbour that was itself turned wrongly
    // gets another look once that one is right.
    let count = out.placements.len();
    for k in (0..ROUNDS).flat_map(|_| 0..count) {
        let Some(poly) = polygons.get(out.placements[k].piece) else {
            continue;
        };
        let poses = other_poses(poly, &out.placements[k], tolerance_px);
        if poses.len() < 2 {
            continue;
        }
        let samples = shared_samples(k, poly, &poses, &out.placements);
        let diffs: Vec<Option<Vec<Option<Difference>>>> = poses
            .iter()
            .map(|(pose, _)| differences_at(k, pose, &samples, &out.placements, &image_of))
            .collect();
        let scores: Vec<Option<Difference>> =
            diffs.iter().map(|d| median_of(d.as_deref()?)).collect();
        let Some(current) = scores[0] else { continue };
        let best = (1..poses.len())
            .filter_map(|i| scores[i].map(|s| (i, s)))
            .filter(|&(i, s)| {
                let medians = if poses[i].1 {
                    s.better_by_both_than(&current)
                } else {
                    s.clearly_better_than(&current)
                };
                medians && mostly_better(diffs[i].as_deref(), diffs[0].as_deref())
            })
            .min_by(|a, b| a.1.rgb.total_cmp(&b.1.rgb));
        if let Some((i, _)) = best {
            let pose = poses[i].0;
            let pl = &mut out.placements[k];
            pl.mirror = pose.mirror;
            pl.rotation = pose.rotation;
            pl.translation = pose.translation;
            pl.vertices = poly.iter().map(|&p| pose.place(p)).collect();
        }
    }
    out
}

/// The samples on which placement `k`'s `poses` are compared: the same for every pose, so
/// that a pose is not judged on sides of its own choosing. Why: poses that only the outline
/// shows lie a few pixels off the placed outline, so their own sides find neighbours along
/// other stretches, and a median over a different mix of cuts (one side where the print runs
/// on in one colour, another across a gradient) favoured a wrong pose (10-piece photo seed
/// 172: a near-kite turned over, 27 RGB levels against the true pose's 45, while on the
/// same samples the true pose is the better). Samples are taken along the placed outline,
/// and kept where the point read inside lies inside every pose's polygon, clear of its rim.
fn shared_samples(
    k: usize,
    poly: &[Pt],
    poses: &[(Pose, bool)],
    placements: &[Placement],
) -> Vec<CutSample> {
    let placed: Vec<Vec<Pt>> = poses
        .iter()
        .map(|(pose, _)| poly.iter().map(|&p| pose.place(p)).collect())
        .collect();
    cut_samples(k, &placements[k].vertices, placements)
        .into_iter()
        .filter(|s| placed.iter().all(|p| deep_inside(s.inner, p, RIM_PX)))
        .collect()
}

/// How far inside a pose's polygon a point read as its print must lie: clear of the cut's
/// blurred rim.
const RIM_PX: f64 = 1.5;

/// The median colour difference over the samples an image shows (the print just inside a
/// placement against the print just inside the placements across its sides); `None` with
/// fewer than [`MIN_SAMPLES`].
fn median_of(diffs: &[Option<Difference>]) -> Option<Difference> {
    let shown: Vec<Difference> = diffs.iter().flatten().copied().collect();
    if shown.len() < MIN_SAMPLES {
        return None;
    }
    let median = |mut v: Vec<f64>| {
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f64::total_cmp).1
    };
    Some(Difference {
        rgb: median(shown.iter().map(|d| d.rgb).collect()),
        hue: median(shown.iter().map(|d| d.hue).collect()),
    })
}

/// Whether pose `alt` matches its neighbours' print better than `current` at most of the
/// samples both read, by both measures. Why, besides the medians: where the print is nearly
/// one colour, the medians of two poses differ by shading alone, and a pose whose medians
/// look clearly better may be the worse at most cuts by the hue (12-piece photo seed 123: a
/// magenta quadrilateral turned over wrongly at 18 RGB levels against 26, while better at
/// only 45 % of the samples by the hue); a pose that is truly better is the better at most
/// samples.
fn mostly_better(
    alt: Option<&[Option<Difference>]>,
    current: Option<&[Option<Difference>]>,
) -> bool {
    let (Some(alt), Some(current)) = (alt, current) else {
        return false;
    };
    let pairs: Vec<(Difference, Difference)> = alt
        .iter()
        .zip(current)
        .filter_map(|(a, c)| Some(((*a)?, (*c)?)))
        .collect();
    let share = |f: fn(&Difference) -> f64| {
        pairs.iter().filter(|(a, c)| f(a) < f(c)).count() * 2 > pairs.len()
    };
    !pairs.is_empty() && share(|d| d.rgb) && share(|d| d.hue)
}

/// A colour difference across a cut, measured twice: as RGB, and with each colour's
/// brightness taken out (scaled to a mean of 128 levels, [`hue_difference`]). Why both: the
/// light falls unevenly on a photograph (±25 % on the rendered photos), so two pieces lying
/// apart on it differ in brightness by tens of levels where their print runs on (14-piece
/// photo seed 65: a kite whose true pose differs by 72 RGB levels from its neighbours, its
/// mirror image by 87, while without the brightness 29 against 78); but brightness also
/// tells dark print from light of the same hue, which the hue alone cannot (7-piece photo
/// seed 20: dark and light green).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// Levels (0–255 per channel).
    pub rgb: f64,
    /// Levels, each colour scaled to a mean of 128 first.
    pub hue: f64,
}

impl Difference {
    /// Below `fraction` of `other` by both measures.
    fn below(&self, fraction: f64, other: &Difference) -> bool {
        self.rgb < fraction * other.rgb && self.hue < fraction * other.hue
    }

    /// Another pose replaces the solver's only when both measures find it better and at
    /// least one clearly ([`CLEARLY_BETTER`]): each alone may be fooled (the light, or two
    /// shades of a hue), and the solver's choice stands unless the print contradicts it.
    fn clearly_better_than(&self, current: &Difference) -> bool {
        self.rgb < current.rgb
            && self.hue < current.hue
            && (self.rgb < CLEARLY_BETTER * current.rgb || self.hue < CLEARLY_BETTER * current.hue)
    }

    /// Clearly better by both measures: what a pose whose outline fits less well than the
    /// solver's needs. Why: where the print varies little across the cuts, one measure alone
    /// moves by noise (14-piece photo seed 82: hue 3 against 2 levels, a right piece turned
    /// over wrongly; seed 50: hue 21 against 10 with the RGB alike, the same).
    fn better_by_both_than(&self, current: &Difference) -> bool {
        self.below(CLEARLY_BETTER, current)
    }
}

#[path = "photo_print_cuts.rs"]
mod cuts;

#[path = "photo_print_poses.rs"]
mod poses;

#[cfg(test)]
#[path = "photo_print_tests.rs"]
mod tests;
