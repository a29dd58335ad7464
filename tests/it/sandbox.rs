//! The script sandbox holds every limit on every path that runs script code: closures that
//! Rhai's built-ins call (`map`, `sort`, …) count against the operation and time limits and
//! stop on Ctrl-C, and a script cannot read anything that is not its text and its board.

use crate::support::Test;
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// A hop puzzle whose script's `fn rules(board)` body is `body`.
fn script(body: &str) -> Test {
    Test::new()
        .file("rules/evil.rhai", &format!("fn rules(board) {{\n{body}\n}}\n"))
        .file("p.yaml", "rules: evil\nboard: |\n  o o .\n")
}

/// A body that never ends by itself, all of whose work is done by closures that `builtin`
/// calls: `a` holds 1,000 ones, and each closure scans `b` (1,000 ones) with `some`, whose
/// own closure is short. The outer `loop` adds only a few operations a turn.
fn closures_forever(builtin: &str) -> String {
    let call = match builtin {
        "map" | "filter" | "index_of" | "some" | "all" | "find" | "drain" => {
            format!("a.{builtin}(|x| b.some(|y| y > 5))")
        }
        "retain" => "a.retain(|x| !b.some(|y| y > 5))".into(),
        "reduce" | "reduce_rev" => {
            format!("a.{builtin}(|s, x| if b.some(|y| y > 5) {{ s }} else {{ s + 1 }}, 0)")
        }
        "sort" => "a.sort(|x, y| if b.some(|z| z > 5) { 1 } else { 0 })".into(),
        "dedup" => "a.dedup(|x, y| b.some(|z| z > 5))".into(),
        other => panic!("no body for {other}"),
    };
    format!(
        "  let a = [];\n  a.pad(1000, 1);\n  let b = [];\n  b.pad(1000, 1);\n  loop {{\n    {call};\n  }}"
    )
}

const BUILTINS: [&str; 12] = [
    "map",
    "filter",
    "reduce",
    "reduce_rev",
    "index_of",
    "retain",
    "drain",
    "some",
    "all",
    "find",
    "sort",
    "dedup",
];

#[test]
fn closures_called_by_built_ins_stop_at_the_time_limit() {
    for builtin in BUILTINS {
        let run = script(&closures_forever(builtin))
            .args(["solve", "p.yaml", "--script-timeout", "0.3"])
            .run_bounded(SECS(20), None)
            .held(512);
        assert_eq!(run.code, Some(2), "{builtin}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("rule script stopped: time limit reached (0.3 s; an endless loop?)"),
            "{builtin}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("rules/evil.rhai"),
            "{builtin}: {}",
            run.stderr
        );
    }
}

#[test]
fn closures_called_by_built_ins_count_against_the_operation_limit() {
    // No loop: one `map` whose closures do some 20,000 operations in all (100 × 100 calls of
    // a one-comparison closure), all but a handful of them inside closures.
    let body = "  let a = [];\n  a.pad(100, 1);\n  let b = a;\n  a.map(|x| b.some(|y| y > 5));\n  #{}";
    script(body)
        .args([
            "solve",
            "p.yaml",
            "--script-ops",
            "10000",
            "--script-timeout",
            "60",
        ])
        .run_bounded(SECS(30), None)
        .held(512)
        .status(2)
        .stderr_has("rules/evil.rhai")
        .stderr_has("rule script stopped: operation limit reached (10000 operations; an endless loop?)");
    // Under a limit above that, the same script runs to its end: what stops it then is the
    // table it returns.
    script(body)
        .args([
            "check",
            "p.yaml",
            "--script-ops",
            "100000",
            "--script-timeout",
            "60",
        ])
        .run_bounded(SECS(30), None)
        .held(512)
        .status(2)
        .stderr_has("rules/evil.rhai:1: the returned map needs `kind`");
}

/// Starts `args` on a script whose body is `body`, sends Ctrl-C after half a second and returns
/// the exit code, what it printed, how long it took to end after the signal and whether it
/// left a report (`rep/summary.json`).
fn interrupt(body: &str, args: &[&str]) -> (Option<i32>, String, String, Duration, bool) {
    let test = script(body);
    let mut cmd = test.command();
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    // A child that ignores the signal is killed after 20 s, failing the test, not stalling it.
    let id = child.id() as i32;
    let done = std::sync::Arc::new(std::sync::Mutex::new(false));
    let watch = done.clone();
    std::thread::spawn(move || {
        std::thread::sleep(SECS(20));
        let done = watch.lock().unwrap();
        if !*done {
            // SAFETY: signalling our own child, not yet reaped (`done` is unset, and stays so
            // while this lock is held).
            unsafe { libc::kill(id, libc::SIGKILL) };
        }
    });
    let out = child.wait_with_output();
    *done.lock().unwrap() = true;
    let out = out.unwrap();
    let took = signalled.elapsed();
    assert_eq!(
        out.status.signal(),
        None,
        "{args:?}: killed: it ignored Ctrl-C for 20 s"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
        test.path("rep/summary.json").is_file(),
    )
}

