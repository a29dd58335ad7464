//! The sandboxed Rhai engine: no disk, no `import`, no `eval`, bounded work, memory and time.

use super::{Script, ScriptBoard};
use crate::diag::{Diagnostic, Result};
use crate::lattice::Misfit;
use crate::limits::MAX_RULE_MOVES;
use rhai::{Dynamic, Engine, EvalAltResult, Position, Scope};
use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Termination tokens: which limit stopped a script from inside `on_progress`.
const MEMORY: &str = "memory";
const PRINTED: &str = "printed";
const INTERRUPTED: &str = "interrupted";
use std::time::{Duration, Instant};

/// How much a rule script may do before it is stopped.
#[derive(Debug, Clone, PartialEq)]
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
            max_printed: 1 << 20,
        }
    }
}

fn engine(limits: &ScriptLimits, printed: Arc<Mutex<Vec<String>>>) -> Engine {
    let mut e = Engine::new();
    e.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    e.disable_symbol("eval");
    e.set_max_operations(limits.max_operations);
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
    // other built-in either is pure, works within the array/map/string checks (`pad`,
    // `blob`, `+`, `repeat`-like growth), or is lazy (`range`). No file, network, process,
    // `import` or `eval` exists.
    #[allow(clippy::single_element_loop)] // a list, for whatever a later Rhai adds
    for name in ["sleep"] {
        e.register_fn(
            name,
            move |_: rhai::INT| -> std::result::Result<(), Box<EvalAltResult>> {
                Err(format!("`{name}` is not available to rule scripts").into())
            },
        );
        e.register_fn(
            name,
            move |_: rhai::FLOAT| -> std::result::Result<(), Box<EvalAltResult>> {
                Err(format!("`{name}` is not available to rule scripts").into())
            },
        );
    }
    let deadline = Instant::now() + limits.timeout;
    let max_bytes = limits.max_bytes;
    let printed_bytes = Arc::new(AtomicUsize::new(0));
    let max_printed = limits.max_printed;
    let over_printed = printed_bytes.clone();
    // Reading the clock on every operation cost ~12 % of a small puzzle's whole run: look
    // every 256 operations, which is still far under a millisecond. The byte count is a
    // thread-local read: every operation.
    e.on_progress(move |ops| {
        if super::alloc::held() > max_bytes {
            return Some(Dynamic::from(MEMORY));
        }
        if over_printed.load(Ordering::Relaxed) > max_printed {
            return Some(Dynamic::from(PRINTED));
        }
        if !ops.is_multiple_of(256) {
            return None;
        }
        if crate::search::CANCELLED.load(Ordering::Relaxed) {
            return Some(Dynamic::from(INTERRUPTED));
        }
        (Instant::now() > deadline).then(|| Dynamic::from("deadline"))
    });
    let keep = move |bytes: &AtomicUsize, list: &Mutex<Vec<String>>, line: String| {
        if bytes.fetch_add(line.len(), Ordering::Relaxed) + line.len() <= max_printed {
            list.lock().unwrap().push(line);
        }
    };
    let (p, pb) = (printed.clone(), printed_bytes.clone());
    e.on_print(move |s| keep(&pb, &p, s.to_string()));
    e.on_debug(move |s, _src, pos| {
        let at = pos.line().map(|l| format!("line {l}: ")).unwrap_or_default();
        keep(&printed_bytes, &printed, format!("{at}{s}"));
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
    ScriptBoard::register(&mut e);
    e
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

/// Compiles `script` and calls its `rules(board)` once; returns the value and what it printed.
/// `misfit` reports a board drawing that fits no lattice the script asked for.
pub fn call_rules(
    script: &Script,
    board: ScriptBoard,
    limits: &ScriptLimits,
    misfit: &dyn Fn(&Misfit) -> Diagnostic,
) -> Result<(Dynamic, Vec<String>)> {
    let printed = Arc::new(Mutex::new(Vec::new()));
    let engine = engine(limits, printed.clone());
    let origin = &script.origin;
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
    let mut scope = Scope::new();
    let probe = board.clone();
    let result = engine.call_fn::<Dynamic>(&mut scope, &ast, "rules", (board,));
    let printed = std::mem::take(&mut *printed.lock().unwrap());
    // A misfit stops the run even if the script caught it: the drawing is at fault.
    if let Some(m) = probe.misfit() {
        return Err(misfit(&m).printed(printed));
    }
    match result {
        Ok(v) => Ok((v, printed)),
        Err(e) => Err(runtime_error(script, &e, limits).printed(printed)),
    }
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
        EvalAltResult::ErrorTooManyOperations(..) => format!(
            "rule script stopped: operation limit reached ({} operations; an endless loop?)",
            limits.max_operations
        ),
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == MEMORY => format!(
            "rule script stopped: memory limit reached (it held more than {})",
            crate::search::human_bytes(limits.max_bytes)
        ),
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == PRINTED => format!(
            "rule script stopped: output limit reached (it printed more than {})",
            crate::search::human_bytes(limits.max_printed as u64)
        ),
        EvalAltResult::ErrorTerminated(token, ..) if token.to_string() == INTERRUPTED => {
            "rule script stopped: interrupted (Ctrl-C)".to_string()
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
            format!("rule script failed: {text}")
        }
    };
    Diagnostic::new(&script.origin, what).at(line, column)
}
