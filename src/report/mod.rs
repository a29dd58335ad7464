//! Reports over many puzzles: one module per output format behind [`Format`], each turning
//! outcomes into text. Writing the files (atomically, beside the resume journal) is
//! `batch`'s.

mod csv;
mod html;
mod json;
mod junit;
mod markdown;
mod table;
pub mod tally;

use crate::diag::plural;
use crate::outcome::{MoveOut, Outcome, Status};
pub use tally::{Finished, Tally};

/// The file summary.json is written to, and read back from to resume.
pub use json::FILE as JSON_FILE;

/// summary.md and index.html draw puzzles (sections, boards, frames) until they take this
/// many bytes, then say how many were left out: every result is in summary.json and .csv.
pub const MAX_DRAWN_BYTES: usize = 16 << 20;

/// The note closing a report that drew only some puzzles.
pub fn left_out_note(left_out: usize, file: &str) -> String {
    format!(
        "… {left_out} more puzzle{} not drawn ({file} draws at most {} MiB): \
         every result is in summary.json and summary.csv",
        if left_out == 1 { "" } else { "s" },
        MAX_DRAWN_BYTES >> 20
    )
}

/// One output format for a set of outcomes.
pub trait Format {
    /// The file this format is written to in a report folder.
    fn file_name(&self) -> &'static str;
    /// Every outcome, in full.
    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String>;
    /// A batch too large to list (see [`tally`]): its counts, charts, slowest and failed
    /// puzzles, and a sample; every result is in `results.jsonl`.
    fn summarise(&self, results: &Finished) -> anyhow::Result<String>;
    /// [`Format::render`] for a batch small enough, else [`Format::summarise`]; a run that
    /// stopped short says so ([`Format::stopped_short`]).
    fn write(&self, results: &Finished) -> anyhow::Result<String> {
        let text = match &results.every {
            Some(all) => self.render(all)?,
            None => self.summarise(results)?,
        };
        Ok(match stopped_note(results) {
            Some(note) => self.stopped_short(text, &note),
            None => text,
        })
    }
    /// `text` with `note` ([`stopped_note`]) where a reader sees it first; as it is when the
    /// format has no place for a note.
    fn stopped_short(&self, text: String, _note: &str) -> String {
        text
    }
}

/// What a report of a run that stopped short (Ctrl-C, `--fail-fast`) says first: why, how
/// many searches Ctrl-C stopped and how many cases of the files it cut it kept from starting
/// (their results say so), and how many puzzle files it did not run, the first ten named.
pub fn stopped_note(results: &Finished) -> Option<String> {
    let why = results.stopped.as_deref()?;
    let t = &results.totals;
    let stopped = match t.interrupted - t.not_started {
        0 => None,
        1 => Some("1 search stopped before its answer".to_string()),
        n => Some(format!("{n} searches stopped before their answers")),
    };
    // The cases after it in a file Ctrl-C cut: each a row of the report, none searched.
    let unstarted = (t.not_started > 0).then(|| format!("{} not started", plural(t.not_started, "case")));
    let cut: Vec<String> = stopped.into_iter().chain(unstarted).collect();
    let cut = (!cut.is_empty()).then(|| cut.join(", "));
    // The files not run, unless none was and a cut search says what was lost.
    let not_run = (!results.not_run.is_empty() || cut.is_none()).then(|| not_run_words(&results.not_run));
    let said: Vec<String> = cut.into_iter().chain(not_run).collect();
    Some(format!("incomplete run: {why}; {}", said.join(", ")))
}

/// `2 puzzle files not run: a.yaml, b.yaml`, naming ten at most.
pub fn not_run_words(files: &[String]) -> String {
    let named: Vec<&str> = files.iter().take(10).map(String::as_str).collect();
    format!(
        "{} puzzle file{} not run{}{}{}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        if files.is_empty() { "" } else { ": " },
        named.join(", "),
        if files.len() > 10 { ", …" } else { "" }
    )
}

