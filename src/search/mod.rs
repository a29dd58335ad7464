//! Searches over compiled models: depth-first for hop families, breadth-first for tilts.
//!
//! Every search runs on a [`crate::model`] value alone and never calls a script. Each one
//! spends a [`Budget`] so that wall time, node and memory limits end it as `gave_up`.

pub mod beam;
mod bits;
pub mod count;
pub mod dense;
pub mod dfs;
pub mod endgame;

pub mod fewest_moves;
pub mod guided;
pub mod invariants;
pub mod live;
pub mod meet;
pub mod orbit_pagoda;
pub mod pagoda;
pub mod plan;
pub mod portfolio;
pub mod rewrite;
pub mod slide;
pub mod soldiers;
mod spare;
pub mod symmetry;
pub mod tilt;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::diag::plural;
use crate::process::{CANCELLED, human_bytes, resident_bytes, resident_recent};

/// Limits for one puzzle's search; `None` means unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limits {
    pub timeout: Option<Duration>,
    pub max_nodes: Option<u64>,
    pub max_memory: Option<u64>,
}

impl Limits {
    /// The limits in words, e.g. `timeout 5 s, max nodes 1000, max memory 2.0 GiB`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.timeout {
            parts.push(format!("timeout {} s", t.as_secs_f64()));
        }
        if let Some(n) = self.max_nodes {
            parts.push(format!("max nodes {n}"));
        }
        if let Some(m) = self.max_memory {
            parts.push(format!("max memory {}", human_bytes(m)));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What a `fewest` search counts: pieces of kinds, or pegs.
fn left(pieces: bool) -> &'static str {
    if pieces { "piece" } else { "peg" }
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Solved,
    /// Proven impossible, with the reason where one is known beyond "searched everything".
    Unsolvable(Option<String>),
    /// A limit was reached first; the reason says which.
    GaveUp(GaveUp),
}

/// How positions counted one per symmetry class are said: the symmetries are of the rules
/// (permutations of the cells that map the moves onto themselves), which a board drawn with
/// no symmetry may have, so the count can be below what a reader finds by hand.
pub const ONE_PER_CLASS: &str = " (one per symmetry class: positions the rules' moves treat alike)";

/// Why an exhaustive search (any of them: hop, rewrite, tilt) found no way: it tried `tried` positions (one per symmetry
/// class when `classes`), and `cut` ruled out the others reachable from the start.
pub fn exhausted(tried: u64, classes: bool, cut: &[&str]) -> String {
    let of = if classes { ONE_PER_CLASS } else { "" };
    let rest = match (cut, tried) {
        ([], 1) => "it is the only position reachable from the start".to_string(),
        ([], _) => "they are every position reachable from the start".to_string(),
        (_, _) => format!(
            "every other position reachable from the start was ruled out by {}",
            cut.join(" or ")
        ),
    };
    match tried {
        1 => format!("exhaustive search: the one position tried{of} is not the goal; {rest}"),
        _ => format!("exhaustive search: none of the {tried} positions tried{of} reaches the goal; {rest}"),
    }
}

