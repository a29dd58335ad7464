//! Puzzle notations: marbles' own YAML, Lisp peg lists and calls, −1/0/1 matrices and ICPC
//! "Marble Game" files, read into specs.
//!
//! [`NOTATIONS`] is the one list of them: each one's name for `--from`, its extensions, its
//! reader and the words help and messages use for it. A file's notation is `--from`, or else
//! the one claiming its extension, or else YAML. A Lisp file holds one or more boards or
//! `(peg-puzzle …)` calls, a matrix file one or more matrices, an ICPC file one or more cases;
//! each becomes its own puzzle. [`import`] turns a file into YAML specs. This module only
//! reads; answers in the notations' own words are written by `render::answer`.

pub mod icpc;
pub mod lisp;
pub mod matrix;

use crate::diag::{Diagnostic, Result};
use crate::solve::{self, Options, Prepared};
use crate::spec::{BoardSpec, Cell, Piece, Spec, TiltBoard};
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Reads the puzzles of a file's text (its path, its text without a byte-order mark) one at
/// a time, handing each to `emit` as soon as it is read; `emit` may stop the reading.
/// A notation's reader: hands each case to its callback as it is read, or a case's error
/// where the case breaks a check but the file can be followed past it; returns an error where
/// it cannot be.
pub type Reader = fn(&Path, &str, &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>) -> Result<()>;

/// How the puzzles of a file holding several are named.
#[derive(Debug)]
pub struct Several {
    /// One of them in a file name: `import` writes `<stem>_<word><k>.yaml`.
    pub word: &'static str,
    /// Several of them in a sentence: "Lisp calls".
    pub named: &'static str,
    /// Whether a file of one is numbered too (an ICPC file's lone case is `<stem>_case1.yaml`).
    pub even_one: bool,
}

/// A notation puzzle files are written in: one row of [`NOTATIONS`].
#[derive(Debug)]
pub struct Notation {
    /// Its name after `--from`.
    pub name: &'static str,
    /// What it is, in one line: its help under `--from`.
    pub about: &'static str,
    /// Its name in a sentence: "Lisp", "ICPC".
    pub label: &'static str,
    /// Its files in a sentence: "Lisp peg lists or calls".
    pub files: &'static str,
    /// The extensions of its files, in lower case and without the dot (any case is read).
    pub extensions: &'static [&'static str],
    /// How a file's puzzles are named when it holds several; `None`: one puzzle a file.
    pub several: Option<Several>,
    /// Whether text answers to its puzzles draw boards in Lisp letters (`x` a peg, `o` a
    /// hole), as its files write them.
    pub lisp_letters: bool,
    read: Reader,
}

impl PartialEq for Notation {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Notation {}

/// Every notation marbles reads, in the order `--from` lists them: the one list that the
/// command line, its help, the batch walk, import and the messages naming notations read.
/// A new notation is a reader module (`parse_each`, a [`Reader`]) and a row here.
pub const NOTATIONS: &[Notation] = &[
    Notation {
        name: "yaml",
        about: "marbles' own YAML specs",
        label: "YAML",
        files: "YAML",
        extensions: &["yaml", "yml"],
        several: None,
        lisp_letters: false,
        read: read_yaml,
    },
    Notation {
        name: "lisp",
        about: "A triangle as a list of rows, `((o) (x x) (x x x))`: x a peg, o an empty hole",
        label: "Lisp",
        files: "Lisp peg lists or calls",
        extensions: &["lisp", "lsp"],
        several: Some(Several {
            word: "call",
            named: "Lisp calls",
            even_one: false,
        }),
        lisp_letters: true,
        read: lisp::parse_each,
    },
    Notation {
        name: "icpc",
        about: "ICPC World Finals 2007 \"Marble Game\" cases: `N M W`, marbles, holes, walls, `0 0 0`",
        label: "ICPC",
        files: "ICPC Marble Game files",
        extensions: &["icpc"],
        several: Some(Several {
            word: "case",
            named: "ICPC cases",
            even_one: true,
        }),
        lisp_letters: false,
        read: icpc::parse_each,
    },
    Notation {
        name: "matrix",
        about: "A board as rows of 1 (peg), 0 (empty hole), -1 (no hole), brackets and commas allowed",
        label: "matrix",
        files: "matrices",
        extensions: &["matrix"],
        several: Some(Several {
            word: "board",
            named: "matrices",
            even_one: false,
        }),
        lisp_letters: false,
        read: matrix::parse_each,
    },
];

/// marbles' own YAML specs, one puzzle a file: the notation of a file no other claims.
pub const YAML: &Notation = &NOTATIONS[0];

impl Notation {
    /// `explicit` if given, else the notation claiming the file's extension (in any case),
    /// else YAML.
    pub fn of(path: &Path, explicit: Option<&'static Notation>) -> &'static Notation {
        explicit.unwrap_or_else(|| {
            let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
            ext.and_then(|ext| NOTATIONS.iter().find(|n| n.extensions.contains(&ext.as_str())))
                .unwrap_or(YAML)
        })
    }

    /// The notation called `name` after `--from`.
    pub fn named(name: &str) -> Option<&'static Notation> {
        NOTATIONS.iter().find(|n| n.name == name)
    }

