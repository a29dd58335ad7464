//! `junit.xml`: the batch as JUnit XML, the report CI dashboards read: one `testcase` a puzzle
//! (its file as the class, its name, its time), a `failure` for one that did not pass (given up,
//! unsolvable stating no `expect:`, an answer not as expected), an `error` for bad input.

use super::{Finished, Format, note};
use crate::outcome::{Outcome, Status};
use std::fmt::Write as _;

pub struct Junit;

/// `s` as XML text or an attribute value: escaped as for HTML, and characters XML 1.0 cannot
/// hold at all (control characters but tab and line breaks) written as `?`.
fn xml(s: &str) -> String {
    let held: String = s
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => '?',
            c => c,
        })
        .collect();
    super::html::escape(&held)
}

/// What a testcase holds when it did not pass: its element (`failure`, `error` or
/// `skipped`), the element's type and why.
type Verdict = (&'static str, &'static str, String);

/// One `testcase`: `file`, `puzzle`, its time, and, when it did not pass, why.
fn case(s: &mut String, file: &str, puzzle: &str, seconds: f64, verdict: Option<Verdict>) {
    let _ = write!(
        s,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.6}\"",
        xml(file),
        xml(puzzle)
    );
    match verdict {
        None => s.push_str("/>\n"),
        Some((tag, kind, why)) => {
            let _ = write!(
                s,
                ">\n      <{tag} type=\"{kind}\" message=\"{}\">{}</{tag}>\n    </testcase>\n",
                xml(&why),
                xml(&why)
            );
        }
    }
}

/// The counts of a document: tests, failures, errors, skipped, and the seconds they took.
#[derive(Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    seconds: f64,
}

/// The document around `cases`, with its counts.
fn document(c: &Counts, cases: &str, note: &str) -> String {
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.6}\"",
        c.tests, c.failures, c.errors, c.seconds
    );
    let out = if note.is_empty() {
        String::new()
    } else {
        format!("    <system-out>{}</system-out>\n", xml(note))
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"marbles\" {counts}>\n  \
         <testsuite name=\"marbles batch\" {counts} skipped=\"{}\">\n{cases}{out}  </testsuite>\n</testsuites>\n",
        c.skipped
    )
}

/// The element of a puzzle that did not pass: `error` for bad input, else `failure`.
fn tag(status: Status) -> &'static str {
    match status {
        Status::Error => "error",
        _ => "failure",
    }
}

/// A search Ctrl-C stopped after `seconds`, `note` saying why and what it had found so far
/// (`interrupted; best found so far 15 moves, at least 11`): skipped, with the time said.
fn stopped(seconds: f64, note: &str) -> Verdict {
    // Stopped in its rule script, it never searched: no search time to say.
    if note.contains(crate::script::IN_SCRIPT) {
        return ("skipped", "interrupted", note.to_string());
    }
    let after = format!("interrupted after {seconds:.2} s");
    let why = match note.contains("interrupted") {
        true => note.replacen("interrupted", &after, 1),
        false if note.is_empty() => after,
        false => format!("{after}: {note}"),
    };
    ("skipped", "interrupted", why)
}

/// A search Ctrl-C stopped after `seconds`, or kept from starting: skipped.
fn cut_short(not_started: bool, seconds: f64, note: &str) -> Verdict {
    match not_started {
        true => ("skipped", "interrupted", note.to_string()),
        false => stopped(seconds, note),
    }
}

/// Why `o` did not pass, or `None` when it did: a search Ctrl-C stopped is skipped.
fn verdict(o: &Outcome) -> Option<Verdict> {
    if super::interrupted(o) {
        return Some(cut_short(o.not_started, o.stats.seconds, &note(o)));
    }
    (!o.passed()).then(|| {
        let why = note(o);
        let why = if why.is_empty() { o.actual() } else { why };
        (tag(o.status), o.status.as_str(), why)
    })
}

