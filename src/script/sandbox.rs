//! The sandboxed Rhai engine: no disk, no `import`, no `eval`, bounded work, memory and time.

use super::{Script, ScriptBoard};
use crate::diag::{Diagnostic, Result};
use crate::lattice::Misfit;
use crate::limits::MAX_RULE_MOVES;
use rhai::{AST, Dynamic, Engine, EvalAltResult, NativeCallContext, Position, Scope};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Termination tokens: which limit stopped a script from inside `on_progress`.
const MEMORY: &str = "memory";
const PRINTED: &str = "printed";
const INTERRUPTED: &str = "interrupted";
const OPERATIONS: &str = "operations";
const DEADLINE: &str = "deadline";
const STOPS: [&str; 5] = [OPERATIONS, MEMORY, PRINTED, INTERRUPTED, DEADLINE];
/// How a puzzle's give-up says the run's limit or Ctrl-C stopped its rule script, not a search.
pub const IN_SCRIPT: &str = "while the rule script built the board";
use std::time::{Duration, Instant};

/// How much a rule script may do before it is stopped.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScriptLimits {
    /// Rhai operations (roughly: expressions evaluated).
    pub max_operations: u64,
    /// Wall-clock time for the whole script run.
    pub timeout: Duration,
    pub max_call_levels: usize,
    pub max_expr_depth: usize,
    /// Elements in any one array, entries in any one map, bytes in any one string.
    pub max_array: usize,
    pub max_map: usize,
    pub max_string: usize,
    /// Bytes the script's thread may hold, whatever holds them (see [`super::alloc`]).
    pub max_bytes: u64,
    /// `max_bytes` is the run's memory limit (`--max-memory` below the script's own): a
    /// script stopped by it has the puzzle give up, as its search would, instead of failing.
    pub run_bytes: bool,
    /// Bytes of `print` and `debug` output kept.
    pub max_printed: usize,
}

/// The script thread's stack: room to walk and drop arrays nested as deep as `max_array`
/// lets a script build them (each level costs a few hundred bytes of stack in debug builds).
pub const STACK_BYTES: usize = 256 << 20;

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            max_operations: 50_000_000,
            timeout: Duration::from_secs(2),
            max_call_levels: 48,
            max_expr_depth: 64,
            // Rhai counts these over a whole value, nested ones included: a rule table of
            // `MAX_RULE_MOVES` moves (each a map of 4 entries, 6 array items and a short
            // direction name) must fit, so that the table's own limit is the one reached.
            max_array: 200_000,
            max_map: 5 * MAX_RULE_MOVES,
            max_string: 256 * 1024,
            max_bytes: 64 << 20,
            run_bytes: false,
            max_printed: 1 << 20,
        }
    }
}

/// The instant script deadlines are counted from: the first time one is asked for.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `t` in nanoseconds after [`epoch`] (0 before it).
fn since_epoch(t: Instant) -> u64 {
    t.saturating_duration_since(epoch())
        .as_nanos()
        .min(u128::from(u64::MAX)) as u64
}

/// What one run of a script has used so far, read by the engine's callbacks: an engine is
/// built once per thread and serves every run on it, so each run resets this.
struct Run {
    /// Operations of this run, every one counted here: Rhai's own count (what `on_progress`
    /// is handed) starts again from the caller's in each closure a built-in calls (`map`,
    /// `sort`, …: each call runs on a copy of the count, dropped after it), so a short closure
    /// called millions of times never reached Rhai's limit nor a multiple that looks at the
    /// clock. Only this run's thread touches it: a plain load and store, no locked add.
    operations: AtomicU64,
    /// What earlier runs of this script left held (see [`LEFT_HELD`]).
    left_before: AtomicU64,
    /// The limit that stopped this run, once one has: every operation after it stops at
    /// once. Rhai's `sort` and `dedup` swallow their comparer's errors and carry on; a
    /// built-in that did the same with a limit's stop would otherwise run each of its
    /// remaining calls up to the next check.
    /// 0 until then, else 1 + the limit's place in [`STOPS`].
    stopped: AtomicUsize,
    /// When the run must end, in nanoseconds after [`epoch`]: read without a lock.
    deadline: AtomicU64,
    printed: Mutex<Vec<String>>,
    printed_bytes: AtomicUsize,
}

