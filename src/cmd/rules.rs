//! `marbles rules`: the rule families a puzzle can name, where each is found and what it is.

use super::{Error, ExitCode};
use crate::script;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where to look from.
#[derive(Debug, Clone)]
pub struct Config {
    /// A puzzle file or folder: the families its puzzles can name (default: the current folder).
    pub path: Option<PathBuf>,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    // As `solve FILE` would look from the file's folder (a folder given: from that folder).
    let base = match &config.path {
        None => Path::new("."),
        Some(p) if !p.exists() => {
            return Err(Error::Usage(format!("{}: no such file or folder", p.display())));
        }
        Some(p) if p.is_dir() => p.as_path(),
        Some(p) => p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    };
    let mut b = tabled::builder::Builder::default();
    b.push_record(["family", "from", "about"]);
    for f in script::families(base).map_err(|d| Error::Usage(d.to_string()))? {
        let from = match (f.builtin, f.hides_builtin) {
            (true, _) => "built in".to_string(),
            (false, true) => format!("{} (instead of the built-in)", f.origin.display()),
            (false, false) => f.origin.display().to_string(),
        };
        b.push_record([cell(&f.name), cell(&from), cell(&f.about)]);
    }
    writeln!(std::io::stdout().lock(), "{}", super::plain(b.build()))?;
    Ok(ExitCode::Solved)
}

/// Text from a script or its file name as one table cell: no control characters, no breaks.
fn cell(text: &str) -> String {
    crate::render::terminal(text).replace('\n', "\\n")
}
