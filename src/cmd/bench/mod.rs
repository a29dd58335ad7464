//! `marbles bench`: time the fixed workloads of [`cases`], each in a fresh child process
//! (`marbles bench --case N`) so that its peak memory (VmHWM) is its own, and print one table.
//! A case with a peer solver given (`--peer NAME=PATH`) is instead timed as whole processes
//! taking turns with the peer's, and the table gives the ratio ours/peer.

pub mod cases;
pub mod peer;

use super::{Error, ExitCode};
use crate::process::human_bytes;
use std::io::{self, Write};
use std::path::Path;
use std::process::Command;
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
    /// Also run the cases that take minutes ([`cases::is_long`]).
    pub long: bool,
    /// Run this one case here and print its measurement as JSON (what a child does).
    pub case: Option<usize>,
    /// Other solvers to time beside the cases they pair with, each as `NAME=PATH`.
    pub peers: Vec<String>,
}

/// One table row.
type Row = [String; 7];

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let mut stdout = io::stdout().lock();
    if let Some(i) = config.case {
        let m = cases::measure(i, config.runs).map_err(anyhow::Error::msg)?;
        serde_json::to_writer(&mut stdout, &m)?;
        writeln!(stdout)?;
        return Ok(ExitCode::Solved);
    }
    let peers = config
        .peers
        .iter()
        .map(|p| peer::Given::parse(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Error::Usage)?;
    let exe = std::env::current_exe()?;
    let mut table = tabled::builder::Builder::default();
    table.push_record([
        "puzzle",
        "asked",
        "result",
        "median time",
        "nodes/s",
        "peak memory",
        "ours/peer",
    ]);
    // In any case, as `batch -k` chooses (`--only triangle` matched nothing).
    let only = config.only.as_ref().map(|o| o.to_lowercase());
    let wanted = |s: &str| {
        only.as_ref()
            .is_none_or(|o| s.to_lowercase().contains(o.as_str()))
    };
    if let Some(o) = &config.only {
        let cases = cases::cases();
        let names = cases.iter().flat_map(|c| [c.name, c.asked]);
        let peers = peer::KNOWN.iter().flat_map(|k| [k.name, k.asked]);
        if !names.chain(peers).chain(ENGLISH).any(&wanted) {
            return Err(super::Error::Usage(format!(
                "--only {o} matches no workload: `marbles bench` with no --only lists them all"
            )));
        }
    }
    let mut push = |row: Row| {
        eprintln!("{}", row.join(" | "));
        table.push_record(row);
    };
    for (i, case) in cases::cases().iter().enumerate() {
        let ours = (wanted(case.name) || wanted(case.asked)) && (config.long || !cases::is_long(case));
        let known = peer::KNOWN.iter().find(|k| k.pairs_with == case.asked);
        let given = known.and_then(|k| peers.iter().find(|g| g.name == k.name));
        let theirs = known.is_some_and(|k| ours || wanted(k.asked) || wanted(k.name));
        match (known, given) {
            (Some(_), Some(g)) if theirs => {
                for row in paired(&exe, i, case, ours, g, config.runs)? {
                    push(row);
                }
                continue;
            }
            _ => {}
        }
        if ours {
            push(in_child(&exe, i, case, config.runs)?);
        }
        if let (Some(k), true) = (known, theirs) {
            push(row(case.name, k.asked, peer::hint(k)));
        }
    }
    // Chosen by its name or its question, as the rows above are.
    let [name, asked] = ENGLISH;
    if wanted(name) || wanted(asked) {
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("english_central.yaml");
        std::fs::write(
            &file,
            include_str!("../../../puzzles/peg_hop/english_central.yaml"),
        )?;
        let (secs, status) =
            cases::whole_process(&exe, &file, config.runs.max(5)).map_err(anyhow::Error::msg)?;
        table.push_record([
            name.into(),
            asked.into(),
            status.as_str().into(),
            format!("{secs:.4} s"),
            String::new(),
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

/// The row timing the whole process on the English board: its name and its question.
const ENGLISH: [&str; 2] = ["English central", "whole process: `marbles solve FILE`"];

/// A row with only its first three columns filled.
fn row(name: &str, asked: &str, result: String) -> Row {
    [
        name.into(),
        asked.into(),
        result,
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ]
}

/// Case `i` timed inside a child process (`bench --case i`), which reports its median.
fn in_child(exe: &Path, i: usize, case: &cases::Case, runs: usize) -> Result<Row, Error> {
    let out = Command::new(exe)
        .args(["bench", "--case", &i.to_string(), "--runs", &runs.to_string()])
        .output()?;
    Ok(match serde_json::from_slice::<cases::Measured>(&out.stdout) {
        Ok(m) => measured(case, &m, m.seconds, m.peak_bytes),
        Err(_) => row(
            case.name,
            case.asked,
            format!("failed: {}", String::from_utf8_lossy(&out.stderr).trim()),
        ),
    })
}

/// The row of a measured case, with the time and peak memory to show.
fn measured(case: &cases::Case, m: &cases::Measured, seconds: f64, peak: u64) -> Row {
    [
        case.name.to_string(),
        case.asked.into(),
        m.result.clone(),
        format!("{seconds:.4} s"),
        format!("{:.3e}", m.nodes as f64 / seconds.max(1e-9)),
        human_bytes(peak),
        String::new(),
    ]
}

/// Case `i` (when `ours`) and its peer, each run `runs` times as whole processes taking
/// turns: the median wall time and the largest peak memory of each, and their ratios.
fn paired(
    exe: &Path,
    i: usize,
    case: &cases::Case,
    ours: bool,
    given: &peer::Given,
    runs: usize,
) -> Result<Vec<Row>, Error> {
    let k = given.known();
    let threads = rayon::current_num_threads();
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        if ours {
            let mut cmd = Command::new(exe);
            cmd.args(["bench", "--case", &i.to_string(), "--runs", "1"]);
            mine.push(peer::run(cmd)?);
        }
        let run = peer::run(given.command(threads))
            .map_err(|e| Error::Usage(format!("--peer {}: cannot run it: {e}", given.text)))?;
        theirs.push(run);
    }
    let summary = |ps: &[peer::Process]| {
        let mut times: Vec<f64> = ps.iter().map(|p| p.seconds).collect();
        times.sort_by(f64::total_cmp);
        let peak = ps.iter().map(|p| p.peak_bytes).max().unwrap_or(0);
        (times[times.len() / 2], peak)
    };
    let (their_time, their_peak) = summary(&theirs);
    let last = &theirs[theirs.len() - 1];
    let asked = format!("{} (--threads {threads})", k.asked);
    let their_row = match (theirs.iter().all(|p| p.success), given.answer(last)) {
        (true, Some(n)) => [
            case.name.to_string(),
            asked,
            format!("{n} solutions"),
            format!("{their_time:.4} s"),
            String::new(),
            human_bytes(their_peak),
            String::new(),
        ],
        (ok, _) => {
            let why = if ok {
                "no solution count in its output".to_string()
            } else {
                format!(
                    "exit {}",
                    last.code.map_or("by a signal".into(), |c| c.to_string())
                )
            };
            let tail: Vec<&str> = last.output.trim().lines().rev().take(3).collect();
            let said = if tail.is_empty() {
                "no output".to_string()
            } else {
                tail.join(" / ")
            };
            let mut r = row(case.name, &asked, format!("failed ({why}): {said}"));
            r[3] = format!("{their_time:.4} s");
            return Ok(vec![r]);
        }
    };
    if !ours {
        return Ok(vec![their_row]);
    }
    let (time, peak) = summary(&mine);
    let parsed = mine
        .last()
        .and_then(|p| serde_json::from_str::<cases::Measured>(p.output.lines().next()?).ok());
    let mut our_row = match parsed {
        Some(m) => measured(case, &m, time, peak),
        None => row(
            case.name,
            case.asked,
            format!("failed: {}", mine.last().map_or("", |p| p.output.trim())),
        ),
    };
    our_row[1] = format!("{}, whole process", case.asked);
    our_row[6] = format!(
        "time {:.2}×, memory {:.2}×",
        time / their_time.max(1e-9),
        peak as f64 / their_peak.max(1) as f64
    );
    Ok(vec![our_row, their_row])
}
