//! Corner (critical point) checks on real masks and photos against known answers.

use crate::util::shared_data;
use image::GrayImage;
use jigsaw::chain::ChainCode;
use jigsaw::chainlets::{critical_points, CriticalOptions};
use jigsaw::piece_set::{CriticalKind, CriticalPoint};
use jigsaw::vision::{trace_region, PieceRegion};
use rayon::prelude::*;
use std::path::Path;

/// A single-piece mask file as a `PieceRegion` (threshold at mid-grey), for data sets that are
/// already segmented.
fn mask_region(path: &Path) -> PieceRegion {
    let mask: GrayImage = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_luma8();
    PieceRegion::from_mask(mask)
}

fn corners(chain: &ChainCode) -> Vec<CriticalPoint> {
    critical_points(chain, &CriticalOptions::default())
        .into_iter()
        .filter(|c| c.kind == CriticalKind::Discontinuity)
        .collect()
}

/// Interior angles (degrees) of the quadrilateral through 4 corners.
fn quad_angles(c: &[CriticalPoint]) -> Vec<f64> {
    (0..4)
        .map(|i| {
            let p = &c[(i + 3) % 4];
            let q = &c[i];
            let r = &c[(i + 1) % 4];
            let a = (p.x - q.x, p.y - q.y);
            let b = (r.x - q.x, r.y - q.y);
            let cos = (a.0 * b.0 + a.1 * b.1) / ((a.0.hypot(a.1)) * (b.0.hypot(b.1)));
            cos.clamp(-1.0, 1.0).acos().to_degrees()
        })
        .collect()
}

/// Side lengths (corner to next corner) of a piece with 4 corners.
fn side_lengths(c: &[CriticalPoint]) -> [f64; 4] {
    std::array::from_fn(|i| {
        let (p, q) = (&c[i], &c[(i + 1) % 4]);
        (p.x - q.x).hypot(p.y - q.y)
    })
}

/// How well the best pair of sides of two pieces agree in length (relative difference).
fn best_side_match(a: &[f64; 4], b: &[f64; 4]) -> f64 {
    let mut best = f64::INFINITY;
    for x in a {
        for y in b {
            best = best.min((x - y).abs() / ((x + y) / 2.0));
        }
    }
    best
}

#[test]
fn white_1000_masks_have_four_corners() {
    let Some(root) = shared_data("real/roksenhorn-puzzle-bot/white-1000") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(root.join("piece_masks_png"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 1001);
    let results: Vec<(u32, Vec<CriticalPoint>)> = files
        .par_iter()
        .map(|f| {
            let chain = trace_region(&mask_region(f)).expect("every mask traces");
            assert!(chain.is_closed(), "{}", f.display());
            let id: u32 = f.file_stem().unwrap().to_str().unwrap().parse().unwrap();
            (id, corners(&chain))
        })
        .collect();
    let four: Vec<&(u32, Vec<CriticalPoint>)> = results
        .iter()
        .filter(|(_, c)| c.len() == 4 && quad_angles(c).iter().all(|a| (a - 90.0).abs() < 35.0))
        .collect();
    let rate = four.len() as f64 / results.len() as f64;
    // Are they the corners? Pieces that are neighbours in the robot's solution share a side,
    // so each pair must have one side of equal length. Non-neighbours serve as the control.
    let csv = std::fs::read_to_string(root.join("pieces.csv")).unwrap();
    let mut cell = std::collections::HashMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.rsplitn(4, ',').collect();
        let id: u32 = line.split(',').next().unwrap().parse().unwrap();
        // Piece 168 duplicates piece 1 and has no solution cell.
        if let (Ok(x), Ok(y)) = (f[2].parse::<i32>(), f[1].parse::<i32>()) {
            cell.insert((x, y), id);
        }
    }
    let sides: std::collections::HashMap<u32, [f64; 4]> =
        four.iter().map(|(id, c)| (*id, side_lengths(c))).collect();
    let (mut pairs, mut matched, mut control, mut control_matched) = (0, 0, 0, 0);
    for (&(x, y), id) in &cell {
        for (dx, dy) in [(1, 0), (0, 1)] {
            let Some(other) = cell.get(&(x + dx, y + dy)) else {
                continue;
            };
            let (Some(a), Some(b)) = (sides.get(id), sides.get(other)) else {
                continue;
            };
            pairs += 1;
            matched += usize::from(best_side_match(a, b) < 0.01);
            let Some(far) = cell.get(&((x + 7) % 40, (y + 11) % 25)) else {
                continue;
            };
            let Some(c) = sides.get(far) else { continue };
            control += 1;
            control_matched += usize::from(best_side_match(a, c) < 0.01);
        }
    }
    let match_rate = matched as f64 / pairs as f64;
    let control_rate = control_matched as f64 / control.max(1) as f64;
    eprintln!(
        "white-1000: {}/{} pieces with 4 corners; neighbour side match {matched}/{pairs}, control {control_matched}/{control}",
        four.len(),
        results.len()
    );
    assert!(rate >= 0.995, "only {:.1}% have 4 corners", rate * 100.0);
    assert!(match_rate >= 0.93 && control_rate < 0.6 * match_rate);
}

