//! Piece mask → Freeman chain of its outer boundary.
//!
//! The tracer is Suzuki & Abe's outer-border following, step for step as OpenCV's
//! `findContours(RETR_EXTERNAL, CHAIN_APPROX_NONE)` runs it, so the two can be cross-checked
//! pixel for pixel (the `opencv` feature's tests do). OpenCV walks outer borders
//! counter-clockwise on screen; Freeman & Garder trace clockwise, so the point list is reversed,
//! keeping the topmost-then-leftmost pixel as the start.
//!
//! The mask is padded with one background pixel on every side first, as OpenCV does: without
//! it a piece touching x = 0 would have no background to its left and the walk would start
//! wrong (imageproc's `find_contours` then reports such a blob as a hole).

use super::region::PieceRegion;
use crate::chain::{ChainCode, STEPS};
use image::GrayImage;

/// Why a mask could not be traced.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TraceError {
    #[error("the piece mask is empty (no foreground pixel)")]
    EmptyMask,
    #[error("grid spacing must be at least 1 pixel")]
    BadGrid,
}

/// The outer boundary of the largest 8-connected blob of `region`'s mask, in source-image
/// pixels (the bbox offset added), clockwise on screen from the topmost-then-leftmost pixel.
pub fn trace_region(region: &PieceRegion) -> Result<ChainCode, TraceError> {
    let mut chain = trace_mask(&region.mask)?;
    chain.start[0] += region.bbox[0] as i32;
    chain.start[1] += region.bbox[1] as i32;
    Ok(chain)
}

/// Like [`trace_region`], in mask coordinates. Pixels above 127 are foreground.
pub fn trace_mask(mask: &GrayImage) -> Result<ChainCode, TraceError> {
    let grid = PaddedMask::new(mask);
    let start = grid.start_of_largest_blob().ok_or(TraceError::EmptyMask)?;
    let ccw = grid.follow_outer_border(start);
    Ok(clockwise_chain(&ccw, grid.width))
}

/// The outer border of the blob whose first raster pixel is `(x, y)` (mask coordinates), in
/// OpenCV's order: counter-clockwise on screen, no point repeated at the end.
pub fn opencv_order_border(mask: &GrayImage, x: u32, y: u32) -> Vec<[i32; 2]> {
    let grid = PaddedMask::new(mask);
    let start = (y as usize + 1) * grid.width + x as usize + 1;
    grid.follow_outer_border(start)
        .into_iter()
        .map(|i| grid.point_of(i))
        .collect()
}

/// A 0/1 copy of the mask with a one-pixel background frame, stored row-major.
struct PaddedMask {
    cells: Vec<u8>,
    width: usize,
}

impl PaddedMask {
    fn new(mask: &GrayImage) -> Self {
        let (w, h) = (mask.width() as usize, mask.height() as usize);
        let width = w + 2;
        let mut cells = vec![0u8; width * (h + 2)];
        for (y, row) in mask.as_raw().chunks_exact(w.max(1)).take(h).enumerate() {
            let base = (y + 1) * width + 1;
            for (x, &v) in row.iter().enumerate() {
                cells[base + x] = u8::from(v > 127);
            }
        }
        PaddedMask { cells, width }
    }

    /// Mask coordinates of a padded cell index.
    fn point_of(&self, i: usize) -> [i32; 2] {
        [(i % self.width) as i32 - 1, (i / self.width) as i32 - 1]
    }

    /// Cell offsets of the eight Freeman directions.
    fn deltas(&self) -> [isize; 8] {
        let w = self.width as isize;
        STEPS.map(|(dx, dy)| dx as isize + dy as isize * w)
    }

