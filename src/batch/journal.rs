//! What a batch keeps on disk: report files written as one set (a generation folder swapped
//! in by one rename), and the journal of finished puzzles that lets an interrupted batch resume.
//!
//! Every result goes to the journal, `.journal.jsonl`, as soon as its file is finished: one
//! JSON object a line, an outcome with where it stands (`index`, its file's place in path
//! order; `case` and `cases`, its place among its file's results). At the end the journal's
//! records are copied in path order into `results.jsonl` beside the other reports, and the
//! journal is removed. A batch so holds no result in memory beyond what its summary needs
//! (see `report::tally`), and a kill at any moment loses no finished file: `--resume` reads
//! `results.jsonl` and the journal, keeping of each only a small index, and reads back the
//! records of the files it reuses. The cases a file of several finishes are in the journal
//! too, before the file is (see [`Journal::case`]): a kill in a long case keeps the cases
//! before it, and `--resume` solves only the rest.
//!
//! Each record carries a `seal`, a digest of the rest of its line made when it is written: a
//! record reused is the record as it was written, or it is solved again (see `unsealed`).

use super::folder::Folder;
use crate::outcome::{Outcome, Status};
use crate::report::{self, Finished};
use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The link to the generation folder holding the report files now.
const CURRENT: &str = "current";
/// Generation folders are named `.gen-<pid>-<nanoseconds>`.
const GEN_PREFIX: &str = ".gen-";
/// Beside `results.jsonl` in a generation folder: the latest results of the files the run
/// did not finish (not selected, not reached, interrupted), carried over from earlier runs for
/// `--failed` and `--resume`.
pub const EARLIER_FILE: &str = "earlier.jsonl";

/// The refusal of a folder planted where a report name is published.
fn folder_refused(path: &Path) -> String {
    format!(
        "cannot write {}: it is a folder, where marbles publishes a link to its report; remove it",
        path.display()
    )
}

/// Whether `dir/current` is marbles' link to one of its generation folders: the mark of a
/// folder it wrote a report into.
fn written_before(dir: &Folder) -> bool {
    std::fs::read_link(dir.at(CURRENT))
        .is_ok_and(|t| t.components().count() == 1 && t.to_string_lossy().starts_with(GEN_PREFIX))
}

/// Refuses, before anything is solved, a report folder `dir` where writing the reports would
/// replace something marbles did not put there: a folder at a name it publishes, or a file
/// there that is no link (marbles' own are links, replaced by a rename, never followed)
/// unless `current` shows marbles wrote a report here before. `not_done` says what the
/// refusal spared ("nothing was solved").
pub fn check_ours(dir: &Folder, not_done: &str) -> anyhow::Result<()> {
    let ours = written_before(dir);
    let names = report::formats()
        .iter()
        .map(|f| f.file_name())
        .chain([report::RESULTS_FILE, CURRENT])
        .collect::<Vec<_>>();
    for name in names {
        let Ok(meta) = std::fs::symlink_metadata(dir.at(name)) else {
            continue;
        };
        if meta.is_dir() {
            anyhow::bail!("{}", folder_refused(&dir.shown(name)));
        }
        if !(ours || meta.is_symlink()) {
            anyhow::bail!(
                "{}: a file marbles did not write (its reports are links into {}/); move it away \
                 or choose another --report folder; {not_done} and no report was touched",
                dir.shown(name).display(),
                dir.shown(CURRENT).display()
            );
        }
    }
    // The journal a run killed before its first report leaves is marbles' too: its records
    // lead with `{"index":` (older ones with `[{"file":`), the first perhaps torn. A file of
    // that name that does not is the user's, and a run would remove it.
    let journal = dir.at(JOURNAL);
    if !ours && std::fs::symlink_metadata(&journal).is_ok_and(|m| m.is_file()) {
        let mut head = Vec::new();
        let read = std::fs::File::open(&journal).and_then(|f| f.take(9).read_to_end(&mut head));
        let leads = |with: &[u8]| head.iter().zip(with).all(|(a, b)| a == b);
        if read.is_ok() && !leads(b"{\"index\":") && !leads(b"[{\"file\":") {
            anyhow::bail!(
                "{}: a file marbles did not write (its records lead with `{{\"index\":`); move it \
                 away or choose another --report folder; {not_done} and no report was touched",
                dir.shown(JOURNAL).display()
            );
        }
    }
    Ok(())
}

