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

use super::{Found, Search, Stop, walk};
use crate::search::bits::Word;
use crate::search::{Budget, GaveUp, grown_capacity, table_bytes};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

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

/// The fewest moves from the start to one of `goals` (canonical positions), or the moves
/// proven needed when a limit stops it (in [`Stop::GaveUp`]'s place: `Err((stop, least))`).
pub(super) fn run<W: Word>(
    s: &Search<'_, W>,
    goals: Vec<W>,
    budget: &mut Budget,
) -> Result<Found, (Stop, u32)> {
    let start = s.canon(W::narrow(s.model.start));
    let mut sides = [Side::new(vec![start]), Side::new(goals)];
    if let Some(0) = sides[1].depth_of(start) {
        return Ok(Found {
            moves: 0,
            path: Vec::new(),
            end: start.wide(),
            memory: 0,
        });
    }
    let mut memory = 0u64;
    let meet = loop {
        let least = sides[0].reached + sides[1].reached + 1;
        if sides.iter().any(|side| side.frontier.is_empty()) {
            return Err((
                Stop::Unsolvable(Some("no goal position can be reached".into()), memory),
                least,
            ));
        }
        // The smaller frontier. (Weighing each by its last layer's chain steps a position,
        // as reversed chains run long in sparse positions, took the 28-hole triangle past
        // twice as long.)
        let back = sides[1].frontier.len() < sides[0].frontier.len();
        let [a, b] = &mut sides;
        let (me, other) = if back { (b, &*a) } else { (a, &*b) };
        let held = me.bytes() + other.bytes();
        let grown = me
            .grow(s, back, other, budget, held)
            .map_err(|(why, used)| (Stop::GaveUp(why, memory.max(used)), least))?;
        memory = memory.max(grown.0);
        if let Some(found) = grown.1 {
            break found;
        }
    };
    let (moves, at) = meet;
    let [fwd, bwd] = &sides;
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
    memory = memory.max(fwd.bytes() + bwd.bytes());
    Ok(Found {
        moves,
        path,
        end: end.wide(),
        memory,
    })
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

    /// Grows this side by one move (reversed, `back`) with `held` bytes held: the memory it
    /// reached, and the best position met by `other` too (its moves from end to end, and the
    /// position), if any. The frontier is taken [`SLICE`] positions at a time, so that the
    /// chain steps listed stay a bounded part of the memory.
    fn grow(
        &mut self,
        s: &Search<'_, W>,
        back: bool,
        other: &Side<W>,
        budget: &mut Budget,
        held: u64,
    ) -> Result<(u64, Option<(u32, W)>), Over> {
        if let Some(why) = budget.exceeded_or_grown(held) {
            return Err((why, held));
        }
        let d = self.reached + 1;
        let (lo, hi) = other.pegs;
        // What the tables and the next frontier grew by.
        let grown = AtomicU64::new(0);
        let mut peak = held;
        let mut nexts: Vec<Vec<W>> = vec![Vec::new(); PARTS];
        let mut best: Option<(u32, W)> = None;
        for slice in self.frontier.chunks(SLICE) {
            let lists = steps(s, slice, back, budget, held + grown.load(Relaxed))?;
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
        let next: Vec<W> = nexts.concat();
        self.pegs = next
            .iter()
            .fold(self.pegs, |(lo, hi), p| (lo.min(p.pegs()), hi.max(p.pegs())));
        self.frontier = next;
        self.reached = d;
        Ok((peak.max(self.bytes() + other.bytes()), best))
    }
}

/// The lesser of two meetings, either of which may be missing.
fn least<W: Word>(a: Option<(u32, W)>, b: Option<(u32, W)>) -> Option<(u32, W)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Every position one move (reversed, `back`) from `frontier` that the pagodas keep,
/// canonical, by part: a list a part from each chunk of the frontier, `held` bytes held.
fn steps<W: Word>(
    s: &Search<'_, W>,
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
                    let cut = match back {
                        false => s.ahead.cuts(q.wide()),
                        true => s.behind.cuts(s.full & !q.wide()),
                    };
                    if cut {
                        continue;
                    }
                    let c = s.canon(q);
                    out[part(c)].push(c);
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
            Ok(out)
        })
        .collect::<Result<_, Over>>();
    budget.nodes = base + nodes.load(Relaxed);
    lists
}
