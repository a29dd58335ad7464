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

/// One `testcase`: `file`, `puzzle`, its time, and, when it did not pass, why.
fn case(s: &mut String, file: &str, puzzle: &str, seconds: f64, failed: Option<(Status, String)>) {
    let _ = write!(
        s,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.6}\"",
        xml(file),
        xml(puzzle)
    );
    match failed {
        None => s.push_str("/>\n"),
        Some((status, why)) => {
            let tag = if status == Status::Error {
                "error"
            } else {
                "failure"
            };
            let _ = write!(
                s,
                ">\n      <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n    </testcase>\n",
                status.as_str(),
                xml(&why),
                xml(&why)
            );
        }
    }
}

/// The document around `cases`, with its counts.
fn document(tests: usize, failures: usize, errors: usize, seconds: f64, cases: &str, note: &str) -> String {
    let counts =
        format!("tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{seconds:.6}\"");
    let out = if note.is_empty() {
        String::new()
    } else {
        format!("    <system-out>{}</system-out>\n", xml(note))
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"marbles\" {counts}>\n  \
         <testsuite name=\"marbles batch\" {counts} skipped=\"0\">\n{cases}{out}  </testsuite>\n</testsuites>\n"
    )
}

/// Why `o` did not pass, or `None` when it did.
fn failure(o: &Outcome) -> Option<(Status, String)> {
    (!o.passed()).then(|| {
        let why = note(o);
        let why = if why.is_empty() { o.actual() } else { why };
        (o.status, why)
    })
}

impl Format for Junit {
    fn file_name(&self) -> &'static str {
        "junit.xml"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let mut cases = String::new();
        let (mut failures, mut errors, mut seconds) = (0, 0, 0.0);
        for o in outcomes {
            let failed = failure(o);
            match failed.as_ref().map(|f| f.0) {
                Some(Status::Error) => errors += 1,
                Some(_) => failures += 1,
                None => {}
            }
            seconds += o.stats.seconds;
            case(&mut cases, &o.file, &o.puzzle, o.stats.seconds, failed);
        }
        Ok(document(outcomes.len(), failures, errors, seconds, &cases, ""))
    }

    /// Too many to list: the counts, and a testcase for each failed one listed.
    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        let mut cases = String::new();
        for b in &results.failed {
            case(
                &mut cases,
                &b.file,
                &b.puzzle,
                b.seconds,
                Some((b.status, b.note.clone())),
            );
        }
        let t = &results.totals;
        Ok(document(
            results.count(),
            t.failing - t.errors,
            t.errors,
            t.seconds,
            &cases,
            &super::summarised_note(results),
        ))
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
}
