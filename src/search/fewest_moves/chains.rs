//! Fewest moves for hop families whose jumps do not each take exactly one peg, and for a game
//! of any family small enough to search whole: breadth-first over positions, one move (a
//! chain of one peg's jumps) a step.
//!
//! The layered search beside it counts on a jump taking one peg: a position's peg count is
//! its layer, and the layers met from both ends are adjacent. With jumps taking two pegs, or
//! none, neither holds. This search assumes nothing of the kind: from each position of the
//! frontier it follows every chain one peg can jump (through positions already seen too, as a
//! chain goes on from them within the same move), and a position first met is one move
//! further than its parent. Positions are canonical under the symmetries that fix the start
//! and the goal's cells and map each move onto one made by the image of its jumping peg.
//! Nothing else prunes but the goal's peg count, which no jump raises.

use super::{Found, Stop};
use crate::model::HopModel;
use crate::search::bits::Word;
use crate::search::symmetry::Symmetry;
use crate::search::{Budget, table_peak, vec_peak};
use crate::spec::PegGoal;
use rustc_hash::{FxHashMap, FxHashSet};

/// Chain steps between budget checks.
const CHECK_EVERY: u64 = 1 << 12;

struct Search<'a, W> {
    model: &'a HopModel,
    sym: Symmetry,
    /// Each move in the word's width: (mask, need, the cell it lands on).
    moves: Vec<(W, W, usize)>,
    /// `by_from[cell]`: the moves leaving `cell`, to continue a chain.
    by_from: Vec<Vec<usize>>,
    /// `by_to[cell]`: the moves landing on `cell`, to walk a chain back.
    by_to: Vec<Vec<usize>>,
    /// Positions with fewer pegs can never meet a goal of a peg count.
    least: u32,
    /// The moves each canonical position met is from the start.
    depth: FxHashMap<W, u32>,
    /// The chain states met from the position being expanded: (position, cell of its peg).
    seen: FxHashSet<(W, usize)>,
    stack: Vec<(W, usize)>,
    check_at: u64,
    memory: u64,
    /// A position was passed over for having fewer pegs than the goal: a refutation says so.
    pruned: std::cell::Cell<bool>,
}

/// The fewest moves to a goal position: for a `pegs: fewest` goal, the fewest moves to the
/// fewest pegs that any goal position reached has.
pub(super) fn run(model: &HopModel, budget: &mut Budget) -> Result<Found, Stop> {
    match model.geo.cells.len() <= 64 {
        true => run_in::<u64>(model, budget),
        false => run_in::<u128>(model, budget),
    }
}

fn run_in<W: Word>(model: &HopModel, budget: &mut Budget) -> Result<Found, Stop> {
    let stop = |why| Stop::GaveUp(why, 0);
    let sym = Symmetry::find_within(model, budget)
        .map_err(stop)?
        .stabilizer(model.start)
        .fixing_goal(model)
        .keeping_jumpers(model);
    let n = model.geo.cells.len();
    let mut by_from = vec![Vec::new(); n];
    let mut by_to = vec![Vec::new(); n];
    for (i, m) in model.moves.iter().enumerate() {
        by_from[m.from].push(i);
        by_to[m.to].push(i);
    }
    let least = match model.goal.pegs {
        PegGoal::Count(k) => k,
        PegGoal::Fewest => 0,
    };
    if model.start.count_ones() < least {
        return Err(Stop::Unsolvable(
            Some("the start has fewer pegs than the goal".into()),
            0,
        ));
    }
    let mut s = Search {
        model,
        sym,
        moves: model
            .moves
            .iter()
            .map(|m| (W::narrow(m.mask), W::narrow(m.need), m.to))
            .collect(),
        by_from,
        by_to,
        least,
        depth: FxHashMap::default(),
        seen: FxHashSet::default(),
        stack: Vec::new(),
        // Checked before each step is counted and taken: a node limit of N lets it take N.
        check_at: budget.nodes,
        memory: 0,
        pruned: std::cell::Cell::new(false),
    };
    let (end, moves) = s.search(budget)?;
    let held = s.memory;
    let path = super::walk_back(
        model,
        &s.by_to,
        end,
        moves,
        |p| s.depth.get(&p.canon(&s.sym)).copied(),
        &mut |bytes| budget.exceeded_or_grown(held + bytes),
    )
    .map_err(|why| Stop::GaveUp(why, held))?;
    Ok(Found {
        moves,
        path,
        end: end.wide(),
        memory: s.memory,
    })
}

