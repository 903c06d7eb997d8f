//! The plain-text puzzle format and its validation.
//!
//! ```text
//! # Impuzzable (comments start with '#'; blank lines are ignored)
//! rows 3            # optional header lines, before the first tile
//! cols 3
//! rule complement   # or: identical
//! border none       # or a symbol, e.g. `border 0`
//! edge-order trbl   # or: tlrb (the Arc article's top left right bottom)
//! -3 -2 3 1         # one tile per line: four integers, top right bottom left
//! ```
//!
//! A first data line of exactly two integers is read as `width height` (the e2pieces format).
//! Settings given as [`Overrides`] (the command-line flags) win over the header. Without a size
//! the board is the square of the tile count; without a border setting, symbol 0 is the border
//! when some tile carries it (Eternity II style) and there is no border otherwise.

use super::puzzle::{Puzzle, Rule, Tile, MAX_SIDE, MAX_SYMBOLS};
use std::collections::{BTreeMap, BTreeSet};

/// Why a puzzle text was rejected. Line numbers are 1-based.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PuzzleError {
    #[error("line {line}: {reason}")]
    Syntax { line: usize, reason: String },
    #[error("the file has no tiles")]
    NoTiles,
    #[error("{tiles} tiles is not a square number: give the board size (header `rows`/`cols` or --rows/--cols)")]
    NotSquare { tiles: usize },
    #[error("a {rows} x {cols} board needs {need} tiles, but the file has {tiles} (tile lines {first}-{last})")]
    TileCount {
        rows: usize,
        cols: usize,
        need: usize,
        tiles: usize,
        first: usize,
        last: usize,
    },
    #[error("board {rows} x {cols} is outside the supported 1..={MAX_SIDE} per side")]
    BoardSize { rows: usize, cols: usize },
    #[error("line {line}: symbol {symbol} has no possible partner: no other tile has an edge {partner} ({rule} rule){hint}")]
    NoPartner {
        line: usize,
        symbol: i32,
        partner: i32,
        rule: &'static str,
        hint: &'static str,
    },
    #[error("{count} distinct symbols exceed the supported {MAX_SYMBOLS}")]
    TooManySymbols { count: usize },
}

/// Settings that may come from the header or from the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub rows: Option<usize>,
    pub cols: Option<usize>,
    pub rule: Option<Rule>,
    /// `Some(None)` means "no border", `Some(Some(s))` means border symbol `s`.
    pub border: Option<Option<i32>>,
    /// Tiles written as top left right bottom (the Arc article's order).
    pub tlrb: Option<bool>,
}

impl Overrides {
    fn or(self, other: Overrides) -> Overrides {
        Overrides {
            rows: self.rows.or(other.rows),
            cols: self.cols.or(other.cols),
            rule: self.rule.or(other.rule),
            border: self.border.or(other.border),
            tlrb: self.tlrb.or(other.tlrb),
        }
    }
}

fn syntax(line: usize, reason: impl Into<String>) -> PuzzleError {
    PuzzleError::Syntax {
        line,
        reason: reason.into(),
    }
}

fn parse_int<T: std::str::FromStr>(line: usize, word: &str, what: &str) -> Result<T, PuzzleError> {
    word.parse()
        .map_err(|_| syntax(line, format!("'{word}' is not {what}")))
}

