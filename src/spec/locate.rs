//! Where things stand in a spec's text: the line of a key (`rules:`, the goal's `board:`),
//! and the line and column of a board token, so that every error names `file:line[:col]`.
//! Searching the text is enough: keys are found as YAML writes them, and a block-scalar
//! board's rows are matched against the lines after its key.

use super::{BoardSpec, Cell, GridBoard, Spec};

impl Spec {
    /// Where the token of hop cell `[r, c]` stands in the file: (line, column), as far as known.
    pub fn cell_location(&self, cell: Cell) -> (Option<usize>, Option<usize>) {
        match &self.board {
            BoardSpec::Grid(g) => {
                let line = own_board_line(&self.source, self.goal.board_line);
                self.token_location(g, line, cell)
            }
            BoardSpec::Tilt(_) => (key_line(&self.source, "board"), None),
        }
    }

    /// Where the goal board's token `[r, c]` stands in the file, as far as known.
    pub fn goal_location(&self, cell: Cell) -> (Option<usize>, Option<usize>) {
        match &self.goal.board {
            Some(g) => self.token_location(g, self.goal.board_line, cell),
            None => (self.goal.board_line, None),
        }
    }

    /// Where token `[r, c]` of drawing `g`, whose key is on line `key`, stands in the file.
    fn token_location(
        &self,
        g: &GridBoard,
        key: Option<usize>,
        [r, c]: Cell,
    ) -> (Option<usize>, Option<usize>) {
        let (r, c) = (r as usize, c as usize);
        match g.xs.get(r).and_then(|row| row.get(c)) {
            Some(&x) => {
                let src_lines: Vec<&str> = self.source.lines().collect();
                locate_in_block(&src_lines, key, r, &g.drawn_row(r), x as usize)
            }
            None => (key, None),
        }
    }
}

/// The line of the puzzle's own `board:`: the first one that is not the goal's (on
/// `goal_line`), which may come before it.
pub(super) fn own_board_line(source: &str, goal_line: Option<usize>) -> Option<usize> {
    (1..=source.lines().count())
        .zip(source.lines())
        .find(|&(n, l)| Some(n) != goal_line && key_line(l, "board").is_some())
        .map(|(n, _)| n)
}

/// The 1-based line where `key:` first appears as a mapping key.
pub fn key_line(source: &str, key: &str) -> Option<usize> {
    source
        .lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| i + 1)
}

/// The 1-based line of `key:` inside the block of `parent:` (the lines after it that are
/// indented deeper), if it is there.
pub fn nested_key_line(source: &str, parent: &str, key: &str) -> Option<usize> {
    let top = key_line(source, parent)?;
    let indent = |l: &str| l.len() - l.trim_start().len();
    let parent_indent = indent(source.lines().nth(top - 1)?);
    source
        .lines()
        .enumerate()
        .skip(top)
        .take_while(|(_, l)| l.trim().is_empty() || indent(l) > parent_indent)
        .find(|(_, l)| key_line(l, key).is_some())
        .map(|(i, _)| i + 1)
}

/// The line of the goal's `key:` for a message about it: its own line in a block, else the
/// `goal:` line (a flow-style `goal: {pegs: 1, moves: 2}` or a quoted key).
pub fn goal_key_line(source: &str, key: &str) -> Option<usize> {
    nested_key_line(source, "goal", key).or_else(|| key_line(source, "goal"))
}

/// Where row `r` of a block-scalar board sits in the source, if it can be found.
pub(super) fn locate_in_block(
    src: &[&str],
    board_line: Option<usize>,
    r: usize,
    row_text: &str,
    offset: usize,
) -> (Option<usize>, Option<usize>) {
    if let Some(bl) = board_line {
        // A block scalar's rows start on the line after `board: |`.
        if let Some(src_line) = src.get(bl + r)
            && !row_text.trim().is_empty()
            && src_line.trim_end().ends_with(row_text.trim_end())
        {
            let indent = src_line.trim_end().len() - row_text.trim_end().len();
            return (Some(bl + r + 1), Some(indent + offset + 1));
        }
    }
    (board_line, None)
}
