//! Boards as matrices of `1` (a peg), `0` (an empty hole) and `-1` (no hole), as the depth-first-search write-up models the 7×7 English board.
//!
//! Rows are lines of whitespace- or comma-separated numbers, each optionally in brackets, or
//! the whole matrix is bracketed as Python, Julia, NumPy or JSON print it:
//! `[[-1, -1, 1, 1, 1, -1, -1], …]` (rows in their own brackets, line breaks anywhere) or
//! `[-1 -1 1; 0 1 1]` (rows split by `;` or line breaks). `#` starts a comment. A blank line
//! ends an unbracketed matrix, so a file may hold several, each its own puzzle (this is how
//! `--format matrix` writes an answer's states). Rows all as long make a square-grid `peg_hop`
//! puzzle; rows of 1, 2, 3, … entries (a lower-triangular matrix) a `triangle_hop` one; either
//! way the goal is one peg. A comment line `# rules: NAME` names the rule family of the
//! matrices that start after it (as `--format matrix` writes for families other than those two,
//! so that an answer reads back as its puzzle). An entry is written `1`, `0` or `-1` exactly: `+1`, `1.0` and an
//! empty entry (`1,,1`) are refused at their line and column, not guessed at.

use super::Pos;
use crate::diag::{Diagnostic, Result};
use crate::limits::MAX_HOP_CELLS;
use crate::spec::{Spec, Token};
use std::ops::ControlFlow;
use std::path::Path;

const ENTRIES: &str = "1 (a peg), 0 (an empty hole) or -1 (no hole)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    /// `;`: the end of a row.
    Semi,
    /// The end of a line holding something.
    Newline,
    /// A line holding nothing, not even a comment: the end of an unbracketed matrix.
    Blank,
    Num(i8),
}

/// The entry `t` stands for, if it is written `-1`, `0` or `1`.
fn entry(t: &str) -> Option<i8> {
    match t {
        "-1" => Some(-1),
        "0" => Some(0),
        "1" => Some(1),
        _ => None,
    }
}

/// The family a `# rules: NAME` comment line names.
fn rules_line(line: &str) -> Option<&str> {
    let rest = line
        .trim()
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("rules:")?;
    Some(rest.trim()).filter(|name| !name.is_empty())
}

/// Stands in the tokens for an entry that is none (`2`, `x`): its matrix is read to its end,
/// then refused with the first such entry's error (kept in [`Reader::bad`]).
const BAD: i8 = i8::MIN;

/// Appends the tokens of line `l` (0-based) to `out`, and to `bad` the error of each word that
/// is no entry (standing in `out` as [`BAD`]).
fn line_tokens(
    path: &Path,
    l: usize,
    line: &str,
    out: &mut Vec<(Pos, Tok)>,
    bad: &mut Vec<Diagnostic>,
) -> Result<()> {
    let content = line.split('#').next().unwrap_or("");
    // `;` splits rows here: a Lisp or ICPC file's `; expect:` would be read as entries.
    if content.trim_start().starts_with(';')
        && matches!(crate::spec::expect::expect_comment(content.trim()), Ok(Some(_)))
    {
        return Err(Pos { line: l + 1, col: 1 }.error(
            path,
            "`;` starts no comment in a matrix file, `#` does: write this expectation as `# expect: …`"
                .to_string(),
        ));
    }
    if content.trim().is_empty() {
        if content.len() == line.len() {
            out.push((Pos { line: l + 1, col: 1 }, Tok::Blank));
        }
        return Ok(());
    }
    let mut word: Option<(usize, usize)> = None; // (byte, column) of the entry being read
    // Whether an entry may be missing before a comma here: at the line's start, after `[`,
    // `;` or another comma (`1,,1`).
    let mut bare = true;
    let chars = content.char_indices().chain([(content.len(), ' ')]);
    for (col, (i, ch)) in chars.enumerate() {
        let pos = Pos {
            line: l + 1,
            col: col + 1,
        };
        let punct = match ch {
            '[' => Some(Tok::Open),
            ']' => Some(Tok::Close),
            ';' => Some(Tok::Semi),
            _ => None,
        };
        if (punct.is_some() || ch == ',' || ch.is_whitespace())
            && let Some((b, c)) = word.take()
        {
            let t = &content[b..i];
            let at = Pos {
                line: l + 1,
                col: c + 1,
            };
            let n = entry(t).unwrap_or_else(|| {
                bad.push(at.error(path, format!("`{t}` is not a matrix entry: write {ENTRIES}")));
                BAD
            });
            out.push((at, Tok::Num(n)));
            bare = false;
        }
        match punct {
            Some(p) => {
                out.push((pos, p));
                bare = p != Tok::Close;
            }
            None if ch == ',' => {
                if bare {
                    return Err(pos.error(
                        path,
                        format!("an entry is missing before this `,`: write {ENTRIES}"),
                    ));
                }
                bare = true;
            }
            None if ch.is_whitespace() => {}
            None => {
                word.get_or_insert((i, col));
            }
        }
    }
    let end = Pos {
        line: l + 1,
        col: line.chars().count() + 1,
    };
    out.push((end, Tok::Newline));
    Ok(())
}