    /// Whether a file at `path` is a puzzle file by its extension (in any case), as a batch
    /// walking folders takes them.
    pub fn claims(path: &Path) -> bool {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        ext.is_some_and(|ext| NOTATIONS.iter().any(|n| n.extensions.contains(&ext.as_str())))
    }

    /// `words` (its label, its files) followed by its extensions: `Lisp (.lisp, .lsp)`.
    pub fn with_extensions(&self, words: &str) -> String {
        let exts: Vec<String> = self.extensions.iter().map(|e| format!(".{e}")).collect();
        format!("{words} ({})", exts.join(", "))
    }
}

/// The notations beside YAML.
pub fn others() -> impl Iterator<Item = &'static Notation> {
    NOTATIONS.iter().filter(|n| *n != YAML)
}

/// Every puzzle file's name pattern, for messages: `*.yaml, *.yml, *.lisp, …`.
pub fn globs() -> String {
    let globs: Vec<String> = NOTATIONS
        .iter()
        .flat_map(|n| n.extensions)
        .map(|e| format!("*.{e}"))
        .collect();
    globs.join(", ")
}

/// A YAML file's one spec.
fn read_yaml(path: &Path, source: &str, emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>) -> Result<()> {
    let _ = emit(Ok(crate::spec::parse(path, source)?));
    Ok(())
}

/// The text of `path`, a file in `notation`, for a command that holds one of its cases at a
/// time: an ICPC file may be [`crate::spec::MAX_CASES_BYTES`] long (its reader holds the text
/// and one case: 64 MiB of 4.8 million cases peaked at 74 MiB). Lisp and matrix files keep
/// the 1 MiB of other puzzle files: a 64 MiB file of 9.6 million one-row matrices took 175 s
/// and 367 MiB, each board built by its script.
pub fn read_cases(path: &Path, notation: &Notation) -> Result<String> {
    match notation.name {
        "icpc" => crate::spec::input::read_text_up_to(path, crate::spec::MAX_CASES_BYTES),
        _ => crate::spec::read_text(path),
    }
}

/// Reads a file into its specs: a Lisp, matrix, ICPC… file (YAML files are read by [`crate::spec::load`]).
pub fn read(path: &Path, notation: &Notation) -> Result<Vec<Spec>> {
    parse(path, notation, &crate::spec::read_text(path)?)
}

/// The specs in `text`, the contents of `path` in `notation`.
pub fn parse(path: &Path, notation: &Notation, text: &str) -> Result<Vec<Spec>> {
    gather(|emit| read_each(path, text, notation, emit))
}

/// Every spec `read` hands on, or the first error: a case's or the file's.
fn gather(
    read: impl FnOnce(&mut dyn FnMut(Result<Spec>) -> ControlFlow<()>) -> Result<()>,
) -> Result<Vec<Spec>> {
    let mut specs = Vec::new();
    let mut fault = None;
    read(&mut |s| match s {
        Ok(s) => {
            specs.push(s);
            ControlFlow::Continue(())
        }
        Err(d) => {
            fault = Some(d);
            ControlFlow::Break(())
        }
    })?;
    fault.map_or(Ok(specs), Err)
}

/// The specs `read` finds in `text`, the contents of `path`, all at once.
fn collect(path: &Path, text: &str, read: Reader) -> Result<Vec<Spec>> {
    gather(|emit| read(path, text.strip_prefix('\u{feff}').unwrap_or(text), emit))
}

/// Reads the specs in `text` one at a time, handing each to `emit` as soon as it is read (and
/// the next one begun, for its name): a file of 300,000 cases never holds more than one, and
/// the cases before a broken one are handed on before its error. A case that breaks a check
/// is handed on as its error, in its turn, and the cases after it follow. `emit` may stop the
/// reading.
pub fn parse_each(
    path: &Path,
    notation: &Notation,
    text: &str,
    emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>,
) -> Result<()> {
    read_each(path, text, notation, emit)
}

/// How many cases `text` holds, read (no script runs) while `go_on`, told the count so far,
/// says to go on: the count, and whether it is the whole file's.
pub fn count_cases(
    path: &Path,
    notation: &Notation,
    text: &str,
    go_on: &mut dyn FnMut(u64) -> bool,
) -> (u64, bool) {
    let (mut n, mut whole) = (0, true);
    let _ = parse_each(path, notation, text, &mut |_| {
        n += 1;
        whole = go_on(n);
        match whole {
            true => ControlFlow::Continue(()),
            false => ControlFlow::Break(()),
        }
    });
    (n, whole)
}

