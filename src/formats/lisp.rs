//! Lisp peg lists and calls, as in the PEG-PUZZLE assignment: `((o) (x x) (x x x))` is a triangle whose row i holds i+1 entries, `x` a peg and `o` an empty hole.
//!
//! A file holds one or more puzzles, each a bare board or the assignment's whole call,
//! `(peg-puzzle '((o) (x x) (x x x) (x x x x) (x x x x x)) #f)`, whose second argument `#t`
//! asks for a trace of the search (as `--trace` does). Mind the letters: in this notation `o`
//! is a *hole*, the reverse of YAML boards, where `o` is a peg. Uppercase `X`/`O` and
//! `PEG-PUZZLE` are read too, a `'` (a quoted list) or `(quote …)` is allowed, and `;` starts a comment.
//! Answers in this notation are written by `render::answer`, and read back here: rows all
//! as long are a square board (`peg_hop`), `-` a place with no hole, and a list of boards
//! (`(((x o x)) ((o x o)))`, an answer's states) is one puzzle per board.

use super::Pos;
use crate::diag::{Diagnostic, Result};
use crate::limits::MAX_HOP_CELLS;
use crate::spec::{Spec, Token};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
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
    super::collect(path, source, parse_each)
}

/// [`parse`], handing each spec to `emit` as it is read (see [`super::parse_each`]).
pub fn parse_each(
    path: &Path,
    source: &str,
    emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>,
) -> Result<()> {
    let mut it = super::tokens(source);
    let parts = super::Parts::new(path, source, "call");
    let mut any = false;
    let mut answer = None;
    super::stream(
        || {
            let found =
                next_puzzle(path, &mut it, any, &mut answer).map_err(|d| read_no_further(&mut it, d))?;
            any = true;
            Ok(found)
        },
        |k, (rows, trace, first, last), several| {
            let (name, source) = parts.get(k, (first, last), several);
            let rows = match rows {
                Ok(rows) => rows,
                // Named as a case's compile error is (`f call 2: …`) in a file of several.
                Err(fault) => return Ok(emit(Err(super::named(fault, &name, several)))),
            };
            let triangle = is_triangle(&rows);
            Ok(emit(Ok(Spec {
                ratings: ratings(),
                trace,
                line: several.then_some(first),
                ..Spec::of_rows(path, source, name, rows, triangle)
            })))
        },
        || {
            Pos { line: 1, col: 1 }.error(
                path,
                format!("no board: write a triangle as a list of rows, {EXAMPLE}"),
            )
        },
    )
}

/// `d`, a fault the text is not followed past, saying so where the file goes on past its
/// line: "(the file is read no further: it goes on to line 4)".
fn read_no_further(it: &mut Tokens, mut d: Diagnostic) -> Diagnostic {
    let last = it.by_ref().last().map_or(0, |(at, _)| at.line);
    if last > d.line.unwrap_or(usize::MAX) {
        d.message += &format!(" (the file is read no further: it goes on to line {last})");
    }
    d
}

/// One puzzle read: its rows (or the first check they broke), its trace flag, and its first
/// and last lines.
type Found = (Rows, bool, usize, usize);

/// A board's rows read to its closing `)`, or the first check they broke (a row too long, a
/// letter that is no peg or hole): the file goes on after it.
type Rows = std::result::Result<Vec<Vec<Token>>, Diagnostic>;

/// A first row of one entry starts a triangle (rows of 1, 2, 3, … entries, the assignment's
/// boards); any other a square board.
fn is_triangle(rows: &[Vec<Token>]) -> bool {
    rows.first().is_some_and(|r| r.len() == 1)
}

