//! Pieces read from a photo: the paper's suggested extension ("the input can be obtained by
//! image processing ... by reading the pieces directly from a picture").
//!
//! The vision front end segments the picture into one mask per piece. A polyomino's outline is
//! made of straight sides in only two perpendicular directions, so each piece is read in three
//! steps, all from the edge pixels of its mask:
//! 1. **angle**: the gradient directions taken modulo 90° (averaged as `4θ` on the circle)
//!    give the piece's turn; how tightly they agree (the *straightness*) says whether the
//!    piece is made of squares at all (a disc scores near 0);
//! 2. **unit**: in each piece's own upright frame every side lies on a line `φ + k·u`; the
//!    unit `u` is the largest period for which the sides of all pieces agree in phase;
//! 3. **cells**: the mask is sampled on the fitted lattice (16 points per cell); the share of
//!    sample points that disagree with their cell's verdict is the piece's *residual*.
//!
//! The rotation from step 1 is proper (no mirror), so the matrices keep the pieces' handedness.

use super::photo_lattice::{fit_unit, phase_sum};
use super::piece::CellMatrix;
use crate::vision::{segment, PieceRegion, SegmentOptions};
use image::RgbImage;
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Least straightness (0-1) for a piece made of squares. Measured on synthetic scans: a disc
/// scores 0.04-0.13 (smaller discs higher), pentominoes 0.83-0.95 with 40-pixel squares but
/// only 0.37-0.83 with 8-pixel squares, whose rounded corners weigh more. The lattice
/// residual is the finer test; this one only turns away shapes with no two directions.
pub const MIN_STRAIGHTNESS: f64 = 0.3;
/// Least lattice fit (0-1) for the unit to be trusted.
pub const MIN_LATTICE_FIT: f64 = 0.6;
/// Most residual (share of sample points off their cell's verdict) for a piece to be read.
pub const MAX_RESIDUAL: f64 = 0.12;
/// Smallest unit square considered, pixels: below this the sides cannot be told apart.
pub const MIN_UNIT_PX: f64 = 4.0;

/// Tuning of [`read_pieces`].
#[derive(Clone, Debug, PartialEq)]
pub struct PhotoOptions {
    pub segment: SegmentOptions,
    /// Refuse pieces whose residual is above this (see [`MAX_RESIDUAL`]).
    pub max_residual: f64,
}

impl Default for PhotoOptions {
    fn default() -> Self {
        PhotoOptions {
            // Polyominoes of one set can differ in size many times over (a monomino beside a
            // dodecomino), so the front end's "speck" and "merged" size rules are relaxed here;
            // specks are judged against the unit square instead.
            segment: SegmentOptions {
                min_speck_fraction: 0.02,
                merged_factor: f64::INFINITY,
                ..SegmentOptions::default()
            },
            max_residual: MAX_RESIDUAL,
        }
    }
}

/// One piece as read, in the segmentation's reading order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhotoPiece {
    /// The piece's squares, trimmed, in its upright frame.
    pub cells: CellMatrix,
    /// `[x, y, w, h]` of the piece in the image, pixels.
    pub bbox: [u32; 4],
    /// The turn that brings the piece upright, degrees in (-45, 45].
    pub angle_degrees: f64,
    /// How well its edges agree on two perpendicular directions, 0-1.
    pub straightness: f64,
    /// Share of sample points that disagree with their cell's verdict, 0-1.
    pub residual: f64,
}

/// Everything read from one picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhotoReading {
    /// Side of the unit square, pixels.
    pub unit_px: f64,
    /// How well all pieces' sides agree with the unit, 0-1.
    pub lattice_fit: f64,
    /// How far segmentation moved every side outwards (negative: inwards), pixels.
    pub side_shift_px: f64,
    pub pieces: Vec<PhotoPiece>,
    /// Blobs smaller than half a unit square, ignored as dust.
    pub specks: usize,
    /// Blobs the segmentation rejected (cut by the image border, or tiny).
    pub rejected: usize,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PhotoError {
    #[error("no pieces found in the picture ({rejected} blobs rejected as clipped by the border or too small)")]
    NoPieces { rejected: usize },
    #[error("piece {piece} (at x={x}, y={y}) is not made of squares: its sides agree on two perpendicular directions only {straightness:.2} (at least {MIN_STRAIGHTNESS} needed)")]
    NotSquares {
        piece: usize,
        x: u32,
        y: u32,
        straightness: f64,
    },
    #[error("the pieces' sides do not fit a common square size (fit {fit:.2}, at least {MIN_LATTICE_FIT} needed)")]
    NoLattice { fit: f64 },
    #[error("piece {piece} (at x={x}, y={y}) does not fit the {unit:.1}-pixel square lattice: {residual:.2} of its sample points disagree (at most {limit} allowed)")]
    NotOnLattice {
        piece: usize,
        x: u32,
        y: u32,
        unit: f64,
        residual: f64,
        limit: f64,
    },
}

