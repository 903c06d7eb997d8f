//! Timings of the trace front end, for `scripts/bench-trace`: decode, segmentation and
//! tracing+features, for photos (full pipeline) and for ready-made single-piece masks
//! (segmentation skipped: the mask is the piece).
//!
//! `cargo run --release --example bench_trace -- --photo FILE... --masks DIR`

use jigsaw::vision::{
    describe_piece, load_image, segment, DescribeOptions, LoadLimits, PieceRegion, SegmentOptions,
};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut photos = Vec::new();
    let mut masks: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    let mut mode = "";
    while let Some(a) = args.next() {
        match a.as_str() {
            "--photo" => mode = "photo",
            "--masks" => masks = args.next().map(PathBuf::from),
            _ if mode == "photo" => photos.push(PathBuf::from(a)),
            _ => anyhow::bail!("unexpected argument {a}"),
        }
    }
    let limits = LoadLimits::default();
    let describe = DescribeOptions::default();
    println!(
        "{:<34} {:>7} {:>10} {:>10} {:>14} {:>12}",
        "input", "pieces", "decode s", "segment s", "trace+feat s", "pieces/s"
    );
    for photo in &photos {
        let t0 = Instant::now();
        let image = load_image(photo, &limits)?;
        let t1 = Instant::now();
        let seg = segment(&image, &SegmentOptions::default());
        let t2 = Instant::now();
        let name = photo.display().to_string();
        let pieces: Vec<_> = seg
            .pieces
            .par_iter()
            .enumerate()
            .map(|(i, r)| describe_piece(i as u32 + 1, &name, r, &describe))
            .collect::<Result<_, _>>()?;
        let t3 = Instant::now();
        let total = (t3 - t0).as_secs_f64();
        println!(
            "{:<34} {:>7} {:>10.3} {:>10.3} {:>14.3} {:>12.1}",
            format!(
                "photo {}x{} {}",
                image.width(),
                image.height(),
                photo.file_name().unwrap().to_string_lossy()
            ),
            pieces.len(),
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64(),
            pieces.len() as f64 / total
        );
    }
    if let Some(dir) = masks {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        let t0 = Instant::now();
        let decoded: Vec<_> = files
            .par_iter()
            .map(|f| image::open(f).map(|i| i.to_luma8()))
            .collect::<Result<_, _>>()?;
        let t1 = Instant::now();
        let regions: Vec<PieceRegion> = decoded
            .into_par_iter()
            .map(PieceRegion::from_mask)
            .collect();
        let t2 = Instant::now();
        let pieces: Vec<_> = regions
            .par_iter()
            .enumerate()
            .map(|(i, r)| describe_piece(i as u32 + 1, "mask", r, &describe))
            .collect::<Result<_, _>>()?;
        let t3 = Instant::now();
        println!(
            "{:<34} {:>7} {:>10.3} {:>10.3} {:>14.3} {:>12.1}",
            format!("{} masks (threshold only)", files.len()),
            pieces.len(),
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64(),
            pieces.len() as f64 / (t3 - t0).as_secs_f64()
        );
    }
    println!(
        "(threads: {}; times are wall clock)",
        rayon::current_num_threads()
    );
    Ok(())
}
