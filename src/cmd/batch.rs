//! `marbles batch`: solve every puzzle under folders in parallel, print a summary, write the
//! report files; Ctrl-C stops cleanly and `--resume` finishes later.

use super::{Error, ExitCode};
use crate::batch::folder::Folder;
use crate::batch::shard::{self, Shard};
use crate::batch::{self, journal};
use crate::outcome::Outcome;
use crate::process::CANCELLED;
use crate::report::{self, Summary, Tally};
use crate::solve::Options;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// `Err` naming every one of `paths` that names nothing (with the closest name beside it
/// when one is a few edits away), a link to nothing, a file as a folder (`arrow.yaml/`), or
/// what cannot be read (a loop of links).
fn missing(paths: &[PathBuf]) -> Result<(), Error> {
    let whys: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let why = match std::fs::metadata(path) {
                Ok(_) => return None,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => match std::fs::read_link(path) {
                    Ok(to) => format!("a link to nothing (to {}); ", to.display()),
                    Err(_) => format!("no such file or folder; {}", crate::diag::near_name(path)),
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
                    "a file named as a folder (a `/` after a file's name?); ".to_string()
                }
                // A loop of links, a folder on the way that may not be entered.
                Err(e) => format!("cannot be read: {e}; "),
            };
            Some(format!(
                "{}: {why}",
                crate::render::one_line(&path.display().to_string())
            ))
        })
        .collect();
    match whys.is_empty() {
        true => Ok(()),
        false => Err(Error::Usage(format!(
            "{}nothing was solved and no report was touched",
            whys.concat()
        ))),
    }
}

/// What to solve, how to show it, and where the reports go.
#[derive(Debug, Clone)]
pub struct Config {
    /// Folders to walk for puzzle files (files may be named too).
    pub dirs: Vec<PathBuf>,
    pub summary: Summary,
    /// The report folder, or `None` to write no report files.
    pub report: Option<PathBuf>,
    /// Reuse the report folder's results for unchanged puzzles.
    pub resume: bool,
    /// Puzzle files solved at once, at most: never more than the files or the cores.
    pub jobs: usize,
    /// No progress bar, no closing note.
    pub quiet: bool,
    pub options: Options,
    /// Solve only this shard's share, and leave its results file in the report folder.
    pub shard: Option<shard::Choice>,
    /// `--shard-count`, for `--shard auto` only.
    pub shard_count: Option<u32>,
    /// `-k TEXT`: only the files whose path or a puzzle's name contains it (ignoring case).
    pub select: Option<String>,
    /// Stop at the first puzzle that does not pass.
    pub fail_fast: bool,
    /// Only the files that did not pass in the report folder's last results.
    pub failed: bool,
}

/// Whether the puzzle file at `path` is chosen by `-k TEXT` (`text`, lower case): its path
/// or the name of a puzzle in it contains it, ignoring case.
pub(crate) fn selected(path: &std::path::Path, text: &str) -> bool {
    let has = |s: &str| s.to_lowercase().contains(text);
    has(&path.display().to_string())
        || crate::spec::read_text(path).is_ok_and(|source| {
            let notation = crate::formats::Notation::of(path, None);
            let mut found = false;
            let _ = crate::formats::parse_each(path, notation, &source, &mut |spec| {
                found = spec.is_ok_and(|s| has(&s.name));
                match found {
                    true => std::ops::ControlFlow::Break(()),
                    false => std::ops::ControlFlow::Continue(()),
                }
            });
            found
        })
}

/// `--failed` on a report folder `dir` without results of the puzzles asked for.
fn no_results(dir: &std::path::Path) -> Error {
    Error::Usage(format!(
        "--failed: {} holds no results for these puzzles: run the batch without --failed first \
         (with --resume to finish a run stopped before a file was done); nothing was solved and \
         no report was touched",
        dir.display()
    ))
}

/// `--failed`: the files of `puzzles` that did not pass in their latest results in the report
/// folder `dir` (`prev`), or have none there (never run, or not reached: a `--fail-fast` stop,
/// Ctrl-C, a `-k` run, a file renamed); an error when the folder holds no results of them
/// nor of the files `-k` left out (`left_out`), as no batch ran there: a file `-k` chooses
/// that a stopped run never reached is run.
fn failed_last_time(
    dir: &std::path::Path,
    prev: &journal::Previous,
    (puzzles, left_out): (&[PathBuf], &[PathBuf]),
    opts: &Options,
) -> Result<Vec<PathBuf>, Error> {
    if !puzzles
        .iter()
        .chain(left_out)
        .any(|p| prev.knows(&p.display().to_string()))
    {
        return Err(no_results(dir));
    }
    Ok(puzzles
        .iter()
        .filter(|p| !batch::passed_before(prev, p, opts))
        .cloned()
        .collect())
}

