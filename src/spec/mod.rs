//! Puzzle specs: a YAML file read into a typed, validated value whose every error is located.

use crate::diag::{Diagnostic, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Specs larger than this are refused before parsing: no real puzzle comes near it.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// A cell as the user writes it: `[row, col]`.
pub type Cell = [i64; 2];

/// One puzzle, as its YAML file describes it.
#[derive(Debug, Clone)]
pub struct Spec {
    pub path: PathBuf,
    pub source: String,
    pub name: String,
    /// The `rules:` value as written.
    pub rules: String,
    pub board: BoardSpec,
    pub goal: GoalSpec,
    pub limits: LimitSpec,
    /// Pegs left → the words for it, e.g. 1 → "genius".
    pub ratings: BTreeMap<u32, String>,
    /// The file asks for the search to be traced, as `--trace` does (a Lisp call's `#t`).
    pub trace: bool,
    /// The line the puzzle starts on, in a file holding several (Lisp, matrix, ICPC): errors
    /// found after reading (its goal, its rule script) name it there.
    pub line: Option<usize>,
}

/// The board in one of the two shapes families take.
#[derive(Debug, Clone, PartialEq)]
pub enum BoardSpec {
    /// Hop families: rows of tokens.
    Grid(GridBoard),
    /// Tilt families: an N×N box of numbered marbles, holes and walls.
    Tilt(TiltBoard),
}

#[derive(Debug, Clone, PartialEq)]
pub struct GridBoard {
    /// `rows[r][c]`: the token at `[r, c]`.
    pub rows: Vec<Vec<Token>>,
    /// `xs[r][c]`: the character column where the token at `[r, c]` is drawn, leading
    /// spaces included; row `r` is drawn on the board's line `r`.
    pub xs: Vec<Vec<i64>>,
}

impl GridBoard {
    /// Rows of 1, 2, 3, … tokens drawn as a triangle: centred, one space between tokens.
    pub fn triangle(rows: Vec<Vec<Token>>) -> Self {
        let height = rows.len() as i64;
        let xs = (0..height)
            .zip(&rows)
            .map(|(r, row)| (0..row.len() as i64).map(|c| height - r - 1 + 2 * c).collect())
            .collect();
        GridBoard { rows, xs }
    }

    /// Rows drawn left-aligned, one space between tokens (a square grid, or a triangle in the
    /// skewed convention the hop families also read).
    pub fn aligned(rows: Vec<Vec<Token>>) -> Self {
        let xs = rows
            .iter()
            .map(|row| (0..row.len() as i64).map(|c| 2 * c).collect())
            .collect();
        GridBoard { rows, xs }
    }

    /// Row `r` as drawn: each token at its column.
    pub fn drawn_row(&self, r: usize) -> String {
        let mut line = String::new();
        // Every symbol and pad is one char: `width` counts them without rescanning the line.
        let mut width = 0;
        for (t, &x) in self.rows[r].iter().zip(&self.xs[r]) {
            let pad = (x as usize).saturating_sub(width).max(usize::from(width > 0));
            line.extend(std::iter::repeat_n(' ', pad));
            line.push(t.symbol());
            width += pad + 1;
        }
        line
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Peg,
    Hole,
    Blocked,
}

impl Token {
    pub fn symbol(self) -> char {
        match self {
            Token::Peg => 'o',
            Token::Hole => '.',
            Token::Blocked => '#',
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TiltBoard {
    pub size: usize,
    pub marbles: Vec<Cell>,
    pub holes: Vec<Cell>,
    pub walls: Vec<[Cell; 2]>,
}

/// What counts as solved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoalSpec {
    pub pegs: Option<PegGoal>,
    pub at: Option<Cell>,
    /// `moves:`, a limit on moves, each one peg's chain of jumps.
    pub moves: Option<MoveGoal>,
    /// 1-based line of the `at:` key, for errors found once the geometry is known.
    pub at_line: Option<usize>,
    /// `board:`, a drawing of where pegs must stand at the end: the goal is exactly it.
    pub board: Option<GridBoard>,
    /// 1-based line of the goal's `board:` key.
    pub board_line: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PegGoal {
    Count(u32),
    Fewest,
}

/// A goal on moves, where a move is one peg's chain of consecutive jumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveGoal {
    /// As few moves as possible.
    Fewest,
    /// At most this many moves.
    Within(u32),
}

/// Per-puzzle limits from the spec's `solve:` section; the command line may override them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a map of `timeout:`, `max_nodes:`, `max_memory:`"
)]
pub struct LimitSpec {
    /// Seconds of wall time.
    pub timeout: Option<f64>,
    pub max_nodes: Option<u64>,
    /// Bytes, or a size such as `512MB`.
    pub max_memory: Option<ByteSize>,
}

/// A byte count written as a number or with a unit (`64KB`, `1.5GiB`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub u64);

impl std::str::FromStr for ByteSize {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a size: write a number of bytes or e.g. 512MB, 2GiB"))?;
        let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1.0,
            "k" | "kb" => 1e3,
            "kib" => 1024.0,
            "m" | "mb" => 1e6,
            "mib" => 1024.0 * 1024.0,
            "g" | "gb" => 1e9,
            "gib" => 1024.0 * 1024.0 * 1024.0,
            other => {
                return Err(format!(
                    "unknown size unit `{other}` in `{s}`: use B, KB, MB, GB, KiB, MiB or GiB"
                ));
            }
        };
        Ok(ByteSize((n * mult) as u64))
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        number_or_text(
            d,
            "a size: a number of bytes or e.g. 512MB",
            |n| Ok(ByteSize(n)),
            str::parse,
        )
    }
}

