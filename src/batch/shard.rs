//! Sharded batches: which files a shard K of N owns (jump consistent hashing of the SHA-256
//! of each file's path relative to its folder), and the self-describing, sealed results file
//! it leaves.

use crate::formats::Notation;
use crate::outcome::Outcome;
use crate::script::ScriptLimits;
use crate::solve::{MoveOrder, Options};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The most shards a batch splits into: far past any real cluster, and small enough that a
/// merge can list what is missing.
pub const MAX_SHARDS: u32 = 100_000;

/// Shard `index` (from 0) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Reads `K/N` (0 ≤ K < N ≤ [`MAX_SHARDS`]), digits only and no leading zeros: one
    /// shard has one spelling.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("--shard {text:?}: expected K/N with 0 <= K < N, e.g. 0/4, or auto");
        let digits = |s: &str| {
            let canonical = s == "0" || !s.starts_with('0');
            (canonical && !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())
                .flatten()
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (digits(k).ok_or_else(bad)?, digits(n).ok_or_else(bad)?);
        Self::new(index, count).map_err(|why| format!("--shard {text}: {why}"))
    }

    /// Shard `index` of `count`, or why there is no such shard.
    fn new(index: u32, count: u32) -> Result<Self, String> {
        if count > MAX_SHARDS {
            Err(format!("{count} shards are too many (at most {MAX_SHARDS})"))
        } else if count == 0 || index >= count {
            Err(format!("shard {index} is not below the count {count}"))
        } else {
            Ok(Shard { index, count })
        }
    }

    /// The shard a scheduler gives this task: Slurm's `SLURM_ARRAY_TASK_ID` and
    /// `SLURM_ARRAY_TASK_COUNT`, or Kubernetes' `JOB_COMPLETION_INDEX` with `flag_count` (from
    /// `--shard-count`) or `MARBLES_SHARD_COUNT`. Sources that disagree are refused, both
    /// named. `env` looks a variable up.
    pub fn auto(env: impl Fn(&str) -> Option<String>, flag_count: Option<u32>) -> Result<Self, String> {
        let num = |name: &str| -> Result<Option<u32>, String> {
            env(name)
                .map(|v| {
                    v.trim()
                        .parse()
                        .map_err(|_| format!("--shard auto: {name}={v:?} is not a number"))
                })
                .transpose()
        };
        const SLURM: &str = "SLURM_ARRAY_TASK_ID";
        const K8S: &str = "JOB_COMPLETION_INDEX";
        let (index, from) = match (num(SLURM)?, num(K8S)?) {
            (Some(s), Some(k)) if s != k => {
                return Err(format!(
                    "--shard auto: {SLURM}={s} and {K8S}={k} disagree; unset the one that is not this task's"
                ));
            }
            (Some(s), _) => (s, SLURM),
            (None, Some(k)) => (k, K8S),
            (None, None) => return Err(format!("--shard auto: neither {SLURM} nor {K8S} is set")),
        };
        let slurm_rule = "Slurm arrays must be numbered 0..N-1 (e.g. --array=0-7)";
        if from == SLURM
            && let Some(min) = num("SLURM_ARRAY_TASK_MIN")?.filter(|&m| m != 0)
        {
            return Err(format!("--shard auto: SLURM_ARRAY_TASK_MIN={min}: {slurm_rule}"));
        }
        let mut counts = flag_count
            .map(|n| (format!("--shard-count {n}"), n))
            .into_iter()
            .collect::<Vec<_>>();
        for name in ["MARBLES_SHARD_COUNT", "SLURM_ARRAY_TASK_COUNT"] {
            if let Some(n) = num(name)? {
                counts.push((format!("{name}={n}"), n));
            }
        }
        if let Some(((a, _), (b, _))) = counts.split_first().and_then(|(first, rest)| {
            rest.iter()
                .find(|(_, n)| *n != first.1)
                .map(|other| (first, other))
        }) {
            return Err(format!("--shard auto: {a} and {b} disagree on the shard count"));
        }
        let Some(&(_, count)) = counts.first() else {
            return Err(match from {
                SLURM => format!(
                    "--shard auto: {SLURM} is set but not SLURM_ARRAY_TASK_COUNT (or give --shard-count)"
                ),
                _ => format!(
                    "--shard auto: {K8S} is set; give the completions count with --shard-count or MARBLES_SHARD_COUNT"
                ),
            });
        };
        Self::new(index, count).map_err(|why| match from {
            SLURM if index >= count => {
                format!("--shard auto: {SLURM}={index} is not below the count {count}: {slurm_rule}")
            }
            _ if index >= count && count <= MAX_SHARDS => {
                format!("--shard auto: {from}={index} is not below the count {count}")
            }
            _ => format!("--shard auto: {why}"),
        })
    }

    /// The shard of `count` that owns `rel`: jump consistent hashing (Lamping and Veach) keyed
    /// by the path's SHA-256, O(log N) per file. A file's shard depends on nothing but its own
    /// path, so adding a file moves no other file; going from N to N+1 shards moves about
    /// 1/(N+1) of them.
    pub fn owner(rel: &str, count: u32) -> u32 {
        let d = Sha256::digest(rel.as_bytes());
        let mut top = [0u8; 8];
        top.copy_from_slice(&d[..8]);
        let mut key = u64::from_be_bytes(top);
        let (mut b, mut j) = (0i64, 0i64);
        while j < i64::from(count) {
            b = j;
            key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
            j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
        }
        b as u32
    }

    /// Whether this shard owns `rel`.
    pub fn owns(&self, rel: &str) -> bool {
        Self::owner(rel, self.count) == self.index
    }

    /// The results file's name, `shard-K-of-N.json`.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.json", self.index, self.count)
    }
}

