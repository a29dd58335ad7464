//! The classic notations end to end, through the built binary: Lisp peg lists, ICPC Marble
//! Game files, search traces, `marbles import`, and reproducible shuffles.

use crate::support::{Run, Test, root};
use std::path::PathBuf;

/// The ICPC World Finals 2007 "Marble Game" sample input, both cases (the second impossible:
/// hole 2 at (2, 0) is walled off from above and from the right). Checked against the problem
/// statement reproduced in the README of the public repository arsulegai/Marble-Game.
const OFFICIAL: &str =
    "4 3 1\n0 1\n1 0\n1 2\n2 3\n2 1\n3 2\n1 1 1 2\n3 2 2\n0 0\n0 1\n0 2\n2 0\n2 0 1 0\n2 0 2 1\n0 0 0\n";
/// The classroom version: the first case alone, without the closing `0 0 0`.
const CLASSROOM: &str = "4 3 1\n0 1\n1 0\n1 2\n2 3\n2 1\n3 2\n1 1 1 2\n";
/// The assignment's example start.
const TRIANGLE: &str = "((o) (x x) (x x x) (x x x x) (x x x x x))\n";
/// Three pegs along the bottom that can never meet.
const HOPELESS: &str = "((o) (o o) (o o o) (o o o o) (x o o x x))\n";
/// A peg_hop board whose search meets a dead end, backs up, skips a position known to fail,
/// and reaches the goal in three jumps.
const CORNER: &str = "name: corner\nrules: peg_hop\nboard: |\n  . . . .\n  o o o .\n  o . . .\n";

/// Runs marbles in a fresh folder holding one file.
pub fn run(name: &str, contents: &str, args: &[&str]) -> Run {
    Test::new().file(name, contents).args(args).run().no_panic()
}

#[test]
fn official_icpc_sample_gives_the_judges_output() {
    let r = run(
        "sample.icpc",
        OFFICIAL,
        &["solve", "sample.icpc", "--format", "icpc"],
    )
    .status(1);
    assert_eq!(r.stdout, "Case 1: 5 moves\n\nCase 2: impossible\n\n");
    let r = run(
        "sample.icpc",
        OFFICIAL,
        &["solve", "sample.icpc", "--format", "moves"],
    );
    assert_eq!(r.stdout, "5 moves\nNo Solution\n");
}

/// The contest's boards go to 40 × 40 (they were refused past 15; `limits` tests the bound):
/// marble 2 rolls up the last column into its hole at the top, then marble 1 down column 0
/// into its own.
#[test]
fn the_contest_s_widest_boards_are_solved() {
    let case = "40 2 0\n0 0\n39 39\n39 0\n0 39\n0 0 0\n";
    let r = run("wide.icpc", case, &["solve", "wide.icpc", "--format", "icpc"]).status(0);
    assert_eq!(r.stdout, "Case 1: 2 moves\n\n");
    let r = run("wide.icpc", case, &["solve", "wide.icpc", "--format", "json"]).status(0);
    assert_eq!(
        r.json()[0]["moves"],
        serde_json::json!([{ "tilt": "up" }, { "tilt": "down" }])
    );
}

/// The search keeps a state in a word when its marbles fit (5 bits a cell on 4 × 4, 11 on
/// 40 × 40), in two words past 64 bits, boxed past 128: each way gives the fewest tilts. Case 1,
/// 10 marbles on 15 × 15 (80 bits), has its 27 from an independent breadth-first search (a
/// Python one, written from the problem statement); case 2, 20 marbles on 10 × 10 (140 bits),
/// drops all twenty with one tilt down, each row-1 marble into the first hole below it.
#[test]
fn many_marbles_are_kept_however_many_bits_they_take() {
    let eighty = "15 10 30\n13 4\n4 14\n14 2\n1 6\n0 4\n10 1\n5 3\n7 3\n6 7\n9 0\n13 14\n9 14\n14 14\n14 6\n14 9\n14 11\n10 14\n8 3\n11 14\n12 14\n0 0 1 0\n0 9 0 10\n1 1 1 2\n1 1 2 1\n1 5 2 5\n1 6 1 7\n1 11 2 11\n2 1 3 1\n2 2 3 2\n2 9 2 10\n2 11 2 12\n2 14 3 14\n4 7 4 8\n4 10 5 10\n4 13 5 13\n5 2 6 2\n7 3 7 4\n7 6 7 7\n7 8 7 9\n8 3 9 3\n8 4 9 4\n8 5 9 5\n9 1 10 1\n9 4 10 4\n9 7 10 7\n10 11 10 12\n11 5 12 5\n12 0 12 1\n12 7 13 7\n13 5 14 5\n";
    // Marbles 1–10 on row 1, 11–20 on row 0; holes 1–10 on row 8, 11–20 on row 9.
    let twenty: String = [1, 0, 8, 9]
        .iter()
        .flat_map(|row| (0..10).map(move |k| format!("{row} {k}\n")))
        .fold(String::from("10 20 0\n"), |all, line| all + line.as_str());
    let file = format!("{eighty}{twenty}0 0 0\n");
    let r = run("many.icpc", &file, &["solve", "many.icpc", "--format", "icpc"]).status(0);
    assert_eq!(r.stdout, "Case 1: 27 moves\n\nCase 2: 1 moves\n\n");
}