/// Reads the polyomino pieces in `img` (pieces apart from each other, on a plain background).
pub fn read_pieces(img: &RgbImage, opts: &PhotoOptions) -> Result<PhotoReading, PhotoError> {
    let seg = segment(img, &opts.segment);
    if seg.pieces.is_empty() {
        return Err(PhotoError::NoPieces {
            rejected: seg.rejected.len(),
        });
    }
    let mut frames = Vec::with_capacity(seg.pieces.len());
    for (i, region) in seg.pieces.iter().enumerate() {
        let frame = PieceFrame::measure(region);
        if frame.straightness < MIN_STRAIGHTNESS {
            return Err(PhotoError::NotSquares {
                piece: i + 1,
                x: region.bbox[0],
                y: region.bbox[1],
                straightness: frame.straightness,
            });
        }
        frames.push(frame);
    }
    let (unit, fit, side_shift_px) = fit_unit(&frames);
    if fit < MIN_LATTICE_FIT {
        return Err(PhotoError::NoLattice { fit });
    }
    let mut pieces = Vec::new();
    let mut specks = 0;
    for (i, (region, frame)) in seg.pieces.iter().zip(&frames).enumerate() {
        if (region.area as f64) < 0.5 * unit * unit {
            specks += 1;
            continue;
        }
        let (cells, residual) = frame.sample(region, unit);
        if residual > opts.max_residual || cells.count() == 0 {
            return Err(PhotoError::NotOnLattice {
                piece: i + 1,
                x: region.bbox[0],
                y: region.bbox[1],
                unit,
                residual,
                limit: opts.max_residual,
            });
        }
        pieces.push(PhotoPiece {
            cells,
            bbox: region.bbox,
            angle_degrees: frame.angle.to_degrees(),
            straightness: frame.straightness,
            residual,
        });
    }
    if pieces.is_empty() {
        return Err(PhotoError::NoPieces {
            rejected: seg.rejected.len() + specks,
        });
    }
    Ok(PhotoReading {
        unit_px: unit,
        lattice_fit: fit,
        side_shift_px,
        pieces,
        specks,
        rejected: seg.rejected.len(),
    })
}

/// The piece drawn as in the text format, one `mark` per square and `.` elsewhere.
pub fn drawing(cells: &CellMatrix, mark: char) -> String {
    let mut out = String::new();
    for r in 0..cells.rows {
        for c in 0..cells.cols {
            out.push(if cells.get(r, c) { mark } else { '.' });
        }
        out.push('\n');
    }
    out
}

/// A side sample: a position across the side, in the piece's upright frame, and its weight.
#[derive(Clone, Copy, Debug)]
pub(super) struct SideSample {
    pub(super) at: f64,
    pub(super) weight: f64,
}

/// One piece's upright frame: its turn and the edge samples across its sides, in the turned
/// coordinates, in four groups: vertical sides where the piece lies to the right (`x` rising)
/// and to the left, then horizontal sides below and above. Rising and falling sides are
/// kept apart because segmentation grows or shrinks a piece by a fraction of a pixel on
/// every side: that shifts each group's phase but not its period.
pub(super) struct PieceFrame {
    angle: f64,
    straightness: f64,
    pub(super) sides: [Vec<SideSample>; 4],
}

impl PieceFrame {
    fn measure(region: &PieceRegion) -> PieceFrame {
        let edges = edge_pixels(region);
        let (mut c4, mut s4, mut total) = (0.0, 0.0, 0.0);
        for e in &edges {
            c4 += e.weight * (4.0 * e.theta).cos();
            s4 += e.weight * (4.0 * e.theta).sin();
            total += e.weight;
        }
        let straightness = if total > 0.0 {
            c4.hypot(s4) / total
        } else {
            0.0
        };
        let angle = s4.atan2(c4) / 4.0;
        let (cos, sin) = (angle.cos(), angle.sin());
        let mut sides: [Vec<SideSample>; 4] = Default::default();
        for e in &edges {
            let turned = e.theta - angle;
            // Corner pixels point between the two directions: weigh them down.
            let weight = e.weight * (4.0 * turned).cos().max(0.0);
            if weight <= 0.0 {
                continue;
            }
            let (tc, ts) = (turned.cos(), turned.sin());
            let (group, at) = if tc.abs() >= ts.abs() {
                (usize::from(tc < 0.0), cos * e.x + sin * e.y)
            } else {
                (2 + usize::from(ts < 0.0), -sin * e.x + cos * e.y)
            };
            sides[group].push(SideSample { at, weight });
        }
        PieceFrame {
            angle,
            straightness,
            sides,
        }
    }

    /// The phase sums of the four side groups for period `u`, and their total weight.
    pub(super) fn phasors(&self, u: f64) -> ([(f64, f64); 4], f64) {
        let mut out = [(0.0, 0.0); 4];
        let mut total = 0.0;
        for (o, group) in out.iter_mut().zip(&self.sides) {
            let (sum, t) = phase_sum(group, u);
            *o = sum;
            total += t;
        }
        (out, total)
    }

