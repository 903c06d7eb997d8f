//! Closing a piece's outline along its die-cut rim.
//!
//! A piece printed white on white paper, photographed a little out of focus, differs from the
//! background only by its rim: the cut cardboard edge, a line one or two pixels wide that is
//! darker and barely tinted (so the shade test of the low pass takes it for shadow), and on the
//! far side the step from the face into the piece's own drop shadow. Where the print nears the
//! background colour all around, the hysteresis grows from the print's coloured patches but
//! never around the face, and the piece comes out as a fragment or a speck.
//!
//! Both the rim and the step stand out as a *ridge* of the distance image (a pixel well above
//! the pixels two to either side of it, see [`threshold::ridge`]), which a soft shadow or a
//! slow change of light never is. Growing along ridges closes such an outline, and filling it
//! gives the face. Ridge growth also follows JPEG ringing and the folds of a shadow into a
//! socket, fattening outlines that were right already, so it is kept only where it encloses a
//! large new interior (a face the first pass missed) or a knob (a small interior, thick, and
//! held by its piece only at its neck): the enclosed pixels and the ridge pixels bordering
//! them join the mask, nothing else does. Low-pass pixels the growth reached only
//! across a rim count as interior (print cut off its piece by a seam the shade test refuses),
//! strong ridges start the growth on their own, for a piece with no low-pass pixel at all,
//! and a rim that fades one pixel short of the print is bridged there (see `rim_gaps`).

use super::components::{fill_holes, labelled_areas, window};
use super::{rim_gaps, threshold};
use image::{GrayImage, Luma};
use imageproc::distance_transform::euclidean_squared_distance_transform;
use imageproc::region_labelling::Connectivity;
use rayon::prelude::*;

/// What the rim closure reads.
pub struct RimEvidence<'a> {
    /// Every pixel's distance from the background model, ΔE.
    pub distances: &'a [f32],
    pub width: usize,
    /// A pixel whose [`threshold::ridge`] exceeds this (ΔE) is rim.
    pub ridge: f32,
    /// A new interior must have at least this many pixels to count as a missed face.
    pub min_interior: u64,
    /// A pixel outside `grown` whose ridge exceeds this (ΔE) also starts the growth: the rim of
    /// a piece with no pixel in the low pass at all (cream print on white paper, 2–3 ΔE off it
    /// over the whole face) is a closed loop of ridge that nothing else reaches.
    pub seed_ridge: f32,
}

