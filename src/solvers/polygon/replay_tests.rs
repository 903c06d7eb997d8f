//! Diagnosis of the photo path on synthetic dissections: the search is replayed along the
//! truth (at each node, only the placing that puts a piece where the truth has it is followed)
//! and the first node where no candidate reproduces the truth is explained: which piece
//! should go there, and whether ANGLE/SIDE CHECK or ρ refused it and why. Run with
//! `REPLAY=12:2,14:6 cargo test --release --lib replay -- --ignored --nocapture`.

use super::geometry::{dist, dist_to_segment, interior_angle_cw, Pt};
use super::photo::{photo_options, photo_pieces, photo_puzzle};
use super::place::{pose, rho_posed};
use super::records::{oriented, RegionPolygon};
use super::search::{Search, Step, Visitor};
use super::solution::prepare;
use super::truth_masks::traced_truth;
use crate::synth::{generate, Kind, Params, Style};

struct Nothing;

impl Visitor for Nothing {
    fn solution(&mut self, _: &[Step]) -> bool {
        false
    }
}

/// Corners of `poly` turning by more than 0.1°, with their turning angle in degrees.
pub(super) fn corners(poly: &[Pt]) -> Vec<(Pt, f64)> {
    let n = poly.len();
    (0..n)
        .filter_map(|i| {
            let a = interior_angle_cw(poly[(i + n - 1) % n], poly[i], poly[(i + 1) % n]);
            let turn = (a - std::f64::consts::PI).to_degrees();
            (turn.abs() > 0.1).then_some((poly[i], turn))
        })
        .collect()
}

/// How far `placed` is from `truth`: the largest distance of a placed vertex from the truth
/// outline, and of the centroids.
pub(super) fn misfit(placed: &[Pt], truth: &[Pt]) -> f64 {
    let n = truth.len();
    let on = placed
        .iter()
        .map(|&p| {
            (0..n)
                .map(|k| dist_to_segment(p, truth[k], truth[(k + 1) % n]))
                .fold(f64::MAX, f64::min)
        })
        .fold(0.0, f64::max);
    on.max(dist(centroid(placed), centroid(truth)))
}

fn centroid(p: &[Pt]) -> Pt {
    let (mut cx, mut cy, mut a) = (0.0, 0.0, 0.0);
    for i in 0..p.len() {
        let (u, v) = (p[i], p[(i + 1) % p.len()]);
        let c = u[0] * v[1] - v[0] * u[1];
        cx += (u[0] + v[0]) * c;
        cy += (u[1] + v[1]) * c;
        a += 3.0 * c;
    }
    [cx / a, cy / a]
}

fn replay(pieces: usize, seed: u64) {
    let mut params = Params::new(Kind::Polygonal, pieces, seed);
    params.style = Style::Scan;
    let truth = generate(&params).expect("generates").truth;
    let set = traced_truth(&truth);
    let photo = photo_pieces(&set).expect("straightens");
    replay_set(pieces, seed, &truth, photo, (0..pieces).collect());
}

/// The same from the rendered images, traced by the vision front end as the CLI does
/// (edge calibration included); `style` is `scan` or `photo`.
fn replay_rendered(pieces: usize, seed: u64, style: Style) {
    if let Some((truth, photo, order)) = super::truth_masks::rendered(pieces, seed, style) {
        replay_set(pieces, seed, &truth, photo, order);
    }
}

