//! What a batch keeps on disk: report files written atomically, and the journal of finished
//! puzzles that lets an interrupted batch resume.

use crate::outcome::Outcome;
use crate::report;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Writes `contents` to `path` through a temporary file and a rename, so that a reader (or a
/// crash) never sees half a file. The file gets the mode any other output would (0666 less
/// the umask), not the temporary file's private 0600.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Creates the report folder `dir`.
fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()))
}

/// Writes every report format into `dir`.
pub fn write_reports(dir: &Path, outcomes: &[Outcome]) -> anyhow::Result<()> {
    create_dir(dir)?;
    for f in report::formats() {
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
    if let Ok(text) = std::fs::read_to_string(dir.join(report::JSON_FILE))
        && let Some(results) = report::read_json(&text)
    {
        for o in results {
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
        create_dir(dir)?;
        let path = dir.join(JOURNAL);
        let cannot = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .truncate(false)
            .open(&path)
            .map_err(cannot)?;
        if !resume {
            file.set_len(0).map_err(cannot)?;
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
