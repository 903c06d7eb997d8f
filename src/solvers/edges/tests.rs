//! Cross-checks of the fast engine against the naive one, and the seeds' numbers.

use super::*;
use crate::solvers::edges::random::{random_puzzle, RandomSpec};

const IMPUZZABLE: &str = "-3 -2 3 1\n2 1 -4 -2\n4 2 -3 -2\n-1 1 4 -4\n-4 4 2 -1\n1 -1 -2 2\n3 1 -2 -1\n-3 -4 2 3\n-4 3 3 -2\n";

fn all(order: Order) -> Config {
    Config {
        order,
        keep: usize::MAX,
        stop_after: None,
        limits: Limits::default(),
        threads: 1,
    }
}

#[test]
fn impuzzable_naive_count_is_the_published_one() {
    let p = parse_puzzle(IMPUZZABLE, &Overrides::default()).unwrap();
    let out = solve_naive(&p, usize::MAX, None, &Limits::default());
    assert_eq!((out.raw, out.distinct, out.placements), (4, 1, 56_592));
    for s in &out.solutions {
        p.check(s).unwrap();
    }
}

#[test]
fn fast_engine_agrees_with_naive_on_random_puzzles() {
    for (rows, cols, symbols, rule) in [
        (3, 3, 4, Rule::Complement),
        (3, 3, 5, Rule::Identical),
        (2, 4, 3, Rule::Complement),
        (3, 2, 3, Rule::Identical),
        (1, 1, 1, Rule::Complement),
        (2, 2, 1, Rule::Identical),
    ] {
        let spec = RandomSpec {
            puzzles: 12,
            symbols,
            rows,
            cols,
            rule,
            seed: 11,
        };
        for i in 0..spec.puzzles {
            let p = random_puzzle(&spec, i);
            let naive = solve_naive(&p, 0, None, &Limits::default());
            for order in [Order::RowMajor, Order::ColMajor, Order::Diagonal] {
                let fast = solve(&p, &all(order));
                assert_eq!(
                    (fast.raw, fast.distinct),
                    (naive.raw, naive.distinct),
                    "{rows}x{cols} puzzle {i} {order:?}"
                );
                for s in &fast.solutions {
                    p.check(s).unwrap();
                }
                let split = solve(
                    &p,
                    &Config {
                        threads: 3,
                        ..all(order)
                    },
                );
                assert_eq!((split.raw, split.solutions), (fast.raw, fast.solutions));
            }
        }
    }
}

#[test]
fn border_rule_agrees_with_naive() {
    use super::planted::{planted_puzzle, PlantSpec};
    for seed in 0..6 {
        let (p, plant) = planted_puzzle(&PlantSpec {
            rows: 3 + (seed as usize % 2),
            cols: 4,
            frame: 2,
            inner: 2,
            border: Some(0),
            seed,
        });
        p.check(&plant).unwrap();
        let naive = solve_naive(&p, 0, None, &Limits::default());
        let fast = solve(&p, &all(Order::RowMajor));
        assert!(naive.raw >= p.symmetry_order());
        assert_eq!((fast.raw, fast.distinct), (naive.raw, naive.distinct));
        let split = solve(
            &p,
            &Config {
                threads: 2,
                ..all(Order::Diagonal)
            },
        );
        assert_eq!(split.raw, naive.raw);
    }
}

#[test]
fn default_order_follows_the_board_shape() {
    assert_eq!(Order::for_board(6, 6), Order::RowMajor);
    assert_eq!(Order::for_board(9, 4), Order::RowMajor);
    assert_eq!(Order::for_board(6, 12), Order::ColMajor);
    assert_eq!(Order::for_board(16, 16), Order::Diagonal);
    for (r, c) in [(3, 5), (5, 3), (4, 4)] {
        for order in [Order::RowMajor, Order::ColMajor, Order::Diagonal] {
            let mut cells = order.cells(r, c);
            // Left and top neighbours always come first.
            for (k, &cell) in cells.iter().enumerate() {
                let before = &cells[..k];
                if cell % c > 0 {
                    assert!(before.contains(&(cell - 1)), "{order:?}");
                }
                if cell >= c {
                    assert!(before.contains(&(cell - c)), "{order:?}");
                }
            }
            cells.sort_unstable();
            assert_eq!(cells, (0..r * c).collect::<Vec<_>>());
        }
    }
}
