//! Accuracy of the straightening on synthetic dissections (truth masks, seeds 1..=10, 7 to 14
//! pieces): for every truth corner, the straightened vertex nearest to it (within 3 px), its
//! position error and the error of its interior angle, summarised by how sharp the corner is.
//! Run with `cargo test --release --lib straightening_accuracy -- --ignored --nocapture`.

use super::geometry::{dist, Pt};
use super::photo::photo_pieces;
use super::truth_masks::traced_truth;
use crate::synth::{generate, Kind, Params, Style};

/// The unsigned angle at `b` between the directions to `a` and `c`, degrees.
fn opening(a: Pt, b: Pt, c: Pt) -> f64 {
    let (u, v) = ([a[0] - b[0], a[1] - b[1]], [c[0] - b[0], c[1] - b[1]]);
    (u[0] * v[1] - u[1] * v[0])
        .abs()
        .atan2(u[0] * v[0] + u[1] * v[1])
        .to_degrees()
}

fn summary(name: &str, v: &mut [f64]) -> String {
    if v.is_empty() {
        return format!("{name}: none");
    }
    v.sort_by(f64::total_cmp);
    let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
    format!(
        "{name}: n {} median {:.2} p90 {:.2} max {:.2}",
        v.len(),
        q(0.5),
        q(0.9),
        q(1.0)
    )
}