/// The 4 corner points `P1: [a, b]` … of a lucaSartore `.txt` file.
fn luca_corners(text: &str) -> Vec<[f64; 2]> {
    text.lines()
        .filter_map(|l| {
            let inner = l.split_once('[')?.1.split_once(']')?.0;
            let (a, b) = inner.split_once(',')?;
            Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
        })
        .collect()
}

#[test]
fn luca_sartore_corners_match_the_authors() {
    let Some(root) = shared_data("real/lucaSartore-PuzzleSolver/dataset") else {
        return;
    };
    let mut masks = Vec::new();
    for set in std::fs::read_dir(&root).unwrap() {
        let divided = set.unwrap().path().join("divided");
        for f in std::fs::read_dir(&divided).into_iter().flatten() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "jpeg") {
                masks.push(p);
            }
        }
    }
    masks.sort();
    assert_eq!(masks.len(), 222);
    let errors: Vec<(String, f64)> = masks
        .par_iter()
        .map(|m| {
            let region = mask_region(m);
            let size = (region.area as f64).sqrt();
            let truth = luca_corners(&std::fs::read_to_string(m.with_extension("txt")).unwrap());
            assert_eq!(truth.len(), 4, "{}", m.display());
            let ours = corners(&trace_region(&region).unwrap());
            // Worst distance from one of their corners to our nearest corner, over piece size.
            let worst = if ours.len() == 4 {
                truth
                    .iter()
                    .map(|t| {
                        ours.iter()
                            .map(|c| (c.x - t[0]).hypot(c.y - t[1]))
                            .fold(f64::INFINITY, f64::min)
                    })
                    .fold(0.0, f64::max)
                    / size
            } else {
                f64::INFINITY
            };
            (m.display().to_string(), worst)
        })
        .collect();
    let good = errors.iter().filter(|e| e.1 <= 0.02).count();
    let bad: Vec<_> = errors.iter().filter(|e| e.1 > 0.02).collect();
    eprintln!(
        "lucaSartore: {good}/{} within 2% of piece size; misses {bad:?}",
        errors.len()
    );
    // The issue asks for 99% (220 of 222); we reach 220/222. The miss is one piece (it is in
    // both test_4x5 and test_5x8) whose blunted corner is 2.05% of piece size from the author's
    // point. The author's corners are apexes of minimum-area triangles enclosing each corner's
    // pixels, a median 0.4% of piece size outside ours (docs/trace.md).
    assert!(good >= 220, "{good}/222 within 2%");
}

/// How many flat (border) sides each pikachu piece has, by piece number, from the solution grid
/// (`solution_grid.txt`: rows of `<piece><arrow>`, 10 by 10).
fn pikachu_flat_sides(grid: &str) -> std::collections::HashMap<u32, usize> {
    let rows: Vec<Vec<u32>> = grid
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.trim_end_matches(['^', '>', 'v', '<']).parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 10);
    let mut flat = std::collections::HashMap::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 10);
        for (x, &id) in row.iter().enumerate() {
            flat.insert(
                id,
                usize::from(x == 0 || x == 9) + usize::from(y == 0 || y == 9),
            );
        }
    }
    flat
}

