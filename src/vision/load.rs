//! Loading one image file into RGB pixels, upright, with explicit limits and one clear error per
//! way a file can be bad.
//!
//! The format is guessed from the bytes, never from the extension (a scanner may write a `.jpg`
//! that is a TIFF, a user may rename files). The dimensions are read from the header and checked
//! against [`LoadLimits`] before any pixel buffer is allocated, so a hostile or mistaken 40 000 ×
//! 40 000 image is refused in microseconds instead of exhausting memory.

use image::{DynamicImage, ImageDecoder, ImageError, ImageReader, RgbImage, RgbaImage};
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// The smallest side an input image may have. Below this no outline can be traced with any
/// meaning, and such files are almost always thumbnails or mistakes (e.g. a 1×1 tracking pixel).
pub const MIN_SIDE: u32 = 16;

/// Resource limits for loading, set from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadLimits {
    /// Largest `width × height` accepted (`--max-pixels`). The default, 100 million, admits every
    /// phone and flatbed image in practice (a 600 dpi A4 scan is 35 MP) while keeping one decoded
    /// RGB image under 300 MB.
    pub max_pixels: u64,
}

impl Default for LoadLimits {
    fn default() -> Self {
        LoadLimits {
            max_pixels: 100_000_000,
        }
    }
}

/// Why an input file could not be turned into pixels. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no such file", .path.display())]
    Missing { path: PathBuf },
    #[error("{}: not a regular file (a folder or a device?)", .path.display())]
    NotAFile { path: PathBuf },
    #[error("{}: the file is empty (0 bytes)", .path.display())]
    Empty { path: PathBuf },
    #[error("{}: not an image in a format we read (PNG, JPEG, TIFF, BMP)", .path.display())]
    NotAnImage { path: PathBuf },
    #[error("{}: the image is truncated or corrupt ({detail})", .path.display())]
    Corrupt { path: PathBuf, detail: String },
    #[error(
        "{}: {width}×{height} = {pixels} pixels is over the limit of {limit} pixels (raise it with --max-pixels)",
        .path.display(),
        pixels = *width as u64 * *height as u64
    )]
    TooManyPixels {
        path: PathBuf,
        width: u32,
        height: u32,
        limit: u64,
    },
    #[error(
        "{}: {width}×{height} is too small to hold a piece (each side must be at least {min} pixels)",
        .path.display(),
        min = MIN_SIDE
    )]
    TooSmall {
        path: PathBuf,
        width: u32,
        height: u32,
    },
    #[error("{}: cannot read the file: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Missing { path }
            | LoadError::NotAFile { path }
            | LoadError::Empty { path }
            | LoadError::NotAnImage { path }
            | LoadError::Corrupt { path, .. }
            | LoadError::TooManyPixels { path, .. }
            | LoadError::TooSmall { path, .. }
            | LoadError::Io { path, .. } => path,
        }
    }
}

/// Reads an image file as 8-bit RGB with its EXIF orientation applied, so that pixel coordinates
/// everywhere downstream are those of the picture as a person sees it.
///
/// Grey, 1-bit, 16-bit and paletted images are converted to 8-bit RGB. Transparent pixels are
/// composited over white (see [`flatten_alpha`]).
pub fn load_image(path: &Path, limits: &LoadLimits) -> Result<RgbImage, LoadError> {
    let owned = || path.to_path_buf();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => LoadError::Missing { path: owned() },
        _ => LoadError::Io {
            path: owned(),
            source: e,
        },
    })?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile { path: owned() });
    }
    if meta.len() == 0 {
        return Err(LoadError::Empty { path: owned() });
    }
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io {
        path: owned(),
        source: e,
    })?;
    let mut reader = ImageReader::new(Cursor::new(&bytes[..]))
        .with_guessed_format()
        .map_err(|e| LoadError::Io {
            path: owned(),
            source: e,
        })?;
    match reader.format() {
        None => return Err(LoadError::NotAnImage { path: owned() }),
        // The JPEG decoder pads a cut-off file with grey instead of failing, so a truncated
        // upload would pass as a photo with a flat band; check for the end marker ourselves.
        Some(image::ImageFormat::Jpeg) if !jpeg_is_complete(&bytes) => {
            return Err(LoadError::Corrupt {
                path: owned(),
                detail: "the JPEG data stops before its end-of-image marker".into(),
            })
        }
        Some(_) => {}
    }
    // Our own pixel limit replaces the crate's; its allocation cap still guards against a
    // header that lies about the channel count or bit depth.
    let mut crate_limits = image::Limits::no_limits();
    crate_limits.max_alloc = Some(limits.max_pixels.saturating_mul(8).max(1 << 26));
    reader.limits(crate_limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| classify_decode_error(path, e))?;
    let (width, height) = decoder.dimensions();
    if width as u64 * height as u64 > limits.max_pixels {
        return Err(LoadError::TooManyPixels {
            path: owned(),
            width,
            height,
            limit: limits.max_pixels,
        });
    }
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(LoadError::TooSmall {
            path: owned(),
            width,
            height,
        });
    }
    // A broken EXIF block must not cost the user the picture: fall back to "as stored".
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut image =
        DynamicImage::from_decoder(decoder).map_err(|e| classify_decode_error(path, e))?;
    image.apply_orientation(orientation);
    Ok(to_rgb(image))
}

