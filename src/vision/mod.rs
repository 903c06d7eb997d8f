//! The vision front end: load images, segment them into pieces, trace outlines.
//!
//! Stage types: an image file → [`image::RgbImage`] (EXIF orientation applied) →
//! [`Segmentation`] (one binary mask per piece) → [`crate::chain::ChainCode`] per piece.

mod describe;
mod grid_chain;
mod region;
mod trace;

pub use describe::{describe_piece, DescribeOptions};
pub use grid_chain::grid_chain;
pub use region::{PieceRegion, Segmentation};
pub use trace::{opencv_order_border, trace_mask, trace_region, TraceError};
