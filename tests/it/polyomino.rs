//! Tests of `jigsaw polyomino`.

use crate::util::{run, sample, scratch};
use jigsaw::solvers::polyomino::parse;
use jigsaw::solvers::polyomino::piece::{Freedom, Shape};
use jigsaw::solvers::polyomino::render::label;
use serde_json::Value;
use std::path::Path;

fn json(args: &[&str]) -> Value {
    let mut all = vec!["--json", "polyomino"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(
        out.status.success(),
        "jigsaw {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Checks a printed solution against the pieces: every region square covered exactly once,
/// each label's squares a legal orientation of that piece.
fn assert_tiles(rows: &[Value], pieces_file: &Path, region: &[String], freedom: Freedom) {
    let pieces = parse::pieces_text(&std::fs::read_to_string(pieces_file).unwrap()).unwrap();
    let rows: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    assert_eq!(rows.len(), region.len());
    for (r, row) in rows.iter().enumerate() {
        let want: Vec<bool> = region[r].chars().map(|c| c != '.' && c != ' ').collect();
        assert_eq!(row.len(), want.len(), "row {r} length");
        for (c, &ch) in row.iter().enumerate() {
            assert_eq!(
                ch != '.',
                want[c],
                "square ({r}, {c}) covered iff in the region"
            );
        }
    }
    for (i, p) in pieces.iter().enumerate() {
        let l = label(i);
        let cells: Vec<(i32, i32)> = rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .filter(move |(_, &ch)| ch == l)
                    .map(move |(c, _)| (r as i32, c as i32))
            })
            .collect();
        let placed = Shape::from_coords(&cells);
        assert_eq!(placed.0.len(), cells.len());
        let allowed = Shape::from_coords(&p.coords()).orientations(freedom);
        assert!(
            allowed.contains(&placed),
            "piece {} ('{l}') is placed as a legal orientation of itself",
            i + 1
        );
    }
}

fn rect(m: usize, n: usize) -> Vec<String> {
    vec!["#".repeat(n); m]
}

#[test]
fn paper_example_is_solved_without_rotation_by_both_methods() {
    let pieces = sample("polyomino/deaconu-6x5.txt");
    for method in ["engine", "paper"] {
        let v = json(&[path(&pieces), "--rect", "6x5", "--method", method]);
        let sols = v["solutions"].as_array().unwrap();
        assert_eq!(sols.len(), 1, "{method}");
        assert_tiles(
            sols[0].as_array().unwrap(),
            &pieces,
            &rect(6, 5),
            Freedom::default(),
        );
        let pos = v["positions"][0].as_array().unwrap();
        assert_eq!(pos.len(), 5);
        for p in pos {
            let (a, b) = (p["a"].as_u64().unwrap(), p["b"].as_u64().unwrap());
            assert!(
                (1..=6).contains(&a) && (1..=5).contains(&b),
                "1-based (a, b)"
            );
        }
    }
    let human = run(&[
        "polyomino",
        path(&pieces),
        "--rect",
        "6x5",
        "--method",
        "paper",
    ]);
    assert!(human.status.success());
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(
        text.contains("a = 4, b = 2"),
        "paper's (a_1, b_1) = (4, 2):\n{text}"
    );
}

#[test]
fn pentomino_rectangles_have_the_known_counts() {
    let pieces = sample("polyomino/pentominoes.txt");
    for (spec, distinct) in [("6x10", 2339), ("5x12", 1010), ("4x15", 368), ("3x20", 2)] {
        let v = json(&[
            path(&pieces),
            "--rect",
            spec,
            "--rotate",
            "--flip",
            "--count",
        ]);
        assert_eq!(v["distinct"], distinct, "{spec}");
        assert_eq!(v["raw"], 4 * distinct, "{spec}");
        assert_eq!(v["complete"], true);
        assert!(v["nodes"].as_u64().unwrap() > 0);
        assert!(v.get("solutions").is_none(), "--count omits the list");
    }
}

#[test]
fn pentominoes_fill_the_holed_square_65_ways() {
    let pieces = sample("polyomino/pentominoes.txt");
    let region = sample("polyomino/square-8x8-hole.txt");
    let v = json(&[
        path(&pieces),
        "--region",
        path(&region),
        "--rotate",
        "--flip",
        "--all",
    ]);
    assert_eq!(
        (v["distinct"].as_u64(), v["raw"].as_u64()),
        (Some(65), Some(520))
    );
    assert_eq!(v["symmetries"], 8);
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 65, "one tiling per class");
    let drawn: Vec<String> = std::fs::read_to_string(&region)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("//"))
        .map(String::from)
        .collect();
    let free = Freedom {
        rotate: true,
        flip: true,
    };
    for s in sols.iter().take(10) {
        assert_tiles(s.as_array().unwrap(), &pieces, &drawn, free);
    }
    let first: Vec<&str> = sols[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(&first[3][3..5], "..", "the hole prints as '.'");
}

