//! Blobs that may be several pieces welded together.
//!
//! The low pass of the hysteresis follows faint print, blurred edges and soft shadows, and in a
//! narrow gap between two pieces it can follow them across. A blob that comes out `merged`
//! (too large for one piece) or `clipped` (touching the image border, perhaps welded to a
//! clipped neighbour) is therefore looked at again, two ways:
//!
//! - **strong pixels only**: the blob's pixels above the high threshold, cleaned and labelled
//!   as a single threshold would have. This undoes a weld made of faint pixels, but it also
//!   drops every faint part of the pieces (a pale face outlined only by its rim falls apart
//!   into specks);
//! - **cut at the necks** ([`super::necks`], merged blobs only): the weld is narrower than
//!   the pieces it joins, and an opening removes it while keeping the faint parts.
//!
//! The cut is taken when every part is a piece or a speck and there are at least as many
//! pieces as the strong pixels give: its parts are outlined by the same hysteresis as every
//! other piece of the image, where the strong pixels alone can leave large fragments that still
//! pass for pieces (two pale pieces of classic photo seed 24 came out as 3560 and 3255 px
//! fragments of 5937 and 5686 px pieces). Otherwise the strong pixels' answer stands.

use super::classify::Verdict;
use super::components::{self, Blob, Labels};
use super::{morphology, necks};
use crate::piece_set::RejectReason;
use image::{GrayImage, Luma};

/// What a welded blob is looked at again with.
pub struct WeldEvidence<'a> {
    /// The final labels the blob comes from.
    pub labels: &'a Labels,
    /// The pixels above the high threshold, whole image (255 = strong).
    pub strong: &'a GrayImage,
    /// The morphology radius of the clean-up.
    pub radius: u8,
    /// The smallest part a neck cut may leave, and the widest neck it cuts (disc radius, px);
    /// `None` when there is no reference piece.
    pub necks: Option<(u64, u32)>,
}

/// The blobs `blob` comes apart into, each with its verdict and its mask cropped to its box.
pub fn resegment(
    blob: &Blob,
    evidence: &WeldEvidence,
    verdict: impl Fn(&Blob) -> Verdict,
) -> Vec<(Verdict, Blob, GrayImage)> {
    let judged = |parts: Vec<(Blob, GrayImage)>| -> Vec<(Verdict, Blob, GrayImage)> {
        parts
            .into_iter()
            .map(|(b, m)| (verdict(&b), b, m))
            .collect()
    };
    let strong = judged(strong_parts(blob, evidence));
    if verdict(blob) != Verdict::Reject(RejectReason::Merged) {
        return strong;
    }
    let Some((min_part, max_radius)) = evidence.necks else {
        return strong;
    };
    let Some(cut) = necks::split_blob(evidence.labels, blob, min_part, max_radius) else {
        return strong;
    };
    let cut = judged(cut);
    let pieces =
        |v: &[(Verdict, Blob, GrayImage)]| v.iter().filter(|p| p.0 == Verdict::Piece).count();
    // Every part of the cut must be a piece or a speck (a part still merged is not resolved).
    let clean = cut
        .iter()
        .all(|p| matches!(p.0, Verdict::Piece | Verdict::Reject(RejectReason::Speck)));
    if clean && pieces(&cut) >= pieces(&strong) {
        cut
    } else {
        strong
    }
}

/// The blob's strong pixels, cleaned with the image's morphology and split into blobs (in
/// image coordinates, label 0) with their cropped masks.
///
/// Worked on the blob's box, padded with background by more than the disc on every side that
/// is not the image's edge, so the clean-up sees what it would on the whole image (outside the
/// image counts as piece for an erosion, see [`morphology`]).
fn strong_parts(blob: &Blob, evidence: &WeldEvidence) -> Vec<(Blob, GrayImage)> {
    let (width, height) = evidence.labels.dimensions();
    let [x0, y0, w, h] = blob.bbox;
    let pad = u32::from(evidence.radius) + 1;
    let left = x0.min(pad);
    let top = y0.min(pad);
    let right = (width - (x0 + w)).min(pad);
    let bottom = (height - (y0 + h)).min(pad);
    let (cx, cy) = (x0 - left, y0 - top);
    let mut mask = GrayImage::from_fn(left + w + right, top + h + bottom, |x, y| {
        let (ix, iy) = (cx + x, cy + y);
        let on = evidence.labels.get_pixel(ix, iy)[0] == blob.label
            && evidence.strong.get_pixel(ix, iy)[0] != 0;
        Luma([u8::from(on) * 255])
    });
    morphology::clean(&mut mask, evidence.radius);
    let (labels, blobs) = components::label_blobs(&mask);
    blobs
        .iter()
        .map(|b| {
            let crop = components::crop_mask(&labels, b);
            let moved = Blob {
                label: 0,
                bbox: [b.bbox[0] + cx, b.bbox[1] + cy, b.bbox[2], b.bbox[3]],
                area: b.area,
                centroid: [b.centroid[0] + cx as f64, b.centroid[1] + cy as f64],
            };
            (moved, crop)
        })
        .collect()
}