#[test]
fn ctrl_c_stops_a_script_inside_a_built_in_within_a_second() {
    // Few operations, each long: a copy and a sort of 150,000 numbers, again and again.
    let heavy = "  let a = [];\n  a.pad(150000, 1);\n  loop {\n    let b = a;\n    b.sort();\n  }";
    let (code, _, stderr, took, _) = interrupt(heavy, &["solve", "p.yaml", "--script-timeout", "600"]);
    assert!(took < SECS(3), "ended {took:?} after Ctrl-C\n{stderr}");
    assert_eq!(code, Some(130), "{stderr}");
    for args in [
        &["solve", "p.yaml", "--script-timeout", "600"][..],
        &["check", "p.yaml", "--script-timeout", "600"],
        &["batch", ".", "--script-timeout", "600", "--report", "rep"],
    ] {
        let (code, stdout, stderr, took, reported) = interrupt(&closures_forever("map"), args);
        // The promise is a second; the margin is for a loaded test machine.
        assert!(took < SECS(3), "{args:?}: ended {took:?} after Ctrl-C\n{stderr}");
        assert_eq!(code, Some(130), "{args:?}: {stderr}");
        if args[0] == "batch" {
            // A file cut short is no result: the batch reports what it finished (nothing).
            assert!(
                stderr.contains("marbles: interrupted (Ctrl-C): 0 of 1 puzzle files finished and reported"),
                "{stderr}"
            );
            assert!(reported, "no report after Ctrl-C");
        } else {
            // The puzzle's turn is given up, as a cut search's is; `check` says what it checked.
            let said = match args[0] {
                "solve" => "gave up: interrupted (Ctrl-C) while the rule script built the board",
                _ => {
                    "marbles: check interrupted (Ctrl-C) before any puzzle was checked (cut while the rule script ran for p.yaml)"
                }
            };
            assert!(
                format!("{stdout}{stderr}").contains(said),
                "{args:?}: {stdout}{stderr}"
            );
        }
    }
}

#[test]
fn a_script_builds_the_same_tables_in_every_process() {
    // Rhai names a closure by a hash, whose seed was drawn per process: a script reading the
    // name got a coin toss, the same within a run and different across runs (and shards).
    let body = "  let f = |x| x;\n  print(f.name);\n  #{}";
    let names: std::collections::BTreeSet<String> = (0..3)
        .map(|_| script(body).args(["check", "p.yaml"]).run().stderr)
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(
        names.iter().all(|n| n.contains("rules/evil.rhai: anon$")),
        "{names:?}"
    );
}

#[test]
fn a_script_too_long_to_compile_quickly_is_refused_unread() {
    // Rhai's compiler heeds no limit and no Ctrl-C, and its time grows faster than the text:
    // a map literal of 349 KB took 38 s. A script is held to 64 KiB.
    let keys: Vec<String> = (0..10_000).map(|i| format!("k{i}: 1")).collect();
    script(&format!("  let x = #{{{}}};\n  #{{}}", keys.join(", ")))
        .args(["check", "p.yaml"])
        .run_bounded(SECS(20), None)
        .held(512)
        .status(2)
        .stderr_has("rules/evil.rhai: is 98929 bytes; rule scripts are limited to 65536 bytes");
}

#[test]
fn scripts_cannot_read_the_clock() {
    for (body, name) in [
        ("  let t = timestamp();\n  #{}", "timestamp"),
        ("  let t = timestamp();\n  let e = t.elapsed;\n  #{}", "timestamp"),
    ] {
        script(body)
            .args(["check", "p.yaml"])
            .run_bounded(SECS(20), None)
            .held(512)
            .status(2)
            .stderr_has("rules/evil.rhai:2")
            .stderr_has(&format!(
                "`{name}` is not available to rule scripts: a rule script must build the same tables from the same text and board"
            ));
    }
}

