//! Tests of tracing, critical points and features on real masks, and of `jigsaw trace`.

/// The corner checks against known answers (white-1000, lucaSartore, pikachu-100).
mod corners;

use crate::util::shared_data;
use image::GrayImage;
use jigsaw::piece_set::CriticalKind;
use jigsaw::vision::PieceRegion;

// ---- `jigsaw trace` end to end -------------------------------------------------------------

use crate::util::{run, scratch};

fn svalat() -> Option<std::path::PathBuf> {
    shared_data("real/svalat-rust-puzzle-solver/tests/real-1.png")
}

#[test]
fn trace_svalat_real_1_finds_nine_pieces_and_writes_dumps() {
    let Some(photo) = svalat() else { return };
    let out = scratch();
    let dir = out.path().join("dump");
    let o = run(&[
        "trace",
        photo.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let set = jigsaw::vision::load_dump(&dir).unwrap();
    assert_eq!(set.pieces.len(), 9);
    assert_eq!(
        set.pieces.iter().map(|p| p.id).collect::<Vec<_>>(),
        (1..=9).collect::<Vec<_>>()
    );
    for p in &set.pieces {
        assert!(p.chain.is_closed());
        assert!(p.critical_points.len() >= 2, "piece {}", p.id);
        let chain = std::fs::read_to_string(dir.join(format!("pieces/{}.chain", p.id))).unwrap();
        assert_eq!(jigsaw::chain::parse_chain_file(&chain).unwrap(), p.chain);
    }
    // Reading order: row by row (centroid y grows by rows of three).
    let rows: Vec<f64> = set.pieces.iter().map(|p| p.centroid[1]).collect();
    assert!(rows[0] < rows[3] && rows[3] < rows[6]);
    let csv = std::fs::read_to_string(dir.join("features.csv")).unwrap();
    let chainlets: usize = set.pieces.iter().map(|p| p.chainlets.len()).sum();
    assert_eq!(csv.lines().count(), chainlets + 1);
    assert!(csv.starts_with(jigsaw::vision::FEATURES_HEADER));
    let overlay = image::open(dir.join("overlays/real-1.png")).unwrap();
    assert_eq!((overlay.width(), overlay.height()), (3456, 2592));
}

#[test]
fn trace_json_has_the_contract_fields() {
    let Some(photo) = svalat() else { return };
    let o = run(&["trace", photo.to_str().unwrap(), "--json", "--grid", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let img = &v["images"][0];
    for k in ["path", "width", "height", "rejected"] {
        assert!(!img[k].is_null(), "images[].{k}");
    }
    if let Some(r) = img["rejected"].as_array().and_then(|r| r.first()) {
        assert_eq!(r["bbox"].as_array().unwrap().len(), 4);
        assert!(["clipped", "merged", "speck"].contains(&r["reason"].as_str().unwrap()));
    }
    let p = &v["pieces"][0];
    for k in [
        "id",
        "image",
        "bbox",
        "centroid",
        "area",
        "chain",
        "critical_points",
        "chainlets",
        "polygon",
    ] {
        assert!(!p[k].is_null(), "pieces[].{k}");
    }
    assert_eq!(p["image"], img["path"]);
    assert!(p["chain"]["codes"]
        .as_str()
        .unwrap()
        .chars()
        .all(|c| ('0'..='7').contains(&c)));
    assert_eq!(p["chain"]["start"].as_array().unwrap().len(), 2);
    let cp = &p["critical_points"][0];
    for k in ["index", "x", "y", "angle_deg", "kind"] {
        assert!(!cp[k].is_null(), "critical_points[].{k}");
    }
    let c = &p["chainlets"][0];
    assert_eq!(c["label"], "1.1");
    for k in ["start", "end", "features"] {
        assert!(!c[k].is_null(), "chainlets[].{k}");
    }
    assert!(c["features"]["chain_length"].as_f64().unwrap() > 0.0);
}

#[test]
fn trace_batch_folder_numbers_pieces_across_images() {
    let Some(dir) = shared_data("real/roksenhorn-puzzle-bot/pikachu-100/0_input") else {
        return;
    };
    // Three photos through a folder: copy-free, by linking them into a scratch folder.
    let tmp = scratch();
    for name in ["1.jpeg", "2.jpeg", "10.jpeg"] {
        std::os::unix::fs::symlink(dir.join(name), tmp.path().join(name)).unwrap();
    }
    let o = run(&["trace", tmp.path().to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let set: jigsaw::piece_set::PieceSet = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = set
        .images
        .iter()
        .map(|i| i.path.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names, ["1.jpeg", "2.jpeg", "10.jpeg"], "natural order");
    assert_eq!(set.pieces.len(), 3);
    for (k, p) in set.pieces.iter().enumerate() {
        assert_eq!(p.id, k as u32 + 1);
        assert_eq!(p.image, set.images[k].path);
        assert_eq!(p.critical_points.len(), 4, "piece {}", p.id);
    }
}

#[test]
fn bad_inputs_each_get_one_error_line_and_the_rest_is_traced() {
    let Some(photo) = svalat() else { return };
    let tmp = scratch();
    let d = tmp.path();
    std::fs::write(d.join("zero.png"), b"").unwrap();
    std::fs::write(d.join("text.png"), b"this is not a png\n").unwrap();
    let Some(jpeg) = shared_data("real/roksenhorn-puzzle-bot/pikachu-100/0_input/1.jpeg") else {
        return;
    };
    let truncated = d.join("truncated.jpeg");
    std::fs::write(&truncated, &std::fs::read(jpeg).unwrap()[..20_000]).unwrap();
    image::RgbImage::new(1, 1).save(d.join("tiny.png")).unwrap();
    image::RgbImage::from_pixel(200, 150, image::Rgb([240, 240, 240]))
        .save(d.join("blank.png"))
        .unwrap();
    std::fs::create_dir(d.join("empty")).unwrap();
    let huge = d.join("huge.png");
    image::RgbImage::from_pixel(400, 300, image::Rgb([255, 255, 255]))
        .save(&huge)
        .unwrap();
    let bad = [
        d.join("missing.png"),
        d.join("empty"),
        d.join("zero.png"),
        d.join("text.png"),
        truncated,
        d.join("tiny.png"),
        d.join("blank.png"),
    ];
    let mut args: Vec<String> = vec!["trace".into(), photo.display().to_string()];
    args.extend(bad.iter().map(|p| p.display().to_string()));
    let out = d.join("dump");
    args.extend(["-o".into(), out.display().to_string()]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&argv);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(lines.len(), bad.len(), "{stderr}");
    for b in &bad {
        let name = b.display().to_string();
        assert_eq!(
            lines.iter().filter(|l| l.contains(&name)).count(),
            1,
            "{name}: {stderr}"
        );
    }
    let set = jigsaw::vision::load_dump(&out).unwrap();
    assert_eq!(set.pieces.len(), 9, "the good photo is still traced");

    // Over the pixel limit.
    let o = run(&["trace", huge.to_str().unwrap(), "--max-pixels", "1000"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("huge.png") && stderr.contains("limit"),
        "{stderr}"
    );
}

#[test]
fn grid_option_gives_a_shorter_chain_in_grid_units() {
    let Some(photo) = svalat() else { return };
    let o = run(&["trace", photo.to_str().unwrap(), "--json", "--grid", "8"]);
    assert!(o.status.success());
    let coarse: jigsaw::piece_set::PieceSet = serde_json::from_slice(&o.stdout).unwrap();
    let p = &coarse.pieces[0];
    assert_eq!(p.chain_unit, 8.0, "the piece says how to read its chain");
    assert!(p.chain.is_closed());
    // Grid units: the start node times 8 lies near the piece's box.
    let [x, y, w, h] = p.bbox.map(|v| v as i32);
    let (sx, sy) = (p.chain.start[0] * 8, p.chain.start[1] * 8);
    assert!(sx >= x - 8 && sx <= x + w + 8 && sy >= y - 8 && sy <= y + h + 8);
    let fine_len = (w + h) as f64 * 2.0;
    assert!((p.chain.len() as f64) < fine_len / 4.0);
}

/// gathanase's scan of 144 pieces of 45 px is chained on the image magnified twice
/// (`vision::magnify`); the summary says so, and every piece's chain is in half pixels while
/// its box and centroid stay in the scan's pixels.
#[test]
fn small_pieces_are_chained_magnified_and_told_so() {
    let Some(scan) = shared_data("real/gathanase-puzzle/scans/jigsaw144.png") else {
        return;
    };
    let o = run(&["trace", scan.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("144 pieces, chained magnified 2×"), "{out}");
    let o = run(&["trace", scan.to_str().unwrap(), "--json"]);
    let set: jigsaw::piece_set::PieceSet = serde_json::from_slice(&o.stdout).unwrap();
    let image = &set.images[0];
    assert_eq!(
        (image.width, image.height),
        (1135, 1112),
        "the scan's own size"
    );
    for p in &set.pieces {
        assert_eq!(p.chain_unit, 0.5);
        let [x, y, w, h] = p.bbox;
        assert!(
            x + w <= image.width && y + h <= image.height,
            "{:?}",
            p.bbox
        );
        let inside = |v: f64, lo: u32, len: u32| (f64::from(lo)..=f64::from(lo + len)).contains(&v);
        assert!(inside(p.centroid[0], x, w) && inside(p.centroid[1], y, h));
    }
}

/// A second trace of the same images with other description options (the CLI's switch to the
/// irregular corner model) takes each image's segmentation from the first: the pieces are
/// exactly those of a trace with those options from scratch. Irregular 20 photos at 50 px per
/// piece, so the images are segmented magnified (the magnified image is rebuilt, not kept).
#[test]
fn retracing_with_other_corners_gives_the_pieces_of_a_fresh_trace() {
    use jigsaw::chainlets::CriticalOptions;
    use jigsaw::synth::{generate, Kind, Params, Style};
    use jigsaw::vision::{retrace_images, trace_images, PipelineOptions};
    let mut p = Params::new(Kind::Irregular, 20, 4);
    p.style = Style::Photo;
    p.px_per_piece = 50.0;
    let dir = crate::util::scratch();
    let out = generate(&p).expect("generates");
    jigsaw::synth::write(&out, dir.path(), false).expect("writes");
    let files: Vec<_> = out
        .images
        .iter()
        .map(|i| dir.path().join(&i.name))
        .collect();
    let irregular = DescribeOptions {
        critical: CriticalOptions::irregular(),
        ..DescribeOptions::default()
    };
    let first = trace_images(&files, &PipelineOptions::default(), &|_| {});
    let quad = serde_json::to_string(&first.set).unwrap();
    let again = retrace_images(first, irregular.clone(), &|_| {});
    let fresh_options = PipelineOptions {
        describe: irregular,
        ..PipelineOptions::default()
    };
    let fresh = trace_images(&files, &fresh_options, &|_| {});
    assert!(fresh.failures.is_empty(), "{:?}", fresh.failures);
    assert_eq!(fresh.set.pieces.len(), 20);
    assert!(
        fresh.set.pieces.iter().all(|p| p.chain_unit < 1.0),
        "segmented magnified"
    );
    let fresh = serde_json::to_string(&fresh.set).unwrap();
    assert_eq!(serde_json::to_string(&again.set).unwrap(), fresh);
    assert_ne!(
        quad, fresh,
        "the corner models describe the pieces differently"
    );
}

// ---- properties ----------------------------------------------------------------------------

use jigsaw::vision::{describe_piece, trace_mask, DescribeOptions};
use proptest::prelude::*;

/// A jigsaw-like shape: a square of side `size / 2` with a round knob on its right side and a
/// round hole in its bottom side, rotated by `angle` about its centre. Knob necks and hole lips
/// are smoothed (as a die cuts them); the four corners stay sharp.
fn jigsaw_mask(angle: f64, size: u32) -> GrayImage {
    let c = size as f64 / 2.0;
    let s = size as f64 * 0.5;
    let h = s / 2.0;
    let (sin, cos) = angle.sin_cos();
    // Piece coordinates of a pixel, supersampled 4×4 so the rasterisation is fair at any angle.
    let coverage = |x: u32, y: u32, inside: &dyn Fn(f64, f64) -> bool| {
        let mut hits = 0;
        for i in 0..4 {
            for j in 0..4 {
                let px = x as f64 + (i as f64 + 0.5) / 4.0 - 0.5;
                let py = y as f64 + (j as f64 + 0.5) / 4.0 - 0.5;
                let (dx, dy) = (px - c, py - c);
                if inside(cos * dx + sin * dy, -sin * dx + cos * dy) {
                    hits += 1;
                }
            }
        }
        (hits * 255 / 16) as u8
    };
    let body = |u: f64, v: f64| {
        let square = u.abs() <= h && v.abs() <= h;
        let knob = (u - h - s * 0.1).hypot(v) <= s * 0.15;
        let hole = u.hypot(v - h + s * 0.12) <= s * 0.13;
        (square || knob) && !hole
    };
    let near_corner = |u: f64, v: f64| {
        u.abs() <= h && v.abs() <= h && u.abs() > h - s * 0.12 && v.abs() > h - s * 0.12
    };
    let smooth = GrayImage::from_fn(size, size, |x, y| image::Luma([coverage(x, y, &body)]));
    let smooth = imageproc::filter::gaussian_blur_f32(&smooth, (s * 0.03) as f32);
    GrayImage::from_fn(size, size, |x, y| {
        let v = smooth.get_pixel(x, y).0[0] >= 128 || coverage(x, y, &near_corner) >= 128;
        image::Luma([if v { 255 } else { 0 }])
    })
}

fn describe_mask(mask: GrayImage) -> jigsaw::piece_set::Piece {
    let area = mask.pixels().filter(|p| p.0[0] > 0).count() as u64;
    let region = PieceRegion {
        bbox: [0, 0, mask.width(), mask.height()],
        mask,
        area,
    };
    describe_piece(1, "synthetic", &region, &DescribeOptions::default()).unwrap()
}

#[test]
fn synthetic_piece_has_four_corners_and_no_knob_corners() {
    let p = describe_mask(jigsaw_mask(0.0, 300));
    assert_eq!(p.critical_points.len(), 4, "{:?}", p.critical_points);
    assert!(p
        .critical_points
        .iter()
        .all(|c| c.kind == CriticalKind::Discontinuity));
    for c in &p.critical_points {
        assert!((c.angle_deg - 90.0).abs() < 15.0, "{c:?}");
    }
    // Side 1 runs along the top (no knob), the knob side has a large outward area.
    let areas: Vec<f64> = p.chainlets.iter().map(|c| c.features.signed_area).collect();
    assert!(areas.iter().any(|&a| a > 1000.0), "{areas:?}");
    assert!(areas.iter().any(|&a| a < -1000.0), "{areas:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn features_are_invariant_under_rotation(angle in 0.0f64..std::f64::consts::TAU) {
        let base = describe_mask(jigsaw_mask(0.0, 300));
        let turned = describe_mask(jigsaw_mask(angle, 300));
        prop_assert_eq!(turned.chainlets.len(), 4);
        // The chainlets are the same four sides, in the same cyclic order, from another start.
        let f = |p: &jigsaw::piece_set::Piece, k: usize| p.chainlets[k % 4].features.clone();
        let best = (0..4)
            .min_by(|&a, &b| {
                let d = |s: usize| (0..4).map(|k| (f(&base, k).signed_area - f(&turned, k + s).signed_area).abs()).sum::<f64>();
                d(a).total_cmp(&d(b))
            })
            .unwrap();
        for k in 0..4 {
            let (a, b) = (f(&base, k), f(&turned, k + best));
            let side = a.distance_vector_length;
            // Chain length over-counts a digitised line by up to 8.2% at 22.5° (Freeman's
            // even-1/odd-√2 rule: cos θ + (√2 − 1) sin θ): the one feature whose tolerance must
            // cover that bias, plus a few pixels where the chainlet's ends fall.
            prop_assert!((a.chain_length - b.chain_length).abs() < 0.083 * a.chain_length + 3.0, "{k}: {a:?} {b:?}");
            prop_assert!((a.distance_vector_length - b.distance_vector_length).abs() < 0.02 * side + 1.0, "{k}: {a:?} {b:?}");
            prop_assert!((a.signed_area - b.signed_area).abs() < 0.01 * side * side, "{k}: {a:?} {b:?}");
            prop_assert!((a.max_perpendicular - b.max_perpendicular).abs() < 0.02 * side + 1.5, "{k}: {a:?} {b:?}");
            prop_assert!((a.min_perpendicular - b.min_perpendicular).abs() < 0.02 * side + 1.5, "{k}: {a:?} {b:?}");
            // The split of area is only meaningful where there is area (not on a straight side);
            // digitisation can put a 1 px sliver along the whole side on the other side.
            if a.signed_area.abs() > 0.01 * side * side {
                let tol = 0.02 + side / a.signed_area.abs();
                prop_assert!((a.area_ratio - b.area_ratio).abs() < tol, "{k}: {a:?} {b:?}");
            }
            // The distance vector turns with the image (counter-clockwise on screen).
            let turn = (b.distance_vector_angle_deg - a.distance_vector_angle_deg - (-angle.to_degrees())).rem_euclid(360.0);
            prop_assert!(turn.min(360.0 - turn) < 3.0, "{k}: angle {angle} {a:?} {b:?}");
        }
    }

    #[test]
    fn traced_chains_are_closed_boundaries(
        blobs in proptest::collection::vec((4u32..40, 4u32..40, 2u32..12), 1..5)
    ) {
        let mut mask = GrayImage::new(48, 48);
        for (cx, cy, r) in &blobs {
            for y in 0..48u32 {
                for x in 0..48u32 {
                    let d = (x as i64 - *cx as i64).pow(2) + (y as i64 - *cy as i64).pow(2);
                    if d <= (*r as i64).pow(2) {
                        mask.put_pixel(x, y, image::Luma([255]));
                    }
                }
            }
        }
        let c = trace_mask(&mask).unwrap();
        prop_assert_eq!(c.displacement(), (0, 0));
        let fg = |p: [i32; 2]| p[0] >= 0 && p[1] >= 0 && p[0] < 48 && p[1] < 48
            && mask.get_pixel(p[0] as u32, p[1] as u32).0[0] > 0;
        for p in c.points() {
            prop_assert!(fg(p));
            let on_border = (-1..=1).any(|dy| (-1..=1).any(|dx| !fg([p[0] + dx, p[1] + dy])));
            prop_assert!(on_border, "{:?} is interior", p);
        }
        // Start: the topmost, then leftmost pixel of its blob has no foreground above it.
        prop_assert!(!fg([c.start[0], c.start[1] - 1]) && !fg([c.start[0] - 1, c.start[1]]));
        // Inversion and rotation identities.
        prop_assert_eq!(c.inverted().inverted(), c.clone());
        prop_assert_eq!(c.inverted().displacement(), (0, 0));
        prop_assert_eq!(c.rotated(3).rotated(5), c.clone());
        // Turning the mask 90° counter-clockwise turns every code by 2 (same cycle, new start).
        let turned = GrayImage::from_fn(48, 48, |x, y| *mask.get_pixel(47 - y, x));
        let t = trace_mask(&turned).unwrap();
        let want = c.rotated(2).digits();
        let got = t.digits();
        prop_assert_eq!(want.len(), got.len());
        prop_assert!(format!("{got}{got}").contains(&want), "{} vs {}", want, got);
    }
}
