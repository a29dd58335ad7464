//! Fewest moves by breadth-first search over moves from both ends at once, for goals whose
//! positions can be listed.
//!
//! One side grows from the start by moves (every chain one peg can jump from each position
//! of its frontier), the other from the goal positions by reversed moves (a peg unjumping
//! back along its chain), always the smaller frontier. Each position met on a chain is
//! recorded in the layer of the moves it is from its end, so a position's layer is the
//! fewest moves to it. The first layer that meets the other side holds the answer: a
//! position `a` moves from the start and `b` from the goal gives a line of at most `a + b`
//! moves, and while no position at most `a - 1` from one end and `b` from the other had met,
//! none shorter than `a + b` exists (the position an optimal line reaches after its first
//! moves would be one). Pagoda functions cut positions that cannot reach the goal, and
//! backward ones the start cannot reach. Only the layers are kept: the frontiers are a walk
//! apart.
//!
//! A layer is grown in two passes, both on every core: the chains from the frontier are
//! followed first, each position on them listed by a hash of it into one of [`PARTS`] parts;
//! then each part's list is sorted, cleared of what the side met before by a merge with its
//! older layers (sorted lists of bare words, 8 bytes a position on 64 cells), and recorded
//! in the part's table of the new layer, small enough to stay in cache. A chain step looked
//! up in chain order in tables of hundreds of megabytes was a cache miss each. A finished
//! layer becomes sorted lists too, and the other side's layers are met by a merge as well.
//!
//! When a limit stops it first, no line of `a + b` moves or fewer exists for the depths `a`
//! and `b` it completed: that is the lower bound it proves.

use super::bounds::Bounds;
use super::{Found, Line, Search, Stop, upper, walk};
use crate::search::bits::Word;
use crate::search::{Budget, Claims, GaveUp};
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

/// Chain steps between budget checks.
const CHECK_EVERY: u64 = 1 << 12;

/// The parts a side's table is split into by a hash of the position.
const PARTS: usize = 1 << 8;

/// Frontier positions whose chains are listed at a time.
const SLICE: usize = 1 << 18;

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
/// left, no line within it exists. The target is raised one at a time from the bound at the
/// start, and the beam's line of `u` moves is the fewest once `u - 1` is refuted; for a goal
/// of at most `cap` moves no pass goes past `cap`, so that more than `cap` are proven needed
/// by the pass for `cap`, without finding the fewest. A pass costs more the more moves the
/// target leaves above the bound: on the 55-hole triangle from (4, 1), the beam's 21 moves,
/// 3 above the bound's 17 after the first move, made one pass for 20 grow a forward layer of
/// 83 M positions by its eighth move, where the passes from the bound up refuted 17 at once
/// and 18 in about three minutes. On the English board, where the beam's 18 is the fewest,
/// the passes below 17 cost about a third more than that one pass.
pub(super) fn run<W: Word>(
    s: &Search<'_, W>,
    goals: Vec<W>,
    cap: u32,
    beam: Option<Option<Line>>,
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
    let beam = match beam {
        Some(given) => given,
        None => self::beam(s, &bounds, &goals, budget).map_err(|why| (Stop::GaveUp(why, 0), floor, None))?,
    };
    // The beam's layers, freed, go back to the system before the tables grow.
    crate::process::release_freed();
    let mut memory = 0u64;
    let mut target = floor;
    // Every move takes a peg at least: no line is longer than this.
    let (most, least) = super::pegs_on_a_line(s.model);
    let longest = most.saturating_sub(least);
    let best = beam.as_ref().map(|b| b.1.clone());
    loop {
        if let Some((u, path)) = &beam
            && *u <= floor
        {
            return Ok(line_found(s, *u, path.clone(), memory));
        }
        // A goal of at most `cap` moves is decided once more are proven needed, unless no
        // line could be that long (every move takes a peg): then the passes go on, to the
        // fewest or to every position tried, which says more.
        if target > cap && cap < longest {
            let why = super::more_than(target, cap);
            return Err((Stop::Unsolvable(Some(why), memory), target, None));
        }
        let within = |g: &&W| bounds.behind(**g) <= target;
        let mut sides = [
            Side::new(vec![start]),
            Side::new(goals.iter().filter(within).copied().collect()),
        ];
        let mut dropped = sides[1].frontier_len() < goals.len();
        let meet = loop {
            if sides[0].reached + sides[1].reached >= target {
                break None;
            }
            let least = floor.max(sides[0].reached + sides[1].reached + 1);
            if let Some(back) = sides.iter().position(|side| side.frontier_len() == 0) {
                if dropped {
                    break None;
                }
                let why = sides[back].exhausted(back == 1, s.sym.order() > 1);
                return Err((Stop::Unsolvable(Some(why), memory), least, None));
            }
            // The side whose next layer looks smaller: its frontier times what its last
            // layer grew by. (Weighing each frontier by its last layer's chain steps a
            // position, as reversed chains run long in sparse positions, took the 28-hole
            // triangle past twice as long.)
            let back = sides[1].next_size() < sides[0].next_size();
            let [a, b] = &mut sides;
            let (me, other) = if back { (b, &*a) } else { (a, &*b) };
            let held = me.bytes() + other.bytes();
            let grown = me
                .grow(s, &bounds, target, back, other, budget, held)
                .map_err(|(why, used)| (Stop::GaveUp(why, memory.max(used)), least, best.clone()))?;
            memory = memory.max(grown.memory);
            dropped |= grown.dropped;
            me.pruned |= grown.pruned;
            if let Some(found) = grown.met {
                break Some(found);
            }
        };
        if let Some(meet) = meet {
            return walk_meeting(s, &sides, meet, memory, budget)
                .map_err(|why| (Stop::GaveUp(why, memory), least, best.clone()));
        }
        // No line within the target.
        floor = target + 1;
        target += 1;
    }
}

