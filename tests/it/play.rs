//! `marbles play`: a person's moves through stdin, checked, undone, and finished by the solver.

use crate::support::{Test, root};

/// Plays a shipped `file` with `input` on stdin; returns (exit code, stdout).
fn play(file: &str, input: &str) -> (Option<i32>, String) {
    play_in(&root(), file, input)
}

fn play_in(dir: &std::path::Path, file: &str, input: &str) -> (Option<i32>, String) {
    let run = Test::new().in_dir(dir).args(["play", file]).stdin(input).run();
    (run.code, run.stdout)
}

/// The ICPC sample's five tilts, on the shipped copy of its board.
const ICPC_WIN: &str = "l\nd\nu\nr\nd\n";

#[test]
fn the_icpc_solution_played_by_hand_drops_every_marble_home() {
    let (code, out) = play("puzzles/tilt_roll/four_by_four.yaml", ICPC_WIN);
    assert_eq!(code, Some(0));
    assert!(
        out.ends_with("3 of 3 marbles home\nsolved: every marble is home\n"),
        "{out}"
    );
}

/// Piped, lines after the winning move are said to be left unplayed (they were dropped
/// without a word); a blank line is no command.
#[test]
fn lines_after_a_won_game_are_said_to_be_unplayed() {
    let (code, out) = play(
        "puzzles/tilt_roll/four_by_four.yaml",
        &format!("{ICPC_WIN}undo\n\nmoves\n"),
    );
    assert_eq!(code, Some(0));
    assert!(
        out.ends_with("solved: every marble is home\nthe game is won: 2 more lines of input not played\n"),
        "{out}"
    );
}

#[test]
fn illegal_moves_are_explained_and_the_board_is_unchanged() {
    let (code, out) = play(
        "puzzles/triangle_hop/corner.yaml",
        "4 0 4 4\n9 9 0 0\n4 0 4 2\nup\nquit\n",
    );
    assert_eq!(code, Some(1));
    // Each command of a hop game is one jump (a move is one peg's chain of them).
    assert!(
        out.starts_with("Triangle corner (triangle_hop): type a jump, or `help`\n"),
        "{out}"
    );
    assert!(
        out.contains("no jump goes from [4, 0] to [4, 4] on this board\n"),
        "{out}"
    );
    assert!(out.contains("[9, 9] is not a hole of this board\n"), "{out}");
    assert!(out.contains("not now: [4, 2] is not empty\n"), "{out}");
    // Only what stands in the way is named: here the hole jumped over, not the peg jumping.
    let (_, over) = play("puzzles/peg_hop/english_central.yaml", "1 3 3 3\n3 3 1 3\nquit\n");
    assert!(
        over.contains("not now: [2, 3], the hole jumped over, is empty\n"),
        "{over}"
    );
    assert!(
        out.contains("`up` is not a jump: write `R C R2 C2` (from, to), or `help`\n"),
        "{out}"
    );
    assert_eq!(out.matches("14 pegs").count(), 1, "no move was made: {out}");
}

/// Two jumps from [0, 0] to [0, 2]: over [0, 1], or down and round over [1, 1].
pub(crate) const TWO_WAYS: &str = r#"fn rules(board) {
    #{ kind: "hop", layout: "square", directions: ["top", "bottom"],
       jumps: [
         #{ dir: "top", from: [0, 0], over: [0, 1], to: [0, 2] },
         #{ dir: "bottom", from: [0, 0], over: [1, 1], to: [0, 2] },
       ],
       goal: #{ pegs: 1 } }
}
"#;