/// [`parse_each`], each case of a notation without keys given the expectation a comment just
/// above it states (`; expect: unsolvable`, see [`crate::spec::expect`]); one that cannot be
/// read is an error at its line, after the cases before it.
fn read_each(
    path: &Path,
    text: &str,
    notation: &Notation,
    emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>,
) -> Result<()> {
    // Editors on some systems start a file with a byte-order mark; it is not part of the board.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if notation == YAML {
        return (notation.read)(path, text, emit);
    }
    // A line holding more than blanks and a comment.
    let content = |l: &str| !(l.trim().is_empty() || l.trim_start().starts_with([';', '#']));
    let first = || text.lines().position(content).map_or(1, |i| i + 1);
    let mut lines = crate::spec::expect::Lines::default();
    let (mut last, mut stopped) = (0, false);
    // The lines of the `expect:` comments given to a case: any other is refused at the end,
    // but for those above a case that breaks a check (between the case before it and its
    // fault's line), which go with it unread.
    let mut taken = std::collections::HashSet::new();
    let mut broken: Vec<(usize, usize)> = Vec::new();
    let read = (notation.read)(path, text, &mut |s| {
        let mut s = match s {
            Ok(s) => s,
            Err(d) => {
                let at = d.line.unwrap_or(0);
                broken.push((last, at));
                last = last.max(at);
                let flow = emit(Err(d));
                stopped = flow.is_break();
                return flow;
            }
        };
        let line = s.line.unwrap_or_else(first);
        // The case's last line of text: a comment inside the last case is inside it, one
        // after its text (a file of one case keeps the file's end as its source) below it.
        let spans = s
            .source
            .lines()
            .enumerate()
            .filter(|(_, l)| content(l))
            .last()
            .map_or(0, |(i, _)| i);
        last = last.max(line + spans);
        let start = lines.start(text, line);
        match crate::spec::expect::in_comment_above(text, start, line) {
            Ok(found) => {
                s.expect = found.map(|(e, at)| {
                    taken.insert(at);
                    s.expect_line = Some(at);
                    e
                })
            }
            // The case is this error, in its turn; the cases after it are still read. Its
            // comments are told of here, not again as given to no case.
            Err((why, at)) => {
                taken.extend(crate::spec::expect::comment_lines_above(text, start, line));
                taken.insert(at);
                let flow = emit(Err(Diagnostic::new(path, why)
                    .at(Some(at), None)
                    .of_case(&s.name)));
                stopped = flow.is_break();
                return flow;
            }
        }
        let flow = emit(Ok(s));
        stopped = flow.is_break();
        flow
    });
    if read.is_err() || stopped || last == 0 {
        return read;
    }
    // The ranges come in file order, so the one a line could be in is found by halving.
    let refused = expect_of_no_case(path, text, last, &|line| {
        let k = broken.partition_point(|&(after, _)| after < line);
        taken.contains(&line) || (k > 0 && line < broken[k - 1].1)
    });
    refused.map_or(read, Err)
}

/// An `expect:` comment given to no case (`taken` holds the lines of those that were): inside
/// a case, after the last one (line `last`), or at the end of a line of text. Refused at its
/// line rather than dropped.
fn expect_of_no_case(
    path: &Path,
    text: &str,
    last: usize,
    taken: &dyn Fn(usize) -> bool,
) -> Option<Diagnostic> {
    use crate::spec::expect::expect_comment;
    let mut refused = text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.trim();
        let why = match l.starts_with([';', '#']).then(|| expect_comment(l)) {
            // After text on its line: every `;` or `#` may start the comment.
            None => {
                let ends = l
                    .match_indices([';', '#'])
                    .any(|(at, _)| matches!(expect_comment(&l[at..]), Ok(Some(_))));
                ends.then(|| {
                    "this `expect:` comment ends a line of text, where it is not read: write it on a \
                     line of its own just above the case it is about"
                        .to_string()
                })?
            }
            Some(Ok(None)) => return None,
            Some(Ok(Some(_))) if taken(i + 1) => return None,
            Some(Ok(Some(_))) if i + 1 > last => {
                "this `expect:` comment is below the last case and belongs to \
                                             none: write it on the line just above the case it is about"
                    .to_string()
            }
            Some(Ok(Some(_))) => "this `expect:` comment is inside a case, not just above one: write it \
                                  on the line just above the case it is about"
                .to_string(),
            Some(Err(_)) if i < last => return None,
            Some(Err(why)) => why,
        };
        Some((i + 1, why))
    });
    // The first is told with its reason, the others by their lines, after the reason they
    // share (the first's, or one of their own): all are to be mended.
    let (line, why) = refused.next()?;
    let mut reasons: Vec<(String, Vec<String>)> = vec![(why, Vec::new())];
    for (n, why) in refused {
        match reasons.iter_mut().find(|(w, _)| *w == why) {
            Some((_, lines)) => lines.push(n.to_string()),
            None => reasons.push((why, vec![n.to_string()])),
        }
    }
    let at = |lines: &[String]| match lines {
        [one] => format!("the one at line {one}"),
        more => format!("those at lines {}", more.join(", ")),
    };
    let mut message = String::new();
    for (k, (why, lines)) in reasons.iter().enumerate() {
        match (k, lines.is_empty()) {
            (0, true) => message.push_str(why),
            (0, false) => message.push_str(&format!("{why} (and {})", at(lines))),
            (_, _) => message.push_str(&format!("; {}: {why}", at(lines))),
        }
    }
    let mut d = Diagnostic::new(path, message).at(Some(line), None);
    d.after_the_cases = true;
    Some(d)
}

