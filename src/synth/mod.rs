//! Synthetic puzzles with known answers, rendered as a scanner or a phone would see them.
//!
//! [`generate`] builds a cut network (classic, irregular or polygonal), paints a picture over
//! it, scatters the pieces over images and renders them; [`write`] stores the images,
//! `truth.json` ([`truth::Truth`]) and `solution.png`. Everything is a pure function of
//! [`Params`]: same arguments, byte-identical files.

pub mod classic;
pub mod coverage;
pub mod curves;
pub mod geometry;
pub mod irregular;
pub mod network;
pub mod picture;
pub mod polygonal;
pub mod random;
pub mod raster;
mod record;
pub mod scatter;
mod solution;
mod store;
pub mod truth;
pub mod truth_masks;

pub use raster::Style;
pub use store::write;

use geometry::{add, Affine, Pt};
use network::Network;
use picture::Picture;
use random::{mix, Random};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use truth::{PieceTruth, Truth};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Grid of four-sided pieces with knobs.
    Classic,
    /// Irregular tessellation with wavy cuts and junctions of radiality 3, 4, 5.
    Irregular,
    /// Straight-line dissection of a polygon.
    Polygonal,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub kind: Kind,
    pub pieces: usize,
    pub seed: u64,
    pub style: Style,
    /// Nominal piece size in pixels.
    pub px_per_piece: f64,
    pub missing: usize,
    pub extra: usize,
    /// Polygonal pieces may lie face down.
    pub flip: bool,
    /// At most this many pieces per image.
    pub per_image: usize,
}

/// `jigsaw synth`'s piece size when none is given: the smallest at which `jigsaw solve` solves
/// photographed irregular puzzles. At 80 px a photographed irregular outline is too coarse for
/// its corners and matings (irregular 100 photos seeds 1–3: 93.5, 94.7 and 74.1 % of
/// neighbours, the last after 350 s; at 120 px each is 100 % in a few seconds). Classic cuts
/// and scans solve at 80 px as well.
pub const CLI_PX_PER_PIECE: f64 = 120.0;

impl Params {
    /// Parameters at 80 px per piece, smaller and quicker to render than the CLI's default
    /// ([`CLI_PX_PER_PIECE`]): the size the tests of the front end and of the solvers were
    /// written and measured at.
    pub fn new(kind: Kind, pieces: usize, seed: u64) -> Params {
        Params {
            kind,
            pieces,
            seed,
            style: Style::Scan,
            px_per_piece: 80.0,
            missing: 0,
            extra: 0,
            flip: true,
            per_image: 40,
        }
    }
}

/// Limits that keep a typo from filling the disk or the memory.
pub const MAX_PIECES: usize = 20_000;
pub const MAX_PIXELS: f64 = 2.0e9;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SynthError {
    #[error("--pieces must be between 1 and {MAX_PIECES} (got {0})")]
    Pieces(usize),
    #[error("--px-per-piece must be between 16 and 2000 (got {0})")]
    PieceSize(f64),
    #[error("--missing {0} leaves no piece of the {1}")]
    Missing(usize, usize),
    #[error("--extra must be at most {MAX_PIECES} (got {0})")]
    Extra(usize),
    #[error("--per-image must be at least 1")]
    PerImage,
    #[error("the puzzle would need about {0:.1e} pixels, over the limit of {MAX_PIXELS:.0e}: use fewer pieces or a smaller --px-per-piece")]
    TooManyPixels(f64),
    #[error("cannot encode an image: {0}")]
    Encode(String),
    #[error("could not build a valid {0:?} tiling of {1} pieces after {2} attempts")]
    Tiling(Kind, usize, usize),
}

/// A generated puzzle before rendering: its cuts, outlines and picture.
pub struct Puzzle {
    pub network: Network,
    /// Per piece, outline in the assembled frame.
    pub outlines: Vec<Vec<Pt>>,
    pub size: f64,
    pub grid: Option<[usize; 2]>,
    pub width: u32,
    pub height: u32,
    pub picture: Picture,
}

