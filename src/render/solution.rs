//! The solution picture: every placed piece cut out of its own photo and moved into place by
//! its transform, so the result looks like the real puzzle, not a diagram of it.

use crate::assembly::{Assembly, PlacedPiece};
use crate::piece_set::PieceSet;
use image::{GrayImage, Luma, Rgb, RgbImage};
use imageproc::drawing::draw_polygon_mut;
use imageproc::point::Point;
use nalgebra::{Matrix3, Point2};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// How to draw the solution.
#[derive(Clone, Debug)]
pub struct SolutionStyle {
    /// Longest side of the picture in pixels; the assembly is scaled down to fit.
    pub max_side: u32,
    pub background: Rgb<u8>,
}

impl Default for SolutionStyle {
    fn default() -> Self {
        SolutionStyle {
            max_side: 4000,
            background: Rgb([40, 40, 40]),
        }
    }
}

/// Renders `assembly` from the pieces' source images, which `load` provides by path. The
/// images are loaded and their pieces resampled in parallel (white-1000 has 1001 source
/// images: 10 s one after another); the pixels are then put in image order, so the picture
/// does not depend on the thread count.
pub fn render_solution(
    set: &PieceSet,
    assembly: &Assembly,
    load: impl Fn(&str) -> anyhow::Result<RgbImage> + Sync,
    style: &SolutionStyle,
) -> anyhow::Result<RgbImage> {
    let frame = Frame::fit(set, assembly, style.max_side);
    let mut out = RgbImage::from_pixel(frame.width, frame.height, style.background);
    let mut by_image: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, placed) in assembly.pieces.iter().enumerate() {
        by_image.entry(placed.image.as_str()).or_default().push(i);
    }
    let drawn: Vec<anyhow::Result<Vec<Drawn>>> = by_image
        .into_par_iter()
        .map(|(path, placed_ids)| {
            let source = load(path)?;
            Ok(placed_ids
                .into_iter()
                .flat_map(|i| piece_pixels(set, &assembly.pieces[i], &source, &frame))
                .collect())
        })
        .collect();
    for pixels in drawn {
        for (u, v, colour) in pixels? {
            out.put_pixel(u, v, colour);
        }
    }
    Ok(out)
}

/// A pixel of the picture and its colour.
type Drawn = (u32, u32, Rgb<u8>);

