//! `marbles check`: read, validate and compile puzzle files and their rule scripts, without
//! solving them. A rule script (`*.rhai`) is checked on its own: on every puzzle given that
//! uses it, or else on a sample board (saying so when puzzles were given); a folder holding
//! rule scripts and no puzzles checks its scripts.

use super::{Error, ExitCode};
use crate::batch;
use crate::diag::plural;
use crate::diag::{Diagnostic, Result as Checked};
use crate::formats::{self, Notation};
use crate::model::{Geometry, HopModel, Model, RewriteModel};
use crate::script::{self, Script};
use crate::search::Budget;
use crate::search::symmetry::{MAX_ORDER, Symmetry};
use crate::solve::{self, Options, Prepared};
use crate::spec::{self, Spec};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What to check; only the script limits of the options matter.
#[derive(Debug, Clone)]
pub struct Config {
    /// Puzzle files, folders to check every puzzle file under, and rule scripts (`*.rhai`).
    pub paths: Vec<PathBuf>,
    pub options: Options,
}

/// The boards a script is tried on when no puzzle given uses it: a hop board, or for a tilt
/// family a tilt board.
const SAMPLE_GRID: (&str, &str) = (
    "a sample 5×5 board",
    "rules: sample\nboard: |\n  o o o o o\n  o o o o o\n  o o . o o\n  o o o o o\n  o o o o o\n",
);
/// Where a script failing alike on both sample boards was checked.
const SAMPLES_ALIKE: &str = "on the sample hop and tilt boards alike";
const SAMPLE_TILT: (&str, &str) = (
    "a sample 4×4 tilt board",
    "rules: sample\nsize: 4\nmarbles: [[0, 0]]\nholes: [[3, 3]]\nwalls: [[[1, 1], [1, 2]]]\n",
);

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    // A file of many cases takes a while to check: Ctrl-C stops between cases (exit 130).
    crate::process::stop_on_signals();
    // A project's marbles.toml is checked as commands read it (the one above the current
    // folder was read before any command ran).
    let (projects, paths): (Vec<PathBuf>, Vec<PathBuf>) = config
        .paths
        .iter()
        .cloned()
        .partition(|p| p.file_name().is_some_and(|n| n == crate::project::FILE) && !p.is_dir());
    let mut out = io::stdout().lock();
    let mut ok = true;
    for p in &projects {
        match crate::project::load(p) {
            Ok(_) => writeln!(out, "ok    {}  (project settings)", p.display())?,
            Err(d) => {
                ok = false;
                super::report(&d);
            }
        }
    }
    if !projects.is_empty() && paths.is_empty() {
        return Ok(ExitCode::Solved.or_failed(!ok));
    }
    let (mut scripts, others): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .into_iter()
        .partition(|p| p.extension().is_some_and(|e| e == "rhai"));
    let files = batch::collect(&others);
    let options = &config.options;
    // A folder given that holds rule scripts and no puzzles (`rules/` in `marbles check
    // rules/` or `marbles check puzzles rules`): its scripts are checked too.
    let folder_scripts: Vec<PathBuf> = others
        .iter()
        .filter(|dir| dir.is_dir() && !files.puzzles.iter().any(|p| p.starts_with(dir)))
        .flat_map(|dir| {
            let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                // Named like a script but no file (a folder, a FIFO): said so, never opened.
                .filter(|p| p.extension().is_some_and(|e| e == "rhai"))
                .collect();
            found.sort();
            found
        })
        .collect();
    // With no puzzles, they are checked as scripts named are; beside puzzles, each one no
    // puzzle used is checked on a sample board after the puzzles.
    let mut unused = Vec::new();
    match files.puzzles.is_empty() && files.errors.is_empty() {
        true => scripts.extend(folder_scripts),
        false => unused = folder_scripts,
    }
    if scripts.is_empty() && files.puzzles.is_empty() && files.errors.is_empty() {
        return Err(Error::Usage(format!(
            "no puzzle files ({}) or rule scripts (*.rhai) found",
            formats::globs()
        )));
    }
    for (path, why) in &files.errors {
        ok = false;
        super::report(&format!("{path}: {why}"));
    }
    for l in &files.loops {
        eprintln!("marbles: warning: {l}");
    }
    // The scripts the puzzles were checked with (or failed in), by real path.
    let mut used = std::collections::HashSet::new();
    let mut tally = Tally::default();
    if scripts.is_empty() {
        for f in &files.puzzles {
            let mut written = Ok(());
            let notation = Notation::of(f, None);
            let file = f.display().to_string();
            let stem = f.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
            formats::prepare(f, notation, options, &mut |p| {
                // Read again only for a YAML puzzle that states no expectation.
                if let Ok(p) = &p
                    && notation == formats::YAML
                    && p.spec.expect.is_none()
                    && let Some(line) = spec::read_text(f).ok().and_then(|t| expect_in_a_comment(&t))
                {
                    eprintln!(
                        "marbles: warning: {file}:{line}: `# expect:` is a comment in YAML, so this puzzle \
                         states no expectation: write `expect:` as a key"
                    );
                }
                // A file of several puzzles names each line by its case ("… case 2").
                let head = match &p {
                    Ok(p) if notation.several.is_some() && p.spec.name != stem => {
                        format!("{file} ({})", p.spec.name)
                    }
                    _ => file.clone(),
                };
                // Asked only when a folder's scripts wait to be told apart (a file of 20,000
                // cases would otherwise look its script up 20,000 times).
                if !unused.is_empty() {
                    let script = match &p {
                        Ok(p) => &p.script.origin,
                        Err(d) => &d.file,
                    };
                    used.insert(script.canonicalize().unwrap_or_else(|_| script.clone()));
                }
                // Among several puzzles, an error in a rule script or a project file names the
                // puzzle it was read for.
                let on = match &p {
                    Err(d) if d.file != *f && files.puzzles.len() > 1 => format!("on {head}"),
                    _ => String::new(),
                };
                tally.saw(&p, || format!("the rule script ran for {head}"));
                written = show(&mut out, &head, &on, p, options).map(|good| ok &= good);
                match written {
                    Ok(()) => std::ops::ControlFlow::Continue(()),
                    Err(_) => std::ops::ControlFlow::Break(()),
                }
            });
            written?;
        }
    }
    for s in &scripts {
        ok &= check_script(&mut out, s, &files.puzzles, options, &mut tally)?;
    }
    for s in unused
        .iter()
        .filter(|s| !s.canonicalize().is_ok_and(|s| used.contains(&s)))
    {
        ok &= check_script(&mut out, s, &[], options, &mut tally)?;
    }
    if crate::process::CANCELLED.load(std::sync::atomic::Ordering::SeqCst) {
        let during = tally
            .cut
            .map_or(String::new(), |what| format!(" (cut while {what})"));
        let by = crate::process::stopped_by();
        match tally.shown == 0 {
            true => eprintln!("marbles: check interrupted ({by}) before any puzzle was checked{during}"),
            false => eprintln!("marbles: check interrupted ({by}): the puzzles above were checked{during}"),
        }
        return Ok(ExitCode::Interrupted);
    }
    Ok(ExitCode::Solved.or_failed(!ok))
}

