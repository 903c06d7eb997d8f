//! Straightened piece polygons checked against the photograph's edges, and corrected where the
//! image contradicts them.
//!
//! Why: the straightening fits sides to the mask's outline, and where the mask is wrong its
//! polygon is wrong in shape, not only by a fraction of a pixel. On light paper a light patch of
//! the face at a corner is taken for background, and the polygon cuts the corner along the
//! print's edge; a corner's rounded tip fitted as a short run makes a needle that runs far out
//! over the paper; a short side taken for a rounded tip is replaced by a spike; a shadow that
//! joined the mask bends a side with a spurious vertex. In each case some of the polygon's
//! boundary runs where the photograph shows no edge, or the edge the cut makes runs beyond it.
//!
//! So the polygon is tested side by side against the image: a boundary point is *supported*
//! when a peak of the colour gradient ([`edge_peaks`]) lies within [`SUPPORT_OFFSET`] of it,
//! at least a fraction of the piece's median edge strength and well above the background's own
//! peaks. A side is dropped (its neighbours extended to meet) when that removes mostly
//! unsupported boundary (a needle over the paper); a corner is completed outwards when the
//! extended sides carry a straight run of edges along their new length, since the cut is the
//! outermost edge of a piece, even where only its rim shows it (as steps, or as a thin line
//! where a white face meets white paper); a faint side is pushed out onto a straight run of
//! edges beyond it (`photo_push`), and a faint chord's end slid out along its neighbour to a
//! lost corner, both judged the same way.

use crate::solvers::polygon::edge_snap::{edge_peaks, rim_line, Edge, Reach};
use crate::solvers::polygon::geometry::{
    add, dist, is_simple, orientation, scale, sides, signed_area, sub, Pt,
};
use image::RgbImage;

#[path = "photo_edits.rs"]
mod edits;
#[path = "photo_push.rs"]
mod push;
#[path = "photo_slide.rs"]
mod slide;
#[cfg(test)]
use edits::SideDrop;
use edits::{notch_fills, side_drops};

/// How far either side of a boundary point an edge is looked for when testing support, pixels.
const SUPPORT_REACH: Reach = Reach {
    inward: 2.5,
    outward: 2.5,
    past_shadow_ramps: false,
};
/// A boundary point is supported by an edge this close to it, pixels: the snapped sides lie
/// 0.5–1.2 px inside the cut on light paper (the rim's bias, see `edge_snap`).
const SUPPORT_OFFSET: f64 = 1.2;
/// ... whose strength is at least this fraction of the piece's median edge strength: a
/// die-cut rim between a white face and white paper, blurred, keeps about half the strength of
/// a coloured face's cut, while noise, JPEG ringing and a shadow's soft ramp stay far below.
const STRENGTH_FRACTION: f64 = 0.35;
/// The background's peaks are measured this far outside the polygon, pixels: beyond the
/// blur and the rim, before most neighbouring pieces.
const NOISE_DISTANCE: f64 = 7.0;
/// A support must be this many times the background's median peak.
const NOISE_FACTOR: f64 = 2.0;
/// A corner completed outwards needs edges along its extended sides of this fraction of the
/// piece's median strength: the die-cut rim alone where a white face meets white paper,
/// blurred, keeps about a third of a coloured face's step (measured 11–18 against a median
/// of 43 on a 14-piece light-paper photo), but runs at a steady offset, which noise does not.
const WEAK_FRACTION: f64 = 0.2;
/// ... at offsets within this RMS distance of a line, pixels.
const EXTENSION_SCATTER: f64 = 0.35;
/// A thin line along an extended side ([`rim_line`]) counts up to this far outside it,
/// pixels: its outer flank is the cut itself, which the snapped sides, fitted to the merged
/// face-to-rim-to-paper step, lie 0.5–1.2 px inside on light paper (`edge_snap`'s bias), so
/// the extension of a side does too; inwards it counts within [`SUPPORT_OFFSET`] as steps
/// do. Measured (10-piece photo seed 145, a white tip on white paper): the rim's flank at
/// +1.0 to +1.8 px along the extended top side, −0.4 to +0.3 along the other.
const LINE_OUTWARD: f64 = 2.0;
/// Boundary within this distance of a vertex is not tested: the blur rounds every corner.
const CORNER_SKIP: f64 = 1.5;
/// An edit that makes the polygon smaller or reshapes it must remove at least this much
/// unsupported boundary, pixels.
const MIN_GAIN_PX: f64 = 3.0;
/// ... and at least this fraction of the boundary it takes away: what an edit removes must be
/// mostly unsupported (a spike over the paper), not a real part of the outline.
const REMOVED_UNSUPPORTED: f64 = 0.5;
/// A corner completed outwards must have its extended sides supported over this fraction of
/// their new length.
const EXTENSION_SUPPORT: f64 = 0.8;
/// A vertex an edit moves may move at most this far, pixels.
const MAX_MOVE_PX: f64 = 40.0;
/// A side is *faint* when the median strength of the edges along it (none: 0) is below this
/// fraction of the piece's median edge strength. Measured on the rendered photos (seeds 1–80,
/// the 455 sides under 16 px of the straightened polygons): the spurious short sides that
/// capped the solver's tolerance 0.17–0.44 of their piece's median (a bulge over the shadow,
/// a pale tip cut across, a dent or a notch along white print); real short sides 0.6 and more
/// (97 % of 340), but 9 of them 0.31–0.57, 5 under 0.5, none of these its puzzle's capping
/// side.
const FAINT_FRACTION: f64 = 0.5;
/// A side needs this many samples (1 px apart, corners skipped) to be judged faint.
const FAINT_SAMPLES: usize = 3;

