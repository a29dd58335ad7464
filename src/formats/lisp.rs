//! Lisp peg lists and calls, as in the PEG-PUZZLE assignment: `((o) (x x) (x x x))` is a triangle whose row i holds i+1 entries, `x` a peg and `o` an empty hole.
//!
//! A file holds one or more puzzles, each a bare board or the assignment's whole call,
//! `(peg-puzzle '((o) (x x) (x x x) (x x x x) (x x x x x)) #f)`, whose second argument `#t`
//! asks for a trace of the search (as `--trace` does). Mind the letters: in this notation `o`
//! is a *hole*, the reverse of YAML boards, where `o` is a peg. Uppercase `X`/`O` and
//! `PEG-PUZZLE` are read too, a `'` (a quoted list) is allowed, and `;` starts a comment.
//! Answers in this notation are written by `render::answer`.

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

const EXAMPLE: &str = "e.g. ((o) (x x) (x x x)), x a peg and o an empty hole";

/// Reads every puzzle of a Lisp file, in order: bare boards `'((o) (x x) …)` and calls
/// `(peg-puzzle '((o) (x x) …) #f)`, each a `triangle_hop` spec; a call's `#t` asks for a trace.
pub fn parse(path: &Path, source: &str) -> Result<Vec<Spec>> {
    let mut it = super::tokens(source);
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    // (rows, trace, first line, last line) of each puzzle.
    let mut found: Vec<(Vec<Vec<Token>>, bool, usize, usize)> = Vec::new();
    loop {
        let quote = it.next_if(|(_, t)| *t == "'").map(|(p, _)| p);
        let open = match it.next() {
            Some((pos, "(")) => pos,
            None => match quote {
                Some(q) => return Err(err(q, "this `'` quotes nothing".into())),
                None => break,
            },
            Some((pos, t)) if !found.is_empty() => {
                return Err(err(
                    pos,
                    format!(
                        "unexpected `{t}` after the board's closing `)`: a file holds boards and (peg-puzzle '… #f) calls"
                    ),
                ));
            }
            Some((pos, t)) => {
                return Err(err(
                    pos,
                    format!(
                        "expected `(` to start the board, found `{t}`: {EXAMPLE}, or a call (peg-puzzle '((o) (x x) (x x x)) #f)"
                    ),
                ));
            }
        };
        let call = quote.is_none()
            && it
                .next_if(|(_, t)| t.eq_ignore_ascii_case("peg-puzzle"))
                .is_some();
        let (rows, trace) = if call {
            call_args(path, &mut it, open)?
        } else {
            (board(path, &mut it, open)?, false)
        };
        // The puzzle's closing `)` is the last token read.
        let last = it.last.line;
        found.push((rows, trace, open.line, last));
    }
    if found.is_empty() {
        return Err(err(
            Pos { line: 1, col: 1 },
            format!("no board: write a triangle as a list of rows, {EXAMPLE}"),
        ));
    }
    let parts = super::Parts::new(path, source, "call", found.len());
    Ok(found
        .into_iter()
        .enumerate()
        .map(|(k, (rows, trace, first, last))| {
            let (name, source) = parts.get(k, (first, last));
            Spec {
                path: path.to_path_buf(),
                source,
                name,
                rules: "triangle_hop".into(),
                board: BoardSpec::Grid(GridBoard::triangle(rows)),
                goal: GoalSpec::default(),
                limits: LimitSpec::default(),
                ratings: ratings(),
                trace,
            }
        })
        .collect())
}

type Tokens<'a> = super::Lexer<'a>;

