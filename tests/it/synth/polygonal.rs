//! The vision front end on generated polygonal sets (issue: the photo → polygon path): every
//! piece found, and on scans each traced area within a few percent of the truth.

use super::generated::synth_and_trace;
use jigsaw::synth::geometry::{dist, signed_area};

/// Per truth piece: its id and the traced area over the true area (`None` when no single traced piece
/// lies within a seventh of a piece of its centroid).
fn traced_area_ratios(pieces: usize, seed: u64, style: &str) -> Vec<(u32, Option<f64>)> {
    let (truth, v) = synth_and_trace("polygonal", pieces, seed, style, &["--corners", "local"]);
    let found = v["pieces"].as_array().unwrap();
    truth
        .pieces
        .iter()
        .map(|p| {
            let near: Vec<&serde_json::Value> = found
                .iter()
                .filter(|f| {
                    let name = jigsaw::score::file_name(f["image"].as_str().unwrap());
                    let c = [
                        f["centroid"][0].as_f64().unwrap(),
                        f["centroid"][1].as_f64().unwrap(),
                    ];
                    p.image.as_deref().map(jigsaw::score::file_name) == Some(name)
                        && dist(p.centroid.unwrap(), c) < truth.px_per_piece / 7.0
                })
                .collect();
            let [f] = near.as_slice() else {
                return (p.id, None);
            };
            let area = signed_area(p.outline.as_ref().unwrap()).abs();
            (p.id, Some(f["area"].as_f64().unwrap() / area))
        })
        .collect()
}

/// Scans: every piece found with its area within 5 % (anti-aliased rims make pieces about half
/// a pixel fat on light backgrounds, 2–4 % at these sizes). Seeds 12-1 and 14-1 each have a
/// pale cyan piece on a light background that had no pixel above the high threshold and was
/// lost, or came out a third short.
#[test]
fn polygonal_scans_trace_every_piece_at_its_area() {
    let mut bad = Vec::new();
    for (pieces, seed) in [(12, 1), (14, 1), (7, 2), (10, 3)] {
        for (id, r) in traced_area_ratios(pieces, seed, "scan") {
            if !r.is_some_and(|r| (r - 1.0).abs() <= 0.05) {
                bad.push((pieces, seed, id, r));
            }
        }
    }
    assert!(bad.is_empty(), "(pieces, seed, piece, area ratio): {bad:?}");
}

/// Photos: every piece found. Known shortfall, not asserted: photo-style pieces come out
/// 8–17 % too large (blur and JPEG tails, and the drop shadow with the pieces' colour bled
/// into it by chroma subsampling); see docs/segment.md.
#[test]
fn polygonal_photos_trace_every_piece() {
    let mut bad = Vec::new();
    for (pieces, seed) in [(7, 1), (12, 2), (14, 3)] {
        for (id, r) in traced_area_ratios(pieces, seed, "photo") {
            if r.is_none() {
                bad.push((pieces, seed, id));
            }
        }
    }
    assert!(bad.is_empty(), "(pieces, seed, piece) not found: {bad:?}");
}
