//! Every seed's own notation, through the built binary: the Lisp assignment's whole
//! `(peg-puzzle '… #f)` call, the depth-first-search write-up's −1/0/1 matrix, and its move
//! order given by direction names (`--order up,down,left,right`).

use crate::classic::{Sexp, board, one_jump, parse_sexp, pegs, run};
use crate::support::{Run, Test};
use serde_json::{Value, json};

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
    assert_eq!(
        crate::support::line(&out[0]).as_array().map(Vec::len),
        Some(4),
        "{out}"
    );
    let m = &crate::support::line(&out[0])[0];
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

/// The English board as the write-up's matrix, rows as lines.
const ENGLISH: &str = "\
-1 -1  1  1  1 -1 -1
-1 -1  1  1  1 -1 -1
 1  1  1  1  1  1  1
 1  1  1  0  1  1  1
 1  1  1  1  1  1  1
-1 -1  1  1  1 -1 -1
-1 -1  1  1  1 -1 -1
";

/// The same board as a YAML spec with the matrix's goal: one peg, anywhere.
const ENGLISH_YAML: &str = "name: english\nrules: peg_hop\nboard: |\n  # # o o o # #\n  # # o o o # #\n  o o o o o o o\n  o o o . o o o\n  o o o o o o o\n  # # o o o # #\n  # # o o o # #\ngoal:\n  pegs: 1\n";

/// The jumps of each answer of `marbles solve FILE --format json`, each counted in its line.
fn jumps_each(r: &Run) -> Vec<usize> {
    let out = r.json();
    let answers = out.as_array().unwrap_or_else(|| panic!("{out}"));
    answers
        .iter()
        .map(|o| crate::support::line(o).as_array().map_or(0, Vec::len))
        .collect()
}

/// The moves of each puzzle `marbles solve FILE --format json` answers.
fn moves_of(r: &Run) -> Vec<Value> {
    let out = r.json();
    out.as_array()
        .unwrap_or_else(|| panic!("{out}"))
        .iter()
        .map(|o| crate::support::line(o).clone())
        .collect()
}

#[test]
fn the_english_board_as_a_matrix_plain_or_bracketed_solves_as_its_yaml() {
    let json = |name: &str, text: &str| {
        let r = run(name, text, &["solve", name, "--format", "json"]).status(0);
        assert_eq!(r.json()[0]["rules"], "peg_hop");
        moves_of(&r)
    };
    let want = json("english.yaml", ENGLISH_YAML);
    assert_eq!(want[0].as_array().map(Vec::len), Some(31));
    assert_eq!(json("english.matrix", ENGLISH), want, "plain rows");
    let rows: Vec<String> = ENGLISH
        .lines()
        .map(|l| format!("[{}]", l.split_whitespace().collect::<Vec<_>>().join(",")))
        .collect();
    let bracketed = format!("[{}]", rows.join(","));
    assert!(
        bracketed.starts_with("[[-1,-1,1,1,1,-1,-1],[-1,-1,"),
        "{bracketed}"
    );
    assert_eq!(json("english.matrix", &bracketed), want, "bracketed");
    // --from matrix for a file named otherwise, and the shipped sample.
    let r = run(
        "board.txt",
        &bracketed,
        &["solve", "--from", "matrix", "board.txt", "--format", "json"],
    );
    assert_eq!(moves_of(&r.status(0)), want);
    let shipped = crate::support::root().join("puzzles/classic/english.matrix");
    let r = run(
        "x",
        "",
        &["solve", &shipped.display().to_string(), "--format", "json"],
    )
    .status(0);
    assert_eq!(moves_of(&r), want, "puzzles/classic/english.matrix");
}

