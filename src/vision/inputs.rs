//! Turning the command line's INPUT... (files and folders) into the list of image files to read.
//!
//! A folder is the batch-scanner case: every image directly in it, in natural name order, so a
//! scanner's `2.jpeg` comes before its `10.jpeg`, as a person numbering the pieces expects. Only
//! the folder's own files are taken (not sub-folders), so a `results/` folder beside the scans is
//! never read back in as input.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// File extensions (compared case-insensitively) that mark a file in a folder as an image.
/// Files named on the command line are taken whatever their extension; their format is then
/// decided by their content.
pub const IMAGE_EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "tif", "tiff", "bmp"];

/// Why one command-line input yields no image files.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{}: no such file or folder", .path.display())]
    Missing { path: PathBuf },
    #[error("{}: the folder holds no images (looked for {})", .path.display(), IMAGE_EXTENSIONS.join(", "))]
    EmptyFolder { path: PathBuf },
    #[error("{}: cannot list the folder: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl InputError {
    /// The input the error is about.
    pub fn path(&self) -> &Path {
        match self {
            InputError::Missing { path }
            | InputError::EmptyFolder { path }
            | InputError::Unreadable { path, .. } => path,
        }
    }
}

/// Expands the inputs in order: a file stays as given, a folder becomes its images in natural
/// name order. A bad input gives an error and the others are still expanded, so one mistyped
/// name does not cost the rest of a batch.
pub fn collect_inputs(args: &[PathBuf]) -> (Vec<PathBuf>, Vec<InputError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for arg in args {
        match std::fs::metadata(arg) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                errors.push(InputError::Missing { path: arg.clone() })
            }
            Ok(m) if m.is_dir() => match folder_images(arg) {
                Ok(found) if found.is_empty() => {
                    errors.push(InputError::EmptyFolder { path: arg.clone() })
                }
                Ok(found) => files.extend(found),
                Err(source) => errors.push(InputError::Unreadable {
                    path: arg.clone(),
                    source,
                }),
            },
            // A file (or something the loader will refuse with its own clear message).
            _ => files.push(arg.clone()),
        }
    }
    (files, errors)
}

/// The image files directly in `dir`, in natural name order.
fn folder_images(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && has_image_extension(&path) {
            found.push(path);
        }
    }
    found.sort_by(|a, b| {
        let name = |p: &Path| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        };
        natural_cmp(&name(a), &name(b))
    });
    Ok(found)
}

fn has_image_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Natural order: runs of ASCII digits compare as numbers (`2` < `10`), the rest compares
/// case-insensitively, and exact ties fall back to plain byte order so the order is total.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let nx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let ny = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (dx, dy) = (trim_zeros(&x[..nx]), trim_zeros(&y[..ny]));
                let ord = dx.len().cmp(&dy.len()).then_with(|| dx.cmp(dy));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[nx..];
                y = &y[ny..];
            }
            (Some(c), Some(d)) => {
                let ord = c.to_ascii_lowercase().cmp(&d.to_ascii_lowercase());
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let first = digits
        .iter()
        .position(|&c| c != b'0')
        .unwrap_or(digits.len());
    &digits[first..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_puts_numbers_in_numeric_order() {
        let mut v = vec![
            "10.jpeg", "2.jpeg", "1.jpeg", "B.png", "a.png", "002.png", "100.jpeg",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["1.jpeg", "2.jpeg", "002.png", "10.jpeg", "100.jpeg", "a.png", "B.png"]
        );
    }

    #[test]
    fn folder_is_expanded_in_natural_order_and_errors_name_the_input() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["10.JPG", "2.png", "notes.txt", "1.tiff"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub.png")).unwrap();
        let empty = tempfile::tempdir().unwrap();
        let single = dir.path().join("notes.txt");
        let missing = dir.path().join("nope.png");
        let (files, errors) = collect_inputs(&[
            single.clone(),
            dir.path().to_path_buf(),
            empty.path().to_path_buf(),
            missing.clone(),
        ]);
        let names: Vec<_> = files
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["notes.txt", "1.tiff", "2.png", "10.JPG"]);
        assert_eq!(errors.len(), 2);
        assert!(matches!(&errors[0], InputError::EmptyFolder { path } if path == empty.path()));
        assert!(matches!(&errors[1], InputError::Missing { path } if *path == missing));
        assert!(errors[1].to_string().contains("nope.png"));
    }
}
