//! summary.md: the table, the totals, then each puzzle's start board and solution as boards.

use super::{Format, Totals, moves_cell, note, table::seconds};
use crate::outcome::Outcome;
use crate::render;
use std::fmt::Write;

pub struct Markdown;

/// A Markdown table cell: pipes escaped, one line.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The summary table alone, as Markdown.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut s = String::from("| puzzle | family | status | moves | pegs left | nodes | time | note |\n");
    s.push_str("|---|---|---|--:|--:|--:|--:|---|\n");
    for o in outcomes {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&o.puzzle),
            cell(&o.rules),
            o.status.as_str(),
            moves_cell(o),
            o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
            o.stats.nodes,
            seconds(o.stats.seconds),
            cell(&note(o)),
        );
    }
    let _ = writeln!(s, "\n{}", Totals::of(outcomes).line());
    s
}

impl Format for Markdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let mut s = String::from("# marbles report\n\n");
        s.push_str(&table(outcomes));
        for o in outcomes {
            let _ = write!(
                s,
                "\n## {}\n\n`{}` · {} · **{}**\n",
                o.puzzle,
                o.file,
                super::script(o),
                render::verdict(o)
            );
            let Some(replay) = &o.replay else { continue };
            s.push_str("\nStart:\n\n```\n");
            s.push_str(&render::board(replay, 0, None));
            s.push_str("```\n");
            for (i, m) in o.moves.iter().enumerate() {
                let _ = write!(s, "\n{}. {}\n\n```\n", i + 1, render::move_text(m));
                s.push_str(&render::board(replay, i + 1, render::landing(m)));
                s.push_str("```\n");
            }
        }
        Ok(s)
    }
}
