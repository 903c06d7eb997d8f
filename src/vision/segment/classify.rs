//! Deciding which blobs are pieces, and in what order they are numbered.
//!
//! A blob is judged against the median piece of its own image, so the same rules serve a scan of
//! 144 tiny pieces and a phone photo of one: dust is small *relative to the pieces*, two touching
//! pieces are large *relative to the pieces*.

use super::components::Blob;
use crate::piece_set::{RejectReason, Rejected};

/// A blob must be at least this many pixels to count towards the median piece size: it keeps a
/// cloud of single-pixel noise from dragging the median down to dust size.
const MIN_REFERENCE_AREA: u64 = 64;
/// Blobs smaller than this fraction of the largest blob do not count towards the median either.
const REFERENCE_FRACTION_OF_LARGEST: f64 = 0.05;

/// A blob under this fraction of the reference piece is a speck even on the image border: a
/// sliver of a cut piece that small is useless to the solver and looks like dust.
const MIN_CLIPPED_FRACTION: f64 = 0.02;

/// A blob under the speck fraction is still a piece where it is at least this fraction of the
/// reference piece, …
///
/// Why: the smallest pieces of a generated irregular cut reach 0.38 of the median (irregular
/// 100 scans seed 27 and photos seed 27: one piece each, rejected under the default 0.4),
/// while gathanase's printed grid labels, which hole filling makes solid, reach 0.35. Their
/// sizes overlap; their lengths do not (see [`PIECE_LENGTH`]).
const SMALL_PIECE_FRACTION: f64 = 0.25;
/// … as long as a piece: its box's longer side at least this fraction of the reference
/// piece's square root. Measured: the pieces of eight generated sets (irregular and classic,
/// scans and photos) 0.94 at least, the small piece of irregular 100 scans seed 27 1.16;
/// gathanase's labels 0.64–0.69 …
const PIECE_LENGTH: f64 = 0.85;
/// … and filling at least this share of its box: not a thin diagonal streak (a hair, a strip
/// of shadow along a ruler). Pieces fill 0.45–0.8 of their box.
const SMALL_PIECE_FILL: f64 = 0.3;

/// Whether `blob`, smaller than a speck's limit, is a small piece (see
/// [`SMALL_PIECE_FRACTION`]).
fn small_piece(blob: &Blob, reference: f64) -> bool {
    let [_, _, w, h] = blob.bbox;
    let area = blob.area as f64;
    area >= SMALL_PIECE_FRACTION * reference
        && w.max(h) as f64 >= PIECE_LENGTH * reference.sqrt()
        && area >= SMALL_PIECE_FILL * (w as f64 * h as f64)
}

/// The verdict on one blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Piece,
    Reject(RejectReason),
}

/// The reference piece area: the lower median of the blobs that can plausibly be pieces,
/// preferring blobs that do not touch the border (clipped blobs are partial pieces). The lower
/// median makes "one piece plus two merged pieces" still flag the merged one. `None` when no
/// blob is large enough to be a piece.
pub fn reference_area(blobs: &[Blob], width: u32, height: u32) -> Option<u64> {
    let largest = blobs.iter().map(|b| b.area).max()?;
    let floor = MIN_REFERENCE_AREA.max((largest as f64 * REFERENCE_FRACTION_OF_LARGEST) as u64);
    let candidates: Vec<&Blob> = blobs.iter().filter(|b| b.area >= floor).collect();
    let inner: Vec<u64> = candidates
        .iter()
        .filter(|b| !b.touches_border(width, height) || b.is_tight_crop(width, height))
        .map(|b| b.area)
        .collect();
    let mut areas = if inner.is_empty() {
        candidates.iter().map(|b| b.area).collect()
    } else {
        inner
    };
    if areas.is_empty() {
        return None;
    }
    areas.sort_unstable();
    Some(areas[(areas.len() - 1) / 2])
}

