//! The terminal table printed by `marbles batch`: fits 80 columns.

use super::{Totals, moves_cell};
use crate::outcome::Outcome;
use crate::render;
use tabled::settings::peaker::Priority;
use tabled::settings::{Alignment, Modify, Style, Width, object::Columns};

/// Rows (puzzle, family, status, moves, pegs left, nodes, time), then the totals line.
pub fn render(outcomes: &[Outcome]) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record(["puzzle", "family", "status", "moves", "pegs", "nodes", "time"]);
    for o in outcomes {
        b.push_record([
            render::terminal(&o.puzzle).into_owned(),
            render::terminal(&o.rules).into_owned(),
            o.status.as_str().to_string(),
            moves_cell(o),
            o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
            o.stats.nodes.to_string(),
            seconds(o.stats.seconds),
        ]);
    }
    let mut t = b.build();
    t.with(Style::psql())
        .with(Modify::new(Columns::new(3..)).with(Alignment::right()))
        .with(Width::truncate(80).suffix("…").priority(Priority::max(true)));
    let mut out = t.to_string();
    out.push('\n');
    // Reasons and errors under the table, wrapped to the same 80 columns.
    let opts = textwrap::Options::new(80).subsequent_indent("    ");
    for o in outcomes
        .iter()
        .filter(|o| o.error.is_some() || o.reason.is_some())
    {
        let text = format!("{}: {}", o.puzzle, super::note(o));
        for line in textwrap::wrap(&render::terminal(&text), &opts) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&Totals::of(outcomes).line());
    out.push('\n');
    out
}

/// `0.0042` → `4.2ms`, `12.5` → `12.50s`.
pub fn seconds(s: f64) -> String {
    if s < 1.0 {
        format!("{:.1}ms", s * 1000.0)
    } else {
        format!("{s:.2}s")
    }
}