/// Why a piece's 4 corners are not a plausible corner set of the pikachu puzzle, if they are
/// not. The puzzle is cut on a wavy grid, so its pieces are skewed quadrilaterals (opposite
/// sides differ by up to ~19%, interior angles lie within 80°-102° in these photos, perspective
/// included); its corners are rounded (a corner point, where the side lines meet, lies up to
/// ~0.02 of piece size off the arc). Every side between two corners is either flat (a border
/// side, which the solution grid counts) or carries one knob or hole, bending far off its chord.
fn pikachu_implausible(p: &jigsaw::piece_set::Piece, flat_sides: usize) -> Option<String> {
    let c: Vec<&CriticalPoint> = p
        .critical_points
        .iter()
        .filter(|c| c.kind == CriticalKind::Discontinuity)
        .collect();
    if c.len() != 4 {
        return Some(format!("{} corners", c.len()));
    }
    let size = p.area.sqrt();
    let pts = p.chain.points();
    let n = p.chain.len();
    let owned: Vec<CriticalPoint> = c.iter().map(|&c| c.clone()).collect();
    let angles = quad_angles(&owned);
    if angles.iter().any(|a| (a - 90.0).abs() > 15.0) {
        return Some(format!("interior angles {angles:.0?}"));
    }
    let l = side_lengths(&owned);
    for k in 0..2 {
        if (l[k] - l[k + 2]).abs() > 0.25 * l[k].max(l[k + 2]) {
            return Some(format!("opposite sides {l:.0?}"));
        }
    }
    let mut flat = 0;
    for k in 0..4 {
        let (a, b) = (c[k], c[(k + 1) % 4]);
        let off = pts
            .iter()
            .map(|q| (f64::from(q[0]) - a.x).hypot(f64::from(q[1]) - a.y))
            .fold(f64::INFINITY, f64::min);
        if off > 0.03 * size {
            return Some(format!(
                "corner ({:.0}, {:.0}) is {off:.0} px off the outline",
                a.x, a.y
            ));
        }
        // The farthest the outline between the two corners strays from their chord.
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = dx.hypot(dy);
        let span = (b.index + n - a.index) % n;
        let bend = (0..=span)
            .map(|j| pts[(a.index + j) % n])
            .map(|q| ((f64::from(q[0]) - a.x) * dy - (f64::from(q[1]) - a.y) * dx).abs() / len)
            .fold(0.0, f64::max)
            / size;
        if bend < 0.05 {
            flat += 1;
        } else if bend < 0.09 {
            return Some(format!(
                "side {k} neither flat nor knobbed (bends {bend:.3} of size)"
            ));
        }
    }
    (flat != flat_sides).then(|| format!("{flat} flat sides, the grid says {flat_sides}"))
}

#[test]
fn pikachu_photos_each_give_one_piece_with_four_plausible_corners() {
    let Some(root) = shared_data("real/roksenhorn-puzzle-bot/pikachu-100") else {
        return;
    };
    let set = crate::util::traced(&root.join("0_input"));
    assert_eq!(set.images.len(), 100);
    assert_eq!(set.pieces.len(), 100);
    let flat =
        pikachu_flat_sides(&std::fs::read_to_string(root.join("solution_grid.txt")).unwrap());
    let bad: Vec<(String, String)> = set
        .pieces
        .iter()
        .filter_map(|p| {
            let number: u32 = Path::new(&p.image)
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse().ok())
                .expect("photos are named by piece number");
            pikachu_implausible(p, flat[&number]).map(|why| (format!("{number}.jpeg"), why))
        })
        .collect();
    eprintln!(
        "pikachu-100: {}/100 pieces with 4 plausible corners; misses {bad:?}",
        100 - bad.len()
    );
    // 99/100: piece 89's top-right corner goes to a jag of the ragged outline 0.08 of piece
    // size down its right side, so its flat top side does not end at the corner.
    assert!(bad.len() <= 1, "{bad:?}");
}
