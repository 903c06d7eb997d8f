//! Tests of `jigsaw synth`: the truth agrees with the rendered images, pieces tile the
//! puzzle, neighbours are symmetric, output is deterministic, bad arguments fail cleanly.

mod generated;
mod polygonal;
mod trace;

use crate::util::{run, sample, scratch};
use jigsaw::synth::coverage::rasterize;
use jigsaw::synth::geometry::{centroid, dist, signed_area, Affine, Pt};
use jigsaw::synth::truth::Truth;
use jigsaw::synth::{generate, Kind, Output, Params, Style};

fn params(kind: Kind, pieces: usize, style: Style, seed: u64) -> Params {
    let mut p = Params::new(kind, pieces, seed);
    p.style = style;
    p.px_per_piece = 48.0;
    p
}

/// Bilinear read of an 8-bit plane at a point (pixel centres at integers).
fn bilinear(w: u32, h: u32, at: impl Fn(u32, u32) -> f64, p: Pt) -> f64 {
    let (x, y) = (
        p[0].clamp(0.0, w as f64 - 1.001),
        p[1].clamp(0.0, h as f64 - 1.001),
    );
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
    let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

fn d_of(a: Pt, b: Pt) -> Pt {
    [b[0] - a[0], b[1] - a[1]]
}

/// For every rendered piece: its image outline is its assembled outline moved by its truth
/// transform, and the rendered anti-aliased mask crosses one half within 1 px of it (inside
/// at 1 px inwards, outside at 1 px outwards).
fn check_outlines_against_masks(out: &Output) {
    let t = &out.truth;
    let (mut probes, mut good) = (0usize, 0usize);
    for p in t.pieces.iter().filter(|p| !p.missing) {
        let tr = Affine(p.transform.expect("a shown piece has a transform"));
        let outline = p.outline.as_ref().expect("a shown piece has an outline");
        for (a, b) in p.assembled_outline.iter().zip(outline) {
            assert!(
                dist(tr.apply(*a), *b) < 0.01,
                "piece {} outline is not its transform",
                p.id
            );
        }
        let img = out
            .images
            .iter()
            .find(|i| Some(&i.name) == p.image.as_ref())
            .expect("its image exists");
        let mask = &img.mask;
        let m = |p: Pt| {
            bilinear(
                mask.width(),
                mask.height(),
                |x, y| mask.get_pixel(x, y)[0] as f64 / 255.0,
                p,
            )
        };
        let orient = signed_area(outline).signum();
        let n = outline.len();
        for i in 0..n {
            let (a, b) = (outline[i], outline[(i + 1) % n]);
            let prev = outline[(i + n - 1) % n];
            let (u, v) = ([a[0] - prev[0], a[1] - prev[1]], d_of(a, b));
            let turn = (u[0] * v[1] - u[1] * v[0]).atan2(u[0] * v[0] + u[1] * v[1]) * orient;
            // Every vertex: the mask's half level passes within 1 px of it; the tip of a corner
            // sharper than 90° is thinner than a pixel for a while, so there the reach is the
            // distance from the tip at which the piece is one pixel wide, plus one.
            let interior = std::f64::consts::PI - turn;
            let reach = if interior < 0.49 * std::f64::consts::PI {
                0.5 / (interior / 2.0).tan() + 1.0
            } else {
                1.0
            };
            let around: Vec<f64> = (0..32)
                .map(|k| {
                    let t = k as f64 * std::f64::consts::TAU / 32.0;
                    m([a[0] + reach * t.cos(), a[1] + reach * t.sin()])
                })
                .collect();
            let (lo, hi) = around
                .iter()
                .fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
            assert!(
                lo <= 0.5 && hi >= 0.5,
                "piece {} ({}): no mask edge within 1 px of {a:?}: {around:?} prev {:?}",
                p.id,
                t.kind as u8,
                outline[(i + n - 1) % n]
            );
            // Every side's midpoint: inside 1 px inwards, outside 1 px outwards.
            let d = [b[0] - a[0], b[1] - a[1]];
            let len = d[0].hypot(d[1]);
            if len < 0.5 {
                continue;
            }
            // Inward normal of a clockwise-on-screen outline (y down) is (-dy, dx).
            let inward = [-d[1] / len * orient, d[0] / len * orient];
            let q = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
            probes += 1;
            let inside = m([q[0] + inward[0], q[1] + inward[1]]);
            let outside = m([q[0] - inward[0], q[1] - inward[1]]);
            if inside >= 0.5 && outside <= 0.5 {
                good += 1;
            }
        }
    }
    // Sides of rounded corner tips are skipped (the vertex test covers them); a midpoint in a
    // narrow knob neck can see both sides.
    assert!(
        good as f64 >= 0.99 * probes as f64,
        "{good}/{probes} outline probes agree with the mask"
    );
}

/// Scan-style piece faces show the picture at the truth transform: pixels well inside each
/// piece equal `solution.png` read through the inverse transform, up to sensor noise; the
/// same check with the transform off by 3 px fails.
fn check_faces_against_solution(out: &Output) -> (f64, f64) {
    let sol = &out.solution;
    let (mut err, mut err_shifted, mut count) = (0.0, 0.0, 0usize);
    for p in out
        .truth
        .pieces
        .iter()
        .filter(|p| !p.missing && !p.extraneous)
    {
        let inv = Affine(p.transform.unwrap()).inverse();
        let img = out
            .images
            .iter()
            .find(|i| Some(&i.name) == p.image.as_ref())
            .unwrap();
        let rgb = image::load_from_memory(&img.bytes).unwrap().to_rgb8();
        let cov = rasterize(p.outline.as_ref().unwrap());
        for ly in (2..cov.h.saturating_sub(2)).step_by(3) {
            for lx in (2..cov.w.saturating_sub(2)).step_by(3) {
                let solid = (-2..=2).all(|dy: i64| {
                    (-2..=2).all(|dx: i64| {
                        cov.at(cov.x0 + lx as i64 + dx, cov.y0 + ly as i64 + dy) >= 1.0
                    })
                });
                if !solid {
                    continue;
                }
                let (x, y) = ((cov.x0 + lx as i64) as u32, (cov.y0 + ly as i64) as u32);
                let q = inv.apply([x as f64, y as f64]);
                let qs = [q[0] + 3.0, q[1]];
                for k in 0..3 {
                    let seen = rgb.get_pixel(x, y)[k] as f64;
                    let s = |p: Pt| {
                        bilinear(
                            sol.width(),
                            sol.height(),
                            |x, y| sol.get_pixel(x, y)[k] as f64,
                            p,
                        )
                    };
                    err += (seen - s(q)).abs();
                    err_shifted += (seen - s(qs)).abs();
                    count += 1;
                }
            }
        }
    }
    assert!(count > 1000, "too few interior pixels checked ({count})");
    (err / count as f64, err_shifted / count as f64)
}

#[test]
fn truth_transforms_put_every_outline_on_the_rendered_piece() {
    for (kind, style, seed) in [
        (Kind::Classic, Style::Scan, 1),
        (Kind::Classic, Style::Photo, 2),
        (Kind::Irregular, Style::Scan, 3),
        (Kind::Irregular, Style::Photo, 4),
        (Kind::Polygonal, Style::Scan, 5),
    ] {
        let mut p = params(kind, 16, style, seed);
        p.extra = 2;
        p.missing = 1;
        let out = generate(&p).unwrap();
        check_outlines_against_masks(&out);
        if style == Style::Scan {
            let (err, shifted) = check_faces_against_solution(&out);
            assert!(err < 3.0, "{kind:?}: mean face error {err:.2} levels");
            assert!(
                shifted > err + 1.5,
                "{kind:?}: a 3 px shift is not detected ({shifted:.2} vs {err:.2})"
            );
        }
    }
}

#[test]
fn pieces_tile_the_puzzle_without_gaps_or_overlaps() {
    for (kind, n) in [
        (Kind::Classic, 20),
        (Kind::Irregular, 30),
        (Kind::Polygonal, 15),
    ] {
        let out = generate(&params(kind, n, Style::Scan, 7)).unwrap();
        let t = &out.truth;
        let exterior = signed_area(&t.assembled.outline);
        let pieces: f64 = t
            .pieces
            .iter()
            .map(|p| signed_area(&p.assembled_outline))
            .sum();
        // Rounded corners (1% of a piece) leave tiny holes at junctions and nothing else.
        assert!(
            pieces <= exterior * (1.0 + 1e-9),
            "{kind:?}: pieces overlap ({pieces} > {exterior})"
        );
        assert!(
            pieces >= exterior * 0.998,
            "{kind:?}: gaps ({pieces} < {exterior})"
        );
        // Pixel by pixel: summed coverage never exceeds one, and fills the inside.
        let (w, h) = (t.assembled.width as usize, t.assembled.height as usize);
        let mut sum = vec![0f64; w * h];
        for p in &t.pieces {
            let c = rasterize(&p.assembled_outline);
            for ly in 0..c.h {
                for lx in 0..c.w {
                    let (x, y) = (c.x0 + lx as i64, c.y0 + ly as i64);
                    sum[y as usize * w + x as usize] += c.data[ly * c.w + lx] as f64;
                }
            }
        }
        let worst = (0..sum.len())
            .max_by(|&a, &b| sum[a].total_cmp(&sum[b]))
            .unwrap();
        // (A convex-looking corner that is slightly wavy at the pixel scale can make its
        // rounding arc stray by a thousandth of a pixel.)
        assert!(
            sum[worst] <= 1.0 + 1e-2,
            "{kind:?}: overlapping coverage {} at {:?}",
            sum[worst],
            (worst % w, worst / w)
        );
        let ext = rasterize(&t.assembled.outline);
        let mut holes = 0;
        for ly in 0..ext.h {
            for lx in 0..ext.w {
                let (x, y) = (ext.x0 + lx as i64, ext.y0 + ly as i64);
                if ext.data[ly * ext.w + lx] >= 1.0 && sum[y as usize * w + x as usize] < 0.9 {
                    holes += 1;
                }
            }
        }
        assert!(
            holes <= t.junctions.len(),
            "{kind:?}: {holes} uncovered pixels inside the puzzle"
        );
    }
}

#[test]
fn neighbour_lists_are_symmetric_and_cuts_are_shared() {
    for kind in [Kind::Classic, Kind::Irregular, Kind::Polygonal] {
        let out = generate(&params(kind, 25, Style::Scan, 11)).unwrap();
        let t = &out.truth;
        for p in &t.pieces {
            for nb in &p.neighbours {
                let q = &t.pieces[nb.id as usize - 1];
                let back = q.neighbours.iter().find(|m| m.id == p.id);
                let back = back
                    .unwrap_or_else(|| panic!("{kind:?}: {} lists {} but not back", p.id, q.id));
                assert_eq!(back.boundary, nb.boundary);
                assert!(nb.length > 0.0);
                // The cut lies on both outlines.
                for b in nb.boundary.iter().flatten().step_by(5) {
                    for piece in [p, q] {
                        let near = piece
                            .assembled_outline
                            .iter()
                            .map(|o| dist(*o, *b))
                            .fold(f64::MAX, f64::min);
                        assert!(
                            near < 1.5,
                            "{kind:?}: cut point {b:?} is {near} px from piece {}",
                            piece.id
                        );
                    }
                }
            }
        }
        for j in &t.junctions {
            assert_eq!(
                j.radiality as usize,
                j.pieces.len() + usize::from(j.exterior)
            );
            assert!(j.radiality >= 3);
        }
    }
}

#[test]
fn irregular_puzzles_have_junctions_of_radiality_three_four_and_five() {
    let out = generate(&params(Kind::Irregular, 100, Style::Scan, 1)).unwrap();
    let interior: Vec<u32> = out
        .truth
        .junctions
        .iter()
        .filter(|j| !j.exterior)
        .map(|j| j.radiality)
        .collect();
    for r in [3, 4, 5] {
        assert!(
            interior.contains(&r),
            "no interior junction of radiality {r}"
        );
    }
}

#[test]
fn missing_and_extraneous_pieces_are_recorded() {
    let mut p = params(Kind::Classic, 20, Style::Scan, 5);
    p.missing = 2;
    p.extra = 3;
    let t = generate(&p).unwrap().truth;
    assert_eq!(t.pieces.len(), 23);
    let missing: Vec<_> = t.pieces.iter().filter(|p| p.missing).collect();
    assert_eq!(missing.len(), 2);
    assert!(missing
        .iter()
        .all(|p| p.image.is_none() && p.transform.is_none() && !p.extraneous));
    let extra: Vec<_> = t.pieces.iter().filter(|p| p.extraneous).collect();
    assert_eq!(
        extra.iter().map(|p| p.id).collect::<Vec<_>>(),
        vec![21, 22, 23]
    );
    assert!(extra
        .iter()
        .all(|p| p.image.is_some() && p.neighbours.is_empty()));
    let shown: usize = t.images.iter().map(|i| i.pieces.len()).sum();
    assert_eq!(shown, 21);
}

#[test]
fn polygonal_pieces_may_lie_face_down_and_the_truth_says_so() {
    let t = generate(&params(Kind::Polygonal, 20, Style::Scan, 2))
        .unwrap()
        .truth;
    let flipped: Vec<_> = t.pieces.iter().filter(|p| p.flipped).collect();
    assert!(!flipped.is_empty() && flipped.len() < 20);
    for p in &t.pieces {
        let det = Affine(p.transform.unwrap()).det();
        assert!((det - if p.flipped { -1.0 } else { 1.0 }).abs() < 1e-6);
    }
    let mut no = params(Kind::Polygonal, 20, Style::Scan, 2);
    no.flip = false;
    assert!(generate(&no)
        .unwrap()
        .truth
        .pieces
        .iter()
        .all(|p| !p.flipped));
}

#[test]
fn images_hold_at_most_forty_pieces_spread_evenly() {
    let out = generate(&params(Kind::Classic, 100, Style::Scan, 3)).unwrap();
    let counts: Vec<usize> = out.truth.images.iter().map(|i| i.pieces.len()).collect();
    assert_eq!(counts, vec![33, 33, 34]);
    for p in &out.truth.pieces {
        let c = centroid(p.outline.as_ref().unwrap());
        assert!(dist(c, p.centroid.unwrap()) < 0.01);
    }
}

/// Every file under `root`, as paths relative to it, sorted.
fn all_files(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn same_arguments_give_byte_identical_files() {
    let (a, b) = (scratch(), scratch());
    for dir in [a.path(), b.path()] {
        for (kind, style, extra) in [("classic", "photo", "2"), ("irregular", "scan", "0")] {
            let o = run(&[
                "--quiet",
                "synth",
                "--kind",
                kind,
                "--pieces",
                "14",
                "--seed",
                "9",
                "--style",
                style,
                "--px-per-piece",
                "40",
                "--missing",
                "1",
                "--extra",
                extra,
                "-o",
                dir.join(kind).to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
    }
    let mut files = 0;
    for kind in ["classic", "irregular"] {
        for rel in all_files(&a.path().join(kind)) {
            let (x, y) = (
                a.path().join(kind).join(&rel),
                b.path().join(kind).join(&rel),
            );
            assert_eq!(
                std::fs::read(&x).unwrap(),
                std::fs::read(&y).unwrap(),
                "{} differs",
                x.display()
            );
            files += 1;
        }
    }
    assert_eq!(files, 6);
}

#[test]
fn bad_arguments_fail_with_one_clear_message() {
    let dir = scratch();
    let o = dir.path().join("out");
    let out = o.to_str().unwrap();
    for (args, needle) in [
        (vec!["synth", "--pieces", "0", "-o", out], "--pieces"),
        (
            vec!["synth", "--px-per-piece", "3", "-o", out],
            "--px-per-piece",
        ),
        (
            vec!["synth", "--pieces", "5", "--missing", "5", "-o", out],
            "--missing",
        ),
        (
            vec![
                "synth",
                "--pieces",
                "20000",
                "--px-per-piece",
                "2000",
                "-o",
                out,
            ],
            "pixels",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(!o.exists(), "{args:?} wrote output");
    }
}

#[test]
fn json_summary_and_bundled_samples() {
    let dir = scratch();
    let r = run(&[
        "--json",
        "synth",
        "--pieces",
        "6",
        "-o",
        dir.path().to_str().unwrap(),
    ]);
    assert!(r.status.success());
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["pieces"], 6);
    for name in [
        "classic-12-scan",
        "classic-30-photo",
        "irregular-20-scan",
        "polygonal-10-scan",
    ] {
        let d = sample(&format!("synth/{name}"));
        let t = Truth::from_json(&std::fs::read_to_string(d.join("truth.json")).unwrap()).unwrap();
        assert!(d.join("solution.png").is_file());
        for img in &t.images {
            let i = image::open(d.join(&img.path)).unwrap();
            assert_eq!((i.width(), i.height()), (img.width, img.height));
        }
        let n: usize = name.split('-').nth(1).unwrap().parse().unwrap();
        assert_eq!(t.pieces.len(), n, "{name}");
    }
}

#[test]
fn regenerating_into_a_used_folder_leaves_no_stale_images() {
    let dir = scratch();
    let out = dir.path().join("set");
    let o = out.to_str().unwrap();
    let gen = |pieces: &str, style: &str| {
        let r = run(&[
            "--quiet",
            "synth",
            "--pieces",
            pieces,
            "--style",
            style,
            "--px-per-piece",
            "20",
            "--masks",
            "-o",
            o,
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    };
    gen("90", "scan");
    assert!(out.join("images/scan-003.png").is_file() && out.join("masks/scan-003.png").is_file());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    gen("10", "photo");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["images", "masks", "notes.txt", "solution.png", "truth.json"]
    );
    assert_eq!(
        all_files(&out.join("images")),
        [std::path::PathBuf::from("photo-001.jpg")]
    );
    assert_eq!(
        all_files(&out.join("masks")),
        [std::path::PathBuf::from("photo-001.png")]
    );
}