/// Parses and validates a puzzle text; `flags` win over the header.
pub fn parse_puzzle(text: &str, flags: &Overrides) -> Result<Puzzle, PuzzleError> {
    let mut header = Overrides::default();
    let mut tiles: Vec<(usize, [i32; 4])> = Vec::new();
    let mut seen_data = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let words: Vec<&str> = content.split_whitespace().collect();
        let key = words[0].to_ascii_lowercase();
        let is_keyword = words[0].starts_with(|c: char| c.is_ascii_alphabetic());
        if is_keyword {
            if seen_data {
                return Err(syntax(
                    line,
                    format!("header line '{content}' after the first tile"),
                ));
            }
            if words.len() != 2 && key != "size" {
                return Err(syntax(line, format!("expected '{key} VALUE'")));
            }
            match key.as_str() {
                "rows" => header.rows = Some(parse_int(line, words[1], "a row count")?),
                "cols" | "columns" => {
                    header.cols = Some(parse_int(line, words[1], "a column count")?)
                }
                "size" => {
                    if words.len() != 3 {
                        return Err(syntax(line, "expected 'size ROWS COLS'"));
                    }
                    header.rows = Some(parse_int(line, words[1], "a row count")?);
                    header.cols = Some(parse_int(line, words[2], "a column count")?);
                }
                "rule" => {
                    header.rule = Some(words[1].parse().map_err(|e: String| syntax(line, e))?)
                }
                "border" => {
                    header.border = Some(if words[1].eq_ignore_ascii_case("none") {
                        None
                    } else {
                        Some(parse_int(line, words[1], "a border symbol or 'none'")?)
                    })
                }
                "edge-order" => {
                    header.tlrb = Some(match words[1].to_ascii_lowercase().as_str() {
                        "trbl" => false,
                        "tlrb" => true,
                        other => {
                            return Err(syntax(
                                line,
                                format!("unknown edge order '{other}' (trbl or tlrb)"),
                            ))
                        }
                    })
                }
                other => return Err(syntax(line, format!("unknown header '{other}'"))),
            }
            continue;
        }
        if !seen_data && tiles.is_empty() && words.len() == 2 {
            // The e2pieces format: `width height` on the first line.
            header.cols = Some(parse_int(line, words[0], "a board width")?);
            header.rows = Some(parse_int(line, words[1], "a board height")?);
            seen_data = true;
            continue;
        }
        seen_data = true;
        if words.len() != 4 {
            return Err(syntax(
                line,
                format!(
                    "expected 4 integers (one tile's edges), found {} fields",
                    words.len()
                ),
            ));
        }
        let mut e = [0i32; 4];
        for (k, w) in words.iter().enumerate() {
            e[k] = parse_int(line, w, "an integer edge symbol")?;
        }
        tiles.push((line, e));
    }
    build(header, flags, tiles)
}

fn build(
    header: Overrides,
    flags: &Overrides,
    lines: Vec<(usize, [i32; 4])>,
) -> Result<Puzzle, PuzzleError> {
    let s = flags.clone().or(header);
    if lines.is_empty() {
        return Err(PuzzleError::NoTiles);
    }
    let n = lines.len();
    let (rows, cols) = match (s.rows, s.cols) {
        (Some(r), Some(c)) => (r, c),
        (Some(r), None) if r > 0 && n.is_multiple_of(r) => (r, n / r),
        (None, Some(c)) if c > 0 && n.is_multiple_of(c) => (n / c, c),
        (None, None) => {
            let side = (n as f64).sqrt().round() as usize;
            if side * side != n {
                return Err(PuzzleError::NotSquare { tiles: n });
            }
            (side, side)
        }
        // One side given that does not divide the tile count: report the nearest board.
        (Some(r), None) => (r, n.div_ceil(r.max(1))),
        (None, Some(c)) => (n.div_ceil(c.max(1)), c),
    };
    if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(PuzzleError::BoardSize { rows, cols });
    }
    if rows * cols != n {
        return Err(PuzzleError::TileCount {
            rows,
            cols,
            need: rows * cols,
            tiles: n,
            first: lines[0].0,
            last: lines[n - 1].0,
        });
    }
    let tlrb = s.tlrb.unwrap_or(false);
    let tiles: Vec<Tile> = lines
        .iter()
        .map(|(_, e)| if tlrb { [e[0], e[2], e[3], e[1]] } else { *e })
        .collect();
    let rule = s.rule.unwrap_or(Rule::Complement);
    let border = match s.border {
        Some(b) => b,
        None => tiles.iter().flatten().any(|&x| x == 0).then_some(0),
    };
    let puzzle = Puzzle {
        rows,
        cols,
        rule,
        border,
        tiles,
    };
    check_partners(&puzzle, &lines)?;
    Ok(puzzle)
}

