//! `marbles import`: turn Lisp, matrix and ICPC files into YAML puzzle specs.

use super::{Error, ExitCode};
use crate::formats::{self, Notation};
use std::io::{self, Write};
use std::path::PathBuf;

/// What to import, and where to.
#[derive(Debug, Clone)]
pub struct Config {
    pub files: Vec<PathBuf>,
    /// The folder the specs are written to.
    pub out: PathBuf,
    /// Every file's notation, instead of guessing it from the extension.
    pub notation: Option<Notation>,
    /// Replace specs that already exist.
    pub force: bool,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let mut bad = false;
    let mut stdout = io::stdout().lock();
    for file in &config.files {
        match formats::import(
            file,
            Notation::of(file, config.notation),
            &config.out,
            config.force,
        ) {
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
