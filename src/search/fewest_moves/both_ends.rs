//! Fewest moves by breadth-first search over moves from both ends at once, for goals whose
//! positions can be listed.
//!
//! One side grows from the start by moves (every chain one peg can jump from each position
//! of its frontier), the other from the goal positions by reversed moves (a peg unjumping
//! back along its chain), always the smaller frontier. Each position met on a chain is
//! recorded with the moves it is from its end, so a position's number is the fewest moves
//! to it. The first layer that meets the other side holds the answer: a position `a` moves
//! from the start and `b` from the goal gives a line of at most `a + b` moves, and while no
//! position at most `a - 1` from one end and `b` from the other had met, none shorter than
//! `a + b` exists (the position an optimal line reaches after its first moves would be one).
//! Pagoda functions cut positions that cannot reach the goal, and backward ones the start
//! cannot reach. Only the layers' depths are kept: the frontiers are a walk apart.
//!
//! A layer is grown in two passes, both on every core: the chains from the frontier are
//! followed first, each position on them listed by a hash of it into one of [`PARTS`] parts;
//! then each part's table takes its list in one go. A chain step costs a table lookup, which
//! on tables of hundreds of megabytes is a cache miss when the steps come in chain order; a
//! part's table is small enough to stay in cache while its list is recorded.
//!
//! When a limit stops it first, no line of `a + b` moves or fewer exists for the depths `a`
//! and `b` it completed: that is the lower bound it proves.

use super::bounds::Bounds;
use super::{Found, Search, Stop, upper, walk};
use crate::search::bits::Word;
use crate::search::{Budget, GaveUp, grown_capacity, table_bytes};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::hash_map::Entry;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Chain steps between budget checks.
const CHECK_EVERY: u64 = 1 << 12;

/// The parts a side's table is split into by a hash of the position.
const PARTS: usize = 1 << 8;

/// Frontier positions whose chains are listed at a time.
const SLICE: usize = 1 << 20;

/// Chunks a slice of the frontier is split into for its chains to be followed in parallel.
const CHUNKS: usize = 64;

#[inline]
fn part<W: Word>(c: W) -> usize {
    (c.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PARTS.trailing_zeros())) as usize
}

/// A limit met: why, and the memory estimate then.
type Over = (GaveUp, u64);

/// The fewest moves from the start to one of `goals` (canonical positions), or, when a limit
/// stops it, the moves proven needed and the shortest line found, if any (in
/// [`Stop::GaveUp`]'s place: `Err((stop, least, line))`).
///
/// Searched for a target number of moves: a position `d` moves from its end whose bound on
/// the moves still needed takes it past the target is dropped. Every position of a line
/// within the target is kept, at its true number of moves, so the first meeting is as short
/// as any; when the sides have grown to the target without meeting, or a side has nothing
/// left, no line within it exists. With a line of `u` moves from the beam, one pass for
/// `u - 1` decides; without one, the target is raised one at a time from the bound at the
/// start.
pub(super) fn run<W: Word>(
    s: &Search<'_, W>,
    goals: Vec<W>,
    budget: &mut Budget,
) -> Result<Found, (Stop, u32, Option<Vec<usize>>)> {
    let start = s.canon(W::narrow(s.model.start));
    if goals.contains(&start) {
        return Ok(Found {
            moves: 0,
            path: Vec::new(),
            end: start.wide(),
            memory: 0,
        });
    }
    let bounds = goal_bounds(s.model);
    let from_goals = goals.iter().map(|&g| bounds.behind(g)).min().unwrap_or(0);
    // The fewest moves proven needed.
    let mut floor = bounds.ahead(start).max(from_goals).max(1);
    let goal_set: FxHashSet<W> = goals.iter().copied().collect();
    let beam =
        upper::line(s, &bounds, &goal_set, budget).map_err(|why| (Stop::GaveUp(why, 0), floor, None))?;
    let mut memory = 0u64;
    let mut target = floor;
    if let Some((u, path)) = &beam {
        if *u <= floor {
            return Ok(line_found(s, *u, path.clone(), memory));
        }
        target = u - 1;
    }
    let best = beam.as_ref().map(|b| b.1.clone());
    loop {
        let within = |g: &&W| bounds.behind(**g) <= target;
        let mut sides = [
            Side::new(vec![start]),
            Side::new(goals.iter().filter(within).copied().collect()),
        ];
        let mut dropped = sides[1].frontier.len() < goals.len();
        let meet = loop {
            if sides[0].reached + sides[1].reached >= target {
                break None;
            }
            let least = floor.max(sides[0].reached + sides[1].reached + 1);
            if sides.iter().any(|side| side.frontier.is_empty()) {
                if dropped {
                    break None;
                }
                return Err((
                    Stop::Unsolvable(Some("no goal position can be reached".into()), memory),
                    least,
                    None,
                ));
            }
            // The smaller frontier. (Weighing each by its last layer's chain steps a
            // position, as reversed chains run long in sparse positions, took the 28-hole
            // triangle past twice as long.)
            let back = sides[1].frontier.len() < sides[0].frontier.len();
            let [a, b] = &mut sides;
            let (me, other) = if back { (b, &*a) } else { (a, &*b) };
            let held = me.bytes() + other.bytes();
            let grown = me
                .grow(s, &bounds, target, back, other, budget, held)
                .map_err(|(why, used)| (Stop::GaveUp(why, memory.max(used)), least, best.clone()))?;
            memory = memory.max(grown.memory);
            dropped |= grown.dropped;
            if let Some(found) = grown.met {
                break Some(found);
            }
        };
        if let Some(meet) = meet {
            return Ok(walk_meeting(s, &sides, meet, memory));
        }
        // No line within the target.
        floor = target + 1;
        if let Some((u, path)) = beam {
            return Ok(line_found(s, u, path, memory));
        }
        target += 1;
    }
}