impl Run {
    fn new() -> Self {
        Run {
            operations: AtomicU64::new(0),
            left_before: AtomicU64::new(0),
            stopped: AtomicUsize::new(0),
            deadline: AtomicU64::new(0),
            printed: Mutex::new(Vec::new()),
            printed_bytes: AtomicUsize::new(0),
        }
    }

    /// Counts one operation; the limit it passes, if any (or the one passed before).
    fn limit_reached(&self, max_operations: u64, max_bytes: u64, max_printed: usize) -> Option<&'static str> {
        if let Some(i) = self.stopped.load(Ordering::Relaxed).checked_sub(1) {
            return Some(STOPS[i]);
        }
        let ops = self.operations.load(Ordering::Relaxed) + 1;
        self.operations.store(ops, Ordering::Relaxed);
        if ops > max_operations {
            return Some(OPERATIONS);
        }
        let left = self.left_before.load(Ordering::Relaxed);
        if super::alloc::held() + left > max_bytes
            || LEFT_HELD.load(Ordering::Relaxed) > LEFT_TOTAL_TIMES * max_bytes
        {
            return Some(MEMORY);
        }
        if self.printed_bytes.load(Ordering::Relaxed) > max_printed {
            return Some(PRINTED);
        }
        // Every operation: one built-in call may take tens of milliseconds (a sort of 200,000
        // items), so looking only every 256 of them let Ctrl-C and the deadline wait seconds.
        if crate::process::CANCELLED.load(Ordering::Relaxed) {
            return Some(INTERRUPTED);
        }
        if !ops.is_multiple_of(64) {
            return None;
        }
        (since_epoch(Instant::now()) > self.deadline.load(Ordering::Relaxed)).then_some(DEADLINE)
    }

    fn start(&self, timeout: Duration) {
        self.operations.store(0, Ordering::Relaxed);
        self.stopped.store(0, Ordering::Relaxed);
        self.deadline
            .store(since_epoch(Instant::now() + timeout), Ordering::Relaxed);
        self.printed.lock().unwrap().clear();
        self.printed_bytes.store(0, Ordering::Relaxed);
    }
}

/// Replaces Rhai's built-in `name`, taking one argument of each type listed, by an error
/// saying it is not available.
macro_rules! unavailable {
    ($e:expr, $name:expr, $($arg:ty),+) => {
        $({
            let name: &'static str = $name;
            $e.register_fn(name, move |_: $arg| -> Called<()> {
                Err(format!("`{name}` is not available to rule scripts").into())
            });
        })+
    };
}