/// A tightly cropped whole piece (see [`Blob::is_tight_crop`]) is not clipped.
///
/// Clipped first: the visible part of a piece cut by the image edge can be almost any size, so
/// its size says little; only blobs under the absolute noise floor of 64 pixels or under
/// [`MIN_CLIPPED_FRACTION`] of the reference piece are specks even on the border (dust and
/// grain along a photo's edge, which the low pass of the threshold makes visible). Then speck,
/// then merged.
pub fn classify(
    blob: &Blob,
    reference: Option<u64>,
    width: u32,
    height: u32,
    min_speck_fraction: f64,
    merged_factor: f64,
) -> Verdict {
    let Some(reference) = reference else {
        return Verdict::Reject(RejectReason::Speck);
    };
    let area = blob.area as f64;
    if blob.area < MIN_REFERENCE_AREA || area < MIN_CLIPPED_FRACTION * reference as f64 {
        Verdict::Reject(RejectReason::Speck)
    } else if blob.touches_border(width, height) && !blob.is_tight_crop(width, height) {
        Verdict::Reject(RejectReason::Clipped)
    } else if area < min_speck_fraction * reference as f64 && !small_piece(blob, reference as f64) {
        Verdict::Reject(RejectReason::Speck)
    } else if area > merged_factor * reference as f64 {
        Verdict::Reject(RejectReason::Merged)
    } else {
        Verdict::Piece
    }
}

/// Fewer pieces than this say nothing about how their sizes spread.
const MIN_PIECES_FOR_SPREAD: usize = 8;