/// The arguments of a `(peg-puzzle` call opened at `open`, up to its closing `)`: the board
/// (quoted or not) and the trace flag, `#t` or `#f` (`#f` if left out).
fn call_args(path: &Path, it: &mut Tokens, open: Pos) -> Result<(Vec<Vec<Token>>, bool)> {
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    it.next_if(|(_, t)| *t == "'");
    let rows = match it.next() {
        Some((pos, "(")) => board(path, it, pos)?,
        Some((pos, t)) => {
            return Err(err(
                pos,
                format!("expected the board after `peg-puzzle`, found `{t}`: {EXAMPLE}"),
            ));
        }
        None => return Err(err(open, "this `(peg-puzzle` call is never closed".into())),
    };
    let trace = match it.next() {
        Some((_, ")")) => return Ok((rows, false)),
        Some((_, t)) if t.eq_ignore_ascii_case("#t") || t.eq_ignore_ascii_case("#true") => true,
        Some((_, t)) if t.eq_ignore_ascii_case("#f") || t.eq_ignore_ascii_case("#false") => false,
        Some((pos, t)) => {
            return Err(err(
                pos,
                format!("the second argument of peg-puzzle is the trace flag, #t or #f; found `{t}`"),
            ));
        }
        None => return Err(err(open, "this `(peg-puzzle` call is never closed".into())),
    };
    match it.next() {
        Some((_, ")")) => Ok((rows, trace)),
        Some((pos, t)) => Err(err(
            pos,
            format!("expected `)` to end the peg-puzzle call after its two arguments, found `{t}`"),
        )),
        None => Err(err(open, "this `(peg-puzzle` call is never closed".into())),
    }
}

/// The rows of a board whose `(` at `open` has been read, up to its closing `)`.
fn board(path: &Path, it: &mut Tokens, open: Pos) -> Result<Vec<Vec<Token>>> {
    let err = |pos: Pos, msg: String| pos.error(path, msg);
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
        return Err(err(open, format!("the board has no rows: {EXAMPLE}")));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(src: &str) -> Result<Vec<Spec>> {
        parse(Path::new("t.lisp"), src)
    }

    fn p(src: &str) -> Result<Spec> {
        all(src).map(|mut v| v.remove(0))
    }

    #[test]
    fn reads_calls_with_their_trace_flags_in_order() {
        let src = "; two calls\n(peg-puzzle '((o) (x x) (x x x) (x x x x) (x x x x x)) #f)\n\n(PEG-PUZZLE\n  '((x) (o x)) ; a comment inside\n  #t)\n";
        let v = all(src).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].trace, v[1].trace), (false, true));
        assert_eq!((v[0].name.as_str(), v[1].name.as_str()), ("t call 1", "t call 2"));
        assert_eq!(
            v[1].source,
            "(PEG-PUZZLE\n  '((x) (o x)) ; a comment inside\n  #t)"
        );
        let BoardSpec::Grid(g) = &v[1].board else { panic!() };
        assert_eq!(g.rows, vec![vec![Token::Peg], vec![Token::Hole, Token::Peg]]);
        // A lone call keeps the file's name; the flag may be left out.
        let one = p("(peg-puzzle ((x) (o x)))").unwrap();
        assert_eq!((one.name.as_str(), one.trace), ("t", false));
    }

    #[test]
    fn call_errors_are_located() {
        let msg = |src: &str| p(src).unwrap_err().to_string();
        assert_eq!(
            msg("(peg-puzzle '((o) (x x)) maybe)"),
            "t.lisp:1:26: the second argument of peg-puzzle is the trace flag, #t or #f; found `maybe`"
        );
        assert_eq!(
            msg("(peg-puzzle '((o) (x x)) #f"),
            "t.lisp:1:1: this `(peg-puzzle` call is never closed"
        );
        assert_eq!(
            msg("(peg-puzzle '((o) (x x)) #f #t)"),
            "t.lisp:1:29: expected `)` to end the peg-puzzle call after its two arguments, found `#t`"
        );
        assert!(
            msg("(peg-puzzle #f)")
                .starts_with("t.lisp:1:13: expected the board after `peg-puzzle`, found `#f`")
        );
        assert_eq!(msg("((o)) '"), "t.lisp:1:7: this `'` quotes nothing");
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
            "t.lisp:1:7: unexpected `x` after the board's closing `)`: a file holds boards and (peg-puzzle '… #f) calls"
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
