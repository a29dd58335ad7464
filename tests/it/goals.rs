//! `goal: board:`: a drawing of where every peg must stand at the end. Answers are replayed
//! here, independently of marbles, to exactly the drawn position; impossible drawings are
//! refuted, counted, and bad drawings refused at their line.

use crate::cli::{Cell, TRIANGLE, drawing, replay_hops};
use crate::support::Test;
use std::collections::BTreeSet;

/// The 15-hole triangle, corner empty.
const CORNER: &str =
    "rules: triangle_hop\nboard: |2\n      .\n     o o\n    o o o\n   o o o o\n  o o o o o\n";

/// The triangle drawn with pegs exactly at `pegs`, the rest empty, indented as a goal board.
fn goal_triangle(pegs: &[Cell]) -> String {
    let rows: Vec<String> = (0..5i64)
        .map(|r| {
            let row: Vec<&str> = (0..=r)
                .map(|c| if pegs.contains(&(r, c)) { "o" } else { "." })
                .collect();
            format!("    {}{}\n", " ".repeat(4 - r as usize), row.join(" "))
        })
        .collect();
    format!("goal:\n  board: |2\n{}", rows.concat())
}

fn corner_to(pegs: &[Cell]) -> String {
    format!("{CORNER}{}", goal_triangle(pegs))
}

/// `marbles solve --format json` of `yaml`, which must exit with `code`: its one outcome.
fn outcome(yaml: &str, code: i32) -> serde_json::Value {
    let run = Test::new()
        .file("p.yaml", yaml)
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .no_panic()
        .status(code);
    run.json()[0].clone()
}

/// Solves `yaml` as JSON and replays its moves to the pegs they leave.
fn solved_pegs(yaml: &str) -> (serde_json::Value, BTreeSet<Cell>) {
    let o = outcome(yaml, 0);
    assert_eq!(o["status"], "solved", "{o}");
    let left = replay_hops(yaml, crate::support::line(&o), &TRIANGLE);
    (o, left)
}

/// `marbles count`'s number of solutions.
fn solutions(yaml: &str) -> u64 {
    let run = Test::new()
        .file("p.yaml", yaml)
        .args(["count", "p.yaml"])
        .run()
        .no_panic();
    let line = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("solutions (jump sequences to the goal): "))
        .unwrap_or_else(|| panic!("no solutions line:\n{}", run.stdout));
    line.parse().unwrap()
}

#[test]
fn goal_boards_solve_to_exactly_the_drawn_position() {
    for goal in [
        vec![(4, 2)],
        vec![(0, 0)],
        vec![(4, 0), (4, 4)],
        vec![(2, 2), (3, 2)],
    ] {
        let yaml = corner_to(&goal);
        let (o, left) = solved_pegs(&yaml);
        let want: BTreeSet<Cell> = goal.iter().copied().collect();
        assert_eq!(left, want, "{yaml}");
        // The goal drawing, read independently, is where the pegs stand.
        let v: serde_yaml::Value = serde_yaml::from_str(&yaml).unwrap();
        assert_eq!(drawing(v["goal"]["board"].as_str().unwrap()).0, want);
        assert_eq!(o["pegs_left"], goal.len());
        assert_eq!(
            crate::support::line(&o).as_array().unwrap().len(),
            14 - goal.len()
        );
    }
    // The answer says what the goal was, in text and JSON.
    let (o, _) = solved_pegs(&corner_to(&[(4, 0), (4, 4)]));
    assert_eq!(o["goal"], "the goal board: 2 pegs at [4, 0], [4, 4]");
    Test::new()
        .file("p.yaml", &corner_to(&[(4, 2)]))
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("solved in 12 moves (13 jumps), 1 peg left\ngoal: the goal board: 1 peg at [4, 2]\n");
}

#[test]
fn goal_boards_in_another_position_class_are_refuted_without_search() {
    for goal in [
        vec![(2, 0)],
        vec![(0, 0), (4, 0), (4, 4)],
        vec![(4, 1), (4, 2), (4, 3)],
    ] {
        let yaml = corner_to(&goal);
        let o = outcome(&yaml, 1);
        assert_eq!(o["status"], "unsolvable");
        assert_eq!(
            o["reason"],
            "position class: the goal board is not in the class of the start (2 invariant parities checked)"
        );
        assert_eq!(o["stats"]["nodes"], 0);
        assert_eq!(solutions(&yaml), 0, "{yaml}");
    }
    // In the start's class but still out of reach: the search says so, and so does count.
    let yaml = corner_to(&[(1, 0), (1, 1)]);
    Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml"])
        .run()
        .status(1)
        .stdout_has("\nunsolvable: exhaustive search: none of the ");
    assert_eq!(solutions(&yaml), 0);
}

