//! `marbles.toml`: a project's defaults (limits, jobs, report folder, rule folders), read from
//! the folder that marks the project's boundary. Flags override it; a puzzle's own `solve:`
//! limits override its limits.

use crate::diag::{Diagnostic, Result};
use crate::spec::ByteSize;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file's name.
pub const FILE: &str = "marbles.toml";

/// What a `marbles.toml` says; every key may be left out.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    /// Puzzles a batch solves at once.
    pub jobs: Option<usize>,
    /// A batch's report folder (relative paths are read from the file's folder).
    pub report: Option<PathBuf>,
    /// Folders searched for `NAME.rhai` after the `rules/` folders on the way up to the file
    /// (relative paths are read from the file's folder).
    #[serde(default)]
    pub rules: Vec<PathBuf>,
    #[serde(default)]
    pub limits: ProjectLimits,
}

/// `[limits]`: the defaults for each puzzle.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectLimits {
    /// Seconds, or a time such as `10s`, `2min`.
    #[serde(default, deserialize_with = "crate::spec::seconds_field")]
    pub timeout: Option<f64>,
    pub max_nodes: Option<u64>,
    /// Bytes, or a size such as `512MB`.
    pub max_memory: Option<ByteSize>,
    /// A rule script's operations.
    pub script_ops: Option<u64>,
    /// A rule script's seconds.
    #[serde(default, deserialize_with = "crate::spec::seconds_field")]
    pub script_timeout: Option<f64>,
}

/// A `marbles.toml` read, and where it was.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// The file; `None` when there is none.
    pub path: Option<PathBuf>,
    pub project: Project,
}

impl Found {
    /// The report folder it names, read from the file's folder.
    pub fn report(&self) -> Option<PathBuf> {
        let dir = self.path.as_deref()?.parent()?;
        self.project.report.as_ref().map(|r| dir.join(r))
    }
}

/// The `marbles.toml` of the project `dir` is in: the first one in `dir` or above it, unless
/// a folder holding `.git` comes first (that is the boundary, and it has none).
pub fn find(dir: &Path) -> Result<Found> {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    for a in dir.ancestors() {
        let file = a.join(FILE);
        if file.exists() {
            let shown = file.strip_prefix(&dir).map_or(file.clone(), Path::to_path_buf);
            return Ok(Found {
                project: load(&shown)?,
                path: Some(shown),
            });
        }
        if a.join(".git").exists() {
            break;
        }
    }
    Ok(Found::default())
}

/// The rule folders a boundary's `marbles.toml` names, read from its folder (`shown` as a
/// message names it); none when the file is absent. A file that cannot be read is its error:
/// a puzzle in another project than the one a command runs in looks its scripts up there.
pub fn rule_folders(boundary: &Path, shown: &Path) -> Result<Vec<PathBuf>> {
    let file = boundary.join(FILE);
    if !file.is_file() {
        return Ok(Vec::new());
    }
    // `shown` names the same file (relative to where marbles runs, or whole).
    let p = load(shown)?;
    Ok(p.rules.iter().map(|r| boundary.join(r)).collect())
}

/// Reads and checks one `marbles.toml`: TOML, the keys above, values in range.
pub fn load(path: &Path) -> Result<Project> {
    let text = crate::spec::read_text(path)?;
    parse(path, &text)
}

/// [`load`] on text already read.
pub fn parse(path: &Path, text: &str) -> Result<Project> {
    let project: Project = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| crate::diag::line_and_column(text, s.start).0);
        // A value of the wrong type is told with its key, read off the line that sets it.
        let key = line
            .and_then(|n| text.lines().nth(n - 1))
            .and_then(|l| l.split_once('='))
            .map(|(k, _)| k.trim())
            .filter(|k| {
                let said = e.message();
                !k.is_empty() && (said.starts_with("invalid ") || said.starts_with("duplicate key"))
            });
        let message = worded(e.message());
        let message = match key {
            Some(k) => format!("`{k}`: {message}"),
            None => message,
        };
        Diagnostic::new(path, message).at(line, None)
    })?;
    let limits = &project.limits;
    let bad = |key: &str, why: String| {
        Diagnostic::new(path, format!("`{key}`: {why}")).at(key_line(text, key), None)
    };
    if let Some(v) = limits.timeout {
        crate::limits::seconds(v).map_err(|why| bad("timeout", why))?;
    }
    if let Some(v) = limits.script_timeout {
        crate::limits::script_seconds(v).map_err(|why| bad("script_timeout", why))?;
    }
    // A mistyped rule folder would quietly leave its families to the built-in scripts.
    let here = path.parent().unwrap_or(Path::new(""));
    if let Some(r) = project.rules.iter().find(|r| !here.join(r).is_dir()) {
        return Err(bad(
            "rules",
            match here.as_os_str().is_empty() {
                true => format!("no folder `{}`: name folders that hold rule scripts", r.display()),
                false => format!(
                    "no folder `{}` (looked for at {}): name folders that hold rule scripts",
                    r.display(),
                    here.join(r).display()
                ),
            },
        ));
    }
    if project.jobs == Some(0) {
        return Err(bad("jobs", "must be at least 1".into()));
    }
    // `report = ""` (or ".") is the project's own folder: reports would be written among the
    // puzzles and scripts, each run replacing its files there.
    if let Some(r) = &project.report
        && r.components().all(|c| c == std::path::Component::CurDir)
    {
        return Err(bad(
            "report",
            format!(
                "{} is the project's own folder: name a folder for the reports, e.g. `report = \"reports\"`",
                match r.as_os_str().is_empty() {
                    true => "an empty path".to_string(),
                    false => format!("`{}`", r.display()),
                }
            ),
        ));
    }
    if limits.script_ops == Some(0) {
        return Err(bad(
            "script_ops",
            "must be at least 1 (0 would mean no limit)".into(),
        ));
    }
    Ok(project)
}

