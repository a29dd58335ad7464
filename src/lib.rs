//! marbles: solve marble and peg puzzles defined by YAML files and Rhai rule scripts.
//!
//! The flow is `spec` (YAML) → `script` (run once) → `model` (native tables) → `search` →
//! `outcome` → `report`. `run` is what the binary calls.

pub mod batch;
pub mod cli;
pub mod diag;
pub mod model;
pub mod outcome;
pub mod render;
pub mod report;
pub mod script;
pub mod search;
pub mod solve;
pub mod spec;

use clap::CommandFactory;
use cli::{Cli, Command, SolveFormat};
use outcome::Outcome;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Solve(args) => solve_cmd(&args),
        Command::Check(args) => check_cmd(&args),
        Command::Batch(args) => batch::run(&args),
        Command::Count(args) => count_cmd(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "marbles", &mut io::stdout());
            Ok(0)
        }
    }
}

fn solve_cmd(args: &cli::SolveArgs) -> anyhow::Result<u8> {
    let opts = args.search.options(1);
    let mut outcomes = Vec::new();
    let mut stdout = io::stdout().lock();
    for file in &args.files {
        let o = solve_reporting(file, &opts);
        if args.format == SolveFormat::Text {
            if o.status == outcome::Status::Error {
                eprintln!("marbles: error: {}", o.error.as_deref().unwrap_or(""));
            } else {
                writeln!(stdout, "{}", render::solution(&o))?;
            }
        }
        outcomes.push(o);
    }
    if args.format == SolveFormat::Json {
        let public: Vec<Outcome> = outcomes.iter().cloned().map(report::without_replay).collect();
        serde_json::to_writer_pretty(&mut stdout, &public)?;
        writeln!(stdout)?;
    }
    Ok(Outcome::exit_code(&outcomes))
}

/// Solves one file, showing on stderr what its rule script printed.
fn solve_reporting(file: &Path, opts: &solve::Options) -> Outcome {
    match solve::prepare(file, opts) {
        Err(d) => {
            let mut o = Outcome::error(&file.display().to_string(), d.to_string());
            o.spec_hash = solve::file_hash(file);
            o
        }
        Ok(p) => {
            for line in &p.tables.printed {
                eprintln!("{}: {line}", p.script.origin.display());
            }
            solve::solve_prepared(&p, opts)
        }
    }
}

fn count_cmd(args: &cli::CountArgs) -> anyhow::Result<u8> {
    let opts = args.search.options(1);
    let p = match solve::prepare(&args.file, &opts) {
        Ok(p) => p,
        Err(d) => {
            eprintln!("marbles: error: {d}");
            return Ok(2);
        }
    };
    let model::Model::Hop(m) = &p.model else {
        eprintln!(
            "marbles: error: {}: count works on hop puzzles only",
            args.file.display()
        );
        return Ok(2);
    };
    let mut budget = search::Budget::new(solve::limits_for(&p.spec, &opts));
    match search::count::count(m, args.feasible, &mut budget) {
        Ok(r) => {
            let mut stdout = io::stdout().lock();
            match args.format {
                SolveFormat::Text => write!(stdout, "{}", r.table())?,
                SolveFormat::Json => {
                    serde_json::to_writer_pretty(&mut stdout, &r)?;
                    writeln!(stdout)?;
                }
            }
            Ok(0)
        }
        Err(v) => {
            let why = match v {
                search::Verdict::GaveUp(why) => why,
                other => format!("{other:?}"),
            };
            eprintln!("marbles: gave up counting {}: {why}", args.file.display());
            Ok(1)
        }
    }
}

fn check_cmd(args: &cli::CheckArgs) -> anyhow::Result<u8> {
    let opts = solve::Options {
        script: args.script.limits(),
        ..Default::default()
    };
    let files = batch::collect(&args.paths);
    let mut bad = 0;
    let mut stdout = io::stdout().lock();
    for f in &files.puzzles {
        match solve::prepare(f, &opts) {
            Ok(p) => {
                let what = match &p.model {
                    model::Model::Hop(m) => {
                        format!(
                            "{} holes, {} pegs, {} moves",
                            m.geo.cells.len(),
                            m.start.count_ones(),
                            m.moves.len()
                        )
                    }
                    model::Model::Tilt(m) => format!("{0}×{0} board, {1} marbles", m.size, m.start.len()),
                };
                writeln!(stdout, "ok    {}  ({}: {what})", f.display(), p.script.name)?;
            }
            Err(d) => {
                bad += 1;
                eprintln!("marbles: error: {d}");
            }
        }
    }
    for e in &files.errors {
        bad += 1;
        eprintln!("marbles: error: {e}");
    }
    if files.puzzles.is_empty() && files.errors.is_empty() {
        eprintln!("marbles: error: no puzzle files (*.yaml, *.yml) found");
        return Ok(2);
    }
    Ok(if bad > 0 { 2 } else { 0 })
}

/// The default memory limit per puzzle: a quarter of the machine's memory, split between jobs.
pub fn default_memory_limit(jobs: usize) -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024 / 4 / jobs.max(1) as u64)
}

/// Displays a path relative to the current folder when it lies below it.
pub fn display_path(p: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| p.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| p.to_path_buf())
}