/// Whether `name` is named like a results file, `shard-*-of-*.json`: what `merge` takes from
/// a shard's report folder (the file itself says which shard it is).
pub fn is_results_name(name: &str) -> bool {
    name.strip_prefix("shard-")
        .and_then(|rest| rest.strip_suffix(".json"))
        .is_some_and(|middle| middle.contains("-of-"))
}

/// A puzzle's path relative to whichever of `roots` holds it, with `/` separators, so every
/// machine hashes the same string.
pub fn relative(path: &Path, roots: &[PathBuf]) -> String {
    let rel = roots
        .iter()
        .find_map(|r| path.strip_prefix(r).ok().filter(|p| !p.as_os_str().is_empty()))
        .unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Each of `puzzles`' paths relative to its folder ([`relative`]), in order, or, naming
/// both, two files of different folders that share one: shards know a file by that path
/// alone, so `merge` could not tell them apart.
pub fn relatives(shard: Shard, puzzles: &[PathBuf], roots: &[PathBuf]) -> Result<Vec<String>, String> {
    let rels: Vec<String> = puzzles.iter().map(|p| relative(p, roots)).collect();
    let mut first: HashMap<&str, &Path> = HashMap::new();
    for (rel, path) in rels.iter().zip(puzzles) {
        if let Some(other) = first.insert(rel, path) {
            return Err(format!(
                "--shard {shard}: {} and {} are both {rel} relative to their folders, the path that \
                 names a file to every shard; shard each folder on its own, or rename one",
                other.display(),
                path.display()
            ));
        }
    }
    Ok(rels)
}

/// The solving options in force that differ from the defaults, each as the flag that asks
/// for it (`--max-nodes 100`), to compare between runs and name in a refusal. The memory
/// default is left out: it follows each machine's size, not what the user asked.
pub fn options_in_force(opts: &Options) -> Vec<String> {
    let script = ScriptLimits::default();
    let mut flags = Vec::new();
    let mut flag = |on: bool, text: String| on.then(|| flags.push(text));
    let limits = &opts.limits;
    flag(
        limits.timeout.is_some(),
        format!("--timeout {}", limits.timeout.unwrap_or_default().as_secs_f64()),
    );
    flag(
        limits.max_nodes.is_some(),
        format!("--max-nodes {}", limits.max_nodes.unwrap_or_default()),
    );
    flag(
        limits.max_memory.is_some(),
        format!("--max-memory {}B", limits.max_memory.unwrap_or_default()),
    );
    // The project's `[limits]` (marbles.toml) hold where neither flag nor puzzle sets one.
    let project = &opts.project;
    flag(
        project.timeout.is_some(),
        format!(
            "limits.timeout = {} (marbles.toml)",
            project.timeout.unwrap_or_default().as_secs_f64()
        ),
    );
    flag(
        project.max_nodes.is_some(),
        format!(
            "limits.max_nodes = {} (marbles.toml)",
            project.max_nodes.unwrap_or_default()
        ),
    );
    flag(
        project.max_memory.is_some(),
        format!(
            "limits.max_memory = {}B (marbles.toml)",
            project.max_memory.unwrap_or_default()
        ),
    );
    flag(opts.fewest, "--fewest".into());
    flag(opts.fewest_moves, "--fewest-moves".into());
    flag(
        opts.order != MoveOrder::Script,
        match &opts.order {
            MoveOrder::Shuffle(seed) => format!("--shuffle --seed {seed}"),
            MoveOrder::Directions(names) => format!("--order {}", names.join(",")),
            _ => "--order reverse".into(),
        },
    );
    let s = &opts.script;
    flag(
        s.max_operations != script.max_operations,
        format!("--script-ops {}", s.max_operations),
    );
    flag(
        s.timeout != script.timeout,
        format!("--script-timeout {}", s.timeout.as_secs_f64()),
    );
    // Limits no flag sets: named by field, should a build ever differ.
    flag(
        ScriptLimits {
            max_operations: script.max_operations,
            timeout: script.timeout,
            ..s.clone()
        } != script,
        format!("script limits {s:?}"),
    );
    flags
}

/// The options a replay of results made under `flags` ([`options_in_force`]) needs: the goals
/// the flags set (`--fewest`, `--fewest-moves`) and the script limits the boards were built
/// under. Limits and move order change how an answer is found, not what its moves do.
pub fn replay_options(flags: &[String]) -> Options {
    let value = |name: &str| {
        flags
            .iter()
            .find_map(|f| f.strip_prefix(name)?.strip_prefix(' ')?.parse::<f64>().ok())
    };
    let mut script = ScriptLimits::default();
    if let Some(ops) = value("--script-ops") {
        script.max_operations = ops as u64;
    }
    if let Some(secs) = value("--script-timeout").and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
    {
        script.timeout = secs;
    }
    Options {
        fewest: flags.iter().any(|f| f == "--fewest"),
        fewest_moves: flags.iter().any(|f| f == "--fewest-moves"),
        script,
        ..Options::default()
    }
}

/// How two lists of [`options_in_force`] differ, as "with --max-nodes 100, … without": every
/// option one lacks or has otherwise (a flag and a project limit for the same thing are two),
/// in `ours`' words then `theirs'`.
pub fn options_differ(ours: &[String], theirs: &[String]) -> Option<(String, String)> {
    let name = |o: &String| o.split(' ').next().unwrap_or_default().to_string();
    let find = |list: &[String], n: &str| list.iter().find(|o| name(o) == n).cloned();
    let mut seen = std::collections::HashSet::new();
    let names: Vec<String> = ours
        .iter()
        .chain(theirs)
        .map(name)
        .filter(|n| seen.insert(n.clone()))
        .collect();
    let (mut a_said, mut b_said) = (Vec::new(), Vec::new());
    for n in names.iter().filter(|n| find(ours, n) != find(theirs, n)) {
        let say = |o: Option<String>| o.map_or_else(|| format!("without {n}"), |o| format!("with {o}"));
        a_said.push(say(find(ours, n)));
        b_said.push(say(find(theirs, n)));
    }
    (!a_said.is_empty()).then(|| (a_said.join(" and "), b_said.join(" and ")))
}

/// What one shard leaves behind: enough to check a set of them and merge it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Results {
    /// SHA-256 of the file as written without this line ([`Results::seal`]): an edit after
    /// marbles wrote it (a status changed, a result removed or copied) no longer matches.
    pub sha256: String,
    pub marbles_version: String,
    /// The folders walked, as given.
    pub folders: Vec<String>,
    pub shard: Shard,
    /// [`options_in_force`].
    pub options: Vec<String>,
    /// How many puzzle files the whole folder held when this shard listed it, and the SHA-256
    /// of their sorted relative paths ([`listing_hash`]): shards that saw different folders
    /// do not make one batch.
    pub folder_files: usize,
    pub folder_sha256: String,
    /// Files this shard owned, relative to their folder.
    pub files: Vec<String>,
    /// The folders the walk could not enter, each with why (every shard walks the whole
    /// folder, so each lists the same): merge reports them as a single run does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unwalked: Vec<(String, String)>,
    /// Each outcome carries its spec and script hashes.
    pub results: Vec<Outcome>,
}