/// Reads puzzles from `next` and hands each to `send` (its index, it, and whether the file
/// holds more than one) once the next has been read or the file has ended: a puzzle's name
/// says "call k" only in a file of several. A read error hands on the puzzle before it first.
/// `none` is the error for a file of no puzzle at all.
fn stream<T>(
    mut next: impl FnMut() -> Result<Option<T>>,
    mut send: impl FnMut(usize, T, bool) -> Result<ControlFlow<()>>,
    none: impl FnOnce() -> Diagnostic,
) -> Result<()> {
    let mut pending: Option<T> = None;
    let mut k = 0;
    loop {
        let item = match next() {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(e) => {
                if let Some(p) = pending.take() {
                    let _ = send(k, p, true)?;
                }
                return Err(e);
            }
        };
        if let Some(p) = pending.replace(item) {
            if send(k, p, true)?.is_break() {
                return Ok(());
            }
            k += 1;
        }
    }
    match pending {
        None => Err(none()),
        Some(p) => send(k, p, k > 0).map(|_| ()),
    }
}

/// Reads a file and compiles its puzzles one at a time, handing each to `f` as it is ready:
/// one for YAML, one per call, matrix or case for the others. A file of 20,000 cases holds
/// one compiled puzzle (its script's tables, its model) and one read case at a time, so a
/// memory limit covers the case being solved and not the ones before or after it. A file that
/// cannot be read at all, or a case that cannot be read, gives an error in its turn. Ctrl-C
/// stops between any two cases; so does `f`.
pub fn prepare(
    path: &Path,
    notation: &Notation,
    opts: &Options,
    f: &mut dyn FnMut(Result<Prepared>) -> ControlFlow<()>,
) {
    if notation == YAML {
        let _ = f(solve::prepare(path, opts));
        return;
    }
    match read_cases(path, notation) {
        Err(d) => {
            let _ = f(Err(d));
        }
        Ok(text) => prepare_text(path, notation, &text, opts, 0, f),
    }
}

/// [`prepare`] on `text`, the bytes of `path` already read: what is solved is exactly what
/// was read (and hashed), whatever happens to the file meanwhile. The first `skip` cases are
/// read past, neither prepared nor handed to `f`.
pub fn prepare_text(
    path: &Path,
    notation: &Notation,
    text: &str,
    opts: &Options,
    skip: usize,
    f: &mut dyn FnMut(Result<Prepared>) -> ControlFlow<()>,
) {
    let mut scripts = Scripts::default();
    let mut seen = 0;
    let read = parse_each(path, notation, text, &mut |s| {
        if cancelled() {
            return ControlFlow::Break(());
        }
        seen += 1;
        match seen > skip {
            true => f(s.and_then(|s| scripts.prepare(s, opts))),
            false => ControlFlow::Continue(()),
        }
    });
    if let Err(d) = read
        && !cancelled()
    {
        let _ = f(Err(d));
    }
}

