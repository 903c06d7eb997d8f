//! Piece masks moved onto the photograph's colour edges.
//!
//! Segmentation's mask ends where a pixel's colour distance from the local background crosses
//! a threshold. On a blurred photograph that crossing moves with the contrast along the cut,
//! and on light paper the drop shadow, whose chroma JPEG's half-resolution colour has tinted
//! with the face's hue, joins the mask for a few pixels where a saturated patch meets the cut
//! and not elsewhere: the outline bulges by 2–4 px on the shadow side (see `docs/trace.md`).
//! The cut itself is the steepest point of the colour profile across the edge, whatever the
//! contrast, and a shadow's edge is a slow ramp. So the outline is snapped onto that step
//! ([`snap_outline`]) and the mask redrawn from the snapped outline.

use super::bulge_edges::trusted_edges;
use super::edge_snap::{edge_offsets, snap_offsets, EdgeOffset, Pt, Reach};
use super::region::PieceRegion;
use super::trace::trace_region;
use image::{GrayImage, RgbImage};

/// The snapped mask is refused (the segmentation's kept) when its area differs from the
/// segmented one by more than this fraction: the snap found another piece's edge or strong
/// print along much of the outline. Measured: snapping changes a photo piece's area by
/// 1–8 % (a 2 px fat outline on an 80 px piece is about 8 %).
const MAX_AREA_CHANGE: f64 = 0.2;

/// How far inwards and outwards of the mask's outline the edge is looked for: a drop shadow
/// taken into the mask puts the cut up to 6 px inside it (measured on classic photo seed 1 at
/// 120 px per piece), while a mask is seldom more than a pixel or two short of the cut.
const REACH: Reach = Reach {
    inward: 8.0,
    outward: 2.0,
    past_shadow_ramps: false,
};
/// A piece is snapped only when its mask stands this far (pixels, averaged over
/// [`BULGE_SPAN`] outline points) further outside the colour edge somewhere than it does
/// typically: a bulge. Where the mask follows the edge already (flatbed scans: sharp, no
/// shadow) the snap only adds the edge locator's noise: on classic scan seed 1 at 120 px
/// every piece snapped spread the outline from 0.8 to 1.5 px (p10–p90) and took the solve from
/// 98 to 39 % of neighbours; at 1.5 px two of its pieces still snapped (93 %), at 2 px none.
const MIN_BULGE: f64 = 2.0;
/// ... and at least this fraction of the piece's side (the square root of its area): a drop
/// shadow's offset and softness grow with the piece's size in the image, and a bulge of a few
/// pixels on a piece 700 px wide (a 12 MP photo) is within the outline's own noise. 1.5 %
/// keeps [`MIN_BULGE`] for pieces up to 133 px wide.
const BULGE_FRACTION: f64 = 0.015;
/// Outline points the bulge is averaged over.
const BULGE_SPAN: usize = 5;

/// Under [`SnapGate::BulgesOrWobble`], a piece without a bulge is still snapped when its
/// redrawn outline is at least this much smoother than segmentation's ([`roughness`]): the
/// mask wobbles along the cut by 1–3 px and the colour edge does not. On flatbed scans the
/// ratio is 0.98–1.04 for 80 % of the pieces (the snap only trades the mask's pixel steps
/// for the locator's noise); on photos a quarter of the pieces lie under 0.84.
const WOBBLE_RATIO: f64 = 0.95;
/// Half-width, in outline points, of the moving mean that [`roughness`] measures against:
/// wide enough to see a 1–3 px wobble a few pixels long, short enough for a knob's head.
const ROUGHNESS_HALF_SPAN: usize = 4;

