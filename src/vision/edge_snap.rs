//! Outlines snapped to the colour edges of the photograph, to a fraction of a pixel.
//!
//! Why: a mask's boundary lies where the colour difference from the background crosses a
//! threshold, and on a blurred edge that crossing moves with the contrast: a pale patch of the
//! piece's face meets the threshold a pixel closer to its cut than a saturated one. A phone
//! photo blurs the edge (lens, and JPEG's half-resolution chroma spreads the colour 1–2 px
//! further), so the mask's outline wanders by a pixel along a side as the face's print changes,
//! and a drop shadow, whose chroma the JPEG has tinted with the piece's, adds more on one side.
//! The steepest point of the colour profile across the edge does not depend on the contrast:
//! for any symmetric blur it is the cut itself. So every outline point is moved along the
//! outline's normal to the centre of the colour gradient's peak found there.
//!
//! Two users: the vision stage cuts bulges out of piece masks with the per-point offsets
//! ([`snap_offsets`], relative to the piece's typical offset, see [`super::snapped_mask`]), and
//! the polygon path fits straight sides to the snapped points ([`snap_outline`]).
//!
//! A known bias (measured on classic photo seed 1 at 120 px, light paper): the 1 px cardboard
//! rim is darker than white paper, the paper → rim and rim → face steps merge under the blur,
//! and the merged peak lies 0.5–1.2 px inside the cut depending on the face's colour (on dark
//! backgrounds the rim step dominates and the peak is at the cut). Relative offsets cancel the
//! common part of it.

use image::RgbImage;

/// A point or vector in image pixels; pixel centres are at +0.5.
pub type Pt = [f64; 2];

/// How far either side of an outline point the edge is looked for, pixels: a photo's mask
/// lies up to 5 px outside the cut where a drop shadow's tinted chroma joined it.
const REACH: f64 = 6.0;

/// How far inwards and outwards of an outline point the edge is looked for, pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    pub inward: f64,
    pub outward: f64,
    /// Whether the outline lies on light paper with drop shadows around it, where a grey step
    /// that brightens outwards is the shadow's far edge, not the cut ([`shadow_ramp`]).
    pub past_shadow_ramps: bool,
}

/// [`REACH`] both ways: the polygon path's search.
pub const SYMMETRIC_REACH: Reach = Reach {
    inward: REACH,
    outward: REACH,
    past_shadow_ramps: false,
};
/// Profile step along the normal, pixels.
const STEP: f64 = 0.25;
/// A gradient peak counts as an edge when its prominence reaches this fraction of the most
/// prominent peak's: far above noise, JPEG ringing and the slow edge of a shadow, low enough
/// for the step from a die-cut rim to the background beside the step from the face to the rim.
const PEAK_FRACTION: f64 = 0.5;
/// Prominence is measured against the profile within this distance of a peak, pixels.
const PROMINENCE_SPAN: f64 = 2.0;
/// The outline's direction at a point is taken between the points this many steps before and
/// after it.
const TANGENT_SPAN: usize = 3;
/// A snapped point further than this from the median offset of its neighbours is dropped
/// (another piece's edge or strong print within reach), pixels.
const OUTLIER: f64 = 0.75;
/// Neighbours on either side whose offsets give that median.
const NEIGHBOURS: usize = 5;
/// At least this fraction of the points must find an edge, or the outline is left as it is.
const MIN_FOUND: f64 = 0.8;

/// The closed outline `points` (boundary pixel centres, either orientation) with every point
/// moved along the outline's normal onto the colour edge of `img` within `reach`;
/// points whose edge disagrees with their neighbours' are left out. `None` when fewer than
/// [`MIN_FOUND`] of the points found an edge (the outline runs off the image, or there is no
/// edge to find): the caller keeps the outline.
pub fn snap_outline(points: &[Pt], img: &RgbImage, reach: Reach) -> Option<Vec<Pt>> {
    let out: Vec<Pt> = snap_offsets(points, img, reach)?
        .into_iter()
        .zip(points)
        .filter_map(|(o, &p)| o.map(|o| add(p, scale(o.normal, o.offset))))
        .collect();
    (out.len() >= 6).then_some(out)
}

