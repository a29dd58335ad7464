//! Fewest moves, a move being one peg's chain of consecutive jumps: exact, for any hop family.
//!
//! A family whose jumps do not each take exactly one peg (`over:` a list of several, or
//! none) is searched by `chains`, breadth-first by moves. For the others, a goal whose
//! positions can be listed is searched by moves from both ends (`both_ends`), after a quick
//! depth-first line to return should a limit stop it (or its proof that no line exists, the
//! answer), a forward search by moves (`chains`) that decides a small game whole, and a
//! beam's line (`upper`) for it to
//! beat, with lower bounds from Merson regions (`bounds`) dropping positions that cannot be
//! on a line within the target, raised from the bound at the start up to the beam's line
//! less one (or a `moves: N` goal's N). What follows is the search for the rest (too many goal
//! positions, or `pegs: fewest`, which `solve` is given only where a jump may take no peg:
//! elsewhere the fewest pegs are found first and their count is the goal). Every jump removes
//! one peg, so positions fall into layers by peg count and no path revisits one. An optimal answer only passes
//! through positions that are both reachable from the start and able to reach the goal
//! ("feasible"). So the search is in three passes over canonical positions (symmetries
//! fixing the start and the goal cell):
//!
//! 1. Layers are grown from the start by jumps down to the goal's pegs (or until none is
//!    left); pagoda functions cut positions that cannot reach the goal.
//! 2. The goal layer's goal positions are feasible; reversed jumps from them into the layers
//!    above give the rest.
//! 3. Over the feasible positions, fullest first, the fewest moves to each is relaxed along
//!    every chain one peg can jump from each position (a chain through an infeasible position
//!    can only end infeasible, so it stops there).
//!
//! The answer is walked back from the best goal position by reversed chains and returned as
//! the ordinary list of jumps; consecutive jumps by one peg form a move.

use super::bits::{Word, binomial, subsets};
use super::dfs::HopResult;
use super::invariants::Invariants;
use super::pagoda::Pagodas;
use super::symmetry::Symmetry;
use super::{Budget, Claims, GaveUp, Verdict, table_bytes, table_peak};
use crate::model::{HopGoal, HopModel};
use crate::spec::{MoveGoal, PegGoal};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicU64, Ordering};

mod both_ends;
mod bounds;
mod chains;
mod upper;

/// Goal positions are listed, and searched backwards from, only up to this many.
const MAX_GOAL_POSITIONS: u64 = 1 << 16;

/// Positions expanded between budget checks.
const CHECK_EVERY: u64 = 1 << 12;

/// One jump in the word's width.
#[derive(Clone, Copy)]
struct Jump<W> {
    mask: W,
    need: W,
    /// `mask ^ need`: the one cell that must be empty before and holds the peg after.
    to_bit: W,
    from: usize,
    to: usize,
}

impl<W: Word> Jump<W> {
    #[inline]
    fn forward(&self, s: W) -> bool {
        s & self.mask == self.need
    }
    #[inline]
    fn backward(&self, s: W) -> bool {
        s & self.mask == self.to_bit
    }
}

/// The fewest moves, or whether the goal can be met within `goal`'s number of them.
pub fn solve(model: &HopModel, goal: MoveGoal, budget: &mut Budget) -> HopResult {
    solve_beamed(model, goal, None, budget)
}

/// [`solve`] with the beam's line already found by [`beam_line`] for the same model (`None`
/// when it found none), so that it is not searched for again.
pub fn solve_given_beam(
    model: &HopModel,
    goal: MoveGoal,
    beam: Option<Line>,
    budget: &mut Budget,
) -> HopResult {
    solve_beamed(model, goal, Some(beam), budget)
}

