//! The fewest slides for sliding robots: iterative deepening (IDA*) on the bound of
//! [`SlideModel::dist`], with one table of the positions seen and the moves they still had,
//! kept from one depth to the next. Three prunings, each sound for the fewest moves: a
//! position whose bound exceeds the moves left is dropped; when the bound equals them, only
//! a goal robot whose bound it is may move (any other move would leave one too few); and a
//! robot never slides straight back the way it came (it would stop where one slide the other
//! way from its square before would have, or where it was). Helpers are one group in the key
//! (their kinds change nothing a slide does).
//!
//! Where deepening goes over the same few positions depth after depth (an answer far off or
//! none), a breadth-first search over every position reachable takes over.
//!
//! The search is compiled once for each number of robots, so that a position is an array
//! the compiler sees whole. A position's children are made before any is searched: their
//! bounds and keys come with them (a helper's slide leaves the bound as it was), and the
//! table slots of those that will look themselves up are asked of the memory at once, so
//! that the misses of a large table overlap instead of following one another.

use super::count::prefetch;
use super::{Budget, GaveUp, Verdict};
use crate::model::slide::{FAR, Ray, SlideModel};

/// What the search found: its verdict, the moves of its answer (robot × directions +
/// direction) and its table's peak bytes.
#[derive(Debug)]
pub struct SlideResult {
    pub verdict: Verdict,
    pub path: Vec<usize>,
    pub memory: u64,
}

/// How often the limits are checked, in positions.
const CHECK_EVERY: u64 = 1 << 14;

/// Positions expanded, over the positions in the table, past which iterative deepening
/// stops going over the same positions depth after depth and a breadth-first search takes
/// the rest: on a 40 × 100 board with no answer, 1.3 million positions were expanded a
/// thousand times over (65 s), where one pass decides it. An ordinary search expands its
/// positions a few times (the hardest 25-move one about twelve). A search that has spent
/// fewer than [`OVER_AGAIN_AFTER`] nodes goes on as it is.
const OVER_AGAIN: u64 = 32;
const OVER_AGAIN_AFTER: u64 = 1 << 16;

/// Positions seen, each with the most moves it was searched with, in one word: the key above
/// the low byte, the moves in it (at least 2, so 0 is an empty slot). Open addressing with
/// linear probing, grown fourfold at half full.
struct Seen {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

impl Seen {
    const FIRST: usize = 1 << 12;

    fn new() -> Self {
        Seen {
            slots: vec![0; Self::FIRST],
            shift: 64 - Self::FIRST.trailing_zeros(),
            len: 0,
        }
    }

    fn bytes(cap: usize) -> u64 {
        cap as u64 * 8
    }

    /// Where `key`'s probe starts.
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Records `key` as searched with `moves` left; false when it was already searched with
    /// as many.
    #[inline]
    fn visit(&mut self, key: u64, moves: u8) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = key << 8 | moves as u64;
                self.len += 1;
                return true;
            }
            if slot >> 8 == key {
                if (slot & 0xff) as u8 >= moves {
                    return false;
                }
                self.slots[i] = key << 8 | moves as u64;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = self.slots.len() * 4;
        let old = std::mem::replace(
            self,
            Seen {
                slots: vec![0; cap],
                shift: 64 - cap.trailing_zeros(),
                len: 0,
            },
        );
        for slot in old.slots.into_iter().filter(|&s| s != 0) {
            self.visit(slot >> 8, (slot & 0xff) as u8);
        }
    }
}

/// A child of the position being searched: robot `r` slid in direction `d` to `to`, with
/// the child's bound and (where it will look itself up) key.
#[derive(Clone, Copy)]
struct Kid {
    r: u8,
    d: u8,
    to: u16,
    bound: u8,
    key: u64,
}

/// No move led here (the start).
const NONE: (usize, usize) = (usize::MAX, usize::MAX);

/// One search over positions of `N` robots, renumbered so that the goal robots come first:
/// `active` of them, then the helpers.
struct Search<'a, const N: usize> {
    m: &'a SlideModel,
    squares: usize,
    directions: usize,
    active: usize,
    /// `reverse[d]`: the direction opposite `d` (`usize::MAX`: none).
    reverse: Vec<usize>,
    seen: Seen,
    /// The children of the positions on the current line, each position's after its
    /// parent's: one buffer, so no position allocates.
    kids: Vec<Kid>,
    /// The moves from the goal back to the start, robots numbered as here.
    path: Vec<(usize, usize)>,
    budget: &'a mut Budget,
    check_at: u64,
    memory: u64,
    stopped: Option<GaveUp>,
    /// Some position was dropped for its bound at this depth: a deeper search may find more.
    cut: bool,
}

