//! Faces the colour of the background, kept when a welded blob is segmented again.
//!
//! A piece whose face matches the background over a large patch (red print on red felt) is
//! held by its rim alone: the hysteresis grows along the rim, and filling holes (or the rim
//! closure, see [`super::rim`]) gives the face. When a soft shadow welds that piece to a
//! neighbour along a side, the blob is `merged` with no neck to cut, and [`super::welded`]
//! takes its strong pixels, which hold the piece's print but not the face: the piece was
//! traced as a third of itself and left out of the puzzle (irregular 100 photos seed 100,
//! piece 52: 5273 of 16056 px).
//!
//! Such a face is a large patch of the blob that the hysteresis never reached: enclosed by
//! the piece's rim, so added by hole filling or the rim closure only. It lies against the
//! strong pixels of its own piece (its print, a few pixels across a soft colour seam) and is
//! kept apart from the neighbour's by the rim and the shadow. So a face goes back to the one
//! piece-sized part of strong pixels near it, with the blob's pixels along its edge (the
//! rim). A patch near two parts is the gap between two pieces, enclosed by two welds, and stays
//! out.

use super::components::{fill_holes, labelled_areas, window};
use image::{GrayImage, Luma};
use imageproc::region_labelling::Connectivity;

/// The faces of `before_clean` (the mask after hysteresis, faint pieces and the rim closure,
/// before the morphological clean-up): its pixels and holes that `grown` (the hysteresis
/// result) does not hold, in 4-connected patches of at least `min_area` pixels.
pub fn enclosed_faces(before_clean: &GrayImage, grown: &GrayImage, min_area: u64) -> GrayImage {
    let mut filled = before_clean.clone();
    fill_holes(&mut filled);
    let added = GrayImage::from_fn(filled.width(), filled.height(), |x, y| {
        let on = filled.get_pixel(x, y)[0] != 0 && grown.get_pixel(x, y)[0] == 0;
        Luma([u8::from(on) * 255])
    });
    let (labels, areas) = labelled_areas(&added, Connectivity::Four);
    GrayImage::from_fn(added.width(), added.height(), |x, y| {
        let l = labels.get_pixel(x, y)[0] as usize;
        Luma([u8::from(l > 0 && areas[l] >= min_area) * 255])
    })
}

/// `strong` (one blob's strong pixels, cleaned) with each face of `faces` that lies within
/// `near` pixels (chessboard) of exactly one part of `strong` of at least `min_part` pixels
/// added, together with the pixels of `blob` within `rim` pixels of the face. All three images
/// are the same box; `faces` holds only the blob's face pixels. Returns whether a face was
/// added.
pub fn add_faces(
    strong: &mut GrayImage,
    faces: &GrayImage,
    blob: &GrayImage,
    min_part: u64,
    (near, rim): (u32, u32),
) -> bool {
    let (w, h) = strong.dimensions();
    let (parts, part_areas) = labelled_areas(strong, Connectivity::Eight);
    let (face_labels, face_areas) = labelled_areas(faces, Connectivity::Four);
    // Per face, the piece-sized parts near it (`None` once there are two).
    let mut owner: Vec<Option<Option<u32>>> = vec![Some(None); face_areas.len()];
    for y in 0..h {
        for x in 0..w {
            let f = face_labels.get_pixel(x, y)[0] as usize;
            if f == 0 || owner[f].is_none() || !on_edge(&face_labels, x, y) {
                continue;
            }
            for (xx, yy) in window(x, y, near, (w, h)) {
                let p = parts.get_pixel(xx, yy)[0];
                if p == 0 || part_areas[p as usize] < min_part {
                    continue;
                }
                owner[f] = match owner[f] {
                    Some(None) => Some(Some(p)),
                    Some(Some(q)) if q != p => None,
                    same => same,
                };
                if owner[f].is_none() {
                    break;
                }
            }
        }
    }
    let kept = |x: u32, y: u32| {
        let f = face_labels.get_pixel(x, y)[0] as usize;
        f > 0 && matches!(owner[f], Some(Some(_)))
    };
    if !(1..face_areas.len()).any(|f| matches!(owner[f], Some(Some(_)))) {
        return false;
    }
    let before = strong.clone();
    for y in 0..h {
        for x in 0..w {
            if !kept(x, y) {
                continue;
            }
            strong.put_pixel(x, y, Luma([255]));
            if !on_edge(&face_labels, x, y) {
                continue;
            }
            for (xx, yy) in window(x, y, rim, (w, h)) {
                if blob.get_pixel(xx, yy)[0] != 0 && before.get_pixel(xx, yy)[0] == 0 {
                    strong.put_pixel(xx, yy, Luma([255]));
                }
            }
        }
    }
    true
}

