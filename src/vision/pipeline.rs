//! Inputs → [`PieceSet`]: load, segment, trace and describe every image, in parallel, keeping
//! going past a bad file. Piece ids are 1..N in input order, then top-to-bottom, left-to-right
//! within an image (the order segmentation hands its pieces over).

use super::describe::{describe_piece, DescribeOptions};
use super::load::{load_image, LoadError, LoadLimits};
use super::magnify::{magnification, magnify, rejected_in_source, threshold_at_mid_grey};
use super::region::Segmentation;
use super::segment::{is_black_and_white, segment, SegmentOptions};
use super::snapped_mask::{snap_piece, SnapGate};
use super::trace::TraceError;
use crate::piece_set::{ImageReport, Piece, PieceSet};
use image::RgbImage;
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Everything the pipeline can be told.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    pub limits: LoadLimits,
    pub segment: SegmentOptions,
    pub describe: DescribeOptions,
    /// Snap bulging piece masks onto the photograph's colour edges ([`snap_piece`]); never
    /// done on a black-and-white image (a mask made elsewhere). Default on.
    pub snap_edges: bool,
    /// Segment and chain an image of small pieces again magnified (see [`magnification`]).
    /// Default on.
    pub magnify_small_pieces: bool,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            limits: LoadLimits::default(),
            segment: SegmentOptions::default(),
            describe: DescribeOptions::default(),
            snap_edges: true,
            magnify_small_pieces: true,
        }
    }
}

impl PipelineOptions {
    /// The polygon path's tracing: every corner kept (the `--corners local` model), and
    /// pieces chained at pixel resolution whatever their size. Its straight sides are fitted
    /// to the dense pixel outline, precise to a fraction of a pixel from many points
    /// (`solvers::polygon::sides`), and were measured and tuned on pixel chains: magnified,
    /// the 760 rendered photos (12-piece puzzles have median pieces of 55–62 px) gave 750
    /// again, but one puzzle gained and another lost its solution.
    pub fn for_polygons(mut self) -> Self {
        self.describe.critical.four_sided = false;
        self.magnify_small_pieces = false;
        self
    }
}

/// Why one image yielded no pieces. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("{}: no pieces found ({rejected} blobs rejected: touching the border, merged or specks)", .path.display())]
    NoPieces { path: PathBuf, rejected: usize },
    #[error("{}: piece {index} cannot be traced: {source}", .path.display())]
    Trace {
        path: PathBuf,
        index: usize,
        #[source]
        source: TraceError,
    },
}

/// Time spent in each stage, summed over images (so on several cores the sum exceeds the wall
/// time), in seconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct StageTimes {
    pub decode_s: f64,
    pub segment_s: f64,
    pub trace_features_s: f64,
    pub wall_s: f64,
}

impl StageTimes {
    fn add(&mut self, other: &StageTimes) {
        self.decode_s += other.decode_s;
        self.segment_s += other.segment_s;
        self.trace_features_s += other.trace_features_s;
    }
}

/// The outcome of a run: the piece set of every image that worked, and one error per image
/// that did not.
#[derive(Debug, Default)]
pub struct TraceRun {
    pub set: PieceSet,
    pub failures: Vec<ImageError>,
    pub times: StageTimes,
    /// The inputs, the options and what each input segmented into (`None` where it could not
    /// be loaded), kept for [`retrace_images`].
    files: Vec<PathBuf>,
    options: PipelineOptions,
    segmented: Vec<Option<Segmented>>,
}

/// One image's segmentation at its working size, before snapping (which depends on how its
/// pieces are described).
#[derive(Clone, Debug)]
struct Segmented {
    segmentation: Segmentation,
    magnification: u32,
}

/// One image's pieces, numbered from 1 within the image.
struct ImageTrace {
    report: ImageReport,
    pieces: Vec<Piece>,
    times: StageTimes,
}

/// Runs the front end over `files` (already expanded from folders). `progress` is called once
/// per finished image, from worker threads.
pub fn trace_images(
    files: &[PathBuf],
    opts: &PipelineOptions,
    progress: &(dyn Fn(&Path) + Sync),
) -> TraceRun {
    run_images(files, opts, Vec::new(), progress)
}

/// The images of `previous` traced again with their pieces described by `describe`, the rest
/// of its options unchanged. Segmentation does not depend on the description, so each image's
/// is taken from `previous` (half the front end's time where the CLI, finding an irregular
/// cut, traces a second time); only loading, snapping and describing are done again.
pub fn retrace_images(
    previous: TraceRun,
    describe: DescribeOptions,
    progress: &(dyn Fn(&Path) + Sync),
) -> TraceRun {
    let opts = PipelineOptions {
        describe,
        ..previous.options
    };
    run_images(&previous.files, &opts, previous.segmented, progress)
}

