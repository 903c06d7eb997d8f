//! A generated puzzle's pieces as the solver would see them with perfect segmentation: every
//! piece's truth outline rasterised at pixel centres (a pixel is the piece's when its centre
//! is inside, 50 % coverage, as segmentation decides) and traced by the real tracer. Solving
//! these separates the solver's failures from the front end's.

use super::truth::Truth;
use crate::piece_set::PieceSet;
use crate::plane::contains;
use crate::vision::{describe_piece, DescribeOptions, PieceRegion, TraceError};
use image::{GrayImage, Luma};

/// The shown pieces of `truth` (missing ones skipped), ids 1.. in truth order, traced with
/// `opts`; the first piece the tracer refuses is the error.
pub fn traced_truth(truth: &Truth, opts: &DescribeOptions) -> Result<PieceSet, TraceError> {
    let mut set = PieceSet::default();
    let shown = truth
        .pieces
        .iter()
        .filter_map(|t| Some((t.outline.as_ref()?, t.image.clone()?)));
    for (k, (outline, image)) in shown.enumerate() {
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
            Luma([if contains(outline, c) { 255 } else { 0 }])
        });
        let area = mask.pixels().filter(|p| p[0] > 127).count() as u64;
        let region = PieceRegion {
            bbox: [bx as u32, by as u32, w, h],
            mask,
            area,
        };
        set.pieces
            .push(describe_piece(k as u32 + 1, &image, &region, opts)?);
    }
    Ok(set)
}