/// The next puzzle of the file, or `None` at its end; `after` when one was read before.
/// `answer` holds the `(` of a list of boards being read (an answer's states), one a call.
fn next_puzzle(path: &Path, it: &mut Tokens, after: bool, answer: &mut Option<Pos>) -> Result<Option<Found>> {
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    if let Some(outer) = *answer {
        match it.next() {
            Some((_, ")")) => *answer = None,
            Some((pos, "(")) => {
                let rows = board(path, it, pos, None)?;
                return Ok(Some((rows, false, pos.line, it.last.line)));
            }
            Some((pos, t)) => {
                return Err(err(
                    pos,
                    format!("expected `(` to start the next board of the list, found `{t}`"),
                ));
            }
            None => {
                return Err(err(
                    outer,
                    "this `(` opening a list of boards is never closed".into(),
                ));
            }
        }
    }
    let quote = it.next_if(|(_, t)| *t == "'").map(|(p, _)| p);
    let open = match it.next() {
        Some((pos, "(")) => pos,
        None => match quote {
            Some(q) => return Err(err(q, "this `'` quotes nothing".into())),
            None => return Ok(None),
        },
        Some((pos, t)) if after => {
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
        call_args(path, it, open)?
    } else {
        match it.next_if(|(_, t)| *t == "(") {
            // `(((`: a list of boards, as `--format lisp` answers; its first board opens second.
            Some(second) if it.peek().is_some_and(|(_, t)| *t == "(") => {
                *answer = Some(open);
                let rows = board(path, it, second.0, None)?;
                return Ok(Some((rows, false, second.0.line, it.last.line)));
            }
            first_row => (board(path, it, open, first_row.map(|t| t.0))?, false),
        }
    };
    // The puzzle's closing `)` is the last token read.
    Ok(Some((rows, trace, open.line, it.last.line)))
}

type Tokens<'a> = super::Lexer<'a>;

/// The arguments of a `(peg-puzzle` call opened at `open`, up to its closing `)`: the board
/// (quoted or not) and the trace flag, `#t` or `#f` (`#f` if left out).
fn call_args(path: &Path, it: &mut Tokens, open: Pos) -> Result<(Rows, bool)> {
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    it.next_if(|(_, t)| *t == "'");
    let rows = match it.next() {
        Some((pos, "(")) => match it.next_if(|(_, t)| t.eq_ignore_ascii_case("quote")) {
            Some(_) => quoted(path, it, pos)?,
            None => board(path, it, pos, None)?,
        },
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
        Some((pos, "(")) => {
            return Err(err(
                pos,
                "the second argument of peg-puzzle is the trace flag, #t or #f; found a list".into(),
            ));
        }
        Some((pos, t)) => {
            let fault = err(
                pos,
                format!("the second argument of peg-puzzle is the trace flag, #t or #f; found `{t}`"),
            );
            return past_call(path, it, open, fault);
        }
        None => return Err(err(open, "this `(peg-puzzle` call is never closed".into())),
    };
    match it.next() {
        Some((_, ")")) => Ok((rows, trace)),
        Some((pos, t)) => {
            let fault = err(
                pos,
                format!("expected `)` to end the peg-puzzle call after its two arguments, found `{t}`"),
            );
            match t {
                "(" => Err(fault),
                _ => past_call(path, it, open, fault),
            }
        }
        None => Err(err(open, "this `(peg-puzzle` call is never closed".into())),
    }
}

/// `(quote BOARD)`, the long form of `'BOARD`, opened at `open` and read up to `quote`: the
/// board, then the `)` closing the form.
fn quoted(path: &Path, it: &mut Tokens, open: Pos) -> Result<Rows> {
    let never = || open.error(path, "this `(quote` is never closed".to_string());
    let rows = match it.next() {
        Some((pos, "(")) => board(path, it, pos, None)?,
        Some((pos, t)) => {
            return Err(pos.error(
                path,
                format!("expected the board after `quote`, found `{t}`: {EXAMPLE}"),
            ));
        }
        None => return Err(never()),
    };
    match it.next() {
        Some((_, ")")) => Ok(rows),
        Some((pos, t)) => Err(pos.error(
            path,
            format!("expected `)` to end `(quote …)` after its board, found `{t}`"),
        )),
        None => Err(never()),
    }
}

/// A call whose lists are whole but whose arguments break a check (`fault`): read on past its
/// closing `)` (words only; a list there is refused as the text's own fault), the file going
/// on after it.
fn past_call(path: &Path, it: &mut Tokens, open: Pos, fault: Diagnostic) -> Result<(Rows, bool)> {
    loop {
        match it.next() {
            Some((_, ")")) => return Ok((Err(fault), false)),
            // A list among the words: the text is not followed further; its first fault says why.
            Some((_, "(")) => return Err(fault),
            None => return Err(open.error(path, "this `(peg-puzzle` call is never closed".to_string())),
            Some(_) => {}
        }
    }
}

/// The rows of a board whose `(` at `open` has been read, up to its closing `)`; `first_row`
/// is the `(` of its first row when that has been read too. Rows of 1, 2, 3, … entries are a
/// triangle, rows all as long as the first a square board. A board whose lists are whole but
/// break a check is read to its end and its first fault returned inside.
fn board(path: &Path, it: &mut Tokens, open: Pos, mut first_row: Option<Pos>) -> Result<Rows> {
    let err = |pos: Pos, msg: String| pos.error(path, msg);
    let mut rows: Vec<Vec<Token>> = Vec::new();
    let mut holes = 0;
    let mut fault: Option<Diagnostic> = None;
    loop {
        let n = rows.len() + 1;
        let row_open = match first_row.take().map(|p| (p, "(")).or_else(|| it.next()) {
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
        if n > MAX_ROWS && is_triangle(&rows) && fault.is_none() {
            fault = Some(err(
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
                    return Err(err(
                        pos,
                        format!("row {n} holds a list: rows hold only x, o and -"),
                    ));
                }
                Some((pos, t)) => row.push(match t {
                    "x" | "X" => Token::Peg,
                    "o" | "O" => Token::Hole,
                    "-" => Token::Blocked,
                    _ => {
                        fault.get_or_insert_with(|| {
                            err(
                                pos,
                                format!(
                                    "`{t}` in row {n} is neither x (a peg), o (an empty hole) nor - (no hole)"
                                ),
                            )
                        });
                        Token::Hole
                    }
                }),
                None => return Err(err(row_open, format!("row {n}'s `(` is never closed"))),
            }
        }
        let entries = if row.len() == 1 { "entry" } else { "entries" };
        let square = !rows.is_empty() && !is_triangle(&rows);
        // Once one check is broken, the rest of the board is only read past.
        if fault.is_some() {
            continue;
        }
        if n > 1 && !square && row.len() != n {
            fault = Some(err(
                row_open,
                format!(
                    "row {n} has {} {entries}; row {n} of a triangle has {n}",
                    row.len()
                ),
            ));
            continue;
        }
        if square && row.len() != rows[0].len() {
            fault = Some(err(
                row_open,
                format!(
                    "row {n} has {} {entries}; row 1 has {}, and a square board's rows are all as long",
                    row.len(),
                    rows[0].len()
                ),
            ));
            continue;
        }
        holes += row.iter().filter(|&&t| t != Token::Blocked).count();
        if holes > MAX_HOP_CELLS {
            fault = Some(err(
                row_open,
                format!(
                    "row {n}: more than {MAX_HOP_CELLS} holes; hop boards may have at most {MAX_HOP_CELLS}"
                ),
            ));
            continue;
        }
        rows.push(row);
    }
    if rows.is_empty() && fault.is_none() {
        fault = Some(err(open, format!("the board has no rows: {EXAMPLE}")));
    }
    Ok(fault.map_or(Ok(rows), Err))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::BoardSpec;

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
            "t.lisp:2:5: `y` in row 2 is neither x (a peg), o (an empty hole) nor - (no hole)"
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
    fn square_boards_and_lists_of_boards_read_back() {
        // A square board's rows are all as long, `-` where there is no hole.
        let s = p("((- x x)\n (x o x))").unwrap();
        assert_eq!(s.rules, "peg_hop");
        let BoardSpec::Grid(g) = &s.board else { panic!() };
        assert_eq!(g.rows[0], vec![Token::Blocked, Token::Peg, Token::Peg]);
        // An answer, a list of boards: one puzzle per board, in order.
        let v = all("(((x o x x))\n ((x x o o))\n ((o o x o)))\n").unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[2].rules, "peg_hop");
        let v = all("(((o) (x x))\n ((x) (o o)))").unwrap();
        assert_eq!((v.len(), v[1].rules.as_str()), (2, "triangle_hop"));
        let msg = |src: &str| p(src).unwrap_err().to_string();
        assert_eq!(
            msg("((x o x)\n (x x))"),
            "t.lisp:2:2: row 2 has 2 entries; row 1 has 3, and a square board's rows are all as long"
        );
        assert_eq!(
            msg("(((x o)) ((o x)) x)"),
            "t.lisp:1:18: expected `(` to start the next board of the list, found `x`"
        );
        assert_eq!(
            msg("(((x o)) ((o x))"),
            "t.lisp:1:1: this `(` opening a list of boards is never closed"
        );
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
