//! `marbles play`'s line-by-line game driven in memory: moves, help, `solve`, the prompt.

use marbles::cmd::ExitCode;
use marbles::cmd::play::{HOP_MOVE, PIECES_MOVE, TILT_MOVE, play};
use marbles::solve::{self, Options};
use std::path::Path;

/// Plays a shipped puzzle with `input` as the player's lines; the exit code and the screen.
fn play_with(puzzle: &str, input: &str, prompt: bool) -> (ExitCode, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(puzzle);
    let p = solve::prepare(&path, &Options::default()).expect("shipped puzzle");
    let mut out = Vec::new();
    let code = play(&p, &Options::default(), input.as_bytes(), &mut out, prompt).unwrap();
    (code, String::from_utf8(out).unwrap())
}

#[test]
fn tilting_every_marble_home_wins() {
    let (code, out) = play_with("puzzles/tilt_roll/four_by_four.yaml", "l\nd\nu\nr\nd\n", false);
    assert_eq!(code, ExitCode::Solved);
    assert!(out.ends_with("solved: every marble is home\n"), "{out}");
}

#[test]
fn quitting_early_is_not_a_win() {
    let (code, out) = play_with("puzzles/triangle_hop/corner.yaml", "moves\nquit\n", false);
    assert_eq!(code, ExitCode::Unsolved);
    assert!(out.contains("  [2, 0] over [1, 0] to [0, 0]"), "{out}");
}

#[test]
fn solve_finishes_the_game_and_wins() {
    let (code, out) = play_with("puzzles/triangle_hop/corner.yaml", "solve\n", false);
    assert_eq!(code, ExitCode::Solved);
    assert!(
        out.contains("\nsolved in ") && out.contains("\nstart:\n"),
        "{out}"
    );
    assert!(!out.contains("from here"), "{out}");
    // After a jump of the player's, the count is from where the game stands, and said so.
    let (code, out) = play_with("puzzles/triangle_hop/corner.yaml", "2 0 0 0\nsolve\n", false);
    assert_eq!(code, ExitCode::Solved);
    assert!(out.contains("\nsolved from here in "), "{out}");
    assert!(out.contains("\nfrom here, after your 1 jump:\n"), "{out}");
}

#[test]
fn help_says_how_the_puzzle_s_own_kind_moves_and_leaves_out_the_others() {
    let (_, out) = play_with("puzzles/frogs_toads/frogs_toads_3.yaml", "help\n", false);
    assert!(
        out.contains(&format!(
            "commands:\n{PIECES_MOVE}\n  moves          list the legal moves\n"
        )),
        "{out}"
    );
    assert!(!out.contains("tilt"), "{out}");
    // A hop puzzle's help names jumps, not tilts; a tilt puzzle's, tilts, not jumps.
    let (_, out) = play_with("puzzles/triangle_hop/corner.yaml", "help\n", false);
    assert!(out.contains(&format!("commands:\n{HOP_MOVE}\n  moves ")), "{out}");
    assert!(!out.contains("tilt"), "{out}");
    let (_, out) = play_with("puzzles/tilt_roll/four_by_four.yaml", "help\n", false);
    assert!(
        out.contains(&format!("commands:\n{TILT_MOVE}\n  moves ")),
        "{out}"
    );
    assert!(!out.contains("jump"), "{out}");
}

#[test]
fn a_bad_move_is_explained_and_the_prompt_shown_only_when_asked() {
    let (code, out) = play_with("puzzles/triangle_hop/corner.yaml", "9 9 0 0\n", true);
    assert_eq!(code, ExitCode::Unsolved);
    assert!(out.contains("[9, 9] is not a hole of this board"), "{out}");
    assert!(out.contains("> "), "{out}");
    let (_, out) = play_with("puzzles/triangle_hop/corner.yaml", "9 9 0 0\n", false);
    assert!(!out.contains("> "), "{out}");
}
