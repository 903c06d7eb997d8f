//! Pieces as 0-1 cell matrices (the paper's `P^i`), their orientations under the square's
//! eight symmetries, and the checks that make a matrix a real polyomino.
//!
//! A piece is kept in two forms: the [`CellMatrix`] the user gave (what the paper places at
//! `(a_i, b_i)`), and a normalised [`Shape`] (sorted cell list anchored at the origin) used
//! to compare orientations and decide which pieces are interchangeable.

use serde::{Deserialize, Serialize};

/// A rectangular 0-1 matrix: `cells[r * cols + c]` is true where the piece (or region) has a
/// square. Input from any source (text, JSON, later a photo) becomes one of these.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellMatrix {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<bool>,
}

impl CellMatrix {
    /// A matrix from rows of booleans; short rows are padded with empty cells.
    pub fn from_rows(rows: &[Vec<bool>]) -> Self {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut cells = vec![false; rows.len() * cols];
        for (r, row) in rows.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                cells[r * cols + c] = v;
            }
        }
        Self {
            rows: rows.len(),
            cols,
            cells,
        }
    }

    pub fn get(&self, r: usize, c: usize) -> bool {
        self.cells[r * self.cols + c]
    }

    /// The paper's `N(P)`: the number of squares.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|&&v| v).count()
    }

    /// Coordinates `(row, col)` of every square, in row-major order.
    pub fn coords(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::with_capacity(self.count());
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.get(r, c) {
                    out.push((r as i32, c as i32));
                }
            }
        }
        out
    }

    /// The matrix cut down to the bounding box of its squares, so every margin holds a 1
    /// (the paper's requirement on `P^i`). Returns the offset removed and the trimmed matrix.
    pub fn trimmed(&self) -> ((usize, usize), CellMatrix) {
        let coords = self.coords();
        if coords.is_empty() {
            return ((0, 0), CellMatrix::from_rows(&[]));
        }
        let shape = Shape::from_coords(&coords);
        let r0 = coords.iter().map(|p| p.0).min().unwrap_or(0) as usize;
        let c0 = coords.iter().map(|p| p.1).min().unwrap_or(0) as usize;
        ((r0, c0), shape.to_matrix())
    }

    /// True when every square can reach every other through edge-adjacent squares.
    pub fn is_connected(&self) -> bool {
        let coords = self.coords();
        let Some(&start) = coords.first() else {
            return true;
        };
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![start];
        seen[start.0 as usize * self.cols + start.1 as usize] = true;
        let mut reached = 0;
        while let Some((r, c)) = stack.pop() {
            reached += 1;
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (nr, nc) = (r + dr, c + dc);
                if nr < 0 || nc < 0 || nr as usize >= self.rows || nc as usize >= self.cols {
                    continue;
                }
                let i = nr as usize * self.cols + nc as usize;
                if self.cells[i] && !seen[i] {
                    seen[i] = true;
                    stack.push((nr, nc));
                }
            }
        }
        reached == coords.len()
    }
}

/// One of the eight symmetries of the square (the dihedral group D4), acting on `(row, col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Transform {
    Identity,
    Rotate90,
    Rotate180,
    Rotate270,
    /// Mirror left-right (columns reversed).
    FlipColumns,
    /// Mirror top-bottom (rows reversed).
    FlipRows,
    Transpose,
    AntiTranspose,
}

impl Transform {
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::FlipColumns,
        Transform::FlipRows,
        Transform::Transpose,
        Transform::AntiTranspose,
    ];
    pub const ROTATIONS: [Transform; 4] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
    ];

    /// Whether the transform exchanges the roles of rows and columns.
    pub fn swaps_axes(self) -> bool {
        matches!(
            self,
            Transform::Rotate90
                | Transform::Rotate270
                | Transform::Transpose
                | Transform::AntiTranspose
        )
    }

    /// Maps a cell of a `rows × cols` box to the transformed box (whose size is swapped when
    /// [`Transform::swaps_axes`]).
    pub fn apply(self, (r, c): (i32, i32), rows: i32, cols: i32) -> (i32, i32) {
        match self {
            Transform::Identity => (r, c),
            Transform::Rotate90 => (c, rows - 1 - r),
            Transform::Rotate180 => (rows - 1 - r, cols - 1 - c),
            Transform::Rotate270 => (cols - 1 - c, r),
            Transform::FlipColumns => (r, cols - 1 - c),
            Transform::FlipRows => (rows - 1 - r, c),
            Transform::Transpose => (c, r),
            Transform::AntiTranspose => (cols - 1 - c, rows - 1 - r),
        }
    }
}

