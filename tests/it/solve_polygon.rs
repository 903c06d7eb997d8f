//! The photo path of the polygon solver (`jigsaw solve --solver polygon`).
//!
//! Library tests: synthetic polygonal puzzles (scan and photo style, 7 to 14 pieces, some
//! pieces face down) are cut into pieces along the rendered pieces' own coverage (the
//! generator's truth outlines in image pixels, rasterised and traced by the real tracer), so
//! the pixel quantisation and corner noise are real while colour segmentation, which is the
//! front end's business and tested there, is left out. The pieces are straightened, solved into
//! the truth's assembled outline and scored against `truth.json`. CLI tests: bad targets.

use crate::util::{run, scratch};
use image::{GrayImage, Luma};
use jigsaw::piece_set::PieceSet;
use jigsaw::score::synthetic::score;
use jigsaw::solvers::polygon::photo::{photo_assembly, photo_options, photo_pieces, photo_puzzle};
use jigsaw::solvers::polygon::{solve, target_area};
use jigsaw::synth::{generate, Kind, Params, Style};
use jigsaw::vision::{describe_piece, DescribeOptions, PieceRegion};

/// Generates a puzzle and traces its pieces from their rasterised truth outlines.
fn traced(pieces: usize, seed: u64, style: Style) -> (jigsaw::synth::truth::Truth, PieceSet) {
    let mut p = Params::new(Kind::Polygonal, pieces, seed);
    p.style = style;
    let truth = generate(&p).expect("generates").truth;
    let mut opts = DescribeOptions::default();
    opts.critical.four_sided = false;
    let mut set = PieceSet::default();
    for (k, t) in truth.pieces.iter().enumerate() {
        let outline = t.outline.as_ref().expect("no missing pieces");
        let (x0, y0) = outline
            .iter()
            .fold((f64::MAX, f64::MAX), |(a, b), q| (a.min(q[0]), b.min(q[1])));
        let (x1, y1) = outline
            .iter()
            .fold((f64::MIN, f64::MIN), |(a, b), q| (a.max(q[0]), b.max(q[1])));
        let (bx, by) = (x0.floor() as i32 - 1, y0.floor() as i32 - 1);
        let (w, h) = (
            (x1.ceil() as i32 - bx + 2) as u32,
            (y1.ceil() as i32 - by + 2) as u32,
        );
        // A pixel is the piece's when its centre is inside (50 % coverage, as segmentation).
        let mask = GrayImage::from_fn(w, h, |x, y| {
            let c = [bx as f64 + x as f64 + 0.5, by as f64 + y as f64 + 0.5];
            Luma([if inside(outline, c) { 255 } else { 0 }])
        });
        let area = mask.pixels().filter(|p| p[0] > 127).count() as u64;
        let region = PieceRegion {
            bbox: [bx as u32, by as u32, w, h],
            mask,
            area,
        };
        let image = t.image.clone().expect("no missing pieces");
        let piece = describe_piece(k as u32 + 1, &image, &region, &opts).expect("traces");
        set.pieces.push(piece);
    }
    (truth, set)
}

fn inside(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
    let mut odd = false;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
        {
            odd = !odd;
        }
    }
    odd
}

fn check(pieces: usize, seed: u64, style: Style) {
    if let Err(e) = attempt(pieces, seed, style) {
        panic!("{e}");
    }
}

#[test]
#[ignore = "survey"]
fn survey() {
    for n in [7, 10, 12, 14] {
        let mut ok = 0;
        for seed in 1..=10 {
            let t = std::time::Instant::now();
            let r = std::panic::catch_unwind(|| attempt(n, seed, Style::Scan));
            let e = match r {
                Ok(Ok(())) => {
                    ok += 1;
                    "ok".to_string()
                }
                Ok(Err(e)) => e,
                Err(_) => "panic".into(),
            };
            eprintln!("{n} {seed} {:.2}s {e}", t.elapsed().as_secs_f64());
            diagnose(n, seed);
        }
        eprintln!("== {n} pieces: {ok}/10");
    }
}

