//! Classic puzzle notations beside YAML: Lisp peg lists and ICPC "Marble Game" files, read into specs.
//!
//! A file's notation is `--from`, or else its extension: `.lisp`/`.lsp` Lisp, `.icpc` ICPC,
//! anything else YAML. A Lisp file holds one triangle; an ICPC file holds one or more cases,
//! each becoming its own puzzle. [`import`] turns a file into YAML specs. This module only
//! reads; answers in the notations' own words are written by `render::answer`.

pub mod icpc;
pub mod lisp;

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
                _ => Notation::Yaml,
            }
        })
    }
}

/// Reads a Lisp or ICPC file into its specs (YAML files are read by [`crate::spec::load`]).
pub fn read(path: &Path, notation: Notation) -> Result<Vec<Spec>> {
    parse(path, notation, &crate::spec::read_text(path)?)
}

/// The specs in `text`, the contents of `path` in `notation`.
pub fn parse(path: &Path, notation: Notation, text: &str) -> Result<Vec<Spec>> {
    // Editors on some systems start a file with a byte-order mark; it is not part of the board.
    let source = text.strip_prefix('\u{feff}').unwrap_or(text);
    match notation {
        Notation::Lisp => lisp::parse(path, source).map(|s| vec![s]),
        Notation::Icpc => icpc::parse(path, source),
        Notation::Yaml => crate::spec::parse(path, source).map(|s| vec![s]),
    }
}

/// Reads and compiles every puzzle in a file: one for YAML and Lisp, one per case for ICPC.
/// A file that cannot be read at all gives a single error.
pub fn prepare(path: &Path, notation: Notation, opts: &Options) -> Vec<Result<Prepared>> {
    if notation == Notation::Yaml {
        return vec![solve::prepare(path, opts)];
    }
    match read(path, notation) {
        Err(d) => vec![Err(d)],
        Ok(specs) => specs.into_iter().map(|s| solve::prepare_spec(s, opts)).collect(),
    }
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
        Ok(specs) => specs.into_iter().map(|s| solve::prepare_spec(s, opts)).collect(),
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
            let height = g.rows.len();
            let triangle = spec.rules == "triangle_hop";
            y.push_str("board: |2  # \"2\": rows keep their leading spaces\n");
            for (r, row) in g.rows.iter().enumerate() {
                let lead = if triangle { height - r - 1 } else { 0 };
                let toks: Vec<String> = row.iter().map(|t| t.symbol().to_string()).collect();
                let _ = writeln!(y, "  {}{}", " ".repeat(lead), toks.join(" "));
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

/// Writes `file`'s puzzles as YAML specs into `out`: `<stem>.yaml` for a Lisp triangle,
/// `<stem>_case<k>.yaml` for each ICPC case. Each is read back before it is written, so an
/// import never leaves a spec that says something else. A spec already in `claimed` (written
/// from another file in the same import) is refused naming both files, and so is an existing
/// file unless `force`; nothing of `file` is written then. Returns the paths written, each
/// added to `claimed` with `file`.
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
            "is already a YAML spec; import reads Lisp (.lisp, .lsp) and ICPC (.icpc) files (or say --from)",
        ));
    }
    let specs = read(file, notation)?;
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    std::fs::create_dir_all(out)
        .map_err(|e| Diagnostic::new(out, format!("cannot create the folder: {e}")))?;
    let mut planned = Vec::new();
    for (k, spec) in specs.iter().enumerate() {
        let name = match notation {
            Notation::Icpc => format!("{stem}_case{}.yaml", k + 1),
            _ => format!("{stem}.yaml"),
        };
        let path = out.join(name);
        if let Some(other) = claimed.get(&path) {
            return Err(Diagnostic::new(
                file,
                format!(
                    "would be imported to {}, which {} was just imported to; import them into different folders",
                    path.display(),
                    other.display()
                ),
            ));
        }
        if !force && std::fs::symlink_metadata(&path).is_ok() {
            return Err(Diagnostic::new(
                &path,
                format!(
                    "already exists; not overwritten with the import of {} (use --force to overwrite)",
                    file.display()
                ),
            ));
        }
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
