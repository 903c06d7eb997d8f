//! Irregular puzzles: a Voronoi diagram of jittered seeds, clipped to a box whose border is
//! then pushed in and out so the exterior is irregular. Voronoi vertices closer than a fraction
//! of a piece are merged, which turns pairs and triples of triradial junctions into the
//! quadraradial and quintraradial ones of Freeman & Garder's Fig. 4. Cuts are wavy; long ones
//! get a knob where it fits inside the piece it bulges into.

use super::curves::{cut, Knob};
use super::geometry::{cross, dist, dot, sub, Pt};
use super::network::{Network, Tiling, TilingError};
use super::random::Random;
use std::collections::BTreeMap;

/// The cut network of an irregular puzzle of exactly `n` pieces of nominal size `size`.
pub fn build(n: usize, size: f64, seed: u64) -> Result<Network, TilingError> {
    let mut rng = Random::new(seed, 20);
    let tiling = voronoi_tiling(n, size, &mut rng);
    let mut network = tiling.network()?;
    style(&mut network, size, &mut rng);
    Ok(network)
}

fn voronoi_tiling(n: usize, size: f64, rng: &mut Random) -> Tiling {
    let rows = ((n as f64).sqrt().round() as usize).max(1);
    let cols = n.div_ceil(rows);
    let mut seeds: Vec<Pt> = (0..rows * cols)
        .map(|k| {
            let (i, j) = (k / cols, k % cols);
            [
                (j as f64 + 0.5 + rng.uniform(-0.35, 0.35)) * size,
                (i as f64 + 0.5 + rng.uniform(-0.35, 0.35)) * size,
            ]
        })
        .collect();
    while seeds.len() > n {
        let k = rng.below(seeds.len());
        seeds.remove(k);
    }
    let (w, h) = (cols as f64 * size, rows as f64 * size);
    let boxed = vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let cells: Vec<Vec<Pt>> = seeds
        .iter()
        .enumerate()
        .map(|(i, &s)| voronoi_cell(i, s, &seeds, &boxed))
        .collect();
    merge_vertices(&cells, [w, h], size, rng)
}

/// The box clipped by the bisector half-planes of the nearer seeds.
fn voronoi_cell(i: usize, s: Pt, seeds: &[Pt], boxed: &[Pt]) -> Vec<Pt> {
    let mut order: Vec<(f64, usize)> = seeds
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(j, &t)| (dist(s, t), j))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut cell = boxed.to_vec();
    for (d, j) in order {
        let reach = cell.iter().map(|p| dist(*p, s)).fold(0.0, f64::max);
        if d / 2.0 > reach {
            break;
        }
        let t = seeds[j];
        let mid = [(s[0] + t[0]) / 2.0, (s[1] + t[1]) / 2.0];
        cell = clip(&cell, mid, sub(t, s));
    }
    cell
}

/// Sutherland–Hodgman: the part of convex `poly` with `(p − m)·n ≤ 0`.
fn clip(poly: &[Pt], m: Pt, n: Pt) -> Vec<Pt> {
    let side = |p: Pt| dot(sub(p, m), n);
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (sp, sq) = (side(p), side(q));
        if sp <= 0.0 {
            out.push(p);
        }
        if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
            let t = sp / (sp - sq);
            out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
        }
    }
    out
}

/// Where a vertex lies on the box: 0 inside, else a bit per box side it touches.
fn box_sides(p: Pt, wh: [f64; 2]) -> u8 {
    let eps = 1e-7 * (wh[0] + wh[1]);
    u8::from(p[1].abs() < eps)
        | u8::from((p[0] - wh[0]).abs() < eps) << 1
        | u8::from((p[1] - wh[1]).abs() < eps) << 2
        | u8::from(p[0].abs() < eps) << 3
}

