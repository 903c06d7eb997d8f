//! The cut network: every cut between two pieces (or a piece and the outside) is built once
//! as one polyline, and each piece outline is stitched from those shared polylines, so
//! adjacent pieces share exactly the same cut curve.

use super::geometry::{cross, dist, lerp, norm, signed_area, sub, Pt};
use std::collections::BTreeMap;

/// A coarse tiling: pieces as polygons over one vertex table, each running clockwise on
/// screen (positive [`signed_area`]). Straight segments between vertices become styled cuts.
#[derive(Clone, Debug, Default)]
pub struct Tiling {
    pub vertices: Vec<Pt>,
    pub faces: Vec<Vec<usize>>,
}

/// One cut between junction vertices `a` and `b`.
#[derive(Clone, Debug)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
    /// The face whose outline runs from `a` to `b`.
    pub left: usize,
    /// The face whose outline runs from `b` to `a`; `None` on the puzzle's exterior.
    pub right: Option<usize>,
    /// The cut curve from `a` to `b` (both ends included, exactly the vertex positions).
    pub points: Vec<Pt>,
}

#[derive(Clone, Debug)]
pub struct Network {
    pub vertices: Vec<Pt>,
    pub edges: Vec<Edge>,
    /// Per face, its edges in outline order, with `true` when traversed from `b` to `a`.
    pub faces: Vec<Vec<(usize, bool)>>,
}

/// A point where three or more regions (pieces, or the outside) meet.
#[derive(Clone, Debug, PartialEq)]
pub struct Junction {
    pub position: Pt,
    /// Face indices, ascending.
    pub faces: Vec<usize>,
    pub exterior: bool,
}

/// The shared boundary of two faces: one polyline per contiguous stretch.
#[derive(Clone, Debug)]
pub struct SharedBoundary {
    pub faces: (usize, usize),
    pub polylines: Vec<Vec<Pt>>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TilingError {
    #[error("segment {0}-{1} is used twice in the same direction")]
    DuplicateSegment(usize, usize),
    #[error("face {0} is degenerate or runs the wrong way")]
    BadFace(usize),
}

impl Tiling {
    /// Builds the network with straight cuts; the caller then restyles `edges[i].points`.
    pub fn network(&self) -> Result<Network, TilingError> {
        let mut edges: Vec<Edge> = Vec::new();
        let mut by_pair: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut faces = Vec::with_capacity(self.faces.len());
        for (f, face) in self.faces.iter().enumerate() {
            let poly: Vec<Pt> = face.iter().map(|&v| self.vertices[v]).collect();
            if face.len() < 3 || signed_area(&poly) <= 0.0 {
                return Err(TilingError::BadFace(f));
            }
            let mut refs = Vec::with_capacity(face.len());
            for k in 0..face.len() {
                let (a, b) = (face[k], face[(k + 1) % face.len()]);
                let key = (a.min(b), a.max(b));
                match by_pair.get(&key) {
                    None => {
                        by_pair.insert(key, edges.len());
                        refs.push((edges.len(), false));
                        edges.push(Edge {
                            a,
                            b,
                            left: f,
                            right: None,
                            points: vec![self.vertices[a], self.vertices[b]],
                        });
                    }
                    Some(&e) => {
                        let edge = &mut edges[e];
                        if edge.a != b || edge.right.is_some() {
                            return Err(TilingError::DuplicateSegment(a, b));
                        }
                        edge.right = Some(f);
                        refs.push((e, true));
                    }
                }
            }
            faces.push(refs);
        }
        Ok(Network {
            vertices: self.vertices.clone(),
            edges,
            faces,
        })
    }
}

impl Network {
    /// The cut from `e` as traversed by a face.
    fn oriented(&self, e: usize, reversed: bool) -> Vec<Pt> {
        let mut p = self.edges[e].points.clone();
        if reversed {
            p.reverse();
        }
        p
    }

