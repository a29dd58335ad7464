//! `marbles merge`: check that shard results files form one whole batch, then write the
//! reports a single run would have written. A folder given stands for the results files in
//! it: a shard's report folder.

use super::{Error, ExitCode};
use crate::batch::journal;
use crate::batch::shard::{self, Results};
use crate::outcome::Outcome;
use crate::report::{self, Summary};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A shard's results file holds whole outcomes (boards, moves); 1 GiB is far past any real one
/// and keeps a wrong path (a device, `/proc` file) from being read without end.
const MAX_SHARD_BYTES: u64 = 1 << 30;

/// The shard files to merge and where the reports go.
#[derive(Debug, Clone)]
pub struct Config {
    /// Results files, or folders holding them (each shard's report folder).
    pub files: Vec<PathBuf>,
    pub summary: Summary,
    pub report: PathBuf,
    /// Folders outside the working folder that the shards' puzzle folders may lie in.
    pub puzzles: Vec<PathBuf>,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    // Ctrl-C (or SIGTERM, SIGHUP) while the shards are read stops before anything is written;
    // once the reports are being written, they are finished as one set.
    crate::process::stop_on_signals();
    let stopped = || {
        let cut = crate::process::CANCELLED.load(std::sync::atomic::Ordering::SeqCst);
        if cut {
            eprintln!(
                "marbles: merge interrupted ({}): nothing was written",
                crate::process::stopped_by()
            );
        }
        cut
    };
    let files = results_files(&config.files)?;
    let mut shards = Vec::new();
    // What the files read so far hold, counted at the allocator: each file may take what the
    // memory limit leaves (a cap just above one file's room let ten of them pass it, and the
    // process abort).
    let limit = crate::process::default_memory_limit(1).unwrap_or(u64::MAX);
    let held = crate::script::alloc::Metered::start();
    for f in &files {
        if stopped() {
            return Ok(ExitCode::Interrupted);
        }
        let before = held.held();
        let name = f.display().to_string();
        shards.push(Results::open(&name, &read(f)?, (limit, before)).map_err(Error::Usage)?);
    }
    drop(held);
    let named: Vec<(String, Results)> = files
        .iter()
        .map(|f| f.display().to_string())
        .zip(shards)
        .collect();
    check(&named).map_err(Error::Usage)?;
    let leave = leave(&config.puzzles).map_err(Error::Usage)?;
    folders_allowed(&named[0], &leave, !config.puzzles.is_empty()).map_err(Error::Usage)?;
    folders_unchanged(&named[0].1, &leave).map_err(Error::Usage)?;
    let outcomes = merged(named, &leave).map_err(Error::Usage)?;
    if stopped() {
        return Ok(ExitCode::Interrupted);
    }
    refuse_shard_folder(&config.report, &files)?;
    // Held like a batch holds it: a batch writing the same folder must not interleave with us.
    let folder = crate::batch::folder::Folder::make(&config.report)?;
    // The shards' files are named from the folder merge runs in, as a batch's are.
    crate::batch::places::reports_in(&folder.real());
    let _lock = crate::batch::lock::acquire(&folder)?;
    // A user's own file at a report's name (a website's index.html) is refused, as by batch.
    journal::check_ours(&folder, "nothing was merged")?;
    let code = ExitCode::of(&outcomes);
    // Printed as a single run prints it: every result, or a summary when they are too many.
    let (lines, finished) = journal::tallied(outcomes)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(report::summary_of(config.summary, &finished)?.as_bytes())?;
    stdout.flush()?;
    journal::write_reports_of(&folder, &finished, &lines)?;
    Ok(code)
}