#[test]
fn jumps_between_the_same_two_holes_are_told_apart_by_the_pegs_they_take() {
    let t = Test::new()
        .file("two.rhai", TWO_WAYS)
        .file("one.yaml", "rules: ./two.rhai\nboard: |\n  o . .\n  # o #\n")
        .file("both.yaml", "rules: ./two.rhai\nboard: |\n  o o .\n  # o #\n");
    // Only the jump over [1, 1] is legal: it is the one made, as `solve` prints it.
    let (code, out) = play_in(&t.path(""), "one.yaml", "0 0 0 2\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.ends_with("    . . *\n    # . #\n1 peg\nsolved: 1 peg left\n"),
        "{out}"
    );
    // Both are legal: marbles asks which, and takes the one named.
    let (code, out) = play_in(&t.path(""), "both.yaml", "0 0 0 2\n0 0 0 2 over 1 1\nquit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "2 jumps go from [0, 0] to [0, 2] here: over [0, 1] or over [1, 1]; say which, as `0 0 0 2 over 0 1`\n"
        ),
        "{out}"
    );
    assert!(out.contains("    . o *\n    # . #\n2 pegs\n"), "{out}");
    // The holes taken may be named in any order.
    let t = Test::new()
        .file(
            "long.rhai",
            "fn rules(board) {\n  #{ kind: \"hop\", directions: [\"r\"], jumps: [#{ dir: \"r\", from: [0, 0], \
             over: [[0, 1], [0, 2]], to: [0, 3] }] }\n}\n",
        )
        .file("row.yaml", "rules: ./long.rhai\nboard: |\n  o o o .\n");
    let (code, out) = play_in(&t.path(""), "row.yaml", "0 0 0 3 over 0 2 0 1\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("1 peg\nsolved: 1 peg left\n"), "{out}");
}

#[test]
fn a_fewest_pegs_game_is_won_by_the_pegs_left_when_no_move_is() {
    let t = Test::new().file(
        "f.yaml",
        "rules: diagonal_hop\nboard: |\n  o o . . # o .\ngoal:\n  pegs: fewest\n",
    );
    let (code, out) = play_in(&t.path(""), "f.yaml", "0 0 0 2\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.ends_with("2 pegs\nsolved: 2 pegs left, no moves left\n"),
        "{out}"
    );
    // A start already at its goal is won before any move.
    for (goal, end) in [("fewest", ", no moves left"), ("2", "")] {
        let t = Test::new().file(
            "s.yaml",
            &format!("rules: peg_hop\nboard: |\n  o . o\ngoal:\n  pegs: {goal}\n"),
        );
        let (code, out) = play_in(&t.path(""), "s.yaml", "");
        assert_eq!(code, Some(0), "{out}");
        assert!(
            out.ends_with(&format!("2 pegs\nsolved: 2 pegs left{end}\n")),
            "{out}"
        );
    }
}

#[test]
fn moves_undo_and_the_solver_taking_over() {
    let (code, out) = play(
        "puzzles/triangle_hop/corner.yaml",
        "moves\n2 0 0 0\nundo\n2,2 0,0\nhint\nsolve\n",
    );
    assert_eq!(code, Some(0));
    assert!(
        out.contains("  [2, 0] over [1, 0] to [0, 0] (up-right)\n  [2, 2] over [1, 1] to [0, 0] (up-left)\n"),
        "{out}"
    );
    // After the undo the board is the start again, then the other first jump is made.
    assert_eq!(out.matches("14 pegs").count(), 2, "{out}");
    assert!(out.contains("        *\n       o .\n      o o .\n"), "{out}");
    assert!(out.contains("try: "), "{out}");
    assert!(
        out.contains("solved from here in 11 moves (12 jumps), 1 peg left (genius)"),
        "{out}"
    );
}