/// Identifies the copies of each Voronoi vertex, merges vertices closer than a fifth of a
/// piece (never two on the border), and pushes the border in and out.
fn merge_vertices(cells: &[Vec<Pt>], wh: [f64; 2], size: f64, rng: &mut Random) -> Tiling {
    let instances: Vec<Pt> = cells.iter().flatten().copied().collect();
    let mut parent: Vec<usize> = (0..instances.len()).collect();
    let on_border: Vec<bool> = instances.iter().map(|p| box_sides(*p, wh) != 0).collect();
    let mut border_of: Vec<bool> = on_border.clone();
    let cell_size = 0.42 * size;
    let key = |p: Pt| {
        (
            (p[0] / cell_size).floor() as i64,
            (p[1] / cell_size).floor() as i64,
        )
    };
    let mut grid: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    for (k, p) in instances.iter().enumerate() {
        grid.entry(key(*p)).or_default().push(k);
    }
    // Pass 0 joins copies of one vertex; pass 1 merges short Voronoi edges (making
    // quadraradial junctions); pass 2 merges a few chosen vertices with everything within
    // 0.42 pieces (making quintraradial ones).
    let chosen: Vec<bool> = instances.iter().map(|_| rng.chance(0.04)).collect();
    for (pass, tol) in [(0, 1e-6 * size), (1, 0.2 * size), (2, 0.42 * size)] {
        for (k, p) in instances.iter().enumerate() {
            let (gx, gy) = key(*p);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let Some(list) = grid.get(&(gx + dx, gy + dy)) else {
                        continue;
                    };
                    for &m in list {
                        if m <= k || dist(*p, instances[m]) >= tol || (pass == 2 && !chosen[k]) {
                            continue;
                        }
                        let (rk, rm) = (find(&mut parent, k), find(&mut parent, m));
                        if rk == rm || (pass == 1 && border_of[rk] && border_of[rm]) {
                            continue;
                        }
                        parent[rm] = rk;
                        border_of[rk] |= border_of[rm];
                    }
                }
            }
        }
    }
    // One vertex per cluster: a border member's position if any, else the mean.
    let mut index: BTreeMap<usize, usize> = BTreeMap::new();
    let mut sums: Vec<(Pt, f64, Option<Pt>)> = Vec::new();
    let mut vertex_of = vec![0; instances.len()];
    for k in 0..instances.len() {
        let r = find(&mut parent, k);
        let next = index.len();
        let v = *index.entry(r).or_insert(next);
        if v == sums.len() {
            sums.push(([0.0, 0.0], 0.0, None));
        }
        let s = &mut sums[v];
        s.0 = [s.0[0] + instances[k][0], s.0[1] + instances[k][1]];
        s.1 += 1.0;
        if on_border[k] {
            s.2 = Some(instances[k]);
        }
        vertex_of[k] = v;
    }
    let vertices: Vec<Pt> = sums
        .iter()
        .map(|(sum, n, b)| b.unwrap_or([sum[0] / n, sum[1] / n]))
        .collect();
    let mut faces = Vec::with_capacity(cells.len());
    let mut k = 0;
    for cell in cells {
        let mut f: Vec<usize> = cell
            .iter()
            .map(|_| {
                k += 1;
                vertex_of[k - 1]
            })
            .collect();
        f.dedup();
        while f.len() > 1 && f.first() == f.last() {
            f.pop();
        }
        faces.push(f);
    }
    let vertices = push_border(vertices, wh, size, rng);
    Tiling { vertices, faces }
}

fn find(parent: &mut [usize], mut k: usize) -> usize {
    while parent[k] != k {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    k
}

/// Moves border vertices across the border (corners diagonally) by up to a sixth of a piece,
/// and bends the whole picture gently, so the exterior is irregular and not a rectangle.
fn push_border(mut vertices: Vec<Pt>, wh: [f64; 2], size: f64, rng: &mut Random) -> Vec<Pt> {
    let amp = 0.1 * size;
    let phase = [rng.uniform(0.0, 6.3), rng.uniform(0.0, 6.3)];
    let freq = [rng.uniform(0.7, 1.3), rng.uniform(0.7, 1.3)];
    for p in &mut vertices {
        let sides = box_sides(*p, wh);
        let mut q = *p;
        if sides != 0 {
            let push = rng.uniform(-0.17, 0.17) * size;
            if sides & 1 != 0 {
                q[1] -= push;
            }
            if sides & 2 != 0 {
                q[0] += push;
            }
            if sides & 4 != 0 {
                q[1] += push;
            }
            if sides & 8 != 0 {
                q[0] -= push;
            }
        }
        let (u, v) = (p[0] / wh[0], p[1] / wh[1]);
        q[0] += amp * (std::f64::consts::TAU * freq[0] * v + phase[0]).sin();
        q[1] += amp * (std::f64::consts::TAU * freq[1] * u + phase[1]).sin();
        *p = q;
    }
    vertices
}

/// Wavy cuts everywhere; knobs on long interior cuts where the knob stays well inside the
/// piece it bulges into and clear of that piece's other knobs.
fn style(network: &mut Network, size: f64, rng: &mut Random) {
    let coarse: Vec<Vec<Pt>> = network
        .faces
        .iter()
        .map(|refs| {
            refs.iter()
                .map(|&(e, r)| {
                    let edge = &network.edges[e];
                    network.vertices[if r { edge.b } else { edge.a }]
                })
                .collect()
        })
        .collect();
    let mut discs: Vec<Vec<(Pt, f64)>> = vec![Vec::new(); network.faces.len()];
    for e in 0..network.edges.len() {
        let edge = &network.edges[e];
        let (a, b) = (network.vertices[edge.a], network.vertices[edge.b]);
        let len = dist(a, b);
        let amp = if edge.right.is_some() { 0.04 } else { 0.06 } * len;
        let wave = [rng.uniform(-amp, amp), rng.uniform(-amp, amp)];
        let mut knob = None;
        if let Some(right) = edge.right {
            if len >= 0.55 * size && rng.chance(0.7) {
                let mut k = Knob::random(rng, len.min(1.1 * size));
                for _ in 0..2 {
                    let face = if k.side > 0.0 { edge.left } else { right };
                    let head = k.head_centre(a, b);
                    let r = k.head_radius + 0.05 * size;
                    if fits(&coarse[face], a, b, &k, size)
                        && discs[face].iter().all(|&(c, rc)| dist(c, head) > r + rc)
                    {
                        discs[face].push((head, r));
                        knob = Some(k);
                        break;
                    }
                    k.side = -k.side;
                }
            }
        }
        network.edges[e].points = cut(a, b, knob, wave);
    }
}

/// The knob's head keeps 0.08 piece sizes from every other side of the piece it enters.
fn fits(face: &[Pt], a: Pt, b: Pt, k: &Knob, size: f64) -> bool {
    let head = k.head_centre(a, b);
    if !inside(face, head) {
        return false;
    }
    let clearance = k.head_radius + 0.08 * size;
    let tip_clear = 0.08 * size;
    let probe = cut(a, b, Some(*k), [0.0, 0.0]);
    (0..face.len()).all(|i| {
        let (p, q) = (face[i], face[(i + 1) % face.len()]);
        if (dist(p, a) < 1e-9 && dist(q, b) < 1e-9) || (dist(p, b) < 1e-9 && dist(q, a) < 1e-9) {
            return true;
        }
        segment_distance(head, p, q) >= clearance
            && probe
                .iter()
                .filter(|x| segment_distance(**x, a, b) > 0.02 * size)
                .all(|x| segment_distance(*x, p, q) >= tip_clear)
    })
}

fn inside(poly: &[Pt], p: Pt) -> bool {
    let mut wn = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
            if x > p[0] {
                wn = !wn;
            }
        }
    }
    wn
}