/// Where the colour edge lies from one outline point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeOffset {
    /// Distance along `normal` to the edge, pixels (positive outwards).
    pub offset: f64,
    /// The outline's outward unit normal at the point.
    pub normal: Pt,
    /// The edge's [`Edge::strength`].
    pub strength: f64,
}

/// The edge offset of every point of the closed outline `points` (as [`snap_outline`]),
/// `None` for a point that found no edge or whose edge disagrees with its neighbours' by more
/// than [`OUTLIER`]; `None` overall when fewer than [`MIN_FOUND`] of the points found one.
pub fn snap_offsets(
    points: &[Pt],
    img: &RgbImage,
    reach: Reach,
) -> Option<Vec<Option<EdgeOffset>>> {
    edge_offsets(points, img, reach).map(|found| without_outliers(&found))
}

/// The edge every point of the closed outline `points` finds along its normal within
/// `reach`, before any test against its neighbours; `None` overall when fewer than
/// [`MIN_FOUND`] of the points found one.
pub fn edge_offsets(
    points: &[Pt],
    img: &RgbImage,
    reach: Reach,
) -> Option<Vec<Option<EdgeOffset>>> {
    let n = points.len();
    if n < 2 * TANGENT_SPAN + 3 {
        return None;
    }
    let side = if signed_area(points) > 0.0 { 1.0 } else { -1.0 };
    let offsets: Vec<Option<EdgeOffset>> = (0..n)
        .map(|i| {
            let d = unit(sub(
                points[(i + TANGENT_SPAN) % n],
                points[(i + n - TANGENT_SPAN) % n],
            ));
            // Positive signed area: the interior is on the left, outwards on the right.
            let normal = [d[1] * side, -d[0] * side];
            edge_at(points[i], normal, img, reach).map(|e| EdgeOffset {
                offset: e.offset,
                normal,
                strength: e.strength,
            })
        })
        .collect();
    let found = offsets.iter().filter(|o| o.is_some()).count();
    ((found as f64) >= MIN_FOUND * n as f64).then_some(offsets)
}

/// `offsets` without the points whose edge lies further than [`OUTLIER`] from the median
/// offset of the [`NEIGHBOURS`] found points on either side.
pub fn without_outliers(offsets: &[Option<EdgeOffset>]) -> Vec<Option<EdgeOffset>> {
    let n = offsets.len();
    let mut near = Vec::with_capacity(2 * NEIGHBOURS);
    (0..n)
        .map(|i| {
            let here = offsets[i]?;
            near.clear();
            near.extend(
                (1..=NEIGHBOURS)
                    .flat_map(|k| [(i + k) % n, (i + n - k) % n])
                    .filter_map(|j| offsets[j].map(|o| o.offset)),
            );
            near.sort_by(f64::total_cmp);
            match near.get(near.len() / 2) {
                Some(&median) if (here.offset - median).abs() > OUTLIER => None,
                _ => Some(here),
            }
        })
        .collect()
}

/// A colour edge found across a line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// Distance along the normal to the edge, pixels (positive outwards).
    pub offset: f64,
    /// The colour gradient's magnitude at the edge's peak (RGB difference over half a pixel):
    /// how strong the edge is, to tell a cut from noise or a shadow's ramp.
    pub strength: f64,
}