/// Whether the labelled pixel (x, y) has a 4-neighbour outside its component (or the box).
fn on_edge(labels: &super::components::Labels, x: u32, y: u32) -> bool {
    let (w, h) = labels.dimensions();
    let l = labels.get_pixel(x, y)[0];
    x == 0
        || y == 0
        || x + 1 == w
        || y + 1 == h
        || [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            .iter()
            .any(|&(xx, yy)| labels.get_pixel(xx, yy)[0] != l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 100 × 60 box: two bodies side by side (x 5..45 and 55..95, y 10..50) welded by a
    /// shadow across the gap; the right body's strong pixels are its bottom half, its top half
    /// is a face the colour of the background inside its rim (one pixel wide).
    fn welded_pair() -> (GrayImage, GrayImage, GrayImage) {
        let blob = GrayImage::from_fn(100, 60, |x, y| {
            Luma([u8::from((5..95).contains(&x) && (10..50).contains(&y)) * 255])
        });
        let strong = GrayImage::from_fn(100, 60, |x, y| {
            let left = (5..45).contains(&x) && (10..50).contains(&y);
            let right = (55..95).contains(&x) && (30..50).contains(&y);
            Luma([u8::from(left || right) * 255])
        });
        let faces = GrayImage::from_fn(100, 60, |x, y| {
            Luma([u8::from((56..94).contains(&x) && (11..29).contains(&y)) * 255])
        });
        (strong, faces, blob)
    }

    fn area(m: &GrayImage) -> usize {
        m.pixels().filter(|p| p[0] != 0).count()
    }

    #[test]
    fn a_face_near_one_piece_goes_back_to_it_with_its_rim_and_not_the_weld() {
        let (mut strong, faces, blob) = welded_pair();
        assert!(add_faces(&mut strong, &faces, &blob, 300, (4, 1)));
        // The face (38 × 18) and the rim round it (top, sides, and the row between it and
        // the print), nothing of the gap (x 45..55) beyond one pixel.
        assert_eq!(strong.get_pixel(70, 20)[0], 255);
        assert_eq!(strong.get_pixel(55, 10)[0], 255, "the rim's corner");
        assert_eq!(strong.get_pixel(53, 20)[0], 0, "the weld");
        assert_eq!(area(&strong), 40 * 40 + 40 * 20 + 40 * 20);
    }

    #[test]
    fn a_patch_between_two_pieces_stays_out() {
        let (mut strong, _, blob) = welded_pair();
        // The gap between the bodies, enclosed by welds above and below.
        let gap = GrayImage::from_fn(100, 60, |x, y| {
            Luma([u8::from((46..54).contains(&x) && (15..45).contains(&y)) * 255])
        });
        let before = strong.clone();
        assert!(!add_faces(&mut strong, &gap, &blob, 300, (4, 1)));
        assert_eq!(strong, before);
    }

    #[test]
    fn a_face_near_only_a_speck_stays_out() {
        let (mut strong, faces, blob) = welded_pair();
        // The right body's print shrunk to a speck.
        for y in 30..50 {
            for x in 55..95 {
                if !(x < 60 && y < 35) {
                    strong.put_pixel(x, y, Luma([0]));
                }
            }
        }
        assert!(!add_faces(&mut strong, &faces, &blob, 300, (4, 1)));
    }

    #[test]
    fn faces_are_what_hole_filling_added_to_the_grown_mask_in_large_patches() {
        // A ring (the rim) round a 20 × 20 face, and a ring round a 2 × 2 dust hole.
        let ring = |x: u32, y: u32, x0: u32, x1: u32| {
            (x0..x1).contains(&x)
                && (5..x1 - x0 + 5).contains(&y)
                && !((x0 + 1..x1 - 1).contains(&x) && (6..x1 - x0 + 4).contains(&y))
        };
        let grown = GrayImage::from_fn(60, 40, |x, y| {
            Luma([u8::from(ring(x, y, 5, 27) || ring(x, y, 40, 44)) * 255])
        });
        let faces = enclosed_faces(&grown, &grown, 50);
        assert_eq!(area(&faces), 20 * 20);
        assert_eq!(faces.get_pixel(15, 15)[0], 255);
        assert_eq!(faces.get_pixel(41, 6)[0], 0);
    }
}