/// What `--failed -k TEXT` says of the files `-k` left out (`left_out`) that did not pass in
/// their latest results (`prev`): this run's exit status speaks for the files selected only.
fn not_passed_outside(
    prev: &journal::Previous,
    left_out: &[PathBuf],
    select: Option<&str>,
    opts: &Options,
) -> String {
    let failed: Vec<String> = left_out
        .iter()
        .filter(|p| !batch::passed_before(prev, p, opts))
        .map(|p| crate::render::terminal(&p.display().to_string()).into_owned())
        .collect();
    // Named, ten at most: a collection of thousands must not make a message of thousands.
    const NAMED: usize = 10;
    let more = match failed.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    match failed.len() {
        0 => String::new(),
        n => format!(
            "-k {}: {} outside the selection did not pass in {} latest results and {} not run \
             again: {}{more} (rerun without -k to run them)",
            select.unwrap_or_default(),
            crate::diag::plural(n, "file"),
            if n == 1 { "its" } else { "their" },
            if n == 1 { "was" } else { "were" },
            failed[..n.min(NAMED)].join(", ")
        ),
    }
}

/// The options each puzzle of a batch of `jobs` jobs is solved under: a job's share of the
/// default memory limit, each puzzle's tables bounded (the process is shared), and the flags
/// taken where they apply.
fn batch_options(config: &Config, jobs: usize) -> Options {
    Options {
        default_max_memory: crate::process::default_memory_limit(jobs),
        whole_process: false,
        where_they_apply: true,
        ..config.options.clone()
    }
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    // A name mistyped on the command line is refused before any report is touched: it would
    // otherwise become a one-row error report in place of the last good one.
    missing(&config.dirs)?;
    let mut found = batch::collect(&config.dirs);
    for (path, why) in &found.errors {
        eprintln!("marbles: warning: {path}: {why}");
    }
    for l in &found.loops {
        eprintln!("marbles: warning: {l}");
    }
    for h in found.hidden.iter().filter(|_| !config.quiet) {
        eprintln!(
            "marbles: note: {}: a hidden folder, not searched; name it to solve its puzzles",
            crate::render::terminal(&h.display().to_string())
        );
    }
    if found.puzzles.is_empty() {
        let dirs: Vec<String> = config.dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(Error::Usage(format!(
            "no puzzle files ({}) under {}",
            crate::formats::globs(),
            dirs.join(", ")
        )));
    }
    // The files `-k` leaves out: `--failed -k` says which of them have not passed either.
    let mut left_out = Vec::new();
    if let Some(text) = &config.select {
        let text = text.to_lowercase();
        let of = found.puzzles.len();
        (found.puzzles, left_out) = found.puzzles.drain(..).partition(|p| selected(p, &text));
        if found.puzzles.is_empty() {
            return Err(Error::Usage(format!(
                "-k {}: no puzzle file's path, nor any puzzle's name, contains it (of {of} files); \
                 nothing was solved and no report was touched",
                config.select.as_deref().unwrap_or_default()
            )));
        }
    }
    let shard = match (config.shard, config.shard_count) {
        (Some(c), count) => Some(c.resolve(count).map_err(Error::Usage)?),
        (None, Some(n)) => {
            return Err(Error::Usage(format!(
                "--shard-count {n} goes with --shard auto only"
            )));
        }
        (None, None) => None,
    };
    if let (Some(s), true) = (shard, config.failed) {
        return Err(Error::Usage(format!(
            "--failed with --shard {s}: a shard's report folder holds its own share only, so the \
             other shards' files would count as never run and the shards could not merge; rerun \
             the failed files without --shard, or rerun every shard"
        )));
    }
    // Two files sharing a relative path are refused before the report folder is made.
    if let Some(s) = shard {
        shard::relatives(s, &found.puzzles, &config.dirs).map_err(Error::Usage)?;
    }
    // No folder, no results to rerun: said before the lock would make the folder.
    if let (Some(dir), true) = (&config.report, config.failed)
        && std::fs::symlink_metadata(dir).is_err()
    {
        return Err(no_results(dir));
    }
    // A mistyped report folder under --resume reuses nothing: said before hours of solving,
    // not only in the count at the end.
    if let (Some(dir), true) = (&config.report, config.resume)
        && std::fs::symlink_metadata(dir).is_err()
    {
        eprintln!(
            "marbles: warning: --resume: {} is not there, so no earlier result is reused and \
             every puzzle is solved; {}it is made now",
            dir.display(),
            crate::diag::near_name(dir)
        );
    }
    // Opened once: everything marbles writes or reads back there goes into the folder opened,
    // whatever is put at its name meanwhile.
    let folder = config.report.as_deref().map(Folder::make).transpose()?;
    // Records say the folder this batch runs in from there, which their paths are taken from.
    if let Some(dir) = &folder {
        batch::places::reports_in(&dir.real());
    }
    // Taken before anything in the folder is read or written; held until the end of `run`.
    let _lock = folder.as_ref().map(batch::lock::acquire).transpose()?;
    crate::process::stop_on_signals();
    // The latest results of each file: reused by `--resume`, chosen from by `--failed`, and
    // carried over for the files this run does not finish.
    if let Some(dir) = &folder {
        journal::check_ours(dir, "nothing was solved")?;
    }
    let kept_in = config
        .report
        .as_deref()
        .or(config.failed.then_some(std::path::Path::new("reports")));
    // (`--failed --no-report` reads the results in `reports`, if it is there.)
    let elsewhere = match &folder {
        Some(_) => None,
        None => kept_in.map(Folder::existing).transpose()?.flatten(),
    };
    let mut prev = match folder.as_ref().or(elsewhere.as_ref()) {
        Some(dir) => journal::Previous::read(dir)?,
        None => journal::Previous::default(),
    };
    // Ctrl-C while reading back a long journal: what was read is partial, so nothing is
    // solved or written from it (the report folder stays as it was).
    if CANCELLED.load(Ordering::SeqCst) {
        eprintln!("marbles: interrupted while reading back earlier results: nothing was solved or written");
        return Ok(ExitCode::Interrupted);
    }
    for note in &prev.planted {
        eprintln!("marbles: warning: {note}");
    }
    if config.resume || config.failed {
        for note in &prev.notes {
            eprintln!("marbles: warning: {note}");
        }
    }
    let mut outside = String::new();
    if let (Some(dir), true) = (kept_in, config.failed) {
        // Replayed as a batch of one job would solve them.
        let opts = batch_options(config, 1);
        found.puzzles = failed_last_time(dir, &prev, (&found.puzzles, &left_out), &opts)?;
        outside = not_passed_outside(&prev, &left_out, config.select.as_deref(), &opts);
        // A file the walk refused (a link out of the folders) is an error row of this run
        // again: not a pass.
        if found.puzzles.is_empty() && found.errors.is_empty() {
            eprintln!(
                "--failed: every puzzle{} passed in the last results in {}: nothing to rerun, no report touched{}",
                if config.select.is_some() { " selected" } else { "" },
                dir.display(),
                match outside.is_empty() {
                    true => String::new(),
                    false => format!("; {outside}"),
                }
            );
            return Ok(ExitCode::Solved);
        }
    }
    // Each file's path relative to its folder, which names it to every shard: refused before
    // anything is solved or written when two files share one.
    let listing = match shard {
        Some(s) => shard::relatives(s, &found.puzzles, &config.dirs).map_err(Error::Usage)?,
        None => Vec::new(),
    };
    // An empty share is fine: a small folder over many shards.
    let mut owned = Vec::new();
    if let Some(s) = shard {
        let Some(dir) = &folder else {
            return Err(Error::Usage(format!(
                "--shard {s}: a shard needs a report folder for its results (drop --no-report)"
            )));
        };
        // Only a run that completes leaves a results file: an older one from a run now being
        // redone must not be merged if this one is stopped.
        match std::fs::remove_file(dir.at(s.file_name())) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                let old = dir.shown(s.file_name());
                return Err(anyhow::anyhow!("cannot remove the old {}: {e}", old.display()).into());
            }
            _ => {}
        }
        let mut rels = listing.iter();
        found.puzzles.retain(|_| {
            let rel = rels.next().expect("one relative path a puzzle");
            s.owns(rel).then(|| owned.push(rel.clone())).is_some()
        });
    }

    // No more threads than puzzle files or cores: each job's share of the default memory
    // limit must not shrink for jobs that will never run.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = config.jobs.min(found.puzzles.len()).min(cores).max(1);
    let options = Options {
        inside: Some(found.inside.clone().into()),
        ..batch_options(config, jobs)
    };
    let none = journal::Previous::default();
    // `--failed` runs again what did not pass; of a file a cut left short, only the cases
    // after those the cut left finished.
    prev.cut_only = config.failed;
    let reusable = if config.resume || config.failed {
        &prev
    } else {
        &none
    };
    let mut journal = folder
        .as_ref()
        .map(|dir| journal::Journal::open(dir, config.resume, found.puzzles.len()))
        .transpose()?;

    // Results stream from the workers into the journal (on disk within a tenth of a second)
    // and the tally (what the summary needs): memory does not grow with the number of puzzles.
    // The bar counts puzzles, so that a long file of many cases moves it and its ETA; the
    // files are read for their count only when it is drawn.
    let shown = !config.quiet && crate::render::progress::shown();
    let cases = match shown {
        true => batch::cases_each(&found.puzzles),
        false => Vec::new(),
    };
    let files_done = Arc::new(AtomicU64::new(0));
    let bar = progress(&cases, found.puzzles.len() as u64, &files_done, config.quiet);
    let mut sink = Record {
        previous: reusable,
        journal: journal.as_mut(),
        tally: Tally::new(),
        reused: 0,
        taken_up: 0,
        times: Times::default(),
        bar: &bar,
        files_done: &files_done,
        drawn: std::time::Instant::now(),
        fail_fast: config.fail_fast,
        first_failed: None,
        taken: vec![false; found.puzzles.len()],
        cut: Vec::new(),
        cut_recorded: Vec::new(),
    };
    // The journal's lines are made on the workers, only when there is a journal.
    let encode = match sink.journal {
        Some(_) => journal::records,
        None => batch::no_encoding,
    };
    // Only this run's puzzles count for the notes, not those `--failed` replayed to choose.
    crate::solve::take_passed_over();
    let finished = batch::solve_all(
        &found.puzzles,
        &options,
        jobs,
        reusable,
        batch::Progress {
            bar: &bar,
            cases: &cases,
        },
        &encode,
        &mut sink,
    );
    // What was taken reaches the journal, even when the run stopped on an error.
    let flushed = sink.journal.as_mut().map_or(Ok(()), |j| j.flush());
    let finished = finished?;
    flushed?;
    let mut tally = sink.tally;
    // A folder that could not be walked is an error row of its own in every report.
    for (k, (path, why)) in found.errors.iter().enumerate() {
        tally.add(found.puzzles.len() + k, 1, batch::unwalked(path, why));
    }
    let (reused, taken_up) = (sink.reused, sink.taken_up);
    let times = sink.times;
    let (taken, cut, cut_recorded) = (sink.taken, sink.cut, sink.cut_recorded);
    let not_run: Vec<String> = found
        .puzzles
        .iter()
        .enumerate()
        .filter(|(i, _)| !taken[*i] && !cut.contains(i))
        .map(|(_, p)| p.display().to_string())
        .collect();
    let first_failed = sink.first_failed;
    // The last frame drawn, where each frame is a line of its own, says where the run ended:
    // no frame had been drawn after the last file finished. At the count reached: a run
    // Ctrl-C stopped after 11 of 19 files drew "19/19 files" (`finish` fills the bar).
    bar.abandon();
    bar.finish_and_clear();
    let interrupted = CANCELLED.load(Ordering::SeqCst);
    let mut results = tally.finish();
    results.listed = config.report.is_some();
    results.stopped = match (interrupted, &first_failed) {
        (true, _) => Some(format!("interrupted ({})", crate::process::stopped_by())),
        (false, Some(which)) if config.fail_fast && !not_run.is_empty() => {
            Some(format!("--fail-fast: stopped at {which}"))
        }
        _ => None,
    };
    if results.stopped.is_some() {
        results.not_run.clone_from(&not_run);
    }

    // The reports first: a closed or full stdout must not lose them.
    let mut unwritten = None;
    if let (Some(dir), Some(mut j)) = (&folder, journal) {
        // Files finished now are in `results.jsonl`, and those cut with cases finished
        // before the cut (taken up ones too); the latest results of the others (not
        // selected, not reached, cut before a case finished) are carried over while the file
        // is there.
        let now: rustc_hash::FxHashSet<u64> = found
            .puzzles
            .iter()
            .enumerate()
            .filter(|(i, _)| taken[*i] || cut_recorded.contains(i))
            .map(|(_, p)| batch::places::file_key(&p.display().to_string()))
            .collect();
        let keep = |key: u64, file: &std::path::Path| !now.contains(&key) && std::fs::metadata(file).is_ok();
        let wrote = journal::write_reports(dir, &results, &mut |path| {
            j.place_results(path)?;
            prev.carry(&path.with_file_name(journal::EARLIER_FILE), &keep)
        })
        .map_err(Error::Other)
        .and_then(|(written, _lock)| {
            // A shard stopped short (Ctrl-C, `--fail-fast`) is not whole: it leaves no results
            // file for merge to take. A whole one's goes beside the reports (into the folder
            // made again at the report folder's name, if that was removed).
            match shard.filter(|_| results.stopped.is_none()) {
                Some(s) => {
                    let walked = (owned, &listing[..], found.errors.clone());
                    write_shard(&written, s, config, walked, j.outcomes()?)
                }
                None => Ok(()),
            }
        });
        // Reports not written (a full disk, a folder taken): the journal stays for
        // `--resume`, and the summary is still printed below before the error is said.
        match wrote {
            Ok(()) => j.finish(),
            Err(e) => unwritten = Some(e),
        }
    }
    let printed = report::summary_of(config.summary, &results)?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(printed.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => Error::Io(e),
            _ => Error::Other(anyhow::anyhow!(
                "cannot write the summary to standard output: {e}"
            )),
        })?;
    if let Some(e) = unwritten {
        return Err(e);
    }
    // A collection mixes kinds: an order is for the hop families in it, fewest pegs and
    // fewest moves for the goals they fit; each flag says so once, if it passed a puzzle over.
    let notes = [
        (
            crate::solve::ORDER_PASSED_OVER,
            "--order and --shuffle order the jumps of hop families; puzzles of other kinds were \
             solved as they would be without them",
        ),
        (
            crate::solve::FEWEST_PASSED_OVER,
            "--fewest leaves the fewest pegs on hop and pieces boards; tilt and slide puzzles, and \
             goals that draw the board they end on, were solved as they would be without it",
        ),
        (
            crate::solve::FEWEST_MOVES_PASSED_OVER,
            "--fewest-moves finds the fewest moves to a count of pegs; goals of a peg reaching a \
             cell (`reach:`) were solved as they would be without it",
        ),
    ];
    let passed_over = crate::solve::take_passed_over();
    for (flag, note) in notes {
        if passed_over & flag != 0 && !config.quiet {
            eprintln!("marbles: note: {note}");
        }
    }
    if config.failed && !config.quiet && taken_up > 0 {
        eprintln!(
            "--failed: {} an earlier run finished kept, not solved again",
            crate::diag::plural(taken_up, "case")
        );
    }
    if !outside.is_empty() {
        eprintln!("--failed {outside}");
    }
    if config.resume && !config.quiet {
        let unfinished = found.puzzles.len() - finished;
        eprintln!(
            "resumed: {reused} of {} puzzle files reused from earlier results, {} solved now{}{}",
            found.puzzles.len(),
            finished - reused,
            match unfinished {
                0 => String::new(),
                n => format!(", {n} not finished"),
            },
            match taken_up {
                0 => String::new(),
                n => format!(
                    "; {} an earlier run finished kept, not solved again",
                    crate::diag::plural(n, "case")
                ),
            }
        );
    }
    if let Some(dir) = config.report.as_ref().filter(|_| !config.quiet) {
        eprintln!("reports written to {}", dir.display());
    }
    if !config.quiet
        && let Some(note) = times.note(
            crate::render::progress::forced(),
            (config.options.limits.timeout)
                .or(config.options.project.timeout)
                .is_some(),
        )
    {
        eprint!("{note}");
    }
    let shown: Vec<String> = not_run
        .iter()
        .map(|f| crate::render::terminal(f).into_owned())
        .collect();
    if let (Some(stop), false) = (&results.stopped, interrupted) {
        eprintln!("marbles: {stop}; {}", report::not_run_words(&shown));
    }
    if interrupted {
        // The files never started are named here as in the reports: the terminal's reader
        // may read no report.
        let unstarted = match results.totals.not_started {
            0 => String::new(),
            n => format!(
                " ({} of the files cut not started)",
                crate::diag::plural(n, "case")
            ),
        };
        eprintln!(
            "marbles: interrupted ({}): {} of {} puzzle files finished and reported{unstarted}{}; rerun with --resume to finish",
            crate::process::stopped_by(),
            finished,
            found.puzzles.len(),
            match shown.is_empty() {
                true => String::new(),
                false => format!("; {}", report::not_run_words(&shown)),
            }
        );
        return Ok(ExitCode::Interrupted);
    }
    let t = &results.totals;
    let code = ExitCode::of_run(t.errors > 0, t.failing > 0).or_failed(!found.errors.is_empty());
    if code == ExitCode::Interrupted {
        // Ctrl-C after the last file finished, while the reports and the table were written:
        // the writing is not cut, so nothing is missing, which the exit code alone hides.
        eprintln!(
            "marbles: interrupted ({}) after every puzzle file finished: nothing was cut",
            crate::process::stopped_by()
        );
    }
    Ok(code)
}