/// Whether `o` is a search Ctrl-C stopped: a batch reports it, and keeps no record of it.
pub fn interrupted(o: &Outcome) -> bool {
    o.gave_up.as_ref().map(crate::search::GaveUp::stop) == Some(&crate::search::GaveUp::Interrupted)
}

/// The file every result of a batch is in, one JSON object a line, in path order.
pub const RESULTS_FILE: &str = "results.jsonl";

/// The note heading a summarised report.
pub fn summarised_note(results: &Finished) -> String {
    let every = match results.listed {
        true => format!("every result is in {RESULTS_FILE}, one JSON object a line"),
        false => "with a report folder (`--report DIR`, not `--no-report`) every result would be in \
                  results.jsonl there"
            .to_string(),
    };
    let why = match results.count() > tally::SMALL_BATCH {
        true => format!(
            "are too many to list here (more than {})",
            thousands(tally::SMALL_BATCH as u64)
        ),
        false => format!(
            "hold too much to list here (their moves and boards pass {})",
            crate::process::human_bytes(tally::SMALL_BATCH_BYTES)
        ),
    };
    format!(
        "{} results {why}: this report counts them, charts their times and nodes, lists the \
         slowest and the failed, and draws the first {}; {every}",
        thousands(results.count() as u64),
        results.sample.len()
    )
}

/// `1110348` → `1,110,348`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Every report file, in the order they are written.
pub fn formats() -> Vec<Box<dyn Format>> {
    vec![
        Box::new(json::Json),
        Box::new(csv::Csv),
        Box::new(markdown::Markdown),
        Box::new(html::Html),
        Box::new(junit::Junit),
    ]
}

/// The ways `marbles batch` can print its summary on stdout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Summary {
    /// A terminal table that fits 80 columns, reasons under it, then the totals.
    #[default]
    Table,
    Markdown,
    Csv,
    Json,
}

/// The summary printed on stdout by `marbles batch`.
pub fn summary(format: Summary, outcomes: &[Outcome]) -> anyhow::Result<String> {
    match format {
        Summary::Table => Ok(table::render(outcomes)),
        Summary::Markdown => Ok(markdown::table(outcomes)),
        Summary::Csv => csv::Csv.render(outcomes),
        Summary::Json => json::Json.render(outcomes),
    }
}

/// [`summary`] of a batch's results: every puzzle for a small batch, else a summary of them.
pub fn summary_of(format: Summary, results: &Finished) -> anyhow::Result<String> {
    let Some(all) = &results.every else {
        return match format {
            Summary::Table => Ok(table::summarise(results)),
            Summary::Markdown => Ok(markdown::summary_tables(results)),
            Summary::Csv => csv::Csv.summarise(results),
            Summary::Json => json::Json.summarise(results),
        };
    };
    summary(format, all)
}

/// The outcomes in a summary.json's text, if it is one.
pub fn read_json(text: &str) -> Option<Vec<Outcome>> {
    serde_json::from_str::<json::Summary>(text)
        .ok()
        .map(|s| s.results)
}

/// Counts by status and by expectation, for the totals line and the exit code.
#[derive(Debug, Default, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Totals {
    pub solved: usize,
    pub unsolvable: usize,
    pub gave_up: usize,
    pub errors: usize,
    pub seconds: f64,
    /// Puzzles whose answer is what their `expect:` says, and those whose is not.
    pub met: usize,
    pub unmet: usize,
    /// Puzzles that do not pass: an expectation not met, or, stating none, not solved.
    pub failing: usize,
    /// Of those failing, the ones whose search Ctrl-C stopped or kept from starting (JUnit's
    /// `skipped`).
    pub interrupted: usize,
    /// Of those, the cases of a file Ctrl-C cut before their search began.
    pub not_started: usize,
}

impl Totals {
    pub fn of(outcomes: &[Outcome]) -> Self {
        let mut t = Totals::default();
        for o in outcomes {
            t.add(o);
        }
        t
    }