/// The beam's line towards `goals`, ranked by `bounds`: its moves and jumps, if it finds one.
pub(super) fn beam<W: Word>(
    s: &Search<'_, W>,
    bounds: &Bounds<W>,
    goals: &[W],
    budget: &mut Budget,
) -> Result<Option<Line>, GaveUp> {
    let goal_set: FxHashSet<W> = goals.iter().copied().collect();
    upper::line(s, bounds, &goal_set, budget)
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
pub(super) fn goal_bounds<W: Word>(model: &crate::model::HopModel) -> Bounds<W> {
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
    budget: &Budget,
) -> Result<Found, GaveUp> {
    let [fwd, bwd] = sides;
    let a = fwd
        .depth_of(at)
        .expect("the meeting position was met from the start");
    let held = fwd.bytes() + bwd.bytes();
    let check = &mut |bytes| budget.exceeded_or_grown(held + bytes);
    let mut path = walk(
        s.model,
        &s.by_to,
        true,
        at,
        a,
        |p| fwd.depth_of(s.canon(p)),
        check,
    )?;
    path.reverse();
    let on = walk(
        s.model,
        &s.by_from,
        false,
        at,
        moves - a,
        |p| bwd.depth_of(s.canon(p)),
        check,
    )?;
    let mut end = at;
    for &i in &on {
        end = end ^ W::narrow(s.model.moves[i].mask);
    }
    path.extend(on);
    Ok(Found {
        moves,
        path,
        end: end.wide(),
        memory: memory.max(held),
    })
}

/// One end's positions met, by their moves from that end: `layers[d][k]` holds the
/// positions of part `k` first met `d` moves from it, sorted. A position's depth is the
/// layer it is in, so a layer costs its words alone; the newest layer is the frontier.
struct Side<W> {
    layers: Vec<Vec<Vec<W>>>,
    /// The fewest and the most pegs of each layer's positions: lookups skip the layers
    /// outside them.
    pegs: Vec<(u32, u32)>,
    reached: u32,
    /// What ruled out positions met ([`PAGODA`], [`PEGS`]).
    pruned: u8,
}

/// The fewest and the most pegs of `ps`.
fn peg_range<'a, W: Word>(ps: impl IntoIterator<Item = &'a W>) -> (u32, u32) {
    ps.into_iter()
        .fold((u32::MAX, 0), |(lo, hi), p| (lo.min(p.pegs()), hi.max(p.pegs())))
}

/// Whether two ranges of peg counts overlap.
fn overlap((a, b): (u32, u32), (c, d): (u32, u32)) -> bool {
    a <= d && c <= b
}

