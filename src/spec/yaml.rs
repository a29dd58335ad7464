//! YAML text read into a [`Spec`]: serde's raw shapes of the file (`RawSpec`, `RawGoal`),
//! two bounds measured before the parser builds anything (bracket nesting here, alias
//! expansion in `expansion`), then [`parse`], which turns the raw shapes into checked values
//! (`board` reads the boards and goals) with each error at its key's line.

use super::board::{TiltKeys, check_goal_fits, parse_goal_board, parse_grid, parse_tilt};
use super::expansion;
use super::locate::{goal_key_line, key_line, nested_key_line, own_board_line};
use super::types::{UniqueMap, number_or_text};
use super::{BoardSpec, Cell, GoalSpec, LimitSpec, MoveGoal, PegGoal, Spec};
use crate::diag::{Diagnostic, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a puzzle: a map with `rules:` and `board:` (or `size:`, `marbles:`, `holes:`)"
)]
struct RawSpec {
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    rules: String,
    board: Option<String>,
    size: Option<i64>,
    marbles: Option<Vec<Cell>>,
    holes: Option<Vec<Cell>>,
    walls: Option<Vec<[Cell; 2]>>,
    exits: Option<Vec<Cell>>,
    sliders: Option<Vec<Cell>>,
    blockers: Option<Vec<Cell>>,
    goal: Option<RawGoal>,
    solve: Option<LimitSpec>,
    ratings: Option<UniqueMap<u32, String>>,
    /// `Some(None)` for a key written without a value (`expect:` or `expect: ~`), which is
    /// refused rather than read as no expectation.
    #[serde(default, deserialize_with = "super::expect::present")]
    expect: Option<Option<super::expect::RawExpect>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a map with `pegs:` and optionally `at:` and `moves:`, or `board:`, or `reach:`; \
                 for pieces of kinds also `left:` and `piece:`"
)]
struct RawGoal {
    /// `Some(None)` for a key written without a value, refused rather than read as no goal.
    #[serde(default, deserialize_with = "super::expect::present")]
    pegs: Option<Option<RawPegs>>,
    at: Option<Cell>,
    #[serde(default, deserialize_with = "super::expect::present")]
    moves: Option<Option<RawMoves>>,
    board: Option<String>,
    reach: Option<Cell>,
    left: Option<UniqueMap<String, u32>>,
    piece: Option<String>,
}

/// A kind as a goal names it: one capital letter (`R`), or `o` for plain pegs.
fn kind_letter(name: &str) -> std::result::Result<u8, String> {
    match name.as_bytes() {
        [b] if b.is_ascii_uppercase() || *b == b'o' => Ok(*b),
        _ => Err(format!(
            "`{name}` is not a kind: a kind is named by the capital letter its pieces are drawn with (or `o` for pegs)"
        )),
    }
}

enum RawPegs {
    Count(u32),
    Word(String),
}

impl<'de> Deserialize<'de> for RawPegs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        number_or_text(
            d,
            "a number of pegs or `fewest`",
            |n| {
                u32::try_from(n)
                    .map(RawPegs::Count)
                    .map_err(|_| format!("{n} pegs is more than any board holds"))
            },
            |w| Ok(RawPegs::Word(w.to_string())),
        )
    }
}

/// A goal's `moves:`, read as `pegs:` is, its errors speaking of moves.
struct RawMoves(RawPegs);

impl<'de> Deserialize<'de> for RawMoves {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        number_or_text(
            d,
            "a number of moves or `fewest`",
            |n| {
                u32::try_from(n)
                    .map(|n| RawMoves(RawPegs::Count(n)))
                    .map_err(|_| format!("{n} moves is more than any search makes"))
            },
            |w| Ok(RawMoves(RawPegs::Word(w.to_string()))),
        )
    }
}

