//! Pictures of a solution: SVG text and an RGB image, pieces coloured and numbered (with their
//! 0-based input index) inside the target.

use super::geometry::{signed_area, Pt};
use super::Solution;
use font8x8::UnicodeFonts;
use image::{Rgb, RgbImage};

const PALETTE: [[u8; 3]; 14] = [
    [230, 25, 75],
    [60, 180, 75],
    [255, 225, 25],
    [0, 130, 200],
    [245, 130, 48],
    [145, 30, 180],
    [70, 240, 240],
    [240, 50, 230],
    [210, 245, 60],
    [250, 190, 212],
    [0, 128, 128],
    [220, 190, 255],
    [170, 110, 40],
    [128, 128, 0],
];

/// Maps puzzle coordinates (y up) to picture coordinates (y down) with a margin.
struct Frame {
    min: Pt,
    max_y: f64,
    scale: f64,
    margin: f64,
    width: u32,
    height: u32,
}

impl Frame {
    fn new(target: &[Vec<Pt>], longest_side_px: f64) -> Frame {
        let pts = target.iter().flatten();
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in pts {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let span = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(1e-9);
        let scale = longest_side_px / span;
        let margin = 16.0;
        Frame {
            min: lo,
            max_y: hi[1],
            scale,
            margin,
            width: ((hi[0] - lo[0]) * scale + 2.0 * margin).ceil().max(1.0) as u32,
            height: ((hi[1] - lo[1]) * scale + 2.0 * margin).ceil().max(1.0) as u32,
        }
    }

    fn map(&self, p: Pt) -> Pt {
        [
            (p[0] - self.min[0]) * self.scale + self.margin,
            (self.max_y - p[1]) * self.scale + self.margin,
        ]
    }
}

/// The area centroid, where the label goes.
fn centroid(poly: &[Pt]) -> Pt {
    let a = signed_area(poly);
    if a.abs() < 1e-300 {
        return poly[0];
    }
    let (mut cx, mut cy) = (0.0, 0.0);
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let c = p[0] * q[1] - q[0] * p[1];
        cx += (p[0] + q[0]) * c;
        cy += (p[1] + q[1]) * c;
    }
    [cx / (6.0 * a), cy / (6.0 * a)]
}

fn colour(piece: usize) -> [u8; 3] {
    PALETTE[piece % PALETTE.len()]
}