/// Writes every report into `dir` as one set: `results.jsonl` (made at the path given to
/// `results`, every result a line, on disk when it returns) and each format of
/// [`report::formats`] from `finished`. The files go into a
/// fresh generation folder, then one rename swaps the `current` link to it, so a reader (or a
/// kill at any moment) sees the whole old set or the whole new one, never a mix.
/// `dir/summary.json` and the others are links into `current/`, at the paths users know;
/// older generations and ones a kill left half written are removed after the swap.
/// Returns the folder written into: `dir`, or the one made at its name when `dir` was
/// removed while the batch ran, with its lock while the caller writes more there.
pub fn write_reports(
    dir: &Folder,
    finished: &Finished,
    results: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> anyhow::Result<(Folder, Option<super::lock::ReportLock>)> {
    // (A folder made again is held locked until what goes into it is written.)
    let written = dir.or_made_again()?;
    let dir = &written.0;
    let formats = report::formats();
    // Each name published is replaced by a link in one rename, which a folder there refuses:
    // found first, before anything is written or swapped (it left `current` swapped and the
    // other names not, and a temporary link behind).
    let published = formats
        .iter()
        .map(|f| f.file_name())
        .chain([report::RESULTS_FILE, CURRENT]);
    for name in published {
        if std::fs::symlink_metadata(dir.at(name)).is_ok_and(|m| m.is_dir()) {
            anyhow::bail!("{}", folder_refused(&dir.shown(name)));
        }
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let gen_name = format!("{GEN_PREFIX}{}-{nanos}", std::process::id());
    let cannot = |p: &Path, e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", p.display());
    std::fs::create_dir(dir.at(&gen_name)).map_err(|e| cannot(&dir.shown(&gen_name), e))?;
    let whole = (|| {
        let generation = dir.sub(&gen_name).map_err(|e| cannot(&dir.shown(&gen_name), e))?;
        let name = report::RESULTS_FILE;
        results(&generation.at(name)).map_err(|e| cannot(&generation.shown(name), e))?;
        for f in &formats {
            let (path, shown) = (generation.at(f.file_name()), generation.shown(f.file_name()));
            let mut file = crate::owned::create_new(&path).map_err(|e| cannot(&shown, e))?;
            file.write_all(f.write(finished)?.as_bytes())
                .and_then(|_| file.sync_all())
                .map_err(|e| cannot(&shown, e))?;
        }
        link(dir, CURRENT, Path::new(&gen_name))
    })();
    // A set not written whole (a full disk) is not left to hold the space the next batch
    // needs; `current` still names the last whole one.
    if whole.is_err() {
        let _ = std::fs::remove_dir_all(dir.at(&gen_name));
    }
    whole?;
    let names = formats
        .iter()
        .map(|f| f.file_name())
        .chain([report::RESULTS_FILE]);
    for name in names {
        let target = Path::new(CURRENT).join(name);
        if std::fs::read_link(dir.at(name)).ok().as_deref() != Some(&target) {
            link(dir, name, &target)?;
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir.at("")) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name != gen_name && generation_of_ours(&e.path(), &name) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    Ok(written)
}

/// Whether the entry `name` at `path` is a generation folder marbles wrote: named as
/// [`write_reports`] names them (`.gen-PID-NANOS`) and holding only report files (a whole set,
/// or part of one a kill cut short). A user's folder of another name or content is left be.
fn generation_of_ours(path: &Path, name: &str) -> bool {
    let Some(stamp) = name.strip_prefix(GEN_PREFIX) else {
        return false;
    };
    let numbered = stamp.split_once('-').is_some_and(|(pid, nanos)| {
        [pid, nanos]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let reports: Vec<&str> = report::formats()
        .iter()
        .map(|f| f.file_name())
        .chain([report::RESULTS_FILE, EARLIER_FILE])
        .collect();
    numbered
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(path).is_ok_and(|entries| {
            entries
                .flatten()
                .all(|e| e.file_name().to_str().is_some_and(|n| reports.contains(&n)))
        })
}

/// Results held in memory (`marbles merge`), in path order, as a batch would have recorded
/// them (each run of results from one file is that file's, numbered as a batch numbers
/// them) and tallied them: summarised as a batch's once they are too many to list.
pub fn tallied(outcomes: Vec<Outcome>) -> anyhow::Result<(Vec<u8>, Finished)> {
    let mut lines = Vec::new();
    for (index, group) in outcomes.chunk_by(|a, b| a.file == b.file).enumerate() {
        lines.extend(records(index, group)?);
    }
    let mut finished = Finished::of(outcomes);
    finished.listed = true;
    Ok((lines, finished))
}

/// [`write_reports`] of results [`tallied`] in memory, `lines` becoming `results.jsonl`.
pub fn write_reports_of(dir: &Folder, finished: &Finished, lines: &[u8]) -> anyhow::Result<()> {
    write_reports(dir, finished, &mut |path| {
        write_synced(path, &mut |w| w.write_all(lines))
    })
    .map(drop)
}

/// Creates `path` with what `write` writes, buffered, and syncs it to disk.
fn write_synced(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 20, crate::owned::create_new(path)?);
    write(&mut w)?;
    w.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// How a record's seal starts, after where the record stands.
const SEAL: &[u8] = b",\"seal\":\"";
/// A seal's hex digits: the first 16 bytes of a SHA-256.
const SEAL_HEX: usize = 32;

/// The seal of a record's line without its seal field: `head` (where it stands) and `rest`.
fn seal(head: &[u8], rest: &[u8]) -> [u8; SEAL_HEX] {
    let mut h = Sha256::new();
    h.update(head);
    h.update(rest);
    let mut hex = [0; SEAL_HEX];
    hex::encode_to_slice(&h.finalize()[..SEAL_HEX / 2], &mut hex).expect("32 hex digits hold 16 bytes");
    hex
}

/// One record: `o` as a JSON object led by where it stands and its seal, and a newline,
/// added to `out`.
fn line(out: &mut Vec<u8>, index: usize, case: usize, cases: usize, o: &Outcome) -> serde_json::Result<()> {
    use std::io::Write as _;
    // An outcome is an object with fields: `{"file":…}` becomes
    // `{"index":…,"case":…,"cases":…,"from":"…","seal":"…","file":…}`.
    let start = out.len();
    let _ = write!(out, "{{\"index\":{index},\"case\":{case},\"cases\":{cases}");
    // Where this run runs, from its report folder: what its relative paths are taken from.
    if let Some(from) = super::places::from() {
        out.extend_from_slice(b",\"from\":");
        serde_json::to_writer(&mut *out, from)?;
    }
    let head = out.len();
    out.extend_from_slice(SEAL);
    out.extend_from_slice(&[b'0'; SEAL_HEX]);
    out.push(b'"');
    let at = out.len();
    serde_json::to_writer(&mut *out, o)?;
    out[at] = b',';
    let hex = seal(&out[start..head], &out[at..]);
    out[head + SEAL.len()..head + SEAL.len() + SEAL_HEX].copy_from_slice(&hex);
    out.push(b'\n');
    Ok(())
}

/// Whether a record's line (without its newline) is not as it was written: it has no seal,
/// or its seal is not the digest of the rest of it. A result edited, or corrupted yet still
/// JSON (a forged "unsolvable", a move changed), is so never published again as it stands.
fn unsealed(line: &[u8]) -> bool {
    let Some(head) = line.windows(SEAL.len()).position(|w| w == SEAL) else {
        return true;
    };
    let hex = head + SEAL.len();
    match (line.get(hex..hex + SEAL_HEX), line.get(hex + SEAL_HEX)) {
        (Some(written), Some(b'"')) => written != seal(&line[..head], &line[hex + SEAL_HEX + 1..]),
        _ => true,
    }
}

/// The records of the `index`-th file's results, as [`Journal::record`] takes them: made on
/// the worker that solved the file. Of a file Ctrl-C cut, the results before the first it
/// cut: a group shorter than its `cases`, which `--resume` takes up from there.
pub fn records(index: usize, outcomes: &[Outcome]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(1536 * outcomes.len());
    let done = outcomes.iter().take_while(|o| !report::interrupted(o));
    for (k, o) in done.enumerate() {
        line(&mut bytes, index, k + 1, outcomes.len(), o)?;
    }
    Ok(bytes)
}

/// Adds to `out` the record of one case of the `index`-th file as it finishes, the
/// `case`-th of `cases`, made on the worker solving the file: [`Journal::case`] keeps it
/// until the file's records are taken whole.
pub fn case_record(
    out: &mut Vec<u8>,
    index: usize,
    case: usize,
    cases: usize,
    o: &Outcome,
) -> anyhow::Result<()> {
    Ok(line(out, index, case, cases, o)?)
}

/// Points `dir/name` at `target` in one rename, replacing whatever was there (a link, or a
/// report file from before generation folders).
fn link(dir: &Folder, name: &str, target: &Path) -> anyhow::Result<()> {
    let tmp = dir.at(format!(".{name}.{}.tmp", std::process::id()));
    let path = dir.at(name);
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", dir.shown(name).display());
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp).map_err(cannot)?;
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        cannot(e)
    })
}

const JOURNAL: &str = ".journal.jsonl";
/// How long records taken may wait to be written, at most.
pub const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_millis(100);
/// How many bytes of records taken may wait to be written, at most.
pub const FLUSH_BYTES: usize = 1 << 20;
/// How long the finished cases of a file still being solved wait, at most, before they are
/// written as a group of their own (see [`Journal::case`]).
pub const PART_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Records in the pieces they came in, written one after another.
type Records = Vec<Vec<u8>>;

/// How many bytes `records` hold.
fn bytes_in(records: &[Vec<u8>]) -> usize {
    records.iter().map(Vec::len).sum()
}

/// The records of the cases a file still being solved has finished, in case order, and
/// how many of them the journal holds as a group of their own (written when).
#[derive(Default)]
struct Partial {
    /// Its records as they came, in pieces: joined, a file's 33 MB grew by doubling into
    /// twice that.
    lines: Records,
    cases: usize,
    written: usize,
    since: Option<std::time::Instant>,
}

impl Partial {
    /// Whether its cases are due to be written again as a group: the first ones have
    /// waited [`PART_EVERY`], or it is that long since the last group was written and a
    /// quarter more cases have finished since. A file's groups so add up to five times its
    /// records at most, and a kill loses, of a file's cases, those of the last
    /// [`PART_EVERY`] or a fifth of those finished, whichever is more.
    fn due(&self, now: std::time::Instant) -> bool {
        let more = self.cases >= self.written + (self.written / 4).max(1);
        more && self.since.is_some_and(|t| now.duration_since(t) >= PART_EVERY)
    }
}

/// What `--resume` keeps of an earlier run's results for one file: where they are, and what
/// they were made from.
#[derive(Debug, Clone, Copy)]
struct Earlier {
    /// Which of [`Previous::files`] holds them, from which byte, how many bytes.
    source: usize,
    offset: u64,
    len: u32,
    /// The file's place in path order they were recorded under (older reports have none).
    index: Option<usize>,
    /// [`digest`] of the hashes and settings they were made under.
    made: [u8; 16],
    /// One of them is an error: solved again.
    failed: bool,
    /// [`spelling_key`] of the path they name the file by.
    spelt: u64,
    /// How many results they are, of the file's `cases`: fewer when Ctrl-C or a kill cut
    /// the file short, and `--resume` solves the rest.
    got: usize,
    cases: usize,
}

/// A digest of what a file's results were made from: its bytes' hash, and each result's
/// script (where it was found, and its hash) and settings, in order.
pub fn digest<'a>(spec_hash: &str, each: impl Iterator<Item = [&'a str; 3]>) -> [u8; 16] {
    let mut h = Sha256::new();
    h.update(spec_hash.as_bytes());
    for parts in each {
        for (k, part) in parts.iter().enumerate() {
            // Settings recorded by older reports said `goal: 1 pegs`: the same settings.
            h.update([k as u8]);
            match (k, part.strip_prefix("goal: 1 pegs")) {
                (2, Some(rest)) => {
                    h.update(b"goal: 1 peg");
                    h.update(rest.as_bytes());
                }
                _ => h.update(part.as_bytes()),
            }
        }
    }
    let mut out = [0; 16];
    out.copy_from_slice(&h.finalize()[..16]);
    out
}

