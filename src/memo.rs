//! Whether what one puzzle computed may be served to the next: rule tables, scripts found, symmetry groups, finish tables.
//!
//! Each of those is kept by everything it depends on (see `script::cache`,
//! `script::resolve`, `search::symmetry`, `search::endgame::Endgame::shared`), so serving it
//! again changes no answer: verdicts, moves and node counts are the same. What a puzzle's
//! statistics say of time and of the bytes its tables reached (`stats.memory_bytes`) may
//! differ when a table it would have built was served instead. Setting
//! `MARBLES_NO_CACHE` (to anything) computes everything afresh for every puzzle: the tests
//! use it to check that cached and uncached runs answer alike, and a user who suspects a
//! cache can do the same.

use std::sync::OnceLock;

/// False when `MARBLES_NO_CACHE` is set.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("MARBLES_NO_CACHE").is_none())
}
