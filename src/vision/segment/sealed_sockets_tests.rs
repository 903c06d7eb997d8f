use super::*;
use image::Rgb;

const BACKGROUND: [u8; 3] = [40, 40, 40];
const SHADE: [u8; 3] = [30, 30, 30];
const RIM: [u8; 3] = [170, 170, 170];
const FACE: [u8; 3] = [120, 60, 60];

/// A 100 px square piece at (50, 50) on a 200 px image, drawn with `face` (a pale rim 2 px
/// wide along its true outline), where `true_piece` says what is piece; its mask (the
/// whole square, or `in_mask`) as segmentation left it.
fn scene(
    true_piece: impl Fn(f64, f64) -> bool,
    in_mask: impl Fn(f64, f64) -> bool,
    colour: impl Fn(f64, f64) -> [u8; 3],
    rim: impl Fn(f64, f64) -> bool,
) -> (RgbImage, PieceRegion) {
    let img = RgbImage::from_fn(200, 200, |x, y| {
        let (x, y) = (x as f64, y as f64);
        let on = true_piece(x, y);
        let near_edge = [(-2.0, 0.0), (2.0, 0.0), (0.0, -2.0), (0.0, 2.0)]
            .iter()
            .any(|(dx, dy)| !true_piece(x + dx, y + dy));
        Rgb(match (on, on && near_edge && rim(x, y)) {
            (true, true) => RIM,
            (true, false) => colour(x, y),
            (false, _) => BACKGROUND,
        })
    });
    let (x0, y0, w, h) = (30u32, 30u32, 140u32, 140u32);
    let mask = GrayImage::from_fn(w, h, |x, y| {
        Luma([u8::from(in_mask((x + x0) as f64, (y + y0) as f64)) * 255])
    });
    let area = mask.pixels().filter(|p| p[0] != 0).count() as u64;
    (
        img,
        PieceRegion {
            bbox: [x0, y0, w, h],
            mask,
            area,
        },
    )
}

fn square(x: f64, y: f64) -> bool {
    (50.0..150.0).contains(&x) && (50.0..150.0).contains(&y)
}

/// A socket in the square's left side, 20 px deep: a neck 8 px wide, then a round bowl of
/// radius 8.
fn socket(x: f64, y: f64) -> bool {
    (x < 58.0 && (y - 100.0).abs() < 4.0) || (x - 62.0).hypot(y - 100.0) < 8.0
}

fn reopened(img: &RgbImage, region: &PieceRegion) -> Option<PieceRegion> {
    let mut pieces = vec![false; 200 * 200];
    let [x0, y0, ..] = region.bbox;
    for (x, y, p) in region.mask.enumerate_pixels() {
        pieces[(y + y0) as usize * 200 + (x + x0) as usize] = p[0] != 0;
    }
    reopen(
        region,
        &Surroundings {
            image: img,
            pieces: &pieces,
            noise: 1.0,
        },
    )
}

fn masked(region: &PieceRegion, x: u32, y: u32) -> bool {
    region
        .mask
        .get_pixel(x - region.bbox[0], y - region.bbox[1])[0]
        != 0
}

#[test]
fn a_socket_sealed_with_its_shadow_is_given_back() {
    let piece = |x, y| square(x, y) && !socket(x, y);
    let (img, region) = scene(
        piece,
        square,
        |x, y| if socket(x, y) { SHADE } else { FACE },
        |_, _| true,
    );
    // The socket's pixels are the background in shade, and the mask runs across its mouth.
    let img = RgbImage::from_fn(200, 200, |x, y| {
        if square(x as f64, y as f64) && socket(x as f64, y as f64) {
            Rgb(SHADE)
        } else {
            *img.get_pixel(x, y)
        }
    });
    let out = reopened(&img, &region).expect("the socket is reopened");
    for y in 88..=112 {
        for x in 50..=80 {
            let (fx, fy) = (x as f64, y as f64);
            if (fx - 62.0).hypot(fy - 100.0) < 5.0 {
                assert!(!masked(&out, x, y), "({x}, {y}) is still sealed");
            }
            if piece(fx, fy) {
                assert!(masked(&out, x, y), "({x}, {y}) of the piece was taken off");
            }
        }
    }
    let removed = region.area - out.area;
    assert!((150..=300).contains(&removed), "{removed} px given back");
}

#[test]
fn a_knob_the_colour_of_the_background_stays() {
    // A knob of the background's colour with no rim: the flood enters it, but it is open
    // to the outside all round but for its neck.
    let knob = |x: f64, y: f64| (x - 40.0).hypot(y - 100.0) < 12.0;
    let piece = |x, y| square(x, y) || knob(x, y);
    let (img, region) = scene(
        piece,
        piece,
        |x, y| {
            if knob(x, y) && x < 50.0 {
                BACKGROUND
            } else {
                FACE
            }
        },
        |x, _| x >= 50.0,
    );
    assert!(reopened(&img, &region).is_none());
}

#[test]
fn a_pale_patch_of_a_pale_face_stays() {
    // A patch of the face shaped like a socket, as pale as the background, held by more of
    // the face just over the likeness (no rim across its mouth): a part of a white face on
    // white paper, not a socket.
    let (img, region) = scene(
        square,
        square,
        |x, y| {
            if socket(x, y) {
                [44, 44, 44]
            } else {
                [55, 55, 55]
            }
        },
        |x, y| !(x < 53.0 && (y - 100.0).abs() < 6.0),
    );
    assert!(reopened(&img, &region).is_none());
}

#[test]
fn a_face_the_colour_of_the_background_stays_behind_a_broken_rim() {
    // The face is background-coloured, its rim broken along the left side: the flood runs
    // into the face and stops at its budget.
    let (img, region) = scene(square, square, |_, _| SHADE, |x, _| x > 52.0);
    assert!(reopened(&img, &region).is_none());
}

/// The colour box passes a ring cell over only where none of its colours could be near: its
/// distance never exceeds a member's, is zero inside, and is infinite for an empty cell.
#[test]
fn a_colour_box_is_no_farther_than_any_colour_in_it() {
    let colours = [[40.0, 2.0, -3.0], [35.5, -1.0, 4.0], [47.0, 0.5, 0.0]];
    let mut least = [f32::INFINITY; 3];
    let mut greatest = [f32::NEG_INFINITY; 3];
    for c in &colours {
        for i in 0..3 {
            least[i] = least[i].min(c[i]);
            greatest[i] = greatest[i].max(c[i]);
        }
    }
    let bounds = (least, greatest);
    for lab in [
        [0.0, 0.0, 0.0],
        [90.0, 30.0, -40.0],
        [41.0, 20.0, 1.0],
        [36.0, -5.0, 9.0],
    ] {
        let nearest = colours
            .iter()
            .map(|c| distance(*c, lab, 1.0))
            .fold(f32::INFINITY, f32::min);
        assert!(box_distance(&bounds, &lab) <= nearest, "{lab:?}");
    }
    assert_eq!(box_distance(&bounds, &[40.0, 0.0, 0.0]), 0.0);
    assert_eq!(box_distance(&bounds, &[100.0, 0.0, 0.0]), 53.0);
    let empty = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    assert_eq!(box_distance(&empty, &[40.0, 0.0, 0.0]), f32::INFINITY);
}
