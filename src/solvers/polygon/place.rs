//! The placing function ρ of section 2: PLACE builds the pseudo-polygon, S (σ) deletes
//! zero-length sides and merges collinear ones, and LEGAL PSEUDO-POLYGON decides by weak and
//! strong intersections whether the piece fits, splitting at weak intersection points and
//! checking the orientation of every sub-polygon (nil-polygons are ignored).

use super::geometry::{
    add, dist_to_line, meet, scale, segment_dist2, sides, signed_area, sub, Meet, Pt, Tol,
};

/// Why a placing is not in the domain of ρ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// Two sides of the pseudo-polygon cross at a point interior to both (Figure 4a).
    Strong,
    /// After splitting at weak intersections a sub-polygon runs counter-clockwise: part of the
    /// piece lies outside the region (Figure 4c).
    WrongOrientation,
    /// The sub-polygons' area does not equal the polygon's minus the piece's: a tolerance
    /// artefact, refused rather than trusted.
    AreaMismatch,
}

/// PLACE: the piece, given in its anchor frame (vertex q_l at the origin, side q_l→q_(l−1)
/// along +x, then q_(l+1), …, q_(l−1) in counter-clockwise order), is put with q_l on region
/// vertex `j` and that side along p_j→p_(j+1). Returns the pseudo-polygon
/// p_1 … p_(j−1) q_l q_(l+1) … q_(l−1) p_j … p_n and the placed piece (from q_l on).
pub fn place(region: &[Pt], j: usize, anchored: &[Pt]) -> (Vec<Pt>, Vec<Pt>) {
    place_turned(region, j, anchored, 0.0)
}

/// PLACE with the piece turned by `turn` radians (counter-clockwise) about q_l = p_j.
pub fn place_turned(region: &[Pt], j: usize, anchored: &[Pt], turn: f64) -> (Vec<Pt>, Vec<Pt>) {
    let n = region.len();
    let placed = piece_turned(region, j, anchored, turn);
    let mut pseudo = Vec::with_capacity(n + placed.len());
    pseudo.extend_from_slice(&region[..j]);
    pseudo.extend_from_slice(&placed);
    pseudo.extend_from_slice(&region[j..]);
    (pseudo, placed)
}

/// The piece of [`place_turned`] alone, without the pseudo-polygon.
fn piece_turned(region: &[Pt], j: usize, anchored: &[Pt], turn: f64) -> Vec<Pt> {
    let n = region.len();
    let pj = region[j];
    let d = sub(region[(j + 1) % n], pj);
    let d = scale(d, 1.0 / d[0].hypot(d[1]));
    let (s, c) = turn.sin_cos();
    let d = [c * d[0] - s * d[1], s * d[0] + c * d[1]];
    let perp = [-d[1], d[0]];
    anchored
        .iter()
        .map(|&[u, w]| add(pj, add(scale(d, u), scale(perp, w))))
        .collect()
}

/// How far to turn a piece that fills the corner at p_j (its angle equals the corner's within
/// the angle tolerance) so that the angular misfit is shared between its two sides in
/// inverse proportion to their lengths. Why: measured pieces and regions built from measured
/// pieces have angle errors of a degree or two; PLACE lays q_l→q_(l−1) exactly along
/// p_j→p_(j+1), so when that side is short the whole misfit lands on the other, long side,
/// whose far end then misses the region by more than the length tolerance. Zero for exact
/// puzzles (misfits at rounding level are left alone) and for pieces that do not fill the
/// corner.
pub fn corner_turn(region: &[Pt], j: usize, anchored: &[Pt], tol: &Tol) -> f64 {
    let (n, m) = (region.len(), anchored.len());
    if n < 3 || m < 3 {
        return 0.0;
    }
    let (prev, pj, next) = (region[(j + n - 1) % n], region[j], region[(j + 1) % n]);
    let corner = super::geometry::interior_angle_cw(prev, pj, next);
    let q = anchored[1];
    let mut angle = (-q[1]).atan2(q[0]);
    if angle <= 0.0 {
        angle += std::f64::consts::TAU;
    }
    let misfit = corner - angle;
    let along = anchored[m - 1][0].min(super::geometry::dist(pj, next));
    let across = q[0].hypot(q[1]).min(super::geometry::dist(pj, prev));
    if misfit.abs() > tol.angle_at(along.min(across)) || misfit.abs() <= 1e-9 {
        return 0.0;
    }
    if along + across <= 0.0 {
        return 0.0;
    }
    -misfit * across / (along + across)
}