#[test]
fn max_print_limits_the_list_and_labels_go_past_nine() {
    let pieces = sample("polyomino/pentominoes.txt");
    let v = json(&[
        path(&pieces),
        "--rect",
        "6x10",
        "--rotate",
        "--flip",
        "--all",
        "--max-print",
        "3",
    ]);
    assert_eq!(v["distinct"], 2339);
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 3);
    let free = Freedom {
        rotate: true,
        flip: true,
    };
    for s in sols {
        assert_tiles(s.as_array().unwrap(), &pieces, &rect(6, 10), free);
        let text: String = s
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        for l in ['9', 'a', 'b', 'c'] {
            assert!(text.contains(l), "pieces 9..12 are labelled 9, a, b, c");
        }
    }
}

#[test]
fn first_solution_mode_prints_and_draws_one_tiling() {
    let dir = scratch();
    let pieces = sample("polyomino/pentominoes.txt");
    let png = dir.path().join("first.png");
    let v = json(&[
        path(&pieces),
        "--rect",
        "6x10",
        "--rotate",
        "--flip",
        "--png",
        path(&png),
    ]);
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 1);
    let free = Freedom {
        rotate: true,
        flip: true,
    };
    assert_tiles(sols[0].as_array().unwrap(), &pieces, &rect(6, 10), free);
    let img = image::open(&png).expect("a readable PNG").to_rgb8();
    assert_eq!(img.dimensions(), (12 * 32, 8 * 32));
    let counted = dir.path().join("counted.png");
    let v = json(&[
        path(&pieces),
        "--rect",
        "3x20",
        "--rotate",
        "--flip",
        "--count",
        "--png",
        path(&counted),
    ]);
    assert!(v.get("solutions").is_none());
    assert!(counted.exists(), "--count --png still draws one tiling");
}

#[test]
fn raw_listing_shows_every_symmetric_copy() {
    let pieces = sample("polyomino/pentominoes.txt");
    let v = json(&[
        path(&pieces),
        "--rect",
        "3x20",
        "--rotate",
        "--flip",
        "--all",
        "--raw",
    ]);
    assert_eq!(
        (v["distinct"].as_u64(), v["raw"].as_u64()),
        (Some(2), Some(8))
    );
    assert_eq!(v["solutions"].as_array().unwrap().len(), 8);
}

#[test]
fn json_pieces_with_their_region_and_a_png() {
    let dir = scratch();
    let file = dir.path().join("pieces.json");
    std::fs::write(
        &file,
        r#"{"pieces": [["ooo", "o.."], [[1,1,1],[0,0,1]], ["oo"]], "region": ["xxxxx", "xxxxx"]}"#,
    )
    .unwrap();
    let png = dir.path().join("out/tiling.png");
    let v = json(&[
        path(&file),
        "--rotate",
        "--flip",
        "--png",
        path(&png),
        "--cell-px",
        "10",
    ]);
    assert_eq!(v["raw"], 1);
    let img = image::open(&png).expect("a readable PNG").to_rgb8();
    assert_eq!(img.dimensions(), (70, 40));
}