/// The fields of a record the index needs.
#[derive(serde::Deserialize)]
struct Brief<'a> {
    #[serde(default)]
    index: Option<usize>,
    #[serde(borrow)]
    file: std::borrow::Cow<'a, str>,
    /// The folder the batch that wrote it ran in, said from the report folder (older
    /// records say none).
    #[serde(default, borrow)]
    from: Option<std::borrow::Cow<'a, str>>,
    case: usize,
    cases: usize,
    status: Status,
    #[serde(default, borrow)]
    spec_hash: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    script: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    script_hash: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    settings: Option<std::borrow::Cow<'a, str>>,
}

/// A file's group of records being read by [`Previous::index`]: its file, where it starts
/// and ends so far, its results' count, and its digest's inputs so far.
struct Group {
    file: String,
    /// [`file_key`] of its file, taken from the folder its batch ran in.
    key: u64,
    index: Option<usize>,
    offset: u64,
    end: u64,
    cases: usize,
    spec_hash: String,
    each: Vec<[String; 3]>,
    /// How many of its results come before its first error, if it has one.
    errors_from: Option<usize>,
}

/// The latest results in a report folder, for `--resume`, `--failed` and the runs that keep
/// them: an index of each file's records in `earlier.jsonl`, `results.jsonl` and, after a
/// kill, the journal (a later record of a file replaces an earlier one). Records are read
/// back only for the files reused, asked about or carried over.
#[derive(Default)]
pub struct Previous {
    files: Vec<File>,
    /// Which of `files` is the journal, and which file it is (device and inode).
    journal: Option<(usize, (u64, u64))>,
    /// By [`file_key`] of the file outcomes name.
    by_file: FxHashMap<u64, Earlier>,
    /// Where the files the records name lie.
    places: super::places::Places,
    /// What was passed over in reading them, to be shown as warnings.
    pub notes: Vec<String>,
    /// Report files planted as links out of the report folder, not read: warnings of every
    /// run that reads the folder, since every one carries earlier results over.
    pub planted: Vec<String>,
    /// Only the first results of files a cut left short are to be reused (`--failed`: a
    /// file it runs again that was finished is solved again whole).
    pub cut_only: bool,
}

