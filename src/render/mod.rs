//! Pictures for people: overlays of traced outlines and solution images.

mod overlay;
mod solution;

pub use overlay::{draw_overlay, label};
pub use solution::{render_outlines, render_solution, SolutionStyle};