/// Reads a value written either as a whole number or as text, with errors in the user's
/// terms (`expecting`) rather than serde's (an untagged enum's "did not match any variant").
fn number_or_text<'de, D, T>(
    d: D,
    expecting: &'static str,
    number: fn(u64) -> std::result::Result<T, String>,
    text: fn(&str) -> std::result::Result<T, String>,
) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::{Error, Unexpected, Visitor};
    struct V<T> {
        expecting: &'static str,
        number: fn(u64) -> std::result::Result<T, String>,
        text: fn(&str) -> std::result::Result<T, String>,
    }
    impl<T> Visitor<'_> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_u64<E: Error>(self, n: u64) -> std::result::Result<T, E> {
            (self.number)(n).map_err(E::custom)
        }
        fn visit_i64<E: Error>(self, n: i64) -> std::result::Result<T, E> {
            match u64::try_from(n) {
                Ok(n) => self.visit_u64(n),
                Err(_) => Err(E::invalid_value(Unexpected::Signed(n), &self)),
            }
        }
        fn visit_str<E: Error>(self, s: &str) -> std::result::Result<T, E> {
            (self.text)(s).map_err(E::custom)
        }
    }
    d.deserialize_any(V {
        expecting,
        number,
        text,
    })
}

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
    goal: Option<RawGoal>,
    solve: Option<LimitSpec>,
    ratings: Option<BTreeMap<u32, String>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a map with `pegs:` and optionally `at:` and `moves:`, or `board:`"
)]
struct RawGoal {
    pegs: Option<RawPegs>,
    at: Option<Cell>,
    moves: Option<RawPegs>,
    board: Option<String>,
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

/// Reads and validates the spec at `path`.
pub fn load(path: &Path) -> Result<Spec> {
    let source = read_text(path)?;
    parse(path, &source)
}

/// What a file read by [`read_text`] is, for its messages: scripts are read the same way.
fn kind_of(path: &Path) -> &'static str {
    match path.extension().is_some_and(|e| e.eq_ignore_ascii_case("rhai")) {
        true => "rule script",
        false => "puzzle file",
    }
}

