//! summary.md: the table, the totals, then each puzzle's start board and solution as boards.

use super::{Format, MAX_DRAWN_BYTES, Totals, left_out_note, moves_cell, note, table::seconds};
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

/// The summary table alone, as Markdown.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut s = String::from("| puzzle | family | status | moves | pegs left | nodes | time | note |\n");
    s.push_str("|---|---|---|--:|--:|--:|--:|---|\n");
    for o in outcomes {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            text(&o.puzzle),
            text(&o.rules),
            o.status.as_str(),
            moves_cell(o),
            o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
            o.stats.nodes,
            seconds(o.stats.seconds),
            text(&note(o)),
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
        let start = s.len();
        let full = |s: &String| s.len() - start > MAX_DRAWN_BYTES;
        for (k, o) in outcomes.iter().enumerate() {
            if full(&s) {
                let _ = writeln!(s, "\n{}", left_out_note(outcomes.len() - k, self.file_name()));
                break;
            }
            let _ = write!(
                s,
                "\n## {}\n\n{} · {} · **{}**\n",
                text(&o.puzzle),
                code(&o.file),
                text(super::script(o)),
                text(&render::verdict(o))
            );
            let Some(replay) = &o.replay else { continue };
            s.push_str("\nStart:\n\n```\n");
            s.push_str(&render::board(replay, 0, None));
            s.push_str("```\n");
            for (i, m) in o.moves.iter().enumerate() {
                if full(&s) {
                    let _ = writeln!(s, "\n… the boards after move {i} are not drawn");
                    break;
                }
                let _ = write!(s, "\n{}. {}\n\n```\n", i + 1, move_words(m));
                s.push_str(&render::board(replay, i + 1, render::landing(m)));
                s.push_str("```\n");
            }
        }
        Ok(s)
    }
}
