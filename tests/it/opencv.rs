//! Cross-check of our tracer against OpenCV (`--features opencv`): every bundled sample and
//! every real image in `../shared/data/real` is segmented, and each piece mask is traced both
//! ways — ours, and `cv::findContours(RETR_EXTERNAL, CHAIN_APPROX_NONE)` reversed to clockwise
//! from the same start — and the two chains must be identical.

use crate::util::{sample, shared_data};
use ::opencv::core::{Mat, Point, Scalar, Vector, CV_8UC1};
use ::opencv::imgproc::{find_contours, CHAIN_APPROX_NONE, RETR_EXTERNAL, RETR_LIST};
use ::opencv::prelude::*;
use image::GrayImage;
use jigsaw::chain::ChainCode;
use jigsaw::vision::{load_image, segment, trace_mask, LoadLimits, SegmentOptions};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// OpenCV's outer border of the blob starting at `start`, as our clockwise chain.
fn opencv_chain(mask: &GrayImage, start: [i32; 2]) -> ChainCode {
    let (w, h) = (mask.width() as i32, mask.height() as i32);
    let mut mat = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0)).unwrap();
    let bytes: Vec<u8> = mask.as_raw().iter().map(|&v| u8::from(v > 127)).collect();
    mat.data_bytes_mut().unwrap().copy_from_slice(&bytes);
    // RETR_EXTERNAL, as the issue states; a blob nested in another blob's hole is not
    // external, so for it look among all borders (RETR_LIST traces outer borders the same way).
    let starting_at = |mode| {
        let mut contours: Vector<Vector<Point>> = Vector::new();
        find_contours(
            &mat,
            &mut contours,
            mode,
            CHAIN_APPROX_NONE,
            Point::new(0, 0),
        )
        .unwrap();
        contours
            .iter()
            .find(|c| c.get(0).is_ok_and(|p| [p.x, p.y] == start))
    };
    let contour = starting_at(RETR_EXTERNAL)
        .or_else(|| starting_at(RETR_LIST))
        .unwrap_or_else(|| panic!("OpenCV has no outer contour starting at {start:?}"));
    let pts: Vec<[i32; 2]> = contour.iter().map(|p| [p.x, p.y]).collect();
    // Counter-clockwise on screen → clockwise, keeping the start.
    let mut cw = vec![pts[0]];
    cw.extend(pts[1..].iter().rev());
    ChainCode::from_points(&cw, true).unwrap()
}

fn images_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            images_under(&p, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            jigsaw::vision::IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())
        }) {
            out.push(p);
        }
    }
}

/// Traces every piece of every image under `dirs` both ways; returns (images, pieces).
fn cross_check(dirs: &[PathBuf]) -> (usize, usize) {
    let mut files = Vec::new();
    for d in dirs {
        images_under(d, &mut files);
    }
    files.sort();
    let counts: Vec<usize> = files
        .par_iter()
        .map(|f| {
            let Ok(image) = load_image(f, &LoadLimits::default()) else {
                return 0;
            };
            let seg = segment(&image, &SegmentOptions::default());
            for (i, region) in seg.pieces.iter().enumerate() {
                let ours = trace_mask(&region.mask).unwrap();
                let theirs = opencv_chain(&region.mask, ours.start);
                assert_eq!(ours, theirs, "{} piece {}", f.display(), i + 1);
            }
            // The image itself thresholded at mid-grey: the ready-made mask sets (white-1000,
            // lucaSartore) are pieces cut tight to the border, which segmentation calls clipped.
            let whole = image::DynamicImage::ImageRgb8(image).to_luma8();
            let ours = trace_mask(&whole);
            if let Ok(ours) = ours {
                let theirs = opencv_chain(&whole, ours.start);
                assert_eq!(ours, theirs, "{} thresholded", f.display());
            }
            seg.pieces.len() + 1
        })
        .collect();
    (files.len(), counts.iter().sum())
}

#[test]
fn opencv_issue_rectangle_and_left_edge() {
    let mut mask = GrayImage::new(12, 8);
    for y in 2..5 {
        for x in 0..8 {
            mask.put_pixel(x, y, image::Luma([255]));
        }
    }
    let ours = trace_mask(&mask).unwrap();
    assert_eq!(ours, opencv_chain(&mask, ours.start));
}

#[test]
fn opencv_agrees_on_every_sample_and_real_image() {
    let mut dirs = vec![sample("")];
    if let Some(real) = shared_data("real") {
        dirs.push(real);
    }
    let (images, pieces) = cross_check(&dirs);
    eprintln!("opencv cross-check: {pieces} masks (pieces and thresholded images) from {images} images, all identical");
    assert!(pieces > 0);
}