/// Reads a small UTF-8 text file, refusing directories, FIFOs, huge files and bad bytes.
pub fn read_text(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Diagnostic::new(path, format!("cannot read: {}", io_reason(&e))))?;
    if meta.is_dir() {
        return Err(Diagnostic::new(
            path,
            "is a directory, not a puzzle file (use `marbles batch` for folders)",
        ));
    }
    if !meta.is_file() {
        return Err(Diagnostic::new(
            path,
            "is not a regular file (a FIFO, socket or device?); marbles reads puzzle files only",
        ));
    }
    if meta.len() > MAX_SPEC_BYTES {
        return Err(Diagnostic::new(
            path,
            format!(
                "is {} bytes; {}s are limited to {} bytes",
                meta.len(),
                kind_of(path),
                MAX_SPEC_BYTES
            ),
        ));
    }
    let bytes = crate::io_limits::read_at_most(path, MAX_SPEC_BYTES)
        .map_err(|e| Diagnostic::new(path, format!("cannot read: {}", io_reason(&e))))?
        .ok_or_else(|| {
            Diagnostic::new(
                path,
                format!(
                    "holds more than its size says ({} bytes): files are limited to {MAX_SPEC_BYTES} bytes",
                    meta.len()
                ),
            )
        })?;
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        Diagnostic::new(path, "is not valid UTF-8 text").at(Some(line), None)
    })
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
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
    expansion::check(source).map_err(|line| {
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
    let raw: RawSpec = serde_yaml::from_str(source).map_err(|e| {
        let loc = e.location();
        let msg = e.to_string();
        // The location is ours to print; drop serde_yaml's " at line X column Y" suffix.
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Diagnostic::new(path, format!("invalid puzzle YAML: {msg}"))
            .at(loc.as_ref().map(|l| l.line()), loc.as_ref().map(|l| l.column()))
    })?;
    let _ = raw.description;
    let here = |key: &str| key_line(source, key);
    let err = |key: &str, msg: String| Diagnostic::new(path, msg).at(here(key), Some(1));

    let name = raw.name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
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

    let tilt_keys = raw.size.is_some() || raw.marbles.is_some() || raw.holes.is_some() || raw.walls.is_some();
    let board = match (raw.board, tilt_keys) {
        (Some(_), true) => {
            return Err(err(
                "board",
                "a puzzle has either `board:` (hop families) or `size:`/`marbles:`/`holes:` (tilt families), not both".into(),
            ));
        }
        (Some(text), false) => BoardSpec::Grid(parse_grid(path, source, &text, board_line)?),
        (None, true) => BoardSpec::Tilt(parse_tilt(
            path,
            source,
            raw.size,
            raw.marbles,
            raw.holes,
            raw.walls,
        )?),
        (None, false) => {
            return Err(Diagnostic::new(
                path,
                "no board: give `board:` (rows of o . #) or, for tilt puzzles, `size:`, `marbles:` and `holes:`",
            ));
        }
    };

    let goal = match raw.goal {
        None => GoalSpec::default(),
        Some(g) => {
            let pegs = match g.pegs {
                None => None,
                Some(RawPegs::Count(n)) => Some(PegGoal::Count(n)),
                Some(RawPegs::Word(w)) if w == "fewest" => Some(PegGoal::Fewest),
                Some(RawPegs::Word(w)) => {
                    return Err(Diagnostic::new(
                        path,
                        format!("goal pegs `{w}` is neither a number nor `fewest`"),
                    )
                    .at(key_line(source, "pegs"), None));
                }
            };
            let moves = match g.moves {
                None => None,
                Some(RawPegs::Count(n)) => Some(MoveGoal::Within(n)),
                Some(RawPegs::Word(w)) if w == "fewest" => Some(MoveGoal::Fewest),
                Some(RawPegs::Word(w)) => {
                    return Err(Diagnostic::new(
                        path,
                        format!("goal moves `{w}` is neither a number nor `fewest`"),
                    )
                    .at(key_line(source, "moves"), None));
                }
            };
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
                let clash = [("pegs", pegs.is_some()), ("at", g.at.is_some())];
                if let Some((key, _)) = clash.iter().find(|(_, given)| *given) {
                    return Err(Diagnostic::new(
                        path,
                        format!(
                            "goal: `{key}:` and `board:` together: the goal board already says how many pegs \
                             are left and where; drop `{key}:`"
                        ),
                    )
                    .at(nested_key_line(source, "goal", key), None));
                }
            }
            GoalSpec {
                pegs,
                at: g.at,
                moves,
                at_line: g.at.and_then(|_| key_line(source, "at")),
                board,
                board_line: goal_board_line,
            }
        }
    };
    if let Some(PegGoal::Count(0)) = goal.pegs {
        return Err(Diagnostic::new(path, "goal pegs must be at least 1").at(key_line(source, "pegs"), None));
    }
    check_goal_fits(path, source, &board, &goal)?;

    let limits = raw.solve.unwrap_or_default();
    if let Some(Err(why)) = limits.timeout.map(crate::limits::seconds) {
        return Err(
            Diagnostic::new(path, format!("solve: timeout: {why}")).at(key_line(source, "timeout"), None)
        );
    }

    Ok(Spec {
        path: path.to_path_buf(),
        source: source.to_string(),
        name,
        rules: raw.rules,
        board,
        goal,
        limits,
        ratings: raw.ratings.unwrap_or_default(),
        trace: false,
        line: None,
    })
}

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