/// The results files `paths` name: a file as given; for a folder, the `shard-*-of-*.json`
/// files directly in it (not in its subfolders), in name order. A folder holding none is
/// refused by name: a mistyped folder must not shrink the set quietly.
fn results_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let unreadable =
            |e: std::io::Error| Error::Usage(format!("{}: cannot read the folder: {e}", path.display()));
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(unreadable)? {
            let name = entry.map_err(unreadable)?.file_name();
            if name.to_str().is_some_and(shard::is_results_name) {
                found.push(path.join(name));
            }
        }
        if found.is_empty() {
            // A shard's own report folder, of a run that did not finish, or the folder above
            // the shards' folders: each told what it is.
            let report = ["summary.json", "results.jsonl", ".journal.jsonl"];
            let why = match report.iter().any(|f| path.join(f).is_file()) {
                true => "it is a report folder whose shard run did not finish (a run stopped by \
                         --fail-fast, Ctrl-C or an error leaves no results file): run that shard \
                         again"
                    .to_string(),
                false => format!(
                    "merge takes the shards' results files or the report folders holding them \
                     (subfolders are not searched: name them, e.g. {})",
                    path.join("shard-*").display()
                ),
            };
            return Err(Error::Usage(format!(
                "{}: holds no shard-*-of-*.json file; {why}",
                path.display()
            )));
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// A results file's text. Its metadata is asked first: a FIFO or device would block a read
/// without end.
fn read(f: &Path) -> Result<String, Error> {
    let usage = |why: String| Error::Usage(format!("{}: {why}", f.display()));
    let meta = std::fs::metadata(f).map_err(|e| {
        let near = match e.kind() {
            std::io::ErrorKind::NotFound => crate::diag::near_name(f),
            _ => String::new(),
        };
        usage(
            format!("cannot read: {e}; {near}")
                .trim_end_matches([' ', ';'])
                .to_string(),
        )
    })?;
    if !meta.is_file() {
        return Err(usage(
            "is not a regular file (a folder, FIFO or device?); merge reads shard-K-of-N.json files".into(),
        ));
    }
    if let Some(fs) = crate::spec::input::special_file_system(f) {
        return Err(usage(format!(
            "is on a {fs} file system, not a shard results file marbles wrote (not read)"
        )));
    }
    // Refused from its size, unread: reading it first cost a gibibyte of memory.
    if meta.len() > MAX_SHARD_BYTES {
        return Err(usage(format!(
            "{} bytes, larger than {} MiB: not a shard results file marbles wrote (not read)",
            meta.len(),
            MAX_SHARD_BYTES >> 20
        )));
    }
    let text = crate::spec::input::read_at_most(f, MAX_SHARD_BYTES)
        .map_err(|e| usage(format!("cannot read: {e}")))?
        .ok_or_else(|| {
            usage(format!(
                "larger than {} MiB, not a shard results file marbles wrote",
                MAX_SHARD_BYTES >> 20
            ))
        })?;
    String::from_utf8(text).map_err(|_| usage("not a marbles shard results file: not UTF-8".into()))
}

/// Refuses a report folder that holds one of the shard files: its own reports would be
/// replaced by the merged ones.
fn refuse_shard_folder(report_dir: &Path, files: &[PathBuf]) -> Result<(), Error> {
    let Ok(report) = report_dir.canonicalize() else {
        return Ok(()); // not there yet: no shard file can be in it
    };
    for f in files {
        let parent = f
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        if parent.as_deref() == Some(report.as_path()) {
            return Err(Error::Usage(format!(
                "--report {}: holds {}, one of the shards merged; merging there would replace that shard's reports, so give another folder",
                report_dir.display(),
                f.display()
            )));
        }
    }
    Ok(())
}

/// What is wrong with a set of shards, if it is not complete and consistent, and which shard
/// is at fault.
fn check(shards: &[(String, Results)]) -> Result<(), String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shard results files given".into());
    };
    let mut by_index: HashMap<u32, &str> = HashMap::new();
    let mut owner: HashMap<&str, &str> = HashMap::new();
    // Each script's hash, and the first shard whose results were made with it.
    let mut scripts: HashMap<&str, (&str, &str, shard::Shard)> = HashMap::new();
    for (name, r) in shards {
        let differs = |what: &str, theirs: &str, ours: &str| {
            format!(
                "{name} (shard {}) was made with {what} {theirs}, but {first_name} with {ours}",
                r.shard
            )
        };
        if r.marbles_version != first.marbles_version {
            return Err(differs("marbles", &r.marbles_version, &first.marbles_version));
        }
        if let Some((theirs, ours)) = shard::options_differ(&r.options, &first.options) {
            return Err(format!(
                "{name} (shard {}) was made {theirs}, {first_name} (shard {}) {ours}: every shard needs the same options",
                r.shard, first.shard
            ));
        }
        if r.folders != first.folders {
            return Err(differs(
                "folders",
                &r.folders.join(", "),
                &first.folders.join(", "),
            ));
        }
        if (r.folder_files, &r.folder_sha256) != (first.folder_files, &first.folder_sha256) {
            let others = if r.folder_files == first.folder_files {
                " others"
            } else {
                ""
            };
            return Err(format!(
                "{name} (shard {}) saw {} puzzle files, {first_name} (shard {}) saw {}{others}: the folder changed between shards; rerun every shard on the folder as it is now",
                r.shard, r.folder_files, first.shard, first.folder_files
            ));
        }
        if r.shard.count != first.shard.count {
            return Err(differs(
                "shard count",
                &r.shard.count.to_string(),
                &first.shard.count.to_string(),
            ));
        }
        if let Some(other) = by_index.insert(r.shard.index, name) {
            if other == name {
                return Err(format!("{name} is given twice"));
            }
            return Err(format!("{name} and {other} are both shard {}", r.shard));
        }
        for f in &r.files {
            if !r.shard.owns(f) {
                return Err(format!(
                    "{name} holds {f}, which is not a file of shard {}: it was changed after marbles wrote it; rerun shard {} to make it again",
                    r.shard, r.shard
                ));
            }
            if let Some(other) = owner.insert(f, name) {
                return Err(format!("{f} is in both {other} and {name} (shard {})", r.shard));
            }
        }
        for o in &r.results {
            let (Some(script), Some(hash)) = (&o.script, &o.script_hash) else {
                continue;
            };
            let (first_hash, other, other_shard) = *scripts.entry(script).or_insert((hash, name, r.shard));
            if first_hash != hash {
                return Err(format!(
                    "{name} (shard {}) was made with {script} of sha256 {hash}, {other} (shard {other_shard}) with sha256 {first_hash}: the script changed between shards, and every shard needs the same scripts; rerun the shards made with the old one",
                    r.shard
                ));
            }
        }
    }
    let missing: Vec<u32> = (0..first.shard.count)
        .filter(|i| !by_index.contains_key(i))
        .collect();
    if !missing.is_empty() {
        // A shard count of thousands must not make a message of thousands of lines.
        const SHOWN: usize = 10;
        let mut named: Vec<String> = missing
            .iter()
            .take(SHOWN)
            .map(|i| format!("{i}/{}", first.shard.count))
            .collect();
        if missing.len() > SHOWN {
            named.push(format!("and {} more", missing.len() - SHOWN));
        }
        return Err(format!(
            "the shards given are not all of them: shard {} missing (of {} given, each of {})",
            named.join(", "),
            by_index.len(),
            first.shard.count
        ));
    }
    // Together the shards hold every file of the folder each listed (unless `-k` chose some):
    // a file dropped from a shard's list and its results is not merged away unseen.
    if !first.options.iter().any(|o| o.starts_with("-k ")) {
        let all: Vec<String> = owner.keys().map(|f| f.to_string()).collect();
        if all.len() != first.folder_files || shard::listing_hash(&all) != first.folder_sha256 {
            return Err(format!(
                "the shards hold {} puzzle files, not the {} each saw in the folder: a shard file was changed after marbles wrote it; rerun the shards",
                all.len(),
                first.folder_files
            ));
        }
    }
    Ok(())
}

