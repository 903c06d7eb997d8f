//! Synthetic dissections as the photo path sees them without segmentation: every piece's
//! truth outline rasterised at pixel centres and traced by the real tracer (for the
//! diagnoses in `replay_tests` and `chirality_tests`), and the same from rendered images.

use super::geometry::dist;
use crate::piece_set::PieceSet;
use crate::synth::{generate, Kind, Params, Style};
use crate::vision::DescribeOptions;

/// The pieces traced from their truth outlines rasterised at pixel centres, with the
/// polygon path's corner model (every local discontinuity, no four-sided model).
pub(super) fn traced_truth(truth: &crate::synth::truth::Truth) -> PieceSet {
    let mut opts = DescribeOptions::default();
    opts.critical.four_sided = false;
    crate::synth::truth_masks::traced_truth(truth, &opts).expect("truth outlines trace")
}

/// The straightened pieces of a rendered puzzle as the CLI makes them (edge calibration
/// included), with the truth and, per piece, the index of its truth piece.
pub(super) fn rendered(
    pieces: usize,
    seed: u64,
    style: Style,
) -> Option<(
    crate::synth::truth::Truth,
    crate::solvers::polygon::photo::PhotoPieces,
    Vec<usize>,
)> {
    rendered_with(pieces, seed, style, Default::default())
}

/// [`rendered`] with the pieces straightened as `how` says.
pub(super) fn rendered_with(
    pieces: usize,
    seed: u64,
    style: Style,
    how: crate::solvers::polygon::photo::Straightening,
) -> Option<(
    crate::synth::truth::Truth,
    crate::solvers::polygon::photo::PhotoPieces,
    Vec<usize>,
)> {
    let mut params = Params::new(Kind::Polygonal, pieces, seed);
    params.style = style;
    let out = generate(&params).expect("generates");
    let dir = tempfile::tempdir().expect("temp dir");
    crate::synth::write(&out, dir.path(), false).expect("writes");
    let truth = out.truth;
    let opts = crate::vision::PipelineOptions::default().for_polygons();
    let (files, _) = crate::vision::collect_inputs(&[dir.path().join("images")]);
    let run = crate::vision::trace_images(&files, &opts, &|_| {});
    let set = run.set;
    println!(
        "-- rendered: {} pieces traced of {pieces}, {} failures",
        set.pieces.len(),
        run.failures.len()
    );
    let image = |p: &str| crate::vision::load_image(std::path::Path::new(p), &opts.limits).ok();
    let mut photo =
        match crate::solvers::polygon::photo::photo_pieces_on_images_at(&set, image, how) {
            Ok(p) => p,
            Err(e) => {
                println!("{e}");
                return None;
            }
        };
    let offset = crate::solvers::polygon::photo::calibrate_edges(
        &mut photo,
        crate::solvers::polygon::target_area(std::slice::from_ref(&truth.assembled.outline)),
        crate::solvers::polygon::photo::MAX_EDGE_BIAS_PX,
    );
    println!("edge offset {offset:.2} px");
    // Which truth piece each traced piece is: same image, nearest centroid.
    let order: Vec<usize> = set
        .pieces
        .iter()
        .map(|p| {
            (0..truth.pieces.len())
                .filter(|&k| {
                    truth.pieces[k]
                        .image
                        .as_ref()
                        .is_some_and(|im| p.image.ends_with(im.as_str()))
                })
                .min_by(|&a, &b| {
                    let d = |k: usize| {
                        let c = truth.pieces[k].centroid.unwrap_or([0.0, 0.0]);
                        dist(c, p.centroid)
                    };
                    d(a).total_cmp(&d(b))
                })
                .unwrap_or(0)
        })
        .collect();
    Some((truth, photo, order))
}
