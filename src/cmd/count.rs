//! `marbles count`: every position reachable from a hop puzzle's start, layer by layer, as a
//! table or JSON.

use super::{Error, ExitCode};
use crate::diag::Diagnostic;
use crate::model::Model;
use crate::search::count::{CountResult, count};
use crate::search::{Budget, human_bytes};
use crate::solve::{self, Options};
use std::io::{self, Write};
use std::path::PathBuf;
use tabled::settings::Alignment;

/// What to count, and how to show it.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    /// Also count the positions that can still reach the goal.
    pub feasible: bool,
    /// The figures as one JSON object instead of a table.
    pub json: bool,
    pub options: Options,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let p = solve::prepare(&config.file, &config.options)?;
    let Model::Hop(m) = &p.model else {
        return Err(Diagnostic::new(&config.file, "count works on hop puzzles only").into());
    };
    let mut budget = Budget::new(solve::limits_for(&p.spec, &config.options));
    match count(m, config.feasible, &mut budget) {
        Ok(r) => {
            let mut stdout = io::stdout().lock();
            if config.json {
                serde_json::to_writer_pretty(&mut stdout, &r)?;
                writeln!(stdout)?;
            } else {
                write!(stdout, "{}", table(&r))?;
            }
            Ok(ExitCode::Solved)
        }
        Err(why) => {
            eprintln!("marbles: gave up counting {}: {why}", config.file.display());
            Ok(ExitCode::Unsolved)
        }
    }
}

/// The figures as a text table, fullest layer first, then the totals.
pub fn table(r: &CountResult) -> String {
    let feasible = r.layers.iter().any(|l| l.feasible.is_some());
    let mut b = tabled::builder::Builder::default();
    let mut head = vec!["pegs", "positions", "canonical", "dead ends"];
    if feasible {
        head.extend(["feasible", "feas. canon."]);
    }
    b.push_record(head);
    let show = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
    for l in &r.layers {
        let mut row = vec![
            l.pegs.to_string(),
            l.positions.to_string(),
            l.canonical.to_string(),
            l.dead_ends.to_string(),
        ];
        if feasible {
            row.extend([show(l.feasible), show(l.feasible_canonical)]);
        }
        b.push_record(row);
    }
    let mut all = vec![
        "all".to_string(),
        r.positions.to_string(),
        r.canonical.to_string(),
        String::new(),
    ];
    if feasible {
        let f: u64 = r.layers.iter().filter_map(|l| l.feasible).sum();
        let fc: u64 = r.layers.iter().filter_map(|l| l.feasible_canonical).sum();
        all.extend([f.to_string(), fc.to_string()]);
    }
    b.push_record(all);
    let mut t = b.build();
    t.with(Alignment::right());
    format!(
        "{}\nsolutions (jump sequences to the goal): {}\nsymmetries used: {}; {:.3} s; tables ~{}\n",
        super::plain(t),
        r.solutions,
        r.symmetries,
        r.seconds,
        human_bytes(r.memory)
    )
}