/// The folders merge may walk and read, by their real paths: the one it runs in (first), and
/// those `named` by `--puzzles`.
fn leave(named: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let here = std::env::current_dir().map_err(|e| format!("cannot read the working folder: {e}"))?;
    let named: Vec<PathBuf> = named.iter().filter_map(|p| real(p, &here)).collect();
    Ok(std::iter::once(here).chain(named).collect())
}

/// The real path of `p` (links followed, from the folder `here`); a folder not there, by
/// its path as written when it has no `..` (the walk then says it is missing).
fn real(p: &Path, here: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(p).ok().or_else(|| {
        let up = p.components().any(|c| c == std::path::Component::ParentDir);
        (!up).then(|| here.join(p))
    })
}

/// Refuses shards (`first` and those [`check`] found alike) whose puzzle folders lie neither
/// inside the folder merge runs in nor inside one the user named (`--puzzles`), before any is
/// walked or read: a results file from somebody else may name any folder (`/usr`, walked
/// whole; `../secret`, whose puzzles' names a forged result of the right hash put into the
/// reports), and its seal is a hash anyone can make again.
fn folders_allowed((name, first): &(String, Results), leave: &[PathBuf], named: bool) -> Result<(), String> {
    let here = &leave[0];
    for folder in &first.folders {
        let at = real(Path::new(folder), here);
        if !at
            .as_ref()
            .is_some_and(|at| leave.iter().any(|l| at.starts_with(l)))
        {
            return Err(format!(
                "{name} names the puzzle folder {folder}{}, outside the folder merge runs in \
                 ({}){}: merge walks and reads a shard's puzzle folders to replay its results, and \
                 only inside the working folder or a folder given by --puzzles (a results file from \
                 somebody else could name any folder); if {folder} holds the puzzles the shards \
                 solved, run merge where they ran it or add --puzzles {folder}",
                at.filter(|at| at != Path::new(folder))
                    .map(|at| format!(" (at {})", at.display()))
                    .unwrap_or_default(),
                here.display(),
                match named {
                    false => String::new(),
                    true => " and the folders given by --puzzles".into(),
                }
            ));
        }
    }
    Ok(())
}