/// Which orientations of a piece may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Freedom {
    /// Quarter turns allowed (`--rotate`).
    pub rotate: bool,
    /// Mirror images allowed (`--flip`): turning the piece over left-right.
    pub flip: bool,
}

impl Freedom {
    /// The transforms that produce a piece's allowed orientations.
    pub fn transforms(self) -> Vec<Transform> {
        match (self.rotate, self.flip) {
            (false, false) => vec![Transform::Identity],
            (false, true) => vec![Transform::Identity, Transform::FlipColumns],
            (true, false) => Transform::ROTATIONS.to_vec(),
            (true, true) => Transform::ALL.to_vec(),
        }
    }
}

/// A normalised cell set: sorted `(row, col)` with the minimum row and column at 0. Two
/// shapes are the same polyomino placement pattern exactly when they are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape(pub Vec<(i32, i32)>);

impl Shape {
    pub fn from_coords(coords: &[(i32, i32)]) -> Self {
        let r0 = coords.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = coords.iter().map(|p| p.1).min().unwrap_or(0);
        let mut v: Vec<_> = coords.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
        v.sort_unstable();
        v.dedup();
        Shape(v)
    }

    pub fn rows(&self) -> i32 {
        self.0.iter().map(|p| p.0 + 1).max().unwrap_or(0)
    }

    pub fn cols(&self) -> i32 {
        self.0.iter().map(|p| p.1 + 1).max().unwrap_or(0)
    }

    pub fn transformed(&self, t: Transform) -> Shape {
        let (rows, cols) = (self.rows(), self.cols());
        let moved: Vec<_> = self.0.iter().map(|&p| t.apply(p, rows, cols)).collect();
        Shape::from_coords(&moved)
    }

    /// The distinct orientations allowed by `freedom`, in a fixed order (the given
    /// orientation first).
    pub fn orientations(&self, freedom: Freedom) -> Vec<Shape> {
        let mut out: Vec<Shape> = Vec::new();
        for t in freedom.transforms() {
            let s = self.transformed(t);
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    pub fn to_matrix(&self) -> CellMatrix {
        let (rows, cols) = (self.rows() as usize, self.cols() as usize);
        let mut cells = vec![false; rows * cols];
        for &(r, c) in &self.0 {
            cells[r as usize * cols + c as usize] = true;
        }
        CellMatrix { rows, cols, cells }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[&str]) -> CellMatrix {
        let rows: Vec<Vec<bool>> = rows
            .iter()
            .map(|r| r.chars().map(|c| c == '1').collect())
            .collect();
        CellMatrix::from_rows(&rows)
    }

    #[test]
    fn pentomino_orientation_counts_are_the_classic_ones() {
        let f = Shape::from_coords(&m(&["011", "110", "010"]).coords());
        let x = Shape::from_coords(&m(&["010", "111", "010"]).coords());
        let i = Shape::from_coords(&m(&["11111"]).coords());
        let all = Freedom {
            rotate: true,
            flip: true,
        };
        assert_eq!(f.orientations(all).len(), 8);
        assert_eq!(x.orientations(all).len(), 1);
        assert_eq!(i.orientations(all).len(), 2);
        let rot = Freedom {
            rotate: true,
            flip: false,
        };
        assert_eq!(f.orientations(rot).len(), 4);
        assert_eq!(f.orientations(Freedom::default()).len(), 1);
    }

    #[test]
    fn transforms_compose_like_the_group() {
        let s = Shape::from_coords(&m(&["110", "100", "111"]).coords());
        let r4 = s
            .transformed(Transform::Rotate90)
            .transformed(Transform::Rotate90)
            .transformed(Transform::Rotate90)
            .transformed(Transform::Rotate90);
        assert_eq!(r4, s);
        assert_eq!(
            s.transformed(Transform::Rotate90)
                .transformed(Transform::Rotate90),
            s.transformed(Transform::Rotate180)
        );
        assert_eq!(
            s.transformed(Transform::FlipColumns)
                .transformed(Transform::FlipRows),
            s.transformed(Transform::Rotate180)
        );
    }

    #[test]
    fn connectivity_and_trimming() {
        assert!(m(&["110", "011"]).is_connected());
        assert!(!m(&["101"]).is_connected());
        assert!(
            !m(&["10", "01"]).is_connected(),
            "diagonal contact is not a connection"
        );
        let ((r0, c0), t) = m(&["000", "011", "010"]).trimmed();
        assert_eq!((r0, c0), (1, 1));
        assert_eq!(t, m(&["11", "10"]));
    }
}