/// Why a search stopped before it could answer. `Display` gives the words reports show,
/// e.g. `node limit (1000 nodes)`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GaveUp {
    /// Ctrl-C (see [`CANCELLED`]).
    #[error("interrupted")]
    Interrupted,
    /// The node limit, in nodes.
    #[error("node limit ({})", crate::diag::plural(*.0 as usize, "node"))]
    Nodes(u64),
    /// The memory limit, in bytes.
    #[error("memory limit ({})", human_bytes(*.0))]
    Memory(u64),
    #[error("time limit ({:.3} s)", .0.as_secs_f64())]
    Time(Duration),
    /// The memory limit (`limit` bytes) where it bounds the whole process, already passed by
    /// the `held` bytes the process held before the search began (its code, the model, what
    /// the script engine left): no search fits under it.
    #[error("memory limit ({}), below the {} marbles held before the search began", human_bytes(*limit), human_bytes(*held))]
    MemoryHeld { limit: u64, held: u64 },
    /// A count of jump sequences outgrew 128 bits.
    #[error("more than 2^128 jump sequences")]
    Overflow,
    /// A line of `moves` was found whose moves and boards would take about `bytes`, more than
    /// an answer may hold (`most` bytes): it is held, checked and written whole by every report.
    #[error("the line found is {} long: its moves and boards would take ~{}, more than an answer may hold ({})", plural(*moves as usize, "move"), human_bytes(*bytes), human_bytes(*most))]
    AnswerTooLong { moves: u64, bytes: u64, most: u64 },
    /// A `fewest` search stopped by `stop` with an answer of `best` pegs (`pieces`: pieces of
    /// kinds) it could not prove optimal, or none yet (no position it reached meets the rest
    /// of the goal: a peg on its `at:` cell); `floor` is the fewest it proved possible at
    /// best, where it proved one, and `known` says how (the words `best found so far 3 pegs,
    /// at least 2 (…)`, `no line found yet, at least 2 pegs`).
    #[error("{stop}; {}, {}{}", best.map_or_else(|| "no line found yet".to_string(), |b| format!("best found so far {}", plural(b as usize, left(*pieces)))), floor.map_or("not proven the fewest".to_string(), |f| format!("at least {}", if best.is_some() { f.to_string() } else { plural(f as usize, left(*pieces)) })), known.as_ref().map(|k| format!(" ({k})")).unwrap_or_default())]
    Unproven {
        stop: Box<GaveUp>,
        best: Option<u32>,
        floor: Option<u32>,
        known: Option<Box<str>>,
        pieces: bool,
    },
    /// A fewest-moves search stopped by `stop` with a line of `best` moves (none found yet:
    /// `None`), having proven that none has fewer than `least`; under `pegs: fewest`, `pegs`
    /// is the fewest pegs, proven before the moves were searched. The words name what each
    /// number counts: `no line found yet, at least 7 moves; 2 pegs, proven the fewest`.
    #[error("{stop}; {}{}", best.map_or_else(|| format!("no line found yet, at least {}", plural(*least as usize, "move")), |b| format!("best found so far {}, at least {least}", plural(b as usize, "move"))), pegs.map(|p| format!("; {}, proven the fewest", plural(p as usize, "peg"))).unwrap_or_default())]
    UnprovenMoves {
        stop: Box<GaveUp>,
        best: Option<u32>,
        least: u32,
        pegs: Option<u32>,
    },
}

impl GaveUp {
    /// A fewest-moves search stopped by `stop` before any line, having proven `least` moves
    /// needed.
    pub fn no_line_yet(stop: GaveUp, least: u32) -> GaveUp {
        GaveUp::UnprovenMoves {
            stop: Box::new(stop),
            best: None,
            least,
            pegs: None,
        }
    }

    /// The limit (or Ctrl-C) that stopped the search, under any wrapping.
    pub fn stop(&self) -> &GaveUp {
        match self {
            GaveUp::Unproven { stop, .. } | GaveUp::UnprovenMoves { stop, .. } => stop.stop(),
            other => other,
        }
    }
}

/// Tracks one search's spending against its limits.
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    started: Instant,
    pub nodes: u64,
    /// Resident bytes of the process outside the search's tables, counted against the
    /// memory limit with them (see [`Budget::counting_process`]); 0 in a batch.
    outside: u64,
    /// The largest memory figure a check passed: what the search's tables reached. Shared
    /// with the [`Budget::capped`] budgets of its turns.
    peak: Arc<AtomicU64>,
}

impl Budget {
    pub fn new(limits: Limits) -> Self {
        live::publish(0, 0);
        Budget {
            limits,
            started: Instant::now(),
            nodes: 0,
            outside: 0,
            peak: Arc::default(),
        }
    }

    /// Counts what the process holds now (its code, the script engine's leftovers, the
    /// model) against the memory limit too, so that `--max-memory` bounds the whole process:
    /// for commands that search one puzzle. A batch shares one process between jobs, so
    /// there each puzzle's limit bounds its own tables.
    pub fn counting_process(mut self) -> Self {
        // As read at most a millisecond ago: a file of 20,000 tiny cases read `/proc` once a
        // case, an eighth of its time.
        self.outside = resident_recent();
        self
    }

