//! The subcommands, one file each. A command takes a plain config (built from the command
//! line by `cli`, which nothing here imports), does its work through the layers
//! below, and returns an [`ExitCode`] or an [`Error`]; [`finish`] is the one place an error
//! is printed.

pub mod batch;
pub mod bench;
pub mod check;
pub mod count;
pub mod import;
pub mod merge;
pub mod new;
pub mod play;
pub mod rules;
pub mod solve;

use crate::diag::Diagnostic;
use crate::formats::Notation;
use crate::outcome::{Outcome, Status};
use crate::render::Style;
use std::fmt::Display;

/// The process's exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// Every puzzle solved or as its `expect:` says (or, for commands that solve nothing, all
    /// done).
    Solved = 0,
    /// Some puzzle not as its `expect:` says, or, stating none, unsolvable or given up.
    Unsolved = 1,
    /// Bad input, or a failure.
    Failed = 2,
    /// Stopped by Ctrl-C.
    Interrupted = 130,
}

impl ExitCode {
    /// The code for a set of outcomes (see [`ExitCode::of_run`]).
    pub fn of(all: &[Outcome]) -> Self {
        Self::of_run(
            all.iter().any(|o| o.status == Status::Error),
            all.iter().any(|o| !o.passed()),
        )
    }

    /// The code for a run: Ctrl-C interrupted it, else any error fails it, else every puzzle
    /// passed (met its `expect:`, or was solved when it states none) or not.
    pub fn of_run(errors: bool, failing: bool) -> Self {
        if crate::process::CANCELLED.load(std::sync::atomic::Ordering::SeqCst) {
            ExitCode::Interrupted
        } else if errors {
            ExitCode::Failed
        } else if failing {
            ExitCode::Unsolved
        } else {
            ExitCode::Solved
        }
    }

    /// `Failed` if anything failed, else `self`.
    pub fn or_failed(self, failed: bool) -> Self {
        if failed { ExitCode::Failed } else { self }
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}

/// Why a command could not go on.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A puzzle that cannot be read, compiled or used, located in its file.
    #[error(transparent)]
    Input(#[from] Diagnostic),
    /// A command line asking for something that is not there.
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A failure writing reports or output, with its causes.
    #[error("{0:#}")]
    Other(#[from] anyhow::Error),
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        // A write that failed (a closed pipe) is told as the write's own error.
        match e.is_io() {
            true => Error::Io(e.into()),
            false => Error::Other(e.into()),
        }
    }
}

impl Error {
    /// A closed pipe (`marbles batch … | head`) is the reader's choice, not a failure.
    fn is_broken_pipe(&self) -> bool {
        let broken = |e: &(dyn std::error::Error + 'static)| {
            e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        };
        match self {
            Error::Io(e) => broken(e),
            Error::Other(e) => e.chain().any(broken),
            Error::Input(_) | Error::Usage(_) => false,
        }
    }
}

/// Prints `marbles: error: …` on stderr: every error a user sees goes through here.
pub fn report(e: &dyn Display) {
    eprintln!("marbles: error: {}", crate::render::terminal(&e.to_string()));
}

/// Turns a command's result into the exit code, printing its error if it has one.
pub fn finish(result: Result<ExitCode, Error>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::Solved,
        // A limit of the run's, not the input, stopped it (a rule script held to
        // `--max-memory`): the puzzle gave up, as a search stopped so does.
        Err(Error::Input(d)) if d.gave_up.is_some() => {
            eprintln!("marbles: gave up: {}", crate::render::terminal(&d.to_string()));
            ExitCode::Unsolved
        }
        Err(e) => {
            report(&e);
            ExitCode::Failed
        }
    }
}

/// Shows on stderr what a puzzle's rule script printed, each line after the script's path.
fn show_printed(p: &crate::solve::Prepared) {
    let _ = show_lines(&mut std::io::stderr(), &p.script.origin, &p.tables.printed);
}

/// Shows what a rule script printed before it failed (`d`), then the error in words.
fn report_printed(d: &crate::diag::Diagnostic, message: &dyn Display) {
    if let Some(p) = &d.printed {
        let _ = show_lines(&mut std::io::stderr(), &p.by, &p.lines);
    }
    report(message);
}

/// What a rule script printed, each line after the script's name, into `out` (stderr).
fn show_lines(
    out: &mut dyn std::io::Write,
    origin: &std::path::Path,
    printed: &[String],
) -> std::io::Result<()> {
    // Each line of what the script printed after its path: a line break inside one `print`
    // began a line of its own that could pass for marbles' own (`marbles: error: …`).
    for line in printed.iter().flat_map(|p| p.split('\n')) {
        let line = format!("{}: {line}", origin.display());
        writeln!(out, "{}", crate::render::terminal(&line))?;
    }
    Ok(())
}

/// How boards are drawn for a puzzle read in `notation`: Lisp files get Lisp letters.
pub fn style(notation: &Notation) -> Style {
    match notation.lisp_letters {
        true => Style::Lisp,
        false => Style::Plain,
    }
}

/// A table without borders, as a terminal shows it: columns two spaces apart, no trailing
/// spaces.
fn plain(mut table: tabled::Table) -> String {
    table.with(tabled::settings::Style::blank());
    let text = table.to_string();
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n")
}

/// The `case`-th puzzle (from 1) of a file in any notation (by extension unless `notation`
/// is given), compiled: `play` and `count` read files as `solve` does.
pub fn prepare_case(
    file: &std::path::Path,
    notation: Option<&'static crate::formats::Notation>,
    opts: &crate::solve::Options,
    case: usize,
) -> Result<crate::solve::Prepared, Error> {
    prepare_counted(file, notation, opts, case).map(|(p, _)| p)
}

/// [`prepare_case`], with how many puzzles the file holds.
pub fn prepare_counted(
    file: &std::path::Path,
    notation: Option<&'static crate::formats::Notation>,
    opts: &crate::solve::Options,
    case: usize,
) -> Result<(crate::solve::Prepared, usize), Error> {
    let notation = crate::formats::Notation::of(file, notation);
    let (count, chosen) = crate::formats::prepare_case(file, notation, opts, case)?;
    match chosen {
        Some(p) => Ok((p?, count)),
        None => Err(Error::Usage(format!(
            "{}: there is no case {case} (it holds {count})",
            file.display()
        ))),
    }
}
