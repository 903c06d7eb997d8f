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
pub mod scatter;
mod solution;
pub mod truth;

pub use raster::Style;

use geometry::{add, dist, Affine, Pt};
use network::Network;
use picture::Picture;
use random::{mix, Random};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use truth::{AssembledTruth, ImageTruth, JunctionTruth, NeighbourTruth, PieceTruth, Truth};

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

impl Params {
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
            EncodedImage {
                name: names[img].clone(),
                bytes: encode(&r.rgb, p.style),
                mask: r.mask,
            }
        })
        .collect();

    let truth = build_truth(
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

fn encode(rgb: &image::RgbImage, style: Style) -> Vec<u8> {
    let mut bytes = Vec::new();
    let result = match style {
        Style::Scan => rgb.write_with_encoder(image::codecs::png::PngEncoder::new(&mut bytes)),
        Style::Photo => rgb.write_with_encoder(image::codecs::jpeg::JpegEncoder::new_with_quality(
            &mut bytes, 88,
        )),
    };
    result.expect("encoding into memory cannot fail");
    bytes
}

#[allow(clippy::too_many_arguments)]
fn build_truth(
    p: &Params,
    puzzle: &Puzzle,
    other: Option<&Puzzle>,
    items: &[(bool, usize)],
    missing: &[usize],
    layout: &scatter::Layout,
    names: &[String],
    image_outlines: &[Vec<Pt>],
    background: [u8; 3],
) -> Truth {
    let n = puzzle.outlines.len();
    let round = |v: &[Pt]| v.iter().map(|q| geometry::round3(*q)).collect::<Vec<_>>();
    let mut neighbours: Vec<Vec<NeighbourTruth>> = vec![Vec::new(); n];
    for s in puzzle.network.shared_boundaries() {
        let (a, b) = s.faces;
        let length: f64 = s
            .polylines
            .iter()
            .flat_map(|l| l.windows(2).map(|w| dist(w[0], w[1])))
            .sum();
        let boundary: Vec<Vec<Pt>> = s.polylines.iter().map(|l| round(l)).collect();
        for (x, y) in [(a, b), (b, a)] {
            neighbours[x].push(NeighbourTruth {
                id: y as u32 + 1,
                boundary: boundary.clone(),
                length,
            });
        }
    }
    for list in &mut neighbours {
        list.sort_by_key(|nb| nb.id);
    }
    let mut pieces: Vec<PieceTruth> = Vec::with_capacity(n + p.extra);
    let piece = |src: &Puzzle, i: usize, id: u32, extraneous: bool| {
        let outline = round(&src.outlines[i]);
        PieceTruth {
            id,
            image: None,
            missing: false,
            extraneous,
            flipped: false,
            transform: None,
            centroid: None,
            outline: None,
            assembled_centroid: geometry::round3(geometry::centroid(&outline)),
            area: (geometry::signed_area(&outline) * 1000.0).round() / 1000.0,
            assembled_outline: outline,
            neighbours: Vec::new(),
        }
    };
    for (i, nb) in neighbours.into_iter().enumerate() {
        let mut t = piece(puzzle, i, i as u32 + 1, false);
        t.missing = missing.binary_search(&i).is_ok();
        t.neighbours = nb;
        pieces.push(t);
    }
    let mut extra_ids = Vec::new();
    for (k, &(extra, i)) in items.iter().enumerate() {
        let id = if extra {
            let id = (n + extra_ids.len() + 1) as u32;
            extra_ids.push(id);
            pieces.push(piece(other.expect("extras have a source"), i, id, true));
            id
        } else {
            i as u32 + 1
        };
        let pl = &layout.placements[k];
        let t = &mut pieces[id as usize - 1];
        t.image = Some(names[pl.image].clone());
        t.flipped = pl.flipped;
        t.transform = Some(
            pl.transform
                .0
                .map(|row| row.map(|v| (v * 1e9).round() / 1e9)),
        );
        t.centroid = Some(geometry::round3(geometry::centroid(&image_outlines[k])));
        t.outline = Some(image_outlines[k].clone());
    }
    let images = layout
        .images
        .iter()
        .enumerate()
        .map(|(img, wh)| {
            let mut ids: Vec<u32> = pieces
                .iter()
                .filter(|t| t.image.as_deref() == Some(names[img].as_str()))
                .map(|t| t.id)
                .collect();
            ids.sort_unstable();
            ImageTruth {
                path: names[img].clone(),
                width: wh[0],
                height: wh[1],
                background,
                pieces: ids,
            }
        })
        .collect();
    let junctions = puzzle
        .network
        .junctions()
        .into_iter()
        .map(|j| JunctionTruth {
            position: geometry::round3(j.position),
            radiality: (j.faces.len() + usize::from(j.exterior)) as u32,
            pieces: j.faces.iter().map(|&f| f as u32 + 1).collect(),
            exterior: j.exterior,
        })
        .collect();
    Truth {
        format: truth::FORMAT.to_string(),
        kind: p.kind,
        style: p.style,
        seed: p.seed,
        px_per_piece: p.px_per_piece,
        grid: puzzle.grid,
        assembled: AssembledTruth {
            width: puzzle.width,
            height: puzzle.height,
            outline: round(&puzzle.network.exterior()),
        },
        images,
        pieces,
        junctions,
    }
}

/// Writes the images, `truth.json`, `solution.png` (and the masks if asked) into `dir`,
/// each file atomically.
/// Images left by an earlier `jigsaw synth` into the same folder (recognised by its
/// `truth.json` and the exact image names this command writes) are removed first, so the
/// folder never mixes two puzzles.
pub fn write(out: &Output, dir: &Path, masks: bool) -> anyhow::Result<()> {
    remove_stale_images(out, dir)?;
    for img in &out.images {
        crate::files::write_atomic(&dir.join(&img.name), &img.bytes)?;
        if masks {
            let stem = Path::new(&img.name)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("image");
            crate::files::save_png_atomic(
                &dir.join("masks").join(format!("{stem}.png")),
                &img.mask,
            )?;
        }
    }
    crate::files::save_png_atomic(&dir.join("solution.png"), &out.solution)?;
    // Compact: outlines are long lists of points that pretty printing would put one number
    // per line.
    let mut json = serde_json::to_vec(&out.truth)?;
    json.push(b'\n');
    crate::files::write_atomic(&dir.join("truth.json"), &json)?;
    Ok(())
}

fn remove_stale_images(out: &Output, dir: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    if !dir.join("truth.json").is_file() {
        return Ok(());
    }
    let ours = |name: &str| {
        let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
        let (kind, number) = stem.split_once('-').unwrap_or((stem, ""));
        matches!((kind, ext), ("scan", "png") | ("photo", "jpg"))
            && number.len() >= 3
            && number.bytes().all(|b| b.is_ascii_digit())
    };
    // File names (without folder) of the images about to be written.
    let keep: Vec<&str> = out
        .images
        .iter()
        .map(|i| crate::score::file_name(&i.name))
        .collect();
    let stem = |n: &str| {
        n.rsplit_once('.')
            .map_or(n.to_string(), |x| x.0.to_string())
    };
    for (sub, is_mask) in [(dir.join(IMAGES), false), (dir.join("masks"), true)] {
        let Ok(entries) = std::fs::read_dir(&sub) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let stale = if is_mask {
                name.ends_with(".png") && !keep.iter().any(|k| stem(k) == stem(&name))
            } else {
                ours(&name) && !keep.contains(&name.as_str())
            };
            if stale {
                std::fs::remove_file(e.path()).with_context(|| {
                    format!("cannot remove the stale image {}", e.path().display())
                })?;
            }
        }
    }
    Ok(())
}

/// The rigid map of a truth piece, assembled frame → image.
pub fn truth_transform(t: &PieceTruth) -> Option<Affine> {
    t.transform.map(Affine)
}
