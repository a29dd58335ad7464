//! Search traces (`marbles solve --trace`): each position a hop search tries, each dead end it backs out of, each position it skips as known to fail, and the goal, as they happen.
//!
//! Traces go to stderr, so that stdout holds only the answer in whatever `--format` was
//! asked for (`2>&1` shows both, in order). One line per event, indented by depth; boards
//! are drawn on one line, rows joined by `/`, in the puzzle's notation (`o` peg, `.` hole,
//! `#` no hole for YAML; `x` peg, `o` hole for Lisp). For example, with `o o . o .`:
//!
//! ```text
//! trace of five
//! start: oo.o.
//!   1. [0, 0] over [0, 1] to [0, 2] (right) → ..oo.
//!     2. [0, 2] over [0, 3] to [0, 4] (right) → ....o
//!       goal: 1 peg left after 2 moves
//! ```
//!
//! After `--trace-limit` lines a last line says the trace was cut; the search goes on.

use super::{Style, Symbols};
use crate::model::{HopModel, Model};
use crate::outcome::Outcome;
use crate::search::dfs::Observer;
use crate::solve::{self, Options, Prepared};
use crate::spec::BoardSpec;
use std::io::Write;

/// The default for `--trace-limit`.
pub const DEFAULT_LIMIT: usize = 1000;

/// An [`Observer`] that writes each search event as a line of text.
pub struct Tracer<'a, W: Write> {
    model: &'a HopModel,
    widths: Vec<usize>,
    symbols: Symbols,
    out: W,
    limit: usize,
    lines: usize,
}

impl<'a, W: Write> Tracer<'a, W> {
    pub fn new(model: &'a HopModel, widths: Vec<usize>, style: Style, limit: usize, out: W) -> Self {
        Tracer {
            model,
            widths,
            symbols: style.symbols(),
            out,
            limit,
            lines: 0,
        }
    }

    /// `state` on one line: rows joined by `/`.
    pub fn board(&self, state: u128) -> String {
        let rows = self
            .symbols
            .rows(&self.widths, &self.model.geo.cells, |k| state >> k & 1 == 1, None);
        let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        rows.join("/")
    }

    /// Writes a line indented by `depth`, unless the limit has been reached; the text is only
    /// made when it is written. Write errors are ignored: a trace never stops a search.
    fn say(&mut self, depth: usize, text: impl FnOnce(&Self) -> String) {
        if self.lines < self.limit {
            let line = text(self);
            let _ = writeln!(self.out, "{}{line}", "  ".repeat(depth));
        } else if self.lines == self.limit {
            let _ = writeln!(
                self.out,
                "… trace cut after {} lines (raise --trace-limit to see more)",
                self.limit
            );
        }
        self.lines = self.lines.saturating_add(1);
    }

    fn tried(&self, depth: usize, mv: usize, state: u128) -> String {
        let m = super::move_text(&solve::hop_move(self.model, mv));
        format!("{depth}. {m} → {}", self.board(state))
    }

    /// The first lines: the puzzle's name and its start.
    pub fn begin(&mut self, name: &str) {
        self.say(0, |_| format!("trace of {name}"));
        let start = self.model.start;
        self.say(0, |t| format!("start: {}", t.board(start)));
    }
}

impl<W: Write> Observer for Tracer<'_, W> {
    fn advance(&mut self, depth: usize, mv: usize, state: u128) {
        self.say(depth, |t| t.tried(depth, mv, state));
    }

    fn known_failure(&mut self, depth: usize, mv: usize, state: u128) {
        self.say(depth, |t| {
            format!("{}: known to fail, skipped", t.tried(depth, mv, state))
        });
    }

    fn pruned(&mut self, depth: usize, mv: usize, state: u128) {
        self.say(depth, |t| {
            format!("{}: cannot reach the goal, cut", t.tried(depth, mv, state))
        });
    }

    fn restart(&mut self, reversed: bool) {
        self.say(0, |_| {
            if reversed {
                "restart on the reversed problem (hole and finishing cell swapped)".to_string()
            } else {
                "restart on the problem as given, with a larger node budget".to_string()
            }
        });
    }

    fn beam(&mut self, width: usize) {
        self.say(0, |_| {
            format!("beam search: each move, the {width} positions with pegs nearest the goal")
        });
    }

    fn dead_end(&mut self, depth: usize, _state: u128) {
        self.say(depth + 1, |_| match depth {
            0 => "dead end at the start: every move has been tried".to_string(),
            _ => format!("dead end: take back move {depth}"),
        });
    }

    fn goal(&mut self, depth: usize, state: u128) {
        let pegs = state.count_ones();
        self.say(depth + 1, |_| {
            format!(
                "goal: {pegs} peg{} left after {depth} move{}",
                if pegs == 1 { "" } else { "s" },
                if depth == 1 { "" } else { "s" }
            )
        });
    }
}

/// Solves a prepared puzzle, tracing the search to `out` (tilt searches are breadth-first
/// and not traced: a line says so).
pub fn solve_traced(
    p: &Prepared,
    opts: &Options,
    style: Style,
    limit: usize,
    mut out: impl Write,
) -> Outcome {
    match &p.model {
        Model::Hop(m) => {
            let widths = match &p.spec.board {
                BoardSpec::Grid(g) => g.rows.iter().map(Vec::len).collect(),
                BoardSpec::Tilt(_) => Vec::new(),
            };
            let mut tracer = Tracer::new(m, widths, style, limit, out);
            tracer.begin(&p.spec.name);
            solve::solve_observed(p, opts, &mut tracer)
        }
        Model::Tilt(_) | Model::Rewrite(_) | Model::Slide(_) => {
            let what = match &p.model {
                Model::Tilt(_) => "tilt puzzles are searched breadth-first",
                _ => "puzzles of pieces of kinds are searched by their own search",
            };
            let _ = writeln!(
                out,
                "trace of {}: not traced; {what} (traces cover hop families)",
                p.spec.name
            );
            solve::solve_prepared(p, opts)
        }
    }
}
