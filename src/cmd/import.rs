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
    let mut claimed = HashMap::new();
    // Two files that would import to one name are found before anything is written: neither
    // is imported (the first one written made a rerun fail on a file already there).
    let clashes = clashes(config);
    for (i, file) in config.files.iter().enumerate() {
        let notation = Notation::of(file, config.notation);
        if let Some((path, other)) = clashes.get(&i) {
            bad = true;
            super::report(&crate::diag::Diagnostic::new(
                file,
                format!(
                    "would be imported to {}, as would {}; import them into different folders \
                     (neither was imported)",
                    path.display(),
                    other.display()
                ),
            ));
            continue;
        }
        match formats::import(file, notation, &config.out, config.force, &mut claimed) {
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

/// The files of `config` that would import to a name another one would too: for each, by
/// its place in the list, the name and the other file.
fn clashes(config: &Config) -> HashMap<usize, (PathBuf, PathBuf)> {
    let mut first: HashMap<PathBuf, usize> = HashMap::new();
    let mut clashes = HashMap::new();
    for (i, file) in config.files.iter().enumerate() {
        let notation = Notation::of(file, config.notation);
        let Ok((_, paths)) = formats::import_plan(file, notation, &config.out) else {
            continue; // its own error comes in its turn
        };
        for p in paths {
            match first.get(&p) {
                Some(&j) if j != i => {
                    clashes.entry(i).or_insert((p.clone(), config.files[j].clone()));
                    clashes.entry(j).or_insert((p, file.clone()));
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
