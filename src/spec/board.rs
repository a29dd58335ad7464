//! Boards and goals, from the text YAML gave them: a hop board's drawing (rows of `o . #`,
//! each token where it is drawn), a goal board drawn on its shape, a goal the board can meet,
//! and a tilt board's lists (checked by `tilt`). Every error is located in the file.

use super::locate::{key_line, locate_in_block};
use super::tilt::{ItemFault, TiltChecks, WallFault};
use super::{BoardSpec, Cell, GoalSpec, GridBoard, PegGoal, Piece, Spec, TiltBoard, Token};
use crate::diag::{Diagnostic, Result, plural};
use crate::limits::TiltPart;
use std::path::Path;

/// A goal the board can meet at all, whatever its family: none on a tilt puzzle (its goal
/// is fixed), and no more pegs than the board has holes. What a hop can meet as well is
/// [`check_hop_goal`]'s, once the family is known to hop.
pub(super) fn check_goal_fits(path: &Path, source: &str, board: &BoardSpec, goal: &GoalSpec) -> Result<()> {
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
    goal_within(path, source, grid, goal, false)
}

/// A goal a hop can meet: a goal board with a peg (a hop never takes the last one), and no
/// more pegs than the board starts with (a jump only removes pegs). Pieces of kinds move by
/// rewrites, which may clear the board or add pieces: their goals are checked against the
/// family's moves instead (`model::rewrite`).
pub fn check_hop_goal(spec: &Spec, grid: &GridBoard) -> Result<()> {
    if let Some(b) = &spec.goal.board
        && !b.rows.iter().flatten().any(|t| t.is_piece())
    {
        return Err(Diagnostic::new(
            &spec.path,
            "goal: `board:` has no pegs, but a hop never takes the last one",
        )
        .at(spec.goal.board_line, None));
    }
    goal_within(&spec.path, &spec.source, grid, &spec.goal, true)
}

/// Refuses a goal of more pegs than the board's holes, or with `hop`, than its pegs.
fn goal_within(path: &Path, source: &str, grid: &GridBoard, goal: &GoalSpec, hop: bool) -> Result<()> {
    // Lettered pieces belong to families whose moves are rewrites (checked in `model`).
    let lettered = |g: &GridBoard| g.rows.iter().flatten().any(|t| matches!(t, Token::Piece(_)));
    if lettered(grid) || goal.board.as_ref().is_some_and(lettered) || !goal.left.is_empty() {
        return Ok(());
    }
    let count = |t: Token| grid.rows.iter().flatten().filter(|&&x| x == t).count();
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
    } else if hop && want as usize > pegs {
        format!(
            "the board starts with {} and a jump only removes pegs",
            plural(pegs, "peg")
        )
    } else {
        return Ok(());
    };
    Err(Diagnostic::new(path, format!("goal: {what}, but {why}")).at(line, None))
}

/// Reads `goal: board:`, a drawing of the puzzle's board. Whether it has the board's holes
/// is told where they stand on the family's lattice (see `model`), so it is drawn in any style
/// the family reads.
pub(super) fn parse_goal_board(
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
    Ok(goal)
}

