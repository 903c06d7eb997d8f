//! From a [`Puzzle`] to a [`Report`]: validate and orient the input, group identical pieces,
//! run the search, and turn each path of placings into placements of the input pieces.

use super::assign::{assign, Placed};
use super::contacts::solution_misfit;
use super::geometry::{meet, sub, Meet, Pt, Tol};
use super::records::{clean_simple, contains, oriented, RegionPolygon};
use super::search::{PieceClass, Search, Step, Stop, Visitor};
use super::symmetry::{anchors, canonical_key, identical_classes, mirror_pt};
use super::symmetry::{target_symmetries, Anchor, Iso};
use super::{Options, Placement, PolygonError, Puzzle, Report, Solution};
use std::collections::HashSet;

/// A validated puzzle, ready to search.
pub struct Prepared {
    pub(super) tol: Tol,
    /// Cleaned counter-clockwise pieces, and their anchors.
    pub(super) pieces: Vec<Vec<Pt>>,
    pub(super) input: Vec<Vec<Pt>>,
    /// Member piece indices per class, classes sorted larger first.
    pub(super) members: Vec<Vec<usize>>,
    pub(super) classes: Vec<PieceClass>,
    pub(super) region: Vec<Vec<Pt>>,
    /// The target as given (every vertex, also those too flat to be corners to the search:
    /// where cuts meet the border, they tell the solution's fit where pieces' corners are).
    pub(super) target_input: Vec<Vec<Pt>>,
    pub(super) symmetries: Vec<Iso>,
    pub(super) flip: bool,
}

pub fn prepare(puzzle: &Puzzle, options: &Options) -> Result<Prepared, PolygonError> {
    if puzzle.pieces.is_empty() {
        return Err(PolygonError::NoPieces);
    }
    if puzzle.target.is_empty() {
        return Err(PolygonError::NoTarget);
    }
    if !(options.tolerance > 0.0 && options.tolerance < 0.1) {
        return Err(PolygonError::BadTolerance(options.tolerance));
    }
    let tol = super::tolerances(puzzle, options);
    let corner_tol = match options.corner_tolerance {
        Some(c) if c > 0.0 && c < options.tolerance => Tol::new(super::puzzle_scale(puzzle), c),
        _ => tol,
    };
    let mut pieces = Vec::with_capacity(puzzle.pieces.len());
    for (index, p) in puzzle.pieces.iter().enumerate() {
        let c = clean_simple(p, &corner_tol)
            .map_err(|defect| PolygonError::BadPiece { index, defect })?;
        pieces.push(oriented(c, true));
    }
    let mut region = Vec::with_capacity(puzzle.target.len());
    for (index, p) in puzzle.target.iter().enumerate() {
        let c = clean_simple(p, &corner_tol)
            .map_err(|defect| PolygonError::BadTarget { index, defect })?;
        region.push(oriented(c, false));
    }
    check_disjoint(&region, &tol)?;
    let piece_area: f64 = pieces
        .iter()
        .map(|p| super::target_area(std::slice::from_ref(p)))
        .sum();
    let target_area = super::target_area(&region);
    let rel = (piece_area - target_area) / target_area;
    if rel.abs() > options.area_tolerance && !(rel > 0.0 && options.allow_leftover) {
        return Err(PolygonError::AreaMismatch {
            pieces: piece_area,
            target: target_area,
            hint: if rel < 0.0 {
                " (the pieces cannot cover it)"
            } else {
                " (pass --allow-leftover to leave pieces unused)"
            },
        });
    }
    let piece_anchors: Vec<Vec<Anchor>> = pieces
        .iter()
        .map(|p| anchors(p, puzzle.flip, &tol))
        .collect();
    let mut members = identical_classes(&piece_anchors, &tol);
    let area_of = |i: usize| super::target_area(std::slice::from_ref(&pieces[i]));
    members.sort_by(|a, b| {
        area_of(b[0])
            .total_cmp(&area_of(a[0]))
            .then(a[0].cmp(&b[0]))
    });
    let classes = members
        .iter()
        .map(|m| {
            let p = &pieces[m[0]];
            let n = p.len();
            PieceClass {
                area: area_of(m[0]),
                shortest_side: (0..n)
                    .map(|i| super::geometry::dist(p[i], p[(i + 1) % n]))
                    .fold(f64::INFINITY, f64::min),
                anchors: piece_anchors[m[0]].clone(),
                count: m.len() as u32,
            }
        })
        .collect();
    let symmetries = target_symmetries(&region, &tol);
    Ok(Prepared {
        tol,
        pieces,
        input: puzzle.pieces.clone(),
        members,
        classes,
        region,
        target_input: puzzle.target.clone(),
        symmetries,
        flip: puzzle.flip,
    })
}

