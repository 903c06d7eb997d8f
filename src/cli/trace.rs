//! `jigsaw trace INPUT... [-o DIR] [--json] [--grid N] [--max-pixels N] [--timings]`:
//! photos and scans → pieces → Freeman chains → chainlets → features, with dumps.

use super::{emit, emit_json, progress_bar, GlobalArgs};
use crate::chainlets::{looks_irregular, off_square_share, CriticalOptions};
use crate::vision::{
    collect_inputs, retrace_images, trace_images, write_dump, write_overlays, DescribeOptions,
    LoadLimits, PipelineOptions, SegmentOptions, StageTimes, TraceRun,
};
use anyhow::{bail, Context};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Image files and folders (a folder means every image in it, sorted by name).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Write dumps here: index.json, pieces/<id>.chain, features.csv, overlays/<image>.png.
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Chain on Freeman & Garder's coarse grid of N-pixel spacing (chain in grid units).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub grid: Option<u32>,
    /// Largest image accepted, in pixels (width × height).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_pixels: u64,
    /// Print the time spent per stage (decode, segment, trace+features) on stderr.
    #[arg(long)]
    pub timings: bool,
    /// Corner model: `quad` picks the four corners of four-sided pieces where a piece fits the
    /// model; `local` keeps every local slope discontinuity (polygonal or odd pieces);
    /// `irregular` also keeps the shallower turns where three or more pieces of an irregular
    /// cut meet (junction corners of 120–160°), keeps convex turns only, drops those on knobs,
    /// holes and necks, and snaps photo outlines that wobble along the cut to the colour edge;
    /// `auto` traces with `quad` and again with `irregular` (on the same segmentation) where
    /// 7 % or more of the four-sided model's corners lie over 30° from square (an irregular
    /// cut).
    #[arg(long, value_enum, default_value_t = Corners::Auto)]
    pub corners: Corners,
    /// Segmentation: fixed threshold on the distance from the background (ΔE) instead of the
    /// automatic one.
    #[arg(long, value_name = "DELTA_E")]
    pub threshold: Option<f32>,
    /// Segmentation: the background colour as `R,G,B` instead of estimating it.
    #[arg(long, value_name = "R,G,B", value_parser = parse_rgb)]
    pub background: Option<[u8; 3]>,
    /// Segmentation: take one background colour for the whole image (no illumination field).
    #[arg(long)]
    pub no_flatten: bool,
    /// Segmentation: radius of the morphological clean-up in pixels (0 disables it).
    #[arg(long, value_name = "PX")]
    pub morphology: Option<u8>,
    /// Segmentation: blobs under this fraction of the median piece area are specks (but for a
    /// small piece: a quarter of the median or more, and as long as a piece).
    #[arg(long, value_name = "F")]
    pub min_speck: Option<f64>,
    /// Segmentation: blobs over this multiple of the median piece area are merged pieces.
    #[arg(long, value_name = "F")]
    pub merged_factor: Option<f64>,
    /// Keep segmentation's outlines as they are instead of snapping bulging ones (a drop
    /// shadow taken in) onto the photograph's colour edges.
    #[arg(long)]
    pub no_snap: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corners {
    Auto,
    Quad,
    Local,
    Irregular,
}

fn parse_rgb(s: &str) -> Result<[u8; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [r, g, b] => {
            let c = |v: &str| v.parse::<u8>().map_err(|_| format!("{v:?} is not 0-255"));
            Ok([c(r)?, c(g)?, c(b)?])
        }
        _ => Err(format!("expected R,G,B (e.g. 20,20,20), got {s:?}")),
    }
}

impl Args {
    pub(super) fn pipeline_options(&self) -> PipelineOptions {
        let mut segment = SegmentOptions {
            threshold: self.threshold,
            background: self.background,
            morphology_radius: self.morphology,
            ..SegmentOptions::default()
        };
        segment.flatten_illumination = !self.no_flatten;
        if let Some(f) = self.min_speck {
            segment.min_speck_fraction = f;
        }
        if let Some(f) = self.merged_factor {
            segment.merged_factor = f;
        }
        let mut describe = DescribeOptions {
            grid: self.grid,
            ..DescribeOptions::default()
        };
        describe.critical = match self.corners {
            Corners::Auto | Corners::Quad => CriticalOptions::default(),
            Corners::Local => CriticalOptions {
                four_sided: false,
                ..CriticalOptions::default()
            },
            Corners::Irregular => CriticalOptions::irregular(),
        };
        PipelineOptions {
            limits: LoadLimits {
                max_pixels: self.max_pixels,
            },
            segment,
            describe,
            snap_edges: !self.no_snap,
            magnify_small_pieces: true,
        }
    }
}

