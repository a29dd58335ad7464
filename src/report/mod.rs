//! Reports over many puzzles: one module per output format behind [`Format`], each turning
//! outcomes into text. Writing the files (atomically, beside the resume journal) is
//! `batch`'s.

mod csv;
mod html;
mod json;
mod markdown;
mod table;

use crate::outcome::{MoveOut, Outcome, Status};

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
    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String>;
}

/// Every report file, in the order they are written.
pub fn formats() -> Vec<Box<dyn Format>> {
    vec![
        Box::new(json::Json),
        Box::new(csv::Csv),
        Box::new(markdown::Markdown),
        Box::new(html::Html),
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

/// The outcomes in a summary.json's text, if it is one.
pub fn read_json(text: &str) -> Option<Vec<Outcome>> {
    serde_json::from_str::<json::Summary>(text)
        .ok()
        .map(|s| s.results)
}

/// Counts by status, for the totals line.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Totals {
    pub solved: usize,
    pub unsolvable: usize,
    pub gave_up: usize,
    pub errors: usize,
    pub seconds: f64,
}

impl Totals {
    pub fn of(outcomes: &[Outcome]) -> Self {
        let mut t = Totals::default();
        for o in outcomes {
            match o.status {
                Status::Solved => t.solved += 1,
                Status::Unsolvable => t.unsolvable += 1,
                Status::GaveUp => t.gave_up += 1,
                Status::Error => t.errors += 1,
            }
            t.seconds += o.stats.seconds;
        }
        t
    }

    pub fn line(&self) -> String {
        format!(
            "{} puzzles: {} solved, {} unsolvable, {} gave up, {} errors; {:.2} s solving",
            self.solved + self.unsolvable + self.gave_up + self.errors,
            self.solved,
            self.unsolvable,
            self.gave_up,
            self.errors,
            self.seconds
        )
    }
}

/// The number shown in a `moves` column: moves of a solution, blank otherwise.
pub fn moves_cell(o: &Outcome) -> String {
    if o.status == Status::Solved {
        o.moves.len().to_string()
    } else {
        String::new()
    }
}

/// The rule script an outcome used (its path, or `<builtin>/NAME.rhai`), else its family.
pub fn script(o: &Outcome) -> &str {
    o.script.as_deref().unwrap_or(&o.rules)
}

/// What a row says after the status: the reason, the error, or the rating.
pub fn note(o: &Outcome) -> String {
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
            MoveOut::Hop { from, to, .. } => format!("{},{}>{},{}", from[0], from[1], to[0], to[1]),
            MoveOut::Tilt { tilt } => tilt.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
