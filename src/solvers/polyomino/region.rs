//! The target region: the paper's `m × n` rectangle `R`, or any drawn shape with holes, and
//! the symmetries of the square that map it onto itself.

use super::piece::{CellMatrix, Transform};
use serde::{Deserialize, Serialize};

/// A region on a `rows × cols` grid; `cells` marks the squares to be covered. Cells outside
/// the region (holes, ragged edges) are simply false.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub grid: CellMatrix,
}

impl Region {
    /// The paper's empty `m × n` rectangle (`m` rows, `n` columns).
    pub fn rectangle(rows: usize, cols: usize) -> Self {
        Self {
            grid: CellMatrix {
                rows,
                cols,
                cells: vec![true; rows * cols],
            },
        }
    }

    /// A drawn region, trimmed to the bounding box of its squares so that the symmetry test
    /// sees the shape and not the margins it was drawn with.
    pub fn from_matrix(m: &CellMatrix) -> Self {
        Self {
            grid: m.trimmed().1,
        }
    }

    pub fn rows(&self) -> usize {
        self.grid.rows
    }

    pub fn cols(&self) -> usize {
        self.grid.cols
    }

    pub fn contains(&self, r: i32, c: i32) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.grid.rows
            && (c as usize) < self.grid.cols
            && self.grid.get(r as usize, c as usize)
    }

    /// Squares to cover (the paper's `m·n` for a rectangle).
    pub fn area(&self) -> usize {
        self.grid.count()
    }

    pub fn is_rectangle(&self) -> bool {
        self.grid.cells.iter().all(|&v| v)
    }

    /// The symmetries of the region: every transform of its bounding box that maps its
    /// squares onto its squares. A 6×10 rectangle has 4, a square 8, a lopsided shape 1.
    pub fn symmetries(&self) -> Vec<Transform> {
        let (rows, cols) = (self.rows() as i32, self.cols() as i32);
        Transform::ALL
            .into_iter()
            .filter(|t| !t.swaps_axes() || rows == cols)
            .filter(|&t| {
                self.grid.coords().into_iter().all(|p| {
                    let (r, c) = t.apply(p, rows, cols);
                    self.contains(r, c)
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_group_sizes() {
        assert_eq!(Region::rectangle(6, 10).symmetries().len(), 4);
        assert_eq!(Region::rectangle(8, 8).symmetries().len(), 8);
        let mut holed = Region::rectangle(8, 8);
        for (r, c) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
            holed.grid.cells[r * 8 + c] = false;
        }
        assert_eq!(holed.symmetries().len(), 8);
        let mut lopsided = Region::rectangle(8, 8);
        lopsided.grid.cells[0] = false;
        lopsided.grid.cells[1] = false;
        // Two missing squares along the top edge: no symmetry but the identity keeps them.
        let syms = lopsided.symmetries();
        assert!(syms.contains(&Transform::Identity));
        assert_eq!(syms.len(), 1);
    }
}