/// The solution as an SVG document.
pub fn svg(target: &[Vec<Pt>], solution: &Solution) -> String {
    let f = Frame::new(target, 480.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        f.width, f.height, f.width, f.height
    );
    let path = |poly: &[Pt]| -> String {
        poly.iter()
            .map(|&p| {
                let q = f.map(p);
                format!("{:.2},{:.2}", q[0], q[1])
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    for t in target {
        s += &format!(
            "<polygon points=\"{}\" fill=\"#eeeeee\" stroke=\"#333333\" stroke-width=\"2\"/>\n",
            path(t)
        );
    }
    for pl in &solution.placements {
        let [r, g, b] = colour(pl.piece);
        s += &format!(
            "<polygon points=\"{}\" fill=\"rgb({r},{g},{b})\" stroke=\"#222222\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>\n",
            path(&pl.vertices)
        );
    }
    for pl in &solution.placements {
        let c = f.map(centroid(&pl.vertices));
        s += &format!(
            "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"sans-serif\" font-size=\"16\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>\n",
            c[0], c[1], pl.piece
        );
    }
    s += "</svg>\n";
    s
}

/// Fills one polygon: the pixels whose centres it holds.
fn fill(img: &mut RgbImage, poly: &[Pt], colour: [u8; 3]) {
    let ys = poly.iter().map(|p| p[1]);
    let y0 = ys.clone().fold(f64::INFINITY, f64::min).floor().max(0.0) as u32;
    let y1 = (ys.fold(f64::NEG_INFINITY, f64::max).ceil().max(0.0) as u32).min(img.height());
    for y in y0..y1 {
        for span in crate::plane::row_spans(poly, y, 0..img.width()) {
            for x in span {
                img.put_pixel(x, y, Rgb(colour));
            }
        }
    }
}

fn outline(img: &mut RgbImage, poly: &[Pt], colour: [u8; 3]) {
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        imageproc::drawing::draw_line_segment_mut(
            img,
            (a[0] as f32, a[1] as f32),
            (b[0] as f32, b[1] as f32),
            Rgb(colour),
        );
    }
}

/// Draws `text` centred on `at` with the 8×8 bitmap font, doubled.
fn label(img: &mut RgbImage, text: &str, at: Pt) {
    let k = 2i64;
    let width = text.chars().count() as i64 * 8 * k;
    let x0 = at[0] as i64 - width / 2;
    let y0 = at[1] as i64 - 4 * k;
    for (ci, ch) in text.chars().enumerate() {
        let Some(rows) = font8x8::BASIC_FONTS.get(ch) else {
            continue;
        };
        for (ry, row) in rows.iter().enumerate() {
            for bit in 0..8 {
                if row & (1 << bit) == 0 {
                    continue;
                }
                for dy in 0..k {
                    for dx in 0..k {
                        let x = x0 + (ci as i64 * 8 + bit) * k + dx;
                        let y = y0 + ry as i64 * k + dy;
                        if x >= 0 && y >= 0 && x < img.width() as i64 && y < img.height() as i64 {
                            img.put_pixel(x as u32, y as u32, Rgb([0, 0, 0]));
                        }
                    }
                }
            }
        }
    }
}

/// The solution as an image.
pub fn raster(target: &[Vec<Pt>], solution: &Solution) -> RgbImage {
    let f = Frame::new(target, 480.0);
    let mut img = RgbImage::from_pixel(f.width, f.height, Rgb([255, 255, 255]));
    let mapped = |poly: &[Pt]| -> Vec<Pt> { poly.iter().map(|&p| f.map(p)).collect() };
    for t in target {
        fill(&mut img, &mapped(t), [238, 238, 238]);
    }
    for pl in &solution.placements {
        fill(&mut img, &mapped(&pl.vertices), colour(pl.piece));
    }
    for pl in &solution.placements {
        outline(&mut img, &mapped(&pl.vertices), [34, 34, 34]);
    }
    for t in target {
        outline(&mut img, &mapped(t), [51, 51, 51]);
    }
    for pl in &solution.placements {
        label(
            &mut img,
            &pl.piece.to_string(),
            f.map(centroid(&pl.vertices)),
        );
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::polygon::Placement;

    fn two_halves() -> (Vec<Vec<Pt>>, Solution) {
        let target = vec![vec![[0., 0.], [2., 0.], [2., 1.], [0., 1.]]];
        let half = |x: f64, piece| Placement {
            piece,
            mirror: false,
            vertices: vec![[x, 0.], [x + 1., 0.], [x + 1., 1.], [x, 1.]],
            rotation: 0.0,
            translation: [x, 0.],
        };
        let sol = Solution {
            placements: vec![half(0., 0), half(1., 1)],
        };
        (target, sol)
    }

    #[test]
    fn svg_has_the_target_each_piece_and_its_number() {
        let (t, s) = two_halves();
        let svg = svg(&t, &s);
        assert_eq!(svg.matches("<polygon").count(), 3);
        assert!(svg.contains(">0</text>") && svg.contains(">1</text>"));
    }

    #[test]
    fn raster_paints_each_piece_in_its_colour() {
        let (t, s) = two_halves();
        let img = raster(&t, &s);
        assert_eq!((img.width(), img.height()), (480 + 32, 240 + 32));
        // Quarter points of each half (away from the label in the middle).
        assert_eq!(img.get_pixel(16 + 60, 16 + 60).0, colour(0));
        assert_eq!(img.get_pixel(16 + 240 + 180, 16 + 180).0, colour(1));
        assert_eq!(img.get_pixel(4, 4).0, [255, 255, 255]);
    }
}