/// The polygon `poly` (a piece's straightened outline in `img`'s pixels) with the edits the
/// image supports applied, or `poly` itself when there is no edge to measure by.
pub fn supported_polygon(poly: &[Pt], img: &RgbImage) -> Vec<Pt> {
    let Some(support) = Support::measure(poly, img) else {
        return poly.to_vec();
    };
    let mut current = poly.to_vec();
    let mut cost = support.unsupported(&current);
    for _ in 0..2 * poly.len() {
        let best = support
            .edits(&current, cost)
            .into_iter()
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match best {
            Some((next, next_cost)) => (current, cost) = (next, next_cost),
            None => break,
        }
    }
    current
}

/// The sides of `poly` (start, end) along which the photograph `img` shows hardly any edge
/// (under [`FAINT_FRACTION`] of the piece's median edge strength; a side too short for
/// [`FAINT_SAMPLES`] samples is never faint): where the outline followed something other
/// than the cut (a shadow's ramp, a pale tip's blur, the face across a lost corner). Why:
/// such a side may be short, and a short side caps the solver's length tolerance
/// (`photo_options`) although no piece has it; a real short side is a cut, and shows one.
/// Empty when there is no edge to measure by.
pub fn faint_sides(poly: &[Pt], img: &RgbImage) -> Vec<(Pt, Pt)> {
    let Some(support) = Support::measure(poly, img) else {
        return Vec::new();
    };
    sides(poly)
        .filter(|&(a, b)| support.faint_side(a, b))
        .collect()
}

/// Boundary of one polygon further than this from the other's is where two fits of a piece
/// differ, pixels.
const DIFFER_PX: f64 = 1.5;

/// Whether the image shows the cut along `b` rather than along `a`, two fits of one piece's
/// outline, where they differ (boundary of each further than [`DIFFER_PX`] from the other):
/// the median strength of the edges found there (none: 0) is higher along `b`'s part, and
/// reaches the strength that counts as support. Why: where the edge snap lost a stretch of a
/// piece's outline, it lost either a short side (its neighbours then meet in a spike over
/// the paper, where no edge runs) or a corner's tip (a chord across the gap then cuts the
/// face, where no edge runs either, or only the print's): the cut is the one of the two
/// that the photograph shows as an edge. `false` when nothing differs or there is no edge
/// to measure by.
pub fn better_supported(a: &[Pt], b: &[Pt], img: &RgbImage) -> bool {
    let Some(support) = Support::measure(a, img) else {
        return false;
    };
    let strength_apart = |p: &[Pt], other: &[Pt]| {
        let orientation = orientation(p);
        let mut found: Vec<f64> = sides(p)
            .flat_map(|(s, e)| side_samples(s, e, CORNER_SKIP))
            .filter(|&(q, _)| {
                sides(other).all(|(s, e)| {
                    crate::solvers::polygon::geometry::dist_to_segment(q, s, e) > DIFFER_PX
                })
            })
            .map(|(q, d)| {
                strongest_near(q, normal(d, orientation), img).map_or(0.0, |e| e.strength)
            })
            .collect();
        median_of(&mut found)
    };
    match (strength_apart(a, b), strength_apart(b, a)) {
        (Some(sa), Some(sb)) => sb > sa && sb >= support.min_strength,
        (None, Some(sb)) => sb >= support.min_strength,
        _ => false,
    }
}

