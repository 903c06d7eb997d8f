//! Scoring an assembly against ground truth.
