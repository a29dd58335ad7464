//! `marbles import`: turn Lisp, matrix and ICPC files into YAML puzzle specs.

use super::{Error, ExitCode};
use crate::formats::{self, Notation};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

/// What to import, and where to.
#[derive(Debug, Clone)]
pub struct Config {
    pub files: Vec<PathBuf>,
    /// The folder the specs are written to.
    pub out: PathBuf,
    /// Every file's notation, instead of guessing it from the extension.
    pub notation: Option<&'static Notation>,
    /// Overwrite specs that already exist in `out`.
    pub force: bool,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let mut bad = false;
    let mut stdout = io::stdout().lock();
    // Every file is read first: two that would import to one name are found before anything
    // is written, and neither is imported (the first one written made a rerun fail on a file
    // already there).
    let plans: Vec<_> = config
        .files
        .iter()
        .map(|file| formats::import_plan(file, Notation::of(file, config.notation), &config.out))
        .collect();
    let clashes = clashes(config, &plans);
    for (i, (file, plan)) in config.files.iter().zip(plans).enumerate() {
        let written = match (plan, clashes.get(&i)) {
            (Err(d), _) => Err(d),
            (Ok(_), Some((path, other))) => Err(crate::diag::Diagnostic::new(
                file,
                format!(
                    "would be imported to {}, as would {}; import them into different folders \
                     (neither was imported)",
                    path.display(),
                    other.display()
                ),
            )),
            (Ok(plan), None) => formats::import(file, plan, &config.out, config.force),
        };
        match written {
            Ok(paths) => {
                for p in paths {
                    writeln!(stdout, "wrote {}", p.display())?;
                }
            }
            Err(d) => {
                bad = true;
                super::report(&d);
            }
        }
    }
    Ok(ExitCode::Solved.or_failed(bad))
}

/// The files of `config` (planned as `plans`) that would import to a name another one would
/// too: for each, by its place in the list, the name and the other file.
fn clashes(config: &Config, plans: &[crate::diag::Result<Plan>]) -> HashMap<usize, (PathBuf, PathBuf)> {
    let mut first: HashMap<&PathBuf, usize> = HashMap::new();
    let mut clashes = HashMap::new();
    for (i, plan) in plans.iter().enumerate() {
        let Ok((_, paths)) = plan else {
            continue; // its own error comes in its turn
        };
        for p in paths {
            match first.get(p) {
                Some(&j) if j != i => {
                    clashes.entry(i).or_insert((p.clone(), config.files[j].clone()));
                    clashes.entry(j).or_insert((p.clone(), config.files[i].clone()));
                }
                Some(_) => {}
                None => {
                    first.insert(p, i);
                }
            }
        }
    }
    clashes
}

/// A file's puzzles and the paths they import to.
type Plan = (Vec<crate::spec::Spec>, Vec<PathBuf>);
