//! Exact fewest-pegs values of small boards, one byte a position in a dense table shared by
//! every puzzle of the same moves: a batch of boards of one shape fills it once.
//!
//! `value(s)` is the fewest pegs any sequence of moves from `s` leaves: `s`'s own pegs when
//! no move applies, else the least value of its children. The table holds it at index `s`
//! (a position is a bit mask of at most [`MAX_CELLS`] cells), 0 for "not known yet"; a value
//! is written only once it is exact, so what a table holds never depends on which puzzles
//! filled it, nor in what order, nor on which thread: two threads that race on a position
//! write the same byte.
//!
//! The search of a value stops early, exactly: position classes ([`super::invariants`]) are
//! the same for every position a start reaches, so the floor [`super::plan`] finds for the
//! start bounds every value below it from under, and a position with a child of that value
//! has it too. The answer's moves are then the greedy descent in the search order: from each
//! position the first move whose child keeps the start's value (every position reachable
//! from one of value `v` has value at least `v`, so that child's search stops at `v`). The
//! moves depend on the values alone, so they are the same whatever the table held before.
//!
//! What a puzzle spends is counted as its own: its nodes are the children it looked at
//! (fewer when earlier puzzles left values behind, so the node count, unlike the answer,
//! depends on them; which is why a node limit sends a puzzle to the other searches), and its
//! memory is the whole table, [`table_bytes`], allocated or not, so a memory limit too small
//! for the table sends it there as well.

use super::bits::{Families, Word};
use super::dfs::Observer;
use super::{Budget, GaveUp};
use crate::model::HopModel;
use crate::spec::PegGoal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// The most cells a board may have for a table: 2^25 bytes, 32 MiB, for a 5×5 board.
pub const MAX_CELLS: usize = 25;

/// The most moves a table's positions may be searched with (one bit each in a frame).
const MAX_MOVES: usize = 128;

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// What a table depends on: the number of cells, then each move's need and mask.
type Key = Vec<u128>;

/// Tables kept for the next puzzle of the same moves: at most two (64 MiB), started afresh
/// when a third shape comes.
static KEPT: crate::memo::Kept<Key, Arc<Table>> = crate::memo::Kept::new(2);

/// One value a position, 0 while unknown.
struct Table(Box<[AtomicU8]>);

/// The bytes of a table for `cells` cells, counted against a puzzle's memory limit.
pub fn table_bytes(cells: usize) -> u64 {
    1 << cells
}

/// True when `model`'s goal is the fewest pegs and nothing else (no cell, no goal board, no
/// reach, no move count), its board has at most [`MAX_CELLS`] cells and at most
/// [`MAX_MOVES`] moves, and every move takes at least one peg away and leaves one.
pub fn fits(model: &HopModel) -> bool {
    let goal = &model.goal;
    goal.pegs == PegGoal::Fewest
        && goal.pattern.is_none()
        && goal.at.is_none()
        && goal.moves.is_none()
        && !model.reach
        && model.geo.cells.len() <= MAX_CELLS
        && model.moves.len() <= MAX_MOVES
        && model.moves.iter().all(|m| {
            let lands = m.mask & !m.need;
            m.need & !m.mask == 0 && lands != 0 && m.need.count_ones() > lands.count_ones()
        })
}

/// The answer of a puzzle that [`fits`]: the moves to a position of the fewest pegs (first
/// move first) and that position, or why a limit or Ctrl-C stopped it. `floor` is a peg count
/// no position the start reaches can go below. `None` when the memory limit cannot hold the
/// table: the puzzle is for the other searches.
pub fn fewest(
    model: &HopModel,
    order: &[usize],
    floor: u32,
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> Option<Result<(Vec<usize>, u128), GaveUp>> {
    let bytes = table_bytes(model.geo.cells.len());
    if let Some(GaveUp::Memory(_)) = budget.exceeded(bytes) {
        return None;
    }
    let mut search = Search::new(model, budget, bytes);
    let found = search.descend(model, order, floor.clamp(1, u8::MAX.into()) as u8);
    if let Ok((path, end)) = &found {
        let mut s = model.start;
        for (k, &m) in path.iter().enumerate() {
            s ^= model.moves[m].mask;
            obs.advance(k + 1, m, s);
        }
        obs.goal(path.len(), *end);
    }
    Some(found)
}

/// The shared table for `model`'s moves, kept or new.
fn table(model: &HopModel) -> Arc<Table> {
    let n = model.geo.cells.len();
    let mut key = Vec::with_capacity(2 * model.moves.len() + 1);
    key.push(n as u128);
    for m in &model.moves {
        key.extend([m.need, m.mask]);
    }
    if let Some(t) = KEPT.get(&key) {
        return t;
    }
    let t = Arc::new(Table((0..1usize << n).map(|_| AtomicU8::new(0)).collect()));
    KEPT.put(key, Arc::clone(&t));
    t
}

/// One position being valued: its moves not yet tried (bit `i` for `model.moves[i]`) and
/// the least value found among its children so far (its own pegs to begin with).
struct Frame {
    s: u64,
    todo: u128,
    best: u8,
}

/// A puzzle's walk through the shared table.
struct Search<'a> {
    table: Arc<Table>,
    moves: Families<u64, u128>,
    masks: Vec<u64>,
    stack: Vec<Frame>,
    budget: &'a mut Budget,
    check_at: u64,
    bytes: u64,
}