fn cancelled() -> bool {
    crate::process::CANCELLED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The rule scripts the cases of one file name: found once, not once a case (every case of
/// a file names its rules alike, and finding one takes system calls).
#[derive(Default)]
pub(crate) struct Scripts(Option<(String, crate::script::Script)>);

impl Scripts {
    /// The script of a case, as [`crate::script::resolve`] finds it.
    pub(crate) fn of(&mut self, s: &Spec) -> Result<crate::script::Script> {
        match &self.0 {
            Some((rules, script)) if *rules == s.rules => Ok(script.clone()),
            _ => {
                let script = crate::script::resolve(s)?;
                self.0 = Some((s.rules.clone(), script.clone()));
                Ok(script)
            }
        }
    }

    /// A case's spec and its script, found; an error put at the case's line, of the case by
    /// its name.
    fn find(&mut self, s: Spec) -> Result<(Spec, crate::script::Script)> {
        let script = self.of(&s).map_err(|d| locate_in(d, &s).of_case(&s.name))?;
        Ok((s, script))
    }

    fn prepare(&mut self, s: Spec, opts: &Options) -> Result<Prepared> {
        self.find(s).and_then(|(s, script)| compile(s, script, opts))
    }
}

/// A case compiled with its script, an error put at the case's line.
fn compile(s: Spec, script: crate::script::Script, opts: &Options) -> Result<Prepared> {
    let (file, name, line) = (s.path.clone(), s.name.clone(), s.line);
    solve::prepare_with(s, script, opts).map_err(|d| locate(d, &file, &name, line))
}

fn locate_in(d: Diagnostic, s: &Spec) -> Diagnostic {
    locate(d, &s.path, &s.name, s.line)
}

/// Cases read ahead and solved at once by [`solve_text_parallel`].
const CHUNK: usize = 256;

/// The average time a case of a file's first chunk may take for the file to be solved on the
/// reading thread rather than on the pool (see `solve_text_parallel`).
const INLINE_CASE: std::time::Duration = std::time::Duration::from_micros(50);

/// Compiles and solves the puzzles of `text` (the bytes of `path`) on `jobs` threads,
/// `solve` turning each compiled case (or its error) into a `T`, and hands each `T` to `emit`
/// in file order, as [`prepare_text`] would hand on the cases. Cases are read a chunk of
/// `CHUNK` (256) at a time, the next chunk read (and the last one's answers handed on) while one
/// is solved, so memory holds at most three chunks' cases and answers whatever the file's
/// size. Ctrl-C stops between chunks; so does `emit`.
pub fn solve_text_parallel<T: Send>(
    path: &Path,
    notation: &Notation,
    text: &str,
    opts: &Options,
    jobs: usize,
    solve: &(dyn Fn(Result<Prepared>) -> T + Sync),
    emit: &mut dyn FnMut(T) -> ControlFlow<()>,
) {
    use rayon::prelude::*;
    use std::sync::mpsc;
    type Chunk = Vec<Result<(Spec, crate::script::Script)>>;
    // After Ctrl-C a case not yet begun is not begun (`None`): what was answered is handed on
    // up to the first of those, as one case at a time would.
    let each = &|c: Result<(Spec, crate::script::Script)>| {
        (!cancelled()).then(|| solve(c.and_then(|(s, script)| compile(s, script, opts))))
    };
    std::thread::scope(|s| {
        let (chunks, to_solve) = mpsc::sync_channel::<Chunk>(2);
        let (answered, answers) = mpsc::sync_channel::<Vec<Option<T>>>(2);
        s.spawn(move || {
            // Built when the first chunk comes (a file solved on the reading thread sends none);
            // without one, the chunks are solved on this thread.
            let mut pool = None;
            for chunk in to_solve {
                let pool = pool
                    .get_or_insert_with(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build().ok());
                let out: Vec<Option<T>> = match pool {
                    Some(pool) => pool.install(|| chunk.into_par_iter().map(each).collect()),
                    None => chunk.into_iter().map(each).collect(),
                };
                if answered.send(out).is_err() {
                    break;
                }
            }
        });
        // Chunks sent and not yet answered: at most two, one solving and one waiting.
        let mut in_flight = 0;
        let mut stopped = false;
        let mut hand_on = |answers: Vec<Option<T>>, stopped: &mut bool| {
            for a in answers {
                match a {
                    Some(a) if !*stopped => *stopped = emit(a).is_break(),
                    _ => *stopped = true,
                }
            }
        };
        // The first chunk is solved here, timed: cases that take a few microseconds each (a
        // file of small ICPC mazes) go faster on this one thread than handed between threads
        // (20,000 cases: 0.127 s here against 0.162 s on two cores, where allocations freed by
        // another thread contend), so the rest follow them here; heavier cases go to the pool.
        let mut here: Option<bool> = None;
        let mut send = |chunk: Chunk, in_flight: &mut usize, stopped: &mut bool| {
            if here != Some(false) {
                let (started, n) = (std::time::Instant::now(), chunk.len() as u32);
                let out = chunk.into_iter().map(each).collect();
                hand_on(out, stopped);
                here.get_or_insert(started.elapsed() < INLINE_CASE * n);
                return;
            }
            if *in_flight == 2
                && let Ok(a) = answers.recv()
            {
                *in_flight -= 1;
                hand_on(a, stopped);
            }
            if !*stopped && chunks.send(chunk).is_ok() {
                *in_flight += 1;
            }
        };
        let mut scripts = Scripts::default();
        let mut chunk: Chunk = Vec::with_capacity(CHUNK);
        let read = parse_each(path, notation, text, &mut |s| {
            if cancelled() || stopped {
                return ControlFlow::Break(());
            }
            chunk.push(s.and_then(|s| scripts.find(s)));
            if chunk.len() == CHUNK {
                send(std::mem::take(&mut chunk), &mut in_flight, &mut stopped);
            }
            ControlFlow::Continue(())
        });
        if !chunk.is_empty() && !cancelled() {
            send(chunk, &mut in_flight, &mut stopped);
        }
        let _ = send;
        drop(chunks);
        for a in answers.iter().take(in_flight) {
            hand_on(a, &mut stopped);
        }
        if let Err(d) = read
            && !cancelled()
            && !stopped
        {
            let _ = emit(solve(Err(d)));
        }
    });
}

/// The `case`-th puzzle of a file (from 1), compiled alone, beside the number of puzzles
/// read: all of them, or, when a later case cannot be read, those before it. `None` when the
/// file holds fewer; an error when it cannot be read up to that case.
pub fn prepare_case(
    path: &Path,
    notation: &Notation,
    opts: &Options,
    case: usize,
) -> Result<(usize, Option<Result<Prepared>>)> {
    if notation == YAML {
        if case != 1 {
            // A file that cannot be read says so, not that it holds one case.
            crate::spec::read_text(path)?;
        }
        return Ok((1, (case == 1).then(|| solve::prepare(path, opts))));
    }
    let text = read_cases(path, notation)?;
    let (mut count, mut chosen) = (0, None);
    let read = parse_each(path, notation, &text, &mut |s| {
        count += 1;
        if count == case {
            chosen = Some(s);
        }
        ControlFlow::Continue(())
    });
    match (read, chosen) {
        (Err(d), None) => Err(d),
        (_, spec) => Ok((count, spec.map(|s| s.and_then(|s| solve::prepare_spec(s, opts))))),
    }
}

/// A case's own error `d` in a file of `several`, its message led by the case's `name`.
fn named(d: Diagnostic, name: &str, several: bool) -> Diagnostic {
    match several {
        true => Diagnostic {
            message: format!("{name}: {}", d.message),
            ..d
        }
        .of_case(name),
        false => d,
    }
}

/// An error found compiling one puzzle of a file holding several (at `line`): one in the
/// puzzle itself is put at its line, one in its rule script names the puzzle, so that a
/// message among thousands leads back to its case.
fn locate(d: Diagnostic, path: &Path, name: &str, line: Option<usize>) -> Diagnostic {
    let Some(line) = line else {
        return d;
    };
    let d = d.of_case(name);
    if d.file == path && d.line.is_none() {
        let message = format!("{name}: {}", d.message);
        Diagnostic { message, ..d }.at(Some(line), None)
    } else if d.file != path {
        let message = format!("{} (compiling {name}, {}:{line})", d.message, path.display());
        Diagnostic { message, ..d }
    } else {
        d
    }
}

/// A spec as YAML text that [`crate::spec::parse`] reads back to the same puzzle.
pub fn to_yaml(spec: &Spec, origin: &str) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    let mut y = format!(
        "name: {}\ndescription: {}\nrules: {}\n",
        quote(&spec.name),
        quote(&format!("imported from {origin}")),
        spec.rules
    );
    match &spec.board {
        BoardSpec::Grid(g) => {
            y.push_str("board: |2  # \"2\": rows keep their leading spaces\n");
            for r in 0..g.rows.len() {
                let _ = writeln!(y, "  {}", g.drawn_row(r));
            }
        }
        BoardSpec::Tilt(TiltBoard {
            size,
            marbles,
            holes,
            walls,
            exits,
            pieces,
        }) => {
            let cells = |v: &[Cell]| {
                let items: Vec<String> = v.iter().map(|c| format!("[{}, {}]", c[0], c[1])).collect();
                format!("[{}]", items.join(", "))
            };
            let walls: Vec<String> = walls.iter().map(|w| cells(w)).collect();
            let _ = writeln!(y, "size: {size}");
            if pieces.is_empty() {
                let _ = write!(y, "marbles: {}\nholes: {}\n", cells(marbles), cells(holes));
            } else {
                let kind = |want: Piece| -> Vec<Cell> {
                    marbles
                        .iter()
                        .zip(pieces)
                        .filter(|(_, p)| **p == want)
                        .map(|(c, _)| *c)
                        .collect()
                };
                let _ = write!(
                    y,
                    "exits: {}\nsliders: {}\nblockers: {}\n",
                    cells(exits),
                    cells(&kind(Piece::Slider)),
                    cells(&kind(Piece::Blocker))
                );
            }
            let _ = writeln!(y, "walls: [{}]", walls.join(", "));
        }
    }
    if let Some(e) = spec.expect {
        let _ = writeln!(y, "expect: {}", quote(&e.words()));
    }
    if !spec.ratings.is_empty() {
        y.push_str("ratings:\n");
        for (n, words) in &spec.ratings {
            let _ = writeln!(y, "  {n}: {}", quote(words));
        }
    }
    y
}

/// The puzzles `file` holds and the paths [`import`] would write them to in `out`, or why it
/// cannot be imported (a YAML spec, a file that cannot be read).
pub fn import_plan(file: &Path, notation: &Notation, out: &Path) -> Result<(Vec<Spec>, Vec<PathBuf>)> {
    if notation == YAML {
        let names: Vec<&str> = others().map(|n| n.name).collect();
        let others: Vec<String> = others().map(|n| n.with_extensions(n.label)).collect();
        let yaml_named = (file.extension().and_then(|e| e.to_str()))
            .is_some_and(|e| YAML.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)));
        let reads = format!("import reads {} files", crate::diag::listed(&others, "and"));
        let why = if yaml_named {
            format!("is already a YAML spec; {reads}")
        } else {
            format!(
                "{reads}, known by their names; for this one say --from {}",
                crate::diag::listed(&names, "or")
            )
        };
        return Err(Diagnostic::new(file, why));
    }
    let specs = read(file, notation)?;
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    let several = (notation.several.as_ref())
        .filter(|s| s.even_one || specs.len() > 1)
        .map(|s| s.word);
    let paths: Vec<PathBuf> = (1..=specs.len())
        .map(|k| match several {
            Some(word) => out.join(format!("{stem}_{word}{k}.yaml")),
            None => out.join(format!("{stem}.yaml")),
        })
        .collect();
    Ok((specs, paths))
}