/// Solves `m` under `budget`: the fewest slides to the goal, or a proof there is none.
pub fn solve(m: &SlideModel, budget: &mut Budget) -> SlideResult {
    if m.is_goal(&m.start) {
        return done(Verdict::Solved, Vec::new(), 0);
    }
    let first = m.bound(&m.start);
    if first == FAR {
        return done(
            Verdict::Unsolvable(Some(
                "no robot that may meet the goal can reach the target, even stopping anywhere it passes"
                    .into(),
            )),
            Vec::new(),
            0,
        );
    }
    match m.start.len() {
        1 => run::<1>(m, first, budget),
        2 => run::<2>(m, first, budget),
        3 => run::<3>(m, first, budget),
        4 => run::<4>(m, first, budget),
        5 => run::<5>(m, first, budget),
        6 => run::<6>(m, first, budget),
        7 => run::<7>(m, first, budget),
        8 => run::<8>(m, first, budget),
        n => unreachable!("a slide model holds 1 to 8 robots, not {n}"),
    }
}

fn done(verdict: Verdict, path: Vec<usize>, memory: u64) -> SlideResult {
    SlideResult {
        verdict,
        path,
        memory,
    }
}

/// Iterative deepening from the start's bound `first`, with `N` robots.
fn run<const N: usize>(m: &SlideModel, first: u8, budget: &mut Budget) -> SlideResult {
    // `order` lists the goal robots first: robot `i` here is the model's `order[i]`.
    let robot: [usize; N] = std::array::from_fn(|i| m.order[i]);
    let mut s: [u16; N] = std::array::from_fn(|i| m.start[robot[i]]);
    let directions = m.directions.len();
    // Checked before each node is counted and looked at: a node limit of N lets it look at N.
    let check_at = budget.nodes;
    let mut search = Search::<N> {
        m,
        squares: m.squares(),
        directions,
        active: m.active.iter().filter(|&&a| a).count(),
        reverse: m.reverse.iter().map(|r| r.unwrap_or(usize::MAX)).collect(),
        seen: Seen::new(),
        kids: Vec::with_capacity(32 * N * directions),
        path: Vec::new(),
        budget,
        check_at,
        memory: Seen::bytes(Seen::FIRST),
        stopped: None,
        cut: false,
    };
    let most = m.goal.within.map_or(FAR as u32 - 1, |w| w.min(FAR as u32 - 1));
    let mut depth = first as u32;
    let nodes_before = search.budget.nodes;
    let mut breadth_tried = false;
    while depth <= most {
        search.cut = false;
        let key = search.key(&s);
        let seen = search.seen.len as u64;
        let spent = search.budget.nodes - nodes_before;
        let found = match spent > OVER_AGAIN_AFTER.max(OVER_AGAIN * seen) && !breadth_tried {
            true => {
                breadth_tried = true;
                // Where the positions reachable are many more than the table holds (the
                // bound cuts them well), the search goes on deepening.
                match search.breadth(s, depth, most, (seen * 8).max(OVER_AGAIN_AFTER)) {
                    Ok(Some(found)) => found,
                    Ok(None) => search.dfs(&mut s, depth as u8, first, NONE, key),
                    Err(why) => return done(why, Vec::new(), search.memory),
                }
            }
            false => search.dfs(&mut s, depth as u8, first, NONE, key),
        };
        if found {
            let path = search
                .path
                .iter()
                .rev()
                .map(|&(r, d)| robot[r] * directions + d)
                .collect();
            return done(Verdict::Solved, path, search.memory);
        }
        if let Some(why) = search.stopped.take() {
            // Every depth below this one was searched whole (the first is the start's bound).
            let why = GaveUp::no_line_yet(why, depth);
            return done(Verdict::GaveUp(why), Vec::new(), search.memory);
        }
        if !search.cut {
            let why = super::exhausted(search.seen.len as u64, false, &["a bound on the moves left"]);
            return done(Verdict::Unsolvable(Some(why)), Vec::new(), search.memory);
        }
        depth += 1;
    }
    let why = format!(
        "no solution within {most} move{}",
        if most == 1 { "" } else { "s" }
    );
    done(Verdict::Unsolvable(Some(why)), Vec::new(), search.memory)
}