/// Whether a JPEG's main image has its end-of-image marker (FF D9) after its first scan.
///
/// The marker segments before the first scan (SOS, FF DA) are skipped by their lengths, so an
/// EXIF thumbnail's own end marker inside APP1 does not count. Inside entropy-coded data an FF
/// byte is always followed by 00 or a restart marker, so an FF D9 found after the first scan
/// is the real end; data appended after it (e.g. a motion photo's video) is allowed.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let mut i = 2;
    while i + 3 < bytes.len() {
        if bytes[i] != 0xFF {
            return false;
        }
        let marker = bytes[i + 1];
        match marker {
            0xFF => i += 1,
            0xDA => {
                return bytes[i..].windows(2).any(|w| w == [0xFF, 0xD9]);
            }
            0x01 | 0xD0..=0xD7 => i += 2,
            _ => {
                let len = u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]) as usize;
                i += 2 + len;
            }
        }
    }
    false
}

/// Converts any decoded image to 8-bit RGB, flattening transparency.
fn to_rgb(image: DynamicImage) -> RgbImage {
    match image {
        // Grey to RGB is a copy of each byte; `to_rgb8` goes through the colour-space cast,
        // which took a quarter of the time of tracing the 1001 one-bit white-1000 masks.
        DynamicImage::ImageLuma8(grey) => grey_to_rgb(&grey),
        image if image.color().has_alpha() => flatten_alpha(&image.to_rgba8()),
        image => image.to_rgb8(),
    }
}

fn grey_to_rgb(grey: &image::GrayImage) -> RgbImage {
    let rgb = grey.as_raw().iter().flat_map(|&v| [v, v, v]).collect();
    RgbImage::from_raw(grey.width(), grey.height(), rgb).expect("three bytes per grey pixel")
}

/// Composites an RGBA image over white.
///
/// A transparent pixel carries no colour of its own; it means "nothing here", i.e. background.
/// Cut-out pieces saved as transparent PNGs and hand-cleaned photos (svalat's `real-1.png`, whose
/// background was painted white) both expect a light backdrop, and compositing over white keeps
/// the soft anti-aliased edge of a cut-out as a colour ramp towards the backdrop, which the
/// segmentation thresholds like any other edge. Fully opaque images are unchanged.
pub fn flatten_alpha(rgba: &RgbaImage) -> RgbImage {
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let a = a as u32;
        let over = |c: u8| ((c as u32 * a + 255 * (255 - a) + 127) / 255) as u8;
        image::Rgb([over(r), over(g), over(b)])
    })
}

fn classify_decode_error(path: &Path, e: ImageError) -> LoadError {
    let path = path.to_path_buf();
    match e {
        ImageError::Unsupported(_) => LoadError::NotAnImage { path },
        ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            LoadError::Corrupt {
                path,
                detail: "the file ends before the image data does".into(),
            }
        }
        ImageError::IoError(io) => LoadError::Io { path, source: io },
        ImageError::Limits(l) => LoadError::Corrupt {
            path,
            detail: format!("its header asks for more memory than allowed: {l}"),
        },
        other => LoadError::Corrupt {
            path,
            detail: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_images_become_the_rgb_the_image_crate_makes() {
        let grey = image::GrayImage::from_fn(256, 2, |x, y| image::Luma([(x as u8) ^ (y as u8)]));
        let ours = to_rgb(DynamicImage::ImageLuma8(grey.clone()));
        assert_eq!(ours, DynamicImage::ImageLuma8(grey).to_rgb8());
    }
}