/// Refuses a merge where the shards' folders no longer hold the puzzle files they saw (as
/// `-k` chose them): a file added since the shards ran would be in a single run's reports and
/// is in none of theirs (a file removed or edited is refused as its results are replayed).
/// A walk that went out of the folders merge may read (`leave`) is refused before anything
/// it found is counted.
fn folders_unchanged(first: &Results, leave: &[PathBuf]) -> Result<(), String> {
    let roots: Vec<PathBuf> = first.folders.iter().map(PathBuf::from).collect();
    // Not there at all: merge runs elsewhere than the shards did (it said the folder's files
    // had changed, and to rerun every shard).
    let gone: Vec<&str> = (first.folders.iter())
        .filter(|f| std::fs::symlink_metadata(f).is_err())
        .map(String::as_str)
        .collect();
    if !gone.is_empty() {
        return Err(format!(
            "{}: no such folder here, in {}: the shards name their puzzle folders from the folder \
             they ran in, and merge reads them from the folder it runs in; run merge there",
            gone.join(", "),
            leave[0].display()
        ));
    }
    let walked = crate::batch::collect(&roots);
    // Where the walk really went (a folder swapped for a link out after it was judged): out
    // of the folders merge may read, nothing it found there is counted or said.
    if let Some(out) = walked
        .inside
        .iter()
        .find(|r| !leave.iter().any(|l| r.starts_with(l)))
    {
        return Err(format!(
            "{}: walked, it led to {}, outside the folders merge may read (a folder of it was \
             swapped for a link since it was judged): nothing found there is counted; run merge \
             again once the folder stays as the shards saw it",
            first.folders.join(", "),
            out.display()
        ));
    }
    let mut puzzles = walked.puzzles;
    if let Some(k) = first.options.iter().find_map(|o| o.strip_prefix("-k ")) {
        puzzles.retain(|p| super::batch::selected(p, k));
    }
    let listing = shard::relatives(first.shard, &puzzles, &roots)?;
    if listing.len() == first.folder_files && shard::listing_hash(&listing) == first.folder_sha256 {
        return Ok(());
    }
    Err(format!(
        "{} now {} {}, where the shards saw {}: a file was added, removed or renamed since they \
         ran, or merge runs in another folder than they did (it reads their folders from where \
         it runs: run it there); else rerun every shard on the folder as it is now",
        first.folders.join(", "),
        if first.folders.len() == 1 { "holds" } else { "hold" },
        crate::diag::plural(listing.len(), "puzzle file"),
        match (listing.len() == first.folder_files, first.folder_files) {
            (false, n) => n.to_string(),
            (true, 1) => "another".to_string(),
            (true, n) => format!("{n} others"),
        }
    ))
}

