//! Tests of assembly and `jigsaw solve`.
//!
//! Assembly is tested in isolation on generated puzzles whose pieces come straight from the
//! generator's ground truth (outline quantised to a pixel chain, critical points at the true
//! junctions), so a failure here is the solver's, not the front end's. The end-to-end tests
//! run the whole pipeline (library or binary) on rendered images.

use crate::util::{run, sample, scratch};
use jigsaw::assembly::{assemble, Assembly};
use jigsaw::chain::ChainCode;
use jigsaw::piece_set::{Chainlet, CriticalKind, CriticalPoint, Piece, PieceSet};
use jigsaw::score::synthetic::score;
use jigsaw::synth::truth::Truth;
use jigsaw::synth::{generate, Kind, Output, Params};
use jigsaw::vision::{trace_images, PipelineOptions, TraceRun};

fn puzzle(kind: Kind, pieces: usize, seed: u64, px: f64, missing: usize, extra: usize) -> Truth {
    let mut p = Params::new(kind, pieces, seed);
    p.px_per_piece = px;
    p.missing = missing;
    p.extra = extra;
    generate(&p).expect("generates").truth
}

/// The pixel chain of a polygon in image coordinates, clockwise on screen.
fn chain_of(outline: &[[f64; 2]]) -> ChainCode {
    let mut pts: Vec<[i32; 2]> = Vec::new();
    for i in 0..outline.len() {
        let (a, b) = (outline[i], outline[(i + 1) % outline.len()]);
        let steps = ((b[0] - a[0]).abs().max((b[1] - a[1]).abs()) * 2.0)
            .ceil()
            .max(1.0) as usize;
        for k in 0..steps {
            let f = k as f64 / steps as f64;
            let q = [
                (a[0] + (b[0] - a[0]) * f).round() as i32,
                (a[1] + (b[1] - a[1]) * f).round() as i32,
            ];
            if pts.last() != Some(&q) {
                pts.push(q);
            }
        }
    }
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    let mut linked: Vec<[i32; 2]> = Vec::new();
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        linked.push(a);
        if (b[0] - a[0]).abs() > 1 || (b[1] - a[1]).abs() > 1 {
            linked.push([a[0] + (b[0] - a[0]).signum(), a[1] + (b[1] - a[1]).signum()]);
        }
    }
    let twice_area: i64 = (0..linked.len())
        .map(|i| {
            let (a, b) = (linked[i], linked[(i + 1) % linked.len()]);
            (a[0] * b[1] - b[0] * a[1]) as i64
        })
        .sum();
    if twice_area < 0 {
        linked.reverse();
    }
    ChainCode::from_points(&linked, true).expect("linked points are 8-neighbours")
}

/// A piece set from the truth: the pieces as the images show them, split at true corners.
fn truth_piece_set(truth: &Truth) -> PieceSet {
    let outer = {
        let o = &truth.assembled.outline;
        let (x0, x1) = o
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p[0]), b.max(p[0])));
        let (y0, y1) = o
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p[1]), b.max(p[1])));
        [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    };
    let mut pieces = Vec::new();
    for pt in &truth.pieces {
        let (Some(image), Some(t), Some(outline), Some(centroid)) =
            (&pt.image, pt.transform, &pt.outline, pt.centroid)
        else {
            continue;
        };
        let map = |p: [f64; 2]| {
            [
                t[0][0] * p[0] + t[0][1] * p[1] + t[0][2],
                t[1][0] * p[0] + t[1][1] * p[1] + t[1][2],
            ]
        };
        let chain = chain_of(outline);
        let points = chain.points();
        let nearest = |q: [f64; 2]| -> usize {
            let d = |k: usize| {
                (points[k][0] as f64 - q[0]).powi(2) + (points[k][1] as f64 - q[1]).powi(2)
            };
            (0..chain.len())
                .min_by(|&i, &j| d(i).total_cmp(&d(j)))
                .expect("non-empty chain")
        };
        let mut corners: Vec<[f64; 2]> = truth
            .junctions
            .iter()
            .filter(|j| j.pieces.contains(&pt.id))
            .map(|j| j.position)
            .collect();
        for o in outer {
            if pt
                .assembled_outline
                .iter()
                .any(|p| (p[0] - o[0]).hypot(p[1] - o[1]) < 3.0)
            {
                corners.push(o);
            }
        }
        let mut critical: Vec<CriticalPoint> = corners
            .iter()
            .map(|&c| {
                let i = nearest(map(c));
                CriticalPoint {
                    index: i,
                    x: points[i][0] as f64,
                    y: points[i][1] as f64,
                    angle_deg: 90.0,
                    kind: CriticalKind::Discontinuity,
                }
            })
            .collect();
        critical.sort_by_key(|c| c.index);
        critical.dedup_by_key(|c| c.index);
        let chainlets = jigsaw::chainlets::chainlet_spans(pt.id, &critical)
            .into_iter()
            .map(|(label, start, end)| Chainlet {
                features: jigsaw::features::chainlet_features(
                    &chain.sub_chain(start, end).unwrap(),
                ),
                label,
                start,
                end,
            })
            .collect();
        pieces.push(Piece {
            id: pt.id,
            image: image.clone(),
            bbox: [0, 0, 1, 1],
            centroid,
            area: pt.area,
            chain,
            chain_unit: 1.0,
            critical_points: critical,
            chainlets,
            polygon: Vec::new(),
        });
    }
    PieceSet {
        images: Vec::new(),
        pieces,
    }
}

fn solve_truth(truth: &Truth) -> (Assembly, jigsaw::score::ScoreReport) {
    let set = truth_piece_set(truth);
    let report = assemble(&set);
    let scored = score(&report.assembly, truth).expect("scores");
    (report.assembly, scored)
}

#[test]
fn classic_36_from_true_corners_is_perfect() {
    let truth = puzzle(Kind::Classic, 36, 5, 160.0, 0, 0);
    let (a, s) = solve_truth(&truth);
    assert_eq!(a.clusters, 1);
    assert!(s.perfect, "{}", s.summary());
}

#[test]
fn classic_100_from_true_corners_is_perfect() {
    let truth = puzzle(Kind::Classic, 100, 7, 150.0, 0, 0);
    let (a, s) = solve_truth(&truth);
    assert_eq!(a.clusters, 1);
    assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    assert!(a.junctions.iter().all(|j| j.radiality >= 3));
}

/// End to end on rendered images: generated images → segmentation, tracing, corners,
/// features → assembly, scored against the generator's truth; 100 classic pieces at 120 px,
/// several seeds so no one layout decides. Returns (mean neighbour accuracy, fewest placed).
fn classic_100_end_to_end(style: jigsaw::synth::Style, seeds: &[u64]) -> (f64, usize) {
    let mut p = Params::new(Kind::Classic, 100, 0);
    p.px_per_piece = 120.0;
    p.style = style;
    end_to_end(&p, &PipelineOptions::default(), seeds)
}

/// [`solved`] for a generated photo.
fn photo_solved(
    kind: Kind,
    pieces: usize,
    seed: u64,
) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    solved(photo(kind, pieces, seed))
}

/// The set `p` generated at 120 px per piece, traced (with the irregular corner model for an
/// irregular cut) and assembled, and its score against the truth.
fn solved(mut p: Params) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    p.px_per_piece = 120.0;
    solved_as_given(p)
}

/// [`solved`] at the piece size `p` gives.
fn solved_as_given(p: Params) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    let mut options = PipelineOptions::default();
    if p.kind == Kind::Irregular {
        options.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    }
    let dir = scratch();
    let (out, run) = rendered_and_traced(&p, &options, dir.path());
    let report = assemble(&run.set);
    let s = score(&report.assembly, &out.truth).expect("scores");
    (report, s)
}

/// [`photo_solved`], asserting that it solved completely: one cluster, every neighbour right.
fn photo_solved_completely(
    kind: Kind,
    pieces: usize,
    seed: u64,
) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    solved_completely(photo(kind, pieces, seed))
}

/// A generated photo's parameters.
fn photo(kind: Kind, pieces: usize, seed: u64) -> Params {
    let mut p = Params::new(kind, pieces, seed);
    p.style = jigsaw::synth::Style::Photo;
    p
}

/// [`solved`], asserting that it solved completely: one cluster, every neighbour right.
fn solved_completely(p: Params) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    let (report, s) = solved(p);
    assert_eq!(report.assembly.clusters, 1, "{}", s.summary());
    assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    (report, s)
}

/// The puzzle `p` generated, its images written under `at`, and traced by the front end.
fn rendered_and_traced(
    p: &Params,
    options: &PipelineOptions,
    at: &std::path::Path,
) -> (Output, TraceRun) {
    let out = generate(p).expect("generates");
    jigsaw::synth::write(&out, at, false).expect("writes");
    let files: Vec<_> = out.images.iter().map(|i| at.join(&i.name)).collect();
    let run = trace_images(&files, options, &|_| {});
    (out, run)
}

/// Mean neighbour accuracy and fewest pieces placed over `seeds` of the puzzle `params`.
fn end_to_end(params: &Params, options: &PipelineOptions, seeds: &[u64]) -> (f64, usize) {
    let dir = scratch();
    let (mut total, mut fewest) = (0.0, usize::MAX);
    for &seed in seeds {
        let mut p = params.clone();
        p.seed = seed;
        let (out, run) = rendered_and_traced(&p, options, &dir.path().join(format!("seed-{seed}")));
        assert!(run.failures.is_empty(), "{:?}", run.failures);
        assert_eq!(
            run.set.pieces.len(),
            p.pieces,
            "seed {seed}: every piece found"
        );
        let report = assemble(&run.set);
        let s = score(&report.assembly, &out.truth).expect("scores");
        total += s.neighbour_accuracy;
        fewest = fewest.min(s.pieces_placed);
    }
    (total / seeds.len() as f64, fewest)
}

