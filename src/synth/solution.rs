//! `solution.png`: the puzzle put together on the background, each cut drawn as a thin dark
//! seam (a pixel a cut crosses is darkened by how evenly it is shared).

use super::coverage::rasterize;
use super::Puzzle;
use image::RgbImage;

pub fn draw(puzzle: &Puzzle, background: [f32; 3]) -> RgbImage {
    let (w, h) = (puzzle.width as usize, puzzle.height as usize);
    let mut rgb: Vec<[f32; 3]> = vec![background; w * h];
    for outline in &puzzle.outlines {
        let cov = rasterize(outline);
        for ly in 0..cov.h {
            for lx in 0..cov.w {
                let (x, y) = (cov.x0 + lx as i64, cov.y0 + ly as i64);
                let c = cov.data[ly * cov.w + lx];
                if c <= 0.0 || x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
                    continue;
                }
                let face = puzzle.picture.sample(x as f64, y as f64);
                let seam = 1.0 - 2.4 * c * (1.0 - c);
                let p = &mut rgb[y as usize * w + x as usize];
                for k in 0..3 {
                    p[k] = p[k] * (1.0 - c) + face[k] * c * seam;
                }
            }
        }
    }
    let mut out = RgbImage::new(puzzle.width, puzzle.height);
    for (px, p) in out.pixels_mut().zip(&rgb) {
        for k in 0..3 {
            px[k] = p[k].round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}