#[test]
fn matrix_answers_read_back_one_puzzle_per_state() {
    let r = run(
        "english.matrix",
        ENGLISH,
        &["solve", "english.matrix", "--format", "matrix"],
    )
    .status(0);
    let answer = r.stdout.clone();
    let (head, states) = answer.split_once("\n\n").expect("a blank line after the verdict");
    assert!(
        head.starts_with("# english: ") && head.ends_with(" moves (31 jumps)"),
        "{head}"
    );
    assert!(
        states.starts_with(ENGLISH),
        "the start first, as written:\n{states}"
    );
    // Read back, the 32 states are 32 puzzles, each a state of a solution: 31, 30, … 0 jumps.
    let r = r
        .test
        .file("answer.matrix", &answer)
        .args(["solve", "answer.matrix", "--format", "json"])
        .run()
        .status(0);
    assert_eq!(jumps_each(&r), (0..=31).rev().collect::<Vec<_>>());

    // A triangle comes out lower-triangular and reads back as a triangle.
    let r = run("call.lisp", CALL, &["solve", "call.lisp", "--format", "matrix"]).status(0);
    assert!(
        r.stdout
            .starts_with("# call: 12 moves (13 jumps)\n\n 0\n 1  1\n 1  1  1\n"),
        "{}",
        r.stdout
    );
    let r = r
        .test
        .file("back.matrix", &r.stdout)
        .args(["solve", "back.matrix", "--format", "json"])
        .run()
        .status(0);
    let out = r.json();
    assert_eq!(out.as_array().map(Vec::len), Some(14));
    assert!(
        out.as_array()
            .unwrap()
            .iter()
            .all(|o| o["rules"] == "triangle_hop"),
        "{out}"
    );
}

#[test]
fn a_matrix_answer_is_a_rectangle_and_a_hexagon_has_none() {
    // The middle row is drawn short: its missing holes are written -1, so each state is a
    // rectangle, and the states read back as the same board.
    let ragged = "rules: peg_hop\nboard: |\n  o o . o\n  o o\n  . o o o\ngoal:\n  pegs: 4\n";
    let r = run("rag.yaml", ragged, &["solve", "rag.yaml", "--format", "matrix"]).status(0);
    let (_, states) = r
        .stdout
        .split_once("\n\n")
        .expect("a blank line after the verdict");
    let first = states.split("\n\n").next().unwrap();
    assert_eq!(first, " 1  1  0  1\n 1  1 -1 -1\n 0  1  1  1");
    let back = r
        .test
        .file("back.matrix", &r.stdout)
        .args(["solve", "back.matrix", "--format", "json"])
        .run()
        .no_panic();
    let v = back.json();
    assert_eq!(
        v.as_array().unwrap().len(),
        5,
        "the start and a state after each of 4 moves"
    );
    assert!(
        v.as_array().unwrap().iter().all(|o| o["status"] != "error"),
        "{v}"
    );
    // Holes drawn past spaces sit in their own columns (they were written left-packed, so
    // the states showed jumps no rule makes): the English board drawn with spaces reads back
    // with one puzzle per state, each one move shorter than the last.
    let gap = "rules: peg_hop\nboard: |\n  o o o o\n  o     o\n  o o . o\n  o o o o\ngoal:\n  pegs: fewest\n";
    let r = run("gap.yaml", gap, &["solve", "gap.yaml", "--format", "matrix"]).status(0);
    let first = r.stdout.split("\n\n").nth(1).unwrap();
    assert_eq!(first, " 1  1  1  1\n 1 -1 -1  1\n 1  1  0  1\n 1  1  1  1");
    let english = "rules: peg_hop\nboard: |2\n      o o o\n      o o o\n  o o o o o o o\n  o o o . o o o\n  o o o o o o o\n      o o o\n      o o o\n";
    let r = run("sp.yaml", english, &["solve", "sp.yaml", "--format", "matrix"]).status(0);
    let back = r
        .test
        .file("sp.matrix", &r.stdout)
        .args(["solve", "sp.matrix", "--format", "json"])
        .run()
        .status(0);
    assert_eq!(jumps_each(&back), (0..=31).rev().collect::<Vec<_>>());
    // A hexagon lies on the triangle lattice but is no triangle: no matrix reads back as it.
    let hexagon = "rules: triangle_hop\nboard: |2\n    o o o\n   o o o o\n  o o . o o\n   o o o o\n    o o o\ngoal:\n  pegs: 2\n";
    let r = run("hex.yaml", hexagon, &["solve", "hex.yaml", "--format", "matrix"]).status(2);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "marbles: error: hex.yaml: `hex` is drawn on the triangle lattice but its rows are not 1, 2, 3, … holes or `#` from the top; `--format matrix` writes square grids and such triangles only — use text, json or moves\n"
    );
}

