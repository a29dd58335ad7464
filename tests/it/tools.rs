//! A script author's tools: `marbles check x.rhai`, `marbles rules`, and the messages a
//! broken script or puzzle gets, each asserted word for word.

use crate::support::{Test, root};

/// A hop family that says what it does, and prints while it works.
const CHATTY: &str = "\
// chatty: pegs that only jump rightwards, printing as they go.
fn rules(board) {
    print(`cells: ${board.cells.len()}`);
    let moves = [];
    for cell in board.cells {
        let over = [cell[0], cell[1] + 1];
        let to = [cell[0], cell[1] + 2];
        if board.has(over[0], over[1]) && board.has(to[0], to[1]) {
            moves.push(#{ from: cell, over: over, to: to });
        }
    }
    debug(moves.len());
    #{ kind: \"hop\", directions: [\"right\"], moves: moves }
}
";

/// Runs `marbles ARGS` in a folder holding `files`; checks the exit code.
#[track_caller]
fn run(files: &[(&str, &str)], args: &[&str], code: i32) -> crate::support::Run {
    let mut t = Test::new();
    for (name, text) in files {
        t = t.file(name, text);
    }
    t.args(args).run().status(code).no_panic()
}

#[test]
fn a_script_alone_is_checked_on_a_sample_board_showing_what_it_printed() {
    let r = run(
        &[("rules/chatty.rhai", CHATTY)],
        &["check", "rules/chatty.rhai"],
        0,
    );
    assert_eq!(
        r.stdout,
        "ok    rules/chatty.rhai  on a sample 5×5 board: 25 holes, 24 pegs, 15 jumps, 2 symmetries\n"
    );
    assert_eq!(
        r.stderr,
        "rules/chatty.rhai: cells: 25\nrules/chatty.rhai: line 12: 15\n"
    );
}

#[test]
fn what_a_failing_script_printed_comes_before_its_error() {
    let broken = CHATTY.replace("moves: moves", "moves: moves, gaol: 1");
    let files = [
        ("rules/chatty.rhai", broken.as_str()),
        ("p.yaml", "rules: chatty\nboard: |\n  o o .\n"),
    ];
    let unknown = "the returned map has an unknown key `gaol`: did you mean `goal`? \
                   known keys are kind, layout, directions, moves, jumps, links, pieces, goal";
    let r = run(&files, &["check", "rules/chatty.rhai"], 2);
    assert_eq!(
        r.stderr,
        format!(
            "rules/chatty.rhai: cells: 25\nrules/chatty.rhai: line 12: 15\n\
             marbles: error: rules/chatty.rhai:13: {unknown} (on the sample hop and tilt boards alike)\n"
        )
    );
    let r = run(&files, &["solve", "p.yaml"], 2);
    assert_eq!(
        r.stderr,
        format!(
            "rules/chatty.rhai: cells: 3\nrules/chatty.rhai: line 12: 1\n\
             marbles: error: rules/chatty.rhai:13: {unknown}\n"
        )
    );
    // A script that throws: what it printed first, then where it failed.
    let throws = CHATTY.replace("debug(moves.len());", "moves[99].from;");
    let r = run(&[("t.rhai", throws.as_str())], &["check", "t.rhai"], 2);
    assert_eq!(
        r.stderr,
        "t.rhai: cells: 25\nmarbles: error: t.rhai:12:11: rule script failed: \
         Array index 99 out of bounds: only 15 elements in array (on a sample 5×5 board)\n"
    );
}

#[test]
fn a_tilt_script_whose_map_is_refused_is_not_said_to_fail_on_a_hop_board() {
    let tilt = "fn rules(board) {\n  #{ kind: \"tilt\", directions: [#{ name: \"up\", step: [-1, 0], speed: 2 }] }\n}\n";
    let r = run(&[("t.rhai", tilt)], &["check", "t.rhai"], 2);
    assert_eq!(
        r.stderr,
        "marbles: error: t.rhai:2: directions[0] has an unknown key `speed`: did you mean `step`? \
         known keys are name, step (on the sample hop and tilt boards alike)\n"
    );
}

#[test]
fn a_folder_named_like_a_script_is_not_one() {
    let r = run(&[("d.rhai/x.yaml", "")], &["check", "d.rhai"], 2);
    assert_eq!(
        r.stderr,
        "marbles: error: d.rhai: is a directory, not a rule script\n"
    );
}

#[test]
fn rules_and_check_show_a_script_s_words_without_terminal_controls() {
    let evil =
        "// evil: \u{1b}[2Jcleared\nfn rules(board) { #{ kind: \"hop\", directions: [], moves: [] } }\n";
    let files = [
        ("rules/evil\u{1b}.rhai", evil),
        ("p.yaml", "rules: peg_hop\nboard: |\n  o\n"),
    ];
    let r = run(&files, &["rules"], 0);
    let row = r.stdout.lines().find(|l| l.contains("evil")).unwrap();
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        [
            "evil\\u{1b}",
            "rules/evil\\u{1b}.rhai",
            "evil:",
            "\\u{1b}[2Jcleared"
        ]
    );
    let r = run(&files, &["check", "rules/evil\u{1b}.rhai"], 0);
    assert_eq!(
        r.stdout,
        "ok    rules/evil\\u{1b}.rhai  on a sample 5×5 board: 25 holes, 24 pegs, 0 jumps, 8 symmetries\n\
         warn  rules/evil\\u{1b}.rhai  the rules make no move on this board: no peg can ever move\n"
    );
}