#[test]
fn classroom_sample_without_end_marker_gives_five_moves() {
    // Not named .icpc: --from says what it is.
    let args = ["solve", "--from", "icpc", "marbles.txt", "--format", "moves"];
    let r = run("marbles.txt", CLASSROOM, &args).status(0);
    assert_eq!(r.stdout, "5 moves\n");
}

/// A tiny s-expression: an atom or a list.
#[derive(Debug, Clone, PartialEq)]
pub enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

pub fn parse_sexp(text: &str) -> Sexp {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let mut toks = spaced.split_whitespace();
    let s = read_sexp(&mut toks);
    assert_eq!(toks.next(), None, "text after the answer");
    s
}

fn read_sexp<'a>(toks: &mut impl Iterator<Item = &'a str>) -> Sexp {
    match toks.next().expect("unexpected end of answer") {
        "(" => {
            let mut items = Vec::new();
            loop {
                let s = match read_sexp(toks) {
                    Sexp::Atom(a) if a == ")" => return Sexp::List(items),
                    s => s,
                };
                items.push(s);
            }
        }
        atom => Sexp::Atom(atom.to_string()),
    }
}

/// A state as rows of pegs (true) and holes (false).
pub fn board(s: &Sexp) -> Vec<Vec<bool>> {
    let Sexp::List(rows) = s else {
        panic!("a state is a list of rows: {s:?}")
    };
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let Sexp::List(items) = row else {
                panic!("a row is a list: {row:?}")
            };
            assert_eq!(items.len(), r + 1, "row {r} of a triangle");
            items
                .iter()
                .map(|i| match i {
                    Sexp::Atom(a) if a == "x" => true,
                    Sexp::Atom(a) if a == "o" => false,
                    other => panic!("not x or o: {other:?}"),
                })
                .collect()
        })
        .collect()
}

pub fn pegs(b: &[Vec<bool>]) -> usize {
    b.iter().flatten().filter(|&&p| p).count()
}

/// True when `after` follows from `before` by one jump on the triangular lattice.
pub fn one_jump(before: &[Vec<bool>], after: &[Vec<bool>]) -> bool {
    let at = |b: &[Vec<bool>], r: i64, c: i64| {
        (r >= 0 && c >= 0)
            .then(|| b.get(r as usize)?.get(c as usize).copied())
            .flatten()
    };
    let dirs = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)];
    let changed: Vec<(i64, i64)> = (0..before.len() as i64)
        .flat_map(|r| (0..=r).map(move |c| (r, c)))
        .filter(|&(r, c)| at(before, r, c) != at(after, r, c))
        .collect();
    changed.len() == 3
        && changed.iter().any(|&(r, c)| {
            dirs.iter().any(|&(dr, dc)| {
                at(before, r, c) == Some(true)
                    && at(before, r + dr, c + dc) == Some(true)
                    && at(before, r + 2 * dr, c + 2 * dc) == Some(false)
                    && at(after, r, c) == Some(false)
                    && at(after, r + dr, c + dc) == Some(false)
                    && at(after, r + 2 * dr, c + 2 * dc) == Some(true)
            })
        })
}

/// `(quote …)` is the long form of `'…`: the same call, the same answer (it was refused,
/// and the file read no further).
#[test]
fn a_call_may_quote_its_board_either_way() {
    let board = "((o) (x x) (x x x) (x x x x) (x x x x x))";
    let answer = |file: &str| {
        run("q.lisp", file, &["solve", "q.lisp", "--format", "lisp"])
            .status(0)
            .stdout
    };
    let short = answer(&format!("(peg-puzzle '{board} #f)\n"));
    assert!(short.starts_with("(((o)\n  (x x)\n"), "{short}");
    let both = answer(&format!(
        "(peg-puzzle (quote {board}) #f)\n(peg-puzzle '{board} #f)\n"
    ));
    assert_eq!(both, format!("{short}{short}"));
}

