//! Edge-matching puzzles: square tiles with edge symbols in a grid, rotated, never flipped.