    /// The first raster cell (topmost, then leftmost) of the largest 8-connected blob.
    /// Segmentation hands over one filled blob per piece, but a thresholded real mask can carry
    /// a stray speck; tracing the speck instead of the piece would be a silent disaster.
    fn start_of_largest_blob(&self) -> Option<usize> {
        let n = self.cells.len();
        let deltas = self.deltas();
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        let mut best: Option<(usize, usize)> = None;
        for first in 0..n {
            if self.cells[first] == 0 || seen[first] {
                continue;
            }
            seen[first] = true;
            stack.push(first);
            let mut size = 0usize;
            while let Some(i) = stack.pop() {
                size += 1;
                for d in deltas {
                    // The frame is background, so neighbours of a foreground cell stay inside.
                    let j = (i as isize + d) as usize;
                    if self.cells[j] != 0 && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            if best.is_none_or(|(_, s)| size > s) {
                best = Some((first, size));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Suzuki–Abe outer border following from `start` (a foreground cell whose left
    /// neighbour is background), exactly as OpenCV's `icvFetchContour` with
    /// `CHAIN_APPROX_NONE`: returns the border cells counter-clockwise on screen.
    fn follow_outer_border(&self, start: usize) -> Vec<usize> {
        let d = self.deltas();
        let at = |i: usize, s: usize| (i as isize + d[s & 7]) as usize;
        // Look clockwise on screen from the upper-left neighbour for the first foreground
        // neighbour: it is the last border cell before the walk returns to the start.
        let mut s = 4usize;
        let mut found = None;
        for _ in 0..7 {
            s = (s + 7) & 7;
            if self.cells[at(start, s)] != 0 {
                found = Some(s);
                break;
            }
        }
        let Some(mut s) = found else {
            return vec![start];
        };
        let last = at(start, s);
        let mut out = Vec::new();
        let mut here = start;
        loop {
            // Turn counter-clockwise from the direction we came back along until foreground.
            let mut next = here;
            for _ in 0..8 {
                s += 1;
                next = at(here, s);
                if self.cells[next] != 0 {
                    break;
                }
            }
            s &= 7;
            out.push(here);
            if next == start && here == last {
                break;
            }
            here = next;
            s = (s + 4) & 7;
        }
        out
    }
}

/// Reverses OpenCV's counter-clockwise border into Freeman & Garder's clockwise chain, starting
/// at the same (topmost-then-leftmost) cell.
fn clockwise_chain(ccw: &[usize], width: usize) -> ChainCode {
    let point = |i: usize| [(i % width) as i32 - 1, (i / width) as i32 - 1];
    let start = point(ccw[0]);
    let mut points = Vec::with_capacity(ccw.len());
    points.push(start);
    points.extend(ccw[1..].iter().rev().map(|&i| point(i)));
    ChainCode::from_points(&points, true)
        .expect("consecutive border cells of a Suzuki–Abe walk are 8-neighbours")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask_from(rows: &[&str]) -> GrayImage {
        let h = rows.len() as u32;
        let w = rows[0].len() as u32;
        GrayImage::from_fn(w, h, |x, y| {
            image::Luma([if rows[y as usize].as_bytes()[x as usize] == b'#' {
                255
            } else {
                0
            }])
        })
    }

    #[test]
    fn rectangle_from_the_issue() {
        let mut mask = GrayImage::new(12, 8);
        for y in 2..5 {
            for x in 3..8 {
                mask.put_pixel(x, y, image::Luma([255]));
            }
        }
        let c = trace_mask(&mask).unwrap();
        assert_eq!(c.start, [3, 2]);
        assert_eq!(c.digits(), "000066444422");
    }

    #[test]
    fn bbox_offset_is_added() {
        let region = PieceRegion {
            bbox: [100, 50, 2, 2],
            mask: mask_from(&["##", "##"]),
            area: 4,
        };
        let c = trace_region(&region).unwrap();
        assert_eq!(c.start, [100, 50]);
        assert_eq!(c.digits(), "0642");
    }

    #[test]
    fn single_pixel_has_an_empty_chain() {
        let c = trace_mask(&mask_from(&["...", ".#.", "..."])).unwrap();
        assert_eq!(c.start, [1, 1]);
        assert!(c.is_empty());
    }

    #[test]
    fn empty_mask_is_an_error() {
        assert_eq!(
            trace_mask(&GrayImage::new(3, 3)),
            Err(TraceError::EmptyMask)
        );
    }

    #[test]
    fn diagonal_lines_go_out_and_back() {
        let c = trace_mask(&mask_from(&["#..", ".#.", "..#"])).unwrap();
        assert_eq!(c.start, [0, 0]);
        assert_eq!(c.digits(), "7733");
        let c = trace_mask(&mask_from(&["..#", ".#.", "#.."])).unwrap();
        assert_eq!(c.start, [2, 0]);
        assert_eq!(c.digits(), "5511");
    }

    #[test]
    fn blob_touching_the_left_edge_is_an_outer_border() {
        let c = trace_mask(&mask_from(&["##.", "##.", "#.."])).unwrap();
        assert_eq!(c.start, [0, 0]);
        assert_eq!(c.digits(), "06522");
        assert!(c.is_closed());
    }

    #[test]
    fn largest_blob_wins_over_a_speck_above_it() {
        let c = trace_mask(&mask_from(&["#....", ".....", ".###.", ".###."])).unwrap();
        assert_eq!(c.start, [1, 2]);
        assert_eq!(c.digits(), "006442");
    }
}