/// A goal the board can meet at all: none on a tilt puzzle (its goal is fixed), and no more
/// pegs than a hop board starts with (a jump only removes pegs).
fn check_goal_fits(path: &Path, source: &str, board: &BoardSpec, goal: &GoalSpec) -> Result<()> {
    let grid = match board {
        BoardSpec::Tilt(_) if goal != &GoalSpec::default() || key_line(source, "goal").is_some() => {
            return Err(Diagnostic::new(
                path,
                "a tilt puzzle takes no `goal:`: it is always every marble in its own hole",
            )
            .at(key_line(source, "goal"), None));
        }
        BoardSpec::Tilt(_) => return Ok(()),
        BoardSpec::Grid(g) => g,
    };
    let count = |t: Token| grid.rows.iter().flatten().filter(|&&x| x == t).count();
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    // A goal board leaves its pegs, as `pegs:` would.
    let (want, what, line) = match (goal.pegs, &goal.board) {
        (Some(PegGoal::Count(n)), _) => (
            n,
            plural(n as usize, "peg") + " to leave",
            key_line(source, "pegs"),
        ),
        (_, Some(b)) => {
            let n = b.rows.iter().flatten().filter(|&&t| t == Token::Peg).count();
            (
                n as u32,
                format!("`board:` has {}", plural(n, "peg")),
                goal.board_line,
            )
        }
        _ => return Ok(()),
    };
    let (pegs, holes) = (count(Token::Peg), count(Token::Peg) + count(Token::Hole));
    let why = if want as usize > holes {
        format!("the board holds only {}", plural(holes, "hole"))
    } else if want as usize > pegs {
        format!(
            "the board starts with {} and a jump only removes pegs",
            plural(pegs, "peg")
        )
    } else {
        return Ok(());
    };
    Err(Diagnostic::new(path, format!("goal: {what}, but {why}")).at(line, None))
}

/// The line of the puzzle's own `board:`: the first one that is not the goal's (on
/// `goal_line`), which may come before it.
fn own_board_line(source: &str, goal_line: Option<usize>) -> Option<usize> {
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

/// Reads `goal: board:`, a drawing of the puzzle's board. Whether it has the board's holes
/// is told where they stand on the family's lattice (see `model`), so it is drawn in any style
/// the family reads.
fn parse_goal_board(
    path: &Path,
    source: &str,
    text: &str,
    line: Option<usize>,
    board: &BoardSpec,
) -> Result<GridBoard> {
    let BoardSpec::Grid(board) = board else {
        return Err(Diagnostic::new(
            path,
            "goal: `board:` is for hop puzzles; a tilt puzzle's goal is every marble in its own hole",
        )
        .at(line, None));
    };
    let err = |msg: String| Diagnostic::new(path, msg).at(line, None);
    let goal = parse_grid(path, source, text, line).map_err(|e| {
        // A drawing of no holes at all is a shape error, not a board of no holes.
        if e.message == "the board has no holes" {
            err(format!(
                "goal: `board:` has no holes, but the board has {}: draw the goal on the board's shape",
                board
                    .rows
                    .iter()
                    .flatten()
                    .filter(|&&t| t != Token::Blocked)
                    .count()
            ))
        } else {
            Diagnostic {
                message: format!("goal: {}", e.message),
                ..e
            }
        }
    })?;
    if !goal.rows.iter().flatten().any(|&t| t == Token::Peg) {
        return Err(err(
            "goal: `board:` has no pegs, but a hop never takes the last one".into(),
        ));
    }
    Ok(goal)
}

fn parse_grid(path: &Path, source: &str, text: &str, board_line: Option<usize>) -> Result<GridBoard> {
    let src_lines: Vec<&str> = source.lines().collect();
    let mut rows = Vec::new();
    let mut xs = Vec::new();
    for (r, line) in text.lines().enumerate() {
        // Where a token is drawn decides the board; a tab has no one width.
        if let Some(at) = line.trim_end().find('\t') {
            let (l, col) = locate_in_block(&src_lines, board_line, r, line, at);
            return Err(Diagnostic::new(
                path,
                "a tab in the board: draw it with spaces (where each token stands decides the board)",
            )
            .at(l, col));
        }
        let mut row = Vec::new();
        let mut row_xs = Vec::new();
        // Columns counted on from the previous token, so a wide row costs linear time.
        let (mut seen, mut col) = (0, 0);
        for (c, (offset, tok)) in tokens(line).enumerate() {
            col += line[seen..offset].chars().count();
            seen = offset;
            row_xs.push(col as i64);
            let t = match tok {
                "o" => Token::Peg,
                "." => Token::Hole,
                "#" => Token::Blocked,
                other => {
                    let (l, col) = locate_in_block(&src_lines, board_line, r, line, offset);
                    return Err(Diagnostic::new(
                        path,
                        format!(
                            "unknown board token `{other}` at [{r}, {c}]: use `o` for a peg, `.` for an empty hole, `#` for no hole"
                        ),
                    )
                    .at(l, col));
                }
            };
            row.push(t);
        }
        rows.push(row);
        xs.push(row_xs);
    }
    while rows.last().is_some_and(|r: &Vec<Token>| r.is_empty()) {
        rows.pop();
        xs.pop();
    }
    let holes = rows.iter().flatten().filter(|&&t| t != Token::Blocked).count();
    if holes == 0 {
        return Err(Diagnostic::new(path, "the board has no holes").at(board_line, None));
    }
    crate::limits::check_hop(holes).map_err(|why| Diagnostic::new(path, why).at(board_line, None))?;
    Ok(GridBoard { rows, xs })
}

/// Whitespace-separated tokens with their byte offsets in the line.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace()
        .map(move |t| (t.as_ptr() as usize - line.as_ptr() as usize, t))
}