impl<W: Word> Search<'_, W> {
    /// A goal position's rank, lower better: its pegs for a `pegs: fewest` goal, else 0.
    fn rank(&self, s: W) -> Option<u32> {
        let cells = self.model.goal_cells();
        if s.wide() & cells != cells {
            return None;
        }
        match self.model.goal.pegs {
            PegGoal::Count(k) => (s.pegs() == k).then_some(0),
            PegGoal::Fewest => Some(s.pegs()),
        }
    }

    /// The best rank any position can have: reaching it ends the search.
    fn best_rank(&self) -> u32 {
        match self.model.goal.pegs {
            PegGoal::Count(_) => 0,
            // A jump leaves its peg where it lands.
            PegGoal::Fewest => self.model.goal_cells().count_ones().max(1),
        }
    }

    /// Counts a chain step, checking the budget against the tables every [`CHECK_EVERY`]
    /// before it is counted.
    fn tick(&mut self, budget: &mut Budget, frontier: &[W], next: &Vec<W>) -> Result<(), Stop> {
        if budget.nodes < self.check_at {
            budget.nodes += 1;
            return Ok(());
        }
        self.check_at = budget.next_check(CHECK_EVERY);
        // Each step until the next check may add a position to the table and the next
        // frontier, a chain state to `seen`, and push the moves from one cell onto the stack;
        // a position of the frontier pushes every move as its chains start.
        let more = (self.check_at - budget.nodes + 1) as usize;
        let widest = self.by_from.iter().map(Vec::len).max().unwrap_or(0);
        let pushes = more * widest + self.model.moves.len();
        let used = table_peak::<(W, u32)>(self.depth.len(), self.depth.capacity(), more)
            + table_peak::<(W, usize)>(self.seen.len(), self.seen.capacity(), more)
            + vec_peak::<(W, usize)>(self.stack.len(), self.stack.capacity(), pushes)
            + vec_peak::<W>(next.len(), next.capacity(), more)
            + std::mem::size_of_val(frontier) as u64;
        self.memory = self.memory.max(used);
        match budget.exceeded(used) {
            Some(why) => Err(Stop::GaveUp(why, self.memory)),
            None => {
                budget.nodes += 1;
                Ok(())
            }
        }
    }

    /// Breadth-first by moves: the best goal position met (canonical) and its moves.
    fn search(&mut self, budget: &mut Budget) -> Result<(W, u32), Stop> {
        let start = W::narrow(self.model.start);
        self.depth.insert(start, 0);
        let mut best = self.rank(start).map(|r| (r, start, 0));
        let mut frontier = vec![start];
        let mut d = 0;
        while !frontier.is_empty() && best.is_none_or(|b| b.0 > self.best_rank()) {
            let mut next = Vec::new();
            'layer: for &p in &frontier {
                // Every chain from `p`: each position one move on, met for the first time
                // or not, continues its chain.
                self.seen.clear();
                for &(mask, need, to) in &self.moves {
                    if p & mask == need && self.keeps(p ^ mask) {
                        self.stack.push((p ^ mask, to));
                    }
                }
                while let Some((q, at)) = self.stack.pop() {
                    if !self.seen.insert((q, at)) {
                        continue;
                    }
                    if let Err(stop) = self.tick(budget, &frontier, &next) {
                        return Err(self.floored(stop, d));
                    }
                    let c = q.canon(&self.sym);
                    if let std::collections::hash_map::Entry::Vacant(e) = self.depth.entry(c) {
                        e.insert(d + 1);
                        next.push(c);
                        if let Some(r) = self.rank(c)
                            && best.is_none_or(|b| r < b.0)
                        {
                            best = Some((r, c, d + 1));
                            if r <= self.best_rank() {
                                self.stack.clear();
                                break 'layer;
                            }
                        }
                    }
                    for &i in &self.by_from[at] {
                        let (mask, need, to) = self.moves[i];
                        if q & mask == need && self.keeps(q ^ mask) {
                            self.stack.push((q ^ mask, to));
                        }
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        self.seen = FxHashSet::default();
        match best {
            Some((_, end, moves)) => Ok((end, moves)),
            None => {
                let cut: &[&str] = match self.pruned.get() {
                    true => &["having fewer pegs than the goal"],
                    false => &[],
                };
                let why = crate::search::exhausted(self.depth.len() as u64, self.sym.order() > 1, cut);
                Err(Stop::Unsolvable(Some(why), self.memory))
            }
        }
    }

    /// A stop while the positions `d + 1` moves from the start are listed, with the floor it
    /// proved for a goal of a peg count: every position within `d` moves is known, and none
    /// is a goal position. (Under `pegs: fewest` the fewest pegs are not known yet: no floor.)
    fn floored(&self, stop: Stop, d: u32) -> Stop {
        match (stop, self.model.goal.pegs) {
            (Stop::GaveUp(why, memory), PegGoal::Count(_)) => Stop::Bounded {
                why,
                memory,
                least: d + 1,
                best: None,
            },
            (stop, _) => stop,
        }
    }

    /// Whether a position may still lead to the goal.
    fn keeps(&self, s: W) -> bool {
        let keep = s.pegs() >= self.least;
        if !keep {
            self.pruned.set(true);
        }
        keep
    }
}