/// The edge along `normal` from `at` within `reach`, with its strength: the
/// outermost peak of the colour gradient's magnitude whose [`prominence`] reaches
/// [`PEAK_FRACTION`] of the most prominent's, located by the centroid of its half-height part. `None` if the profile leaves the
/// image or is flat.
///
/// Why the outermost peak and not the highest: a die-cut piece shows its cardboard core as a
/// light line along the cut, so a face close to the background in colour gives two steps of
/// similar height a pixel or two apart (face to rim, rim to background), and the highest
/// changed from one to the other along a side. The cut is the outer one, unless it is a drop
/// shadow's far edge ([`Reach::past_shadow_ramps`]).
pub fn edge_at(at: Pt, normal: Pt, img: &RgbImage, reach: Reach) -> Option<Edge> {
    let grad = gradient_profile(at, normal, img, reach)?;
    let g = |k: usize| grad[k].1;
    let last = grad.len() - 1;
    let peaks: Vec<(usize, f64)> = (0..=last)
        .filter(|&k| (k == 0 || g(k) >= g(k - 1)) && (k == last || g(k) > g(k + 1)))
        .map(|k| (k, prominence(&grad, k)))
        .collect();
    let most = peaks.iter().map(|p| p.1).fold(0.0, f64::max);
    if most <= 0.0 {
        return None;
    }
    let mut peak = peaks.iter().rev().find(|p| p.1 >= PEAK_FRACTION * most)?.0;
    if reach.past_shadow_ramps && shadow_ramp(img, at, normal, grad[peak].0) {
        // The outermost cut-like peak further in that is not a ramp itself, if any.
        if let Some(&(inner, _)) = peaks.iter().rev().find(|&&(k, p)| {
            k < peak && p >= PEAK_FRACTION * most && !shadow_ramp(img, at, normal, grad[k].0)
        }) {
            peak = inner;
        }
    }
    // The peak's half-height part, stopping where the profile rises again.
    let half = 0.5 * g(peak);
    let (mut lo, mut hi) = (peak, peak);
    while lo > 0 && g(lo - 1) >= half && g(lo - 1) <= g(lo) {
        lo -= 1;
    }
    while hi < last && g(hi + 1) >= half && g(hi + 1) <= g(hi) {
        hi += 1;
    }
    let part = &grad[lo..=hi];
    let weight: f64 = part.iter().map(|p| p.1).sum();
    Some(Edge {
        offset: part.iter().map(|p| p.0 * p.1).sum::<f64>() / weight,
        strength: g(peak),
    })
}

/// Every local peak of the colour gradient's magnitude along `normal` from `at` within
/// `reach`, located to a fraction of a step by a parabola through the peak and its neighbours;
/// empty if the profile leaves the image. Unlike [`edge_at`], no peak is preferred: the caller
/// asks whether any strong edge lies near a line (the polygon path's support test).
pub fn edge_peaks(at: Pt, normal: Pt, img: &RgbImage, reach: Reach) -> Vec<Edge> {
    let Some(grad) = gradient_profile(at, normal, img, reach) else {
        return Vec::new();
    };
    (1..grad.len().saturating_sub(1))
        .filter(|&k| grad[k].1 >= grad[k - 1].1 && grad[k].1 > grad[k + 1].1)
        .map(|k| {
            let (a, b, c) = (grad[k - 1].1, grad[k].1, grad[k + 1].1);
            let den = a - 2.0 * b + c;
            let shift = if den < 0.0 { 0.5 * (a - c) / den } else { 0.0 };
            Edge {
                offset: grad[k].0 + shift.clamp(-0.5, 0.5) * STEP,
                strength: b,
            }
        })
        .collect()
}

/// How far either side of a line's centre its two sides are looked at, pixels: the blur
/// spreads a 1 px rim over about 2 px.
const LINE_SPAN: f64 = 2.0;

