//! Showing a tiling: rows of piece labels as in the paper (`55222`), and a PNG with one
//! colour per piece and dark lines along piece boundaries.

use super::Solution;
use image::{Rgb, RgbImage};

/// The character for 0-based input piece `i`: `1`–`9`, then `a`–`z`, then `A`–`Z`.
pub fn label(i: usize) -> char {
    match i {
        0..=8 => (b'1' + i as u8) as char,
        9..=34 => (b'a' + (i - 9) as u8) as char,
        35..=60 => (b'A' + (i - 35) as u8) as char,
        _ => '?',
    }
}

/// The tiling as text rows; squares outside the region are `.`.
pub fn rows(solution: &Solution) -> Vec<String> {
    solution
        .grid
        .iter()
        .map(|row| row.iter().map(|c| c.map_or('.', label)).collect())
        .collect()
}

/// A distinct, saturated colour for piece `i` (golden-angle hues).
fn colour(i: usize) -> Rgb<u8> {
    let h = (i as f64 * 137.507_764) % 360.0;
    let (s, v) = (
        0.55 + 0.35 * ((i / 7) % 2) as f64,
        0.92 - 0.2 * ((i / 3) % 2) as f64,
    );
    let c = v * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = v - c;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |f: f64| ((f + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb([to(r), to(g), to(b)])
}

/// Draws the tiling with `cell` pixels per square and a margin of one square.
pub fn png(solution: &Solution, cell: u32) -> RgbImage {
    let rows = solution.grid.len() as u32;
    let cols = solution.grid.first().map_or(0, |r| r.len()) as u32;
    let (w, h) = ((cols + 2) * cell, (rows + 2) * cell);
    let mut img = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
    let at = |r: i64, c: i64| -> Option<usize> {
        if r < 0 || c < 0 || r >= rows as i64 || c >= cols as i64 {
            None
        } else {
            solution.grid[r as usize][c as usize]
        }
    };
    let line = (cell / 10).max(1);
    let dark = Rgb([30, 30, 30]);
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let Some(p) = at(r, c) else { continue };
            let (x0, y0) = ((c as u32 + 1) * cell, (r as u32 + 1) * cell);
            for dy in 0..cell {
                for dx in 0..cell {
                    let border = (dx < line && at(r, c - 1) != Some(p))
                        || (dx >= cell - line && at(r, c + 1) != Some(p))
                        || (dy < line && at(r - 1, c) != Some(p))
                        || (dy >= cell - line && at(r + 1, c) != Some(p));
                    let px = if border { dark } else { colour(p) };
                    img.put_pixel(x0 + dx, y0 + dy, px);
                }
            }
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_contract() {
        assert_eq!(label(0), '1');
        assert_eq!(label(8), '9');
        assert_eq!(label(9), 'a');
        assert_eq!(label(34), 'z');
        assert_eq!(label(35), 'A');
        assert_eq!(label(60), 'Z');
    }

    #[test]
    fn png_colours_pieces_and_leaves_holes_white() {
        let s = Solution {
            grid: vec![vec![Some(0), Some(1)], vec![None, Some(1)]],
            positions: vec![],
        };
        assert_eq!(rows(&s), vec!["12".to_string(), ".2".to_string()]);
        let img = png(&s, 10);
        assert_eq!(img.dimensions(), (40, 40));
        assert_eq!(*img.get_pixel(15, 25), Rgb([255, 255, 255]));
        assert_ne!(img.get_pixel(15, 15), img.get_pixel(25, 15));
    }
}