#[test]
#[ignore = "survey: --ignored --nocapture"]
fn straightening_accuracy() {
    let seeds: u64 = std::env::var("SURVEY_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    // Buckets by the truth corner's opening: sharp (< 45°), middle, obtuse (> 135°, flat).
    let mut angle: [Vec<f64>; 3] = Default::default();
    let mut position: [Vec<f64>; 3] = Default::default();
    let (mut missing, mut extra, mut total) = (0, 0, 0);
    for n in [7, 10, 12, 14] {
        for seed in 1..=seeds {
            let mut params = Params::new(Kind::Polygonal, n, seed);
            params.style = Style::Scan;
            let truth = generate(&params).expect("generates").truth;
            let set = traced_truth(&truth);
            let photo = photo_pieces(&set).expect("straightens");
            for (k, st) in photo.polygons.iter().enumerate() {
                let t = truth.pieces[k].outline.as_ref().expect("outline");
                let (tn, sn) = (t.len(), st.len());
                let mut matched = 0;
                for i in 0..tn {
                    let a = opening(t[(i + tn - 1) % tn], t[i], t[(i + 1) % tn]);
                    if a > 178.0 {
                        continue;
                    }
                    total += 1;
                    let Some((j, d)) = (0..sn)
                        .map(|j| (j, dist(st[j], t[i])))
                        .min_by(|x, y| x.1.total_cmp(&y.1))
                        .filter(|x| x.1 <= 3.0)
                    else {
                        missing += 1;
                        continue;
                    };
                    matched += 1;
                    let b = opening(st[(j + sn - 1) % sn], st[j], st[(j + 1) % sn]);
                    let bucket = if a < 45.0 {
                        0
                    } else if a <= 135.0 {
                        1
                    } else {
                        2
                    };
                    angle[bucket].push((b - a).abs());
                    position[bucket].push(d);
                    if a < 45.0 && (b - a).abs() > 1.0 {
                        println!("{n}:{seed} piece {k}: {a:.1}° measured {b:.1}°, {d:.2} px");
                    }
                }
                extra += sn.saturating_sub(matched);
            }
        }
    }
    println!("corners {total}, missing {missing}, extra vertices {extra}");
    for (b, name) in ["sharp <45°", "45–135°", "flat >135°"].iter().enumerate() {
        println!(
            "{}",
            summary(&format!("{name} angle error °"), &mut angle[b])
        );
        println!(
            "{}",
            summary(&format!("{name} vertex error px"), &mut position[b])
        );
    }
}

/// What one rendered puzzle's straightened pieces got right (see [`straightening_rendered`]).
#[derive(Default)]
struct Tally {
    /// Pieces with every truth corner within 3 px of a vertex and no other vertex.
    exact: usize,
    pieces: usize,
    corners: usize,
    missing: usize,
    extra: usize,
    /// Distance of each corner found from its nearest vertex, pixels.
    errors: Vec<f64>,
}

/// One rendered puzzle's [`Tally`] (`None`: it did not straighten).
fn tally(n: usize, seed: u64, style: Style, verbose: bool) -> Option<Tally> {
    let how = super::photo::Straightening {
        past_shadow_ramps: std::env::var("SURVEY_RAMPS").is_ok(),
        ..Default::default()
    };
    let (truth, photo, order) = super::truth_masks::rendered_with(n, seed, style, how)?;
    let mut out = Tally {
        pieces: photo.polygons.len(),
        ..Tally::default()
    };
    for (i, st) in photo.polygons.iter().enumerate() {
        let t = truth.pieces[order[i]].outline.as_ref().expect("outline");
        let tn = t.len();
        let (mut miss, mut matched) = (0, 0);
        for k in 0..tn {
            let a = opening(t[(k + tn - 1) % tn], t[k], t[(k + 1) % tn]);
            if a > 178.0 {
                continue;
            }
            out.corners += 1;
            let d = st.iter().map(|&q| dist(q, t[k])).fold(f64::MAX, f64::min);
            if d <= 3.0 {
                matched += 1;
                out.errors.push(d);
            } else {
                miss += 1;
                if verbose {
                    println!("  {n}:{seed} piece {i}: {a:.0}° corner missed by {d:.1} px");
                }
            }
        }
        let more = st.len().saturating_sub(matched);
        out.missing += miss;
        out.extra += more;
        out.exact += usize::from(miss == 0 && more == 0);
    }
    if verbose && out.exact < out.pieces {
        println!(
            "{n}:{seed}: {}/{} pieces exact, {} corners missed, {} extra",
            out.exact, out.pieces, out.missing, out.extra
        );
    }
    Some(out)
}

/// The same on rendered images as the CLI traces them ([`super::truth_masks::rendered`]):
/// per puzzle, how many pieces straighten into their truth polygon (every truth corner with a
/// vertex within 3 px, no other vertex), and over all pieces the corners missed, the extra
/// vertices and the vertex errors. Why: a front-end change is measured here in a minute or
/// two, where the solve survey (`scripts/survey-polygon-photos`) takes a quarter of an hour.
/// Run with `SURVEY_SEEDS=1..40 SURVEY_STYLE=photo cargo test --release --lib
/// straightening_rendered -- --ignored --nocapture` (`SURVEY_RAMPS=1`: snapped past the
/// shadows' far edges, `photo::Straightening::past_shadow_ramps`; `SURVEY_VERBOSE=1`: the
/// puzzles not straightened exactly and the corners missed).
#[test]
#[ignore = "survey: --ignored --nocapture"]
fn straightening_rendered() {
    use rayon::prelude::*;
    let range = std::env::var("SURVEY_SEEDS").unwrap_or_else(|_| "1..10".into());
    let (lo, hi) = range.split_once("..").expect("SURVEY_SEEDS=lo..hi");
    let (lo, hi): (u64, u64) = (lo.parse().expect("lo"), hi.parse().expect("hi"));
    let style = match std::env::var("SURVEY_STYLE").as_deref() {
        Ok("scan") => Style::Scan,
        _ => Style::Photo,
    };
    let verbose = std::env::var("SURVEY_VERBOSE").is_ok();
    let jobs: Vec<(usize, u64)> = [7, 10, 12, 14]
        .into_iter()
        .flat_map(|n| (lo..=hi).map(move |s| (n, s)))
        .collect();
    let tallies: Vec<Tally> = jobs
        .par_iter()
        .filter_map(|&(n, seed)| tally(n, seed, style, verbose))
        .collect();
    let mut all = Tally::default();
    for t in tallies {
        all.exact += t.exact;
        all.pieces += t.pieces;
        all.corners += t.corners;
        all.missing += t.missing;
        all.extra += t.extra;
        all.errors.extend(t.errors);
    }
    println!(
        "pieces exact {}/{}, corners {}, missing {}, extra {}",
        all.exact, all.pieces, all.corners, all.missing, all.extra
    );
    let far = all.errors.iter().filter(|&&d| d > 1.5).count();
    println!(
        "{}, over 1.5 px {far}",
        summary("vertex error px", &mut all.errors)
    );
}
