//! Batch runs: walk folders for puzzles, solve them in parallel, each file's panic contained,
//! reusing results still good from the last run; [`journal`] keeps what is finished on disk.

pub mod folder;
pub mod journal;
pub mod lock;
pub mod places;
pub mod shard;

use crate::formats::{self, Notation};
use crate::outcome::{Outcome, Status};
use crate::process::CANCELLED;
use crate::script::Script;
use crate::solve::{self, Options};
use crate::spec::Spec;
use indicatif::ProgressBar;
use journal::Previous;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Puzzle files found under some paths, in path order, and what could not be walked.
#[derive(Debug, Default)]
pub struct Found {
    pub puzzles: Vec<PathBuf>,
    /// Folders that could not be walked (each path and why): puzzles may be missing.
    pub errors: Vec<(String, String)>,
    /// Links back to a folder being walked, not followed again: nothing is missing.
    pub loops: Vec<String>,
    /// The folders (and files) walked, by their real paths.
    pub inside: Vec<PathBuf>,
    /// Hidden folders, not walked, that hold puzzle files of their own (a `.drafts` of a
    /// collection): said, so that their puzzles are not missed without a word.
    pub hidden: Vec<PathBuf>,
}

/// Whether the hidden folder `dir` holds a puzzle file among its first entries (a bounded
/// look: a `.git` of thousands of objects is not read through).
fn holds_puzzles(dir: &Path) -> bool {
    const LOOK: usize = 256;
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .take(LOOK)
            .flatten()
            .any(|e| e.file_type().is_ok_and(|t| t.is_file()) && Notation::claims(&e.path()))
    })
}

/// The error row of a folder the walk could not enter, after the files in every report: a
/// CI reading only junit.xml must see that puzzles may be missing.
pub fn unwalked(path: &str, why: &str) -> Outcome {
    // A file the walk would not read is named as one, not as a folder.
    match why.starts_with(LINK_OUT) || why.starts_with(NOT_UTF8) {
        true => Outcome::error(path, format!("{path}: {why}")),
        false => Outcome::error(
            path,
            format!("cannot walk the folder: {why}; its puzzles may be missing"),
        ),
    }
}

/// How [`collect`] refuses a puzzle file that is a link out of the folders walked.
const LINK_OUT: &str = "a link out of the folders given";

/// How [`collect`] refuses a name that is not UTF-8.
const NOT_UTF8: &str = "a name that is not UTF-8";

/// Walks `paths` for puzzle files (those a notation of [`formats::NOTATIONS`] claims by
/// extension, in any case: `.YAML` as `.yaml`): hidden folders skipped (those holding
/// puzzle files named in [`Found::hidden`]), symlinks followed
/// within the folders given (a puzzle file or a folder that is a link out of them is an
/// error, unread),
/// loops reported rather than followed, folders on a special file system (`/proc`, `/sys`:
/// `spec::input::special_file_system`) reported and not walked. Files named directly are taken whatever
/// their name; so are non-regular files with a puzzle's name, to be reported as errors.
pub fn collect(paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    let mut skipped = Vec::new();
    let mut hidden = Vec::new();
    let roots = distinct_roots(paths);
    let real_roots: Vec<PathBuf> = roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    // A folder may come from anybody: a puzzle's name linked to any file (`evil.yaml ->
    // /etc/passwd`) had that file read and its text quoted into every report. A link to a
    // file inside the folders given is read; one out of them is an error row, unread.
    // So is a folder linked out of them (`secrets -> ~/.config`): its files named like
    // puzzles were read and quoted just the same.
    let link_out = |p: &Path, folder: bool| {
        let target = outside(std::fs::canonicalize(p).ok()?, &real_roots)?;
        Some(match folder {
            true => format!(
                "{LINK_OUT}, to {}: not walked (a folder may link to any folder; name that \
                 folder itself to solve its puzzles)",
                target.display()
            ),
            false => format!(
                "{LINK_OUT}, to {}: not read (a folder may link a puzzle's name to any file; name \
                 the file itself to solve it)",
                target.display()
            ),
        })
    };
    // A name that is not UTF-8 is an error row, unread: reports name files as text, where
    // two such names read alike (`b\xff.yaml`, `b\xfe.yaml`: `b�.yaml` both), and the results
    // of one stood for the other, or for neither.
    let not_text = |p: &Path| {
        p.to_str().is_none().then(|| {
            format!(
                "{NOT_UTF8}, not read (reports name files as text, where such names can read \
                 alike); rename it"
            )
        })
    };
    for root in roots {
        let root = &root;
        if !root.is_dir() {
            match not_text(root) {
                Some(why) => found.errors.push((root.display().to_string(), why)),
                None => found.puzzles.push(root.clone()),
            }
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                if e.depth() > 0 && e.file_name().to_string_lossy().starts_with('.') {
                    if e.file_type().is_dir() && holds_puzzles(e.path()) {
                        hidden.push(e.path().to_path_buf());
                    }
                    return false;
                }
                let special = e
                    .file_type()
                    .is_dir()
                    .then(|| crate::spec::input::special_file_system(e.path()))
                    .flatten();
                if let Some(fs) = special {
                    skipped.push((
                        e.path().display().to_string(),
                        format!("on a {fs} file system, not walked"),
                    ));
                    return false;
                }
                let out = (e.depth() > 0 && e.path_is_symlink() && e.file_type().is_dir())
                    .then(|| link_out(e.path(), true))
                    .flatten();
                match out {
                    Some(why) => skipped.push((e.path().display().to_string(), why)),
                    None => return true,
                }
                false
            });
        for entry in walker {
            match entry {
                // A FIFO, socket or device named like a puzzle is listed too: reading it is
                // refused from its metadata (it is never opened), which reports it by name.
                Ok(e) if !e.file_type().is_dir() && Notation::claims(e.path()) => {
                    let why = not_text(e.path())
                        .or_else(|| e.path_is_symlink().then(|| link_out(e.path(), false)).flatten());
                    match why {
                        Some(why) => found.errors.push((e.path().display().to_string(), why)),
                        None => found.puzzles.push(e.into_path()),
                    }
                }
                Ok(_) => {}
                // A file named like a puzzle that cannot be looked at (a link to nothing) is
                // listed too: reading it fails, and the reports show that as its error row.
                Err(e)
                    if e.loop_ancestor().is_none()
                        && e.path().is_some_and(|p| !p.is_dir() && Notation::claims(p)) =>
                {
                    found.puzzles.extend(e.path().map(Path::to_path_buf))
                }
                // A hidden name is never walked (`filter_entry` sees only what can be looked
                // at): a link to nothing there (a report folder's `.lock`) is no puzzle lost.
                Err(e)
                    if e.depth() > 0
                        && e.path()
                            .and_then(Path::file_name)
                            .is_some_and(|n| n.to_string_lossy().starts_with('.')) => {}
                Err(e) => {
                    let where_ = e.path().map(|p| p.display().to_string()).unwrap_or_default();
                    if e.loop_ancestor().is_some() {
                        found.loops.push(format!(
                            "{where_}: symlink loop, not followed (it leads back to a folder above it)"
                        ));
                        continue;
                    }
                    let why = match (e.io_error(), e.path().map(std::fs::read_link)) {
                        (Some(io), Some(Ok(to))) if io.kind() == std::io::ErrorKind::NotFound => {
                            format!("a link to {}, which does not exist", to.display())
                        }
                        (Some(io), _) => io.to_string(),
                        (None, _) => e.to_string(),
                    };
                    found.errors.push((where_, why));
                }
            }
        }
    }
    found.errors.extend(skipped);
    found.hidden = hidden;
    found.inside = real_roots;
    found.puzzles.sort();
    found.puzzles.dedup();
    found
}