/// A hop board's drawing: a token per `o`, `.` or `#`, kept with the column it is drawn in;
/// `board_line` is the line of its key, where errors are located.
pub(super) fn parse_grid(
    path: &Path,
    source: &str,
    text: &str,
    board_line: Option<usize>,
) -> Result<GridBoard> {
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
                t if t.len() == 1 && t.as_bytes()[0].is_ascii_uppercase() => Token::Piece(t.as_bytes()[0]),
                other => {
                    let (l, col) = locate_in_block(&src_lines, board_line, r, line, offset);
                    return Err(Diagnostic::new(
                        path,
                        format!(
                            "unknown board token `{other}` at [{r}, {c}]: use `o` for a peg, `.` for an empty hole, `#` for no hole, a capital letter for a piece of a kind"
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
    crate::limits::check_drawn(holes).map_err(|why| Diagnostic::new(path, why).at(board_line, None))?;
    Ok(GridBoard {
        rows,
        xs,
        walls: Vec::new(),
    })
}

/// Whitespace-separated tokens with their byte offsets in the line.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace()
        .map(move |t| (t.as_ptr() as usize - line.as_ptr() as usize, t))
}

/// A tilt board's YAML keys as read, before any check.
pub(super) struct TiltKeys {
    pub size: Option<i64>,
    pub marbles: Option<Vec<Cell>>,
    pub holes: Option<Vec<Cell>>,
    pub walls: Option<Vec<[Cell; 2]>>,
    pub exits: Option<Vec<Cell>>,
    pub sliders: Option<Vec<Cell>>,
    pub blockers: Option<Vec<Cell>>,
}

impl TiltKeys {
    /// Whether the file gives any tilt key (so it is a tilt puzzle, or a wrong mix).
    pub fn any(&self) -> bool {
        self.size.is_some()
            || self.marbles.is_some()
            || self.holes.is_some()
            || self.walls.is_some()
            || self.exit_keys()
    }

    /// Whether the file gives a key of a tilt board other than `walls:` (which drawn boards
    /// take too).
    pub fn any_but_walls(&self) -> bool {
        self.size.is_some() || self.marbles.is_some() || self.holes.is_some() || self.exit_keys()
    }

    /// Whether the file gives any key of a board with exits.
    fn exit_keys(&self) -> bool {
        self.exits.is_some() || self.sliders.is_some() || self.blockers.is_some()
    }
}

/// A tilt board from its YAML keys, each part checked by [`TiltChecks`]; an error is at the
/// line of the key that gives the part. A board has numbered `marbles:` and `holes:`, or
/// `exits:` with `sliders:` (and optionally `blockers:`), never both.
pub(super) fn parse_tilt(path: &Path, source: &str, keys: TiltKeys) -> Result<TiltBoard> {
    let err = |key: &str, msg: String| Diagnostic::new(path, msg).at(key_line(source, key), None);
    let exit_keys = keys.exit_keys();
    // Required keys, each `(given, key to name, why)`: the first missing one is refused at the
    // line of a key that is there.
    let required = [
        (
            keys.size.is_some(),
            if exit_keys { "sliders" } else { "marbles" },
            "a tilt puzzle needs `size:` (the board is size × size)",
        ),
        (
            exit_keys || keys.marbles.is_some(),
            "size",
            "a tilt puzzle needs `marbles:`, a list of [row, col]",
        ),
        (
            exit_keys || keys.holes.is_some(),
            "size",
            "a tilt puzzle needs `holes:`, a list of [row, col]",
        ),
        (
            !exit_keys || keys.exits.is_some(),
            "sliders",
            "a tilt puzzle with sliders needs `exits:`, a list of [row, col] where they leave",
        ),
        (
            !exit_keys || keys.sliders.is_some(),
            "exits",
            "a tilt puzzle with exits needs `sliders:`, the marbles that must leave by one",
        ),
    ];
    if let Some(&(_, at, why)) = required.iter().find(|k| !k.0) {
        return Err(err(at, why.into()));
    }
    let size = keys.size.unwrap_or_default();
    if exit_keys && (keys.marbles.is_some() || keys.holes.is_some()) {
        return Err(err(
            if keys.marbles.is_some() { "marbles" } else { "holes" },
            "numbered `marbles:` and `holes:` do not mix with `exits:`, `sliders:` and `blockers:`: a tilt puzzle has one kind or the other".into(),
        ));
    }
    let (checks, marbles, holes, exits, pieces) = if exit_keys {
        let (exits, sliders) = (keys.exits.unwrap_or_default(), keys.sliders.unwrap_or_default());
        let blockers = keys.blockers.unwrap_or_default();
        if sliders.is_empty() {
            return Err(err(
                "sliders",
                "`sliders:` is empty: give at least one marble that must leave by an exit".into(),
            ));
        }
        let checks =
            TiltChecks::new(size, (sliders.len() + blockers.len()) as i64).map_err(|(part, why)| {
                err(
                    match part {
                        TiltPart::Marbles => "sliders",
                        _ => part.key(),
                    },
                    why,
                )
            })?;
        for (key, list) in [("exits", &exits), ("sliders", &sliders), ("blockers", &blockers)] {
            check_items(checks, key, list, &err)?;
        }
        // Across lists: a marble starts off every exit, and a blocker off every slider.
        for (key, list) in [("sliders", &sliders), ("blockers", &blockers)] {
            for (k, &cell) in list.iter().enumerate() {
                if exits.contains(&cell) {
                    let why = format!(
                        "{} {} at [{}, {}] starts on an exit",
                        &key[..key.len() - 1],
                        k + 1,
                        cell[0],
                        cell[1]
                    );
                    return Err(err(key, why));
                }
            }
        }
        for (k, &cell) in blockers.iter().enumerate() {
            if let Err(ItemFault::Shared(j)) = checks.item(&sliders, cell) {
                let why = format!(
                    "slider {} and blocker {} share the cell [{}, {}]",
                    j + 1,
                    k + 1,
                    cell[0],
                    cell[1]
                );
                return Err(err("blockers", why));
            }
        }
        let pieces = [Piece::Slider]
            .repeat(sliders.len())
            .into_iter()
            .chain([Piece::Blocker].repeat(blockers.len()))
            .collect();
        (checks, [sliders, blockers].concat(), Vec::new(), exits, pieces)
    } else {
        let (marbles, holes) = (keys.marbles.unwrap_or_default(), keys.holes.unwrap_or_default());
        let checks =
            TiltChecks::new(size, marbles.len() as i64).map_err(|(part, why)| err(part.key(), why))?;
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
        for (key, list) in [("marbles", &marbles), ("holes", &holes)] {
            check_items(checks, key, list, &err)?;
        }
        (checks, marbles, holes, Vec::new(), Vec::new())
    };
    let walls = keys.walls.unwrap_or_default();
    for &[a, b] in &walls {
        let why = match checks.wall([a, b]) {
            Ok(()) => continue,
            Err(WallFault::OffBoard) => format!(
                "the wall between [{}, {}] and [{}, {}] is off the {size}×{size} board",
                a[0], a[1], b[0], b[1]
            ),
            Err(WallFault::NotSideBySide) => format!(
                "a wall stands between two side-by-side cells; [{}, {}] and [{}, {}] are not side by side",
                a[0], a[1], b[0], b[1]
            ),
        };
        return Err(err("walls", why));
    }
    Ok(TiltBoard {
        size: size as usize,
        marbles,
        holes,
        walls,
        exits,
        pieces,
    })
}

/// Each item of one list (`key`, a plural) on the board and on a cell of its own.
fn check_items(
    checks: TiltChecks,
    key: &str,
    list: &[Cell],
    err: &impl Fn(&str, String) -> Diagnostic,
) -> Result<()> {
    let size = checks.size();
    for (k, &cell) in list.iter().enumerate() {
        let why = match checks.item(&list[..k], cell) {
            Ok(()) => continue,
            Err(ItemFault::OffBoard) => format!(
                "{} {} at [{}, {}] is off the {size}×{size} board",
                &key[..key.len() - 1],
                k + 1,
                cell[0],
                cell[1]
            ),
            Err(ItemFault::Shared(j)) => format!(
                "{key} {} and {} share the cell [{}, {}]",
                j + 1,
                k + 1,
                cell[0],
                cell[1]
            ),
        };
        return Err(err(key, why));
    }
    Ok(())
}

/// A drawn board's `walls:`, each between two squares of the board (not `#`) that share a
/// side; the first that is not is the error, at the `walls:` line.
pub(super) fn grid_walls(
    path: &Path,
    source: &str,
    board: &GridBoard,
    walls: Vec<[Cell; 2]>,
) -> Result<Vec<[Cell; 2]>> {
    let square = |[r, c]: Cell| {
        usize::try_from(r)
            .ok()
            .zip(usize::try_from(c).ok())
            .and_then(|(r, c)| board.rows.get(r)?.get(c))
            .is_some_and(|t| *t != Token::Blocked)
    };
    let err = |why: String| Diagnostic::new(path, why).at(crate::spec::key_line(source, "walls"), None);
    for (i, &[a, b]) in walls.iter().enumerate() {
        let shown = |c: Cell| format!("[{}, {}]", c[0], c[1]);
        if let Some(off) = [a, b].into_iter().find(|&c| !square(c)) {
            return Err(err(format!(
                "wall {} names {}, which is not a square of the board (off it, or `#`)",
                i + 1,
                shown(off)
            )));
        }
        if (a[0] - b[0]).abs() + (a[1] - b[1]).abs() != 1 {
            return Err(err(format!(
                "wall {} is between {} and {}, which are not neighbours: a wall stands on the edge between two side-by-side squares",
                i + 1,
                shown(a),
                shown(b)
            )));
        }
    }
    Ok(walls)
}