/// The image and the edge strength that counts as support for one piece.
struct Support<'a> {
    img: &'a RgbImage,
    /// The piece's median edge strength along its polygon.
    median: f64,
    min_strength: f64,
    /// The least strength that continues a cut along a completed corner.
    weak_strength: f64,
    /// +1 or −1: the polygon's orientation, which gives its sides' outward normals.
    orientation: f64,
}

impl<'a> Support<'a> {
    /// The piece's median edge strength along its polygon; `None` when no edge is found.
    fn measure(poly: &[Pt], img: &'a RgbImage) -> Option<Support<'a>> {
        let orientation = orientation(poly);
        let mut strengths: Vec<f64> = sides(poly)
            .flat_map(|(a, b)| side_samples(a, b, CORNER_SKIP))
            .filter_map(|(p, d)| strongest_near(p, normal(d, orientation), img).map(|e| e.strength))
            .collect();
        if strengths.len() < 8 {
            return None;
        }
        // The background's own peaks (noise, JPEG ringing) beside the piece: a support must
        // stand well above them.
        let mut noise: Vec<f64> = sides(poly)
            .flat_map(|(a, b)| side_samples(a, b, CORNER_SKIP))
            .step_by(2)
            .map(|(p, d)| {
                let n = normal(d, orientation);
                strongest_near(add(p, scale(n, NOISE_DISTANCE)), n, img).map_or(0.0, |e| e.strength)
            })
            .collect();
        let median = median_of(&mut strengths)?;
        let floor = NOISE_FACTOR * median_of(&mut noise).unwrap_or(0.0);
        (median > 0.0).then_some(Support {
            img,
            median,
            min_strength: (STRENGTH_FRACTION * median).max(floor),
            weak_strength: (WEAK_FRACTION * median).max(floor),
            orientation,
        })
    }

    /// Whether the edges along these samples of a side (point, direction) are faint: their
    /// median strength (none: 0) under [`FAINT_FRACTION`] of the piece's median.
    fn faint(&self, samples: &[(Pt, Pt)]) -> bool {
        let mut found: Vec<f64> = samples
            .iter()
            .map(|&(q, d)| {
                strongest_near(q, normal(d, self.orientation), self.img).map_or(0.0, |e| e.strength)
            })
            .collect();
        median_of(&mut found).is_some_and(|m| m < FAINT_FRACTION * self.median)
    }

    /// Whether the side `a`→`b` is faint: long enough for [`FAINT_SAMPLES`] samples and
    /// [`Self::faint`] along them.
    fn faint_side(&self, a: Pt, b: Pt) -> bool {
        let samples: Vec<(Pt, Pt)> = side_samples(a, b, CORNER_SKIP).collect();
        samples.len() >= FAINT_SAMPLES && self.faint(&samples)
    }

    fn supported(&self, p: Pt, d: Pt) -> bool {
        self.edge_above(p, d, self.min_strength)
    }

    /// Whether an edge of at least `strength` lies within [`SUPPORT_OFFSET`] of `p` on a side
    /// running along `d`.
    fn edge_above(&self, p: Pt, d: Pt, strength: f64) -> bool {
        strongest_near(p, normal(d, self.orientation), self.img)
            .is_some_and(|e| e.strength >= strength)
    }

    /// Length of the segment `a`→`b` (1 px samples, corners skipped) that no edge supports.
    fn unsupported_between(&self, a: Pt, b: Pt) -> f64 {
        side_samples(a, b, CORNER_SKIP)
            .filter(|&(p, d)| !self.supported(p, d))
            .count() as f64
    }

    /// Length of `poly`'s boundary that no edge supports, pixels.
    fn unsupported(&self, poly: &[Pt]) -> f64 {
        sides(poly)
            .map(|(a, b)| self.unsupported_between(a, b))
            .sum()
    }

    /// Whether a cut runs along the segment `a`→`b` (a side extended to a completed corner):
    /// edges of at least the weak strength along [`EXTENSION_SUPPORT`] of it, at offsets that
    /// lie on a line within [`EXTENSION_SCATTER`] (a straight cut), not scattered as the blur
    /// around a corner or noise leaves them. The edges are the colour gradient's peaks and,
    /// where those do not make a cut, also a thin line of another colour ([`rim_line`], at
    /// its outer flank, up to [`LINE_OUTWARD`] out: a white face's die-cut rim on white
    /// paper, whose two flanks are each too weak a step). Too short to tell (under 3
    /// samples): yes.
    fn continues_cut(&self, a: Pt, b: Pt) -> bool {
        let samples: Vec<(Pt, Pt)> = side_samples(a, b, CORNER_SKIP).collect();
        if samples.len() < 3 {
            return true;
        }
        let n = normal(samples[0].1, self.orientation);
        let mut edges: Vec<Vec<Edge>> = samples
            .iter()
            .map(|&(p, _)| {
                edge_peaks(p, n, self.img, SUPPORT_REACH)
                    .into_iter()
                    .filter(|e| {
                        e.offset.abs() <= SUPPORT_OFFSET && e.strength >= self.weak_strength
                    })
                    .collect()
            })
            .collect();
        if steady(&edges) {
            return true;
        }
        // The lines only where the steps do not make a cut: a line's depth exceeds its
        // flanks' steps, so among steps it would move the median the steps agree on.
        for (found, &(p, _)) in edges.iter_mut().zip(&samples) {
            found.extend(rim_line(p, n, self.img, SUPPORT_OFFSET).filter(|e| {
                (-SUPPORT_OFFSET..=LINE_OUTWARD).contains(&e.offset)
                    && e.strength >= self.weak_strength
            }));
        }
        steady(&edges)
    }

    /// Every acceptable edit of `poly` (whose unsupported length is `cost`) with its
    /// unsupported length.
    fn edits(&self, poly: &[Pt], cost: f64) -> Vec<(Vec<Pt>, f64)> {
        let area = signed_area(poly);
        let mut out = Vec::new();
        let mut consider = |next: Vec<Pt>, extension: Option<&[(Pt, Pt)]>| {
            if !plausible(poly, &next, area) {
                return;
            }
            let next_cost = self.unsupported(&next);
            let ok = match extension {
                Some(segments) => {
                    // The extended sides are judged by the weaker strength below, the rest of
                    // the outline must not lose support.
                    let extended: f64 = segments
                        .iter()
                        .map(|&(a, b)| self.unsupported_between(a, b))
                        .sum();
                    next_cost - extended <= cost + 1.0
                        && segments.iter().all(|&(a, b)| self.continues_cut(a, b))
                }
                None => {
                    let removed = (perimeter(poly) - perimeter(&next)).max(0.0);
                    next_cost <= cost - MIN_GAIN_PX.max(REMOVED_UNSUPPORTED * removed)
                }
            };
            if ok {
                out.push((next, next_cost));
            }
        };
        for d in side_drops(poly) {
            let grows = signed_area(&d.next).abs() > area.abs();
            consider(
                d.next,
                grows.then_some(&[(d.before.1, d.corner), (d.corner, d.after.0)][..]),
            );
        }
        // A notch filled is judged as a completed corner: its chord must carry a cut.
        for n in notch_fills(poly) {
            consider(n.next, Some(&[n.chord][..]));
        }
        // So is a faint side pushed out: its new line and its neighbours' gains.
        for p in self.side_pushes(poly) {
            consider(p.next, Some(&p.segments));
        }
        // And a faint chord's end slid out along its neighbour (`photo_slide`): the
        // extension and the re-drawn chord.
        for s in self.chord_slides(poly) {
            consider(s.next, Some(&s.segments));
        }
        out
    }
}

/// Whether the edges found at consecutive samples of a segment (`peaks[i]` at sample `i`)
/// make a straight cut: some edge at [`EXTENSION_SUPPORT`] of the samples, the ones nearest
/// the median offset of the strongest lying on a line within [`EXTENSION_SCATTER`].
fn steady(peaks: &[Vec<Edge>]) -> bool {
    let needed = EXTENSION_SUPPORT * peaks.len() as f64;
    let mut strongest: Vec<f64> = peaks
        .iter()
        .filter_map(|p| p.iter().max_by(|x, y| x.strength.total_cmp(&y.strength)))
        .map(|e| e.offset)
        .collect();
    if (strongest.len() as f64) < needed {
        return false;
    }
    // On a sharp scan the rim gives two peaks a pixel apart, so each sample takes the one
    // nearest the median of the strongest.
    let Some(middle) = median_of(&mut strongest) else {
        return false;
    };
    let found: Vec<(f64, f64)> = peaks
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.iter()
                .min_by(|x, y| {
                    (x.offset - middle)
                        .abs()
                        .total_cmp(&(y.offset - middle).abs())
                })
                .map(|e| (i as f64, e.offset))
        })
        .collect();
    // The blur around the corners the segment joins leaves a stray peak or two: dropped
    // when off the line the others make.
    let (line, _) = line_fit(&found);
    let kept: Vec<(f64, f64)> = found
        .into_iter()
        .filter(|&(x, y)| (y - line(x)).abs() <= 2.0 * EXTENSION_SCATTER)
        .collect();
    (kept.len() as f64) >= needed && line_fit(&kept).1 <= EXTENSION_SCATTER
}

