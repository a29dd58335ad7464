//! marbles: solve marble and peg puzzles defined by YAML files and Rhai rule scripts.
//!
//! The flow is `spec` (YAML) → `script` (run once) → `model` (native tables) → `search` →
//! `outcome` → `report`. `run` is what the binary calls.

pub mod batch;
pub mod cli;
pub mod diag;
pub mod formats;
pub mod model;
pub mod outcome;
pub mod play;
pub mod progress;
pub mod render;
pub mod report;
pub mod script;
pub mod search;
pub mod solve;
pub mod spec;
pub mod trace;

use clap::CommandFactory;
use cli::{Cli, Command, SolveFormat};
use outcome::Outcome;
use std::io::{self, Write};
use std::path::Path;

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Solve(args) => solve_cmd(&args),
        Command::Play(args) => play_cmd(&args),
        Command::Check(args) => check_cmd(&args),
        Command::Batch(args) => batch::run(&args),
        Command::Import(args) => formats::import_cmd(&args),
        Command::Count(args) => count_cmd(&args),
        Command::Bench(args) => bench_cmd(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "marbles", &mut io::stdout());
            Ok(0)
        }
    }
}

fn solve_cmd(args: &cli::SolveArgs) -> anyhow::Result<u8> {
    let opts = args.search.options(1);
    // Ctrl-C stops the search at its next budget check: the answer so far is still printed.
    let _ = ctrlc::set_handler(|| search::CANCELLED.store(true, std::sync::atomic::Ordering::SeqCst));
    let mut outcomes = Vec::new();
    let mut stdout = io::stdout().lock();
    for file in &args.files {
        let notation = formats::Notation::of(file, args.from);
        for o in solve_reporting(file, notation, args, &opts) {
            if args.format != SolveFormat::Json {
                if o.status == outcome::Status::Error {
                    eprintln!("marbles: error: {}", o.error.as_deref().unwrap_or(""));
                } else {
                    formats::write_answer(&mut stdout, args.format, notation, &o, outcomes.len() + 1)?;
                }
            }
            outcomes.push(o);
        }
    }
    if args.format == SolveFormat::Json {
        let public: Vec<Outcome> = outcomes.iter().cloned().map(report::without_replay).collect();
        serde_json::to_writer_pretty(&mut stdout, &public)?;
        writeln!(stdout)?;
    }
    Ok(Outcome::exit_code(&outcomes))
}