/// The beam's line of `moves` moves, shown the fewest.
fn line_found<W: Word>(s: &Search<'_, W>, moves: u32, path: Vec<usize>, memory: u64) -> Found {
    Found {
        moves,
        end: super::end_of(s.model, &path),
        path,
        memory,
    }
}

/// The regions' bounds for the search's start and goal.
fn goal_bounds<W: Word>(model: &crate::model::HopModel) -> Bounds<W> {
    let g = &model.goal;
    let pegs = model.target_pegs();
    Bounds::new(model, pegs, model.goal_cells(), g.pattern.is_some())
}

/// The line through the position `at` where the sides met, `moves` long.
fn walk_meeting<W: Word>(
    s: &Search<'_, W>,
    sides: &[Side<W>; 2],
    (moves, at): (u32, W),
    memory: u64,
) -> Found {
    let [fwd, bwd] = sides;
    let a = fwd
        .depth_of(at)
        .expect("the meeting position was met from the start");
    let mut path = walk(s.model, &s.by_to, true, at, a, |p| fwd.depth_of(s.canon(p)));
    path.reverse();
    let on = walk(s.model, &s.by_from, false, at, moves - a, |p| {
        bwd.depth_of(s.canon(p))
    });
    let mut end = at;
    for &i in &on {
        end = end ^ W::narrow(s.model.moves[i].mask);
    }
    path.extend(on);
    Found {
        moves,
        path,
        end: end.wide(),
        memory: memory.max(fwd.bytes() + bwd.bytes()),
    }
}

/// One end's positions met, each with its moves from that end (by part), and its newest
/// layer.
struct Side<W> {
    depth: Vec<FxHashMap<W, u8>>,
    frontier: Vec<W>,
    reached: u32,
    /// The fewest and the most pegs of a position met: the other side looks up only
    /// positions within them.
    pegs: (u32, u32),
}

impl<W: Word> Side<W> {
    fn new(frontier: Vec<W>) -> Self {
        let mut depth = vec![FxHashMap::default(); PARTS];
        for &p in &frontier {
            depth[part(p)].insert(p, 0);
        }
        let pegs = frontier
            .iter()
            .fold((u32::MAX, 0), |(lo, hi), p| (lo.min(p.pegs()), hi.max(p.pegs())));
        Side {
            depth,
            frontier,
            reached: 0,
            pegs,
        }
    }

    /// The moves from this side's end to canonical `c`, if met.
    fn depth_of(&self, c: W) -> Option<u32> {
        self.depth[part(c)].get(&c).map(|&d| u32::from(d))
    }

    fn bytes(&self) -> u64 {
        let tables: u64 = self
            .depth
            .iter()
            .map(|t| table_bytes::<(W, u8)>(t.capacity()))
            .sum();
        tables + (self.frontier.capacity() * size_of::<W>()) as u64
    }

