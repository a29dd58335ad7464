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
    for file in &config.files {
        let notation = Notation::of(file, config.notation);
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
