//! What segmentation hands to tracing: one filled binary mask per piece, cut to its box.

use crate::piece_set::Rejected;
use image::GrayImage;

/// One piece found in an image.
#[derive(Clone, Debug)]
pub struct PieceRegion {
    /// `[x, y, w, h]` of the mask in source-image pixels.
    pub bbox: [u32; 4],
    /// `w × h`, 255 inside the piece (holes filled), 0 outside.
    pub mask: GrayImage,
    /// Number of piece pixels.
    pub area: u64,
}

impl PieceRegion {
    /// A region from a single-piece grey mask that covers the whole image (data sets that are
    /// already segmented): thresholded at mid-grey, box at the origin.
    pub fn from_mask(mut mask: GrayImage) -> Self {
        let mut area = 0;
        for p in mask.pixels_mut() {
            p.0[0] = if p.0[0] > 127 { 255 } else { 0 };
            area += u64::from(p.0[0] == 255);
        }
        PieceRegion {
            bbox: [0, 0, mask.width(), mask.height()],
            mask,
            area,
        }
    }
}

/// All pieces of one image, sorted top-to-bottom then left-to-right, and the blobs rejected.
#[derive(Clone, Debug, Default)]
pub struct Segmentation {
    pub pieces: Vec<PieceRegion>,
    pub rejected: Vec<Rejected>,
}