/// The strongest peak of the colour gradient within [`SUPPORT_OFFSET`] of `p` along `n`.
fn strongest_near(p: Pt, n: Pt, img: &RgbImage) -> Option<Edge> {
    edge_peaks(p, n, img, SUPPORT_REACH)
        .into_iter()
        .filter(|e| e.offset.abs() <= SUPPORT_OFFSET)
        .max_by(|x, y| x.strength.total_cmp(&y.strength))
}

/// The least-squares line through `(x, y)` points (as y of x) and its RMS residual.
fn line_fit(pts: &[(f64, f64)]) -> (impl Fn(f64) -> f64, f64) {
    let n = (pts.len() as f64).max(1.0);
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / n,
        pts.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let slope = if sxx > 0.0 {
        pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx
    } else {
        0.0
    };
    let line = move |x: f64| my + slope * (x - mx);
    let sq: f64 = pts.iter().map(|p| (p.1 - line(p.0)).powi(2)).sum();
    (line, (sq / n).sqrt())
}

fn median_of(v: &mut [f64]) -> Option<f64> {
    let mid = v.len() / 2;
    (!v.is_empty()).then(|| *v.select_nth_unstable_by(mid, f64::total_cmp).1)
}

fn perimeter(poly: &[Pt]) -> f64 {
    sides(poly).map(|(a, b)| dist(a, b)).sum()
}

