//! summary.csv: one row per puzzle; for a batch too large to list, one row per family and status.

use super::{Finished, Format, moves_compact, note};
use crate::outcome::Outcome;

pub struct Csv;

/// A field a spreadsheet will not run: one starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'`, as OWASP advises against CSV injection. Control
/// characters, line breaks too, are written as the terminal shows them in a line of its own
/// (`\u{1b}`, `\u{a}`): the file is read with `cat` and line by line too, a row a line.
fn spreadsheet_safe(field: String) -> String {
    let field = crate::render::one_line(&field).into_owned();
    if field.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{field}")
    } else {
        field
    }
}

impl Format for Csv {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "file",
            "puzzle",
            "rules",
            "status",
            "moves",
            "pegs_left",
            "rating",
            "nodes",
            "seconds",
            "note",
            "solution",
            "script",
            // Last, so that the columns before keep their places.
            "expected",
            "met",
            "jumps",
        ])?;
        for o in outcomes {
            w.write_record(
                [
                    o.file.clone(),
                    o.puzzle.clone(),
                    o.rules.clone(),
                    o.status.as_str().to_string(),
                    super::moves_cell(o),
                    o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
                    o.rating.clone().unwrap_or_default(),
                    o.stats.nodes.to_string(),
                    format!("{:.6}", o.stats.seconds),
                    note(o),
                    moves_compact(o),
                    super::script(o).to_string(),
                    o.expect.clone().unwrap_or_default(),
                    super::met_cell(o).to_string(),
                    super::jumps_cell(o),
                ]
                .map(spreadsheet_safe),
            )?;
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }

    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["family", "status", "puzzles", "seconds", "max_seconds", "nodes"])?;
        for g in &results.groups {
            w.write_record(
                [
                    g.family.clone(),
                    g.status.map(|s| s.as_str().to_string()).unwrap_or_default(),
                    g.puzzles.to_string(),
                    format!("{:.6}", g.seconds),
                    format!("{:.6}", g.max_seconds),
                    g.nodes.to_string(),
                ]
                .map(spreadsheet_safe),
            )?;
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}