/// [`solve`], the beam's line given when `beam` is `Some`.
fn solve_beamed(
    model: &HopModel,
    goal: MoveGoal,
    beam: Option<Option<Line>>,
    budget: &mut Budget,
) -> HopResult {
    // The layers below stand on every jump taking exactly one peg.
    let single = model.moves.iter().all(|m| m.over.len() == 1);
    let cap = goal.most();
    let r = if !single {
        // A quick line first, to return should a limit stop the exact search (or no line).
        quick_line(model, budget)
            .and_then(|best| chains::run(model, budget).map_err(|stop| stop.with_line(best)))
    } else if model.geo.cells.len() <= 64 {
        Search::<u64>::new(model, budget).and_then(|s| s.fastest(cap, beam, budget))
    } else {
        Search::<u128>::new(model, budget).and_then(|s| s.fastest(cap, beam, budget))
    };
    // A stop with a line says the regions' floor too, where it is more than its own (a
    // search by chains or peg layers proves its floor from nothing).
    let r = r.map_err(|stop| match stop {
        Stop::Bounded {
            why,
            memory,
            least,
            best,
        } => Stop::Bounded {
            why,
            memory,
            least: least.max(regions_floor(model, single).unwrap_or(0)),
            best,
        },
        stop => stop,
    });
    // A stop that has proven more moves needed than a goal of at most `cap` allows has
    // decided the goal.
    let beyond = |least: u32, memory: u64| {
        let why = more_than(least, cap);
        (Verdict::Unsolvable(Some(why)), Vec::new(), model.start, memory)
    };
    let (verdict, path, end, memory) = match r {
        // Stopped before its layers began, it still has the regions' bound to say.
        Err(Stop::GaveUp(why, memory)) => match regions_floor(model, single) {
            Some(least) if least > cap => beyond(least, memory),
            Some(least) => (
                Verdict::GaveUp(GaveUp::no_line_yet(why, least)),
                Vec::new(),
                model.start,
                memory,
            ),
            None => (Verdict::GaveUp(why), Vec::new(), model.start, memory),
        },
        Err(Stop::Bounded { memory, least, .. }) if least > cap => beyond(least, memory),
        Err(Stop::Bounded {
            why,
            memory,
            least,
            best,
        }) => {
            // A line past the cap does not meet the goal: no best so far.
            let line = best
                .map(|b| (count_moves(model, &b), b))
                .filter(|(m, _)| *m <= cap);
            let verdict = stopped_with(why, line.as_ref().map(|l| l.0), least);
            let best = line.map(|l| l.1).unwrap_or_default();
            (verdict, best.clone(), end_of(model, &best), memory)
        }
        Err(Stop::Unsolvable(why, memory)) => (Verdict::Unsolvable(why), Vec::new(), model.start, memory),
        Ok(found) => match goal {
            MoveGoal::Within(n) if found.moves > n => (
                Verdict::Unsolvable(Some(format!(
                    "the fewest moves is {}, more than {n}",
                    found.moves
                ))),
                Vec::new(),
                model.start,
                found.memory,
            ),
            _ => (Verdict::Solved, found.path, found.end, found.memory),
        },
    };
    HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory,
    }
}

/// A line of jumps and the moves it makes.
pub type Line = (u32, Vec<usize>);

/// The beam's line, the first upper bound the exact search for the fewest moves starts from,
/// where that search runs from both ends (every jump taking one peg, a goal of a peg count
/// whose positions can be listed); `None` elsewhere, when the start's class holds no goal
/// position, when the beam finds no line or when a limit stops it. Cheap beside the exact
/// search: for choosing which of several starts to search first, then
/// [`solve_given_beam`].
pub fn beam_line(model: &HopModel, budget: &mut Budget) -> Option<Line> {
    fn beam<W: Word>(model: &HopModel, budget: &mut Budget) -> Option<Line> {
        let mut s = Search::<W>::new(model, budget).ok()?;
        let goals = s.listed_goals(budget).ok()??;
        both_ends::beam(&s, &both_ends::goal_bounds(model), &goals, budget).ok()?
    }
    if !model.moves.iter().all(|m| m.over.len() == 1) {
        None
    } else if model.geo.cells.len() <= 64 {
        beam::<u64>(model, budget)
    } else {
        beam::<u128>(model, budget)
    }
}

/// Why a goal of at most `cap` moves is unsolvable once `least` are proven needed.
fn more_than(least: u32, cap: u32) -> String {
    let are = if least == 1 { "move is" } else { "moves are" };
    format!("at least {least} {are} needed, more than {cap}")
}

/// The moves a goal of a peg count needs: one at least while the start has more pegs than
/// the goal, and, where every jump takes one peg (`single`), what the regions full at the
/// start prove; `None` for none. What a search stopped before its first layer can still say.
fn regions_floor(model: &HopModel, single: bool) -> Option<u32> {
    let least = match model.goal.pegs {
        // A start with more pegs than the goal needs a move at least, whatever the regions say.
        PegGoal::Count(k) if single => both_ends::goal_bounds::<u128>(model)
            .ahead(model.start)
            .max(u32::from(model.start.count_ones() > k)),
        // No jump adds a peg, whatever it takes.
        PegGoal::Count(k) => u32::from(model.start.count_ones() > k),
        PegGoal::Fewest => 0,
    };
    (least > 0).then_some(least)
}

/// The number of moves a jump sequence makes: a jump from where the last one landed
/// continues its move.
pub fn count_moves(model: &HopModel, path: &[usize]) -> u32 {
    let mut last = None;
    let mut n = 0;
    for &i in path {
        let j = &model.moves[i];
        if last != Some(j.from) {
            n += 1;
        }
        last = Some(j.to);
    }
    n
}

/// A fewest-moves search stopped by `why` with a line of `best` moves, if any, having proven
/// `least` needed: a line as short as the floor is the answer, whatever stopped the search.
pub fn stopped_with(why: GaveUp, best: Option<u32>, least: u32) -> Verdict {
    match best {
        Some(m) if m <= least => Verdict::Solved,
        _ => Verdict::GaveUp(GaveUp::UnprovenMoves {
            stop: Box::new(why),
            best,
            least,
            pegs: None,
        }),
    }
}

