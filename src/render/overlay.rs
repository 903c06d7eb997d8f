//! `overlays/<image>.png`: the input image with every traced outline, its critical points, its
//! chainlet labels and its piece id, so a person sees at a glance whether a corner was missed
//! or a knob was cut. Everything is scaled to the image: a 4000 px photo gets thick lines and
//! big letters, a 100 px mask thin ones.

use crate::piece_set::{CriticalKind, Piece};
use font8x8::UnicodeFonts;
use image::{Rgb, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_hollow_circle_mut};
use imageproc::rect::Rect;

const OUTLINE: Rgb<u8> = Rgb([0, 230, 0]);
const CORNER: Rgb<u8> = Rgb([255, 30, 30]);
const INFLECTION: Rgb<u8> = Rgb([255, 200, 0]);
const LABEL: Rgb<u8> = Rgb([120, 220, 255]);
const WHITE: Rgb<u8> = Rgb([255, 255, 255]);
const BLACK: Rgb<u8> = Rgb([0, 0, 0]);

/// Stroke and letter sizes for an image of this size.
struct Scale {
    line: i32,
    text: i32,
    dot: i32,
    id_text: i32,
}

impl Scale {
    fn for_image(w: u32, h: u32) -> Scale {
        let big = w.max(h) as f64;
        Scale {
            line: (big / 1200.0).round().max(1.0) as i32,
            text: (big / 700.0).round().max(2.0) as i32,
            dot: (big / 250.0).round().max(3.0) as i32,
            id_text: 2 * (big / 700.0).round().max(2.0) as i32,
        }
    }

    /// The image's sizes, shrunk so marks and labels do not bury a small piece (a scan of 80 px
    /// pieces): a piece id at most half the piece's width, a chainlet label a third.
    fn within_piece(&self, piece_size: f64) -> Scale {
        let cap = |frac: f64| ((piece_size * frac / 8.0).floor() as i32).max(1);
        Scale {
            line: self.line.min(cap(0.1)),
            text: self.text.min(cap(0.15)),
            dot: self.dot.min(((piece_size / 25.0) as i32).max(2)),
            id_text: self.id_text.min(cap(0.2)),
        }
    }
}

/// The overlay of `pieces` (those of this image) on a copy of `image`. A pixel chain is drawn
/// pixel by pixel; a chain on a coarse grid or a magnified image ([`Piece::chain_unit`]) as
/// lines between its nodes.
pub fn draw_overlay(image: &RgbImage, pieces: &[&Piece]) -> RgbImage {
    let mut out = image.clone();
    let image_scale = Scale::for_image(image.width(), image.height());
    for piece in pieces {
        let s = image_scale.within_piece(piece.area.sqrt());
        let pts: Vec<[i32; 2]> = piece
            .chain_points_px()
            .iter()
            .map(|p| [p[0].round() as i32, p[1].round() as i32])
            .collect();
        for w in pts.windows(2) {
            if piece.chain_unit == 1.0 {
                square(&mut out, w[0][0], w[0][1], s.line, OUTLINE);
            } else {
                line(&mut out, w[0], w[1], s.line, OUTLINE);
            }
        }
        for cp in &piece.critical_points {
            let c = (cp.x.round() as i32, cp.y.round() as i32);
            match cp.kind {
                CriticalKind::Discontinuity => {
                    draw_filled_circle_mut(&mut out, c, s.dot + s.line, WHITE);
                    draw_filled_circle_mut(&mut out, c, s.dot, CORNER);
                }
                CriticalKind::Inflection | CriticalKind::Secondary => {
                    for r in 0..s.line.max(2) {
                        draw_hollow_circle_mut(&mut out, c, s.dot + r, INFLECTION);
                    }
                }
            }
        }
        let n = piece.chain.len();
        for chainlet in &piece.chainlets {
            if n == 0 {
                break;
            }
            let span = (chainlet.end + n - chainlet.start) % n;
            let span = if span == 0 { n } else { span };
            let mid = (chainlet.start + span / 2) % n;
            let (x, y) = outward(&pts, mid, (s.text * 8) as f64 * 1.2);
            let text = chainlet.label.rsplit('.').next().unwrap_or("");
            label(&mut out, x, y, text, s.text, LABEL);
        }
        let id = piece.id.to_string();
        label(
            &mut out,
            piece.centroid[0],
            piece.centroid[1],
            &id,
            s.id_text,
            WHITE,
        );
    }
    out
}

/// A point `dist` pixels outside the outline at chain index `i` (left of travel, since the
/// outline runs clockwise on screen).
fn outward(pts: &[[i32; 2]], i: usize, dist: f64) -> (f64, f64) {
    let n = pts.len().saturating_sub(1).max(1);
    let a = pts[(i + n - 5.min(n - 1)) % n];
    let b = pts[(i + 5) % n];
    let (dx, dy) = (f64::from(b[0] - a[0]), f64::from(b[1] - a[1]));
    let len = dx.hypot(dy).max(1e-9);
    let p = pts[i % n];
    // Left of travel on screen, y down: (dy, -dx).
    (
        f64::from(p[0]) + dist * dy / len,
        f64::from(p[1]) - dist * dx / len,
    )
}

/// A thick straight segment, as squares along it.
fn line(img: &mut RgbImage, a: [i32; 2], b: [i32; 2], width: i32, color: Rgb<u8>) {
    let steps = (b[0] - a[0]).abs().max((b[1] - a[1]).abs()).max(1);
    for k in 0..=steps {
        let x = a[0] + (b[0] - a[0]) * k / steps;
        let y = a[1] + (b[1] - a[1]) * k / steps;
        square(img, x, y, width, color);
    }
}

fn square(img: &mut RgbImage, x: i32, y: i32, size: i32, color: Rgb<u8>) {
    let half = size / 2;
    let r = Rect::at(x - half, y - half).of_size(size as u32, size as u32);
    draw_filled_rect_mut(img, r, color);
}

/// `text` in the 8×8 bitmap font, each font pixel `scale` pixels, centred on `(cx, cy)` on a
/// black box so it reads on any background.
pub fn label(img: &mut RgbImage, cx: f64, cy: f64, text: &str, scale: i32, color: Rgb<u8>) {
    let w = 8 * scale * text.chars().count() as i32;
    let h = 8 * scale;
    let x0 = cx.round() as i32 - w / 2;
    let y0 = cy.round() as i32 - h / 2;
    let pad = scale.max(1);
    let bg = Rect::at(x0 - pad, y0 - pad).of_size((w + 2 * pad) as u32, (h + 2 * pad) as u32);
    draw_filled_rect_mut(img, bg, BLACK);
    for (k, ch) in text.chars().enumerate() {
        let Some(glyph) = font8x8::BASIC_FONTS.get(ch) else {
            continue;
        };
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    let x = x0 + (k as i32 * 8 + col) * scale;
                    let y = y0 + row as i32 * scale;
                    let r = Rect::at(x, y).of_size(scale as u32, scale as u32);
                    draw_filled_rect_mut(img, r, color);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_draws_inside_its_box_and_clips_at_the_border() {
        let mut img = RgbImage::new(40, 20);
        label(&mut img, 20.0, 10.0, "1", 2, WHITE);
        assert!(img.pixels().any(|p| *p == WHITE));
        // Near the corner: clipped, no panic.
        label(&mut img, 0.0, 0.0, "12.3", 3, WHITE);
    }
}