/// The SHA-256 of a folder listing: the relative paths, sorted, one a line.
pub fn listing_hash(rels: &[String]) -> String {
    let mut sorted: Vec<&str> = rels.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    crate::fingerprint::hash(&(sorted.join("\n") + "\n"))
}

/// The longest path a result may name (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;

/// How the seal line starts in the pretty-printed file: the first top-level field.
const SEAL_LINE: &str = "\n  \"sha256\": \"";

/// The SHA-256 of `text` without its seal line, or `None` when it has none. Hashed in two
/// parts: a shard of 50,000 small results is 226 MB of text, copied three times to seal it.
fn unsealed_hash(text: &str) -> Option<String> {
    let start = text.find(SEAL_LINE)? + 1;
    let end = start + text[start..].find('\n')? + 1;
    Some(crate::fingerprint::hash_parts(&[
        &text.as_bytes()[..start],
        &text.as_bytes()[end..],
    ]))
}

impl Results {
    /// The results file's text, sealed with the SHA-256 of the rest of it. The results are
    /// dropped once written out, and the seal is set in place.
    pub fn seal(mut self) -> serde_json::Result<String> {
        self.sha256 = String::new();
        let mut text = serde_json::to_string_pretty(&self)?;
        drop(self);
        text.push('\n');
        let digest = unsealed_hash(&text).expect("the seal line is the first field");
        let at = text.find(SEAL_LINE).expect("the seal line is the first field") + SEAL_LINE.len();
        text.insert_str(at, &digest);
        Ok(text)
    }

