//! Storing a generated puzzle: images, masks, `solution.png` and `truth.json`, each written
//! atomically.

use super::{Output, Style, IMAGES};
use std::path::Path;

/// PNG for scans, JPEG (quality 88) for photos, in memory.
pub(super) fn encode(rgb: &image::RgbImage, style: Style) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let result = match style {
        Style::Scan => rgb.write_with_encoder(image::codecs::png::PngEncoder::new(&mut bytes)),
        Style::Photo => rgb.write_with_encoder(image::codecs::jpeg::JpegEncoder::new_with_quality(
            &mut bytes, 88,
        )),
    };
    result.map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Writes the images, `truth.json`, `solution.png` (and the masks if asked) into `dir`,
/// each file atomically.
///
/// Images left by an earlier `jigsaw synth` into the same folder (recognised by its
/// `truth.json` and the exact image names this command writes) are removed first, so the
/// folder never mixes two puzzles.
pub fn write(out: &Output, dir: &Path, masks: bool) -> anyhow::Result<()> {
    remove_stale_images(out, dir)?;
    for img in &out.images {
        crate::files::write_atomic(&dir.join(&img.name), &img.bytes)?;
        if masks {
            let stem = Path::new(&img.name)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("image");
            crate::files::save_png_atomic(
                &dir.join("masks").join(format!("{stem}.png")),
                &img.mask,
            )?;
        }
    }
    crate::files::save_png_atomic(&dir.join("solution.png"), &out.solution)?;
    // Compact: outlines are long lists of points that pretty printing would put one number
    // per line.
    let mut json = serde_json::to_vec(&out.truth)?;
    json.push(b'\n');
    crate::files::write_atomic(&dir.join("truth.json"), &json)?;
    Ok(())
}

fn remove_stale_images(out: &Output, dir: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    if !dir.join("truth.json").is_file() {
        return Ok(());
    }
    let ours = |name: &str| {
        let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
        let (kind, number) = stem.split_once('-').unwrap_or((stem, ""));
        matches!((kind, ext), ("scan", "png") | ("photo", "jpg"))
            && number.len() >= 3
            && number.bytes().all(|b| b.is_ascii_digit())
    };
    // File names (without folder) of the images about to be written.
    let keep: Vec<&str> = out
        .images
        .iter()
        .map(|i| crate::score::file_name(&i.name))
        .collect();
    let stem = |n: &str| {
        n.rsplit_once('.')
            .map_or(n.to_string(), |x| x.0.to_string())
    };
    for (sub, is_mask) in [(dir.join(IMAGES), false), (dir.join("masks"), true)] {
        let Ok(entries) = std::fs::read_dir(&sub) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let stale = if is_mask {
                name.ends_with(".png") && !keep.iter().any(|k| stem(k) == stem(&name))
            } else {
                ours(&name) && !keep.contains(&name.as_str())
            };
            if stale {
                std::fs::remove_file(e.path()).with_context(|| {
                    format!("cannot remove the stale image {}", e.path().display())
                })?;
            }
        }
    }
    Ok(())
}
