//! Edge-matching puzzles: square tiles with edge symbols in a grid, rotated, never flipped.
//!
//! - [`puzzle`]: the model and its conventions (edge order, rotation direction);
//! - [`parse`]: the text format and input validation;
//! - [`naive`]: the seeds' row-major backtracking with their exact placement count;
//! - [`tables`], [`engine`], [`search`], [`parallel`]: the fast engine (candidate lists,
//!   symmetry breaking, optional threads);
//! - [`random`] and [`planted`]: generated puzzles; [`render`]: text art and pictures.

pub mod engine;
pub mod naive;
pub mod parallel;
pub mod parse;
pub mod planted;
pub mod puzzle;
pub mod random;
pub mod render;
pub mod search;
pub mod tables;

pub use naive::solve_naive;
pub use parse::{parse_puzzle, Overrides, PuzzleError};
pub use puzzle::{Placement, Puzzle, Rule, Solution};
pub use search::{solve, Config, Limits, Order, Outcome, Stop};

#[cfg(test)]
mod tests;