/// A goal's `pegs:` or `moves:` (its `key`): a number (`count`) or the word `fewest`; any
/// other word, or none, is an error at the key's line.
fn count_or_fewest<T>(
    path: &Path,
    source: &str,
    raw: Option<Option<RawPegs>>,
    key: &str,
    count: fn(u32) -> T,
    fewest: T,
) -> Result<Option<T>> {
    match raw {
        None => Ok(None),
        Some(None) => Err(Diagnostic::new(
            path,
            format!("goal {key} has no value: write a number or `fewest` (or leave the key out)"),
        )
        .at(key_line(source, key), None)),
        Some(Some(RawPegs::Count(n))) => Ok(Some(count(n))),
        Some(Some(RawPegs::Word(w))) if w == "fewest" => Ok(Some(fewest)),
        Some(Some(RawPegs::Word(w))) if w.trim().parse::<u64>().is_ok() => Err(Diagnostic::new(
            path,
            format!(
                "goal {key} `{w}` is text in quotes, not a number: write it without them (`{key}: {}`)",
                w.trim()
            ),
        )
        .at(key_line(source, key), None)),
        Some(Some(RawPegs::Word(w))) => Err(Diagnostic::new(
            path,
            format!("goal {key} `{w}` is neither a number nor `fewest`"),
        )
        .at(key_line(source, key), None)),
    }
}

/// Refuses what `reach:` cannot be combined with: a goal of reaching a cell is met however
/// many pegs are left, so an exact count or a cell for the last peg contradicts it, and the
/// fewest-moves search ends on a peg count. `pegs: fewest` is kept: the fewest pegs that can
/// stand with one on the cell, which is the same as `pegs: fewest` with `at:`.
pub(super) fn check_reach(goal: &GoalSpec) -> std::result::Result<(), String> {
    if goal.reach.is_none() {
        return Ok(());
    }
    if let Some(PegGoal::Count(n)) = goal.pegs {
        return Err(format!(
            "goal: `pegs: {n}` and `reach:` together: `reach:` is met by a peg on its cell however many \
             are left; for {n} left with one on that cell write `at:` instead of `reach:`"
        ));
    }
    if goal.at.is_some() {
        return Err(
            "goal: `at:` and `reach:` together: `reach:` is met the moment a peg stands on its cell, \
             `at:` names where a last peg stands; keep one"
                .into(),
        );
    }
    Ok(())
}

/// How deep `[` and `{` may nest. The YAML parser refuses documents nested past 128 levels, but
/// its scanner spends time quadratic in the depth before it gets there (a 1 MB file of `[`
/// took minutes), so depth is measured first, in one pass over the text.
pub const MAX_FLOW_DEPTH: usize = 256;

/// `Err(line)` (1-based) where brackets first nest past [`MAX_FLOW_DEPTH`]. Brackets inside
/// quotes or comments count too: the bound is far above anything a puzzle holds, so counting
/// them can only refuse text that is hundreds of brackets deep anyway.
fn check_nesting(source: &str) -> std::result::Result<(), usize> {
    let mut depth = 0usize;
    let mut line = 1;
    for b in source.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(line);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => line += 1,
            _ => {}
        }
    }
    Ok(())
}

/// When the YAML error at `line` falls in a block scalar (`board: |`) whose first row is
/// indented deeper than a later one — a centred triangle — the reason in words: YAML takes
/// the block's indentation from its first row, so a shallower row ends the block.
fn indented_first_row(path: &Path, source: &str, line: usize) -> Option<Diagnostic> {
    let lines: Vec<&str> = source.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    // The nearest `key: |` (or `>`) above the error, without an indentation indicator.
    let (k, head) = lines[..line.min(lines.len())]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, l)| {
            let t = l.trim_end();
            t.ends_with(": |") || t.ends_with(": >") || t.ends_with(": |-") || t.ends_with(": >-")
        })?;
    let key = head.trim_start().split(':').next()?;
    let block: Vec<(usize, &str)> = lines[k + 1..]
        .iter()
        .enumerate()
        .map(|(i, l)| (k + 2 + i, *l))
        .take_while(|(_, l)| l.trim().is_empty() || indent(l) > indent(head))
        .collect();
    // The error's line counts only where it is the one that ended the block: past another
    // key it is no row of this one.
    let next = k + 2 + block.len();
    let rows: Vec<(usize, &str)> = block
        .into_iter()
        .chain(lines.get(line - 1).filter(|_| line == next).map(|l| (line, *l)))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let first = indent(rows.first()?.1);
    let (at, _) = rows
        .iter()
        .find(|(_, l)| indent(l) < first && indent(l) > indent(head))?;
    let least = rows.iter().map(|(_, l)| indent(l)).min()?;
    // A key indented by mistake (` goal:` under the board) is no row of it: setting the
    // block's indentation, as said below, made it one (`unknown board token goal:`).
    let row = lines.get(*at - 1)?.trim();
    let word = row.split_once(':').map(|(w, _)| w);
    if let Some(word) =
        word.filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return Some(
            Diagnostic::new(
                path,
                format!(
                    "invalid puzzle YAML: `{word}:` is indented {}, so YAML reads it inside \
                     `{key}:`; a puzzle's own keys start at the line's first column",
                    crate::diag::plural(indent(lines[*at - 1]), "space")
                ),
            )
            .at(Some(*at), Some(1)),
        );
    }
    Some(
        Diagnostic::new(
            path,
            format!(
                "invalid puzzle YAML: this row of `{key}:` is indented less than its first row, and YAML \
                 takes a block's indentation from its first row; write `{key}: |{}` to say the rows \
                 are indented {}, the first one's extra spaces being part of the drawing",
                least - indent(head),
                crate::diag::plural(least - indent(head), "space")
            ),
        )
        .at(Some(*at), Some(1)),
    )
}