#[test]
fn lisp_answer_is_fourteen_states_each_one_jump_apart() {
    let r = run(
        "start.lisp",
        TRIANGLE,
        &["solve", "start.lisp", "--format", "lisp"],
    )
    .status(0);
    assert!(
        r.stdout.starts_with("(((o)\n  (x x)\n"),
        "one row per line:\n{}",
        r.stdout
    );
    let Sexp::List(states) = parse_sexp(&r.stdout) else {
        panic!("not a list: {}", r.stdout)
    };
    let boards: Vec<_> = states.iter().map(board).collect();
    assert_eq!(boards.len(), 14);
    assert_eq!(boards[0], board(&parse_sexp(TRIANGLE)));
    for (i, b) in boards.iter().enumerate() {
        assert_eq!(pegs(b), 14 - i, "state {i}");
    }
    for (i, pair) in boards.windows(2).enumerate() {
        assert!(
            one_jump(&pair[0], &pair[1]),
            "states {i} and {} are not one jump apart",
            i + 1
        );
    }
}

#[test]
fn hopeless_lisp_start_prints_false() {
    let r = run(
        "hopeless.lsp",
        HOPELESS,
        &["solve", "hopeless.lsp", "--format", "lisp"],
    )
    .status(1);
    assert_eq!(r.stdout, "#f\n");
}

#[test]
fn lisp_text_answer_draws_lisp_rows_and_marks_the_moved_peg() {
    let r = run("start.lisp", TRIANGLE, &["solve", "start.lisp"]).status(0);
    let out = r.stdout;
    assert!(
        out.contains("solved in 12 moves (13 jumps), 1 peg left (genius)"),
        "{out}"
    );
    let (start, moves) = out.split_once("\nmove 1: ").expect("a first move");
    assert!(
        start.ends_with("start:\n    ((o)\n     (x x)\n     (x x x)\n     (x x x x)\n     (x x x x x))\n")
    );
    let first = moves.split("\njump 2: ").next().unwrap();
    assert_eq!(first.matches('X').count(), 1, "one moved peg marked:\n{first}");
}

#[test]
fn trace_shows_tries_dead_ends_skips_and_the_goal() {
    let r = run(
        "corner.yaml",
        CORNER,
        &["solve", "corner.yaml", "--trace", "--format", "moves"],
    )
    .status(0);
    assert_eq!(r.stdout, "3 moves\n", "the answer alone on stdout");
    let expected = [
        "trace of corner",
        "start: ..../ooo./o...",
        "  1. [1, 1] over [1, 2] to [1, 3] (right) → ..../o..o/o...",
        "    2. [2, 0] over [1, 0] to [0, 0] (up) → o.../...o/....",
        "      dead end: take back move 2",
        "    dead end: take back move 1",
        "  1. [2, 0] over [1, 0] to [0, 0] (up) → o.../.oo./....",
        "    2. [1, 1] over [1, 2] to [1, 3] (right) → o.../...o/....: known to fail, skipped",
        "    2. [1, 2] over [1, 1] to [1, 0] (left) → o.../o.../....",
        "      3. [0, 0] over [1, 0] to [2, 0] (down) → ..../..../o...",
        "        goal: 1 peg left after 3 moves",
    ];
    let lines: Vec<&str> = r.stderr.lines().collect();
    for (i, (got, want)) in lines.iter().zip(expected).enumerate() {
        assert_eq!(*got, want, "trace line {}", i + 1);
    }
    assert_eq!(lines.len(), expected.len(), "{}", r.stderr);

    let args = [
        "solve",
        "corner.yaml",
        "--trace",
        "--trace-limit",
        "3",
        "--format",
        "moves",
    ];
    let r = run("corner.yaml", CORNER, &args).status(0);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines[..3], expected[..3]);
    assert_eq!(
        lines[3..],
        ["… trace cut after 3 lines (raise --trace-limit to see more)"]
    );
    assert_eq!(r.stdout, "3 moves\n");
}

#[test]
fn trace_uses_lisp_letters_for_lisp_puzzles() {
    let args = ["solve", "hopeless.lisp", "--trace", "--format", "lisp"];
    let r = run("hopeless.lisp", HOPELESS, &args).status(1);
    assert_eq!(
        r.stderr,
        "trace of hopeless\n\
         start: o/oo/ooo/oooo/xooxx\n  \
         1. [4, 4] over [4, 3] to [4, 2] (left) → o/oo/ooo/oooo/xoxoo\n    \
         dead end: take back move 1\n  \
         dead end at the start: every move has been tried\n"
    );
    assert_eq!(r.stdout, "#f\n");
}

