//! Limits that must hold whatever the input: each case here once hung past every limit or
//! ran memory into gigabytes. Every run has a deadline and a peak-RSS bound of
//! its own child (`wait4`), so a regression fails instead of stalling the suite.

use crate::support::{Test, diamond41_rows, no_line_yet, root};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// A tilt family whose links are `links` (a Rhai array literal), on a 3×3 board.
fn tilt_family(links: &str) -> Test {
    Test::new()
        .file(
            "rules/loop.rhai",
            &format!(
                "fn rules(board) {{\n  #{{ kind: \"tilt\",\n     directions: [#{{ name: \"up\", step: [-1, 0] }}, #{{ name: \"right\", step: [0, 1] }}],\n     links: {links} }}\n}}\n"
            ),
        )
        .file(
            "p.yaml",
            "rules: loop\nsize: 3\nmarbles: [[0,0],[2,2]]\nholes: [[1,1],[2,0]]\n",
        )
}

#[test]
fn cyclic_tilt_links_are_refused_by_check_solve_play_and_batch() {
    let two = "[#{ dir: \"up\", from: [0, 1], to: [0, 0] }, #{ dir: \"up\", from: [0, 0], to: [0, 1] }]";
    let me = "[#{ dir: \"right\", from: [1, 2], to: [1, 2] }]";
    let torus = "[#{ dir: \"right\", from: [0, 0], to: [0, 1] }, #{ dir: \"right\", from: [0, 1], to: [0, 2] }, \
                 #{ dir: \"right\", from: [0, 2], to: [0, 0] }]";
    for (links, cycle) in [
        (two, "`up`: [0, 0] → [0, 1] → [0, 0]"),
        (me, "`right`: [1, 2] → [1, 2]"),
        (torus, "`right`: [0, 0] → [0, 1] → [0, 2] → [0, 0]"),
    ] {
        for args in [
            vec!["check", "p.yaml"],
            vec!["solve", "p.yaml"],
            vec!["play", "p.yaml"],
            vec!["batch", ".", "--no-report", "--format", "csv"],
        ] {
            let run = tilt_family(links)
                .args(&args)
                .run_bounded(SECS(20), None)
                .held(512)
                .status(2);
            // `batch` reports errors in its table, the others on stderr.
            let said = format!("{}{}", run.stdout, run.stderr);
            // At the line that writes the links.
            let want = format!("rules/loop.rhai:4: tilt links form a cycle in direction {cycle}");
            assert!(said.contains(&want), "{args:?}: {said}");
        }
    }
}

/// A hop puzzle whose script's `fn rules(board)` body is `body`.
fn script(body: &str) -> Test {
    Test::new()
        .file("rules/evil.rhai", &format!("fn rules(board) {{\n{body}\n}}\n"))
        .file("p.yaml", "rules: evil\nboard: |\n  o o .\n")
}

#[test]
fn sleep_is_not_callable_from_a_script() {
    script("  sleep(60);\n  #{}")
        .args(["solve", "p.yaml", "--script-timeout", "1"])
        .run_bounded(SECS(10), None)
        .held(512)
        .status(2)
        .stderr_has("rules/evil.rhai")
        .stderr_has("`sleep` is not available to rule scripts");
}

#[test]
fn script_memory_is_bounded_in_bytes_whatever_holds_it() {
    for (body, mib) in [
        // Curried function pointers double with every round and are no array, map or string.
        (
            "  let f = Fn(\"x\");\n  for i in 0..40 { f = f.curry(f); }\n  #{}",
            400,
        ),
        // Copies of an array just under the item limit, held by curried pointers.
        (
            "  let a = [];\n  a.pad(199999, 0);\n  let fs = [];\n  loop { fs.push(Fn(\"x\").curry(a)); }",
            400,
        ),
        // A chain of closures, each capturing the last, is dropped by recursion, a few frames
        // of stack a link, which no allocator sees: counted with its allocations, it stops
        // at 64 MiB with that stack (it peaked at 206 MiB, 140 of them stack).
        ("  let f = || 0;\n  loop { let g = f; f = || g; }", 110),
        // `pad` copies its item in one call, before any operation is counted: a function
        // pointer carrying 100,000 items, or a map with a long key, 1.6 MB and 200 KB a copy
        // that Rhai's item checks count as nothing (190,000 copies aborted the process).
        (
            "  let b = [];\n  b.pad(100000, 0);\n  let f = Fn(\"x\").curry(b);\n  let a = [];\n  a.pad(300, f);\n  #{}",
            110,
        ),
        (
            "  let k = \"k\";\n  k.pad(200000, \"x\");\n  let m = #{};\n  m[k] = 1;\n  let a = [];\n  a.pad(2000, m);\n  #{}",
            110,
        ),
    ] {
        script(body)
            .args(["solve", "p.yaml", "--script-timeout", "30"])
            .run_bounded(SECS(40), None)
            .held(mib)
            .status(2)
            .stderr_has("rules/evil.rhai")
            .stderr_has("rule script stopped: memory limit reached");
    }
    // Past the item limit, `pad` is refused before its array grows (16 GB for these).
    script("  let a = [];\n  a.pad(1000000000, 0);\n  #{}")
        .args(["solve", "p.yaml"])
        .run_bounded(SECS(40), None)
        .held(110)
        .status(2)
        .stderr_has("rule script stopped: size limit reached (Size of array/BLOB too large;");
    // What a script prints is kept up to a bound, then it stops with a message.
    script("  let s = \"\";\n  s.pad(60000, \"x\");\n  loop { print(s); debug(s); }")
        .args(["solve", "p.yaml", "--script-timeout", "30"])
        .run_bounded(SECS(40), None)
        .held(400)
        .status(2)
        .stderr_has("rules/evil.rhai")
        .stderr_has("rule script stopped: ");
}