/// The errors serde_yaml places at the start of a mapping (`at`, line and column) or of the
/// document, at the line that causes them: a key given twice (at its second line) and a
/// second document (at its `---`).
fn located_elsewhere(path: &Path, source: &str, msg: &str, at: Option<(usize, usize)>) -> Option<Diagnostic> {
    let lines = || source.lines().enumerate().map(|(i, l)| (i + 1, l));
    if let Some((within, rest)) = msg.split_once("duplicate field `") {
        let key = rest.strip_suffix('`')?;
        // The mapping's keys: from its first, at its indentation.
        let (from, column) = at.unwrap_or((1, 1));
        let mut given = lines().skip(from - 1).filter(|(_, l)| {
            l.len() - l.trim_start().len() == column - 1
                && l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with(':'))
        });
        let (first, _) = given.next()?;
        let (again, _) = given.next()?;
        // A goal's board written at the first column, under a `goal:` left empty: the
        // puzzle's own board given twice, as YAML reads it.
        let under_goal = key == "board"
            && lines()
                .take(again - 1)
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .last()
                .is_some_and(|(_, l)| l.split(" #").next().is_some_and(|l| l.trim_end() == "goal:"));
        let keep = match under_goal {
            true => "a goal board is indented below `goal:`, as `goal:` then `  board: |`".to_string(),
            false => "keep one".to_string(),
        };
        return Some(
            Diagnostic::new(
                path,
                format!(
                    "invalid puzzle YAML: {within}`{key}:` is given twice, first at line {first}: {keep}"
                ),
            )
            .at(Some(again), Some(column)),
        );
    }
    if msg.contains("more than one document") {
        // A `---` after content starts a second document (one at the very top starts the first).
        let mut content = false;
        let (at, _) = lines().find(|(_, l)| {
            let starts = l.starts_with("---") && content;
            let t = l.trim();
            content |= !t.is_empty() && !t.starts_with('#') && !t.starts_with("---");
            starts
        })?;
        return Some(
            Diagnostic::new(
                path,
                "invalid puzzle YAML: this `---` starts a second YAML document; a puzzle file holds one \
                 puzzle (put each in a file of its own)",
            )
            .at(Some(at), Some(1)),
        );
    }
    // A lone CR ends a line too, as YAML reads it.
    let text = source.replace("\r\n", "\n").replace('\r', "\n");
    if msg.contains("unexpected end of stream")
        && let Some((line, column, quote)) = unclosed_quote(&text)
    {
        // The scanner met the end of the file inside a quoted string: placed at its opening.
        return Some(
            Diagnostic::new(
                path,
                format!(
                    "invalid puzzle YAML: the string opened by this `{quote}` is never closed: the file \
                     ends inside it"
                ),
            )
            .at(Some(line), Some(column)),
        );
    }
    let opened = |(line, column, offset)| Some((line, column, unclosed_flow(&text[offset..])?));
    let open = if msg.contains("did not find expected") || msg.contains("unexpected end of stream") {
        // The scanner stops where the text stops making sense, which may be far below.
        flow_openings(&text)
            .take_while(|&(line, _, _)| at.is_none_or(|(stop, _)| line <= stop))
            .find_map(opened)
    } else {
        let (line, column) = at?;
        let row = text.lines().nth(line.checked_sub(1)?)?;
        let start = text.lines().take(line - 1).map(|l| l.len() + 1).sum::<usize>();
        opened((
            line,
            column,
            start + row.char_indices().nth(column.checked_sub(1)?)?.0,
        ))
    };
    if let Some((line, column, bracket)) = open {
        // The parser reads a `[` or `{` the file ends inside as closed at the end: the type
        // error it then gives ("invalid type: sequence") hides that the bracket is open.
        return Some(
            Diagnostic::new(
                path,
                format!(
                    "invalid puzzle YAML: the `{bracket}` opened here is never closed: the file ends \
                     inside it"
                ),
            )
            .at(Some(line), Some(column)),
        );
    }
    None
}

