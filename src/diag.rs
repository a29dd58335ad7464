//! Located diagnostics: every user-facing error names the file, and the line and column where known;
//! and the word helpers (suggestions, lists) that messages and help share.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error a user can act on: what went wrong, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// 1-based column, when the problem has one.
    pub column: Option<usize>,
    pub message: String,
    /// What a rule script printed (`print`/`debug`) before failing, and where the script is:
    /// not part of the message, so commands that show script output can show it first.
    pub printed: Option<Box<Printed>>,
    /// Where no fault of the file's but a limit of the run's stopped it (a rule script held to
    /// `--max-memory`): the puzzle gave up, for this reason.
    pub gave_up: Option<Box<crate::search::GaveUp>>,
    /// The puzzle it stopped (a give-up: its name and its `expect:`), or the case of a file of
    /// several it is the error of (its name): for its outcome's row.
    pub puzzle: Option<Box<Case>>,
    /// Found after a file's every case was read (an `expect:` comment below the last): the
    /// fault is the file's, and it holds no case's place among answers of a line each.
    pub after_the_cases: bool,
}

/// The puzzle a [`Diagnostic`] is of, for its outcome's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    /// Its `expect:`, where it gave up (an error holds no expectation).
    pub expect: Option<crate::spec::Expect>,
    /// Its rule family and the script's path, once its script was found.
    pub rules: Option<(String, String)>,
}

/// A message longer than this many bytes is cut in its middle: one quoting a whole token
/// of the file (a 500 KB number) was a line as long on stderr and in every report.
const MAX_MESSAGE_BYTES: usize = 4096;

/// `message` whole, or its head and its tail (where the advice is) around what was cut.
fn bounded_message(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let at = |i: usize| (0..=i).rev().find(|&j| message.is_char_boundary(j)).unwrap_or(0);
    let head = at(MAX_MESSAGE_BYTES - 1024);
    let tail = at(message.len() - 512);
    format!(
        "{} … ({} bytes cut) … {}",
        &message[..head],
        tail - head,
        &message[tail..]
    )
}

/// What a rule script printed before an error: its lines, shown after the script's path
/// (which is not the error's file where the fault is the puzzle's, a board its lattice does
/// not fit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Printed {
    pub by: PathBuf,
    pub lines: Vec<String>,
}

impl Diagnostic {
    pub fn new(file: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.as_ref().to_path_buf(),
            line: None,
            column: None,
            message: bounded_message(message.into()),
            printed: None,
            gave_up: None,
            puzzle: None,
            after_the_cases: false,
        }
    }

    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> Self {
        self.line = line;
        self.column = column.filter(|_| line.is_some());
        self
    }

    /// This error as the puzzle giving up, stopped by `why`.
    pub fn gave_up(mut self, why: crate::search::GaveUp) -> Self {
        self.gave_up = Some(Box::new(why));
        self
    }

    /// A give-up, of the puzzle `spec`: its outcome keeps the puzzle's name and expectation.
    pub fn stopping(mut self, spec: &crate::spec::Spec) -> Self {
        if self.gave_up.is_some() {
            self.puzzle = Some(Box::new(Case {
                name: spec.name.clone(),
                expect: spec.expect,
                rules: None,
            }));
        }
        self
    }

    /// The error of the puzzle called `name` (a case of a file of several, or a puzzle read
    /// whole whose rules or board failed): its row is named so, not by its file's stem.
    pub fn of_case(mut self, name: &str) -> Self {
        if self.puzzle.is_none() {
            self.puzzle = Some(Box::new(Case {
                name: name.to_string(),
                expect: None,
                rules: None,
            }));
        }
        self
    }

    /// The error of a puzzle ([`Diagnostic::of_case`]) of the rule family `rules`, whose
    /// script is at `script`.
    pub fn of_family(mut self, rules: &str, script: &Path) -> Self {
        if let Some(case) = &mut self.puzzle {
            case.rules = Some((rules.into(), script.display().to_string()));
        }
        self
    }

    /// This error with what the script at `by` printed before it.
    pub fn printed(mut self, by: &Path, lines: Vec<String>) -> Self {
        self.printed = (!lines.is_empty()).then(|| {
            Box::new(Printed {
                by: by.to_path_buf(),
                lines,
            })
        });
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Diagnostic {}

pub type Result<T> = std::result::Result<T, Diagnostic>;

/// `"did you mean `goal`? "` when one of `known` is a few edits from `word`, else nothing.
pub fn did_you_mean<S: AsRef<str>>(word: &str, known: &[S]) -> String {
    known
        .iter()
        .map(|k| (strsim::levenshtein(k.as_ref(), word), k.as_ref()))
        .min()
        .filter(|(d, _)| *d <= 3.max(word.len() / 3))
        .map(|(_, k)| format!("did you mean `{k}`? "))
        .unwrap_or_default()
}

/// For a path that does not exist, `did you mean `NAME`? ` naming the nearest name in its
/// folder, else nothing.
pub fn near_name(path: &std::path::Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    near_name_in(parent_of(path), name)
}

/// The folder `path` is in: `.` for a bare name.
pub fn parent_of(path: &std::path::Path) -> &std::path::Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    }
}

