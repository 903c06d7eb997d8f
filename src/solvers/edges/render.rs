//! Drawing a solved board: the `tile:rotation` grid, text art in the manner of the Arc
//! article's pretty-printer, and a picture with each edge's symbol.

use super::puzzle::{rotated, Puzzle, Solution, BOTTOM, LEFT, RIGHT, TOP};
use image::{Rgb, RgbImage};

/// The board as rows of `tile:rot` (tile 1-based), aligned in columns.
pub fn grid_text(s: &Solution) -> String {
    let labels: Vec<String> = s
        .cells
        .iter()
        .map(|p| format!("{}:{}", p.tile + 1, p.rot))
        .collect();
    let w = labels.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..s.rows {
        let row: Vec<String> = (0..s.cols)
            .map(|c| format!("{:>w$}", labels[r * s.cols + c]))
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// Each tile as a box with its four symbols and its `tile:rot` label in the middle.
pub fn board_art(p: &Puzzle, s: &Solution) -> String {
    let mut out = String::new();
    for r in 0..s.rows {
        let mut lines = vec![String::new(); 5];
        for c in 0..s.cols {
            let pl = s.cells[r * s.cols + c];
            let e = rotated(&p.tiles[pl.tile], pl.rot);
            let label = format!("{}:{}", pl.tile + 1, pl.rot);
            lines[0].push_str("+-------------+");
            lines[1].push_str(&format!("|{:^13}|", e[TOP]));
            lines[2].push_str(&format!("|{:<4}{:^5}{:>4}|", e[LEFT], label, e[RIGHT]));
            lines[3].push_str(&format!("|{:^13}|", e[BOTTOM]));
            lines[4].push_str("+-------------+");
        }
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// Pixels per tile side in [`board_png`].
pub const TILE_PX: u32 = 96;

/// A picture of the board: every tile cut into four triangles coloured by symbol (partners
/// share a hue; the negative of a complementary pair is drawn lighter), with the symbol
/// written near each edge and the tile label in the middle.
pub fn board_png(p: &Puzzle, s: &Solution) -> RgbImage {
    let (w, h) = (s.cols as u32 * TILE_PX, s.rows as u32 * TILE_PX);
    let mut img = RgbImage::from_pixel(w.max(1), h.max(1), Rgb([255, 255, 255]));
    for (i, pl) in s.cells.iter().enumerate() {
        let (r, c) = ((i / s.cols) as u32, (i % s.cols) as u32);
        let (x0, y0) = (c * TILE_PX, r * TILE_PX);
        let e = rotated(&p.tiles[pl.tile], pl.rot);
        let half = TILE_PX as i32 / 2;
        for y in 0..TILE_PX {
            for x in 0..TILE_PX {
                let (dx, dy) = (x as i32 - half, y as i32 - half);
                let side = if dy <= -dx.abs() {
                    TOP
                } else if dy >= dx.abs() {
                    BOTTOM
                } else if dx > 0 {
                    RIGHT
                } else {
                    LEFT
                };
                let edge_line = x == 0 || y == 0 || x + 1 == TILE_PX || y + 1 == TILE_PX;
                let diagonal = dx.abs() == dy.abs();
                let colour = if edge_line {
                    Rgb([0, 0, 0])
                } else if diagonal {
                    Rgb([90, 90, 90])
                } else {
                    symbol_colour(e[side], p.border)
                };
                img.put_pixel(x0 + x, y0 + y, colour);
            }
        }
        let mid = TILE_PX / 2;
        let label = |v: i32| v.to_string();
        draw_text(&mut img, x0 + mid, y0 + 12, &label(e[TOP]), 2);
        draw_text(&mut img, x0 + mid, y0 + TILE_PX - 12, &label(e[BOTTOM]), 2);
        // Side labels hug their edge so they never reach the tile number in the middle.
        let (l, r) = (label(e[LEFT]), label(e[RIGHT]));
        let half_width = |t: &str| 8 * t.chars().count() as u32;
        draw_text(&mut img, x0 + 3 + half_width(&l), y0 + mid, &l, 2);
        draw_text(&mut img, x0 + TILE_PX - 3 - half_width(&r), y0 + mid, &r, 2);
        draw_text(&mut img, x0 + mid, y0 + mid, &format!("{}", pl.tile + 1), 1);
    }
    img
}

/// A stable, readable colour per symbol.
fn symbol_colour(s: i32, border: Option<i32>) -> Rgb<u8> {
    if Some(s) == border {
        return Rgb([170, 170, 170]);
    }
    const PALETTE: [[u8; 3]; 12] = [
        [220, 60, 60],
        [60, 140, 220],
        [70, 180, 80],
        [230, 170, 40],
        [150, 80, 200],
        [40, 190, 190],
        [230, 110, 180],
        [140, 110, 60],
        [120, 160, 40],
        [60, 70, 160],
        [200, 120, 80],
        [100, 100, 100],
    ];
    let base = PALETTE[(s.unsigned_abs() as usize) % PALETTE.len()];
    let k = (s.unsigned_abs() as usize / PALETTE.len()) as u8;
    let mut rgb = base.map(|v| v.saturating_sub(k.saturating_mul(35)));
    if s < 0 {
        rgb = rgb.map(|v| v + (255 - v) / 2);
    }
    Rgb(rgb)
}

/// Writes `text` centred at (cx, cy) in the 8×8 bitmap font, scaled.
fn draw_text(img: &mut RgbImage, cx: u32, cy: u32, text: &str, scale: u32) {
    let glyph_w = 8 * scale;
    let total = glyph_w * text.chars().count() as u32;
    let left = cx as i64 - total as i64 / 2;
    let top = cy as i64 - (4 * scale) as i64;
    for (k, ch) in text.chars().enumerate() {
        let code = ch as usize;
        if code >= font8x8::legacy::BASIC_LEGACY.len() {
            continue;
        }
        let glyph = font8x8::legacy::BASIC_LEGACY[code];
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) == 0 {
                    continue;
                }
                for sy in 0..scale {
                    for sx in 0..scale {
                        let x = left + (k as u32 * glyph_w + col * scale + sx) as i64;
                        let y = top + (row as u32 * scale + sy) as i64;
                        if x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height()
                        {
                            img.put_pixel(x as u32, y as u32, Rgb([0, 0, 0]));
                        }
                    }
                }
            }
        }
    }
}
