//! The vision front end on generated sets: `jigsaw trace` must find every piece of a
//! `jigsaw synth` puzzle, with four corners on classic pieces (issue: synth + score).

use super::generated::{synth_and_trace, synth_with_and_trace};
use jigsaw::synth::geometry::{dist, Pt};

/// What `jigsaw trace` made of a generated set.
#[derive(Debug)]
struct TraceStats {
    expected: usize,
    found: usize,
    /// Truth pieces with exactly one traced piece within a tenth of a piece of its centroid.
    matched: usize,
    clipped_or_merged: usize,
    /// Traced pieces with exactly four slope discontinuities.
    four_corners: usize,
}

impl TraceStats {
    fn ok(&self) -> bool {
        self.found == self.expected
            && self.matched == self.expected
            && self.clipped_or_merged == 0
            && self.four_corners as f64 >= 0.995 * self.found as f64
    }
}

/// Generates a classic puzzle and runs `jigsaw trace --json` on its images (written against
/// the documented trace contract).
fn trace_generated(pieces: usize, style: &str, seed: u64) -> TraceStats {
    let (truth, v) = synth_and_trace("classic", pieces, seed, style, &[]);
    let clipped_or_merged = v["images"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|img| img["rejected"].as_array().unwrap().iter())
        .filter(|r| r["reason"] == "clipped" || r["reason"] == "merged")
        .count();
    let found = v["pieces"].as_array().unwrap();
    let places: Vec<(String, Pt)> = found
        .iter()
        .map(|p| {
            let name = jigsaw::score::file_name(p["image"].as_str().unwrap()).to_string();
            (
                name,
                [
                    p["centroid"][0].as_f64().unwrap(),
                    p["centroid"][1].as_f64().unwrap(),
                ],
            )
        })
        .collect();
    let matched = truth
        .pieces
        .iter()
        .filter(|t| {
            let near = places
                .iter()
                .filter(|(name, c)| {
                    t.image.as_deref().map(jigsaw::score::file_name) == Some(name.as_str())
                        && dist(t.centroid.unwrap(), *c) < 0.1 * truth.px_per_piece
                })
                .count();
            near == 1
        })
        .count();
    let four_corners = found
        .iter()
        .filter(|p| {
            p["critical_points"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["kind"] == "discontinuity")
                .count()
                == 4
        })
        .count();
    TraceStats {
        expected: truth.pieces.len(),
        found: found.len(),
        matched,
        clipped_or_merged,
        four_corners,
    }
}

/// Every piece found, none clipped or merged, four corners on ≥ 99.5 % of them: scans at 12,
/// 100 and 1000 pieces, photos at 12 and 100.
#[test]
fn trace_finds_every_piece_of_generated_scans_and_photos_with_four_corners() {
    let mut report = Vec::new();
    for (style, pieces, seed) in [
        ("scan", 12, 21),
        ("scan", 100, 22),
        ("scan", 1000, 23),
        ("photo", 12, 21),
        ("photo", 100, 22),
    ] {
        let s = trace_generated(pieces, style, seed);
        report.push((style, pieces, s.ok(), s));
    }
    assert!(report.iter().all(|r| r.2), "{report:#?}");
}

/// Photos at 1000 pieces: every piece found too, on two seeds. Seed 23 has the hard cases of
/// white print on a white, clipped background, blurred, where only the faint cardboard rim and
/// the drop shadow outline a piece (segmentation closes those outlines along the rim's ridge,
/// see `src/vision/segment/rim.rs`; before the rim closure 990 of 1000 matched). Seed 24 has
/// two pale cyan pieces, found only through the low pass, welded to each other by a bridge 2–3
/// px wide between a knob tip and the neighbour's side: the re-segmentation from strong pixels
/// alone left specks (998 of 1000), the neck cut gives both (`src/vision/segment/necks.rs`).
#[test]
fn trace_finds_every_piece_of_1000_piece_photo_sets() {
    let report: Vec<(u64, TraceStats)> = [23, 24]
        .into_iter()
        .map(|seed| (seed, trace_generated(1000, "photo", seed)))
        .collect();
    assert!(report.iter().all(|(_, s)| s.ok()), "{report:#?}");
}