/// The line of a YAML file's first comment that reads like an expectation (`# expect: …`),
/// as Lisp, matrix and ICPC files state theirs; a YAML puzzle states its own as a key.
fn expect_in_a_comment(text: &str) -> Option<usize> {
    let reads_so = |l: &str| {
        l.trim_start()
            .strip_prefix('#')
            .is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("expect:"))
    };
    text.lines().position(reads_so).map(|i| i + 1)
}

/// Checks one script on the puzzles that use it, or on a sample board if none does.
fn check_script(
    out: &mut impl Write,
    path: &Path,
    puzzles: &[PathBuf],
    opts: &Options,
    tally: &mut Tally,
) -> io::Result<bool> {
    let read = match path.is_dir() {
        true => Err(Diagnostic::new(path, "is a directory, not a rule script")),
        false => spec::input::read_text_up_to(path, script::MAX_SCRIPT_BYTES as u64),
    };
    let script = match read {
        Err(d) => {
            super::report(&d);
            return Ok(false);
        }
        Ok(source) => Script::new(
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path.to_path_buf(),
            source,
        ),
    };
    let me = path.canonicalize().ok();
    // The scripts the puzzles given use instead, to say so when none uses this one.
    let mut theirs = std::collections::BTreeSet::new();
    let mut uses = |spec: &Spec| {
        let Ok(s) = script::resolve(spec) else {
            return false;
        };
        let mine = s.origin.canonicalize().ok().is_some_and(|o| Some(o) == me);
        if !mine {
            theirs.insert(s.origin.display().to_string());
        }
        mine
    };
    let head = path.display().to_string();
    let mut ok = true;
    let mut used = 0;
    for f in puzzles {
        let specs = match Notation::of(f, None) {
            n if n == formats::YAML => spec::load(f).map(|s| vec![s]),
            n => formats::read(f, n),
        };
        match specs {
            Err(d) => {
                ok = false;
                super::report(&d);
            }
            Ok(specs) => {
                for spec in specs.into_iter().filter(|s| uses(s)) {
                    used += 1;
                    let p = solve::prepare_with(spec, script.clone(), opts);
                    let on = format!("on {}", f.display());
                    tally.saw(&p, || format!("{head} ran {on}"));
                    ok &= show(out, &head, &on, p, opts)?;
                }
            }
        }
    }
    if used == 0 && !puzzles.is_empty() {
        let they = match theirs.is_empty() {
            true => String::new(),
            false => format!(
                " (they use {})",
                theirs.into_iter().collect::<Vec<_>>().join(", ")
            ),
        };
        eprintln!(
            "{}",
            crate::render::terminal(&format!(
                "marbles: note: none of the puzzles given use {head}{they}; checked on a sample board"
            ))
        );
    }
    if used == 0 {
        let on = |(what, yaml): (&str, &str)| {
            let spec = spec::parse(Path::new(&format!("<{what}>")), yaml).expect("sample boards parse");
            (
                format!("on {what}"),
                solve::prepare_with(spec, script.clone(), opts),
            )
        };
        // A tilt family does not compile on a hop board (it may not even run on one); a family
        // of pieces of kinds is tried on the sample board with its first kind's pieces.
        let sample = spec::parse(Path::new("<sample>"), SAMPLE_GRID.1).expect("sample boards parse");
        let first = crate::script::run(&script, &sample, &opts.script)
            .ok()
            .and_then(|t| {
                let k = *t.pieces.first()? as char;
                Some((t.kind, k))
            });
        let lettered;
        let grid = match first {
            // A slide family's robot in a corner, to slide to the opposite one.
            Some((crate::script::Kind::Slide, k)) => {
                let row = |r: usize| match r {
                    0 => format!("  {k} . . . .\n"),
                    _ => "  . . . . .\n".to_string(),
                };
                lettered = format!(
                    "rules: sample\nboard: |\n{}goal:\n  reach: [4, 4]\n  piece: {k}\n",
                    (0..5).map(row).collect::<String>()
                );
                ("a sample 5×5 board with one robot", lettered.as_str())
            }
            Some((crate::script::Kind::Rewrite, k)) => {
                let row = |r: usize| {
                    let mid = if r == 2 {
                        format!("{k} {k} . {k} {k}")
                    } else {
                        [k; 5].map(String::from).join(" ")
                    };
                    format!("  {mid}\n")
                };
                lettered = format!(
                    "rules: sample\nboard: |\n{}goal:\n  pegs: 1\n",
                    (0..5).map(row).collect::<String>()
                );
                ("a sample 5×5 board of its first kind", lettered.as_str())
            }
            _ => SAMPLE_GRID,
        };
        let (mut on_what, mut p) = on(grid);
        if let Err(d) = &p {
            let (w, q) = on(SAMPLE_TILT);
            match &q {
                Ok(_) => (on_what, p) = (w, q),
                Err(_) if d.message.contains("is a tilt family") => (on_what, p) = (w, q),
                // A refused map fails alike on any board: naming one would send the reader
                // looking at it.
                Err(e) if e.message == d.message && d.gave_up.is_none() => {
                    on_what = SAMPLES_ALIKE.to_string()
                }
                Err(_) => {}
            }
        }
        tally.saw(&p, || format!("{head} ran {on_what}"));
        ok &= show(out, &head, &on_what, p, opts)?;
    }
    Ok(ok)
}