/// A move typed as `moves` and `hint` write it is read (it was "no list of holes"), and
/// commands are read in any case.
#[test]
fn a_move_is_read_as_a_hint_writes_it_and_commands_in_any_case() {
    let (code, out) = play(
        "puzzles/triangle_hop/corner.yaml",
        "[2, 0] over [1, 0] to [0, 0] (up-right)\nUNDO\nUndo\nHint\nQUIT\n",
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("        *\n       . o\n      . o o\n"), "{out}");
    assert_eq!(out.matches("14 pegs").count(), 2, "{out}");
    assert!(out.contains("nothing to undo\ntry: "), "{out}");
    let (code, out) = play(
        "puzzles/hoppers/hoppers_corner.yaml",
        "G [0, 0] to [4, 0], taking [2, 0] (down)\nquit\n",
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("9 pieces (8 G, 1 R)\n"), "{out}");
    let (code, out) = play_slide("R [0, 0] to [0, 1] (right)\nq\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("is not a slide"), "{out}");
}

#[test]
fn a_dead_end_says_so_and_the_solver_agrees() {
    // Two pegs that cannot meet: no move, and no solution from here.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.yaml"), "rules: peg_hop\nboard: |\n  o . . o\n").unwrap();
    let (code, out) = play_in(dir.path(), "p.yaml", "moves\nsolve\n");
    assert_eq!(code, Some(1));
    assert!(out.contains("no legal moves\n"), "{out}");
    assert!(out.contains("no solution from here"), "{out}");
}

#[test]
fn a_hint_on_a_lost_position_counts_the_undos_back_to_a_winnable_one() {
    let lost = "2 0 0 0\n2 2 2 0\n4 2 2 2\n";
    let (_, out) = play("puzzles/triangle_hop/corner.yaml", &format!("{lost}hint\n"));
    assert!(
        out.ends_with("no solution from here: lost; 1 undo reaches a winnable position\n"),
        "{out}"
    );
    let (_, out) = play(
        "puzzles/triangle_hop/corner.yaml",
        &format!("{lost}4 4 4 2\nhint\n"),
    );
    assert!(
        out.ends_with("no solution from here: lost; 2 undos reach a winnable position\n"),
        "{out}"
    );
}

#[test]
fn a_lost_hint_does_not_call_a_position_lost_when_the_solver_gave_up_on_it() {
    // 500 nodes prove this position lost but not the one before it either way.
    let run = Test::new()
        .in_root()
        .args(["play", "puzzles/triangle_hop/corner.yaml", "--max-nodes", "500"])
        .stdin("2 0 0 0\n2 2 2 0\n4 2 2 2\n4 4 4 2\nhint\n")
        .run();
    assert!(
        run.stdout.ends_with(
            "no solution from here: lost; the solver gave up on the position 1 undo back \
             (node limit (500 nodes))\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn a_tilt_that_moves_no_marble_is_refused_not_counted() {
    let (code, out) = play("puzzles/tilt_roll/four_by_four.yaml", "l\nl\nd\nu\nr\nd\n");
    assert_eq!(code, Some(0));
    assert!(
        out.contains("tilting left moves no marble: not a move\n"),
        "{out}"
    );
    assert_eq!(
        out.matches("of 3 marbles home").count(),
        6,
        "start + 5 tilts: {out}"
    );
}

#[test]
fn a_line_that_is_not_text_is_a_bad_line_and_the_game_goes_on() {
    let mut input = b"\xff\xfe 4 0\n".to_vec();
    input.extend_from_slice(b"2 0 0 0\nquit\n");
    let run = Test::new()
        .in_dir(&root())
        .args(["play", "puzzles/triangle_hop/corner.yaml"])
        .stdin_bytes(&input)
        .run()
        .no_panic()
        .status(1);
    assert!(
        run.stdout
            .contains("that line is not text (UTF-8): write a move, or `help`\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("13 pegs"),
        "the next line was played: {}",
        run.stdout
    );
}

#[test]
fn a_long_bad_line_is_quoted_short() {
    // Within the longest line play reads (4096 bytes); longer ones are refused unread.
    let garbage = "x".repeat(4000);
    let (code, out) = play("puzzles/triangle_hop/corner.yaml", &format!("{garbage}\nquit\n"));
    assert_eq!(code, Some(1));
    assert!(
        out.contains(&format!(
            "`{}…` is not a jump: write `R C R2 C2` (from, to), or `help`\n",
            "x".repeat(80)
        )),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(
        out.len() < 4_000,
        "the line is not echoed whole: {} bytes",
        out.len()
    );
}

#[test]
fn a_hint_searches_ten_seconds_unless_told_otherwise() {
    // Diamond 41, top tip vacant, to one peg anywhere: far more than a hint's time to decide
    // (release: no answer in 20 s). The 9×9 square used here before is now solved by the
    // beams in under a second.
    let yaml = crate::support::diamond41_from_tip();
    let hint = |extra: &[&str]| {
        let mut args = vec!["play", "big.yaml"];
        args.extend(extra);
        let run = Test::new()
            .file("big.yaml", &yaml)
            .args(args)
            .stdin("hint\n")
            .run()
            .no_panic()
            .status(1);
        run.stdout.lines().last().unwrap_or_default().to_string()
    };
    assert_eq!(hint(&[]), "the solver gave up from here: time limit (10.000 s)");
    assert_eq!(
        hint(&["--timeout", "0.5"]),
        "the solver gave up from here: time limit (0.500 s)"
    );
}

#[test]
fn a_line_of_any_length_is_refused_without_being_kept() {
    let mut input = vec![b'a'; 20 << 20];
    input.extend_from_slice(b"\nundo\nquit\n");
    let run = Test::new()
        .in_root()
        .args(["play", "puzzles/peg_hop/english_central.yaml"])
        .stdin_bytes(&input)
        .run();
    // Quit unsolved: exit 1, as any game left unfinished.
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("that line is too long (over 4096 bytes): write a move, or `help`\n"),
        "{}",
        &run.stdout[..run.stdout.len().min(2000)]
    );
    // The game went on after it, and nothing of the line was echoed.
    assert!(run.stdout.contains("nothing to undo"), "{}", run.stdout.len());
    assert!(
        run.stdout.len() < 64 << 10,
        "{} bytes of output",
        run.stdout.len()
    );
}

/// Frogs and Toads 3 + 3: the 15 moves of `marbles solve`'s answer, one a line.
const FROGS_15: &str = "0 2 0 3\n0 4 0 2\n0 5 0 4\n0 3 0 5\n0 1 0 3\n0 0 0 1\n0 2 0 0\n0 4 0 2\n\
                        0 6 0 4\n0 5 0 6\n0 3 0 5\n0 1 0 3\n0 2 0 1\n0 4 0 2\n0 3 0 4\n";

#[test]
fn frogs_and_toads_played_by_hand_swap_sides_in_15_moves() {
    let (code, out) = play("puzzles/frogs_toads/frogs_toads_3.yaml", FROGS_15);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.starts_with(
            "Frogs and Toads, 3 + 3 (frogs_toads): type a move, or `help`\n    F F F . T T T\n\
             6 pieces (3 F, 3 T)\n    F F . F T T T\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("    T T T . F F F\n6 pieces (3 F, 3 T)\nsolved in 15 moves: 6 pieces (3 F, 3 T)\n"),
        "{out}"
    );
}

#[test]
fn pieces_of_kinds_list_their_moves_and_refuse_illegal_ones_exactly() {
    let (code, out) = play(
        "puzzles/frogs_toads/frogs_toads_3.yaml",
        "moves\n0 4 0 2\n0 0 0 4\n9 9 0 0\n0 2\nleft\n0 2 0 3\n0 2 0 3\n0 6 0 5\nmoves\nquit\n",
    );
    assert_eq!(code, Some(1));
    let replies: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("    ") && !l.ends_with("pieces (3 F, 3 T)"))
        .skip(1)
        .collect();
    assert_eq!(
        replies,
        [
            "  F [0, 2] to [0, 3] (right)",
            "  T [0, 4] to [0, 3] (left)",
            "not now: the T at [0, 4] cannot go to [0, 2] as the board stands",
            "no move goes from [0, 0] to [0, 4] on this board",
            "[9, 9] is not a hole of this board",
            "a move is four numbers: R C R2 C2 (from [R, C] to [R2, C2])",
            "`left` is not a move: write `R C R2 C2` (from, to), or `help`",
            "not now: [0, 2] holds no piece",
            "not now: the T at [0, 6] cannot go to [0, 5] as the board stands",
            "  F [0, 1] to [0, 2] (right)",
            "  T [0, 4] to [0, 2] (left)",
        ],
        "{out}"
    );
    // One move was made: the start and the board after it.
    assert_eq!(out.matches("6 pieces (3 F, 3 T)").count(), 2, "{out}");
}

#[test]
fn hoppers_hint_undo_and_the_solver_finishing() {
    let (code, out) = play(
        "puzzles/hoppers/hoppers_corner.yaml",
        "hint\n0 0 4 4\n0 0 0 4\nundo\nundo\nsolve\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("\ntry: G [0, 0] to [4, 0], taking [2, 0] (down)\n"),
        "{out}"
    );
    assert!(
        out.contains("no move goes from [0, 0] to [4, 4] on this board\n"),
        "{out}"
    );
    assert!(
        out.contains("\n    . # . # G\n    # . # G #\n    G # G # G\n"),
        "{out}"
    );
    assert!(out.contains("9 pieces (8 G, 1 R)\n"), "{out}");
    assert!(out.contains("nothing to undo\n"), "{out}");
    assert!(out.contains("solved in 9 moves, 1 piece left\n"), "{out}");
    assert!(
        out.ends_with("    R # . # .\n    # . # . #\n    . # . # .\n    # . # . #\n    . # . # .\n"),
        "{out}"
    );
}

#[test]
fn a_move_limit_and_a_fewest_goal_decide_a_game_of_pieces() {
    // Three moves swap one frog and one toad; the goal allows two.
    let yaml = "rules: frogs_toads\nboard: |\n  F . T\ngoal:\n  board: |\n    T . F\n  moves: 2\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.yaml"), yaml).unwrap();
    let (code, out) = play_in(dir.path(), "p.yaml", "0 0 0 1\n0 2 0 0\n0 1 0 2\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.ends_with(
            "the goal, but in 3 moves: this puzzle allows 2. `undo`, `restart`, or `solve` to see what marbles would do\n"
        ),
        "{out}"
    );
    // The fewest pieces: won once no move is left and the rest of the goal holds.
    let yaml = "rules: hoppers\nboard: |\n  G # G # .\n  # . # . #\n  . # . # R\ngoal:\n  pegs: fewest\n";
    std::fs::write(dir.path().join("f.yaml"), yaml).unwrap();
    let (code, out) = play_in(dir.path(), "f.yaml", "moves\n0 0 0 4\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("\n  G [0, 0] to [0, 4], taking [0, 2] (right)\n"),
        "{out}"
    );
    assert!(
        out.ends_with("solved in 1 move: 2 pieces (1 G, 1 R), no moves left\n"),
        "{out}"
    );
}