    pub fn add(&mut self, o: &Outcome) {
        match o.status {
            Status::Solved => self.solved += 1,
            Status::Unsolvable => self.unsolvable += 1,
            Status::GaveUp => self.gave_up += 1,
            Status::Error => self.errors += 1,
        }
        self.seconds += o.stats.seconds;
        match o.met {
            Some(true) => self.met += 1,
            Some(false) => self.unmet += 1,
            None => {}
        }
        self.failing += usize::from(!o.passed());
        self.interrupted += usize::from(!o.passed() && interrupted(o));
        self.not_started += usize::from(o.not_started);
    }

    pub fn line(&self) -> String {
        let expected = match self.met + self.unmet {
            0 => String::new(),
            _ => format!("; expectations: {} met, {} not met", self.met, self.unmet),
        };
        // Counts of thousands grouped, as the tables above the line print them.
        let n = |k: usize| thousands(k as u64);
        let all = self.solved + self.unsolvable + self.gave_up + self.errors;
        // The cases Ctrl-C kept from starting are rows that gave up, but no search gave up on
        // them: "2,022 gave up" after a search was stopped read as 2,022 searches.
        let gave_up = match self.not_started {
            0 => format!("{} gave up", n(self.gave_up)),
            k => format!("{} gave up ({} of them not started)", n(self.gave_up), n(k)),
        };
        format!(
            "{} {}: {} solved, {} unsolvable, {gave_up}, {} {}{expected}; {:.2} s solving",
            n(all),
            if all == 1 { "puzzle" } else { "puzzles" },
            n(self.solved),
            n(self.unsolvable),
            n(self.errors),
            if self.errors == 1 { "error" } else { "errors" },
            self.seconds
        )
    }
}

/// The number shown in a `moves` column: the moves of a solution, or of the best line a
/// search that gave up had found (on a hop board, chains of one peg's jumps), as JSON's
/// `move_count`; blank without a line.
pub fn moves_cell(o: &Outcome) -> String {
    if o.status == Status::Solved || o.move_count.is_some() {
        o.moves_made().to_string()
    } else {
        String::new()
    }
}

/// The number shown in a `jumps` column: the jumps of a hop board's solution or best line
/// found, as JSON's `jump_count`; blank otherwise.
pub fn jumps_cell(o: &Outcome) -> String {
    o.jumps_made().map(|j| j.to_string()).unwrap_or_default()
}

/// Whether an answer is what its `expect:` says, as the reports' `met` column shows it: `met`,
/// `not met`, or blank without an expectation.
pub fn met_cell(o: &Outcome) -> &'static str {
    match o.met {
        Some(true) => "met",
        Some(false) => "not met",
        None => "",
    }
}

/// The rule script an outcome used (its path, or `<builtin>/NAME.rhai`), else its family.
pub fn script(o: &Outcome) -> &str {
    o.script.as_deref().unwrap_or(&o.rules)
}

/// What a row says after the status: an expectation not met (`expected unsolvable, got
/// solved: 5 moves`) with its error or reason ([`Outcome::unmet`]); else the error, the
/// reason, or the rating.
pub fn note(o: &Outcome) -> String {
    match o.met {
        Some(false) => o.unmet(),
        _ => why(o),
    }
}

/// The error, the reason, or the rating.
fn why(o: &Outcome) -> String {
    o.error
        .clone()
        .or_else(|| o.reason.clone())
        .or_else(|| o.rating.clone())
        .unwrap_or_default()
}

/// A compact move list: `3,1>3,3 …` for hops, `left down …` for tilts.
pub fn moves_compact(o: &Outcome) -> String {
    o.moves
        .iter()
        .map(|m| match m {
            MoveOut::Hop { from, to, .. } | MoveOut::Step { from, to, .. } => {
                format!("{},{}>{},{}", from[0], from[1], to[0], to[1])
            }
            MoveOut::Tilt { tilt } => tilt.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