/// The front end as `trace` and `solve` run it: expand the inputs, trace every image with a
/// progress bar, print one error line per failed input. Returns the run and whether any input
/// failed.
pub(super) fn trace_inputs(args: &Args, global: GlobalArgs) -> (TraceRun, bool) {
    let (files, input_errors) = collect_inputs(&args.inputs);
    for e in &input_errors {
        eprintln!("jigsaw: error: {e}");
    }
    let hidden = global.quiet || global.json;
    let bar = progress_bar(files.len() as u64, "tracing", hidden);
    let mut run = trace_images(&files, &args.pipeline_options(), &|_| bar.inc(1));
    bar.finish_and_clear();
    if args.corners == Corners::Auto && looks_irregular(&run.set.pieces) {
        // The irregular model also snaps outlines differently, so the images are snapped and
        // described anew (on their first segmentation).
        if !hidden {
            let (share, _) = off_square_share(&run.set.pieces);
            eprintln!(
                "jigsaw: irregular cut ({:.0} % of corners over 30° from square): tracing with --corners irregular",
                100.0 * share
            );
        }
        let irregular = Args {
            corners: Corners::Irregular,
            ..args.clone()
        };
        let bar = progress_bar(files.len() as u64, "tracing", hidden);
        run = retrace_images(run, irregular.pipeline_options().describe, &|_| bar.inc(1));
        bar.finish_and_clear();
    }
    for e in &run.failures {
        eprintln!("jigsaw: error: {e}");
    }
    if args.timings {
        eprintln!("{}", timings_table(&run.times, run.set.pieces.len()));
    }
    let failed = !input_errors.is_empty() || !run.failures.is_empty();
    (run, failed)
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    let opts = args.pipeline_options();
    let (run, failed) = trace_inputs(&args, global);
    if let Some(dir) = &args.output {
        if dir.exists() && !dir.is_dir() {
            bail!("{}: exists and is not a folder", dir.display());
        }
        write_dump(dir, &run.set)
            .with_context(|| format!("cannot write the dump to {}", dir.display()))?;
        write_overlays(dir, &run.set, &opts.limits)
            .with_context(|| format!("cannot write overlays to {}", dir.display()))?;
    }
    if global.json {
        emit_json(&run.set)?;
    } else if !global.quiet {
        emit(&summary(&run.set))?;
        if let Some(dir) = &args.output {
            emit(&format!("dumps written to {}", dir.display()))?;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A line per image (pieces found, rejected blobs by reason) and a total.
fn summary(set: &crate::piece_set::PieceSet) -> String {
    let mut out = String::new();
    for img in &set.images {
        let n = set.pieces.iter().filter(|p| p.image == img.path).count();
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for r in &img.rejected {
            let name = serde_json::to_value(r.reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            *reasons.entry(name).or_default() += 1;
        }
        let rejected: Vec<String> = reasons.iter().map(|(k, v)| format!("{v} {k}")).collect();
        let rejected = if rejected.is_empty() {
            String::new()
        } else {
            format!(", rejected: {}", rejected.join(", "))
        };
        // Small pieces are chained on the image magnified (`vision::magnify`): said, since
        // it changes what the dump's chains count in.
        let unit = set
            .pieces
            .iter()
            .filter(|p| p.image == img.path)
            .map(|p| p.chain_unit)
            .fold(1.0, f64::min);
        let magnified = if unit < 1.0 {
            format!(
                ", chained magnified {}× (small pieces)",
                (1.0 / unit).round()
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{}: {n} piece{}{magnified}{rejected}\n",
            img.path,
            if n == 1 { "" } else { "s" }
        ));
    }
    let chainlets: usize = set.pieces.iter().map(|p| p.chainlets.len()).sum();
    out.push_str(&format!(
        "total: {} pieces, {chainlets} chainlets from {} images",
        set.pieces.len(),
        set.images.len()
    ));
    out
}

fn timings_table(t: &StageTimes, pieces: usize) -> String {
    let rate = if t.wall_s > 0.0 {
        pieces as f64 / t.wall_s
    } else {
        0.0
    };
    format!(
        "stage            seconds (summed over threads)\n\
         decode           {:>8.3}\n\
         segment          {:>8.3}\n\
         trace+features   {:>8.3}\n\
         wall             {:>8.3}   ({pieces} pieces, {rate:.1} pieces/s)",
        t.decode_s, t.segment_s, t.trace_features_s, t.wall_s
    )
}