#[test]
fn matrix_files_import_to_yaml_and_existing_specs_are_kept_unless_forced() {
    let r = Test::new()
        .file("english.matrix", ENGLISH)
        .args(["import", "english.matrix", "--out", "specs"])
        .run()
        .status(0);
    assert_eq!(r.stdout, "wrote specs/english.yaml\n");
    let yaml = std::fs::read_to_string(r.dir().join("specs/english.yaml")).unwrap();
    assert!(yaml.contains("rules: peg_hop\nboard: |2"), "{yaml}");
    let solved = |r: Run, file: &str| {
        let r = r.test.args(["solve", file, "--format", "json"]).run().status(0);
        let m = moves_of(&r);
        (r, m)
    };
    let (r, from_yaml) = solved(r, "specs/english.yaml");
    let (r, from_matrix) = solved(r, "english.matrix");
    assert_eq!(from_yaml, from_matrix);

    std::fs::write(r.dir().join("specs/english.yaml"), "kept").unwrap();
    let r = r
        .test
        .args(["import", "english.matrix", "--out", "specs"])
        .run()
        .status(2);
    assert_eq!(
        r.stderr,
        "marbles: error: specs/english.yaml: already exists; not overwritten (importing english.matrix): pass --force to replace it\n"
    );
    assert_eq!(
        std::fs::read_to_string(r.dir().join("specs/english.yaml")).unwrap(),
        "kept"
    );
    let r = r
        .test
        .args(["import", "english.matrix", "--out", "specs", "--force"])
        .run()
        .status(0);
    assert_eq!(
        std::fs::read_to_string(r.dir().join("specs/english.yaml")).unwrap(),
        yaml
    );
}