/// The paths `marbles import` says it wrote, relative to the run's folder.
fn written(r: &Run) -> Vec<PathBuf> {
    r.stdout
        .lines()
        .map(|l| PathBuf::from(l.strip_prefix("wrote ").expect("wrote PATH")))
        .collect()
}

/// Runs marbles again in the folder of an earlier run.
fn again(r: Run, args: &[&str]) -> Run {
    r.test.args(args).run().no_panic()
}

#[test]
fn imported_specs_solve_to_the_same_answers() {
    let r = Test::new()
        .file("sample.icpc", OFFICIAL)
        .file("start.lisp", TRIANGLE)
        .args(["import", "sample.icpc", "start.lisp", "--out", "specs"])
        .run()
        .status(0);
    let yaml = [
        "specs/sample_case1.yaml",
        "specs/sample_case2.yaml",
        "specs/start.yaml",
    ];
    assert_eq!(written(&r), yaml.map(PathBuf::from));
    let text = std::fs::read_to_string(r.dir().join(yaml[2])).unwrap();
    assert!(
        text.contains("rules: triangle_hop") && text.contains("3: \"mental midget\""),
        "{text}"
    );

    let original = again(r, &["solve", "sample.icpc", "--format", "icpc"]).status(1);
    let want = original.stdout.clone();
    let from_yaml = again(original, &["solve", yaml[0], yaml[1], "--format", "icpc"]).status(1);
    assert_eq!(from_yaml.stdout, want);

    let original = again(from_yaml, &["solve", "start.lisp", "--format", "lisp"]).status(0);
    assert!(original.stdout.starts_with("(((o)"), "{}", original.stdout);
    let want = original.stdout.clone();
    let from_yaml = again(original, &["solve", yaml[2], "--format", "lisp"]).status(0);
    assert_eq!(from_yaml.stdout, want);
}

#[test]
fn malformed_files_name_file_and_line_and_exit_2() {
    let cases = [
        (
            "bad.lisp",
            "((o)\n (x x x)\n (x x x))\n",
            "bad.lisp:2:2: row 2 has 3 entries; row 2 of a triangle has 2",
        ),
        (
            "bad.icpc",
            "4 3 1\n0 1\n1 0\n1 2\n2 3\n2 1\n3 z\n",
            "bad.icpc:7:3: expected the column of hole 3 (case 1), a whole number, found `z`",
        ),
    ];
    for (name, text, message) in cases {
        for args in [&["solve", name][..], &["import", name, "--out", "never"][..]] {
            let r = run(name, text, args).status(2);
            assert_eq!(r.stderr, format!("marbles: error: {message}\n"), "{args:?}");
            assert_eq!(r.stdout, "");
            assert!(
                !r.dir().join("never").exists(),
                "nothing imported, no folder made"
            );
        }
    }
}

#[test]
fn shuffle_seed_is_reproducible_and_seeds_differ() {
    let solve = |seed: &str| {
        let board = root().join("puzzles/peg_hop/english_central.yaml");
        let board = board.display().to_string();
        let r = Test::new()
            .args(["solve", board.as_str(), "--shuffle", "--seed", seed])
            .run()
            .status(0);
        assert!(r.stdout.contains(" moves (31 jumps), 1 peg left"), "{}", r.stdout);
        r.stdout
    };
    let first = solve("1");
    assert_eq!(first, solve("1"), "the same seed, the same solution");
    assert_ne!(first, solve("9"), "another seed, another solution");
}

/// Tilt boards are checked once, against the model's limits, whichever notation gives them:
/// a 41-wide board is refused with the same words from YAML and from ICPC.
#[test]
fn tilt_limits_read_the_same_from_yaml_and_icpc() {
    let why = "size 41 is out of range: tilt boards are 1 to 40 cells wide";
    let yaml = "rules: tilt_roll\nsize: 41\nmarbles: [[0, 0]]\nholes: [[1, 1]]\n";
    run("big.yaml", yaml, &["check", "big.yaml"])
        .status(2)
        .stderr_has(&format!("big.yaml:2: {why}"));
    run("big.icpc", "41 1 0\n0 0\n1 1\n", &["check", "big.icpc"])
        .status(2)
        .stderr_has(&format!("big.icpc:1:1: case 1: {why}"));
    let many = "rules: tilt_roll\nsize: 2\nmarbles: [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0]]\nholes: [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0]]\n";
    run("many.yaml", many, &["check", "many.yaml"])
        .status(2)
        .stderr_has("many.yaml:3: 5 marbles: a 2×2 tilt board takes 1 to 4");
}

