//! Classic puzzle notations beside YAML: Lisp peg lists and calls, −1/0/1 matrices and ICPC "Marble Game" files, read into specs.
//!
//! A file's notation is `--from`, or else its extension: `.lisp`/`.lsp` Lisp, `.matrix`
//! matrix, `.icpc` ICPC, anything else YAML. A Lisp file holds one or more boards or
//! `(peg-puzzle …)` calls, a matrix file one or more matrices, an ICPC file one or more cases;
//! each becomes its own puzzle. [`import`] turns a file into YAML specs. This module only
//! reads; answers in the notations' own words are written by `render::answer`.

pub mod icpc;
pub mod lisp;
pub mod matrix;

use crate::diag::{Diagnostic, Result};
use crate::solve::{self, Options, Prepared};
use crate::spec::{BoardSpec, Cell, Spec, TiltBoard};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The notation a puzzle file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// marbles' own YAML specs.
    Yaml,
    /// A triangle as a list of rows, `((o) (x x) (x x x))`: x a peg, o an empty hole.
    Lisp,
    /// ICPC World Finals 2007 "Marble Game" cases: `N M W`, marbles, holes, walls, `0 0 0`.
    Icpc,
    /// A board as a matrix of 1 (peg), 0 (empty hole) and -1 (no hole), one row per line.
    Matrix,
}

impl Notation {
    /// `explicit` if given, else guessed from the file's extension.
    pub fn of(path: &Path, explicit: Option<Notation>) -> Notation {
        explicit.unwrap_or_else(|| {
            match path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .as_deref()
            {
                Some("lisp" | "lsp") => Notation::Lisp,
                Some("icpc") => Notation::Icpc,
                Some("matrix") => Notation::Matrix,
                _ => Notation::Yaml,
            }
        })
    }
}

/// Reads a Lisp, matrix or ICPC file into its specs (YAML files are read by [`crate::spec::load`]).
pub fn read(path: &Path, notation: Notation) -> Result<Vec<Spec>> {
    parse(path, notation, &crate::spec::read_text(path)?)
}

/// The specs in `text`, the contents of `path` in `notation`.
pub fn parse(path: &Path, notation: Notation, text: &str) -> Result<Vec<Spec>> {
    let mut specs = Vec::new();
    parse_each(path, notation, text, &mut |s| {
        specs.push(s);
        ControlFlow::Continue(())
    })?;
    Ok(specs)
}

/// Reads the specs in `text` one at a time, handing each to `emit` as soon as it is read (and
/// the next one begun, for its name): a file of 300,000 cases never holds more than one, and
/// the cases before a broken one are handed on before its error. `emit` may stop the reading.
pub fn parse_each(
    path: &Path,
    notation: Notation,
    text: &str,
    emit: &mut dyn FnMut(Spec) -> ControlFlow<()>,
) -> Result<()> {
    // Editors on some systems start a file with a byte-order mark; it is not part of the board.
    let source = text.strip_prefix('\u{feff}').unwrap_or(text);
    match notation {
        Notation::Lisp => lisp::parse_each(path, source, emit),
        Notation::Matrix => matrix::parse_each(path, source, emit),
        Notation::Icpc => icpc::parse_each(path, source, emit),
        Notation::Yaml => {
            let _ = emit(crate::spec::parse(path, source)?);
            Ok(())
        }
    }
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
    notation: Notation,
    opts: &Options,
    f: &mut dyn FnMut(Result<Prepared>) -> ControlFlow<()>,
) {
    if notation == Notation::Yaml {
        let _ = f(solve::prepare(path, opts));
        return;
    }
    match crate::spec::read_text(path) {
        Err(d) => {
            let _ = f(Err(d));
        }
        Ok(text) => prepare_text(path, notation, &text, opts, f),
    }
}