#[test]
fn counts_to_each_final_peg_add_up_to_the_count_to_any_one_peg() {
    // 29 760 jump sequences take the corner game to one peg (see search.rs); split by where
    // that peg ends, as a goal board each, they must add up to the same.
    let mut total = 0;
    let mut by_cell = Vec::new();
    for r in 0..5 {
        for c in 0..=r {
            let n = solutions(&corner_to(&[(r, c)]));
            by_cell.push(((r, c), n));
            total += n;
        }
    }
    assert_eq!(total, 29_760, "{by_cell:?}");
    assert_eq!(solutions(&format!("{CORNER}goal:\n  pegs: 1\n")), 29_760);
}

#[test]
fn goal_boards_with_fewest_moves_end_exactly_there() {
    let yaml = format!("{}  moves: fewest\n", corner_to(&[(4, 2)]));
    let (o, left) = solved_pegs(&yaml);
    assert_eq!(left, BTreeSet::from([(4, 2)]));
    let moves = o["move_count"].as_u64().unwrap();
    assert!(moves < 13, "chains of jumps are fewer than the 13 jumps: {moves}");
}

const SMALL: &str = "rules: peg_hop\nboard: |\n  # o o\n  o . o\n  o o #\n";

/// The error `marbles solve p.yaml` (with `extra` arguments) prints for `yaml`, refused
/// with exit status 2 and nothing on stdout.
fn refused_file(yaml: &str, extra: &[&str]) -> String {
    let mut args = vec!["solve", "p.yaml"];
    args.extend(extra);
    let run = Test::new()
        .file("p.yaml", yaml)
        .args(args)
        .run()
        .no_panic()
        .status(2);
    assert_eq!(run.stdout, "");
    run.stderr
}

/// The error for `SMALL` with `goal`.
fn refused(goal: &str) -> String {
    refused_file(&format!("{SMALL}{goal}"), &[])
}

#[test]
fn goal_boards_of_another_shape_are_refused_at_their_line() {
    let cases = [
        (
            "goal:\n  board: |\n    # . .\n    . o .\n",
            "p.yaml:7: goal: `board:` leaves out the board's hole [2, 0]: draw it `o` or `.` where the board has it",
        ),
        (
            "goal:\n  board: |\n    # . .\n    . o\n    . . #\n",
            "p.yaml:9: goal: `board:` leaves out the board's hole [1, 2]: draw it `o` or `.` where the board has it",
        ),
        (
            "goal:\n  board: |\n    o . .\n    . o .\n    . . #\n",
            "p.yaml:8:5: goal: `board:` has a peg where the board has no hole (drawn in row 0, column 1 of the drawing): \
             mark it `#` or leave it blank",
        ),
        (
            "goal:\n  board: |\n    # . .\n    . o .\n    . . # o\n",
            "p.yaml:10:11: goal: `board:` has a peg where the board has no hole (drawn in row 2, column 7 of the drawing): \
             mark it `#` or leave it blank",
        ),
        (
            "goal:\n  board: |\n    # . .\n    # o .\n    . . #\n",
            "p.yaml:9: goal: `board:` leaves out the board's hole [1, 0]: draw it `o` or `.` where the board has it",
        ),
        (
            "goal:\n  board: |\n    # . .\n    . . .\n    . . #\n",
            "p.yaml:7: goal: `board:` has no pegs, but a hop never takes the last one",
        ),
        (
            "goal:\n  board: |\n    # # #\n",
            "p.yaml:7: goal: `board:` has no holes, but the board has 7: draw the goal on the board's shape",
        ),
        (
            "goal:\n  board: |\n    # . .\n    . x .\n    . . #\n",
            "p.yaml:9:7: goal: unknown board token `x` at [1, 1]: use `o` for a peg, `.` for an empty hole, `#` for no hole, a capital letter for a piece of a kind",
        ),
        (
            "goal:\n  pegs: 1\n  board: |\n    # . .\n    . o .\n    . . #\n",
            "p.yaml:7: goal: `pegs:` and `board:` together: the goal board already says how many pegs are left and where; drop `pegs:`",
        ),
        (
            "goal:\n  board: |\n    # . .\n    . o .\n    . . #\n  at: [1, 1]\n",
            "p.yaml:11: goal: `at:` and `board:` together: the goal board already says how many pegs are left and where; drop `at:`",
        ),
        (
            "goal:\n  board:\n",
            "p.yaml:7: goal: `board:` is empty: draw the end position on the board's shape",
        ),
    ];
    for (goal, message) in cases {
        assert_eq!(refused(goal), format!("marbles: error: {message}\n"), "{goal}");
    }
}

