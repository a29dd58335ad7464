//! The compiled puzzle: cell indices, bit masks, move lists and the goal test — all native.

use crate::diag::{Diagnostic, Result, plural};
use crate::script::{Kind, Layout, RuleTables, Script};
use crate::spec::{BoardSpec, Cell, GridBoard, MoveGoal, PegGoal, Piece, Spec, TiltBoard, Token};
use std::collections::HashMap;
use std::sync::Arc;

pub mod rewrite;
pub mod slide;
pub use rewrite::RewriteModel;
pub use slide::SlideModel;

pub use crate::limits::{MAX_HOP_CELLS, MAX_TILT_MARBLES, MAX_TILT_SIZE};

/// Where each cell index sits on the board as the user wrote it.
#[derive(Debug, Clone)]
pub struct Geometry {
    pub layout: Layout,
    pub cells: Vec<Cell>,
    pub index: rustc_hash::FxHashMap<Cell, usize>,
    /// Where each cell is pictured, `[x, y]` in half steps across and rows down from the top
    /// left: its place on the layout's lattice (see [`crate::lattice`]), or where it is drawn
    /// when the drawing fits no such lattice. Text answers, reports and symmetry all use it.
    pub pictured: Vec<[i64; 2]>,
    /// Where each `#` token is pictured, the same way.
    pub blocked: Vec<[i64; 2]>,
}

