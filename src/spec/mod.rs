//! Puzzle specs: a YAML file read into a typed, validated value whose every error is located.
//!
//! The folder, along its seams (everything callers use is re-exported here):
//!
//! - `types`: the values, [`Spec`] and its board, goal and limits;
//! - [`input`]: safe input, the bounded reads of the files users hand marbles ([`read_text`]);
//! - `yaml`: YAML text into a [`Spec`] ([`parse`]), with `expansion`, the bound on what its
//!   aliases expand to;
//! - `board`: hop boards, goal boards, whether a goal fits, tilt boards from their keys;
//! - [`tilt`]: the checks of a tilt board's marbles, holes and walls, which the ICPC reader
//!   (`formats::icpc`) calls too;
//! - [`expect`]: `expect:`, what a puzzle's answer should be, in YAML or in a comment;
//! - `locate`: the line of a key and the line and column of a board token ([`key_line`]).

mod board;
pub(crate) mod expansion;
pub mod expect;
pub mod input;
mod locate;
pub mod tilt;
mod types;
mod yaml;

pub use board::check_hop_goal;
pub use expect::Expect;
pub use input::{MAX_CASES_BYTES, MAX_SPEC_BYTES, read_text};
pub use locate::{goal_key_line, key_line, nested_key_line};
pub use types::timeout as seconds_field;
pub use types::{
    BoardSpec, ByteSize, Cell, GoalSpec, GridBoard, LimitSpec, MoveGoal, PegGoal, Piece, Spec, TiltBoard,
    Token,
};
pub use yaml::{MAX_FLOW_DEPTH, parse};

use crate::diag::Result;
use std::path::Path;

/// Reads and validates the spec at `path`.
pub fn load(path: &Path) -> Result<Spec> {
    let source = read_text(path)?;
    parse(path, &source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(src: &str) -> Result<Spec> {
        parse(Path::new("t.yaml"), src)
    }

    #[test]
    fn reads_a_grid_board_with_rows_of_any_length() {
        let s = p("rules: triangle_hop\nboard: |2\n    .\n   o o\n  o o o\n").unwrap();
        let BoardSpec::Grid(g) = s.board else { panic!() };
        assert_eq!(g.rows.iter().map(|r| r.len()).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(g.rows[0][0], Token::Hole);
        assert_eq!(g.xs, vec![vec![2], vec![1, 3], vec![0, 2, 4]]);
        assert_eq!(s.name, "t");
    }

    #[test]
    fn unknown_token_is_located() {
        let e = p("rules: peg_hop\nboard: |\n  o o\n  o x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4:5: unknown board token `x` at [1, 1]: use `o` for a peg, `.` for an empty hole, `#` for no hole, a capital letter for a piece of a kind"
        );
    }

    #[test]
    fn a_board_whose_first_row_is_indented_deeper_names_the_indentation_indicator() {
        let e = p("rules: triangle_hop\nboard: |\n    o\n   o o\n  o o o\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4:1: invalid puzzle YAML: this row of `board:` is indented less than its first row, \
             and YAML takes a block's indentation from its first row; write `board: |2` to say the rows \
             are indented 2 spaces, the first one's extra spaces being part of the drawing"
        );
        // Written so, it is read (`reads_a_grid_board_with_rows_of_any_length`).
    }

    #[test]
    fn a_key_indented_under_a_board_is_named_as_a_key() {
        // The advice above, given here, made `goal:` a row of the board.
        let e = p("rules: peg_hop\nboard: |\n  o o .\n goal:\n  pegs: 1\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4:1: invalid puzzle YAML: `goal:` is indented 1 space, so YAML reads it inside \
             `board:`; a puzzle's own keys start at the line's first column"
        );
    }

    #[test]
    fn a_key_of_the_goal_written_at_the_first_column_is_told_where_it_belongs() {
        let e = p("rules: peg_hop\nboard: |\n  o o .\ngoal:\npegs: 1\n").unwrap_err();
        assert!(
            e.to_string().starts_with(
                "t.yaml:5:1: invalid puzzle YAML: unknown field `pegs`: `pegs` is a key of `goal:`; \
                 indent it below `goal:`, as `goal:` then `  pegs: …`; expected one of `name`,"
            ),
            "{e}"
        );
        // A goal board so written reads as the puzzle's board given twice.
        let e = p("rules: peg_hop\nboard: |\n  o o .\ngoal:\nboard: |\n  . . o\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:5:1: invalid puzzle YAML: `board:` is given twice, first at line 2: a goal board \
             is indented below `goal:`, as `goal:` then `  board: |`"
        );
        // One left empty, its keys all written elsewhere or not at all, is no goal.
        let e = p("rules: peg_hop\nboard: |\n  o o .\ngoal:\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4:1: `goal:` holds nothing: write its keys indented below it, as `goal:` then \
             `  pegs: 1`, or leave `goal:` out for the default, one peg"
        );
        let e = p("rules: peg_hop\nboard: |\n  o o .\ntimeout: 3\n").unwrap_err();
        assert!(
            e.to_string().contains(
                "unknown field `timeout`: `timeout` is a key of `solve:`; indent it below `solve:`"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_folded_board_and_a_tab_are_told_what_to_write() {
        // Folded, the two rows were one: `o o . o o o`, solved as a board of one row.
        let e = p("rules: peg_hop\nboard: >\n  o o .\n  o o o\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:2: invalid puzzle YAML: `board: >` folds the rows into one line; write \
             `board: |` to keep each row on its own line"
        );
        // A goal's board too; a line of a description that reads so is no key.
        let e = p("rules: peg_hop\nboard: |\n  o o .\ngoal:\n  board: >\n    . . o\n").unwrap_err();
        assert_eq!(e.line, Some(5), "{e}");
        let d = "description: |\n  board: > as drawn\nrules: peg_hop\nboard: |\n  o o .\n";
        assert!(p(d).is_ok());
        let e = p("rules: peg_hop\nboard: |\n\to o .\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:3:1: invalid puzzle YAML: found a tab character where an indentation space is \
             expected: indent with spaces (YAML does not take tabs there)"
        );
    }

    #[test]
    fn malformed_yaml_is_located() {
        let e = p("rules: peg_hop\nboard: [\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.starts_with("invalid puzzle YAML"), "{e}");
    }

    #[test]
    fn tilt_counts_must_match() {
        let e = p("rules: tilt_roll\nsize: 4\nmarbles: [[0,1]]\nholes: [[1,1],[2,2]]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4: 1 marble but 2 holes: hole k takes marble k, so the counts must match"
        );
    }

    #[test]
    fn walls_must_join_neighbours() {
        let e = p("rules: tilt_roll\nsize: 4\nmarbles: [[0,1]]\nholes: [[1,1]]\nwalls: [[[0,0],[1,1]]]\n")
            .unwrap_err();
        assert!(e.message.contains("not side by side"), "{e}");
        assert_eq!(e.line, Some(5));
    }

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!("512MB".parse::<ByteSize>().unwrap(), ByteSize(512_000_000));
        assert_eq!("2GiB".parse::<ByteSize>().unwrap(), ByteSize(2 << 30));
        assert!("12 parsecs".parse::<ByteSize>().is_err());
    }
}
