//! The answers `marbles solve --format` writes, one per puzzle: marbles' own text, a JSON
//! array, the Lisp assignment's list of states, the ICPC judge's `Case k:` lines, the
//! classroom's `N moves` or each state as a −1/0/1 matrix.
//!
//! This is the one place answers are written; the notations puzzles are *read* in are
//! `formats`'. Lisp answers draw a hop board as a list of rows, one row per line:
//! `x` a peg and `o` an empty hole (the reverse of YAML boards), `-` a position with no hole,
//! `X` the peg that just moved; `#f` when there is no solution. Matrix answers are a `#`
//! comment with the verdict, then each state, blank lines between: they read back with
//! `--from matrix`, one puzzle per state.

use super::Style;
use crate::diag::{Diagnostic, Result};
use crate::outcome::{Outcome, Replay, Status};
use crate::solve::Prepared;
use crate::spec::Cell;
use std::io::{self, Write};

/// What an answer looks like: one of [`FORMATS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Answer {
    /// Verdict, moves and the board after each move.
    #[default]
    Text,
    /// A JSON array, one object per puzzle (without the drawing data).
    Json,
    /// The Lisp assignment's answer: the list of states from start to goal, or `#f`.
    Lisp,
    /// The ICPC judge's output: `Case k: N moves` or `Case k: impossible`, a blank line after each.
    Icpc,
    /// The classroom's output: `N moves` or `No Solution`, one line per puzzle.
    Moves,
    /// `# name: N moves`, then each state as a matrix of 1 (peg), 0 (hole), -1 (no hole).
    Matrix,
}

/// One answer format as `marbles solve --format` offers it.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    pub answer: Answer,
    /// Its name after `--format`.
    pub name: &'static str,
    /// What it writes, in one line: its help.
    pub about: &'static str,
    /// Whether it draws hop boards only, so that a tilt puzzle is refused before it is solved.
    hop_only: bool,
    /// Whether it shows only each verdict and its moves: then no drawing, hash or settings
    /// are made for its outcomes (see [`crate::solve::Options::bare`]).
    pub bare: bool,
}

/// Every answer format, in the order `--format` lists them: the one list of them that the
/// command line, its help and the messages naming formats read.
pub const FORMATS: &[Format] = &[
    Format {
        answer: Answer::Text,
        name: "text",
        about: "Verdict, moves and the board after each move",
        hop_only: false,
        bare: false,
    },
    Format {
        answer: Answer::Json,
        name: "json",
        about: "A JSON array, one object per puzzle",
        hop_only: false,
        bare: false,
    },
    Format {
        answer: Answer::Lisp,
        name: "lisp",
        about: "The Lisp assignment's answer: the list of states from start to goal, or #f",
        hop_only: true,
        bare: false,
    },
    Format {
        answer: Answer::Icpc,
        name: "icpc",
        about: "The ICPC judge's output: `Case k: N moves` or `Case k: impossible`, a blank line after each",
        hop_only: false,
        bare: true,
    },
    Format {
        answer: Answer::Moves,
        name: "moves",
        about: "The classroom's output: `N moves` or `No Solution`, one line per puzzle",
        hop_only: false,
        bare: true,
    },
    Format {
        answer: Answer::Matrix,
        name: "matrix",
        about: "Each state of the answer as a matrix of 1 (peg), 0 (hole), -1 (no hole), blank lines between",
        hop_only: true,
        bare: false,
    },
];

impl Answer {
    /// The format called `name` after `--format`.
    pub fn named(name: &str) -> Option<Answer> {
        FORMATS.iter().find(|f| f.name == name).map(|f| f.answer)
    }