/// Why the file or folder at the real path `real` is not to be read: it lies in none of the
/// folders `inside` (real paths), where the batch was given a puzzle file found inside them.
/// A file, or a folder above it, swapped for a link out of them while the batch ran was read
/// through it and its text quoted in its error.
fn lies_out(real: &Path, inside: &[PathBuf]) -> Option<String> {
    (!lies_in(real, inside)).then(|| {
        format!(
            "{LINK_OUT}, to {}: not read (it leads there since the folder was walked)",
            real.display()
        )
    })
}

/// The text of the puzzle file `path`, read only if it still lies inside the folders the
/// batch was given (`opts.inside`, when set): judged on the file once opened, by its real
/// path, so that no swap of its name (or a folder's above it) for a link leads the read out;
/// a file gone is judged by its folder, so that no name from out there is offered instead.
fn read_inside(path: &Path, opts: &Options) -> crate::diag::Result<String> {
    let judge = opts
        .inside
        .as_deref()
        .map(|inside| move |real: &Path| lies_out(real, inside));
    let judge = judge.as_ref().map(|j| j as crate::spec::input::Judge);
    let judges = crate::spec::input::Judges {
        file: judge,
        folder: judge,
    };
    crate::spec::input::read_text_judged(path, crate::spec::MAX_SPEC_BYTES, judges)
}

/// `real`, a real path, when it lies in none of the real paths `inside`.
fn outside(real: PathBuf, inside: &[PathBuf]) -> Option<PathBuf> {
    (!lies_in(&real, inside)).then_some(real)
}

/// Whether the real path `real` lies in one of the real paths `inside`.
fn lies_in(real: &Path, inside: &[PathBuf]) -> bool {
    inside.iter().any(|r| real.starts_with(r))
}

/// `paths` less those another one already covers, so that no file is solved twice: a folder
/// given twice under two spellings (`a` and `./a`, or a symlink to it), a folder inside
/// another one given, a file inside a folder given (when the walk would list it: not hidden,
/// named like a puzzle) or a file given twice. Compared by real paths, once a root, not a
/// file; the first spelling given is the one kept.
fn distinct_roots(paths: &[PathBuf]) -> Vec<PathBuf> {
    let real: Vec<Option<PathBuf>> = paths.iter().map(|p| std::fs::canonicalize(p).ok()).collect();
    let is_dir = |i: usize| paths[i].is_dir();
    let walked = |p: &Path| {
        Notation::claims(p)
            && !p
                .components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    };
    let covers = |outer: usize, inner: usize| {
        let (Some(o), Some(i)) = (&real[outer], &real[inner]) else {
            return false;
        };
        match (is_dir(outer), is_dir(inner)) {
            (true, true) => i.starts_with(o) && (i != o || outer < inner),
            (true, false) => i.starts_with(o) && walked(i.strip_prefix(o).unwrap_or(i)),
            (false, false) => i == o && outer < inner,
            (false, true) => false,
        }
    };
    (0..paths.len())
        .filter(|&i| !(0..paths.len()).any(|o| o != i && covers(o, i)))
        .map(|i| paths[i].clone())
        .collect()
}

