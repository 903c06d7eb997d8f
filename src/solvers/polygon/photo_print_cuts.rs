//! Reading the print across the cuts: where a placement's colour is sampled against its
//! neighbours' (just inside each shared side), and the colour differences found there.

use super::{Difference, Pose};
use crate::solvers::polygon::geometry::{add, dist, dist_to_segment, signed_area, sub, Pt};
use crate::solvers::polygon::Placement;
use image::RgbImage;

/// How far inside each piece its colour is read on either side of a shared side, pixels:
/// beyond the blurred cut and its rim (about 2 px on a phone photo) and the straightened
/// side's own offset from the cut.
const DEPTH_PX: f64 = 4.0;
/// Samples along a side are this far apart, pixels …
const STEP_PX: f64 = 1.5;
/// … and this far from its ends at least: the colours at a corner belong to a third piece.
const CORNER_PX: f64 = 6.0;

/// A point just inside a placement's side, where its print is read, and the point opposite
/// it just inside neighbour `j`, where the print it should run on into is read.
pub(super) struct CutSample {
    pub inner: Pt,
    pub outer: Pt,
    pub j: usize,
}

/// The samples along the sides of `outline` (placement `k`'s polygon, placed) that another
/// placement lies across.
pub(super) fn cut_samples(k: usize, outline: &[Pt], placements: &[Placement]) -> Vec<CutSample> {
    let orientation = signed_area(outline).signum();
    let mut out = Vec::new();
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        let len = dist(a, b);
        if len <= 2.0 * CORNER_PX {
            continue;
        }
        let d = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
        // Positive signed area: the interior lies on the left of a→b.
        let inward = [-d[1] * orientation, d[0] * orientation];
        let mut t = CORNER_PX;
        while t <= len - CORNER_PX {
            let s = add(a, [d[0] * t, d[1] * t]);
            let inner = add(s, [inward[0] * DEPTH_PX, inward[1] * DEPTH_PX]);
            let outer = sub(s, [inward[0] * DEPTH_PX, inward[1] * DEPTH_PX]);
            t += STEP_PX;
            if let Some(j) = (0..placements.len())
                .find(|&j| j != k && deep_inside(outer, &placements[j].vertices, DEPTH_PX / 2.0))
            {
                out.push(CutSample { inner, outer, j });
            }
        }
    }
    out
}

/// The colour difference across each of `samples` of placement `k`, its print read in
/// `pose` (`None` where an image does not show it); `None` without an image.
pub(super) fn differences_at<'a>(
    k: usize,
    pose: &Pose,
    samples: &[CutSample],
    placements: &[Placement],
    image_of: &impl Fn(usize) -> Option<&'a RgbImage>,
) -> Option<Vec<Option<Difference>>> {
    let own = image_of(k)?;
    Some(
        samples
            .iter()
            .map(|s| {
                let theirs = image_of(s.j)?;
                let c_in = colour(own, pose.in_image(s.inner))?;
                let c_out = colour(theirs, Pose::of(&placements[s.j]).in_image(s.outer))?;
                Some(Difference {
                    rgb: distance(c_in, c_out),
                    hue: hue_difference(c_in, c_out),
                })
            })
            .collect(),
    )
}

/// The RGB distance between two colours.
fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum::<f64>().sqrt()
}

/// The RGB distance between two colours once each is scaled to a mean of 128 levels (a
/// brightness below [`DARK_LEVELS`] is scaled as if it were that: the hue of near-black is
/// the JPEG noise's).
fn hue_difference(a: [f64; 3], b: [f64; 3]) -> f64 {
    let norm = |c: [f64; 3]| c.map(|v| v * 128.0 / ((c[0] + c[1] + c[2]) / 3.0).max(DARK_LEVELS));
    distance(norm(a), norm(b))
}

/// See [`hue_difference`].
const DARK_LEVELS: f64 = 32.0;

/// Whether `p` lies inside `poly` at least `margin` from its boundary.
pub(super) fn deep_inside(p: Pt, poly: &[Pt], margin: f64) -> bool {
    let n = poly.len();
    crate::plane::contains(poly, p)
        && (0..n).all(|i| dist_to_segment(p, poly[i], poly[(i + 1) % n]) >= margin)
}

/// The mean colour of the 3 × 3 pixels around `p` (pixel centres at +0.5): JPEG noise
/// averaged out; `None` outside the image.
fn colour(img: &RgbImage, p: Pt) -> Option<[f64; 3]> {
    let (x, y) = (p[0].floor(), p[1].floor());
    if x < 1.0 || y < 1.0 || x + 1.0 >= f64::from(img.width()) || y + 1.0 >= f64::from(img.height())
    {
        return None;
    }
    let (x, y) = (x as u32, y as u32);
    let mut sum = [0.0; 3];
    for dy in 0..3 {
        for dx in 0..3 {
            let px = img.get_pixel(x + dx - 1, y + dy - 1).0;
            (0..3).for_each(|c| sum[c] += f64::from(px[c]));
        }
    }
    Some(sum.map(|v| v / 9.0))
}