#[test]
fn no_solution_exits_1_with_a_message() {
    let dir = scratch();
    let file = dir.path().join("bars.txt");
    std::fs::write(&file, "o\no\no\n\no\no\no\n").unwrap();
    let out = run(&["polyomino", path(&file), "--rect", "1x6"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("No solution"));
    let out = run(&["polyomino", path(&file), "--rect", "1x6", "--rotate"]);
    assert_eq!(out.status.code(), Some(0));
}

fn fails_with(args: &[&str], needle: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected {needle:?} in {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_gives_one_clear_error() {
    let dir = scratch();
    let pieces = sample("polyomino/pentominoes.txt");
    let p = path(&pieces);
    fails_with(&["polyomino", p, "--rect", "6x11"], "checksum test failed");
    fails_with(&["polyomino", p, "--rect", "6x11"], "pentominoes.txt");
    fails_with(
        &["polyomino", p, "--rect", "40x40"],
        "more than the limit of 1024",
    );
    fails_with(&["polyomino", p, "--rect", "6by10"], "bad rectangle");
    fails_with(&["polyomino", p], "no region");
    fails_with(
        &["polyomino", "/nonexistent/pieces.txt", "--rect", "2x2"],
        "cannot read",
    );
    let split = dir.path().join("split.txt");
    std::fs::write(&split, "o.o\n").unwrap();
    fails_with(
        &["polyomino", path(&split), "--rect", "1x2"],
        "piece 1 is not connected",
    );
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, r#"[[[1,1]], [[0,0]]]"#).unwrap();
    fails_with(
        &["polyomino", path(&empty), "--rect", "1x2"],
        "piece 2 is empty",
    );
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{ not json").unwrap();
    fails_with(
        &["polyomino", path(&garbage), "--rect", "1x2"],
        "invalid JSON",
    );
    fails_with(
        &[
            "polyomino",
            p,
            "--rect",
            "6x10",
            "--method",
            "paper",
            "--all",
        ],
        "first solution",
    );
}

/// The 12 pentominoes drawn at assorted angles, anti-aliased and noisy, read back by
/// `--photo`: the printed pieces are a valid pieces file holding the same pentominoes, and
/// the solver finds the 2339 distinct 6×10 tilings from them.
#[test]
fn photo_of_the_pentominoes_solves_6x10() {
    use jigsaw::solvers::polyomino::photo_synth::{render, SynthOptions};
    let dir = scratch();
    let pieces_file = sample("polyomino/pentominoes.txt");
    let pieces = parse::pieces_text(&std::fs::read_to_string(&pieces_file).unwrap()).unwrap();
    let img = dir.path().join("pentominoes.png");
    render(&pieces, &SynthOptions::default())
        .save(&img)
        .unwrap();

    let out = run(&[
        "polyomino",
        "--photo",
        path(&img),
        "--rect",
        "6x10",
        "--rotate",
        "--flip",
        "--count",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("2339 distinct"), "{stdout}");
    // The printed drawing is itself a pieces file: same pentominoes, up to rotation.
    let drawn = stdout.split("2339 distinct").next().unwrap();
    let read = parse::pieces_text(drawn.rsplit_once("\n\n").unwrap().0).unwrap();
    let class = |m: &jigsaw::solvers::polyomino::CellMatrix| {
        let turn = Freedom {
            rotate: true,
            flip: false,
        };
        Shape::from_coords(&m.coords())
            .orientations(turn)
            .into_iter()
            .min()
            .unwrap()
    };
    let mut want: Vec<_> = pieces.iter().map(class).collect();
    let mut got: Vec<_> = read.iter().map(class).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "{stdout}");

    let v = json(&[
        "--photo",
        path(&img),
        "--rect",
        "6x10",
        "--rotate",
        "--flip",
        "--count",
    ]);
    assert_eq!(v["distinct"], 2339);
    assert_eq!(v["raw"], 9356);
    let unit = v["photo"]["unit_px"].as_f64().unwrap();
    assert!((unit - 20.0).abs() < 0.4, "unit {unit}");
    assert_eq!(v["photo"]["pieces"].as_array().unwrap().len(), 12);
}

#[test]
fn photo_without_pieces_or_with_a_disc_is_a_clear_error() {
    use image::{Rgb, RgbImage};
    let dir = scratch();
    let blank = dir.path().join("blank.png");
    RgbImage::from_pixel(120, 90, Rgb([230, 230, 225]))
        .save(&blank)
        .unwrap();
    let disc = dir.path().join("disc.png");
    let mut img = RgbImage::from_pixel(200, 160, Rgb([230, 230, 225]));
    imageproc::drawing::draw_filled_circle_mut(&mut img, (100, 80), 40, Rgb([180, 40, 40]));
    img.save(&disc).unwrap();
    for (file, reason) in [(&blank, "no pieces found"), (&disc, "not made of squares")] {
        let out = run(&["polyomino", "--photo", path(file), "--rect", "6x10"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(reason) && err.contains(path(file)), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let missing = dir.path().join("missing.png");
    let out = run(&["polyomino", "--photo", path(&missing), "--rect", "6x10"]);
    assert_eq!(out.status.code(), Some(2));
}