/// What [`solve_contained`] tells of each case of a file as it finishes (of the first cases
/// given as done, before any is solved): its place, from 1; how many cases the file holds,
/// when it was asked to count them (0 when not); its result, named as the file's are.
pub type Each<'a> = dyn Fn(usize, usize, &Outcome) + 'a;

/// Solves every puzzle in one file (an ICPC file holds several), turning a panic anywhere
/// inside into that file's error. Every outcome carries the hash of the bytes solved, read
/// once before solving, for `--resume`. The results of its first cases may be given (`done`,
/// an earlier run's, when a cut left the file short): those cases are not solved again.
/// `each` is told of every case as it finishes; with `count`, the cases of a file of several
/// are counted first (a file that is not YAML is read twice).
pub fn solve_contained(
    path: &Path,
    opts: &Options,
    done: Vec<Outcome>,
    count: bool,
    each: &Each,
) -> Vec<Outcome> {
    let file = path.display().to_string();
    let text = read_inside(path, opts);
    let hash = text.as_deref().ok().map(crate::fingerprint::hash);
    let solve_all = || match &text {
        Err(d) => vec![Outcome::failed(&file, d)],
        Ok(text) => {
            let skip = done.len();
            let notation = Notation::of(path, None);
            let cases = match count && notation != formats::YAML {
                true => match formats::count_cases(path, notation, text, &mut |_| {
                    !CANCELLED.load(Ordering::Relaxed)
                }) {
                    (n, true) => n as usize,
                    (_, false) => 0,
                },
                false => usize::from(count),
            };
            for (k, o) in done.iter().enumerate() {
                each(k + 1, cases, o);
            }
            let mut outcomes = done;
            // Room for every case at once, where they were counted: grown by doubling, a
            // file of 45,000 held room for 65,536 (616 bytes each), and both rooms as it grew.
            outcomes.reserve_exact(cases.saturating_sub(outcomes.len()));
            // A case stopped before its search (its script timed out, or was cut) took the
            // time since the case before it ended: its row says so, not `0.0ms`.
            let mut since = std::time::Instant::now();
            formats::prepare_text(path, notation, text, opts, skip, &mut |p| {
                let mut o = match p {
                    Ok(p) => solve::solve_prepared(&p, opts),
                    Err(d) => {
                        let mut o = Outcome::failed(&file, &d);
                        o.stats.seconds = since.elapsed().as_secs_f64();
                        o
                    }
                };
                since = std::time::Instant::now();
                (o.file, o.spec_hash) = (file.clone(), hash.clone());
                outcomes.push(o);
                each(outcomes.len(), cases, outcomes.last().expect("pushed"));
                std::ops::ControlFlow::Continue(())
            });
            if CANCELLED.load(Ordering::SeqCst) {
                not_started(path, notation, text, &mut outcomes);
            }
            outcomes
        }
    };
    let mut outcomes = catch_unwind(AssertUnwindSafe(solve_all)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        vec![Outcome::error(
            &file,
            format!("{file}: internal error while solving (please report): {msg}"),
        )]
    });
    for o in &mut outcomes {
        o.file = file.clone();
        o.spec_hash = hash.clone();
    }
    outcomes
}

/// The cases of `text` after the `outcomes` Ctrl-C left, each reported as not started (a
/// case that cannot be read, as its error): so that every case of a file cut short is named
/// in the reports, as a file not reached is. Reading only: no script runs.
fn not_started(path: &Path, notation: &Notation, text: &str, outcomes: &mut Vec<Outcome>) {
    let file = path.display().to_string();
    let mut seen = 0;
    let done = outcomes.len();
    let read = formats::parse_each(path, notation, text, &mut |s| {
        seen += 1;
        if seen > done {
            outcomes.push(match s {
                Ok(s) => Outcome::not_started(&file, &s),
                Err(d) => Outcome::failed(&file, &d),
            });
        }
        std::ops::ControlFlow::Continue(())
    });
    // The file's own fault at the end, unless it was reported before Ctrl-C came.
    if let Err(d) = read
        && seen >= done
    {
        outcomes.push(Outcome::failed(&file, &d));
    }
}

/// A puzzle of a file, with its rule script.
type Case = (Spec, Script);

/// How many puzzles each file holds, as far as reading it tells (one for a YAML file, and
/// for a file that cannot be read), for a progress bar to count: files are read, no script
/// runs; Ctrl-C ends the reading.
pub fn cases_each(paths: &[PathBuf]) -> Vec<u64> {
    use rayon::prelude::*;
    paths
        .par_iter()
        .map(|path| {
            let notation = Notation::of(path, None);
            // After Ctrl-C nothing will be solved: the rest are not read.
            if notation == formats::YAML || CANCELLED.load(Ordering::Relaxed) {
                return 1;
            }
            let Ok(text) = crate::spec::read_text(path) else {
                return 1;
            };
            let (n, _) =
                formats::count_cases(path, notation, &text, &mut |_| !CANCELLED.load(Ordering::Relaxed));
            n.max(1)
        })
        .collect()
}

/// What a file's results would be made from now, if the file can be read and its cases
/// counted: each puzzle before the first that cannot be read or has no script, with its
/// script, and [`journal::digest`] of the first `k` of them (its bytes' hash and each
/// puzzle's script hash and settings: goal in force, move order, limits).
struct MadeNow {
    hash: String,
    each: Vec<[String; 3]>,
    cases: Vec<Case>,
    /// The file's cases, those after the first that cannot be read too.
    total: usize,
}