/// One finished image file.
pub struct EncodedImage {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Anti-aliased piece coverage, for tests and inspection (`--masks`).
    pub mask: image::GrayImage,
}

pub struct Output {
    pub truth: Truth,
    pub images: Vec<EncodedImage>,
    pub solution: image::RgbImage,
}

/// The images go in their own folder, so `jigsaw trace DIR/images` sees only them (not
/// `solution.png`).
pub const IMAGES: &str = "images";

const BACKGROUNDS: [[u8; 3]; 5] = [
    [24, 24, 28],    // black felt
    [236, 236, 230], // white paper
    [38, 96, 60],    // green mat
    [44, 70, 128],   // blue cloth
    [150, 40, 44],   // red board
];

pub fn validate(p: &Params) -> Result<(), SynthError> {
    if p.pieces == 0 || p.pieces > MAX_PIECES {
        return Err(SynthError::Pieces(p.pieces));
    }
    if !(16.0..=2000.0).contains(&p.px_per_piece) {
        return Err(SynthError::PieceSize(p.px_per_piece));
    }
    if p.missing >= p.pieces {
        return Err(SynthError::Missing(p.missing, p.pieces));
    }
    if p.extra > MAX_PIECES {
        return Err(SynthError::Extra(p.extra));
    }
    if p.per_image == 0 {
        return Err(SynthError::PerImage);
    }
    // Picture, plus scattered images at about five times the pieces' area.
    let need = (p.pieces + p.extra) as f64 * p.px_per_piece * p.px_per_piece * 8.0;
    if need > MAX_PIXELS {
        return Err(SynthError::TooManyPixels(need));
    }
    Ok(())
}

/// Builds the cuts of a puzzle and paints its picture. Irregular and polygonal tilings are
/// random constructions that can (rarely) come out invalid; they are rebuilt from a derived
/// seed, deterministically.
pub fn build_puzzle(
    kind: Kind,
    pieces: usize,
    size: f64,
    seed: u64,
    background: [f32; 3],
) -> Result<Puzzle, SynthError> {
    const ATTEMPTS: usize = 12;
    for attempt in 0..ATTEMPTS {
        let s = if attempt == 0 {
            seed
        } else {
            mix(seed, 1000 + attempt as u64)
        };
        let (built, grid) = match kind {
            Kind::Classic => {
                let (r, c) = classic::grid_shape(pieces);
                (classic::build(r, c, size, s), Some([r, c]))
            }
            Kind::Irregular => (irregular::build(pieces, size, s), None),
            Kind::Polygonal => (polygonal::build(pieces, size, s), None),
        };
        let Ok(mut network) = built else { continue };
        let radius = if kind == Kind::Polygonal {
            0.0
        } else {
            0.01 * size
        };
        // Put the puzzle at a margin from the assembled frame's origin.
        let all: Vec<Pt> = network
            .edges
            .iter()
            .flat_map(|e| e.points.iter().copied())
            .collect();
        let b = geometry::bounds(&all);
        let margin = (0.25 * size).ceil() + 2.0;
        let shift = [margin - b[0].floor(), margin - b[1].floor()];
        for v in &mut network.vertices {
            *v = add(*v, shift);
        }
        for e in &mut network.edges {
            for p in &mut e.points {
                *p = add(*p, shift);
            }
        }
        let outlines: Vec<Vec<Pt>> = (0..network.faces.len())
            .map(|f| network.outline(f, radius))
            .collect();
        if kind != Kind::Classic && !outlines.iter().all(|o| irregular::is_simple(o)) {
            continue;
        }
        let width = (b[2] - b[0]).ceil() as u32 + 2 * margin as u32 + 1;
        let height = (b[3] - b[1]).ceil() as u32 + 2 * margin as u32 + 1;
        let picture = Picture::paint(width, height, size, background, seed);
        return Ok(Puzzle {
            network,
            outlines,
            size,
            grid,
            width,
            height,
            picture,
        });
    }
    Err(SynthError::Tiling(kind, pieces, ATTEMPTS))
}

