//! Every seed's own notation, through the built binary: the Lisp assignment's whole
//! `(peg-puzzle '… #f)` call, the depth-first-search write-up's −1/0/1 matrix, and its move
//! order given by direction names (`--order up,down,left,right`).

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
