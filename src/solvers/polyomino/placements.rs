//! The exact-cover rows: every way to put every kind of piece into the region.
//!
//! Pieces whose allowed orientation sets coincide are one *kind* with a multiplicity: the
//! search then never tries two interchangeable pieces in the same spot, and a tiling is
//! counted once, not once per permutation of identical pieces.

use super::piece::{CellMatrix, Freedom, Shape};
use super::region::Region;

/// How board squares are numbered: along the region's shorter side first, so the
/// first-empty-square search fills narrow columns (the fast order for 6×10 and 3×20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    pub column_major: bool,
}

impl Layout {
    pub fn for_region(region: &Region) -> Self {
        Self {
            rows: region.rows(),
            cols: region.cols(),
            column_major: region.rows() <= region.cols(),
        }
    }

    pub fn len(&self) -> usize {
        self.rows * self.cols
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Squares along the fast-moving direction.
    pub fn minor_len(&self) -> usize {
        if self.column_major {
            self.rows
        } else {
            self.cols
        }
    }

    pub fn index(&self, r: usize, c: usize) -> usize {
        if self.column_major {
            c * self.rows + r
        } else {
            r * self.cols + c
        }
    }

    pub fn coords(&self, i: usize) -> (usize, usize) {
        if self.column_major {
            (i % self.rows, i / self.rows)
        } else {
            (i / self.cols, i % self.cols)
        }
    }
}

/// Interchangeable pieces: one allowed-orientation set, the input pieces that have it.
#[derive(Clone, Debug)]
pub struct Kind {
    pub orientations: Vec<Shape>,
    /// Input indices (0-based) of the pieces of this kind, in input order.
    pub instances: Vec<usize>,
    pub size: usize,
}

/// One row of the exact cover: a kind in one orientation at one offset.
#[derive(Clone, Debug)]
pub struct Placement {
    pub kind: usize,
    pub orientation: usize,
    /// Top-left of the orientation's bounding box in region coordinates (0-based).
    pub row: usize,
    pub col: usize,
    /// Board indices of the covered squares, ascending (first = the anchor square).
    pub cells: Vec<usize>,
}

/// Everything the searches and the symmetry code need, independent of the bit width.
#[derive(Clone, Debug)]
pub struct Plan {
    pub layout: Layout,
    /// `open[i]`: board square `i` belongs to the region.
    pub open: Vec<bool>,
    pub kinds: Vec<Kind>,
    pub placements: Vec<Placement>,
}

/// Groups pieces into kinds: equal allowed-orientation sets.
pub fn kinds_of(pieces: &[CellMatrix], freedom: Freedom) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let shape = Shape::from_coords(&p.coords());
        let orientations = shape.orientations(freedom);
        let mut sorted = orientations.clone();
        sorted.sort();
        let found = kinds.iter_mut().find(|k| {
            let mut theirs = k.orientations.clone();
            theirs.sort();
            theirs == sorted
        });
        match found {
            Some(k) => k.instances.push(i),
            None => kinds.push(Kind {
                size: shape.0.len(),
                orientations,
                instances: vec![i],
            }),
        }
    }
    kinds
}

/// An upper bound on the placements [`Plan::new`] would build (every orientation at every
/// offset inside the bounding box), computed without building them.
pub fn count(pieces: &[CellMatrix], region: &Region, freedom: Freedom) -> usize {
    kinds_of(pieces, freedom)
        .iter()
        .flat_map(|k| &k.orientations)
        .map(|o| {
            let fit = |have: usize, need: i32| have.saturating_sub(need as usize - 1);
            fit(region.rows(), o.rows()) * fit(region.cols(), o.cols())
        })
        .sum()
}

impl Plan {
    pub fn new(pieces: &[CellMatrix], region: &Region, freedom: Freedom) -> Self {
        let layout = Layout::for_region(region);
        let mut open = vec![false; layout.len()];
        for (r, c) in region.grid.coords() {
            open[layout.index(r as usize, c as usize)] = true;
        }
        let kinds = kinds_of(pieces, freedom);
        let mut placements = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            for (o, shape) in kind.orientations.iter().enumerate() {
                let (h, w) = (shape.rows() as usize, shape.cols() as usize);
                if h > layout.rows || w > layout.cols {
                    continue;
                }
                for row in 0..=layout.rows - h {
                    for col in 0..=layout.cols - w {
                        let cells: Option<Vec<usize>> = shape
                            .0
                            .iter()
                            .map(|&(r, c)| {
                                let i = layout.index(row + r as usize, col + c as usize);
                                open[i].then_some(i)
                            })
                            .collect();
                        if let Some(mut cells) = cells {
                            cells.sort_unstable();
                            placements.push(Placement {
                                kind: k,
                                orientation: o,
                                row,
                                col,
                                cells,
                            });
                        }
                    }
                }
            }
        }
        Self {
            layout,
            open,
            kinds,
            placements,
        }
    }

    /// Input piece number (0-based) for each chosen placement: instances of a kind are
    /// handed out in the order their placements' anchors appear on the board, so the
    /// labelling is a function of the tiling alone.
    pub fn assign_pieces(&self, chosen: &[usize]) -> Vec<(usize, usize)> {
        let mut order: Vec<usize> = chosen.to_vec();
        order.sort_by_key(|&p| self.placements[p].cells[0]);
        let mut next = vec![0usize; self.kinds.len()];
        order
            .into_iter()
            .map(|p| {
                let k = self.placements[p].kind;
                let piece = self.kinds[k].instances[next[k]];
                next[k] += 1;
                (piece, p)
            })
            .collect()
    }
}
