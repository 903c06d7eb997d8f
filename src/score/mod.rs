//! Scoring an assembly (`assembly.json`) against ground truth: a synthetic `truth.json`
//! ([`synthetic`]) or the grid solutions of the real sets ([`grid`], read by [`real`]).
//!
//! Both report the same [`ScoreReport`]: pieces placed, neighbour accuracy (true adjacent
//! pairs that the solution also puts together in the right relative pose), direct accuracy
//! (pieces at the right pose after the best global alignment), perfection, and pieces that
//! should not have been used.

pub mod grid;
pub mod perfect;
pub mod real;
pub mod synthetic;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// `synth`, `pikachu-grid` or `white1000`.
    pub truth_format: String,
    /// Puzzle pieces that the images show (missing and extraneous pieces excluded).
    pub pieces_expected: usize,
    /// Of those, how many the solution placed.
    pub pieces_placed: usize,
    /// True adjacent pairs of expected pieces.
    pub neighbour_pairs: usize,
    pub neighbour_correct: usize,
    pub neighbour_accuracy: f64,
    pub direct_correct: usize,
    pub direct_accuracy: f64,
    /// Every expected piece placed, every pair and every piece right, nothing foreign used.
    pub perfect: bool,
    /// Truth ids of extraneous pieces the solution placed in a cluster with the puzzle's own,
    /// or put together with another the way their puzzle is not.
    pub extraneous_used: Vec<u32>,
    /// Truth ids of extraneous pieces the solution placed in clusters of their own, put
    /// together as their puzzle is (reported apart, as a mixed puzzle's are).
    #[serde(default)]
    pub extraneous_apart: Vec<u32>,
    /// Placed pieces that match no truth piece (unknown image, centroid far from any piece,
    /// or a file stem absent from the grid).
    pub unmatched: usize,
    /// The pose tolerance used, in pixels of the compared frame (see the docs).
    pub tolerance_px: f64,
}

impl ScoreReport {
    pub(crate) fn finish(mut self) -> ScoreReport {
        let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
        self.neighbour_accuracy = ratio(self.neighbour_correct, self.neighbour_pairs);
        self.direct_accuracy = ratio(self.direct_correct, self.pieces_expected);
        self.perfect = self.pieces_placed == self.pieces_expected
            && self.neighbour_correct == self.neighbour_pairs
            && self.direct_correct == self.pieces_expected
            && self.extraneous_used.is_empty()
            && self.unmatched == 0;
        self
    }

    /// The human summary `jigsaw score` prints.
    pub fn summary(&self) -> String {
        format!(
            "truth: {}\npieces placed: {}/{}\nneighbour accuracy: {:.2}% ({}/{} pairs)\ndirect accuracy: {:.2}% ({}/{} pieces)\nperfect: {}\nextraneous pieces used: {}{}{}\nunmatched solution pieces: {}\ntolerance: {:.1} px",
            self.truth_format,
            self.pieces_placed,
            self.pieces_expected,
            100.0 * self.neighbour_accuracy,
            self.neighbour_correct,
            self.neighbour_pairs,
            100.0 * self.direct_accuracy,
            self.direct_correct,
            self.pieces_expected,
            if self.perfect { "yes" } else { "no" },
            self.extraneous_used.len(),
            if self.extraneous_used.is_empty() {
                String::new()
            } else {
                format!(" (ids {:?})", self.extraneous_used)
            },
            if self.extraneous_apart.is_empty() {
                String::new()
            } else {
                format!(
                    "; kept apart in clusters of their own: {} (ids {:?})",
                    self.extraneous_apart.len(),
                    self.extraneous_apart
                )
            },
            self.unmatched,
            self.tolerance_px
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    #[error("{path}: {reason}")]
    BadTruth { path: String, reason: String },
    #[error("the truth has no pieces")]
    EmptyTruth,
}

/// The file name of an image path (`/a/b/scan-001.png` → `scan-001.png`), by which solution
/// and truth images are matched, whatever folder either was read from.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The file stem (`.../0_input/17.jpeg` → `17`).
pub fn file_stem(path: &str) -> &str {
    let name = file_name(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}