/// Writes `file`'s puzzles as YAML specs into `out`: `<stem>.yaml` for a file holding one
/// puzzle, `<stem>_<word><k>.yaml` for each of several (the notation's [`Several::word`]:
/// `_call1` for a Lisp call, `_board1` for a matrix; an ICPC file's cases are numbered even
/// when there is one, [`Several::even_one`]). Each is read back before it is written,
/// so an import never leaves a spec that says something else. `plan` is the file's puzzles and
/// their paths, from [`import_plan`] (two files bound for one name are the caller's to refuse).
/// An existing file is refused unless `force`; nothing of `file` is written then. Returns the
/// paths written.
pub fn import(
    file: &Path,
    (specs, paths): (Vec<Spec>, Vec<PathBuf>),
    out: &Path,
    force: bool,
) -> Result<Vec<PathBuf>> {
    if !force && let Some(there) = paths.iter().find(|p| p.exists()) {
        return Err(Diagnostic::new(
            there,
            format!(
                "already exists; not overwritten (importing {}): pass --force to replace it",
                file.display()
            ),
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        // A link to nothing (or to a file) said only "File exists".
        let why = match std::fs::read_link(out.components().as_path()) {
            Ok(to) => format!("it is a link to {}, which is no folder", to.display()),
            Err(_) => e.to_string(),
        };
        Diagnostic::new(out, format!("cannot create the folder: {why}"))
    })?;
    let mut planned = Vec::new();
    for (spec, path) in specs.iter().zip(paths) {
        let text = to_yaml(spec, &file.display().to_string());
        let back = crate::spec::parse(&path, &text)?;
        if back.board != spec.board || back.ratings != spec.ratings || back.rules != spec.rules {
            return Err(Diagnostic::new(
                &path,
                "internal error: the YAML written does not read back as the same puzzle",
            ));
        }
        planned.push((path, text));
    }
    let mut written = Vec::new();
    for (path, text) in planned {
        let mut open = std::fs::OpenOptions::new();
        open.write(true);
        // Without --force, a file that appeared since the check above is still not overwritten;
        // with it, a link in the file's place, symbolic or hard, is refused, not written
        // through: opened without truncating, so that it is emptied only once `owned` has
        // found it is this name's alone.
        if force {
            open.create(true).truncate(false);
        } else {
            open.create_new(true);
        }
        crate::owned::open(&path, &mut open)
            .and_then(|mut f| {
                f.set_len(0)?;
                std::io::Write::write_all(&mut f, text.as_bytes())
            })
            .map_err(|e| Diagnostic::new(&path, format!("cannot write: {e}")))?;
        written.push(path);
    }
    Ok(written)
}

/// The names and texts of the `count` puzzles a file at `path` holds: a lone puzzle is the
/// whole file, named after it; one of several is `<stem> <word> <k+1>`, its own lines (so
/// that each has its own hash). The file is split into lines once, not once per puzzle (a
/// file of 100,000 matrices took minutes, quadratic, before any case was prepared).
struct Parts<'a> {
    stem: String,
    source: &'a str,
    /// The source's lines, split when a file turns out to hold several puzzles.
    lines: std::cell::OnceCell<Vec<&'a str>>,
    word: &'static str,
}

