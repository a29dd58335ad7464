//! Classic puzzle notations beside YAML: Lisp peg lists and ICPC "Marble Game" files, read into specs and written back as answers.
//!
//! A file's notation is `--from`, or else its extension: `.lisp`/`.lsp` Lisp, `.icpc` ICPC,
//! anything else YAML. A Lisp file holds one triangle; an ICPC file holds one or more cases,
//! each becoming its own puzzle. Answers can be written in the judge's and the classroom's
//! words (`--format icpc`, `--format moves`) or as the Lisp assignment's list of states
//! (`--format lisp`); `marbles import` turns a file into YAML specs.

pub mod icpc;
pub mod lisp;

use crate::cli::SolveFormat;
use crate::diag::{Diagnostic, Result};
use crate::outcome::{Outcome, Replay, Status};
use crate::solve::{self, Options, Prepared};
use crate::spec::{BoardSpec, Cell, Spec, TiltBoard};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The notation a puzzle file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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

    /// How boards are drawn in this notation.
    pub fn symbols(self) -> Symbols {
        match self {
            Notation::Lisp => Symbols {
                peg: 'x',
                hole: 'o',
                blocked: '-',
                moved: 'X',
            },
            Notation::Yaml | Notation::Icpc => Symbols {
                peg: 'o',
                hole: '.',
                blocked: '#',
                moved: '*',
            },
        }
    }
}

/// The characters a notation draws a hop board with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbols {
    pub peg: char,
    pub hole: char,
    /// A position of the grid with no hole (Lisp triangles have none).
    pub blocked: char,
    /// The peg that just moved.
    pub moved: char,
}

impl Symbols {
    /// Rows of a hop board: `widths[r]` positions in row r, `cells` the holes in index order,
    /// `peg(k)` whether hole k holds a peg, `mark` a cell drawn as [`Symbols::moved`].
    pub fn rows(
        &self,
        widths: &[usize],
        cells: &[Cell],
        peg: impl Fn(usize) -> bool,
        mark: Option<Cell>,
    ) -> Vec<Vec<char>> {
        widths
            .iter()
            .enumerate()
            .map(|(r, &w)| {
                (0..w)
                    .map(|c| {
                        let cell = [r as i64, c as i64];
                        match cells.iter().position(|x| *x == cell) {
                            None => self.blocked,
                            Some(_) if mark == Some(cell) => self.moved,
                            Some(k) if peg(k) => self.peg,
                            Some(_) => self.hole,
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// Reads a Lisp or ICPC file into its specs (YAML files are read by [`crate::spec::load`]).
pub fn read(path: &Path, notation: Notation) -> Result<Vec<Spec>> {
    let text = crate::spec::read_text(path)?;
    // Editors on some systems start a file with a byte-order mark; it is not part of the board.
    let source = text.strip_prefix('\u{feff}').unwrap_or(&text);
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
        // A file may hold tens of thousands of cases: Ctrl-C stops between any two of them.
        Ok(specs) => specs
            .into_iter()
            .take_while(|_| !crate::search::CANCELLED.load(std::sync::atomic::Ordering::Relaxed))
            .map(|s| solve::prepare_spec(s, opts))
            .collect(),
    }
}

/// Refuses a puzzle that `format` cannot show before any time is spent solving it.
pub fn fits(format: SolveFormat, p: Prepared) -> Result<Prepared> {
    if format == SolveFormat::Lisp && matches!(p.model, crate::model::Model::Tilt(_)) {
        return Err(Diagnostic::new(
            &p.spec.path,
            format!(
                "`{}` is a tilt puzzle; `--format lisp` writes hop boards (use text, json, icpc or moves)",
                p.spec.name
            ),
        ));
    }
    Ok(p)
}

/// Writes one puzzle's answer in `format` (JSON is written for all puzzles at once, so here
/// nothing); `case` is the puzzle's 1-based position on the command line, for `Case k:`.
pub fn write_answer(
    out: &mut impl Write,
    format: SolveFormat,
    notation: Notation,
    o: &Outcome,
    case: usize,
) -> io::Result<()> {
    match format {
        SolveFormat::Text if notation == Notation::Lisp => writeln!(out, "{}", lisp::text(o)),
        SolveFormat::Text => writeln!(out, "{}", crate::render::solution(o)),
        SolveFormat::Json => Ok(()),
        SolveFormat::Lisp => writeln!(out, "{}", lisp::answer(o)),
        SolveFormat::Icpc => write!(out, "{}", icpc::judge_answer(o, case)),
        SolveFormat::Moves => writeln!(out, "{}", icpc::classroom_answer(o)),
    }
}

/// `5 moves` (always "moves", as the judges write it) when solved, `gave up (reason)` when
/// a limit stopped the search, else `none` (the notation's word for "impossible").
fn verdict_words(o: &Outcome, none: &str) -> String {
    match o.status {
        Status::Solved => format!("{} moves", o.moves.len()),
        Status::GaveUp => format!(
            "gave up ({})",
            o.reason.as_deref().unwrap_or("a limit was reached")
        ),
        Status::Unsolvable | Status::Error => none.to_string(),
    }
}

/// A hop replay's row widths, holes and frames; `None` for a tilt replay.
fn hop_replay(o: &Outcome) -> Option<(&[usize], &[Cell], &[String])> {
    match o.replay.as_ref()? {
        Replay::Hop {
            widths,
            cells,
            frames,
            ..
        } => Some((widths, cells, frames)),
        Replay::Tilt { .. } => None,
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
/// import never leaves a spec that says something else. Returns the paths written.
pub fn import(file: &Path, notation: Notation, out: &Path) -> Result<Vec<PathBuf>> {
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
    let mut written = Vec::new();
    for (k, spec) in specs.iter().enumerate() {
        let name = match notation {
            Notation::Icpc => format!("{stem}_case{}.yaml", k + 1),
            _ => format!("{stem}.yaml"),
        };
        let path = out.join(name);
        let text = to_yaml(spec, &file.display().to_string());
        let back = crate::spec::parse(&path, &text)?;
        if back.board != spec.board || back.ratings != spec.ratings || back.rules != spec.rules {
            return Err(Diagnostic::new(
                &path,
                "internal error: the YAML written does not read back as the same puzzle",
            ));
        }
        std::fs::write(&path, text).map_err(|e| Diagnostic::new(&path, format!("cannot write: {e}")))?;
        written.push(path);
    }
    Ok(written)
}

/// `marbles import`: returns the exit code.
pub fn import_cmd(args: &crate::cli::ImportArgs) -> anyhow::Result<u8> {
    let mut bad = false;
    let mut stdout = io::stdout().lock();
    for file in &args.files {
        match import(file, Notation::of(file, args.from), &args.out) {
            Ok(paths) => {
                for p in paths {
                    writeln!(stdout, "wrote {}", p.display())?;
                }
            }
            Err(d) => {
                bad = true;
                eprintln!("marbles: error: {d}");
            }
        }
    }
    Ok(if bad { 2 } else { 0 })
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