impl<W: Word> Side<W> {
    fn new(frontier: Vec<W>) -> Self {
        let mut parts = vec![Vec::new(); PARTS];
        for &p in &frontier {
            parts[part(p)].push(p);
        }
        for v in &mut parts {
            v.sort_unstable();
            v.dedup();
        }
        Side {
            pegs: vec![peg_range(&frontier)],
            layers: vec![parts],
            reached: 0,
            pruned: 0,
        }
    }

    /// Why no line exists, this side (from the goal when `back`) having met every position it
    /// can reach without meeting the other: how many it met, and what ruled out the rest.
    fn exhausted(&self, back: bool, classes: bool) -> String {
        let tried: usize = self.layers.iter().flatten().map(Vec::len).sum();
        let why = [
            (PAGODA, "pagoda functions"),
            (
                PEGS,
                if back {
                    "having more pegs than the start"
                } else {
                    "having fewer pegs than the goal"
                },
            ),
        ];
        let cut: Vec<&str> = why
            .iter()
            .filter(|w| self.pruned & w.0 != 0)
            .map(|w| w.1)
            .collect();
        match back {
            false => crate::search::exhausted(tried as u64, classes, &cut),
            true => format!(
                "exhaustive search from the goal: {}{} {} every position from which a goal \
                 position in the start's position class can be reached{}, and the start is not \
                 among them",
                crate::diag::plural(tried, "position"),
                if classes { crate::search::ONE_PER_CLASS } else { "" },
                if tried == 1 { "is" } else { "are" },
                match cut.is_empty() {
                    true => String::new(),
                    false => format!(" but for those ruled out by {}", cut.join(" or ")),
                }
            ),
        }
    }

    /// The positions of the newest layer.
    fn frontier_len(&self) -> usize {
        self.layers[self.reached as usize].iter().map(Vec::len).sum()
    }

    /// The size the next layer is expected to have: the frontier's times the last layer's
    /// over the one before (the frontier's alone at the end).
    fn next_size(&self) -> f64 {
        let n = self.frontier_len() as f64;
        match self.reached {
            0 => n,
            r => {
                let before: usize = self.layers[r as usize - 1].iter().map(Vec::len).sum();
                n * n / before.max(1) as f64
            }
        }
    }

    /// The moves from this side's end to canonical `c`, if met.
    fn depth_of(&self, c: W) -> Option<u32> {
        let (k, n) = (part(c), c.pegs());
        self.layers
            .iter()
            .zip(&self.pegs)
            .position(|(l, &p)| overlap(p, (n, n)) && l[k].binary_search(&c).is_ok())
            .map(|d| d as u32)
    }

    fn bytes(&self) -> u64 {
        let words: usize = self.layers.iter().flatten().map(Vec::capacity).sum();
        (words * size_of::<W>()) as u64
    }