/// Replays the truth for the straightened pieces `photo`, where `order[i]` is the truth
/// index of piece `i`.
fn replay_set(
    pieces: usize,
    seed: u64,
    truth: &crate::synth::truth::Truth,
    photo: super::photo::PhotoPieces,
    order: Vec<usize>,
) {
    let puzzle = photo_puzzle(&photo, vec![truth.assembled.outline.clone()]);
    let options = photo_options(&photo, &puzzle);
    let prepared = match prepare(&puzzle, &options) {
        Ok(p) => p,
        Err(e) => {
            println!("== {pieces} pieces seed {seed}: {e}");
            if let super::PolygonError::BadPiece { index, .. } = e {
                println!("   {:.1?}", photo.polygons[index]);
                println!("   truth {:.1?}", truth.pieces[order[index]].outline);
            }
            return;
        }
    };
    let tol = prepared.tol;
    println!(
        "== {pieces} pieces seed {seed}: noise {:.3} px, eps {:.2} px, angle_eps {:.2}°",
        photo.noise_px,
        tol.eps,
        tol.angle_eps.to_degrees()
    );
    let target_truth = corners(&truth.assembled.outline);
    println!(
        "target: {} truth corners, {} after cleaning; truth turns {:?}",
        target_truth.len(),
        prepared.region[0].len(),
        target_truth
            .iter()
            .map(|c| c.1.round() as i64)
            .collect::<Vec<_>>()
    );
    for (i, &k) in order.iter().enumerate() {
        let t = &truth.pieces[k];
        let tc = corners(t.outline.as_ref().expect("present"));
        let st = &photo.polygons[i];
        let missing: Vec<String> = tc
            .iter()
            .filter(|(p, _)| st.iter().all(|q| dist(*p, *q) > 3.0))
            .map(|(_, a)| format!("{a:.1}°"))
            .collect();
        let worst = tc
            .iter()
            .map(|(p, _)| st.iter().map(|q| dist(*p, *q)).fold(f64::MAX, f64::min))
            .filter(|&d| d <= 3.0)
            .fold(0.0, f64::max);
        if tc.len() != st.len() || st.len() != prepared.pieces[i].len() || !missing.is_empty() {
            println!(
                "piece {i}: truth {} corners, straightened {}, cleaned {}; missing {:?}; worst \
                 vertex error {worst:.2} px; flipped {}",
                tc.len(),
                st.len(),
                prepared.pieces[i].len(),
                missing,
                t.flipped
            );
            println!("   straightened {:.1?}", st);
        }
    }
    // The truth pieces in the solver's (target) frame, oriented as the region is.
    let truth_placed: Vec<Vec<Pt>> = order
        .iter()
        .map(|&k| oriented(truth.pieces[k].assembled_outline.clone(), true))
        .collect();
    let pieces = pieces.min(order.len());
    let mut search = Search::new(&prepared.classes, tol, Nothing);
    search.refine = options.refine;
    let mut avail: Vec<u32> = prepared.classes.iter().map(|c| c.count).collect();
    let mut left: Vec<bool> = vec![true; pieces];
    let mut region: Vec<RegionPolygon> = prepared
        .region
        .iter()
        .map(|r| RegionPolygon::new(r))
        .collect();
    let mut depth = 0;
    while !region.is_empty() {
        let pi = (0..region.len())
            .min_by(|&a, &b| region[a].area.total_cmp(&region[b].area))
            .expect("non-empty");
        let poly = region[pi].clone();
        let pts = poly.points();
        let Some((j, cands)) = search.best_vertex(&poly, &avail) else {
            println!("depth {depth}: a convex corner admits no piece (dead end)");
            explain_dead(&search, &poly, &truth_placed, &left, &prepared, &avail);
            return;
        };
        let mut next = None;
        let mut notes = Vec::new();
        for &(c, ai) in &cands {
            let class = &prepared.classes[c];
            let anchor = &class.anchors[ai];
            match rho_posed(&pts, poly.area, j, &anchor.local, class.area, &tol, true) {
                Err(e) => notes.push(format!("class {c} anchor {ai}: {e:?}")),
                Ok((polys, placed)) => {
                    let hit = prepared.members[c]
                        .iter()
                        .filter(|&&m| left[m])
                        .map(|&m| (m, misfit(&placed, &truth_placed[m])))
                        .min_by(|x, y| x.1.total_cmp(&y.1));
                    if let Some((m, d)) = hit {
                        if d < 3.0 * tol.eps {
                            println!(
                                "depth {depth}: piece {m} at {:.1?}, off truth by {d:.2} px",
                                pts[j]
                            );
                            if std::env::var("REPLAY_DEBUG").is_ok() {
                                println!("   region {:.2?}", pts);
                                println!("   placed {:.2?}", placed);
                                println!("   truth  {:.2?}", truth_placed[m]);
                                println!("   anchor {:.2?}", anchor.local);
                            }
                            next = Some((c, m, polys, ai, placed));
                            break;
                        }
                        notes.push(format!("class {c} anchor {ai}: legal, off truth by {d:.1}"));
                    }
                }
            }
        }
        let p = pts[j];
        // As the search does: placings refused by ρ, tried again with the placed pieces they
        // touch re-posed.
        let mut reposed = None;
        if next.is_none() {
            for &(c, ai) in &cands {
                let anchor = &prepared.classes[c].anchors[ai];
                let placed = pose(&pts, j, &anchor.local, &tol, true);
                let Some(r) = search.try_repose(&poly, j, &placed, c) else {
                    continue;
                };
                let hit = prepared.members[c]
                    .iter()
                    .filter(|&&m| left[m])
                    .map(|&m| (m, misfit(&r.placed, &truth_placed[m])))
                    .min_by(|x, y| x.1.total_cmp(&y.1));
                if let Some((m, d)) = hit.filter(|h| h.1 < 3.0 * tol.eps) {
                    println!(
                        "depth {depth}: piece {m} at {p:.1?}, off truth by {d:.2} px once \
                         path pieces {:?} are re-posed",
                        r.moved.iter().map(|x| x.0).collect::<Vec<_>>()
                    );
                    reposed = Some((c, ai, m, r));
                    break;
                }
            }
        }
        if let Some((c, ai, m, r)) = reposed {
            let step = Step {
                class: c,
                anchor: ai,
                placed: r.placed,
                at: p,
            };
            search.record(region.clone(), step, r.moved);
            left[m] = false;
            avail[c] -= 1;
            region = r.next;
            depth += 1;
            continue;
        }
        let Some((c, m, polys, ai, placed)) = next else {
            println!(
                "depth {depth}: at vertex {p:.1?} (angle {:.1}°, {} candidates) no placing \
                 reproduces the truth",
                poly.angle(j).to_degrees(),
                cands.len()
            );
            let owner = (0..pieces).filter(|&m| left[m]).min_by(|&a, &b| {
                corner_gap(&truth_placed[a], p).total_cmp(&corner_gap(&truth_placed[b], p))
            });
            if let Some(m) = owner {
                explain_piece(m, p, &poly, j, &prepared, &truth_placed);
            }
            for n in notes.iter().take(12) {
                println!("    {n}");
            }
            return;
        };
        let step = Step {
            class: c,
            anchor: ai,
            placed,
            at: p,
        };
        search.record(region.clone(), step, Vec::new());
        left[m] = false;
        avail[c] -= 1;
        region.remove(pi);
        region.extend(polys.iter().map(|p| RegionPolygon::new(p)));
        depth += 1;
    }
    println!("replay reached the end: the truth is reachable");
}

