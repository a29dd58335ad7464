//! `goal: reach:`: some peg stands on a cell, however many are left. Verdicts are checked
//! against brute force on boards small enough for it, answers replayed to a peg on the cell,
//! and what `reach:` cannot be combined with refused at its line.

use crate::cli::{SQUARE, replay_hops};
use crate::support::Test;
use marbles::model::HopModel;
use marbles::search::dfs::Quiet;
use marbles::search::pagoda::Pagodas;
use marbles::search::{Budget, Limits, Verdict, plan};
use marbles::solve::{self, MoveOrder};
use std::collections::HashSet;

/// Whether any position reachable from the start has a peg on `cell`, by visiting them all.
fn reachable(m: &HopModel, cell: usize) -> bool {
    let mut seen = HashSet::from([m.start]);
    let mut todo = vec![m.start];
    while let Some(s) = todo.pop() {
        if s >> cell & 1 == 1 {
            return true;
        }
        for mv in m.moves.iter().filter(|mv| s & mv.mask == mv.need) {
            if seen.insert(s ^ mv.mask) {
                todo.push(s ^ mv.mask);
            }
        }
    }
    false
}

/// marbles' verdict on reaching `cell` of `rows` (see [`solve::hop_model`]), checked against
/// [`reachable`], its answer replayed to a peg on the cell; true when it was solved.
fn agrees(rules: &str, rows: &[String], cell: [i64; 2]) -> bool {
    let goal = format!("{{ reach: [{}, {}] }}", cell[0], cell[1]);
    let m = solve::hop_model(rules, rows, &goal).unwrap();
    let at = m.geo.index[&cell];
    let order = solve::move_order(&m, &MoveOrder::Script);
    let r = plan::hop(&m, &order, &mut Budget::new(Limits::default()), &mut Quiet);
    let want = reachable(&m, at);
    match r.verdict {
        Verdict::Solved => {
            let end = solve::hop_end(&m, &r.path).expect("the moves replay");
            assert_eq!(
                end >> at & 1,
                1,
                "{rows:?} {cell:?}: the answer ends off the cell"
            );
        }
        Verdict::Unsolvable(_) => {}
        Verdict::GaveUp(why) => panic!("{rows:?} {cell:?}: gave up: {why}"),
    }
    assert_eq!(r.verdict == Verdict::Solved, want, "{rows:?} {cell:?}");
    want
}

#[test]
fn triangle_verdicts_match_brute_force_for_every_vacancy_and_cell() {
    let cells: Vec<[i64; 2]> = (0..5).flat_map(|r| (0..=r).map(move |c| [r, c])).collect();
    for vacancy in &cells {
        let rows: Vec<String> = (0..5)
            .map(|r| {
                let row: String = (0..=r)
                    .map(|c| if [r, c] == *vacancy { '.' } else { 'o' })
                    .collect();
                format!("{}{row}", " ".repeat(4 - r as usize))
            })
            .collect();
        for &cell in &cells {
            agrees("triangle_hop", &rows, cell);
        }
    }
}

#[test]
fn square_verdicts_match_brute_force_on_sparse_armies() {
    // A fixed stream of sparse starts on 4×4 and 5×5 boards: some cells are out of reach.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let (mut solved, mut refuted) = (0, 0);
    for size in [4i64, 5] {
        for _ in 0..24 {
            let rows: Vec<String> = (0..size)
                .map(|_| {
                    (0..size)
                        .map(|_| {
                            x = x
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            if x >> 61 < 3 { 'o' } else { '.' }
                        })
                        .collect()
                })
                .collect();
            for r in 0..size {
                for c in 0..size {
                    match agrees("peg_hop", &rows, [r, c]) {
                        true => solved += 1,
                        false => refuted += 1,
                    }
                }
            }
        }
    }
    // Both verdicts were put to the test.
    assert!(
        solved > 100 && refuted > 100,
        "{solved} solved, {refuted} refuted"
    );
}

/// `marbles solve --format json` of `yaml`: its one outcome, with the exit status `code`.
fn outcome(yaml: &str, args: &[&str], code: i32) -> serde_json::Value {
    let run = Test::new()
        .file("p.yaml", yaml)
        .args(["solve", "p.yaml", "--format", "json"].iter().chain(args))
        .run()
        .no_panic()
        .status(code);
    run.json()[0].clone()
}

#[test]
fn a_cell_reached_among_other_pegs_is_a_solution_a_lone_peg_there_is_not() {
    let board = "rules: peg_hop\nboard: |\n  o o . o\n";
    let o = outcome(&format!("{board}goal:\n  reach: [0, 2]\n"), &[], 0);
    assert_eq!(o["status"], "solved", "{o}");
    assert_eq!(o["pegs_left"], 2);
    assert_eq!(o["goal"], "reach [0, 2]: a peg there, however many are left");
    let yaml = format!("{board}goal:\n  reach: [0, 2]\n");
    assert!(replay_hops(&yaml, crate::support::line(&o), &SQUARE).contains(&(0, 2)));
    // Leaving that peg alone there is another goal, and an impossible one.
    let alone = outcome(&format!("{board}goal:\n  pegs: 1\n  at: [0, 2]\n"), &[], 1);
    assert_eq!(alone["status"], "unsolvable", "{alone}");
}

#[test]
fn a_start_already_on_the_cell_is_solved_in_no_moves() {
    let o = outcome(
        "rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  reach: [0, 3]\n",
        &[],
        0,
    );
    assert_eq!(
        (&o["status"], crate::support::line(&o).as_array().unwrap().len()),
        (&"solved".into(), 0)
    );
    assert_eq!(o["pegs_left"], 3);
}

