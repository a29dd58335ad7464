//! Reports: one module per output format behind [`Format`], atomic writes, and the journal
//! that lets an interrupted batch resume.

mod csv;
mod html;
mod json;
mod markdown;
mod table;

use crate::cli::TableFormat;
use crate::outcome::{MoveOut, Outcome, Status};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One output format for a set of outcomes.
pub trait Format {
    /// The file this format is written to in a report folder.
    fn file_name(&self) -> &'static str;
    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String>;
}

/// Every report file, in the order they are written.
pub fn formats() -> Vec<Box<dyn Format>> {
    vec![
        Box::new(json::Json),
        Box::new(csv::Csv),
        Box::new(markdown::Markdown),
        Box::new(html::Html),
    ]
}

/// The summary printed on stdout by `marbles batch`.
pub fn summary(format: TableFormat, outcomes: &[Outcome]) -> anyhow::Result<String> {
    match format {
        TableFormat::Table => Ok(table::render(outcomes)),
        TableFormat::Markdown => Ok(markdown::table(outcomes)),
        TableFormat::Csv => csv::Csv.render(outcomes),
        TableFormat::Json => json::Json.render(outcomes),
    }
}

/// Counts by status, for the totals line.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Totals {
    pub solved: usize,
    pub unsolvable: usize,
    pub gave_up: usize,
    pub errors: usize,
    pub seconds: f64,
}

impl Totals {
    pub fn of(outcomes: &[Outcome]) -> Self {
        let mut t = Totals::default();
        for o in outcomes {
            match o.status {
                Status::Solved => t.solved += 1,
                Status::Unsolvable => t.unsolvable += 1,
                Status::GaveUp => t.gave_up += 1,
                Status::Error => t.errors += 1,
            }
            t.seconds += o.stats.seconds;
        }
        t
    }

    pub fn line(&self) -> String {
        format!(
            "{} puzzles: {} solved, {} unsolvable, {} gave up, {} errors; {:.2} s solving",
            self.solved + self.unsolvable + self.gave_up + self.errors,
            self.solved,
            self.unsolvable,
            self.gave_up,
            self.errors,
            self.seconds
        )
    }
}

/// The number shown in a `moves` column: moves of a solution, blank otherwise.
pub fn moves_cell(o: &Outcome) -> String {
    if o.status == Status::Solved {
        o.moves.len().to_string()
    } else {
        String::new()
    }
}

/// What a row says after the status: the reason, the error, or the rating.
pub fn note(o: &Outcome) -> String {
    o.error
        .clone()
        .or_else(|| o.reason.clone())
        .or_else(|| o.rating.clone())
        .unwrap_or_default()
}

/// A compact move list: `3,1>3,3 …` for hops, `left down …` for tilts.
pub fn moves_compact(o: &Outcome) -> String {
    o.moves
        .iter()
        .map(|m| match m {
            MoveOut::Hop { from, to, .. } => format!("{},{}>{},{}", from[0], from[1], to[0], to[1]),
            MoveOut::Tilt { tilt } => tilt.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The outcome as `solve --format json` shows it: without the drawing data.
pub fn without_replay(mut o: Outcome) -> Outcome {
    o.replay = None;
    o
}

/// Writes `contents` to `path` through a temporary file and a rename, so that a reader (or a
/// crash) never sees half a file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes every report format into `dir`.
pub fn write_all(dir: &Path, outcomes: &[Outcome]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()))?;
    for f in formats() {
        let path = dir.join(f.file_name());
        write_atomic(&path, f.render(outcomes)?.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

const JOURNAL: &str = ".journal.jsonl";

/// Results of the last run in `dir` by file: summary.json, then anything journalled after it
/// (a later record of a file replaces an earlier one).
pub fn read_previous(dir: &Path) -> HashMap<String, Vec<Outcome>> {
    let mut by_file: HashMap<String, Vec<Outcome>> = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(dir.join(json::FILE))
        && let Ok(s) = serde_json::from_str::<json::Summary>(&text)
    {
        for o in s.results {
            by_file.entry(o.file.clone()).or_default().push(o);
        }
    }
    if let Ok(text) = std::fs::read_to_string(dir.join(JOURNAL)) {
        // One line per file; a line cut short by a kill is simply not a result.
        for group in text
            .lines()
            .filter_map(|l| serde_json::from_str::<Vec<Outcome>>(l).ok())
        {
            if let Some(first) = group.first() {
                by_file.insert(first.file.clone(), group);
            }
        }
    }
    by_file
}

/// An append-only record of each finished puzzle, so a killed batch loses nothing it finished.
pub struct Journal {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Journal {
    /// Opens the journal in `dir`, keeping earlier records only when resuming.
    pub fn open(dir: &Path, resume: bool) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()))?;
        let path = dir.join(JOURNAL);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        if !resume {
            file.set_len(0)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        }
        Ok(Journal {
            path,
            file: Mutex::new(file),
        })
    }

    /// Records one file's outcomes as one line.
    pub fn record(&self, outcomes: &[Outcome]) {
        if let Ok(mut line) = serde_json::to_string(outcomes) {
            line.push('\n');
            let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
            // One write per line: a kill leaves at most one partial line, which readers skip.
            let _ = f.write_all(line.as_bytes());
        }
    }

    /// The reports now hold everything: the journal is no longer needed.
    pub fn finish(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
