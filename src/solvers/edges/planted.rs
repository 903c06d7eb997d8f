//! Puzzles built around a known (planted) solution, Eternity II style: a border symbol around
//! the outside, `frame` colours on the edges between border tiles, `inner` colours elsewhere.
//! The tiles are then shuffled and turned at random, so the solver has to find the plant (or
//! another solution) from scratch.

use super::puzzle::{rotated, Placement, Puzzle, Rule, Solution, Tile};
use rand::{RngExt, SeedableRng};

/// What to plant.
#[derive(Clone, Copy, Debug)]
pub struct PlantSpec {
    pub rows: usize,
    pub cols: usize,
    /// Colours on the joins between two frame tiles.
    pub frame: u32,
    /// Colours on all other inner joins.
    pub inner: u32,
    /// `None` leaves the outside edges random too (no border rule).
    pub border: Option<i32>,
    pub seed: u64,
}

/// Eternity II's proportions scaled to a board side: about `side` inner colours and a third as
/// many frame colours (E2 itself: 17 and 5 at side 16; the e2pieces_hard sets: 5/3 at 6×6,
/// 8/3 at 8×8, 10/4 at 10×10).
pub fn e2_like_colours(side: usize) -> (u32, u32) {
    let side = side as u32;
    ((side / 3).max(2), side.max(3))
}

/// A puzzle under the identical rule whose planted solution is returned alongside it.
pub fn planted_puzzle(spec: &PlantSpec) -> (Puzzle, Solution) {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(spec.seed);
    let (rows, cols) = (spec.rows, spec.cols);
    // Colours are offset so frame and inner colours never coincide, and never hit the border.
    let frame_base = 1;
    let inner_base = 1 + spec.frame as i32;
    let mut colour = |frame_join: bool| -> i32 {
        if frame_join {
            frame_base + rng.random_range(0..spec.frame.max(1)) as i32
        } else {
            inner_base + rng.random_range(0..spec.inner.max(1)) as i32
        }
    };
    // horiz[r][c]: the join right of (r, c); vert[r][c]: the join below (r, c).
    let mut horiz = vec![vec![0i32; cols]; rows];
    let mut vert = vec![vec![0i32; cols]; rows];
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                horiz[r][c] = colour(spec.border.is_some() && (r == 0 || r + 1 == rows));
            }
            if r + 1 < rows {
                vert[r][c] = colour(spec.border.is_some() && (c == 0 || c + 1 == cols));
            }
        }
    }
    let mut outer = |_: usize| spec.border.unwrap_or_else(|| colour(false));
    let mut placed: Vec<Tile> = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let top = if r == 0 { outer(0) } else { vert[r - 1][c] };
            let right = if c + 1 == cols { outer(1) } else { horiz[r][c] };
            let bottom = if r + 1 == rows { outer(2) } else { vert[r][c] };
            let left = if c == 0 { outer(3) } else { horiz[r][c - 1] };
            placed.push([top, right, bottom, left]);
        }
    }
    // Shuffle (Fisher-Yates) and turn each tile back by a random amount.
    let n = rows * cols;
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..=i);
        perm.swap(i, j);
    }
    let mut tiles = vec![[0; 4]; n];
    let mut cells = vec![Placement { tile: 0, rot: 0 }; n];
    for (cell, &tile) in perm.iter().enumerate() {
        let turn: u8 = rng.random_range(0..4u8);
        // Written = planted turned back by `turn`; placing it with `turn` restores the plant.
        tiles[tile] = rotated(&placed[cell], (4 - turn) & 3);
        cells[cell] = Placement { tile, rot: turn };
    }
    let puzzle = Puzzle {
        rows,
        cols,
        rule: Rule::Identical,
        border: spec.border,
        tiles,
    };
    (puzzle, Solution { rows, cols, cells })
}

/// The puzzle as text in the crate's input format (with a header), for `--save-puzzle`.
pub fn puzzle_text(p: &Puzzle, comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&format!("rows {}\ncols {}\n", p.rows, p.cols));
    out.push_str(match p.rule {
        Rule::Complement => "rule complement\n",
        Rule::Identical => "rule identical\n",
    });
    match p.border {
        Some(b) => out.push_str(&format!("border {b}\n")),
        None => out.push_str("border none\n"),
    }
    for t in &p.tiles {
        out.push_str(&format!("{} {} {} {}\n", t[0], t[1], t[2], t[3]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plant_is_a_solution() {
        for border in [None, Some(0)] {
            let (p, s) = planted_puzzle(&PlantSpec {
                rows: 5,
                cols: 7,
                frame: 3,
                inner: 6,
                border,
                seed: 7,
            });
            p.check(&s).unwrap();
            // The saved text reads back as the same puzzle.
            let text = puzzle_text(&p, "round trip\nsecond line");
            let back = crate::solvers::edges::parse_puzzle(&text, &Default::default()).unwrap();
            assert_eq!(back, p);
        }
    }
}