    /// What the process holds now beyond what it held when the search started, where the
    /// limit bounds the whole process ([`Budget::counting_process`]); 0 otherwise. For
    /// searches whose own figures miss what the allocator keeps: pieces freed as many small
    /// buffers grow stay resident (`count --all` held a fifth more than its tables).
    pub fn resident_growth(&self) -> u64 {
        if self.outside == 0 {
            return 0;
        }
        resident_recent().saturating_sub(self.outside)
    }

    /// [`Budget::exceeded`] with `memory` or what the process has grown by, whichever is
    /// more ([`Budget::resident_growth`]).
    pub fn exceeded_or_grown(&self, memory: u64) -> Option<GaveUp> {
        self.exceeded(memory.max(self.resident_growth()))
    }

    /// What the process holds now beyond `memory` (a search's own figure for its tables)
    /// and what it held when the search started: thread stacks and arenas, the small tables
    /// a search does not count, heap the allocator keeps. Read fresh from `/proc`, so for
    /// phase boundaries, not every check; 0 where the limit does not bound the whole process
    /// ([`Budget::counting_process`]).
    pub fn untracked(&self, memory: u64) -> u64 {
        if self.outside == 0 {
            return 0;
        }
        resident_bytes().saturating_sub(self.outside.saturating_add(memory))
    }

    /// The bytes tables may grow by while `held` are held: what [`Room`] hands out.
    pub fn room(&self, held: u64) -> Room {
        let left = self
            .limits
            .max_memory
            .map_or(u64::MAX, |m| m.saturating_sub(self.outside).saturating_sub(held));
        Room {
            left: AtomicU64::new(left),
            limit: self.limits.max_memory.unwrap_or(0),
        }
    }

    /// A budget for part of this search: the same limits and clock, nodes counted on from
    /// here, and at most `nodes` more of them.
    pub fn capped(&self, nodes: u64) -> Budget {
        let cap = self.nodes.saturating_add(nodes);
        Budget {
            limits: Limits {
                max_nodes: Some(self.limits.max_nodes.map_or(cap, |n| n.min(cap))),
                ..self.limits
            },
            started: self.started,
            nodes: self.nodes,
            outside: self.outside,
            peak: Arc::clone(&self.peak),
        }
    }

    /// [`Budget::capped`] to `nodes`, and, if there is a time limit, to `share` of the time
    /// left or to `at_least` of it, whichever is more, but never more than half of it.
    pub fn shared(&self, nodes: u64, share: f64, at_least: Duration) -> Budget {
        let mut part = self.capped(nodes);
        if let Some(t) = self.limits.timeout {
            let now = self.started.elapsed();
            let left = t.saturating_sub(now);
            part.limits.timeout = Some(now + left.mul_f64(share).max(at_least.min(left / 2)));
        }
        part
    }

    /// The node count at which a search should next call [`Budget::exceeded`]: `every` nodes
    /// on, or sooner if the node limit comes first, so that node limits hold exactly while
    /// checks stay rare. A search that looks at one node at a time checks before it counts a
    /// node and looks at it, starting at `nodes`: its first node is checked too (`--max-nodes
    /// 0`, `--timeout 0`, Ctrl-C before it started), and a node limit of N lets it look at N.
    pub fn next_check(&self, every: u64) -> u64 {
        let next = self.nodes.saturating_add(every.max(1));
        self.limits
            .max_nodes
            .map_or(next, |n| next.min(n.max(self.nodes + 1)))
    }

    /// Nodes left before the node limit (`None`: no limit). Phases before a search that are
    /// only worth their work when they end soon (the symmetry fallback) take no more steps.
    pub fn nodes_left(&self) -> Option<u64> {
        self.limits.max_nodes.map(|n| n.saturating_sub(self.nodes))
    }

