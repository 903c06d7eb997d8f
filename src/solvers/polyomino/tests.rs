//! Known answers for the engine and the paper's algorithm.

use super::*;

const PENTOMINOES: &str = include_str!("../../../samples/polyomino/pentominoes.txt");
const DEACONU: &str = include_str!("../../../samples/polyomino/deaconu-6x5.txt");
const HOLED: &str = include_str!("../../../samples/polyomino/square-8x8-hole.txt");

fn pentominoes(region: Region) -> Problem {
    Problem {
        pieces: parse::pieces_text(PENTOMINOES).unwrap(),
        region,
        freedom: Freedom {
            rotate: true,
            flip: true,
        },
    }
}

fn count(problem: &Problem, raw: bool) -> Report {
    let options = Options {
        all: true,
        keep: 0,
        raw,
        max_nodes: None,
        parallel: true,
    };
    solve(problem, &options).unwrap()
}

/// Every square of the region covered exactly once, each piece by a legal orientation of
/// itself.
fn assert_valid(problem: &Problem, s: &Solution) {
    let mut seen = vec![0usize; problem.pieces.len()];
    for (r, row) in s.grid.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            assert_eq!(cell.is_some(), problem.region.contains(r as i32, c as i32));
            if let Some(p) = cell {
                seen[*p] += 1;
            }
        }
    }
    for (i, p) in problem.pieces.iter().enumerate() {
        assert_eq!(
            seen[i],
            p.count(),
            "piece {} covers its own number of squares",
            i + 1
        );
        let pos = &s.positions[i];
        let shape = piece::Shape::from_coords(&pos.placed.coords());
        let allowed = piece::Shape::from_coords(&p.coords()).orientations(problem.freedom);
        assert!(allowed.contains(&shape));
        for (r, c) in pos.placed.coords() {
            let (r, c) = (pos.a - 1 + r as usize, pos.b - 1 + c as usize);
            assert_eq!(s.grid[r][c], Some(i), "position (a, b) of piece {}", i + 1);
        }
    }
}

#[test]
fn pentominoes_6x10_give_2339_distinct_and_9356_raw() {
    let r = count(&pentominoes(Region::rectangle(6, 10)), false);
    assert_eq!((r.distinct, r.raw), (2339, 9356));
    assert!(r.complete);
}

#[test]
fn pentominoes_other_rectangles() {
    for (m, n, distinct) in [(5, 12, 1010), (4, 15, 368), (3, 20, 2)] {
        let r = count(&pentominoes(Region::rectangle(m, n)), false);
        assert_eq!((r.distinct, r.raw), (distinct, 4 * distinct), "{m}x{n}");
    }
}

#[test]
fn pentominoes_in_the_holed_square_give_65() {
    let region = parse::region_file(HOLED).unwrap();
    let r = count(&pentominoes(region), false);
    assert_eq!((r.distinct, r.raw), (65, 520));
}

#[test]
fn raw_search_agrees_with_symmetry_breaking() {
    let p = pentominoes(Region::rectangle(3, 20));
    let raw = count(&p, true);
    assert_eq!((raw.distinct, raw.raw), (2, 8));
    let opts = Options {
        all: true,
        keep: 100,
        raw: true,
        max_nodes: None,
        parallel: true,
    };
    let listed = solve(&p, &opts).unwrap();
    assert_eq!(listed.solutions.len(), 8);
    for s in &listed.solutions {
        assert_valid(&p, s);
    }
}

#[test]
fn deaconu_example_is_solved_without_rotation_by_both_solvers() {
    let p = Problem {
        pieces: parse::pieces_text(DEACONU).unwrap(),
        region: Region::rectangle(6, 5),
        freedom: Freedom::default(),
    };
    let paper = paper::solve(&p, None).unwrap();
    assert_valid(&p, paper.solution.as_ref().unwrap());
    assert_eq!(paper.order[0], 2, "the 7-square piece goes first");
    let first = solve(
        &p,
        &Options {
            all: false,
            keep: 1,
            raw: false,
            max_nodes: None,
            parallel: true,
        },
    )
    .unwrap();
    assert_valid(&p, &first.solutions[0]);
    let all = count(&p, false);
    assert!(all.raw >= 1);
}

