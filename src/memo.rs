//! Whether what one puzzle computed may be served to the next: rule tables, scripts found, symmetry groups, finish tables.
//!
//! Each of those is kept by everything it depends on (see `script::cache`,
//! `script::resolve`, `search::symmetry`, `search::endgame::Endgame::shared`), so serving it
//! again changes no answer: verdicts, moves and node counts are the same. What a puzzle's
//! statistics say of time and of the bytes its tables reached (`stats.memory_bytes`) may
//! differ when a table it would have built was served instead. One table also changes node
//! counts: `search::dense`'s values of small `pegs: fewest` boards, shared by every board of a
//! shape, spare a board the nodes of the positions earlier boards valued (its verdict, moves
//! and pegs are the same; a node limit sends a board to the searches that count alike). Setting
//! `MARBLES_NO_CACHE` (to anything) computes everything afresh for every puzzle: the tests
//! use it to check that cached and uncached runs answer alike, and a user who suspects a
//! cache can do the same.

use std::sync::OnceLock;

/// False when `MARBLES_NO_CACHE` is set.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("MARBLES_NO_CACHE").is_none())
}

/// A bounded table of what earlier puzzles computed, shared by every thread: served only
/// while [`enabled`], started afresh once it holds `max` entries (so it stays small whatever
/// the number of puzzles).
pub struct Kept<K, V> {
    map: std::sync::Mutex<Option<rustc_hash::FxHashMap<K, V>>>,
    max: usize,
}

impl<K: std::hash::Hash + Eq, V: Clone> Kept<K, V> {
    pub const fn new(max: usize) -> Self {
        Kept {
            map: std::sync::Mutex::new(None),
            max,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<rustc_hash::FxHashMap<K, V>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The value kept for `key`, if any (never while caching is off).
    pub fn get(&self, key: &K) -> Option<V> {
        if !enabled() {
            return None;
        }
        self.lock().as_ref()?.get(key).cloned()
    }

    /// Keeps `value` for `key` (nothing while caching is off).
    pub fn put(&self, key: K, value: V) {
        if !enabled() {
            return;
        }
        let mut guard = self.lock();
        let map = guard.get_or_insert_with(Default::default);
        if map.len() >= self.max {
            map.clear();
        }
        map.insert(key, value);
    }
}