/// Whether σ deletes `p` between `a` and `b`: (b) it repeats its neighbour, or (a) it lies on
/// a straight line through both neighbours (which, when they coincide, is always true).
fn deletable(a: Pt, p: Pt, b: Pt, tol: &Tol) -> bool {
    if tol.same(p, a) || tol.same(p, b) || tol.same(a, b) {
        return true;
    }
    dist_to_line(p, a, b).is_none_or(|d| d <= tol.eps)
}

/// σ: repeat (a) and (b) until neither applies. An empty result is the nil-polygon (the
/// pseudo-polygon vanished into a point or a doubled segment).
pub fn sigma(pts: &[Pt], tol: &Tol) -> Vec<Pt> {
    let mut out: Vec<Pt> = Vec::with_capacity(pts.len());
    for &p in pts {
        out.push(p);
        loop {
            let m = out.len();
            if m >= 2 && tol.same(out[m - 1], out[m - 2]) {
                out.pop();
            } else if m >= 3 && deletable(out[m - 3], out[m - 2], out[m - 1], tol) {
                out.remove(m - 2);
            } else {
                break;
            }
        }
    }
    // The seam between the last and the first vertex.
    while out.len() >= 3 {
        let m = out.len();
        if deletable(out[m - 1], out[0], out[1], tol) {
            out.remove(0);
        } else if deletable(out[m - 2], out[m - 1], out[0], tol) {
            out.pop();
        } else {
            break;
        }
    }
    if out.len() < 3 {
        out.clear();
    }
    out
}

/// LEGAL PSEUDO-POLYGON applied to σ(pseudo-polygon): the clockwise polygons that replace the
/// region polygon (empty when it is fully covered), or why the placing is invalid.
/// The areas are the region polygon's and the piece's (what is left must be their
/// difference).
pub fn legal(
    sig: &[Pt],
    region_area: f64,
    piece_area: f64,
    tol: &Tol,
) -> Result<Vec<Vec<Pt>>, Illegal> {
    // Measured pieces do not fit exactly: allow a strip of width eps along both boundaries
    // (perimeter ≈ 4√area), plus rounding of the areas themselves.
    let area = Area {
        expected: region_area - piece_area,
        slack: tol.eps * 4.0 * (region_area.sqrt() + piece_area.sqrt()) + 1e-12 * region_area,
    };
    let n = sig.len();
    if n < 3 {
        return check_area(Vec::new(), area, tol);
    }
    let mut inserts: Vec<(usize, Pt)> = Vec::new();
    let mut weak = false;
    for i in 0..n {
        for k in i + 2..n {
            if i == 0 && k == n - 1 {
                continue;
            }
            match meet(sig[i], sig[(i + 1) % n], sig[k], sig[(k + 1) % n], tol) {
                Meet::None => {}
                Meet::Strong => return Err(Illegal::Strong),
                Meet::Weak(points) => {
                    weak = true;
                    for &(side, p) in points.as_slice() {
                        inserts.push((if side == 0 { i } else { k }, p));
                    }
                }
            }
        }
    }
    if !weak {
        return check_area(vec![sig.to_vec()], area, tol);
    }
    // SPLIT: put every weak intersection point on its side, then cut the closed walk into
    // simple loops wherever it comes back to a point it has already visited.
    let along = |&(i, p): &(usize, Pt)| {
        let a = sig[i];
        super::geometry::dot(sub(p, a), sub(sig[(i + 1) % n], a))
    };
    inserts.sort_by(|x, y| x.0.cmp(&y.0).then(along(x).total_cmp(&along(y))));
    let mut walk: Vec<Pt> = Vec::with_capacity(n + inserts.len());
    let mut next = 0;
    for (i, &v) in sig.iter().enumerate() {
        walk.push(v);
        while next < inserts.len() && inserts[next].0 == i {
            let p = inserts[next].1;
            if !walk.last().is_some_and(|&w| tol.same(w, p)) {
                walk.push(p);
            }
            next += 1;
        }
    }
    let mut stack: Vec<Pt> = Vec::with_capacity(walk.len());
    let mut loops: Vec<Vec<Pt>> = Vec::new();
    for p in walk {
        if let Some(k) = stack.iter().position(|&s| tol.same(s, p)) {
            loops.push(stack[k..].to_vec());
            stack.truncate(k + 1);
        } else {
            stack.push(p);
        }
    }
    loops.push(stack);
    let mut polys = Vec::new();
    for lp in loops {
        let s = sigma(&lp, tol);
        if s.len() >= 3 {
            polys.push(s);
        }
    }
    check_area(polys, area, tol)
}

/// The area the sub-polygons must have together, and how far they may be off.
#[derive(Clone, Copy)]
struct Area {
    expected: f64,
    slack: f64,
}