fn engine(limits: &ScriptLimits, run: Arc<Run>) -> Engine {
    // Rhai hashes with a seed drawn per process unless one is set, and a script can see
    // those hashes (the names of its closures, `anon$…`; the order of
    // `get_fn_metadata_list()`): a fixed seed makes them the same in every run. Set once,
    // before the first engine; a second call finds it set, which is as good.
    let _ = rhai::config::hashing::set_hashing_seed(Some(HASHING_SEED));
    let mut e = Engine::new();
    e.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    e.disable_symbol("eval");
    // Rhai's optimizer folds constants as it compiles, before any limit, the clock or Ctrl-C
    // is watched: `const A1 = [A0, A0];` twenty times over doubles its work each line. Every
    // expression is left to the run, where each operation and byte is counted.
    e.set_optimization_level(rhai::OptimizationLevel::None);
    // No `set_max_operations`: Rhai's count misses closures called by built-ins; the
    // progress callback below counts every operation against the limit.
    e.set_max_call_levels(limits.max_call_levels);
    e.set_max_expr_depths(limits.max_expr_depth, limits.max_expr_depth);
    e.set_max_array_size(limits.max_array);
    e.set_max_map_size(limits.max_map);
    e.set_max_string_size(limits.max_string);
    e.set_max_variables(10_000);
    e.set_max_functions(1_000);
    // Built-ins audited for blocking or unchecked allocation (Rhai 1.27, `Engine::new`):
    // `sleep` blocked past the deadline, so it is replaced by an error below; `print` and
    // `debug` buffered without bound, so output past `max_printed` stops the script;
    // `Fn.curry`, `FnPtr` captures and copies of values are outside Rhai's size checks, so the
    // thread's bytes are metered (see `super::alloc`) and checked on every operation. Every
    // other built-in either is pure, works within the array/map/string checks (`blob`,
    // `+`, a string's `pad`; an array's `pad` is replaced below), or is lazy (`range`). No
    // file, network, process, `import` or `eval` exists.
    // `to_json` wrote a whole map, function pointers' captures and all, at once and without
    // a bound, and recursed through a map that holds itself until the stack overflowed;
    // `parse_json` is its other half. Neither is needed to build a family's tables.
    for name in ["to_json", "parse_json"] {
        unavailable!(e, name, rhai::Map, rhai::ImmutableString);
    }
    // `replace` built its whole result in one call, past the string limit (a 2 KiB
    // substitute for each of 262,000 characters is half a gigabyte): its size is worked
    // out first.
    let most = limits.max_string;
    e.register_fn(
        "replace",
        move |s: &mut rhai::ImmutableString, find: &str, with: &str| replaced(s, find, with, most),
    );
    e.register_fn(
        "replace",
        move |s: &mut rhai::ImmutableString, find: &str, with: char| {
            replaced(s, find, with.encode_utf8(&mut [0; 4]), most)
        },
    );
    e.register_fn(
        "replace",
        move |s: &mut rhai::ImmutableString, find: char, with: &str| {
            replaced(s, find.encode_utf8(&mut [0; 4]), with, most)
        },
    );
    e.register_fn(
        "replace",
        move |s: &mut rhai::ImmutableString, find: char, with: char| {
            replaced(
                s,
                find.encode_utf8(&mut [0; 4]),
                with.encode_utf8(&mut [0; 4]),
                most,
            )
        },
    );
    // An array's `pad` makes one copy of its item for every place it adds, in one call,
    // before any operation is counted: Rhai checks the items a copy holds, not what it costs
    // (a function pointer's curried arguments and a map's keys count nothing), and 190,000
    // copies of a function pointer carrying 100,000 items asked for 300 GB at once and
    // aborted the process. The bytes of its new places and copies are worked out first,
    // against the bytes left.
    let (room, items, stop) = (limits.max_bytes, limits.max_array, run.clone());
    e.register_fn(
        "pad",
        move |array: &mut rhai::Array, len: rhai::INT, item: Dynamic| -> Called<()> {
            let Ok(len) = usize::try_from(len) else {
                return Ok(());
            };
            if len <= array.len() {
                return Ok(());
            }
            // Rhai's own check, before: the items nested in the copies are counted after.
            if len > items {
                let what = "Size of array/BLOB".to_string();
                return Err(EvalAltResult::ErrorDataTooLarge(what, Position::NONE).into());
            }
            let more = (len - array.len()) as u64;
            let held = super::alloc::held() + stop.left_before.load(Ordering::Relaxed);
            let left = room.saturating_sub(held);
            // The array's new places, then what each copy allocates.
            let mut need = len as u64 * std::mem::size_of::<Dynamic>() as u64;
            let mut each = 0;
            copy_bytes(&item, left / more + 1, &mut each);
            need = need.saturating_add(more.saturating_mul(each));
            if need > left {
                let place = STOPS.iter().position(|&s| s == MEMORY).expect("a stop");
                stop.stopped.store(place + 1, Ordering::Relaxed);
                return Err(EvalAltResult::ErrorTerminated(MEMORY.into(), Position::NONE).into());
            }
            array.resize(len, item);
            Ok(())
        },
    );
    #[allow(clippy::single_element_loop)] // a list, for whatever a later Rhai adds
    for name in ["sleep"] {
        unavailable!(e, name, rhai::INT, rhai::FLOAT);
    }
    // A rule script is a function of its text and the board: the same text must build the
    // same tables (cached answers, `--resume` and shards rely on it). The clock is the one
    // source of anything else among Rhai's built-ins (`timestamp()`, and `elapsed` and the
    // arithmetic of the instants it gives); there is no randomness, and maps iterate in key
    // order. `timestamp` is the only way to an instant, so it is the one replaced.
    e.register_fn(
        "timestamp",
        || -> std::result::Result<(), Box<EvalAltResult>> {
            Err("`timestamp` is not available to rule scripts: a rule script must build the same tables from the same text and board".into())
        },
    );
    let max_bytes = limits.max_bytes;
    let max_printed = limits.max_printed;
    let max_operations = limits.max_operations;
    let progress = run.clone();
    // Reading the clock on every operation cost ~12 % of a small puzzle's whole run: it is
    // read every 64 operations. The byte count and Ctrl-C are a thread-local read and an
    // atomic load: every operation.
    e.on_progress(move |_| {
        let why = progress.limit_reached(max_operations, max_bytes, max_printed)?;
        let place = STOPS.iter().position(|&s| s == why).expect("a stop");
        progress.stopped.store(place + 1, Ordering::Relaxed);
        Some(Dynamic::from(why))
    });
    let keep = move |run: &Run, line: String| {
        if run.printed_bytes.fetch_add(line.len(), Ordering::Relaxed) + line.len() <= max_printed {
            run.printed.lock().unwrap().push(line);
        }
    };
    let p = run.clone();
    e.on_print(move |s| keep(&p, s.to_string()));
    e.on_debug(move |s, _src, pos| {
        let at = pos.line().map(|l| format!("line {l}: ")).unwrap_or_default();
        keep(&run, format!("{at}{s}"));
    });
    // Rhai's `print`, `debug`, `to_string` and `to_debug` for arrays and maps (which `+` and
    // string interpolation call too) build the whole text first: cut it under the string
    // limit, the longest string a script may hold anyway. Registered functions come before
    // the packages.
    let cap = limits.max_string.saturating_sub(64);
    for name in ["print", "debug", "to_string", "to_debug"] {
        e.register_fn(name, move |m: rhai::Map| bounded(cap, format_args!("#{m:?}")));
        e.register_fn(name, move |a: rhai::Array| bounded(cap, format_args!("{a:?}")));
    }
    for name in ["sort", "sort_by"] {
        e.register_fn(name, sort_by);
    }
    e.register_fn("dedup", dedup_by);
    ScriptBoard::register(&mut e);
    e
}