/// Where a batch's results go as they come: the journal (on disk within a tenth of a second)
/// and the tally (what the summary needs).
struct Record<'a> {
    previous: &'a journal::Previous,
    journal: Option<&'a mut journal::Journal>,
    tally: Tally,
    /// Files whose results were reused from an earlier run.
    reused: usize,
    /// Results of cases an earlier run finished before a cut left their file short, taken up.
    taken_up: usize,
    /// How long the files solved now took.
    times: Times,
    /// The progress bar, whose message says what the running searches are doing.
    bar: &'a ProgressBar,
    /// Files finished, for the bar (which counts puzzles).
    files_done: &'a AtomicU64,
    /// When that message was last set.
    drawn: std::time::Instant,
    /// `--fail-fast`: stop at the first puzzle that does not pass.
    fail_fast: bool,
    /// The first puzzle that did not pass, in words (`file: puzzle`).
    first_failed: Option<String>,
    /// Which files were handed on, by their place in path order.
    taken: Vec<bool>,
    /// The places of the files Ctrl-C cut short: reported, not recorded as finished.
    cut: Vec<usize>,
    /// Those of them whose cases finished before the cut were recorded, in this run's
    /// `results.jsonl`.
    cut_recorded: Vec<usize>,
}

/// How many of the slowest files a batch names at its close.
const SLOWEST: usize = 3;