/// Which masks are redrawn from their snapped outline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SnapGate {
    /// Only masks that bulge into the drop shadow ([`MIN_BULGE`]). Four-sided pieces need no
    /// more: their corners come from a global model that a pixel or two of wobble does not
    /// move, and snapping every smoother piece of light-paper classic photos lost 3–6 points
    /// of neighbour accuracy on seeds 13, 21 and 23 (the locator's rim bias changes with the
    /// face's colour, see [`super::edge_snap`]).
    #[default]
    Bulges,
    /// Also masks whose snapped outline is smoother ([`WOBBLE_RATIO`]), with faint edges and
    /// lone points left out ([`trusted_edges`]): irregular pieces, whose corners are turns of
    /// 20–60° found by a local detector with low floors, where a 2 px wobble over ten pixels
    /// of outline passes for a corner. Irregular 20 photos, seeds 1–10: 23.6 → 61.8 % of
    /// neighbours; false critical points 714 → 150 (scans: 61).
    BulgesOrWobble,
}

/// Snapping passes: where a bulge is deeper than the inward reach or its points disagree with
/// their neighbours (and are left out), one pass leaves part of it; a second takes most of the
/// rest (classic photo seed 1, 120 px: pieces with a bulge over 2 px 35 → 18 of 100).
const PASSES: usize = 2;

/// [`snap_region`] repeated [`PASSES`] times while it changes anything; `None` when the
/// first pass leaves the region as segmented.
pub fn snap_piece(region: &PieceRegion, img: &RgbImage, gate: SnapGate) -> Option<PieceRegion> {
    let mut snapped = snap_region(region, img, gate)?;
    for _ in 1..PASSES {
        match snap_region(&snapped, img, gate) {
            Some(again) => snapped = again,
            None => break,
        }
    }
    Some(snapped)
}

/// `region` with its mask redrawn from its outline snapped onto the colour edges of `img`
/// (the image it was segmented from); `None` when the outline does not snap (too few points
/// find an edge), `gate` does not let it, or the result is implausible (see
/// [`MAX_AREA_CHANGE`]).
pub fn snap_region(region: &PieceRegion, img: &RgbImage, gate: SnapGate) -> Option<PieceRegion> {
    let chain = trace_region(region).ok()?;
    let points: Vec<Pt> = chain
        .points()
        .iter()
        .map(|p| [f64::from(p[0]) + 0.5, f64::from(p[1]) + 0.5])
        .collect();
    let offsets = match gate {
        SnapGate::Bulges => snap_offsets(&points, img, REACH)?,
        SnapGate::BulgesOrWobble => trusted_edges(&edge_offsets(&points, img, REACH)?),
    };
    let mut found: Vec<f64> = offsets.iter().flatten().map(|o| o.offset).collect();
    if found.len() < 6 {
        return None;
    }
    let mid = found.len() / 2;
    let typical = *found.select_nth_unstable_by(mid, f64::total_cmp).1;
    let min_bulge = MIN_BULGE.max(BULGE_FRACTION * (region.area as f64).sqrt());
    let bulging = bulges(&offsets, typical, min_bulge);
    if !bulging && gate == SnapGate::Bulges {
        return None;
    }
    // The mask's boundary pixel centres lie half a pixel inside its edge.
    let snapped: Vec<Pt> = offsets
        .iter()
        .zip(&points)
        .filter_map(|(o, &p)| {
            let o = (*o)?;
            let t = o.offset - typical + 0.5;
            Some([p[0] + o.normal[0] * t, p[1] + o.normal[1] * t])
        })
        .collect();
    let snapped_region = fill_polygon(&snapped, img.width(), img.height())?;
    let change = (snapped_region.area as f64 - region.area as f64).abs() / region.area as f64;
    if change > MAX_AREA_CHANGE {
        return None;
    }
    if !bulging {
        let redrawn = trace_region(&snapped_region).ok()?;
        if outline_roughness(&redrawn) >= WOBBLE_RATIO * outline_roughness(&chain) {
            return None;
        }
    }
    Some(snapped_region)
}

/// [`roughness`] of a closed chain's points (its closing point, a repeat of the start, left
/// out).
fn outline_roughness(chain: &crate::chain::ChainCode) -> f64 {
    let mut points = chain.points();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    roughness(&points)
}