/// The outcomes of a set of shards [`check`] found whole, each replayed, in a single run's
/// order; or the first shard holding a result that is not what its moves do. Each shard's
/// results are moved, not copied: a merge of 100,000 results held three copies of them.
fn merged(shards: Vec<(String, Results)>, leave: &[PathBuf]) -> Result<Vec<Outcome>, String> {
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut unwalked: Vec<(String, String)> = Vec::new();
    for (name, mut r) in shards {
        let mut results = std::mem::take(&mut r.results);
        replayed(&name, &r, &mut results, leave)?;
        outcomes.extend(results);
        unwalked.append(&mut r.unwalked);
    }
    // A single run reports files in path order, each file's puzzles in their own order.
    outcomes.sort_by(|a, b| PathBuf::from(&a.file).cmp(&PathBuf::from(&b.file)));
    // Then the folders the walk could not enter, as a single run puts them after the files.
    unwalked.sort();
    unwalked.dedup();
    outcomes.extend(
        unwalked
            .iter()
            .map(|(path, why)| crate::batch::unwalked(path, why)),
    );
    Ok(outcomes)
}

/// Refuses a shard whose results (`results`, taken out of `r`) are not what their puzzle
/// files make now: each file is read again (it must be as the shard solved it), each result
/// replayed, as `--resume` replays a result before reusing it, and judged again against the
/// file's `expect:`. A shard file's seal is a hash anyone can make again; a result
/// whose moves were edited (an illegal jump, a peg count its boards do not show) is caught
/// here. Files are replayed on every core; Ctrl-C stops between them.
fn replayed(name: &str, r: &Results, results: &mut [Outcome], leave: &[PathBuf]) -> Result<(), String> {
    use rayon::prelude::*;
    let opts = crate::solve::Options {
        // Each file is read only where, once opened, it really lies in a folder merge may read.
        inside: Some(leave.into()),
        ..shard::replay_options(&r.options)
    };
    let mut files: Vec<&mut [Outcome]> = results.chunk_by_mut(|a, b| a.file == b.file).collect();
    let fault = files.par_iter_mut().find_map_first(|outcomes| {
        if crate::process::CANCELLED.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let file = outcomes[0].file.clone();
        crate::batch::not_replayed(&file, outcomes, &opts).map(|why| (file, why))
    });
    match fault {
        None => Ok(()),
        Some((file, why)) => Err(format!(
            "{name} (shard {}): {file}: {why}; merge replays every result against its puzzle file \
             as the shard solved it (run merge where the shards' puzzle folder is, and rerun shard {} \
             if the file changed or the shard file was edited)",
            r.shard, r.shard
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shard's folder that leads, when walked, out of the folders merge may read (swapped
    /// for a link after it was judged; here, simply not among them) is refused before any
    /// file found there is counted or named.
    #[test]
    fn a_walk_out_of_the_folders_merge_may_read_counts_nothing() {
        let (_t, d) = crate::owned::temp_with(&["secret", "here"]);
        std::fs::write(d.join("secret/private_plans.yaml"), "rules: peg_hop\n").unwrap();
        let first = Results {
            sha256: String::new(),
            marbles_version: String::new(),
            folders: vec![d.join("secret").display().to_string()],
            shard: shard::Shard::parse("0/1").unwrap(),
            options: Vec::new(),
            folder_files: 0,
            folder_sha256: String::new(),
            files: Vec::new(),
            unwalked: Vec::new(),
            results: Vec::new(),
        };
        let e = folders_unchanged(&first, &[d.join("here")]).unwrap_err();
        assert!(
            e.contains(&format!(
                "walked, it led to {}, outside",
                d.join("secret").display()
            )),
            "{e}"
        );
        assert!(!e.contains("private_plans") && !e.contains("holds"), "{e}");
        assert!(
            folders_unchanged(&first, std::slice::from_ref(&d))
                .unwrap_err()
                .contains("now holds 1 puzzle file")
        );
        // A folder that is not there: merge runs elsewhere than the shards did.
        let gone = Results {
            folders: vec![d.join("gone").display().to_string()],
            ..first
        };
        let e = folders_unchanged(&gone, std::slice::from_ref(&d)).unwrap_err();
        assert!(
            e.starts_with(&format!("{}: no such folder here, in ", d.join("gone").display())),
            "{e}"
        );
        assert!(e.ends_with("; run merge there"), "{e}");
    }
}