    /// The most memory the search's tables reached by its own figures: the largest one a
    /// check passed (a figure over the limit was never allocated). Searches that stop on a
    /// limit return no figure of their own; this one still says how far they got.
    pub fn peak_memory(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Checks every limit; `memory` is the search's current estimate of its own tables.
    /// Cheap enough to call every few thousand nodes, not every node.
    pub fn exceeded(&self, memory: u64) -> Option<GaveUp> {
        let over = self
            .limits
            .max_memory
            .is_some_and(|m| memory.saturating_add(self.outside) >= m);
        if !over {
            self.peak.fetch_max(memory, Ordering::Relaxed);
        }
        live::publish(self.nodes, memory);
        if CANCELLED.load(Ordering::Relaxed) {
            return Some(GaveUp::Interrupted);
        }
        if let Some(n) = self.limits.max_nodes
            && self.nodes >= n
        {
            return Some(GaveUp::Nodes(n));
        }
        if let Some(m) = self.limits.max_memory
            && over
        {
            if self.outside >= m {
                return Some(GaveUp::MemoryHeld {
                    limit: m,
                    held: self.outside,
                });
            }
            return Some(GaveUp::Memory(m));
        }
        if let Some(t) = self.limits.timeout
            && self.started.elapsed() >= t
        {
            return Some(GaveUp::Time(t));
        }
        None
    }
}

/// Bytes tables may still take before the memory limit, shared by the threads that fill
/// them: a table takes the bytes of its growth *before* it grows, and gives back what it
/// frees after (reserve, then allocate), so no growth passes the limit.
#[derive(Debug)]
pub struct Room {
    left: AtomicU64,
    limit: u64,
}

impl Room {
    /// Takes `bytes`, or returns false (taking nothing) if fewer are left.
    pub fn take(&self, bytes: u64) -> bool {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(bytes)
            })
            .is_ok()
    }

    pub fn give(&self, bytes: u64) {
        let _ = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left.saturating_add(bytes))
            });
    }

    /// The bytes still left to take.
    pub fn left(&self) -> u64 {
        self.left.load(Ordering::Relaxed)
    }

    /// The reason to give up when a take failed.
    pub fn exhausted(&self) -> GaveUp {
        GaveUp::Memory(self.limit)
    }
}

/// Bytes a hashbrown table holds at `capacity` (as its `capacity()` says): one bucket of `T`
/// and one control byte per bucket (8 buckets hold 7 entries), and a group of control bytes.
pub fn table_bytes<T>(capacity: usize) -> u64 {
    let buckets = match capacity {
        0 => return 0,
        c if c < 8 => c + 1,
        c => c / 7 * 8,
    };
    (buckets * (std::mem::size_of::<T>() + 1) + 16) as u64
}

/// The capacity a hash table of `capacity` grows to when it is full: hashbrown doubles its
/// buckets, 4, 8, 16, … (capacities 3, 7, 14, 28, …).
pub fn grown_capacity(capacity: usize) -> usize {
    match capacity {
        0..3 => 3,
        3..7 => 7,
        c => c / 7 * 8 * 2 / 8 * 7,
    }
}

/// The most a hash table of `T` with `len` entries and room for `capacity` holds while
/// `more` are inserted: when they outgrow it, its old and new allocations at once (both are
/// held while it rehashes). Searches count this at each budget check, so a table stops
/// growing before its next growth could pass the limit.
pub fn table_peak<T>(len: usize, capacity: usize, more: usize) -> u64 {
    let (mut cap, mut peak) = (capacity, table_bytes::<T>(capacity));
    while len.saturating_add(more) > cap {
        let next = grown_capacity(cap);
        peak = table_bytes::<T>(cap) + table_bytes::<T>(next);
        cap = next;
    }
    peak
}

/// [`table_peak`] for a `Vec<T>` pushed one at a time (its capacity doubles).
pub fn vec_peak<T>(len: usize, capacity: usize, more: usize) -> u64 {
    let size = std::mem::size_of::<T>() as u64;
    let (mut cap, mut peak) = (capacity, capacity as u64 * size);
    while len.saturating_add(more) > cap {
        let next = (cap * 2).max(4);
        peak = (cap + next) as u64 * size;
        cap = next;
    }
    peak
}