    /// A face's outline (closed, last point not repeated), corners sharper than 25° rounded
    /// with `radius` (die-cut pieces have slightly rounded corners; the cuts stay shared).
    pub fn outline(&self, face: usize, radius: f64) -> Vec<Pt> {
        let refs = &self.faces[face];
        let m = refs.len();
        let curves: Vec<Vec<Pt>> = refs.iter().map(|&(e, r)| self.oriented(e, r)).collect();
        let round: Vec<bool> = (0..m)
            .map(|k| {
                let prev = &curves[(k + m - 1) % m];
                let next = &curves[k];
                // Only convex corners: rounding a reflex one would bulge into the neighbour.
                radius > 0.0 && turn_angle(prev, next, 3.0 * radius) > 25f64.to_radians()
            })
            .collect();
        let trimmed: Vec<Vec<Pt>> = (0..m)
            .map(|k| {
                let mut c = curves[k].clone();
                if round[k] {
                    c = trim_start(&c, radius);
                }
                if round[(k + 1) % m] {
                    c.reverse();
                    c = trim_start(&c, radius);
                    c.reverse();
                }
                c
            })
            .collect();
        let mut out = Vec::new();
        for k in 0..m {
            if round[k] {
                let from = *trimmed[(k + m - 1) % m].last().expect("non-empty cut");
                let to = trimmed[k][0];
                let corner = curves[k][0];
                for i in 1..4 {
                    let t = i as f64 / 4.0;
                    out.push(lerp(lerp(from, corner, t), lerp(corner, to, t), t));
                }
            }
            let c = &trimmed[k];
            let end = if round[(k + 1) % m] {
                c.len()
            } else {
                c.len() - 1
            };
            out.extend_from_slice(&c[..end]);
        }
        out
    }

    /// Every vertex where three or more regions meet, in vertex order.
    pub fn junctions(&self) -> Vec<Junction> {
        let mut faces_at: Vec<Vec<usize>> = vec![Vec::new(); self.vertices.len()];
        let mut exterior_at = vec![false; self.vertices.len()];
        for e in &self.edges {
            for v in [e.a, e.b] {
                faces_at[v].push(e.left);
                if let Some(r) = e.right {
                    faces_at[v].push(r);
                } else {
                    exterior_at[v] = true;
                }
            }
        }
        let mut out = Vec::new();
        for (v, mut f) in faces_at.into_iter().enumerate() {
            f.sort_unstable();
            f.dedup();
            if f.len() + usize::from(exterior_at[v]) >= 3 {
                out.push(Junction {
                    position: self.vertices[v],
                    faces: f,
                    exterior: exterior_at[v],
                });
            }
        }
        out
    }

    /// The shared boundaries of adjacent faces, ordered by face pair; each polyline runs in
    /// the outline direction of the lower-numbered face.
    pub fn shared_boundaries(&self) -> Vec<SharedBoundary> {
        let mut by_pair: BTreeMap<(usize, usize), Vec<Vec<Pt>>> = BTreeMap::new();
        for (f, refs) in self.faces.iter().enumerate() {
            for &(e, r) in refs {
                let edge = &self.edges[e];
                let Some(right) = edge.right else { continue };
                let other = if edge.left == f { right } else { edge.left };
                if other < f {
                    continue;
                }
                let curve = self.oriented(e, r);
                let list = by_pair.entry((f, other)).or_default();
                match list.last_mut() {
                    Some(last) if dist(*last.last().expect("non-empty"), curve[0]) < 1e-9 => {
                        last.extend_from_slice(&curve[1..]);
                    }
                    _ => list.push(curve),
                }
            }
        }
        by_pair
            .into_iter()
            .map(|(faces, mut polylines)| {
                if polylines.len() > 1 {
                    let first_start = polylines[0][0];
                    let last = polylines.last().expect("non-empty");
                    if dist(*last.last().expect("non-empty"), first_start) < 1e-9 {
                        let head = polylines.remove(0);
                        polylines
                            .last_mut()
                            .expect("non-empty")
                            .extend_from_slice(&head[1..]);
                    }
                }
                SharedBoundary { faces, polylines }
            })
            .collect()
    }