/// Whether `next` can replace `poly`: simple, the same orientation, its area within 35 % of
/// `area`, and no vertex far from where the old ones were.
fn plausible(poly: &[Pt], next: &[Pt], area: f64) -> bool {
    let a = signed_area(next);
    next.len() >= 3
        && is_simple(next)
        && a * area > 0.0
        && (a / area - 1.0).abs() <= 0.35
        && next
            .iter()
            .all(|p| poly.iter().any(|q| dist(*p, *q) <= MAX_MOVE_PX))
}

/// Points every pixel along `a`→`b`, `skip` from either end, with the segment's direction.
fn side_samples(a: Pt, b: Pt, skip: f64) -> impl Iterator<Item = (Pt, Pt)> {
    let len = dist(a, b);
    let d = unit(sub(b, a));
    let count = if len > 2.0 * skip {
        ((len - 2.0 * skip).floor() as usize) + 1
    } else {
        0
    };
    (0..count).map(move |i| (add(a, scale(d, skip + i as f64)), d))
}

/// The outward normal of a side running along `d` in a polygon of `orientation` (positive
/// signed area: the interior is on the left, outwards on the right).
fn normal(d: Pt, orientation: f64) -> Pt {
    [d[1] * orientation, -d[0] * orientation]
}

fn unit(v: Pt) -> Pt {
    let l = v[0].hypot(v[1]).max(f64::MIN_POSITIVE);
    [v[0] / l, v[1] / l]
}

#[cfg(test)]
#[path = "photo_support_tests.rs"]
mod tests;
