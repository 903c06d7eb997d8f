//! Readers for the real sets' solutions (see `../shared/data/real/MANIFEST.md`), as
//! [`GridTruth`]s.

use super::grid::GridTruth;
use super::ScoreError;
use std::collections::BTreeMap;
use std::path::Path;

fn bad(path: &Path, reason: impl Into<String>) -> ScoreError {
    ScoreError::BadTruth {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// pikachu-100's `solution_grid.txt`: one text row per puzzle row (blank lines between),
/// tokens `<id><arrow>` with arrows `^ > v <` (orientation in that solver's own side
/// numbering, ignored here).
pub fn pikachu_grid(path: &Path) -> Result<GridTruth, ScoreError> {
    let text = std::fs::read_to_string(path).map_err(|e| bad(path, format!("cannot read: {e}")))?;
    parse_pikachu_grid(&text).map_err(|r| bad(path, r))
}

pub fn parse_pikachu_grid(text: &str) -> Result<GridTruth, String> {
    let mut cells = BTreeMap::new();
    for (row, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        for (col, token) in line.split_whitespace().enumerate() {
            let digits: String = token.chars().take_while(|c| c.is_ascii_digit()).collect();
            let rest = &token[digits.len()..];
            if digits.is_empty() || !matches!(rest, "" | "^" | ">" | "v" | "<") {
                return Err(format!(
                    "row {}: {token:?} is not a piece like 17^",
                    row + 1
                ));
            }
            let id: u32 = digits
                .parse()
                .map_err(|_| format!("row {}: bad id {digits:?}", row + 1))?;
            if cells.insert(id, (col as i64, row as i64)).is_some() {
                return Err(format!("piece {id} appears twice"));
            }
        }
    }
    if cells.is_empty() {
        return Err("no pieces in the grid".into());
    }
    Ok(GridTruth {
        format: "pikachu-grid".into(),
        cells,
    })
}

/// white-1000's `6_solution/` folder: `<id>.json` with `solution_x`, `solution_y`.
pub fn white1000(dir: &Path) -> Result<GridTruth, ScoreError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| bad(dir, format!("cannot read the folder: {e}")))?;
    let mut names: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let mut cells = BTreeMap::new();
    for p in &names {
        let Some(id) = p
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let text = std::fs::read_to_string(p).map_err(|e| bad(p, format!("cannot read: {e}")))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(p, format!("not JSON: {e}")))?;
        let get = |k: &str| {
            v.get(k)
                .and_then(serde_json::Value::as_i64)
                .ok_or_else(|| bad(p, format!("no integer {k:?}")))
        };
        cells.insert(id, (get("solution_x")?, get("solution_y")?));
    }
    if cells.is_empty() {
        return Err(bad(dir, "no <id>.json solution files"));
    }
    Ok(GridTruth {
        format: "white1000".into(),
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_grid_and_rejects_junk() {
        let g = parse_pikachu_grid("  3^  2>\n\n  1v  4<\n").unwrap();
        assert_eq!(g.cells[&3], (0, 0));
        assert_eq!(g.cells[&4], (1, 1));
        assert!(parse_pikachu_grid("3^ x\n").is_err());
        assert!(parse_pikachu_grid("3^ 3^\n").is_err());
        assert!(parse_pikachu_grid("\n").is_err());
    }
}
