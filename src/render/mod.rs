//! Pictures for people: overlays of traced outlines and solution images.

mod solution;

pub use solution::{render_solution, SolutionStyle};
