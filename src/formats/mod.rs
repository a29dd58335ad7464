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
    // Editors on some systems start a file with a byte-order mark; it is not part of the board.
    let source = text.strip_prefix('\u{feff}').unwrap_or(text);
    match notation {
        Notation::Lisp => lisp::parse(path, source),
        Notation::Matrix => matrix::parse(path, source),
        Notation::Icpc => icpc::parse(path, source),
        Notation::Yaml => crate::spec::parse(path, source).map(|s| vec![s]),
    }
}

/// Every puzzle of a file, compiled one at a time as it is taken: a file of 20,000 cases
/// holds one compiled puzzle (its script's tables, its model) at a time, not all of them,
/// so a memory limit covers the case being solved and not the ones before or after it.
pub type Cases<'a> = Box<dyn Iterator<Item = Result<Prepared>> + 'a>;

/// Reads a file and compiles its puzzles as they are taken: one for YAML, one per call,
/// matrix or case for the others.
/// A file that cannot be read at all gives a single error.
pub fn prepare<'a>(path: &'a Path, notation: Notation, opts: &'a Options) -> Cases<'a> {
    if notation == Notation::Yaml {
        return Box::new(std::iter::once_with(move || solve::prepare(path, opts)));
    }
    match read(path, notation) {
        Err(d) => Box::new(std::iter::once(Err(d))),
        Ok(specs) => prepare_each(specs, opts),
    }
}

/// The `case`-th puzzle of a file (from 1), compiled alone, beside the number of puzzles
/// the file holds; `None` when it holds fewer.
pub fn prepare_case(
    path: &Path,
    notation: Notation,
    opts: &Options,
    case: usize,
) -> Result<(usize, Option<Result<Prepared>>)> {
    if notation == Notation::Yaml {
        return Ok((1, (case == 1).then(|| solve::prepare(path, opts))));
    }
    let specs = read(path, notation)?;
    let count = specs.len();
    let spec = case.checked_sub(1).and_then(|i| specs.into_iter().nth(i));
    Ok((count, spec.map(|s| solve::prepare_spec(s, opts))))
}

/// Compiles each spec of a file as it is taken. A file may hold tens of thousands of cases:
/// Ctrl-C stops between any two of them.
fn prepare_each(specs: Vec<Spec>, opts: &Options) -> Cases<'_> {
    Box::new(
        specs
            .into_iter()
            .take_while(|_| !crate::search::CANCELLED.load(std::sync::atomic::Ordering::Relaxed))
            .map(move |s| solve::prepare_spec(s, opts)),
    )
}

/// [`prepare`] on `text`, the bytes of `path` already read: what is solved is exactly what
/// was read (and hashed), whatever happens to the file meanwhile.
pub fn prepare_text<'a>(path: &Path, notation: Notation, text: &str, opts: &'a Options) -> Cases<'a> {
    let specs = match notation {
        Notation::Yaml => crate::spec::parse(path, text).map(|s| vec![s]),
        _ => parse(path, notation, text),
    };
    match specs {
        Err(d) => Box::new(std::iter::once(Err(d))),
        Ok(specs) => prepare_each(specs, opts),
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
    lines: Vec<&'a str>,
    word: &'static str,
    count: usize,
}

impl<'a> Parts<'a> {
    fn new(path: &Path, source: &'a str, word: &'static str, count: usize) -> Self {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let lines = if count == 1 {
            Vec::new()
        } else {
            source.lines().collect()
        };
        Parts {
            stem,
            source,
            lines,
            word,
            count,
        }
    }

    /// The name and text of puzzle `k` (0-based), spanning the 1-based lines `span`.
    fn get(&self, k: usize, span: (usize, usize)) -> (String, String) {
        if self.count == 1 {
            return (self.stem.clone(), self.source.to_string());
        }
        let text = self
            .lines
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