/// The most bytes of `results.jsonl` or the journal `--resume` reads back: some 45 million
/// results of 1.5 KB (a million-puzzle batch writes 1.4 GB).
pub const MAX_RECORDS_BYTES: u64 = 64 << 30;
/// The longest line `--resume` keeps: a record of 16 MiB would hold a solution of some
/// hundred thousand moves with a frame each; a longer line is read through, not kept.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// Reads one line (through its `\n`), starting at byte `at` of the file `r` reads, into
/// `buf`, keeping it only if it is at most `max` bytes: a longer one is read through a
/// megabyte at a time and `buf` left empty. Returns the bytes read and whether the line was
/// kept; an error once Ctrl-C is pressed (a line may be gigabytes long: an 8 GB journal of
/// zeros took 10 s to notice). A hole in a sparse file (zeros that take no disk: a planted
/// 8 GiB journal made by `truncate` was read for 51 s) holds no line's end and is skipped,
/// not read.
fn read_line_at_most(
    r: &mut BufReader<&File>,
    at: u64,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<(u64, bool)> {
    let mut n = r.by_ref().take(max as u64 + 1).read_until(b'\n', buf)? as u64;
    if buf.len() <= max || buf.ends_with(b"\n") {
        return Ok((n, true));
    }
    loop {
        if crate::process::CANCELLED.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        if buf.iter().all(|&b| b == 0) {
            n += skip_hole(r, at + n)?;
        }
        buf.clear();
        let more = r.by_ref().take(1 << 20).read_until(b'\n', buf)?;
        n += more as u64;
        if more == 0 || buf.ends_with(b"\n") {
            buf.clear();
            return Ok((n, false));
        }
    }
}

/// Moves `r`, at byte `at` of its file, past the hole it is in, if it is in one (`SEEK_DATA`):
/// returns the bytes skipped.
fn skip_hole(r: &mut BufReader<&File>, at: u64) -> std::io::Result<u64> {
    use std::io::{Seek, SeekFrom};
    use std::os::unix::io::AsRawFd;
    let Ok(from) = libc::off_t::try_from(at) else {
        return Ok(0);
    };
    // SAFETY: `lseek` on an open descriptor; the reader seeks to an absolute place after it.
    let data = unsafe { libc::lseek(r.get_ref().as_raw_fd(), from, libc::SEEK_DATA) };
    let next = match data {
        // No data after it: the hole runs to the end.
        -1 if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENXIO) => {
            r.get_ref().metadata()?.len()
        }
        -1 => at,
        d => d as u64,
    };
    r.seek(SeekFrom::Start(next.max(at)))?;
    Ok(next.saturating_sub(at))
}

use super::places::file_key;

/// A hash of a file's path as spelt: a record is taken as it stands only where its path is
/// spelt as this run spells it.
fn spelling_key(file: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    file.hash(&mut h);
    h.finish()
}