impl MadeNow {
    fn of(path: &Path, opts: &Options) -> Option<Self> {
        let text = read_inside(path, opts).ok()?;
        let notation = Notation::of(path, None);
        let mut scripts = formats::Scripts::default();
        let mut cases: Vec<Case> = Vec::new();
        // One reading: every case is counted, and those before the first that cannot be
        // read or has no script are kept (they may be taken up).
        let (mut total, mut kept) = (0, true);
        let _ = formats::parse_each(path, notation, &text, &mut |spec| {
            total += 1;
            if kept {
                match spec.and_then(|spec| scripts.of(&spec).map(|script| (spec, script))) {
                    Ok(case) => cases.push(case),
                    Err(_) => kept = false,
                }
            }
            std::ops::ControlFlow::Continue(())
        });
        if notation == formats::YAML {
            total = cases.len().max(1);
        }
        let each = cases
            .iter()
            .map(|(spec, script)| {
                [
                    script.origin.display().to_string(),
                    script.hash.clone(),
                    solve::settings(spec, opts),
                ]
            })
            .collect();
        let hash = crate::fingerprint::hash(&text);
        Some(MadeNow {
            hash,
            each,
            cases,
            total,
        })
    }

    fn digest(&self, k: usize) -> [u8; 16] {
        let each = self.each.get(..k).unwrap_or(&self.each);
        journal::digest(&self.hash, each.iter().map(|p| p.each_ref().map(String::as_str)))
    }
}

/// An earlier run's results for `path`, if none failed, the file and every rule script it uses
/// are byte-for-byte unchanged, each was made under the settings that would apply now, and
/// each is what its moves do ([`solve::replays`]: a record edited and resealed is solved
/// again, never drawn); whether each meets the file's expectation is judged again. They are
/// all of the file's results, or, of a file a cut left short, the first ones (the rest are
/// solved): the second part says which.
fn reused(previous: &Previous, path: &Path, opts: &Options) -> Option<(Vec<Outcome>, bool)> {
    // (An interrupted search is never recorded, so it cannot be among them.)
    let file = path.display().to_string();
    if !previous.knows(&file) {
        return None;
    }
    let made = MadeNow::of(path, opts)?;
    let got = previous.has(&file, made.total, &|k| made.digest(k))?;
    if got > made.cases.len() {
        return None;
    }
    // (Those after an error are dropped: it and the rest are solved again.)
    let mut outcomes = previous.load(&file)?;
    if outcomes.len() < got {
        return None;
    }
    outcomes.truncate(got);
    for (o, (spec, script)) in outcomes.iter_mut().zip(made.cases) {
        // The settings name the default memory limit without its size (it follows `-j`): a
        // give-up is retried when the limits it gave up under are not those in force now.
        if o.status == Status::GaveUp && o.limits != Some(solve::limits_for(&spec, opts).describe()) {
            return None;
        }
        let expect = spec.expect;
        if what_its_moves_do(spec, script, opts, o) != Ok(true) {
            return None;
        }
        // Judged again from the file as it is: a record's own `expect` and `met` are not read.
        o.judge(expect);
    }
    let whole = got == made.total;
    Some((outcomes, whole))
}

/// Whether a recorded result `o` is what its moves do on `spec` ([`solve::replays`]: its
/// script builds the board again and the line is played move by move). A result that shows
/// no line and no board (a give-up while its script built the board) has nothing to replay:
/// its script is not run again, and it need only name the puzzle and its family.
/// `Err` when the board cannot be built again to replay it (its script failed this time: a
/// limit, a thread it could not start), which says nothing of the result.
fn what_its_moves_do(spec: Spec, script: Script, opts: &Options, o: &Outcome) -> Result<bool, String> {
    match !o.moves.steps.is_empty() || o.replay.is_some() {
        true => solve::prepare_with(spec, script, opts)
            .map(|p| solve::replays(&p, opts, o))
            .map_err(|d| d.to_string()),
        false => Ok(o.puzzle == spec.name && o.rules == script.name),
    }
}