/// One matrix as read: each row's position and entries, and the lines it spans.
struct Matrix {
    rows: Vec<(Pos, Vec<i8>)>,
    first: usize,
    last: usize,
    /// The family a `# rules:` line before it names.
    rules: Option<String>,
    /// Its first word that is no entry.
    fault: Option<Diagnostic>,
}

/// The most tokens one matrix may take: a board of [`crate::limits::MAX_DRAWN_CELLS`] holes
/// written with a bracket, a comma-free entry and a line end each is well inside it.
const MAX_MATRIX_TOKENS: usize = 1 << 16;

/// The longest line a matrix file may hold: a whole matrix of a drawn board's 4,096 holes
/// written on one line, `[[-1, …], …]`, takes some 20 KiB.
const MAX_LINE_BYTES: usize = 1 << 18;

/// Reads the matrices of a file in order, its lines read into tokens only as far as needed:
/// an entry that is not one in a later matrix is an error in its turn, after the matrices
/// before it, and the tokens of matrices already read are let go.
struct Reader<'a> {
    path: &'a Path,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The tokens read and not yet let go; `at` indexes them.
    toks: Vec<(Pos, Tok)>,
    at: usize,
    /// The `# rules: NAME` lines read so far: (1-based line, name), the last one kept for
    /// each line read before the next matrix starts.
    rules: Vec<(usize, &'a str)>,
    /// The errors of words read that are no entry, oldest first, until their matrix takes them.
    bad: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    fn new(path: &'a Path, source: &'a str) -> Self {
        Reader {
            path,
            lines: source.lines().enumerate(),
            toks: Vec::new(),
            at: 0,
            rules: Vec::new(),
            bad: Vec::new(),
        }
    }

    fn err(&self, pos: Pos, msg: String) -> Diagnostic {
        pos.error(self.path, msg)
    }

    /// The token at `i`, reading lines until there is one (`None` at the end of the file).
    /// A matrix of more than [`MAX_MATRIX_TOKENS`] is refused where it passes them: the
    /// tokens of one are held until it ends (a file of 64 MiB of `[` held 1.6 GB).
    fn get(&mut self, i: usize) -> Result<Option<(Pos, Tok)>> {
        while self.toks.len() <= i {
            if self.toks.len() > MAX_MATRIX_TOKENS {
                let (pos, _) = self.toks[self.toks.len() - 1];
                return Err(self.err(
                    pos,
                    format!(
                        "this matrix runs past {MAX_MATRIX_TOKENS} brackets, entries and line ends; \
                         a drawn board has at most {} holes",
                        crate::limits::MAX_DRAWN_CELLS
                    ),
                ));
            }
            let Some((l, line)) = self.lines.next() else {
                return Ok(None);
            };
            // A line is read into tokens whole: one past any board's row is refused unread.
            if line.len() > MAX_LINE_BYTES {
                return Err(self.err(
                    Pos { line: l + 1, col: 1 },
                    format!(
                        "a line of {} bytes; a matrix's lines are at most {MAX_LINE_BYTES}",
                        line.len()
                    ),
                ));
            }
            if let Some(name) = rules_line(line) {
                self.rules.push((l + 1, name));
            }
            line_tokens(self.path, l, line, &mut self.toks, &mut self.bad)?;
        }
        Ok(Some(self.toks[i]))
    }

    fn peek_past_breaks(&mut self) -> Result<Option<Tok>> {
        let mut i = self.at;
        while let Some((_, t)) = self.get(i)? {
            if !matches!(t, Tok::Newline | Tok::Blank) {
                return Ok(Some(t));
            }
            i += 1;
        }
        Ok(None)
    }

    /// The family named by the last `# rules:` line before line `first`, if any; the ones
    /// before it are let go.
    fn rules_before(&mut self, first: usize) -> Option<String> {
        let k = self.rules.iter().rposition(|&(l, _)| l < first)?;
        self.rules.drain(..k);
        Some(self.rules[0].1.to_string())
    }

    /// The next matrix, if any is left.
    fn matrix(&mut self) -> Result<Option<Matrix>> {
        self.toks.drain(..self.at);
        self.at = 0;
        while self
            .get(self.at)?
            .is_some_and(|t| matches!(t.1, Tok::Newline | Tok::Blank | Tok::Semi))
        {
            self.at += 1;
            // Breaks between matrices are let go as they are passed, however many.
            if self.at == 1024 {
                self.toks.drain(..self.at);
                self.at = 0;
            }
        }
        let Some((pos, tok)) = self.get(self.at)? else {
            return Ok(None);
        };
        let rows = match tok {
            Tok::Close => return Err(self.err(pos, "this `]` closes nothing".into())),
            Tok::Open => {
                self.at += 1;
                if self.peek_past_breaks()? == Some(Tok::Open) {
                    self.nested(pos)?
                } else {
                    self.at -= 1;
                    self.plain()?
                }
            }
            _ => self.plain()?,
        };
        let last = self.toks[self.at - 1].0.line;
        // A word that is no entry faults its matrix, read whole; the file goes on. Its errors
        // are those of its lines (the next matrix's may be read already).
        let mine = self.bad.iter().take_while(|d| d.line <= Some(last)).count();
        let fault = self.bad.drain(..mine).next();
        let fault = match rows.iter().any(|(_, r)| r.contains(&BAD)) {
            true => Some(fault.unwrap_or_else(|| self.err(pos, format!("an entry is not one of {ENTRIES}")))),
            false => fault,
        };
        Ok(Some(Matrix {
            rows,
            first: pos.line,
            last,
            rules: self.rules_before(pos.line),
            fault,
        }))
    }

    /// `[[…], […], …]`, its `[` at `open` read: every row in its own brackets.
    fn nested(&mut self, open: Pos) -> Result<Vec<(Pos, Vec<i8>)>> {
        let mut rows = Vec::new();
        loop {
            let Some((pos, tok)) = self.get(self.at)? else {
                return Err(self.err(open, "this `[` opening the matrix is never closed".into()));
            };
            self.at += 1;
            match tok {
                Tok::Newline | Tok::Blank => {}
                Tok::Close => return Ok(rows),
                Tok::Open => rows.push((pos, self.bracketed_row(pos, rows.len() + 1)?)),
                Tok::Num(n) => {
                    return Err(self.err(
                        pos,
                        format!("`{n}` stands outside a row: in a bracketed matrix each row is its own […]"),
                    ));
                }
                Tok::Semi => {
                    return Err(self.err(
                        pos,
                        "`;` between bracketed rows: separate them with commas".into(),
                    ));
                }
            }
        }
    }

    /// Row `k` of a bracketed matrix, its `[` at `open` read.
    fn bracketed_row(&mut self, open: Pos, k: usize) -> Result<Vec<i8>> {
        let mut row = Vec::new();
        loop {
            let Some((pos, tok)) = self.get(self.at)? else {
                return Err(self.err(open, format!("row {k}'s `[` is never closed")));
            };
            self.at += 1;
            match tok {
                Tok::Newline | Tok::Blank => {}
                Tok::Num(n) => row.push(n),
                Tok::Close if row.is_empty() => return Err(self.err(open, format!("row {k} is empty"))),
                Tok::Close => return Ok(row),
                Tok::Open => {
                    return Err(self.err(
                        pos,
                        format!("a `[` inside row {k}: a matrix is a list of rows of {ENTRIES}"),
                    ));
                }
                Tok::Semi => return Err(self.err(pos, format!("`;` inside row {k}"))),
            }
        }
    }

    /// Rows as lines (or split by `;`), each optionally in brackets, up to a blank line; or
    /// one bracketed matrix whose rows are split by `;` or lines.
    fn plain(&mut self) -> Result<Vec<(Pos, Vec<i8>)>> {
        let mut rows: Vec<(Pos, Vec<i8>)> = Vec::new();
        let mut row: Option<(Pos, Vec<i8>)> = None;
        let mut group: Option<Pos> = None; // the `[` of the group being read
        while let Some((pos, tok)) = self.get(self.at)? {
            if tok == Tok::Blank && group.is_none() {
                break;
            }
            self.at += 1;
            match tok {
                Tok::Num(n) => row.get_or_insert((pos, Vec::new())).1.push(n),
                Tok::Open if group.is_some() => {
                    return Err(self.err(
                        pos,
                        format!("a `[` inside a row: a matrix is a list of rows of {ENTRIES}"),
                    ));
                }
                Tok::Open => {
                    rows.extend(row.take());
                    group = Some(pos);
                }
                Tok::Close if group.is_none() => {
                    return Err(self.err(pos, "this `]` closes nothing".into()));
                }
                Tok::Close => {
                    group = None;
                    rows.extend(row.take());
                }
                Tok::Semi | Tok::Newline => rows.extend(row.take()),
                Tok::Blank => {}
            }
        }
        if let Some(open) = group {
            return Err(self.err(open, "this `[` is never closed".into()));
        }
        rows.extend(row);
        Ok(rows)
    }
}