    /// Grows this side by one move (reversed, `back`) with `held` bytes held, dropping
    /// positions `bounds` takes past `target`. The frontier is taken [`SLICE`] positions at a time, so that the
    /// chain steps listed stay a bounded part of the memory.
    #[allow(clippy::too_many_arguments)]
    fn grow(
        &mut self,
        s: &Search<'_, W>,
        bounds: &Bounds<W>,
        target: u32,
        back: bool,
        other: &Side<W>,
        budget: &mut Budget,
        held: u64,
    ) -> Result<Grown<W>, Over> {
        if let Some(why) = budget.exceeded_or_grown(held) {
            return Err((why, held));
        }
        let d = self.reached + 1;
        // The sides reach the target with this layer: its positions are only looked up on
        // the other side, not kept.
        let last = d + other.reached >= target;
        let (lo, hi) = other.pegs;
        // What the tables and the next frontier grew by.
        let grown = AtomicU64::new(0);
        let mut peak = held;
        let mut nexts: Vec<Vec<W>> = vec![Vec::new(); PARTS];
        let mut best: Option<(u32, W)> = None;
        let dropped = AtomicBool::new(false);
        let cut = Cut {
            bounds,
            depth: d,
            target,
            dropped: &dropped,
            only_meet: last.then_some(other),
            met: Mutex::new(None),
        };
        for slice in self.frontier.chunks(SLICE) {
            let lists = steps(s, &cut, slice, back, budget, held + grown.load(Relaxed))?;
            if last {
                continue;
            }
            let listed: u64 = lists
                .iter()
                .flatten()
                .map(|l| (l.capacity() * size_of::<W>()) as u64)
                .sum();
            let held = held + listed;
            let budget = &*budget;
            // Each part's table records its list: a position met for the first time is `d`
            // moves from this end, and it joins the next frontier.
            let met = self
                .depth
                .par_iter_mut()
                .zip(nexts.par_iter_mut())
                .enumerate()
                .map(|(k, (table, next))| {
                    let mut best: Option<(u32, W)> = None;
                    for &c in lists.iter().flat_map(|l| &l[k]) {
                        let full = table.len() == table.capacity();
                        if (full || next.len() == next.capacity()) && !table.contains_key(&c) {
                            // What grows, counted before it is allocated; the old table is
                            // freed after.
                            let (cap, more) = (table.capacity(), next.capacity().max(4));
                            let new = match full {
                                true => table_bytes::<(W, u8)>(grown_capacity(cap)),
                                false => 0,
                            } + (more * size_of::<W>()) as u64;
                            let used = held + grown.load(Relaxed) + new;
                            if let Some(why) = budget.exceeded_or_grown(used) {
                                return Err((why, used));
                            }
                            let old = if full { table_bytes::<(W, u8)>(cap) } else { 0 };
                            grown.fetch_add(new - old, Relaxed);
                        }
                        if let Entry::Vacant(e) = table.entry(c) {
                            e.insert(d as u8);
                            next.push(c);
                            if (lo..=hi).contains(&c.pegs())
                                && let Some(&o) = other.depth[k].get(&c)
                            {
                                let total = (d + u32::from(o), c);
                                best = Some(best.map_or(total, |b| b.min(total)));
                            }
                        }
                    }
                    Ok(best)
                })
                .try_reduce(|| None, |a, b| Ok(least(a, b)))?;
            best = least(best, met);
            peak = peak.max(held + grown.load(Relaxed));
        }
        if last {
            best = cut.met.into_inner().unwrap_or_else(|e| e.into_inner());
        }
        if last && let Some((_, c)) = best {
            // The one position of the last layer the way back needs.
            self.depth[part(c)].entry(c).or_insert(d as u8);
        }
        let next: Vec<W> = nexts.concat();
        self.pegs = next
            .iter()
            .fold(self.pegs, |(lo, hi), p| (lo.min(p.pegs()), hi.max(p.pegs())));
        self.frontier = next;
        self.reached = d;
        Ok(Grown {
            memory: peak.max(self.bytes() + other.bytes()),
            met: best,
            dropped: dropped.into_inner(),
        })
    }
}

/// A layer grown: the memory it reached, the best position met by the other side too (its
/// moves from end to end, and the position), if any, and whether a bound dropped a position.
struct Grown<W> {
    memory: u64,
    met: Option<(u32, W)>,
    dropped: bool,
}