/// A `--max-memory` below what the rule script needs stops the script: the puzzle gives up
/// under the run's limit, as its search would, and no line of the script is blamed.
#[test]
fn a_memory_limit_too_small_for_the_rule_script_is_a_give_up_not_the_scripts_error() {
    let run = |args: &[&str]| {
        Test::new()
            .file("p.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
            .args(args)
            .run()
            .status(1)
    };
    let said = "memory limit (1 B) reached while the rule script built the board";
    run(&["solve", "--max-memory", "1", "p.yaml"]).stdout_has(&format!("gave up: {said}\n"));
    let json = &run(&["solve", "--max-memory", "1", "--format", "json", "p.yaml"]).json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    assert_eq!(json["reason"], said, "{json}");
    assert_eq!(json["script"], "<builtin>/peg_hop.rhai", "{json}");
    assert_eq!(json["rules"], "peg_hop", "{json}");
    run(&["batch", "--max-memory", "1", "--no-report", "."])
        .stdout_has("0 solved, 0 unsolvable, 1 gave up, 0 errors");
    run(&["count", "--max-memory", "1", "p.yaml"])
        .stderr_has(&format!("marbles: gave up counting p.yaml: {said}\n"));
    run(&["play", "--max-memory", "1", "p.yaml"])
        .stderr_has(&format!("marbles: gave up: <builtin>/peg_hop.rhai: {said}\n"));
    // The puzzle keeps its name and is judged against its `expect:`.
    let json = &Test::new()
        .file(
            "p.yaml",
            "name: Quick\nrules: peg_hop\nboard: |\n  o o .\nexpect: unsolvable\n",
        )
        .args(["solve", "--max-memory", "1", "--format", "json", "p.yaml"])
        .run()
        .status(1)
        .json()[0];
    assert_eq!(
        (&json["puzzle"], &json["expect"], &json["met"]),
        (
            &serde_json::json!("Quick"),
            &serde_json::json!("unsolvable"),
            &serde_json::json!(false)
        ),
        "{json}"
    );
}

#[test]
fn deeply_nested_script_data_cannot_abort_a_batch() {
    let body = "  let a = [];\n  for i in 0..190000 { a = [a]; }\n  #{}";
    Test::new()
        .file(
            "set/rules/evil.rhai",
            &format!("fn rules(board) {{\n{body}\n}}\n"),
        )
        .file("set/deep.yaml", "rules: evil\nboard: |\n  o o .\n")
        .file("set/good.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .args(["batch", "set", "--no-report", "--format", "csv", "-j", "2"])
        .run_bounded(SECS(120), None)
        .held(600)
        .status(2)
        .stdout_has("set/good.yaml")
        .stdout_has("solved")
        .stdout_has("set/deep.yaml");
}

/// A map of 2,000 entries sharing one 250 KB string: small to hold, ~500 MB to write out.
const SHARED_MAP: &str =
    "  let s = \"\";\n  s.pad(250000, \"x\");\n  let m = #{};\n  for i in 0..2000 { m[\"k\" + i] = s; }\n";

/// Solving with [`SHARED_MAP`]'s script: 20 MB, and 20 s for the script (building the map takes
/// ~0.3 s; a loaded machine must not turn the answer into a time limit).
const SHARED_MAP_ARGS: [&str; 6] = [
    "solve",
    "p.yaml",
    "--max-memory",
    "20MB",
    "--script-timeout",
    "20",
];

#[test]
fn script_values_are_written_out_only_up_to_a_bound() {
    // Thrown: the error message is cut, not built whole.
    let run = script(&format!("{SHARED_MAP}  throw m;"))
        .args(SHARED_MAP_ARGS)
        .run_bounded(SECS(30), None)
        .held(200)
        .status(2)
        .stderr_has("rules/evil.rhai")
        .stderr_has("rule script failed: Runtime error: #{")
        .stderr_has("(cut at 1024 bytes)");
    assert!(run.stderr.len() < 4096, "{} bytes of stderr", run.stderr.len());
    // Printed, debugged, interpolated or returned: each text is cut at the string limit.
    for tail in [
        "  print(m);\n  42",
        "  debug(m);\n  42",
        "  let t = `${m}`;\n  42",
        "  let t = \"\" + m;\n  42",
        "  let a = [m, m];\n  print(a);\n  42",
        "  #{ kind: m }",
    ] {
        let run = script(&format!("{SHARED_MAP}{tail}"))
            .args(SHARED_MAP_ARGS)
            .run_bounded(SECS(30), None)
            .held(200)
            .status(2)
            .stderr_has("rules/evil.rhai");
        assert!(
            run.stderr.len() < 2 << 20,
            "{tail}: {} bytes of stderr",
            run.stderr.len()
        );
    }
    // A batch holding such a script reports it and goes on with the others.
    Test::new()
        .file(
            "set/rules/evil.rhai",
            &format!("fn rules(board) {{\n{SHARED_MAP}  throw m;\n}}\n"),
        )
        .file("set/str.yaml", "rules: evil\nboard: |\n  o o .\n")
        .file("set/good.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .args(["batch", "set", "--no-report", "--format", "csv", "-j", "2"])
        .run_bounded(SECS(60), None)
        .held(300)
        .status(2)
        .stdout_has("set/good.yaml")
        .stdout_has("solved")
        .stdout_has("set/str.yaml");
}

/// A 370 KB puzzle whose `ratings` repeat one 300 KB string 3,000 times (~900 MB expanded).
pub fn ratings_bomb() -> String {
    let mut yaml = format!(
        "rules: peg_hop\nboard: |\n  o o .\nratings:\n  1: &a \"{}\"\n",
        "x".repeat(300_000)
    );
    for k in 2..3000 {
        yaml.push_str(&format!("  {k}: *a\n"));
    }
    yaml
}

#[test]
fn yaml_aliases_through_ratings_are_bounded_by_their_expansion() {
    let yaml = ratings_bomb();
    assert!(yaml.len() < 400_000);
    Test::new()
        .file("bomb.yaml", &yaml)
        .args(["solve", "bomb.yaml"])
        .run_bounded(SECS(20), None)
        .held(200)
        .status(2)
        .stderr_has("bomb.yaml")
        .stderr_has("aliases expand to more than 4194304 bytes");
}

#[test]
fn the_file_size_cap_holds_where_metadata_lies() {
    // /proc files report a size of 0 however much they hold; pagemap holds gigabytes. A file
    // on such a file system is refused unread, as a puzzle, as an ICPC file (which may be
    // 256 MiB) and as a shard results file (which may be 1 GiB: read to it, 1.05 GB).
    Test::new()
        .args(["solve", "/proc/self/pagemap"])
        .run_bounded(SECS(20), None)
        .held(200)
        .status(2)
        .stderr_has("/proc/self/pagemap: is on a proc file system, not a puzzle file (not read)\n");
    let t = Test::new();
    std::fs::create_dir(t.path("s")).unwrap();
    std::os::unix::fs::symlink("/proc/self/pagemap", t.path("big.icpc")).unwrap();
    std::os::unix::fs::symlink("/proc/self/pagemap", t.path("s/shard-0-of-1.json")).unwrap();
    let dir = t.path("");
    for (args, said) in [
        (
            &["solve", "big.icpc"][..],
            "big.icpc: is on a proc file system, not a puzzle file (not read)",
        ),
        (
            &["merge", "s", "--report", "r"],
            "s/shard-0-of-1.json: is on a proc file system, not a shard results file marbles wrote (not read)",
        ),
    ] {
        Test::new()
            .in_dir(&dir)
            .args(args)
            .run_bounded(SECS(20), None)
            .held(200)
            .status(2)
            .stderr_has(said);
    }
    // A rule script can no longer be such a file: a link out of the puzzle's project, by
    // name as by path, is refused unread.
    let t = Test::new().file("p.yaml", "rules: big\nboard: |\n  o o .\n");
    std::fs::create_dir(t.path("rules")).unwrap();
    std::os::unix::fs::symlink("/proc/self/pagemap", t.path("rules/big.rhai")).unwrap();
    t.args(["solve", "p.yaml"])
        .run_bounded(SECS(20), None)
        .held(200)
        .status(2)
        .stderr_has("rules/big.rhai is a link to /proc/");
    let run = Test::new()
        .args(["check", "/proc/self/pagemap"])
        .run_bounded(SECS(20), None);
    assert!(!run.killed && run.peak_kib < 200 * 1024, "{}", run.run.stderr);
}

#[test]
fn node_and_time_limits_hold_on_the_smallest_searches() {
    for (file, args, reason) in [
        (
            "puzzles/triangle_hop/corner.yaml",
            ["--max-nodes", "1"],
            "node limit (1 node)",
        ),
        (
            "puzzles/triangle_hop/corner.yaml",
            ["--max-nodes", "0"],
            "node limit (0 nodes)",
        ),
        (
            "puzzles/triangle_hop/corner.yaml",
            ["--timeout", "0"],
            "time limit (0.000 s)",
        ),
        // `pegs: fewest` stopped before its first node: the start is its best, with a floor.
        (
            "puzzles/triangle_hop/triangle7.yaml",
            ["--max-nodes", "0"],
            "node limit (0 nodes); best found so far 27 pegs, at least 1",
        ),
        (
            "puzzles/tilt_roll/four_by_four.yaml",
            ["--max-nodes", "1"],
            "node limit (1 node); no line found yet, at least 2 moves",
        ),
        (
            "puzzles/tilt_roll/four_by_four.yaml",
            ["--timeout", "0"],
            "time limit (0.000 s); no line found yet, at least 1 move",
        ),
    ] {
        let run = Test::new()
            .in_root()
            .args(["solve", file, args[0], args[1], "--format", "json"])
            .run()
            .status(1);
        let v = run.json();
        assert_eq!(v[0]["status"], "gave_up", "{file} {args:?}: {v}");
        assert_eq!(v[0]["reason"], reason, "{file} {args:?}");
        assert!(
            v[0]["stats"]["nodes"].as_u64().unwrap() <= 1,
            "{file} {args:?}: {v}"
        );
    }
}

/// A memory limit below what the process held before its search began says so, with the
/// figure: the search's own tables had reached nothing.
#[test]
fn a_memory_limit_below_what_marbles_holds_at_the_start_says_what_it_held() {
    let v = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/peg_hop/english_central.yaml",
            "--max-memory",
            "5MB",
            "--format",
            "json",
        ])
        .run()
        .status(1)
        .json()[0]
        .clone();
    let reason = v["reason"].as_str().unwrap();
    let held = reason
        .strip_prefix("memory limit (4.8 MiB), below the ")
        .and_then(|r| r.strip_suffix(" MiB marbles held before the search began"))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(held.parse::<f64>().unwrap() > 4.8, "{v}");
}

/// A tilt, rewrite or sliding-robot search stopped says the fewest moves it proved needed,
/// rising with the positions it was let expand to the answer itself.
#[test]
fn a_tilt_rewrite_or_slide_search_stopped_says_the_moves_it_proved_needed() {
    for file in [
        "puzzles/tilt_roll/four_by_four.yaml",
        "puzzles/frogs_toads/frogs_toads_3.yaml",
        "puzzles/ricochet/red_circle.yaml",
    ] {
        let json = |more: &[&str]| {
            let mut args = vec!["solve", file, "--format", "json"];
            args.extend(more);
            Test::new().in_root().args(args).run().json()[0].clone()
        };
        let solved = json(&[]);
        assert_eq!(solved["moves_floor"], solved["move_count"], "{solved}");
        let (moves, nodes) = (
            solved["move_count"].as_u64().unwrap(),
            solved["stats"]["nodes"].as_u64().unwrap(),
        );
        let mut floors = Vec::new();
        for n in [1, nodes / 4, nodes / 2, nodes - 1] {
            let v = json(&["--max-nodes", &n.to_string()]);
            let least = v["moves_floor"].as_u64().unwrap();
            // The search of pieces holds a quick line: one as short as the floor is the
            // answer, proven (every Frogs and Toads line has the fewest moves).
            let line = v["move_count"].as_u64();
            let said = match line {
                Some(m) if m == least => {
                    assert_eq!(v["status"], "solved", "{v}");
                    floors.push(least);
                    continue;
                }
                Some(m) => format!("; best found so far {m} moves, at least {least}"),
                None => format!("; {}", no_line_yet(least)),
            };
            assert_eq!(v["status"], "gave_up", "{v}");
            assert!(line.is_none_or(|m| m >= moves), "{v}");
            assert!(v["reason"].as_str().is_some_and(|r| r.ends_with(&said)), "{v}");
            floors.push(least);
        }
        // Stopped a position before the one that ends it, a search is at most one move short
        // of the answer (breadth-first, its last layer unfinished).
        assert!(floors.windows(2).all(|w| w[0] <= w[1]), "{file}: {floors:?}");
        assert!(floors[0] >= 1, "{file}: {floors:?}");
        assert!((moves - 1..=moves).contains(&floors[3]), "{file}: {floors:?}");
    }
}

#[test]
fn ctrl_c_is_honoured_within_a_file_of_many_tiny_cases() {
    let cases = "3 1 0\n0 0\n2 2\n".repeat(60_000) + "0 0 0\n";
    let test = Test::new().file("many.icpc", &cases);
    let dir = test.path("");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_marbles"))
        .args(["batch", ".", "--quiet", "-j", "1"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let sent = std::time::Instant::now();
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "took {:?} after Ctrl-C",
        sent.elapsed()
    );
}

/// 128 cells and 7,680 scripted moves, all alike: from every cell `i`, over `i + a` to
/// `i + a + b` (mod 128) for sixty pairs `(a, b)`. The coordinates are no lattice's, every
/// cell has the same signature, and the fallback symmetry search (`Backtrack::extend`) takes
/// every step it may: some 6 s after a script of 1–2 s, in the test build on an idle machine.
const HOSTILE_SYMMETRY: &str = r#"fn rules(board) {
  let cells = board.cells;
  let n = cells.len();
  let pairs = [];
  for a in 1..64 {
    for b in 1..64 {
      if (7 * a + 3 * b) % 41 == 0 && pairs.len() < 60 { pairs.push([a, b]); }
    }
  }
  let moves = [];
  for p in pairs {
    for i in 0..n {
      moves.push(#{ from: cells[i], over: cells[(i + p[0]) % n], to: cells[(i + p[0] + p[1]) % n] });
    }
  }
  #{ kind: "hop", directions: [], moves: moves }
}
"#;

/// The hostile symmetry puzzle on a `rows` × `cols` board (128 cells).
fn hostile_symmetry(rows: usize, cols: usize) -> Test {
    let board: Vec<String> = (0..rows)
        .map(|r| {
            let row: Vec<&str> = (0..cols)
                .map(|c| if (r, c) == (3, 5) { "." } else { "o" })
                .collect();
            format!("  {}", row.join(" "))
        })
        .collect();
    Test::new()
        .file("rules/sym.rhai", HOSTILE_SYMMETRY)
        .file("p.yaml", &format!("rules: sym\nboard: |\n{}\n", board.join("\n")))
}

#[test]
fn every_phase_runs_under_the_time_limit() {
    // The script takes a second or two; the limit starts after it. The symmetry phase alone
    // takes half a second on an idle machine (its search is bounded in lookups): a limit of
    // a tenth of that stops it, and `check` says so of the phase itself.
    // The fewest moves' phases too, whose Merson regions are found from these 7,680 jumps.
    let fewest = "time limit (0.050 s); no line found yet, at least 1 move";
    for (rows, cols, how, reason) in [
        (8, 16, "", "time limit (0.050 s)"),
        (16, 8, "", "time limit (0.050 s)"),
        (4, 32, "", "time limit (0.050 s)"),
        (8, 16, "--fewest-moves", fewest),
    ] {
        let test = hostile_symmetry(rows, cols);
        let args = [
            "solve",
            "p.yaml",
            how,
            "--timeout",
            "0.05",
            "--script-timeout",
            "30",
            "--format",
            "json",
        ];
        let run = test
            .args(args.into_iter().filter(|a| !a.is_empty()))
            .run_bounded(SECS(60), None)
            .held(1024)
            .status(1);
        let v = run.json();
        assert_eq!(v[0]["reason"], reason, "{rows}×{cols} {how}: {v}");
        let spent = v[0]["stats"]["seconds"].as_f64().unwrap();
        assert!(
            spent < 0.5,
            "{rows}×{cols} {how}: the search phases took {spent} s"
        );
    }
    let test = hostile_symmetry(8, 16);
    let text = std::fs::read_to_string(test.path("p.yaml")).unwrap();
    std::fs::write(test.path("p.yaml"), format!("{text}solve:\n  timeout: 0.05\n")).unwrap();
    test.args(["check", "p.yaml", "--script-timeout", "30"])
        .run_bounded(SECS(60), None)
        .held(1024)
        .status(0)
        .stdout_has("symmetries not found: time limit (0.050 s)");
    for extra in [None, Some("--feasible")] {
        let mut args = vec!["count", "p.yaml", "--timeout", "0.05", "--script-timeout", "30"];
        args.extend(extra);
        let b = hostile_symmetry(8, 16).args(&args).run_bounded(SECS(60), None);
        // A second or two on a quiet machine, the script's run most of it; over 20 s once at a load
        // of 9. A count that ignored its limit would run until the 60 s kill.
        assert!(b.elapsed < SECS(40), "{args:?} took {:?}", b.elapsed);
        let run = b.held(1024).status(1);
        assert!(run.stderr.contains("time limit (0.050 s)"), "{}", run.stderr);
    }
}

#[test]
fn the_symmetry_fallback_takes_no_more_steps_than_the_node_limit() {
    // Without a time limit the node limit bounds it too: the fallback does without
    // symmetries after 1,000 steps, and the search then finds a game to one peg.
    let b = hostile_symmetry(8, 16)
        .args([
            "solve",
            "p.yaml",
            "--max-nodes",
            "1000",
            "--script-timeout",
            "30",
            "--format",
            "json",
        ])
        .run_bounded(SECS(60), None);
    assert!(b.elapsed < SECS(30), "took {:?}", b.elapsed);
    let v = b.held(1024).status(0).json();
    assert_eq!(v[0]["status"], "solved", "{v}");
    assert_eq!(v[0]["pegs_left"], 1, "{v}");
    assert_eq!(crate::support::line(&v[0]).as_array().unwrap().len(), 126, "{v}");
}

/// What this very binary holds doing nothing, in MiB (its code: ~4 MiB in a release build,
/// ~10 MiB in a debug one): measured memory figures allow for it.
fn idle_mib() -> i64 {
    // The most of three: each is polled, and on a loaded machine a poll of a process this
    // short may come before it has grown to its size, which set a limit below it.
    (0..3)
        .map(|_| {
            Test::new()
                .args(["--version"])
                .run_bounded(SECS(30), None)
                .peak_kib
                / 1024
        })
        .max()
        .unwrap_or(0)
}

/// `count` on the English edge board reaches every position: far more than these limits.
fn count_under(limit: Option<&str>, rlimit_as: Option<u64>) -> crate::support::Bounded {
    let mut args = vec!["count", "puzzles/peg_hop/english_edge.yaml", "--timeout", "120"];
    if let Some(l) = limit {
        args.extend(["--max-memory", l]);
    }
    Test::new()
        .in_root()
        .args(&args)
        .run_bounded(SECS(180), rlimit_as)
}

#[test]
fn the_layer_by_layer_count_holds_a_larger_limit_too() {
    // At 200 MB (190.7 MiB) `count --all` peaked at 240.6 MiB and `--positions-only` at 262.0:
    // the buffers of a round's successors, many small vectors, leave freed pieces behind them
    // as they grow, which the allocator keeps. The count now also checks what the process has
    // grown by, within rounds too.
    let allowed = 191 + idle_mib() + 2;
    for mode in ["--all", "--positions-only"] {
        let run = Test::new()
            .in_root()
            .args([
                "count",
                mode,
                "puzzles/peg_hop/english_edge.yaml",
                "--max-memory",
                "200MB",
            ])
            .run_bounded(SECS(300), None)
            .held(allowed)
            .status(1);
        assert!(
            run.stderr.contains("memory limit (190.7 MiB)"),
            "{mode}: {}",
            run.stderr
        );
    }
}

#[test]
fn max_memory_is_held_by_the_whole_process() {
    // 50 MB is 47.7 MiB: the process's own memory counts against it. Allow what this very
    // binary holds doing nothing (its code: ~4 MiB in a release build, ~10 MiB in a debug
    // one) and 2 MiB of allocator slack. Both counting searches, the bidirectional one
    // (`count`) and the layer by layer one (`count --all`).
    let idle = idle_mib();
    let allowed = 48 + idle + 2;
    let run = count_under(Some("50MB"), None).held(allowed).status(1);
    assert!(run.stderr.contains("memory limit (47.7 MiB)"), "{}", run.stderr);
    let run = Test::new()
        .in_root()
        .args([
            "count",
            "--all",
            "puzzles/peg_hop/english_edge.yaml",
            "--max-memory",
            "50MB",
        ])
        .run_bounded(SECS(180), None)
        .held(allowed)
        .status(1);
    assert!(run.stderr.contains("memory limit (47.7 MiB)"), "{}", run.stderr);
}

/// In a batch a puzzle's limit bounds its search's tables: the fewest-moves search's beam
/// counted none of its own (English held 116 MiB under 30MB, and solved under 60MB).
#[test]
fn a_batch_holds_the_fewest_moves_search_to_its_memory_limit() {
    let idle = idle_mib();
    let run = Test::new()
        .file(
            "one/english.yaml",
            &std::fs::read_to_string(root().join("puzzles/peg_hop/english_central.yaml")).unwrap(),
        )
        .args([
            "batch",
            "one",
            "--fewest-moves",
            "--max-memory",
            "30MB",
            "-j",
            "1",
            "--no-report",
        ])
        .run_bounded(SECS(60), None)
        // 28.6 MiB of tables, beside the binary's own (~12 MiB in a debug build; `--version`
        // may end before it is measured) and the batch's few MiB.
        .held(29 + idle.max(12) + 8)
        .status(1);
    assert!(run.stdout.contains("memory limit (28.6 MiB)"), "{}", run.stdout);
}

/// The beam that finds the fewest-moves search's first line counted the room its lists had
/// grown into but not filled, which is not resident: English edge under 54MB gave up in the
/// beam at a 35 MiB peak (release build), on a 27-move line from another search.
#[test]
fn the_fewest_moves_beam_counts_what_it_holds() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "--fewest-moves",
            "puzzles/peg_hop/english_edge.yaml",
            "--max-memory",
            "54MB",
            "--format",
            "json",
        ])
        .run_bounded(SECS(120), None)
        // 51.5 MiB: the whole process, within 2 MiB.
        .held(52 + 2)
        .status(0);
    let answer = &run.json()[0];
    assert_eq!(answer["status"], "solved", "{answer}");
    assert_eq!(answer["move_count"], 17, "{answer}");
}

