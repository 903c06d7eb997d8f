//! Recording the answer: the generated puzzle, its scattering and its images described as
//! a [`Truth`].

use super::geometry::{self, dist, Pt};
use super::truth::{
    self, AssembledTruth, ImageTruth, JunctionTruth, NeighbourTruth, PieceTruth, Truth,
};
use super::{scatter, Params, Puzzle};

#[allow(clippy::too_many_arguments)]
pub(super) fn build_truth(
    p: &Params,
    puzzle: &Puzzle,
    other: Option<&Puzzle>,
    items: &[(bool, usize)],
    missing: &[usize],
    layout: &scatter::Layout,
    names: &[String],
    image_outlines: &[Vec<Pt>],
    background: [u8; 3],
) -> Truth {
    let n = puzzle.outlines.len();
    let round = |v: &[Pt]| v.iter().map(|q| geometry::round3(*q)).collect::<Vec<_>>();
    let mut neighbours: Vec<Vec<NeighbourTruth>> = vec![Vec::new(); n];
    for s in puzzle.network.shared_boundaries() {
        let (a, b) = s.faces;
        let length: f64 = s
            .polylines
            .iter()
            .flat_map(|l| l.windows(2).map(|w| dist(w[0], w[1])))
            .sum();
        let boundary: Vec<Vec<Pt>> = s.polylines.iter().map(|l| round(l)).collect();
        for (x, y) in [(a, b), (b, a)] {
            neighbours[x].push(NeighbourTruth {
                id: y as u32 + 1,
                boundary: boundary.clone(),
                length,
            });
        }
    }
    for list in &mut neighbours {
        list.sort_by_key(|nb| nb.id);
    }
    let mut pieces: Vec<PieceTruth> = Vec::with_capacity(n + p.extra);
    let piece = |src: &Puzzle, i: usize, id: u32, extraneous: bool| {
        let outline = round(&src.outlines[i]);
        PieceTruth {
            id,
            image: None,
            missing: false,
            extraneous,
            flipped: false,
            transform: None,
            centroid: None,
            outline: None,
            assembled_centroid: geometry::round3(geometry::centroid(&outline)),
            area: (geometry::signed_area(&outline) * 1000.0).round() / 1000.0,
            assembled_outline: outline,
            neighbours: Vec::new(),
        }
    };
    for (i, nb) in neighbours.into_iter().enumerate() {
        let mut t = piece(puzzle, i, i as u32 + 1, false);
        t.missing = missing.binary_search(&i).is_ok();
        t.neighbours = nb;
        pieces.push(t);
    }
    let mut extra_ids = Vec::new();
    for (k, &(extra, i)) in items.iter().enumerate() {
        let id = if extra {
            let id = (n + extra_ids.len() + 1) as u32;
            extra_ids.push(id);
            pieces.push(piece(other.expect("extras have a source"), i, id, true));
            id
        } else {
            i as u32 + 1
        };
        let pl = &layout.placements[k];
        let t = &mut pieces[id as usize - 1];
        t.image = Some(names[pl.image].clone());
        t.flipped = pl.flipped;
        t.transform = Some(
            pl.transform
                .0
                .map(|row| row.map(|v| (v * 1e9).round() / 1e9)),
        );
        t.centroid = Some(geometry::round3(geometry::centroid(&image_outlines[k])));
        t.outline = Some(image_outlines[k].clone());
    }
    let images = layout
        .images
        .iter()
        .enumerate()
        .map(|(img, wh)| {
            let mut ids: Vec<u32> = pieces
                .iter()
                .filter(|t| t.image.as_deref() == Some(names[img].as_str()))
                .map(|t| t.id)
                .collect();
            ids.sort_unstable();
            ImageTruth {
                path: names[img].clone(),
                width: wh[0],
                height: wh[1],
                background,
                pieces: ids,
            }
        })
        .collect();
    let junctions = puzzle
        .network
        .junctions()
        .into_iter()
        .map(|j| JunctionTruth {
            position: geometry::round3(j.position),
            radiality: (j.faces.len() + usize::from(j.exterior)) as u32,
            pieces: j.faces.iter().map(|&f| f as u32 + 1).collect(),
            exterior: j.exterior,
        })
        .collect();
    Truth {
        format: truth::FORMAT.to_string(),
        kind: p.kind,
        style: p.style,
        seed: p.seed,
        px_per_piece: p.px_per_piece,
        grid: puzzle.grid,
        assembled: AssembledTruth {
            width: puzzle.width,
            height: puzzle.height,
            outline: round(&puzzle.network.exterior()),
        },
        images,
        pieces,
        junctions,
    }
}