/// The time each file solved now took, as far as a batch's closing note needs it: the
/// slowest few and the sum (bounded, whatever the number of files).
#[derive(Debug, Default)]
struct Times {
    /// The slowest files, slowest first: seconds, the file's path and whether Ctrl-C cut it.
    slowest: Vec<(f64, String, bool)>,
    total: f64,
    files: usize,
}

impl Times {
    fn add(&mut self, seconds: f64, file: &str, cut: bool) {
        self.total += seconds;
        self.files += 1;
        let at = self.slowest.partition_point(|(s, ..)| *s >= seconds);
        if at < SLOWEST {
            self.slowest.insert(at, (seconds, file.to_string(), cut));
            self.slowest.truncate(SLOWEST);
        }
    }

    /// The closing note: the slowest files, and a hint when one took most of the time (a
    /// lower time limit, where the run was `timed` already). Said when the files solved took a
    /// second or more together (or always, if `forced`), and there were at least two.
    fn note(&self, forced: bool, timed: bool) -> Option<String> {
        if self.files < 2 || (self.total < 1.0 && !forced) {
            return None;
        }
        let named: Vec<String> = self
            .slowest
            .iter()
            .map(|(s, f, cut)| {
                format!(
                    "{} {f}{}",
                    crate::render::progress::clock(Duration::from_secs_f64(*s)),
                    if *cut { " (cut)" } else { "" }
                )
            })
            .collect();
        let mut note = format!("slowest {}: {}\n", named.len(), named.join(", "));
        let (top, file, cut) = &self.slowest[0];
        let share = if self.total > 0.0 { top / self.total } else { 0.0 };
        // One that dominates: most of the time, and twice the next slowest at least (two
        // equal puzzles, solved side by side, each take half).
        let next = self.slowest.get(1).map_or(0.0, |(s, ..)| *s);
        if share > 0.5 && *top >= 2.0 * next {
            note += &format!(
                "1 file took {:.0}% of the time{}: give it {} or solve it alone (marbles solve {file})\n",
                share * 100.0,
                // Its time is until the cut: it would have taken more.
                if *cut {
                    ", and was cut before it finished"
                } else {
                    ""
                },
                if timed { "a lower --timeout" } else { "--timeout" }
            );
        }
        Some(note)
    }
}

