//! Pieces of several kinds and moves as rewrites, compiled: a bitboard per kind, and each move
//! a few masks (cells that must hold a kind, be empty or hold any piece; what flips).
//!
//! A family of kind `"rewrite"` lists its kinds (`pieces: ["F", "T"]`) and returns each move as
//! `#{ dir, at: [cells], was: "F.", becomes: ".F" }`: one character a cell, `.` empty, a kind's
//! letter, or `*` any piece (left as it is). Slides, hops that take or keep the piece jumped,
//! long hops and slides until blocked are all this one form. The search
//! ([`crate::search::rewrite`]) applies them as masks and never calls the script.

use super::{Geometry, goal_tokens, grid_geometry};
use crate::diag::{Diagnostic, Result};
use crate::script::{RuleTables, Script};
use crate::spec::{GridBoard, MoveGoal, PegGoal, Spec, Token};

pub use crate::limits::MAX_KINDS;

/// A position: `s[k]` has bit i set when cell i holds a piece of kind k.
pub type Kinds = [u128; MAX_KINDS];

/// One compiled rewrite.
#[derive(Debug, Clone)]
pub struct Rewrite {
    /// `need[k]`: cells that must hold a piece of kind k.
    pub need: Kinds,
    /// Cells that must be empty.
    pub empty: u128,
    /// Cells that must hold a piece of any kind, left as it is.
    pub any: u128,
    /// `flip[k]`: the cells whose kind-k bit the move turns over.
    pub flip: Kinds,
    pub dir: Option<usize>,
    /// As users see the move: the kind that moves, where it starts and where it lands, and
    /// the other cells it empties (pieces taken).
    pub kind: usize,
    pub from: usize,
    pub to: usize,
    pub takes: Vec<usize>,
    /// For a move that is not one piece going from one cell to another (taking pieces on the
    /// way): every cell it changes, with what it held and holds after (`.` or a letter).
    pub changes: Vec<(usize, u8, u8)>,
}

impl Rewrite {
    /// Whether the move can be made in `s`, whose occupied cells are `occupied`.
    #[inline]
    pub fn applies(&self, s: &Kinds, occupied: u128) -> bool {
        occupied & self.empty == 0
            && occupied & self.any == self.any
            && (0..MAX_KINDS).all(|k| s[k] & self.need[k] == self.need[k])
    }

    /// The position after the move (which must apply).
    #[inline]
    pub fn apply(&self, s: &Kinds) -> Kinds {
        std::array::from_fn(|k| s[k] ^ self.flip[k])
    }
}

/// What a position must be at the end; every condition given must hold.
#[derive(Debug, Clone, PartialEq)]
pub struct RewriteGoal {
    /// `goal: board:`, exactly.
    pub board: Option<Kinds>,
    /// `pegs:`: pieces left in all, or the fewest.
    pub pieces: Option<PegGoal>,
    /// `left:`: pieces left of each kind, where named.
    pub left: [Option<u32>; MAX_KINDS],
    /// `at:` or `reach:`: a cell that must hold a piece, and of which kind if `piece:` says.
    pub cell: Option<(usize, Option<usize>)>,
    pub moves: Option<MoveGoal>,
}

#[derive(Debug, Clone)]
pub struct RewriteModel {
    pub geo: Geometry,
    pub directions: Vec<String>,
    /// Each kind's letter, in the family's order.
    pub kinds: Vec<u8>,
    pub moves: Vec<Rewrite>,
    pub start: Kinds,
    pub goal: RewriteGoal,
    /// `anchored[k][c]`: the moves (indices, ascending) whose first cell that must hold a piece
    /// of a kind needs kind k on cell c; only they can apply where c holds no k.
    pub anchored: Vec<Vec<Vec<u32>>>,
    /// The moves that need no piece of a kind anywhere (only empty cells or any piece).
    pub unanchored: Vec<u32>,
}

/// Every cell a position holds a piece on.
#[inline]
pub fn occupied(s: &Kinds) -> u128 {
    s.iter().fold(0, |a, b| a | b)
}