type Called<T> = std::result::Result<T, Box<EvalAltResult>>;

/// The bytes one more copy of `v` allocates, added to `total` until it passes `most`: a
/// copy shares strings and what closures capture, and copies arrays, blobs, maps (their
/// keys too) and function pointers (their curried arguments too), each allocation with the
/// stack its drop may take (`super::alloc`). Recursive, as dropping such a value is: the
/// script thread's stack has room for values nested as deep as their items allow.
fn copy_bytes(v: &Dynamic, most: u64, total: &mut u64) {
    const SLOT: u64 = std::mem::size_of::<Dynamic>() as u64;
    let alloc = |bytes: u64| bytes + super::alloc::DROP_RESERVE;
    if *total > most || v.is_shared() || v.is_string() {
        return;
    }
    if let Ok(a) = v.as_array_ref() {
        *total += alloc(24) + alloc(SLOT * a.len() as u64);
        a.iter().for_each(|x| copy_bytes(x, most, total));
    } else if let Ok(b) = v.as_blob_ref() {
        *total += alloc(24) + alloc(b.len() as u64);
    } else if let Ok(m) = v.as_map_ref() {
        // Each entry a key (on the heap past 23 bytes) and a value, a few to a tree node.
        *total += alloc(24) + m.len() as u64 * alloc(24 + SLOT);
        *total += m.keys().map(|k| k.len() as u64).filter(|&n| n > 23).sum::<u64>();
        m.values().for_each(|x| copy_bytes(x, most, total));
    } else if let Some(f) = v.read_lock::<rhai::FnPtr>() {
        *total += alloc(std::mem::size_of::<rhai::FnPtr>() as u64) + alloc(SLOT * f.curry().len() as u64);
        f.curry().iter().for_each(|x| copy_bytes(x, most, total));
    }
}

/// Rhai's `string.replace(find, with)`, refused when the result would be longer than `most`
/// bytes, the string limit, before it is built.
fn replaced(s: &mut rhai::ImmutableString, find: &str, with: &str, most: usize) -> Called<()> {
    if s.is_empty() {
        return Ok(());
    }
    let times = match find.is_empty() {
        // An empty `find` matches before every character and at the end.
        true => s.chars().count() + 1,
        false => s.matches(find).count(),
    };
    let len = (s.len() - times * find.len()).saturating_add(times.saturating_mul(with.len()));
    if len > most {
        return Err(EvalAltResult::ErrorDataTooLarge("Length of string".into(), rhai::Position::NONE).into());
    }
    *s = s.replace(find, with).into();
    Ok(())
}

