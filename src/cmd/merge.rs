//! `marbles merge`: check that shard results files form one whole batch, then write the
//! reports a single run would have written.

use super::{Error, ExitCode};
use crate::batch::journal;
use crate::batch::shard::Results;
use crate::outcome::Outcome;
use crate::report::{self, Summary};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

/// A shard's results file holds whole outcomes (boards, moves); 1 GiB is far past any real one
/// and keeps a wrong path (a device, `/proc` file) from being read without end.
const MAX_SHARD_BYTES: u64 = 1 << 30;

/// The shard files to merge and where the reports go.
#[derive(Debug, Clone)]
pub struct Config {
    pub files: Vec<PathBuf>,
    pub summary: Summary,
    pub report: PathBuf,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let mut shards = Vec::new();
    for f in &config.files {
        let text = crate::io_limits::read_at_most(f, MAX_SHARD_BYTES)
            .map_err(|e| Error::Usage(format!("cannot read {}: {e}", f.display())))?
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{}: larger than {} MiB, not a shard results file marbles wrote",
                    f.display(),
                    MAX_SHARD_BYTES >> 20
                ))
            })?;
        let r: Results = serde_json::from_slice(&text)
            .map_err(|e| Error::Usage(format!("{}: not a marbles shard results file: {e}", f.display())))?;
        shards.push((f.display().to_string(), r));
    }
    let outcomes = check(&shards).map_err(Error::Usage)?;
    // Held like a batch holds it: a batch writing the same folder must not interleave with us.
    let _lock = crate::batch::lock::acquire(&config.report)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(report::summary(config.summary, &outcomes)?.as_bytes())?;
    stdout.flush()?;
    journal::write_reports(&config.report, &outcomes)?;
    Ok(ExitCode::of(&outcomes))
}

/// The outcomes of a complete, consistent set of shards in a single run's order, or what is
/// wrong with the set and which shard is at fault.
fn check(shards: &[(String, Results)]) -> Result<Vec<Outcome>, String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shard results files given".into());
    };
    let mut by_index: HashMap<u32, &str> = HashMap::new();
    let mut owner: HashMap<&str, &str> = HashMap::new();
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
        if r.options != first.options {
            return Err(differs("options", &r.options, &first.options));
        }
        if r.folders != first.folders {
            return Err(differs(
                "folders",
                &r.folders.join(", "),
                &first.folders.join(", "),
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
            return Err(format!("{name} and {other} are both shard {}", r.shard));
        }
        for f in &r.files {
            if let Some(other) = owner.insert(f, name) {
                return Err(format!("{f} is in both {other} and {name} (shard {})", r.shard));
            }
        }
    }
    let missing: Vec<String> = (0..first.shard.count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{}", first.shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(format!("incomplete: shard {} missing", missing.join(", ")));
    }
    let mut outcomes: Vec<Outcome> = shards.iter().flat_map(|(_, r)| r.results.clone()).collect();
    // A single run reports files in path order, each file's puzzles in their own order.
    outcomes.sort_by(|a, b| PathBuf::from(&a.file).cmp(&PathBuf::from(&b.file)));
    Ok(outcomes)
}
