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

/// Reads and compiles every puzzle in a file: one for YAML, one per call, matrix or case for
/// the others.
/// A file that cannot be read at all gives a single error.
pub fn prepare(path: &Path, notation: Notation, opts: &Options) -> Vec<Result<Prepared>> {
    if notation == Notation::Yaml {
        return vec![solve::prepare(path, opts)];
    }
    match read(path, notation) {
        Err(d) => vec![Err(d)],
        Ok(specs) => prepare_all(specs, opts),
    }
}

/// Compiles each spec of a file. A file may hold tens of thousands of cases: Ctrl-C stops
/// between any two of them.
fn prepare_all(specs: Vec<Spec>, opts: &Options) -> Vec<Result<Prepared>> {
    specs
        .into_iter()
        .take_while(|_| !crate::search::CANCELLED.load(std::sync::atomic::Ordering::Relaxed))
        .map(|s| solve::prepare_spec(s, opts))
        .collect()
}

/// [`prepare`] on `text`, the bytes of `path` already read: what is solved is exactly what
/// was read (and hashed), whatever happens to the file meanwhile.
pub fn prepare_text(path: &Path, notation: Notation, text: &str, opts: &Options) -> Vec<Result<Prepared>> {
    let specs = match notation {
        Notation::Yaml => crate::spec::parse(path, text).map(|s| vec![s]),
        _ => parse(path, notation, text),
    };
    match specs {
        Err(d) => vec![Err(d)],
        Ok(specs) => prepare_all(specs, opts),
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
/// the end of its line, everything else at whitespace and parentheses.
pub fn tokens(source: &str) -> Vec<(Pos, &str)> {
    let mut out = Vec::new();
    for (l, line) in source.lines().enumerate() {
        let mut start: Option<(usize, usize)> = None; // (byte, column) of the token being read
        let mut push = |from: usize, to: usize, col: usize| {
            out.push((Pos { line: l + 1, col }, &line[from..to]));
        };
        for (col, (i, ch)) in line.char_indices().enumerate() {
            let boundary = ch.is_whitespace() || matches!(ch, '(' | ')' | ';');
            if boundary && let Some((b, c)) = start.take() {
                push(b, i, c + 1);
            }
            match ch {
                ';' => break,
                '(' | ')' => push(i, i + 1, col + 1),
                _ if boundary => {}
                _ => {
                    start.get_or_insert((i, col));
                }
            }
        }
        if let Some((b, c)) = start.take() {
            push(b, line.len(), c + 1);
        }
    }
    out
}

/// The position just past the end of the text, for "ends early" errors.
pub fn end_pos(source: &str) -> Pos {
    let line = source.lines().count().max(1);
    let col = source.lines().last().map_or(0, |l| l.chars().count()) + 1;
    Pos { line, col }
}
