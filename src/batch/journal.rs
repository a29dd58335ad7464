//! What a batch keeps on disk: report files written as one set (a generation folder swapped
//! in by one rename), and the journal of finished puzzles that lets an interrupted batch resume.

use crate::outcome::Outcome;
use crate::report;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Creates the report folder `dir`.
fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()))
}

/// The link to the generation folder holding the report files now.
const CURRENT: &str = "current";
/// Generation folders are named `.gen-<pid>-<nanoseconds>`.
const GEN_PREFIX: &str = ".gen-";

/// Writes every report format into `dir` as one set: the files go into a fresh generation
/// folder, then one rename swaps the `current` link to it, so a reader (or a kill at any
/// moment) sees the whole old set or the whole new one, never a mix. `dir/summary.json` and
/// the others are links into `current/`, at the paths users know; older generations and
/// ones a kill left half written are removed after the swap.
pub fn write_reports(dir: &Path, outcomes: &[Outcome]) -> anyhow::Result<()> {
    create_dir(dir)?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let gen_name = format!("{GEN_PREFIX}{}-{nanos}", std::process::id());
    let gen_dir = dir.join(&gen_name);
    let cannot = |p: &Path, e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", p.display());
    std::fs::create_dir(&gen_dir).map_err(|e| cannot(&gen_dir, e))?;
    for f in report::formats() {
        let path = gen_dir.join(f.file_name());
        let mut file = std::fs::File::create(&path).map_err(|e| cannot(&path, e))?;
        file.write_all(f.render(outcomes)?.as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| cannot(&path, e))?;
    }
    link(dir, CURRENT, Path::new(&gen_name))?;
    for f in report::formats() {
        let target = Path::new(CURRENT).join(f.file_name());
        if std::fs::read_link(dir.join(f.file_name())).ok().as_deref() != Some(&target) {
            link(dir, f.file_name(), &target)?;
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(GEN_PREFIX) && name != gen_name {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    Ok(())
}

/// Writes `contents` to `path` so that a reader sees the old file or the whole new one: a
/// temporary file beside it (created like any output, 0666 less the umask), synced, renamed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(contents)?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Points `dir/name` at `target` in one rename, replacing whatever was there (a link, or a
/// report file from before generation folders).
fn link(dir: &Path, name: &str, target: &Path) -> anyhow::Result<()> {
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let path = dir.join(name);
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp).map_err(cannot)?;
    std::fs::rename(&tmp, &path).map_err(cannot)
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
/// Each record is one line of its own: after a torn write (a kill, a full disk) the next
/// record starts on a new line, so only the torn one is lost.
pub struct Journal {
    path: PathBuf,
    /// The file, and whether it ends in a newline (a record may start right there).
    file: Mutex<(std::fs::File, bool)>,
}

impl Journal {
    /// Opens the journal in `dir`, keeping earlier records only when resuming.
    pub fn open(dir: &Path, resume: bool) -> anyhow::Result<Self> {
        create_dir(dir)?;
        let path = dir.join(JOURNAL);
        let cannot = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .truncate(false)
            .open(&path)
            .map_err(cannot)?;
        if !resume {
            file.set_len(0).map_err(cannot)?;
        }
        let clean = ends_in_newline(&mut file).map_err(cannot)?;
        Ok(Journal {
            path,
            file: Mutex::new((file, clean)),
        })
    }

    /// Records one file's outcomes as one line, on a line of its own.
    pub fn record(&self, outcomes: &[Outcome]) {
        if let Ok(json) = serde_json::to_string(outcomes) {
            let mut guard = self.file.lock().unwrap_or_else(|p| p.into_inner());
            let (f, clean) = &mut *guard;
            let line = format!("{}{json}\n", if *clean { "" } else { "\n" });
            // One write per line: a kill leaves at most one partial line, which readers skip.
            *clean = f.write_all(line.as_bytes()).is_ok();
        }
    }

    /// The reports now hold everything: the journal is no longer needed.
    pub fn finish(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether `file` is empty or ends in `\n`.
fn ends_in_newline(file: &mut std::fs::File) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    if file.metadata()?.len() == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}