#[test]
fn goal_boards_are_matched_where_they_are_drawn() {
    // Holes at columns 0, 2, 4 and 8: a goal peg drawn at column 6 stands on no hole (it was
    // taken as the fourth token, the hole at column 8).
    let gap = "rules: peg_hop\nboard: |\n  o o .   .\ngoal:\n  board: |\n";
    assert_eq!(
        refused_file(&format!("{gap}    . .   o .\n"), &[]),
        "marbles: error: p.yaml:6:11: goal: `board:` has a peg where the board has no hole (drawn in row 0, column 7 \
         of the drawing): mark it `#` or leave it blank\n"
    );
    // `#` where the board has spaces is the same drawing.
    let o = outcome(&format!("{gap}    . . o # .\n"), 0);
    assert_eq!(
        (o["status"].as_str(), o["pegs_left"].as_u64()),
        (Some("solved"), Some(1)),
        "{o}"
    );
    assert_eq!(crate::support::line(&o).as_array().map(Vec::len), Some(1), "{o}");
    // The corner triangle left-aligned with `#` padding, its goal drawn centred: one puzzle.
    let padded =
        "rules: triangle_hop\nboard: |\n  . # # # #\n  o o # # #\n  o o o # #\n  o o o o #\n  o o o o o\n";
    for goal in [goal_triangle(&[(4, 2)]), goal_triangle(&[(0, 0)])] {
        let (o, left) = solved_pegs(&format!("{CORNER}{goal}"));
        let p = outcome(&format!("{padded}{goal}"), 0);
        assert_eq!(p["status"], "solved", "{p}");
        assert_eq!(
            replay_hops(&format!("{padded}{goal}"), crate::support::line(&p), &TRIANGLE),
            left
        );
        assert_eq!(p["goal"], o["goal"]);
    }
}

#[test]
fn goal_boards_anywhere_in_the_file_are_read_at_their_own_lines() {
    // The goal drawn before the board: each drawing's errors point into itself.
    let yaml = "rules: peg_hop\ngoal:\n  board: |\n    # . .\n    . o .\n    . . x\nboard: |\n  # o o\n  o . o\n  o o #\n";
    assert!(refused_file(yaml, &[]).contains("p.yaml:6:9: goal: unknown board token `x` at [2, 2]"));
    let yaml = "rules: peg_hop\ngoal:\n  board: |\n    # . .\n    . o .\n    . . #\nboard: |\n  # o o\n  o . y\n  o o #\n";
    assert!(refused_file(yaml, &[]).contains("p.yaml:9:7: unknown board token `y` at [1, 2]"));
    // A board drawn off its lattice is found in the board, not in the goal before it.
    let yaml = "rules: peg_hop\ngoal:\n  board: |\n    o . .\n     . .\nboard: |\n  o o .\n   o o\n";
    assert!(
        refused_file(yaml, &[]).starts_with(
            "marbles: error: p.yaml:8:4: rule family `peg_hop`: the board fits no square lattice: hole [1, 0]"
        ),
        "{}",
        refused_file(yaml, &[])
    );
}

#[test]
fn goal_boards_are_for_hop_puzzles_and_fix_the_pegs_left() {
    let tilt = "rules: tilt_roll\nsize: 2\nmarbles: [[0,0]]\nholes: [[1,1]]\ngoal:\n  board: |\n    o .\n";
    assert_eq!(
        refused_file(tilt, &[]),
        "marbles: error: p.yaml:6: goal: `board:` is for hop puzzles; a tilt puzzle's goal is every marble in its \
         own hole\n"
    );
    assert_eq!(
        refused_file(&corner_to(&[(4, 2)]), &["--fewest"]),
        "marbles: error: p.yaml:9: `--fewest` asks for the fewest pegs, but this puzzle's goal board says exactly \
         where they end: leave out --fewest\n"
    );
}