/// The nodes a node limit leaves to the threads of one parallel loop, claimed a few at a time
/// before they are taken: together the threads take no more than the limit allows, however
/// the work falls between them (each checking after its own count alone took one node past
/// the limit a thread, and thousands where a check came every 4,096).
pub struct Claims {
    left: AtomicU64,
    limit: u64,
}

impl Claims {
    pub fn new(budget: &Budget) -> Claims {
        Claims {
            left: AtomicU64::new(budget.nodes_left().unwrap_or(u64::MAX)),
            limit: budget.limits.max_nodes.unwrap_or(u64::MAX),
        }
    }

    /// Lets a thread that holds `held` claimed nodes take one: when it holds none, first
    /// `refill` (which counts what the thread took and checks the budget), then a claim of up
    /// to `every`; the node limit's stop, made by `over`, when none is left.
    #[inline]
    pub fn take<E>(
        &self,
        held: &mut u64,
        every: u64,
        refill: impl FnOnce() -> Result<(), E>,
        over: impl FnOnce(GaveUp) -> E,
    ) -> Result<(), E> {
        if *held == 0 {
            refill()?;
            // Near the limit a claim is a share of what is left, so that a thread finding none
            // left stops with little taken from the others' claims.
            let size = |left: u64| every.min(left.div_ceil(2 * rayon::current_num_threads() as u64));
            let claimed = self
                .left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                    (left > 0).then(|| left - size(left))
                });
            *held = claimed.map_or(0, size);
            if *held == 0 {
                return Err(over(GaveUp::Nodes(self.limit)));
            }
        }
        *held -= 1;
        Ok(())
    }

    /// Gives back the nodes a thread claimed and did not take.
    pub fn give_back(&self, held: u64) {
        self.left.fetch_add(held, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gave_up_reads_as_reports_have_always_said() {
        assert_eq!(GaveUp::Interrupted.to_string(), "interrupted");
        assert_eq!(GaveUp::Nodes(1000).to_string(), "node limit (1000 nodes)");
        assert_eq!(
            GaveUp::Time(Duration::from_secs(1)).to_string(),
            "time limit (1.000 s)"
        );
        assert_eq!(GaveUp::Memory(2 << 30).to_string(), "memory limit (2.0 GiB)");
        assert_eq!(GaveUp::Overflow.to_string(), "more than 2^128 jump sequences");
    }

    #[test]
    fn a_share_of_the_time_is_at_least_its_floor_and_at_most_half() {
        let part = |secs: u64| {
            let b = Budget::new(Limits {
                timeout: Some(Duration::from_secs(secs)),
                ..Limits::default()
            });
            let t = b.shared(1, 0.1, Duration::from_secs(2)).limits.timeout.unwrap();
            (t.as_secs_f64() * 10.0).round() / 10.0
        };
        // A tenth of 60 s; two seconds of 5; half of 1.
        assert_eq!([part(60), part(5), part(1)], [6.0, 2.0, 0.5]);
    }

    #[test]
    fn table_peaks_follow_hashbrown_growth() {
        // Measured against the table itself: the capacities it grows through, and that a
        // table with room left counts no growth.
        let mut set: rustc_hash::FxHashSet<u64> = Default::default();
        let mut seen = vec![set.capacity()];
        for i in 0..1000u64 {
            let before = set.capacity();
            if set.len() == before {
                let peak = table_peak::<u64>(set.len(), before, 1);
                set.insert(i);
                assert_eq!(
                    peak,
                    table_bytes::<u64>(before) + table_bytes::<u64>(set.capacity())
                );
                seen.push(set.capacity());
            } else {
                assert_eq!(
                    table_peak::<u64>(set.len(), before, 1),
                    table_bytes::<u64>(before)
                );
                set.insert(i);
            }
        }
        assert_eq!(seen, [0, 3, 7, 14, 28, 56, 112, 224, 448, 896, 1792]);
        let room = Budget::new(Limits {
            max_memory: Some(100),
            ..Limits::default()
        })
        .room(40);
        assert!(room.take(60) && !room.take(1));
        room.give(10);
        assert!(!room.take(11) && room.take(10));
    }
}