fn segment_distance(p: Pt, a: Pt, b: Pt) -> f64 {
    let ab = sub(b, a);
    let l2 = dot(ab, ab);
    if l2 < 1e-18 {
        return dist(p, a);
    }
    let t = (dot(sub(p, a), ab) / l2).clamp(0.0, 1.0);
    dist(p, [a[0] + ab[0] * t, a[1] + ab[1] * t])
}

/// Whether a closed polyline crosses itself (segments sorted by left end, swept).
pub fn is_simple(poly: &[Pt]) -> bool {
    let n = poly.len();
    let mut segs: Vec<(f64, f64, usize)> = (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            (a[0].min(b[0]), a[0].max(b[0]), i)
        })
        .collect();
    segs.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (k, &(_, hi, i)) in segs.iter().enumerate() {
        for &(lo2, _, j) in &segs[k + 1..] {
            if lo2 > hi {
                break;
            }
            if i.abs_diff(j) <= 1 || i.abs_diff(j) == n - 1 {
                continue;
            }
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let (c, d) = (poly[j], poly[(j + 1) % n]);
            let d1 = cross(sub(b, a), sub(c, a));
            let d2 = cross(sub(b, a), sub(d, a));
            let d3 = cross(sub(d, c), sub(a, c));
            let d4 = cross(sub(d, c), sub(b, c));
            if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::geometry::signed_area;
    use super::*;

    #[test]
    fn voronoi_cells_tile_the_box() {
        let mut rng = Random::new(3, 0);
        let t = voronoi_tiling(30, 50.0, &mut rng);
        assert_eq!(t.faces.len(), 30);
        let n = t.network().unwrap();
        let total: f64 = (0..30).map(|f| signed_area(&n.outline(f, 0.0))).sum();
        let ext = signed_area(&n.exterior());
        assert!((total - ext).abs() < 1e-6 * ext, "{total} vs {ext}");
    }

    #[test]
    fn junctions_of_radiality_three_four_and_five_occur() {
        let mut seen = [0usize; 8];
        for seed in 0..4 {
            let n = build(100, 60.0, seed).unwrap();
            for j in n.junctions() {
                if !j.exterior {
                    seen[j.faces.len().min(7)] += 1;
                }
            }
        }
        assert!(seen[3] > 0 && seen[4] > 0 && seen[5] > 0, "{seen:?}");
    }

    #[test]
    fn outlines_are_simple_polygons() {
        let n = build(60, 70.0, 9).unwrap();
        for f in 0..60 {
            assert!(is_simple(&n.outline(f, 0.7)), "face {f}");
        }
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let bow = [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]];
        assert!(is_simple(&square) && !is_simple(&bow));
    }
}