    /// Its row of [`FORMATS`].
    pub fn format(self) -> &'static Format {
        FORMATS
            .iter()
            .find(|f| f.answer == self)
            .expect("every answer is in FORMATS")
    }

    /// Refuses a puzzle this answer cannot show, before any time is spent solving it.
    pub fn fits(self, p: Prepared) -> Result<Prepared> {
        let format = self.format();
        if !format.hop_only {
            return Ok(p);
        }
        // What the puzzle is, and what the format writes, in the refusal's words.
        let (is, writes) = match &p.model {
            crate::model::Model::Tilt(_) => ("is a tilt puzzle", "hop boards"),
            crate::model::Model::Rewrite(_) => ("has pieces of kinds", "boards of one kind of peg"),
            crate::model::Model::Slide(_) => ("has sliding robots", "boards of one kind of peg"),
            crate::model::Model::Hop(_) => ("", ""),
        };
        let crate::model::Model::Hop(hop) = &p.model else {
            let others: Vec<&str> = FORMATS.iter().filter(|f| !f.hop_only).map(|f| f.name).collect();
            return Err(Diagnostic::new(
                &p.spec.path,
                format!(
                    "`{}` {is}; `--format {}` writes {writes} (use {})",
                    p.spec.name,
                    format.name,
                    crate::diag::listed(&others, "or")
                ),
            ));
        };
        // A matrix holds a square grid, or a triangle as rows of 1, 2, 3, … entries: the
        // other boards of the triangle lattice (a hexagon) have no matrix that reads back.
        let triangle = match &p.spec.board {
            crate::spec::BoardSpec::Grid(g) => g.rows.iter().enumerate().all(|(r, row)| row.len() == r + 1),
            crate::spec::BoardSpec::Tilt(_) => false,
        };
        if self == Answer::Matrix && hop.geo.layout == crate::lattice::Layout::Triangle && !triangle {
            return Err(Diagnostic::new(
                &p.spec.path,
                format!(
                    "`{}` is drawn on the triangle lattice but its rows are not 1, 2, 3, … holes or `#` from the top; `--format matrix` writes square grids and such triangles only — use text, json or moves",
                    p.spec.name
                ),
            ));
        }
        Ok(p)
    }
}

/// Writes answers as puzzles are solved, each at once (JSON as the elements of one array).
pub struct Answers<W: Write> {
    out: W,
    answer: Answer,
    /// JSON answers written so far.
    written: usize,
}

impl<W: Write> Answers<W> {
    pub fn new(out: W, answer: Answer) -> Self {
        Answers {
            out,
            answer,
            written: 0,
        }
    }

    /// Writes one puzzle's answer, its boards drawn in `style`; `case` is its 1-based
    /// position on the command line, for `Case k:`.
    pub fn write(&mut self, o: &Outcome, case: usize, style: Style) -> io::Result<()> {
        let out = &mut self.out;
        match self.answer {
            Answer::Json => {
                // The array is written an element at a time, indented as `to_writer_pretty`
                // indents it (JSON strings hold no raw newline), so a file of 20,000 cases
                // holds no answers back.
                let text = serde_json::to_string_pretty(&without_replay(o.clone()))?;
                out.write_all(if self.written == 0 { b"[\n" } else { b",\n" })?;
                for (i, line) in text.lines().enumerate() {
                    let sep = if i == 0 { "" } else { "\n" };
                    write!(out, "{sep}  {line}")?;
                }
                self.written += 1;
                Ok(())
            }
            Answer::Text if style == Style::Lisp => writeln!(out, "{}", lisp_text(o)),
            Answer::Text => writeln!(out, "{}", super::solution(o)),
            Answer::Lisp => writeln!(out, "{}", lisp_answer(o)),
            Answer::Icpc => write!(out, "Case {case}: {}\n\n", verdict_words(o, "impossible")),
            Answer::Moves => writeln!(out, "{}", verdict_words(o, "No Solution")),
            Answer::Matrix => writeln!(out, "{}", matrix_answer(o)),
        }
    }

    /// Hands on what is written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Holds the place of a puzzle that could not be read or compiled (its message goes to
    /// stderr) in the answers of one line each, so that line k stays puzzle k.
    pub fn failed(&mut self) -> io::Result<()> {
        match self.answer {
            Answer::Moves => writeln!(self.out, "error"),
            Answer::Lisp => writeln!(self.out, "; error (see the message on stderr)"),
            _ => Ok(()),
        }
    }

    /// Ends the answers: the JSON array, if that was asked for.
    pub fn finish(mut self) -> io::Result<()> {
        if self.answer == Answer::Json {
            let end: &[u8] = if self.written == 0 { b"[]\n" } else { b"\n]\n" };
            self.out.write_all(end)?;
        }
        self.out.flush()
    }
}

/// The outcome as `solve --format json` shows it: without the drawing data.
fn without_replay(mut o: Outcome) -> Outcome {
    o.replay = None;
    o
}

/// `5 moves` (always "moves", as the judges write it) when solved, `gave up (reason)` when
/// a limit stopped the search, else `none` (the notation's word for "impossible").
fn verdict_words(o: &Outcome, none: &str) -> String {
    match o.status {
        // A goal that counts moves counts chains of one peg's jumps: the count the text
        // answer leads with, not the jumps.
        Status::Solved => format!("{} moves", o.moves_made()),
        Status::GaveUp => format!(
            "gave up ({})",
            o.reason.as_deref().unwrap_or("a limit was reached")
        ),
        Status::Unsolvable | Status::Error => none.to_string(),
    }
}