    /// Grows this side by one move (reversed, `back`) with `held` bytes held, dropping
    /// positions `bounds` takes past `target`. The frontier is taken about [`SLICE`]
    /// positions at a time, so that the chain steps listed stay a bounded part of the
    /// memory; each part's list is sorted, what this side met before is taken out of it by
    /// a merge with each older layer, and the rest is recorded in the part's table of the
    /// new layer, which becomes a sorted list when the layer is done. What is new is merged
    /// with the other side's layers for a meeting.
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
        let others = other
            .pegs
            .iter()
            .fold((u32::MAX, 0), |(lo, hi), &(a, b)| (lo.min(a), hi.max(b)));
        // What the new layer's runs hold.
        let grown = AtomicU64::new(0);
        let mut peak = held;
        let mut runs: Vec<Vec<Vec<W>>> = vec![Vec::new(); PARTS];
        let mut best: Option<(u32, W)> = None;
        let dropped = AtomicBool::new(false);
        let pruned = AtomicU8::new(0);
        let cut = Cut {
            bounds,
            depth: d,
            target,
            dropped: &dropped,
            pruned: &pruned,
            pegs: last.then_some(others),
        };
        let frontier = &self.layers[self.reached as usize];
        let mut most_listed = 0;
        let mut from = 0;
        while from < PARTS {
            // Whole parts, about a slice of positions.
            let mut to = from + 1;
            let mut n = frontier[from].len();
            while to < PARTS && n + frontier[to].len() <= SLICE {
                n += frontier[to].len();
                to += 1;
            }
            let slice: Vec<W> = frontier[from..to].iter().flatten().copied().collect();
            from = to;
            let lists = steps(s, &cut, &slice, back, budget, held + grown.load(Relaxed))?;
            drop(slice);
            let listed = crate::process::lists_bytes(lists.iter().flatten());
            most_listed = most_listed.max(listed);
            let held = held + listed;
            let budget = &*budget;
            let layers = &self.layers;
            let pegs = &self.pegs;
            let met = runs
                .par_iter_mut()
                .enumerate()
                .map(|(k, runs)| {
                    let mut new: Vec<W> = lists.iter().flat_map(|l| &l[k]).copied().collect();
                    new.sort_unstable();
                    new.dedup();
                    let range = peg_range(&new);
                    if !last {
                        // What is left is met for the first time: `d` moves from this end.
                        // (A position of the last layer this side met before met the other
                        // side then, if at all: the search would have stopped.)
                        for (layer, &p) in layers.iter().zip(pegs) {
                            if overlap(p, range) {
                                subtract(&mut new, &layer[k]);
                            }
                        }
                        for run in runs.iter() {
                            subtract(&mut new, run);
                        }
                    }
                    let mut best: Option<(u32, W)> = None;
                    if overlap(others, range) {
                        for (o, (layer, &p)) in other.layers.iter().zip(&other.pegs).enumerate() {
                            if overlap(p, range)
                                && let Some(c) = first_common(&new, &layer[k])
                            {
                                best = least(best, Some((d + o as u32, c)));
                            }
                        }
                    }
                    if !last && !new.is_empty() {
                        // The run, and the merges it sets off, counted before they are
                        // allocated.
                        let size = size_of::<W>() as u64;
                        let merged: usize = runs.iter().map(Vec::len).sum::<usize>() + new.len();
                        let more = (new.len() + merged) as u64 * size;
                        let used = held + grown.load(Relaxed) + more;
                        if let Some(why) = budget.exceeded_or_grown(used) {
                            return Err((why, used));
                        }
                        let before: usize = runs.iter().map(Vec::capacity).sum();
                        push_run(runs, new.as_slice().to_vec());
                        let after: usize = runs.iter().map(Vec::capacity).sum();
                        grown.fetch_add((after - before) as u64 * size, Relaxed);
                    }
                    Ok(best)
                })
                .try_reduce(|| None, |a, b| Ok(least(a, b)))?;
            best = least(best, met);
            peak = peak.max(held + grown.load(Relaxed));
        }
        let layer: Vec<Vec<W>> = match (last, best) {
            // The one position of the last layer the way back needs.
            (true, Some((_, c))) => {
                let mut parts = vec![Vec::new(); PARTS];
                parts[part(c)].push(c);
                parts
            }
            (true, None) => vec![Vec::new(); PARTS],
            (false, _) => runs
                .into_par_iter()
                .map(|mut runs| {
                    while runs.len() > 1 {
                        merge_last_two(&mut runs);
                    }
                    runs.pop().unwrap_or_default()
                })
                .collect(),
        };
        self.pegs.push(peg_range(layer.iter().flatten()));
        self.layers.push(layer);
        self.reached = d;
        if trace_memory() {
            let mib = |b: u64| b as f64 / f64::from(1 << 20);
            eprintln!(
                "fewest moves: {} layer {d}: {} positions; layers {:.1} MiB, lists at most {:.1} MiB, peak {:.1} MiB, grown by {:.1} MiB",
                if back { "backward" } else { "forward" },
                self.frontier_len(),
                mib(self.bytes() + other.bytes()),
                mib(most_listed),
                mib(peak),
                mib(budget.resident_growth()),
            );
        }
        Ok(Grown {
            memory: peak.max(self.bytes() + other.bytes()),
            met: best,
            dropped: dropped.into_inner(),
            pruned: pruned.into_inner(),
        })
    }
}

/// Whether `MARBLES_MEMORY_TRACE` is set: each layer grown then prints its positions and
/// the memory figures on stderr.
fn trace_memory() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("MARBLES_MEMORY_TRACE").is_some())
}

/// Adds a sorted run to `runs`, sorted runs with no element in common: it is merged with
/// the run before it while that one is at most twice its size, so the runs stay few (about
/// the logarithm of the runs pushed) and each element is merged about as many times.
fn push_run<W: Ord + Copy>(runs: &mut Vec<Vec<W>>, run: Vec<W>) {
    runs.push(run);
    while let [.., a, b] = runs.as_slice()
        && a.len() <= 2 * b.len()
    {
        merge_last_two(runs);
    }
}