impl Previous {
    /// Reads the index of `dir`'s results and journal. A file not there is no result; one
    /// that is not a regular file (a FIFO, a device), a journal that is a link, or a file
    /// past [`MAX_RECORDS_BYTES`] is refused, naming it. A line past [`MAX_RECORD_BYTES`] is
    /// passed over unkept (what it held is solved again), said in [`Previous::notes`].
    pub fn read(dir: &Folder) -> anyhow::Result<Self> {
        let mut p = Previous {
            places: super::places::Places::new(&dir.real()),
            ..Previous::default()
        };
        let earlier = Path::new(CURRENT).join(EARLIER_FILE);
        let names = [
            earlier.as_path(),
            Path::new(report::RESULTS_FILE),
            Path::new(JOURNAL),
        ];
        for name in names {
            // `earlier.jsonl` is read only from a set marbles made.
            if name == earlier && !written_before(dir) {
                continue;
            }
            let path = dir.shown(name);
            // `results.jsonl` is the link marbles made into the current set, `earlier.jsonl`
            // is in it, both inside `dir` (one planted leading out of it had its records
            // carried into the new reports); the journal is never a link.
            let (at, within) = (dir.at(""), dir.name());
            let within = (name != Path::new(JOURNAL)).then_some((at.as_path(), within));
            let f = match crate::owned::open_to_read(&dir.at(name), within) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                // Planted: not read, and replaced by this run's own link.
                Err(e) if crate::owned::refusal(&e).is_some() => {
                    p.planted.push(format!("{}: {e}: not read", path.display()));
                    continue;
                }
                Err(e) => anyhow::bail!("{}: {e}", path.display()),
            };
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            if len > MAX_RECORDS_BYTES {
                anyhow::bail!(
                    "{}: {len} bytes, more than the {} GiB --resume reads back (no batch writes that \
                     much); remove it or run without --resume",
                    path.display(),
                    MAX_RECORDS_BYTES >> 30
                );
            }
            let source = p.files.len();
            p.index(source, &f, &path);
            if name == Path::new(JOURNAL) {
                p.journal = identity(&f).map(|id| (source, id));
            }
            p.files.push(f);
        }
        Ok(p)
    }

    /// Where the records kept for `file` lie in the journal `j` writes to, if they do and
    /// were recorded as the `index`-th file: the journal holds them already, as they would
    /// be written now.
    fn in_journal(&self, j: &Journal, file: &str, index: usize) -> Option<(u64, u32)> {
        let (source, id) = self.journal?;
        let e = self.by_file.get(&file_key(file))?;
        let same = e.source == source && e.spelt == spelling_key(file);
        (same && Some(id) == identity(&j.file) && e.index == Some(index)).then_some((e.offset, e.len))
    }

    /// Indexes the groups of records in `f`: a line that does not parse (torn by a kill) is
    /// no result, and ends its group; a group cut short (by Ctrl-C, a kill or a torn line)
    /// keeps the results before the cut.
    fn index(&mut self, source: usize, f: &File, path: &Path) {
        let mut reader = BufReader::with_capacity(1 << 20, f);
        let mut buf = Vec::new();
        let mut at = 0u64;
        let mut open: Option<Group> = None;
        for line in 1.. {
            if crate::process::CANCELLED.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            buf.clear();
            let Ok((n, kept)) = read_line_at_most(&mut reader, at, &mut buf, MAX_RECORD_BYTES) else {
                break;
            };
            if n == 0 {
                break;
            }
            if !kept {
                self.notes.push(format!(
                    "{}:{line}: a line longer than {} MiB, more than any result marbles writes; \
                     passed over (what it held is solved again)",
                    path.display(),
                    MAX_RECORD_BYTES >> 20
                ));
            }
            let start = at;
            at += n;
            let b = serde_json::from_slice::<Brief>(&buf).ok();
            let goes_on = |g: &Group| {
                b.as_ref()
                    .is_some_and(|b| g.file == b.file && g.cases == b.cases && g.each.len() + 1 == b.case)
            };
            if let Some(g) = open.take_if(|g| !goes_on(g)) {
                self.keep(source, g);
            }
            let Some(b) = b else { continue };
            if b.case == 1 {
                // Results of a file not there (or not a file) serve nothing: no run reuses
                // or carries them over. Kept, a planted journal of small records naming
                // files that are not there held some 220 bytes each, 2.2 GB for ten million.
                let place = self.places.place(b.from.as_deref(), &b.file);
                if !std::fs::metadata(&place).is_ok_and(|m| m.is_file()) {
                    continue;
                }
                open = Some(Group {
                    file: b.file.to_string(),
                    key: super::places::key_of(&place),
                    index: b.index,
                    offset: start,
                    end: start,
                    cases: b.cases,
                    spec_hash: b.spec_hash.as_deref().unwrap_or("").to_string(),
                    each: Vec::new(),
                    errors_from: None,
                });
            }
            let Some(g) = open.as_mut() else { continue };
            let field = |f: &Option<std::borrow::Cow<str>>| f.as_deref().unwrap_or("").to_string();
            g.each
                .push([field(&b.script), field(&b.script_hash), field(&b.settings)]);
            if b.status == Status::Error && g.errors_from.is_none() {
                g.errors_from = Some(g.each.len() - 1);
            }
            g.end = at;
            if b.case == b.cases
                && let Some(g) = open.take()
            {
                self.keep(source, g);
            }
        }
        if let Some(g) = open {
            self.keep(source, g);
        }
    }

    /// Keeps `g`, read from the `source`-th file, as its file's latest results: of a group
    /// holding an error, only those before it may be taken up (an error is never reused;
    /// it and the rest of its file are solved again), and none when it is the first.
    fn keep(&mut self, source: usize, g: Group) {
        let got = g.errors_from.unwrap_or(g.each.len());
        let made = digest(
            &g.spec_hash,
            g.each[..got].iter().map(|p| p.each_ref().map(String::as_str)),
        );
        let e = Earlier {
            source,
            offset: g.offset,
            len: u32::try_from(g.end - g.offset).unwrap_or(u32::MAX),
            index: g.index,
            made,
            failed: got == 0 && g.errors_from.is_some(),
            spelt: spelling_key(&g.file),
            got,
            cases: g.cases,
        };
        self.by_file.insert(g.key, e);
    }

    /// Whether results for `file` were kept, none an error, and made from what `made` says:
    /// `made` of each of them, when they are all of the file's `cases` results, or of the
    /// first ones, when a cut left those (only those, when [`Previous::cut_only`]). Returns
    /// how many there are.
    pub fn has(&self, file: &str, cases: usize, made: &dyn Fn(usize) -> [u8; 16]) -> Option<usize> {
        let e = self.by_file.get(&file_key(file))?;
        let short = if self.cut_only {
            e.got < cases
        } else {
            e.got <= cases
        };
        (!e.failed && e.cases == cases && short && e.made == made(e.got)).then_some(e.got)
    }

    /// Whether any results for `file` were kept.
    pub fn knows(&self, file: &str) -> bool {
        self.by_file.contains_key(&file_key(file))
    }

    /// Writes into `out` (made new, on disk when it returns) the records of every file
    /// `keep` takes (given its [`file_key`] and its path from the folder its run ran in), as
    /// they were written: the results a run carries over for the files it did not finish.
    pub fn carry(&self, out: &Path, keep: &dyn Fn(u64, &Path) -> bool) -> std::io::Result<()> {
        let mut kept: Vec<&Earlier> = self.by_file.values().collect();
        kept.sort_by_key(|e| (e.source, e.offset));
        let mut bytes = Vec::new();
        write_synced(out, &mut |w| {
            for e in &kept {
                bytes.resize(e.len as usize, 0);
                self.files[e.source].read_exact_at(&mut bytes, e.offset)?;
                let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
                let kept = serde_json::from_slice::<Brief>(first).is_ok_and(|b| {
                    let path = self.places.file(b.from.as_deref(), &b.file);
                    keep(super::places::key_of(&path), &path)
                });
                if kept {
                    w.write_all(&bytes)?;
                }
            }
            Ok(())
        })
    }

    /// The results kept for `file`, read back.
    pub fn load(&self, file: &str) -> Option<Vec<Outcome>> {
        let e = self.by_file.get(&file_key(file))?;
        let mut bytes = vec![0; e.len as usize];
        self.files[e.source].read_exact_at(&mut bytes, e.offset).ok()?;
        let lines = || bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty());
        if lines().any(unsealed) {
            return None;
        }
        let mut outcomes: Vec<Outcome> = lines()
            .map(serde_json::from_slice)
            .collect::<Result<_, _>>()
            .ok()?;
        // The records at that place are the file's, named as when they were indexed.
        if !outcomes.iter().all(|o| spelling_key(&o.file) == e.spelt) {
            return None;
        }
        // Named as this run names the file.
        outcomes.iter_mut().for_each(|o| o.file = file.to_string());
        Some(outcomes)
    }
}