/// The most pegs a position on a line from the start to the goal can have (the start's),
/// and the fewest (a goal of a peg count's; none for `pegs: fewest`): no jump adds a peg.
fn pegs_on_a_line(model: &HopModel) -> (u32, u32) {
    let least = match model.goal.pegs {
        PegGoal::Count(k) => k,
        PegGoal::Fewest => 0,
    };
    (model.start.count_ones(), least)
}

/// Where a jump sequence from the start ends.
fn end_of(model: &HopModel, path: &[usize]) -> u128 {
    path.iter().fold(model.start, |s, &i| s ^ model.moves[i].mask)
}

enum Stop {
    /// Why, and the memory estimate when it stopped.
    GaveUp(GaveUp, u64),
    /// Stopped by `why` having proven that at least `least` moves are needed, with the best
    /// line found so far, if any.
    Bounded {
        why: GaveUp,
        memory: u64,
        least: u32,
        best: Option<Vec<usize>>,
    },
    Unsolvable(Option<String>, u64),
}

impl Stop {
    /// The stop with `best` as its line where it found none of its own.
    fn with_line(self, best: Option<Vec<usize>>) -> Stop {
        match (self, best) {
            (Stop::GaveUp(why, memory), Some(best)) => Stop::Bounded {
                why,
                memory,
                least: 0,
                best: Some(best),
            },
            (
                Stop::Bounded {
                    why,
                    memory,
                    least,
                    best: None,
                },
                best,
            ) => Stop::Bounded {
                why,
                memory,
                least,
                best,
            },
            (stop, _) => stop,
        }
    }
}

struct Found {
    moves: u32,
    path: Vec<usize>,
    end: u128,
    memory: u64,
}

struct Search<'a, W> {
    model: &'a HopModel,
    sym: Symmetry,
    jumps: Vec<Jump<W>>,
    /// `by_from[cell]`: the jumps leaving `cell`, to continue a chain.
    by_from: Vec<Vec<usize>>,
    /// `by_to[cell]`: the jumps landing on `cell`, to walk a chain back.
    by_to: Vec<Vec<usize>>,
    /// Cuts forward positions that cannot reach the goal.
    ahead: Pagodas,
    /// Cuts (complemented) backward positions the start cannot reach.
    behind: Pagodas,
    full: u128,
    /// The estimated bytes of every live table, and its peak.
    live: u64,
    peak: u64,
}

/// Buckets a layer is split into by a hash of the position: each is small enough to build
/// in cache, and they are built in parallel.
const BUCKETS: usize = 256;