/// Every non-border symbol must be able to meet some edge of another tile; a symbol that
/// cannot is almost always a typo, and would make the search silently find nothing.
fn check_partners(p: &Puzzle, lines: &[(usize, [i32; 4])]) -> Result<(), PuzzleError> {
    let mut owners: BTreeMap<i32, BTreeSet<usize>> = BTreeMap::new();
    for (t, tile) in p.tiles.iter().enumerate() {
        for &s in tile {
            owners.entry(s).or_default().insert(t);
        }
    }
    if owners.len() > MAX_SYMBOLS {
        return Err(PuzzleError::TooManySymbols {
            count: owners.len(),
        });
    }
    if p.tiles.len() == 1 {
        return Ok(());
    }
    for (t, tile) in p.tiles.iter().enumerate() {
        for &s in tile {
            if Some(s) == p.border {
                continue;
            }
            let partner = p.rule.partner(s);
            let ok = owners
                .get(&partner)
                .is_some_and(|set| set.iter().any(|&o| o != t));
            if !ok {
                let (rule, hint) = match p.rule {
                    Rule::Complement => (
                        "complement",
                        if owners.contains_key(&s) && owners[&s].len() > 1 {
                            "; for same-colour matching use --rule identical"
                        } else {
                            ""
                        },
                    ),
                    Rule::Identical => ("identical", ""),
                };
                return Err(PuzzleError::NoPartner {
                    line: lines[t].0,
                    symbol: s,
                    partner,
                    rule,
                    hint,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "-3 -2 3 1\n2 1 -4 -2\n4 2 -3 -2\n-1 1 4 -4\n-4 4 2 -1\n1 -1 -2 2\n3 1 -2 -1\n-3 -4 2 3\n-4 3 3 -2\n";

    #[test]
    fn square_of_tile_count_and_complement_by_default() {
        let p = parse_puzzle(SEED, &Overrides::default()).unwrap();
        assert_eq!(
            (p.rows, p.cols, p.rule, p.border),
            (3, 3, Rule::Complement, None)
        );
        assert_eq!(p.tiles[0], [-3, -2, 3, 1]);
    }

    #[test]
    fn header_and_flags() {
        let text = format!("rows 1\ncols 9\nrule complement\nborder none\n{SEED}");
        let p = parse_puzzle(&text, &Overrides::default()).unwrap();
        assert_eq!((p.rows, p.cols), (1, 9));
        let flags = Overrides {
            rows: Some(3),
            cols: Some(3),
            ..Default::default()
        };
        let p = parse_puzzle(&text, &flags).unwrap();
        assert_eq!((p.rows, p.cols), (3, 3));
    }

    #[test]
    fn tlrb_reorders() {
        let text = "edge-order tlrb\n1 2 3 4\n-1 -2 -3 -4\n2 1 4 3\n-2 -1 -4 -3\n";
        let p = parse_puzzle(text, &Overrides::default()).unwrap();
        assert_eq!(p.tiles[0], [1, 3, 4, 2]);
    }

    #[test]
    fn e2_header_and_auto_border() {
        let text = "2 1\n0 1 0 0\n0 0 0 1\n";
        let flags = Overrides {
            rule: Some(Rule::Identical),
            ..Default::default()
        };
        let p = parse_puzzle(text, &flags).unwrap();
        assert_eq!((p.rows, p.cols, p.border), (1, 2, Some(0)));
    }

    #[test]
    fn bad_inputs_name_the_line() {
        let e = parse_puzzle("1 2 3 4\n1 2 3\n", &Overrides::default()).unwrap_err();
        assert!(matches!(e, PuzzleError::Syntax { line: 2, .. }), "{e}");
        let e = parse_puzzle("1 2 x 4\n", &Overrides::default()).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        let e = parse_puzzle(&SEED[..SEED.len() - 10], &Overrides::default()).unwrap_err();
        assert!(matches!(e, PuzzleError::NotSquare { tiles: 8 }), "{e}");
        let mut bad = SEED.replace("-4 3 3 -2", "-4 3 3 9");
        let e = parse_puzzle(&bad, &Overrides::default()).unwrap_err();
        assert!(
            matches!(
                e,
                PuzzleError::NoPartner {
                    line: 9,
                    symbol: 9,
                    ..
                }
            ),
            "{e}"
        );
        bad = format!("rows 2\ncols 2\n{SEED}");
        let e = parse_puzzle(&bad, &Overrides::default()).unwrap_err();
        assert!(
            matches!(
                e,
                PuzzleError::TileCount {
                    need: 4,
                    tiles: 9,
                    ..
                }
            ),
            "{e}"
        );
    }
}