impl Geometry {
    /// `drawn[i]`: where cell i is drawn (`[x, y]`, character column and line); `blocked`:
    /// where the `#` tokens are drawn.
    fn new(layout: Layout, cells: Vec<Cell>, drawn: Vec<[i64; 2]>, blocked: Vec<[i64; 2]>) -> Self {
        let holes: Vec<(Cell, [i64; 2])> = cells.iter().copied().zip(drawn.iter().copied()).collect();
        let (mut pictured, mut blocked) = match crate::lattice::fit(layout, &holes) {
            Ok(f) => (
                drawn.into_iter().map(|p| f.picture(p)).collect(),
                match f.skewed() {
                    true => Vec::new(),
                    false => blocked.into_iter().map(|p| f.picture(p)).collect(),
                },
            ),
            Err(_) => (drawn, blocked),
        };
        // `#` tokens beyond every hole add nothing to a picture but its width.
        let span = |axis: usize| {
            let v = pictured.iter().map(|p: &[i64; 2]| p[axis]);
            (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
        };
        let ((x0, x1), (y0, y1)) = (span(0), span(1));
        blocked.retain(|p| (x0..=x1).contains(&p[0]) && (y0..=y1).contains(&p[1]));
        for p in pictured.iter_mut().chain(&mut blocked) {
            *p = [p[0] - x0, p[1] - y0];
        }
        let index = cells.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        Geometry {
            layout,
            cells,
            index,
            pictured,
            blocked,
        }
    }
}

/// Holes of a drawing, each with where it is drawn: `[x, y]`, character column and line.
fn drawn_holes(b: &GridBoard) -> Vec<(Cell, [i64; 2])> {
    let mut out = Vec::new();
    for (r, row) in b.rows.iter().enumerate() {
        for (c, t) in row.iter().enumerate() {
            if *t != Token::Blocked {
                out.push(([r as i64, c as i64], [b.xs[r][c], r as i64]));
            }
        }
    }
    out
}

/// The goal board's token on each cell of the board `g`, in cell-index order. Each goal token is matched to the board's
/// hole drawn at the same place on the family's lattice, so a goal drawn in another style than
/// the board (a hexagon centred, the board left-aligned with `#` padding) still matches it; a
/// goal hole drawn where the board has none, or a board hole the goal leaves out, is an error
/// at the goal's line.
pub(crate) fn goal_tokens(
    spec: &Spec,
    geo: &Geometry,
    g: &GridBoard,
    goal: &GridBoard,
) -> Result<Vec<Token>> {
    let (holes, goal_holes) = (drawn_holes(g), drawn_holes(goal));
    let fit = crate::lattice::fit(geo.layout, &holes).ok();
    // The goal's own style, if it fits one; else the board's (its misplaced token then matches
    // no hole). A board that fits no lattice is matched as drawn.
    let goal_fit = fit.and_then(|f| crate::lattice::fit(geo.layout, &goal_holes).ok().or(Some(f)));
    let place = |f: Option<crate::lattice::Fit>, p: [i64; 2]| f.map_or(Some(p), |f| f.exact(p));
    let left = |f, h: &[(Cell, [i64; 2])]| h.iter().filter_map(|(_, p)| place(f, *p)).map(|q| q[0]).min();
    // Two styles picture the same lattice shifted across: line up their leftmost holes.
    let dx = match fit.map(|f| f.skewed()) == goal_fit.map(|f| f.skewed()) {
        true => 0,
        false => left(fit, &holes).unwrap_or(0) - left(goal_fit, &goal_holes).unwrap_or(0),
    };
    let at: HashMap<[i64; 2], Cell> = holes
        .iter()
        .filter_map(|(c, p)| place(fit, *p).map(|q| (q, *c)))
        .collect();
    let err = |msg: String, (line, col): (Option<usize>, Option<usize>)| {
        Diagnostic::new(&spec.path, format!("goal: `board:` {msg}")).at(line.or(spec.goal.board_line), col)
    };
    let mut covered = std::collections::HashSet::new();
    let mut tokens = vec![Token::Hole; geo.cells.len()];
    for (gc, p) in &goal_holes {
        let token = goal.rows[gc[0] as usize][gc[1] as usize];
        let Some(cell) = place(goal_fit, *p).and_then(|[x, y]| at.get(&[x + dx, y])) else {
            let what = if token.is_piece() { "a peg" } else { "a hole" };
            return Err(err(
                format!(
                    "has {what} where the board has no hole (drawn in row {}, column {} of the drawing): mark it `#` or \
                     leave it blank",
                    gc[0],
                    p[0] + 1
                ),
                spec.goal_location(*gc),
            ));
        };
        covered.insert(*cell);
        tokens[geo.index[cell]] = token;
    }
    if let Some(([r, c], _)) = holes.iter().find(|(c, _)| !covered.contains(c)) {
        // At the goal's row drawn on the same line as the missing hole's, if it has one.
        let row = goal.rows.get(*r as usize).filter(|row| !row.is_empty());
        let line = row.and_then(|_| spec.goal_location([*r, 0]).0);
        return Err(err(
            format!("leaves out the board's hole [{r}, {c}]: draw it `o` or `.` where the board has it"),
            (line, None),
        ));
    }
    Ok(tokens)
}

/// One compiled hop: applicable when `state & mask == need`; applying it is `state ^ mask`.
#[derive(Debug, Clone)]
pub struct HopMove {
    pub mask: u128,
    pub need: u128,
    pub from: usize,
    pub over: Vec<usize>,
    pub to: usize,
    pub dir: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HopGoal {
    pub pegs: PegGoal,
    /// A cell that must hold a peg at the end.
    pub at: Option<usize>,
    /// Solve in the fewest moves (chains of one peg's jumps), or within a number of them.
    pub moves: Option<MoveGoal>,
    /// `goal: board:`: the one end position, exactly. `pegs` is then its peg count, and `at`
    /// its cell when it has a single peg, so searches built for those use it unchanged.
    pub pattern: Option<u128>,
    /// `goal: reach:`: the goal is met by any position with a peg on the cell `at`, however
    /// many pegs are left. `pegs` is then `Count(1)`, the fewest a position with a peg there
    /// can have, so a search that knows nothing of reaching looks for a stricter goal whose
    /// answers are answers here too; its refutations are not, which is why only
    /// [`crate::search::plan`] (which sends reach goals to a search that tests
    /// [`HopModel::is_goal`]) decides these.
    pub reach: bool,
}

#[derive(Debug, Clone)]
pub struct HopModel {
    pub geo: Geometry,
    pub directions: Vec<String>,
    pub moves: Vec<HopMove>,
    pub start: u128,
    pub goal: HopGoal,
}

impl HopModel {
    /// True when `state` meets the goal for exactly `pegs` pegs; a reach goal (see
    /// [`HopGoal::reach`]) is met by any position with a peg on its cell, whatever `pegs` says.
    #[inline]
    pub fn is_goal(&self, state: u128, pegs: u32) -> bool {
        let cells = self.goal_cells();
        (self.goal.reach || state.count_ones() == pegs) && state & cells == cells
    }