/// Why `outcomes`, the results another run recorded for the puzzle file `file` (as the
/// batch named it), in its case order, are not what that file makes now, if they are not:
/// the file unreadable or changed since it was solved (its bytes' hash, a script's), a count
/// of results that is not its count of cases, or a result that is not what its moves do
/// (as `--resume` replays one). Each is judged again against its case's `expect:` as the
/// file states it (a record's own `expect` and `met` are not read). `merge` asks this of
/// every file of every shard.
pub fn not_replayed(file: &str, outcomes: &mut [Outcome], opts: &Options) -> Option<String> {
    let path = Path::new(file);
    let text = match read_inside(path, opts) {
        Ok(text) => text,
        Err(d) => return Some(format!("{} (its results are replayed against it)", d.message)),
    };
    let hash = crate::fingerprint::hash(&text);
    if outcomes
        .iter()
        .any(|o| o.spec_hash.as_ref().is_some_and(|h| *h != hash))
    {
        return Some("was changed since it was solved".into());
    }
    let mut cases = Vec::new();
    let read = formats::parse_each(path, Notation::of(path, None), &text, &mut |s| {
        cases.push(s.ok());
        std::ops::ControlFlow::Continue(())
    });
    // A file that cannot be read to its end has one more result: its error.
    let expected = cases.len() + usize::from(read.is_err());
    if outcomes.len() != expected {
        return Some(format!(
            "has {} results, for a file of {}",
            outcomes.len(),
            crate::diag::plural(expected, "result")
        ));
    }
    let mut scripts = formats::Scripts::default();
    for (k, (o, spec)) in outcomes.iter_mut().zip(cases).enumerate() {
        let drawn = !o.moves.steps.is_empty() || o.replay.is_some();
        // An error holds no expectation (a batch judges none); the rest are judged again.
        o.judge(
            spec.as_ref()
                .filter(|_| o.status != Status::Error)
                .and_then(|s| s.expect),
        );
        let spec = match spec {
            // An error compiling the case: nothing to replay.
            Some(_) if o.status == Status::Error && !drawn => continue,
            Some(spec) => spec,
            None if o.status == Status::Error => continue,
            None => return Some(format!("result {} is for a case that cannot be read", k + 1)),
        };
        let script = match scripts.of(&spec) {
            Ok(script) => script,
            Err(d) => return Some(format!("result {}: {}", k + 1, d.message)),
        };
        if o.script_hash.as_ref().is_some_and(|h| *h != script.hash) {
            return Some(format!(
                "result {}: its rule script {} was changed since it was solved",
                k + 1,
                script.origin.display()
            ));
        }
        match what_its_moves_do(spec, script, opts, o) {
            Ok(true) => {}
            Ok(false) => {
                return Some(format!(
                    "result {} ({}) is not what its moves do",
                    k + 1,
                    o.puzzle
                ));
            }
            Err(why) => {
                return Some(format!(
                    "result {} ({}) could not be replayed, its board not built again: {why}",
                    k + 1,
                    o.puzzle
                ));
            }
        }
    }
    None
}

/// Whether the results kept for `path` pass as a test: all of them reusable as `--resume`
/// would reuse them (`reused`: the file and its rule scripts unchanged since, each made
/// under the settings `opts` sets, each what its moves do), each meeting the file's `expect:`
/// judged again. `--failed` reruns the files for which this is false.
pub fn passed_before(previous: &Previous, path: &Path, opts: &Options) -> bool {
    matches!(reused(previous, path, opts), Some((outcomes, true)) if outcomes.iter().all(Outcome::passed))
}

/// A batch's progress bar, counting puzzles: each case as it is solved, and a file's
/// `cases` in all (one where none is given) once it is finished.
#[derive(Clone, Copy)]
pub struct Progress<'a> {
    pub bar: &'a ProgressBar,
    pub cases: &'a [u64],
}

/// Where a batch's results go as each file is finished: [`solve_all`] hands them over on
/// its calling thread, with the bytes its `encode` made of them on the worker that solved
/// the file (the journal's lines, so that this thread only writes).
pub trait Sink {
    /// One file's results.
    fn take(&mut self, done: Done) -> anyhow::Result<()>;
    /// No more results are waiting for now (said at least every [`IDLE_EVERY`]): what was
    /// taken may be written. `longest` is the file running longest now, and for how long.
    fn idle(&mut self, _longest: Option<(&Path, std::time::Duration)>) -> anyhow::Result<()> {
        Ok(())
    }
    /// Whether it wants no more (`--fail-fast` after a failure): no further file is started,
    /// and results still coming are dropped.
    fn done(&self) -> bool {
        false
    }
    /// How many cases' results may wait for it before the workers start no more files (a
    /// file's results go whole, so one of more cases still goes).
    fn waiting_cases(&self) -> usize {
        WAITING_CASES
    }
    /// Whether it takes each case of a file of several as it finishes ([`Sink::case`]).
    fn wants_cases(&self) -> bool {
        false
    }
    /// The records ([`journal::case_record`]) of cases of the `index`-th file, in case
    /// order, made as each finished, before the file is; the first `earlier` of them are an
    /// earlier run's, taken up.
    fn case(&mut self, index: usize, records: Vec<u8>, earlier: usize) -> anyhow::Result<()> {
        let _ = (index, records, earlier);
        Ok(())
    }
}

/// The records of cases finished before their files, as the workers of [`solve_all`] leave
/// them (with their file's place and how many of them an earlier run's were, those of one
/// file in a row together): taken by the calling thread when it wakes, not sent, since
/// waking it for each case of a file of thousands of quick ones cost half again the batch's
/// time.
type Fresh = std::sync::Mutex<Vec<(usize, usize, Vec<u8>)>>;

/// Hands the case records in `fresh` to `sink`, in the order they were left.
fn hand_on_cases(fresh: &Fresh, sink: &mut dyn Sink) -> anyhow::Result<()> {
    let taken = std::mem::take(&mut *fresh.lock().unwrap_or_else(|e| e.into_inner()));
    taken
        .into_iter()
        .try_for_each(|(index, earlier, records)| sink.case(index, records, earlier))
}

/// One file's results, as a [`Sink`] takes them.
pub struct Done {
    /// The file's place in path order.
    pub index: usize,
    pub outcomes: Vec<Outcome>,
    /// What `encode` made of them; empty when they are `cased`.
    pub encoded: Vec<u8>,
    /// The sink was handed the record of every case as it finished, in case order
    /// ([`Sink::case`]): those are the file's records, not made again in `encoded` (a file
    /// of 45,000 cases held its 33 MB of records twice more, on its worker and on its way).
    pub cased: bool,
    /// They are an earlier run's, unchanged.
    pub reused: bool,
    /// Of a file a cut left short in an earlier run, the results of its first cases that
    /// run finished, taken up unchanged (the rest were solved now).
    pub taken_up: usize,
    /// Ctrl-C cut the file short: these are the results it has (the search stopped among
    /// them), to be reported; only those before the cut are recorded ([`journal::records`]).
    pub interrupted: bool,
}