/// The smallest size end to end at 120 px per piece: scans and photos, seeds 1–6,
/// every one perfect (photo seed 1 placed 11 of 12 before colour weighed the matings).
#[test]
fn classic_12_end_to_end_is_perfect() {
    for (style, seeds) in [
        (jigsaw::synth::Style::Scan, &[1, 2, 3, 4, 5, 6][..]),
        (jigsaw::synth::Style::Photo, &[1, 2, 3, 4, 5, 6][..]),
    ] {
        let mut p = Params::new(Kind::Classic, 12, 0);
        p.px_per_piece = 120.0;
        p.style = style;
        for &seed in seeds {
            let (mean, fewest) = end_to_end(&p, &PipelineOptions::default(), &[seed]);
            assert!(
                fewest == 12 && mean == 1.0,
                "{style:?} seed {seed}: {mean:.3}, {fewest} placed"
            );
        }
    }
}

/// Scans: measured 97.2 / 100 / 100 % (seeds 1–3; 98, 100 and 100 placed; seed 3 was 97.8 %
/// before a piece surrounded on four sides may close on two best-mate seams, see
/// `assembly::closure`). Seed 1's missing pieces have white print meeting the white
/// background, which segmentation cuts into, and the damaged outlines fail closure; its last
/// one, an edge piece, is fitted into the notch it leaves since session 13 (`assembly::holes`):
/// all three 100 %.
#[test]
fn classic_100_scans_end_to_end() {
    let (mean, fewest) = classic_100_end_to_end(jigsaw::synth::Style::Scan, &[1, 2, 3]);
    assert!(
        fewest == 100 && mean >= 0.999,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Border pieces whose chainlet matings all failed, left out with every neighbour placed: the
/// notch each leaves in the cluster's rim, closed by the cluster's convex hull, takes it by its
/// whole outline (`assembly::holes`, session 13). Classic 100 photos seed 35, an edge piece:
/// 98.3 % (99 placed) before, 100 % since; irregular 20 photos seed 10, a corner piece whose
/// two open sides face the table: 94.4 % (19 placed) before, 100 % since.
#[test]
fn border_pieces_left_out_fill_their_notches() {
    let mut classic = Params::new(Kind::Classic, 100, 0);
    classic.px_per_piece = 120.0;
    classic.style = jigsaw::synth::Style::Photo;
    let mut irregular = Params::new(Kind::Irregular, 20, 0);
    irregular.px_per_piece = 160.0;
    irregular.style = jigsaw::synth::Style::Photo;
    let mut irregular_corners = PipelineOptions::default();
    irregular_corners.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    for (p, options, seed) in [
        (classic, PipelineOptions::default(), 35),
        (irregular, irregular_corners, 10),
    ] {
        let (mean, fewest) = end_to_end(&p, &options, &[seed]);
        assert!(
            fewest == p.pieces && mean == 1.0,
            "{:?} seed {seed}: {mean:.3}, {fewest} placed",
            p.kind
        );
    }
}

/// Photos (uneven light, shadow, blur, JPEG): seeds 1–12 measured 100, 100, 98.3, 100, 100,
/// 100, 100, 100, 100, 100, 100, 100 % (seeds 6 and 9 were 97.8 % until surrounded pieces
/// could close past a damaged side, see `assembly::closure`) since holes left by growth are filled (pockets, see
/// `assembly::closure`; seed 1 was 97.8 %), matings are weighed by the picture's colour across
/// the seam (`assembly::edge_colour`) and bulging outlines are snapped to the colour edge
/// (`vision::snapped_mask`); seeds 1 and 10 (overexposed white paper) were 58 and 54 % before
/// those two. The suite runs seeds 1, 3 and 10, the hardest, with light paper among them.
#[test]
fn classic_100_photos_end_to_end() {
    let (mean, fewest) = classic_100_end_to_end(jigsaw::synth::Style::Photo, &[1, 3, 10]);
    assert!(
        fewest >= 99 && mean >= 0.99,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Classic 100 photos, seed 30: white print on white paper cuts into three pieces (a white
/// knob, two white corners), so one seam of each gapes. Growth stopped at them and left a
/// two-piece cluster beside the main one, and a piece whose pocket faces one of them (a seam
/// 40 times over the limit) was refused: 93.3 %, 98 placed, 2 clusters. Clusters are
/// now merged on their seams weighed together, and a pocket's pose is refitted without its
/// worst seam (`assembly::merge`, `assembly::closure`): 97.8 %, 99 placed, 1 cluster; the one
/// piece left has no mating at all.
#[test]
fn pieces_damaged_by_white_print_still_join() {
    let (report, s) = photo_solved(Kind::Classic, 100, 30);
    assert_eq!(report.assembly.clusters, 1, "{}", s.summary());
    assert!(
        s.pieces_placed >= 99 && s.neighbour_accuracy >= 0.977,
        "{}",
        s.summary()
    );
}

/// Classic 100 photos, seed 43: piece 45's white knob on white paper was enclosed by its rim
/// but, at about 2 % of a piece, under the 3 % a new interior must have to be kept; the piece
/// lost it, its ragged outline mated a neighbour side by side and one piece was left out
/// (95.6 %, 99 placed). A small interior thick enough and held by the piece only at its neck
/// is now kept as a knob (`vision::segment::rim`): 100 %.
#[test]
fn a_white_knob_on_white_paper_is_kept() {
    photo_solved_completely(Kind::Classic, 100, 43);
}

/// Irregular 100 photos, seed 13: this cut has straight interior sides, and a loose piece's
/// straight sides were then not taken for border sides in notch fits. Border piece 61's side
/// on the wavy right edge lay deep in the hull, was compared with a rim it does not face, and
/// made 11–13 % of its points outliers at its true pose (8 % allowed); it fitted corner piece
/// 74's notch instead (97.7 %). A loose piece's straight sides now always count as border
/// where they face the outside (`assembly::holes::items`): 61 went home (99.1 %), but only
/// because 74 had joined a small cluster on a false mating along a short chainlet (0.16 of a
/// piece, not mutual) and kept out of its corner. Since growth no longer takes such a mating
/// alone (`assembly::grower`, `SHORT_MATING`, session 30), 74 is left out, and 61 fits the
/// corner's notch partly (1.35 px) where the grown cluster's own notch of 61 fits nothing;
/// the settled cluster fits 61 home (2.93 px, whole), ties with one piece fewer elsewhere, and
/// is not kept (97.7 %, 99 placed). Since session 37 the notch fit trims its pairs once settled
/// (`holes::fit::notch_stages`): 74 fits its corner's notch whole (1.19 px), and both go home.
#[test]
fn a_border_piece_of_a_cut_with_straight_interior_sides_fits_its_own_notch() {
    photo_solved_completely(Kind::Irregular, 100, 13);
}

/// Irregular 100 photos, seed 27: its smallest piece, 0.38 of the median piece's area, was
/// rejected as a speck (under 0.4 of it) and left out (98.7 %). A blob a quarter of the median
/// or more, as long as a piece, is now a piece (`vision::segment::classify`): 100 %.
#[test]
fn the_smallest_piece_of_an_irregular_cut_is_not_a_speck() {
    photo_solved_completely(Kind::Irregular, 100, 27);
}

/// Classic 100 photos, seed 39: the bottom left block grew along two paths that met in a
/// column of four seams 5–8 px open, none of them recorded (each piece there joined on its
/// other seams, one left open), so the relaxation during growth, which pulls only on recorded
/// mates, kept the crack: 98.3 %, 3 pairs beyond the scorer's 12 px. Once the assembly is
/// settled (`assembly::settle`), the open seams the mating table pairs are closed and the
/// cluster is refined as a whole: 100 %.
#[test]
fn a_crack_between_two_paths_of_growth_closes_when_the_cluster_settles() {
    let (report, _) = photo_solved_completely(Kind::Classic, 100, 39);
    assert!(
        report.seams_closed >= 4,
        "{} seams closed",
        report.seams_closed
    );
}

/// Irregular 100 photos, seed 14: a piece of the top edge was left out (98.7 %, its own
/// cluster): its notch, between two paths of growth, was out of shape until the cluster was
/// settled, and settling before the holes step every time lost other sets. The holes step is
/// now run again on the settled growth while something is left out, and the better outcome
/// kept (`assembly::fill_what_is_left`): one cluster, 100 %.
#[test]
fn a_notch_between_two_paths_of_growth_is_filled_once_the_cluster_settles() {
    photo_solved_completely(Kind::Irregular, 100, 14);
}

/// 500 photographed pieces: seeds 2 and 12 measured 100 % (500 placed) and 97.7 % (494
/// placed, 1 cluster). Before every feature-similar candidate was compared and colour weighed
/// the matings they were 21.6 and 16.2 %: look-alike knobs outranked true mates. Seed 12
/// gives 99.0 % (497 placed) since session 14: a piece whose colour factors across its four
/// seams are 1.41, 1.48, 2.09 and 2.12 passes the holes step's colour bar (1.8) at the mean
/// of the middle two, where the upper one refused it.
#[test]
fn classic_500_photos_end_to_end() {
    let mut p = Params::new(Kind::Classic, 500, 0);
    p.px_per_piece = 120.0;
    p.style = jigsaw::synth::Style::Photo;
    let (mean, fewest) = end_to_end(&p, &PipelineOptions::default(), &[2, 12]);
    assert!(
        fewest >= 497 && mean >= 0.994,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

#[test]
fn missing_and_extraneous_pieces_are_handled() {
    let truth = puzzle(Kind::Classic, 100, 9, 150.0, 3, 3);
    let (a, s) = solve_truth(&truth);
    // Every real piece shown is placed, no extraneous piece is used, and they are listed.
    assert_eq!(s.pieces_expected, 97);
    assert_eq!(s.pieces_placed, 97, "{}", s.summary());
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert_eq!(a.unplaced.len(), 3);
    // The target: every real piece placed correctly, in one cluster (the closure test
    // fits the pose to all closed seams, so a piece dropped among its neighbours closes).
    assert!(s.neighbour_accuracy >= 1.0, "{}", s.summary());
    assert_eq!(a.clusters, 1, "{}", s.summary());
}

/// The same imperfect set end to end from rendered scans: every real piece placed, no
/// extraneous piece used (two extras that mated each other falsely formed a cluster before
/// weak clusters were dissolved). Measured 97/97 placed, 97.0 %.
#[test]
fn missing_and_extraneous_pieces_end_to_end() {
    let dir = scratch();
    let mut p = Params::new(Kind::Classic, 100, 9);
    p.px_per_piece = 150.0;
    p.missing = 3;
    p.extra = 3;
    let (out, run) = rendered_and_traced(&p, &PipelineOptions::default(), dir.path());
    assert_eq!(
        run.set.pieces.len(),
        100,
        "97 real and 3 extraneous pieces traced"
    );
    let report = assemble(&run.set);
    let s = score(&report.assembly, &out.truth).expect("scores");
    assert_eq!(s.pieces_placed, 97, "{}", s.summary());
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert!(s.neighbour_accuracy >= 0.95, "{}", s.summary());
}

/// Photographed, with three pieces missing and three of another puzzle (classic 100 at 120 px):
/// every real piece placed right and no extraneous piece used. Seed 3 placed an extraneous
/// piece in a missing piece's place (a loose fit, 0.91 of the tolerance, the picture middling
/// across every seam, 1.57 at the best; `holes::ONE_SEAM_RUNS_ON`); seed 18 did so too and
/// kept two extraneous pieces that were no neighbours as a pair on a poor mating (Δ 78, where
/// the confirmed median is about 27; `weak::PAIR_QUANTILE`). Seed 17 fitted one into a missing
/// piece's hole at 0.80 of the tolerance, its picture running on middling (colour 1.55, 0.92
/// at its best seam), where another extraneous piece, its picture breaking (1.88), fitted more
/// closely: a look-alike that fits as closely rivals a fit whose picture runs on no more than
/// 1.5 times better (`holes::accept::look_alike_rivals`). Seed 37 (held out until session 41)
/// had the corner piece and its neighbour, placed right by growth, moved into two missing
/// pieces' holes (98.8 %): with the corner's neighbour along the edge missing, the corner lay
/// mostly outside the hull of the rest and was taken for a piece sticking out of the puzzle;
/// it lies inside the rectangle the rest spans (`assembly::reexamine`).
#[test]
fn photographed_extraneous_pieces_are_left_out() {
    for seed in [3, 17, 18, 37] {
        let s = classic_100_missing_and_extraneous(jigsaw::synth::Style::Photo, seed);
        assert_eq!(s.pieces_placed, 97, "seed {seed}: {}", s.summary());
        assert!(s.extraneous_used.is_empty(), "seed {seed}: {}", s.summary());
        assert!(s.neighbour_accuracy >= 1.0, "seed {seed}: {}", s.summary());
    }
}

/// Classic 100 scans seed 13 with three pieces missing and three extraneous, at 120 px (held
/// out until session 51, 98.2 %): a white strip of one piece with its knob, a quarter of the
/// piece, was lost on the scanner's white bed, and the piece fitted nowhere, a lone second
/// cluster. The strip's rim faded where it meets the piece's brown print, and its growth
/// stopped one pixel short of it: the loop stayed open and nothing was filled. Such a gap
/// is now bridged (`vision::segment::rim`): every real piece placed right.
#[test]
fn a_white_strip_whose_rim_fades_against_the_print_is_kept() {
    let s = classic_100_missing_and_extraneous(jigsaw::synth::Style::Scan, 13);
    assert_eq!(s.pieces_placed, 97, "{}", s.summary());
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    assert_eq!(s.direct_accuracy, 1.0, "{}", s.summary());
}

/// Classic 100 at 120 px with three pieces missing and three extraneous, rendered in `style`,
/// traced and assembled: its score.
fn classic_100_missing_and_extraneous(
    style: jigsaw::synth::Style,
    seed: u64,
) -> jigsaw::score::ScoreReport {
    let dir = scratch();
    let mut p = Params::new(Kind::Classic, 100, seed);
    p.style = style;
    p.px_per_piece = 120.0;
    p.missing = 3;
    p.extra = 3;
    let (out, run) = rendered_and_traced(&p, &PipelineOptions::default(), dir.path());
    let report = assemble(&run.set);
    score(&report.assembly, &out.truth).expect("scores")
}

/// Irregular cuts end to end with the junction-corner model (`--corners irregular`) and Type II
/// matings: seeds 1–6 measured 75.7, 82.1, 88.9, 94.6, 54.1, 86.8 % through the CLI (mean
/// 80.4 %) since turns on knobs and necks are dropped and the corner floors lowered
/// (`chainlets::lobes`); 59.2 % before, 46 % without Type II matings, about 25 % with the
/// four-sided model. With reflex corners dropped (`CriticalOptions::convex_only`): 100, 82.1,
/// 88.9, 94.6, 54.1, 86.8 % (mean 84.4 %). With straight chainlets mated where the cut has
/// interior straight sides (`assembly::straight`) and cluster merges refitted: 100, 82.1,
/// 94.4, 100, 81.1, 100 % (mean 93.0 %, fewest placed 17). With seams across a missed corner
/// (`assembly::spanning`): 100, 87.2, 94.4, 100, 81.1, 100 % (mean 93.8 %). With a lone
/// straight mating taken once growth stops (`assembly::grower`, session 11): all six 100 %.
#[test]
fn irregular_20_scans_end_to_end() {
    let (mean, fewest) = irregular_20_scans(&[1, 2, 3, 4, 5, 6]);
    assert!(
        fewest >= 20 && mean >= 0.99,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Irregular pieces photographed (drop shadows on light paper, blur, JPEG): seeds 1–6
/// measured 37.8, 35.9, 91.7, 48.6, 48.6, 86.8 % through the CLI (mean 58.3 %; seeds 1–10
/// 62.5 %, held-out 11–20 55.5 %, fewest placed 11) since the irregular corner model snaps
/// every mask whose outline the colour edge smooths (`vision::snapped_mask::SnapGate`) and
/// keeps convex corners only; 18.9, 15.4, 5.6, 32.4, 27.0, 23.7 % before (mean 20.5 %):
/// segmentation's outline wobbled 1–3 px along the shadow sides and the low corner floors took
/// each bump for a corner (714 false corners on seeds 1–10 against 61 on the same seeds'
/// scans; 85 after). With straight chainlets mated (`assembly::straight`): 43.2, 92.3, 100,
/// 83.8, 64.9, 100 % (mean 80.7 %, fewest placed 12). With damaged seams weighed together,
/// seams across a missed corner and the border line (session 10): 43.2, 92.3, 100, 91.9, 73.0,
/// 100 % (mean 83.4 %). With a lone straight mating taken once growth stops (session 11):
/// 43.2, 100, 100, 100, 100, 100 % (mean 90.5 %, fewest placed 16). With false corners
/// removed where chainlets joined match (`assembly::partial::joined`): 64.9, 100, 100, 100,
/// 100, 100 % (mean 94.2 %, fewest placed 17; 16 once Type II cuts were kept off joined runs,
/// mean 94.1 %, hence the floor's margin). With the irregular model's longer sharpness chord
/// and lower arm-turn floor (`CriticalOptions::irregular`, session 12): all six 100 %.
#[test]
fn irregular_20_photos_end_to_end() {
    let (mean, fewest) = irregular_20_photos(&[1, 2, 3, 4, 5, 6]);
    assert!(
        fewest >= 20 && mean >= 0.99,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// 100 irregular pieces photographed: seeds 1 and 2 measured 96.1 and 96.0 % (100 and 97
/// placed) in session 11; 99.6 and 95.6 % (100 and 97 placed) with the longer sharpness chord
/// of session 12 (seeds 1–8: mean 92.7 → 98.1 %); 99.6 and 96.9 % (100 and 98 placed) since
/// a run of border pieces left out is filled from its ends (session 14: seed 2 left three
/// side by side, and the end piece whose neighbour's knob hole the front end partly filled
/// now fits); 99.6 and 98.2 % (100 and 99 placed) since the worst of four or more seams is
/// left out of the colour test (the second end piece's seam along that neighbour reads 3.0).
#[test]
fn irregular_100_photos_end_to_end() {
    let mut p = Params::new(Kind::Irregular, 100, 0);
    p.px_per_piece = 120.0;
    p.style = jigsaw::synth::Style::Photo;
    let mut options = PipelineOptions::default();
    options.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    let (mean, fewest) = end_to_end(&p, &options, &[1, 2]);
    assert!(
        fewest >= 99 && mean >= 0.988,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Irregular 100 photos seed 51: piece 31 joined the cluster on one mating at twice the
/// good-seam limit, not mutual and not its chainlet's best, and 37 pieces grew from it a
/// piece's width off their places (77.8 % of neighbours, 44 pieces directly right). Growth no
/// longer takes such a mating alone (`assembly::grower`): 94.4 %, 95 pieces; with the
/// revisions' budget raised so that a growth may take back two ambiguous matings
/// (`assembly::restarts`), 100 %. Without the first it stays at 77.8 % either way.
#[test]
fn a_poor_ambiguous_mating_does_not_carry_a_block_of_pieces_off_its_place() {
    photo_solved_completely(Kind::Irregular, 100, 51);
}

/// Irregular 100 photos seed 83: late in the growth piece 67 was taken on one straight mating,
/// mutual and at a quarter of the good-seam limit, to a straight side on the puzzle's right
/// edge, and eight pieces grew on from it into a tail outside the puzzle, the notch they
/// belong to left empty (91.7 %). Once the cluster's least rectangle holds all the pieces'
/// area it is the puzzle's frame, and growth no longer takes a piece past it on one mating
/// (`assembly::outer_frame`): 100 %. Seed 48 took such pieces before the pocket pass, where
/// the frame shows from 1.04 times that area (90.5 %; with the pocket pass's rule alone too).
#[test]
fn no_piece_is_hung_outside_the_puzzles_frame_on_one_mating() {
    photo_solved_completely(Kind::Irregular, 100, 83);
    photo_solved_completely(Kind::Irregular, 100, 48);
}

/// Irregular 100 scans seed 43: piece 42 closed a junction on two matings that each had a
/// better alternative with another piece (figure of merit 1.49), piece 51 joined it, and both
/// sat 770 px off their place; a small cluster merged beside them left three pieces hanging
/// outside the puzzle (91.96 %, 7 pieces off). Such closures are now taken back in turn like
/// ambiguous single matings (`assembly::grow::AMBIGUOUS_CLOSURE`): one piece 19 px off,
/// 98.21 %. Photos seed 93 the same way: 94.95 → 100 %.
#[test]
fn an_ambiguous_junction_closure_is_taken_back() {
    let (report, s) = solved(Params::new(Kind::Irregular, 100, 43));
    assert_eq!(report.assembly.clusters, 1, "{}", s.summary());
    assert_eq!(s.pieces_placed, 100, "{}", s.summary());
    assert!(s.neighbour_accuracy >= 0.98, "{}", s.summary());
    photo_solved_completely(Kind::Irregular, 100, 93);
}

/// Irregular 100 photos seed 81: a border piece fits its notch whole at 2.4 px (tolerance
/// 4.4), but one of its chainlets runs along two neighbours, so by chainlet one seam was
/// read for colour, too few, and the notch stayed empty (99.1 %). A whole fit's seams are
/// now read by stretch, each part of a chainlet facing one neighbour (`holes::colour`).
/// Seed 45: the grown cluster fits one border piece, the settled one only its neighbour; the
/// better outcome settled and filled again takes both (98.7 % → 100 %).
#[test]
fn a_notch_is_filled_where_its_piece_meets_two_neighbours_along_one_chainlet() {
    photo_solved_completely(Kind::Irregular, 100, 81);
    photo_solved_completely(Kind::Irregular, 100, 45);
}

/// Irregular 100 photos seed 78: pieces 33, 99 and 90 leave a closed hole of three, and none
/// of them fits it alone (each only part of it, cutting in a little more than allowed), but
/// they mate one another, each chainlet's best mating the other's. Joined by those matings
/// they fit the hole whole (`assembly::holes::loose_groups`): 100 %. Seed 72: pieces 94 and
/// 98 the same, a hole of two (94.98 → 98.63 %). Its piece 75 stayed out of its notch on the
/// top edge, a V whose hull's chord runs far above the piece's border side: at the true pose
/// the notch fit's tests pass at 1.3 px, but its iterative closest points paired that side
/// with the ends of the notch's rim and were pulled 10 px off (36 % cutting in). Since session
/// 37 the notch fit trims its pairs once settled (`holes::fit::notch_stages`): 100 %.
#[test]
fn left_out_pieces_that_mate_one_another_fill_their_hole_together() {
    photo_solved_completely(Kind::Irregular, 100, 78);
    photo_solved_completely(Kind::Irregular, 100, 72);
}

/// Irregular 100 photos seed 1 with 3 pieces missing and 3 extraneous: growth took a piece
/// on one mating along chainlets a sixth of a piece long and nearly flat (Δ 0.06 of the
/// good-seam limit, merit 0.01), which fit many others as closely, at a wrong place; the
/// holes step later placed an extraneous piece (97.7 %, two real pieces left out). Such a
/// mating alone is now taken only once growth has stopped, mutual and unambiguous
/// (`assembly::grower`, `SHORT_MATING`): every real piece placed right, no extraneous one.
#[test]
fn a_piece_is_not_taken_early_on_one_mating_along_a_short_chainlet() {
    photo_with_3_missing_3_extraneous_solved_completely(100, 1);
}

/// Irregular 20 photos seed 8 with 3 pieces missing and 3 extraneous: the bottom left corner
/// piece and its neighbour along the edge (truth 16, 17) mate as a pair apart, and their place
/// is one region with missing piece 12's hole above the neighbour. Neither fits its part of
/// the region alone (each meets one placed piece), and the pair fitted no part of it either:
/// the puzzle's edge bows in at that corner, so the pair's border sides lie 35–40 px inside
/// the cluster's hull and up to 180 px from the rim, and besides the pair's open side towards
/// the missing piece's hole they made a second side far from the rim, 29 of its 84 meeting
/// points stray (84.6 %, both left out). Border sides facing the outside off the open side
/// are not judged (`holes::partial`): every real piece placed right, no extraneous one.
#[test]
fn a_corner_pair_whose_edge_bows_in_fits_part_of_its_region() {
    photo_with_3_missing_3_extraneous_solved_completely(20, 8);
}

/// Irregular 20 photos seed 18 with 3 pieces missing and 3 extraneous: the top left corner
/// piece and its neighbour grew into a pair apart. In the round that takes in the empty corner
/// the pair fits its true place to part of the region at 3.36 px, over the bar of 2.72: five
/// points of the corner, in the corner the hull takes in, lay far from any rim and were
/// judged, the corner piece's top side bowing 8 px over its chord (0.066 of it) and so not
/// taken for a border side (92 %). A border side may bow by a tenth of its chord
/// (`holes::items`): every real piece placed right.
#[test]
fn a_corner_pair_whose_border_side_bows_fits_its_empty_corner() {
    photo_with_3_missing_3_extraneous_solved_completely(20, 18);
}

/// Irregular 100 photos seed 20 with 3 pieces missing and 3 extraneous (held out until
/// session 51): beside missing piece 16's hole on the top edge, the top right corner block of
/// six pieces and a cluster of three grew apart (94.3 %, three clusters). The block fits only
/// in the round that takes in the empty corner, and there no fit reached its place: its
/// centre lies more than a piece from the rim, where fits started within 0.75 of one, and at
/// its true place its two border sides and its side facing the rest of the region made 88 of
/// its 154 deep points, so it met the rim along less than the 0.55 share. A cluster starts as
/// far in as its own size, and of an item held along three piece sizes the border sides on
/// the open side count neither way (`holes::partial`): every real piece placed right.
#[test]
fn a_corner_block_grown_apart_fits_the_empty_corner_of_the_hull() {
    photo_with_3_missing_3_extraneous_solved_completely(100, 20);
}

/// Irregular 100 photos seed 21 with 3 pieces missing and 3 extraneous (held out until
/// session 52, 96.7 %): the bottom left corner block (truth 81, 91, 92) grew apart, and the
/// notch of its piece 81, cut to 0.55 of a piece by the hull's chord across the empty corner,
/// took an extraneous piece whole. While a cluster is apart, no single piece now fills such
/// a notch whole (`assembly::holes`), and the round that takes the corner in fits the block
/// to part of the corner's region, but settling turned it 12–29 px off about the one seam it
/// found it (98.1 %); a block fitted whole and joined by one seam is carried by its contacts
/// (`assembly::carried`): every real piece placed right.
#[test]
fn a_corner_block_grown_apart_is_not_shut_out_by_a_look_alike_in_its_notch() {
    photo_with_3_missing_3_extraneous_solved_completely(100, 21);
}

/// Irregular 100 photos seed 17 with 3 pieces missing and 3 extraneous (held out until
/// session 51, 85.5 %): growth closed a junction on a piece (truth 15) by two poor seams (Δ
/// 188 and 208) in the place of truth 47, which was left out with the five pieces beside it
/// grown apart. A part held by poor seams only is now taken off when it lies beside an empty
/// region, as a part held by one neighbour was (`assembly::reexamine`): the holes refilled
/// without it place all seven and the piece in its own place (96.7 %). Three pieces of the
/// bottom left corner (truth 82, 91, 92), joined by their matings, face missing piece 72's hole
/// along one side, 13 of their 115 deep points, under the 0.15 a fit to part of a region asks
/// of a piece; a larger item asks less in proportion to its size (`assembly::holes::partial`):
/// every real piece placed right.
#[test]
fn a_piece_held_by_poor_seams_in_the_place_of_one_left_out_gives_way() {
    let (report, _) = photo_with_3_missing_3_extraneous_solved_completely(100, 17);
    assert!(report.parts_moved >= 1);
}

/// Irregular 100 photos seed 10 with 3 pieces missing and 3 extraneous: a piece (truth 82)
/// meets missing piece 72's hole along a 47 px seam, its place one region with that hole. At
/// its true pose it meets the rim all round but for the seam, yet its fit to part of the
/// region was refused: past the open side the rim of 72's hole runs on behind the neighbours
/// either side of the seam, within the claim's reach of the piece's outline, 18 of 164
/// claimed rim points 8–42 px off (98.1 %, the piece left out). Rim with placed pieces
/// between it and the outline is not claimed (`holes::partial`): every real piece placed.
#[test]
fn a_piece_beside_a_narrow_missing_hole_claims_no_rim_behind_its_neighbours() {
    photo_with_3_missing_3_extraneous_solved_completely(100, 10);
}

/// Irregular 100 photos seed 18 with 3 pieces missing and 3 extraneous: growth placed piece
/// 72 on one mating in the place of bottom piece 97, beside missing piece 87's hole, 600 px
/// from its own hole. Taken off, it fits its own hole, closed all round (0.43 of the
/// tolerance), but that placed no more, and the trial was dropped (96.68 %). A single piece
/// moved to where its neighbours hold it all round is kept (`assembly::reexamine`): every
/// placed piece right. Piece 97 is still left out (its fit to part of its region strays at 7
/// of 73 points, a 13 px bump; docs/solve.md, Known limits).
#[test]
fn a_piece_held_by_one_mating_moves_to_the_hole_that_holds_it_all_round() {
    let mut p = Params::new(Kind::Irregular, 100, 18);
    p.style = jigsaw::synth::Style::Photo;
    p.missing = 3;
    p.extra = 3;
    let (_, s) = solved(p);
    assert!(s.pieces_placed >= 96, "{}", s.summary());
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert_eq!(s.direct_correct, s.pieces_placed, "{}", s.summary());
    assert!(s.neighbour_accuracy >= 0.99, "{}", s.summary());
}

/// Irregular 20 photos seed 12 with 3 pieces missing and 3 extraneous: growth hung a piece
/// (truth 19) on the side of the bottom left corner piece (truth 16) that faces missing piece
/// 11, by one mating of Δ 5.6, and the right half of the puzzle grew on from it: two true
/// blocks of nine and eight pieces joined by that one seam, where five join them in the truth
/// (80 %, all 17 placed). Each block held by one seam is cut off and the clusters merged again
/// by agreeing matings (`assembly::rejoin`); the trial with the most good seams and the
/// smaller hull is kept: every real piece placed right.
#[test]
fn two_blocks_joined_by_one_wrong_seam_rejoin_where_several_agree() {
    photo_with_3_missing_3_extraneous_solved_completely(20, 12);
}

/// Irregular 20 photos seed 1 at 120 px: a corner's wavy border side mated another border
/// piece's at Δ 7.8, and the two true halves of the puzzle grew joined end to end by that one
/// seam (78.4 %). Cut apart, the halves merged back only there: at every motion that joins them
/// along their true seams, piece 16's knob neck, traced with the drop shadow filling it (pale
/// print on pale paper), lay 14 px inside piece 8. A merge weighed as a whole now lets one
/// such bulge through if it closes a good seam more (`assembly::merge`): 100 %.
#[test]
fn halves_joined_end_to_end_rejoin_past_a_neck_traced_with_its_shadow() {
    photo_solved_completely(Kind::Irregular, 20, 1);
}

/// Irregular 100 photos seed 39: a border piece and its neighbour grew into a pair apart
/// (truth 51, 52), and the two pieces beside them (truth 43, 53) were left out of the notch
/// the four share on the bowed left edge (92.7 %). At its true place the pair is away from the
/// rim along its border side (facing the strip between the edge and the hull) and along the
/// side facing the next piece's place; the border side, the longer, was taken for the open
/// side, the other judged, its points stray. The open side is now the one facing the rest of
/// the region (`assembly::holes::partial`): the pair and both pieces are placed (98.2 %). The
/// top edge's last two pieces (truth 6, 7) both fitted their parts of one region; only the
/// better was placed, and the other's slot, with the strip over its neighbour, then fitted
/// its true pose no more (the cluster drifted 5 px there), and it went in turned round. A
/// region's other end is now placed in the same round where its fit passes alone: 100 %.
#[test]
fn a_pair_fits_part_of_a_notch_open_towards_its_neighbours_not_the_edge() {
    photo_solved_completely(Kind::Irregular, 100, 39);
}

/// Asserts an irregular photographed puzzle of `pieces` with three pieces missing and three
/// extraneous comes out with every real piece placed rightly, all in one frame (direct
/// accuracy is measured against one placement of the whole), and no extraneous one used:
/// extraneous pieces that mate one another may stand apart as a cluster of their own, as
/// the puzzle they came from would.
fn photo_with_3_missing_3_extraneous_solved_completely(
    pieces: usize,
    seed: u64,
) -> (jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport) {
    let mut p = Params::new(Kind::Irregular, pieces, seed);
    p.style = jigsaw::synth::Style::Photo;
    p.missing = 3;
    p.extra = 3;
    let (report, s) = solved(p);
    assert!(
        report.assembly.clusters <= 1 + s.extraneous_apart.len(),
        "{}",
        s.summary()
    );
    assert_eq!(s.pieces_placed, pieces - 3, "{}", s.summary());
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    assert_eq!(s.direct_accuracy, 1.0, "{}", s.summary());
    (report, s)
}

/// Irregular 20 photos at 160 px, seed 21, three missing and three extraneous pieces: a true
/// border piece beside two missing ones, held by a seam of Δ 21, sticks out of the hull of
/// the rest, and re-examination took it off; the holes step then fitted an extraneous piece
/// into a missing piece's notch 1.5 pieces away, and as many pieces as before counted as
/// better (92.9 %, the extraneous piece placed). A part left out now gives its place in the
/// count only to a piece that takes its place (`reexamine::verdict`): 96.4 %, one real piece
/// (truth 15) still out.
#[test]
fn a_true_piece_sticking_out_is_not_swapped_for_a_piece_fitted_elsewhere() {
    let mut p = Params::new(Kind::Irregular, 20, 21);
    p.px_per_piece = 160.0;
    p.style = jigsaw::synth::Style::Photo;
    p.missing = 3;
    p.extra = 3;
    let (_, s) = solved_as_given(p);
    assert!(s.extraneous_used.is_empty(), "{}", s.summary());
    assert!(s.pieces_placed >= 16, "{}", s.summary());
    assert!(s.neighbour_accuracy >= 0.96, "{}", s.summary());
}

/// Irregular 100 photos seed 11: late in the growth two corner pieces, held by one mating,
/// filled the inner hole where a cluster of four belongs, so that cluster and the corner
/// cluster of five fitted nowhere (87.7 %, 3 clusters). Taken off in turn and the holes refilled
/// (`assembly::reexamine`), the four fill the hole, the five and then the two their corner:
/// one cluster, every piece in place (97.8 %: three pieces drifted 9–11 px, until the cluster
/// was settled as a whole in session 17: 100 %). Since session 30 the growth that wins takes
/// no false single mating (its piece 59 had joined on one along chainlets 0.37 and 0.39 of a
/// piece, `assembly::grower`'s `SHORT_MATING`) and nothing is left to re-examine: the test
/// asserts the complete solve only.
#[test]
fn a_pair_in_the_wrong_hole_gives_way_to_the_cluster_that_fits_it() {
    let (report, s) = photo_solved(Kind::Irregular, 100, 11);
    assert_eq!(report.assembly.clusters, 1, "{}", s.summary());
    assert!(
        s.direct_accuracy == 1.0 && s.neighbour_accuracy == 1.0,
        "{}",
        s.summary()
    );
}

/// Irregular 20 photos seed 13 lost three border pieces side by side along its left edge
/// (two with white print on white paper cut off): one notch of three pieces' area, which no
/// single piece fills. 81.6 % (17 placed) before session 14; filled from its ends, a piece
/// per round, the last one into a notch of its own: 100 %.
#[test]
fn a_run_of_border_pieces_left_out_fills_from_its_ends() {
    assert_all_20_placed_perfectly(irregular_20_photos(&[13]));
}

/// Irregular 20 photos seeds 33 and 37 each left a corner piece out that fits its notch
/// closely with no rival (seed 37: 1.28 px against a tolerance of 5.31), refused by the
/// colour test: its two seams read 3.0 and 2.3 from a handful of sample pairs (ΔE 40–70)
/// where a boundary of the picture meets the seam obliquely or a sample lies in the
/// neighbour's shadow at a corner. The worst fifth of the pairs is now left out of the holes
/// step's colour difference (`edge_colour::trimmed_colour_delta`): 94.6 and 95.0 → 100 %.
#[test]
fn a_corner_piece_whose_seams_read_a_picture_boundary_apart_fills_its_notch() {
    let (mean, fewest) = irregular_20_photos(&[33, 37]);
    assert!(
        fewest == 20 && mean == 1.0,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Irregular 20 photos seed 21 leaves one border piece out; at its true place it cuts 4.3 %
/// of its outline into the cluster (a neighbour's outline swollen by the front end), which
/// whole notch fits allowed only to 3 % before session 15 (94.7 %, 19 placed). Since the
/// wide dent of the puzzle's irregular edge is also offered as a notch of its own, the piece
/// fits there too (2.94 px) but along a quarter of its outline only, which no longer counts.
#[test]
fn a_border_piece_beside_a_swollen_neighbour_fits_its_notch() {
    assert_all_20_placed_perfectly(irregular_20_photos(&[21]));
}

/// Irregular 20 photos seed 32 left its bottom left corner piece and the border piece beside
/// it out: the hull's chord cut their notch to under two pieces' area with the corner cut off,
/// and neither fitted (86.5 %, 18 placed). Once nothing else is placed, a round takes the
/// least rectangle's empty corner into the hull (`holes::Round::EmptyCorners`): the border
/// piece fits the run's end, then the corner piece its own notch.
#[test]
fn a_missing_corner_is_filled_once_the_rectangle_gives_its_notch_whole() {
    assert_all_20_placed_perfectly(irregular_20_photos(&[32]));
}

/// Irregular 20 photos seed 59: the corner piece's 30° tip, where two of its neighbours
/// meet, has an arc over 3.2 times its chord and was taken for a knob, so its junction was
/// lost and the piece left out (94.9 %, 19 placed). A run of lobe marks made of wedges only is
/// a spike and keeps its corner (`chainlets::lobes`): 100 %.
#[test]
fn a_sharp_tip_between_two_pieces_is_a_corner_not_a_knob() {
    assert_all_20_placed_perfectly(irregular_20_photos(&[59]));
}

/// Irregular 20 scans seed 13: the largest piece (1.8 times the median, white print on white
/// paper over a third of it) came out `merged` once its rim closed round the white face, and
/// segmenting it again from its strong pixels dropped the face; the piece, traced without it,
/// was placed hanging outside the puzzle (92.1 %). A blob with no neck whose strong pixels are
/// one piece is that piece, whole (`vision::segment::welded`): 100 %.
#[test]
fn a_large_piece_with_a_white_face_is_one_piece_not_a_merged_blob() {
    assert_all_20_placed_perfectly(irregular_20_scans(&[13]));
}

/// Irregular 100 photos seed 100: piece 52 is red over two thirds of its face, on red cloth,
/// and held there by its rim alone; a soft shadow welded it to its neighbour along a side (a
/// `merged` blob with no neck to cut), and its strong pixels kept the green third (5273 of
/// 16056 px): the piece was left out (98.2 %). A face only a rim encloses now goes back to the
/// one piece whose print lies against it (`vision::segment::faces`): 16003 px, 100 %.
#[test]
fn a_face_the_colour_of_the_cloth_welded_to_a_neighbour_stays_with_its_piece() {
    photo_solved_completely(Kind::Irregular, 100, 100);
}

/// Irregular 100 photos seed 64: the front end sealed a socket of piece 71's neighbour (its
/// clean-up bridged the socket's narrow lips, and the bowl was filled), so at its true pose
/// the border piece's knob cuts into that neighbour, over the 8 % of the outline a notch fit
/// allows, and the piece was left out (98.2 %). One knob-long run cutting in is excused where
/// the rest of the outline fits within half the tolerance (`holes::fit::sealed_socket`): 0.29
/// of it here, 100 % (seed 3 the same way, 0.24).
#[test]
fn a_knob_into_a_neighbours_sealed_socket_fits_its_notch() {
    photo_solved_completely(Kind::Irregular, 100, 64);
}

/// Irregular 100 photos seed 88: the front end sealed corner piece 1's own socket, so at its
/// true pose its neighbour's knob lies inside it, 12–14 % of the notch's deep rim over twice
/// the tolerance from the outline (8 % allowed), and the piece was left out (98.24 %, 98
/// placed). A knob's span of rim swallowed by the piece is excused like a knob cutting into a
/// sealed socket (`holes::fit::swallowed_knob`): 99 placed, each rightly. The other corner,
/// piece 93 (truth 10), has one shaped side, running along two neighbours, its others
/// straight: its fits to part of its corner's region matched at 0.21 of the tolerance, but
/// read by chainlet its seams gave one colour reading where two were needed, and it was left
/// out (99.12 %). A fit to part of a region that close, its piece's only place, may be judged
/// by one seam across which the picture runs on (`holes::accept::enough_seams`): 100 %.
#[test]
fn a_corner_piece_whose_own_socket_is_sealed_fits_its_corner() {
    photo_solved_completely(Kind::Irregular, 100, 88);
}

/// Irregular 100 photos seed 90: the last piece left out fits its part of a notch two pieces
/// wide at 0.53 of the tolerance, its picture running on (colour 0.85), over the 0.5 a fit to
/// part of a region may have (98.67 %). Accepted up to 0.75 in a last round, once nothing
/// else is placed and only where the picture runs on as across a typical true seam: 100 %.
#[test]
fn a_piece_fitted_loosely_to_part_of_a_notch_is_placed_last() {
    photo_solved_completely(Kind::Irregular, 100, 90);
}

/// Classic 100 photos seed 13: border piece 92's knob, white print on the light paper, is
/// traced as a socket, so at its true pose the traced socket lies deep inside the piece and
/// the neighbour's socket for the knob stays empty, each over twice the tolerance from the
/// other side at more than the 8 % of outliers allowed, and the piece was left out (98.33 %).
/// Excused as one lost knob (`holes::knobs::lost_knob`), the rest fitting closely: 100 %.
#[test]
fn a_piece_that_lost_a_white_knob_fits_its_notch() {
    photo_solved_completely(Kind::Classic, 100, 13);
}

/// Asserts an irregular 20-piece run (mean neighbour accuracy, fewest placed) placed every
/// piece, each rightly.
fn assert_all_20_placed_perfectly((mean, fewest): (f64, usize)) {
    assert!(
        fewest == 20 && mean == 1.0,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

/// Irregular 20-piece scans at 160 px of `seeds`, solved end to end: mean neighbour accuracy
/// and fewest pieces placed.
fn irregular_20_scans(seeds: &[u64]) -> (f64, usize) {
    let mut p = Params::new(Kind::Irregular, 20, 0);
    p.px_per_piece = 160.0;
    let mut options = PipelineOptions::default();
    options.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    end_to_end(&p, &options, seeds)
}

/// Irregular 20-piece photos at 160 px of `seeds`, solved end to end: mean neighbour accuracy
/// and fewest pieces placed.
fn irregular_20_photos(seeds: &[u64]) -> (f64, usize) {
    let mut p = Params::new(Kind::Irregular, 20, 0);
    p.px_per_piece = 160.0;
    p.style = jigsaw::synth::Style::Photo;
    let mut options = PipelineOptions::default();
    options.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    end_to_end(&p, &options, seeds)
}

/// 100 irregular pieces: seeds 1 and 2 measured 65.8 and 72.4 % (91 and 94 placed, 7 clusters
/// each); 21.7 and 45.3 % before the lobe test. With straight chainlets mated
/// (`assembly::straight`): 88.3 and 98.7 % (95 and 99 placed, 2 and 1 clusters). With seams
/// across a missed corner, the border line and honest seam Δ (session 10): 98.3 and 98.7 %
/// (99 placed each, 1 cluster each). With a leaf held by a seam across a missed corner kept
/// and a lone straight mating taken once growth stops (session 11): 100 and 100 %.
#[test]
fn irregular_100_scans_end_to_end() {
    let mut p = Params::new(Kind::Irregular, 100, 0);
    p.px_per_piece = 120.0;
    let mut options = PipelineOptions::default();
    options.describe.critical = jigsaw::chainlets::CriticalOptions::irregular();
    let (mean, fewest) = end_to_end(&p, &options, &[1, 2]);
    assert!(
        fewest >= 100 && mean >= 0.995,
        "mean {mean:.3}, fewest placed {fewest}"
    );
}

#[test]
fn irregular_20_from_true_corners() {
    let truth = puzzle(Kind::Irregular, 20, 4, 160.0, 0, 0);
    let (_, s) = solve_truth(&truth);
    // Measured 94.6 % (one piece left out); 100 % since a lone straight mating is taken once
    // growth stops (session 11).
    assert!(s.neighbour_accuracy >= 0.999, "{}", s.summary());
}

/// `--corners auto` (the default) takes the bundled irregular sample for an irregular cut and
/// solves it whole (86 % of neighbours with the four-sided model it would otherwise use); the
/// bundled classic sample stays with the four-sided model.
#[test]
fn the_corner_model_is_chosen_from_the_pieces() {
    let dir = scratch();
    for (name, irregular) in [("irregular-20-scan", true), ("classic-12-scan", false)] {
        let sample = crate::util::sample(&format!("synth/{name}"));
        let out = dir.path().join(name);
        let o = run(&[
            "solve",
            sample.join("images").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        assert_eq!(
            stderr.contains("irregular cut"),
            irregular,
            "{name}: {stderr}"
        );
        let o = run(&[
            "--json",
            "score",
            out.join("assembly.json").to_str().unwrap(),
            sample.join("truth.json").to_str().unwrap(),
        ]);
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("score --json");
        assert_eq!(r["neighbour_accuracy"].as_f64(), Some(1.0), "{name}: {r}");
    }
}

#[test]
fn solve_writes_assembly_table_and_solution_picture() {
    let dir = scratch();
    let gen = dir.path().join("puzzle");
    let out = dir.path().join("solved");
    let o = run(&[
        "synth",
        "--kind",
        "classic",
        "--pieces",
        "12",
        "--seed",
        "3",
        "--px-per-piece",
        "160",
        "-o",
        gen.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let scan = gen.join(jigsaw::synth::IMAGES).join("scan-001.png");
    let o = run(&[
        "solve",
        scan.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).expect("--json prints JSON");
    for key in ["pieces", "unplaced", "clusters"] {
        assert!(printed.get(key).is_some(), "assembly JSON lacks {key}");
    }
    let placed = printed["pieces"].as_array().unwrap();
    assert!(!placed.is_empty());
    let t = placed[0]["transform"].as_array().unwrap();
    let (a, b) = (t[0][0].as_f64().unwrap(), t[0][1].as_f64().unwrap());
    assert!((a * a + b * b - 1.0).abs() < 1e-6, "transform is rigid");
    for f in [
        "assembly.json",
        "solution.png",
        "index.json",
        "features.csv",
        "overlays/scan-001.png",
    ] {
        assert!(out.join(f).is_file(), "{f} written");
    }
    // The same folder solves again from its dump, without tracing.
    let again = run(&["solve", out.to_str().unwrap(), "--json", "--quiet"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let o = run(&[
        "score",
        out.join("assembly.json").to_str().unwrap(),
        gen.join("truth.json").to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Freeman & Garder's own encoding: a trace on a 4-pixel grid (`--grid 4`) is assembled from
/// its dump like a pixel chain, its chain read in grid steps (`Piece::chain_unit`). Before
/// session 55 the grid chain was read as pixels, four times too small, and nothing fitted.
#[test]
fn a_trace_on_the_coarse_grid_solves_from_its_dump() {
    let dir = scratch();
    let set = sample("synth/classic-12-scan");
    let images = set.join("images");
    let dump = dir.path().join("traced");
    let out = dir.path().join("solved");
    let (d, o) = (dump.to_str().unwrap(), out.to_str().unwrap());
    let r = run(&[
        "trace",
        images.to_str().unwrap(),
        "--grid",
        "4",
        "-o",
        d,
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = run(&["solve", d, "-o", o, "--quiet"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for f in ["solution.png", "overlays/scan-001.png"] {
        assert!(out.join(f).is_file(), "{f} written");
    }
    let r = run(&["--json", "score", o, set.to_str().unwrap()]);
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).expect("score --json");
    assert_eq!(s["neighbour_accuracy"].as_f64(), Some(1.0), "{s}");
    assert_eq!(s["pieces_placed"].as_u64(), Some(12), "{s}");
}

/// What a user runs first: `jigsaw synth` with no piece size, then `jigsaw solve` on its
/// photos. At the 80 px per piece that was the default until session 54, this set solved to
/// 74.1 % after 350 s (see `synth::CLI_PX_PER_PIECE`).
#[test]
fn the_generators_default_piece_size_gives_photos_the_solver_solves() {
    let dir = scratch();
    let gen = dir.path().join("puzzle");
    let out = dir.path().join("solved");
    let (g, o) = (gen.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "--quiet",
        "synth",
        "--kind",
        "irregular",
        "--pieces",
        "100",
        "--seed",
        "3",
        "--style",
        "photo",
        "-o",
        g,
    ];
    let r = run(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let truth = std::fs::read_to_string(gen.join("truth.json")).unwrap();
    let truth = jigsaw::synth::truth::Truth::from_json(&truth).unwrap();
    assert_eq!(truth.px_per_piece, jigsaw::synth::CLI_PX_PER_PIECE);
    let images = gen.join(jigsaw::synth::IMAGES);
    let r = run(&["--quiet", "solve", images.to_str().unwrap(), "-o", o]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = run(&["--json", "score", o, g]);
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).expect("score --json");
    assert_eq!(s["neighbour_accuracy"].as_f64(), Some(1.0), "{s}");
    assert_eq!(s["pieces_placed"].as_u64(), Some(100), "{s}");
}

#[test]
fn solve_reports_bad_input_without_panicking() {
    let dir = scratch();
    let o = run(&["solve", dir.path().join("nope.png").to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nope.png"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn white_1000_from_its_masks_solves() {
    let Some((report, s)) = solve_real_set("white-1000", "piece_masks_png", 1001) else {
        return;
    };
    // The target: at least 99 % neighbour accuracy against the robot's solution.
    assert!(s.neighbour_accuracy >= 0.99, "{}", s.summary());
    assert_eq!(report.assembly.clusters, 1, "{}", s.summary());
}

/// Traces and assembles the `pieces` images of roksenhorn-puzzle-bot's `set` (from its folder
/// `images`, one piece each) and scores the assembly against the set's solution grid.
fn solve_real_set(
    set: &str,
    images: &str,
    pieces: usize,
) -> Option<(jigsaw::assembly::AssemblyReport, jigsaw::score::ScoreReport)> {
    let root = crate::util::shared_data(&format!("real/roksenhorn-puzzle-bot/{set}"))?;
    let traced = crate::util::traced(&root.join(images));
    assert_eq!(traced.images.len(), pieces);
    assert_eq!(traced.pieces.len(), pieces, "one piece per image");
    let report = assemble(traced);
    let truth = match set {
        "white-1000" => jigsaw::score::real::white1000(&root.join("6_solution")),
        _ => jigsaw::score::real::pikachu_grid(&root.join("solution_grid.txt")),
    }
    .expect("the set's solution");
    let s = jigsaw::score::grid::score(&report.assembly, &truth);
    Some((report, s))
}

#[test]
fn two_mixed_puzzles_come_out_as_two_clusters() {
    let mut a = puzzle(Kind::Classic, 50, 21, 150.0, 0, 0);
    let mut b = puzzle(Kind::Classic, 50, 22, 150.0, 0, 0);
    for (truth, tag) in [(&mut a, "a/"), (&mut b, "b/")] {
        for p in &mut truth.pieces {
            p.image = p.image.as_ref().map(|i| format!("{tag}{i}"));
        }
    }
    let mut set = truth_piece_set(&a);
    let offset = set.pieces.len() as u32;
    for mut p in truth_piece_set(&b).pieces {
        p.id += offset;
        for c in &mut p.chainlets {
            c.label = format!("{}.{}", p.id, c.label.split('.').nth(1).unwrap());
        }
        set.pieces.push(p);
    }
    let report = assemble(&set);
    let asm = &report.assembly;
    assert_eq!(asm.clusters, 2, "unplaced: {:?}", asm.unplaced);
    for cluster in 0..2 {
        let tags: std::collections::BTreeSet<&str> = asm
            .pieces
            .iter()
            .filter(|p| p.cluster == cluster)
            .map(|p| &p.image[..2])
            .collect();
        assert_eq!(tags.len(), 1, "cluster {cluster} mixes the puzzles");
    }
    for truth in [&a, &b] {
        let s = score(asm, truth).expect("scores");
        // "50 pieces" is the nearest grid, 7 × 7; the other puzzle's pieces are unmatched here.
        assert_eq!(s.pieces_expected, 49);
        assert_eq!(s.pieces_placed, s.pieces_expected, "{}", s.summary());
        assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    }
}

/// The same end to end: two generated 50-piece scans (seeds 21 and 22, 150 px per piece)
/// traced together from their images. Measured: two clusters, 49/49 placed and 100 % each.
#[test]
fn two_mixed_puzzles_end_to_end_come_out_as_two_clusters() {
    let dir = scratch();
    let mut files = Vec::new();
    let mut truths = Vec::new();
    for (seed, tag) in [(21, "a"), (22, "b")] {
        let mut p = Params::new(Kind::Classic, 50, seed);
        p.px_per_piece = 150.0;
        let mut out = generate(&p).expect("generates");
        let at = dir.path().join(tag);
        jigsaw::synth::write(&out, &at, false).expect("writes");
        files.extend(out.images.iter().map(|i| at.join(&i.name)));
        for piece in &mut out.truth.pieces {
            piece.image = piece.image.as_ref().map(|i| format!("{tag}/{i}"));
        }
        truths.push(out.truth);
    }
    let run = trace_images(&files, &PipelineOptions::default(), &|_| {});
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    assert_eq!(
        run.set.pieces.len(),
        98,
        "every piece of both puzzles found"
    );
    let asm = assemble(&run.set).assembly;
    assert_eq!(asm.clusters, 2, "unplaced: {:?}", asm.unplaced);
    for cluster in 0..2 {
        let puzzles: std::collections::BTreeSet<bool> = asm
            .pieces
            .iter()
            .filter(|p| p.cluster == cluster)
            .map(|p| p.image.contains("/a/"))
            .collect();
        assert_eq!(puzzles.len(), 1, "cluster {cluster} mixes the puzzles");
    }
    for truth in &truths {
        let s = score(&asm, truth).expect("scores");
        assert_eq!(s.pieces_placed, 49, "{}", s.summary());
        assert_eq!(s.neighbour_accuracy, 1.0, "{}", s.summary());
    }
}

/// svalat's `real-1.png`: 9 real interior pieces and the author's 9 adjacency pairs `a:s <-> b:t`
/// (ids in the raster order of each piece's first pixel, sides in the author's own numbering,
/// so only the pairs are compared). All 9 and no other: every chainlet here has look-alikes
/// within a few percent of its true mate's Δ, and the greedy growth, from any seed, mated the
/// left side of one piece that has no neighbour there (6 of 9 found, 3 wrong, before the
/// revisions of `assembly::restarts`).
#[test]
fn svalat_nine_pieces_give_the_authors_adjacencies() {
    let Some(root) = crate::util::shared_data("real/svalat-rust-puzzle-solver/tests") else {
        return;
    };
    let run = trace_images(
        &[root.join("real-1.png")],
        &PipelineOptions::default(),
        &|_| {},
    );
    assert_eq!(run.set.pieces.len(), 9);
    let mut order: Vec<&Piece> = run.set.pieces.iter().collect();
    order.sort_by_key(|p| (p.bbox[1], p.bbox[0]));
    let author = |id: u32| order.iter().position(|p| p.id == id).expect("traced id");
    let text = std::fs::read_to_string(root.join("real-1.txt")).expect("ground truth");
    let truth: std::collections::BTreeSet<(usize, usize)> = text
        .lines()
        .filter_map(|l| l.split_once("<->"))
        .map(|(a, b)| {
            let id = |s: &str| {
                s.trim()
                    .split(':')
                    .next()
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
            };
            (id(a).min(id(b)), id(a).max(id(b)))
        })
        .collect();
    assert_eq!(truth.len(), 9);
    let report = assemble(&run.set);
    let piece_of = |label: &str| label.split('.').next().unwrap().parse::<u32>().unwrap();
    let found: std::collections::BTreeSet<(usize, usize)> = report
        .assembly
        .pieces
        .iter()
        .flat_map(|p| p.mates.iter())
        .map(|m| {
            let (a, b) = (author(piece_of(&m.chainlet)), author(piece_of(&m.mate)));
            (a.min(b), a.max(b))
        })
        .collect();
    assert_eq!(found, truth, "found pairs, then the author's");
}

/// Pikachu-100: a real puzzle, one phone photo per piece, solved exactly as the issue asks:
/// 100 % since each photo's zoom is corrected and junctions tolerate the tilt no zoom undoes
/// (`assembly::zoom`, `closure::TILT_FRACTION`). Before: 94.4 % (98 placed) with holes filled
/// (pockets); 85.6 % before that; 79.4 % with colour but without the white balance, 83.3 % by
/// shape alone.
#[test]
fn pikachu_100_photos_solve() {
    let Some((_, s)) = solve_real_set("pikachu-100", "0_input", 100) else {
        return;
    };
    assert!(
        s.pieces_placed == 100 && s.neighbour_accuracy >= 0.999 && s.direct_accuracy >= 0.999,
        "{}",
        s.summary()
    );
}

/// Classic 100 photos, seed 3: a blue piece 13 ΔE from the blue cloth. The background field,
/// grown block by block, crept into it (steps of 4, 6 and 3 ΔE through the mixed blocks at
/// its edge), and against that tinted field the piece's own drop shadow stood 4–7 ΔE off the
/// shade ray, so the mask took the shadow in 15 px deep: 98.3 %, the piece left out. The shade
/// test now reads the consensus field where the two fields part (docs/segment.md, step 3).
#[test]
fn a_piece_the_colour_of_the_cloth_does_not_take_its_shadow_in() {
    photo_solved_completely(Kind::Classic, 100, 3);
}

/// Irregular 100 photos, seed 15: a corner piece hung on one knob outside the top right corner
/// of the puzzle, its own corner at the bottom right left empty, and nothing else left out
/// (98.7 %). The re-examination ran only while something was left out; a part sticking out of
/// the puzzle is now taken off and the holes refilled even when nothing is: the piece goes to
/// its corner, 100 %. Since session 29 growth no longer hangs it there (the cluster shows the
/// puzzle's frame by then, `assembly::outer_frame`), and the piece goes to its corner
/// without re-examination; classic 100 photos seed 55 (below) still needs it.
#[test]
fn a_corner_piece_hanging_outside_the_puzzle_goes_to_its_empty_corner() {
    photo_solved_completely(Kind::Irregular, 100, 15);
}

/// Classic 100 photos seed 55: two pairs of border pieces swapped places, each seated by one
/// piece in the other pair's notch with its partner hanging outside the frame (96.1 %).
/// Taken off alone, a hanging piece came back to the partner holding it by a true seam; the
/// re-examination then took every hanging part off together with the piece it hangs on and
/// refilled the holes: each pair went to its own notch, 100 %. Since session 34 growth takes
/// back ambiguous junction closures too (`assembly::grow::AMBIGUOUS_CLOSURE`), the pairs are
/// no longer swapped, and the solve is complete with no part moved.
#[test]
fn two_pairs_of_border_pieces_swapped_go_back_to_their_own_notches() {
    photo_solved_completely(Kind::Classic, 100, 55);
}

/// Irregular 100 photos seed 10: with the re-examination switched off it gives 95.5 % with
/// two pieces left out (measured in session 50); the re-examination takes off a part held by
/// one neighbour, refills the holes, and every piece goes home: 100 %, one part moved. It
/// holds the re-examination to its work now that seed 55 (above) no longer needs it, nor
/// seed 2 (98.2 % without it in session 34, this test's set until session 50, when a fit to
/// part of a region began to take the side facing the region for its open side, and the holes
/// step placed its piece directly).
#[test]
fn a_part_held_by_one_neighbour_gives_way_to_the_piece_left_out() {
    solves_with_parts_moved(Kind::Irregular, 100, 10, 1);
}

/// Irregular 100 photos seed 24: a corner piece hung on one knob below the bottom right
/// corner, its own corner at the top right empty, and beside it a piece the holes step had
/// fitted there, whose own hole was empty too (94.6 %). The piece beside it made the hung
/// piece look inside the puzzle; the puzzle's outline is now taken from the pieces held by
/// seams only, and a piece the holes step placed sticking out is taken off too: both go home,
/// and the piece left out takes the last notch, 100 %. Since session 29 growth hangs none of
/// them outside the puzzle's frame (`assembly::outer_frame`), and the solve stays complete.
#[test]
fn pieces_hanging_outside_together_are_each_taken_off() {
    photo_solved_completely(Kind::Irregular, 100, 24);
}

/// Irregular 100 photos seed 59: pieces 40 and 18 grew into a cluster apart and piece 94
/// was left out, the three belonging in a notch one piece wide and three deep (95.18 %).
/// Piece 94 belongs at its dead end, held on five sides; its sixth, facing the pair, is 0.08
/// of its outline, and a fit to part of a region needed an open side of 0.15. A piece lying
/// deep inside the hull all round needed 0.06 from session 36, and none since session 41
/// (`holes::partial`): it goes home, the pair fills the rest of the notch, 100 %.
#[test]
fn the_piece_at_the_dead_end_of_a_notch_goes_home_before_the_pair_beside_it() {
    photo_solved_completely(Kind::Irregular, 100, 59);
}

/// Irregular 100 photos seed 68: piece 45 fitted part of its region at its true pose (0.43 of
/// the tolerance), but a neighbour fitted first; with it placed, the piece's open side at its
/// true pose was 0.036 of its outline, under the 0.06 needed, and it was placed turned 90°
/// 12 px off at the only pose that passed (98.28 %). A piece lying deep inside the hull all
/// round needs no open side now (`holes::partial`): it fits its place whole, 100 %.
#[test]
fn a_piece_held_all_round_but_for_a_gap_fits_its_place_not_a_turned_one() {
    photo_solved_completely(Kind::Irregular, 100, 68);
}

/// Irregular 100 photos seed 86: growth left a cluster of eleven pieces apart, two true
/// blocks (seven pieces of the bottom left corner, four of the top right) joined by one wrong
/// seam of Δ 77 where the cluster's others lie at 4–37; the two together fit no region of the
/// largest cluster (95.26 %). Cut at that seam (`assembly::cut_apart`), each block fits its
/// own corner.
#[test]
fn a_cluster_apart_of_two_blocks_joined_by_one_seam_is_cut_and_each_fitted() {
    let (report, s) = photo_solved_completely(Kind::Irregular, 100, 86);
    assert!(report.clusters_cut >= 1, "{}", s.summary());
}

/// Irregular 100 photos seed 67: an L of ten pieces along the bottom left grew apart while
/// three pieces of its row (truth 83–85) were placed off in the largest cluster, where the L
/// belongs (90.79 %). Taken off alone, each fitted its place in the L, but the L, the others
/// still in its way, fitted nowhere; taken off together (`reexamine::gathered_parts`), the L
/// takes all three and then its place.
#[test]
fn parts_that_each_fit_the_cluster_apart_are_taken_off_together() {
    solves_with_parts_moved(Kind::Irregular, 100, 67, 1);
}

/// Irregular 100 scans seed 36: border piece 6 was left out of its notch on the top edge
/// (98.68 %), where the puzzle's edge bows in and the hull's chord runs far above the piece's
/// top side. The middle of that side lay deeper in the hull than it lay from the rim, so it
/// was compared with the rim, and at the true pose 9.2 % of the outline were outliers (8 %
/// allowed). A point of the item's border side far from the rim that faces the bay, with
/// nothing of the cluster before it out to the hull's edge, is now left out
/// (`holes::fit::faces_outside`): the piece goes home.
#[test]
fn a_border_side_under_a_deep_bay_of_the_hull_faces_the_outside() {
    solved_completely(scan(Kind::Irregular, 100, 36));
}

/// Irregular 100 scans seed 43: border piece 50, fitted into its notch by the holes step
/// within 3 px, ended 28 px and 4° off its three neighbours (98.21 %, everything placed):
/// settling moved those neighbours 22–30 px as it closed a crack beside them, and the piece,
/// held by no seam, stayed. Such a piece is now carried along by where it touches its
/// neighbours (`assembly::carried`).
#[test]
fn a_piece_fitted_by_shape_moves_with_its_neighbours_when_the_cluster_settles() {
    solved_completely(scan(Kind::Irregular, 100, 43));
}

/// Irregular 100 photos seed 43 (99.1 %), and seed 32 with 3 pieces missing and 3
/// extraneous (99.0 %): every piece placed, but a piece held by one seam came out of the final
/// settling turned about that seam, 12 px off a neighbour it lies beside (truth 6 and 7), 11
/// px (truth 49 and 58). Such a piece now also leans on the neighbours it touches while the
/// cluster settles (`assembly::leaning`): 4–5 px, every neighbour right.
#[test]
fn a_piece_held_by_one_seam_keeps_to_the_neighbours_it_touches() {
    photo_solved_completely(Kind::Irregular, 100, 43);
    photo_with_3_missing_3_extraneous_solved_completely(100, 32);
}

/// A generated scan's parameters.
fn scan(kind: Kind, pieces: usize, seed: u64) -> Params {
    let mut p = Params::new(kind, pieces, seed);
    p.style = jigsaw::synth::Style::Scan;
    p
}

/// Photos of `kind` with `pieces` at `seed` solve completely (one cluster, every neighbour
/// right), with at least `moved` parts moved by the re-examination.
fn solves_with_parts_moved(kind: Kind, pieces: usize, seed: u64, moved: usize) {
    let (report, s) = photo_solved_completely(kind, pieces, seed);
    assert!(report.parts_moved >= moved, "{}", s.summary());
}