/// Traces `files`, taking each image's segmentation from `segmented` where it holds one.
fn run_images(
    files: &[PathBuf],
    opts: &PipelineOptions,
    mut segmented: Vec<Option<Segmented>>,
    progress: &(dyn Fn(&Path) + Sync),
) -> TraceRun {
    let start = Instant::now();
    segmented.resize(files.len(), None);
    let outcomes: Vec<Result<ImageTrace, ImageError>> = files
        .par_iter()
        .zip(segmented.par_iter_mut())
        .map(|(f, s)| {
            let r = trace_image(f, opts, s);
            progress(f);
            r
        })
        .collect();
    let mut run = TraceRun {
        files: files.to_vec(),
        options: opts.clone(),
        segmented,
        ..TraceRun::default()
    };
    let mut next_id = 1u32;
    for outcome in outcomes {
        match outcome {
            Ok(mut t) => {
                for p in &mut t.pieces {
                    renumber(p, next_id);
                    next_id += 1;
                }
                run.times.add(&t.times);
                run.set.images.push(t.report);
                run.set.pieces.extend(t.pieces);
            }
            Err(e) => run.failures.push(e),
        }
    }
    run.times.wall_s = start.elapsed().as_secs_f64();
    run
}

/// `image` segmented; if its pieces are small, magnified and segmented again (see
/// `magnify`). Returns the image the pieces were found on and its segmentation.
fn segment_at_working_size(
    image: RgbImage,
    opts: &PipelineOptions,
    black_and_white: bool,
) -> (RgbImage, Segmented) {
    let seg = segment(&image, &opts.segment);
    let k = match opts.describe.grid {
        None if opts.magnify_small_pieces => magnification(
            seg.pieces.iter().map(|r| r.area as f64),
            image.width(),
            image.height(),
        ),
        _ => 1,
    };
    if k <= 1 {
        let segmented = Segmented {
            segmentation: seg,
            magnification: 1,
        };
        return (image, segmented);
    }
    let big = magnified(&image, k, black_and_white);
    let segmented = Segmented {
        segmentation: segment(&big, &opts.segment),
        magnification: k,
    };
    (big, segmented)
}

/// `image` magnified `k` times. A mask stays a mask when magnified: thresholded again, so that
/// it is neither segmented nor snapped as a photograph.
fn magnified(image: &RgbImage, k: u32, black_and_white: bool) -> RgbImage {
    let mut big = magnify(image, k);
    if black_and_white {
        threshold_at_mid_grey(&mut big);
    }
    big
}

/// Gives a piece its id in the whole set (chainlet labels carry it too).
fn renumber(piece: &mut Piece, id: u32) {
    piece.id = id;
    for (k, c) in piece.chainlets.iter_mut().enumerate() {
        c.label = format!("{id}.{}", k + 1);
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Loads, segments (unless `segmented` holds the image's segmentation already, which it is
/// left holding) and describes one image.
fn trace_image(
    path: &Path,
    opts: &PipelineOptions,
    segmented: &mut Option<Segmented>,
) -> Result<ImageTrace, ImageError> {
    let shown = path.display().to_string();
    let t0 = Instant::now();
    let image = load_image(path, &opts.limits)?;
    let (width, height) = image.dimensions();
    let t1 = Instant::now();
    let black_and_white = is_black_and_white(&image);
    let (image, kept) = match segmented.take() {
        Some(s) if s.magnification > 1 => (magnified(&image, s.magnification, black_and_white), s),
        Some(s) => (image, s),
        None => segment_at_working_size(image, opts, black_and_white),
    };
    let (mut seg, k) = (kept.segmentation.clone(), kept.magnification);
    *segmented = Some(kept);
    if opts.snap_edges && !black_and_white {
        // The irregular corner model's low turn floors take a wobbling mask's bumps for
        // corners; the four-sided and local models do not need (or want) the wider snap.
        let gate = if opts.describe.critical.skip_lobes {
            SnapGate::BulgesOrWobble
        } else {
            SnapGate::Bulges
        };
        seg.pieces.par_iter_mut().for_each(|region| {
            if let Some(snapped) = snap_piece(region, &image, gate) {
                *region = snapped;
            }
        });
    }
    let t2 = Instant::now();
    if seg.pieces.is_empty() {
        return Err(ImageError::NoPieces {
            path: path.to_path_buf(),
            rejected: seg.rejected.len(),
        });
    }
    let describe = DescribeOptions {
        magnified: k,
        ..opts.describe.clone()
    };
    let pieces = seg
        .pieces
        .par_iter()
        .enumerate()
        .map(|(i, region)| {
            describe_piece(i as u32 + 1, &shown, region, &describe).map_err(|source| {
                ImageError::Trace {
                    path: path.to_path_buf(),
                    index: i + 1,
                    source,
                }
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let rejected = seg
        .rejected
        .into_iter()
        .map(|r| rejected_in_source(r, k))
        .collect();
    let t3 = Instant::now();
    Ok(ImageTrace {
        report: ImageReport {
            path: shown,
            width,
            height,
            rejected,
        },
        pieces,
        times: StageTimes {
            decode_s: secs(t1 - t0),
            segment_s: secs(t2 - t1),
            trace_features_s: secs(t3 - t2),
            wall_s: 0.0,
        },
    })
}