#[inline]
fn bucket<W: Word>(c: W) -> usize {
    let x = c.wide();
    ((x as u64 ^ (x >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

/// A set of canonical positions, in [`BUCKETS`] hash sets.
struct Layer<W> {
    sets: Vec<FxHashSet<W>>,
}

impl<W: Word> Default for Layer<W> {
    fn default() -> Self {
        Layer {
            sets: (0..BUCKETS).map(|_| FxHashSet::default()).collect(),
        }
    }
}

impl<W: Word> Layer<W> {
    #[inline]
    fn contains(&self, c: &W) -> bool {
        self.sets[bucket(*c)].contains(c)
    }
    fn len(&self) -> usize {
        self.sets.iter().map(|s| s.len()).sum()
    }
    fn is_empty(&self) -> bool {
        self.sets.iter().all(|s| s.is_empty())
    }
    fn iter(&self) -> impl Iterator<Item = &W> {
        self.sets.iter().flatten()
    }
}

impl<W: Word> FromIterator<W> for Layer<W> {
    fn from_iter<I: IntoIterator<Item = W>>(iter: I) -> Self {
        let mut l = Layer::default();
        for c in iter {
            l.sets[bucket(c)].insert(c);
        }
        l
    }
}

type Layers<W> = Vec<Layer<W>>;

fn set_bytes<W>(s: &Layer<W>) -> u64 {
    s.sets.iter().map(|b| table_bytes::<W>(b.capacity())).sum()
}

impl<'a, W: Word> Search<'a, W> {
    /// Finds the symmetries and pagodas the search uses, under `budget`'s limits.
    fn new(model: &'a HopModel, budget: &Budget) -> Result<Self, Stop> {
        let stop = |why| Stop::GaveUp(why, 0);
        let n = model.geo.cells.len();
        let mut sym = Symmetry::find_within(model, budget)
            .map_err(stop)?
            .stabilizer(model.start);
        if model.goal_cells() != 0 {
            sym = sym.stabilizer(model.goal_cells());
        }
        let jumps: Vec<Jump<W>> = model
            .moves
            .iter()
            .map(|m| Jump {
                mask: W::narrow(m.mask),
                need: W::narrow(m.need),
                to_bit: W::narrow(m.mask ^ m.need),
                from: m.from,
                to: m.to,
            })
            .collect();
        let mut by_from = vec![Vec::new(); n];
        let mut by_to = vec![Vec::new(); n];
        for (i, j) in jumps.iter().enumerate() {
            by_from[j.from].push(i);
            by_to[j.to].push(i);
        }
        let full = u128::full(n);
        let ahead = Pagodas::find_within(model, budget).map_err(stop)?;
        // Reversed, a game from `start` is a game from the complements to the complement of
        // `start`: one peg at its vacancy, when it has exactly one.
        let holes = full & !model.start;
        let behind = if holes.count_ones() == 1 {
            let mut rev = model.clone();
            rev.goal = HopGoal {
                pegs: PegGoal::Count(1),
                at: Some(holes.trailing_zeros() as usize),
                moves: None,
                pattern: None,
                reach: false,
            };
            Pagodas::find_within(&rev, budget).map_err(stop)?
        } else {
            Pagodas::default()
        };
        Ok(Search {
            model,
            sym,
            jumps,
            by_from,
            by_to,
            ahead,
            behind,
            full,
            live: 0,
            peak: 0,
        })
    }

    fn canon(&self, s: W) -> W {
        s.canon(&self.sym)
    }

    fn is_goal(&self, s: W) -> bool {
        let cells = self.model.goal_cells();
        s.wide() & cells == cells
    }

    /// Checks the budget against the live tables plus `extra` bytes about to be allocated.
    fn check(&mut self, budget: &Budget, extra: u64) -> Result<(), Stop> {
        self.peak = self.peak.max(self.live + extra);
        match budget.exceeded_or_grown(self.live + extra) {
            Some(why) => Err(Stop::GaveUp(why, self.peak)),
            None => Ok(()),
        }
    }

    /// Inserts into a table, counting the memory of its growth before it happens.
    fn insert(&mut self, layer: &mut Layer<W>, s: W, budget: &Budget) -> Result<(), Stop> {
        let set = &mut layer.sets[bucket(s)];
        if set.len() == set.capacity() && !set.contains(&s) {
            // The new table, allocated while the old one (counted in `live`) is held.
            let grown = table_peak::<W>(set.len(), set.capacity(), 1) - table_bytes::<W>(set.capacity());
            self.check(budget, grown)?;
            let before = table_bytes::<W>(set.capacity());
            set.reserve(1);
            self.live = self.live - before + table_bytes::<W>(set.capacity());
        }
        set.insert(s);
        Ok(())
    }

    /// Ticks the node counter, checking the budget before the first position, every
    /// [`CHECK_EVERY`] and at the node limit, before it is counted: a limit of N lets it
    /// look at N.
    fn tick(&mut self, budget: &mut Budget) -> Result<(), Stop> {
        if budget.nodes.is_multiple_of(CHECK_EVERY) || budget.nodes_left() == Some(0) {
            self.check(budget, 0)?;
        }
        budget.nodes += 1;
        Ok(())
    }

    /// The canonical positions one jump from `layer` that `keep(self, position)` gives, in
    /// parallel: each thread lists its positions' successors by bucket, then each bucket's
    /// set is built from those lists.
    fn expand(
        &mut self,
        layer: &Layer<W>,
        budget: &mut Budget,
        keep: impl Fn(&Self, W) -> Option<W> + Sync,
    ) -> Result<Layer<W>, Stop> {
        let this = &*self;
        let base = budget.nodes;
        let nodes = AtomicU64::new(0);
        let bytes = AtomicU64::new(0);
        let check = |n: u64, extra: u64| {
            let mut b = budget.capped(u64::MAX);
            b.nodes = base + nodes.fetch_add(n, Ordering::Relaxed) + n;
            let used = this.live + bytes.fetch_add(extra, Ordering::Relaxed) + extra;
            // The lists' pieces freed as they grow stay with the allocator: the process's
            // growth counts when it is more.
            b.exceeded_or_grown(used).map(|why| (why, used))
        };
        let claims = Claims::new(budget);
        const GROUP: usize = BUCKETS / 16;
        let lists: Result<Vec<Vec<Vec<W>>>, _> = layer
            .sets
            .par_chunks(GROUP)
            .map(|sets| {
                let mut out: Vec<Vec<W>> = vec![Vec::new(); BUCKETS];
                let (mut done, mut held, mut claimed) = (0u64, 0u64, 0u64);
                // Children listed since the lists were last counted: a family of thousands of
                // jumps lists that many children a position, so its lists are counted by
                // their children too, not only every [`CHECK_EVERY`] positions (20,000 jumps
                // on 127 holes passed a 95 MiB limit by 25 MiB).
                let mut listed = 0u64;
                for &s in sets.iter().flatten() {
                    let used = this.live + held;
                    let refill = || {
                        let now = crate::process::lists_bytes(&out);
                        check(done, now - held).map_or(Ok(()), Err)?;
                        (done, held) = (0, now);
                        Ok(())
                    };
                    claims.take(&mut claimed, CHECK_EVERY, refill, |why| (why, used))?;
                    done += 1;
                    for j in &this.jumps {
                        if j.forward(s)
                            && let Some(c) = keep(this, s ^ j.mask)
                        {
                            out[bucket(c)].push(c);
                            listed += 1;
                        }
                    }
                    if listed >= CHECK_EVERY * 4 {
                        listed = 0;
                        let now = crate::process::lists_bytes(&out);
                        if let Some(over) = check(0, now - held) {
                            return Err(over);
                        }
                        held = now;
                    }
                }
                nodes.fetch_add(done, Ordering::Relaxed);
                claims.give_back(claimed);
                Ok(out)
            })
            .collect::<Result<_, _>>();
        // Counted whether or not a limit stopped it.
        budget.nodes = base + nodes.load(Ordering::Relaxed);
        let lists = lists.map_err(|(why, used)| Stop::GaveUp(why, self.peak.max(used)))?;
        let listed = crate::process::lists_bytes(lists.iter().flatten());
        self.check(budget, listed)?;
        let this = &*self;
        let grown = AtomicU64::new(0);
        let sets: Vec<FxHashSet<W>> = (0..BUCKETS)
            .into_par_iter()
            .map(|b| {
                let mut set = FxHashSet::default();
                for c in lists.iter().flat_map(|l| &l[b]) {
                    if set.len() == set.capacity() && !set.contains(c) {
                        let more = table_peak::<W>(set.len(), set.capacity(), 1);
                        let used = this.live + listed + grown.fetch_add(more, Ordering::Relaxed) + more;
                        if let Some(why) = budget.exceeded_or_grown(used) {
                            return Err((why, used));
                        }
                    }
                    set.insert(*c);
                }
                Ok(set)
            })
            .collect::<Result<_, _>>()
            .map_err(|(why, used)| Stop::GaveUp(why, self.peak.max(used)))?;
        let next = Layer { sets };
        self.peak = self.peak.max(self.live + listed + set_bytes(&next));
        Ok(next)
    }

    /// The goal positions with `n` pegs, canonical, when there are few enough to list.
    fn goal_positions(&mut self, n: u32, budget: &Budget) -> Result<Option<Layer<W>>, Stop> {
        if let Some(p) = self.model.goal.pattern {
            let mut out = Layer::default();
            let c = self.canon(W::narrow(p));
            self.insert(&mut out, c, budget)?;
            return Ok(Some(out));
        }
        let cells = self.model.geo.cells.len() as u64;
        let at = self.model.goal.at;
        let (free, pick) = match at {
            Some(_) => (cells - 1, n as u64 - 1),
            None => (cells, n as u64),
        };
        if binomial(free, pick).is_none_or(|c| c > MAX_GOAL_POSITIONS) {
            return Ok(None);
        }
        let others: Vec<usize> = (0..cells as usize).filter(|&c| Some(c) != at).collect();
        let base = at.map_or(0u128, |a| 1 << a);
        let mut out = Layer::default();
        for s in subsets(&others, pick as usize) {
            let c = self.canon(W::narrow(base | s));
            self.insert(&mut out, c, budget)?;
        }
        Ok(Some(out))
    }

    /// The fewest moves: from both ends by moves where the goal's positions can be listed
    /// (no further than `cap`, starting from the beam's line when `beam` gives it), else by
    /// layers of peg count.
    fn fastest(mut self, cap: u32, beam: Option<Option<Line>>, budget: &mut Budget) -> Result<Found, Stop> {
        let Some(goals) = self.listed_goals(budget)? else {
            let best = quick_line(self.model, budget)?;
            return self.run(budget).map_err(|stop| stop.with_line(best));
        };
        self.live = 0;
        // A quick line first, to return should a limit stop the exact search.
        let best = quick_line(self.model, budget)?;
        // A game small enough is searched whole, forward by moves: from both ends, the goal's
        // side of a sparse board grew by the board's holes, not by the positions a game
        // reaches (a 99-hole board whose game reaches 1,518 took 72 M nodes).
        let mut turn = budget.capped(SMALL_GAME_STEPS);
        let small = chains::run(self.model, &mut turn);
        budget.nodes = turn.nodes;
        match small {
            Ok(_) | Err(Stop::Unsolvable(..)) => return small,
            Err(_) => {}
        }
        match both_ends::run(&self, goals, cap, beam, budget) {
            Ok(found) => Ok(found),
            Err((Stop::GaveUp(why, memory), least, line)) => Err(Stop::Bounded {
                why,
                memory,
                least,
                best: line.or(best),
            }),
            Err((stop, ..)) => Err(stop),
        }
    }

    /// The goal positions in the start's position class, canonical, when a goal of a peg
    /// count has few enough to list; unsolvable when none is in the class.
    fn listed_goals(&mut self, budget: &Budget) -> Result<Option<Vec<W>>, Stop> {
        let goals = match self.model.goal.pegs {
            PegGoal::Count(n) if n <= self.model.start.count_ones() => self.goal_positions(n, budget)?,
            _ => None,
        };
        let Some(goals) = goals else {
            return Ok(None);
        };
        // Goal positions outside the start's position class cannot be reached.
        let inv = Invariants::find_within(self.model, budget).map_err(|why| Stop::GaveUp(why, 0))?;
        let class = inv.class(self.model.start);
        let goals: Vec<W> = goals
            .iter()
            .copied()
            .filter(|g| inv.class(g.wide()) == class)
            .collect();
        if goals.is_empty() {
            let why = inv
                .refute(self.model)
                .unwrap_or_else(|| "position class: no goal position is in the class of the start".into());
            return Err(Stop::Unsolvable(Some(why), 0));
        }
        Ok(Some(goals))
    }

    fn run(mut self, budget: &mut Budget) -> Result<Found, Stop> {
        let start = W::narrow(self.model.start);
        let top = start.pegs();
        let cells = self.model.geo.cells.len();
        let mut fwd: Layers<W> = (0..=cells).map(|_| Layer::default()).collect();
        fwd[top as usize] = std::iter::once(self.canon(start)).collect();
        self.live += set_bytes(&fwd[top as usize]);
        let unsolvable = |why: &str, s: &Self| Stop::Unsolvable(Some(why.to_string()), s.peak);

        // Pass 1: grow layers from the start down to the goal's pegs. (A goal whose positions
        // can be listed is searched from both ends by `both_ends` instead.)
        let mut lo = top; // the emptiest layer so far
        let goal_pegs = match self.model.goal.pegs {
            PegGoal::Count(n) if n > top => {
                return Err(unsolvable("the start has fewer pegs than the goal", &self));
            }
            PegGoal::Count(n) => Some(n),
            PegGoal::Fewest => None,
        };
        let floor = goal_pegs.unwrap_or(0);
        // Whether a pagoda function ruled out a position reached: a refutation says so.
        let pruned = std::sync::atomic::AtomicBool::new(false);
        // Every position reached, of every layer, none of them a goal position.
        let classes = self.sym.order() > 1;
        let exhausted = |fwd: &Layers<W>| {
            let tried: usize = fwd.iter().map(Layer::len).sum();
            let cut: &[&str] = match pruned.load(Ordering::Relaxed) {
                true => &["pagoda functions"],
                false => &[],
            };
            crate::search::exhausted(tried as u64, classes, cut)
        };
        while lo > floor {
            let cur = std::mem::take(&mut fwd[lo as usize]);
            let next = self.expand(&cur, budget, |s: &Self, t| {
                let cut = s.ahead.cuts(t.wide());
                if cut {
                    pruned.store(true, Ordering::Relaxed);
                }
                (!cut).then(|| s.canon(t))
            })?;
            fwd[lo as usize] = cur;
            lo -= 1;
            self.live += set_bytes(&next);
            let empty = next.is_empty();
            fwd[lo as usize] = next;
            if empty {
                if goal_pegs.is_none() {
                    break;
                }
                return Err(unsolvable(&exhausted(&fwd), &self));
            }
        }

        // Pass 2: the feasible positions, up from the goal layer.
        let mut ok: Layers<W> = (0..=cells).map(|_| Layer::default()).collect();
        // The goal layer: the given count, or the emptiest reached with a goal position.
        let n = match goal_pegs {
            Some(n) => n,
            None => (0..=top)
                .find(|&k| fwd[k as usize].iter().any(|&s| self.is_goal(s)))
                .unwrap_or(top),
        };
        ok[n as usize] = fwd[n as usize]
            .iter()
            .copied()
            .filter(|&s| self.is_goal(s))
            .collect();
        self.live += set_bytes(&ok[n as usize]);
        let bottom = n;
        if ok[n as usize].is_empty() {
            return Err(unsolvable(&exhausted(&fwd), &self));
        }
        for k in n.max(lo)..top {
            let from = std::mem::take(&mut ok[k as usize]);
            let into = std::mem::take(&mut fwd[k as usize + 1]);
            let next = self.link(&from, budget, |t| into.contains(&t));
            ok[k as usize] = from;
            ok[k as usize + 1] = next?;
            self.live -= set_bytes(&into);
            let f = std::mem::take(&mut fwd[k as usize]);
            self.live -= set_bytes(&f);
        }
        drop(fwd);
        self.live = ok.iter().map(set_bytes).sum();

        // Pass 3: the fewest moves to each feasible position, fullest layer first.
        let estimate: u64 = ok.iter().map(|l| table_peak::<(W, u32)>(0, 0, l.len())).sum();
        self.check(budget, estimate)?;
        let mut dist: Vec<FxHashMap<W, u32>> = ok
            .into_iter()
            .map(|l| l.sets.into_iter().flatten().map(|s| (s, u32::MAX)).collect())
            .collect();
        let dist_bytes: u64 = dist.iter().map(|d| table_bytes::<(W, u32)>(d.capacity())).sum();
        self.check(budget, dist_bytes)?;
        self.live = dist_bytes;
        if let Some(d) = dist[top as usize].get_mut(&self.canon(start)) {
            *d = 0;
        }
        let mut stack: Vec<(W, usize)> = Vec::new();
        for k in (bottom + 1..=top).rev() {
            let (lower, rest) = dist.split_at_mut(k as usize);
            for (&p, &d) in rest[0].iter() {
                self.tick(budget)?;
                if d == u32::MAX {
                    continue;
                }
                for j in &self.jumps {
                    if j.forward(p) {
                        stack.push((p ^ j.mask, j.to));
                    }
                }
                while let Some((q, at)) = stack.pop() {
                    let Some(e) = lower[q.pegs() as usize].get_mut(&q.canon(&self.sym)) else {
                        continue;
                    };
                    *e = (*e).min(d + 1);
                    for &i in &self.by_from[at] {
                        let j = &self.jumps[i];
                        if j.forward(q) {
                            stack.push((q ^ j.mask, j.to));
                        }
                    }
                }
            }
        }

        // The best goal position, and the way back from it.
        let (end, moves) = dist[bottom as usize]
            .iter()
            .filter(|&(_, &d)| d != u32::MAX)
            .map(|(&s, &d)| (s, d))
            .min_by_key(|&(s, d)| (d, s))
            .ok_or_else(|| unsolvable("no goal position can be reached", &self))?;
        let held = self.live;
        let path = walk_back(
            self.model,
            &self.by_to,
            end,
            moves,
            |p| dist[p.pegs() as usize].get(&self.canon(p)).copied(),
            &mut |bytes| budget.exceeded_or_grown(held + bytes),
        )
        .map_err(|why| Stop::GaveUp(why, self.peak.max(held)))?;
        Ok(Found {
            moves,
            path,
            end: end.wide(),
            memory: self.peak,
        })
    }

    /// The canonical positions one reversed jump from `from` that `keep` accepts.
    fn link(
        &mut self,
        from: &Layer<W>,
        budget: &mut Budget,
        keep: impl Fn(W) -> bool,
    ) -> Result<Layer<W>, Stop> {
        let mut out = Layer::default();
        let jumps = std::mem::take(&mut self.jumps);
        let r = (|| {
            for &s in from.iter() {
                self.tick(budget)?;
                for j in &jumps {
                    if !j.backward(s) {
                        continue;
                    }
                    let c = self.canon(s ^ j.mask);
                    if keep(c) {
                        self.insert(&mut out, c, budget)?;
                    }
                }
            }
            Ok(())
        })();
        self.jumps = jumps;
        self.live += set_bytes(&out);
        r.map(|()| out)
    }
}

/// Nodes the quick first line may take.
const QUICK_NODES: u64 = 1 << 16;

/// Chain steps the forward search by moves may take before the search from both ends
/// begins: a game this small is decided whole by it.
const SMALL_GAME_STEPS: u64 = 1 << 17;

/// Nodes, and the share of the time left, the first-solution searches may take for a line
/// when the quick one finds none: a tenth, or two seconds where that is more and at most half
/// (under `--timeout 5` a tenth left the 42-move line of a board `solve` answers in 0.3 s to
/// the machine's load).
const LINE_NODES: u64 = 1 << 23;
const LINE_SHARE: f64 = 0.1;
const LINE_SECONDS: std::time::Duration = std::time::Duration::from_secs(2);

/// A line from the start to the goal by the depth-first search for any finish, within
/// [`QUICK_NODES`] of `budget`, if it finds one; else by the searches `solve` uses for a
/// first solution (pagodas, symmetry, beams), within [`LINE_NODES`] and [`LINE_SHARE`] (or
/// [`LINE_SECONDS`]) of the time left: a board of 87 holes that `solve` finished in 0.2 s gave
/// up a 5 s fewest-moves search with no line. Either search proving that no line exists in
/// any number of moves is the answer, with its reason: a sparse board of 91 holes that `solve`
/// refuted in 23,000 nodes took the search by moves past 5.9 GiB.
fn quick_line(model: &HopModel, budget: &mut Budget) -> Result<Option<Vec<usize>>, Stop> {
    let mut any = model.clone();
    any.goal.moves = None;
    let order: Vec<usize> = (0..any.moves.len()).collect();
    let found = |r: HopResult| match r.verdict {
        Verdict::Solved => Ok(Some(r.path)),
        Verdict::Unsolvable(why) => Err(Stop::Unsolvable(why, r.memory)),
        Verdict::GaveUp(_) => Ok(None),
    };
    let mut turn = budget.capped(QUICK_NODES);
    let r = super::dfs::solve(&any, &order, &mut turn, &mut super::dfs::Quiet);
    budget.nodes = turn.nodes;
    if let Some(line) = found(r)? {
        return Ok(Some(line));
    }
    let mut turn = budget.shared(LINE_NODES, LINE_SHARE, LINE_SECONDS);
    let r = super::plan::hop(&any, &order, &mut turn, &mut super::dfs::Quiet);
    budget.nodes = turn.nodes;
    found(r)
}

/// The jumps from the start to `end`, `moves` moves from it: walked back a move at a time, each
/// by reversed chains to a position `moves_to` says is met one move nearer the start (the
/// moves from the start of a position met, as its search recorded them). The search's group
/// fixes the start, the only position of its class, so the walk ends on it.
fn walk_back<W: Word>(
    model: &HopModel,
    by_to: &[Vec<usize>],
    end: W,
    moves: u32,
    moves_to: impl Fn(W) -> Option<u32>,
    check: &mut Check,
) -> Result<Vec<usize>, GaveUp> {
    let mut path = walk(model, by_to, true, end, moves, moves_to, check)?;
    path.reverse();
    Ok(path)
}

/// What a [`walk`] asks, every [`CHECK_EVERY`] steps, of the bytes its own tables hold: the
/// limit it passed (the budget's, with what the search holds beside), if any.
type Check<'a> = dyn FnMut(u64) -> Option<GaveUp> + 'a;

/// The jumps of `moves` moves from `from`, a move at a time, each to a position `moves_to`
/// numbers one less (0 at the walk's end), in the order walked: by reversed chains (`back`,
/// `adj` the jumps landing on each cell, so the jumps come last first) or by chains (`adj`
/// the jumps leaving each cell).
fn walk<W: Word>(
    model: &HopModel,
    adj: &[Vec<usize>],
    back: bool,
    from: W,
    moves: u32,
    moves_to: impl Fn(W) -> Option<u32>,
    check: &mut Check,
) -> Result<Vec<usize>, GaveUp> {
    // No jump adds a peg: walked back, no position on a line from the start has more pegs
    // than it, and walked on, none fewer than a goal of a peg count. (Unbounded, a reversed
    // chain on a large, nearly empty board adds a peg an unjump in any direction, and the
    // walk ran past every limit.)
    let (most, least) = pegs_on_a_line(model);
    // Checked against the budget: where a jump takes several pegs, reversed chains add them
    // back two at a time, and a walk on 127 holes went through 12 GiB, deaf to Ctrl-C.
    let mut one_move = |to: W, d: u32| -> Result<Option<(W, Vec<usize>)>, GaveUp> {
        let mut stack: Vec<(W, usize, Vec<usize>)> = (0..model.geo.cells.len())
            .filter(|&c| to.wide() >> c & 1 == 1)
            .map(|c| (to, c, Vec::new()))
            .collect();
        let mut seen = FxHashSet::default();
        // The bytes the stack's chains hold (each its own allocation, 32 bytes at least), and
        // the steps taken and chains made since the last check: with thousands of jumps a
        // step makes thousands.
        let chain_bytes = |c: &Vec<usize>| 32 + 8 * c.len() as u64;
        let (mut held, mut steps) = (0u64, 0u64);
        while let Some((s, at, chain)) = stack.pop() {
            held = held.saturating_sub(chain_bytes(&chain));
            steps += 1;
            if steps >= CHECK_EVERY {
                steps = 0;
                // As they may be at the next check: the set and the stack grown, and a
                // chain of a few jumps for every step until then.
                let more = CHECK_EVERY as usize;
                let bytes = table_peak::<(W, usize)>(seen.len(), seen.capacity(), more)
                    + super::vec_peak::<(W, usize, Vec<usize>)>(stack.len(), stack.capacity(), more)
                    + held
                    + CHECK_EVERY * 64;
                if let Some(why) = check(bytes) {
                    return Err(why);
                }
            }
            if !seen.insert((s, at)) {
                continue;
            }
            for &i in &adj[at] {
                let m = &model.moves[i];
                let (mask, need) = (W::narrow(m.mask), W::narrow(m.need));
                let able = match back {
                    true => s & mask == mask ^ need,
                    false => s & mask == need,
                };
                if !able {
                    continue;
                }
                let p = s ^ mask;
                if (back && p.pegs() > most) || (!back && p.pegs() < least) {
                    continue;
                }
                let mut chain = chain.clone();
                chain.push(i);
                if moves_to(p) == Some(d) {
                    return Ok(Some((p, chain)));
                }
                // A position on a chain between two positions met need not have been met
                // itself: a bound may have dropped it while its chain went on.
                held += chain_bytes(&chain);
                // A chain made counts as a step: a step may make thousands.
                steps += 1;
                stack.push((p, if back { m.from } else { m.to }, chain));
            }
        }
        Ok(None)
    };
    let mut path = Vec::new();
    let mut cur = from;
    for d in (0..moves).rev() {
        let (next, chain) =
            one_move(cur, d)?.expect("a position with a move count has a neighbour one move nearer the end");
        path.extend(chain);
        cur = next;
    }
    debug_assert!(!back || cur.wide() == model.start);
    Ok(path)
}