impl<const N: usize> Search<'_, N> {
    /// Breadth-first from `start` over every position reachable, each met once: whether the
    /// goal is within `most` moves (`path` then holds the fewest, last first), or the verdict
    /// that there is none, or the limit that stopped it; `None` once it has met `cap`
    /// positions. `least`: the moves iterative deepening proved needed.
    fn breadth(&mut self, start: [u16; N], least: u32, most: u32, cap: u64) -> Result<Option<bool>, Verdict> {
        // Each position met, and the one it was met from with the move (robot, direction).
        let mut states: Vec<[u16; N]> = vec![start];
        let mut from: Vec<(u32, u8, u8)> = vec![(u32::MAX, 0, 0)];
        let mut seen: rustc_hash::FxHashSet<u64> = [self.key(&start)].into_iter().collect();
        let mut cut = false;
        let (mut lo, mut depth) = (0, 0u32);
        while lo < states.len() {
            let hi = states.len();
            for i in lo..hi {
                if states.len() as u64 > cap {
                    return Ok(None);
                }
                // Checked every so often, and before this position's children may make a list
                // or the set grow: what they hold, and while one grows, the old and the new.
                let room = 2 * N * self.directions;
                let lists_full = states.len() + room >= states.capacity();
                let set_full = seen.len() + room >= seen.capacity();
                if self.budget.nodes >= self.check_at || lists_full || set_full {
                    let states_bytes = (states.capacity() * std::mem::size_of::<[u16; N]>()) as u64;
                    let from_bytes = (from.capacity() * std::mem::size_of::<(u32, u8, u8)>()) as u64;
                    let held = states_bytes
                        + from_bytes
                        + super::table_bytes::<u64>(seen.capacity())
                        + Seen::bytes(self.seen.slots.len());
                    // The lists double one after the other: a new list twice the old beside it.
                    let lists_ahead = match lists_full {
                        true => (2 * states_bytes).max(states_bytes + 2 * from_bytes),
                        false => 0,
                    };
                    let set_ahead = match set_full {
                        true => super::table_bytes::<u64>(2 * seen.capacity().max(1)),
                        false => 0,
                    };
                    self.memory = self.memory.max(held);
                    self.check_at = self.budget.next_check(CHECK_EVERY);
                    let ahead = (held + lists_ahead + set_ahead).max(self.memory);
                    if let Some(why) = self.budget.exceeded(ahead) {
                        return Err(Verdict::GaveUp(GaveUp::no_line_yet(why, least.max(depth + 1))));
                    }
                }
                self.budget.nodes += 1;
                let mut s = states[i];
                for r in 0..N {
                    let here = s[r];
                    for d in 0..self.directions {
                        let to = self.slide(&s, r, d);
                        if to == here {
                            continue;
                        }
                        s[r] = to;
                        let b = self.least(&s);
                        if b == 0 {
                            self.path = vec![(r, d)];
                            let mut at = i;
                            while from[at].0 != u32::MAX {
                                self.path.push((from[at].1 as usize, from[at].2 as usize));
                                at = from[at].0 as usize;
                            }
                            return Ok(Some(true));
                        }
                        if depth + 1 + b as u32 > most {
                            cut = true;
                        } else if seen.insert(self.key(&s)) {
                            states.push(s);
                            from.push((i as u32, r as u8, d as u8));
                        }
                        s[r] = here;
                    }
                }
            }
            lo = hi;
            depth += 1;
        }
        let why = match (cut, most < FAR as u32 - 1) {
            (true, true) => format!(
                "no solution within {most} move{}",
                if most == 1 { "" } else { "s" }
            ),
            (true, false) => super::exhausted(states.len() as u64, false, &["a bound on the moves left"]),
            (false, _) => super::exhausted(states.len() as u64, false, &[]),
        };
        Err(Verdict::Unsolvable(Some(why)))
    }

    /// Searches `s`, whose bound `bound` is above 0 and at most `left`, the moves it has;
    /// `last` the move that led here, `key` its key where `left` is above 1. On success
    /// `path` holds the moves from here, last first.
    fn dfs(&mut self, s: &mut [u16; N], left: u8, bound: u8, last: (usize, usize), key: u64) -> bool {
        if self.budget.nodes >= self.check_at && !self.check() {
            return false;
        }
        self.budget.nodes += 1;
        if left > 1 && !self.seen.visit(key, left) {
            return false;
        }
        if self.seen.len * 2 > self.seen.slots.len() && !self.grow() {
            return false;
        }
        let first = self.kids.len();
        self.children(s, left, bound, last);
        for i in first..self.kids.len() {
            let k = self.kids[i];
            let (r, d) = (k.r as usize, k.d as usize);
            let found = k.bound == 0 || {
                let from = s[r];
                s[r] = k.to;
                let found = self.dfs(s, left - 1, k.bound, (r, d), k.key);
                s[r] = from;
                found
            };
            if found {
                self.path.push((r, d));
            }
            if found || self.stopped.is_some() {
                self.kids.truncate(first);
                return found;
            }
        }
        self.kids.truncate(first);
        false
    }

    /// Appends the children of `s` worth searching with `left - 1` moves to `kids`, in the
    /// order they are searched (the goal robots first), and asks for their table slots.
    #[inline(always)]
    fn children(&mut self, s: &mut [u16; N], left: u8, bound: u8, last: (usize, usize)) {
        let m = self.m;
        for r in 0..N {
            // With as many moves left as the bound, only a goal robot it bounds may move; a
            // deeper search may move the others.
            if bound == left && !(r < self.active && m.dist[s[r] as usize] == bound) {
                self.cut = true;
                if r >= self.active {
                    break;
                }
                continue;
            }
            let from = s[r];
            for d in 0..self.directions {
                if last.0 == r && self.reverse[last.1] == d {
                    continue;
                }
                let to = self.slide(s, r, d);
                if to == from {
                    continue;
                }
                s[r] = to;
                let b = match r < self.active {
                    false => bound,
                    true if self.active == 1 => m.dist[to as usize],
                    true => self.least(s),
                };
                if b >= left {
                    // Over the moves the child has: dropped, for a deeper search to try.
                    self.cut = true;
                } else {
                    let key = match left > 2 && b > 0 {
                        true => {
                            let key = self.key(s);
                            prefetch(self.seen.slots.as_ptr().wrapping_add(self.seen.home(key)));
                            key
                        }
                        false => 0,
                    };
                    self.kids.push(Kid {
                        r: r as u8,
                        d: d as u8,
                        to,
                        bound: b,
                        key,
                    });
                }
                s[r] = from;
            }
        }
    }

    /// The bound of `s`: the fewest slides any goal robot needs to the target, stopping
    /// anywhere it passes.
    #[inline(always)]
    fn least(&self, s: &[u16; N]) -> u8 {
        s[..self.active]
            .iter()
            .map(|&sq| self.m.dist[sq as usize])
            .min()
            .unwrap_or(FAR)
    }

    /// Where robot `r` stops sliding in direction `d` from `s`: as [`SlideModel::slide`].
    #[inline(always)]
    fn slide(&self, s: &[u16; N], r: usize, d: usize) -> u16 {
        let rays: &[Ray] = &self.m.rays[d * self.squares..(d + 1) * self.squares];
        let from = s[r];
        let ray = rays[from as usize];
        if ray.stop == from {
            return from;
        }
        let mut end = ray.stop;
        let mut limit = rays[end as usize].place;
        for (q, &sq) in s.iter().enumerate() {
            let other = rays[sq as usize];
            if q != r && other.line == ray.line && other.place > ray.place && other.place <= limit {
                limit = other.place - 1;
                end = other.back;
            }
        }
        end
    }

    /// The position's key: the goal robots' squares then the helpers', each group sorted, as
    /// robots of a group move alike and are met alike by the goal, so positions that differ
    /// by which of them stands where are one.
    #[inline(always)]
    fn key(&self, s: &[u16; N]) -> u64 {
        let mut a = *s;
        if self.active == 1 {
            sort(&mut a[1..]);
        } else {
            let (act, help) = a.split_at_mut(self.active);
            sort(act);
            sort(help);
        }
        let bits = self.m.bits;
        a.iter().fold(0u64, |k, &sq| k << bits | sq as u64)
    }

    /// Checks the limits; false (with `stopped` set) when one is reached.
    fn check(&mut self) -> bool {
        self.check_at = self.budget.next_check(CHECK_EVERY);
        match self.budget.exceeded(self.memory) {
            Some(why) => {
                self.stopped = Some(why);
                false
            }
            None => true,
        }
    }

    /// Grows the table fourfold, if the memory limit leaves room for the old and new ones at
    /// once.
    fn grow(&mut self) -> bool {
        let cap = self.seen.slots.len();
        let ahead = Seen::bytes(cap) + Seen::bytes(cap * 4);
        if let Some(why) = self.budget.exceeded(ahead) {
            self.stopped = Some(why);
            return false;
        }
        self.seen.grow();
        self.memory = self.memory.max(Seen::bytes(cap * 4));
        true
    }
}

/// Insertion sort: a group holds a few robots.
#[inline(always)]
fn sort(a: &mut [u16]) {
    for i in 1..a.len() {
        let mut j = i;
        while j > 0 && a[j - 1] > a[j] {
            a.swap(j - 1, j);
            j -= 1;
        }
    }
}
