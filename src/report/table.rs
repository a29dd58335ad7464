//! The terminal table printed by `marbles batch`: fits 80 columns on a terminal.

use super::{Finished, Totals, moves_cell, thousands};
use crate::outcome::Outcome;
use crate::render;
use std::fmt::Write as _;
use std::io::IsTerminal;
use tabled::settings::peaker::Priority;
use tabled::settings::{Alignment, Modify, Style, Width, object::Columns};

/// Rows (puzzle, family, status, expectation met, moves, pegs left, nodes, time), then the
/// totals line.
pub fn render(outcomes: &[Outcome]) -> String {
    let mut b = tabled::builder::Builder::default();
    // An `expect` column (met, not met) only when some puzzle states an expectation.
    let expects = outcomes.iter().any(|o| o.met.is_some());
    let terminal = std::io::stdout().is_terminal();
    let head = [
        "puzzle", "family", "status", "expect", "moves", "pegs", "nodes", "time",
    ];
    b.push_record(head.into_iter().filter(|&h| expects || h != "expect"));
    for o in outcomes {
        let expect = expects.then(|| super::met_cell(o).to_string());
        b.push_record(
            [
                // A line break in a name would split its row.
                render::one_line(&o.puzzle).into_owned(),
                render::one_line(&o.rules).into_owned(),
                o.status.as_str().to_string(),
            ]
            .into_iter()
            .chain(expect)
            .chain([
                moves_cell(o),
                o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
                nodes_cell(o.stats.nodes, terminal),
                seconds(o.stats.seconds),
            ]),
        );
    }
    let mut t = b.build();
    t.with(Style::psql())
        .with(Modify::new(Columns::new(3 + usize::from(expects)..)).with(Alignment::right()));
    // Fitted to 80 columns on a terminal; piped, names are kept whole (ten rows cut to
    // "Triangle 5 h…" could not be told apart).
    if terminal {
        t.with(Width::truncate(80).suffix("…").priority(Priority::max(true)));
    }
    let mut out = t.to_string();
    out.push('\n');
    // Reasons and errors under the table, wrapped to the same 80 columns.
    let opts = textwrap::Options::new(80).subsequent_indent("    ");
    for o in outcomes
        .iter()
        .filter(|o| o.error.is_some() || o.reason.is_some() || o.met == Some(false))
    {
        // The file first: ten rows of one puzzle name must be told apart.
        let text = format!(
            "{}: {}: {}",
            render::one_line(&o.file),
            render::one_line(&o.puzzle),
            super::note(o)
        );
        for line in textwrap::wrap(&render::terminal(&text), &opts) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&Totals::of(outcomes).line());
    out.push('\n');
    out
}

/// A node count as the table shows it: whole when piped; on a terminal, counts of eight
/// digits or more as `99.3M`, which the 80 columns would otherwise cut to `1185927…`.
fn nodes_cell(nodes: u64, terminal: bool) -> String {
    match terminal && nodes >= 10_000_000 {
        true => render::progress::compact(nodes),
        false => nodes.to_string(),
    }
}

/// The summary of a batch too large to list: counts by family and status, the slowest, the
/// first failed ones, then the totals.
pub fn summarise(results: &Finished) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record(["family", "status", "puzzles", "time", "slowest", "nodes"]);
    for g in &results.groups {
        b.push_record([
            render::one_line(&g.family).into_owned(),
            g.status.map_or("", |s| s.as_str()).to_string(),
            thousands(g.puzzles),
            seconds(g.seconds),
            seconds(g.max_seconds),
            thousands(g.nodes),
        ]);
    }
    let mut t = b.build();
    t.with(Style::psql())
        .with(Modify::new(Columns::new(2..)).with(Alignment::right()))
        .with(Width::truncate(80).suffix("…").priority(Priority::max(true)));
    let opts = textwrap::Options::new(80).subsequent_indent("    ");
    let mut out = String::new();
    let para = |out: &mut String, text: &str| {
        for line in textwrap::wrap(&render::terminal(text), &opts) {
            out.push_str(&line);
            out.push('\n');
        }
    };
    out.push_str(&t.to_string());
    out.push('\n');
    out.push_str("slowest:\n");
    for s in results.slowest.iter().take(5) {
        para(
            &mut out,
            &format!(
                "  {} ({}) {} nodes, {}",
                render::one_line(&s.puzzle),
                render::one_line(&s.file),
                thousands(s.nodes),
                seconds(s.seconds)
            ),
        );
    }
    let failed = results.totals.failing;
    if failed > 0 {
        let _ = writeln!(
            out,
            "failed: {} (the first {} in the reports)",
            thousands(failed as u64),
            results.failed.len()
        );
        for f in results.failed.iter().take(10) {
            para(
                &mut out,
                // The file first, as under a full table: puzzle names repeat across files.
                &format!(
                    "  {}: {}: {}",
                    render::one_line(&f.file),
                    render::one_line(&f.puzzle),
                    f.note
                ),
            );
        }
    }
    para(&mut out, &super::summarised_note(results));
    out.push_str(&results.totals.line());
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

#[cfg(test)]
mod tests {
    use super::nodes_cell;

    #[test]
    fn large_node_counts_are_shortened_only_on_a_terminal() {
        assert_eq!(nodes_cell(118_592_731, true), "118.6M");
        assert_eq!(nodes_cell(118_592_731, false), "118592731");
        assert_eq!(nodes_cell(9_999_999, true), "9999999");
    }
}