/// A family of thousands of jumps lists that many children a position: the layers of the
/// fewest-moves search counted their lists every 4,096 positions, and 20,000 jumps on 127
/// holes passed 100MB (95.4 MiB) at a 120 MiB peak (release build).
#[test]
fn the_fewest_moves_layers_count_their_children_in_a_family_of_many_jumps() {
    // Each hole `a` jumps over `a + d` to `a + d + 17` or `a + d + 34`, around the 127 holes
    // (the table sized first and filled by index: pushing re-counts a long array each time).
    let script = "fn rules(board) {\n  let cells = board.cells;\n  let n = cells.len();\n  \
        let per = 20000 / n;\n  let jumps = [];\n  jumps.pad(per * n, 0);\n  let k = 0;\n  \
        for a in 0..n {\n    let cnt = 0;\n    for d in 1..n {\n      for e in [17, 34] {\n        \
        let to = (a + d + e) % n;\n        if to == a || to == (a + d) % n || cnt >= per { continue; }\n        \
        jumps[k] = #{ dir: \"x\", from: cells[a], over: cells[(a + d) % n], to: cells[to] };\n        \
        k += 1; cnt += 1;\n      }\n    }\n  }\n  jumps.truncate(k);\n  \
        #{ kind: \"hop\", layout: \"square\", directions: [\"x\"], jumps: jumps, goal: #{ pegs: 1 } }\n}\n";
    let full = "o ".repeat(16);
    let mut board = format!("  . {}\n", "o ".repeat(15));
    for _ in 1..8 {
        board += &format!("  {full}\n");
    }
    fewest_moves_give_up(script, 40, &board, "100MB", 95);
}