/// An append-only record of each finished file's results, so a killed batch loses almost
/// nothing it finished. Each record is one line of its own: after a torn write (a kill, a
/// full disk) the next record starts on a new line, so only the torn one is lost. Records are
/// written together, every [`FLUSH_EVERY`] or [`FLUSH_BYTES`]: a million small files made a
/// million appends, each costing the file system more than its bytes (64 s of a 127 s batch
/// on this machine's disk while it was busy writing back). A kill so loses the results of the
/// last tenth of a second at most (and the [`super::IDLE_EVERY`] the batch may take to
/// notice), as it loses those still on their way from the workers; `--resume` solves them
/// again.
///
/// Files finish nearly in path order, and records that come early wait (as long, at most)
/// for those before them: a journal written in path order from empty *is*
/// `results.jsonl`, linked into the reports instead of copied (1.4 GB for a million files).
pub struct Journal {
    /// The report folder it is in, held open ([`Folder`]).
    folder: Folder,
    file: File,
    /// Its length, and whether it ends in a newline (a record may start right there).
    len: u64,
    clean: bool,
    /// Records taken and not yet written: they go at `len`.
    pending: Vec<u8>,
    /// Since when the oldest record in `pending` has waited.
    pending_since: Option<std::time::Instant>,
    /// The next file, in path order, whose records would keep the journal in that order.
    next: usize,
    /// Records of later files, come early (when, and what), waiting for `next`'s; since when
    /// the first waits.
    early: std::collections::BTreeMap<usize, (std::time::Instant, Records)>,
    early_since: Option<std::time::Instant>,
    /// The journal holds this run's records only, in path order.
    in_order: bool,
    /// Where this run wrote each file's records (by the file's place in path order):
    /// offset and length, or `None`.
    written: Vec<Option<(u64, u32)>>,
    /// The cases finished so far of files still being solved, by the file's place.
    partial: FxHashMap<usize, Partial>,
    /// The run resumes: the earlier records it reads stay where they are.
    resumed: bool,
}

impl Journal {
    /// Opens the journal in `dir` for a run over `files` puzzle files, keeping earlier records
    /// only when resuming (they are indexed by [`Previous::read`] first).
    pub fn open(dir: &Folder, resume: bool, files: usize) -> anyhow::Result<Self> {
        let path = dir.at(JOURNAL);
        let cannot =
            |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", dir.shown(JOURNAL).display());
        // A journal with another name is a `results.jsonl` too (a kill came between linking
        // it in and removing it): written into, it would change reports already published.
        // Its name is dropped instead; `--resume` read it already ([`Previous::read`] holds
        // it open) and journals again what it reuses.
        // A run not resuming starts a new file: the last one, held open by [`Previous::read`],
        // stays whole for the results it carries over.
        if std::fs::symlink_metadata(&path)
            .is_ok_and(|m| m.is_file() && (!resume || std::os::unix::fs::MetadataExt::nlink(&m) > 1))
        {
            std::fs::remove_file(&path).map_err(cannot)?;
        }
        // A link planted as the journal is refused, not followed (nor removed by `finish`
        // after the records went through it to whatever it points at).
        let mut file = crate::owned::open(
            &path,
            std::fs::OpenOptions::new()
                .create(true)
                .read(true)
                .append(true)
                .truncate(false),
        )
        .map_err(cannot)?;
        let clean = ends_in_newline(&mut file).map_err(cannot)?;
        let len = file.metadata().map_err(cannot)?.len();
        Ok(Journal {
            folder: dir.again().map_err(cannot)?,
            file,
            len,
            clean,
            pending: Vec::new(),
            pending_since: None,
            next: 0,
            early: Default::default(),
            early_since: None,
            in_order: len == 0,
            written: vec![None; files],
            partial: FxHashMap::default(),
            resumed: resume,
        })
    }

    /// Takes the records of the `index`-th file ([`records`]), to be written by the next
    /// [`Journal::flush`], or now if [`FLUSH_BYTES`] are waiting. Records that come before
    /// those of earlier files wait for them while the journal is in path order.
    pub fn record(&mut self, index: usize, records: Vec<u8>) -> anyhow::Result<()> {
        self.partial.remove(&index);
        self.record_all(index, vec![records])
    }

    /// [`Journal::record`] of records in pieces.
    fn record_all(&mut self, index: usize, records: Records) -> anyhow::Result<()> {
        let now = std::time::Instant::now();
        if self.in_order && index != self.next {
            self.early_since.get_or_insert(now);
            self.early.insert(index, (now, records));
            return Ok(());
        }
        self.append(index, &records, now)?;
        while let Some((came, r)) = self.early.remove(&self.next) {
            self.append(self.next, &r, came)?;
        }
        if self.early.is_empty() {
            self.early_since = None;
        }
        match self.pending.len() >= FLUSH_BYTES {
            true => self.write_pending(),
            false => self.flush_if_due(),
        }
    }

    /// Takes the records of the `index`-th file as those of its cases taken so far
    /// ([`Journal::case`]), every one of them, in case order: as [`Journal::record`] with
    /// them, without their being made or held again.
    pub fn record_cases(&mut self, index: usize) -> anyhow::Result<()> {
        let lines = self.partial.remove(&index).map(|p| p.lines).unwrap_or_default();
        self.record_all(index, lines)
    }

    /// Takes the `index`-th file's results, reused from `previous`, without writing them
    /// again when this journal holds them already (a resumed run killed again, and again,
    /// wrote every reused result once more each time). Returns whether it did.
    pub fn reuse(&mut self, index: usize, file: &str, previous: &Previous) -> bool {
        let Some(at) = previous.in_journal(self, file, index) else {
            return false;
        };
        self.in_order = false;
        if let Some(slot) = self.written.get_mut(index) {
            *slot = Some(at);
        }
        true
    }