#[test]
fn fewest_pegs_with_reach_is_the_fewest_with_a_peg_on_the_cell() {
    // The English board: the fewest pegs that can stand with one on an arm's tip.
    let board = "rules: peg_hop\nboard: |\n  # # o o o # #\n  # # o o o # #\n  o o o o o o o\n  \
                 o o o . o o o\n  o o o o o o o\n  # # o o o # #\n  # # o o o # #\n";
    let reach = outcome(
        &format!("{board}goal:\n  pegs: fewest\n  reach: [0, 3]\n"),
        &[],
        0,
    );
    let at = outcome(&format!("{board}goal:\n  pegs: fewest\n  at: [0, 3]\n"), &[], 0);
    let flag = outcome(&format!("{board}goal:\n  reach: [0, 3]\n"), &["--fewest"], 0);
    for o in [&reach, &at, &flag] {
        assert_eq!(
            (&o["status"], &o["pegs_left"]),
            (&"solved".into(), &1.into()),
            "{o}"
        );
    }
    let yaml = format!("{board}goal:\n  reach: [0, 3]\n");
    assert_eq!(
        replay_hops(&yaml, crate::support::line(&reach), &SQUARE),
        [(0, 3)].into_iter().collect()
    );
}

/// `marbles check p.yaml` of `goal` (under a one-row board) fails with exactly `message`.
fn refused(goal: &str, message: &str) {
    Test::new()
        .file(
            "p.yaml",
            &format!("rules: peg_hop\nboard: |\n  o o . o\ngoal:\n{goal}"),
        )
        .args(["check", "p.yaml"])
        .run()
        .no_panic()
        .status(2)
        .stderr_has(&format!("marbles: error: {message}\n"));
}

#[test]
fn reach_cells_off_the_board_and_clashing_goals_are_refused_at_their_line() {
    refused(
        "  reach: [3, 9]\n",
        "p.yaml:5: goal: the cell to reach [3, 9] is not a hole of the board",
    );
    refused(
        "  pegs: 2\n  reach: [0, 2]\n",
        "p.yaml:6: goal: `pegs: 2` and `reach:` together: `reach:` is met by a peg on its cell however \
         many are left; for 2 left with one on that cell write `at:` instead of `reach:`",
    );
    refused(
        "  reach: [0, 2]\n  at: [0, 2]\n",
        "p.yaml:5: goal: `at:` and `reach:` together: `reach:` is met the moment a peg stands on its \
         cell, `at:` names where a last peg stands; keep one",
    );
    refused(
        "  moves: fewest\n  reach: [0, 2]\n",
        "p.yaml:6: goal: `moves:` and `reach:` together are not supported: the fewest-moves search \
         ends on a peg count; drop `moves:`",
    );
    refused(
        "  reach: [0, 2]\n  board: |\n    . . o .\n",
        "p.yaml:5: goal: `reach:` and `board:` together: the goal board already says how many pegs \
         are left and where; drop `reach:`",
    );
}

#[test]
fn fewest_moves_and_counts_are_refused_for_reach_goals() {
    let yaml = "rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  reach: [0, 2]\n";
    for (args, message) in [
        (
            &["solve", "p.yaml", "--fewest-moves"][..],
            "p.yaml:5: `--fewest-moves` and `goal: reach:` together are not supported: the fewest-moves \
             search ends on a peg count; leave out --fewest-moves",
        ),
        (
            &["count", "p.yaml"][..],
            "p.yaml:5: count does not count games to a `goal: reach:` (it counts jump sequences to a peg \
             count); solve it instead",
        ),
    ] {
        Test::new()
            .file("p.yaml", yaml)
            .args(args)
            .run()
            .no_panic()
            .status(2)
            .stderr_has(&format!("marbles: error: {message}\n"));
    }
}

#[test]
fn text_answers_say_what_was_reached() {
    Test::new()
        .file(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  reach: [0, 2]\n",
        )
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has(
            "solved in 1 move (1 jump), 2 pegs left\ngoal: reach [0, 2]: a peg there, however many are left\n",
        );
}

#[test]
fn conways_pagoda_weighs_cells_by_fibonacci_numbers_of_their_distance() {
    // An empty 11×11 board, the cell to reach at the top middle: the farthest cells, the
    // bottom corners, are 10 + 5 = 15 steps away and weigh F(2) = 1; the cell F(17) = 1597.
    let rows: Vec<String> = (0..11).map(|_| ".".repeat(11)).collect();
    let m = solve::hop_model("peg_hop", &rows, "{ reach: [0, 5] }").unwrap();
    let p = Pagodas::towards(&m, m.geo.index[&[0, 5]]).expect("a pagoda on a square board");
    let weight = |cell: [i64; 2]| p.weights[m.geo.index[&cell]];
    let fib = |n: usize| (0..n).fold((0u32, 1u32), |(a, b), _| (b, a + b)).0;
    for (cell, d) in [([0, 5], 0), ([1, 5], 1), ([0, 0], 5), ([4, 7], 6), ([10, 0], 15)] {
        assert_eq!(weight(cell), fib(17 - d), "{cell:?}");
    }
    let position = |cells: &[[i64; 2]]| cells.iter().fold(0u128, |s, c| s | 1 << m.geo.index[c]);
    // Two soldiers in line below the cell weigh what one on it does: not cut.
    assert!(!p.cuts(position(&[[1, 5], [2, 5]])));
    // A whole row four rows down weighs less (Conway: row 4 needs more than one row).
    assert!(p.cuts(position(&(0..11).map(|c| [4, c]).collect::<Vec<_>>())));
}
