//! The one-pixel gap a rim's growth (see `rim`) leaves where the rim fades against the print,
//! closed where that closes a loop (see [`BRIDGE_RIDGE`]).

use super::components::{fill_holes, window};
use image::{GrayImage, Luma};

/// A pixel between the rim grown so far and the grown pieces joins the rim where its ridge is
/// at least this fraction of the rim's threshold. A pale strip of print that ends against
/// darker print on the same piece has its rim fade where it meets the print (the ridge
/// compares a pixel with pixels two to either side, and one side then lies on the print): on
/// classic 100 scans seed 13 with three missing and three extraneous pieces, a white strip
/// with its knob, a quarter of a piece, was rimmed at 4–4.8 ΔE down to its end, where the
/// last pixels fell to 2.1 and 1.6 (2.44 asked) and the growth stopped one pixel short of
/// the print: the loop stayed open, the strip was lost, and the piece fitted nowhere.
pub(super) const BRIDGE_RIDGE: f32 = 0.5;

/// `along` with the gaps of [`bridged`] closed where that encloses something more (a bridge
/// beside an interior its rim closed already would only move the outline by a pixel, and
/// the polygon path's straightening turns such a pixel into another polygon: a rendered
/// polygonal photo of 12 pieces, seed 145, lost its solution so), and that mask with its
/// holes filled: the fills made to judge the bridges are mostly the answer's own, so the
/// caller need not fill it again (some gap is bridged on nearly every photo).
pub(super) fn closing_bridges(
    along: GrayImage,
    grown: &GrayImage,
    ridge: impl Fn(usize) -> f32,
    least: f32,
) -> (GrayImage, GrayImage) {
    let filled = |mask: &GrayImage| {
        let mut out = mask.clone();
        fill_holes(&mut out);
        out
    };
    let with = bridged(along.clone(), grown, ridge, least);
    if with == along {
        let filled_along = filled(&along);
        return (along, filled_along);
    }
    let filled_without = filled(&along);
    let filled_with = filled(&with);
    let (w, h) = along.dimensions();
    let enclosed = |x: u32, y: u32| {
        filled_with.get_pixel(x, y)[0] != 0
            && filled_without.get_pixel(x, y)[0] == 0
            && with.get_pixel(x, y)[0] == 0
    };
    let out = GrayImage::from_fn(w, h, |x, y| {
        let bridge = with.get_pixel(x, y)[0] != 0 && along.get_pixel(x, y)[0] == 0;
        let on = along.get_pixel(x, y)[0] != 0
            || (bridge && window(x, y, 1, (w, h)).any(|(xx, yy)| enclosed(xx, yy)));
        Luma([u8::from(on) * 255])
    });
    let filled_out = if out == with {
        filled_with
    } else if out == along {
        filled_without
    } else {
        filled(&out)
    };
    (out, filled_out)
}

/// `along` with the one-pixel gaps closed between its rim pixels (those not in `grown`) and
/// `grown`, where the gap's `ridge` (by pixel index) is at least `least` (see
/// [`BRIDGE_RIDGE`]). The interiors this may close are judged as every other (area, or a
/// knob's shape), so a sliver between a rim and its own piece stays out.
fn bridged(
    mut along: GrayImage,
    grown: &GrayImage,
    ridge: impl Fn(usize) -> f32,
    least: f32,
) -> GrayImage {
    let (w, h) = along.dimensions();
    let width = w as usize;
    let (a, g) = (along.as_raw(), grown.as_raw());
    let touches_grown = |x: u32, y: u32| {
        window(x, y, 1, (w, h)).any(|(xx, yy)| g[yy as usize * width + xx as usize] != 0)
    };
    // Only pixels beside a rim pixel can be a gap: those are few, a full scan of the
    // neighbourhoods would cost a 12 MP photo a tenth of a second.
    let mut bridges: Vec<usize> = Vec::new();
    for (j, (&on, &piece)) in a.iter().zip(g).enumerate() {
        if on == 0 || piece != 0 {
            continue;
        }
        let (x, y) = ((j % width) as u32, (j / width) as u32);
        for (xx, yy) in window(x, y, 1, (w, h)) {
            let k = yy as usize * width + xx as usize;
            if a[k] == 0 && touches_grown(xx, yy) && ridge(k) >= least {
                bridges.push(k);
            }
        }
    }
    let raw: &mut [u8] = &mut along;
    for k in bridges {
        raw[k] = 255;
    }
    along
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rim (column 6, rows 0–4) that stops one pixel short of the grown print (rows 6–9,
    /// columns 0–5), its last pixel (6, 5) a faded ridge: the gap is bridged where that ridge
    /// reaches the bar, and nothing else is added (the background beside the print and the
    /// rim's far side are no gap between the two).
    #[test]
    fn a_rim_that_fades_where_it_meets_the_print_is_bridged() {
        let grown = GrayImage::from_fn(10, 10, |x, y| Luma([u8::from(x <= 5 && y >= 6) * 255]));
        let along = GrayImage::from_fn(10, 10, |x, y| {
            Luma([u8::from((x <= 5 && y >= 6) || (x == 6 && y <= 4)) * 255])
        });
        let gap = 5 * 10 + 6;
        let ridge = |faded: f32| move |j: usize| if j == gap { faded } else { 0.0 };
        let bridged_at = |faded: f32| {
            let out = bridged(along.clone(), &grown, ridge(faded), 1.2);
            let added: Vec<(u32, u32)> = out
                .enumerate_pixels()
                .filter(|(x, y, p)| p[0] != 0 && along.get_pixel(*x, *y)[0] == 0)
                .map(|(x, y, _)| (x, y))
                .collect();
            added
        };
        assert_eq!(bridged_at(1.6), [(6, 5)]);
        assert!(bridged_at(1.0).is_empty());
    }

    /// A bridge stays only where it closes a loop. Rim along the top and the left and right
    /// of a 12-pixel square above the grown print (rows 6–11, columns 0–5), its right side
    /// (column 6) one pixel short of the print: bridged, it encloses columns 1–5 of rows 1–5.
    /// The right side alone, with no top or left, closes nothing, and its bridge is dropped.
    #[test]
    fn a_bridge_is_kept_only_where_it_closes_a_loop() {
        let print = |x: u32, y: u32| x <= 5 && y >= 6;
        let grown = GrayImage::from_fn(12, 12, |x, y| Luma([u8::from(print(x, y)) * 255]));
        let gap = 5 * 12 + 6;
        let ridge = |j: usize| if j == gap { 1.6 } else { 0.0 };
        let loop_rim = GrayImage::from_fn(12, 12, |x, y| {
            let rim = (x == 6 && y <= 4) || (y == 0 && x <= 6) || (x == 0 && y <= 5);
            Luma([u8::from(print(x, y) || rim) * 255])
        });
        let (closed, filled) = closing_bridges(loop_rim.clone(), &grown, ridge, 1.2);
        assert_ne!(closed.get_pixel(6, 5)[0], 0, "the bridge closes the loop");
        assert_ne!(filled.get_pixel(3, 3)[0], 0);
        let mut refilled = closed;
        fill_holes(&mut refilled);
        assert_eq!(
            filled.as_raw(),
            refilled.as_raw(),
            "its filling is the mask's"
        );
        let side_only = GrayImage::from_fn(12, 12, |x, y| {
            Luma([u8::from(print(x, y) || (x == 6 && y <= 4)) * 255])
        });
        let (open, _) = closing_bridges(side_only.clone(), &grown, ridge, 1.2);
        assert_eq!(
            open.as_raw(),
            side_only.as_raw(),
            "nothing enclosed, nothing added"
        );
    }
}