/// `marbles solve --fewest-moves` of the family `script` on `board` (drawn rows) to `pegs`
/// pegs under `--max-memory LIMIT`, where it gives up at that limit, `mib` MiB, with the
/// whole process within 2 MiB of it.
fn fewest_moves_give_up(script: &str, pegs: u32, board: &str, limit: &str, mib: i64) {
    let run = Test::new()
        .file("marbles.toml", "")
        .file("rules/family.rhai", script)
        .file(
            "p.yaml",
            &format!("rules: family\ngoal:\n  pegs: {pegs}\nboard: |\n{board}"),
        )
        .args([
            "solve",
            "--fewest-moves",
            "p.yaml",
            "--max-memory",
            limit,
            "--format",
            "json",
        ])
        .run_bounded(SECS(120), Some(3 << 30))
        .held(mib + 2)
        .status(1);
    let answer = &run.json()[0];
    assert_eq!(answer["status"], "gave_up", "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    assert!(reason.starts_with(&format!("memory limit ({mib}.")), "{answer}");
}

/// The line of a fewest-moves answer is walked back from its end by reversed chains, which,
/// where jumps take two pegs, put them back two at a time: unchecked, the walk on 127 holes
/// went through 12 GiB, deaf to the memory and time limits and to Ctrl-C, and aborted.
#[test]
fn the_walk_back_of_a_fewest_moves_line_holds_the_limits() {
    // Around the 127 holes: jumps over one peg, k away, and over two, k and 2k away.
    let script = "fn rules(board) {\n  let cells = board.cells; let n = cells.len();\n  \
        let jumps = []; jumps.pad(157 * n, 0); let j = 0;\n  \
        for k in 1..81 { for i in 0..n {\n    \
        jumps[j] = #{ dir: \"d\", from: cells[i], over: cells[(i + k) % n], to: cells[(i + 2 * k) % n] }; j += 1; } }\n  \
        for k in 1..78 { for i in 0..n {\n    \
        jumps[j] = #{ dir: \"d\", from: cells[i], over: [cells[(i + k) % n], cells[(i + 2 * k) % n]], to: cells[(i + 3 * k) % n] }; j += 1; } }\n  \
        #{ kind: \"hop\", directions: [\"d\"], jumps: jumps, goal: #{ pegs: 1 } }\n}\n";
    let mut board = format!("  . {}#\n", "o ".repeat(14));
    for _ in 1..8 {
        board += &format!("  {}\n", "o ".repeat(16).trim_end());
    }
    fewest_moves_give_up(script, 60, &board, "150MB", 143);
}

#[test]
fn the_default_count_holds_each_limit_within_two_mib() {
    // The bidirectional count passed 95MB (90.6 MiB) at 106.7 MiB and 60MB at 62.6: after
    // each layer glibc kept the freed partitions and batch buffers resident, and the next
    // layer's table was counted against the tables alone. The whole process's peak now stays
    // within 2 MiB of the limit, and the answer says how far the tables got.
    for (limit, said) in [("60MB", "57.2 MiB"), ("95MB", "90.6 MiB")] {
        let bytes: i64 = limit.trim_end_matches("MB").parse::<i64>().unwrap() * 1_000_000;
        let bounded = Test::new()
            .in_root()
            .args([
                "count",
                "puzzles/peg_hop/english_edge.yaml",
                "--max-memory",
                limit,
                "--format",
                "json",
            ])
            .run_bounded(SECS(180), None);
        let peak = bounded.peak_kib * 1024;
        let run = bounded.held(1024).status(1);
        assert_eq!(
            run.stderr,
            format!("marbles: gave up counting puzzles/peg_hop/english_edge.yaml: memory limit ({said})\n")
        );
        assert!(
            peak <= bytes + (2 << 20),
            "{limit}: peak {:.1} MiB, limit {said}",
            peak as f64 / f64::from(1 << 20)
        );
        let json = run.json();
        assert_eq!(json["status"], "gave_up");
        let memory = json["memory_bytes"].as_i64().unwrap();
        assert!(memory > bytes / 4 && memory < bytes, "{limit}: {json}");
    }
}

#[test]
fn an_answer_that_gave_up_on_memory_says_what_its_tables_reached() {
    // A depth-first search stopped by a limit returned no figure of its own: 0 bytes.
    let yaml = crate::support::diamond41_from_tip();
    let run = Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--max-memory", "24MB", "--format", "json"])
        .run_bounded(SECS(120), None)
        .held(1024)
        .status(1);
    let answer = &run.json()[0];
    assert_eq!(answer["reason"], "memory limit (22.9 MiB)", "{answer}");
    let memory = answer["stats"]["memory_bytes"].as_u64().unwrap();
    assert!(memory > 0 && memory < 24_000_000, "{answer}");
}

#[test]
fn a_positions_only_count_stops_at_each_limit() {
    // English edge: far more positions than a debug build counts in a second or in 30 MB.
    let edge = "puzzles/peg_hop/english_edge.yaml";
    for (limit, said) in [
        (["--timeout", "1"], "time limit (1.000 s)"),
        (["--max-memory", "30MB"], "memory limit (28.6 MiB)"),
        (["--max-nodes", "1000"], "node limit (1000 nodes)"),
    ] {
        let run = Test::new()
            .in_root()
            .args(["count", "--positions-only", edge].iter().chain(&limit))
            .run_bounded(SECS(60), None)
            .held(1024)
            .status(1);
        assert!(run.stderr.contains(said), "{limit:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{limit:?}");
    }
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_marbles"));
    cmd.args(["count", "--positions-only", edge])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let out = crate::support::interrupted(&mut cmd, SECS(3));
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_default_memory_limit_respects_the_address_space_cap() {
    // Under a 300 MiB address-space cap the default limit must keep the search inside it:
    // it gives up on memory instead of aborting on a failed allocation.
    let run = count_under(None, Some(300 << 20)).held(300).status(1);
    assert!(run.stderr.contains("memory limit"), "{}", run.stderr);
    let _ = root();
}

#[test]
fn endgame_tables_are_built_under_the_time_limit() {
    // Diamond 41 with its top tip vacant, to one peg anywhere: in the position class, yet
    // neither the depth-first search (past the 2^20 nodes after which an endgame table is
    // built) nor the beams towards the one-peg finishes find it (release: no answer in 20 s;
    // a 7×7 square used here before is now solved by the beams in 0.2 s). 8 s, so that a
    // loaded machine (230 k nodes/s in a debug build) still gets past 2^20 nodes.
    let rows = diamond41_rows((0, 4));
    let run = Test::new()
        .file(
            "p.yaml",
            &format!("rules: peg_hop\nboard: |\n{rows}goal:\n  pegs: 1\n"),
        )
        .args(["solve", "p.yaml", "--timeout", "8", "--format", "json"])
        .run_bounded(SECS(60), None)
        .held(1024)
        .status(1);
    let v = run.json();
    assert_eq!(v[0]["reason"], "time limit (8.000 s)", "{v}");
    assert!(v[0]["stats"]["nodes"].as_u64().unwrap() >= 1 << 20, "{v}");
    let spent = v[0]["stats"]["seconds"].as_f64().unwrap();
    assert!(spent < 8.5, "stopped {spent} s after it started");
}

#[test]
fn an_explicit_memory_limit_holds_under_an_address_space_cap() {
    // Issue 10: 350MB under a 700 MB address-space cap aborted on one 570 MB table growth.
    // Counted before it grows, the table gives up instead.
    let run = count_under(Some("350MB"), Some(700 << 20))
        .held(334 + 8)
        .status(1);
    assert!(run.stderr.contains("memory limit (333.8 MiB)"), "{}", run.stderr);
}

#[test]
fn ctrl_c_stops_a_count_and_says_so() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_marbles"));
    cmd.args(["count", "--all", "puzzles/peg_hop/english_edge.yaml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let out = crate::support::interrupted(&mut cmd, SECS(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr
            .starts_with("marbles: gave up counting puzzles/peg_hop/english_edge.yaml: interrupted (Ctrl-C)"),
        "{stderr}"
    );
}

/// A board of one row drawn 1 MB wide: reading and drawing it once cost the square of its
/// width (each token's column was counted from the start of the row), seconds before any
/// budget or Ctrl-C applied.
#[test]
fn a_megabyte_wide_board_row_is_read_in_linear_time() {
    let row = format!("{} o o .", vec!["#"; 510_000].join(" "));
    // `solve` gives up at once (exit 1) under its zero time limit; `check` finds it sound.
    for (args, code) in [
        (&["solve", "row.yaml", "--timeout", "0"][..], 1),
        (&["check", "row.yaml"], 0),
    ] {
        Test::new()
            .file("row.yaml", &format!("rules: peg_hop\nboard: |\n  {row}\n"))
            .args(args)
            .run_bounded(SECS(8), None)
            .held(1024)
            .status(code);
    }
}

/// Files of thousands of Lisp calls or matrices: splitting them into cases once cost the
/// square of their length (minutes before the first case), and `check` ignored Ctrl-C.
#[test]
fn ctrl_c_stops_solve_and_check_while_many_cases_are_prepared() {
    let test = Test::new()
        .file("many.matrix", &"1 1\n1 0\n\n".repeat(111_111))
        .file(
            "many.lisp",
            &"(peg-puzzle '((o) (x x) (x x x)) #f)\n".repeat(22_727),
        );
    for cmd in ["solve", "check"] {
        for file in ["many.matrix", "many.lisp"] {
            let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_marbles"));
            c.args([cmd, file]).current_dir(test.path(""));
            let started = std::time::Instant::now();
            let out = crate::support::interrupted(&mut c, SECS(2));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(130), "{cmd} {file}: {stderr}");
            assert!(
                started.elapsed() < SECS(8),
                "{cmd} {file}: {:?}",
                started.elapsed()
            );
        }
    }
}

/// A search for a first solution stopped by a limit shows no line: where it happened to stop
/// is no answer, and no best so far (it showed a 29-jump line leaving 6 pegs, unexplained).
#[test]
fn a_first_solution_search_stopped_shows_no_line() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "--max-nodes",
            "100",
            "--format",
            "json",
            "puzzles/triangle_hop/triangle8.yaml",
        ])
        .run()
        .status(1);
    let o = &run.json()[0];
    assert_eq!(o["reason"], "node limit (100 nodes)", "{o}");
    assert_eq!(o["jumps"], serde_json::json!([]), "{o}");
    assert!(
        o.get("move_count").is_none() && o.get("pegs_left").is_none(),
        "{o}"
    );
}