/// The mask `grown` (the hysteresis result, before clean-up) with the faces its pieces' rims
/// enclose, or `None` when rims enclose nothing new. `joins` is the low pass the hysteresis
/// used: the ridge growth follows it as well as the ridges.
pub fn close_rims(
    grown: &GrayImage,
    evidence: &RimEvidence,
    joins: impl Fn(usize) -> bool,
) -> Option<GrayImage> {
    let (w, h) = grown.dimensions();
    let width = evidence.width;
    let dist = evidence.distances;
    let ridges = Ridges::new(dist, width);
    // A pixel the growth rejected is asked again from each of its grown neighbours: remember.
    let rejected = std::cell::RefCell::new(vec![false; dist.len()]);
    let seeds = ridges.seeds(grown.as_raw(), evidence.seed_ridge);
    let joins = &joins;
    let along_rims = threshold::hysteresis(seeds, width, |j| {
        if rejected.borrow()[j] {
            return false;
        }
        let on = joins(j) || ridges.at(j) > evidence.ridge;
        if !on {
            rejected.borrow_mut()[j] = true;
        }
        on
    });
    let along_rims = GrayImage::from_raw(w, h, along_rims).expect("mask has the image's size");
    let (along_rims, filled_after) = rim_gaps::closing_bridges(
        along_rims,
        grown,
        |j| ridges.at(j),
        rim_gaps::BRIDGE_RIDGE * evidence.ridge,
    );
    let mut filled_before = grown.clone();
    fill_holes(&mut filled_before);
    // New interior: what the rims enclose, and the low-pass pixels the growth reached only
    // across a rim. The latter are print cut off from the rest of its piece by a seam the low
    // pass refuses: where dark print meets pale print the blend is a darker shade of the
    // background's colour, which the shade test takes for shadow (a pale cyan half of a piece
    // whose other half is dark brown, classic scan seed 24).
    let new_interior = GrayImage::from_fn(w, h, |x, y| {
        let j = y as usize * width + x as usize;
        let inside = filled_after.get_pixel(x, y)[0] != 0
            && filled_before.get_pixel(x, y)[0] == 0
            && (along_rims.get_pixel(x, y)[0] == 0 || joins(j));
        Luma([u8::from(inside) * 255])
    });
    // 4-connected, as background is in `fill_holes`.
    let (labels, areas) = labelled_areas(&new_interior, Connectivity::Four);
    let large: Vec<bool> = areas
        .iter()
        .enumerate()
        .map(|(l, &a)| l > 0 && a >= evidence.min_interior)
        .collect();
    // What a small interior is held against: the pieces as grown, and the large interiors
    // (a piece's pale face), so a socket between a face and the print beside it is held all
    // round.
    let held = GrayImage::from_fn(w, h, |x, y| {
        let on = filled_before.get_pixel(x, y)[0] != 0 || large[labels.get_pixel(x, y)[0] as usize];
        Luma([u8::from(on) * 255])
    });
    let small: Vec<bool> = areas
        .iter()
        .enumerate()
        .map(|(l, &a)| l > 0 && !large[l] && a as f64 >= KNOB_AREA * evidence.min_interior as f64)
        .collect();
    let shapes = interior_shapes(&labels, &small, &held);
    let min_thickness = KNOB_THICKNESS * (evidence.min_interior as f64).sqrt();
    let keep: Vec<bool> = (0..areas.len())
        .map(|l| {
            large[l]
                || shapes[l]
                    .is_some_and(|s| s.thickness >= min_thickness && s.contact <= KNOB_CONTACT)
        })
        .collect();
    if !keep.iter().any(|&k| k) {
        return None;
    }
    let kept = |x: u32, y: u32| keep[labels.get_pixel(x, y)[0] as usize];
    let mut out = grown.clone();
    for y in 0..h {
        for x in 0..w {
            if out.get_pixel(x, y)[0] != 0 {
                continue;
            }
            // A kept interior pixel, or a rim pixel next to one.
            let on = kept(x, y)
                || (along_rims.get_pixel(x, y)[0] != 0
                    && window(x, y, 1, (w, h)).any(|(xx, yy)| kept(xx, yy)));
            if on {
                out.put_pixel(x, y, Luma([255]));
            }
        }
    }
    Some(out)
}

/// A new interior under `min_interior` is still kept when it is a knob: at least this share of
/// `min_interior`, …
///
/// Why: a white knob on white paper is enclosed by its rim as a face is, but it is small (2 %
/// of a piece on generated photos where `min_interior` is 3 %), and the piece lost it
/// (irregular 100 photos seed 13, a knob of 327 px against 410). Measured on 61 generated sets
/// (every third of the sweep's), each interior of at least this share whose thickest point
/// lies inside a true piece outline counting as a face, else as background: 62 interiors in 21
/// sets, 49 faces. The two tests below keep 30 faces and no background; the background ones
/// (white sockets closed at the mouth, slivers of shadow) are held along 0.79 of their
/// boundary or more.
const KNOB_AREA: f64 = 0.3;
/// … at least this thick (its largest inscribed radius), as a fraction of `min_interior`'s
/// square root (about 0.03 of a piece's side: 4 px on pieces of 120 px), against specks of
/// JPEG ringing …
const KNOB_THICKNESS: f64 = 0.18;
/// … and held by the pieces (as grown, or by a large interior, within [`RIM_WIDTH`]) along at
/// most this share of its boundary: a knob joins its piece at its neck and meets background
/// elsewhere, where a socket or a sliver of shadow lies along the piece. A first version
/// counted only boundary pixels touching the pieces, and the rim band between a white socket
/// and its piece hid the socket's hold: two sockets of irregular 100 photos seed 24 were filled.
const KNOB_CONTACT: f64 = 0.7;

/// Pixels: the band of rim between an interior and the piece holding it, which the ridge
/// growth took in but the pieces as grown do not reach (a white socket is held by its piece
/// all round, across its rim).
const RIM_WIDTH: u32 = 3;

/// What tells a knob from a sliver: see [`interior_shapes`].
#[derive(Clone, Copy, Debug)]
struct InteriorShape {
    /// The largest distance (px) from a pixel of the interior to the nearest pixel outside it.
    thickness: f64,
    /// The share of its boundary (pixels with a 4-neighbour outside it) that borders what
    /// holds it (the pieces as grown, and the large interiors).
    contact: f64,
}