/// Rhai's `sort(comparer)`, except that an error in the comparer (a limit's stop among them)
/// ends the sort and is the call's error: Rhai's own takes it for "in order" and sorts on,
/// calling the comparer again for every comparison left.
fn sort_by(ctx: NativeCallContext, array: &mut rhai::Array, comparer: rhai::FnPtr) -> Called<()> {
    let mut failed = None;
    let sorted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        array.sort_by(|x, y| {
            if failed.is_some() {
                return std::cmp::Ordering::Equal;
            }
            match comparer.call_raw(&ctx, None, [x.clone(), y.clone()]) {
                Ok(v) => match v
                    .as_int()
                    .or_else(|_| v.as_bool().map(|b| if b { -1 } else { 1 }))
                {
                    Ok(n) => n.cmp(&0),
                    Err(_) => x.type_id().cmp(&y.type_id()),
                },
                Err(e) => {
                    failed = Some(e);
                    std::cmp::Ordering::Equal
                }
            }
        })
    }));
    match (failed, sorted) {
        (Some(e), _) => Err(e),
        // `slice::sort_by` may panic on a comparer that is no total order, as in Rhai.
        (None, Err(_)) => Err("error in comparer for sorting".into()),
        (None, Ok(())) => Ok(()),
    }
}

/// Rhai's `dedup(comparer)`, except that an error in the comparer ends it and is the call's
/// error (Rhai's own takes it for "not equal" and goes on).
fn dedup_by(ctx: NativeCallContext, array: &mut rhai::Array, comparer: rhai::FnPtr) -> Called<()> {
    let mut failed = None;
    array.dedup_by(|x, y| {
        failed.is_none()
            && match comparer.call_raw(&ctx, None, [y.clone(), x.clone()]) {
                Ok(v) => v.as_bool().unwrap_or(false),
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
    });
    failed.map_or(Ok(()), Err)
}

/// A thread's engine, built for one set of limits, and the scripts it has compiled.
/// Building an engine (registering every built-in function) took ~1 ms, nearly all of a
/// small puzzle's time when it was done for each one.
struct Engines {
    limits: ScriptLimits,
    engine: Engine,
    run: Arc<Run>,
    /// Compiled scripts by the SHA-256 of their text; cleared when it holds [`MAX_COMPILED`].
    compiled: HashMap<String, Arc<AST>>,
}

/// Rhai's hashing seed, fixed (any value will do, so long as it never changes).
const HASHING_SEED: [u64; 4] = [0x6d61_7262_6c65_7321, 1, 2, 3];

/// The longest rule script compiled, in bytes: the shipped ones are 2–4 KB.
pub const MAX_SCRIPT_BYTES: usize = 64 << 10;

/// Scripts a thread keeps compiled.
const MAX_COMPILED: usize = 64;

thread_local! {
    static ENGINES: RefCell<Option<Engines>> = const { RefCell::new(None) };
}

/// Bytes of a script value an error message shows.
pub const SHOWN_BYTES: usize = 1024;

/// A writer that takes at most `left` more bytes, then fails, so that formatting stops
/// early: a map holding one string many times (shared, so cheap to hold) would otherwise be
/// written out whole, gigabytes of text, before anything could cut it.
struct Bounded {
    text: String,
    left: usize,
    cut: bool,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.len() <= self.left {
            self.text.push_str(s);
            self.left -= s.len();
            return Ok(());
        }
        let mut end = self.left;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.cut = true;
        Err(fmt::Error)
    }
}

/// `args` written out up to `max` bytes; past that, cut and followed by "… (cut at `max` bytes)".
pub fn bounded(max: usize, args: fmt::Arguments) -> String {
    let mut w = Bounded {
        text: String::new(),
        left: max,
        cut: false,
    };
    if w.write_fmt(args).is_err() && w.cut {
        w.text.push_str(&format!("… (cut at {max} bytes)"));
    }
    w.text
}

