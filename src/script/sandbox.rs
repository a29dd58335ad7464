//! The sandboxed Rhai engine: no disk, no `import`, no `eval`, bounded work, memory and time.

use super::{Script, ScriptBoard};
use crate::diag::{Diagnostic, Result};
use rhai::{Dynamic, Engine, EvalAltResult, Position, Scope};
use std::sync::{Arc, Mutex};
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
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            max_operations: 50_000_000,
            timeout: Duration::from_secs(2),
            max_call_levels: 48,
            max_expr_depth: 64,
            max_array: 200_000,
            max_map: 10_000,
            max_string: 64 * 1024,
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
    let deadline = Instant::now() + limits.timeout;
    // Reading the clock on every operation cost ~12 % of a small puzzle's whole run: look
    // every 256 operations, which is still far under a millisecond.
    e.on_progress(move |ops| {
        (ops.is_multiple_of(256) && Instant::now() > deadline).then(|| Dynamic::from("deadline"))
    });
    let p = printed.clone();
    e.on_print(move |s| p.lock().unwrap().push(s.to_string()));
    e.on_debug(move |s, _src, pos| {
        let at = pos.line().map(|l| format!("line {l}: ")).unwrap_or_default();
        printed.lock().unwrap().push(format!("{at}{s}"));
    });
    ScriptBoard::register(&mut e);
    e
}

/// Compiles `script` and calls its `rules(board)` once; returns the value and what it printed.
pub fn call_rules(
    script: &Script,
    board: ScriptBoard,
    limits: &ScriptLimits,
) -> Result<(Dynamic, Vec<String>)> {
    let printed = Arc::new(Mutex::new(Vec::new()));
    let engine = engine(limits, printed.clone());
    let origin = &script.origin;
    let ast = engine.compile(&script.source).map_err(|e| {
        // Rhai notices a missing `}` only at the end of the file: point at the `{` instead.
        if let rhai::ParseErrorType::MissingToken(t, _) = e.err_type()
            && t == "}"
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
    let result = engine.call_fn::<Dynamic>(&mut scope, &ast, "rules", (board,));
    let printed = std::mem::take(&mut *printed.lock().unwrap());
    match result {
        Ok(v) => Ok((v, printed)),
        Err(e) => Err(runtime_error(script, &e, limits)),
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
            let text = other.to_string();
            // Rhai appends "(line L, position P)"; the diagnostic carries the location itself.
            let text = text
                .rsplit_once(" (line ")
                .map_or(text.as_str(), |(head, _)| head);
            format!("rule script failed: {text}")
        }
    };
    Diagnostic::new(&script.origin, what).at(line, column)
}