/// Reads every matrix of a file into a `peg_hop` (square grid) or `triangle_hop` (rows of 1,
/// 2, 3, … entries) spec.
pub fn parse(path: &Path, source: &str) -> Result<Vec<Spec>> {
    super::collect(path, source, parse_each)
}

/// [`parse`], handing each spec to `emit` as it is read (see [`super::parse_each`]).
pub fn parse_each(
    path: &Path,
    source: &str,
    emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>,
) -> Result<()> {
    let mut reader = Reader::new(path, source);
    let parts = super::Parts::new(path, source, "board");
    super::stream(
        || {
            while let Some(m) = reader.matrix()? {
                if !m.rows.is_empty() {
                    return Ok(Some(m));
                }
            }
            Ok(None)
        },
        |k, m, several| {
            let (name, text) = parts.get(k, (m.first, m.last), several);
            // A matrix read whole that breaks a check is its own error; the file goes on.
            let s = m
                .fault
                .map_or_else(|| spec(path, &m.rows, name.clone(), text), Err)
                .map_err(|d| super::named(d, &name, several))
                .map(|mut s| {
                    if let Some(rules) = m.rules {
                        s.rules = rules;
                    }
                    s.line = several.then_some(m.first);
                    s
                });
            Ok(emit(s))
        },
        || {
            Diagnostic::new(
                path,
                format!("no board: write a matrix of {ENTRIES}, one row per line"),
            )
            .at(Some(1), Some(1))
        },
    )
}