/// What a check showed, for its last line after Ctrl-C: how many puzzles (or a script's
/// boards) were checked, and what Ctrl-C cut first (after it every later one stops at once).
#[derive(Default)]
struct Tally {
    shown: usize,
    cut: Option<String>,
}

impl Tally {
    /// Counts `p` as checked, or, when Ctrl-C cut its rule script, keeps `what` ran then.
    fn saw(&mut self, p: &Checked<Prepared>, what: impl FnOnce() -> String) {
        match cut_by_ctrl_c(p) {
            true => {
                self.cut.get_or_insert_with(what);
            }
            false => self.shown += 1,
        }
    }
}

/// Whether Ctrl-C cut `p`'s rule script, so that it was not checked.
fn cut_by_ctrl_c(p: &Checked<Prepared>) -> bool {
    matches!(p, Err(d) if d.gave_up.as_deref() == Some(&crate::search::GaveUp::Interrupted))
}

/// Prints `ok` and what was compiled, or reports the error; shows what the script printed.
/// Returns whether it was ok. `opts` bounds the symmetry search with the puzzle's limits.
fn show(
    out: &mut impl Write,
    head: &str,
    on: &str,
    p: Checked<Prepared>,
    opts: &Options,
) -> io::Result<bool> {
    let p = match p {
        // Ctrl-C while its script ran: not checked, which the run's last line says.
        _ if cut_by_ctrl_c(&p) => return Ok(true),
        Err(d) => {
            report_on(&d, on);
            return Ok(false);
        }
        Ok(p) => p,
    };
    super::show_printed(&p);
    let what = match &p.model {
        Model::Hop(m) => format!(
            "{}, {}, {}, {}",
            plural(m.geo.cells.len(), "hole"),
            plural(m.start.count_ones() as usize, "peg"),
            plural(m.moves.len(), "jump"),
            symmetries(m, &p.spec, opts)
        ),
        Model::Tilt(m) => format!("{0}×{0} board, {1}", m.size, plural(m.start.len(), "marble")),
        Model::Slide(m) => format!(
            "{}, {}, {}",
            plural(m.squares(), "square"),
            plural(m.start.len(), "robot"),
            plural(m.directions.len(), "direction")
        ),
        Model::Rewrite(m) => format!(
            "{}, {}, {} of kinds {}",
            plural(m.geo.cells.len(), "hole"),
            plural(
                crate::model::rewrite::occupied(&m.start).count_ones() as usize,
                "piece"
            ),
            plural(m.moves.len(), "move"),
            m.kinds
                .iter()
                .map(|&k| (k as char).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let line = if on.is_empty() {
        format!("ok    {head}  ({}: {what})", p.script.name)
    } else {
        format!("ok    {head}  {on}: {what}")
    };
    writeln!(out, "{}", crate::render::terminal(&line))?;
    let idle = match &p.model {
        Model::Hop(m) => idle_holes(m),
        Model::Rewrite(m) => idle_cells(m),
        Model::Tilt(_) | Model::Slide(_) => None,
    };
    if let Some(warning) = idle {
        writeln!(
            out,
            "{}",
            crate::render::terminal(&format!("warn  {head}  {warning}"))
        )?;
    }
    Ok(true)
}

/// The holes no move jumps from, over or into, if any, as a warning: such a hole keeps its
/// peg (or its vacancy) for the whole game, which is seldom what a board's author meant — a
/// row drawn one column off, or a hole beyond the reach of the rule family's jumps.
fn idle_holes(m: &HopModel) -> Option<String> {
    let touched = m.moves.iter().fold(0u128, |acc, mv| acc | mv.mask);
    idle_of(&m.geo, touched, m.moves.is_empty(), "peg")
}

/// [`idle_holes`] for pieces of kinds: a hole no rewrite names.
fn idle_cells(m: &RewriteModel) -> Option<String> {
    let touched = m.moves.iter().fold(0u128, |acc, mv| {
        acc | mv.empty | mv.any | mv.need.iter().chain(&mv.flip).fold(0, |a, b| a | b)
    });
    idle_of(&m.geo, touched, m.moves.is_empty(), "piece")
}

/// The warning for the holes of `geo` outside `touched`, for pieces called `piece`.
fn idle_of(geo: &Geometry, touched: u128, no_moves: bool, piece: &str) -> Option<String> {
    let m = geo;
    let idle: Vec<String> = (0..m.cells.len())
        .filter(|&i| touched >> i & 1 == 0)
        .map(|i| format!("[{}, {}]", m.cells[i][0], m.cells[i][1]))
        .collect();
    if idle.is_empty() || m.cells.len() == 1 {
        return None;
    }
    if no_moves {
        return Some(format!(
            "the rules make no move on this board: no {piece} can ever move"
        ));
    }
    let more = match idle.len() {
        n if n > 8 => format!(" and {} more", n - 8),
        _ => String::new(),
    };
    Some(format!(
        "{} no part in any move: {}{more} (a {piece} there can never move or be taken: is a row drawn a column off?)",
        match idle.len() {
            1 => "1 hole takes".to_string(),
            n => format!("{n} holes take"),
        },
        idle[..idle.len().min(8)].join(", "),
    ))
}

fn report_on(d: &Diagnostic, on: &str) {
    if on.is_empty() {
        super::report_printed(d, d);
    } else {
        super::report_printed(d, &format!("{d} ({on})"));
    }
}

/// How many symmetries the board has (its moves included), found under the puzzle's limits.
fn symmetries(m: &HopModel, spec: &Spec, opts: &Options) -> String {
    let budget = Budget::new(solve::limits_for(spec, opts));
    match Symmetry::find_within(m, &budget) {
        Ok(s) if s.unfinished => {
            format!("symmetries not found: more than {MAX_ORDER}, or too many to search for; none used")
        }
        Ok(s) if s.order() == 1 => "1 symmetry".into(),
        Ok(s) => format!("{} symmetries", s.order()),
        Err(why) => format!("symmetries not found: {why}"),
    }
}
