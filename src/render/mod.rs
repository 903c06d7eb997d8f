//! Pictures for people: overlays of traced outlines and solution images.

mod overlay;

pub use overlay::{draw_overlay, label};