fn turn(a: [f64; 2], p: [f64; 2], b: [f64; 2]) -> f64 {
    let u = [p[0] - a[0], p[1] - a[1]];
    let v = [b[0] - p[0], b[1] - p[1]];
    (u[0] * v[1] - u[1] * v[0])
        .atan2(u[0] * v[0] + u[1] * v[1])
        .to_degrees()
}

fn corners(o: &[[f64; 2]]) -> Vec<([f64; 2], f64)> {
    let n = o.len();
    (0..n)
        .map(|k| (o[k], turn(o[(k + n - 1) % n], o[k], o[(k + 1) % n])))
        .filter(|x| x.1.abs() > 0.01)
        .collect()
}

fn diagnose(n: usize, seed: u64) {
    let (truth, set) = traced(n, seed, Style::Scan);
    let photo = photo_pieces(&set).expect("straightens");
    let mut errs = Vec::new();
    let mut area_t = 0.0;
    for (k, t) in truth.pieces.iter().enumerate() {
        let c = corners(t.outline.as_ref().unwrap());
        area_t += t.area;
        for (p, a) in &c {
            if a.abs() < 5.0 {
                continue;
            }
            let d = photo.polygons[k]
                .iter()
                .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                .fold(f64::MAX, f64::min);
            errs.push(d);
        }
    }
    errs.sort_by(f64::total_cmp);
    eprintln!(
        "   vertex err median {:.2} p90 {:.2} max {:.2}; area {:.4}, noise {:.2}",
        errs[errs.len() / 2],
        errs[errs.len() * 9 / 10],
        errs[errs.len() - 1],
        photo.area / area_t,
        photo.noise_px
    );
    for (k, t) in truth.pieces.iter().enumerate() {
        let c = corners(t.outline.as_ref().unwrap());
        let got = &photo.polygons[k];
        let mut missing = Vec::new();
        for (p, a) in &c {
            let d = got
                .iter()
                .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                .fold(f64::MAX, f64::min);
            if d > 1.5 {
                missing.push(format!("{a:.1}°/{d:.1}px"));
            }
        }
        if !missing.is_empty() || got.len() != c.len() {
            eprintln!(
                "   piece {k}: truth {} got {} missing {:?}",
                c.len(),
                got.len(),
                missing
            );
        }
    }
}

fn attempt(pieces: usize, seed: u64, style: Style) -> Result<(), String> {
    let (truth, set) = traced(pieces, seed, style);
    let flipped = truth.pieces.iter().filter(|p| p.flipped).count();
    let photo = photo_pieces(&set).map_err(|e| e.to_string())?;
    let target = vec![truth.assembled.outline.clone()];
    let puzzle = photo_puzzle(&photo, target);
    let mut options = photo_options(&photo, &puzzle);
    if let Ok(m) = std::env::var("TOLMUL") {
        options.tolerance *= m.parse::<f64>().unwrap();
    }
    if let Ok(m) = std::env::var("ATOL") {
        options.area_tolerance = m.parse::<f64>().unwrap();
    }
    let report =
        solve(&puzzle, &options).map_err(|e| format!("{e} (noise {:.2} px)", photo.noise_px))?;
    let solution = report.solutions.first().ok_or_else(|| {
        format!(
            "no solution, tol {:.4}, {} nodes",
            options.tolerance, report.nodes
        )
    })?;
    // Every piece used once, and the placed pieces cover the target's area.
    let mut used: Vec<usize> = solution.placements.iter().map(|p| p.piece).collect();
    used.sort_unstable();
    if used != (0..pieces).collect::<Vec<_>>() {
        return Err(format!("pieces used: {used:?}"));
    }
    let placed: f64 = solution
        .placements
        .iter()
        .map(|p| target_area(std::slice::from_ref(&p.vertices)))
        .sum();
    let want = target_area(&puzzle.target);
    if (placed - want).abs() / want >= 0.03 {
        return Err(format!("placed {placed} vs target {want}"));
    }
    let assembly = photo_assembly(&set, &photo, solution);
    let negative = assembly
        .pieces
        .iter()
        .filter(|p| {
            p.transform[0][0] * p.transform[1][1] - p.transform[0][1] * p.transform[1][0] < 0.0
        })
        .count();
    let mirrored = solution.placements.iter().filter(|p| p.mirror).count();
    if negative != mirrored {
        return Err(format!(
            "{negative} negative determinants, {mirrored} mirrored"
        ));
    }
    // Pieces lying face down in the photo are turned over in the solution, and only they.
    if mirrored != flipped {
        return Err(format!("{mirrored} mirrored, {flipped} face down"));
    }
    let s = score(&assembly, &truth).map_err(|e| e.to_string())?;
    if !s.perfect {
        return Err(format!("not perfect: {s:?}"));
    }
    Ok(())
}