/// Every surviving sub-polygon must be clockwise, and together they must have the area left
/// over by the piece.
fn check_area(polys: Vec<Vec<Pt>>, area: Area, tol: &Tol) -> Result<Vec<Vec<Pt>>, Illegal> {
    let mut total = 0.0;
    let mut kept = Vec::with_capacity(polys.len());
    for p in polys {
        let a = -signed_area(&p);
        let perimeter: f64 = (0..p.len())
            .map(|i| super::geometry::dist(p[i], p[(i + 1) % p.len()]))
            .sum();
        if a.abs() <= tol.eps * perimeter {
            continue; // a sliver of zero width: a nil-polygon
        }
        if a < 0.0 {
            return Err(Illegal::WrongOrientation);
        }
        total += a;
        kept.push(p);
    }
    if (total - area.expected).abs() > area.slack {
        return Err(Illegal::AreaMismatch);
    }
    Ok(kept)
}

/// ρ for one region polygon: PLACE, σ, LEGAL. Returns the replacing polygons and the placed
/// piece.
pub fn rho(
    region: &[Pt],
    region_area: f64,
    j: usize,
    anchored: &[Pt],
    piece_area: f64,
    tol: &Tol,
) -> Result<(Vec<Vec<Pt>>, Vec<Pt>), Illegal> {
    rho_posed(region, region_area, j, anchored, piece_area, tol, false)
}

/// ρ with the piece optionally posed by least squares against all its contacts
/// ([`super::refine`]) before the pseudo-polygon is built (measured pieces).
pub fn rho_posed(
    region: &[Pt],
    region_area: f64,
    j: usize,
    anchored: &[Pt],
    piece_area: f64,
    tol: &Tol,
    refined: bool,
) -> Result<(Vec<Vec<Pt>>, Vec<Pt>), Illegal> {
    let placed = pose(region, j, anchored, tol, refined);
    let polys = rho_placed(region, region_area, j, &placed, piece_area, tol)?;
    Ok((polys, placed))
}

/// PLACE's piece at p_j, turned by [`corner_turn`] and optionally posed by least squares
/// ([`super::refine`]): where ρ will try it.
pub fn pose(region: &[Pt], j: usize, anchored: &[Pt], tol: &Tol, refined: bool) -> Vec<Pt> {
    let turn = corner_turn(region, j, anchored, tol);
    let placed = piece_turned(region, j, anchored, turn);
    if refined {
        super::refine::refine(region, &placed, tol)
    } else {
        placed
    }
}

/// The poses ρ tries for a piece anchored at p_j: [`pose`]'s, and with `refined` also the
/// pose PLACE gives (turned by [`corner_turn`] only) when least squares made a contact: a
/// vertex beyond `eps` of the region's outline as placed, within it as posed. Why both:
/// least squares can be led astray by a contact that is not one (10-piece photo seed 172: a
/// long piece's far vertex lies across a thin sliver of the region, 6 px from a side it does
/// not touch; pulled onto that side by the piece's longest lever, it turns the piece by 2°
/// off the three sides it does lie along, the sliver pinches shut and no piece fills what is
/// left), while elsewhere the least-squares pose is the one that fits; the search tells them
/// apart by what follows.
pub fn poses(region: &[Pt], j: usize, anchored: &[Pt], tol: &Tol, refined: bool) -> Vec<Vec<Pt>> {
    let placed = pose(region, j, anchored, tol, false);
    if !refined {
        return vec![placed];
    }
    let posed = super::refine::refine(region, &placed, tol);
    let off = |p: Pt| {
        sides(region)
            .map(|(a, b)| segment_dist2(p, a, b))
            .fold(f64::INFINITY, f64::min)
            .sqrt()
    };
    let made = posed
        .iter()
        .zip(&placed)
        .any(|(a, b)| off(*b) > tol.eps && off(*a) <= tol.eps);
    if made {
        vec![posed, placed]
    } else {
        vec![posed]
    }
}

/// σ and LEGAL for a piece already placed with its first vertex at (or, posed, near) p_j:
/// the pseudo-polygon p_1 … p_(j−1) `placed` p_j … p_n. Why separate from PLACE: a piece
/// re-posed after later contacts arrived ([`super::repose`]) is put back into the region
/// where it now lies, not where its anchor would put it.
pub fn rho_placed(
    region: &[Pt],
    region_area: f64,
    j: usize,
    placed: &[Pt],
    piece_area: f64,
    tol: &Tol,
) -> Result<Vec<Vec<Pt>>, Illegal> {
    let mut pseudo = Vec::with_capacity(region.len() + placed.len());
    pseudo.extend_from_slice(&region[..j]);
    pseudo.extend_from_slice(placed);
    pseudo.extend_from_slice(&region[j..]);
    let sig = sigma(&pseudo, tol);
    legal(&sig, region_area, piece_area, tol)
}