/// The lesser of two meetings, either of which may be missing.
fn least<W: Word>(a: Option<(u32, W)>, b: Option<(u32, W)>) -> Option<(u32, W)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What drops a position `depth` moves from its end: its bound taking it past `target`.
struct Cut<'a, W> {
    bounds: &'a Bounds<W>,
    depth: u32,
    target: u32,
    dropped: &'a AtomicBool,
    /// For the last layer: the other side, the positions only looked up in it, the best
    /// meeting kept in `met`.
    only_meet: Option<&'a Side<W>>,
    met: Mutex<Option<(u32, W)>>,
}

/// Every position one move (reversed, `back`) from `frontier` that the pagodas and `cut`
/// keep, canonical, by part: a list a part from each chunk of the frontier, `held` bytes held.
fn steps<W: Word>(
    s: &Search<'_, W>,
    cut: &Cut<'_, W>,
    frontier: &[W],
    back: bool,
    budget: &mut Budget,
    held: u64,
) -> Result<Vec<Vec<Vec<W>>>, Over> {
    let base = budget.nodes;
    let nodes = AtomicU64::new(0);
    let bytes = AtomicU64::new(0);
    let check = |n: u64, extra: u64| {
        let mut b = budget.capped(u64::MAX);
        b.nodes = base + nodes.fetch_add(n, Relaxed) + n;
        let used = held + bytes.fetch_add(extra, Relaxed) + extra;
        // The lists' pieces freed as they grow stay with the allocator: the process's
        // growth counts when it is more.
        b.exceeded_or_grown(used).map(|why| (why, used))
    };
    let chunk = frontier.len().div_ceil(CHUNKS).max(1);
    let lists = frontier
        .par_chunks(chunk)
        .map(|ps| {
            let mut out: Vec<Vec<W>> = vec![Vec::new(); PARTS];
            let mut stack: Vec<(W, usize)> = Vec::new();
            let (mut done, mut counted) = (0u64, 0u64);
            let mut dropped = false;
            let mut met = None;
            for &p in ps {
                for j in &s.jumps {
                    if if back { j.backward(p) } else { j.forward(p) } {
                        stack.push((p ^ j.mask, if back { j.from } else { j.to }));
                    }
                }
                while let Some((q, at)) = stack.pop() {
                    done += 1;
                    if done == CHECK_EVERY {
                        let now: u64 = out.iter().map(|v| (v.capacity() * size_of::<W>()) as u64).sum();
                        if let Some(over) = check(done, now - counted) {
                            return Err(over);
                        }
                        (done, counted) = (0, now);
                    }
                    let hopeless = match back {
                        false => s.ahead.cuts(q.wide()),
                        true => s.behind.cuts(s.full & !q.wide()),
                    };
                    if hopeless {
                        continue;
                    }
                    let (bound, moving) = match back {
                        false => {
                            let a = cut.bounds.ahead(q);
                            (a, a.saturating_sub(u32::from(cut.bounds.in_full(q, at))))
                        }
                        // A position the chain reaches from `q`, one reversed move on from
                        // the start, is at most one move nearer it.
                        true => {
                            let b = cut.bounds.behind(q);
                            (b, b.saturating_sub(1))
                        }
                    };
                    if cut.depth + moving > cut.target {
                        dropped = true;
                        continue;
                    }
                    if cut.depth + bound <= cut.target {
                        let c = s.canon(q);
                        match cut.only_meet {
                            None => out[part(c)].push(c),
                            Some(other) => {
                                if (other.pegs.0..=other.pegs.1).contains(&c.pegs())
                                    && let Some(o) = other.depth_of(c)
                                {
                                    met = least(met, Some((cut.depth + o, c)));
                                }
                            }
                        }
                    } else {
                        dropped = true;
                    }
                    let adj = if back { &s.by_to[at] } else { &s.by_from[at] };
                    for &i in adj {
                        let j = &s.jumps[i];
                        if if back { j.backward(q) } else { j.forward(q) } {
                            stack.push((q ^ j.mask, if back { j.from } else { j.to }));
                        }
                    }
                }
            }
            nodes.fetch_add(done, Relaxed);
            if dropped {
                cut.dropped.store(true, Relaxed);
            }
            if met.is_some() {
                let mut best = cut.met.lock().unwrap_or_else(|e| e.into_inner());
                *best = least(*best, met);
            }
            Ok(out)
        })
        .collect::<Result<_, Over>>();
    budget.nodes = base + nodes.load(Relaxed);
    lists
}