/// The frame pixels `placed` covers, each with its colour resampled from `source`.
fn piece_pixels(
    set: &PieceSet,
    placed: &PlacedPiece,
    source: &RgbImage,
    frame: &Frame,
) -> Vec<Drawn> {
    let mut pixels = Vec::new();
    let Some(piece) = set.piece(placed.id) else {
        return pixels;
    };
    let mask = piece_mask(piece);
    let to_frame = frame.scale_matrix() * placement(placed);
    let Some(from_frame) = to_frame.try_inverse() else {
        return pixels;
    };
    let [bx, by, bw, bh] = piece.bbox;
    let corners = [(bx, by), (bx + bw, by), (bx, by + bh), (bx + bw, by + bh)]
        .map(|(x, y)| to_frame.transform_point(&Point2::new(x as f64, y as f64)));
    let (x0, x1, y0, y1) = corners.iter().fold(
        (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
        |(a, b, c, d), p| (a.min(p.x), b.max(p.x), c.min(p.y), d.max(p.y)),
    );
    for v in (y0.floor().max(0.0) as u32)..(y1.ceil().min(frame.height as f64) as u32) {
        for u in (x0.floor().max(0.0) as u32)..(x1.ceil().min(frame.width as f64) as u32) {
            let s = from_frame.transform_point(&Point2::new(u as f64 + 0.5, v as f64 + 0.5));
            let (mx, my) = (
                s.x.floor() as i64 - bx as i64,
                s.y.floor() as i64 - by as i64,
            );
            if mx < 0 || my < 0 || mx >= bw as i64 || my >= bh as i64 {
                continue;
            }
            if mask.get_pixel(mx as u32, my as u32)[0] == 0 {
                continue;
            }
            pixels.push((u, v, bilinear(source, s.x - 0.5, s.y - 0.5)));
        }
    }
    pixels
}

/// The assembly as a diagram: each placed outline in its place, numbered by the order in
/// which it was placed (the paper's pictorial output), for checking the solver's reasoning.
pub fn render_outlines(set: &PieceSet, assembly: &Assembly, style: &SolutionStyle) -> RgbImage {
    let frame = Frame::fit(set, assembly, style.max_side);
    let mut out = RgbImage::from_pixel(frame.width, frame.height, Rgb([250, 250, 250]));
    let text_scale = ((frame.width.max(frame.height) / 600) as i32).max(1);
    for placed in &assembly.pieces {
        let Some(piece) = set.piece(placed.id) else {
            continue;
        };
        let m = frame.scale_matrix() * placement(placed);
        let pts: Vec<Point2<f64>> = piece
            .chain_points_px()
            .iter()
            .map(|p| m.transform_point(&Point2::new(p[0], p[1])))
            .collect();
        for w in pts.windows(2) {
            imageproc::drawing::draw_line_segment_mut(
                &mut out,
                (w[0].x as f32, w[0].y as f32),
                (w[1].x as f32, w[1].y as f32),
                Rgb([30, 30, 30]),
            );
        }
        let c = m.transform_point(&Point2::new(piece.centroid[0], piece.centroid[1]));
        super::label(
            &mut out,
            c.x,
            c.y,
            &placed.sequence.to_string(),
            text_scale,
            Rgb([255, 255, 255]),
        );
    }
    out
}

/// The piece's region in its source image, from its traced outline, cut to its bounding box.
fn piece_mask(piece: &crate::piece_set::Piece) -> GrayImage {
    let [bx, by, bw, bh] = piece.bbox;
    let mut mask = GrayImage::new(bw.max(1), bh.max(1));
    let mut pts: Vec<Point<i32>> = piece
        .chain_points_px()
        .iter()
        .map(|p| {
            Point::new(
                p[0].round() as i32 - bx as i32,
                p[1].round() as i32 - by as i32,
            )
        })
        .collect();
    pts.dedup();
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    if pts.len() >= 3 {
        draw_polygon_mut(&mut mask, &pts, Luma([255]));
    }
    mask
}

/// Source-image pixels → assembled frame: the piece's scale about its centroid (photos
/// brought to one zoom), then its rigid transform.
fn placement(placed: &PlacedPiece) -> Matrix3<f64> {
    let [cx, cy] = placed.centroid;
    let k = placed.scale;
    let about_centroid = Matrix3::new(
        k,
        0.0,
        cx * (1.0 - k),
        0.0,
        k,
        cy * (1.0 - k),
        0.0,
        0.0,
        1.0,
    );
    affine(&placed.transform) * about_centroid
}

fn affine(t: &[[f64; 3]; 2]) -> Matrix3<f64> {
    Matrix3::new(
        t[0][0], t[0][1], t[0][2], t[1][0], t[1][1], t[1][2], 0.0, 0.0, 1.0,
    )
}

fn bilinear(img: &RgbImage, x: f64, y: f64) -> Rgb<u8> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let px = |xx: i64, yy: i64| {
        img.get_pixel(xx.clamp(0, w - 1) as u32, yy.clamp(0, h - 1) as u32)
            .0
    };
    let (a, b, c, d) = (
        px(x0, y0),
        px(x0 + 1, y0),
        px(x0, y0 + 1),
        px(x0 + 1, y0 + 1),
    );
    Rgb(std::array::from_fn(|k| {
        let top = a[k] as f64 * (1.0 - fx) + b[k] as f64 * fx;
        let bottom = c[k] as f64 * (1.0 - fx) + d[k] as f64 * fx;
        (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8
    }))
}

/// The assembled frame's extent and the scale that fits it into the picture.
struct Frame {
    min: (f64, f64),
    scale: f64,
    width: u32,
    height: u32,
}

impl Frame {
    fn fit(set: &PieceSet, assembly: &Assembly, max_side: u32) -> Frame {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for placed in &assembly.pieces {
            let Some(piece) = set.piece(placed.id) else {
                continue;
            };
            let m = placement(placed);
            for p in piece.polygon.iter().chain(std::iter::once(&piece.centroid)) {
                let q = m.transform_point(&Point2::new(p[0], p[1]));
                (x0, y0, x1, y1) = (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y));
            }
        }
        if x0 > x1 {
            return Frame {
                min: (0.0, 0.0),
                scale: 1.0,
                width: 1,
                height: 1,
            };
        }
        let margin = 0.02 * (x1 - x0).max(y1 - y0) + 4.0;
        let (w, h) = (x1 - x0 + 2.0 * margin, y1 - y0 + 2.0 * margin);
        let scale = (max_side as f64 / w.max(h)).min(1.0);
        Frame {
            min: (x0 - margin, y0 - margin),
            scale,
            width: ((w * scale).ceil() as u32).max(1),
            height: ((h * scale).ceil() as u32).max(1),
        }
    }

    fn scale_matrix(&self) -> Matrix3<f64> {
        Matrix3::new(
            self.scale,
            0.0,
            -self.min.0 * self.scale,
            0.0,
            self.scale,
            -self.min.1 * self.scale,
            0.0,
            0.0,
            1.0,
        )
    }
}
