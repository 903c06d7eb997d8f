//! Loading: bad inputs give one clear error naming the file, never a panic; good ones come
//! out as upright 8-bit RGB.

use crate::util::{scratch, shared_data};
use image::{Rgb, RgbImage};
use jigsaw::vision::{
    collect_inputs, load_image, segment, InputError, LoadError, LoadLimits, SegmentOptions,
};
use std::path::Path;

// ---- Bad input: one clear error naming the file, never a panic. ----

/// The error loading `path` gives (a file that loads is a test failure, reported briefly).
fn load_err(path: &Path, limits: &LoadLimits) -> LoadError {
    match load_image(path, limits) {
        Ok(img) => panic!("{} loaded as {:?}", path.display(), img.dimensions()),
        Err(e) => e,
    }
}

fn save_png(path: &Path, img: &RgbImage) {
    img.save_with_format(path, image::ImageFormat::Png).unwrap();
}

#[test]
fn bad_inputs_give_one_clear_error_each() {
    let dir = scratch();
    let d = dir.path();
    let limits = LoadLimits::default();
    let named = |e: &LoadError, p: &Path| {
        let msg = e.to_string();
        assert!(msg.contains(&p.display().to_string()), "{msg}");
        assert_eq!(e.path(), p);
        msg
    };

    let missing = d.join("missing.jpg");
    let e = load_err(&missing, &limits);
    assert!(matches!(e, LoadError::Missing { .. }), "{e}");
    named(&e, &missing);

    let empty = d.join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    let e = load_err(&empty, &limits);
    assert!(matches!(e, LoadError::Empty { .. }), "{e}");
    named(&e, &empty);

    let text = d.join("notes.png");
    std::fs::write(&text, b"these are not the pixels you are looking for\n").unwrap();
    let e = load_err(&text, &limits);
    assert!(matches!(e, LoadError::NotAnImage { .. }), "{e}");
    named(&e, &text);

    let folder = d.join("folder.png");
    std::fs::create_dir(&folder).unwrap();
    let e = load_err(&folder, &limits);
    assert!(matches!(e, LoadError::NotAFile { .. }), "{e}");

    let tiny = d.join("tiny.png");
    save_png(&tiny, &RgbImage::new(1, 1));
    let e = load_err(&tiny, &limits);
    assert!(
        matches!(
            e,
            LoadError::TooSmall {
                width: 1,
                height: 1,
                ..
            }
        ),
        "{e}"
    );
    named(&e, &tiny);

    // A real JPEG cut in half.
    let mut jpeg = Vec::new();
    let photo = RgbImage::from_fn(200, 150, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    photo
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    let cut = d.join("cut.jpg");
    std::fs::write(&cut, &jpeg[..jpeg.len() / 2]).unwrap();
    let e = load_err(&cut, &limits);
    assert!(matches!(e, LoadError::Corrupt { .. }), "{e}");
    named(&e, &cut);

    // Over the pixel limit: refused from the header, with the flag to raise it.
    let big = d.join("big.png");
    save_png(&big, &RgbImage::new(300, 200));
    let e = load_err(&big, &LoadLimits { max_pixels: 50_000 });
    assert!(
        matches!(
            e,
            LoadError::TooManyPixels {
                width: 300,
                height: 200,
                ..
            }
        ),
        "{e}"
    );
    let msg = named(&e, &big);
    assert!(
        msg.contains("--max-pixels") && msg.contains("50000"),
        "{msg}"
    );
    assert!(load_image(&big, &LoadLimits { max_pixels: 60_000 }).is_ok());
}

/// A PNG whose header claims 50 000 × 50 000 pixels, with no pixel data: refused at once,
/// without trying to allocate 7.5 GB.
#[test]
fn a_huge_header_is_refused_before_decoding() {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        let crc = crc32(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in bytes {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(50_000u32.to_be_bytes());
    ihdr.extend(50_000u32.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    // The start of a zlib stream: the decoder stops reading its header here.
    chunk(&mut png, b"IDAT", &[0x78, 0x9c, 0x01, 0x00, 0x00]);
    chunk(&mut png, b"IEND", &[]);
    let dir = scratch();
    let path = dir.path().join("huge.png");
    std::fs::write(&path, png).unwrap();
    let e = load_err(&path, &LoadLimits::default());
    assert!(
        matches!(e, LoadError::TooManyPixels { width: 50_000, .. }),
        "{e}"
    );
}

#[test]
fn all_background_image_has_no_pieces() {
    // A photo of an empty sheet: uneven light and sensor noise, nothing on it.
    let mut s = 7u64;
    let img = RgbImage::from_fn(400, 300, |x, y| {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        let n = ((s >> 60) as i32) - 8;
        let v = 230 - (x as i32 + y as i32) / 20 + n;
        Rgb([v as u8, v as u8, (v - 6) as u8])
    });
    let seg = segment(&img, &SegmentOptions::default());
    assert!(seg.pieces.is_empty(), "{} pieces", seg.pieces.len());
}

#[test]
fn folders_and_missing_inputs() {
    let dir = scratch();
    let d = dir.path();
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("readme.txt"), "no images here").unwrap();
    let scans = d.join("scans");
    std::fs::create_dir(&scans).unwrap();
    for n in [10, 2, 1] {
        save_png(&scans.join(format!("{n}.png")), &RgbImage::new(20, 20));
    }
    let (files, errors) = collect_inputs(&[empty.clone(), scans.clone(), d.join("gone.jpg")]);
    let names: Vec<_> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["1.png", "2.png", "10.png"]);
    assert_eq!(errors.len(), 2);
    assert!(matches!(&errors[0], InputError::EmptyFolder { path } if *path == empty));
    assert!(errors[0].to_string().contains("empty"));
    assert!(matches!(&errors[1], InputError::Missing { .. }));
}

// ---- What the loader hands on: 8-bit RGB, upright, transparency over white. ----

#[test]
fn grey_16_bit_one_bit_and_rgba_images_load_as_rgb() {
    let dir = scratch();
    let d = dir.path();

    let grey = d.join("grey.png");
    image::GrayImage::from_pixel(20, 20, image::Luma([77]))
        .save(&grey)
        .unwrap();
    assert_eq!(
        load_image(&grey, &LoadLimits::default())
            .unwrap()
            .get_pixel(3, 3)
            .0,
        [77; 3]
    );

    let deep = d.join("deep.png");
    image::ImageBuffer::<Rgb<u16>, _>::from_pixel(20, 20, Rgb([65535, 0, 32896]))
        .save(&deep)
        .unwrap();
    assert_eq!(
        load_image(&deep, &LoadLimits::default())
            .unwrap()
            .get_pixel(0, 0)
            .0,
        [255, 0, 128]
    );

    // A transparent background with an opaque red square: the background turns white.
    let cut_out = d.join("cut-out.png");
    image::RgbaImage::from_fn(20, 20, |x, _| {
        image::Rgba(if x < 10 {
            [0, 0, 0, 0]
        } else {
            [200, 0, 0, 255]
        })
    })
    .save(&cut_out)
    .unwrap();
    let img = load_image(&cut_out, &LoadLimits::default()).unwrap();
    assert_eq!(img.get_pixel(0, 0).0, [255; 3]);
    assert_eq!(img.get_pixel(15, 0).0, [200, 0, 0]);

    // A PNG named .jpg loads: the format comes from the bytes.
    let misnamed = d.join("really-a-png.jpg");
    std::fs::copy(&grey, &misnamed).unwrap();
    assert!(load_image(&misnamed, &LoadLimits::default()).is_ok());
}

#[test]
fn one_bit_masks_load_as_black_and_white() {
    let Some(path) = shared_data("real/roksenhorn-puzzle-bot/white-1000/piece_masks_png/1.png")
    else {
        return;
    };
    let img = load_image(&path, &LoadLimits::default()).unwrap();
    assert!(img.pixels().all(|p| p.0 == [0; 3] || p.0 == [255; 3]));
    assert!(img.pixels().any(|p| p.0 == [255; 3]));
}

/// A JPEG with EXIF orientation 6 (the phone was held upright: rotate 90° clockwise to view)
/// loads upright, with width and height swapped.
#[test]
fn exif_orientation_is_applied() {
    let stored = RgbImage::from_fn(40, 20, |x, _| {
        Rgb(if x < 20 { [250, 0, 0] } else { [0, 0, 250] })
    });
    let mut jpeg = Vec::new();
    stored
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    // APP1 "Exif" segment: big-endian TIFF header, one IFD entry, Orientation (0x0112) = 6.
    let mut tiff = b"MM\x00\x2a\x00\x00\x00\x08".to_vec();
    tiff.extend([0x00, 0x01]);
    tiff.extend([
        0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00,
    ]);
    tiff.extend([0, 0, 0, 0]);
    let mut app1 = b"Exif\x00\x00".to_vec();
    app1.extend(tiff);
    let mut with_exif = jpeg[..2].to_vec();
    with_exif.extend([0xFF, 0xE1]);
    with_exif.extend(((app1.len() + 2) as u16).to_be_bytes());
    with_exif.extend(app1);
    with_exif.extend(&jpeg[2..]);
    let dir = scratch();
    let path = dir.path().join("phone.jpg");
    std::fs::write(&path, with_exif).unwrap();
    let img = load_image(&path, &LoadLimits::default()).unwrap();
    assert_eq!(img.dimensions(), (20, 40));
    // Rotating 90° clockwise puts the stored left (red) half on top.
    assert!(img.get_pixel(10, 5).0[0] > 200 && img.get_pixel(10, 35).0[2] > 200);
}