/// One matrix as a spec, its shape checked: every row as long as the first (a square grid),
/// or rows of 1, 2, 3, … entries (a triangle).
fn spec(path: &Path, rows: &[(Pos, Vec<i8>)], name: String, source: String) -> Result<Spec> {
    let triangle = rows.len() >= 2 && rows[0].1.len() == 1 && rows[1].1.len() == 2;
    let mut holes = 0;
    let mut board = Vec::new();
    for (k, (pos, row)) in rows.iter().enumerate() {
        let n = k + 1;
        let len = row.len();
        let (want, shape) = if triangle {
            (
                n,
                format!("row {n} of a triangle (rows of 1, 2, 3, … entries) has {n}"),
            )
        } else {
            (
                rows[0].1.len(),
                format!(
                    "row 1 has {}, and a square grid's rows are all as long",
                    rows[0].1.len()
                ),
            )
        };
        if len != want {
            let entries = if len == 1 { "entry" } else { "entries" };
            return Err(pos.error(path, format!("row {n} has {len} {entries}; {shape}")));
        }
        holes += row.iter().filter(|&&e| e >= 0).count();
        if holes > MAX_HOP_CELLS {
            return Err(pos.error(
                path,
                format!(
                    "row {n}: more than {MAX_HOP_CELLS} holes; hop boards may have at most {MAX_HOP_CELLS}"
                ),
            ));
        }
        board.push(
            row.iter()
                .map(|&e| match e {
                    1 => Token::Peg,
                    0 => Token::Hole,
                    _ => Token::Blocked,
                })
                .collect(),
        );
    }
    if holes == 0 {
        return Err(rows[0]
            .0
            .error(path, "the matrix has no holes: every entry is -1"));
    }
    Ok(Spec::of_rows(path, source, name, board, triangle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::BoardSpec;

    fn all(src: &str) -> Result<Vec<Spec>> {
        parse(Path::new("t.matrix"), src)
    }

    fn rows(src: &str) -> Vec<Vec<Token>> {
        let v = all(src).unwrap();
        assert_eq!(v.len(), 1, "one board in {src:?}");
        let BoardSpec::Grid(g) = &v[0].board else { panic!() };
        g.rows.clone()
    }

    #[test]
    fn every_printing_of_a_matrix_reads_the_same() {
        use Token::{Blocked as B, Hole as H, Peg as P};
        let want = vec![vec![B, P, H], vec![P, P, P]];
        for src in [
            "-1 1 0\n1 1 1\n",
            "-1, 1, 0\n1, 1, 1",
            "# a comment\n[-1, 1, 0],\n[1, 1, 1]\n",
            "[[-1, 1, 0], [1, 1, 1]]",
            "[[-1 1 0]\n [1 1 1]]\n",
            "[\n  [\n    -1,\n    1,\n    0\n  ],\n  [1, 1, 1]\n]\n",
            "[-1 1 0; 1 1 1]",
            "[-1 1 0;\n 1 1 1]",
        ] {
            assert_eq!(rows(src), want, "{src:?}");
        }
    }

    #[test]
    fn shapes_choose_the_family_and_blank_lines_split_boards() {
        let v = all("1\n0 1\n1 1 1\n\n[[1, 0, 1]]\n").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0].rules.as_str(), v[1].rules.as_str()),
            ("triangle_hop", "peg_hop")
        );
        assert_eq!(
            (v[0].name.as_str(), v[1].name.as_str()),
            ("t board 1", "t board 2")
        );
        assert_eq!(v[0].source, "1\n0 1\n1 1 1");
    }

    #[test]
    fn errors_are_located() {
        let msg = |src: &str| all(src).unwrap_err().to_string();
        assert_eq!(
            msg("1 1 0\n1 2 1\n"),
            "t.matrix:2:3: `2` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)"
        );
        assert_eq!(
            msg("1 1 0\n1 1\n"),
            "t.matrix:2:1: row 2 has 2 entries; row 1 has 3, and a square grid's rows are all as long"
        );
        assert_eq!(
            msg("1\n1 0\n1 1\n"),
            "t.matrix:3:1: row 3 has 2 entries; row 3 of a triangle (rows of 1, 2, 3, … entries) has 3"
        );
        assert_eq!(
            msg("[[1, 0], [0, 1]"),
            "t.matrix:1:1: this `[` opening the matrix is never closed"
        );
        assert_eq!(
            msg("[[1, 0], [0, 1"),
            "t.matrix:1:10: row 2's `[` is never closed"
        );
        assert_eq!(msg("1 0]\n"), "t.matrix:1:4: this `]` closes nothing");
        assert_eq!(msg("[1 0\n0 1\n"), "t.matrix:1:1: this `[` is never closed");
        assert_eq!(
            msg("[[1, [0]]]"),
            "t.matrix:1:6: a `[` inside row 1: a matrix is a list of rows of 1 (a peg), 0 (an empty hole) or -1 (no hole)"
        );
        assert_eq!(
            msg("[[1, 0], 1]"),
            "t.matrix:1:10: `1` stands outside a row: in a bracketed matrix each row is its own […]"
        );
        assert_eq!(
            msg("-1 -1\n-1 -1\n"),
            "t.matrix:1:1: the matrix has no holes: every entry is -1"
        );
        assert!(msg("99999999999999999999999").contains("`99999999999999999999999` is not a matrix entry"));
        assert!(msg("").starts_with("t.matrix:1:1: no board"));
        assert!(msg("# only a comment\n[]\n").starts_with("t.matrix:1:1: no board"));
        let big = vec!["0"; 129].join(" ");
        assert_eq!(
            msg(&big),
            "t.matrix:1:1: row 1: more than 128 holes; hop boards may have at most 128"
        );
    }

    #[test]
    fn a_bad_entry_in_a_later_matrix_comes_after_the_ones_before_it() {
        // The first two boards are handed on, then the third's `x` as its error, in its turn.
        let mut read = Vec::new();
        parse_each(Path::new("t.matrix"), "1 1 0\n\n0 1 1\n\n1 1 x\n", &mut |s| {
            read.push(s.map(|s| s.name).map_err(|d| d.to_string()));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(
            read,
            [
                Ok("t board 1".to_string()),
                Ok("t board 2".to_string()),
                Err("t.matrix:5:5: t board 3: `x` is not a matrix entry: write 1 (a peg), 0 (an empty hole) or -1 (no hole)".to_string())
            ]
        );
    }
}