/// Distance from `p` to the nearest vertex of `poly`.
fn corner_gap(poly: &[Pt], p: Pt) -> f64 {
    poly.iter().map(|q| dist(*q, p)).fold(f64::MAX, f64::min)
}

/// Why piece `m`, whose truth corner is at the region's vertex `j`, was not placed there.
fn explain_piece(
    m: usize,
    p: Pt,
    poly: &RegionPolygon,
    j: usize,
    prepared: &super::solution::Prepared,
    truth_placed: &[Vec<Pt>],
) {
    let tol = prepared.tol;
    let n = poly.v.len();
    let alpha = poly.angle(j);
    println!(
        "  truth piece {m} (corner gap {:.1} px); region sides next {:.1} prev {:.1}, next angle \
         {:.1}°, prev angle {:.1}°",
        corner_gap(&truth_placed[m], p),
        poly.v[j].len,
        poly.v[(j + n - 1) % n].len,
        poly.angle((j + 1) % n).to_degrees(),
        poly.angle((j + n - 1) % n).to_degrees()
    );
    let c = prepared
        .members
        .iter()
        .position(|mm| mm.contains(&m))
        .expect("in a class");
    let class = &prepared.classes[c];
    let pts = poly.points();
    for (ai, an) in class.anchors.iter().enumerate() {
        if (an.angle - alpha).abs() > 0.35 {
            continue;
        }
        let r = rho_posed(&pts, poly.area, j, &an.local, class.area, &tol, true);
        let d = match &r {
            Ok((_, placed)) => format!(
                "legal, off truth by {:.1}",
                misfit(placed, &truth_placed[m])
            ),
            Err(e) => {
                if std::env::var("REPLAY_DEBUG").is_ok() {
                    debug_strong(&pts, j, &an.local, &tol);
                }
                format!("{e:?}")
            }
        };
        println!(
            "    anchor {ai} (mirror {}): angle {:.1}° sides prev {:.1} next {:.1}, angles prev \
             {:.1}° next {:.1}°: {d}",
            an.mirror,
            an.angle.to_degrees(),
            an.side_prev,
            an.side_next,
            an.angle_prev.to_degrees(),
            an.angle_next.to_degrees()
        );
    }
}

