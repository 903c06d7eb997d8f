//! The trace dump folder (`jigsaw trace -o DIR`): `index.json` (the [`PieceSet`]),
//! `pieces/<id>.chain`, `features.csv` (one row per chainlet) and `overlays/<image>.png`.
//! Every file is written atomically; [`load_dump`] reads the set back, so later stages can
//! start from a dump instead of the photos.

use super::load::{load_image, LoadLimits};
use crate::chain::write_chain_file;
use crate::files::{save_png_atomic, write_atomic, write_json_atomic};
use crate::piece_set::{Piece, PieceSet};
use crate::render::draw_overlay;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a dump folder cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    #[error("{}: no index.json here (is this a `jigsaw trace -o` folder?)", .0.display())]
    NoIndex(PathBuf),
    #[error("{}: cannot read: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a piece-set index: {source}", .path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// Reads a piece set from a dump folder, or from its `index.json` directly.
pub fn load_dump(path: &Path) -> Result<PieceSet, DumpError> {
    let index = if path.is_dir() {
        path.join("index.json")
    } else {
        path.to_path_buf()
    };
    if !index.is_file() {
        return Err(DumpError::NoIndex(path.to_path_buf()));
    }
    let text = std::fs::read_to_string(&index).map_err(|source| DumpError::Io {
        path: index.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| DumpError::Json {
        path: index,
        source,
    })
}

/// Writes `index.json`, `pieces/<id>.chain` and `features.csv`.
pub fn write_dump(dir: &Path, set: &PieceSet) -> Result<()> {
    write_json_atomic(&dir.join("index.json"), set)?;
    set.pieces.par_iter().try_for_each(|p| {
        write_atomic(
            &dir.join("pieces").join(format!("{}.chain", p.id)),
            write_chain_file(&p.chain).as_bytes(),
        )
    })?;
    write_atomic(&dir.join("features.csv"), features_csv(set).as_bytes())
}

/// The CSV header of `features.csv`.
pub const FEATURES_HEADER: &str = "label,piece,k,start,end,chain_length,distance_vector_length,distance_vector_angle_deg,signed_area,max_perpendicular,min_perpendicular,crossings,area_ratio";

/// One row per chainlet, in piece then chainlet order.
pub fn features_csv(set: &PieceSet) -> String {
    let mut out = String::from(FEATURES_HEADER);
    out.push('\n');
    for p in &set.pieces {
        for (k, c) in p.chainlets.iter().enumerate() {
            let f = &c.features;
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{},{:.4}",
                c.label,
                p.id,
                k + 1,
                c.start,
                c.end,
                f.chain_length,
                f.distance_vector_length,
                f.distance_vector_angle_deg,
                f.signed_area,
                f.max_perpendicular,
                f.min_perpendicular,
                f.crossings,
                f.area_ratio
            );
        }
    }
    out
}

/// The overlay file name of each image: its file stem, made unique with `-2`, `-3`, … when two
/// inputs share a name.
pub fn overlay_names(set: &PieceSet) -> Vec<String> {
    let mut used = HashSet::new();
    set.images
        .iter()
        .map(|img| {
            let stem = Path::new(&img.path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "image".into());
            let mut name = format!("{stem}.png");
            let mut k = 2;
            while !used.insert(name.clone()) {
                name = format!("{stem}-{k}.png");
                k += 1;
            }
            name
        })
        .collect()
}

/// Draws `overlays/<image>.png` for every image of the set (decoding each image again, so a
/// batch never holds all its photos in memory at once).
pub fn write_overlays(dir: &Path, set: &PieceSet, limits: &LoadLimits) -> Result<()> {
    let names = overlay_names(set);
    set.images
        .par_iter()
        .zip(names)
        .try_for_each(|(img, name)| {
            let image = load_image(Path::new(&img.path), limits)?;
            let pieces: Vec<&Piece> = set.pieces.iter().filter(|p| p.image == img.path).collect();
            let overlay = draw_overlay(&image, &pieces);
            save_png_atomic(&dir.join("overlays").join(&name), &overlay)
                .with_context(|| format!("overlay of {}", img.path))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::ChainCode;
    use crate::piece_set::{Chainlet, ChainletFeatures, ImageReport};

    fn set() -> PieceSet {
        let image = |path: &str| ImageReport {
            path: path.into(),
            width: 10,
            height: 10,
            rejected: vec![],
        };
        let chain = ChainCode::from_digits([3, 2], "000066444422").unwrap();
        PieceSet {
            images: vec![image("a/1.png"), image("b/1.png"), image("c/2.jpeg")],
            pieces: vec![Piece {
                id: 1,
                image: "a/1.png".into(),
                bbox: [3, 2, 5, 3],
                centroid: [5.0, 3.0],
                area: 15.0,
                chain,
                chain_unit: 1.0,
                critical_points: vec![],
                chainlets: vec![Chainlet {
                    label: "1.1".into(),
                    start: 0,
                    end: 0,
                    features: ChainletFeatures {
                        chain_length: 12.0,
                        ..Default::default()
                    },
                }],
                polygon: vec![[3.0, 2.0], [7.0, 2.0], [7.0, 4.0], [3.0, 4.0]],
            }],
        }
    }

    #[test]
    fn dump_round_trips_and_lists_every_chainlet() {
        let dir = tempfile::tempdir().unwrap();
        let s = set();
        write_dump(dir.path(), &s).unwrap();
        assert_eq!(load_dump(dir.path()).unwrap(), s);
        assert_eq!(load_dump(&dir.path().join("index.json")).unwrap(), s);
        let chain = std::fs::read_to_string(dir.path().join("pieces/1.chain")).unwrap();
        assert_eq!(chain, "start 3 2\n000066444422\n");
        let csv = std::fs::read_to_string(dir.path().join("features.csv")).unwrap();
        assert_eq!(csv.lines().count(), 2);
        assert!(csv
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("1.1,1,1,0,0,12.000,"));
    }

    #[test]
    fn loading_a_folder_without_index_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = load_dump(dir.path()).unwrap_err().to_string();
        assert!(err.contains("no index.json"), "{err}");
        std::fs::write(dir.path().join("index.json"), "{").unwrap();
        let err = load_dump(dir.path()).unwrap_err().to_string();
        assert!(err.contains("not a piece-set index"), "{err}");
    }

    #[test]
    fn overlay_names_are_unique() {
        assert_eq!(overlay_names(&set()), ["1.png", "1-2.png", "2.png"]);
    }
}
