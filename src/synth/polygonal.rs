//! Polygonal dissections (tangram-like): a random, possibly non-convex polygon cut again and
//! again by straight chords through its largest piece until there are `n` pieces. A chord's
//! ends are inserted into the neighbouring piece too, so cuts stay shared (T-junctions become
//! triradial junctions).

use super::geometry::{cross, dist, signed_area, sub, Pt};
use super::network::{Network, Tiling, TilingError};
use super::random::Random;

pub fn build(n: usize, size: f64, seed: u64) -> Result<Network, TilingError> {
    let mut rng = Random::new(seed, 30);
    let mut tiling = start_polygon(n, size, &mut rng);
    let mut attempts = 0;
    while tiling.faces.len() < n && attempts < 200 * n {
        attempts += 1;
        let areas: Vec<f64> = (0..tiling.faces.len()).map(|f| area(&tiling, f)).collect();
        let largest = (0..areas.len())
            .max_by(|&a, &b| areas[a].total_cmp(&areas[b]).then(b.cmp(&a)))
            .expect("at least one face");
        try_cut(&mut tiling, largest, &mut rng);
    }
    tiling.network()
}

fn area(t: &Tiling, f: usize) -> f64 {
    signed_area(
        &t.faces[f]
            .iter()
            .map(|&v| t.vertices[v])
            .collect::<Vec<_>>(),
    )
}

/// A star-shaped polygon of 5–9 corners with area about `n · size²`; one corner in three
/// is pulled in, so the outline is usually not convex.
fn start_polygon(n: usize, size: f64, rng: &mut Random) -> Tiling {
    let k = 5 + rng.below(5);
    let radius = (n as f64 * size * size / std::f64::consts::PI).sqrt() * 1.1;
    let mut angles: Vec<f64> = (0..k)
        .map(|i| (i as f64 + rng.uniform(-0.3, 0.3)) * std::f64::consts::TAU / k as f64)
        .collect();
    angles.sort_by(f64::total_cmp);
    let vertices: Vec<Pt> = angles
        .iter()
        .map(|&a| {
            let r = radius
                * if rng.chance(0.33) {
                    rng.uniform(0.6, 0.8)
                } else {
                    rng.uniform(0.9, 1.1)
                };
            [radius * 1.2 + r * a.cos(), radius * 1.2 + r * a.sin()]
        })
        .collect();
    // Angles increase clockwise on screen (y down), so the shoelace area is positive.
    Tiling {
        vertices,
        faces: vec![(0..k).collect()],
    }
}

/// Cuts face `f` along a random chord through a point near its centroid; gives up (returns
/// false) on a chord that would make a sliver or pass too near a corner.
fn try_cut(t: &mut Tiling, f: usize, rng: &mut Random) -> bool {
    let poly: Vec<Pt> = t.faces[f].iter().map(|&v| t.vertices[v]).collect();
    let a = signed_area(&poly);
    let scale = a.sqrt();
    let c = super::geometry::centroid(&poly);
    let through = [
        c[0] + rng.uniform(-0.15, 0.15) * scale,
        c[1] + rng.uniform(-0.15, 0.15) * scale,
    ];
    let angle = rng.uniform(0.0, std::f64::consts::PI);
    let d = [angle.cos(), angle.sin()];
    // Nearest boundary crossings on either side of `through` along the line.
    let m = poly.len();
    let mut fwd: Option<(f64, usize, f64)> = None;
    let mut back: Option<(f64, usize, f64)> = None;
    for i in 0..m {
        let (p, q) = (poly[i], poly[(i + 1) % m]);
        let e = sub(q, p);
        let den = cross(d, e);
        if den.abs() < 1e-12 {
            continue;
        }
        let w = sub(p, through);
        let t_line = cross(w, e) / den;
        let s_edge = cross(w, d) / den;
        if !(0.0..1.0).contains(&s_edge) {
            continue;
        }
        if t_line > 0.0 && fwd.is_none_or(|x| t_line < x.0) {
            fwd = Some((t_line, i, s_edge));
        }
        if t_line < 0.0 && back.is_none_or(|x| t_line > x.0) {
            back = Some((t_line, i, s_edge));
        }
    }
    let (Some(fw), Some(bk)) = (fwd, back) else {
        return false;
    };
    if fw.1 == bk.1 {
        return false;
    }
    for (_, i, s) in [fw, bk] {
        let e = sub(poly[(i + 1) % m], poly[i]);
        let len = dist(poly[i], poly[(i + 1) % m]);
        // No slivers: the chord meets each side at 25° or more.
        if (cross(d, e) / len).abs() < 25f64.to_radians().sin() {
            return false;
        }
        if s * len < 0.12 * scale || (1.0 - s) * len < 0.12 * scale {
            return false;
        }
    }
    let at = |x: (f64, usize, f64)| {
        let (p, q) = (poly[x.1], poly[(x.1 + 1) % m]);
        [p[0] + (q[0] - p[0]) * x.2, p[1] + (q[1] - p[1]) * x.2]
    };
    let (pf, pb) = (at(fw), at(bk));
    let (vf, vb) = (t.vertices.len(), t.vertices.len() + 1);
    // Split polygon: walk from the back crossing to the forward crossing, and the rest.
    let face = t.faces[f].clone();
    let mut one = vec![vb];
    let mut i = (bk.1 + 1) % m;
    loop {
        one.push(face[i]);
        if i == fw.1 {
            break;
        }
        i = (i + 1) % m;
    }
    one.push(vf);
    let mut two = vec![vf];
    let mut i = (fw.1 + 1) % m;
    loop {
        two.push(face[i]);
        if i == bk.1 {
            break;
        }
        i = (i + 1) % m;
    }
    two.push(vb);
    let area_of = |ids: &[usize], extra: &[(usize, Pt)]| {
        let pts: Vec<Pt> = ids
            .iter()
            .map(|&v| {
                extra
                    .iter()
                    .find(|x| x.0 == v)
                    .map_or_else(|| t.vertices[v], |x| x.1)
            })
            .collect();
        signed_area(&pts)
    };
    let extra = [(vf, pf), (vb, pb)];
    let (a1, a2) = (area_of(&one, &extra), area_of(&two, &extra));
    if a1.min(a2) < 0.3 * a.max(1e-9) || a1 <= 0.0 || a2 <= 0.0 {
        return false;
    }
    // Insert the chord ends into the neighbours sharing the cut sides.
    for (v, x) in [(vf, fw), (vb, bk)] {
        let (p, q) = (face[x.1], face[(x.1 + 1) % m]);
        for g in 0..t.faces.len() {
            if g == f {
                continue;
            }
            let other = &mut t.faces[g];
            let k = other.len();
            if let Some(pos) = (0..k).find(|&j| other[j] == q && other[(j + 1) % k] == p) {
                other.insert(pos + 1, v);
            }
        }
    }
    t.vertices.push(pf);
    t.vertices.push(pb);
    t.faces[f] = one;
    t.faces.push(two);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dissects_into_exactly_n_pieces_that_tile_the_polygon() {
        for n in [1, 2, 10, 40] {
            let net = build(n, 50.0, 4).unwrap();
            assert_eq!(net.faces.len(), n);
            let total: f64 = (0..n).map(|f| signed_area(&net.outline(f, 0.0))).sum();
            let ext = signed_area(&net.exterior());
            assert!((total - ext).abs() < 1e-6 * ext, "{n}: {total} vs {ext}");
        }
    }
}