/// Mean outward offset, in pixels, of each traced outline from its truth outline: the traced
/// area minus the true area, over the true perimeter (+ = fatter). Truth pieces are matched
/// by centroid, as in [`trace_generated`]; an unmatched truth piece is reported as `NaN`.
/// The traced pieces (from a trace dump's JSON) in the same image as truth piece `t`, with
/// their centroid within a tenth of a piece of its.
fn traced_at<'a>(
    found: &'a [serde_json::Value],
    t: &jigsaw::synth::truth::PieceTruth,
    px_per_piece: f64,
) -> Vec<&'a serde_json::Value> {
    found
        .iter()
        .filter(|p| {
            let c = [
                p["centroid"][0].as_f64().unwrap(),
                p["centroid"][1].as_f64().unwrap(),
            ];
            let name = jigsaw::score::file_name(p["image"].as_str().unwrap());
            t.image.as_deref().map(jigsaw::score::file_name) == Some(name)
                && dist(t.centroid.unwrap(), c) < 0.1 * px_per_piece
        })
        .collect()
}

fn outline_offsets(pieces: usize, style: &str, seed: u64) -> Vec<f64> {
    let (truth, v) = synth_and_trace("classic", pieces, seed, style, &[]);
    let found = v["pieces"].as_array().unwrap();
    truth
        .pieces
        .iter()
        .map(|t| {
            let outline = t.outline.as_ref().unwrap();
            let perimeter: f64 = (0..outline.len())
                .map(|i| dist(outline[i], outline[(i + 1) % outline.len()]))
                .sum();
            let near: Vec<f64> = traced_at(found, t, truth.px_per_piece)
                .iter()
                .map(|p| p["area"].as_f64().unwrap())
                .collect();
            match near[..] {
                [area] => (area - t.area) / perimeter,
                _ => f64::NAN,
            }
        })
        .collect()
}

/// Photos on white paper, which the photo style's light overexposes in part: the traced
/// outlines hug the cut. Before the shade test learnt the clipped paper's true tint
/// (`src/vision/segment/clipping.rs`), a third of the pieces took in their soft drop shadow
/// (offsets up to 4.4–4.7 px on these seeds, against 0.5–1.3 px for the rest, so neighbours'
/// chainlets no longer mated); measured after: 0.51–1.17, 0.12–1.17 and −0.01–1.34 px.
/// The lower bound guards the pale faces near the paper's colour, which a stricter shade test
/// erodes (down to −11 px on classic photo seed 30 at 120 px when the shade test used the noise
/// of clipped pixels).
#[test]
fn outlines_on_overexposed_white_paper_leave_the_drop_shadow_out() {
    let report: Vec<(u64, usize, f64, f64)> = [1, 10, 30]
        .into_iter()
        .map(|seed| {
            let offsets = outline_offsets(100, "photo", seed);
            let unmatched = offsets.iter().filter(|o| o.is_nan()).count();
            let lo = offsets.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = offsets.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (seed, unmatched, lo, hi)
        })
        .collect();
    assert!(
        report
            .iter()
            .all(|&(_, unmatched, lo, hi)| unmatched == 0 && lo >= -0.75 && hi <= 2.0),
        "(seed, unmatched, least, largest offset px): {report:?}"
    );
}