impl<'a> Parts<'a> {
    fn new(path: &Path, source: &'a str, word: &'static str) -> Self {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Parts {
            stem,
            source,
            lines: std::cell::OnceCell::new(),
            word,
        }
    }

    /// The name and text of puzzle `k` (0-based), spanning the 1-based lines `span`, in a
    /// file holding `several` puzzles or just this one.
    fn get(&self, k: usize, span: (usize, usize), several: bool) -> (String, String) {
        if !several {
            return (self.stem.clone(), self.source.to_string());
        }
        let text = self
            .lines
            .get_or_init(|| self.source.lines().collect())
            .get(span.0 - 1..span.1)
            .map(|ls| ls.join("\n"))
            .unwrap_or_default();
        (format!("{} {} {}", self.stem, self.word, k + 1), text)
    }
}

/// A located token of a text file: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    /// A diagnostic at this position.
    pub fn error(self, file: &Path, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(file, message).at(Some(self.line), Some(self.col))
    }
}

/// Splits text into tokens with their positions: `(` and `)` alone, a `;` comment skipped to
/// the end of its line, everything else at whitespace and parentheses. Tokens are read as
/// they are taken, so a file of a million tokens never holds them all at once.
pub fn tokens(source: &str) -> Lexer<'_> {
    Lexer {
        rest: source,
        line: 1,
        col: 0,
        peeked: None,
        last: Pos { line: 1, col: 1 },
    }
}