    /// Takes the records of cases of the `index`-th file ([`case_record`]), finished before
    /// the file is: a file of many cases that runs long is not lost whole to a kill.
    /// The cases finished so far are written as a group of their own, as a cut file's are,
    /// when they are due (a [`PART_EVERY`] after the first finished, then again once a quarter
    /// more have, that long after the last group); the file's records taken whole
    /// ([`Journal::record`]) come after them and replace them for `--resume`, and only
    /// those go to `results.jsonl`.
    ///
    /// The first `earlier` records are an earlier run's, taken up: when resuming they are in
    /// the files `--resume` reads already, and the file's cases are written again only once
    /// a quarter more have finished. A run killed again and again before that so writes
    /// nothing more (the journal grew by every case taken up at each kill).
    pub fn case(&mut self, index: usize, records: Vec<u8>, earlier: usize) {
        let p = self.partial.entry(index).or_default();
        p.cases += records.iter().filter(|&&b| b == b'\n').count();
        p.lines.push(records);
        if self.resumed {
            p.written += earlier;
        }
        p.since.get_or_insert_with(std::time::Instant::now);
    }

    /// Puts the groups of cases due (all, when `all`) after the records taken so far.
    fn put_partial(&mut self, all: bool) -> anyhow::Result<()> {
        let now = std::time::Instant::now();
        let mut due: Vec<usize> = (self.partial.iter())
            .filter(|(_, p)| p.cases > p.written && (all || p.due(now)))
            .map(|(&i, _)| i)
            .collect();
        due.sort_unstable();
        for i in due {
            let p = self.partial.get_mut(&i).expect("listed above");
            let lines = std::mem::take(&mut p.lines);
            (p.written, p.since) = (p.cases, Some(now));
            let put = self.put(&lines, now);
            self.partial.get_mut(&i).expect("listed above").lines = lines;
            put?;
        }
        Ok(())
    }

    /// Puts the `index`-th file's records, taken at `came`, after those taken so far.
    fn append(&mut self, index: usize, records: &[Vec<u8>], came: std::time::Instant) -> anyhow::Result<()> {
        let start = self.put(records, came)?;
        let len = u32::try_from(bytes_in(records))
            .map_err(|_| anyhow::anyhow!("one file's results passed 4 GiB"))?;
        if let Some(slot) = self.written.get_mut(index) {
            *slot = Some((start, len));
        }
        self.next = index + 1;
        Ok(())
    }

    /// Puts `records`, taken at `came`, after those taken so far, on a line of their own.
    /// Returns where they will start in the journal. Records of [`FLUSH_BYTES`] or more are
    /// written at once, after those waiting, not copied to wait with them (a file of 45,000
    /// cases has 33 MB of them).
    fn put(&mut self, records: &[Vec<u8>], came: std::time::Instant) -> anyhow::Result<u64> {
        if bytes_in(records) >= FLUSH_BYTES {
            self.write_pending()?;
            if !self.clean {
                self.write_out(b"\n")?;
            }
            let start = self.len;
            // In writes of a megabyte or so, not one a piece (a file's pieces are 25 ms of
            // its cases each).
            let mut run = Vec::new();
            for r in records {
                if !run.is_empty() && run.len() + r.len() > FLUSH_BYTES {
                    self.write_out(&run)?;
                    run.clear();
                }
                match r.len() >= FLUSH_BYTES {
                    true => self.write_out(r)?,
                    false => run.extend_from_slice(r),
                }
            }
            if !run.is_empty() {
                self.write_out(&run)?;
            }
            return Ok(start);
        }
        if !self.clean && self.pending.is_empty() {
            self.pending.push(b'\n');
        }
        let start = self.len + self.pending.len() as u64;
        self.pending_since = Some(self.pending_since.map_or(came, |t| t.min(came)));
        records.iter().for_each(|r| self.pending.extend_from_slice(r));
        Ok(start)
    }

    /// Writes the records taken so far if one has waited [`FLUSH_EVERY`]; puts those that
    /// came early after them if they have waited that long (the journal is then no longer
    /// in path order).
    pub fn flush_if_due(&mut self) -> anyhow::Result<()> {
        self.put_partial(false)?;
        let waited = |t: Option<std::time::Instant>| t.is_some_and(|t| t.elapsed() >= FLUSH_EVERY);
        match (waited(self.early_since), waited(self.pending_since)) {
            (true, _) => self.flush(),
            (false, true) => self.write_pending(),
            (false, false) => Ok(()),
        }
    }

    /// Writes every record taken so far, those that came early too, and the cases finished
    /// of files not taken whole.
    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.put_partial(true)?;
        self.give_up_order()?;
        self.write_pending()
    }

    /// Puts the records that came early after those taken, in the order they came: the
    /// journal is no longer in path order.
    fn give_up_order(&mut self) -> anyhow::Result<()> {
        if self.early.is_empty() {
            return Ok(());
        }
        self.in_order = false;
        self.early_since = None;
        for (index, (came, r)) in std::mem::take(&mut self.early) {
            self.append(index, &r, came)?;
        }
        Ok(())
    }

    /// Writes the records in `pending`, as one write: a kill leaves at most one torn group,
    /// which readers skip.
    fn write_pending(&mut self) -> anyhow::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let wrote = self.write_out(&pending);
        self.pending = pending;
        wrote?;
        self.pending.clear();
        self.pending_since = None;
        Ok(())
    }

    /// Writes `bytes` (records, each ending in a newline) at the journal's end.
    fn write_out(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        let wrote = self.file.write_all(bytes);
        self.clean = wrote.is_ok();
        wrote.map_err(|e| anyhow::anyhow!("cannot write {}: {e}", self.folder.shown(JOURNAL).display()))?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Makes `results.jsonl` at `path`, on disk: this run's records in path order. A journal
    /// already so (see [`Journal`]) is linked there, not copied; it stays the journal until
    /// [`Journal::finish`], so reports that fail to be written lose no result.
    pub fn place_results(&mut self, path: &Path) -> std::io::Result<()> {
        debug_assert!(self.pending.is_empty() && self.early.is_empty(), "flushed first");
        let whole = self
            .written
            .iter()
            .flatten()
            .map(|&(_, len)| u64::from(len))
            .sum::<u64>()
            == self.len;
        // (A file system without hard links gets a copy.)
        if self.in_order && whole && std::fs::hard_link(self.folder.at(JOURNAL), path).is_ok() {
            return self.file.sync_all();
        }
        write_synced(path, &mut |w| self.copy_in_order(w))
    }

    /// Writes this run's records into `w` in path order: `results.jsonl`.
    pub fn copy_in_order(&self, w: &mut dyn Write) -> std::io::Result<()> {
        // Files finish nearly in path order, so their records mostly lie one after another:
        // each such run is copied as one, up to a megabyte at a time.
        let mut buf = Vec::new();
        let mut copy = |(start, end): (u64, u64)| {
            buf.resize((end - start) as usize, 0);
            self.file.read_exact_at(&mut buf, start)?;
            w.write_all(&buf)
        };
        let mut run: Option<(u64, u64)> = None;
        for &(offset, len) in self.written.iter().flatten() {
            match &mut run {
                Some((start, end)) if *end == offset && *end - *start < 1 << 20 => *end += u64::from(len),
                _ => {
                    if let Some(r) = run.replace((offset, offset + u64::from(len))) {
                        copy(r)?;
                    }
                }
            }
        }
        run.map_or(Ok(()), copy)
    }

    /// This run's results, in path order, read back (a shard's results file holds them all).
    pub fn outcomes(&self) -> anyhow::Result<Vec<Outcome>> {
        let mut bytes = Vec::new();
        self.copy_in_order(&mut bytes)?;
        bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).map_err(anyhow::Error::from))
            .collect()
    }

    /// The reports now hold everything: the journal is no longer needed.
    pub fn finish(self) {
        let _ = std::fs::remove_file(self.folder.at(JOURNAL));
    }
}

