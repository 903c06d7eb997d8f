//! Segments images and prints what it found, with timings; optionally writes a debug picture
//! per image (pieces tinted green, clipped blue, merged red, specks yellow, boxes drawn).
//! Used by `scripts/bench-segment` and for eyeballing segmentation quality.
//!
//! `cargo run --release --example segment -- [--debug DIR] [--scale N] INPUT...`

use image::{Rgb, RgbImage};
use jigsaw::piece_set::RejectReason;
use jigsaw::vision::{
    collect_inputs, load_image, segment_with_diagnostics, LoadLimits, SegmentOptions,
};
use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut debug: Option<PathBuf> = None;
    let mut scale = 4u32;
    let mut inputs = Vec::new();
    let mut crop: Option<[u32; 4]> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--debug" => debug = args.next().map(PathBuf::from),
            "--crop" => {
                let v: Vec<u32> = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.parse().ok())
                    .collect();
                crop = v.try_into().ok();
            }
            "--scale" => scale = args.next().and_then(|s| s.parse().ok()).unwrap_or(4),
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    let (files, errors) = collect_inputs(&inputs);
    for e in &errors {
        eprintln!("error: {e}");
    }
    let (mut t_load, mut t_seg, mut n_pieces) = (0.0, 0.0, 0usize);
    for f in &files {
        let t0 = Instant::now();
        let img = match load_image(f, &LoadLimits::default()) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: {e}");
                continue;
            }
        };
        let t1 = Instant::now();
        let (seg, diag) = segment_with_diagnostics(&img, &SegmentOptions::default());
        let t2 = Instant::now();
        let (dl, ds) = ((t1 - t0).as_secs_f64(), (t2 - t1).as_secs_f64());
        t_load += dl;
        t_seg += ds;
        n_pieces += seg.pieces.len();
        let count = |r| seg.rejected.iter().filter(|x| x.reason == r).count();
        let areas: Vec<u64> = seg.pieces.iter().map(|p| p.area).collect();
        println!(
            "{}\t{}x{}\t{:?}\tload {:.3}s\tseg {:.3}s\tpieces {}\tclipped {}\tmerged {}\tspecks {}\tt {:.1}\tnoise {:.2}\tbg {:.0},{:.0},{:.0}\tareas {:?}",
            f.display(), img.width(), img.height(), seg.rejected.iter().filter(|r| r.reason != RejectReason::Speck).map(|r| r.bbox).collect::<Vec<_>>(), dl, ds, seg.pieces.len(),
            count(RejectReason::Clipped), count(RejectReason::Merged), count(RejectReason::Speck),
            diag.threshold, diag.background_noise,
            diag.background_lab[0], diag.background_lab[1], diag.background_lab[2], areas
        );
        if let Some(dir) = &debug {
            std::fs::create_dir_all(dir)?;
            let mut out = draw(&img, &seg, scale);
            if let Some([x, y, w, h]) = crop {
                out = image::imageops::crop_imm(&out, x / scale, y / scale, w / scale, h / scale)
                    .to_image();
            }
            let name = format!("{}.png", f.file_stem().unwrap().to_string_lossy());
            out.save(dir.join(name))?;
            if let Some([x, y, w, h]) = crop {
                let (d, t) = jigsaw::vision::background_distance(&img, &SegmentOptions::default());
                let g = image::GrayImage::from_fn(w, h, |i, j| {
                    let v = d.get_pixel(x + i, y + j).0[0];
                    image::Luma([if v > t { 255 } else { (v / t * 200.0) as u8 }])
                });
                let name = format!("{}-dist.png", f.file_stem().unwrap().to_string_lossy());
                g.save(dir.join(name))?;
            }
        }
    }
    println!(
        "TOTAL\timages {}\tload {:.3}s\tseg {:.3}s\tpieces {}",
        files.len(),
        t_load,
        t_seg,
        n_pieces
    );
    Ok(())
}

fn draw(img: &RgbImage, seg: &jigsaw::vision::Segmentation, scale: u32) -> RgbImage {
    let mut out = img.clone();
    let tint = |p: &mut Rgb<u8>, c: [u8; 3]| {
        for (v, c) in p.0.iter_mut().zip(c) {
            *v = ((*v as u16 + c as u16) / 2) as u8;
        }
    };
    for piece in &seg.pieces {
        let [x0, y0, ..] = piece.bbox;
        for (x, y, m) in piece.mask.enumerate_pixels() {
            let inside = |dx: i64, dy: i64| {
                let (xx, yy) = (x as i64 + dx, y as i64 + dy);
                xx >= 0
                    && yy >= 0
                    && piece
                        .mask
                        .get_pixel_checked(xx as u32, yy as u32)
                        .is_some_and(|p| p.0[0] > 0)
            };
            if m.0[0] > 0 {
                let edge = !(inside(-1, 0) && inside(1, 0) && inside(0, -1) && inside(0, 1));
                let p = out.get_pixel_mut(x0 + x, y0 + y);
                if edge && scale == 1 {
                    *p = Rgb([255, 0, 255]);
                } else if scale > 1 {
                    tint(p, [0, 255, 0]);
                }
            }
        }
        rect(&mut out, piece.bbox, [0, 200, 0]);
    }
    for r in &seg.rejected {
        let c = match r.reason {
            RejectReason::Clipped => [0, 0, 255],
            RejectReason::Merged => [255, 0, 0],
            RejectReason::Speck => [255, 255, 0],
        };
        rect(&mut out, r.bbox, c);
    }
    image::imageops::resize(
        &out,
        (img.width() / scale).max(1),
        (img.height() / scale).max(1),
        image::imageops::FilterType::Triangle,
    )
}

fn rect(img: &mut RgbImage, [x, y, w, h]: [u32; 4], c: [u8; 3]) {
    let t = (img.width().max(img.height()) / 400).max(1);
    for yy in y..y + h {
        for xx in x..x + w {
            if xx < x + t || xx + t >= x + w || yy < y + t || yy + t >= y + h {
                img.put_pixel(xx, yy, Rgb(c));
            }
        }
    }
}