/// Why a script's run gave no value.
#[derive(Clone)]
pub enum Failed {
    /// The board's drawing fits no lattice the script asked for (the puzzle's fault), with
    /// what the script printed.
    Misfit(Misfit, Vec<String>),
    Script(Diagnostic),
}

impl From<Diagnostic> for Failed {
    fn from(d: Diagnostic) -> Self {
        Failed::Script(d)
    }
}

/// Bytes that runs of scripts in this process left held when they ended: values in
/// reference cycles (a closure capturing a variable that is then given a value holding the
/// closure), which Rhai never frees. A later run of the same script counts what its earlier
/// runs left against its memory limit, and every run counts what all scripts left against
/// four times it, so that what runs leave is bounded (a batch of one such script on 40 board
/// shapes reached 1 GB and aborted), and a script that leaks stops only itself until then.
static LEFT_HELD: AtomicU64 = AtomicU64::new(0);

/// [`LEFT_HELD`] by script (the SHA-256 of its text).
static LEFT_BY_SCRIPT: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);

/// What runs of the script of this SHA-256 have left held so far.
fn left_by(hash: &str) -> u64 {
    LEFT_BY_SCRIPT
        .lock()
        .unwrap()
        .as_ref()
        .and_then(|m| m.get(hash).copied())
        .unwrap_or(0)
}

/// How many times a run's own limit all runs together may leave held.
const LEFT_TOTAL_TIMES: u64 = 4;

/// Calls `script`'s `rules(board)` once, on this thread's engine (built on first use, or
/// again when the limits change), compiling the script only the first time this thread sees
/// its text, and hands the value and what it printed to `read`, whose result is returned.
/// Everything the run allocates and `read` frees is counted: what is still held after `read`
/// and its result are done with (its result copied out uncounted) was left in cycles.
pub fn call_rules<T: Clone>(
    script: &Script,
    board: ScriptBoard,
    limits: &ScriptLimits,
    read: impl FnOnce(std::result::Result<(Dynamic, Vec<String>), Failed>) -> std::result::Result<T, Failed>,
) -> std::result::Result<T, Failed> {
    ENGINES.with_borrow_mut(|slot| {
        if slot.as_ref().is_none_or(|e| e.limits != *limits) {
            let run = Arc::new(Run::new());
            *slot = Some(Engines {
                limits: limits.clone(),
                engine: engine(limits, run.clone()),
                run,
                compiled: HashMap::new(),
            });
        }
        let e = slot.as_mut().expect("just built");
        let ast = match e.compiled.get(&script.hash) {
            Some(ast) => ast.clone(),
            None => {
                let ast = Arc::new(compile(&e.engine, script)?);
                if e.compiled.len() >= MAX_COMPILED {
                    e.compiled.clear();
                }
                e.compiled.insert(script.hash.clone(), ast.clone());
                ast
            }
        };
        e.run.start(limits.timeout);
        let left_before = left_by(&script.hash);
        e.run.left_before.store(left_before, Ordering::Relaxed);
        let mut scope = Scope::new();
        let probe = board.clone();
        // Only what the run itself allocates counts: not the engine, nor compiled scripts.
        let metered = super::alloc::Metered::start();
        let result = e.engine.call_fn::<Dynamic>(&mut scope, &ast, "rules", (board,));
        drop(scope);
        let printed = std::mem::take(&mut *e.run.printed.lock().unwrap());
        // A misfit stops the run even if the script caught it: the drawing is at fault.
        let result = match (probe.misfit(), result) {
            (Some(m), _) => Err(Failed::Misfit(m, printed)),
            (None, Ok(v)) => Ok((v, printed)),
            (None, Err(err)) => Err(runtime_error(script, &err, limits)
                .printed(&script.origin, printed)
                .into()),
        };
        let out = read(result);
        let kept = super::alloc::paused(|| out.clone());
        drop(out);
        let left = metered.held();
        drop(metered);
        if left > 0 {
            LEFT_HELD.fetch_add(left, Ordering::Relaxed);
            super::alloc::paused(|| {
                let mut by = LEFT_BY_SCRIPT.lock().unwrap();
                *by.get_or_insert_with(HashMap::new)
                    .entry(script.hash.clone())
                    .or_default() += left;
            });
        }
        kept
    })
}