impl Record<'_> {
    /// Counts and journals the `index`-th file's results, finished (solved now or `reused`).
    fn finished(
        &mut self,
        index: usize,
        outcomes: &[Outcome],
        (encoded, cased): (Vec<u8>, bool),
        reused: bool,
    ) -> anyhow::Result<()> {
        self.reused += usize::from(reused);
        self.taken[index] = true;
        self.files_done.fetch_add(1, Ordering::Relaxed);
        if self.first_failed.is_none()
            && let Some(o) = outcomes.iter().find(|o| !o.passed())
        {
            self.first_failed = Some(format!("{}: {}", o.file, o.puzzle));
        }
        if let Some(j) = &mut self.journal {
            let file = outcomes.first().map_or("", |o| o.file.as_str());
            if cased {
                j.record_cases(index)?;
            } else if !(reused && j.reuse(index, file, self.previous)) {
                j.record(index, encoded)?;
            }
        }
        Ok(())
    }
}

impl batch::Sink for Record<'_> {
    fn take(&mut self, done: batch::Done) -> anyhow::Result<()> {
        let batch::Done {
            index,
            outcomes,
            encoded,
            cased,
            reused,
            taken_up,
            interrupted,
        } = done;
        // Solved now, or cut (its searches took time too: the slowest may be the one cut).
        if !reused && let Some(first) = outcomes.first() {
            let now = outcomes.iter().skip(taken_up);
            self.times
                .add(now.map(|o| o.stats.seconds).sum(), &first.file, interrupted);
        }
        self.taken_up += taken_up;
        if interrupted {
            // The cases finished before the cut are recorded: `--resume` solves the rest.
            self.cut.push(index);
            if let Some(j) = self.journal.as_mut().filter(|_| !encoded.is_empty()) {
                j.record(index, encoded)?;
                self.cut_recorded.push(index);
            }
        } else {
            self.finished(index, &outcomes, (encoded, cased), reused)?;
        }
        for (k, o) in outcomes.into_iter().enumerate() {
            self.tally.add(index, k + 1, o);
        }
        Ok(())
    }

    fn idle(&mut self, longest: Option<(&Path, Duration)>) -> anyhow::Result<()> {
        // What the running searches are doing, four times a second (hidden bars ignore it),
        // and the file running longest, once it has taken a second.
        if self.drawn.elapsed() >= Duration::from_millis(250) && !self.bar.is_hidden() {
            self.drawn = std::time::Instant::now();
            let (nodes, memory) = crate::search::live::total();
            // The file's name, not its path, first: the bar leaves the message a few columns.
            let longest = longest
                .filter(|(_, took)| *took >= Duration::from_secs(1))
                .map(|(file, took)| {
                    let name = file.file_name().unwrap_or(file.as_os_str()).to_string_lossy();
                    format!(
                        " {} {}",
                        crate::render::terminal(&name),
                        crate::render::progress::clock(took)
                    )
                })
                .unwrap_or_default();
            self.bar.set_message(format!(
                "running{longest}: {} nodes, {}",
                crate::render::progress::compact(nodes),
                crate::process::human_bytes(memory)
            ));
        }
        self.journal.as_mut().map_or(Ok(()), |j| j.flush_if_due())
    }

    fn done(&self) -> bool {
        self.fail_fast && self.first_failed.is_some()
    }

    fn wants_cases(&self) -> bool {
        self.journal.is_some()
    }

    fn case(&mut self, index: usize, records: Vec<u8>, earlier: usize) -> anyhow::Result<()> {
        if let Some(j) = self.journal.as_mut() {
            j.case(index, records, earlier);
        }
        Ok(())
    }
}

