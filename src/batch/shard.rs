//! Sharded batches: which files a shard K of N owns (rendezvous hashing over SHA-256 of each
//! file's path relative to its folder), and the self-describing results file it leaves.

use crate::outcome::Outcome;
use crate::solve::Options;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

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
    /// Reads `K/N` (0 ≤ K < N).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("--shard {text:?}: expected K/N with 0 <= K < N, e.g. 0/4, or auto");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        Self::new(index, count).ok_or_else(bad)
    }

    fn new(index: u32, count: u32) -> Option<Self> {
        (count > 0 && index < count).then_some(Shard { index, count })
    }

    /// The shard a scheduler gives this task: Slurm's `SLURM_ARRAY_TASK_ID` and
    /// `SLURM_ARRAY_TASK_COUNT`, or Kubernetes' `JOB_COMPLETION_INDEX` with `count` (from
    /// `--shard-count` or `MARBLES_SHARD_COUNT`). `env` looks a variable up.
    pub fn auto(env: impl Fn(&str) -> Option<String>, count: Option<u32>) -> Result<Self, String> {
        let num = |name: &str| -> Result<Option<u32>, String> {
            env(name)
                .map(|v| {
                    v.trim()
                        .parse()
                        .map_err(|_| format!("{name}={v:?} is not a number"))
                })
                .transpose()
        };
        let count = match count {
            Some(c) => Some(c),
            None => num("MARBLES_SHARD_COUNT")?,
        };
        let (index, count, from) = if let Some(i) = num("SLURM_ARRAY_TASK_ID")? {
            let n = count.or(num("SLURM_ARRAY_TASK_COUNT")?).ok_or(
                "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT (or give --shard-count)",
            )?;
            (i, n, "SLURM_ARRAY_TASK_ID")
        } else if let Some(i) = num("JOB_COMPLETION_INDEX")? {
            let n = count.ok_or(
                "--shard auto: JOB_COMPLETION_INDEX is set; give the completions count with --shard-count or MARBLES_SHARD_COUNT",
            )?;
            (i, n, "JOB_COMPLETION_INDEX")
        } else {
            return Err("--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set".into());
        };
        Self::new(index, count)
            .ok_or_else(|| format!("--shard auto: {from}={index} is not below the count {count}"))
    }

    /// The shard of `count` that owns `rel`: the one scoring highest for it (rendezvous
    /// hashing), so adding a file or a shard moves few others.
    pub fn owner(rel: &str, count: u32) -> u32 {
        (0..count)
            .max_by_key(|i| {
                let d = Sha256::new()
                    .chain_update(i.to_le_bytes())
                    .chain_update(rel.as_bytes())
                    .finalize();
                let mut top = [0u8; 8];
                top.copy_from_slice(&d[..8]);
                u64::from_be_bytes(top)
            })
            .unwrap_or(0)
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

/// The solving options in force, as one line to compare between runs. The memory default
/// is left out: it follows each machine's size, not what the user asked.
pub fn options_in_force(opts: &Options) -> String {
    format!(
        "{:?}",
        Options {
            default_max_memory: None,
            ..opts.clone()
        }
    )
}

/// What one shard leaves behind: enough to check a set of them and merge it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Results {
    pub marbles_version: String,
    /// The folders walked, as given.
    pub folders: Vec<String>,
    pub shard: Shard,
    /// [`options_in_force`].
    pub options: String,
    /// Files this shard owned, relative to their folder.
    pub files: Vec<String>,
    /// Each outcome carries its spec and script hashes.
    pub results: Vec<Outcome>,
}

/// A `--shard` as given: a fixed share, or `auto` to ask the scheduler's variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Fixed(Shard),
    /// `--shard auto`, with `--shard-count` if given.
    Auto(Option<u32>),
}

impl Choice {
    /// Reads `K/N` or `auto` (clap's value parser).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "auto" {
            Ok(Choice::Auto(None))
        } else {
            Shard::parse(text).map(Choice::Fixed)
        }
    }

    /// The shard itself, from the process's environment for `auto`.
    pub fn resolve(self) -> Result<Shard, String> {
        match self {
            Choice::Fixed(s) => Ok(s),
            Choice::Auto(count) => Shard::auto(|k| std::env::var(k).ok(), count),
        }
    }
}
