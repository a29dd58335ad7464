//! `marbles check`: read, validate and compile puzzle files and their rule scripts, without
//! solving them.

use super::{Error, ExitCode};
use crate::batch;
use crate::formats::{self, Notation};
use crate::model::{HopModel, Model};
use crate::search::Budget;
use crate::search::symmetry::Symmetry;
use crate::solve::{self, Options};
use crate::spec::Spec;
use std::io::{self, Write};
use std::path::PathBuf;

/// What to check; only the script limits of the options matter.
#[derive(Debug, Clone)]
pub struct Config {
    /// Puzzle files, or folders to check every puzzle file under.
    pub paths: Vec<PathBuf>,
    pub options: Options,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let files = batch::collect(&config.paths);
    // Folders bound the rule lookup as they do for `batch`, so both find the same scripts.
    let options = Options {
        rules_roots: config.paths.iter().filter(|p| p.is_dir()).cloned().collect(),
        ..config.options.clone()
    };
    let mut bad = false;
    let mut stdout = io::stdout().lock();
    for f in &files.puzzles {
        for p in formats::prepare(f, Notation::of(f, None), &options) {
            match p {
                Ok(p) => {
                    let what = match &p.model {
                        Model::Hop(m) => format!(
                            "{} holes, {} pegs, {} moves, {}",
                            m.geo.cells.len(),
                            m.start.count_ones(),
                            m.moves.len(),
                            symmetries(m, &p.spec, &options)
                        ),
                        Model::Tilt(m) => format!("{0}×{0} board, {1} marbles", m.size, m.start.len()),
                    };
                    writeln!(stdout, "ok    {}  ({}: {what})", f.display(), p.script.name)?;
                }
                Err(d) => {
                    bad = true;
                    super::report(&d);
                }
            }
        }
    }
    for e in &files.errors {
        bad = true;
        super::report(e);
    }
    if files.puzzles.is_empty() && files.errors.is_empty() {
        return Err(Error::Usage(
            "no puzzle files (*.yaml, *.yml, *.lisp, *.lsp, *.icpc) found".into(),
        ));
    }
    Ok(ExitCode::Solved.or_failed(bad))
}

/// How many symmetries the board has (its moves included), found under the puzzle's limits.
fn symmetries(m: &HopModel, spec: &Spec, options: &Options) -> String {
    let budget = Budget::new(solve::limits_for(spec, options));
    match Symmetry::find_within(m, &budget) {
        Ok(s) if s.order() == 1 => "1 symmetry".into(),
        Ok(s) => format!("{} symmetries", s.order()),
        Err(why) => format!("symmetries not found: {why}"),
    }
}