/// How ragged a closed outline of pixel positions is: the RMS distance of its points from the
/// mean of the points within [`ROUGHNESS_HALF_SPAN`] on either side. A digitised smooth curve
/// scores about 0.4–0.5 px (its pixel steps); a mask that wobbles along the cut more.
fn roughness(points: &[[i32; 2]]) -> f64 {
    let n = points.len();
    let w = ROUGHNESS_HALF_SPAN;
    if n < 4 * w {
        return 0.0;
    }
    let count = (2 * w + 1) as f64;
    let sum: f64 = (0..n)
        .map(|i| {
            let mut mean = [0.0; 2];
            for k in 0..=2 * w {
                let p = points[(i + n + k - w) % n];
                mean[0] += f64::from(p[0]) / count;
                mean[1] += f64::from(p[1]) / count;
            }
            (f64::from(points[i][0]) - mean[0]).powi(2)
                + (f64::from(points[i][1]) - mean[1]).powi(2)
        })
        .sum();
    (sum / n as f64).sqrt()
}

/// Whether the mask bulges out of the colour edge somewhere: `min_bulge` pixels beyond the
/// `typical` offset, averaged over [`BULGE_SPAN`] consecutive points that found an edge.
fn bulges(offsets: &[Option<EdgeOffset>], typical: f64, min_bulge: f64) -> bool {
    let excess: Vec<f64> = offsets
        .iter()
        .flatten()
        .map(|o| typical - o.offset)
        .collect();
    let n = excess.len();
    (0..n).any(|i| {
        let sum: f64 = (0..BULGE_SPAN).map(|k| excess[(i + k) % n]).sum();
        sum / BULGE_SPAN as f64 >= min_bulge
    })
}