#[test]
fn a_script_is_checked_on_every_puzzle_given_that_uses_it() {
    let r = run(
        &[
            ("p/rules/chatty.rhai", CHATTY),
            ("p/a.yaml", "rules: chatty\nboard: |\n  o o . o o .\n"),
            ("p/b.yaml", "rules: peg_hop\nboard: |\n  o o .\n"),
            ("p/c.yaml", "rules: rules/chatty.rhai\nboard: |\n  o o .\n"),
            // Found by name only through the folder `p`'s boundary: not this script.
            ("q/d.yaml", "rules: chatty\nboard: |\n  o o .\n"),
        ],
        &["check", "p/rules/chatty.rhai", "p", "q"],
        0,
    );
    assert_eq!(
        r.stdout,
        "ok    p/rules/chatty.rhai  on p/a.yaml: 6 holes, 4 pegs, 4 jumps, 1 symmetry\n\
         ok    p/rules/chatty.rhai  on p/c.yaml: 3 holes, 2 pegs, 1 jump, 2 symmetries\n"
    );
}

#[test]
fn a_tilt_family_is_checked_on_a_tilt_board() {
    let r = run(
        &[],
        &[
            "check",
            &format!("{}/rules/tilt_roll.rhai", env!("CARGO_MANIFEST_DIR")),
        ],
        0,
    );
    assert!(
        r.stdout
            .ends_with("tilt_roll.rhai  on a sample 4×4 tilt board: 4×4 board, 1 marble\n"),
        "{}",
        r.stdout
    );
}

