//! A counting global allocator: while a rule script runs, the bytes its thread holds are counted.
//!
//! Rhai's own limits count items (array elements, map entries, string bytes, each value on
//! its own), so curried function pointers, many copies of one big array, or what `print`
//! buffers escaped them into gigabytes. Counting at the allocator bounds what a script holds
//! in bytes, whatever holds them, and the stack dropping them takes (see `DROP_RESERVE`).
//! Counting is per thread and only switched on by a [`Metered`] guard, on the dedicated thread
//! a script runs on (see `sandbox`), so searches pay one thread-local read per allocation and
//! nothing more.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Stack counted with each allocation a metered thread holds. Values nested through
/// allocations (a closure capturing a closure, arrays in arrays) are dropped by recursion, a
/// few frames of stack a level, which no allocator sees: a chain of closures takes three
/// allocations and 280 bytes of stack a link, so 500,000 links, 57 MB counted, peaked at
/// 206 MB. A nested level takes at least one allocation, so its stack is counted too; a rule
/// table of [`crate::limits::MAX_RULE_MOVES`] jumps still fits the script's 64 MiB.
pub const DROP_RESERVE: u64 = 96;

/// The system allocator, counting the bytes of metered threads.
pub struct Counting;

thread_local! {
    static METERED: Cell<bool> = const { Cell::new(false) };
    /// Bytes allocated minus bytes freed on this thread since metering began.
    static HELD: Cell<i64> = const { Cell::new(0) };
}

#[inline]
fn track(delta: i64) {
    // `try_with`: a thread being torn down may still free memory.
    let _ = METERED.try_with(|m| {
        if m.get() {
            HELD.with(|h| h.set(h.get() + delta));
        }
    });
}

// SAFETY: every call is passed straight to `System`; counting only reads and writes
// thread-locals that are const-initialised and have no destructor, so it never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        track((layout.size() as u64 + DROP_RESERVE) as i64);
        // SAFETY: the caller's contract is System's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        track((layout.size() as u64 + DROP_RESERVE) as i64);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-((layout.size() as u64 + DROP_RESERVE) as i64));
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        track(new_size as i64 - layout.size() as i64);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Counts this thread's allocations from its creation until it is dropped.
pub struct Metered(());

impl Metered {
    pub fn start() -> Self {
        HELD.with(|h| h.set(0));
        METERED.with(|m| m.set(true));
        Metered(())
    }

    /// Bytes this thread holds now beyond what it held at [`Metered::start`].
    pub fn held(&self) -> u64 {
        held()
    }
}

/// Runs `f` with this thread's counting off: what it allocates, and what it frees, is not
/// counted (a copy of a run's result made to outlive the run, say).
pub fn paused<T>(f: impl FnOnce() -> T) -> T {
    let was = METERED.with(|m| m.replace(false));
    let out = f();
    METERED.with(|m| m.set(was));
    out
}

/// Bytes the current thread holds beyond what it held when metering began (0 if unmetered).
pub fn held() -> u64 {
    HELD.with(|h| h.get().max(0) as u64)
}

impl Drop for Metered {
    fn drop(&mut self) {
        METERED.with(|m| m.set(false));
    }
}
