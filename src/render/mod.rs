//! Everything marbles writes for a person to read about one puzzle: boards and moves as plain
//! text ([`board`], [`solution`]), the answers `solve --format` writes ([`answer`]) and search
//! traces ([`trace`]). Reports over many puzzles are [`crate::report`]'s.

pub mod answer;
pub mod progress;
pub mod trace;

use crate::diag::plural;
use crate::outcome::{MoveOut, Outcome, Over, Replay, Status};
use crate::script::Layout;
use crate::spec::Cell;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Text from a puzzle or script (names, paths, printed lines) as a terminal may show it:
/// control characters, which could move the cursor, retitle the window or hide text, and
/// bidirectional overrides are written as `\u{1b}` escapes. Line breaks are kept.
pub fn terminal(s: &str) -> Cow<'_, str> {
    escaped(s, true)
}

/// [`terminal`], with line breaks escaped too: for a name or path set in a line of its own
/// (a heading, a matrix answer's `#` line), where a line break would start a line that
/// readers take for something else.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escaped(s, false)
}

/// A writer that passes everything through [`terminal`]: for a command whose every line may
/// carry names from a script or a puzzle (`play`'s moves, hints and refusals), so that none
/// is written raw, whichever line forgot.
pub struct Escaping<W>(pub W);