impl<'a> Search<'a> {
    fn new(model: &HopModel, budget: &'a mut Budget, bytes: u64) -> Self {
        let check_at = budget.nodes + 1;
        Search {
            table: table(model),
            moves: Families::new(model, (0..model.moves.len()).map(|i| (i, 1u128 << i))),
            masks: model.moves.iter().map(|m| u64::narrow(m.mask)).collect(),
            stack: Vec::with_capacity(model.geo.cells.len() + 1),
            budget,
            check_at,
            bytes,
        }
    }

    fn frame(&self, s: u64) -> Frame {
        let mut todo = 0u128;
        self.moves.each(s, |_, bit| todo |= bit);
        Frame {
            s,
            todo,
            best: s.count_ones() as u8,
        }
    }

    #[inline(always)]
    fn known(&self, s: u64) -> u8 {
        self.table.0[s as usize].load(Ordering::Relaxed)
    }

    /// The fewest pegs reachable from `s`, given that none below `low` is.
    fn value(&mut self, s: u64, low: u8) -> Result<u8, GaveUp> {
        let known = self.known(s);
        if known != 0 {
            return Ok(known);
        }
        self.stack.clear();
        self.stack.push(self.frame(s));
        loop {
            let top = self
                .stack
                .last_mut()
                .expect("the stack holds the position asked for");
            if top.todo == 0 || top.best <= low {
                let (s, v) = (top.s, top.best);
                self.table.0[s as usize].store(v, Ordering::Relaxed);
                self.stack.pop();
                match self.stack.last_mut() {
                    Some(parent) => parent.best = parent.best.min(v),
                    None => return Ok(v),
                }
                continue;
            }
            let i = top.todo.trailing_zeros() as usize;
            top.todo &= top.todo - 1;
            let child = top.s ^ self.masks[i];
            self.budget.nodes += 1;
            if self.budget.nodes >= self.check_at {
                self.check_at = self.budget.next_check(CHECK_EVERY);
                if let Some(why) = self.budget.exceeded(self.bytes) {
                    return Err(why);
                }
            }
            let top = self.stack.last_mut().expect("just read");
            let known = self.table.0[child as usize].load(Ordering::Relaxed);
            let pegs = child.count_ones() as u8;
            if known != 0 || pegs <= low {
                // Known, or at the floor: a position there is worth its pegs.
                top.best = top.best.min(if known != 0 { known } else { pegs });
                continue;
            }
            let f = self.frame(child);
            self.stack.push(f);
        }
    }

    /// The start's value, then the first move in `order` from each position on whose child
    /// keeps it, until a position of that many pegs: the moves and where they end.
    fn descend(
        &mut self,
        model: &HopModel,
        order: &[usize],
        floor: u8,
    ) -> Result<(Vec<usize>, u128), GaveUp> {
        let mut s = u64::narrow(model.start);
        let goal = self.value(s, floor)?;
        let mut path = Vec::new();
        while s.count_ones() > u32::from(goal) {
            let mut next = None;
            for &m in order {
                let mv = &model.moves[m];
                if s & u64::narrow(mv.mask) != u64::narrow(mv.need) {
                    continue;
                }
                let child = s ^ u64::narrow(mv.mask);
                // Everything a position of value `goal` reaches is worth at least `goal`.
                if self.value(child, goal)? == goal {
                    next = Some((m, child));
                    break;
                }
            }
            let (m, child) = next.expect("a position worth fewer pegs than it has has a child worth as few");
            path.push(m);
            s = child;
        }
        Ok((path, s.wide()))
    }
}