/// Solves every puzzle in one file (ICPC files hold several), showing on stderr what their
/// rule scripts printed and, with `--trace`, the search.
fn solve_reporting(
    file: &Path,
    notation: formats::Notation,
    args: &cli::SolveArgs,
    opts: &solve::Options,
) -> Vec<Outcome> {
    let solve_one = |p: diag::Result<solve::Prepared>| match p.and_then(|p| formats::fits(args.format, p)) {
        Err(d) => {
            let mut o = Outcome::error(&file.display().to_string(), d.to_string());
            o.spec_hash = solve::file_hash(file);
            o
        }
        Ok(p) => {
            for line in &p.tables.printed {
                eprintln!("{}: {line}", p.script.origin.display());
            }
            use std::io::IsTerminal;
            if args.trace {
                trace::solve_traced(&p, opts, notation, args.trace_limit, io::stderr().lock())
            } else if let model::Model::Hop(m) = &p.model
                && io::stderr().is_terminal()
            {
                let mut progress = progress::Progress::new(m.start.count_ones());
                let o = solve::solve_observed(&p, opts, &mut progress);
                progress.finish();
                o
            } else {
                solve::solve_prepared(&p, opts)
            }
        }
    };
    formats::prepare(file, notation, opts)
        .into_iter()
        .map(solve_one)
        .collect()
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
                cli::CountFormat::Text => write!(stdout, "{}", r.table())?,
                cli::CountFormat::Json => {
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

fn bench_cmd(args: &cli::BenchArgs) -> anyhow::Result<u8> {
    use search::bench;
    let mut stdout = io::stdout().lock();
    if let Some(i) = args.case {
        let m = bench::measure(i, args.runs).map_err(anyhow::Error::msg)?;
        serde_json::to_writer(&mut stdout, &m)?;
        writeln!(stdout)?;
        return Ok(0);
    }
    let exe = std::env::current_exe()?;
    let mut rows = vec![[
        "puzzle".to_string(),
        "asked".into(),
        "result".into(),
        "median time".into(),
        "nodes/s".into(),
        "peak memory".into(),
    ]];
    let wanted = |s: &str| args.only.as_ref().is_none_or(|o| s.contains(o.as_str()));
    for (i, case) in bench::cases().iter().enumerate() {
        if !wanted(case.name) && !wanted(case.asked) {
            continue;
        }
        let out = std::process::Command::new(&exe)
            .args([
                "bench",
                "--case",
                &i.to_string(),
                "--runs",
                &args.runs.to_string(),
            ])
            .output()?;
        let row = match serde_json::from_slice::<bench::Measured>(&out.stdout) {
            Ok(m) => [
                case.name.to_string(),
                case.asked.into(),
                m.result,
                format!("{:.4} s", m.seconds),
                format!("{:.3e}", m.nodes as f64 / m.seconds.max(1e-9)),
                search::human_bytes(m.peak_bytes),
            ],
            Err(_) => [
                case.name.to_string(),
                case.asked.into(),
                format!("failed: {}", String::from_utf8_lossy(&out.stderr).trim()),
                String::new(),
                String::new(),
                String::new(),
            ],
        };
        eprintln!("{}", row.join(" | "));
        rows.push(row);
    }
    if wanted("whole process") {
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("english_central.yaml");
        std::fs::write(&file, include_str!("../puzzles/peg_hop/english_central.yaml"))?;
        let (secs, status) =
            bench::whole_process(&exe, &file, args.runs.max(5)).map_err(anyhow::Error::msg)?;
        rows.push([
            "English central".into(),
            "whole process: `marbles solve FILE`".into(),
            status.as_str().into(),
            format!("{secs:.4} s"),
            String::new(),
            String::new(),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for (k, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(v, w)| format!("{v:<w$}")).collect();
        if args.markdown {
            writeln!(stdout, "| {} |", cells.join(" | "))?;
            if k == 0 {
                let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
                writeln!(stdout, "| {} |", rule.join(" | "))?;
            }
        } else {
            writeln!(stdout, "{}", cells.join("  "))?;
        }
    }
    Ok(0)
}

fn play_cmd(args: &cli::PlayArgs) -> anyhow::Result<u8> {
    let opts = args.search.options(1);
    let notation = formats::Notation::of(&args.file, args.from);
    let mut puzzles = formats::prepare(&args.file, notation, &opts);
    let count = puzzles.len();
    if args.case == 0 || args.case > count {
        eprintln!(
            "marbles: error: {}: there is no case {} (it holds {count})",
            args.file.display(),
            args.case
        );
        return Ok(2);
    }
    match puzzles.swap_remove(args.case - 1) {
        Err(d) => {
            eprintln!("marbles: error: {d}");
            Ok(2)
        }
        Ok(p) => {
            use std::io::IsTerminal;
            let prompt = io::stdin().is_terminal();
            play::play(&p, &opts, io::stdin().lock(), io::stdout().lock(), prompt)
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
        for p in formats::prepare(f, formats::Notation::of(f, None), &opts) {
            match p {
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
    }
    for e in &files.errors {
        bad += 1;
        eprintln!("marbles: error: {e}");
    }
    if files.puzzles.is_empty() && files.errors.is_empty() {
        eprintln!("marbles: error: no puzzle files (*.yaml, *.yml, *.lisp, *.lsp, *.icpc) found");
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