    /// The cells a goal position must hold pegs on: the goal board's pegs, the `at:` cell, or
    /// none. With the goal's peg count this decides the goal, so a goal board is exact.
    #[inline]
    pub fn goal_cells(&self) -> u128 {
        self.goal
            .pattern
            .unwrap_or_else(|| self.goal.at.map_or(0, |a| 1u128 << a))
    }

    /// The target peg count (for `Fewest`, 1 is the best hope).
    pub fn target_pegs(&self) -> u32 {
        match self.goal.pegs {
            PegGoal::Count(n) => n,
            PegGoal::Fewest => 1,
        }
    }
}

/// One tilt direction: where a marble at each cell rolls next, and the order marbles roll in.
#[derive(Debug, Clone)]
pub struct TiltDir {
    pub name: String,
    /// `next[cell]`: the cell a marble reaches by one step, or [`NO_CELL`] when blocked.
    pub next: Vec<TiltCell>,
    /// `rank[cell]`: when a marble there rolls, nearest the side being tilted towards first
    /// (shared by every board of a size: see `tilt_frame`).
    pub rank: std::sync::Arc<[TiltCell]>,
}

/// A cell of a tilt board, by its index: boards up to 40 × 40 (the contest's), 1,600 cells.
pub type TiltCell = u16;

/// The marker for "no cell" in tilt tables and "dropped into its hole" (or "left by an exit")
/// in tilt states.
pub const NO_CELL: TiltCell = TiltCell::MAX;

/// The marker for "no marble" where a tilt notes which marble is on each cell, and for "no
/// hole" in `hole_at` (marbles and holes are numbered in a byte: at most 64).
pub const NONE: u8 = u8::MAX;

/// `hole_at[cell]` of an exit hole: a slider that rolls in leaves, a blocker must never.
pub const EXIT: u8 = u8::MAX - 1;

#[derive(Debug, Clone)]
pub struct TiltModel {
    pub size: usize,
    /// Shared by every board of a size (see `tilt_frame`).
    pub geo: std::sync::Arc<Geometry>,
    pub dirs: Vec<TiltDir>,
    /// Marble k's start cell, or [`NO_CELL`] if it starts in its own hole.
    pub start: Vec<TiltCell>,
    pub holes: Vec<TiltCell>,
    /// `hole_at[cell]`: the number (0-based) of the hole there, [`EXIT`], or `NONE`.
    pub hole_at: Vec<u8>,
    pub walls: Vec<[Cell; 2]>,
    /// The exit holes' cells (none on a numbered board).
    pub exits: Vec<TiltCell>,
    /// Each marble's kind: numbered, slider or blocker.
    pub pieces: Vec<Piece>,
    /// Set when the start already makes the puzzle unwinnable.
    pub doomed: Option<String>,
}

impl TiltModel {
    /// Whether the state `s` is won: every marble but the blockers home or gone (a blocker is
    /// never gone: the tilt that would drop it is never taken).
    pub fn is_home(&self, s: &[TiltCell]) -> bool {
        s.iter()
            .zip(&self.pieces)
            .all(|(&p, &kind)| p == NO_CELL || kind == Piece::Blocker)
    }
}

#[derive(Debug, Clone)]
pub enum Model {
    Hop(HopModel),
    Tilt(TiltModel),
    /// Boxed: its tables are twice a hop model's, and models are moved around a lot.
    Rewrite(Box<RewriteModel>),
    /// Robots that slide until something stops them.
    Slide(Box<SlideModel>),
}

/// Compiles a spec and its script's tables into a model.
pub fn compile(spec: &Spec, script: &Script, tables: &RuleTables) -> Result<Model> {
    // A board of the wrong kind for the family, at the line of `key`.
    let wrong_board = |key: &str, is: &str| {
        Err(Diagnostic::new(&spec.path, format!("`{}` is {is}", script.name))
            .at(crate::spec::key_line(&spec.source, key), None))
    };
    if let BoardSpec::Grid(g) = &spec.board
        && !g.walls.is_empty()
        && tables.kind != Kind::Slide
    {
        return Err(Diagnostic::new(
            &spec.path,
            format!(
                "`walls:` between squares are for slide families; `{}` draws no walls: mark a wall square `#` instead",
                script.name
            ),
        )
        .at(crate::spec::key_line(&spec.source, "walls"), None));
    }
    match (&spec.board, tables.kind) {
        (BoardSpec::Grid(g), Kind::Slide) => {
            slide::compile(spec, script, tables, g).map(|m| Model::Slide(Box::new(m)))
        }
        (BoardSpec::Tilt(_), Kind::Slide) => wrong_board(
            "rules",
            "a family of sliding robots: give a `board:` of rows of . # and its robots' letters, and `walls:`",
        ),
        (BoardSpec::Grid(g), Kind::Hop) => compile_hop(spec, script, tables, g).map(Model::Hop),
        (BoardSpec::Tilt(t), Kind::Tilt) => compile_tilt(spec, script, tables, t).map(Model::Tilt),
        (BoardSpec::Grid(g), Kind::Rewrite) => {
            rewrite::compile(spec, script, tables, g).map(|m| Model::Rewrite(Box::new(m)))
        }
        (BoardSpec::Tilt(_), Kind::Rewrite) => wrong_board(
            "rules",
            "a family of pieces and rewrites: give a `board:` of rows of . # and its kinds' letters",
        ),
        (BoardSpec::Grid(_), Kind::Tilt) => wrong_board(
            "board",
            "a tilt family: give `size:`, `marbles:` and `holes:` instead of `board:`",
        ),
        (BoardSpec::Tilt(_), Kind::Hop) => {
            wrong_board("rules", "a hop family: give a `board:` of rows of o . #")
        }
    }
}

/// A drawn board's holes in cell-index order (row by row), its geometry on `layout`, and the
/// token on each hole.
pub(crate) fn grid_geometry(spec: &Spec, layout: Layout, g: &GridBoard) -> Result<(Geometry, Vec<Token>)> {
    grid_geometry_within(spec, layout, g, crate::limits::check_hop)
}

/// [`grid_geometry`] for a model whose board may hold as many holes as `check` passes.
pub(crate) fn grid_geometry_within(
    spec: &Spec,
    layout: Layout,
    g: &GridBoard,
    check: fn(usize) -> std::result::Result<(), String>,
) -> Result<(Geometry, Vec<Token>)> {
    let total = g.holes();
    if let Err(why) = check(total) {
        // Specs check the largest any family takes before their script runs.
        return Err(Diagnostic::new(&spec.path, why).at(crate::spec::key_line(&spec.source, "board"), None));
    }
    let mut cells = Vec::new();
    let (mut drawn, mut blocked) = (Vec::new(), Vec::new());
    let mut tokens = Vec::new();
    for (r, row) in g.rows.iter().enumerate() {
        for (c, tok) in row.iter().enumerate() {
            let at = [g.xs[r][c], r as i64];
            if *tok == Token::Blocked {
                blocked.push(at);
                continue;
            }
            tokens.push(*tok);
            cells.push([r as i64, c as i64]);
            drawn.push(at);
        }
    }
    Ok((Geometry::new(layout, cells, drawn, blocked), tokens))
}

/// The error for a lettered piece on the board (or goal board) of a family with one kind of
/// piece, at the token.
fn lettered_in_hop(spec: &Spec, script: &Script, g: &GridBoard, goal: bool) -> Option<Diagnostic> {
    let (r, c) = g.rows.iter().enumerate().find_map(|(r, row)| {
        row.iter()
            .position(|t| matches!(t, Token::Piece(_)))
            .map(|c| (r, c))
    })?;
    let (line, col) = match goal {
        true => spec.goal_location([r as i64, c as i64]),
        false => spec.cell_location([r as i64, c as i64]),
    };
    let what = if goal {
        "goal: `board:` has"
    } else {
        "the board has"
    };
    Some(
        Diagnostic::new(
            &spec.path,
            format!(
                "{what} a piece `{}` at [{r}, {c}], but `{}` has one kind of peg: draw pegs `o` (lettered pieces \
                 are for families whose moves are rewrites, see docs/rules.md)",
                g.rows[r][c].symbol(),
                script.name
            ),
        )
        .at(line, col),
    )
}

/// The error for a goal naming kinds (`left:`, `piece:`) in a family with one kind of piece.
fn kinds_in_hop_goal(spec: &Spec, script: &Script) -> Option<Diagnostic> {
    let key = match (spec.goal.left.is_empty(), spec.goal.piece) {
        (false, _) => "left",
        (true, Some(_)) => "piece",
        (true, None) => return None,
    };
    Some(
        Diagnostic::new(
            &spec.path,
            format!(
                "goal: `{key}:` names kinds of pieces, but `{}` has one kind of peg: say `pegs:` instead",
                script.name
            ),
        )
        .at(spec.goal.kinds_line, None),
    )
}

fn compile_hop(spec: &Spec, script: &Script, t: &RuleTables, g: &GridBoard) -> Result<HopModel> {
    check_hop_spec(spec, script, g)?;
    let (geo, tokens) = grid_geometry(spec, t.layout, g)?;
    let start = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| **t == Token::Peg)
        .fold(0u128, |s, (k, _)| s | 1 << k);
    let moves = hop_moves(spec, script, t, &geo)?;
    let goal = hop_goal(spec, script, t, g, &geo, start)?;
    Ok(HopModel {
        geo,
        directions: t.directions.iter().map(|d| d.name.clone()).collect(),
        moves,
        start,
        goal,
    })
}

/// What a hop puzzle's spec may not ask, refused before its board is placed: pieces of kinds,
/// `moves:` beside `reach:`, a goal a hop cannot meet.
fn check_hop_spec(spec: &Spec, script: &Script, g: &GridBoard) -> Result<()> {
    let goal_board = spec.goal.board.as_ref();
    if let Some(e) = lettered_in_hop(spec, script, g, false)
        .or_else(|| goal_board.and_then(|b| lettered_in_hop(spec, script, b, true)))
    {
        return Err(e);
    }
    if let (Some(_), Some(_)) = (spec.goal.reach, spec.goal.moves) {
        return Err(Diagnostic::new(
            &spec.path,
            "goal: `moves:` and `reach:` together are not supported: the fewest-moves search ends on a \
             peg count; drop `moves:`",
        )
        .at(spec.goal.reach_line, None));
    }
    if let Some(e) = kinds_in_hop_goal(spec, script) {
        return Err(e);
    }
    // A family of pieces of kinds may clear the board or add pieces; a hop never takes the
    // last peg, nor makes one.
    crate::spec::check_hop_goal(spec, g)?;
    if spec.goal.pegs == Some(PegGoal::Count(0)) {
        return Err(Diagnostic::new(&spec.path, "goal pegs must be at least 1")
            .at(crate::spec::key_line(&spec.source, "pegs"), None));
    }
    Ok(())
}

/// The script's jumps as bitboard masks, each cell checked to be a hole and each jump listed
/// once.
fn hop_moves(spec: &Spec, script: &Script, t: &RuleTables, geo: &Geometry) -> Result<Vec<HopMove>> {
    // At the line that writes the script's list of jumps (`jumps:` or `moves:`), where one does.
    let list = ["jumps", "moves"]
        .into_iter()
        .find(|k| crate::script::key_line(&script.source, k).is_some())
        .unwrap_or("jumps");
    let script_err = |msg: String| script.error_at_key(list, msg);
    let idx = |cell: &Cell, what: &str, i: usize| {
        geo.index.get(cell).copied().ok_or_else(|| {
            script.error_at_key(
                what,
                format!(
                    "{list}[{i}] ({what} [{}, {}]) names a cell that is not a hole of the board in {}",
                    cell[0],
                    cell[1],
                    spec.path.display()
                ),
            )
        })
    };
    let mut moves = Vec::with_capacity(t.hops.len());
    // A jump listed twice would be made twice from every position: counted twice by `count`
    // and tried twice by every search.
    let mut seen = std::collections::HashMap::with_capacity(t.hops.len());
    for (i, h) in t.hops.iter().enumerate() {
        let from = idx(&h.from, "from", i)?;
        let to = idx(&h.to, "to", i)?;
        let over = h
            .over
            .iter()
            .map(|o| idx(o, "over", i))
            .collect::<Result<Vec<_>>>()?;
        if over.is_empty() {
            return Err(script_err(format!(
                "{list}[{i}] jumps over no cell: `over` must name at least one"
            )));
        }
        let at = |k: usize| format!("[{}, {}]", geo.cells[k][0], geo.cells[k][1]);
        let shown = || {
            let over: Vec<String> = over.iter().map(|&k| at(k)).collect();
            format!("{} over {} to {}", at(from), over.join(", "), at(to))
        };
        let mut mask = 0u128;
        for &c in over.iter().chain([&from, &to]) {
            if mask >> c & 1 == 1 {
                return Err(script_err(format!(
                    "{list}[{i}] ({}) names {} twice",
                    shown(),
                    at(c)
                )));
            }
            mask |= 1 << c;
        }
        let need = mask & !(1u128 << to);
        if let Some(j) = seen.insert((mask, from, to), i) {
            return Err(script_err(format!(
                "{list}[{j}] and {list}[{i}] are the same jump ({}): listed twice, it would be counted twice",
                shown()
            )));
        }
        moves.push(HopMove {
            mask,
            need,
            from,
            over,
            to,
            dir: h.dir,
        });
    }
    Ok(moves)
}

/// The goal in the board's terms: a pattern drawn, the pegs to leave (the family's default
/// checked against the start), the goal cell.
fn hop_goal(
    spec: &Spec,
    script: &Script,
    t: &RuleTables,
    g: &GridBoard,
    geo: &Geometry,
    start: u128,
) -> Result<HopGoal> {
    let pattern = match &spec.goal.board {
        Some(goal) => Some(
            goal_tokens(spec, geo, g, goal)?
                .iter()
                .enumerate()
                .filter(|(_, t)| **t == Token::Peg)
                .fold(0u128, |s, (k, _)| s | 1 << k),
        ),
        None => None,
    };
    // `pegs: fewest` with `reach:` asks for the fewest pegs that can stand with one on the
    // cell: `pegs: fewest` with `at:` on it, searched as that.
    let reach = spec
        .goal
        .reach
        .filter(|_| spec.goal.pegs != Some(PegGoal::Fewest));
    let pegs = match (pattern, reach) {
        (Some(p), _) => PegGoal::Count(p.count_ones()),
        // A position with a peg on the cell has at least that one.
        (None, Some(_)) => PegGoal::Count(1),
        (None, None) => spec
            .goal
            .pegs
            .unwrap_or(PegGoal::Count(t.default_pegs.unwrap_or(1))),
    };
    // A goal the spec sets is checked when it is read; the family's default only now.
    if let (None, None, None, PegGoal::Count(want)) = (pattern, spec.goal.pegs, reach, pegs)
        && want > start.count_ones()
    {
        // On a board of no file (`check`'s sample), the script's own default is the fault.
        let sample = spec.path.to_string_lossy().starts_with('<') && t.default_pegs.is_some();
        let (file, line) = match sample {
            true => (&script.origin, crate::script::key_line(&script.source, "pegs")),
            false => (&spec.path, crate::spec::key_line(&spec.source, "board")),
        };
        return Err(Diagnostic::new(
            file,
            format!(
                "goal: {} to leave (rule family `{}`'s default), but the board starts with {} \
                 and a jump only removes pegs",
                plural(want as usize, "peg"),
                script.name,
                plural(start.count_ones() as usize, "peg")
            ),
        )
        .at(line, None));
    }
    let cell_of = |cell: Cell, what: &str, line: Option<usize>| {
        geo.index.get(&cell).copied().ok_or_else(|| {
            Diagnostic::new(
                &spec.path,
                format!("{what} [{}, {}] is not a hole of the board", cell[0], cell[1]),
            )
            .at(line, None)
        })
    };
    let at = match (spec.goal.at, spec.goal.reach) {
        (Some(cell), _) => Some(cell_of(cell, "goal cell", spec.goal.at_line)?),
        (None, Some(cell)) => Some(cell_of(cell, "goal: the cell to reach", spec.goal.reach_line)?),
        (None, None) if pattern.is_some_and(|p| p.count_ones() == 1) => {
            pattern.map(|p| p.trailing_zeros() as usize)
        }
        (None, None) => None,
    };
    Ok(HopGoal {
        pegs,
        at,
        moves: spec.goal.moves,
        pattern,
        reach: reach.is_some(),
    })
}

fn compile_tilt(spec: &Spec, script: &Script, t: &RuleTables, b: &TiltBoard) -> Result<TiltModel> {
    let n = b.size;
    // Readers check this already; a spec built in code meets the same check here.
    if let Err((part, why)) = crate::limits::check_tilt(n as i64, b.marbles.len() as i64) {
        let line = crate::spec::key_line(&spec.source, part.key());
        return Err(Diagnostic::new(&spec.path, why).at(line, None));
    }
    let (geo, ranks) = tilt_frame(n, t);
    let id = |c: &Cell| geo.index.get(c).map(|&i| i as TiltCell);
    let mut dirs: Vec<TiltDir> = t
        .directions
        .iter()
        .zip(ranks)
        .map(|(d, rank)| TiltDir {
            name: d.name.clone(),
            next: vec![NO_CELL; geo.cells.len()],
            rank,
        })
        .collect();
    let walled = crate::script::ScriptBoard::walls(&spec.board);
    let stepped: Vec<crate::script::Link>;
    let links = match t.links_from_steps {
        false => &t.links,
        true => {
            stepped = stepped_links(&geo, t);
            &stepped
        }
    };
    for l in links {
        let (Some(from), Some(to)) = (id(&l.from), id(&l.to)) else {
            return Err(script.error_at_key(
                "links",
                format!(
                    "link [{}, {}] → [{}, {}] leaves the {n}×{n} board of {}",
                    l.from[0],
                    l.from[1],
                    l.to[0],
                    l.to[1],
                    spec.path.display()
                ),
            ));
        };
        // A wall between two cells cuts any link between them, whatever the script said:
        // so a family's links need not depend on the walls, and one run of its script
        // serves every wall layout of a size (see `script::cache`).
        if !walled.contains(&[l.from.min(l.to), l.from.max(l.to)]) {
            dirs[l.dir].next[from as usize] = to;
        }
    }
    for d in &dirs {
        if let Some(cycle) = find_cycle(&d.next) {
            let cells: Vec<String> = cycle
                .iter()
                .map(|&c| format!("[{}, {}]", geo.cells[c as usize][0], geo.cells[c as usize][1]))
                .collect();
            return Err(script.error_at_key(
                "links",
                format!(
                    "tilt links form a cycle in direction `{}`: {} (a marble would roll forever)",
                    d.name,
                    cells.join(" → ")
                ),
            ));
        }
    }
    let holes: Vec<TiltCell> = b.holes.iter().map(|h| id(h).unwrap_or(NO_CELL)).collect();
    let exits: Vec<TiltCell> = b.exits.iter().map(|h| id(h).unwrap_or(NO_CELL)).collect();
    let mut hole_at = vec![NONE; geo.cells.len()];
    for (k, &h) in holes.iter().enumerate() {
        hole_at[h as usize] = k as u8;
    }
    for &e in &exits {
        hole_at[e as usize] = EXIT;
    }
    let pieces = match b.pieces.is_empty() {
        true => vec![Piece::Numbered; b.marbles.len()],
        false => b.pieces.clone(),
    };
    let mut doomed = None;
    let start: Vec<TiltCell> = b
        .marbles
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let cell = id(m).unwrap_or(NO_CELL);
            match hole_at[cell as usize] {
                NONE => cell,
                // Readers refuse a marble on an exit; a spec built in code is refused here.
                EXIT => {
                    doomed.get_or_insert(format!("marble {} starts on an exit", k + 1));
                    cell
                }
                h if h as usize == k => NO_CELL,
                h => {
                    doomed.get_or_insert(format!(
                        "marble {} starts on hole {}, which it can never leave",
                        k + 1,
                        h + 1
                    ));
                    cell
                }
            }
        })
        .collect();
    Ok(TiltModel {
        size: n,
        geo,
        dirs,
        start,
        holes,
        hole_at,
        walls: b.walls.clone(),
        exits,
        pieces,
        doomed,
    })
}