    /// The assembled puzzle's outline: the exterior cuts chained, clockwise on screen.
    pub fn exterior(&self) -> Vec<Pt> {
        let mut next: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, e) in self.edges.iter().enumerate() {
            if e.right.is_none() {
                next.insert(e.a, i);
            }
        }
        let Some((&start, _)) = next.iter().next() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut v = start;
        for _ in 0..self.edges.len() {
            let Some(&e) = next.get(&v) else { break };
            let p = &self.edges[e].points;
            out.extend_from_slice(&p[..p.len() - 1]);
            v = self.edges[e].b;
            if v == start {
                break;
            }
        }
        out
    }
}

/// Signed turn from the direction arriving at the end of `prev` to the one leaving the start
/// of `next` (positive at a convex corner of a clockwise-on-screen outline), measured on
/// chords of length about `reach`.
fn turn_angle(prev: &[Pt], next: &[Pt], reach: f64) -> f64 {
    let corner = next[0];
    let back = prev
        .iter()
        .rev()
        .find(|p| dist(**p, corner) >= reach)
        .copied()
        .unwrap_or(prev[0]);
    let ahead = next
        .iter()
        .find(|p| dist(**p, corner) >= reach)
        .copied()
        .unwrap_or(*next.last().expect("non-empty"));
    let (u, w) = (sub(corner, back), sub(ahead, corner));
    let (nu, nw) = (norm(u), norm(w));
    if nu < 1e-12 || nw < 1e-12 {
        return 0.0;
    }
    (cross(u, w) / (nu * nw)).atan2(super::geometry::dot(u, w) / (nu * nw))
}

/// Removes the first `r` of arc length, ending the cut exactly at that distance.
fn trim_start(c: &[Pt], r: f64) -> Vec<Pt> {
    let mut walked = 0.0;
    for i in 1..c.len() {
        let step = dist(c[i - 1], c[i]);
        if walked + step > r {
            let t = (r - walked) / step;
            let mut out = vec![lerp(c[i - 1], c[i], t)];
            out.extend_from_slice(&c[i..]);
            return out;
        }
        walked += step;
    }
    vec![*c.last().expect("non-empty")]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two unit squares side by side.
    fn domino() -> Tiling {
        Tiling {
            vertices: vec![
                [0.0, 0.0],
                [10.0, 0.0],
                [20.0, 0.0],
                [0.0, 10.0],
                [10.0, 10.0],
                [20.0, 10.0],
            ],
            faces: vec![vec![0, 1, 4, 3], vec![1, 2, 5, 4]],
        }
    }

    #[test]
    fn shared_cut_and_junctions_of_a_domino() {
        let n = domino().network().unwrap();
        assert_eq!(n.edges.len(), 7);
        let shared = n.shared_boundaries();
        assert_eq!(shared.len(), 1);
        assert_eq!(shared[0].polylines, vec![vec![[10.0, 0.0], [10.0, 10.0]]]);
        let j = n.junctions();
        assert_eq!(j.len(), 2);
        assert!(j.iter().all(|j| j.exterior && j.faces == vec![0, 1]));
        assert_eq!(signed_area(&n.exterior()), 200.0);
    }

    #[test]
    fn rounded_corners_lose_little_area() {
        let n = domino().network().unwrap();
        let a = signed_area(&n.outline(0, 0.5));
        assert!(a < 100.0 && a > 99.8, "{a}");
    }

    #[test]
    fn a_face_running_the_wrong_way_is_rejected() {
        let mut t = domino();
        t.faces[1].reverse();
        assert!(t.network().is_err());
    }
}