fn explain_dead(
    search: &Search<'_, Nothing>,
    poly: &RegionPolygon,
    truth_placed: &[Vec<Pt>],
    left: &[bool],
    prepared: &super::solution::Prepared,
    _avail: &[u32],
) {
    let n = poly.v.len();
    for j in 0..n {
        let a = poly.angle(j);
        if a >= std::f64::consts::PI - search.tol.angle_eps {
            continue;
        }
        let p = poly.v[j].p;
        println!("  corner {p:.1?} angle {:.1}°", a.to_degrees());
        let owner = (0..left.len()).filter(|&m| left[m]).min_by(|&x, &y| {
            corner_gap(&truth_placed[x], p).total_cmp(&corner_gap(&truth_placed[y], p))
        });
        if let Some(m) = owner {
            explain_piece(m, p, poly, j, prepared, truth_placed);
        }
    }
}

#[test]
#[ignore = "diagnosis: REPLAY=pieces:seed,... with --ignored --nocapture"]
fn replay_truth() {
    let spec = std::env::var("REPLAY").unwrap_or_else(|_| "7:2".into());
    for item in spec.split(',') {
        let mut parts = item.split(':');
        let n: usize = parts.next().and_then(|x| x.parse().ok()).expect("pieces");
        let s: u64 = parts.next().and_then(|x| x.parse().ok()).expect("seed");
        match parts.next() {
            Some("scan") => replay_rendered(n, s, Style::Scan),
            Some("photo") => replay_rendered(n, s, Style::Photo),
            _ => replay(n, s),
        }
    }
}

fn debug_strong(region: &[Pt], j: usize, anchored: &[Pt], tol: &super::geometry::Tol) {
    use super::place::{corner_turn, place_turned, sigma};
    let turn = corner_turn(region, j, anchored, tol);
    let (_, placed) = place_turned(region, j, anchored, turn);
    let placed = super::refine::refine(region, &placed, tol);
    let mut pseudo = region[..j].to_vec();
    pseudo.extend_from_slice(&placed);
    pseudo.extend_from_slice(&region[j..]);
    let sig = sigma(&pseudo, tol);
    println!("      turn {:.2}° placed {:.1?}", turn.to_degrees(), placed);
    println!("      region {:.1?}", region);
    let n = sig.len();
    for i in 0..n {
        for k in i + 2..n {
            if i == 0 && k == n - 1 {
                continue;
            }
            if super::geometry::meet(sig[i], sig[(i + 1) % n], sig[k], sig[(k + 1) % n], tol)
                == super::geometry::Meet::Strong
            {
                println!(
                    "      strong: {:.1?}-{:.1?} x {:.1?}-{:.1?}",
                    sig[i],
                    sig[(i + 1) % n],
                    sig[k],
                    sig[(k + 1) % n]
                );
            }
        }
    }
}
