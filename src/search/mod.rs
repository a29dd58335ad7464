//! Searches over compiled models: depth-first for hop families, breadth-first for tilts.
//!
//! Every search runs on a [`crate::model`] value alone and never calls a script. Each one
//! spends a [`Budget`] so that wall time, node and memory limits end it as `gave_up`.

mod bits;
pub mod count;
pub mod dfs;
pub mod endgame;
pub mod fewest;
pub mod fewest_moves;
pub mod guided;
pub mod invariants;
pub mod meet;
pub mod orbit_pagoda;
pub mod pagoda;
pub mod portfolio;
pub mod symmetry;
pub mod tilt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by Ctrl-C: every running search stops at its next budget check.
pub static CANCELLED: AtomicBool = AtomicBool::new(false);

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

/// How a search ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Solved,
    /// Proven impossible, with the reason where one is known beyond "searched everything".
    Unsolvable(Option<String>),
    /// A limit was reached first; the reason says which.
    GaveUp(GaveUp),
}

/// Why a search stopped before it could answer. `Display` gives the words reports show,
/// e.g. `node limit (1000 nodes)`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GaveUp {
    /// Ctrl-C (see [`CANCELLED`]).
    #[error("interrupted")]
    Interrupted,
    /// The node limit, in nodes.
    #[error("node limit ({0} nodes)")]
    Nodes(u64),
    /// The memory limit, in bytes.
    #[error("memory limit ({})", human_bytes(*.0))]
    Memory(u64),
    #[error("time limit ({:.3} s)", .0.as_secs_f64())]
    Time(Duration),
    /// A count of jump sequences outgrew 128 bits.
    #[error("more than 2^128 jump sequences")]
    Overflow,
    /// A `fewest` search stopped by `stop` with an answer of `best` pegs it could not prove
    /// optimal; `known` says what was proven on the way, if anything.
    #[error("{stop}; best found so far {best} pegs, not proven optimal{}", known.as_ref().map(|k| format!(" ({k})")).unwrap_or_default())]
    Unproven {
        stop: Box<GaveUp>,
        best: u32,
        known: Option<String>,
    },
}

impl GaveUp {
    /// The limit (or Ctrl-C) that stopped the search, under any wrapping.
    pub fn stop(&self) -> &GaveUp {
        match self {
            GaveUp::Unproven { stop, .. } => stop.stop(),
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
}

impl Budget {
    pub fn new(limits: Limits) -> Self {
        Budget {
            limits,
            started: Instant::now(),
            nodes: 0,
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
        }
    }

    /// The node count at which a search should next call [`Budget::exceeded`]: `every` nodes
    /// on, or sooner if the node limit comes first, so that node limits hold exactly while
    /// checks stay rare. A search starts with `nodes + 1`, so that even its first node is
    /// checked (`--max-nodes 0`, `--timeout 0`, Ctrl-C before it started).
    pub fn next_check(&self, every: u64) -> u64 {
        let next = self.nodes.saturating_add(every.max(1));
        self.limits
            .max_nodes
            .map_or(next, |n| next.min(n.max(self.nodes + 1)))
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Checks every limit; `memory` is the search's current estimate of its own tables.
    /// Cheap enough to call every few thousand nodes, not every node.
    pub fn exceeded(&self, memory: u64) -> Option<GaveUp> {
        if CANCELLED.load(Ordering::Relaxed) {
            return Some(GaveUp::Interrupted);
        }
        if let Some(n) = self.limits.max_nodes
            && self.nodes >= n
        {
            return Some(GaveUp::Nodes(n));
        }
        if let Some(m) = self.limits.max_memory
            && memory >= m
        {
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

/// `1536` → `1.5 KiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Bytes a hashbrown table of `capacity` entries of `T` holds, control bytes included.
pub fn table_bytes<T>(capacity: usize) -> u64 {
    (capacity * (std::mem::size_of::<T>() + 1)) as u64
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
}
