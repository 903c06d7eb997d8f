//! From the grown clusters to the assembly table: transforms into one output frame (clusters
//! laid side by side so they never overlap), confidences, mates, junctions, unplaced pieces.

use super::geometry::{Pose, P2};
use super::grow::Growth;
use super::matings::MatingTable;
use super::shapes::Shapes;
use super::table::{Assembly, JunctionRecord, MateRecord, PlacedPiece, UnplacedPiece};

pub fn to_assembly(shapes: &Shapes, table: &MatingTable, g: &Growth) -> Assembly {
    let upright = upright_rotations(shapes, g);
    let offsets: Vec<Pose> = cluster_offsets(shapes, g, &upright)
        .iter()
        .zip(&upright)
        .map(|(o, r)| o * r)
        .collect();
    let mut pieces = Vec::new();
    let mut unplaced = Vec::new();
    for (i, shape) in shapes.pieces.iter().enumerate() {
        let centroid = [shape.centroid.x, shape.centroid.y];
        let Some(p) = &g.placed[i] else {
            let has_mates = shape
                .chainlets
                .iter()
                .any(|&c| table.all_of(c).next().is_some());
            unplaced.push(UnplacedPiece {
                id: shape.id,
                image: shape.image.clone(),
                centroid,
                reason: if g.loose.contains(&i) {
                    "weak mates: held only by matings (one, or a cluster that closed no junction) \
                     worse than those junction closures confirmed"
                        .into()
                } else if has_mates {
                    "closure failed: its candidate mates did not fit the cluster".into()
                } else {
                    "no mate: no chainlet passed feature and contour tests (extraneous?)".into()
                },
            });
            continue;
        };
        let pose = offsets[p.cluster as usize] * p.pose;
        let m = pose.to_homogeneous();
        let mates = shape
            .chainlets
            .iter()
            .filter_map(|&c| {
                g.mate_of[c].map(|(o, d)| MateRecord {
                    chainlet: shapes.chainlets[c].label.clone(),
                    mate: shapes.chainlets[o].label.clone(),
                    delta: d,
                })
            })
            .collect();
        let confidence = match p.supports {
            0 => 1.0,
            1 => (1.0 - p.merit).clamp(0.0, 1.0) * 0.8,
            _ => (1.0 - 0.5 * p.merit).clamp(0.0, 1.0),
        };
        pieces.push(PlacedPiece {
            id: shape.id,
            image: shape.image.clone(),
            centroid,
            transform: [
                [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
                [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
            ],
            scale: shape.scale,
            sequence: p.sequence,
            confidence,
            cluster: p.cluster,
            mates,
        });
    }
    pieces.sort_by_key(|p| p.sequence);
    let junctions = g
        .junctions
        .iter()
        .map(|j| {
            let pos = offsets[j.cluster as usize] * j.position;
            JunctionRecord {
                position: [pos.x, pos.y],
                radiality: radiality(shapes, g, j.cluster, &j.position),
                figure_of_merit: j.merit,
            }
        })
        .collect();
    Assembly {
        pieces,
        unplaced,
        clusters: g.clusters as usize,
        junctions,
    }
}

/// Translations that put cluster k to the right of cluster k−1 with a gap of one piece, and
/// every cluster's top-left at y = 0.
fn cluster_offsets(shapes: &Shapes, g: &Growth, upright: &[Pose]) -> Vec<Pose> {
    let mut boxes = vec![
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY
        ];
        g.clusters as usize
    ];
    for (i, p) in g.placed.iter().enumerate() {
        let Some(p) = p else { continue };
        let b = &mut boxes[p.cluster as usize];
        for q in &shapes.pieces[i].polygon {
            let t = upright[p.cluster as usize] * p.pose * q;
            b[0] = b[0].min(t.x);
            b[1] = b[1].min(t.y);
            b[2] = b[2].max(t.x);
            b[3] = b[3].max(t.y);
        }
    }
    let gap = shapes.median_size;
    let mut x = 0.0;
    boxes
        .iter()
        .map(|b| {
            let off = Pose::translation(x - b[0], -b[1]);
            x += (b[2] - b[0]) + gap;
            off
        })
        .collect()
}

/// Per cluster, the rotation that makes its chainlets' distance vectors line up with the
/// axes as well as possible (circular mean of 4θ): grid puzzles come out square to the
/// picture instead of at the seed piece's arbitrary angle; irregular ones are unharmed.
fn upright_rotations(shapes: &Shapes, g: &Growth) -> Vec<Pose> {
    let mut sums = vec![(0.0f64, 0.0f64); g.clusters as usize];
    for (i, p) in g.placed.iter().enumerate() {
        let Some(p) = p else { continue };
        for &c in &shapes.pieces[i].chainlets {
            let pts = &shapes.chainlets[c].points;
            let d = p.pose * pts[pts.len() - 1] - p.pose * pts[0];
            let (w, th) = (d.norm(), d.y.atan2(d.x));
            let s = &mut sums[p.cluster as usize];
            s.0 += w * (4.0 * th).cos();
            s.1 += w * (4.0 * th).sin();
        }
    }
    sums.iter()
        .map(|&(c, s)| Pose::rotation(-s.atan2(c) / 4.0))
        .collect()
}

/// How many pieces of the cluster have an outline point at the junction. Only pieces whose
/// centroid is within reach can; their dense outline is checked near the junction.
fn radiality(shapes: &Shapes, g: &Growth, cluster: u32, at: &P2) -> u32 {
    let tol = 0.08 * shapes.median_size;
    g.placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().filter(|p| p.cluster == cluster).map(|p| (i, p)))
        .filter(|(i, p)| {
            let piece = &shapes.pieces[*i];
            let local = p.pose.inverse() * at;
            (local - piece.centroid).norm() < 2.0 * piece.size
                && piece.outline.iter().any(|q| (q - local).norm() < tol)
        })
        .count() as u32
}