/// Target polygons may touch at vertices but must not overlap or nest.
fn check_disjoint(region: &[Vec<Pt>], tol: &Tol) -> Result<(), PolygonError> {
    for a in 0..region.len() {
        for b in a + 1..region.len() {
            let (pa, pb) = (&region[a], &region[b]);
            let crossing = (0..pa.len()).any(|i| {
                (0..pb.len()).any(|k| {
                    let m = meet(
                        pa[i],
                        pa[(i + 1) % pa.len()],
                        pb[k],
                        pb[(k + 1) % pb.len()],
                        tol,
                    );
                    m == Meet::Strong
                })
            });
            let inside = |p: &[Pt], q: &[Pt]| {
                contains(p, interior_point(q))
                    || q.iter().any(|&v| contains(p, v) && !on_boundary(p, v, tol))
            };
            if crossing || inside(pa, pb) || inside(pb, pa) {
                return Err(PolygonError::TargetsOverlap(a, b));
            }
        }
    }
    Ok(())
}

fn on_boundary(p: &[Pt], v: Pt, tol: &Tol) -> bool {
    (0..p.len()).any(|i| super::geometry::dist_to_segment(v, p[i], p[(i + 1) % p.len()]) <= tol.eps)
}

/// A point just inside a clockwise polygon: off the middle of its longest side, to the right.
fn interior_point(p: &[Pt]) -> Pt {
    let n = p.len();
    let i = (0..n)
        .max_by(|&a, &b| {
            let la = super::geometry::dist(p[a], p[(a + 1) % n]);
            la.total_cmp(&super::geometry::dist(p[b], p[(b + 1) % n]))
        })
        .unwrap_or(0);
    let (a, b) = (p[i], p[(i + 1) % n]);
    let d = sub(b, a);
    // Right of a→b is (d.y, −d.x); step in by 1e-4 of the side.
    [
        (a[0] + b[0]) / 2.0 + d[1] * 1e-4,
        (a[1] + b[1]) / 2.0 - d[0] * 1e-4,
    ]
}

/// Collects counts and the first `max_print` distinct solutions (with `rank`, the best
/// fitting ones, each with its misfit and its number of corners).
struct Collector<'a> {
    prepared: &'a Prepared,
    all: bool,
    rank: bool,
    max_print: usize,
    arrangements: u64,
    raw: u64,
    seen: HashSet<Vec<i64>>,
    solutions: Vec<Solution>,
    ranked: Vec<(f64, usize, Vec<i64>, Solution)>,
}

impl Visitor for Collector<'_> {
    fn solution(&mut self, path: &[Step]) -> bool {
        let p = self.prepared;
        self.arrangements += 1;
        // Labelled solutions: the used copies of each class may be permuted.
        let mut used = vec![0u64; p.classes.len()];
        for s in path {
            used[s.class] += 1;
        }
        // Saturating: 21 identical pieces would overflow u64 (documented).
        let labelled: u64 = used
            .iter()
            .zip(&p.classes)
            .flat_map(|(&u, c)| (0..u).map(move |i| c.count as u64 - i))
            .fold(1u64, |acc, f| acc.saturating_mul(f));
        self.raw = self.raw.saturating_add(labelled);
        let placed: Vec<(usize, Vec<Pt>)> =
            path.iter().map(|s| (s.class, s.placed.clone())).collect();
        let key = canonical_key(&placed, &p.symmetries, &p.tol);
        if self.rank {
            self.seen.insert(key.clone());
            self.keep_ranked(key, to_solution(p, path));
            return true;
        }
        if self.seen.insert(key) && self.solutions.len() < self.max_print {
            self.solutions.push(to_solution(p, path));
        }
        self.all
    }
}

