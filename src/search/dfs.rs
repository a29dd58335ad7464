//! Depth-first search for hop families over bitboards, with a table of positions known to fail.

use super::bits::{Families, Word};
use super::endgame::Endgame;
use super::pagoda::Pagodas;
use super::spare::Failed;
use super::symmetry::Symmetry;
use super::{Budget, GaveUp, Verdict, table_bytes, table_peak, vec_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use std::sync::Arc;

/// Events a search reports as it goes, for traces. The default methods do nothing, so a
/// search without an observer compiles to the bare loop.
pub trait Observer {
    /// A move was made; `depth` is the number of moves made so far, this one included.
    fn advance(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// `state` was reached before and is known to fail.
    fn known_failure(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// No move from `state` leads to the goal: the search backs up one move.
    fn dead_end(&mut self, _depth: usize, _state: u128) {}
    fn goal(&mut self, _depth: usize, _state: u128) {}
    /// `state` was cut without a visit: a pagoda function or endgame table shows it cannot
    /// reach the goal.
    fn pruned(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// The search starts again from scratch, on the reversed problem (hole and finishing cell
    /// swapped) when `reversed`; see [`super::portfolio`].
    fn restart(&mut self, _reversed: bool) {}
    /// A beam search of `width` positions a move starts (see [`super::beam`]); if it finds
    /// a solution, its moves follow as `advance`s from the start, then `goal`.
    fn beam(&mut self, _width: usize) {}
}

/// The observer that observes nothing.
pub struct Quiet;
impl Observer for Quiet {}

#[derive(Debug, Clone)]
pub struct HopResult {
    pub verdict: Verdict,
    /// Indices into the model's moves, first move first: the solution, or for `fewest` the
    /// way to the best position found.
    pub path: Vec<usize>,
    /// The position the path ends in.
    pub end: u128,
    pub nodes: u64,
    /// The peak estimate of the failure table's memory.
    pub memory: u64,
}

/// The failure table's key: the least image under `g`, or the position itself.
#[inline(always)]
fn key<W: Word>(s: W, g: Option<&Symmetry>) -> W {
    g.map_or(s, |g| s.canon(g))
}

/// How many images of its position a frame of the search keeps: every element of a square
/// board's symmetry group.
const IMAGES: usize = 8;

/// The failure table's keys. Under a group of 2 to [`IMAGES`] elements each frame keeps every
/// image of its position (the identity's first, repeated past the group's order), and a
/// child's images are its parent's with the move's images XORed in, since a hop toggles the
/// images of its cells in each: a key is then 8 XORs and a minimum where [`key`] reads a table
/// row per 8 cells (a quarter of a 5×5 board's search). Other groups take [`key`] afresh.
struct Keys<'a, W> {
    sym: Option<&'a Symmetry>,
    /// `moves[i]`: the images of the mask of move `i` of the search order; empty when frames
    /// keep no images.
    moves: Vec<[W; IMAGES]>,
}

impl<'a, W: Word> Keys<'a, W> {
    fn new(sym: Option<&'a Symmetry>, moves: &impl Gen<W>, count: usize) -> Self {
        let moves = sym
            .filter(|g| (2..=IMAGES).contains(&g.order()))
            .map_or_else(Vec::new, |g| {
                (0..count).map(|i| images(g, moves.mask(i))).collect()
            });
        Keys { sym, moves }
    }

    /// The images a frame keeps for `s`.
    fn start(&self, s: W) -> [W; IMAGES] {
        match self.sym {
            Some(g) if !self.moves.is_empty() => images(g, s),
            _ => [W::ZERO; IMAGES],
        }
    }

    /// The images a frame keeps for the position move `i` leads to from a frame's `images`.
    #[inline(always)]
    fn child(&self, images: &[W; IMAGES], i: usize) -> [W; IMAGES] {
        match self.moves.get(i) {
            Some(mv) => std::array::from_fn(|g| images[g] ^ mv[g]),
            None => [W::ZERO; IMAGES],
        }
    }

    /// The failure table's key for `s`, whose frame keeps `images`.
    #[inline(always)]
    fn key(&self, s: W, images: &[W; IMAGES]) -> W {
        if self.moves.is_empty() {
            key(s, self.sym)
        } else {
            images.iter().copied().fold(s, W::min)
        }
    }
}

/// Every image of `s` under `g` (of at most [`IMAGES`] elements), then `s` again.
fn images<W: Word>(g: &Symmetry, s: W) -> [W; IMAGES] {
    std::array::from_fn(|k| {
        if k < g.order() {
            W::narrow(g.apply(k, s.wide()))
        } else {
            s
        }
    })
}

/// One position on the search's stack.
struct Frame<W, C> {
    state: W,
    /// The next move to try from it.
    next: C,
    /// Its images ([`Keys`]).
    images: [W; IMAGES],
}

/// How a search finds the moves it can make from a position, in search order: each frame of
/// the stack keeps a cursor, and `next` yields the next index into the search order.
trait Gen<W: Word> {
    type Cursor: Copy;
    fn start(&self, s: W) -> Self::Cursor;
    fn next(&self, s: W, cursor: &mut Self::Cursor) -> Option<usize>;
    /// The mask of the move at `i` in the search order.
    fn mask(&self, i: usize) -> W;
}

/// Every move tested in turn: the cursor is the next index to test.
struct Scan<W>(Vec<(W, W)>);

impl<W: Word> Gen<W> for Scan<W> {
    type Cursor = usize;
    #[inline(always)]
    fn start(&self, _: W) -> usize {
        0
    }
    #[inline(always)]
    fn next(&self, s: W, cursor: &mut usize) -> Option<usize> {
        let k = self
            .0
            .get(*cursor..)?
            .iter()
            .position(|&(mask, need)| s & mask == need)?;
        let i = *cursor + k;
        *cursor = i + 1;
        Some(i)
    }
    #[inline(always)]
    fn mask(&self, i: usize) -> W {
        self.0[i].0
    }
}

/// The moves of a search order as [`Families`], each tagged with its bit in that order, so
/// that the moves a position allows are a few shifts and ANDs away: the cursor is the set of
/// moves not yet tried, bit `i` for index `i` of the search order. For orders of at most 128
/// distinct moves.
struct Hops<W> {
    families: Families<W, u128>,
    masks: Vec<W>,
}

impl<W: Word> Hops<W> {
    fn new(model: &HopModel, order: &[usize]) -> Option<Self> {
        let mut seen = vec![false; model.moves.len()];
        if order.len() > 128 || order.iter().any(|&m| std::mem::replace(&mut seen[m], true)) {
            return None;
        }
        Some(Hops {
            families: Families::new(model, order.iter().enumerate().map(|(i, &m)| (m, 1u128 << i))),
            masks: order.iter().map(|&m| W::narrow(model.moves[m].mask)).collect(),
        })
    }
}

impl<W: Word> Gen<W> for Hops<W> {
    type Cursor = u128;
    #[inline(always)]
    fn start(&self, s: W) -> u128 {
        let mut todo = 0u128;
        self.families.each(s, |_, bit| todo |= bit);
        todo
    }
    #[inline(always)]
    fn next(&self, _: W, todo: &mut u128) -> Option<usize> {
        if *todo == 0 {
            return None;
        }
        let i = todo.trailing_zeros() as usize;
        *todo &= *todo - 1;
        Some(i)
    }
    #[inline(always)]
    fn mask(&self, i: usize) -> W {
        self.masks[i]
    }
}

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// What a search may use to skip positions. Symmetry and pagodas keep the first solution
/// found the same; an endgame table may find another one, sooner.
#[derive(Debug, Clone, Default)]
pub struct Pruning {
    /// Symmetries fixing the goal: the failure table holds one position per orbit.
    pub symmetry: Option<Symmetry>,
    /// Pagoda functions: a position valued below every goal position is cut.
    pub pagodas: Pagodas,
    /// After this many nodes without a solution, build an endgame table (for one-peg goals)
    /// of at most `endgame_positions` positions and decide positions with few pegs by it.
    pub endgame_after: Option<u64>,
    pub endgame_positions: usize,
    /// For `fewest`: a peg count known to be the least possible (see [`super::plan`]); the
    /// search stops, proven, once it reaches it.
    pub floor: Option<u32>,
}

/// For `fewest`: the nodes a search spends before it takes a table of the floor's finishes
/// (see [`floor_finishes`]); most boards are done sooner.
const FINISHES_AFTER: u64 = 1 << 12;
/// The size of that table, shared by every board of the same moves, goal and start class:
/// on 1,000 5×5 boards (one table per class and floor) 2^15 positions cut a sixth of the
/// nodes, 2^18 half, but cost more to build than they saved.
const FINISH_POSITIONS: usize = 1 << 15;

/// The endgame table is built once a search has run this long: easy puzzles never pay for it.
pub const ENDGAME_AFTER: u64 = 1 << 20;
/// The endgame table's size: about a million positions, a few tenths of a second to build.
pub const ENDGAME_POSITIONS: usize = 1 << 20;

impl Pruning {
    /// [`Pruning::for_model`] under the search's budget: finding symmetries and pagodas on a
    /// large scripted move table is work like any other, and `Err(reason)` says which limit
    /// ended it.
    pub fn for_model_within(model: &HopModel, budget: &Budget) -> Result<Self, GaveUp> {
        let symmetry = Symmetry::for_goal_within(model, budget)?;
        Ok(Pruning {
            symmetry: (symmetry.order() > 1).then_some(symmetry),
            pagodas: Pagodas::find_within(model, budget)?,
            endgame_after: Some(ENDGAME_AFTER),
            endgame_positions: ENDGAME_POSITIONS,
            floor: None,
        })
    }

    /// Everything found automatically for `model`: its goal's symmetries and pagodas.
    pub fn for_model(model: &HopModel) -> Self {
        let symmetry = Symmetry::for_goal(model);
        Pruning {
            symmetry: (symmetry.order() > 1).then_some(symmetry),
            pagodas: Pagodas::find(model),
            endgame_after: Some(ENDGAME_AFTER),
            endgame_positions: ENDGAME_POSITIONS,
            floor: None,
        }
    }
}

/// Searches `model` trying moves in `order` (indices into `model.moves`).
pub fn solve(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    solve_with(model, order, budget, obs, &Pruning::default())
}

/// [`solve`], skipping positions that `pruning` shows cannot reach the goal.
pub fn solve_with(
    model: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> HopResult {
    // A reach goal's test is compiled apart ([`search`]'s `ANY_PEGS`), so that every other
    // goal's loop stays as it was without one.
    match (model.geo.cells.len() <= 64, model.goal.reach) {
        (true, false) => with_word::<u64, false>(model, order, budget, obs, pruning),
        (true, true) => with_word::<u64, true>(model, order, budget, obs, pruning),
        (false, false) => with_word::<u128, false>(model, order, budget, obs, pruning),
        (false, true) => with_word::<u128, true>(model, order, budget, obs, pruning),
    }
}

fn with_word<W: Word, const ANY_PEGS: bool>(
    model: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> HopResult {
    match Hops::<W>::new(model, order) {
        Some(moves) => search::<W, _, ANY_PEGS>(model, order, &moves, budget, obs, pruning),
        None => {
            let flat = order
                .iter()
                .map(|&m| (W::narrow(model.moves[m].mask), W::narrow(model.moves[m].need)))
                .collect();
            search::<W, _, ANY_PEGS>(model, order, &Scan(flat), budget, obs, pruning)
        }
    }
}

/// The search itself, on words of type `W` (see [`Word`]); `ANY_PEGS` for a reach goal
/// ([`crate::model::HopGoal::reach`]), met by an eligible position whatever its pegs.
fn search<W: Word, G: Gen<W>, const ANY_PEGS: bool>(
    model: &HopModel,
    order: &[usize],
    moves: &G,
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> HopResult {
    let sym = pruning.symmetry.as_ref();
    let pagodas = if model.goal.pegs == PegGoal::Fewest {
        None
    } else {
        Some(&pruning.pagodas).filter(|p| !p.is_empty())
    };
    let fewest = model.goal.pegs == PegGoal::Fewest;
    let target = pruning.floor.filter(|_| fewest).unwrap_or(model.target_pegs());
    // A `fewest` search's target is its class floor: what lies below it, its class rules out.
    let below_floor_cut = fewest && pruning.floor.is_some();
    let start = model.start;
    let mut best = (start, Vec::new());
    let mut best_pegs = start.count_ones();
    // The goal's cells (none: every position is eligible).
    let at = W::narrow(model.goal_cells());
    let eligible = |s: W| s & at == at;
    let done = |verdict, path: Vec<usize>, end, budget: &Budget, memory| HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory,
    };
    if model.is_goal(start, target) {
        obs.goal(0, start);
        return done(super::Verdict::Solved, Vec::new(), start, budget, 0);
    }
    let mut failed: Failed<W> = Failed::new();
    // Whether pagoda functions, and a table of endgames, ruled out a position: a refutation
    // names only what did.
    let mut cut_by = [false; 4];
    // Each frame: a position and the next index into `order` to try from it.
    let keys = Keys::new(sym, moves, order.len());
    let start_w = W::narrow(start);
    let mut stack: Vec<Frame<W, G::Cursor>> = vec![Frame {
        state: start_w,
        next: moves.start(start_w),
        images: keys.start(start_w),
    }];
    let mut path: Vec<usize> = Vec::new();
    let mut memory = 0;
    let endgame_after = pruning.endgame_after.filter(|_| !fewest);
    // Built at the first check past `endgame_after` nodes (at the first node for 0).
    let mut endgame: Option<Endgame> = None;
    let due = (endgame_after, pruning.endgame_positions);
    let cells = model.geo.cells.len();
    // For `fewest`, once the best found is one peg above the floor: the positions of few
    // pegs that can still reach the floor. Any other cannot beat the best, nor can anything
    // after it, so it is cut: the search keeps its answer, its moves and the order of
    // everything else it visits.
    let mut finishes: Option<Arc<Endgame>> = None;
    let mut finishes_due = fewest && target <= 2;
    let finishes_at = budget.nodes.saturating_add(FINISHES_AFTER);
    // Checked before each node is counted and looked at: a node limit of N lets it look at N.
    let mut check_at = budget.nodes;
    while let Some(top) = stack.last_mut() {
        let state = top.state;
        let Some(i) = moves.next(state, &mut top.next) else {
            obs.dead_end(path.len(), state.wide());
            failed.insert(keys.key(state, &top.images));
            stack.pop();
            path.pop();
            continue;
        };
        let images = keys.child(&top.images, i);
        let m = order[i];
        let ns = state ^ moves.mask(i);
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            // Until the next check the failure table takes at most one position a node and
            // one a frame unwound; the stack is never deeper than the board has cells. Each
            // is counted as if it grew (old and new allocations at once) when it may.
            let more = (check_at - budget.nodes) as usize + 1 + stack.len();
            let mut held = table_peak::<W>(failed.len(), failed.capacity(), more)
                + vec_peak::<Frame<W, G::Cursor>>(stack.len(), stack.capacity(), cells)
                + vec_peak::<usize>(path.len(), path.capacity(), cells);
            if finishes_due && best_pegs == target + 1 && budget.nodes >= finishes_at {
                finishes_due = false;
                // Only a shortcut: a limit reached while building it is left for the check
                // below to report.
                finishes = floor_finishes(model, target, budget, held).ok().flatten();
            }
            // Nor is it kept when it alone would pass the memory limit.
            let with = held + finishes.as_ref().map_or(0, |e| e.bytes());
            if with > held && budget.exceeded(with).is_some() && budget.exceeded(held).is_none() {
                finishes = None;
            } else {
                held = with;
            }
            match Endgame::check(&mut endgame, due, model, budget, held) {
                Ok(now) => memory = memory.max(now),
                Err(reason) => {
                    let (end, best_path) = if fewest { best } else { (state.wide(), path) };
                    return done(Verdict::GaveUp(reason), best_path, end, budget, memory);
                }
            }
        }
        budget.nodes += 1;
        let ns_key = keys.key(ns, &images);
        let pegs = ns.pegs();
        // A position the table of finishes decides needs no lookup: one that can reach the
        // floor never fails, and one that cannot is cut below.
        let decided = finishes.as_ref().filter(|e| pegs <= e.max_pegs());
        if decided.is_none() && failed.contains(&ns_key) {
            obs.known_failure(path.len() + 1, m, ns.wide());
            continue;
        }
        if pagodas.is_some_and(|p| p.cuts(ns.wide())) {
            cut_by[0] = true;
            obs.pruned(path.len() + 1, m, ns.wide());
            continue;
        }
        if decided.is_some_and(|e| !e.wins(ns.wide())) {
            cut_by[1] = true;
            obs.pruned(path.len() + 1, m, ns.wide());
            continue;
        }
        if let Some(e) = endgame.as_ref().filter(|e| pegs <= e.max_pegs()) {
            let ns = ns.wide();
            if !e.wins(ns) {
                cut_by[1] = true;
                obs.pruned(path.len() + 1, m, ns);
                continue;
            }
            let end = finish_line(e, model, order, m, ns, &mut path, obs);
            return done(Verdict::Solved, path, end, budget, memory);
        }
        path.push(m);
        obs.advance(path.len(), m, ns.wide());
        if pegs < best_pegs && eligible(ns) {
            best = (ns.wide(), path.clone());
            best_pegs = pegs;
        }
        if (ANY_PEGS || pegs == target) && eligible(ns) {
            obs.goal(path.len(), ns.wide());
            return done(Verdict::Solved, path, ns.wide(), budget, memory);
        }
        if pegs <= target {
            // Every move removes a peg: below the target there is no way back up.
            cut_by[2] |= below_floor_cut && pegs > 1;
            // A goal of a peg count is not followed below it: what a move leads to from here
            // is not tried, and a refutation says so (it called the positions tried every
            // position reachable).
            // (Looked for only until one such position is met: it runs in the search loop.)
            if !cut_by[3] && !fewest && moves.next(ns, &mut moves.start(ns)).is_some() {
                cut_by[3] = true;
            }
            obs.dead_end(path.len(), ns.wide());
            failed.insert(ns_key);
            path.pop();
            continue;
        }
        stack.push(Frame {
            state: ns,
            next: moves.start(ns),
            images,
        });
    }
    memory = memory.max(table_bytes::<W>(failed.capacity()));
    if fewest && eligible(W::narrow(best.0)) {
        let (end, p) = best;
        return done(Verdict::Solved, p, end, budget, memory);
    }
    // What ruled positions out, named only where it did.
    let cut: Vec<&str> = [
        "pagoda functions",
        "a table of endgames",
        "position class",
        "having fewer pegs than the goal",
    ]
    .into_iter()
    .zip(cut_by)
    .filter_map(|(why, cut)| cut.then_some(why))
    .collect();
    let why = super::exhausted(failed.len() as u64, sym.is_some_and(|s| s.order() > 1), &cut);
    done(Verdict::Unsolvable(Some(why)), Vec::new(), start, budget, memory)
}

/// The endgame table of `model`'s finishes with `floor` pegs (one or two), shared between
/// searches of the same moves, goal cells and start class ([`Endgame::shared`]).
fn floor_finishes(
    model: &HopModel,
    floor: u32,
    budget: &Budget,
    held: u64,
) -> Result<Option<Arc<Endgame>>, GaveUp> {
    if !(1..=2).contains(&floor) {
        return Ok(None);
    }
    let mut exact = model.clone();
    exact.goal.pegs = PegGoal::Count(floor);
    Endgame::shared(&exact, FINISH_POSITIONS, budget, held)
}

/// Plays hop `m` into `ns`, then the endgame table's finishing line from there, onto `path`,
/// telling `obs`; returns the position it ends on. The line may reuse move `m`: each of its
/// moves applies to the last end.
pub(super) fn finish_line(
    e: &Endgame,
    model: &HopModel,
    order: &[usize],
    m: usize,
    ns: u128,
    path: &mut Vec<usize>,
    obs: &mut impl Observer,
) -> u128 {
    let mut end = ns;
    path.push(m);
    obs.advance(path.len(), m, end);
    for i in e.finish(model, order, ns) {
        end ^= model.moves[i].mask;
        path.push(i);
        obs.advance(path.len(), i, end);
    }
    obs.goal(path.len(), end);
    end
}