#[test]
fn seven_pieces_scan_solve_into_their_outline() {
    check(7, 1, Style::Scan);
}

/// Known failure: dissection vertices that bend a side by only 1–3 px are lost or misplaced
/// by straightening, and the solver then finds no fit (see docs/polygon.md).
#[test]
#[ignore = "known failure: near-straight vertices, see docs/polygon.md"]
fn twelve_pieces_photo_solve_into_their_outline() {
    check(12, 4, Style::Photo);
}

/// Known failure: dissection vertices that bend a side by only 1–3 px are lost or misplaced
/// by straightening, and the solver then finds no fit (see docs/polygon.md).
#[test]
#[ignore = "known failure: near-straight vertices, see docs/polygon.md"]
fn fourteen_pieces_scan_solve_into_their_outline() {
    check(14, 5, Style::Scan);
}

/// Runs `jigsaw solve --solver polygon` on a generated 7-piece scan with the target file
/// `name` holding `contents`.
fn solve_with_target(name: &str, contents: &[u8]) -> std::process::Output {
    let dir = scratch();
    let target = dir.path().join(name);
    std::fs::write(&target, contents).unwrap();
    let out = generate(&Params::new(Kind::Polygonal, 7, 1)).expect("generates");
    jigsaw::synth::write(&out, dir.path(), false).expect("writes");
    let img = dir.path().join(&out.images[0].name);
    run(&[
        "solve",
        "--solver",
        "polygon",
        img.to_str().unwrap(),
        "--target",
        target.to_str().unwrap(),
    ])
}

#[test]
fn target_neither_polygon_nor_image_is_an_error() {
    let r = solve_with_target("target.dat", &[0u8, 159, 146, 150, 1, 2, 3]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("target.dat") && stderr.contains("neither a polygon file"),
        "{stderr}"
    );
}

#[test]
fn target_of_the_wrong_size_is_an_area_error() {
    let r = solve_with_target("target.txt", b"target: 0 0, 10 0, 10 10, 0 10\n");
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(stderr.contains("area checksum"), "{stderr}");
}