/// The line and column (1-based) and the byte offset of each value that opens with `[` or
/// `{` (`key: [`, `- {`), the rows of block scalars (`board: |`) passed over.
fn flow_openings(text: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut block: Option<usize> = None;
    let mut start = 0;
    text.lines().enumerate().filter_map(move |(i, l)| {
        let row = start;
        start += l.len() + 1;
        if block.is_some_and(|b| l.trim().is_empty() || indent(l) > b) {
            return None;
        }
        block = None;
        let item = l.trim_start().trim_start_matches("- ");
        let value = item.split_once(": ").map_or(item, |(_, v)| v).trim_start();
        let header = value.split(" #").next().unwrap_or_default().trim_end();
        if header.starts_with(['|', '>'])
            && header[1..]
                .chars()
                .all(|c| c.is_ascii_digit() || c == '+' || c == '-')
        {
            block = Some(indent(l));
        }
        let at = l.len() - value.len();
        value
            .starts_with(['[', '{'])
            .then(|| (i + 1, l[..at].chars().count() + 1, row + at))
    })
}

/// The bracket `text` starts with when it is a `[` or `{` the text ends inside: brackets in
/// quoted strings and comments do not count. `text` has `\n` line ends only.
fn unclosed_flow(text: &str) -> Option<char> {
    let bracket = text.chars().next().filter(|c| matches!(c, '[' | '{'))?;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut comment = false;
    let (mut before, mut prev) = (' ', ' ');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\n') if comment => comment = false,
            _ if comment => continue,
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => {
                if q == '\'' && chars.peek() == Some(&'\'') {
                    chars.next();
                } else {
                    quote = None;
                }
            }
            (Some(_), _) => {}
            (None, '#') if matches!(prev, ' ' | '\t' | '\n') => comment = true,
            (None, '"' | '\'') if matches!(before, ' ' | '\n' | ':' | '[' | '{' | ',') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            (None, _) => {}
        }
        if c != ' ' && c != '\t' {
            before = c;
        }
        prev = c;
    }
    Some(bracket)
}

/// The line, column and character of a quote the text ends inside, if it does: a `"` or `'`
/// opens a string where a value starts (a line's start, or after `:`, `-`, `[`, `{` or `,`,
/// spaces between), outside a comment; `\"` in a `"` string, and `''` in a `'` one, do not
/// close it. `source` has `\n` line ends only.
fn unclosed_quote(source: &str) -> Option<(usize, usize, char)> {
    let mut open: Option<(usize, usize, char)> = None;
    for (i, line) in source.lines().enumerate() {
        let mut chars = line.char_indices().peekable();
        let (mut before, mut prev) = (None, None);
        while let Some((at, c)) = chars.next() {
            match open {
                Some((_, _, '"')) if c == '\\' => {
                    chars.next();
                }
                Some((_, _, q)) if c == q => {
                    if q == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') {
                        chars.next();
                    } else {
                        open = None;
                    }
                }
                Some(_) => {}
                None if c == '#' && prev.is_none_or(|p: char| p == ' ' || p == '\t') => break,
                None if (c == '"' || c == '\'')
                    && before.is_none_or(|b| matches!(b, ':' | '-' | '[' | '{' | ',')) =>
                {
                    open = Some((i + 1, line[..at].chars().count() + 1, c));
                }
                None => {}
            }
            if c != ' ' && c != '\t' {
                before = Some(c);
            }
            prev = Some(c);
        }
    }
    open
}

/// The keys of `goal:` that are no key of a puzzle's top ([`RawGoal`]'s, but `board`).
const GOAL_KEYS: [&str; 6] = ["pegs", "at", "moves", "reach", "left", "piece"];

