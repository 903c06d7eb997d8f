//! Tests of `jigsaw edges`: the seeds' published numbers, both matching rules, the border,
//! planted and unsolvable puzzles, the shared third-party instances, bad inputs, the outputs.

use crate::util::{run, sample, scratch, shared_data};
use jigsaw::solvers::edges::{parse_puzzle, Overrides, Placement, Puzzle, Solution};
use serde_json::Value;
use std::path::Path;

fn json_of(args: &[&str]) -> (Value, i32) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = run(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "json ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (v, out.status.code().unwrap_or(-1))
}

fn counts(v: &Value) -> (u64, u64, u64) {
    (
        v["raw"].as_u64().unwrap(),
        v["distinct"].as_u64().unwrap(),
        v["placements"].as_u64().unwrap(),
    )
}

fn load(path: &Path, flags: &Overrides) -> Puzzle {
    parse_puzzle(&std::fs::read_to_string(path).unwrap(), flags).unwrap()
}

/// Every listed solution must be a real solution of `puzzle` (the JSON contract: row-major
/// `[tile, rot]` pairs, tile 1-based).
fn check_listed(puzzle: &Puzzle, v: &Value) -> usize {
    let sols = v["solutions"].as_array().unwrap();
    for s in sols {
        let cells = s["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| Placement {
                tile: pair[0].as_u64().unwrap() as usize - 1,
                rot: pair[1].as_u64().unwrap() as u8,
            })
            .collect();
        let sol = Solution {
            rows: puzzle.rows,
            cols: puzzle.cols,
            cells,
        };
        puzzle.check(&sol).unwrap();
    }
    sols.len()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn seed_puzzles_reproduce_the_published_naive_counts() {
    for (file, placements) in [("impuzzable.txt", 56_592), ("arc-insects.txt", 66_384)] {
        let path = sample(&format!("edges/{file}"));
        let p = path.to_str().unwrap();
        let (v, code) = json_of(&["edges", p, "--order", "rowmajor", "--naive", "--all"]);
        assert_eq!(code, 0);
        assert_eq!(counts(&v), (4, 1, placements), "{file}");
        let puzzle = load(&path, &Overrides::default());
        assert_eq!(check_listed(&puzzle, &v), 4);
        // The fast engine: same counts, far fewer placements, the 4 rotations listed.
        let (fast, code) = json_of(&["edges", p, "--all"]);
        assert_eq!(code, 0);
        let (raw, distinct, fast_placements) = counts(&fast);
        assert_eq!((raw, distinct), (4, 1));
        assert!(fast_placements * 10 < placements, "{fast_placements}");
        assert_eq!(check_listed(&puzzle, &fast), 4);
        let (few, _) = json_of(&["edges", p, "--all", "--max-print", "2"]);
        assert_eq!(few["solutions"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn arc_solution_matches_the_article() {
    // The article's first solution, top-left tile (1 -2 -4 3) in top left right bottom order.
    let path = sample("edges/arc-insects.txt");
    let puzzle = load(&path, &Overrides::default());
    let (v, _) = json_of(&["edges", path.to_str().unwrap(), "--all"]);
    let found = v["solutions"].as_array().unwrap().iter().any(|s| {
        let first = &s["grid"][0];
        let tile = puzzle.tiles[first[0].as_u64().unwrap() as usize - 1];
        let e = jigsaw::solvers::edges::puzzle::rotated(&tile, first[1].as_u64().unwrap() as u8);
        e == [1, -4, 3, -2]
    });
    assert!(found);
}

#[test]
fn tlrb_flag_equals_the_header() {
    let dir = scratch();
    let text = std::fs::read_to_string(sample("edges/arc-insects.txt")).unwrap();
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with("edge-order"))
        .map(|l| format!("{l}\n"))
        .collect();
    let f = write(dir.path(), "bare.txt", &bare);
    let (v, _) = json_of(&["edges", &f, "--order-tlrb", "--count"]);
    assert_eq!(counts(&v).0, 4);
    // Read as top right bottom left instead, it is a different puzzle.
    let (w, _) = json_of(&["edges", &f, "--naive", "--count"]);
    assert_ne!(counts(&w).2, 66_384);
}

#[test]
fn identical_rule_and_border() {
    let dir = scratch();
    // 2x2, each tile a corner; inner joins coloured 1..4, border 0: one solution, rotated.
    let f = write(
        dir.path(),
        "corners.txt",
        "rule identical\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n",
    );
    let (v, code) = json_of(&["edges", &f, "--count"]);
    assert_eq!((counts(&v).0, counts(&v).1, code), (4, 1, 0));
    assert_eq!(v["border"], 0);
    // The same tiles under the complement rule have no partners for 1..4.
    let out = run(&["edges", &f, "--rule", "complement"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no possible partner"));
    // A custom border symbol.
    let f9 = write(
        dir.path(),
        "nine.txt",
        "rule identical\nborder 9\n9 1 2 9\n9 9 3 1\n2 4 9 9\n3 9 9 4\n",
    );
    let (v, _) = json_of(&["edges", &f9, "--all"]);
    assert_eq!(counts(&v).0, 4);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 4);
}

#[test]
fn border_must_face_only_the_outside() {
    let dir = scratch();
    let f = write(
        dir.path(),
        "zeros.txt",
        "rows 1\ncols 2\nrule identical\n0 0 0 0\n0 0 0 0\n",
    );
    let out = run(&["edges", &f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no solution"));
    // Without the border rule 0 is just a colour: 2 tiles x 4 x 4 rotations.
    let (v, code) = json_of(&["edges", &f, "--no-border", "--count"]);
    assert_eq!((counts(&v).0, counts(&v).1, code), (32, 16, 0));
    let (n, _) = json_of(&["edges", &f, "--no-border", "--naive", "--count"]);
    assert_eq!(counts(&n).0, 32);
}

#[test]
fn unsolvable_puzzle_says_so() {
    let dir = scratch();
    let text = std::fs::read_to_string(sample("edges/impuzzable.txt"))
        .unwrap()
        .replace("-4 3 3 -2", "-4 3 3 -1");
    let f = write(dir.path(), "unsolvable.txt", &text);
    let out = run(&["edges", &f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no solution: this puzzle cannot be solved")
    );
    let (v, code) = json_of(&["edges", &f, "--naive", "--count"]);
    assert_eq!(
        (counts(&v).0, code, v["complete"].as_bool()),
        (0, 1, Some(true))
    );
}

#[test]
fn planted_puzzles_are_solved() {
    let dir = scratch();
    // 16 x 16 is Eternity II's size; with 50 + 10 colours the default (diagonal) order needs
    // about 60 thousand placements.
    for (side, inner, frame) in [("6", "6", "3"), ("8", "12", "4"), ("16", "50", "10")] {
        let saved = dir.path().join(format!("planted{side}.txt"));
        let s = saved.to_str().unwrap();
        let (v, code) = json_of(&[
            "edges",
            "--planted",
            "--rows",
            side,
            "--symbols",
            inner,
            "--frame-symbols",
            frame,
            "--seed",
            "5",
            "--save-puzzle",
            s,
            "--time-limit",
            "120",
        ]);
        assert_eq!(code, 0, "{v}");
        let puzzle = load(&saved, &Overrides::default());
        assert_eq!(puzzle.rows.to_string(), side);
        assert_eq!(check_listed(&puzzle, &v), 1);
        // The saved file solves the same way.
        let (again, _) = json_of(&["edges", s]);
        assert_eq!(again["solutions"], v["solutions"]);
    }
}

#[test]
fn shared_e2pieces_hard_counts() {
    // 6x6 takes about 1 s in release, 2 s in the dev profile (85 million placements).
    for (n, raw, distinct) in [(4, 36, 9), (5, 16, 4), (6, 260, 65)] {
        let Some(path) = shared_data(&format!(
            "combinatorial/edge_matching/e2pieces_hard_{n}x{n}.txt"
        )) else {
            return;
        };
        let p = path.to_str().unwrap();
        let (v, code) = json_of(&[
            "edges",
            p,
            "--rule",
            "identical",
            "--all",
            "--max-print",
            "300",
        ]);
        assert_eq!(code, 0);
        assert_eq!((counts(&v).0, counts(&v).1), (raw, distinct), "{n}x{n}");
        let puzzle = load(
            &path,
            &Overrides {
                rule: Some(jigsaw::solvers::edges::Rule::Identical),
                ..Default::default()
            },
        );
        assert_eq!(check_listed(&puzzle, &v), raw as usize);
        // Split over threads, the counts stay exact.
        let (t, _) = json_of(&[
            "edges",
            p,
            "--rule",
            "identical",
            "--count",
            "--threads",
            "2",
        ]);
        assert_eq!(
            (counts(&t).0, counts(&t).1),
            (raw, distinct),
            "{n}x{n} threads"
        );
    }
}

#[test]
fn random_puzzles_match_the_arc_estimate() {
    let (v, code) = json_of(&[
        "edges",
        "--random",
        "10000",
        "--symbols",
        "4",
        "--rows",
        "3",
        "--cols",
        "3",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0);
    let mean = v["mean_raw"].as_f64().unwrap();
    let expected = v["expected_raw"].as_f64().unwrap();
    assert!((expected - 1.3843).abs() < 1e-3, "{expected}");
    assert!((mean - expected).abs() < 0.25, "{mean}");
    let solvable = v["solvable"].as_f64().unwrap();
    assert!((0.10..0.20).contains(&solvable), "{solvable}");
    // Every count is a multiple of 4: the rotations of a solution.
    for k in v["histogram"].as_object().unwrap().keys() {
        assert_eq!(k.parse::<u64>().unwrap() % 4, 0);
    }
}

#[test]
fn bad_inputs_are_clear_errors() {
    let dir = scratch();
    let cases = [
        ("short.txt", "1 2 3 4\n-1 -2 -3\n", "line 2"),
        ("word.txt", "1 2 3 4\n-1 -2 x -4\n", "line 2"),
        (
            "count.txt",
            "rows 2\ncols 2\n1 2 3 4\n-1 -2 -3 -4\n1 2 3 4\n",
            "needs 4 tiles",
        ),
        (
            "square.txt",
            "1 2 3 4\n-1 -2 -3 -4\n1 2 3 4\n",
            "not a square",
        ),
        (
            "partner.txt",
            "1 2 3 4\n-1 -2 -3 -4\n1 2 3 4\n-1 -2 -3 7\n",
            "line 4: symbol 7 has no possible partner",
        ),
        ("header.txt", "1 2 3 4\nrows 2\n", "line 2"),
        ("empty.txt", "# nothing\n", "no tiles"),
    ];
    for (name, text, needle) in cases {
        let f = write(dir.path(), name, text);
        let out = run(&["edges", &f]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(needle) && err.contains(name), "{name}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = run(&["edges", "/nonexistent/puzzle.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let f = write(
        dir.path(),
        "ok.txt",
        "1 2 3 4\n-1 -2 -3 -4\n1 2 3 4\n-1 -2 -3 -4\n",
    );
    let out = run(&["edges", &f, "--rows", "3", "--cols", "3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs 9 tiles"));
}

#[test]
fn text_art_and_png() {
    let dir = scratch();
    let png = dir.path().join("board.png");
    let out = run(&[
        "edges",
        sample("edges/impuzzable.txt").to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("+-------------+") && text.contains("tile:rotation"),
        "{text}"
    );
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (3 * 96, 3 * 96));
}

#[test]
fn limits_stop_the_search() {
    let (v, code) = json_of(&[
        "edges",
        "--planted",
        "--rows",
        "10",
        "--seed",
        "1",
        "--count",
        "--placement-limit",
        "2000000",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped"], "placement-limit");
}