/// Merges the last two of `runs` into one.
fn merge_last_two<W: Ord + Copy>(runs: &mut Vec<Vec<W>>) {
    let b = runs.pop().expect("two runs");
    let a = runs.pop().expect("two runs");
    runs.push(merge(&a, &b));
}

/// The elements of `a` and `b`, both sorted, sorted.
fn merge<W: Ord + Copy>(a: &[W], b: &[W]) -> Vec<W> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// `s` from its first element not below `x`, by an exponential search from its front.
fn skip_below<'a, W: Ord>(s: &'a [W], x: &W) -> &'a [W] {
    let (mut lo, mut step) = (0, 1);
    while lo + step < s.len() && s[lo + step] < *x {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step + 1).min(s.len());
    &s[lo + s[lo..hi].partition_point(|y| y < x)..]
}

/// Whether `ys` is so much longer than `xs` that each element of `xs` is better found in it
/// by [`skip_below`] than by stepping through both.
fn sparse(xs: usize, ys: usize) -> bool {
    ys > 8 * xs
}

/// Takes every element of `of` out of `xs`, both sorted.
fn subtract<W: Ord + Copy>(xs: &mut Vec<W>, of: &[W]) {
    let mut rest = of;
    if sparse(xs.len(), of.len()) {
        xs.retain(|x| {
            rest = skip_below(rest, x);
            rest.first() != Some(x)
        });
        return;
    }
    xs.retain(|x| {
        while let [y, tail @ ..] = rest
            && y < x
        {
            rest = tail;
        }
        rest.first() != Some(x)
    });
}

/// The least element of both `xs` and `ys`, both sorted.
fn first_common<W: Ord + Copy>(xs: &[W], ys: &[W]) -> Option<W> {
    if sparse(xs.len(), ys.len()) {
        let mut rest = ys;
        for x in xs {
            rest = skip_below(rest, x);
            match rest.first() {
                None => return None,
                Some(y) if y == x => return Some(*x),
                Some(_) => {}
            }
        }
        return None;
    }
    // Sizes alike: a merge, stepping past the lesser each time without a branch to mispredict.
    let (mut i, mut j) = (0, 0);
    while i < xs.len() && j < ys.len() {
        let (x, y) = (xs[i], ys[j]);
        if x == y {
            return Some(x);
        }
        i += usize::from(x < y);
        j += usize::from(y < x);
    }
    None
}

/// A layer grown: the memory it reached, the best position met by the other side too (its
/// moves from end to end, and the position), if any, whether a bound dropped a position, and
/// what ruled positions out ([`PAGODA`], [`PEGS`]).
struct Grown<W> {
    memory: u64,
    met: Option<(u32, W)>,
    dropped: bool,
    pruned: u8,
}

/// A pagoda function ruled a position out.
const PAGODA: u8 = 1;
/// A position had fewer pegs than the goal's (more, from the goal, than the start's).
const PEGS: u8 = 2;

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
    /// What ruled positions out ([`PAGODA`], [`PEGS`]).
    pruned: &'a AtomicU8,
    /// For the last layer, only looked up on the other side: the fewest and the most pegs
    /// of the other side's positions. A position outside them is not listed, and a chain
    /// stops once its pegs have passed them.
    pegs: Option<(u32, u32)>,
}

/// Slots of a new [`Seen`].
const SEEN_SLOTS: usize = 1 << 10;

/// The most slots a [`Seen`] grows to: 4 MB for positions of up to 64 cells.
const SEEN_MOST: usize = 1 << 18;

/// The chain states (position, cell of the moving peg) met from one frontier position, so
/// that a state reached again by the same jumps in another order (a peg circling a triangle
/// either way round) is followed once. Direct-mapped: a slot keeps the last state hashed to
/// it, so a state pushed out is followed again when met again, and no state is skipped that
/// was not followed. On the 36-hole triangle this skips a fifth of the chain steps.
///
/// A frontier position whose chains pass four times the slots gets four times as many (up
/// to [`SEEN_MOST`]): a lone peg unjumping on an empty board reaches the same states by
/// thousands of orders. On the 45-hole triangle the first layer back from one peg listed
/// 2.1 GB of positions for its 1.9 M with 2^10 slots, and 63 MB with the table grown.
/// Its slots count against the memory limit while its chunk of the frontier runs.
struct Seen<W> {
    slots: Vec<(W, u32, u32)>,
    /// The mark of the states met since the last [`Seen::clear`].
    mark: u32,
    /// The states met since then.
    met: usize,
}