/// The most distinct thin line of another colour across `normal` from `at`, centred within
/// `within` px of it (rounded to the profile's step): the point whose colour differs most
/// from both sides (its *depth*, the lesser of the largest RGB differences within
/// `LINE_SPAN` on either side), where the two sides differ from each other by less than
/// that depth (a step differs from its sides by half the step each, but its sides differ by
/// all of it). As an [`Edge`]: the offset of the line's outer flank (half way back to the
/// outer side's colour) and the depth; `None` if the profile leaves the image or has no such
/// line. The depth is a colour difference across the line, not a gradient over half a pixel
/// as an [`Edge`]'s strength is elsewhere: a line that deep has flanks about half as strong.
///
/// Why: where a white face meets white paper, the cut shows only as the die-cut rim, a line
/// a pixel wide a shade darker than both (luma about 242 between 253 and 254 on a rendered
/// photo), and the gradient sees each of its two flanks as a weak step (7–16 against a piece
/// median of 43) that falls below any threshold noise allows, where the line itself is 19
/// deep: the corner completion of the polygon path looks for it along a pale corner's
/// extended sides (`photo_support`).
pub fn rim_line(at: Pt, normal: Pt, img: &RgbImage, within: f64) -> Option<Edge> {
    let span = (LINE_SPAN / STEP).round() as i64;
    let centre = (within.max(0.0) / STEP).round() as i64;
    let colours: Vec<[f64; 3]> = (-centre - span..=centre + span)
        .map(|k| bilinear(img, add(at, scale(normal, k as f64 * STEP))))
        .collect::<Option<_>>()?;
    let span = span as usize;
    (span..colours.len() - span)
        .filter_map(|k| {
            let here = colours[k];
            let farthest = |range: std::ops::Range<usize>| {
                range
                    .map(|j| (colour_distance(colours[j], here), j))
                    .max_by(|a, b| a.0.total_cmp(&b.0))
            };
            let (inner, i) = farthest(k - span..k)?;
            let (outer, o) = farthest(k + 1..k + span + 1)?;
            let depth = inner.min(outer);
            if colour_distance(colours[i], colours[o]) >= depth {
                return None;
            }
            // The cut is the line's outer flank, where the colour has come half way back to
            // the outer side's (for a blurred step, its steepest point).
            let half = 0.5 * outer;
            let crossing = (k + 1..=o).find(|&j| colour_distance(colours[j], here) >= half)?;
            let (before, after) = (
                colour_distance(colours[crossing - 1], here),
                colour_distance(colours[crossing], here),
            );
            let t = crossing as f64 - (after - half) / (after - before).max(f64::EPSILON);
            Some(Edge {
                offset: (t - (centre + span as i64) as f64) * STEP,
                strength: depth,
            })
        })
        .max_by(|a, b| a.strength.total_cmp(&b.strength))
}

/// A step counts as a drop shadow's far edge when the colour difference across it (1 px
/// either side) has less chroma than this fraction of its length, …
const SHADOW_RAMP_CHROMA: f64 = 0.4;

/// … and brightens outwards: the shadow is the paper darkened, so its far edge changes the
/// grey level only, where a cut changes the colour too (a face of any colour but grey). Why:
/// a shadow taken into the mask puts the outline up to 4 px out on it, and from there the
/// shadow's far edge is within the polygon path's 2 px outward reach of the outline and,
/// in a JPEG's noise, often as prominent as the cut: [`edge_at`]'s outermost peak was then
/// the shadow's (polygon photo 7:67, a 21 px side fitted 4 px out on its shadow). Measured over
/// rendered polygon photos (seeds 1–40, 7/10/12/14 pieces, `straightening_rendered`): corners
/// missed 77 → 63, extra vertices 257 → 218, vertices off by more than 1.5 px 247 → 222. The
/// vision stage's bulge snap does not use it (unmeasured on the assembly's sets).
fn shadow_ramp(img: &RgbImage, at: Pt, normal: Pt, offset: f64) -> bool {
    let (Some(inside), Some(outside)) = (
        bilinear(img, add(at, scale(normal, offset - 1.0))),
        bilinear(img, add(at, scale(normal, offset + 1.0))),
    ) else {
        return false;
    };
    let d: [f64; 3] = std::array::from_fn(|c| outside[c] - inside[c]);
    let grey = (d[0] + d[1] + d[2]) / 3.0;
    let chroma = d.iter().map(|v| (v - grey).powi(2)).sum::<f64>().sqrt();
    let length = colour_distance(inside, outside);
    grey > 0.0 && chroma < SHADOW_RAMP_CHROMA * length
}

/// The colour gradient's magnitude (RGB difference over one step either side) at every
/// [`STEP`] along `normal` from `at`, from `reach.inward` inside to `reach.outward` outside, as
/// (offset, magnitude); `None` if the profile leaves the image.
fn gradient_profile(at: Pt, normal: Pt, img: &RgbImage, reach: Reach) -> Option<Vec<(f64, f64)>> {
    let (inward, outward) = (
        (reach.inward / STEP).round() as i64,
        (reach.outward / STEP).round() as i64,
    );
    let colour = |t: f64| bilinear(img, add(at, scale(normal, t)));
    let mut grad = Vec::with_capacity((inward + outward) as usize + 1);
    for k in -inward..=outward {
        let t = k as f64 * STEP;
        let (lo, hi) = (colour(t - STEP)?, colour(t + STEP)?);
        grad.push((t, colour_distance(lo, hi)));
    }
    Some(grad)
}

