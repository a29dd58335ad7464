//! What the running searches have done so far, for progress lines: each thread's search
//! publishes its nodes and memory at its budget checks (every few thousand nodes, never on
//! the hot path), and a progress line sums them.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Threads beyond this share slots (their figures then overwrite each other's: a progress
/// line is an estimate).
const SLOTS: usize = 64;

struct Slot {
    nodes: AtomicU64,
    memory: AtomicU64,
}

static SLOT: [Slot; SLOTS] = [const {
    Slot {
        nodes: AtomicU64::new(0),
        memory: AtomicU64::new(0),
    }
}; SLOTS];
static NEXT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static MINE: Cell<Option<usize>> = const { Cell::new(None) };
}

fn mine() -> &'static Slot {
    let i = MINE.with(|m| {
        m.get().unwrap_or_else(|| {
            let i = NEXT.fetch_add(1, Ordering::Relaxed) % SLOTS;
            m.set(Some(i));
            i
        })
    });
    &SLOT[i]
}

/// This thread's search has tried `nodes` and holds `memory` bytes of tables.
pub fn publish(nodes: u64, memory: u64) {
    let s = mine();
    s.nodes.store(nodes, Ordering::Relaxed);
    s.memory.store(memory, Ordering::Relaxed);
}

/// The nodes and memory of every search running now, summed.
pub fn total() -> (u64, u64) {
    SLOT.iter().fold((0, 0), |(n, m), s| {
        (
            n + s.nodes.load(Ordering::Relaxed),
            m + s.memory.load(Ordering::Relaxed),
        )
    })
}