#[test]
fn malformed_matrices_name_file_line_and_column() {
    let cases = [
        (
            "-1 1 1\n 1 1\n",
            "m.matrix:2:2: row 2 has 2 entries; row 1 has 3, and a square grid's rows are all as long",
        ),
        (
            "[[1, 0], [0, 1]\n",
            "m.matrix:1:1: this `[` opening the matrix is never closed",
        ),
        (
            "1 0 1\n1 7 1\n",
            "m.matrix:2:3: `7` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
        (
            "\n\n",
            "m.matrix:1:1: no board: write a matrix of 1 (a peg), 0 (an empty hole) or -1 (no hole), one row per line",
        ),
        // Entries are written 1, 0 or -1 exactly: nothing is guessed for an empty one, a
        // float or a sign.
        (
            "1 0 1\n1,,1\n",
            "m.matrix:2:3: an entry is missing before this `,`: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
        (
            "[[1, 0], [0, 1.0]]\n",
            "m.matrix:1:14: `1.0` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
        (
            "1 0\n0 +1\n",
            "m.matrix:2:3: `+1` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
        (
            "[,1, 0]\n",
            "m.matrix:1:2: an entry is missing before this `,`: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
    ];
    for (text, message) in cases {
        let r = run("m.matrix", text, &["solve", "m.matrix"]).status(2);
        assert_eq!(r.stderr, format!("marbles: error: {message}\n"), "{text:?}");
    }
}

#[test]
fn a_broken_case_among_many_keeps_its_place_and_its_line() {
    // Case 3 starts with no peg: its goal cannot be met. Its message names its line and
    // case, its line of `--format moves` says `error`, and the cases around it are solved.
    let file = "((o) (x x) (x x x) (x x x x) (x x x x x))\n((x))\n((o))\n((x))\n";
    let r = run("many.lisp", file, &["solve", "many.lisp", "--format", "moves"]).status(2);
    assert_eq!(r.stdout, "12 moves\n0 moves\nerror\n0 moves\n");
    assert!(
        r.stderr
            .starts_with("marbles: error: many.lisp:3: many call 3: goal: 1 peg to leave"),
        "{}",
        r.stderr
    );
    let r = run("many.lisp", file, &["solve", "many.lisp", "--format", "lisp"]).status(2);
    assert_eq!(
        r.stdout
            .lines()
            .filter(|l| l.starts_with(';'))
            .collect::<Vec<_>>(),
        ["; error (see the message on stderr)"]
    );
}

#[test]
fn a_case_that_breaks_a_check_keeps_its_place_and_the_cases_after_it() {
    // Each file's second case is whole but breaks a check (a row too long, a letter that is
    // no peg, a board too wide, two marbles on one cell): its line says `error`, and the case
    // after it is still read and answered, in every notation.
    let lisp = "((o) (x x) (x x x) (x x x x) (x x x x x))\n";
    let icpc = "4 3 1\n0 1\n1 0\n1 2\n2 3\n2 1\n3 2\n1 1 1 2\n";
    for (name, text, fault) in [
        (
            "row.lisp",
            format!("{lisp}((o) (x x) (x x x x) (x x x x) (x x x x x))\n{lisp}"),
            "row.lisp:2:12: row call 2: row 3 has 4 entries; row 3 of a triangle has 3",
        ),
        (
            "letter.lisp",
            format!("{lisp}((o) (x x) (x q x) (x x x x) (x x x x x))\n{lisp}"),
            "letter.lisp:2:15: letter call 2: `q` in row 3 is neither x (a peg), o (an empty hole) nor - (no hole)",
        ),
        (
            "flag.lisp",
            format!("{lisp}(peg-puzzle '((o) (x x) (x x x)) #maybe)\n{lisp}"),
            "flag.lisp:2:34: flag call 2: the second argument of peg-puzzle is the trace flag, #t or #f; found `#maybe`",
        ),
        (
            "entry.matrix",
            "1 1 0\n\n1 2 0\n\n0 1 1\n".to_string(),
            "entry.matrix:3:3: entry board 2: `2` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)",
        ),
        (
            "row.matrix",
            "1 1 0\n\n1 1 0\n1 1\n\n0 1 1\n".to_string(),
            "row.matrix:4:1: row board 2: row 2 has 2 entries; row 1 has 3, and a square grid's rows are all as long",
        ),
        (
            "wide.icpc",
            format!("{icpc}41 1 0\n0 0\n40 40\n{icpc}0 0 0\n"),
            "wide.icpc:9:1: case 2: size 41 is out of range: tilt boards are 1 to 40 cells wide",
        ),
        (
            "shared.icpc",
            format!("{icpc}3 2 0\n0 0\n0 0\n1 1\n2 2\n{icpc}0 0 0\n"),
            "shared.icpc:11:1: case 2: marbles 1 and 2 share the cell [0, 0]",
        ),
    ] {
        let r = run(name, &text, &["solve", name, "--format", "moves"]).status(2);
        let answer = if name.ends_with("lisp") {
            "12 moves"
        } else if name.ends_with("icpc") {
            "5 moves"
        } else {
            "1 moves"
        };
        let last = if name.ends_with("matrix") {
            "1 moves"
        } else {
            answer
        };
        assert_eq!(r.stdout, format!("{answer}\nerror\n{last}\n"), "{name}");
        assert_eq!(r.stderr, format!("marbles: error: {fault}\n"), "{name}");
        run(name, &text, &["batch", name, "--no-report"])
            .status(2)
            .stdout_has("3 puzzles: 2 solved, 0 unsolvable, 0 gave up, 1 error");
    }
}

#[test]
fn a_case_that_does_not_parse_keeps_the_answers_before_it() {
    // Cases are read one at a time as they are solved: an unclosed last case ends the run
    // with its line and column, after the two cases before it were answered.
    let file = "((o) (x x) (x x x) (x x x x) (x x x x x))\n((x))\n((x x)\n";
    let r = run("end.lisp", file, &["solve", "end.lisp", "--format", "moves"]);
    assert_eq!(r.stdout, "12 moves\n0 moves\nerror\n");
    // (A first row of two entries starts a square board now, which is never closed.)
    assert_eq!(
        r.stderr,
        "marbles: error: end.lisp:3:1: this `(` opening the board is never closed\n"
    );
    // A wrong trace flag followed by a list: the text is not followed past it, and the flag,
    // the first fault, is what is said (not that the closed call is never closed).
    let file = "(peg-puzzle '((o) (x x) (x x x)) #maybe (x))\n((o))\n";
    let r = run("flag.lisp", file, &["solve", "flag.lisp", "--format", "moves"]).status(2);
    assert_eq!(r.stdout, "error\n");
    assert_eq!(
        r.stderr,
        "marbles: error: flag.lisp:1:34: the second argument of peg-puzzle is the trace flag, #t or #f; found \
         `#maybe` (the file is read no further: it goes on to line 2)\n"
    );
}

#[test]
fn a_lisp_answer_that_gave_up_is_not_false() {
    // `#f` is the notation's "no solution"; a search stopped by its node limit proved nothing.
    let r = run(
        "c.lisp",
        CALL,
        &["solve", "c.lisp", "--format", "lisp", "--max-nodes", "1"],
    )
    .status(1);
    assert_eq!(
        r.stdout,
        "; gave up (node limit (1 node)): not solved, not proven impossible\n"
    );
}

#[test]
fn a_name_with_a_line_break_stays_on_its_heading_line() {
    // A line break in a name would start a matrix row of its own in the `#` line.
    let yaml = "name: \"evil\\n1 1 0\\n\"\nrules: peg_hop\nboard: |\n  o o .\n";
    let r = run("n.yaml", yaml, &["solve", "n.yaml", "--format", "matrix"]).status(0);
    assert_eq!(
        r.stdout,
        "# evil\\u{a}1 1 0\\u{a}: 1 moves (1 jump)\n\n 1  1  0\n\n 0  0  1\n"
    );
    let back = r
        .test
        .file("n.matrix", &r.stdout)
        .args(["solve", "n.matrix", "--format", "moves"])
        .run()
        .status(0);
    assert_eq!(back.stdout, "1 moves\n0 moves\n");
    let r = run("n.yaml", yaml, &["solve", "n.yaml"]).status(0);
    assert!(
        r.stdout.starts_with("evil\\u{a}1 1 0\\u{a} (n.yaml, "),
        "{}",
        r.stdout
    );
}

/// Checks that the answer `r` printed, of `jumps` jumps, written to `name` and solved again,
/// is a puzzle for each of its states, of the family `rules`, each solved in the jumps left.
fn reads_back_as_its_states(r: Run, name: &str, rules: &str, jumps: usize) {
    let stdout = r.stdout.clone();
    let back = r
        .test
        .file(name, &stdout)
        .args(["solve", name, "--format", "json"])
        .run()
        .status(0);
    let out = back.json();
    let answers = out.as_array().unwrap();
    assert!(answers.iter().all(|o| o["rules"] == rules), "{out}");
    assert_eq!(jumps_each(&back), (0..=jumps).rev().collect::<Vec<_>>());
}

#[test]
fn a_matrix_answer_keeps_its_rule_family_and_an_unsolved_one_its_board() {
    // Read back, a diagonal_hop answer was 24 peg_hop puzzles: its 23-move states then had
    // other moves (or none). The answer names the family; the reader takes it.
    let square = crate::support::root().join("puzzles/diagonal_hop/square5_centre.yaml");
    let r = Test::new()
        .args(["solve", square.to_str().unwrap(), "--format", "matrix"])
        .run()
        .status(0);
    assert!(
        r.stdout
            .starts_with("# 5x5 diagonal: 21 moves (23 jumps)\n# rules: diagonal_hop\n\n 1  1  1  1  1\n"),
        "{}",
        r.stdout
    );
    reads_back_as_its_states(r, "back.matrix", "diagonal_hop", 23);

    // An unsolvable puzzle's answer wrote its heading alone: now its start, which reads back
    // as the same puzzle, unsolvable again. So does an answer that gave up.
    let apart = "rules: peg_hop\nboard: |\n  o . . o\n";
    let r = run(
        "apart.yaml",
        apart,
        &["solve", "apart.yaml", "--format", "matrix"],
    )
    .status(1);
    assert_eq!(r.stdout, "# apart: no solution\n\n 1  0  0  1\n");
    let back = r
        .test
        .file("apart.matrix", &r.stdout)
        .args(["solve", "apart.matrix", "--format", "moves"])
        .run()
        .status(1);
    assert_eq!(back.stdout, "No Solution\n");
    let r = run(
        "apart.yaml",
        "rules: peg_hop\nboard: |\n  o o . o\n",
        &["solve", "apart.yaml", "--format", "matrix", "--max-nodes", "0"],
    )
    .status(1);
    assert_eq!(
        r.stdout,
        "# apart: gave up (node limit (0 nodes))\n\n 1  1  0  1\n"
    );
}

#[test]
fn lisp_answers_of_square_boards_read_back_as_lisp() {
    // `--format lisp` draws a square board with `-` where there is no hole; the reader took
    // only triangles, so the answer could not be read back. Now each state is a puzzle.
    let english = crate::support::root().join("puzzles/peg_hop/english_central.yaml");
    let r = Test::new()
        .args(["solve", english.to_str().unwrap(), "--format", "lisp"])
        .run()
        .status(0);
    assert!(
        r.stdout
            .starts_with("(((- - x x x - -)\n  (- - x x x - -)\n  (x x x x x x x)\n"),
        "{}",
        r.stdout
    );
    reads_back_as_its_states(r, "back.lisp", "peg_hop", 31);
    // The triangle's answer reads back the same way, as triangles.
    let r = run("call.lisp", CALL, &["solve", "call.lisp", "--format", "lisp"]).status(0);
    let back = r
        .test
        .file("back.lisp", &r.stdout)
        .args(["solve", "back.lisp", "--format", "json"])
        .run()
        .status(0);
    assert_eq!(jumps_each(&back), (0..=13).rev().collect::<Vec<_>>());
}