/// How widely the pieces of an image vary in size: the coefficient of variation (standard
/// deviation over mean) of `areas`, the areas of the blobs judged pieces. `None` with fewer
/// than [`MIN_PIECES_FOR_SPREAD`] of them.
///
/// Why: it tells a cut whose largest pieces are twice the median (an irregular cut) from one
/// whose pieces are all alike (a grid), where a blob of twice the median is two pieces.
pub fn size_spread(areas: &[u64]) -> Option<f64> {
    if areas.len() < MIN_PIECES_FOR_SPREAD {
        return None;
    }
    let n = areas.len() as f64;
    let mean = areas.iter().map(|&a| a as f64).sum::<f64>() / n;
    let variance = areas
        .iter()
        .map(|&a| (a as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    Some(variance.sqrt() / mean)
}

/// Reading order: rows top to bottom, left to right within a row.
///
/// A row is built from the topmost remaining blob (smallest centroid y): every remaining blob
/// whose centroid lies above that blob's bottom edge joins it. Pieces laid out in a rough grid
/// therefore number row by row even when the rows are not perfectly straight, and any layout
/// gets a deterministic order. Returns indices into `blobs`.
pub fn reading_order(blobs: &[&Blob]) -> Vec<usize> {
    let mut remaining: Vec<usize> = (0..blobs.len()).collect();
    remaining.sort_by(|&a, &b| {
        blobs[a].centroid[1]
            .total_cmp(&blobs[b].centroid[1])
            .then(blobs[a].centroid[0].total_cmp(&blobs[b].centroid[0]))
    });
    let mut order = Vec::with_capacity(blobs.len());
    while let Some(&first) = remaining.first() {
        let bottom = (blobs[first].bbox[1] + blobs[first].bbox[3]) as f64;
        let (mut row, rest): (Vec<usize>, Vec<usize>) = remaining
            .iter()
            .partition(|&&i| blobs[i].centroid[1] < bottom);
        row.sort_by(|&a, &b| blobs[a].centroid[0].total_cmp(&blobs[b].centroid[0]));
        order.extend(row);
        remaining = rest;
    }
    order
}

/// The record for a rejected blob.
pub fn rejected(blob: &Blob, reason: RejectReason) -> Rejected {
    Rejected {
        bbox: blob.bbox,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(x: u32, y: u32, w: u32, h: u32, area: u64) -> Blob {
        Blob {
            label: 0,
            bbox: [x, y, w, h],
            area,
            centroid: [x as f64 + w as f64 / 2.0, y as f64 + h as f64 / 2.0],
        }
    }

    #[test]
    fn one_piece_is_its_own_median() {
        let b = blob(10, 10, 50, 50, 2000);
        let r = reference_area(std::slice::from_ref(&b), 100, 100);
        assert_eq!(r, Some(2000));
        assert_eq!(classify(&b, r, 100, 100, 0.2, 1.8), Verdict::Piece);
    }

    /// The reference area of `blobs` in an image of `size`, and each blob's verdict with
    /// `min_speck` (merged at 1.8).
    fn verdicts(blobs: &[Blob], size: (u32, u32), min_speck: f64) -> (Option<u64>, Vec<Verdict>) {
        let r = reference_area(blobs, size.0, size.1);
        let v = blobs
            .iter()
            .map(|b| classify(b, r, size.0, size.1, min_speck, 1.8))
            .collect();
        (r, v)
    }

    #[test]
    fn speck_clipped_merged() {
        let blobs = vec![
            blob(10, 10, 40, 40, 1000),
            blob(60, 10, 40, 40, 1100),
            blob(110, 10, 80, 40, 2300),
            blob(0, 100, 30, 30, 600),
            blob(100, 100, 5, 5, 20),
            blob(100, 150, 12, 12, 150),
            blob(0, 200, 10, 10, 100),
            blob(299, 250, 1, 1, 1),
        ];
        let (r, v) = verdicts(&blobs, (300, 300), 0.2);
        assert_eq!(r, Some(1000));
        assert_eq!(
            v,
            [
                Verdict::Piece,
                Verdict::Piece,
                Verdict::Reject(RejectReason::Merged),
                Verdict::Reject(RejectReason::Clipped),
                Verdict::Reject(RejectReason::Speck),
                Verdict::Reject(RejectReason::Speck),
                Verdict::Reject(RejectReason::Clipped),
                Verdict::Reject(RejectReason::Speck),
            ]
        );
    }

    #[test]
    fn a_small_piece_as_long_as_a_piece_is_kept_but_a_label_is_not() {
        let blobs = vec![
            blob(10, 10, 100, 100, 6000),
            blob(120, 10, 100, 100, 6000),
            blob(230, 10, 100, 100, 6000),
            blob(340, 10, 100, 100, 6000),
            blob(450, 10, 100, 100, 6000),
            // 0.38 of the median, 1.16 of its square root long (irregular 100 scans seed 27).
            blob(10, 150, 60, 90, 2300),
            // A filled grid label: 0.35 of the median, 0.66 of its square root tall.
            blob(120, 150, 45, 51, 2100),
            // A diagonal streak as long as a piece and as large, filling a quarter of its box.
            blob(200, 150, 95, 95, 2300),
        ];
        let (r, v) = verdicts(&blobs, (600, 300), 0.4);
        assert_eq!(r, Some(6000));
        assert_eq!(
            v[5..],
            [
                Verdict::Piece,
                Verdict::Reject(RejectReason::Speck),
                Verdict::Reject(RejectReason::Speck),
            ]
        );
    }

    #[test]
    fn a_tight_crop_is_a_piece_but_a_full_frame_blob_is_not() {
        let crop = blob(0, 0, 100, 80, 5000);
        let r = reference_area(std::slice::from_ref(&crop), 100, 80);
        assert_eq!(classify(&crop, r, 100, 80, 0.4, 1.8), Verdict::Piece);
        let crop = blob(1, 0, 99, 79, 5000);
        let r = reference_area(std::slice::from_ref(&crop), 100, 80);
        assert_eq!(classify(&crop, r, 100, 80, 0.4, 1.8), Verdict::Piece);
        let full = blob(0, 0, 100, 80, 7900);
        let r = reference_area(std::slice::from_ref(&full), 100, 80);
        assert_eq!(
            classify(&full, r, 100, 80, 0.4, 1.8),
            Verdict::Reject(RejectReason::Clipped)
        );
        // Touching three sides is a piece cut by the frame.
        let cut = blob(0, 0, 100, 60, 4000);
        let r = reference_area(std::slice::from_ref(&cut), 100, 80);
        assert_eq!(
            classify(&cut, r, 100, 80, 0.4, 1.8),
            Verdict::Reject(RejectReason::Clipped)
        );
    }

    #[test]
    fn the_spread_of_sizes_needs_enough_pieces_and_tells_a_varied_cut() {
        assert_eq!(size_spread(&[100; 7]), None);
        assert_eq!(size_spread(&[100; 8]), Some(0.0));
        // Half the pieces at 50, half at 150: a standard deviation of half the mean.
        let spread = size_spread(&[50, 150, 50, 150, 50, 150, 50, 150]).unwrap();
        assert!((spread - 0.5).abs() < 1e-12, "{spread}");
    }

    #[test]
    fn rows_then_columns() {
        // Two slightly wavy rows.
        let a = blob(100, 12, 40, 40, 1);
        let b = blob(10, 10, 40, 40, 1);
        let c = blob(55, 20, 40, 40, 1);
        let d = blob(20, 80, 40, 40, 1);
        let e = blob(5, 90, 40, 40, 1);
        let blobs = [&a, &b, &c, &d, &e];
        assert_eq!(reading_order(&blobs), [1, 2, 0, 4, 3]);
    }
}