/// How far peak `k` of the gradient profile stands above the lower of the lowest points
/// within [`PROMINENCE_SPAN`] on either side (before the profile rises above the peak): a
/// cut is a sharp step, a shadow's edge or a vignette a slow ramp whose gradient, however
/// high, barely changes over a couple of pixels.
fn prominence(grad: &[(f64, f64)], k: usize) -> f64 {
    let span = (PROMINENCE_SPAN / STEP).round() as usize;
    let top = grad[k].1;
    let low = |range: &mut dyn Iterator<Item = usize>| {
        let mut low = top;
        for j in range {
            if grad[j].1 > top {
                break;
            }
            low = low.min(grad[j].1);
        }
        low
    };
    let left = low(&mut (k.saturating_sub(span)..k).rev());
    let right = low(&mut (k + 1..(k + span + 1).min(grad.len())));
    top - left.max(right)
}

/// The Euclidean distance between two RGB colours.
fn colour_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((0..3).map(|c| (a[c] - b[c]).powi(2)).sum::<f64>()).sqrt()
}

/// The image's colour at a point (pixel centres at +0.5), interpolated bilinearly; `None`
/// outside the image.
fn bilinear(img: &RgbImage, p: Pt) -> Option<[f64; 3]> {
    let (x, y) = (p[0] - 0.5, p[1] - 0.5);
    let (w, h) = (img.width() as f64, img.height() as f64);
    if !(x >= 0.0 && y >= 0.0 && x <= w - 1.0 && y <= h - 1.0) {
        return None;
    }
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (x0, y0) = (x0 as u32, y0 as u32);
    let (x1, y1) = (
        (x0 + 1).min(img.width() - 1),
        (y0 + 1).min(img.height() - 1),
    );
    let px = |x: u32, y: u32| img.get_pixel(x, y).0;
    let (p00, p10, p01, p11) = (px(x0, y0), px(x1, y0), px(x0, y1), px(x1, y1));
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let top = p00[c] as f64 * (1.0 - fx) + p10[c] as f64 * fx;
        let bottom = p01[c] as f64 * (1.0 - fx) + p11[c] as f64 * fx;
        *o = top * (1.0 - fy) + bottom * fy;
    }
    Some(out)
}

fn add(a: Pt, b: Pt) -> Pt {
    [a[0] + b[0], a[1] + b[1]]
}

fn sub(a: Pt, b: Pt) -> Pt {
    [a[0] - b[0], a[1] - b[1]]
}

fn scale(a: Pt, s: f64) -> Pt {
    [a[0] * s, a[1] * s]
}

/// Shoelace area, positive counter-clockwise in y-up axes (clockwise on screen).
fn signed_area(poly: &[Pt]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum::<f64>()
        / 2.0
}

fn unit(v: Pt) -> Pt {
    let l = v[0].hypot(v[1]).max(f64::MIN_POSITIVE);
    [v[0] / l, v[1] / l]
}

/// A `width` × `height` test picture of `sharp`, blurred by [1 2 1]/4 both ways as a phone
/// lens blurs a cut: what the edge locator and its callers are tested on.
#[cfg(test)]
pub(crate) fn lens_blurred(
    width: u32,
    height: u32,
    sharp: impl Fn(u32, u32) -> [f64; 3],
) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let mut c = [0.0; 3];
        for (dx, wx) in [(-1i32, 0.25), (0, 0.5), (1, 0.25)] {
            for (dy, wy) in [(-1i32, 0.25), (0, 0.5), (1, 0.25)] {
                let s = sharp(x.saturating_add_signed(dx), y.saturating_add_signed(dy));
                (0..3).for_each(|i| c[i] += s[i] * wx * wy);
            }
        }
        image::Rgb(c.map(|v: f64| v.round() as u8))
    })
}

#[cfg(test)]
#[path = "edge_snap_tests.rs"]
mod tests;