/// Where row `r` of a block-scalar board sits in the source, if it can be found.
fn locate_in_block(
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

fn parse_tilt(
    path: &Path,
    source: &str,
    size: Option<i64>,
    marbles: Option<Vec<Cell>>,
    holes: Option<Vec<Cell>>,
    walls: Option<Vec<[Cell; 2]>>,
) -> Result<TiltBoard> {
    let err = |key: &str, msg: String| Diagnostic::new(path, msg).at(key_line(source, key), None);
    let size = size.ok_or_else(|| {
        err(
            "marbles",
            "a tilt puzzle needs `size:` (the board is size × size)".into(),
        )
    })?;
    let marbles = marbles.ok_or_else(|| {
        err(
            "size",
            "a tilt puzzle needs `marbles:`, a list of [row, col]".into(),
        )
    })?;
    let holes = holes.ok_or_else(|| {
        err(
            "size",
            "a tilt puzzle needs `holes:`, a list of [row, col]".into(),
        )
    })?;
    let walls = walls.unwrap_or_default();
    if let Err((part, why)) = crate::limits::check_tilt(size, marbles.len() as i64) {
        return Err(err(part.key(), why));
    }
    if marbles.len() != holes.len() {
        return Err(err(
            "holes",
            format!(
                "{} marble{} but {} hole{}: hole k takes marble k, so the counts must match",
                marbles.len(),
                if marbles.len() == 1 { "" } else { "s" },
                holes.len(),
                if holes.len() == 1 { "" } else { "s" },
            ),
        ));
    }
    let on_board = |c: &Cell| (0..size).contains(&c[0]) && (0..size).contains(&c[1]);
    for (key, list) in [("marbles", &marbles), ("holes", &holes)] {
        for (k, cell) in list.iter().enumerate() {
            if !on_board(cell) {
                return Err(err(
                    key,
                    format!(
                        "{} {} at [{}, {}] is off the {size}×{size} board",
                        &key[..key.len() - 1],
                        k + 1,
                        cell[0],
                        cell[1]
                    ),
                ));
            }
            if let Some(j) = list[..k].iter().position(|o| o == cell) {
                return Err(err(
                    key,
                    format!(
                        "{key} {} and {} share the cell [{}, {}]",
                        j + 1,
                        k + 1,
                        cell[0],
                        cell[1]
                    ),
                ));
            }
        }
    }
    for [a, b] in &walls {
        if !on_board(a) || !on_board(b) {
            return Err(err(
                "walls",
                format!(
                    "the wall between [{}, {}] and [{}, {}] is off the {size}×{size} board",
                    a[0], a[1], b[0], b[1]
                ),
            ));
        }
        if (a[0] - b[0]).abs() + (a[1] - b[1]).abs() != 1 {
            return Err(err(
                "walls",
                format!(
                    "a wall stands between two side-by-side cells; [{}, {}] and [{}, {}] are not side by side",
                    a[0], a[1], b[0], b[1]
                ),
            ));
        }
    }
    Ok(TiltBoard {
        size: size as usize,
        marbles,
        holes,
        walls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(src: &str) -> Result<Spec> {
        parse(Path::new("t.yaml"), src)
    }

    #[test]
    fn reads_a_grid_board_with_rows_of_any_length() {
        let s = p("rules: triangle_hop\nboard: |2\n    .\n   o o\n  o o o\n").unwrap();
        let BoardSpec::Grid(g) = s.board else { panic!() };
        assert_eq!(g.rows.iter().map(|r| r.len()).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(g.rows[0][0], Token::Hole);
        assert_eq!(g.xs, vec![vec![2], vec![1, 3], vec![0, 2, 4]]);
        assert_eq!(s.name, "t");
    }

    #[test]
    fn unknown_token_is_located() {
        let e = p("rules: peg_hop\nboard: |\n  o o\n  o x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4:5: unknown board token `x` at [1, 1]: use `o` for a peg, `.` for an empty hole, `#` for no hole"
        );
    }

    #[test]
    fn malformed_yaml_is_located() {
        let e = p("rules: peg_hop\nboard: [\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.starts_with("invalid puzzle YAML"), "{e}");
    }

    #[test]
    fn tilt_counts_must_match() {
        let e = p("rules: tilt_roll\nsize: 4\nmarbles: [[0,1]]\nholes: [[1,1],[2,2]]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:4: 1 marble but 2 holes: hole k takes marble k, so the counts must match"
        );
    }

    #[test]
    fn walls_must_join_neighbours() {
        let e = p("rules: tilt_roll\nsize: 4\nmarbles: [[0,1]]\nholes: [[1,1]]\nwalls: [[[0,0],[1,1]]]\n")
            .unwrap_err();
        assert!(e.message.contains("not side by side"), "{e}");
        assert_eq!(e.line, Some(5));
    }

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!("512MB".parse::<ByteSize>().unwrap(), ByteSize(512_000_000));
        assert_eq!("2GiB".parse::<ByteSize>().unwrap(), ByteSize(2 << 30));
        assert!("12 parsecs".parse::<ByteSize>().is_err());
    }
}

/// The size a YAML document expands to, aliases repeated, measured before it is built.
///
/// yaml_serde bounds how many times aliases may be replayed, but not what each replay copies:
/// one 300 KB anchored string repeated through `ratings:` became 2 GB. [`check`] walks the
/// document once without keeping anything (strings are borrowed from the parser's events)
/// and stops as soon as the scalars it has seen pass [`MAX_EXPANDED_BYTES`].
mod expansion {
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::cell::Cell;

    /// Four times the file cap: room for honest anchors, none for a bomb.
    pub const MAX_EXPANDED_BYTES: u64 = 4 * super::MAX_SPEC_BYTES;
    /// What each node costs beyond its text, so that empty nodes are not free.
    const NODE_BYTES: u64 = 8;
    const TOO_BIG: &str = "marbles: expansion limit";

    /// `Err(line)` when the document expands past the limit; every other problem is left to
    /// the real parse, which reports it with its location.
    pub fn check(source: &str) -> Result<(), Option<usize>> {
        let used = Cell::new(0u64);
        for doc in serde_yaml::Deserializer::from_str(source) {
            if let Err(e) = (Counter { used: &used }).deserialize(doc) {
                if e.to_string().contains(TOO_BIG) {
                    return Err(e.location().map(|l| l.line()));
                }
                return Ok(());
            }
        }
        Ok(())
    }

    #[derive(Clone, Copy)]
    struct Counter<'a> {
        used: &'a Cell<u64>,
    }

    impl Counter<'_> {
        fn spend<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
            let used = self.used.get() + bytes as u64 + NODE_BYTES;
            self.used.set(used);
            if used > MAX_EXPANDED_BYTES {
                return Err(E::custom(TOO_BIG));
            }
            Ok(())
        }
    }

    impl<'de> DeserializeSeed<'de> for Counter<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Counter<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any YAML")
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
            self.spend(v.len())
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_none<E: de::Error>(self) -> Result<(), E> {
            self.spend(0)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.spend::<A::Error>(0)?;
            while seq.next_element_seed(self)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.spend::<A::Error>(0)?;
            while map.next_key_seed(self)?.is_some() {
                map.next_value_seed(self)?;
            }
            Ok(())
        }
        fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
            use de::VariantAccess;
            let ((), v) = data.variant_seed(self)?;
            v.newtype_variant_seed(self)
        }
    }
}
