//! Loose placement: every piece turned by any angle (and, for polygonal puzzles, possibly
//! face down), laid out on rows with random spacing so that no two pieces come closer than a
//! gap, and spread over images of at most a given number of pieces, as a person feeds a
//! flatbed scanner.

use super::geometry::{bounds, centroid, Affine, Pt};
use super::random::Random;

/// Where one piece went: image index and the map from the assembled frame to that image.
#[derive(Clone, Debug)]
pub struct Placement {
    pub item: usize,
    pub image: usize,
    pub transform: Affine,
    pub flipped: bool,
}

#[derive(Clone, Debug)]
pub struct Layout {
    /// Width and height of each image.
    pub images: Vec<[u32; 2]>,
    /// One per item, in item order.
    pub placements: Vec<Placement>,
}

/// Lays out `outlines` (assembled-frame polygons) with at least `gap` pixels between the
/// bounding boxes of turned pieces and between pieces and the image border.
pub fn scatter(
    outlines: &[Vec<Pt>],
    size: f64,
    gap: f64,
    per_image: usize,
    allow_flip: bool,
    rng: &mut Random,
) -> Layout {
    let n = outlines.len();
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let n_images = n.div_ceil(per_image.max(1)).max(1);
    let mut placements: Vec<Option<Placement>> = vec![None; n];
    let mut images = Vec::with_capacity(n_images);
    let margin = gap + 0.2 * size;
    let mut start = 0;
    for img in 0..n_images {
        let count = (n - start) / (n_images - img);
        let chunk = &order[start..start + count];
        start += count;
        // Turn each piece about its centroid, then shelf-pack the turned bounding boxes.
        let turned: Vec<(f64, bool, Pt, [f64; 4])> = chunk
            .iter()
            .map(|&k| {
                let angle = rng.uniform(0.0, std::f64::consts::TAU);
                let flip = allow_flip && rng.chance(0.5);
                let c = centroid(&outlines[k]);
                let a = Affine::rigid(angle, flip, c, [0.0, 0.0]);
                let pts: Vec<Pt> = outlines[k].iter().map(|p| a.apply(*p)).collect();
                (angle, flip, c, bounds(&pts))
            })
            .collect();
        let cell_area: f64 = turned
            .iter()
            .map(|t| (t.3[2] - t.3[0] + gap + 0.12 * size) * (t.3[3] - t.3[1] + gap + 0.12 * size))
            .sum();
        let row_width = (cell_area * 1.5)
            .sqrt()
            .max(turned.iter().map(|t| t.3[2] - t.3[0]).fold(0.0, f64::max));
        let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new()];
        let mut x = margin;
        let mut width = 0.0f64;
        for (i, t) in turned.iter().enumerate() {
            let bw = t.3[2] - t.3[0];
            if x + bw > margin + row_width && !rows.last().expect("a row").is_empty() {
                rows.push(Vec::new());
                x = margin;
            }
            rows.last_mut().expect("a row").push((i, x));
            x += bw + gap + rng.uniform(0.0, 0.25 * size);
            width = width.max(x - gap);
        }
        let mut y = margin;
        for row in &rows {
            let row_h = row
                .iter()
                .map(|&(i, _)| turned[i].3[3] - turned[i].3[1])
                .fold(0.0, f64::max);
            for &(i, x) in row {
                let (angle, flip, c, b) = turned[i];
                let slack = row_h - (b[3] - b[1]);
                let dy = rng.uniform(0.0, slack.max(0.0));
                let to = [x - b[0], y + dy - b[1]];
                placements[chunk[i]] = Some(Placement {
                    item: chunk[i],
                    image: img,
                    transform: Affine::rigid(angle, flip, c, to),
                    flipped: flip,
                });
            }
            y += row_h + gap + rng.uniform(0.0, 0.15 * size);
        }
        let w = (width + margin).ceil() as u32;
        let h = (y - gap + margin).ceil() as u32;
        images.push([w + w % 2, h + h % 2]);
    }
    Layout {
        images,
        placements: placements
            .into_iter()
            .map(|p| p.expect("every item placed"))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turned_pieces_keep_their_gap_and_stay_inside_their_images() {
        let sq = |x: f64| vec![[x, 0.0], [x + 30.0, 0.0], [x + 30.0, 20.0], [x, 20.0]];
        let outlines: Vec<Vec<Pt>> = (0..50).map(|k| sq(k as f64 * 30.0)).collect();
        let mut rng = Random::new(1, 1);
        let layout = scatter(&outlines, 25.0, 6.0, 20, true, &mut rng);
        assert_eq!(layout.images.len(), 3);
        let boxes: Vec<(usize, [f64; 4])> = layout
            .placements
            .iter()
            .map(|p| {
                let pts: Vec<Pt> = outlines[p.item]
                    .iter()
                    .map(|q| p.transform.apply(*q))
                    .collect();
                (p.image, bounds(&pts))
            })
            .collect();
        for (i, (img, b)) in boxes.iter().enumerate() {
            let [w, h] = layout.images[*img];
            assert!(b[0] >= 6.0 && b[1] >= 6.0 && b[2] <= w as f64 - 6.0 && b[3] <= h as f64 - 6.0);
            for (img2, c) in &boxes[i + 1..] {
                if img2 == img {
                    let apart = c[0] >= b[2] + 6.0 - 1e-9
                        || b[0] >= c[2] + 6.0 - 1e-9
                        || c[1] >= b[3] + 6.0 - 1e-9
                        || b[1] >= c[3] + 6.0 - 1e-9;
                    assert!(apart, "{b:?} {c:?}");
                }
            }
        }
    }
}