/// Generates the whole puzzle: cuts, picture, scattered images, truth, solution picture.
pub fn generate(p: &Params) -> Result<Output, SynthError> {
    validate(p)?;
    let mut rng = Random::new(p.seed, 1);
    let bg_u8 = BACKGROUNDS[rng.below(BACKGROUNDS.len())];
    let background = bg_u8.map(f32::from);
    let puzzle = build_puzzle(p.kind, p.pieces, p.px_per_piece, p.seed, background)?;
    let n = puzzle.outlines.len();
    let other = if p.extra > 0 {
        Some(build_puzzle(
            p.kind,
            p.pieces.max(p.extra),
            p.px_per_piece,
            mix(p.seed, 0xE47A),
            background,
        )?)
    } else {
        None
    };
    let mut missing: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut missing);
    missing.truncate(p.missing.min(n.saturating_sub(1)));
    missing.sort_unstable();
    let mut extras: Vec<usize> = other
        .as_ref()
        .map_or(Vec::new(), |o| (0..o.outlines.len()).collect());
    rng.shuffle(&mut extras);
    extras.truncate(p.extra);
    extras.sort_unstable();

    // Items to scatter: (is_extra, index in its puzzle).
    let items: Vec<(bool, usize)> = (0..n)
        .filter(|i| missing.binary_search(i).is_err())
        .map(|i| (false, i))
        .chain(extras.iter().map(|&i| (true, i)))
        .collect();
    let source = |extra: bool| {
        if extra {
            other.as_ref().expect("extras come from the other puzzle")
        } else {
            &puzzle
        }
    };
    let outlines: Vec<Vec<Pt>> = items
        .iter()
        .map(|&(x, i)| source(x).outlines[i].clone())
        .collect();
    let gap = (0.12 * p.px_per_piece).max(8.0);
    let allow_flip = p.flip && p.kind == Kind::Polygonal;
    let layout = scatter::scatter(
        &outlines,
        p.px_per_piece,
        gap,
        p.per_image,
        allow_flip,
        &mut Random::new(p.seed, 2),
    );

    let (prefix, ext) = match p.style {
        Style::Scan => ("scan", "png"),
        Style::Photo => ("photo", "jpg"),
    };
    let names: Vec<String> = (0..layout.images.len())
        .map(|k| format!("{IMAGES}/{prefix}-{:03}.{ext}", k + 1))
        .collect();
    let image_outline = |k: usize| -> Vec<Pt> {
        let t = layout.placements[k].transform;
        outlines[k]
            .iter()
            .map(|q| geometry::round3(t.apply(*q)))
            .collect()
    };
    let image_outlines: Vec<Vec<Pt>> = (0..items.len()).map(image_outline).collect();

    let images: Vec<EncodedImage> = (0..layout.images.len())
        .into_par_iter()
        .map(|img| {
            let sprites: Vec<raster::Sprite> = (0..items.len())
                .filter(|&k| layout.placements[k].image == img)
                .map(|k| raster::Sprite {
                    outline: image_outlines[k].clone(),
                    to_picture: layout.placements[k].transform.inverse(),
                    picture: &source(items[k].0).picture,
                })
                .collect();
            let r = raster::render(
                layout.images[img],
                p.style,
                background,
                &sprites,
                p.px_per_piece,
                mix(p.seed, 500 + img as u64),
            );
            Ok(EncodedImage {
                name: names[img].clone(),
                bytes: store::encode(&r.rgb, p.style).map_err(SynthError::Encode)?,
                mask: r.mask,
            })
        })
        .collect::<Result<_, SynthError>>()?;

    let truth = record::build_truth(
        p,
        &puzzle,
        other.as_ref(),
        &items,
        &missing,
        &layout,
        &names,
        &image_outlines,
        bg_u8,
    );
    let solution = solution::draw(&puzzle, background);
    Ok(Output {
        truth,
        images,
        solution,
    })
}

/// The rigid map of a truth piece, assembled frame → image.
pub fn truth_transform(t: &PieceTruth) -> Option<Affine> {
    t.transform.map(Affine)
}