impl Collector<'_> {
    /// Keeps `solution` among the `max_print` best fitting, one per distinct class.
    fn keep_ranked(&mut self, key: Vec<i64>, solution: Solution) {
        let polys: Vec<Vec<Pt>> = solution
            .placements
            .iter()
            .map(|pl| pl.vertices.clone())
            .collect();
        let cap = 3.0 * self.prepared.tol.eps;
        let (cost, corners) = solution_misfit(&polys, &self.prepared.target_input, cap);
        if let Some(k) = self.ranked.iter().position(|r| r.2 == key) {
            if cost >= self.ranked[k].0 {
                return;
            }
            self.ranked.remove(k);
        }
        let at = self.ranked.partition_point(|r| r.0 <= cost);
        self.ranked.insert(at, (cost, corners, key, solution));
        self.ranked.truncate(self.max_print.max(1));
    }
}

pub fn run(p: &Prepared, options: &Options) -> Result<Report, PolygonError> {
    let collector = Collector {
        prepared: p,
        all: options.all,
        rank: options.rank,
        max_print: if options.all || options.rank {
            options.max_print
        } else {
            1
        },
        arrangements: 0,
        raw: 0,
        seen: HashSet::new(),
        solutions: Vec::new(),
        ranked: Vec::new(),
    };
    let mut search = Search::new(&p.classes, p.tol, collector);
    search.allow_leftover = options.allow_leftover;
    search.max_nodes = options.max_nodes;
    if options.rank && !options.all {
        search.soft_limit = super::RANK_NODES;
    }
    search.memo_limit = options.memo_limit;
    search.refine = options.refine;
    let region: Vec<RegionPolygon> = p.region.iter().map(|r| RegionPolygon::new(r)).collect();
    match search.run(region) {
        Ok(_) => {}
        Err(Stop::NodeLimit) => return Err(PolygonError::NodeLimit(options.max_nodes)),
    }
    let (nodes, memo_hits, reposes) = (search.nodes, search.memo_hits, search.reposes);
    let mut c = search.into_visitor();
    let misfit_rms = c.ranked.first().map(|r| (r.0 / r.1.max(1) as f64).sqrt());
    if c.rank {
        c.solutions = c.ranked.drain(..).map(|r| r.3).collect();
    }
    Ok(Report {
        distinct: c.seen.len() as u64,
        raw: c.raw,
        arrangements: c.arrangements,
        nodes,
        memo_hits,
        reposes,
        target_symmetries: p.symmetries.len(),
        identical_pieces: p.members.iter().filter(|m| m.len() > 1).cloned().collect(),
        elapsed_ms: 0.0,
        exhaustive: options.all,
        solutions: c.solutions,
        misfit_rms,
    })
}

/// Maps a path of placings to input pieces, each with the motion that takes it to its
/// place: which member of a class and which chirality lies where is chosen by best fit
/// ([`assign`]), the motion by least squares onto the placed polygon.
fn to_solution(p: &Prepared, path: &[Step]) -> Solution {
    let placed: Vec<Placed<'_>> = path
        .iter()
        .map(|s| Placed {
            class: s.class,
            local: &p.classes[s.class].anchors[s.anchor].local,
            vertices: &s.placed,
        })
        .collect();
    let chosen = assign(
        &placed,
        &p.members,
        &p.pieces,
        &p.input,
        p.flip,
        &p.target_input,
        &p.tol,
    );
    let tidy_pt = |q: Pt| [tidy(q[0], p.tol.eps), tidy(q[1], p.tol.eps)];
    let mut placements: Vec<Placement> = chosen
        .into_iter()
        .map(|(piece, v)| {
            let m = |q: Pt| if v.mirror { mirror_pt(q) } else { q };
            Placement {
                piece,
                mirror: v.mirror,
                vertices: p.input[piece]
                    .iter()
                    .map(|&q| tidy_pt(v.pose.apply(m(q))))
                    .collect(),
                rotation: tidy(v.pose.theta.to_degrees(), 1e-7),
                translation: tidy_pt(v.pose.t),
            }
        })
        .collect();
    placements.sort_by_key(|pl| pl.piece);
    Solution { placements }
}

/// Rounds `v` to a decimal grid 10⁵ times finer than `eps`, so that output reads `1.0` and
/// `0.0` rather than `0.9999999999999998` and `6.1e-17` (and never `-0.0`).
fn tidy(v: f64, eps: f64) -> f64 {
    let digits = (-(eps * 1e-5).log10()).ceil().clamp(0.0, 15.0) as i32;
    let k = 10f64.powi(digits);
    (v * k).round() / k + 0.0
}
