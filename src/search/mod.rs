//! Searches over compiled models: depth-first for hop families, breadth-first for tilts.
//!
//! Every search runs on a [`crate::model`] value alone and never calls a script. Each one
//! spends a [`Budget`] so that wall time, node and memory limits end it as `gave_up`.

pub mod bench;
pub mod count;
pub mod dfs;
pub mod endgame;
pub mod fewest;
pub mod guided;
pub mod invariants;
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
    GaveUp(String),
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

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Checks every limit; `memory` is the search's current estimate of its own tables.
    /// Cheap enough to call every few thousand nodes, not every node.
    pub fn exceeded(&self, memory: u64) -> Option<String> {
        if CANCELLED.load(Ordering::Relaxed) {
            return Some("interrupted".into());
        }
        if let Some(n) = self.limits.max_nodes
            && self.nodes >= n
        {
            return Some(format!("node limit ({n} nodes)"));
        }
        if let Some(m) = self.limits.max_memory
            && memory >= m
        {
            return Some(format!("memory limit ({})", human_bytes(m)));
        }
        if let Some(t) = self.limits.timeout
            && self.started.elapsed() >= t
        {
            return Some(format!("time limit ({:.3} s)", t.as_secs_f64()));
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
