//! Batch runs: walk folders for puzzles, solve them in parallel, each file's panic contained,
//! reusing results still good from the last run; [`journal`] keeps what is finished on disk.

pub mod journal;
pub mod lock;
pub mod shard;

use crate::formats::{self, Notation};
use crate::outcome::{Outcome, Status};
use crate::search::{CANCELLED, GaveUp};
use crate::solve::{self, Options};
use indicatif::ProgressBar;
use journal::Journal;
use rayon::prelude::*;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Puzzle files found under some paths, in path order, and what could not be walked.
#[derive(Debug, Default)]
pub struct Found {
    pub puzzles: Vec<PathBuf>,
    pub errors: Vec<String>,
}

/// Puzzle files by extension, in any case (`.YAML` as `.yaml`): YAML specs and the classic
/// notations (see [`crate::formats`]).
fn is_puzzle(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .is_some_and(|e| matches!(e.as_str(), "yaml" | "yml" | "lisp" | "lsp" | "icpc" | "matrix"))
}

/// Walks `paths` for puzzle files (`*.yaml`, `*.yml`, `*.lisp`, `*.lsp`, `*.icpc`, `*.matrix`, in any case): hidden folders skipped, symlinks followed,
/// loops reported rather than followed. Files named directly are taken whatever their name;
/// so are non-regular files with a puzzle's name, to be reported as errors.
pub fn collect(paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    for root in paths {
        if !root.is_dir() {
            found.puzzles.push(root.clone());
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
        for entry in walker {
            match entry {
                // A FIFO, socket or device named like a puzzle is listed too: reading it is
                // refused from its metadata (it is never opened), which reports it by name.
                Ok(e) if !e.file_type().is_dir() && is_puzzle(e.path()) => found.puzzles.push(e.into_path()),
                Ok(_) => {}
                Err(e) => {
                    let where_ = e.path().map(|p| p.display().to_string()).unwrap_or_default();
                    let why = if e.loop_ancestor().is_some() {
                        "symlink loop, not followed".to_string()
                    } else {
                        e.io_error()
                            .map(|io| io.to_string())
                            .unwrap_or_else(|| e.to_string())
                    };
                    found.errors.push(format!("{where_}: {why}"));
                }
            }
        }
    }
    found.puzzles.sort();
    found.puzzles.dedup();
    found
}

/// Solves every puzzle in one file (an ICPC file holds several), turning a panic anywhere
/// inside into that file's error. Every outcome carries the hash of the bytes solved, read
/// once before solving, for `--resume`.
pub fn solve_contained(path: &Path, opts: &Options) -> Vec<Outcome> {
    let file = path.display().to_string();
    let text = crate::spec::read_text(path);
    let hash = text.as_deref().ok().map(solve::hash);
    let solve_all = || match &text {
        Err(d) => vec![Outcome::error(&file, d.to_string())],
        Ok(text) => {
            let mut outcomes = Vec::new();
            formats::prepare_text(path, Notation::of(path, None), text, opts, &mut |p| {
                outcomes.push(match p {
                    Ok(p) => solve::solve_prepared(&p, opts),
                    Err(d) => Outcome::error(&file, d.to_string()),
                });
                std::ops::ControlFlow::Continue(())
            });
            outcomes
        }
    };
    let mut outcomes = catch_unwind(AssertUnwindSafe(solve_all)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        vec![Outcome::error(
            &file,
            format!("{file}: internal error while solving (please report): {msg}"),
        )]
    });
    for o in &mut outcomes {
        o.file = file.clone();
        o.spec_hash = hash.clone();
    }
    outcomes
}

/// Previous outcomes are reusable when none failed, the file and every rule script it uses
/// are byte-for-byte unchanged, and each was made under the settings (goal in force, move
/// order, limits) that would apply now.
fn reusable(prev: &[Outcome], path: &Path, opts: &Options) -> bool {
    // (An interrupted search is never recorded, so it cannot be among them.)
    if prev.is_empty() || prev.iter().any(|p| p.status == Status::Error) {
        return false;
    }
    let Ok(text) = crate::spec::read_text(path) else {
        return false;
    };
    let hash = Some(solve::hash(&text));
    if prev.iter().any(|p| p.spec_hash != hash) {
        return false;
    }
    let Ok(specs) = formats::parse(path, Notation::of(path, None), &text) else {
        return false;
    };
    specs.len() == prev.len()
        && specs.iter().zip(prev).all(|(spec, p)| {
            p.settings.as_deref() == Some(solve::settings(spec, opts).as_str())
                && crate::script::resolve(spec, &opts.rules_roots)
                    .is_ok_and(|s| p.script_hash.as_deref() == Some(s.hash.as_str()))
        })
}

/// Solves every file in `puzzles` on `jobs` threads, reusing `previous` results that are
/// still good and recording each finished file in `journal`. A file cut short by Ctrl-C (see
/// [`CANCELLED`]) is `None`, and is neither recorded nor reported.
pub fn solve_all(
    puzzles: &[PathBuf],
    opts: &Options,
    jobs: usize,
    previous: &HashMap<String, Vec<Outcome>>,
    journal: Option<&Journal>,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<Option<Vec<Outcome>>>> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    Ok(pool.install(|| {
        puzzles
            .par_iter()
            .map(|path| {
                let key = path.display().to_string();
                if let Some(p) = previous.get(&key).filter(|p| reusable(p, path, opts)) {
                    bar.inc(1);
                    return Some(p.clone());
                }
                if CANCELLED.load(Ordering::Relaxed) {
                    return None;
                }
                bar.set_message(crate::render::terminal(&key).into_owned());
                let outcomes = solve_contained(path, opts);
                bar.inc(1);
                // Cases left unprepared after Ctrl-C leave no trace but the flag.
                if CANCELLED.load(Ordering::SeqCst)
                    || outcomes
                        .iter()
                        .any(|o| o.gave_up.as_ref().map(GaveUp::stop) == Some(&GaveUp::Interrupted))
                {
                    return None;
                }
                if let Some(j) = journal {
                    j.record(&outcomes);
                }
                Some(outcomes)
            })
            .collect()
    }))
}
