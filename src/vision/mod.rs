//! The vision front end: load images, segment them into pieces, trace outlines.
//!
//! Stage types: an image file → [`image::RgbImage`] (EXIF orientation applied) →
//! [`Segmentation`] (one binary mask per piece) → [`crate::chain::ChainCode`] per piece.

mod inputs;
mod load;
mod region;
mod segment;

pub use inputs::{collect_inputs, natural_cmp, InputError, IMAGE_EXTENSIONS};
pub use load::{flatten_alpha, load_image, LoadError, LoadLimits, MIN_SIDE};
pub use region::{PieceRegion, Segmentation};
pub use segment::{
    background_distance, segment, segment_with_diagnostics, SegmentDiagnostics, SegmentOptions,
    MIN_AUTO_THRESHOLD,
};
