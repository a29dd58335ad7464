//! Rule tables memoized by what their script read: a thousand puzzles of one family and shape run the script once.
//!
//! A script sees only the board it is given (see [`super::ScriptBoard`]): its shape (the
//! holes, where they are drawn, the size) and, if it asks, its walls. So its tables are a
//! function of the script's text (named here by its SHA-256, `source`), the sandbox's limits, the board's shape and, only for a
//! script that called `wall(..)` during its run, the walls. Each entry remembers whether its
//! run asked about walls: one that did serves only boards with the same walls; one that did
//! not serves every wall layout of that shape. Failures are never kept: a bad script or
//! drawing is run, and reported, again for each puzzle that names it.
//!
//! The cache is shared by every thread of the process and bounded: past
//! [`MAX_ENTRIES`] tables or [`MAX_RULES`] moves and links in all, it starts afresh.

use super::{RuleTables, ScriptLimits};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Tables kept at most, whatever their size.
pub const MAX_ENTRIES: usize = 4096;
/// Moves and links kept at most over all tables (~100 bytes each: ~20 MB).
pub const MAX_RULES: usize = 200_000;

type Walls = Vec<[[i64; 2]; 2]>;

/// What one script's run on one board depended on, and the tables it gave.
struct Entry {
    /// The walls it was run with, if it asked about them.
    walls: Option<Walls>,
    tables: Arc<RuleTables>,
}

/// One script's tables, by board shape.
struct Script {
    /// The SHA-256 of its text: the text itself, for keeping.
    source: String,
    limits: ScriptLimits,
    shapes: HashMap<Vec<i64>, Vec<Entry>>,
}

/// Tables by a hash of script text and limits (the text itself compared on a hit), then by
/// board shape.
#[derive(Default)]
struct Cache {
    scripts: HashMap<u64, Vec<Script>>,
    entries: usize,
    rules: usize,
}

fn fingerprint(source: &str, limits: &ScriptLimits) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    source.hash(&mut h);
    limits.hash(&mut h);
    h.finish()
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// The tables `source` gave for a board of `shape` and `walls`, if a run that saw the same
/// inputs is kept.
pub fn get(source: &str, limits: &ScriptLimits, shape: &[i64], walls: &Walls) -> Option<Arc<RuleTables>> {
    let cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let script = cache
        .as_ref()?
        .scripts
        .get(&fingerprint(source, limits))?
        .iter()
        .find(|s| s.source == source && s.limits == *limits)?;
    script
        .shapes
        .get(shape)?
        .iter()
        .find(|e| e.walls.as_ref().is_none_or(|w| w == walls))
        .map(|e| e.tables.clone())
}

/// Keeps the tables of a run of `source` on a board of `shape`; `walls` are the board's walls
/// if the run asked about them.
pub fn put(
    source: &str,
    limits: &ScriptLimits,
    shape: Vec<i64>,
    walls: Option<Walls>,
    tables: Arc<RuleTables>,
) {
    let mut guard = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let cache = guard.get_or_insert_with(Cache::default);
    let rules = tables.hops.len() + tables.links.len() + tables.rewrites.len();
    if cache.entries >= MAX_ENTRIES || cache.rules + rules > MAX_RULES {
        *cache = Cache::default();
    }
    cache.entries += 1;
    cache.rules += rules;
    let same = cache.scripts.entry(fingerprint(source, limits)).or_default();
    let at = match same
        .iter()
        .position(|s| s.source == source && s.limits == *limits)
    {
        Some(at) => at,
        None => {
            same.push(Script {
                source: source.to_string(),
                limits: limits.clone(),
                shapes: HashMap::new(),
            });
            same.len() - 1
        }
    };
    same[at]
        .shapes
        .entry(shape)
        .or_default()
        .push(Entry { walls, tables });
}