#[test]
fn goal_boards_with_more_pegs_than_the_start_are_refused_like_pegs() {
    assert_eq!(
        refused("goal:\n  board: |\n    # o o\n    o o o\n    o o #\n"),
        "marbles: error: p.yaml:7: goal: `board:` has 7 pegs, but the board starts with 6 pegs and a jump only \
         removes pegs\n"
    );
    assert_eq!(
        refused("goal:\n  pegs: 7\n"),
        "marbles: error: p.yaml:7: goal: 7 pegs to leave, but the board starts with 6 pegs and a jump only removes \
         pegs\n"
    );
}

#[test]
fn reports_say_what_the_goal_board_was() {
    let run = Test::new()
        .file("set/p.yaml", &corner_to(&[(4, 2)]))
        .args(["batch", "set", "--report", "rep", "--quiet"])
        .run()
        .status(0);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.dir().join("rep/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["results"][0]["goal"], "the goal board: 1 peg at [4, 2]");
    let html = std::fs::read_to_string(run.dir().join("rep/index.html")).unwrap();
    assert!(html.contains("<dt>goal</dt><dd>the goal board: 1 peg at [4, 2]</dd>"));
}

/// The one-line answers count moves as the text answer does: a chain of one peg's jumps is
/// one move when the goal counts moves (the corner triangle: 10 moves, 13 jumps).
#[test]
fn one_line_answers_count_chains_when_the_goal_counts_moves() {
    let solve = |format: &str| {
        Test::new()
            .in_root()
            .args([
                "solve",
                "puzzles/triangle_hop/corner.yaml",
                "--fewest-moves",
                "--format",
                format,
            ])
            .run()
            .status(0)
            .stdout
    };
    assert!(
        solve("text").contains("solved in 10 moves, proven the fewest (13 jumps)"),
        "{}",
        solve("text")
    );
    assert_eq!(solve("moves"), "10 moves\n");
    assert_eq!(solve("icpc"), "Case 1: 10 moves\n\n");
}

#[test]
fn a_goal_a_pagoda_rules_out_is_refuted_before_any_search_with_its_weights() {
    // Two pegs on the right edge of a 4×4 board share the class of one peg at [0, 0], but the
    // pagoda built around that corner (1 on the four cells two apart from it, 0 elsewhere)
    // weighs them 0 against its 1. The search used to try them and say only "exhaustive".
    let yaml = "rules: peg_hop\nboard: |\n  . . . .\n  . . . o\n  . . . o\n  . . . .\n\
                goal:\n  pegs: 1\n  at: [0, 0]\n";
    let o = outcome(yaml, 1);
    assert_eq!(o["status"], "unsolvable");
    assert_eq!(
        o["reason"],
        "pagoda function: the start weighs 0, every goal position at least 1, and no move adds weight"
    );
    assert_eq!(o["stats"]["nodes"], 0);
}

/// A refutation of a goal of two pegs says that what lies below two pegs was not tried: it
/// called the two positions tried every position reachable, where a third, of one peg, is.
#[test]
fn a_refutation_names_the_positions_below_the_goal_s_pegs_as_not_tried() {
    let o = outcome(
        "rules: peg_hop\nboard: |\n  o . o o\ngoal:\n  pegs: 2\n  at: [0, 2]\n",
        1,
    );
    assert_eq!(
        o["reason"],
        "exhaustive search: none of the 2 positions tried reaches the goal; every other position \
         reachable from the start was ruled out by having fewer pegs than the goal"
    );
}

/// The fewest moves of a goal no line meets at all is refuted as `solve` refutes it: the
/// search by moves from both ends, on this sparse 66-hole board, passed 64 MB with no answer
/// where the depth-first search tries a few hundred positions.
#[test]
fn the_fewest_moves_to_a_goal_no_line_meets_is_refuted_by_the_plain_search() {
    let board = [
        "            .\n",
        "           . .\n",
        "          o . .\n",
        "         . o . .\n",
        "        o . . . .\n",
        "       o . . . . .\n",
        "      . . o . . . .\n",
        "     . o . . o . . .\n",
        "    . . . . . o . . .\n",
        "   o . . . o . . . o .\n",
        "  . . . . . . . . o . .\n",
    ]
    .concat();
    let o = outcome(
        &format!(
            "rules: triangle_hop\nboard: |2\n{board}goal:\n  pegs: 2\n  at: [10, 5]\n  moves: fewest\n\
             solve:\n  max_memory: 64MB\n"
        ),
        1,
    );
    assert_eq!(o["status"], "unsolvable", "{o}");
    let reason = o["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("exhaustive search: none of the ")
            && reason.ends_with(" reachable from the start"),
        "{reason}"
    );
}