#[test]
fn a_bad_line_is_quoted_with_its_control_characters_escaped() {
    // An escape sequence that would set the terminal's title and colour what follows, quoted
    // as typed (its `[`s part words, as in a move written `[2, 0] [0, 0]`, but not the quote).
    let (code, out) = play(
        "puzzles/triangle_hop/corner.yaml",
        "\u{1b}]0;owned\u{7}\u{1b}[31m 1 2\nquit\n",
    );
    assert_eq!(code, Some(1));
    assert!(
        out.contains(
            "`\\u{1b}]0;owned\\u{7}\\u{1b}[31m 1 2` is not a jump: write `R C R2 C2` (from, to), or `help`\n"
        ),
        "{out}"
    );
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    // A tilt puzzle quotes a bad direction the same way.
    let (_, out) = play("puzzles/tilt_roll/four_by_four.yaml", "\u{1b}[2J\nquit\n");
    assert!(out.contains("`\\u{1b}[2J` is not a tilt: write one of"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out:?}");
}

#[test]
fn names_from_a_script_are_escaped_in_every_line_play_writes() {
    // A direction named with an escape sequence, shown by `moves` and `hint`.
    let t = Test::new()
        .file(
            "rules/dn.rhai",
            "fn rules(board) {\n  #{ kind: \"hop\", layout: \"square\", directions: [\"r\\x1b[32m\"],\n     \
             moves: [#{ dir: \"r\\x1b[32m\", from: [0, 0], over: [0, 1], to: [0, 2] }], goal: #{ pegs: 1 } }\n}\n",
        )
        .file("p.yaml", "rules: dn\nboard: |\n  o o .\n");
    let run = t.args(["play", "p.yaml"]).stdin("moves\nhint\nquit\n").run();
    assert!(run.stdout.contains("(r\\u{1b}[32m)"), "{}", run.stdout);
    assert!(run.stdout.contains("try: "), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{1b}'), "{:?}", run.stdout);
}

/// Three robot squares a side: a wall right of [0, 1] and one below [1, 2]; the red robot
/// to [2, 1].
const SLIDE: &str = "rules: ricochet\nboard: |\n  R . .\n  . . .\n  . . Y\n\
                     walls: [[[0, 1], [0, 2]], [[1, 2], [2, 2]]]\ngoal:\n  reach: [2, 1]\n  piece: R\n";

/// Plays [`SLIDE`] with `input`; returns (exit code, stdout).
fn play_slide(input: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.yaml"), SLIDE).unwrap();
    play_in(dir.path(), "p.yaml", input)
}

#[test]
fn a_slide_puzzle_is_played_to_its_goal_by_typed_slides_the_walls_stopping_them() {
    let (code, out) = play_slide("moves\n0 0 0 1\nundo\n0,0 0,1\n0 1 2 1\n");
    assert_eq!(code, Some(0));
    // The walls drawn, and each stopping a robot: the red one at [0, 1], the yellow one at once.
    assert!(
        out.starts_with(
            "p (ricochet): type a move, or `help`\n    R .|.\n    . . .\n       ---\n    . + Y\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "  R [0, 0] to [0, 1] (right)\n  R [0, 0] to [2, 0] (down)\n  Y [2, 2] to [2, 0] (left)\n"
        ),
        "{out}"
    );
    assert!(!out.contains("(up)"), "{out}");
    assert_eq!(
        out.matches("    . R|.\n").count(),
        2,
        "a slide, its undo, the slide again: {out}"
    );
    assert!(
        out.ends_with("    . .|.\n    . . .\n       ---\n    . R Y\ngoal: R robot on [2, 1]\nsolved in 2 moves: R robot on [2, 1]\n"),
        "{out}"
    );
}

#[test]
fn a_slide_that_stops_elsewhere_is_refused_with_where_the_robot_does_stop() {
    let (code, out) = play_slide("0 0 0 2\n1 1 2 1\n2 2 0 2\n9 9 0 0\nquit\n");
    assert_eq!(code, Some(1));
    assert!(
        out.contains(
            "no slide stops the R robot at [0, 0] on [0, 2]: it stops at [0, 1] (right), [2, 0] (down)\n"
        ),
        "{out}"
    );
    assert!(out.contains("not now: [1, 1] holds no robot\n"), "{out}");
    assert!(out.contains("[9, 9] is not a square of this board\n"), "{out}");
    assert!(
        out.contains("no slide stops the Y robot at [2, 2] on [0, 2]: it stops at [2, 0] (left)\n"),
        "{out}"
    );
    assert_eq!(
        out.matches("goal: R robot on [2, 1]").count(),
        1,
        "no move was made: {out}"
    );
}

#[test]
fn solve_finishes_a_slide_puzzle_from_the_start() {
    let (code, out) = play_slide("solve\n");
    assert_eq!(code, Some(0));
    assert!(
        out.contains("solved in 2 moves, proven the fewest, R robot on [2, 1]\n"),
        "{out}"
    );
    assert!(
        out.contains("1. R [0, 0] to [0, 1] (right)\n") && out.contains("2. R [0, 1] to [2, 1] (down)\n"),
        "{out}"
    );
}

/// Piped, Ctrl-C stops a long `hint` and the game goes on (it ended the session without a
/// word, the position lost); between searches it still ends the session, exit 130, as SIGTERM
/// and SIGHUP do at any time.
#[test]
fn ctrl_c_stops_a_hint_and_the_game_goes_on() {
    use std::io::{BufRead as _, Read as _, Write as _};
    use std::process::Stdio;
    let t = Test::new().file("d.yaml", &crate::support::diamond41_from_tip());
    // `play` with `commands` written once its heading is out (its signals are handled by
    // then), SIGINT after `wait`, then `more`: its exit code and what it printed.
    let session = |commands: &[u8], wait: u64, more: &[u8], signal: i32| {
        let mut c = t.command();
        c.args(["play", "d.yaml", "--timeout", "60"]);
        let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut printed = String::new();
        stdout.read_line(&mut printed).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(commands).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(wait));
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let _ = stdin.write_all(more);
        drop(stdin);
        stdout.read_to_string(&mut printed).unwrap();
        (child.wait().unwrap().code(), printed)
    };
    let (code, printed) = session(b"hint\n", 1000, b"undo\nquit\n", libc::SIGINT);
    assert!(
        printed.contains("hint stopped (Ctrl-C): the game goes on\nnothing to undo\n"),
        "{printed}"
    );
    assert_eq!(code, Some(1), "{printed}");
    // Waiting for a line, a signal ends the session, exit 130 whichever it is (SIGTERM gave
    // 143 and SIGHUP 129); SIGTERM and SIGHUP end it during a hint too: they mean the session.
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let (code, printed) = session(b"", 200, b"", signal);
        assert_eq!(code, Some(130), "{signal}: {printed}");
    }
    let (code, printed) = session(b"hint\n", 1000, b"undo\nquit\n", libc::SIGTERM);
    assert!(!printed.contains("stopped"), "{printed}");
    assert_eq!(code, Some(130), "{printed}");
}

#[test]
fn play_help_lists_the_commands_of_every_kind_of_puzzle() {
    let help = Test::new().args(["play", "--help"]).run().status(0).stdout;
    for line in [
        "hop puzzles:\n  R C R2 C2      jump the peg at [R, C] to [R2, C2]",
        "tilt puzzles:\n  up down left right (or u d l r)\n",
        "sliding robots:\n  R C R2 C2      slide the robot at [R, C]",
        "  undo           take back the last move\n",
    ] {
        assert!(help.contains(line), "{line}\n{help}");
    }
}
