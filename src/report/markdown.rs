//! summary.md: the table, the totals, then each puzzle's start board and solution as boards.

use super::tally::Brief;
use super::{
    Finished, Format, MAX_DRAWN_BYTES, Totals, jumps_cell, left_out_note, met_cell, moves_cell, note,
    summarised_note, table::seconds, thousands,
};
use crate::outcome::{MoveOut, Outcome};
use crate::render;
use std::fmt::Write;

pub struct Markdown;

/// Text from a puzzle or script as Markdown that reads as that text: every character that
/// could start markup (emphasis, links, HTML, code, table pipes) backslash-escaped, control
/// characters and line breaks as spaces, so a name cannot add rows, tags or links.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '<' | '>' | '|' | '#' | '~' | '&' | '!'
            | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A move in words, the direction (a script's name for it) escaped as [`text`].
fn move_words(m: &MoveOut) -> String {
    let mut m = m.clone();
    if let MoveOut::Hop { dir: Some(d), .. } | MoveOut::Tilt { tilt: d } = &mut m {
        *d = text(d);
    }
    render::move_text(&m)
}

/// `s` as an inline code span, fenced with more backticks than it holds in a row.
fn code(s: &str) -> String {
    let s: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// The summary table alone, as Markdown: the totals first, then the puzzles that did not pass
/// (errors, give-ups, expectations not met) with their reasons, then the rest, each in path
/// order.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut s = format!("{}\n\n", Totals::of(outcomes).line());
    s.push_str(
        "| file | puzzle | family | status | expected | met | moves | jumps | pegs left | nodes | time | note |\n",
    );
    s.push_str("|---|---|---|---|---|---|--:|--:|--:|--:|--:|---|\n");
    let (failing, rest): (Vec<&Outcome>, Vec<&Outcome>) = outcomes.iter().partition(|o| !o.passed());
    for o in failing.into_iter().chain(rest) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            text(&o.file),
            text(&o.puzzle),
            text(&o.rules),
            o.status.as_str(),
            text(o.expect.as_deref().unwrap_or_default()),
            met_cell(o),
            moves_cell(o),
            jumps_cell(o),
            o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
            o.stats.nodes,
            seconds(o.stats.seconds),
            text(&note(o)),
        );
    }
    s
}

impl Format for Markdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn stopped_short(&self, report: String, note: &str) -> String {
        format!("> **{}**\n\n{report}", text(note))
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let mut s = String::from("# marbles report\n\n");
        s.push_str(&table(outcomes));
        sections(&mut s, outcomes, outcomes.len(), self.file_name());
        Ok(s)
    }

    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        let mut s = String::from("# marbles report\n\n");
        s.push_str(&summary_tables(results));
        let shown = results.sample.len();
        let _ = writeln!(s, "\n## The first {shown} puzzles\n");
        sections(&mut s, &results.sample, shown, self.file_name());
        Ok(s)
    }
}

/// Each puzzle's heading, start board and boards after each move, until the report takes
/// [`MAX_DRAWN_BYTES`]; `of` puzzles in all.
fn sections(s: &mut String, outcomes: &[Outcome], of: usize, file_name: &str) {
    let start = s.len();
    let full = |s: &String| s.len() - start > MAX_DRAWN_BYTES;
    for (k, o) in outcomes.iter().enumerate() {
        if full(s) {
            let _ = writeln!(s, "\n{}", left_out_note(of - k, file_name));
            break;
        }
        // An error before a script was found names none: its field is left out, not empty.
        let script = match super::script(o) {
            "" => String::new(),
            named => format!("{} · ", text(named)),
        };
        let _ = write!(
            s,
            "\n## {}\n\n{} · {script}**{}**\n",
            text(&o.puzzle),
            code(&o.file),
            text(&render::verdict(o))
        );
        let Some(replay) = &o.replay else { continue };
        s.push_str("\nStart:\n\n```\n");
        s.push_str(&render::board(replay, 0, None));
        s.push_str("```\n");
        for (i, m) in o.moves.iter().enumerate() {
            if full(s) {
                let step = if o.moves.hop { "jump" } else { "move" };
                let _ = writeln!(s, "\n… the boards after {step} {i} are not drawn");
                break;
            }
            let _ = write!(s, "\n{}. {}\n\n```\n", i + 1, move_words(m));
            s.push_str(&render::board(replay, i + 1, render::landing(m)));
            s.push_str("```\n");
        }
    }
}

/// A bar of `n` against the largest `max`, in at most 30 blocks.
fn bar(n: u64, max: u64) -> String {
    let len = if max == 0 {
        0
    } else {
        (n * 30).div_ceil(max) as usize
    };
    "█".repeat(len)
}

/// A histogram as a Markdown table: each bin's label, count and bar.
fn histogram(s: &mut String, title: &str, bins: &[u64], label: impl Fn(usize) -> String) {
    let max = bins.iter().copied().max().unwrap_or(0);
    let _ = write!(s, "\n## {title}\n\n| | puzzles | |\n|---|--:|---|\n");
    for (b, &n) in bins.iter().enumerate() {
        let _ = writeln!(s, "| {} | {} | {} |", label(b), thousands(n), bar(n, max));
    }
}

/// Briefs as a Markdown table.
fn briefs(s: &mut String, list: &[Brief]) {
    s.push_str("| puzzle | file | family | status | nodes | time | note |\n|---|---|---|---|--:|--:|---|\n");
    for b in list {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            text(&b.puzzle),
            code(&b.file),
            text(&b.rules),
            b.status.as_str(),
            thousands(b.nodes),
            seconds(b.seconds),
            text(&b.note)
        );
    }
}

/// The summary of a batch too large to list: counts, charts, the slowest and the failed.
pub fn summary_tables(results: &Finished) -> String {
    let mut s = format!("> {}\n\n{}\n", summarised_note(results), results.totals.line());
    s.push_str("\n## By family and status\n\n| family | status | puzzles | time | slowest | nodes |\n|---|---|--:|--:|--:|--:|\n");
    for g in &results.groups {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            text(&g.family),
            g.status.map_or("", |st| st.as_str()),
            thousands(g.puzzles),
            seconds(g.seconds),
            seconds(g.max_seconds),
            thousands(g.nodes)
        );
    }
    histogram(&mut s, "Time per puzzle", &results.time_bins, Finished::time_edge);
    histogram(
        &mut s,
        "Nodes per puzzle",
        &results.node_bins,
        Finished::node_edge,
    );
    let _ = writeln!(s, "\n## The slowest {}\n", results.slowest.len());
    briefs(&mut s, &results.slowest);
    let failed = results.totals.failing;
    if failed > 0 {
        let _ = writeln!(
            s,
            "\n## Failed: {} (errors, give-ups, answers not as expected or unsolvable stating none; the first {} listed)\n",
            thousands(failed as u64),
            results.failed.len()
        );
        briefs(&mut s, &results.failed);
    }
    s
}