impl RewriteModel {
    /// The moves that may apply in `s`, in the family's order, into `out` (cleared first): those
    /// anchored on a cell holding their kind, and the unanchored ones. Checking these instead
    /// of every move is what keeps a slide maze's thousand rewrites cheap a position.
    pub fn candidates(&self, s: &Kinds, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.unanchored);
        for (k, cells) in self.anchored.iter().enumerate() {
            let mut bits = s[k];
            while bits != 0 {
                out.extend_from_slice(&cells[bits.trailing_zeros() as usize]);
                bits &= bits - 1;
            }
        }
        out.sort_unstable();
    }

    /// The most moves [`RewriteModel::candidates`] can give one position: what a search counts
    /// each position it expands may add, to stop before a table could outgrow its memory limit.
    pub fn most_candidates(&self) -> usize {
        let longest = self.anchored.iter().flatten().map(Vec::len).max().unwrap_or(0);
        // Pieces never outnumber the cells, nor the start's count if no move adds one.
        let adds = self.monotone().gains_any;
        let pieces = match adds {
            true => self.geo.cells.len(),
            false => occupied(&self.start).count_ones() as usize,
        };
        (pieces * longest + self.unanchored.len()).min(self.moves.len())
    }

    /// Whether `s` meets every condition of the goal but a `pegs: fewest`, which only a
    /// search over all of them decides.
    pub fn is_goal(&self, s: &Kinds) -> bool {
        let g = &self.goal;
        let occ = occupied(s);
        g.board.is_none_or(|b| b == *s)
            && match g.pieces {
                Some(PegGoal::Count(n)) => occ.count_ones() == n,
                _ => true,
            }
            && g.left
                .iter()
                .zip(s)
                .all(|(n, bits)| n.is_none_or(|n| bits.count_ones() == n))
            && g.cell.is_none_or(|(c, kind)| match kind {
                Some(k) => s[k] >> c & 1 == 1,
                None => occ >> c & 1 == 1,
            })
    }

    /// The counts no move can bring back to the goal's (see [`Pruning`]), read off the moves.
    pub fn pruning(&self) -> Pruning {
        let mono = self.monotone();
        let mut want: Vec<(Option<usize>, u32)> = Vec::new();
        if let Some(b) = &self.goal.board {
            want.extend((0..self.kinds.len()).map(|k| (Some(k), b[k].count_ones())));
        }
        want.extend(
            self.goal
                .left
                .iter()
                .enumerate()
                .filter_map(|(k, n)| n.map(|n| (Some(k), n))),
        );
        if let Some(PegGoal::Count(n)) = self.goal.pieces {
            want.push((None, n));
        }
        let rules = want
            .into_iter()
            .map(|(kind, n)| {
                let (gains, loses) = match kind {
                    Some(k) => (mono.gains[k], mono.loses[k]),
                    None => (mono.gains_any, mono.loses_any),
                };
                Count {
                    kind,
                    n,
                    gains,
                    loses,
                }
            })
            .filter(|c| !(c.gains && c.loses))
            .collect();
        // The fewest pieces a goal position can have: one on a goal cell, those `left:` names,
        // and all the start's if no move takes one.
        let named: u32 = self.goal.left.iter().flatten().sum();
        let floor = match mono.loses_any {
            false => occupied(&self.start).count_ones(),
            true => named.max(u32::from(self.goal.cell.is_some())),
        };
        Pruning {
            rules,
            kinds: self.kinds.clone(),
            floor,
        }
    }

    /// Which counts the moves can raise or lower.
    pub fn monotone(&self) -> Monotone {
        let mut m = Monotone::default();
        for mv in &self.moves {
            let mut total = 0;
            for k in 0..self.kinds.len() {
                // Kind k stands on `need` before and on `need ^ flip` after.
                let change = (mv.need[k] ^ mv.flip[k]).count_ones() as i64 - mv.need[k].count_ones() as i64;
                m.gains[k] |= change > 0;
                m.loses[k] |= change < 0;
                total += change;
            }
            m.gains_any |= total > 0;
            m.loses_any |= total < 0;
        }
        m
    }
}

/// A count the goal fixes (of one kind, or of all pieces) that the moves only raise or only
/// lower (or leave alone).
#[derive(Debug, Clone, Copy)]
struct Count {
    kind: Option<usize>,
    n: u32,
    gains: bool,
    loses: bool,
}

/// Positions no sequence of moves can bring to the goal, by counting: fewer pieces of a kind
/// than the goal leaves when no move adds one (more, when none takes one), the same for
/// pieces in all. Valid for any rule set: it reads the moves. `floor` is the fewest pieces a
/// goal position can have, for `pegs: fewest`.
#[derive(Debug, Clone)]
pub struct Pruning {
    rules: Vec<Count>,
    kinds: Vec<u8>,
    pub floor: u32,
}

impl Pruning {
    /// Whether no sequence of moves can bring `s` to the goal.
    #[inline]
    pub fn dead(&self, s: &Kinds) -> bool {
        self.rules.iter().any(|c| {
            let has = match c.kind {
                Some(k) => s[k].count_ones(),
                None => occupied(s).count_ones(),
            };
            (has < c.n && !c.gains) || (has > c.n && !c.loses)
        })
    }