/// The keys of `solve:` ([`LimitSpec`]'s).
const SOLVE_KEYS: [&str; 3] = ["timeout", "max_nodes", "max_memory"];

/// serde's words made the file's: "unknown field `bord`, expected one of `name`, …" with the
/// nearest key suggested ("unknown field `bord`: did you mean `board`? expected one of …"),
/// and "expected u32" as "expected a whole number".
fn suggested(msg: &str) -> String {
    let msg = crate::diag::whole_numbers(msg);
    let Some((head, key, known)) = crate::diag::unknown_field(&msg) else {
        return msg;
    };
    // A key of `goal:` or `solve:` written at the line's first column is read as the
    // puzzle's own: it is told where it belongs.
    let under = [("goal", &GOAL_KEYS[..]), ("solve", &SOLVE_KEYS[..])]
        .into_iter()
        .find(|(table, keys)| known.contains(table) && keys.contains(&key));
    if let Some((table, _)) = under {
        return msg.replacen(
            &format!("{head}unknown field `{key}`, "),
            &format!(
                "{head}unknown field `{key}`: `{key}` is a key of `{table}:`; indent it below `{table}:`, \
                 as `{table}:` then `  {key}: …`; "
            ),
            1,
        );
    }
    match crate::diag::did_you_mean(key, &known) {
        hint if hint.is_empty() => msg.clone(),
        hint => msg.replacen(
            &format!("{head}unknown field `{key}`, "),
            &format!("{head}unknown field `{key}`: {hint}"),
            1,
        ),
    }
}

/// The first tag (`!custom`) in a YAML value, as written.
fn first_tag(v: &serde_yaml::Value) -> Option<String> {
    use serde_yaml::Value;
    match v {
        Value::Tagged(t) => Some(t.tag.to_string()),
        Value::Sequence(items) => items.iter().find_map(first_tag),
        Value::Mapping(m) => m.iter().find_map(|(k, v)| first_tag(k).or_else(|| first_tag(v))),
        _ => None,
    }
}