/// The shipped rule folder checks clean: each family on a board of its own kind (a slide
/// family's robot drawn by its letter), one line each.
#[test]
fn every_shipped_family_checks_on_a_sample_board_of_its_kind() {
    let r = run(
        &[],
        &["check", &format!("{}/rules", env!("CARGO_MANIFEST_DIR"))],
        0,
    );
    assert!(
        r.stdout.contains(
            "ricochet.rhai  on a sample 5×5 board with one robot: 25 squares, 1 robot, 4 directions\n"
        ),
        "{}",
        r.stdout
    );
    let families = std::fs::read_dir(format!("{}/rules", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .count();
    assert_eq!(r.stdout.matches("\nok    ").count() + 1, families, "{}", r.stdout);
}

/// `marbles check puzzles rules`, as the README gives it, checks the scripts of `rules/` too:
/// each one no puzzle used, on a sample board (one that does not compile was passed over).
#[test]
fn check_of_puzzles_and_a_folder_of_scripts_checks_the_scripts_no_puzzle_uses() {
    let t = Test::new()
        .file("p/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("rules/broken.rhai", "fn rules(board) { this is not rhai\n")
        .args(["check", "p", "rules"])
        .run()
        .status(2)
        .stderr_has("marbles: error: rules/broken.rhai:1:");
    assert!(
        t.stdout.starts_with("ok    p/a.yaml  (peg_hop: 3 holes"),
        "{}",
        t.stdout
    );
}

/// A folder or a FIFO named like a script in a folder checked is said to be no script (the
/// FIFO never opened), not passed over.
#[test]
fn check_of_a_folder_names_what_is_named_like_a_script_and_is_none() {
    let t = Test::new().file(
        "rules/ok.rhai",
        &std::fs::read_to_string(root().join("rules/peg_hop.rhai")).unwrap(),
    );
    std::fs::create_dir(t.path("rules/dir.rhai")).unwrap();
    let fifo = std::ffi::CString::new(t.path("rules/f.rhai").into_os_string().into_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path; mkfifo touches nothing else.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    t.args(["check", "rules"])
        .run_bounded(std::time::Duration::from_secs(10), None)
        .held(512)
        .status(2)
        .stderr_has("marbles: error: rules/dir.rhai: is a directory, not a rule script\n")
        .stderr_has(
            "marbles: error: rules/f.rhai: is not a regular file (a FIFO, socket or device?); marbles reads rule scripts only\n",
        );
}

#[test]
fn rules_lists_each_family_where_it_is_found_and_its_first_comment() {
    let files = [
        ("puzzles/rules/chatty.rhai", CHATTY),
        (
            "rules/peg_hop.rhai",
            "// peg_hop: my own\nfn rules(board) { 1 }\n",
        ),
        ("puzzles/a.yaml", "rules: chatty\nboard: |\n  o o .\n"),
        // The project's top: lookups from below climb to its rules/ and no further.
        ("marbles.toml", ""),
    ];
    let r = run(&files, &["rules", "puzzles/a.yaml"], 0);
    let lines: Vec<&str> = r.stdout.lines().map(str::trim).collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["family", "from", "about"]
    );
    let row = |name: &str| -> Vec<String> {
        let l = lines.iter().find(|l| l.starts_with(name)).expect(name);
        l.split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(
        row("chatty"),
        [
            "chatty",
            "puzzles/rules/chatty.rhai",
            "pegs that only jump rightwards, printing as they go."
        ]
    );
    assert_eq!(
        row("peg_hop"),
        [
            "peg_hop",
            "rules/peg_hop.rhai (instead of the built-in)",
            "my own"
        ]
    );
    assert_eq!(row("tilt_roll")[..2], ["tilt_roll", "built in"]);
    assert_eq!(lines.len(), 10, "{}", r.stdout);
    // The folder lists what its puzzles find, up to the project's top: the folder named on
    // the command line bounds nothing (it once hid the top rules/ here).
    let r = run(&files, &["rules", "puzzles"], 0);
    let peg_hop = r
        .stdout
        .lines()
        .find(|l| l.trim().starts_with("peg_hop"))
        .unwrap();
    assert!(
        peg_hop.contains("rules/peg_hop.rhai (instead of the built-in)"),
        "{}",
        r.stdout
    );
}

/// `marbles check p.yaml` with `p.yaml` naming `rules/x.rhai`: the one error line.
#[track_caller]
fn refused(script: &str, message: &str) {
    let r = run(
        &[
            ("rules/x.rhai", script),
            ("p.yaml", "rules: x\nboard: |\n  o o .\n"),
        ],
        &["check", "p.yaml"],
        2,
    );
    assert_eq!(r.stderr, format!("marbles: error: {message}\n"));
}

#[test]
fn a_script_no_puzzle_given_uses_is_checked_on_a_sample_board_saying_so() {
    // The puzzle's `rules: triangle_hop` finds the built-in: no `rules/` folder beside it.
    let hexagon =
        std::fs::read_to_string(crate::support::root().join("puzzles/triangle_hop/hexagon19.yaml")).unwrap();
    let script = std::fs::read_to_string(crate::support::root().join("rules/triangle_hop.rhai")).unwrap();
    let r = run(
        &[
            ("rules/triangle_hop.rhai", &script),
            ("puz/hexagon19.yaml", &hexagon),
        ],
        &["check", "rules/triangle_hop.rhai", "puz/hexagon19.yaml"],
        0,
    );
    assert_eq!(
        r.stdout,
        "ok    rules/triangle_hop.rhai  on a sample 5×5 board: 25 holes, 24 pegs, 78 jumps, 4 symmetries\n"
    );
    assert_eq!(
        r.stderr,
        "marbles: note: none of the puzzles given use rules/triangle_hop.rhai (they use \
         <builtin>/triangle_hop.rhai); checked on a sample board\n"
    );
}

#[test]
fn a_folder_of_scripts_alone_checks_its_scripts() {
    let r = run(
        &[
            ("rules/chatty.rhai", CHATTY),
            ("rules/notes.txt", "not a script\n"),
        ],
        &["check", "rules/"],
        0,
    );
    assert_eq!(
        r.stdout,
        "ok    rules/chatty.rhai  on a sample 5×5 board: 25 holes, 24 pegs, 15 jumps, 2 symmetries\n"
    );
}

#[test]
fn an_unclosed_brace_is_reported_where_it_opens() {
    refused(
        "fn rules(board) {\n  let m = [];\n  for c in board.cells {\n    m.push(c);\n\n  #{ kind: \"hop\" }\n}\n",
        "rules/x.rhai:3:24: rule script does not compile: this `{` is never closed",
    );
    // The last statement a map without `;`, as in the shipped scripts: Rhai asks for the `;`.
    refused(
        "fn rules(board) {\n    #{ kind: \"hop\", directions: [\"r\"], moves: [] }\n",
        "rules/x.rhai:1:17: rule script does not compile: this `{` is never closed",
    );
}

#[test]
fn a_bad_value_is_shown_at_the_line_that_wrote_it() {
    refused(
        "fn rules(board) {\n  let m = [];\n  for c in board.cells {\n    m.push(#{ from: c, over: [c[0], \"x\"], to: c });\n  }\n  #{ kind: \"hop\", directions: [], moves: m }\n}\n",
        "rules/x.rhai:4: moves[0].over must be a cell [row, col] of two integers, not [0, \"x\"]",
    );
    refused(
        "fn rules(board) {\n  #{ kind: \"hop\",\n     directions: [],\n     moves: [], goal: #{ pegs: -2 } }\n}\n",
        "rules/x.rhai:4: goal.pegs must be a whole number from 1 to 4294967295, not -2",
    );
    refused(
        "fn rules(board) {\n  #{ kind: \"hop\",\n     directions: [],\n     moves: [], goal: #{ pegs: 9223372036854775807 } }\n}\n",
        "rules/x.rhai:4: goal.pegs must be a whole number from 1 to 4294967295, not 9223372036854775807",
    );
    refused(
        "fn rules(board) {\n  #{ kind: 3 }\n}\n",
        "rules/x.rhai:2: kind must be a string, not 3",
    );
    // A misspelt field read from a map is `()`: the refusal names the entry it stands in.
    refused(
        "fn rules(board) {\n  let d = #{ name: \"r\" };\n  #{ kind: \"hop\", directions: [\"r\"],\n     jumps: [#{ dir: d.nam, from: [0, 0], over: [0, 1], to: [0, 2] }] }\n}\n",
        "rules/x.rhai:4: jumps[0].dir must be a string, not ()",
    );
}

#[test]
fn two_links_from_one_square_one_way_conflict() {
    let script = "fn rules(board) {\n  #{ kind: \"tilt\", directions: [#{ name: \"left\", step: [0, -1] }],\n     links: [#{ dir: \"left\", from: [0, 2], to: [0, 1] },\n             #{ dir: \"left\", from: [0, 2], to: [0, 0] }] }\n}\n";
    let r = run(
        &[
            ("rules/x.rhai", script),
            (
                "p.yaml",
                "rules: x\nsize: 3\nmarbles: [[0, 2]]\nholes: [[0, 0]]\n",
            ),
        ],
        &["check", "p.yaml"],
        2,
    );
    assert_eq!(
        r.stderr,
        "marbles: error: rules/x.rhai:3: links[0] and links[1] both lead a marble at [0, 2] rolling left: to [0, 1] and to [0, 0]; a square has at most one link each way\n"
    );
}

#[test]
fn goals_the_board_cannot_meet_are_errors() {
    let cases = [
        (
            "rules: tilt_roll\nsize: 3\nmarbles: [[0, 0]]\nholes: [[2, 2]]\ngoal:\n  pegs: 1\n",
            "p.yaml:5: a tilt puzzle takes no `goal:`: it is always every marble in its own hole",
        ),
        (
            "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  pegs: 5\n",
            "p.yaml:5: goal: 5 pegs to leave, but the board holds only 3 holes",
        ),
        (
            "rules: peg_hop\nboard: |\n  o . .\ngoal:\n  pegs: 2\n",
            "p.yaml:5: goal: 2 pegs to leave, but the board starts with 1 peg and a jump only removes pegs",
        ),
        (
            "rules: peg_hop\nboard: |\n  . . .\n",
            "p.yaml:2: goal: 1 peg to leave (rule family `peg_hop`'s default), but the board \
             starts with 0 pegs and a jump only removes pegs",
        ),
    ];
    for (spec, message) in cases {
        let r = run(&[("p.yaml", spec)], &["solve", "p.yaml"], 2);
        assert_eq!(r.stderr, format!("marbles: error: {message}\n"));
    }
}

#[test]
fn one_marble_and_a_tilt_puzzle_solved_from_the_start_read_right() {
    let spec = "rules: tilt_roll\nsize: 3\nmarbles: [[0, 0]]\nholes: [[0, 0]]\n";
    let r = run(&[("p.yaml", spec)], &["check", "p.yaml"], 0);
    assert_eq!(r.stdout, "ok    p.yaml  (tilt_roll: 3×3 board, 1 marble)\n");
    let r = run(&[("p.yaml", spec)], &["solve", "p.yaml"], 0);
    assert!(
        r.stdout.starts_with(
            "p (p.yaml, <builtin>/tilt_roll.rhai)\nalready solved: every marble starts in its own hole\n"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn a_hop_puzzle_that_starts_at_its_goal_is_already_solved() {
    let spec = "rules: peg_hop\nboard: |\n  . o .\n";
    let r = run(&[("p.yaml", spec)], &["solve", "p.yaml"], 0);
    assert!(
        r.stdout.starts_with(
            "p (p.yaml, <builtin>/peg_hop.rhai)\nalready solved: the start meets the goal, 1 peg left"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn the_sandbox_limits_documented_are_the_ones_a_script_meets() {
    let r = run(
        &[(
            "rules/big.rhai",
            "fn rules(board) {\n  let s = \"x\";\n  loop { s += s; }\n}\n",
        )],
        &["check", "rules/big.rhai"],
        2,
    );
    let limits = r
        .stderr
        .split_once("limits: ")
        .and_then(|(_, l)| l.split_once(')'))
        .unwrap_or_else(|| panic!("no limits in {}", r.stderr))
        .0;
    assert_eq!(
        limits,
        "200000 array items, 100000 map entries, 262144 string bytes"
    );
    let docs = std::fs::read_to_string(crate::support::root().join("docs/rules.md")).unwrap();
    let row = "| array items / map entries / string bytes, each a total over one value | ";
    let documented: Vec<String> = docs
        .lines()
        .find_map(|l| l.strip_prefix(row))
        .unwrap_or_else(|| panic!("docs/rules.md has no row {row}"))
        .split(" | ")
        .next()
        .unwrap()
        .split(" / ")
        .map(|n| n.replace(',', ""))
        .collect();
    let met: Vec<&str> = limits.split(", ").map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(documented, met);
}

#[test]
fn a_default_goal_the_sample_board_cannot_meet_is_the_scripts_line() {
    let script =
        "fn rules(board) {\n  #{ kind: \"hop\", directions: [], moves: [],\n     goal: #{ pegs: 30 } }\n}\n";
    let r = run(&[("rules/x.rhai", script)], &["check", "rules/x.rhai"], 2);
    assert_eq!(
        r.stderr,
        "marbles: error: rules/x.rhai:3: goal: 30 pegs to leave (rule family `x`'s default), but the board starts \
         with 24 pegs and a jump only removes pegs (on a sample 5×5 board)\n"
    );
}

/// `rules` says of each `*.rhai` what `solve` would: a FIFO is named, never opened (the
/// listing would wait on it), and a script too long to compile says so, with the limit.
#[test]
fn rules_names_a_fifo_and_a_script_too_long_as_solve_would() {
    let t = Test::new()
        .file("rules/long.rhai", &format!("// long: {}\n", "x".repeat(70_000)))
        .file("marbles.toml", "");
    let fifo = std::ffi::CString::new(t.path("rules/pipe.rhai").to_str().unwrap()).unwrap();
    // SAFETY: a path of our own temporary folder.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let dir = t.path("");
    let out = Test::new()
        .in_dir(&dir)
        .args(["rules"])
        .run_bounded(std::time::Duration::from_secs(20), None)
        .held(200)
        .status(0)
        .stdout;
    let row = |name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in\n{out}"))
            .split_whitespace()
            .skip(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        row("pipe"),
        "(not a rule script: it is a FIFO (named pipe); not opened)"
    );
    assert_eq!(
        row("long"),
        "(too long: 70010 bytes; a rule script may have 65536 at most)"
    );
}