/// Leaves `shard-K-of-N.json` in `dir` for `marbles merge`.
fn write_shard(
    dir: &Folder,
    s: Shard,
    config: &Config,
    (files, listing, unwalked): (Vec<String>, &[String], Vec<(String, String)>),
    outcomes: Vec<Outcome>,
) -> Result<(), Error> {
    let results = shard::Results {
        sha256: String::new(),
        marbles_version: env!("CARGO_PKG_VERSION").to_string(),
        folders: config.dirs.iter().map(|d| d.display().to_string()).collect(),
        shard: s,
        options: {
            // Which files a shard took is an option too: shards chosen alike merge into one
            // run of that choice, and merge names the option where they were not.
            let mut options = shard::options_in_force(&config.options);
            // (`-k` ignores case: `-k TRI` and `-k tri` choose alike.)
            options.extend(config.select.as_ref().map(|k| format!("-k {}", k.to_lowercase())));
            options
        },
        folder_files: listing.len(),
        folder_sha256: shard::listing_hash(listing),
        files,
        unwalked,
        results: outcomes,
    };
    crate::owned::replace(&dir.at(s.file_name()), results.seal()?.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", dir.shown(s.file_name()).display()))?;
    Ok(())
}

/// The progress bar on stderr of a batch over `files` files holding `cases` puzzles each
/// (none given: one each): drawn in place on a terminal; with `MARBLES_PROGRESS=always` and
/// stderr not a terminal, each redraw a line of its own. It counts puzzles and says the files
/// finished (`files_done`), and the puzzles too when a file holds several; its ETA is shown
/// once a puzzle has finished, from the time finished puzzles took.
fn progress(cases: &[u64], files: u64, files_done: &Arc<AtomicU64>, quiet: bool) -> ProgressBar {
    let total = cases.iter().sum::<u64>().max(files);
    if quiet || !crate::render::progress::shown() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = match std::io::stderr().is_terminal() {
        true => ProgressBar::new(total),
        // A line a frame, at most five a second as on a terminal: unthrottled, a batch of
        // 100,000 files wrote 100,066 lines.
        false => ProgressBar::with_draw_target(
            Some(total),
            ProgressDrawTarget::term_like_with_hz(Box::new(Lines::default()), 5),
        ),
    };
    // One key reads the count once for the count and the ETA: `{pos}` and a key of our own
    // would each read it, and a file finishing between the two reads drew "0/2, ETA 0s".
    let files_done = Arc::clone(files_done);
    let counted = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let done = state.pos();
        let total = state.len().unwrap_or(done);
        let elapsed = state.elapsed();
        match total == files {
            true => _ = write!(w, "{done}/{total} files"),
            false => {
                let files_done = files_done.load(Ordering::Relaxed);
                _ = write!(w, "{files_done}/{files} files, {done}/{total} puzzles");
            }
        }
        let _ = write!(w, "  {:#}", indicatif::HumanDuration(elapsed));
        if done > 0 {
            let left = elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64);
            let _ = write!(w, ", ETA {:#}", indicatif::HumanDuration(left));
        }
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {counted}  {wide_msg}")
            .expect("static template")
            .with_key("counted", counted)
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Progress drawn on a stderr that is no terminal: each frame a line, no cursor movement.
#[derive(Debug, Default)]
struct Lines {
    /// A frame was written since the last line ended.
    open: std::sync::atomic::AtomicBool,
}

impl indicatif::TermLike for Lines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.open.store(false, Ordering::Relaxed);
        writeln!(std::io::stderr(), "{s}")
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.open.store(!s.is_empty(), Ordering::Relaxed);
        write!(std::io::stderr(), "{s}")
    }
    fn clear_line(&self) -> std::io::Result<()> {
        match self.open.swap(false, Ordering::Relaxed) {
            true => writeln!(std::io::stderr()),
            false => Ok(()),
        }
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(seconds: &[f64]) -> String {
        let mut t = Times::default();
        for (k, s) in seconds.iter().enumerate() {
            t.add(*s, &format!("p{k}.yaml"), false);
        }
        t.note(false, false).unwrap_or_default()
    }

    #[test]
    fn only_a_puzzle_that_dominates_is_said_to_take_most_of_the_time() {
        assert!(
            !note(&[25.3, 25.1]).contains("% of the time"),
            "{}",
            note(&[25.3, 25.1])
        );
        assert!(note(&[25.3, 2.1, 1.0]).contains("1 file took 89% of the time: give it --timeout or"));
    }

    /// A run held to a time limit already is told to lower it, not to give one.
    #[test]
    fn a_timed_run_is_told_to_lower_its_time_limit() {
        let mut t = Times::default();
        for (k, s) in [25.3, 2.1].iter().enumerate() {
            t.add(*s, &format!("p{k}.yaml"), k == 0);
        }
        let note = t.note(false, true).unwrap_or_default();
        assert!(
            note.contains("give it a lower --timeout or solve it alone"),
            "{note}"
        );
        // One that Ctrl-C cut is said to be cut: its time is only until then.
        assert!(
            note.starts_with("slowest 2: 25 s p0.yaml (cut), 2.1 s p1.yaml\n"),
            "{note}"
        );
        assert!(
            note.contains("of the time, and was cut before it finished: give it"),
            "{note}"
        );
    }
}