#[test]
fn count_reads_the_classic_notations_as_the_other_commands_do() {
    // The Lisp triangle with its apex empty: 29,760 games to one peg, as its YAML twin counts.
    Test::new()
        .in_root()
        .args(["count", "puzzles/classic/peg_puzzle.lisp"])
        .run()
        .status(0)
        .stdout_has("solutions (jump sequences to the goal): 29760\n");
    Test::new()
        .in_root()
        .args(["count", "puzzles/classic/peg_puzzle.lisp", "--case", "2"])
        .run()
        .status(2)
        .stderr_has("puzzles/classic/peg_puzzle.lisp: there is no case 2 (it holds 1)\n");
    // A file of several says which it counted: the second, apex empty, is the one above.
    const APEX: &str = "((o) (x x) (x x x) (x x x x) (x x x x x))";
    Test::new()
        .file(
            "two.lisp",
            &format!("((x) (x x) (x o x) (x x x x) (x x x x x))\n{APEX}\n"),
        )
        .args(["count", "two.lisp", "--case", "2"])
        .run()
        .status(0)
        .stdout_has("solutions (jump sequences to the goal): 29760\n")
        .stderr_has("marbles: note: two.lisp holds 2 puzzles; counting case 2 (`--case K` picks another)\n");
    // A file that is not there says so, whatever case is asked.
    Test::new()
        .args(["count", "gone.yaml", "--case", "2"])
        .run()
        .status(2)
        .stderr_has("gone.yaml: cannot read: no such file\n");
}

/// A case of a file of several that cannot be read is its own row, named as the case, in
/// every report: named by the file's stem, its JUnit testcase had the name of the file's
/// other errors, and a row of the table no case.
#[test]
fn an_error_row_of_a_many_case_file_is_named_by_its_case() {
    let t = Test::new()
        .file(
            "mixed.icpc",
            "2 1 0\n0 0\n1 1\n2 1 0\n5 5\n1 1\n2 1 0\n0 0\n1 1\n0 0 0\n",
        )
        .file(
            "two.lisp",
            "((o) (x x) (x x x) (x x x x) (x x x x x))\n((o) (x y))\n",
        );
    let csv = t.args(["batch", ".", "--format", "csv"]).run().status(2).stdout;
    let rows: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(4).skip(1).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(
        rows,
        [
            "mixed case 1,tilt_roll,solved",
            "mixed case 2,,error",
            "mixed case 3,tilt_roll,solved",
            "two call 1,triangle_hop,solved",
            "two call 2,,error"
        ],
        "{csv}"
    );
}

/// A file of many cases past the 1 MiB a puzzle file may be: `solve`, holding one case at a
/// time, answers every case; `batch`, holding a file's results until it is done, refuses it
/// and says what to do.
#[test]
fn solve_reads_a_file_of_many_cases_past_a_puzzle_file_s_size() {
    let cases = 85_000;
    let text = format!("{}0 0 0\n", "2 1 0\n0 0\n1 1\n".repeat(cases));
    assert!(text.len() > 1 << 20);
    let t = || Test::new().file("big.icpc", &text);
    let out = t()
        .args(["solve", "big.icpc", "--format", "icpc"])
        .run()
        .status(0)
        .stdout;
    let answers: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(answers.len(), cases);
    assert_eq!(answers[cases - 1], format!("Case {cases}: 2 moves"));
    let v = t()
        .args(["batch", ".", "--no-report", "--format", "json"])
        .run()
        .status(2)
        .json();
    assert_eq!(
        v["results"][0]["error"],
        format!(
            "./big.icpc: is {} bytes; puzzle files are limited to 1048576 bytes (a file of many cases \
             may be split into several, which `batch` solves as a folder; `solve` reads one of up to \
             268435456 bytes, a case at a time)",
            text.len()
        )
    );
}

/// A matrix is read a line at a time into tokens held until it ends: a line longer than any
/// board's, or a matrix of more tokens than any board, is refused where it passes the bound.
#[test]
fn a_matrix_past_any_board_is_refused_where_it_passes_the_bound() {
    let refused = |text: String, said: &str| {
        Test::new()
            .file("m.matrix", &text)
            .args(["check", "m.matrix"])
            .run()
            .status(2)
            .stderr_has(said);
    };
    refused(
        format!("{}\n", "1 ".repeat(150_000)),
        "m.matrix:1:1: a line of 300000 bytes; a matrix's lines are at most 262144\n",
    );
    refused(
        "1\n".repeat(40_000),
        "m.matrix:32769:2: this matrix runs past 65536 brackets, entries and line ends; a drawn board has at most 4096 holes\n",
    );
}
