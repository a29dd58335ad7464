//! `marbles solve`: solve puzzle files and write each answer in the format asked for.

use super::{Error, ExitCode};
use crate::formats::{self, Notation};
use crate::model::Model;
use crate::outcome::{Outcome, Status};
use crate::render::answer::{Answer, Answers};
use crate::render::progress::Progress;
use crate::render::trace;
use crate::solve::{self, Options};
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// What to solve and how to answer.
#[derive(Debug, Clone)]
pub struct Config {
    pub files: Vec<PathBuf>,
    pub answer: Answer,
    /// Every file's notation, instead of guessing it from the extension.
    pub notation: Option<&'static Notation>,
    /// Trace every search on stderr (puzzles may also ask for it: a Lisp call's `#t`).
    pub trace: bool,
    /// The most lines a trace prints.
    pub trace_limit: usize,
    pub options: Options,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    crate::process::stop_on_signals();
    // Each answer is written as soon as its puzzle is solved, and only its verdict is kept:
    // a file of 20,000 cases holds one case's tables and answer at a time.
    let (mut solved, mut errors, mut failing) = (0, false, false);
    // Buffered: a file of 20,000 cases wrote (and flushed) a line at a time. Answers are still
    // handed on as they come: at once on a terminal, else at least every tenth of a second.
    let terminal = io::stdout().is_terminal();
    let mut flushed = std::time::Instant::now();
    let mut answers = Answers::new(io::BufWriter::new(io::stdout().lock()), config.answer);
    for (k, file) in config.files.iter().enumerate() {
        // After Ctrl-C, the files not started are named, not read (a script stopped on its
        // way in would read as the file's error).
        if crate::process::CANCELLED.load(std::sync::atomic::Ordering::SeqCst) {
            let rest: Vec<String> = config.files[k..]
                .iter()
                .map(|f| f.display().to_string())
                .collect();
            eprintln!(
                "marbles: interrupted ({}); {} not run: {}",
                crate::process::stopped_by(),
                crate::diag::plural(rest.len(), "file"),
                rest.join(", ")
            );
            break;
        }
        let notation = Notation::of(file, config.notation);
        let mut written = Ok(());
        let mut got = 0;
        solve_reporting(file, notation, config, &mut |o| {
            got += usize::from(!o.after_the_cases);
            written = if o.status == Status::Error && config.answer != Answer::Json {
                super::report(&named(&o, config.files.len() > 1));
                match o.after_the_cases {
                    true => Ok(()),
                    false => answers.failed(),
                }
            } else {
                answers.write(&o, solved + 1, super::style(notation))
            };
            solved += usize::from(!o.after_the_cases);
            errors |= o.status == Status::Error;
            failing |= !o.passed();
            // A search Ctrl-C cut is no answer to hold against `expect:`.
            if o.met.is_some() && crate::report::interrupted(&o) {
                eprintln!(
                    "marbles: interrupted ({}): {}: {} stopped before its answer, not judged against expect:",
                    crate::process::stopped_by(),
                    crate::render::terminal(&o.file),
                    crate::render::terminal(&o.puzzle)
                );
            } else if o.met == Some(false) {
                eprintln!(
                    "marbles: not as expected: {}",
                    crate::render::terminal(&unmet(&o))
                );
            }
            if written.is_ok() && (terminal || flushed.elapsed().as_millis() >= 100) {
                written = answers.flush();
                flushed = std::time::Instant::now();
            }
            if written.is_ok() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        written?;
        if crate::process::CANCELLED.load(std::sync::atomic::Ordering::SeqCst) {
            not_run_cases(file, notation, got);
        }
    }
    answers.finish()?;
    Ok(ExitCode::of_run(errors, failing))
}

/// Says which cases of a file of several Ctrl-C kept from running: those after the `got`
/// answered (the files after it are named as not run).
fn not_run_cases(file: &Path, notation: &Notation, got: usize) {
    if notation == formats::YAML {
        return;
    }
    let Ok(text) = formats::read_cases(file, notation) else {
        return;
    };
    // Counted for a fifth of a second at most: Ctrl-C asked for an end (a file of 121 MB
    // took 7 s to count).
    let until = std::time::Instant::now() + std::time::Duration::from_millis(200);
    let (cases, counted) = formats::count_cases(file, notation, &text, &mut |n| {
        n % 1024 != 0 || std::time::Instant::now() < until
    });
    let cases = cases as usize;
    let not_run = match counted {
        true if cases > got => crate::diag::plural(cases - got, "case"),
        true => return,
        false => "the cases".to_string(),
    };
    eprintln!(
        "marbles: interrupted ({}): {}: {not_run} after case {got} not run",
        crate::process::stopped_by(),
        crate::render::terminal(&file.display().to_string()),
    );
}

/// An error as `solve` shows it. Among several files, one that does not point into its
/// puzzle's file (a rule script's or a project file's mistake) has the file and puzzle in
/// front: which puzzle ran the script is otherwise not said.
fn named(o: &Outcome, several: bool) -> String {
    let error = o.error.as_deref().unwrap_or_default();
    match !several || error.starts_with(&format!("{}:", o.file)) {
        true => error.to_string(),
        false => format!("{}: {}: {error}", o.file, o.puzzle),
    }
}

/// The message for an answer that is not what its file's `expect:` says.
pub fn unmet(o: &Outcome) -> String {
    format!("{}: {}: {}", o.file, o.puzzle, o.unmet())
}

/// Solves every puzzle in one file (ICPC files hold several), showing on stderr what their
/// rule scripts printed and, with a trace, the search. The cases of a many-case file are
/// solved on every core, unless `--max-memory` is given: that limit holds for the whole
/// process, so its cases are solved one at a time.
fn solve_reporting(
    file: &Path,
    notation: &Notation,
    config: &Config,
    each: &mut dyn FnMut(Outcome) -> ControlFlow<()>,
) {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    if notation == formats::YAML || jobs == 1 || config.options.limits.max_memory.is_some() {
        return solve_one_by_one(file, notation, config, each);
    }
    let text = match formats::read_cases(file, notation) {
        Ok(text) => text,
        Err(d) => {
            let _ = each(failed(file, &d, &Default::default(), &mut io::stderr()));
            return;
        }
    };
    // As in a batch: each case's limit bounds its own search, the default split between jobs.
    let opts = Options {
        whole_process: false,
        default_max_memory: crate::process::default_memory_limit(jobs),
        ..config.options.clone()
    };
    // What each case writes on stderr is kept with its answer and shown in file order.
    let hash = std::sync::OnceLock::new();
    let solve_one = |p: crate::diag::Result<solve::Prepared>| {
        let mut err = Vec::new();
        let o = match p.and_then(|p| config.answer.fits(p)) {
            Err(d) => failed(file, &d, &hash, &mut err),
            Ok(p) => {
                let _ = super::show_lines(&mut err, &p.script.origin, &p.tables.printed);
                if config.trace || p.spec.trace {
                    trace::solve_traced(&p, &opts, super::style(notation), config.trace_limit, &mut err)
                } else {
                    solve::solve_prepared(&p, &opts)
                }
            }
        };
        (o, err)
    };
    formats::solve_text_parallel(file, notation, &text, &opts, jobs, &solve_one, &mut |(o, err)| {
        let _ = io::stderr().write_all(&err);
        each(o)
    });
}

/// The error outcome of a case that could not be compiled, after what its script printed.
/// `hash` keeps the file's hash once found: hashed again for each of 50,000 bad cases, a
/// 700 KB file took 21 s where it takes one.
fn failed(
    file: &Path,
    d: &crate::diag::Diagnostic,
    hash: &std::sync::OnceLock<Option<String>>,
    err: &mut dyn Write,
) -> Outcome {
    if let Some(p) = &d.printed {
        let _ = super::show_lines(err, &p.by, &p.lines);
    }
    let mut o = Outcome::failed(&file.display().to_string(), d);
    o.spec_hash = hash.get_or_init(|| solve::file_hash(file)).clone();
    o
}

/// [`solve_reporting`] one case at a time, each answer shown as soon as it is found.
fn solve_one_by_one(
    file: &Path,
    notation: &Notation,
    config: &Config,
    each: &mut dyn FnMut(Outcome) -> ControlFlow<()>,
) {
    let opts = &config.options;
    let hash = std::sync::OnceLock::new();
    let solve_one = |p: crate::diag::Result<solve::Prepared>| match p.and_then(|p| config.answer.fits(p)) {
        Err(d) => failed(file, &d, &hash, &mut io::stderr()),
        Ok(p) => {
            super::show_printed(&p);
            if config.trace || p.spec.trace {
                let style = super::style(notation);
                trace::solve_traced(&p, opts, style, config.trace_limit, io::stderr().lock())
            } else {
                match &p.model {
                    // A long single solve shows its progress, on a terminal only.
                    Model::Hop(m) if io::stderr().is_terminal() => {
                        let mut progress = Progress::new(m.start.count_ones()).holding(m.goal_cells());
                        let o = solve::solve_observed(&p, opts, &mut progress);
                        progress.finish();
                        o
                    }
                    _ => {
                        let _line = crate::render::progress::Ticker::start("searching");
                        solve::solve_prepared(&p, opts)
                    }
                }
            }
        }
    };
    formats::prepare(file, notation, opts, &mut |p| each(solve_one(p)));
}