#[test]
fn identical_pieces_are_interchangeable() {
    // Two dominoes in a 2x2: two tilings (both horizontal, both vertical), not four.
    let domino = CellMatrix {
        rows: 1,
        cols: 2,
        cells: vec![true, true],
    };
    let p = Problem {
        pieces: vec![domino.clone(), domino],
        region: Region::rectangle(2, 2),
        freedom: Freedom {
            rotate: true,
            flip: false,
        },
    };
    let r = count(&p, true);
    assert_eq!((r.raw, r.distinct), (2, 1));
}

#[test]
fn bad_input_is_a_clear_error() {
    let mut p = pentominoes(Region::rectangle(6, 11));
    assert_eq!(
        validate(&p),
        Err(PolyominoError::ChecksumMismatch {
            pieces: 60,
            region: 66
        })
    );
    p.region = Region::rectangle(6, 10);
    p.pieces[3] = CellMatrix {
        rows: 1,
        cols: 3,
        cells: vec![true, false, true],
    };
    assert_eq!(
        validate(&p),
        Err(PolyominoError::DisconnectedPiece { piece: 4 })
    );
    p.pieces[3] = CellMatrix {
        rows: 0,
        cols: 0,
        cells: vec![],
    };
    assert_eq!(validate(&p), Err(PolyominoError::EmptyPiece { piece: 4 }));
    p.pieces = vec![CellMatrix {
        rows: 1,
        cols: 1,
        cells: vec![true],
    }];
    p.region = Region::rectangle(40, 40);
    assert!(matches!(
        validate(&p),
        Err(PolyominoError::RegionTooBig { .. })
    ));
}

#[test]
fn sequential_and_parallel_runs_agree() {
    let p = pentominoes(Region::rectangle(4, 15));
    let mut options = Options {
        all: true,
        keep: 5,
        raw: false,
        max_nodes: None,
        parallel: true,
    };
    let par = solve(&p, &options).unwrap();
    options.parallel = false;
    let seq = solve(&p, &options).unwrap();
    assert_eq!(par, seq);
    assert_eq!(par.solutions.len(), 5);
}

#[test]
fn a_node_limit_ends_the_search_as_incomplete() {
    let p = pentominoes(Region::rectangle(6, 10));
    let options = Options {
        all: true,
        keep: 0,
        raw: false,
        max_nodes: Some(1000),
        parallel: true,
    };
    let r = solve(&p, &options).unwrap();
    assert!(!r.complete && r.limit_hit);
    assert!(r.nodes <= 1000);
}

#[test]
fn a_piece_that_fits_nowhere_means_no_solution_without_search() {
    // Checksum passes (5 + 5 = 10) but the plus-shaped X cannot fit in 2 rows.
    let pieces = parse::pieces_text(".X.\nXXX\n.X.\n\nIIIII\n").unwrap();
    let p = Problem {
        pieces,
        region: Region::rectangle(2, 5),
        freedom: Freedom {
            rotate: true,
            flip: true,
        },
    };
    let options = Options {
        all: true,
        keep: 1,
        raw: false,
        max_nodes: None,
        parallel: true,
    };
    let r = solve(&p, &options).unwrap();
    assert_eq!((r.raw, r.nodes, r.complete), (0, 0, true));
    assert!(paper::solve(&p, None).unwrap().solution.is_none());
}

#[test]
fn piece_count_limit() {
    let mono = CellMatrix {
        rows: 1,
        cols: 1,
        cells: vec![true],
    };
    let p = Problem {
        pieces: vec![mono; MAX_PIECES + 1],
        region: Region::rectangle(1, MAX_PIECES + 1),
        freedom: Freedom::default(),
    };
    assert_eq!(
        validate(&p),
        Err(PolyominoError::TooManyPieces {
            count: 62,
            limit: 61
        })
    );
}