impl<F: FnMut(Done) -> anyhow::Result<()>> Sink for F {
    fn take(&mut self, done: Done) -> anyhow::Result<()> {
        self(done)
    }
}

/// Cases whose results may wait for a [`Sink`] before the workers start no more files
/// ([`Sink::waiting_cases`]).
pub const WAITING_CASES: usize = 50_000;

/// How long a [`Sink`] waits, at most, between being told it is idle.
pub const IDLE_EVERY: std::time::Duration = std::time::Duration::from_millis(25);

/// The cases a file's results count for while they wait for the [`Sink`] (an error, one).
fn cases_in(done: &anyhow::Result<Done>) -> usize {
    done.as_ref().map_or(1, |d| d.outcomes.len())
}

/// What a worker makes of the `index`-th file's results for the [`Sink`].
pub type Encode = dyn Fn(usize, &[Outcome]) -> anyhow::Result<Vec<u8>> + Sync;

/// What a worker makes of a file's results for the [`Sink`]: nothing.
pub fn no_encoding(_: usize, _: &[Outcome]) -> anyhow::Result<Vec<u8>> {
    Ok(Vec::new())
}

/// Solves every file in `puzzles` on `jobs` threads, reusing `previous` results that are
/// still good, and hands each file's results to `sink` (its place in `puzzles`, its results,
/// what `encode` made of them on the worker) on the calling thread as soon as it is
/// finished, telling it when none are waiting, and counting puzzles on `progress`'s bar.
/// Files are taken in path order, so results come nearly in that order. A file cut short by Ctrl-C (see [`CANCELLED`]) is handed on
/// as [`Done::interrupted`], with what it has; nothing is after `sink` or `encode` fails,
/// which stops the run with its error. Returns the number of files finished and handed on.
pub fn solve_all(
    puzzles: &[PathBuf],
    opts: &Options,
    jobs: usize,
    previous: &Previous,
    progress: Progress,
    encode: &Encode,
    sink: &mut dyn Sink,
) -> anyhow::Result<usize> {
    let Progress { bar, cases } = progress;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::sync_channel::<anyhow::Result<Done>>(256);
    let cases_wanted = sink.wants_cases();
    let fresh = Fresh::default();
    // Results sent and not yet taken, counted by case: a worker starts no file while more
    // than the sink lets wait, so what waits for a sink slower than the workers (a journal
    // writing 730 bytes a case) does not grow with the folder.
    let waiting = AtomicUsize::new(0);
    let may_wait = sink.waiting_cases();
    // Woken as results are taken (and every [`IDLE_EVERY`], to see a stop).
    let taken = (std::sync::Mutex::new(()), std::sync::Condvar::new());
    // The files being solved now, each with when it began: the progress line names the
    // longest running.
    let running = std::sync::Mutex::new(Vec::<(usize, std::time::Instant)>::new());
    let longest = || {
        let running = running.lock().unwrap_or_else(|e| e.into_inner());
        let (i, since) = running.iter().min_by_key(|(_, since)| *since)?;
        Some((puzzles[*i].as_path(), since.elapsed()))
    };
    let work = |tx: mpsc::SyncSender<anyhow::Result<Done>>| {
        while !stop.load(Ordering::Relaxed) && !CANCELLED.load(Ordering::Relaxed) {
            if waiting.load(Ordering::Relaxed) > may_wait {
                let held = taken.0.lock().unwrap_or_else(|e| e.into_inner());
                let _ = taken.1.wait_timeout_while(held, IDLE_EVERY, |_| {
                    waiting.load(Ordering::Relaxed) > may_wait && !stop.load(Ordering::Relaxed)
                });
                continue;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = puzzles.get(i) else { break };
            let weight = cases.get(i).copied().unwrap_or(1);
            let counted = std::sync::atomic::AtomicU64::new(0);
            // A case's record as it is made (then handed on), and how many were made of how
            // many cases: when they are all of them, they are the file's records.
            let made = std::cell::RefCell::new((Vec::new(), 0, 0));
            let (outcomes, again, taken_up) = match reused(previous, path, opts) {
                Some((o, true)) => (o, true, 0),
                begun => {
                    bar.set_message(crate::render::terminal(&path.display().to_string()).into_owned());
                    (running.lock().unwrap_or_else(|e| e.into_inner())).push((i, std::time::Instant::now()));
                    let done = begun.map(|(o, _)| o).unwrap_or_default();
                    let taken_up = done.len();
                    let (counted, fresh, made) = (&counted, &fresh, &made);
                    let each = |case: usize, cases: usize, o: &Outcome| {
                        // (The cases taken up are counted as they are told, first; a search
                        // Ctrl-C stopped is no puzzle done.)
                        if !crate::report::interrupted(o) && counted.fetch_add(1, Ordering::Relaxed) < weight
                        {
                            bar.inc(1);
                        }
                        // (A record that cannot be made is left out, and made again with the
                        // file's, whose error stops the run there.)
                        let mut made = made.borrow_mut();
                        made.0.clear();
                        let record =
                            cases > 1 && journal::case_record(&mut made.0, i, case, cases, o).is_ok();
                        if record {
                            (made.1, made.2) = (made.1 + 1, cases);
                            let (new, earlier) = (&made.0[..], usize::from(case <= taken_up));
                            let mut fresh = fresh.lock().unwrap_or_else(|e| e.into_inner());
                            match fresh.last_mut() {
                                Some((j, e, left)) if *j == i => {
                                    left.extend_from_slice(new);
                                    *e += earlier;
                                }
                                _ => fresh.push((i, earlier, new.to_vec())),
                            }
                        }
                    };
                    let outcomes = solve_contained(path, opts, done, cases_wanted, &each);
                    (running.lock().unwrap_or_else(|e| e.into_inner())).retain(|(j, _)| *j != i);
                    // A file Ctrl-C cut has its searches cut and its cases not started among
                    // its outcomes: it goes to be reported as cut short, the cases finished
                    // before the cut to be recorded, and no more files are started. One whose
                    // every case finished as Ctrl-C came is finished, and reported so.
                    if outcomes.iter().any(crate::report::interrupted) {
                        let cut = encode(i, &outcomes).map(|encoded| Done {
                            index: i,
                            outcomes,
                            encoded,
                            cased: false,
                            reused: false,
                            taken_up,
                            interrupted: true,
                        });
                        waiting.fetch_add(cases_in(&cut), Ordering::Relaxed);
                        let _ = tx.send(cut);
                        break;
                    }
                    (outcomes, false, taken_up)
                }
            };
            bar.inc(weight.saturating_sub(counted.load(Ordering::Relaxed)));
            let (_, records, cases) = made.into_inner();
            let cased = !again && cases == outcomes.len() && records == cases;
            let encoded = match cased {
                true => Ok(Vec::new()),
                false => encode(i, &outcomes),
            };
            let done = encoded.map(|encoded| Done {
                index: i,
                outcomes,
                encoded,
                cased,
                reused: again,
                taken_up,
                interrupted: false,
            });
            waiting.fetch_add(cases_in(&done), Ordering::Relaxed);
            if tx.send(done).is_err() {
                break;
            }
        }
    };
    std::thread::scope(|s| {
        for w in 0..jobs {
            let tx = tx.clone();
            std::thread::Builder::new()
                .name(format!("batch {w}"))
                .spawn_scoped(s, || work(tx))?;
        }
        drop(tx);
        let rx = rx;
        let mut finished = 0;
        // Results waiting are taken together, then the sink is told: a journal writes them
        // in one go (a million small files made a million writes).
        let mut handled = Ok(());
        while handled.is_ok() {
            // The sink is told it is idle at least every [`IDLE_EVERY`], results or not.
            let mut came = match rx.recv_timeout(IDLE_EVERY) {
                Ok(first) => Some(first),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            while let Some(done) = came.take() {
                let whole = done.as_ref().is_ok_and(|d| !d.interrupted);
                let cases = cases_in(&done);
                // A file's cases were left before it was sent: they go first.
                handled = hand_on_cases(&fresh, sink).and(done).and_then(|d| sink.take(d));
                {
                    // (Under the lock: a worker between its check and its wait is not missed.)
                    let _held = taken.0.lock().unwrap_or_else(|e| e.into_inner());
                    waiting.fetch_sub(cases, Ordering::Relaxed);
                }
                taken.1.notify_all();
                if handled.is_ok() && !sink.done() {
                    finished += usize::from(whole);
                    came = rx.try_recv().ok();
                } else if handled.is_ok() {
                    finished += usize::from(whole);
                }
            }
            if handled.is_ok() {
                handled = hand_on_cases(&fresh, sink).and_then(|()| sink.idle(longest()));
            }
            if sink.done() {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        if handled.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        // Dropped before the workers are joined: one blocked sending is let go.
        drop(rx);
        handled.map(|()| finished)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that takes its first file late, letting `waiting` cases wait.
    struct Late<'a> {
        waiting: usize,
        bar: &'a ProgressBar,
        /// Cases finished when it woke from its first file.
        finished_then: Option<u64>,
        taken: usize,
    }
    impl Sink for Late<'_> {
        fn take(&mut self, _: Done) -> anyhow::Result<()> {
            if self.finished_then.is_none() {
                std::thread::sleep(std::time::Duration::from_millis(1500));
                self.finished_then = Some(self.bar.position());
            }
            self.taken += 1;
            Ok(())
        }
        fn waiting_cases(&self) -> usize {
            self.waiting
        }
    }

    /// Options reading puzzle files only inside the folder `set`, as a batch of it reads them.
    fn reading_inside(set: &Path) -> Options {
        Options {
            inside: Some(collect(&[set.to_path_buf()]).inside.into()),
            ..Options::default()
        }
    }

    #[test]
    fn a_puzzle_file_swapped_for_a_link_out_after_the_walk_is_not_read() {
        let (_dir, d) = crate::owned::temp_with(&["set/zz", "secret"]);
        std::fs::write(d.join("set/z.yaml"), "rules: peg_hop\n").unwrap();
        std::fs::write(d.join("secret/key.yaml"), "SECRET\n").unwrap();
        assert_eq!(collect(&[d.join("set")]).inside, [d.join("set")]);
        let opts = reading_inside(&d.join("set"));
        let read = |p: &str| read_inside(&d.join(p), &opts).map_err(|e| e.message);
        assert_eq!(read("set/z.yaml"), Ok("rules: peg_hop\n".into()));
        // The file, then its folder, swapped for links out.
        std::fs::remove_file(d.join("set/z.yaml")).unwrap();
        std::os::unix::fs::symlink(d.join("secret/key.yaml"), d.join("set/z.yaml")).unwrap();
        std::fs::remove_dir(d.join("set/zz")).unwrap();
        std::os::unix::fs::symlink(d.join("secret"), d.join("set/zz")).unwrap();
        let out = |to: &str| {
            format!(
                "{LINK_OUT}, to {}: not read (it leads there since the folder was walked)",
                d.join(to).display()
            )
        };
        assert_eq!(read("set/z.yaml"), Err(out("secret/key.yaml")));
        // A file not there under the folder now linked out: no name out there is offered.
        assert_eq!(read("set/zz/y.yaml"), Err(out("secret")));
        // Read by the batch, it is an error naming where it leads, its text unread.
        let o = solve_contained(&d.join("set/z.yaml"), &opts, Vec::new(), false, &|_, _, _| {});
        let said = o[0].error.as_deref().unwrap();
        assert!(said.ends_with(&out("secret/key.yaml")), "{said}");
        assert!(!said.contains("SECRET"), "{said}");
        // Replayed (merge, `--failed`), it is read no more: nor a name offered out there.
        let replayed = |p: &str| not_replayed(&d.join(p).display().to_string(), &mut [], &opts);
        assert_eq!(
            replayed("set/z.yaml"),
            Some(format!(
                "{} (its results are replayed against it)",
                out("secret/key.yaml")
            ))
        );
        assert_eq!(
            replayed("set/zz/y.yaml"),
            Some(format!("{} (its results are replayed against it)", out("secret")))
        );
    }

    /// A name flipped between a link within and a link out, as fast as it can be, while it
    /// is read again and again: the file is judged once opened, so no read between the
    /// name's check and the open gets the secret.
    #[test]
    fn a_name_flipped_to_a_link_out_between_the_check_and_the_open_is_not_read() {
        let (_dir, d) = crate::owned::temp_with(&["set", "secret"]);
        std::fs::write(d.join("set/in.yaml"), "rules: peg_hop\n").unwrap();
        std::fs::write(d.join("secret/key.yaml"), "SECRET\n").unwrap();
        let z = d.join("set/z.yaml");
        std::os::unix::fs::symlink(d.join("set/in.yaml"), &z).unwrap();
        let opts = reading_inside(&d.join("set"));
        let targets = [d.join("secret/key.yaml"), d.join("set/in.yaml")];
        let said: Vec<_> = crate::owned::while_flipping(&z, [&targets[0], &targets[1]], || {
            (0..20_000).map(|_| read_inside(&z, &opts)).collect()
        });
        let (read, refused): (Vec<_>, Vec<_>) = said.into_iter().partition(|r| r.is_ok());
        for r in &read {
            assert_eq!(r.as_deref().unwrap(), "rules: peg_hop\n");
        }
        for r in &refused {
            let e = r.as_ref().unwrap_err().to_string();
            assert!(!e.contains("SECRET"), "{e}");
        }
        // Both ways were met: the flipping did race the reads.
        let (read, refused) = (read.len(), refused.len());
        assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
    }

    /// A folder flipped between a link within and a link out while a file missing in it is
    /// read again and again: the names offered for it are read from the folder judged, never
    /// from out there.
    #[test]
    fn a_folder_flipped_out_offers_no_name_from_out_there_for_a_missing_file() {
        let (_dir, d) = crate::owned::temp_with(&["set/in", "secret"]);
        std::fs::write(d.join("set/in/hidden_a.yaml"), "").unwrap();
        std::fs::write(d.join("secret/hidden_b.yaml"), "").unwrap();
        let zz = d.join("set/zz");
        std::os::unix::fs::symlink(d.join("set/in"), &zz).unwrap();
        let opts = reading_inside(&d.join("set"));
        let missing = zz.join("hidden_c.yaml");
        let (inside, out) = (d.join("set/in"), d.join("secret"));
        let said: Vec<String> = crate::owned::while_flipping(&zz, [&out, &inside], || {
            (0..5_000)
                .map(|_| read_inside(&missing, &opts).unwrap_err().message)
                .collect()
        });
        assert!(
            said.iter().all(|e| !e.contains("hidden_b")),
            "a name from out there offered"
        );
        let offered = said.iter().filter(|e| e.contains("hidden_a")).count();
        let refused = said.iter().filter(|e| e.starts_with(LINK_OUT)).count();
        assert!(offered > 0 && refused > 0, "{offered} offered, {refused} refused");
    }

    #[test]
    fn workers_start_no_file_while_the_sink_has_its_fill_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let puzzles: Vec<PathBuf> = (0..40)
            .map(|k| {
                let path = dir.path().join(format!("p{k:02}.yaml"));
                std::fs::write(&path, "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  pegs: 1\n").unwrap();
                path
            })
            .collect();
        let bar = ProgressBar::hidden();
        let mut sink = Late {
            waiting: 3,
            bar: &bar,
            finished_then: None,
            taken: 0,
        };
        let progress = Progress {
            bar: &bar,
            cases: &[],
        };
        let opts = Options::default();
        let finished = solve_all(
            &puzzles,
            &opts,
            2,
            &Previous::default(),
            progress,
            &no_encoding,
            &mut sink,
        );
        assert_eq!((finished.unwrap(), sink.taken), (40, 40));
        // The one taken, the three let wait, and one more from each worker (each may have
        // looked before the other's file was counted) may be finished; the rest waited.
        let then = sink.finished_then.unwrap();
        assert!(
            then <= 1 + 3 + 2 + 1,
            "{then} files finished while the sink slept"
        );
    }
}
