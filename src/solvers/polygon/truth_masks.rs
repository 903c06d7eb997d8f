//! Synthetic dissections as the photo path sees them without segmentation: every piece's
//! truth outline rasterised at pixel centres and traced by the real tracer (for the
//! diagnoses in `replay_tests` and `chirality_tests`).

use super::geometry::Pt;
use crate::piece_set::PieceSet;
use crate::vision::{describe_piece, DescribeOptions, PieceRegion};
use image::{GrayImage, Luma};

fn inside(poly: &[Pt], p: Pt) -> bool {
    super::records::contains(poly, p)
}

/// The pieces traced from their truth outlines rasterised at pixel centres.
pub(super) fn traced_truth(truth: &crate::synth::truth::Truth) -> PieceSet {
    let mut opts = DescribeOptions::default();
    opts.critical.four_sided = false;
    let mut set = PieceSet::default();
    for (k, t) in truth.pieces.iter().enumerate() {
        let outline = t.outline.as_ref().expect("no missing pieces");
        let (x0, y0) = outline
            .iter()
            .fold((f64::MAX, f64::MAX), |(a, b), q| (a.min(q[0]), b.min(q[1])));
        let (x1, y1) = outline
            .iter()
            .fold((f64::MIN, f64::MIN), |(a, b), q| (a.max(q[0]), b.max(q[1])));
        let (bx, by) = (x0.floor() as i32 - 1, y0.floor() as i32 - 1);
        let (w, h) = (
            (x1.ceil() as i32 - bx + 2) as u32,
            (y1.ceil() as i32 - by + 2) as u32,
        );
        let mask = GrayImage::from_fn(w, h, |x, y| {
            let c = [bx as f64 + x as f64 + 0.5, by as f64 + y as f64 + 0.5];
            Luma([if inside(outline, c) { 255 } else { 0 }])
        });
        let area = mask.pixels().filter(|p| p[0] > 127).count() as u64;
        let region = PieceRegion {
            bbox: [bx as u32, by as u32, w, h],
            mask,
            area,
        };
        let image = t.image.clone().expect("no missing pieces");
        set.pieces
            .push(describe_piece(k as u32 + 1, &image, &region, &opts).expect("traces"));
    }
    set
}
