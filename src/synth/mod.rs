//! Synthetic puzzles with known answers, rendered as a scanner or a phone would see them.
