//! Placed pieces by where they lie in the cluster frame, so the closure test only looks at
//! pieces that can touch a candidate.

use super::geometry::P2;
use super::shapes::Shapes;

/// A uniform grid of cell size `cell` over the cluster frame.
pub struct MemberGrid {
    pub cell: f64,
    cells: std::collections::HashMap<(i64, i64), Vec<usize>>,
}

impl MemberGrid {
    /// A grid for a cluster of `shapes`' pieces: the closure test's reach is 2.5 × the larger of
    /// the median and the candidate's size, so a cell of 2.5 × the largest piece covers it from
    /// the 3 × 3 block.
    pub fn for_pieces(shapes: &Shapes) -> Self {
        let largest = shapes
            .pieces
            .iter()
            .map(|p| p.size)
            .fold(shapes.median_size, f64::max);
        Self::new(2.5 * largest)
    }

    pub fn new(cell: f64) -> Self {
        MemberGrid {
            cell: cell.max(1.0),
            cells: Default::default(),
        }
    }

    fn key(&self, p: &P2) -> (i64, i64) {
        (
            (p.x / self.cell).floor() as i64,
            (p.y / self.cell).floor() as i64,
        )
    }

    pub fn insert(&mut self, member: usize, at: &P2) {
        let k = self.key(at);
        self.cells.entry(k).or_default().push(member);
    }

    /// Members whose centroid lies within one cell of `at` (a superset of those within
    /// `cell` of it).
    pub fn near(&self, at: &P2) -> impl Iterator<Item = usize> + '_ {
        let (kx, ky) = self.key(at);
        (-1..=1)
            .flat_map(move |dx| (-1..=1).map(move |dy| (kx + dx, ky + dy)))
            .filter_map(|k| self.cells.get(&k))
            .flatten()
            .copied()
    }
}