/// For each label of `labels` that `asked` (index: label; 0 the background): how thick its
/// interior is and how much of its boundary borders `held`. Each is measured on its own box,
/// since a whole photo's distance transform would cost more than the rest of the step.
fn interior_shapes(
    labels: &super::components::Labels,
    asked: &[bool],
    held: &GrayImage,
) -> Vec<Option<InteriorShape>> {
    let (w, h) = labels.dimensions();
    let mut boxes = vec![(u32::MAX, u32::MAX, 0u32, 0u32); asked.len()];
    for (x, y, p) in labels.enumerate_pixels() {
        let l = p[0] as usize;
        if asked[l] {
            let b = &mut boxes[l];
            *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
    }
    (0..asked.len())
        .map(|l| {
            if !asked[l] {
                return None;
            }
            // One pixel of margin, so the box's edge is outside the interior.
            let (x0, y0) = (boxes[l].0.saturating_sub(1), boxes[l].1.saturating_sub(1));
            let (x1, y1) = ((boxes[l].2 + 1).min(w - 1), (boxes[l].3 + 1).min(h - 1));
            let own = |x: u32, y: u32| labels.get_pixel(x, y)[0] as usize == l;
            let outside = GrayImage::from_fn(x1 - x0 + 1, y1 - y0 + 1, |x, y| {
                Luma([u8::from(!own(x0 + x, y0 + y))])
            });
            let squared = euclidean_squared_distance_transform(&outside);
            let (mut thickness, mut held_by, mut boundary) = (0f64, 0u64, 0u64);
            for y in y0..=y1 {
                for x in (x0..=x1).filter(|&x| own(x, y)) {
                    thickness = thickness.max(squared.get_pixel(x - x0, y - y0)[0].sqrt());
                    let border = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
                        .into_iter()
                        .map(|(dx, dy)| (x as i64 + dx, y as i64 + dy))
                        .filter(|&(xx, yy)| xx >= 0 && yy >= 0 && xx < w as i64 && yy < h as i64)
                        .any(|(xx, yy)| !own(xx as u32, yy as u32));
                    if border {
                        boundary += 1;
                        held_by += u64::from(held_near(held, x, y));
                    }
                }
            }
            Some(InteriorShape {
                thickness,
                contact: held_by as f64 / boundary.max(1) as f64,
            })
        })
        .collect()
}

/// Whether a pixel of `held` lies within [`RIM_WIDTH`] of (`x`, `y`) (Chebyshev distance).
fn held_near(held: &GrayImage, x: u32, y: u32) -> bool {
    window(x, y, RIM_WIDTH, held.dimensions()).any(|(xx, yy)| held.get_pixel(xx, yy)[0] != 0)
}

/// The length, in pixels, of the stretch of rim a ridge is averaged along, beyond the pixel.
const RIDGE_HALF_LENGTH: i64 = 3;
/// How far to either side of a pixel its ridge compares it with, pixels: a blurred rim is two
/// or three pixels wide.
const RIDGE_REACH: f64 = 2.0;
/// Directions a ridge is measured across, evenly spread over a half turn.
const RIDGE_DIRECTIONS: usize = 8;

/// The ridge strength of the distance image (see [`Ridges::at`]).
struct Ridges {
    boxed: Vec<f32>,
    width: usize,
    height: usize,
    /// Per direction: the unit normal and unit tangent.
    frames: Vec<([f64; 2], [f64; 2])>,
}

impl Ridges {
    fn new(values: &[f32], width: usize) -> Ridges {
        let mut boxed = values.to_vec();
        threshold::box_blur(&mut boxed, width, 1);
        let frames = (0..RIDGE_DIRECTIONS)
            .map(|k| {
                let a = std::f64::consts::PI * k as f64 / RIDGE_DIRECTIONS as f64;
                let (s, c) = a.sin_cos();
                ([c, s], [-s, c])
            })
            .collect();
        Ridges {
            height: values.len().checked_div(width).unwrap_or(0),
            boxed,
            width,
            frames,
        }
    }

    /// `grown` with every pixel whose ridge exceeds `height` set. A quick test on the four
    /// axis and diagonal directions without the stretch (which bounds [`Ridges::at`] from
    /// above, up to the rounding of slanted samples, closely enough for a pre-filter) picks the
    /// few candidates the full measure is computed on.
    fn seeds(&self, grown: &[u8], height: f32) -> Vec<u8> {
        let (w, h) = (self.width, self.height);
        let b = &self.boxed;
        let reach = RIDGE_REACH as usize;
        let mut out = grown.to_vec();
        out.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
            if y < reach || y + reach >= h {
                return;
            }
            let inner = w.saturating_sub(2 * reach);
            for (x, px) in row.iter_mut().enumerate().skip(reach).take(inner) {
                let j = y * w + x;
                if *px != 0 {
                    continue;
                }
                let up = j - reach * w;
                let down = j + reach * w;
                let quick = [
                    (j - reach, j + reach),
                    (up, down),
                    (up - reach, down + reach),
                    (up + reach, down - reach),
                ]
                .iter()
                .map(|&(a, c)| b[j] - 0.5 * (b[a] + b[c]))
                .fold(f32::MIN, f32::max);
                // The stretch averages four to seven samples of a line that is at most this
                // high; a margin keeps rounding from dropping a true rim pixel.
                if quick > 0.75 * height && self.at(j) > height {
                    *px = 255;
                }
            }
        });
        out
    }

    fn sample(&self, x: f64, y: f64) -> f32 {
        let xx = (x.round() as i64).clamp(0, self.width as i64 - 1) as usize;
        let yy = (y.round() as i64).clamp(0, self.height as i64 - 1) as usize;
        self.boxed[yy * self.width + xx]
    }

    /// How far pixel `j` stands above the pixels [`RIDGE_REACH`] to either side of it, averaged
    /// along a short straight stretch through it, in the direction where that is largest
    /// (ΔE, on the 3 × 3 box average of the distance image).
    ///
    /// Why the stretch: JPEG ringing and sensor noise also make short ridges, in every
    /// direction; a rim is a long line, so averaging along it keeps the rim's height and
    /// shrinks the noise. The stretch runs from the pixel one way or the other (the better of
    /// the two), so a rim keeps its height up to a sharp corner, where it turns.
    fn at(&self, j: usize) -> f32 {
        let (x, y) = ((j % self.width) as f64, (j / self.width) as f64);
        let mut best = f32::MIN;
        let (dx, dy) = (RIDGE_REACH, RIDGE_REACH);
        for &(n, t) in &self.frames {
            let height = |k: i64| {
                let (cx, cy) = (x + k as f64 * t[0], y + k as f64 * t[1]);
                self.sample(cx, cy)
                    - 0.5
                        * (self.sample(cx + dx * n[0], cy + dy * n[1])
                            + self.sample(cx - dx * n[0], cy - dy * n[1]))
            };
            let here = height(0);
            let (mut back, mut ahead) = (here, here);
            for k in 1..=RIDGE_HALF_LENGTH {
                back += height(-k);
                ahead += height(k);
            }
            best = best.max(back.max(ahead) / (RIDGE_HALF_LENGTH + 1) as f32);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 60 × 60 distance image: a face at distance 0.5 (the background's colour) inside a
    /// square rim of distance 6 from (10, 10) to (49, 49), one pixel wide, with a coloured
    /// patch (distance 30) in one corner; the background at 0.5 elsewhere.
    fn white_piece() -> (Vec<f32>, usize) {
        let w = 60;
        let d = (0..w * w)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let on_rim = (10..=49).contains(&x)
                    && (10..=49).contains(&y)
                    && (x == 10 || x == 49 || y == 10 || y == 49);
                if on_rim {
                    6.0
                } else if (11..20).contains(&x) && (11..20).contains(&y) {
                    30.0
                } else {
                    0.5
                }
            })
            .collect();
        (d, w)
    }

    /// The pixels of the `w`-wide distance image `d` above `first`: what the first pass grew.
    fn grown_above(d: &[f32], w: usize, first: f32) -> GrayImage {
        let h = d.len() / w;
        GrayImage::from_fn(w as u32, h as u32, |x, y| {
            Luma([u8::from(d[y as usize * w + x as usize] > first) * 255])
        })
    }

    /// Rim evidence on `d` with a ridge of 1.5 and no seeding by strong ridges.
    fn unseeded(d: &[f32], w: usize, min_interior: u64) -> RimEvidence<'_> {
        RimEvidence {
            distances: d,
            width: w,
            ridge: 1.5,
            min_interior,
            seed_ridge: f32::INFINITY,
        }
    }

    #[test]
    fn a_rim_closes_around_a_face_the_colour_of_the_background() {
        let (d, w) = white_piece();
        // The first pass found only the coloured patch.
        let grown = grown_above(&d, w, 10.0);
        let evidence = unseeded(&d, w, 100);
        let closed = close_rims(&grown, &evidence, |j| d[j] > 10.0).expect("a face is enclosed");
        let on = |x: u32, y: u32| closed.get_pixel(x, y)[0] != 0;
        assert!(on(30, 30) && on(45, 45) && on(11, 45));
        // The rim itself joins, the background outside does not.
        assert!(on(49, 30) && !on(52, 30) && !on(5, 5));
        // Nothing enclosed: no change.
        let tight = RimEvidence {
            min_interior: 5000,
            ..evidence
        };
        assert!(close_rims(&grown, &tight, |j| d[j] > 10.0).is_none());
    }

    #[test]
    fn a_rim_with_nothing_grown_starts_its_own_growth() {
        let (d, w) = white_piece();
        let nothing = GrayImage::new(w as u32, w as u32);
        let evidence = RimEvidence {
            distances: &d,
            width: w,
            ridge: 1.0,
            min_interior: 100,
            seed_ridge: 1.5,
        };
        let closed = close_rims(&nothing, &evidence, |j| d[j] > 10.0).expect("rim seeds");
        let on = |x: u32, y: u32| closed.get_pixel(x, y)[0] != 0;
        // The face (the corner by the patch, where the rim is a step and no ridge, stays open).
        let count = closed.pixels().filter(|p| p[0] != 0).count();
        for (x, y, want) in [
            (30, 30, true),
            (45, 45, true),
            (52, 30, false),
            (5, 5, false),
        ] {
            assert_eq!(on(x, y), want, "({x}, {y}), {count} px on");
        }
        let unseeded = RimEvidence {
            seed_ridge: f32::INFINITY,
            ..evidence
        };
        assert!(close_rims(&nothing, &unseeded, |j| d[j] > 10.0).is_none());
    }

    /// An 80 × 70 distance image: a body at distance 30 over (10, 10)–(49, 49) with a white
    /// knob on its right, a disc of radius 9 at (57, 30) ringed by a one-pixel rim of distance
    /// 12 (the rest at 0.5), and a ridge of distance 12 three pixels below the body's bottom side
    /// from x = 10 to 49, closed at both ends: a sliver of drop shadow between two ridges.
    fn body_with_knob_and_sliver() -> (Vec<f32>, usize) {
        let (w, h) = (80usize, 70usize);
        let d = (0..w * h)
            .map(|i| {
                let (x, y) = ((i % w) as f64, (i / w) as f64);
                let r = ((x - 57.0).powi(2) + (y - 30.0).powi(2)).sqrt();
                let body = (10.0..50.0).contains(&x) && (10.0..50.0).contains(&y);
                let sliver_rim = (y == 53.0 && (10.0..50.0).contains(&x))
                    || ((x == 10.0 || x == 49.0) && (50.0..53.0).contains(&y));
                if body {
                    30.0
                } else if (r - 9.5).abs() < 0.5 || sliver_rim {
                    12.0
                } else {
                    0.5
                }
            })
            .collect();
        (d, w)
    }

    #[test]
    fn a_small_knob_is_kept_and_a_thin_sliver_is_not() {
        let (d, w) = body_with_knob_and_sliver();
        let grown = grown_above(&d, w, 20.0);
        // The knob's interior (about 200 px) and the sliver's (about 80 px) are both under
        // the least face.
        let evidence = unseeded(&d, w, 300);
        let closed = close_rims(&grown, &evidence, |j| d[j] > 20.0).expect("the knob");
        let on = |x: u32, y: u32| closed.get_pixel(x, y)[0] != 0;
        assert!(on(57, 30) && on(62, 27), "the knob's interior");
        assert!(!on(30, 51) && !on(20, 52), "the sliver");
        assert!(!on(70, 60) && !on(5, 5), "the background");
    }

    #[test]
    fn a_slow_ramp_is_no_ridge_but_a_thin_line_is() {
        // A shadow-like ramp rising 1 ΔE per pixel, with a one-pixel line of +4 at x = 30.
        let w = 60;
        let d: Vec<f32> = (0..w * 40)
            .map(|i| (i % w) as f32 + if i % w == 30 { 4.0 } else { 0.0 })
            .collect();
        let r = Ridges::new(&d, w);
        // Rounding the sample points of slanted directions leaves a trace of the slope.
        assert!(r.at(20 * w + 15).abs() < 0.2, "{}", r.at(20 * w + 15));
        assert!(r.at(20 * w + 30) > 1.0, "{}", r.at(20 * w + 30));
    }
}