/// `did you mean `NAME`? ` naming the name in the folder `dir` nearest `name`, else nothing.
pub fn near_name_in(dir: &std::path::Path, name: &str) -> String {
    let near: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    did_you_mean(name, &near)
}

/// serde's "expected u64" (`usize`, `u32`) as a reader of the file would say it: "expected
/// a whole number".
pub fn whole_numbers(message: &str) -> String {
    ["u64", "usize", "u32"].iter().fold(message.to_string(), |m, t| {
        m.replace(&format!("expected {t}"), "expected a whole number")
    })
}

/// serde's "… unknown field `key`, expected one of `a`, `b`, …": what comes before it, the
/// key, and the keys it knows.
pub fn unknown_field(message: &str) -> Option<(&str, &str, Vec<&str>)> {
    let (head, rest) = message.split_once("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    Some((head, key, rest.split('`').skip(1).step_by(2).collect()))
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
pub fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    (
        line,
        before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
    )
}

/// `n` and a noun, the noun with an `s` unless `n` is 1: "1 error", "2 errors".
pub fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Words listed in a sentence, the last two joined by `last` ("or", "and"): `a`, `a or b`,
/// `a, b or c`. Messages and help that name every notation or format build their lists here.
pub fn listed<S: AsRef<str>>(words: &[S], last: &str) -> String {
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    match words.split_last() {
        None => String::new(),
        Some((only, [])) => only.to_string(),
        Some((end, rest)) => format!("{} {last} {end}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_includes_only_known_parts() {
        let d = Diagnostic::new("a.yaml", "bad").at(Some(3), Some(7));
        assert_eq!(d.to_string(), "a.yaml:3:7: bad");
        let d = Diagnostic::new("a.yaml", "bad").at(None, Some(7));
        assert_eq!(d.to_string(), "a.yaml: bad");
    }

    #[test]
    fn lists_words_as_a_sentence() {
        assert_eq!(listed::<&str>(&[], "or"), "");
        assert_eq!(listed(&["text"], "or"), "text");
        assert_eq!(listed(&["text", "json"], "and"), "text and json");
        assert_eq!(listed(&["text", "json", "icpc"], "or"), "text, json or icpc");
    }

    #[test]
    fn suggests_only_near_words() {
        assert_eq!(did_you_mean("gaol", &["kind", "goal"]), "did you mean `goal`? ");
        assert_eq!(did_you_mean("colour", &["kind", "goal"]), "");
    }

    #[test]
    fn a_message_quoting_a_huge_token_keeps_its_head_and_its_advice() {
        let token = "é".repeat(250_000);
        let long = format!("found `{token}`: write 1, 0 or -1");
        let d = Diagnostic::new("m.matrix", long.clone());
        assert!(d.message.len() <= MAX_MESSAGE_BYTES + 40, "{}", d.message.len());
        assert!(d.message.starts_with("found `éé"), "{}", &d.message[..20]);
        assert!(d.message.ends_with("éé`: write 1, 0 or -1"));
        // What is kept and what is said to be cut add up to the whole.
        let (head, rest) = d.message.split_once(" … (").unwrap();
        let (n, tail) = rest.split_once(" bytes cut) … ").unwrap();
        assert_eq!(head.len() + n.parse::<usize>().unwrap() + tail.len(), long.len());
        // A short one is kept whole.
        assert_eq!(Diagnostic::new("p.yaml", "no board").message, "no board");
    }
}
