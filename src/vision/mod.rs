//! The vision front end: load images, segment them into pieces, trace outlines.
//!
//! Stage types: an image file → [`image::RgbImage`] (EXIF orientation applied) →
//! [`Segmentation`] (one binary mask per piece) → [`crate::chain::ChainCode`] per piece.

mod bulge_edges;
mod describe;
mod dump;
pub mod edge_snap;
mod grid_chain;
mod inputs;
mod load;
mod magnify;
mod pipeline;
mod region;
mod segment;
mod snapped_mask;
mod trace;

pub use describe::{chainlets_between, describe_piece, DescribeOptions};
pub use dump::{
    features_csv, load_dump, overlay_names, write_dump, write_overlays, DumpError, FEATURES_HEADER,
};
pub use grid_chain::grid_chain;
pub use inputs::{collect_inputs, natural_cmp, InputError, IMAGE_EXTENSIONS};
pub use load::{flatten_alpha, load_image, LoadError, LoadLimits, MIN_SIDE};
pub use pipeline::{
    retrace_images, trace_images, ImageError, PipelineOptions, StageTimes, TraceRun,
};
pub use region::{PieceRegion, Segmentation};
pub use segment::{
    background_distance, lab_distance, segment, segment_with_diagnostics, LabConverter,
    SegmentDiagnostics, SegmentOptions, MIN_AUTO_THRESHOLD,
};
pub use snapped_mask::{snap_piece, snap_region, SnapGate};
pub use trace::{opencv_order_border, trace_mask, trace_region, TraceError};