/// The keys of `[limits]` ([`ProjectLimits`]).
const LIMIT_KEYS: [&str; 5] = [
    "timeout",
    "max_nodes",
    "max_memory",
    "script_ops",
    "script_timeout",
];

/// serde's words for a key it does not know, made a suggestion: "unknown key `timout`: did
/// you mean `timeout`? (known: …)".
fn worded(message: &str) -> String {
    let message = message.trim();
    let Some((_, key, known)) = crate::diag::unknown_field(message) else {
        // Rust's names for numbers mean nothing to a reader of the file.
        let message = match message.contains(" as i128") {
            // A number past 64 bits: TOML reads it as Rust's widest integer.
            true => message
                .replace("invalid type: ", "")
                .replace(" as i128", " is too large"),
            false => message.to_string(),
        };
        let message = message
            .replace("expected path string", "expected a path in quotes")
            .replace(
                "expected a sequence",
                "expected a list in brackets, such as [\"my_rules\"]",
            );
        return crate::diag::whole_numbers(&message);
    };
    // A limit written above `[limits]` is no key of the file's top, and neither is a limit
    // misspelt there: its nearest key may be one of `[limits]`.
    let top = known.contains(&"limits");
    let below = "belongs in the `[limits]` table: write it below a line `[limits]`; ";
    let hint = match LIMIT_KEYS.contains(&key) && top {
        true => format!("`{key}` {below}"),
        false => {
            let limits = if top { &LIMIT_KEYS[..] } else { &[] };
            let near: Vec<&str> = known.iter().copied().chain(limits.iter().copied()).collect();
            let hint = crate::diag::did_you_mean(key, &near);
            match limits.iter().any(|k| hint.contains(&format!("`{k}`"))) {
                true => format!("{hint}it {below}"),
                false => hint,
            }
        }
    };
    let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    format!(
        "unknown key `{key}`: {hint}known keys here: {}",
        crate::diag::listed(&known, "and")
    )
}

/// The 1-based line that sets `key` (`key = …`), if one does.
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read() {
        let text = "jobs = 2\nreport = \"out\"\nrules = [\"src\"]\n[limits]\ntimeout = \"10s\"\n\
                    max_nodes = 5\nmax_memory = \"1MB\"\nscript_ops = 9\nscript_timeout = 3\n";
        let p = parse(Path::new(FILE), text).unwrap();
        assert_eq!(p.jobs, Some(2));
        assert_eq!(p.rules, [PathBuf::from("src")]);
        assert_eq!(p.limits.timeout, Some(10.0));
        assert_eq!(p.limits.max_memory, Some(ByteSize(1_000_000)));
        assert_eq!(p.limits.script_timeout, Some(3.0));
    }

    #[test]
    fn a_limit_above_its_table_and_a_key_set_twice_are_named() {
        let e = parse(Path::new(FILE), "timeout = 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "marbles.toml:1: unknown key `timeout`: `timeout` belongs in the `[limits]` table: \
             write it below a line `[limits]`; known keys here: `jobs`, `report`, `rules` and `limits`"
        );
        // Every one of LIMIT_KEYS is a key of `[limits]`.
        for key in LIMIT_KEYS {
            let text = format!("[limits]\n{key} = 3\n");
            assert!(parse(Path::new(FILE), &text).is_ok(), "{key}");
        }
        // A limit misspelt above its table is told both.
        let e = parse(Path::new(FILE), "timout = 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "marbles.toml:1: unknown key `timout`: did you mean `timeout`? it belongs in the \
             `[limits]` table: write it below a line `[limits]`; known keys here: `jobs`, \
             `report`, `rules` and `limits`"
        );
        let e = parse(Path::new(FILE), "jobs = 2\njobs = 2\n").unwrap_err();
        assert_eq!(e.to_string(), "marbles.toml:2: `jobs`: duplicate key");
    }

    #[test]
    fn unknown_keys_are_refused_with_a_suggestion() {
        let e = parse(Path::new(FILE), "[limits]\ntimout = 3\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(
            e.message
                .starts_with("unknown key `timout`: did you mean `timeout`? known keys here: `timeout`,"),
            "{}",
            e.message
        );
    }
}
