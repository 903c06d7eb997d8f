//! The edge-matching puzzle model: square tiles with one integer symbol per edge, a rows × cols
//! board, a matching rule and an optional border symbol.
//!
//! Conventions used everywhere in this module tree:
//! - a tile's edges are stored clockwise from the top: `[top, right, bottom, left]`;
//! - a rotation `rot` is a number of quarter turns **clockwise** applied to the tile as written,
//!   so one turn moves its left edge to the top: `rotated[side] = edges[(side + 4 - rot) % 4]`;
//! - cells are numbered row-major, `cell = row * cols + col`.

use serde::{Deserialize, Serialize};

/// Side indices into a tile's edge array.
pub const TOP: usize = 0;
pub const RIGHT: usize = 1;
pub const BOTTOM: usize = 2;
pub const LEFT: usize = 3;

/// How two edges that meet must relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Symbol `a` fits `-a` (head and tail of an insect, inward and outward suit): both seeds.
    Complement,
    /// Equal symbols fit (same colour), as in Eternity II-style puzzles.
    Identical,
}

impl Rule {
    /// The symbol an edge must meet to fit `symbol`.
    pub fn partner(self, symbol: i32) -> i32 {
        match self {
            Rule::Complement => symbol.wrapping_neg(),
            Rule::Identical => symbol,
        }
    }

    /// Whether edges carrying `a` and `b` may meet.
    pub fn fits(self, a: i32, b: i32) -> bool {
        self.partner(a) == b
    }
}

impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "complement" | "complementary" => Ok(Rule::Complement),
            "identical" | "same" => Ok(Rule::Identical),
            other => Err(format!(
                "unknown rule '{other}' (expected complement or identical)"
            )),
        }
    }
}

/// One square tile: its four edge symbols clockwise from the top.
pub type Tile = [i32; 4];

/// The edges of `tile` after `rot` clockwise quarter turns.
pub fn rotated(tile: &Tile, rot: u8) -> Tile {
    let r = (rot & 3) as usize;
    [
        tile[(4 - r) % 4],
        tile[(5 - r) % 4],
        tile[(6 - r) % 4],
        tile[(7 - r) % 4],
    ]
}

/// A complete, validated puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    pub rule: Rule,
    /// When set, this symbol must face the outside of the board, and only the outside.
    pub border: Option<i32>,
    /// Tiles in file order (tile `i` is reported as `i + 1`).
    pub tiles: Vec<Tile>,
}

/// The largest board side accepted: far beyond Eternity II's 16, small enough for `u16` tiles.
pub const MAX_SIDE: usize = 64;
/// The largest number of distinct symbols: the candidate tables grow with its square.
pub const MAX_SYMBOLS: usize = 255;

/// A tile placed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// 0-based tile index in file order.
    pub tile: usize,
    /// Clockwise quarter turns applied to the tile as written.
    pub rot: u8,
}

/// A full board: `rows * cols` placements, row-major.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Placement>,
}

impl Solution {
    /// The board turned a quarter turn clockwise as a whole: cell `(r, c)` goes to
    /// `(c, rows - 1 - r)` and every tile turns once more.
    pub fn rotated_quarter(&self) -> Solution {
        let (rows, cols) = (self.cols, self.rows);
        let mut cells = vec![Placement { tile: 0, rot: 0 }; rows * cols];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let p = self.cells[r * self.cols + c];
                cells[c * cols + (self.rows - 1 - r)] = Placement {
                    tile: p.tile,
                    rot: (p.rot + 1) & 3,
                };
            }
        }
        Solution { rows, cols, cells }
    }

    /// The board turned half a turn.
    pub fn rotated_half(&self) -> Solution {
        self.rotated_quarter().rotated_quarter()
    }

    /// This solution and its images under the board rotations that keep the board's shape:
    /// four for a square board, two otherwise.
    pub fn board_rotations(&self) -> Vec<Solution> {
        if self.rows == self.cols {
            let a = self.rotated_quarter();
            let b = a.rotated_quarter();
            let c = b.rotated_quarter();
            vec![self.clone(), a, b, c]
        } else {
            vec![self.clone(), self.rotated_half()]
        }
    }
}

impl Puzzle {
    /// How many board rotations map the board onto itself (4 square, 2 otherwise).
    pub fn symmetry_order(&self) -> u64 {
        if self.rows == self.cols {
            4
        } else {
            2
        }
    }

    /// Checks that `solution` uses every tile once and all meeting edges (and the border) fit.
    pub fn check(&self, solution: &Solution) -> Result<(), String> {
        if solution.rows != self.rows || solution.cols != self.cols {
            return Err("board size differs".into());
        }
        let n = self.rows * self.cols;
        if solution.cells.len() != n {
            return Err("wrong number of cells".into());
        }
        let mut seen = vec![false; self.tiles.len()];
        let edges: Vec<Tile> = solution
            .cells
            .iter()
            .map(|p| rotated(&self.tiles[p.tile], p.rot))
            .collect();
        for p in &solution.cells {
            if std::mem::replace(&mut seen[p.tile], true) {
                return Err(format!("tile {} used twice", p.tile + 1));
            }
        }
        for r in 0..self.rows {
            for c in 0..self.cols {
                let e = &edges[r * self.cols + c];
                let outside = [r == 0, c + 1 == self.cols, r + 1 == self.rows, c == 0];
                for side in 0..4 {
                    if let Some(b) = self.border {
                        if outside[side] != (e[side] == b) {
                            return Err(format!("border mismatch at row {} col {}", r + 1, c + 1));
                        }
                    }
                }
                if c + 1 < self.cols
                    && !self.rule.fits(e[RIGHT], edges[r * self.cols + c + 1][LEFT])
                {
                    return Err(format!(
                        "edge mismatch right of row {} col {}",
                        r + 1,
                        c + 1
                    ));
                }
                if r + 1 < self.rows
                    && !self
                        .rule
                        .fits(e[BOTTOM], edges[(r + 1) * self.cols + c][TOP])
                {
                    return Err(format!("edge mismatch below row {} col {}", r + 1, c + 1));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_quarter_turn_moves_left_edge_to_top() {
        let t = [1, 2, 3, 4];
        assert_eq!(rotated(&t, 1), [4, 1, 2, 3]);
        assert_eq!(rotated(&t, 2), [3, 4, 1, 2]);
        assert_eq!(rotated(&t, 4), t);
    }

    #[test]
    fn board_rotation_is_a_solution_again() {
        // 1x2 board, complement rule: tile0 right=5 meets tile1 left=-5.
        let p = Puzzle {
            rows: 1,
            cols: 2,
            rule: Rule::Complement,
            border: None,
            tiles: vec![[1, 5, 2, 3], [7, 8, 9, -5]],
        };
        let s = Solution {
            rows: 1,
            cols: 2,
            cells: vec![Placement { tile: 0, rot: 0 }, Placement { tile: 1, rot: 0 }],
        };
        p.check(&s).unwrap();
        let half = s.rotated_half();
        p.check(&half).unwrap();
        assert_eq!(half.cells[0].tile, 1);
        let q = s.rotated_quarter();
        assert_eq!((q.rows, q.cols), (2, 1));
    }
}