/// A file's device and inode.
fn identity(f: &File) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    f.metadata().ok().map(|m| (m.dev(), m.ino()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn rec(index: usize) -> Vec<u8> {
        format!("{{\"index\":{index}}}\n").into_bytes()
    }

    fn journal_text(dir: &Path) -> String {
        std::fs::read_to_string(dir.join(JOURNAL)).unwrap()
    }

    #[test]
    fn records_that_come_early_wait_and_the_journal_becomes_results_by_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(&Folder::make(dir.path()).unwrap(), false, 3).unwrap();
        for i in [1, 2, 0] {
            j.record(i, rec(i)).unwrap();
        }
        j.flush().unwrap();
        let in_order = "{\"index\":0}\n{\"index\":1}\n{\"index\":2}\n";
        assert_eq!(journal_text(dir.path()), in_order);
        let results = dir.path().join("results.jsonl");
        j.place_results(&results).unwrap();
        assert_eq!(std::fs::read_to_string(&results).unwrap(), in_order);
        // One file under two names until the journal is finished.
        assert_eq!(std::fs::metadata(&results).unwrap().nlink(), 2);
        j.finish();
        assert_eq!(std::fs::read_to_string(&results).unwrap(), in_order);
    }

    /// The cases a file finished before it ends are in the journal as a group of their own,
    /// which `results.jsonl` leaves out: it holds the file's records taken whole, once.
    #[test]
    fn cases_written_before_their_file_ends_are_not_in_the_results() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(&Folder::make(dir.path()).unwrap(), false, 1).unwrap();
        j.case(0, b"{\"case\":1}\n".to_vec(), 0);
        j.flush().unwrap();
        assert_eq!(journal_text(dir.path()), "{\"case\":1}\n");
        j.record(0, rec(0)).unwrap();
        j.flush().unwrap();
        assert_eq!(journal_text(dir.path()), "{\"case\":1}\n{\"index\":0}\n");
        let results = dir.path().join("results.jsonl");
        j.place_results(&results).unwrap();
        assert_eq!(std::fs::read_to_string(&results).unwrap(), "{\"index\":0}\n");
    }

    /// A results file with a hole of 4 GiB between two records (a sparse file, which takes
    /// no disk): the hole is skipped, not read through, and the record after it is found
    /// where it lies.
    #[test]
    fn a_hole_in_a_sparse_results_file_is_skipped_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::make(dir.path()).unwrap();
        let path = dir.path().join(report::RESULTS_FILE);
        // Results are read back only for files that are there.
        let [a, b] = ["a.yaml", "b.yaml"].map(|n| dir.path().join(n).display().to_string());
        for file in [&a, &b] {
            std::fs::write(file, "").unwrap();
        }
        let mut f = File::create(&path).unwrap();
        f.write_all(&records(0, &[Outcome::error(&a, "x".into())]).unwrap())
            .unwrap();
        f.set_len(4 << 30).unwrap();
        let mut end = f;
        std::io::Seek::seek(&mut end, std::io::SeekFrom::End(0)).unwrap();
        end.write_all(b"\n").unwrap();
        end.write_all(&records(1, &[Outcome::error(&b, "y".into())]).unwrap())
            .unwrap();
        let p = Previous::read(&folder).unwrap();
        assert!(p.knows(&a));
        let b = p.load(&b).unwrap();
        assert_eq!(b[0].error.as_deref(), Some("y"));
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    }

    #[test]
    fn a_record_kept_waiting_is_written_out_of_order_and_results_are_copied_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(&Folder::make(dir.path()).unwrap(), false, 2).unwrap();
        j.record(1, rec(1)).unwrap();
        assert_eq!(journal_text(dir.path()), "", "it waits for file 0");
        std::thread::sleep(FLUSH_EVERY + std::time::Duration::from_millis(20));
        j.flush_if_due().unwrap();
        assert_eq!(
            journal_text(dir.path()),
            "{\"index\":1}\n",
            "on disk once it has waited"
        );
        j.record(0, rec(0)).unwrap();
        j.flush().unwrap();
        assert_eq!(journal_text(dir.path()), "{\"index\":1}\n{\"index\":0}\n");
        let results = dir.path().join("results.jsonl");
        j.place_results(&results).unwrap();
        assert_eq!(
            std::fs::read_to_string(&results).unwrap(),
            "{\"index\":0}\n{\"index\":1}\n"
        );
        assert_eq!(std::fs::metadata(&results).unwrap().nlink(), 1, "a copy");
    }
}
