//! Every seed's own notation, through the built binary: the Lisp assignment's whole
//! `(peg-puzzle '… #f)` call, the depth-first-search write-up's −1/0/1 matrix, and its move
//! order given by direction names (`--order up,down,left,right`).

use crate::classic::{Sexp, board, one_jump, parse_sexp, pegs};
use crate::support::{Run, Test};
use serde_json::{Value, json};

/// Runs marbles in a fresh folder holding one file.
fn run(name: &str, contents: &str, args: &[&str]) -> Run {
    Test::new().file(name, contents).args(args).run().no_panic()
}

/// A row whose middle peg may jump left or right first; either way the last three pegs of
/// the column below finish it in four jumps.
const FORK: &str =
    "name: fork\nrules: peg_hop\nboard: |\n  . o o o .\n  # # o # #\n  # # o # #\n  # # . # #\n";

/// The first move of the first solution `--order order` finds, as `[from, to, dir]`.
fn first_move(order: &str) -> Value {
    let r = run(
        "fork.yaml",
        FORK,
        &["solve", "fork.yaml", "--order", order, "--format", "json"],
    )
    .status(0);
    let out = r.json();
    assert_eq!(out[0]["moves"].as_array().map(Vec::len), Some(4), "{out}");
    let m = &out[0]["moves"][0];
    json!([m["from"], m["to"], m["dir"]])
}

#[test]
fn direction_names_order_each_cells_moves() {
    // The write-up's order, which is also the peg_hop script's own.
    assert_eq!(first_move("up,down,left,right"), json!([[0, 2], [0, 0], "left"]));
    assert_eq!(first_move("script"), json!([[0, 2], [0, 0], "left"]));
    assert_eq!(first_move("right,left,up,down"), json!([[0, 2], [0, 4], "right"]));
    assert_eq!(first_move("down,up,right,left"), json!([[0, 2], [0, 4], "right"]));
}

#[test]
fn unknown_missing_or_repeated_direction_names_are_refused_with_the_familys_names() {
    let refused = |order: &str| {
        let r = run("fork.yaml", FORK, &["solve", "fork.yaml", "--order", order]).status(2);
        assert_eq!(r.stdout, "");
        r.stderr
    };
    let names = "the directions of peg_hop are up, down, left, right";
    assert_eq!(
        refused("up,down,north,right"),
        format!(
            "marbles: error: fork.yaml: --order up,down,north,right: unknown direction `north`: {names}\n"
        )
    );
    assert_eq!(
        refused("up,down"),
        format!("marbles: error: fork.yaml: --order up,down: left, right missing: {names}, each once\n")
    );
    assert_eq!(
        refused("up,up,left,right"),
        format!(
            "marbles: error: fork.yaml: --order up,up,left,right: `up` is named twice: {names}, each once\n"
        )
    );
    let r = run("fork.yaml", FORK, &["solve", "fork.yaml", "--order", "up,,down"]).status(2);
    assert!(
        r.stderr.contains("`up,,down` has an empty direction name"),
        "{}",
        r.stderr
    );
}

/// The assignment's call, exactly as its TA types it.
const CALL: &str = "(peg-puzzle '((o) (x x) (x x x) (x x x x) (x x x x x)) #f)";

/// The boards of a `--format lisp` answer, each checked to be one jump after the last and
/// the last to hold one peg.
fn replayed(answer: &Sexp) -> Vec<Vec<Vec<bool>>> {
    let Sexp::List(states) = answer else {
        panic!("not a list of states: {answer:?}")
    };
    let boards: Vec<_> = states.iter().map(board).collect();
    for (i, pair) in boards.windows(2).enumerate() {
        assert!(
            one_jump(&pair[0], &pair[1]),
            "states {i} and {} are not one jump apart",
            i + 1
        );
    }
    assert_eq!(boards.last().map(|b| pegs(b)), Some(1), "ends with one peg");
    boards
}

#[test]
fn the_assignments_exact_call_solves_in_thirteen_jumps_that_replay() {
    let r = run(
        "call.lisp",
        &format!("{CALL}\n"),
        &["solve", "call.lisp", "--format", "lisp"],
    )
    .status(0);
    assert_eq!(r.stderr, "", "#f: no trace");
    let boards = replayed(&parse_sexp(&r.stdout));
    assert_eq!(boards.len(), 14, "13 jumps");
    assert_eq!(
        boards[0],
        board(&parse_sexp("((o) (x x) (x x x) (x x x x) (x x x x x))"))
    );
}

#[test]
fn t_as_the_second_argument_traces_as_trace_does() {
    let traced = CALL.replace("#f)", "#t)");
    let r = run("call.lisp", &traced, &["solve", "call.lisp", "--format", "lisp"]).status(0);
    let flag = r.stderr.clone();
    assert!(
        flag.starts_with(
            "trace of call\nstart: o/xx/xxx/xxxx/xxxxx\n  1. [2, 0] over [1, 0] to [0, 0] (up-right)"
        ),
        "{flag}"
    );
    assert!(flag.contains("goal: 1 peg left after 13 moves"), "{flag}");
    replayed(&parse_sexp(&r.stdout));
    // The same lines as --trace on the #f call.
    let args = ["solve", "call.lisp", "--format", "lisp", "--trace"];
    let r = run("call.lisp", CALL, &args).status(0);
    assert_eq!(r.stderr, flag);
}

#[test]
fn a_file_of_two_calls_gives_two_answers_in_order() {
    let hopeless =
        "(peg-puzzle\n  '((o) (o o) (o o o) (o o o o) (x o o x x)) ; three pegs that never meet\n  #f)";
    let text = format!("; two calls\n{CALL}\n\n{hopeless}\n");
    let r = run("two.lisp", &text, &["solve", "two.lisp", "--format", "lisp"]).status(1);
    let Sexp::List(answers) = parse_sexp(&format!("({})", r.stdout)) else {
        unreachable!()
    };
    assert_eq!(answers.len(), 2, "{}", r.stdout);
    assert_eq!(replayed(&answers[0]).len(), 14);
    assert_eq!(answers[1], Sexp::Atom("#f".into()));
    assert!(r.stdout.ends_with("\n#f\n"), "{}", r.stdout);
}
