//! Whether what one puzzle computed may be served to the next: rule tables, scripts found, symmetry groups.
//!
//! Each of those is kept by everything it depends on (see `script::cache`,
//! `script::resolve`, `search::symmetry`), so serving it again changes no answer. Setting
//! `MARBLES_NO_CACHE` (to anything) computes everything afresh for every puzzle: the tests
//! use it to check that cached and uncached runs answer alike, and a user who suspects a
//! cache can do the same.

use std::sync::OnceLock;

/// False when `MARBLES_NO_CACHE` is set.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("MARBLES_NO_CACHE").is_none())
}