    /// Reads a results file `name`, refusing one that is not whole: a file of its shard with
    /// no result (or a YAML file with several), a result for a file not its shard's, or any
    /// edit since marbles sealed it.
    /// Reading it may take at most `limit` bytes, where the files read before it hold `held`
    /// of them (its text not among them).
    pub fn open(name: &str, text: &str, (limit, held): (u64, u64)) -> Result<Self, String> {
        let not_ours = |e: String| format!("{name}: not a marbles shard results file: {e}");
        // The seal first: a file changed since marbles wrote it is refused before it is read.
        let hash = unsealed_hash(text);
        if sealed_as(text).is_some_and(|sealed| hash.as_deref() != Some(sealed)) {
            return Err(changed(name, shard_named(text)));
        }
        // Reading a value may cost several times its text (serde holds some parts whole while
        // it tells which kind of record they are): measured first, without keeping anything.
        let room = limit.saturating_sub(held).saturating_sub(text.len() as u64);
        match crate::spec::expansion::json_cost(text, BYTES_A_VALUE, room) {
            Ok(()) => {}
            Err(Some(e)) => return Err(not_ours(e)),
            Err(None) => {
                let before = match held {
                    0 => String::new(),
                    held => format!(
                        " with the {} the files before it hold",
                        crate::process::human_bytes(held)
                    ),
                };
                return Err(format!(
                    "{name}: reading its {} could take more than the memory limit, {}{before} (its text, and {BYTES_A_VALUE} bytes a JSON value in it, where marbles writes a value in some 17 bytes): not a results file marbles wrote, or too large for this machine; split the batch into more shards",
                    crate::process::human_bytes(text.len() as u64),
                    crate::process::human_bytes(limit),
                ));
            }
        }
        let r: Results = serde_json::from_str(text).map_err(|e| not_ours(e.to_string()))?;
        Shard::new(r.shard.index, r.shard.count).map_err(|why| format!("{name}: {why}"))?;
        let roots: Vec<PathBuf> = r.folders.iter().map(PathBuf::from).collect();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let files: HashSet<&str> = r.files.iter().map(String::as_str).collect();
        for o in &r.results {
            // Names are shown in every report: longer than a puzzle may give, they would
            // multiply a forged file's size in memory and on disk.
            if o.puzzle.chars().count() > crate::limits::MAX_NAME_CHARS || o.file.len() > MAX_PATH_BYTES {
                return Err(format!(
                    "{name}: a result names a puzzle or file longer than marbles allows ({} characters, {MAX_PATH_BYTES} bytes): it was changed after marbles wrote it; rerun shard {} to make it again",
                    crate::limits::MAX_NAME_CHARS,
                    r.shard
                ));
            }
            if o.replay.as_ref().is_some_and(|r| !r.fits(o.moves.steps.len())) {
                return Err(format!(
                    "{name}: the boards of the result for {} ({}) are not those of its {}: it was changed after marbles wrote it; rerun shard {} to make it again",
                    o.file,
                    o.puzzle,
                    crate::diag::plural(o.moves.steps.len(), if o.moves.hop { "jump" } else { "move" }),
                    r.shard
                ));
            }
            // Merge reads each result's file to replay it, and reports it by its path: one
            // outside the folders the shard walked is none of its files, whatever its path
            // relative to them reads as, and one of them is spelt as the walk spells it
            // (`set/./a.yaml` would be published as it stands).
            let rel = relative(Path::new(&o.file), &roots);
            let walked = |f: &&&str| {
                roots.iter().any(|r| {
                    let path = match Path::new(&o.file) == r.as_path() {
                        true => r.clone(),
                        false => r.join(f),
                    };
                    path.to_str() == Some(o.file.as_str())
                })
            };
            match files.get(rel.as_str()).filter(walked) {
                Some(f) => *seen.entry(*f).or_default() += 1,
                None => {
                    return Err(format!(
                        "{name}: the result for {} ({}) is not for a file of shard {}",
                        o.file, o.puzzle, r.shard
                    ));
                }
            };
        }
        for f in &r.files {
            let notation = Notation::of(Path::new(f), None);
            match seen.get(f.as_str()).copied().unwrap_or(0) {
                0 => {
                    return Err(format!(
                        "{name}: shard {} owns {f} but holds no result for it",
                        r.shard
                    ));
                }
                // A file of one puzzle (YAML) holds one result.
                n if n > 1 && notation.several.is_none() => {
                    return Err(format!(
                        "{name}: shard {} holds {n} results for {f}, a {} file of one puzzle",
                        r.shard, notation.label
                    ));
                }
                _ => {}
            }
        }
        if hash.as_deref() != Some(r.sha256.as_str()) {
            return Err(changed(name, Some(r.shard)));
        }
        Ok(r)
    }
}