    /// Samples the mask at 4×4 points per cell of the lattice of side `unit` aligned with this
    /// piece's sides; returns the trimmed cells and the residual.
    fn sample(&self, region: &PieceRegion, unit: f64) -> (CellMatrix, f64) {
        // The lattice lies midway between the rising and the falling sides' phases.
        let phase = |rising: &[SideSample], falling: &[SideSample]| {
            let ((c1, s1), _) = phase_sum(rising, unit);
            let ((c2, s2), _) = phase_sum(falling, unit);
            let (n1, n2) = (c1.hypot(s1).max(1e-12), c2.hypot(s2).max(1e-12));
            let (c, s) = (c1 / n1 + c2 / n2, s1 / n1 + s2 / n2);
            s.atan2(c) / (2.0 * PI) * unit
        };
        let (px, py) = (
            phase(&self.sides[0], &self.sides[1]),
            phase(&self.sides[2], &self.sides[3]),
        );
        let (cos, sin) = (self.angle.cos(), self.angle.sin());
        let (w, h) = region.mask.dimensions();
        let corners = [
            (0.0, 0.0),
            (w as f64, 0.0),
            (0.0, h as f64),
            (w as f64, h as f64),
        ];
        let turned: Vec<(f64, f64)> = corners
            .iter()
            .map(|&(x, y)| (cos * x + sin * y, -sin * x + cos * y))
            .collect();
        let span = |f: fn(&(f64, f64)) -> f64, p: f64| {
            let lo = turned.iter().map(f).fold(f64::INFINITY, f64::min);
            let hi = turned.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
            let first = ((lo - p) / unit).floor() as i64 - 1;
            let last = ((hi - p) / unit).ceil() as i64 + 1;
            (first, (last - first) as usize)
        };
        let (c0, cols) = span(|t| t.0, px);
        let (r0, rows) = span(|t| t.1, py);
        let inside = |x: f64, y: f64| {
            let (i, j) = (x.round(), y.round());
            i >= 0.0
                && j >= 0.0
                && (i as u32) < w
                && (j as u32) < h
                && region.mask.get_pixel(i as u32, j as u32)[0] > 127
        };
        let mut cells = vec![false; rows * cols];
        let mut disagree = 0usize;
        for r in 0..rows {
            for c in 0..cols {
                let cx = px + ((c0 + c as i64) as f64 + 0.5) * unit;
                let cy = py + ((r0 + r as i64) as f64 + 0.5) * unit;
                let mut on = 0;
                for a in 0..4 {
                    for b in 0..4 {
                        let u = cx + (a as f64 - 1.5) * unit / 4.0;
                        let v = cy + (b as f64 - 1.5) * unit / 4.0;
                        on += inside(cos * u - sin * v, sin * u + cos * v) as usize;
                    }
                }
                cells[r * cols + c] = on >= 8;
                disagree += on.min(16 - on);
            }
        }
        let matrix = CellMatrix { rows, cols, cells };
        let count = matrix.count();
        let residual = if count == 0 {
            1.0
        } else {
            disagree as f64 / (16 * count) as f64
        };
        (matrix.trimmed().1, residual)
    }
}

/// An edge pixel of a mask: position (mask pixel coordinates), gradient direction and
/// strength.
struct EdgePixel {
    x: f64,
    y: f64,
    theta: f64,
    weight: f64,
}

/// Edge pixels of the mask, from the gradient of the mask smoothed by two 3×3 box filters
/// (close to a Gaussian of σ ≈ 1.2), so that the staircase of a slanted side reads as one
/// straight direction.
fn edge_pixels(region: &PieceRegion) -> Vec<EdgePixel> {
    const PAD: usize = 3;
    let (w, h) = region.mask.dimensions();
    let (w, h) = (w as usize + 2 * PAD, h as usize + 2 * PAD);
    let mut v = vec![0f32; w * h];
    for (x, y, p) in region.mask.enumerate_pixels() {
        v[(y as usize + PAD) * w + x as usize + PAD] = p[0] as f32 / 255.0;
    }
    let v = box3(&box3(&v, w, h), w, h);
    let mut out = Vec::new();
    let mut strongest = 0f32;
    let mut grads = Vec::with_capacity(w * h);
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let gx = (v[y * w + x + 1] - v[y * w + x - 1]) / 2.0;
            let gy = (v[(y + 1) * w + x] - v[(y - 1) * w + x]) / 2.0;
            let m = gx.hypot(gy);
            strongest = strongest.max(m);
            grads.push((x, y, gx, gy, m));
        }
    }
    for (x, y, gx, gy, m) in grads {
        if m > 0.25 * strongest {
            out.push(EdgePixel {
                x: x as f64 - PAD as f64,
                y: y as f64 - PAD as f64,
                theta: (gy as f64).atan2(gx as f64),
                weight: m as f64,
            });
        }
    }
    out
}

fn box3(v: &[f32], w: usize, h: usize) -> Vec<f32> {
    let mut out = vec![0f32; w * h];
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let mut s = 0.0;
            for dy in 0..3 {
                for dx in 0..3 {
                    s += v[(y + dy - 1) * w + x + dx - 1];
                }
            }
            out[y * w + x] = s / 9.0;
        }
    }
    out
}