/// Parses spec text; `path` is used for messages and to resolve relative rule paths.
pub fn parse(path: &Path, source: &str) -> Result<Spec> {
    // Editors on Windows start UTF-8 files with a byte-order mark; it is not content.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    check_nesting(source).map_err(|line| {
        Diagnostic::new(
            path,
            format!(
                "invalid puzzle YAML: brackets nested more than {MAX_FLOW_DEPTH} deep (a puzzle needs a few)"
            ),
        )
        .at(Some(line), None)
    })?;
    // Only an alias (`*name`) repeats what was written: a text without one expands to what
    // it holds, already bounded by the file cap (and this walk cost half as much as the
    // parse itself on a small puzzle).
    let expands = if source.contains('*') {
        expansion::check(source)
    } else {
        Ok(())
    };
    expands.map_err(|line| {
        Diagnostic::new(
            path,
            format!(
                "invalid puzzle YAML: its aliases expand to more than {} bytes (puzzles are limited to that, \
                 expanded)",
                expansion::MAX_EXPANDED_BYTES
            ),
        )
        .at(line, None)
    })?;
    // A tag (`!custom`) is read past by the fields it stands on: refused, as an unknown key
    // is, rather than silently meaning nothing. Looked for only where a `!` is written.
    if source.contains('!')
        && let Some(tag) = serde_yaml::from_str::<serde_yaml::Value>(source)
            .ok()
            .and_then(|v| first_tag(&v))
    {
        let line = source.lines().position(|l| l.contains(&tag)).map(|i| i + 1);
        return Err(Diagnostic::new(
            path,
            format!("invalid puzzle YAML: the tag `{tag}` means nothing to marbles: remove it"),
        )
        .at(line, None));
    }
    let raw: RawSpec = serde_yaml::from_str(source).map_err(|e| {
        let loc = e.location();
        let msg = e.to_string();
        // The location is ours to print; drop serde_yaml's " at line X column Y" suffix.
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        // A file that reads as one string is not quoted back: it may be any file (a key, a
        // `.env`) named as a puzzle, and this message goes into reports.
        let msg = match msg
            .strip_prefix("invalid type: string \"")
            .and_then(|rest| rest.rfind("\", expected ").map(|i| &rest[i + 3..]))
        {
            Some(expected) => format!("the file reads as one string, not a map of keys; {expected}"),
            None => msg,
        };
        if let Some(d) = loc
            .as_ref()
            .and_then(|l| indented_first_row(path, source, l.line()))
            .or_else(|| located_elsewhere(path, source, &msg, loc.as_ref().map(|l| (l.line(), l.column()))))
        {
            return d;
        }
        // The scanner names a byte it refuses by its offset ("at position 7") and places the
        // error at the document's start: placed at the byte instead.
        let byte = msg
            .rsplit_once(" at position ")
            .and_then(|(head, n)| Some((head, n.parse::<usize>().ok()?)))
            .filter(|&(_, n)| n <= source.len() && source.is_char_boundary(n));
        if let Some((head, n)) = byte {
            let (line, column) = crate::diag::line_and_column(source, n);
            return Diagnostic::new(path, format!("invalid puzzle YAML: {head}"))
                .at(Some(line), Some(column));
        }
        // YAML takes no tab for indentation: said in the puzzle's words, with what to do.
        let msg = match msg.contains("found a tab character") {
            true => format!("{msg}: indent with spaces (YAML does not take tabs there)"),
            false => suggested(&msg),
        };
        Diagnostic::new(path, format!("invalid puzzle YAML: {msg}"))
            .at(loc.as_ref().map(|l| l.line()), loc.as_ref().map(|l| l.column()))
    })?;
    let _ = raw.description;
    let here = |key: &str| key_line(source, key);
    let err = |key: &str, msg: String| Diagnostic::new(path, msg).at(here(key), Some(1));

    // A blank name would leave a blank row in every report: the file's stem stands in.
    let name = raw.name.filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let chars = name.chars().count();
    if chars > crate::limits::MAX_NAME_CHARS {
        return Err(err(
            "name",
            format!(
                "`name:` is {chars} characters long; a puzzle's name, shown in every report row, may have at most {}",
                crate::limits::MAX_NAME_CHARS
            ),
        ));
    }
    if raw.rules.trim().is_empty() {
        return Err(err(
            "rules",
            "`rules:` is empty: name a rule family such as peg_hop".into(),
        ));
    }

    let goal_board_line = raw
        .goal
        .as_ref()
        .and_then(|_| nested_key_line(source, "goal", "board"));
    let board_line = own_board_line(source, goal_board_line);
    // A folded block (`board: >`) joins the rows into one line: a board of one row, solved
    // as such without a word.
    if let Some(i) = source.lines().enumerate().position(|(i, l)| {
        // The puzzle's own `board:` (at the first column) or its goal's.
        let key = l.starts_with("board:") || goal_board_line == Some(i + 1);
        key && l
            .trim_start()
            .strip_prefix("board:")
            .is_some_and(|rest| rest.trim_start().starts_with('>'))
    }) {
        return Err(Diagnostic::new(
            path,
            "invalid puzzle YAML: `board: >` folds the rows into one line; write `board: |` to \
             keep each row on its own line",
        )
        .at(Some(i + 1), None));
    }

    let tilt = TiltKeys {
        size: raw.size,
        marbles: raw.marbles,
        holes: raw.holes,
        walls: raw.walls,
        exits: raw.exits,
        sliders: raw.sliders,
        blockers: raw.blockers,
    };
    let tilt_keys = match raw.board {
        Some(_) => tilt.any_but_walls(),
        None => tilt.any(),
    };
    let grid_walls = tilt.walls.clone();
    let board = match (raw.board, tilt_keys) {
        (Some(_), true) => {
            return Err(err(
                "board",
                "a puzzle has either `board:` (hop families) or `size:`/`marbles:`/`holes:` (tilt families), not both".into(),
            ));
        }
        (Some(text), false) => {
            let mut g = parse_grid(path, source, &text, board_line)?;
            g.walls = super::board::grid_walls(path, source, &g, grid_walls.unwrap_or_default())?;
            BoardSpec::Grid(g)
        }
        (None, true) => BoardSpec::Tilt(parse_tilt(path, source, tilt)?),
        (None, false) => {
            return Err(Diagnostic::new(
                path,
                "no board: give `board:` (rows of o . #) or, for tilt puzzles, `size:`, `marbles:` and `holes:`",
            ));
        }
    };

    let goal = match raw.goal {
        // `goal:` written with nothing under it: its keys were meant to be (a key at the
        // first column is the puzzle's own, and refused as such unless it is one).
        None if source
            .lines()
            .any(|l| l.split(" #").next().is_some_and(|l| l.trim_end() == "goal:")) =>
        {
            return Err(err(
                "goal",
                "`goal:` holds nothing: write its keys indented below it, as `goal:` then \
                 `  pegs: 1`, or leave `goal:` out for the default, one peg"
                    .into(),
            ));
        }
        None => GoalSpec::default(),
        Some(g) => {
            let pegs = count_or_fewest(path, source, g.pegs, "pegs", PegGoal::Count, PegGoal::Fewest)?;
            let moves = count_or_fewest(
                path,
                source,
                g.moves.map(|m| m.map(|m| m.0)),
                "moves",
                MoveGoal::Within,
                MoveGoal::Fewest,
            )?;
            let board = match g.board {
                None if goal_board_line.is_some() => {
                    return Err(Diagnostic::new(
                        path,
                        "goal: `board:` is empty: draw the end position on the board's shape",
                    )
                    .at(goal_board_line, None));
                }
                None => None,
                Some(text) => Some(parse_goal_board(path, source, &text, goal_board_line, &board)?),
            };
            if board.is_some() {
                let clash = [
                    ("pegs", pegs.is_some()),
                    ("at", g.at.is_some()),
                    ("reach", g.reach.is_some()),
                    ("left", g.left.is_some()),
                    ("piece", g.piece.is_some()),
                ];
                if let Some((key, _)) = clash.iter().find(|(_, given)| *given) {
                    return Err(Diagnostic::new(
                        path,
                        format!(
                            "goal: `{key}:` and `board:` together: the goal board already says how many pegs \
                             are left and where; drop `{key}:`"
                        ),
                    )
                    .at(goal_key_line(source, key), None));
                }
            }
            let reach_line = g.reach.and_then(|_| goal_key_line(source, "reach"));
            let kinds_line = match (&g.left, &g.piece) {
                (Some(_), _) => goal_key_line(source, "left"),
                (None, Some(_)) => goal_key_line(source, "piece"),
                (None, None) => None,
            };
            let kind_err = |why: String| Diagnostic::new(path, format!("goal: {why}")).at(kinds_line, None);
            let mut left = BTreeMap::new();
            for (name, n) in g.left.unwrap_or_default().0 {
                left.insert(kind_letter(&name).map_err(kind_err)?, n);
            }
            let piece = match g.piece {
                None => None,
                Some(_) if g.at.is_none() && g.reach.is_none() => {
                    return Err(kind_err(
                        "`piece:` names the kind that must stand on the `at:` or `reach:` cell: give one"
                            .into(),
                    ));
                }
                Some(name) => Some(kind_letter(&name).map_err(kind_err)?),
            };
            let goal = GoalSpec {
                pegs,
                at: g.at,
                moves,
                moves_line: moves.and_then(|_| goal_key_line(source, "moves")),
                at_line: g
                    .at
                    .and_then(|_| key_line(source, "at").or_else(|| key_line(source, "goal"))),
                board,
                board_line: goal_board_line,
                reach: g.reach,
                reach_line,
                piece,
                left,
                kinds_line,
            };
            check_reach(&goal).map_err(|why| Diagnostic::new(path, why).at(reach_line, None))?;
            goal
        }
    };
    check_goal_fits(path, source, &board, &goal)?;

    let limits = raw.solve.unwrap_or_default();
    if let Some(Err(why)) = limits.timeout.map(crate::limits::seconds) {
        return Err(
            Diagnostic::new(path, format!("solve: timeout: {why}")).at(key_line(source, "timeout"), None)
        );
    }

    let expect = match raw.expect {
        None => None,
        Some(None) => return Err(err("expect", super::expect::NO_VALUE.to_string())),
        Some(Some(e)) => Some(e.read().map_err(|why| err("expect", why))?),
    };

    Ok(Spec {
        path: path.to_path_buf(),
        source: source.to_string(),
        name,
        rules: raw.rules,
        board,
        goal,
        limits,
        ratings: raw.ratings.unwrap_or_default().0,
        trace: false,
        line: None,
        expect,
        expect_line: None,
    })
}