/// [`prepare`] on `text`, the bytes of `path` already read: what is solved is exactly what
/// was read (and hashed), whatever happens to the file meanwhile.
pub fn prepare_text(
    path: &Path,
    notation: Notation,
    text: &str,
    opts: &Options,
    f: &mut dyn FnMut(Result<Prepared>) -> ControlFlow<()>,
) {
    let mut scripts = Scripts::default();
    let read = parse_each(path, notation, text, &mut |s| {
        if cancelled() {
            return ControlFlow::Break(());
        }
        f(scripts.prepare(s, opts))
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
struct Scripts(Option<(String, crate::script::Script)>);

impl Scripts {
    /// A case's spec and its script, found; an error put at the case's line.
    fn find(&mut self, s: Spec, opts: &Options) -> Result<(Spec, crate::script::Script)> {
        let script = match &self.0 {
            Some((rules, script)) if *rules == s.rules => script.clone(),
            _ => {
                let script = crate::script::resolve(&s, &opts.rules_roots).map_err(|d| locate_in(d, &s))?;
                self.0 = Some((s.rules.clone(), script.clone()));
                script
            }
        };
        Ok((s, script))
    }

    fn prepare(&mut self, s: Spec, opts: &Options) -> Result<Prepared> {
        self.find(s, opts)
            .and_then(|(s, script)| compile(s, script, opts))
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

/// Compiles and solves the puzzles of `text` (the bytes of `path`) on `jobs` threads,
/// `solve` turning each compiled case (or its error) into a `T`, and hands each `T` to `emit`
/// in file order, as [`prepare_text`] would hand on the cases. Cases are read a chunk of
/// `CHUNK` (256) at a time, the next chunk read (and the last one's answers handed on) while one
/// is solved, so memory holds at most three chunks' cases and answers whatever the file's
/// size. Ctrl-C stops between chunks; so does `emit`.
pub fn solve_text_parallel<T: Send>(
    path: &Path,
    notation: Notation,
    text: &str,
    opts: &Options,
    jobs: usize,
    solve: &(dyn Fn(Result<Prepared>) -> T + Sync),
    emit: &mut dyn FnMut(T) -> ControlFlow<()>,
) {
    use rayon::prelude::*;
    use std::sync::mpsc;
    type Chunk = Vec<Result<(Spec, crate::script::Script)>>;
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
        Ok(pool) => pool,
        Err(_) => return prepare_text(path, notation, text, opts, &mut |p| emit(solve(p))),
    };
    std::thread::scope(|s| {
        let (chunks, to_solve) = mpsc::sync_channel::<Chunk>(2);
        let (answered, answers) = mpsc::sync_channel::<Vec<Option<T>>>(2);
        s.spawn(move || {
            for chunk in to_solve {
                // After Ctrl-C a case not yet begun is not begun (`None`): what was answered
                // is handed on up to the first of those, as one case at a time would.
                let out: Vec<Option<T>> = pool.install(|| {
                    chunk
                        .into_par_iter()
                        .map(|c| {
                            (!cancelled()).then(|| solve(c.and_then(|(s, script)| compile(s, script, opts))))
                        })
                        .collect()
                });
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
        let mut send = |chunk: Chunk, in_flight: &mut usize, stopped: &mut bool| {
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
            chunk.push(scripts.find(s, opts));
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
    notation: Notation,
    opts: &Options,
    case: usize,
) -> Result<(usize, Option<Result<Prepared>>)> {
    if notation == Notation::Yaml {
        return Ok((1, (case == 1).then(|| solve::prepare(path, opts))));
    }
    let text = crate::spec::read_text(path)?;
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
        (_, spec) => Ok((count, spec.map(|s| solve::prepare_spec(s, opts)))),
    }
}

/// An error found compiling one puzzle of a file holding several (at `line`): one in the
/// puzzle itself is put at its line, one in its rule script names the puzzle, so that a
/// message among thousands leads back to its case.
fn locate(d: Diagnostic, path: &Path, name: &str, line: Option<usize>) -> Diagnostic {
    let Some(line) = line else {
        return d;
    };
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
        }) => {
            let cells = |v: &[Cell]| {
                let items: Vec<String> = v.iter().map(|c| format!("[{}, {}]", c[0], c[1])).collect();
                format!("[{}]", items.join(", "))
            };
            let walls: Vec<String> = walls.iter().map(|w| cells(w)).collect();
            let _ = write!(
                y,
                "size: {size}\nmarbles: {}\nholes: {}\nwalls: [{}]\n",
                cells(marbles),
                cells(holes),
                walls.join(", ")
            );
        }
    }
    if !spec.ratings.is_empty() {
        y.push_str("ratings:\n");
        for (n, words) in &spec.ratings {
            let _ = writeln!(y, "  {n}: {}", quote(words));
        }
    }
    y
}

/// Writes `file`'s puzzles as YAML specs into `out`: `<stem>.yaml` for a Lisp or matrix
/// file holding one puzzle, `<stem>_call<k>.yaml` / `<stem>_board<k>.yaml` for each of
/// several, `<stem>_case<k>.yaml` for each ICPC case. Each is read back before it is written,
/// so an import never leaves a spec that says something else. A spec already in `claimed`
/// (written from another file in the same import) is refused naming both files, and so is an
/// existing file unless `force`; nothing of `file` is written then. Returns the paths
/// written, each added to `claimed` with `file`.
pub fn import(
    file: &Path,
    notation: Notation,
    out: &Path,
    force: bool,
    claimed: &mut HashMap<PathBuf, PathBuf>,
) -> Result<Vec<PathBuf>> {
    if notation == Notation::Yaml {
        return Err(Diagnostic::new(
            file,
            "is already a YAML spec; import reads Lisp (.lisp, .lsp), matrix (.matrix) and ICPC (.icpc) files (or say --from)",
        ));
    }
    let specs = read(file, notation)?;
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    let several = match notation {
        Notation::Icpc => Some("case"),
        Notation::Lisp if specs.len() > 1 => Some("call"),
        Notation::Matrix if specs.len() > 1 => Some("board"),
        _ => None,
    };
    let paths: Vec<PathBuf> = (1..=specs.len())
        .map(|k| match several {
            Some(word) => out.join(format!("{stem}_{word}{k}.yaml")),
            None => out.join(format!("{stem}.yaml")),
        })
        .collect();
    if let Some((path, other)) = paths.iter().find_map(|p| claimed.get(p).map(|o| (p, o))) {
        return Err(Diagnostic::new(
            file,
            format!(
                "would be imported to {}, which {} was just imported to; import them into different folders",
                path.display(),
                other.display()
            ),
        ));
    }
    if !force && let Some(there) = paths.iter().find(|p| p.exists()) {
        return Err(Diagnostic::new(
            there,
            format!(
                "already exists; not overwritten (importing {}): pass --force to replace it",
                file.display()
            ),
        ));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| Diagnostic::new(out, format!("cannot create the folder: {e}")))?;
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
        // Without --force, a file that appeared since the check above is still not overwritten.
        if force {
            open.create(true).truncate(true);
        } else {
            open.create_new(true);
        }
        open.open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
            .map_err(|e| Diagnostic::new(&path, format!("cannot write: {e}")))?;
        claimed.insert(path.clone(), file.to_path_buf());
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