/// The links of a tilt family that gave none: from each square of `geo` to the square one step
/// away in each of `t`'s directions, where there is one.
fn stepped_links(geo: &Geometry, t: &RuleTables) -> Vec<crate::script::Link> {
    let mut links = Vec::new();
    for (dir, d) in t.directions.iter().enumerate() {
        let [dr, dc] = d.step.unwrap_or([0, 0]);
        for &from @ [r, c] in &geo.cells {
            let to = [r + dr, c + dc];
            if geo.index.contains_key(&to) {
                links.push(crate::script::Link { dir, from, to });
            }
        }
    }
    links
}

/// An `n`×`n` tilt board's geometry and, for each of `t`'s directions, each cell's turn to
/// roll, nearest the side being tilted towards first: what depends on the size and the
/// directions alone, kept per thread for the last few asked (a file of 20,000 small cases
/// built them 20,000 times) and shared, not copied, by the models built from them.
fn tilt_frame(n: usize, t: &RuleTables) -> (Arc<Geometry>, Vec<Arc<[TiltCell]>>) {
    type Frame = (Arc<Geometry>, Vec<Arc<[TiltCell]>>);
    type Frames = Vec<((usize, Vec<Option<[i64; 2]>>), Frame)>;
    thread_local! {
        static FRAMES: std::cell::RefCell<Frames> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let steps = || t.directions.iter().map(|d| d.step);
    let kept = FRAMES.with_borrow(|f| {
        f.iter()
            .find(|((size, s), _)| *size == n && s.iter().copied().eq(steps()))
            .map(|(_, v)| v.clone())
    });
    if let Some(frame) = kept.filter(|_| crate::memo::enabled()) {
        return frame;
    }
    let cells: Vec<Cell> = (0..n as i64)
        .flat_map(|r| (0..n as i64).map(move |c| [r, c]))
        .collect();
    let drawn = cells.iter().map(|&[r, c]| [2 * c, r]).collect();
    let geo = Geometry::new(Layout::Square, cells, drawn, Vec::new());
    let ranks = steps()
        .map(|step| {
            let [dr, dc] = step.unwrap_or([0, 0]);
            let mut order: Vec<TiltCell> = (0..geo.cells.len() as TiltCell).collect();
            // Nearest the side first: the largest projection on the direction of travel.
            order.sort_by_key(|&i| {
                let [r, c] = geo.cells[i as usize];
                std::cmp::Reverse(r * dr + c * dc)
            });
            let mut rank = vec![0; order.len()];
            for (turn, &cell) in order.iter().enumerate() {
                rank[cell as usize] = turn as TiltCell;
            }
            rank.into()
        })
        .collect();
    let frame: Frame = (Arc::new(geo), ranks);
    FRAMES.with_borrow_mut(|f| {
        if f.len() == 8 {
            f.remove(0);
        }
        f.push(((n, steps().collect()), frame.clone()));
    });
    frame
}

/// A cycle of `next` links (a functional graph), from its least cell back to it, if any.
fn find_cycle(next: &[TiltCell]) -> Option<Vec<TiltCell>> {
    // 0 unvisited, 1 on the current walk, 2 known to end at a blocked cell.
    let mut mark = vec![0u8; next.len()];
    let mut walk = Vec::new();
    for start in 0..next.len() {
        walk.clear();
        let mut c = start;
        while mark[c] == 0 {
            mark[c] = 1;
            walk.push(c as TiltCell);
            match next[c] {
                NO_CELL => break,
                n => c = n as usize,
            }
        }
        if mark[c] == 1 && next[c] != NO_CELL {
            let from = walk.iter().position(|&w| w as usize == c).unwrap_or(0);
            let mut cycle = walk[from..].to_vec();
            let least = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
            cycle.rotate_left(least);
            cycle.push(cycle[0]);
            return Some(cycle);
        }
        for &w in &walk {
            mark[w as usize] = 2;
        }
    }
    None
}
