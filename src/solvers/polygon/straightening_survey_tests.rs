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
