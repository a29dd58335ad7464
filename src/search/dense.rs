//! Exact fewest-pegs values of small boards, kept one byte a position in a dense table shared
//! by every puzzle of the same moves: a batch of boards of one shape fills it once.
//!
//! `value(s)` is the fewest pegs any sequence of moves from `s` leaves: `s`'s own pegs when
//! no move applies, else the least value of its children. A store holds it for `s` (a bit mask
//! of at most [`MAX_CELLS`] cells), 0 for "not known yet"; a value is written only once it is
//! exact, so what a store holds never depends on which puzzles filled it, nor in what order,
//! nor on which thread: two threads that race on a position write the same byte.
//!
//! The search of a value stops early, exactly: position classes ([`super::invariants`]) are
//! the same for every position a start reaches, so the floor [`super::plan`] finds for the
//! start bounds every value below it from under, and a position with a child of that value
//! has it too. The answer's moves are then the greedy descent in the search order: from each
//! position the first move whose child keeps the start's value (every position reachable
//! from one of value `v` has value at least `v`, so that child's search stops at `v`). The
//! moves depend on the values alone, so they are the same whatever the store held before and
//! whichever store it was: the lexicographically first line (in the search order) to a
//! position of the fewest pegs.
//!
//! Two stores: a puzzle's own hash table (`Sparse`), and the shared `Dense` table of
//! `2^cells` bytes. A shape's first [`DENSE_AFTER`] puzzles take their own (zeroing 32 MiB
//! for one 5×5 board costs a few times its search: 2,500 boards each on a fresh shared table
//! took 6.1 s, each on its own 2.2 s), later ones the shared table (at most
//! [`KEPT_TABLES`] kept). Without caching (`MARBLES_NO_CACHE`) every puzzle takes its own.
//!
//! What a puzzle spends is counted as its own: its nodes are the children it looked at
//! (fewer when earlier puzzles left values behind, so the node count, unlike the answer,
//! depends on them; which is why [`super::plan`] sends a puzzle under a node limit to the
//! other searches), and its memory is its own table's, or the whole shared one,
//! [`table_bytes`], touched or not; a memory limit too small for the shared table keeps a
//! puzzle on its own table, which counts its growth against the limit as it goes.

