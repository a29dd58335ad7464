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
    // already there). Only the names are kept from that reading, and each file is read again
    // when its turn comes: its puzzles held for every file at once grew with the files (ten
    // ICPC files of 20,000 cases held 222 MB, each one 33 MB).
    let plan = |file: &PathBuf| formats::import_plan(file, Notation::of(file, config.notation), &config.out);
    let planned: Vec<_> = (config.files.iter())
        .map(|file| plan(file).map(|(_, paths)| paths))
        .collect();
    let clashes = clashes(config, &planned);
    for (i, (file, paths)) in config.files.iter().zip(planned).enumerate() {
        let written = match (paths, clashes.get(&i)) {
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
            (Ok(paths), None) => plan(file).and_then(|again| match again.1 == paths {
                true => formats::import(file, again, &config.out, config.force),
                false => Err(crate::diag::Diagnostic::new(
                    file,
                    "changed while it was being imported (it holds another number of puzzles \
                     now); nothing of it was written: import it again",
                )),
            }),
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

/// The files of `config` (bound for the names `planned`) that would import to a name another
/// one would too: for each, by its place in the list, the name and the other file.
fn clashes(
    config: &Config,
    planned: &[crate::diag::Result<Vec<PathBuf>>],
) -> HashMap<usize, (PathBuf, PathBuf)> {
    let mut first: HashMap<&PathBuf, usize> = HashMap::new();
    let mut clashes = HashMap::new();
    for (i, paths) in planned.iter().enumerate() {
        let Ok(paths) = paths else {
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