impl<W: Word> Seen<W> {
    fn new() -> Self {
        Seen {
            slots: vec![(W::ZERO, 0, 0); SEEN_SLOTS],
            mark: 1,
            met: 0,
        }
    }

    /// The bytes its slots take.
    fn bytes(&self) -> u64 {
        size_of_val(self.slots.as_slice()) as u64
    }

    /// Forgets every state met.
    fn clear(&mut self) {
        self.met = 0;
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.slots.fill((W::ZERO, 0, 0));
            self.mark = 1;
        }
    }

    /// Records the state `(q, at)`: whether it is new since the last [`Seen::clear`].
    #[inline]
    fn insert(&mut self, q: W, at: usize) -> bool {
        let h = (q.fold64() ^ at as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bits = self.slots.len().trailing_zeros();
        let slot = &mut self.slots[(h >> (64 - bits)) as usize];
        let state = (q, at as u32, self.mark);
        if *slot == state {
            return false;
        }
        *slot = state;
        self.met += 1;
        if self.met > 4 * self.slots.len() && self.slots.len() < SEEN_MOST {
            // The states met are forgotten: each is followed once more at most.
            self.slots = vec![(W::ZERO, 0, 0); 4 * self.slots.len()];
            self.mark = 1;
        }
        true
    }
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
    let claims = Claims::new(budget);
    let (most, least) = super::pegs_on_a_line(s.model);
    let chunk = frontier.len().div_ceil(CHUNKS).max(1);
    let lists = frontier
        .par_chunks(chunk)
        .map(|ps| {
            let mut out: Vec<Vec<W>> = vec![Vec::new(); PARTS];
            let mut stack: Vec<(W, usize)> = Vec::new();
            let mut seen = Seen::new();
            // What the last check counted: all, and of it the chain-state table's.
            let (mut done, mut counted, mut seen_counted, mut claimed) = (0u64, 0u64, 0u64, 0u64);
            let (mut dropped, mut pruned) = (false, 0);
            for &p in ps {
                // A move lowers the regions' bound only if its first jump starts in a full
                // region (no other jump of it can empty one): when the bound leaves this
                // move no slack, only those moves are followed.
                // A move skipped so is dropped by the bound: without it, a frontier the
                // target emptied would read as no line at all.
                let tight = !back && cut.depth + cut.bounds.ahead(p) > cut.target;
                for j in &s.jumps {
                    if if back { j.backward(p) } else { j.forward(p) } {
                        if !tight || cut.bounds.in_full(p, j.from) {
                            stack.push((p ^ j.mask, if back { j.from } else { j.to }));
                        } else {
                            dropped = true;
                        }
                    }
                }
                seen.clear();
                while let Some((q, at)) = stack.pop() {
                    if !seen.insert(q, at) {
                        continue;
                    }
                    let used = held + counted;
                    let refill = || {
                        let now = crate::process::lists_bytes(&out) + seen.bytes();
                        check(done, now - counted).map_or(Ok(()), Err)?;
                        (done, counted, seen_counted) = (0, now, seen.bytes());
                        Ok(())
                    };
                    claims.take(&mut claimed, CHECK_EVERY, refill, |why| (why, used))?;
                    done += 1;
                    // A chain only takes pegs (reversed, adds them): past the goal's count
                    // (the start's) neither it nor its rest is on a line.
                    let (past, pagoda) = match back {
                        false => {
                            let past = q.pegs() < least;
                            (past, !past && s.ahead.cuts(q.wide()))
                        }
                        true => {
                            let past = q.pegs() > most;
                            (past, !past && s.behind.cuts(s.full & !q.wide()))
                        }
                    };
                    if past || pagoda {
                        pruned |= if pagoda { PAGODA } else { PEGS };
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
                    let (listed, past) = match cut.pegs {
                        None => (true, false),
                        // A chain takes a peg a jump (reversed, adds one).
                        Some((lo, hi)) => {
                            let n = q.pegs();
                            ((lo..=hi).contains(&n), if back { n > hi } else { n < lo })
                        }
                    };
                    if past {
                        continue;
                    }
                    if cut.depth + bound > cut.target {
                        dropped = true;
                    } else if listed {
                        let c = s.canon(q);
                        out[part(c)].push(c);
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
            claims.give_back(claimed);
            // The chunk's lists stay; its chain-state table goes.
            bytes.fetch_sub(seen_counted, Relaxed);
            if dropped {
                cut.dropped.store(true, Relaxed);
            }
            cut.pruned.fetch_or(pruned, Relaxed);
            Ok(out)
        })
        .collect::<Result<_, Over>>();
    budget.nodes = base + nodes.load(Relaxed);
    lists
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_lists_are_merged() {
        let mut xs = vec![1u64, 3, 4, 7, 9, 12];
        subtract(&mut xs, &[0, 3, 5, 9, 10, 11, 12, 20]);
        assert_eq!(xs, [1, 4, 7]);
        subtract(&mut xs, &[]);
        assert_eq!(xs, [1, 4, 7]);
        assert_eq!(first_common(&[2u64, 5, 8, 13], &[1, 3, 8, 13]), Some(8));
        assert_eq!(first_common(&[2u64, 5], &[1, 3, 8, 13]), None);
        assert_eq!(first_common(&[40u64], &(0..40).collect::<Vec<u64>>()), None);
        let mut runs = Vec::new();
        for run in [vec![5u64, 9], vec![1], vec![2, 7], vec![3]] {
            push_run(&mut runs, run);
        }
        // [5, 9] takes in [1], then [2, 7]; [3] stays a run of its own.
        assert_eq!(runs, [vec![1, 2, 5, 7, 9], vec![3]]);
        assert_eq!(merge(&[1u64, 4, 6], &[2, 3, 9]), [1, 2, 3, 4, 6, 9]);
    }

    /// Both ways of walking two sorted lists (a merge when their sizes are alike, a search
    /// of the longer one for each element of the shorter) give what sets give.
    #[test]
    fn subtract_and_first_common_agree_with_sets_at_every_ratio() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut list = |n: usize| {
            let mut v: Vec<u64> = (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed % 200
                })
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        for (n, m) in [
            (0, 5),
            (5, 0),
            (3, 3),
            (10, 40),
            (10, 90),
            (5, 150),
            (40, 10),
            (1, 200),
        ] {
            let (xs, ys) = (list(n), list(m));
            let set: std::collections::BTreeSet<u64> = ys.iter().copied().collect();
            let mut rest = xs.clone();
            subtract(&mut rest, &ys);
            let want: Vec<u64> = xs.iter().copied().filter(|x| !set.contains(x)).collect();
            assert_eq!(rest, want, "{xs:?} less {ys:?}");
            let want = xs.iter().copied().find(|x| set.contains(x));
            assert_eq!(first_common(&xs, &ys), want, "{xs:?} and {ys:?}");
        }
    }

    #[test]
    fn a_chain_state_is_new_once_until_cleared() {
        let mut seen = Seen::<u64>::new();
        assert!(seen.insert(0b1011, 3));
        assert!(!seen.insert(0b1011, 3));
        // The same position with the moving peg elsewhere is another state.
        assert!(seen.insert(0b1011, 1));
        seen.clear();
        assert!(seen.insert(0b1011, 3));
        // Every slot is overwritten in turn: a state pushed out is new again, never lost.
        for q in 0..4 * SEEN_SLOTS as u64 {
            seen.insert(q << 8, 0);
        }
        let again = (0..4 * SEEN_SLOTS as u64)
            .filter(|&q| seen.insert(q << 8, 0))
            .count();
        assert!(again >= 3 * SEEN_SLOTS, "{again} states were new again");
    }

    /// Past four times its slots since a clear, the table grows fourfold, and the states
    /// met since are found again.
    #[test]
    fn a_chain_met_long_gets_more_slots() {
        let mut seen = Seen::<u64>::new();
        for q in 0..5 * SEEN_SLOTS as u64 {
            seen.insert(q << 8, 0);
        }
        assert_eq!(seen.slots.len(), 4 * SEEN_SLOTS);
        let again = (4 * SEEN_SLOTS as u64..5 * SEEN_SLOTS as u64)
            .filter(|&q| seen.insert(q << 8, 0))
            .count();
        assert!(again < SEEN_SLOTS / 8, "{again} states were new again");
    }
}