use super::bits::{Families, Word};
use super::dfs::Observer;
use super::{Budget, GaveUp, table_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// The most cells a board may have for this search: a shared table of 2^25 bytes, 32 MiB,
/// for a 5×5 board. Measured on 2,000 boards of 24 to 27 cells (docs/benchmarks.md): the
/// table saved a third of the time at 24 and 25 cells, broke even at 26, and lost at 27,
/// where two kept tables would also pass the 200 MB a batch of 50,000 files may hold.
pub const MAX_CELLS: usize = 25;

/// The most moves a position may be searched with (one bit each in a frame).
const MAX_MOVES: usize = 128;

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// The puzzles of one shape that take their own table before the shape gets a shared one.
pub const DENSE_AFTER: u32 = 16;

/// The shared tables kept at once (64 MiB at most): a new shape's replaces the oldest.
pub const KEPT_TABLES: usize = 2;

/// The shapes counted towards [`DENSE_AFTER`] at once; the counts start afresh past it.
const COUNTED: usize = 256;

/// What a table depends on: the number of cells, then each move's need and mask.
type Key = Vec<u128>;

/// The shapes seen and the shared tables kept.
#[derive(Default)]
struct Shapes {
    seen: FxHashMap<Key, u32>,
    tables: Vec<(Key, Arc<Dense>)>,
}

static SHAPES: Mutex<Option<Shapes>> = Mutex::new(None);

/// Forgets every shared table and every shape's count, so that the next puzzles start cold:
/// for benchmarks that run the same puzzles more than once in a process.
pub fn forget() {
    *SHAPES.lock().unwrap_or_else(|p| p.into_inner()) = None;
}

/// The bytes of a shared table for `cells` cells, counted against a puzzle's memory limit.
pub fn table_bytes(cells: usize) -> u64 {
    1 << cells
}

/// True when `model`'s goal is the fewest pegs and nothing else (no cell, no goal board, no
/// reach, no move count), its board has at most [`MAX_CELLS`] cells and at most
/// `MAX_MOVES` (128) moves, and every move takes at least one peg away and leaves one.
pub fn fits(model: &HopModel) -> bool {
    let goal = &model.goal;
    goal.pegs == PegGoal::Fewest
        && goal.pattern.is_none()
        && goal.at.is_none()
        && goal.moves.is_none()
        && !goal.reach
        && model.geo.cells.len() <= MAX_CELLS
        && model.moves.len() <= MAX_MOVES
        && model.moves.iter().all(|m| {
            let lands = m.mask & !m.need;
            m.need & !m.mask == 0 && lands != 0 && m.need.count_ones() > lands.count_ones()
        })
}

/// What a puzzle that [`fits`] found: the moves to a position of the fewest pegs (first move
/// first) and that position, or why a limit or Ctrl-C stopped it; and the bytes of the table
/// it used.
pub struct Found {
    pub line: Result<(Vec<usize>, u128), GaveUp>,
    pub memory: u64,
}

/// Solves a puzzle that [`fits`] (see the module notes), telling `obs` the answer's moves.
/// `floor` is a peg count no position the start reaches can go below.
pub fn fewest(
    model: &HopModel,
    order: &[usize],
    floor: u32,
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> Found {
    let bytes = table_bytes(model.geo.cells.len());
    let floor = floor.clamp(1, u8::MAX.into()) as u8;
    // Asked of the limit alone, not through a check, which would count the table as held.
    let room = budget.room(0).left() > bytes;
    let shared = if room { shared(model) } else { None };
    let found = match shared {
        Some(table) => {
            let line = Search::new(model, budget, table).descend(model, order, floor);
            Found { line, memory: bytes }
        }
        None => {
            let mut search = Search::new(model, budget, Sparse::default());
            let line = search.descend(model, order, floor);
            let memory = search.store.peak;
            Found { line, memory }
        }
    };
    if let Ok((path, end)) = &found.line {
        let mut s = model.start;
        for (k, &m) in path.iter().enumerate() {
            s ^= model.moves[m].mask;
            obs.advance(k + 1, m, s);
        }
        obs.goal(path.len(), *end);
    }
    found
}

/// The shared table for `model`'s moves once its shape has had [`DENSE_AFTER`] puzzles:
/// kept, or new; `None` before, and always without caching.
fn shared(model: &HopModel) -> Option<Arc<Dense>> {
    if !crate::memo::enabled() {
        return None;
    }
    let key = key_of(model);
    let mut guard = SHAPES.lock().unwrap_or_else(|p| p.into_inner());
    let shapes = guard.get_or_insert_with(Shapes::default);
    if let Some((_, t)) = shapes.tables.iter().find(|(k, _)| *k == key) {
        return Some(Arc::clone(t));
    }
    if shapes.seen.len() >= COUNTED {
        shapes.seen.clear();
    }
    let seen = match shapes.seen.get_mut(&key) {
        Some(seen) => {
            *seen += 1;
            *seen
        }
        None => {
            shapes.seen.insert(key.clone(), 1);
            1
        }
    };
    if seen <= DENSE_AFTER {
        return None;
    }
    shapes.seen.remove(&key);
    let n = model.geo.cells.len();
    let values: Box<[AtomicU8]> = (0..1usize << n).map(|_| AtomicU8::new(0)).collect();
    crate::process::advise_huge_pages(&values);
    let table = Arc::new(Dense(values));
    if shapes.tables.len() >= KEPT_TABLES {
        shapes.tables.remove(0);
    }
    shapes.tables.push((key, Arc::clone(&table)));
    Some(table)
}

/// The cell count, then each move's need and mask: what a shared table depends on.
fn key_of(model: &HopModel) -> Key {
    let mut key = Vec::with_capacity(2 * model.moves.len() + 1);
    key.push(model.geo.cells.len() as u128);
    for m in &model.moves {
        key.extend([m.need, m.mask]);
    }
    key
}

/// Where values are kept: 0 for a position not valued yet.
trait Store {
    fn get(&self, s: u64) -> u8;
    fn set(&mut self, s: u64, v: u8);
    /// Checks the budget with this store's bytes, as they may be by `more` nodes on.
    fn check(&mut self, budget: &Budget, more: u64) -> Option<GaveUp>;
}

/// The shared table: one byte a position, read and written by every thread at once.
struct Dense(Box<[AtomicU8]>);

impl Store for Arc<Dense> {
    #[inline(always)]
    fn get(&self, s: u64) -> u8 {
        self.0[s as usize].load(Ordering::Relaxed)
    }
    #[inline(always)]
    fn set(&mut self, s: u64, v: u8) {
        self.0[s as usize].store(v, Ordering::Relaxed);
    }
    fn check(&mut self, budget: &Budget, _: u64) -> Option<GaveUp> {
        budget.exceeded(self.0.len() as u64)
    }
}

/// A puzzle's own table, and the most bytes it reached.
#[derive(Default)]
struct Sparse {
    values: FxHashMap<u64, u8>,
    peak: u64,
}

impl Store for Sparse {
    #[inline(always)]
    fn get(&self, s: u64) -> u8 {
        self.values.get(&s).copied().unwrap_or(0)
    }
    #[inline(always)]
    fn set(&mut self, s: u64, v: u8) {
        self.values.insert(s, v);
    }
    fn check(&mut self, budget: &Budget, more: u64) -> Option<GaveUp> {
        // At most a value a node is written before the next check.
        let (len, cap) = (self.values.len(), self.values.capacity());
        let bytes = table_peak::<(u64, u8)>(len, cap, more as usize);
        let over = budget.exceeded(bytes);
        if over.is_none() {
            self.peak = self.peak.max(bytes);
        }
        over
    }
}

/// One position being valued: its moves not yet tried (bit `i` for `model.moves[i]`) and
/// the least value found among its children so far (its own pegs to begin with).
struct Frame {
    s: u64,
    todo: u128,
    best: u8,
}

/// A puzzle's walk through a store.
struct Search<'a, S> {
    store: S,
    moves: Families<u64, u128>,
    masks: Vec<u64>,
    stack: Vec<Frame>,
    budget: &'a mut Budget,
    check_at: u64,
}

impl<'a, S: Store> Search<'a, S> {
    fn new(model: &HopModel, budget: &'a mut Budget, store: S) -> Self {
        let check_at = budget.nodes + 1;
        Search {
            store,
            moves: Families::new(model, (0..model.moves.len()).map(|i| (i, 1u128 << i))),
            masks: model.moves.iter().map(|m| u64::narrow(m.mask)).collect(),
            stack: Vec::with_capacity(model.geo.cells.len() + 1),
            budget,
            check_at,
        }
    }

    /// The frame of `s`: its children's values looked up all at once (their loads overlap),
    /// the least of those known kept, and the others left to search. A child at `low` pegs
    /// is worth its pegs. Counts a node a child.
    #[inline(always)]
    fn open(&mut self, s: u64, low: u8) -> Frame {
        let (mut todo, mut best, mut nodes) = (0u128, s.count_ones() as u8, 0);
        let store = &self.store;
        self.moves.each(s, |mask, bit| {
            nodes += 1;
            let child = s ^ mask;
            let pegs = child.count_ones() as u8;
            match store.get(child) {
                0 if pegs > low => todo |= bit,
                0 => best = best.min(pegs),
                known => best = best.min(known),
            }
        });
        self.budget.nodes += nodes;
        Frame { s, todo, best }
    }

    /// The fewest pegs reachable from `s`, given that none below `low` is.
    fn value(&mut self, s: u64, low: u8) -> Result<u8, GaveUp> {
        let known = self.store.get(s);
        if known != 0 {
            return Ok(known);
        }
        self.stack.clear();
        let first = self.open(s, low);
        self.stack.push(first);
        loop {
            if self.budget.nodes >= self.check_at {
                self.check_at = self.budget.next_check(CHECK_EVERY);
                let more = self.check_at.saturating_sub(self.budget.nodes);
                if let Some(why) = self.store.check(self.budget, more) {
                    return Err(why);
                }
            }
            let top = self
                .stack
                .last_mut()
                .expect("the stack holds the position asked for");
            if top.todo == 0 || top.best <= low {
                let (s, v) = (top.s, top.best);
                self.stack.pop();
                self.store.set(s, v);
                match self.stack.last_mut() {
                    Some(parent) => parent.best = parent.best.min(v),
                    None => return Ok(v),
                }
                continue;
            }
            let i = top.todo.trailing_zeros() as usize;
            top.todo &= top.todo - 1;
            let child = top.s ^ self.masks[i];
            // Valued since the frame opened: by a sibling's search, or another thread.
            match self.store.get(child) {
                0 => {
                    let f = self.open(child, low);
                    self.stack.push(f);
                }
                known => {
                    let top = self.stack.last_mut().expect("just read");
                    top.best = top.best.min(known);
                }
            }
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
