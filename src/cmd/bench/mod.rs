//! `marbles bench`: time the fixed workloads of [`cases`], each in a fresh child process
//! (`marbles bench --case N`) so that its peak memory (VmHWM) is its own, and print one table.

pub mod cases;

use super::{Error, ExitCode};
use crate::search::human_bytes;
use std::io::{self, Write};
use tabled::settings::Style;

/// Which cases to time, and how to show them.
#[derive(Debug, Clone)]
pub struct Config {
    /// Timed runs per case; the median is shown.
    pub runs: usize,
    /// Only cases whose name or question contains this text.
    pub only: Option<String>,
    /// The table as Markdown.
    pub markdown: bool,
    /// Run this one case here and print its measurement as JSON (what a child does).
    pub case: Option<usize>,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let mut stdout = io::stdout().lock();
    if let Some(i) = config.case {
        let m = cases::measure(i, config.runs).map_err(anyhow::Error::msg)?;
        serde_json::to_writer(&mut stdout, &m)?;
        writeln!(stdout)?;
        return Ok(ExitCode::Solved);
    }
    let exe = std::env::current_exe()?;
    let mut table = tabled::builder::Builder::default();
    table.push_record([
        "puzzle",
        "asked",
        "result",
        "median time",
        "nodes/s",
        "peak memory",
    ]);
    let wanted = |s: &str| config.only.as_ref().is_none_or(|o| s.contains(o.as_str()));
    for (i, case) in cases::cases().iter().enumerate() {
        if !wanted(case.name) && !wanted(case.asked) {
            continue;
        }
        let out = std::process::Command::new(&exe)
            .args([
                "bench",
                "--case",
                &i.to_string(),
                "--runs",
                &config.runs.to_string(),
            ])
            .output()?;
        let row = match serde_json::from_slice::<cases::Measured>(&out.stdout) {
            Ok(m) => [
                case.name.to_string(),
                case.asked.into(),
                m.result,
                format!("{:.4} s", m.seconds),
                format!("{:.3e}", m.nodes as f64 / m.seconds.max(1e-9)),
                human_bytes(m.peak_bytes),
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
        table.push_record(row);
    }
    if wanted("whole process") {
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("english_central.yaml");
        std::fs::write(
            &file,
            include_str!("../../../puzzles/peg_hop/english_central.yaml"),
        )?;
        let (secs, status) =
            cases::whole_process(&exe, &file, config.runs.max(5)).map_err(anyhow::Error::msg)?;
        table.push_record([
            "English central".into(),
            "whole process: `marbles solve FILE`".into(),
            status.as_str().into(),
            format!("{secs:.4} s"),
            String::new(),
            String::new(),
        ]);
    }
    let mut table = table.build();
    let table = if config.markdown {
        table.with(Style::markdown()).to_string()
    } else {
        super::plain(table)
    };
    writeln!(stdout, "{table}")?;
    Ok(ExitCode::Solved)
}