/// The pixels whose centres lie inside `poly` (non-zero winding, so a small loop where
/// neighbouring points crossed over does not punch a hole), clipped to a `width × height`
/// image, as a region cut to its box; `None` if no pixel is inside.
fn fill_polygon(poly: &[Pt], width: u32, height: u32) -> Option<PieceRegion> {
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in poly {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let clamp = |v: f64, max: u32| (v.max(0.0) as u32).min(max);
    let (x0, y0) = (clamp(lo[0].floor(), width), clamp(lo[1].floor(), height));
    let (x1, y1) = (clamp(hi[0].ceil(), width), clamp(hi[1].ceil(), height));
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let mut mask = GrayImage::new(w, h);
    let mut area = 0u64;
    for row in 0..h {
        for span in crate::plane::row_spans(poly, y0 + row, x0..x1) {
            area += u64::from(span.end - span.start);
            for x in span {
                mask.put_pixel(x - x0, row, image::Luma([255]));
            }
        }
    }
    (area > 0).then_some(PieceRegion {
        bbox: [x0, y0, w, h],
        mask,
        area,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_polygon_fills_the_pixels_whose_centres_it_holds() {
        // The square [2.2, 6.8]² holds the centres 2.5 … 6.5: 5 × 5 pixels from (2, 2).
        let square = [[2.2, 2.2], [6.8, 2.2], [6.8, 6.8], [2.2, 6.8]];
        let r = fill_polygon(&square, 20, 20).expect("pixels inside");
        assert_eq!(r.area, 25);
        assert_eq!(r.bbox, [2, 2, 5, 5]);
        assert!(r.mask.pixels().all(|p| p.0[0] == 255));
        // Either orientation.
        let mut reversed = square;
        reversed.reverse();
        assert_eq!(fill_polygon(&reversed, 20, 20).expect("inside").area, 25);
    }

    #[test]
    fn a_polygon_is_clipped_to_the_image() {
        let square = [[-3.0, -3.0], [4.0, -3.0], [4.0, 4.0], [-3.0, 4.0]];
        let r = fill_polygon(&square, 10, 10).expect("pixels inside");
        assert_eq!((r.bbox, r.area), ([0, 0, 4, 4], 16));
        let outside = [[20.0, 20.0], [30.0, 20.0], [30.0, 30.0]];
        assert!(fill_polygon(&outside, 10, 10).is_none());
    }

    /// A yellow 30 px square at [20, 50)² on blue, blurred by [1 2 1]/4 as a phone lens.
    fn yellow_square() -> RgbImage {
        let (face, blue) = ([200.0, 220.0, 60.0], [44.0, 70.0, 128.0]);
        let inside = |v: u32| (20..50).contains(&v);
        let sharp = |x: u32, y: u32| if inside(x) && inside(y) { face } else { blue };
        crate::vision::edge_snap::lens_blurred(70, 70, sharp)
    }

    /// The square's mask 1 px fat all round ([19, 51)²), plus a bump `depth` px deep along
    /// x in [28, 42) below its bottom side.
    fn fat_mask(depth: u32) -> PieceRegion {
        mask_at_19(32, 32 + depth, |x, y| y < 32 || (9..23).contains(&x))
    }

    /// A `w` × `h` mask with its top-left pixel at (19, 19), on where `on` says.
    fn mask_at_19(w: u32, h: u32, on: impl Fn(u32, u32) -> bool) -> PieceRegion {
        let mask = GrayImage::from_fn(w, h, |x, y| image::Luma([if on(x, y) { 255 } else { 0 }]));
        let area = mask.pixels().filter(|p| p.0[0] == 255).count() as u64;
        PieceRegion {
            bbox: [19, 19, w, h],
            mask,
            area,
        }
    }

    #[test]
    fn a_bulge_is_cut_back_to_the_outline_around_it() {
        // A shadow taken into the mask below the bottom side, 4 px deep: snapped, the mask
        // keeps its typical offset from the cut (1 px fat) and loses the bulge.
        let snapped = snap_piece(&fat_mask(4), &yellow_square(), SnapGate::Bulges).expect("snaps");
        let bottom = snapped.bbox[1] + snapped.bbox[3];
        assert!((50..=52).contains(&bottom), "bottom edge at y = {bottom}");
        // 32 × 32, give or take a pixel of rounding at the corners and the bump's ends.
        assert!(
            (990..=1050).contains(&snapped.area),
            "area {} (32 × 32 = 1024; with the bulge {})",
            snapped.area,
            fat_mask(4).area
        );
    }

    /// The square's mask 1 px fat all round, its bottom side wobbling: 2 px more over every
    /// other 4 px of its length (a 5-point mean of at most 1.6 px: no bulge).
    fn wobbly_mask() -> PieceRegion {
        mask_at_19(32, 34, |x, y| y < 32 || (x / 4) % 2 == 0)
    }

    #[test]
    fn a_wobble_is_straightened_only_when_the_gate_lets_it() {
        let (mask, img) = (wobbly_mask(), yellow_square());
        assert!(snap_region(&mask, &img, SnapGate::Bulges).is_none());
        let snapped = snap_piece(&mask, &img, SnapGate::BulgesOrWobble).expect("snaps");
        let bottom = snapped.bbox[1] + snapped.bbox[3];
        assert!((50..=52).contains(&bottom), "bottom edge at y = {bottom}");
        assert!(
            (990..=1060).contains(&snapped.area),
            "area {} (32 × 32 = 1024; wobbling {})",
            snapped.area,
            mask.area
        );
        let rough = |r: &PieceRegion| outline_roughness(&trace_region(r).expect("traces"));
        assert!(rough(&snapped) < WOBBLE_RATIO * rough(&mask));
    }

    #[test]
    fn a_smooth_mask_is_left_alone_by_either_gate() {
        // Offset by a pixel everywhere: no bulge, and the snapped outline is no smoother (a
        // uniform offset is the threshold's, common to every piece of the image).
        for gate in [SnapGate::Bulges, SnapGate::BulgesOrWobble] {
            assert!(snap_region(&fat_mask(0), &yellow_square(), gate).is_none());
        }
    }

    #[test]
    fn roughness_grows_with_a_wobble() {
        let line: Vec<[i32; 2]> = (0..40)
            .map(|x| [x, 0])
            .chain((0..40).rev().map(|x| [x, 1]))
            .collect();
        let wobbly: Vec<[i32; 2]> = (0..40)
            .map(|x| [x, if (x / 4) % 2 == 0 { -2 } else { 0 }])
            .chain((0..40).rev().map(|x| [x, 1]))
            .collect();
        assert!(roughness(&wobbly) > 1.5 * roughness(&line));
    }
}