#[test]
#[ignore = "debug"]
fn replay() {
    use jigsaw::solvers::polygon::geometry::{interior_angle_cw, Tol};
    use jigsaw::solvers::polygon::place::{corner_turn, place_turned, rho};
    use jigsaw::solvers::polygon::records::{clean_simple, oriented};
    use jigsaw::solvers::polygon::symmetry::anchors;
    let n: usize = std::env::var("N").unwrap().parse().unwrap();
    let seed: u64 = std::env::var("SEED").unwrap().parse().unwrap();
    let (truth, set) = traced(n, seed, Style::Scan);
    let photo = photo_pieces(&set).unwrap();
    let puzzle = photo_puzzle(&photo, vec![truth.assembled.outline.clone()]);
    let mut options = photo_options(&photo, &puzzle);
    if let Ok(m) = std::env::var("TOLMUL") {
        options.tolerance *= m.parse::<f64>().unwrap();
    }
    let tol = Tol::new(
        jigsaw::solvers::polygon::puzzle_scale(&puzzle),
        options.tolerance,
    );
    eprintln!(
        "eps {:.2} px angle_eps {:.2}°",
        tol.eps,
        tol.angle_eps.to_degrees()
    );
    diagnose(n, seed);
    let pieces: Vec<Vec<[f64; 2]>> = puzzle
        .pieces
        .iter()
        .map(|p| oriented(clean_simple(p, &tol).unwrap(), true))
        .collect();
    let truth_placed: Vec<Vec<[f64; 2]>> = (0..n)
        .map(|k| {
            let t = truth.pieces[k].transform.unwrap();
            let det = t[0][0] * t[1][1] - t[0][1] * t[1][0];
            pieces[k]
                .iter()
                .map(|q| {
                    let (x, y) = (q[0] - t[0][2], q[1] - t[1][2]);
                    [
                        (t[1][1] * x - t[0][1] * y) / det,
                        (-t[1][0] * x + t[0][0] * y) / det,
                    ]
                })
                .collect()
        })
        .collect();
    for k in 0..n {
        eprintln!(
            "piece {k} assembled {:?}\n          straightened→ {:?}",
            truth.pieces[k].assembled_outline, truth_placed[k]
        );
    }
    eprintln!("target {:?}", truth.assembled.outline);
    let mut region: Vec<Vec<[f64; 2]>> = vec![oriented(
        clean_simple(&puzzle.target[0], &tol).unwrap(),
        false,
    )];
    let mut left: Vec<usize> = (0..n).collect();
    let area = |p: &[[f64; 2]]| jigsaw::solvers::polygon::geometry::signed_area(p).abs();
    while !region.is_empty() {
        let pi = (0..region.len())
            .min_by(|&a, &b| area(&region[a]).total_cmp(&area(&region[b])))
            .unwrap();
        let poly = region[pi].clone();
        let m = poly.len();
        let mut done = false;
        let mut chosen = None;
        {
            let ang_at =
                |j: usize| interior_angle_cw(poly[(j + m - 1) % m], poly[j], poly[(j + 1) % m]);
            let len = |j: usize| {
                (poly[(j + 1) % m][0] - poly[j][0]).hypot(poly[(j + 1) % m][1] - poly[j][1])
            };
            let (e, ae) = (tol.eps, tol.angle_eps);
            let mut line = String::new();
            let mut best: Option<(usize, f64, f64, usize)> = None;
            for j in 0..m {
                let alpha = ang_at(j);
                if alpha >= std::f64::consts::PI - ae {
                    continue;
                }
                let (next_len, next_angle) = (len(j), ang_at((j + 1) % m));
                let (prev_len, prev_angle) = (len((j + m - 1) % m), ang_at((j + m - 1) % m));
                let mut verdict = "none".to_string();
                let mut count = 0;
                for &k in &left {
                    for an in anchors(&pieces[k], true, &tol) {
                        let bad = an.angle > alpha + ae
                            || (next_angle < std::f64::consts::PI && an.side_prev > next_len + e)
                            || (next_angle < std::f64::consts::PI
                                && an.side_prev >= next_len - e
                                && an.angle_prev > next_angle + ae)
                            || (an.angle >= alpha - ae
                                && prev_angle < std::f64::consts::PI
                                && an.side_next > prev_len + e)
                            || (an.angle >= alpha - ae
                                && prev_angle < std::f64::consts::PI
                                && an.side_next >= prev_len - e
                                && an.angle_next > prev_angle + ae);
                        if !bad {
                            count += 1;
                        }
                    }
                }
                let sides = len(j) + len((j + m - 1) % m);
                let better = match best {
                    None => true,
                    Some((bc, ba, bs, _)) => {
                        count < bc
                            || (count == bc
                                && (alpha < ba - ae || (alpha <= ba + ae && sides < bs)))
                    }
                };
                if better {
                    best = Some((count, alpha, sides, j));
                }
                for &k in &left {
                    for an in anchors(&pieces[k], true, &tol) {
                        let (_, placed) = place_turned(
                            &poly,
                            j,
                            &an.local,
                            corner_turn(&poly, j, &an.local, &tol),
                        );
                        let off = placed
                            .iter()
                            .map(|p| {
                                truth_placed[k]
                                    .iter()
                                    .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                                    .fold(f64::MAX, f64::min)
                            })
                            .fold(0.0, f64::max);
                        if off > 3.0 * tol.eps {
                            continue;
                        }
                        let mut why = "pass";
                        if an.angle > alpha + ae {
                            why = "angle";
                        } else if next_angle < std::f64::consts::PI && an.side_prev > next_len + e {
                            why = "next-len";
                        } else if next_angle < std::f64::consts::PI
                            && an.side_prev >= next_len - e
                            && an.angle_prev > next_angle + ae
                        {
                            why = "next-angle";
                        } else if an.angle >= alpha - ae
                            && prev_angle < std::f64::consts::PI
                            && an.side_next > prev_len + e
                        {
                            why = "prev-len";
                        } else if an.angle >= alpha - ae
                            && prev_angle < std::f64::consts::PI
                            && an.side_next >= prev_len - e
                            && an.angle_next > prev_angle + ae
                        {
                            why = "prev-angle";
                        }
                        verdict = format!("p{k}:{why}");
                    }
                }
                if verdict == "none" {
                    let mut bestoff = (f64::MAX, 0);
                    for &k in &left {
                        for an in anchors(&pieces[k], true, &tol) {
                            let (_, placed) = place_turned(
                                &poly,
                                j,
                                &an.local,
                                corner_turn(&poly, j, &an.local, &tol),
                            );
                            let off = placed
                                .iter()
                                .map(|p| {
                                    truth_placed[k]
                                        .iter()
                                        .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                                        .fold(f64::MAX, f64::min)
                                })
                                .fold(0.0, f64::max);
                            if off < bestoff.0 {
                                bestoff = (off, k);
                                eprintln!("      cand p{k} off {off:.1} angle {:.1} prev {:.1} next {:.1} | region next {:.1} {:.1}° prev {:.1} {:.1}° placed {:?}", an.angle.to_degrees(), an.side_prev, an.side_next, next_len, next_angle.to_degrees(), prev_len, prev_angle.to_degrees(), placed);
                            }
                        }
                    }
                    verdict = format!("none(p{} off {:.1})", bestoff.1, bestoff.0);
                }
                line += &format!(" [{j} {:.1}° {count} {verdict}]", alpha.to_degrees());
            }
            eprintln!(" convex:{line} -> best {:?}", best.map(|b| b.3));
            chosen = best.map(|b| b.3);
        }
        for j in chosen.into_iter() {
            let ang = interior_angle_cw(poly[(j + m - 1) % m], poly[j], poly[(j + 1) % m]);
            if ang >= std::f64::consts::PI - tol.angle_eps {
                continue;
            }
            for k in left.clone() {
                for a in anchors(&pieces[k], true, &tol) {
                    let (_, placed) =
                        place_turned(&poly, j, &a.local, corner_turn(&poly, j, &a.local, &tol));
                    let off = placed
                        .iter()
                        .map(|p| {
                            truth_placed[k]
                                .iter()
                                .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                                .fold(f64::MAX, f64::min)
                        })
                        .fold(0.0, f64::max);
                    if off > 3.0 * tol.eps {
                        continue;
                    }
                    let r = rho(&poly, area(&poly), j, &a.local, area(&pieces[k]), &tol);
                    eprintln!("  vertex {j} ({:.1}°, sides {:.1}/{:.1}) piece {k} angle {:.1}° side_prev {:.1} side_next {:.1}: {:?}", ang.to_degrees(),
                        (0..1).map(|_| ((poly[(j+1)%m][0]-poly[j][0]).hypot(poly[(j+1)%m][1]-poly[j][1]))).sum::<f64>(),
                        (0..1).map(|_| ((poly[(j+m-1)%m][0]-poly[j][0]).hypot(poly[(j+m-1)%m][1]-poly[j][1]))).sum::<f64>(),
                        a.angle.to_degrees(), a.side_prev, a.side_next, (off, r.as_ref().map(|x| x.0.len()).map_err(|e| *e)));
                    if r.is_err() {
                        eprintln!(
                            "    placed {:?}\n    truth  {:?}\n    region {:?}",
                            placed, truth_placed[k], poly
                        );
                    }
                    if let Ok((polys, _)) = r {
                        region.remove(pi);
                        region.extend(polys);
                        left.retain(|&x| x != k);
                        done = true;
                        break;
                    }
                }
                if done {
                    break;
                }
            }
            if done {
                break;
            }
            eprintln!(
                "  vertex {j} ({:.1}°): no truth piece fits",
                ang.to_degrees()
            );
        }
        if !done {
            eprintln!(
                "STUCK with {} pieces left, region polygon {:?}",
                left.len(),
                poly
            );
            return;
        }
    }
    eprintln!("replay complete");
}