/// One board as a Lisp list of rows, one row per line, continuation lines indented by one:
/// `["((o)", " (x x)", " (x x x))"]`.
fn state_lines(rows: &[Vec<char>]) -> Vec<String> {
    let last = rows.len().saturating_sub(1);
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let items: Vec<String> = row.iter().map(char::to_string).collect();
            let open = if r == 0 { "(" } else { " " };
            let close = if r == last { ")" } else { "" };
            format!("{open}({}){close}", items.join(" "))
        })
        .collect()
}

/// Frame `i` of a hop replay in Lisp letters, with `mark` drawn as `X`.
fn frame_rows(replay: &Replay, i: usize, mark: Option<Cell>) -> Vec<Vec<char>> {
    Style::Lisp.symbols().hop_rows(replay, i, mark)
}

/// The assignment's answer: the list of states from start to goal, pretty-printed, or `#f`.
fn lisp_answer(o: &Outcome) -> String {
    let Some(replay @ Replay::Hop { frames, .. }) = o.replay.as_ref().filter(|_| o.status == Status::Solved)
    else {
        return match (o.status, o.reason.as_deref()) {
            // `#f` says there is no solution: a search that stopped proved nothing.
            (Status::GaveUp, why) => format!(
                "; gave up ({}): not solved, not proven impossible",
                why.unwrap_or("a limit was reached")
            ),
            _ => "#f".into(),
        };
    };
    let states: Vec<Vec<String>> = (0..frames.len())
        .map(|i| state_lines(&frame_rows(replay, i, None)))
        .collect();
    let mut lines: Vec<String> = states
        .iter()
        .enumerate()
        .flat_map(|(s, state)| {
            state.iter().enumerate().map(move |(j, line)| {
                let lead = if s == 0 && j == 0 { "(" } else { " " };
                format!("{lead}{line}")
            })
        })
        .collect();
    if let Some(l) = lines.last_mut() {
        l.push(')');
    }
    lines.join("\n")
}

/// `# name: N moves (M jumps)`, `# rules: NAME` when the family is not the one the matrix's shape
/// reads back as (`peg_hop` for a square grid, `triangle_hop` for a triangle), then each state
/// from start to goal as a matrix, numbers right-aligned in columns, a blank line before each;
/// when not solved, the start alone. Every answer thus reads back as its puzzle.
fn matrix_answer(o: &Outcome) -> String {
    let mut out = format!(
        "# {}: {}",
        super::one_line(&o.puzzle),
        verdict_words(o, "no solution")
    );
    if let Some(j) = o.jumps_made().filter(|_| o.status == Status::Solved) {
        out.push_str(&format!(" ({j} jump{})", if j == 1 { "" } else { "s" }));
    }
    if let Some(replay @ Replay::Hop { frames, layout, .. }) = o.replay.as_ref() {
        let read_as = match layout {
            crate::script::Layout::Triangle => "triangle_hop",
            _ => "peg_hop",
        };
        if o.rules != read_as {
            out.push_str(&format!("\n# rules: {}", super::one_line(&o.rules)));
        }
        let states = if o.status == Status::Solved {
            frames.len()
        } else {
            frames.len().min(1)
        };
        let symbols = super::Symbols {
            peg: '1',
            hole: '0',
            blocked: '-',
            moved: '1',
        };
        for i in 0..states {
            out.push('\n');
            for row in symbols.hop_rows(replay, i, None) {
                let entries: Vec<&str> = row
                    .iter()
                    .map(|&c| match c {
                        '1' => " 1",
                        '0' => " 0",
                        _ => "-1",
                    })
                    .collect();
                out.push('\n');
                out.push_str(&entries.join(" "));
            }
        }
    }
    out
}

/// The human-readable answer with every board as Lisp rows and the peg that moved as `X`.
fn lisp_text(o: &Outcome) -> String {
    super::solution_with(o, |replay, i, mark| match replay {
        Replay::Hop { .. } => {
            let mut s = state_lines(&frame_rows(replay, i, mark)).join("\n");
            s.push('\n');
            s
        }
        Replay::Tilt { .. } => super::board(replay, i, mark),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_print_one_row_per_line() {
        let rows = vec![vec!['o'], vec!['x', 'x']];
        assert_eq!(state_lines(&rows), vec!["((o)", " (x x))"]);
    }
}