/// Ctrl-C during `solve` of several files: the search it cuts is given up, and the files
/// after it are named as not run, not read (their scripts stopped on the way in read as
/// errors of the files).
#[test]
fn ctrl_c_during_solve_names_the_files_not_run() {
    let test = Test::new()
        .file("tip.yaml", &crate::support::diamond41_from_tip())
        .file("a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("b.yaml", "rules: triangle_hop\nboard: |\n  .\n  o o\n");
    let mut c = test.command();
    c.args(["solve", "tip.yaml", "a.yaml", "b.yaml"]);
    let out = crate::support::interrupted(&mut c, SECS(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr,
        "marbles: interrupted (Ctrl-C); 2 files not run: a.yaml, b.yaml\n"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("gave up: interrupted"));
}

/// A search Ctrl-C cut is no answer to judge: a file expecting one is told interrupted, not
/// "not as expected: … got gave up".
#[test]
fn ctrl_c_during_solve_is_not_judged_against_expect() {
    let puzzle = crate::support::diamond41_from_tip() + "expect: solved\n";
    let test = Test::new().file("tip.yaml", &puzzle);
    let mut c = test.command();
    c.args(["solve", "tip.yaml"]);
    let out = crate::support::interrupted(&mut c, SECS(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr,
        "marbles: interrupted (Ctrl-C): tip.yaml: tip stopped before its answer, not judged against expect:\n"
    );
}

#[test]
fn ctrl_c_in_a_script_is_called_an_interruption_not_a_time_limit() {
    let test = Test::new()
        .file(
            "rules/spin.rhai",
            "fn rules(board) {\n  let n = 0;\n  loop { n += 1; }\n}\n",
        )
        .file("p.yaml", "rules: spin\nboard: |\n  o o .\n");
    // Cut while the script builds the board, the puzzle's turn is given up, interrupted, as a
    // search's would be: no command calls it an error of the file or of its script (`count`
    // heard no Ctrl-C at all before its search began, and counted on to exit 0).
    // `check` of the script itself, alone or on the puzzle, says what it was running.
    for (args, stdout, stderr) in [
        (
            &["solve", "p.yaml"][..],
            "gave up: interrupted (Ctrl-C) while the rule script built the board\n",
            "",
        ),
        (
            &["count", "p.yaml"],
            "",
            "marbles: gave up counting p.yaml: interrupted (Ctrl-C) while the rule script built the board\n",
        ),
        (
            &["check", "p.yaml"],
            "",
            "marbles: check interrupted (Ctrl-C) before any puzzle was checked (cut while the rule script ran for p.yaml)\n",
        ),
        (
            &["check", "rules/spin.rhai"],
            "",
            "marbles: check interrupted (Ctrl-C) before any puzzle was checked (cut while rules/spin.rhai ran on a sample 5×5 board)\n",
        ),
        (
            &["check", "rules/spin.rhai", "p.yaml"],
            "",
            "marbles: check interrupted (Ctrl-C) before any puzzle was checked (cut while rules/spin.rhai ran on p.yaml)\n",
        ),
    ] {
        let mut c = test.command();
        c.args(args).args(["--script-timeout", "30"]);
        let out = crate::support::interrupted(&mut c, SECS(1));
        let (out_text, err_text) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(130), "{args:?}: {err_text}");
        assert!(out_text.contains(stdout), "{args:?}: {out_text}");
        assert_eq!(err_text, stderr, "{args:?}");
    }
    // In a batch, the one file's turn was cut: no file is left unrun, no error is counted.
    let mut c = test.command();
    c.args(["batch", ".", "--script-timeout", "30", "--report", "rep"]);
    let out = crate::support::interrupted(&mut c, SECS(1));
    assert_eq!(out.status.code(), Some(130));
    // Its row counts the second its script ran, not `0.0ms`.
    let summary = std::fs::read_to_string(test.path("rep/summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    let seconds = summary["results"][0]["stats"]["seconds"].as_f64().unwrap();
    assert!(seconds > 0.5, "{seconds}");
    let md = std::fs::read_to_string(test.path("rep/summary.md")).unwrap();
    assert!(
        md.starts_with("> **incomplete run: interrupted \\(Ctrl-C\\); 1 search stopped before its answer**"),
        "{md}"
    );
    assert!(
        md.contains("1 puzzle: 0 solved, 0 unsolvable, 1 gave up, 0 errors;"),
        "{md}"
    );
}

#[test]
fn each_case_of_a_many_case_file_is_solved_under_the_memory_limit() {
    // A file of 700 triangles: each case is compiled when its turn comes and dropped after, so
    // the limit covers the case being solved. When every case was compiled up front, their
    // tables together (~18 KiB each) pushed the process past the limit before the first
    // search, and all 700 trivial cases gave up on memory.
    let idle = idle_mib();
    let cases: String = (0..700)
        .map(|i| {
            let hole = i % 15;
            let mut cells = vec!["x"; 15];
            cells[hole] = "o";
            let rows: Vec<String> = (1..=5)
                .map(|n| format!("({})", cells[n * (n - 1) / 2..n * (n + 1) / 2].join(" ")))
                .collect();
            format!("({})\n", rows.join(" "))
        })
        .collect();
    let limit = format!("{}MiB", idle + 16);
    let run = Test::new()
        .file("many.lisp", &cases)
        .args(["solve", "many.lisp", "--format", "json", "--max-memory", &limit])
        .run_bounded(SECS(300), None)
        .held(idle + 16)
        .status(0);
    let v = run.json();
    let all = v.as_array().expect("one answer per case");
    assert_eq!(all.len(), 700);
    for (i, o) in all.iter().enumerate() {
        assert_eq!(o["status"], "solved", "case {}: {o}", i + 1);
        assert_eq!(o["pegs_left"], 1, "case {}: {o}", i + 1);
    }
}

/// Diamond 41, centre empty, the fewest pegs with one of them at `[1, 4]`: pagodas rule out
/// every two-peg finish there, which no search of ours proves, so the exact search for two
/// runs on past every limit once beams have found three.
fn diamond_fewest_at_1_4() -> String {
    let plain = std::fs::read_to_string(root().join("benches/diamond41.yaml")).unwrap();
    plain.replace("  pegs: fewest\n", "  pegs: fewest\n  at: [1, 4]\n")
}

/// Checks that a fewest answer `json` stopped by `stop` gives its best as not proven, and
/// that its moves replay to that many pegs on `yaml`'s board, one of them on `at` if given.
#[track_caller]
fn best_not_proven(yaml: &str, json: &serde_json::Value, stop: &str, at: Option<(i64, i64)>) {
    let o = &json[0];
    assert_eq!(o["status"], "gave_up", "{o}");
    let n = o["pegs_left"].as_u64().unwrap();
    assert_eq!(
        o["reason"],
        format!(
            "{stop}; best found so far {n} pegs, at least 2 \
             (position class: no 1-peg position shares the start's class)"
        )
    );
    assert_eq!(o["pegs_floor"], 2, "{o}");
    let left = crate::cli::replay_hops(yaml, crate::support::line(o), &crate::cli::SQUARE);
    assert_eq!(left.len() as u64, n);
    assert!(n >= 3, "two pegs would have been proven optimal: {o}");
    assert!(at.is_none_or(|c| left.contains(&c)), "{left:?}");
}

#[test]
fn a_stopped_fewest_search_returns_its_best_marked_not_proven() {
    // A node limit inside the beams: on the plain diamond they find two pegs a little
    // after the first capped search's 2^20 nodes.
    let plain = std::fs::read_to_string(root().join("benches/diamond41.yaml")).unwrap();
    let run = Test::new()
        .file("p.yaml", &plain)
        .args(["solve", "p.yaml", "--format", "json", "--max-nodes", "1100000"])
        .run_bounded(SECS(60), None)
        .held(512)
        .status(1);
    best_not_proven(&plain, &run.json(), "node limit (1100000 nodes)", None);
    // The same beams serve `pegs: 2`, under the same limit, to the node.
    let run = Test::new()
        .file("p.yaml", &plain.replace("pegs: fewest", "pegs: 2"))
        .args(["solve", "p.yaml", "--format", "json", "--max-nodes", "1100000"])
        .run_bounded(SECS(60), None)
        .held(512)
        .status(1);
    let v = run.json();
    assert_eq!(v[0]["reason"], "node limit (1100000 nodes)", "{v}");
    assert_eq!(v[0]["stats"]["nodes"], 1100000, "{v}");
    // Ctrl-C, and the memory limit, wherever they find the search.
    let yaml = diamond_fewest_at_1_4();
    let test = Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--format", "json"]);
    let out = crate::support::interrupted(&mut test.command(), SECS(2));
    let json = serde_json::from_slice(&out.stdout).unwrap();
    best_not_proven(&yaml, &json, "interrupted", Some((1, 4)));
    let idle = idle_mib();
    let run = Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--format", "json", "--max-memory", "50MB"])
        .run_bounded(SECS(120), None)
        .held(48 + idle + 2)
        .status(1);
    best_not_proven(&yaml, &run.json(), "memory limit (47.7 MiB)", Some((1, 4)));
}

/// Pieces of one kind stepping to a side-by-side empty hole.
const STEPS: &str = r#"
fn rules(board) {
    let grid = board.lattice("square");
    let moves = [];
    for cell in grid.cells {
        for d in [[0, -1], [0, 1], [-1, 0], [1, 0]] {
            let to = grid.at(grid.x(cell[0], cell[1]) + d[0], grid.y(cell[0], cell[1]) + d[1]);
            if to != () && grid.has(to[0], to[1]) {
                moves.push(#{ at: [cell, to], was: "o.", becomes: ".o" });
            }
        }
    }
    #{ kind: "rewrite", pieces: ["o"], directions: [], moves: moves }
}
"#;

#[test]
fn the_depth_first_search_of_pieces_of_kinds_holds_its_limit() {
    // Five pieces on 10 × 12 holes, the goal a piece on a hole no step reaches: the search
    // goes about as deep as it has positions, and its levels (a few moves each) outweigh its
    // visited set. Counted at their moves alone, they took it past its limit by a sixth:
    // 222.2 MiB under 200MB (190.7 MiB), release build.
    // Rows of 12 holes, pieces in the columns given; row 0 ends in a hole of its own.
    let row = |indent: &str, pieces: &[usize]| {
        let holes: Vec<&str> = (0..12)
            .map(|c| if pieces.contains(&c) { "o" } else { "." })
            .collect();
        format!("{indent}{}\n", holes.join(" "))
    };
    let drawing = |indent: &str, top: &[usize], alone: &str, bottom: &[usize]| {
        let mut rows = row(indent, top).replace('\n', &format!(" # {alone}\n"));
        rows += &row(indent, &[]).repeat(8);
        rows + row(indent, bottom).as_str()
    };
    let yaml = format!(
        "rules: steps\nboard: |\n{}goal:\n  board: |\n{}",
        drawing("  ", &[0, 1, 2, 3], ".", &[11]),
        drawing("    ", &[], "o", &[0, 1, 2, 3])
    );
    // The child's peak counts what this process held when it forked (see `idle_mib`).
    let run = Test::new()
        .file("rules/steps.rhai", STEPS)
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--max-memory", "200MB"])
        .run_bounded(SECS(120), None)
        .held(191 + idle_mib() + 2)
        .status(1);
    assert!(
        run.stdout.contains("memory limit (190.7 MiB)"),
        "{}\n{yaml}",
        run.stdout
    );
}

/// A tilt search stopped at the memory limit reports the largest memory a check passed, not
/// the growth it refused (a 40 × 40 board gave up under 200 MB saying it held 272 MB).
#[test]
fn a_tilt_search_stopped_at_its_memory_limit_reports_what_it_held() {
    // 40 × 40, six marbles and their holes, 300 walls, from a fixed seed.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut squares: Vec<(u64, u64)> = Vec::new();
    while squares.len() < 12 {
        let s = (next(40), next(40));
        if !squares.contains(&s) {
            squares.push(s);
        }
    }
    let mut case = String::from("40 6 300\n");
    for (r, c) in &squares {
        case += &format!("{r} {c}\n");
    }
    for _ in 0..300 {
        let (r, c) = (next(40), next(39));
        case += &match next(2) {
            0 => format!("{r} {c} {r} {}\n", c + 1),
            _ => format!("{c} {r} {} {r}\n", c + 1),
        };
    }
    case += "0 0 0\n";
    let o = Test::new()
        .file("wide.icpc", &case)
        .args(["solve", "--max-memory", "60MB", "--format", "json", "wide.icpc"])
        .run()
        .status(1)
        .json()[0]
        .clone();
    assert!(
        o["reason"]
            .as_str()
            .unwrap()
            .starts_with("memory limit (57.2 MiB); "),
        "{o}"
    );
    let held = o["stats"]["memory_bytes"].as_u64().unwrap();
    assert!(held <= 60_000_000, "{held} bytes held under a 60 MB limit");
}

#[test]
fn a_node_limit_of_n_lets_a_search_look_at_n_nodes() {
    // An answer found at its Nth node is found under `--max-nodes N`, and not under N − 1,
    // which looks at N − 1 nodes: in each kind of search that looks at one node at a time.
    for file in [
        "puzzles/triangle_hop/corner.yaml",
        "puzzles/tilt_roll/four_by_four.yaml",
        "puzzles/frogs_toads/frogs_toads_3.yaml",
        "puzzles/ricochet/red_circle.yaml",
    ] {
        let run = |limit: Option<u64>| {
            let mut args = vec![
                "solve".to_string(),
                file.to_string(),
                "--format".into(),
                "json".into(),
            ];
            args.extend(
                limit
                    .map(|n| ["--max-nodes".to_string(), n.to_string()])
                    .into_iter()
                    .flatten(),
            );
            Test::new().in_root().args(&args).run().json()[0].clone()
        };
        let free = run(None);
        assert_eq!(free["status"], "solved", "{file}: {free}");
        let n = free["stats"]["nodes"].as_u64().unwrap();
        let at = run(Some(n));
        assert_eq!(
            (&at["status"], &at["stats"]["nodes"]),
            (&"solved".into(), &n.into()),
            "{file}: {at}"
        );
        let short = run(Some(n - 1));
        assert_eq!(short["stats"]["nodes"], n - 1, "{file}: {short}");
        // Unless the quick line it holds is as short as the floor its N − 1 nodes proved.
        match short["status"].as_str() {
            Some("solved") => assert_eq!(short["moves_floor"], short["move_count"], "{file}: {short}"),
            _ => assert_eq!(short["status"], "gave_up", "{file}: {short}"),
        }
    }
}

#[test]
fn check_says_when_the_symmetry_search_stopped_before_it_knew_the_group() {
    // 64 cells in a ring, a jump from each over the next: 64 rotations, more than the tables
    // hold. The search stops at 24 and uses none, which `check` said as "1 symmetry".
    let ring = "fn rules(board) {\n  let cells = board.cells;\n  let n = cells.len();\n  let jumps = [];\n  for i in 0..n {\n    jumps.push(#{ from: cells[i], over: cells[(i + 1) % n], to: cells[(i + 2) % n] });\n  }\n  #{ kind: \"hop\", directions: [], jumps: jumps }\n}\n";
    let rows: Vec<String> = (0..8)
        .map(|r| {
            format!(
                "  {}",
                if r == 0 {
                    ". o o o o o o o"
                } else {
                    "o o o o o o o o"
                }
            )
        })
        .collect();
    Test::new()
        .file("rules/ring.rhai", ring)
        .file("p.yaml", &format!("rules: ring\nboard: |\n{}\n", rows.join("\n")))
        .args(["check", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("(ring: 64 holes, 63 pegs, 64 jumps, symmetries not found: more than 24, or too many to search for; none used)");
}

/// The Chinese rings as rewrites: the one line from n rings on to none is about 2^(n+1)/3
/// moves long, a few rules making an answer of any length.
const RINGS: &str = r#"fn rules(board) {
    let n = board.cols;
    let moves = [];
    for i in 0..n {
        let at = [];
        for j in 0..(i + 1) { at.push([0, j]); }
        let pre = "";
        if i >= 1 {
            for j in 0..(i - 1) { pre += "."; }
            pre += "o";
        }
        moves.push(#{ dir: "on", at: at, was: pre + ".", becomes: pre + "o" });
        moves.push(#{ dir: "off", at: at, was: pre + "o", becomes: pre + "." });
    }
    #{ kind: "rewrite", layout: "square", pieces: ["o"], directions: ["on", "off"], moves: moves }
}
"#;

#[test]
fn an_answer_too_long_to_hold_under_the_memory_limit_gives_up_saying_how_long() {
    let rings = |limit: &[&str]| {
        Test::new()
            .file("rules/rings.rhai", RINGS)
            .file(
                "r.yaml",
                "rules: rings\nboard: |\n  o o o o o o o o o o o o o o\ngoal:\n  pegs: 0\n",
            )
            .args(["solve", "r.yaml"].iter().chain(limit))
            .run()
    };
    // 14 rings take 10,922 moves, replayed to the goal.
    rings(&[])
        .status(0)
        .stdout_has("\nsolved in 10922 moves, 0 pieces left\n");
    // A 32nd of 32 MB is less than their ~1.5 MiB of moves and boards.
    rings(&["--max-memory", "32MB"]).status(1).stdout_has(
        "\ngave up: the line found is 10922 moves long: its moves and boards would take \
         ~1.5 MiB, more than an answer may hold (976.6 KiB)\n",
    );
}

#[test]
fn a_sliding_robot_search_holds_its_memory_limit_while_its_lists_grow() {
    // An open 24×24 board, robots in the corners: the search by moves turns breadth-first
    // and its lists double past the limit unless each doubling is checked before it is made.
    let mut rows = vec![vec!['.'; 24]; 24];
    (rows[0][0], rows[0][23], rows[23][0], rows[23][23]) = ('R', 'G', 'B', 'Y');
    let board: String = rows
        .iter()
        .map(|r| {
            format!(
                "  {}\n",
                r.iter().map(char::to_string).collect::<Vec<_>>().join(" ")
            )
        })
        .collect();
    let yaml = format!("rules: ricochet\nboard: |\n{board}goal:\n  reach: [11, 13]\n  piece: R\n");
    let bounded = Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--max-memory", "60MB"])
        .run_bounded(SECS(60), None);
    let peak = bounded.peak_kib * 1024;
    bounded
        .held(1024)
        .status(1)
        .stdout_has("gave up: memory limit (57.2 MiB); no line found yet, at least 25 moves");
    assert!(
        peak <= 60_000_000,
        "peak {:.1} MiB",
        peak as f64 / f64::from(1 << 20)
    );
}