#[test]
fn what_scripts_leave_in_reference_cycles_is_bounded_across_runs() {
    // Each run leaves 200 closures in cycles with a 128 KiB string each (25 MiB), which Rhai
    // never frees: a batch of one such script on 40 board shapes reached 1 GB. Now a run of the
    // script counts what its earlier runs left against its limit (64 MiB), and other families
    // in the batch are not held back by it.
    let leak = "fn rules(board) {\n  let s = \"x\";\n  for i in 0..17 { s += s; }\n  \
                for i in 0..200 { let a = 0; let f = || a; a = [f, s + `${i}`]; }\n  \
                #{ kind: \"hop\", layout: \"square\", directions: [\"right\"], moves: [], goal: #{ pegs: 1 } }\n}\n";
    let mut t = Test::new()
        .file("set/marbles.toml", "")
        .file("set/rules/leak.rhai", leak);
    for n in 2..10 {
        let row = vec!["o"; n].join(" ");
        t = t.file(
            &format!("set/leak{n}.yaml"),
            &format!("rules: leak\nboard: |\n  {row}\n"),
        );
    }
    let t = t.file("set/zz_good.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    let run = t
        .args([
            "batch",
            "set",
            "-j",
            "1",
            "--no-report",
            "--format",
            "json",
            "--quiet",
        ])
        .run_bounded(SECS(60), None)
        .held(400);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect(&run.stderr);
    let rows = v["results"].as_array().unwrap();
    let stopped = rows
        .iter()
        .filter(|r| {
            r["error"].as_str().is_some_and(|e| {
                e.contains("rule script stopped: memory limit reached (it held more than 64.0 MiB, ")
                    && e.contains("of it left held in reference cycles by earlier runs of this script)")
            })
        })
        .count();
    assert!(stopped >= 5, "{stopped} of 8 runs stopped: {v}");
    let good = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("zz_good.yaml"))
        .unwrap();
    assert_eq!(good["status"], "solved", "{good}");
}

#[test]
fn a_script_is_held_to_a_memory_limit_below_its_own() {
    // 240 strings of 250 KB: under the script's own 64 MiB, over a 30MB limit on the process.
    // Each in a variable of its own: Rhai's size limits count within one value. The script's
    // own time limit is generous: on a loaded machine it outran 30 s of wall time.
    let lets: String = (0..240)
        .map(|i| format!("  let s{i} = \"\";\n  s{i}.pad(250000, \"x\");\n"))
        .collect();
    script(&format!("{lets}  #{{}}"))
        .args([
            "solve",
            "p.yaml",
            "--max-memory",
            "30MB",
            "--script-timeout",
            "120",
        ])
        .run_bounded(SECS(40), None)
        .held(100)
        .status(1)
        .stdout_has("rules/evil.rhai")
        .stdout_has("gave up: memory limit (28.6 MiB) reached while the rule script built the board");
}

/// Work a built-in does in one call, or the compiler does before the run, is held to the
/// same limits: constants folded as the script compiles (each line doubling the last), a
/// `replace` whose result would pass the string limit, `to_json` of a map holding itself.
#[test]
fn no_single_call_or_compile_step_escapes_the_limits() {
    let consts: String = (1..=20)
        .map(|i| format!("  const A{i} = [A{0}, A{0}];\n", i - 1))
        .collect();
    for (body, said) in [
        (
            format!("  const A0 = [1, 2, 3];\n{consts}  A20.len()"),
            "rule script stopped: size limit reached (Size of array/BLOB too large",
        ),
        (
            "  let s = \"\";\n  s.pad(262000, \"x\");\n  let t = \"\";\n  t.pad(2048, \"y\");\n  \
             s.replace(\"x\", t);\n  #{}"
                .to_string(),
            "rule script stopped: size limit reached (Length of string too large",
        ),
        (
            "  let a = 0;\n  let f = || a;\n  a = #{ g: f };\n  a.to_json()".to_string(),
            "`to_json` is not available to rule scripts",
        ),
    ] {
        script(&body)
            .args(["check", "p.yaml"])
            .run_bounded(SECS(20), None)
            .held(100)
            .status(2)
            .stderr_has("rules/evil.rhai:")
            .stderr_has(said)
            .no_panic();
    }
    // `replace` within the limit still replaces.
    script(
        "  let s = \"a-b\";\n  s.replace('-', \"--\");\n  if s != \"a--b\" { throw s; }\n  \
         #{ kind: \"hop\", directions: [\"r\"], jumps: [#{ from: [0, 0], over: [0, 1], to: [0, 2] }] }",
    )
    .args(["solve", "p.yaml"])
    .run()
    .status(0);
}