/// A testcase for each file not run, skipped, named by its file's stem (never read, its
/// puzzles' names are not known).
fn not_run(cases: &mut String, c: &mut Counts, files: &[String], stopped: Option<&str>) {
    let why = format!("not run: {}", stopped.unwrap_or("the run stopped short"));
    for file in files {
        let name = std::path::Path::new(file)
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        case(cases, file, &name, 0.0, Some(("skipped", "not_run", why.clone())));
    }
    c.tests += files.len();
    c.skipped += files.len();
}

impl Junit {
    /// Every outcome, then the files not run.
    fn listed(outcomes: &[Outcome], results: Option<&Finished>) -> String {
        let mut cases = String::new();
        let mut c = Counts {
            tests: outcomes.len(),
            ..Counts::default()
        };
        for o in outcomes {
            let verdict = verdict(o);
            match verdict.as_ref().map(|v| v.0) {
                Some("error") => c.errors += 1,
                Some("skipped") => c.skipped += 1,
                Some(_) => c.failures += 1,
                None => {}
            }
            c.seconds += o.stats.seconds;
            case(&mut cases, &o.file, &o.puzzle, o.stats.seconds, verdict);
        }
        if let Some(r) = results {
            not_run(&mut cases, &mut c, &r.not_run, r.stopped.as_deref());
        }
        document(&c, &cases, "")
    }
}

impl Format for Junit {
    fn file_name(&self) -> &'static str {
        "junit.xml"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        Ok(Junit::listed(outcomes, None))
    }

    /// As any format writes, the files not run as skipped testcases.
    fn write(&self, results: &Finished) -> anyhow::Result<String> {
        match &results.every {
            Some(all) => Ok(Junit::listed(all, Some(results))),
            None => self.summarise(results),
        }
    }

    /// Too many to list: the counts, and a testcase for each failed one listed.
    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        let mut cases = String::new();
        for b in &results.failed {
            let verdict = match b.interrupted {
                true => cut_short(b.not_started, b.seconds, &b.note),
                false => (tag(b.status), b.status.as_str(), b.note.clone()),
            };
            case(&mut cases, &b.file, &b.puzzle, b.seconds, Some(verdict));
        }
        let t = &results.totals;
        let mut c = Counts {
            tests: results.count(),
            failures: t.failing - t.errors - t.interrupted,
            errors: t.errors,
            skipped: t.interrupted,
            seconds: t.seconds,
        };
        c.tests += results.not_run.len();
        c.skipped += results.not_run.len();
        let note = super::summarised_note(results);
        let note = match super::stopped_note(results) {
            Some(stopped) => format!("{stopped}\n{note}"),
            None => note,
        };
        Ok(document(&c, &cases, &note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_xml_cannot_hold_is_escaped_or_replaced() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>\u{1}\n"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;?\n"
        );
    }

    #[test]
    fn a_search_cut_by_ctrl_c_is_skipped_with_what_it_had_found() {
        let cut = |reason: &str| {
            let o = Outcome {
                status: Status::GaveUp,
                reason: Some(reason.into()),
                gave_up: Some(crate::search::GaveUp::Interrupted),
                ..Outcome::error("t8.yaml", String::new())
            };
            Junit::listed(&[Outcome { error: None, ..o }], None)
        };
        let xml = cut("interrupted; best found so far 15 moves, at least 11");
        assert!(
            xml.contains("<skipped type=\"interrupted\" message=\"interrupted after 0.00 s; best found so far 15 moves, at least 11\""),
            "{xml}"
        );
        assert!(cut("interrupted").contains("message=\"interrupted after 0.00 s\""));
        // Cut in its script, a puzzle had no search: its time would read as the script's.
        let script = "interrupted (Ctrl-C) while the rule script built the board";
        assert!(
            cut(script).contains(&format!("message=\"{script}\"")),
            "{}",
            cut(script)
        );
    }
}