/// What reading a JSON value into a results file's records may allocate at most, beside its
/// text: serde's buffer of one value is 32 bytes, room for twice that as its lists grow.
const BYTES_A_VALUE: u64 = 64;

/// The seal a results file's text states, read from its seal line without parsing it.
fn sealed_as(text: &str) -> Option<&str> {
    let at = text.find(SEAL_LINE)? + SEAL_LINE.len();
    let len = text[at..].find('"')?;
    Some(&text[at..at + len])
}

/// The shard a results file's text names, read without keeping anything else.
fn shard_named(text: &str) -> Option<Shard> {
    #[derive(Deserialize)]
    struct Head {
        shard: Shard,
    }
    serde_json::from_str::<Head>(text).ok().map(|h| h.shard)
}

/// The refusal of a results file changed after marbles sealed it, naming its shard when
/// known.
fn changed(name: &str, shard: Option<Shard>) -> String {
    let shard = shard.map_or_else(|| "its shard".to_string(), |s| format!("shard {s}"));
    format!(
        "{name} was changed after marbles wrote it (its sha256 no longer matches); rerun {shard} to make it again"
    )
}

/// A `--shard` as given: a fixed share, or `auto` to ask the scheduler's variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Fixed(Shard),
    Auto,
}

impl Choice {
    /// Reads `K/N` or `auto` (clap's value parser).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "auto" {
            Ok(Choice::Auto)
        } else {
            Shard::parse(text).map(Choice::Fixed)
        }
    }

    /// The shard itself, from the process's environment for `auto`, with `--shard-count`
    /// if given: it belongs to `auto` alone.
    pub fn resolve(self, count: Option<u32>) -> Result<Shard, String> {
        match (self, count) {
            (Choice::Fixed(s), Some(n)) => Err(format!(
                "--shard-count {n} goes with --shard auto only; --shard {s} gives the count itself"
            )),
            (Choice::Fixed(s), None) => Ok(s),
            (Choice::Auto, count) => Shard::auto(|k| std::env::var(k).ok(), count),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_files_are_named_shard_k_of_n_json() {
        let s = Shard { index: 3, count: 8 };
        assert!(is_results_name(&s.file_name()));
        for other in [
            "summary.json",
            "shard-3-of-8.json.tmp",
            ".shard-3-of-8.json.7.tmp",
            "shard-of-8.json",
        ] {
            assert!(!is_results_name(other), "{other}");
        }
    }
}
