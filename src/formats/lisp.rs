//! Lisp peg lists, as in the PEG-PUZZLE assignment: `((o) (x x) (x x x))` is a triangle whose row i holds i+1 entries, `x` a peg and `o` an empty hole.
//!
//! Mind the letters: in this notation `o` is a *hole*, the reverse of YAML boards, where `o`
//! is a peg. Uppercase `X`/`O` are read too, a leading `'` (a quoted list) is allowed, and
//! `;` starts a comment. Answers in this notation are written by `render::answer`.

use super::Pos;
use crate::diag::Result;
use crate::limits::MAX_HOP_CELLS;
use crate::spec::{BoardSpec, GoalSpec, GridBoard, LimitSpec, Spec, Token};
use std::collections::BTreeMap;
use std::path::Path;

/// The most rows a triangle may have: its holes must fit a hop bitboard.
const MAX_ROWS: usize = max_rows(MAX_HOP_CELLS);

const fn max_rows(cells: usize) -> usize {
    let mut n = 0;
    while (n + 1) * (n + 2) / 2 <= cells {
        n += 1;
    }
    n
}

/// The assignment's ratings: pegs left → words.
fn ratings() -> BTreeMap<u32, String> {
    [(1, "genius"), (2, "above average"), (3, "mental midget")]
        .into_iter()
        .map(|(n, w)| (n, w.to_string()))
        .collect()
}

/// Reads a triangle written as a Lisp list of rows into a `triangle_hop` spec.
pub fn parse(path: &Path, source: &str) -> Result<Spec> {
    let toks = super::tokens(source);
    let mut it = toks.iter().copied().peekable();
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    let example = "e.g. ((o) (x x) (x x x)), x a peg and o an empty hole";
    if it.peek().is_some_and(|(_, t)| *t == "'") {
        it.next();
    }
    let open = match it.next() {
        Some((pos, "(")) => pos,
        Some((pos, t)) => {
            return Err(err(
                pos,
                format!("expected `(` to start the board, found `{t}`: {example}"),
            ));
        }
        None => {
            return Err(err(
                Pos { line: 1, col: 1 },
                format!("no board: write a triangle as a list of rows, {example}"),
            ));
        }
    };
    let mut rows: Vec<Vec<Token>> = Vec::new();
    loop {
        let n = rows.len() + 1;
        let row_open = match it.next() {
            Some((_, ")")) => break,
            Some((pos, "(")) => pos,
            Some((pos, t)) => {
                return Err(err(
                    pos,
                    format!("expected `(` to start row {n}, found `{t}`: each row is a list such as (x x)"),
                ));
            }
            None => return Err(err(open, "this `(` opening the board is never closed".into())),
        };
        if n > MAX_ROWS {
            return Err(err(
                row_open,
                format!(
                    "row {n}: a triangle may have at most {MAX_ROWS} rows ({MAX_HOP_CELLS} holes at most)"
                ),
            ));
        }
        let mut row = Vec::new();
        loop {
            match it.next() {
                Some((_, ")")) => break,
                Some((pos, "(")) => {
                    return Err(err(pos, format!("row {n} holds a list: rows hold only x and o")));
                }
                Some((pos, t)) => row.push(match t {
                    "x" | "X" => Token::Peg,
                    "o" | "O" => Token::Hole,
                    _ => {
                        return Err(err(
                            pos,
                            format!("`{t}` in row {n} is neither x (a peg) nor o (an empty hole)"),
                        ));
                    }
                }),
                None => return Err(err(row_open, format!("row {n}'s `(` is never closed"))),
            }
        }
        if row.len() != n {
            return Err(err(
                row_open,
                format!(
                    "row {n} has {} entr{}; row {n} of a triangle has {n}",
                    row.len(),
                    if row.len() == 1 { "y" } else { "ies" }
                ),
            ));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(err(open, format!("the board has no rows: {example}")));
    }
    if let Some((pos, t)) = it.next() {
        return Err(err(
            pos,
            format!("unexpected `{t}` after the board's closing `)`"),
        ));
    }
    Ok(Spec {
        path: path.to_path_buf(),
        source: source.to_string(),
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        rules: "triangle_hop".into(),
        board: BoardSpec::Grid(GridBoard::triangle(rows)),
        goal: GoalSpec::default(),
        limits: LimitSpec::default(),
        ratings: ratings(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(src: &str) -> Result<Spec> {
        parse(Path::new("t.lisp"), src)
    }

    #[test]
    fn reads_the_assignment_example() {
        let s = p("'((o) (x x) (x x x) (x x x x) (x x x x x)) ; the start\n").unwrap();
        let BoardSpec::Grid(g) = &s.board else { panic!() };
        assert_eq!(g.rows.len(), 5);
        assert_eq!(g.rows[0], vec![Token::Hole]);
        assert_eq!(g.rows[4], vec![Token::Peg; 5]);
        assert_eq!(s.rules, "triangle_hop");
        assert_eq!(s.ratings[&3], "mental midget");
    }

    #[test]
    fn errors_are_located() {
        let msg = |src: &str| p(src).unwrap_err().to_string();
        assert_eq!(
            msg("((o)\n (x x x))"),
            "t.lisp:2:2: row 2 has 3 entries; row 2 of a triangle has 2"
        );
        assert_eq!(
            msg("((o)\n (x y))"),
            "t.lisp:2:5: `y` in row 2 is neither x (a peg) nor o (an empty hole)"
        );
        assert_eq!(
            msg("((o) (x x)"),
            "t.lisp:1:1: this `(` opening the board is never closed"
        );
        assert_eq!(msg("((o) (x x"), "t.lisp:1:6: row 2's `(` is never closed");
        assert_eq!(
            msg("((o)) x"),
            "t.lisp:1:7: unexpected `x` after the board's closing `)`"
        );
        assert!(msg("").starts_with("t.lisp:1:1: no board"));
        assert!(msg("()").contains("no rows"));
        assert!(msg("(o)").starts_with("t.lisp:1:2: expected `(` to start row 1"));
    }

    #[test]
    fn at_most_fifteen_rows() {
        assert_eq!(MAX_ROWS, 15);
        let rows: Vec<String> = (1..=16)
            .map(|n| format!("({})", vec!["x"; n].join(" ")))
            .collect();
        let e = p(&format!("({})", rows.join("\n"))).unwrap_err();
        assert_eq!(e.line, Some(16));
    }
}