    /// Why `s` is dead, in words, if it is.
    pub fn why(&self, s: &Kinds) -> Option<String> {
        self.rules.iter().find_map(|c| {
            let (has, what) = match c.kind {
                Some(k) => (s[k].count_ones(), format!("of kind {}", self.kinds[k] as char)),
                None => (occupied(s).count_ones(), "in all".to_string()),
            };
            let pieces = |n: u32| format!("{n} piece{}", if n == 1 { "" } else { "s" });
            match () {
                _ if has < c.n && !c.gains => Some(format!(
                    "the goal leaves {} {what}, the board has {} and no move adds one",
                    pieces(c.n),
                    has
                )),
                _ if has > c.n && !c.loses => Some(format!(
                    "the goal leaves {} {what}, the board has {} and no move takes one",
                    pieces(c.n),
                    has
                )),
                _ => None,
            }
        })
    }
}

/// Whether any move adds or takes pieces of each kind, and of all kinds together.
#[derive(Debug, Clone, Copy, Default)]
pub struct Monotone {
    pub gains: [bool; MAX_KINDS],
    pub loses: [bool; MAX_KINDS],
    pub gains_any: bool,
    pub loses_any: bool,
}

fn letters(kinds: &[u8]) -> String {
    kinds
        .iter()
        .map(|&k| (k as char).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kind index of a board token: its letter (`o` for a peg) among the family's kinds.
fn kind_of(kinds: &[u8], t: Token) -> Option<std::result::Result<usize, u8>> {
    let letter = match t {
        Token::Peg => b'o',
        Token::Piece(l) => l,
        Token::Hole | Token::Blocked => return None,
    };
    Some(kinds.iter().position(|&k| k == letter).ok_or(letter))
}

/// Compiles a board of pieces and a rewrite family's tables into a model.
pub fn compile(spec: &Spec, script: &Script, t: &RuleTables, g: &GridBoard) -> Result<RewriteModel> {
    let (geo, tokens) = grid_geometry(spec, t.layout, g)?;
    let kinds = t.pieces.clone();
    let unknown = |letter: u8, cell: usize, goal: bool| {
        let [r, c] = geo.cells[cell];
        let (line, col) = match goal {
            true => spec.goal_location([r, c]),
            false => spec.cell_location([r, c]),
        };
        let what = if goal {
            "goal: `board:` has"
        } else {
            "the board has"
        };
        Diagnostic::new(
            &spec.path,
            format!(
                "{what} a piece `{}` at [{r}, {c}], but the kinds of `{}` are {}: draw each piece by its kind's letter",
                letter as char,
                script.name,
                letters(&kinds)
            ),
        )
        .at(line, col)
    };
    let position = |tokens: &[Token], goal: bool| -> Result<Kinds> {
        let mut s = [0u128; MAX_KINDS];
        for (i, &tok) in tokens.iter().enumerate() {
            match kind_of(&kinds, tok) {
                None => {}
                Some(Ok(k)) => s[k] |= 1 << i,
                Some(Err(letter)) => return Err(unknown(letter, i, goal)),
            }
        }
        Ok(s)
    };
    let start = position(&tokens, false)?;
    let mut moves = Vec::with_capacity(t.rewrites.len());
    for (i, rule) in t.rewrites.iter().enumerate() {
        let mut mv = Rewrite {
            need: [0; MAX_KINDS],
            empty: 0,
            any: 0,
            flip: [0; MAX_KINDS],
            dir: rule.dir,
            kind: 0,
            from: 0,
            to: 0,
            takes: Vec::new(),
            changes: Vec::new(),
        };
        let mut cells = Vec::with_capacity(rule.at.len());
        for cell in &rule.at {
            let Some(&c) = geo.index.get(cell) else {
                return Err(script.error_at_key(
                    "at",
                    format!(
                        "moves[{i}] (at [{}, {}]) names a cell that is not a hole of the board in {}",
                        cell[0],
                        cell[1],
                        spec.path.display()
                    ),
                ));
            };
            if cells.contains(&c) {
                return Err(script.error_at_key(
                    "at",
                    format!(
                        "moves[{i}] names the cell [{}, {}] twice in `at`",
                        cell[0], cell[1]
                    ),
                ));
            }
            cells.push(c);
        }
        let kind = |ch: u8| kinds.iter().position(|&k| k == ch);
        for (j, &c) in cells.iter().enumerate() {
            let bit = 1u128 << c;
            match rule.was[j] {
                b'.' => mv.empty |= bit,
                b'*' => mv.any |= bit,
                ch => mv.need[kind(ch).unwrap_or(0)] |= bit,
            }
            for ch in [rule.was[j], rule.becomes[j]] {
                if let Some(k) = kind(ch).filter(|_| rule.was[j] != rule.becomes[j]) {
                    mv.flip[k] ^= bit;
                }
            }
        }
        // The piece that moves: the first cell to lose its piece, landing on the first cell
        // to gain one of that kind (or the first to gain any).
        let changed = |j: usize| rule.was[j] != rule.becomes[j];
        let loses = (0..cells.len()).find(|&j| changed(j) && kind(rule.was[j]).is_some());
        let gains = |want: Option<u8>| {
            (0..cells.len()).find(|&j| {
                changed(j) && kind(rule.becomes[j]).is_some() && want.is_none_or(|w| rule.becomes[j] == w)
            })
        };
        let lands = gains(loses.map(|j| rule.was[j])).or_else(|| gains(None));
        let (from, to) = match (loses, lands) {
            (Some(a), Some(b)) => (a, b),
            (Some(a), None) => (a, a),
            (None, Some(b)) => (b, b),
            (None, None) => (0, 0),
        };
        mv.kind = kind(rule.was[from])
            .or_else(|| kind(rule.becomes[to]))
            .unwrap_or(0);
        (mv.from, mv.to) = (cells[from], cells[to]);
        mv.takes = (0..cells.len())
            .filter(|&j| j != from && changed(j) && rule.becomes[j] == b'.')
            .map(|j| cells[j])
            .collect();
        // One piece going from one cell to another, taking pieces: from gives up its kind,
        // to was empty and takes it, every other change is a piece taken.
        let one_piece = from != to
            && rule.becomes[from] == b'.'
            && rule.was[to] == b'.'
            && rule.becomes[to] == rule.was[from]
            && (0..cells.len()).all(|j| !changed(j) || j == from || j == to || rule.becomes[j] == b'.');
        if !one_piece {
            mv.takes.clear();
            mv.changes = (0..cells.len())
                .filter(|&j| changed(j))
                .map(|j| (cells[j], rule.was[j], rule.becomes[j]))
                .collect();
        }
        moves.push(mv);
    }
    let goal = compile_goal(spec, script, t, g, &geo, &kinds, &position)?;
    let mut anchored = vec![vec![Vec::new(); geo.cells.len()]; kinds.len()];
    let mut unanchored = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        // The lowest cell needing a kind, of the lowest such kind: any one needed cell will do.
        match (0..kinds.len()).find(|&k| mv.need[k] != 0) {
            Some(k) => anchored[k][mv.need[k].trailing_zeros() as usize].push(i as u32),
            None => unanchored.push(i as u32),
        }
    }
    Ok(RewriteModel {
        anchored,
        unanchored,
        geo,
        directions: t.directions.iter().map(|d| d.name.clone()).collect(),
        kinds,
        moves,
        start,
        goal,
    })
}

/// The goal, its kinds checked against the family's.
fn compile_goal(
    spec: &Spec,
    script: &Script,
    t: &RuleTables,
    g: &GridBoard,
    geo: &Geometry,
    kinds: &[u8],
    position: &dyn Fn(&[Token], bool) -> Result<Kinds>,
) -> Result<RewriteGoal> {
    let sg = &spec.goal;
    let kind_err = |letter: u8, key: &str| {
        Diagnostic::new(
            &spec.path,
            format!(
                "goal: `{key}:` names `{}`, but the kinds of `{}` are {}",
                letter as char,
                script.name,
                letters(kinds)
            ),
        )
        .at(sg.kinds_line, None)
    };
    let kind = |letter: u8, key: &str| {
        kinds
            .iter()
            .position(|&k| k == letter)
            .ok_or_else(|| kind_err(letter, key))
    };
    let mut left = [None; MAX_KINDS];
    for (&letter, &n) in &sg.left {
        left[kind(letter, "left")?] = Some(n);
    }
    let board = match &sg.board {
        Some(b) => Some(position(&goal_tokens(spec, geo, g, b)?, true)?),
        None => None,
    };
    let cell = match sg.at.or(sg.reach) {
        None => None,
        Some(c) => {
            let line = if sg.at.is_some() {
                sg.at_line
            } else {
                sg.reach_line
            };
            let Some(&i) = geo.index.get(&c) else {
                return Err(Diagnostic::new(
                    &spec.path,
                    format!("goal cell [{}, {}] is not a hole of the board", c[0], c[1]),
                )
                .at(line, None));
            };
            Some((i, sg.piece.map(|p| kind(p, "piece")).transpose()?))
        }
    };
    let pieces = sg.pegs.or_else(|| t.default_pegs.map(PegGoal::Count));
    if board.is_none() && pieces.is_none() && sg.left.is_empty() && cell.is_none() {
        return Err(Diagnostic::new(
            &spec.path,
            format!(
                "no goal: `{}` moves pieces of kinds; say where they must end with `goal:` and `board:` (the end \
                 position), `left:` (pieces of each kind, e.g. {{{}: 1}}), `pegs:` (pieces in all) or `reach:` (a cell)",
                script.name,
                kinds[0] as char
            ),
        )
        .at(crate::spec::key_line(&spec.source, "goal"), None));
    }
    Ok(RewriteGoal {
        board,
        pieces,
        left,
        cell,
        moves: sg.moves,
    })
}
