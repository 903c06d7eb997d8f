//! Binary clean-up of the thresholded mask: an opening removes hairs, dust and JPEG speckle
//! narrower than the radius; a closing bridges hairline gaps along a piece's edge where its
//! colour came close to the background.

use image::GrayImage;
use imageproc::distance_transform::Norm;
use imageproc::morphology::{close_mut, open_mut};

/// The radius used when the options do not fix one: about one pixel per megapixel-side
/// (1 px at 1 MP, 3 px at 12 MP), so the clean-up scales with the photo's resolution but never
/// rounds off more than a hair of a piece's corners.
pub fn auto_radius(width: u32, height: u32) -> u8 {
    let side = ((width as f64) * (height as f64)).sqrt();
    (side / 1000.0).round().clamp(1.0, 6.0) as u8
}

/// Opens then closes `mask` (255 = piece) with a disc of radius `radius`. Radius 0 leaves it.
pub fn open_close(mask: &mut GrayImage, radius: u8) {
    if radius == 0 {
        return;
    }
    open_mut(mask, Norm::L2, radius);
    close_mut(mask, Norm::L2, radius);
}