/// Signed distance of `p` from the closed polygon `poly`, pixels (+ outside).
fn signed_distance(p: Pt, poly: &[Pt]) -> f64 {
    let n = poly.len();
    let mut inside = false;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len2 = (ab[0] * ab[0] + ab[1] * ab[1]).max(1e-12);
        let t = (((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / len2).clamp(0.0, 1.0);
        best = best.min(dist(p, [a[0] + t * ab[0], a[1] + t * ab[1]]));
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
        {
            inside = !inside;
        }
    }
    if inside {
        -best
    } else {
        best
    }
}

/// Classic photo `seed` at 120 px per piece, traced: for every traced outline point (boundary
/// pixel centres), how far it lies outside its piece's own median offset from the truth
/// outline (+ = bulging out), over all pieces; and how many truth pieces matched no traced one.
fn outline_bulges(seed: u64) -> (Vec<f64>, usize) {
    photo_outline_bulges("classic", 100, seed, "120", &[])
}

/// [`outline_bulges`] of a `kind` photo set of `pieces` at `px` per piece, traced with
/// `trace_args`.
fn photo_outline_bulges(
    kind: &str,
    pieces: usize,
    seed: u64,
    px: &str,
    trace_args: &[&str],
) -> (Vec<f64>, usize) {
    let (truth, v) = synth_with_and_trace(
        kind,
        pieces,
        seed,
        "photo",
        &["--px-per-piece", px],
        trace_args,
    );
    let found = v["pieces"].as_array().unwrap();
    let mut excess = Vec::new();
    let mut unmatched = 0;
    for t in &truth.pieces {
        let near = traced_at(found, t, truth.px_per_piece);
        let [piece] = near[..] else {
            unmatched += 1;
            continue;
        };
        let chain: jigsaw::chain::ChainCode =
            serde_json::from_value(piece["chain"].clone()).expect("a chain");
        let outline = t.outline.as_ref().unwrap();
        let mut d: Vec<f64> = chain
            .points()
            .iter()
            .map(|q| signed_distance([f64::from(q[0]), f64::from(q[1])], outline))
            .collect();
        let mut sorted = d.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        d.iter_mut().for_each(|x| *x -= median);
        excess.extend(d);
    }
    (excess, unmatched)
}

/// Light, partly overexposed paper: where JPEG's half-resolution chroma tints a piece's drop
/// shadow with its face's hue, segmentation took 2–6 px of the shadow into the mask, in
/// stretches along the shadow side, so mating outlines no longer matched (classic photo seeds
/// 1 and 10 at 120 px solved to 58 and 54 % of neighbours). Bulging outlines are now snapped
/// onto the sharp colour step of the cut (`src/vision/snapped_mask.rs`). Share of outline
/// points more than 2 px outside their piece's median offset, seeds 1 / 10: before 3.9 / 3.0 %,
/// after 0.9 / 0.7 % (a dark-background seed, 2: 2.2 → 1.5 %; the rest is knob necks and
/// corners).
#[test]
fn outlines_on_light_paper_do_not_bulge_into_the_drop_shadow() {
    let report: Vec<(u64, usize, f64)> = [1, 10]
        .into_iter()
        .map(|seed| {
            let (excess, unmatched) = outline_bulges(seed);
            let bulging = excess.iter().filter(|&&x| x > 2.0).count();
            (seed, unmatched, bulging as f64 / excess.len() as f64)
        })
        .collect();
    assert!(
        report
            .iter()
            .all(|&(_, unmatched, share)| unmatched == 0 && share < 0.015),
        "(seed, unmatched, share of points > 2 px out): {report:?}"
    );
}

/// Irregular pieces on light paper: where segmentation took a deep drop shadow into a pale
/// piece's mask, the edge locator found only the shadow's faint outer edge at the mask along
/// part of the bulge, and those points pinned the snapped outline there. Under `--corners
/// irregular` edges much fainter than the piece's typical one are not trusted
/// (`src/vision/bulge_edges.rs`). Seed 1 at 160 px, share of points > 2 px out: 1.95 → 1.21 %.
#[test]
fn irregular_outlines_on_light_paper_do_not_keep_deep_shadow_bulges() {
    let (excess, unmatched) =
        photo_outline_bulges("irregular", 20, 1, "160", &["--corners", "irregular"]);
    let share = excess.iter().filter(|&&x| x > 2.0).count() as f64 / excess.len() as f64;
    assert!(
        unmatched == 0 && share < 0.015,
        "unmatched {unmatched}, share of points > 2 px out {share}"
    );
}