/// The tokens of a text, read lazily, with one token of look-ahead.
pub struct Lexer<'a> {
    /// The text not yet read.
    rest: &'a str,
    line: usize,
    /// Characters of the current line already read.
    col: usize,
    peeked: Option<Option<(Pos, &'a str)>>,
    /// Where the last token taken (not merely peeked at) starts.
    pub last: Pos,
}

impl<'a> Lexer<'a> {
    fn advance(&mut self, bytes: usize, chars: usize) {
        self.rest = &self.rest[bytes..];
        self.col += chars;
    }

    fn scan(&mut self) -> Option<(Pos, &'a str)> {
        loop {
            let ch = self.rest.chars().next()?;
            let pos = Pos {
                line: self.line,
                col: self.col + 1,
            };
            match ch {
                '\n' => {
                    self.rest = &self.rest[1..];
                    self.line += 1;
                    self.col = 0;
                }
                ';' => {
                    let end = self.rest.find('\n').unwrap_or(self.rest.len());
                    self.rest = &self.rest[end..];
                }
                '(' | ')' => {
                    let tok = &self.rest[..1];
                    self.advance(1, 1);
                    return Some((pos, tok));
                }
                c if c.is_whitespace() => self.advance(c.len_utf8(), 1),
                _ => {
                    let (mut bytes, mut chars) = (0, 0);
                    for c in self.rest.chars() {
                        if c.is_whitespace() || matches!(c, '(' | ')' | ';') {
                            break;
                        }
                        bytes += c.len_utf8();
                        chars += 1;
                    }
                    let tok = &self.rest[..bytes];
                    self.advance(bytes, chars);
                    return Some((pos, tok));
                }
            }
        }
    }

    /// The next token, left to be taken.
    pub fn peek(&mut self) -> Option<&(Pos, &'a str)> {
        if self.peeked.is_none() {
            self.peeked = Some(self.scan());
        }
        self.peeked.as_ref().and_then(Option::as_ref)
    }

    /// The next token if `pred` holds of it.
    pub fn next_if(&mut self, pred: impl FnOnce(&(Pos, &'a str)) -> bool) -> Option<(Pos, &'a str)> {
        match self.peek() {
            Some(t) if pred(t) => self.next(),
            _ => None,
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = (Pos, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let t = match self.peeked.take() {
            Some(t) => t,
            None => self.scan(),
        };
        if let Some((pos, _)) = t {
            self.last = pos;
        }
        t
    }
}

/// The position just past the end of the text, for "ends early" errors.
pub fn end_pos(source: &str) -> Pos {
    let line = source.lines().count().max(1);
    let col = source.lines().last().map_or(0, |l| l.chars().count()) + 1;
    Pos { line, col }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_extension_belongs_to_one_notation() {
        let mut names: Vec<&str> = NOTATIONS.iter().map(|n| n.name).collect();
        let mut exts: Vec<&str> = NOTATIONS
            .iter()
            .flat_map(|n| n.extensions.iter().copied())
            .collect();
        let (name_count, ext_count) = (names.len(), exts.len());
        names.sort();
        names.dedup();
        exts.sort();
        exts.dedup();
        assert_eq!((names.len(), exts.len()), (name_count, ext_count));
        assert!(exts.iter().all(|e| *e == e.to_ascii_lowercase()), "{exts:?}");
        assert_eq!(YAML.name, "yaml");
    }

    #[test]
    fn a_file_is_read_by_its_extension_in_any_case_else_as_yaml() {
        let of = |p: &str| Notation::of(Path::new(p), None).name;
        assert_eq!(of("a/b.LSP"), "lisp");
        assert_eq!(of("b.Matrix"), "matrix");
        assert_eq!(of("b.icpc"), "icpc");
        assert_eq!(of("b.yml"), "yaml");
        assert_eq!(of("b.txt"), "yaml");
        assert_eq!(of("b"), "yaml");
        assert_eq!(
            Notation::of(Path::new("b.icpc"), Notation::named("lisp")).name,
            "lisp"
        );
        assert!(Notation::claims(Path::new("b.YAML")) && !Notation::claims(Path::new("b.txt")));
        assert_eq!(globs(), "*.yaml, *.yml, *.lisp, *.lsp, *.icpc, *.matrix");
    }
}