impl<W: std::io::Write> std::io::Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // `write!` hands whole `str` pieces: a piece is text unless a caller wrote bytes.
        self.0
            .write_all(terminal(&String::from_utf8_lossy(buf)).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

fn escaped(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !(keep_newlines && c == '\n'))
            || matches!(
                c,
                '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            )
    };
    if !s.contains(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How hop boards are drawn: marbles' own letters, or the Lisp assignment's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Style {
    /// `o` peg, `.` hole, `#` no hole, `*` the peg that moved: as YAML and ICPC files read.
    #[default]
    Plain,
    /// `x` peg, `o` hole, `-` no hole, `X` the peg that moved; boards as Lisp lists of rows.
    Lisp,
}

impl Style {
    /// The characters this style draws a hop board with.
    pub fn symbols(self) -> Symbols {
        match self {
            Style::Lisp => Symbols {
                peg: 'x',
                hole: 'o',
                blocked: '-',
                moved: 'X',
            },
            Style::Plain => Symbols {
                peg: 'o',
                hole: '.',
                blocked: '#',
                moved: '*',
            },
        }
    }
}

/// The characters a style draws a hop board with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbols {
    pub peg: char,
    pub hole: char,
    /// A position of the grid with no hole (Lisp triangles have none).
    pub blocked: char,
    /// The peg that just moved.
    pub moved: char,
}

impl Symbols {
    /// Rows of a hop board: `widths[r]` positions in row r, `cells` the holes in index order,
    /// `peg(k)` whether hole k holds a peg, `mark` a cell drawn as [`Symbols::moved`].
    pub fn rows(
        &self,
        widths: &[usize],
        cells: &[Cell],
        peg: impl Fn(usize) -> bool,
        mark: Option<Cell>,
    ) -> Vec<Vec<char>> {
        widths
            .iter()
            .enumerate()
            .map(|(r, &w)| {
                (0..w)
                    .map(|c| {
                        let cell = [r as i64, c as i64];
                        match cells.iter().position(|x| *x == cell) {
                            None => self.blocked,
                            Some(_) if mark == Some(cell) => self.moved,
                            Some(k) if peg(k) => self.peg,
                            Some(_) => self.hole,
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl Symbols {
    /// Frame `i` of a hop replay as rows of symbols for the list notations (matrix, Lisp): a
    /// square board as the grid it is pictured on — a hole drawn past spaces sits in its
    /// column, short rows are filled out with [`Symbols::blocked`] — and a triangle as its
    /// rows of tokens. `mark` is a cell drawn as [`Symbols::moved`].
    pub fn hop_rows(&self, replay: &Replay, i: usize, mark: Option<Cell>) -> Vec<Vec<char>> {
        let Replay::Hop {
            layout,
            widths,
            cells,
            frames,
            ..
        } = replay
        else {
            return Vec::new();
        };
        let bits = frames[i].as_bytes();
        let symbol = |k: usize| match () {
            _ if mark == Some(cells[k]) => self.moved,
            _ if bits[k] == b'1' => self.peg,
            _ => self.hole,
        };
        let picture = hop_picture(replay).filter(|(holes, _)| !holes.is_empty());
        let (Layout::Square, Some((holes, blocked))) = (layout, picture) else {
            return self.rows(widths, cells, |k| bits[k] == b'1', mark);
        };
        let all = || holes.iter().chain(&blocked);
        let (x0, y0) = (
            all().map(|p| p[0]).min().unwrap_or(0),
            all().map(|p| p[1]).min().unwrap_or(0),
        );
        let at = |[x, y]: [i64; 2]| ((y - y0) as usize, ((x - x0) / 2) as usize);
        let height = holes.iter().map(|&p| at(p).0 + 1).max().unwrap_or(0);
        let width = holes.iter().map(|&p| at(p).1 + 1).max().unwrap_or(0);
        let mut grid = vec![vec![self.blocked; width]; height];
        for (k, &p) in holes.iter().enumerate() {
            let (r, c) = at(p);
            grid[r][c] = symbol(k);
        }
        grid
    }
}

/// The most text one board's picture takes: a drawing far apart or far right is cut there.
pub const MAX_PICTURE_BYTES: usize = 2 << 20;

/// Pictured positions of a hop board's holes and of its `#` tokens.
pub type Picture = (Vec<[i64; 2]>, Vec<[i64; 2]>);

/// Where a hop replay's holes (in cell-index order) and `#` tokens are pictured: `[x, y]`, half
/// steps across and rows down, the same positions for text and pictures. Records written
/// before positions were kept get rows as the old answers drew them: triangles centred.
pub fn hop_picture(replay: &Replay) -> Option<Picture> {
    let Replay::Hop {
        layout,
        widths,
        cells,
        pictured,
        blocked,
        ..
    } = replay
    else {
        return None;
    };
    if !pictured.is_empty() {
        return Some((pictured.clone(), blocked.clone()));
    }
    let height = widths.len() as i64;
    let at = |[r, c]: Cell| match layout {
        Layout::Square => [2 * c, r],
        Layout::Triangle => [height - r - 1 + 2 * c, r],
    };
    let tokens = widths
        .iter()
        .enumerate()
        .flat_map(|(r, &w)| (0..w as i64).map(move |c| [r as i64, c]));
    let blocked = tokens.filter(|t| !cells.contains(t)).map(at).collect();
    Some((cells.iter().map(|&c| at(c)).collect(), blocked))
}

/// The walls of a hop replay on a square board, each as the pictured positions of the two
/// squares it parts (see [`hop_picture`]); a wall beside a `#` is left out (nothing passes
/// there anyway).
pub fn wall_pairs(replay: &Replay) -> Vec<([i64; 2], [i64; 2])> {
    let Replay::Hop {
        layout: Layout::Square,
        cells,
        walls,
        ..
    } = replay
    else {
        return Vec::new();
    };
    if walls.is_empty() {
        return Vec::new();
    }
    let (holes, _) = hop_picture(replay).unwrap_or_default();
    let index: std::collections::HashMap<Cell, usize> =
        cells.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let at = |c: &Cell| index.get(c).and_then(|&k| holes.get(k).copied());
    walls.iter().filter_map(|[a, b]| Some((at(a)?, at(b)?))).collect()
}

/// Where a pictured position sits on a plane where neighbouring holes are 1 apart: square
/// cells on a grid, triangle rows packed to equilateral spacing.
pub fn hop_point(layout: Layout, [x, y]: [i64; 2]) -> (f64, f64) {
    let row = match layout {
        Layout::Square => 1.0,
        Layout::Triangle => 0.866,
    };
    (x as f64 / 2.0, y as f64 * row)
}

/// How a text board draws an empty target square.
const TARGET: char = '+';

/// Frame `i` of a replay as text. For hop boards `mark` is a cell drawn `*` (the peg that
/// just moved), and a target no piece stands on is drawn `+`; every other cell reads as in a
/// puzzle file: `o` peg, `.` hole, `#` no hole.
pub fn board(replay: &Replay, i: usize, mark: Option<Cell>) -> String {
    match replay {
        Replay::Hop {
            cells,
            frames,
            targets,
            ..
        } => {
            let frame = frames[i].as_bytes();
            // Pieces of kinds, if the start or this frame has a letter (an emptied board may not).
            let lettered = [&frames[0], &frames[i]]
                .iter()
                .any(|f| f.bytes().any(|b| b.is_ascii_alphabetic()));
            let symbols = Style::Plain.symbols();
            let (holes, blocked) = hop_picture(replay).unwrap_or_default();
            // Each line's tokens by column (a hole over a `#` at its place): lines far apart or
            // far right cost no memory.
            let mut lines: BTreeMap<i64, BTreeMap<i64, char>> = BTreeMap::new();
            for &[x, y] in &blocked {
                lines.entry(y).or_default().insert(x, symbols.blocked);
            }
            for (k, &[x, y]) in holes.iter().enumerate() {
                // A piece of a kind is drawn by its letter, the one that moved too, and an
                // empty hole as empty even where a piece landed (it may have gone since).
                let ch = match () {
                    _ if frame[k].is_ascii_alphabetic() => frame[k] as char,
                    _ if mark == Some(cells[k]) && !lettered => symbols.moved,
                    _ if frame[k] == b'1' => symbols.peg,
                    _ if targets.contains(&cells[k]) => TARGET,
                    _ => symbols.hole,
                };
                lines.entry(y).or_default().insert(x, ch);
            }
            // Walls: `|` between squares side by side, `---` under a square above one.
            let mut under: BTreeMap<i64, BTreeMap<i64, char>> = BTreeMap::new();
            for ([xa, ya], [xb, yb]) in wall_pairs(replay) {
                if ya == yb {
                    lines.entry(ya).or_default().entry((xa + xb) / 2).or_insert('|');
                } else {
                    let marks = under.entry(ya.min(yb)).or_default();
                    for x in xa - 1..=xa + 1 {
                        marks.insert(x, '-');
                    }
                }
            }
            // A wall under the leftmost column starts left of the board: every line moves
            // right by one, so that wall is drawn whole.
            let shift = under.values().any(|m| m.keys().next().is_some_and(|&x| x < 0)) as i64;
            let draw = |tokens: &BTreeMap<i64, char>| {
                let mut line = String::new();
                for (&x, &ch) in tokens {
                    line.push_str(&" ".repeat(((x + shift) as usize).saturating_sub(line.len())));
                    line.push(ch);
                }
                line
            };
            let mut out = String::new();
            let mut y = 0;
            for (line_y, tokens) in lines {
                let gap = (line_y - y) as usize;
                let width = tokens.last_key_value().map_or(0, |t| *t.0 as usize + 1);
                if out.len() + gap + width > MAX_PICTURE_BYTES {
                    out.push_str(&format!(
                        "… the rest of this board is not drawn (a board is drawn in at most {} MiB)\n",
                        MAX_PICTURE_BYTES >> 20
                    ));
                    break;
                }
                out.push_str(&"\n".repeat(gap));
                out.push_str(&draw(&tokens));
                out.push('\n');
                if let Some(marks) = under.get(&line_y) {
                    out.push_str(&draw(marks));
                    out.push('\n');
                }
                y = line_y + 1;
            }
            out
        }
        Replay::Tilt {
            size,
            walls,
            holes,
            exits,
            pieces,
            frames,
        } => tilt_board(*size, walls, (holes, exits, pieces), &frames[i]),
    }
}

/// A tilt board in text: numbered marbles by number and empty holes as `(k)`; on a board with
/// exits, `s` a slider, `b` a blocker and `E` an exit; `.` plain floor, `|` and `---` walls.
fn tilt_board(
    n: usize,
    walls: &[[Cell; 2]],
    (holes, exits, pieces): (&[Cell], &[Cell], &str),
    marbles: &[Option<Cell>],
) -> String {
    let wall = |a: Cell, b: Cell| walls.iter().any(|w| *w == [a, b] || *w == [b, a]);
    let mut out = String::new();
    for r in 0..n as i64 {
        let mut line = String::new();
        for c in 0..n as i64 {
            let cell = [r, c];
            let text = if let Some(k) = marbles.iter().position(|m| *m == Some(cell)) {
                match pieces.as_bytes().get(k) {
                    Some(&kind) => format!(" {} ", kind as char),
                    None => format!("{:^3}", k + 1),
                }
            } else if exits.contains(&cell) {
                " E ".to_string()
            } else if let Some(k) = holes
                .iter()
                .position(|h| *h == cell)
                .filter(|&k| marbles[k].is_some())
            {
                format!("({})", k + 1)
            } else {
                " . ".to_string()
            };
            line.push_str(&text);
            if c + 1 < n as i64 {
                line.push(if wall(cell, [r, c + 1]) { '|' } else { ' ' });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r + 1 < n as i64 && (0..n as i64).any(|c| wall([r, c], [r + 1, c])) {
            let seps: Vec<&str> = (0..n as i64)
                .map(|c| if wall([r, c], [r + 1, c]) { "---" } else { "   " })
                .collect();
            out.push_str(seps.join(" ").trim_end());
            out.push('\n');
        }
    }
    out
}

/// A move in words: `[3, 1] over [3, 2] to [3, 3] (right)`, `tilt left`, or for pieces of
/// kinds `F [0, 2] to [0, 3] (right)` (`, taking [1, 1]` when it takes pieces), or every cell
/// a rewrite changes when it is not one piece going somewhere: `changes [0, 0] F to ., [0, 1]
/// . to T (right)`.
pub fn move_text(m: &MoveOut) -> String {
    let cell = |c: &Cell| format!("[{}, {}]", c[0], c[1]);
    match m {
        MoveOut::Hop { from, over, to, dir } => {
            let over = match over {
                Over::One(c) => cell(c),
                Over::Many(cs) => cs.iter().map(cell).collect::<Vec<_>>().join(" and "),
            };
            let dir = dir.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
            format!("{} over {over} to {}{dir}", cell(from), cell(to))
        }
        MoveOut::Tilt { tilt } => format!("tilt {tilt}"),
        MoveOut::Step {
            piece,
            from,
            to,
            takes,
            dir,
            changes,
        } => {
            let takes = match takes.is_empty() {
                true => String::new(),
                false => format!(
                    ", taking {}",
                    takes.iter().map(cell).collect::<Vec<_>>().join(" and ")
                ),
            };
            let dir = dir.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
            if !changes.is_empty() {
                let each: Vec<String> = changes
                    .iter()
                    .map(|c| format!("{} {} to {}", cell(&c.at), c.was, c.becomes))
                    .collect();
                return format!("changes {}{dir}", each.join(", "));
            }
            format!("{piece} {} to {}{takes}{dir}", cell(from), cell(to))
        }
    }
}

/// The colours pieces of kinds are drawn in, by name: the HTML report's classes `k-NAME`, the
/// terminal colours of `marbles play`.
pub const KIND_COLOURS: [&str; 6] = ["green", "yellow", "blue", "red", "purple", "teal"];

/// The colour of each kind of `letters` (a family's kinds, or the letters a board shows, in
/// order): a letter that names a colour (`R` red, `G` green, `B` blue, `Y` yellow, `P` purple)
/// gets it, every other the first of [`KIND_COLOURS`] that no kind has yet.
pub fn kind_colours(letters: &[u8]) -> Vec<&'static str> {
    let named = |l: u8| match l {
        b'R' => Some("red"),
        b'G' => Some("green"),
        b'B' => Some("blue"),
        b'Y' => Some("yellow"),
        b'P' => Some("purple"),
        _ => None,
    };
    let mut taken: Vec<&str> = letters.iter().filter_map(|&l| named(l)).collect();
    letters
        .iter()
        .map(|&l| {
            named(l).unwrap_or_else(|| {
                let free = KIND_COLOURS.iter().find(|c| !taken.contains(c));
                let c = free.copied().unwrap_or(KIND_COLOURS[0]);
                taken.push(c);
                c
            })
        })
        .collect()
}

/// The cell a move leaves its peg on, to mark it.
pub fn landing(m: &MoveOut) -> Option<Cell> {
    match m {
        MoveOut::Hop { to, .. } | MoveOut::Step { to, .. } => Some(*to),
        MoveOut::Tilt { .. } => None,
    }
}

/// Whether an outcome's board holds pieces of kinds (its frames have letters).
pub fn lettered(o: &Outcome) -> bool {
    match &o.replay {
        Some(Replay::Hop { frames, .. }) => frames
            .first()
            .is_some_and(|f| f.bytes().any(|b| b.is_ascii_alphabetic())),
        _ => o.moves.iter().any(|m| matches!(m, MoveOut::Step { .. })),
    }
}

/// The one-line verdict: `solved in 31 moves, 1 peg left (genius)`.
pub fn verdict(o: &Outcome) -> String {
    verdict_from(o, false)
}

/// [`verdict`], for an answer from a game under way when `from_here`: `solved from here in 9
/// moves`, so that the count does not read as the whole game's.
pub fn verdict_from(o: &Outcome, from_here: bool) -> String {
    let solved = if from_here {
        "solved from here in"
    } else {
        "solved in"
    };
    let mut s = match o.status {
        Status::Solved => {
            let n = o.moves.len();
            let tilt = matches!(o.replay, Some(Replay::Tilt { .. }))
                || matches!(o.moves.first(), Some(MoveOut::Tilt { .. }));
            let proven = match o.moves_floor {
                Some(f) if f as usize == o.moves_made() => ", proven the fewest",
                _ => "",
            };
            match (tilt, o.jumps_made()) {
                (true, _) if n == 0 => "already solved: every marble starts in its own hole".to_string(),
                (true, _) => format!("{solved} {}{proven}", plural(n, "tilt")),
                (false, _) if n == 0 => "already solved: the start meets the goal".to_string(),
                // On a hop board a move is one peg's chain of jumps: say both counts.
                (false, Some(j)) => {
                    let k = o.moves_made();
                    format!("{solved} {}{proven} ({})", plural(k, "move"), plural(j, "jump"))
                }
                (false, None) => format!("{solved} {}{proven}", plural(n, "move")),
            }
        }
        Status::Unsolvable => "unsolvable".to_string(),
        Status::GaveUp => "gave up".to_string(),
        Status::Error => "error".to_string(),
    };
    match (o.pegs_left, &o.goal) {
        (Some(p), _) => {
            let what = if lettered(o) { "piece" } else { "peg" };
            let _ = write!(s, ", {p} {what}{} left", if p == 1 { "" } else { "s" });
        }
        // Sliding robots, which never leave: the one on the target.
        (None, Some(goal)) if o.status == Status::Solved => {
            let _ = write!(s, ", {goal}");
        }
        _ => {}
    }
    if let Some(r) = &o.rating {
        let _ = write!(s, " ({r})");
    }
    if let Some(r) = &o.reason {
        let _ = write!(s, ": {r}");
    }
    if let Some(e) = &o.error {
        let _ = write!(s, ": {e}");
    }
    s
}

/// The whole human-readable answer: heading, verdict, start board, each move and its board.
pub fn solution(o: &Outcome) -> String {
    solution_with(o, board)
}

/// A text answer draws boards after its start board until they take this many bytes; every
/// move is still listed, and a closing note says how many boards were left out.
pub const MAX_ANSWER_BOARD_BYTES: usize = 256 * 1024;

/// [`solution`] for a game under way: its verdict says `solved from here in`, and its first
/// board is headed `from here, after {played}:` (`your 3 jumps`) where it says `start:`.
pub fn solution_from_here(o: &Outcome, played: &str) -> String {
    answer(o, board, Some(played))
}

/// [`solution`] with boards drawn by `draw(replay, frame, marked cell)`, for other notations.
pub fn solution_with(o: &Outcome, draw: impl Fn(&Replay, usize, Option<Cell>) -> String) -> String {
    answer(o, draw, None)
}

/// The answer from the start, or after what the player `played` when a game is under way.
fn answer(
    o: &Outcome,
    draw: impl Fn(&Replay, usize, Option<Cell>) -> String,
    played: Option<&str>,
) -> String {
    let rules = o.script.as_deref().unwrap_or(&o.rules);
    let mut heading = format!(
        "{} ({}, {rules})\n{}\n",
        one_line(&o.puzzle),
        one_line(&o.file),
        verdict_from(o, played.is_some())
    );
    if let Some(goal) = &o.goal {
        let _ = writeln!(heading, "goal: {goal}");
    }
    let mut out = terminal(&heading).into_owned();
    let Some(replay) = &o.replay else { return out };
    match played {
        Some(played) => {
            let _ = writeln!(out, "\nfrom here, after {played}:");
        }
        None => out.push_str("\nstart:\n"),
    }
    out.push_str(&indent(&draw(replay, 0, None)));
    let groups = if o.moves.hop { o.moves.chains() } else { Vec::new() };
    let mut drawn = 0;
    let mut left_out = 0;
    for (i, m) in o.moves.iter().enumerate() {
        if let Some((k, cells)) = groups.iter().position(|g| g.0 == i).map(|k| (k, &groups[k].1)) {
            // Cells written as the jumps below write them.
            let path: Vec<String> = cells.iter().map(|c| format!("[{}, {}]", c[0], c[1])).collect();
            let _ = writeln!(out, "\nmove {}: {}", k + 1, path.join(" → "));
        }
        // A hop answer's moves are chains of jumps, numbered apart: `move 8:` above `jump 10:`.
        let _ = match o.moves.hop {
            true => writeln!(out, "\njump {}: {}", i + 1, terminal(&move_text(m))),
            false => writeln!(out, "\n{}. {}", i + 1, terminal(&move_text(m))),
        };
        if drawn < MAX_ANSWER_BOARD_BYTES {
            let board = indent(&draw(replay, i + 1, landing(m)));
            drawn += board.len();
            out.push_str(&board);
        } else {
            left_out += 1;
        }
    }
    if left_out > 0 {
        let step = if o.moves.hop { "jump" } else { "move" };
        let _ = writeln!(
            out,
            "\n… {left_out} more board{} not drawn (an answer draws at most {} KiB of boards): \
             every {step} is listed above; use --format json for the {step}s alone",
            if left_out == 1 { "" } else { "s" },
            MAX_ANSWER_BOARD_BYTES / 1024
        );
    }
    out
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
