//! The vision front end: load images, segment them into pieces, trace outlines.
//!
//! Stage types: an image file → [`image::RgbImage`] (EXIF orientation applied) →
//! [`Segmentation`] (one binary mask per piece) → [`crate::chain::ChainCode`] per piece.

mod region;

pub use region::{PieceRegion, Segmentation};