/// For a variable a function did not find: when the script declares it outside every
/// function (a line starting `let NAME` or `const NAME`), why a function cannot see it.
fn outside_hint(source: &str, name: &str) -> String {
    let declared = source.lines().position(|l| {
        ["let ", "const "].iter().any(|kw| {
            l.strip_prefix(kw)
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix(name))
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    });
    match declared {
        Some(i) => format!(
            " (it is declared on line {} outside `fn rules`, and a Rhai function sees only its \
             parameters and what it declares itself: move it into the function, or pass it as a parameter)",
            i + 1
        ),
        None => String::new(),
    }
}

/// Compiles a script and checks that it defines `fn rules(board)`.
fn compile(engine: &Engine, script: &Script) -> Result<AST> {
    let origin = &script.origin;
    // Rhai's compiler is bounded by no limit and no Ctrl-C, and its time grows faster than
    // the text (a 349 KB map literal took 38 s): the text is kept small enough that it
    // compiles in a fraction of a second whatever it holds.
    if script.source.len() > MAX_SCRIPT_BYTES {
        return Err(Diagnostic::new(
            origin,
            format!(
                "rule script is {} bytes; rule scripts are limited to {MAX_SCRIPT_BYTES} bytes (a \
                 family's tables are built by its code, not written out in it)",
                script.source.len()
            ),
        ));
    }
    let ast = engine.compile(&script.source).map_err(|e| {
        // Rhai notices a missing `}` only at the end of the file: point at the `{` instead.
        // When the last statement is a map without `;` (as in every shipped script), what it
        // misses there is the `;`, but the `}` left open is the fault.
        let at_end = e
            .position()
            .line()
            .is_none_or(|l| l > script.source.trim_end().lines().count());
        if let rhai::ParseErrorType::MissingToken(t, _) = e.err_type()
            && (t == "}" || (t == ";" && at_end))
            && let Some((line, col)) = super::locate::unclosed_brace(&script.source)
        {
            return Diagnostic::new(origin, "rule script does not compile: this `{` is never closed")
                .at(Some(line), Some(col));
        }
        let pos = e.position();
        Diagnostic::new(origin, format!("rule script does not compile: {}", e.err_type()))
            .at(pos.line(), pos.position())
    })?;
    if !ast
        .iter_functions()
        .any(|f| f.name == "rules" && f.params.len() == 1)
    {
        return Err(Diagnostic::new(
            origin,
            "rule script defines no `fn rules(board)`: it must return the family's tables (see docs/rules.md)",
        ));
    }
    Ok(ast)
}

fn runtime_error(script: &Script, e: &EvalAltResult, limits: &ScriptLimits) -> Diagnostic {
    // The innermost known position; failing that, the line of the innermost function. Rhai
    // reports limit errors at the outermost call site (ours, so none): those get `fn rules`.
    let mut pos = Position::NONE;
    let mut func = Some("rules");
    let mut inner = e;
    loop {
        if !inner.position().is_none() {
            pos = inner.position();
        }
        match inner {
            EvalAltResult::ErrorInFunctionCall(name, _, next, _) => {
                func = Some(name.as_str());
                inner = next;
            }
            _ => break,
        }
    }
    if let EvalAltResult::ErrorTerminated(token, ..) = inner
        && limits.run_bytes
        && token.to_string() == MEMORY
    {
        // The run's limit, not the script's: no line of the script is at fault.
        let why = crate::search::GaveUp::Memory(limits.max_bytes);
        return Diagnostic::new(&script.origin, format!("{why} reached {IN_SCRIPT}")).gave_up(why);
    }
    if let EvalAltResult::ErrorTerminated(token, ..) = inner
        && token.to_string() == INTERRUPTED
    {
        // Ctrl-C, not the script's fault: the puzzle's turn was cut, as a search's would be.
        return Diagnostic::new(
            &script.origin,
            format!("interrupted ({}) {IN_SCRIPT}", crate::process::stopped_by()),
        )
        .gave_up(crate::search::GaveUp::Interrupted);
    }
    let (line, column) = match (pos.line(), func) {
        (Some(l), _) => (Some(l), pos.position()),
        (None, f) => (
            f.and_then(|f| {
                script
                    .source
                    .lines()
                    .position(|l| l.contains(&format!("fn {f}(")))
            })
            .map(|i| i + 1),
            None,
        ),
    };
    let what = match inner {
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == OPERATIONS => format!(
            "rule script stopped: operation limit reached ({} operations; an endless loop?)",
            limits.max_operations
        ),
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == MEMORY => {
            let all = LEFT_HELD.load(Ordering::Relaxed);
            let earlier = if all > LEFT_TOTAL_TIMES * limits.max_bytes {
                format!(
                    "; rule scripts run earlier in this process left {} held in reference cycles, \
                     more than {} times that",
                    crate::process::human_bytes(all),
                    LEFT_TOTAL_TIMES
                )
            } else {
                let mine = left_by(&script.hash);
                match mine >> 20 {
                    0 => String::new(),
                    _ => format!(
                        ", {} of it left held in reference cycles by earlier runs of this script",
                        crate::process::human_bytes(mine)
                    ),
                }
            };
            format!(
                "rule script stopped: memory limit reached (it held more than {}{earlier})",
                crate::process::human_bytes(limits.max_bytes)
            )
        }
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == PRINTED => format!(
            "rule script stopped: output limit reached (it printed more than {})",
            crate::process::human_bytes(limits.max_printed as u64)
        ),
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == INTERRUPTED => {
            format!(
                "rule script stopped: interrupted ({})",
                crate::process::stopped_by()
            )
        }
        EvalAltResult::ErrorTerminated(..) => format!(
            "rule script stopped: time limit reached ({:.1} s; an endless loop?)",
            limits.timeout.as_secs_f64()
        ),
        EvalAltResult::ErrorStackOverflow(..) => format!(
            "rule script stopped: call depth limit reached ({} nested calls; unbounded recursion?)",
            limits.max_call_levels
        ),
        EvalAltResult::ErrorDataTooLarge(what, ..) => format!(
            "rule script stopped: size limit reached ({what} too large; limits: {} array items, {} map entries, {} string bytes)",
            limits.max_array, limits.max_map, limits.max_string
        ),
        other => {
            let text = bounded(SHOWN_BYTES, format_args!("{other}"));
            // Rhai appends "(line L, position P)"; the diagnostic carries the location itself.
            let text = text
                .rsplit_once(" (line ")
                .map_or(text.as_str(), |(head, _)| head);
            let hint = match other {
                EvalAltResult::ErrorVariableNotFound(name, ..) => outside_hint(&script.source, name),
                _ => String::new(),
            };
            format!("rule script failed: {text}{hint}")
        }
    };
    Diagnostic::new(&script.origin, what).at(line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_scripts_leave_nothing_held_however_many_boards_they_run_on() {
        let limits = ScriptLimits::default();
        for (name, source) in crate::script::BUILTIN {
            let script = Script::new(
                name.to_string(),
                format!("<builtin>/{name}.rhai").into(),
                source.to_string(),
            );
            let runs = |widths: std::ops::Range<usize>| {
                for width in widths {
                    let text = if *name == "tilt_roll" {
                        format!(
                            "rules: {name}\nsize: {}\nmarbles: [[0, 0]]\nholes: [[0, 1]]\n",
                            2 + width % 10
                        )
                    } else {
                        format!(
                            "rules: {name}\nboard: |\n  {}\n  o o o\n",
                            vec!["o"; width].join(" ")
                        )
                    };
                    let spec = crate::spec::parse(std::path::Path::new("t.yaml"), &text).unwrap();
                    let board = match &spec.board {
                        crate::spec::BoardSpec::Grid(g) => ScriptBoard::grid(g),
                        crate::spec::BoardSpec::Tilt(t) => ScriptBoard::tilt(t),
                    };
                    let _ = call_rules(&script, board, &limits, |called| {
                        called.map(|(_, printed)| printed)
                    });
                }
                left_by(&script.hash)
            };
            // The engine keeps the short strings it has seen (interned, a few hundred at most,
            // up to 32 bytes each): new boards may add a few bytes that way, the same boards
            // again nothing.
            let first = runs(1..12);
            assert!(first < 16 << 10, "{name}: {first} bytes");
            assert_eq!(runs(1..12), first, "{name}");
        }
    }
}
