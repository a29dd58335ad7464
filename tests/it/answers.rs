//! Answers that are always true and work that is never lost: figures replayed from the moves,
//! `--resume` keyed on everything that shapes an answer, rule lookup by real location, jobs
//! capped by the work, time limits checked, report folders locked and written as one set.

use crate::support::{Test, alpha_and_beta, batch_into_rep};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A puzzle marbles does not decide in under a minute: the 41-hole diamond from its tip, which
/// its position class, single pagodas and beams all leave open (no game from it ends with one
/// peg, as `benches/diamond41_proof.py` proves in minutes), so a run given a few seconds gives up.
fn slow_puzzle() -> String {
    let rows = [
        "# # # # . # # # #",
        "# # # o o o # # #",
        "# # o o o o o # #",
        "# o o o o o o o #",
        "o o o o o o o o o",
        "# o o o o o o o #",
        "# # o o o o o # #",
        "# # # o o o # # #",
        "# # # # o # # # #",
    ];
    let mut s = String::from("name: Slow\nrules: peg_hop\nboard: |\n");
    for r in rows {
        s.push_str(&format!("  {r}\n"));
    }
    s + "goal:\n  pegs: 1\n"
}

const QUICK: &str = "name: Quick\nrules: peg_hop\nboard: |\n  o o . o\ngoal:\n  pegs: 2\n";
/// A solvable puzzle of three lines, to which a test adds its own.
const QUICK_BODY: &str = "rules: peg_hop\nboard: |\n  o o . o\n";

fn summary(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

/// Waits (at most 60 s) until `ready` holds, polling.
fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let t = Instant::now();
    while !ready() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn spawn(mut cmd: Command) -> Child {
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run marbles")
}

/// `batch set --report rep --quiet`, then `extra`.
fn batch_set(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["batch", "set", "--report", "rep", "--quiet"];
    args.extend(extra);
    args.into_iter().map(String::from).collect()
}

/// Waits for `child` and checks its exit status.
#[track_caller]
fn exits(child: Child, code: i32) {
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
}

#[test]
fn pegs_left_are_counted_on_the_board_the_moves_leave() {
    // The endgame table's finishing line reused the move that entered it, and the search
    // reported the position before that move: "31 moves, 3 pegs left".
    let board = "  # # . o o # #\n  # # o o o # #\n  o o o o o o o\n  o o o o o o o\n  o o o o o o o\n  # # o o o # #\n  # # o o o # #\n";
    let run = Test::new()
        .file(
            "corner.yaml",
            &format!("rules: peg_hop\nboard: |\n{board}goal:\n  pegs: 1\n"),
        )
        .args(["solve", "corner.yaml", "--format", "json"])
        .run()
        .status(0);
    let o = &run.json()[0];
    let moves = crate::support::line(o).as_array().unwrap().len() as u64;
    // 32 pegs at the start, one fewer after each jump.
    assert_eq!(o["pegs_left"].as_u64(), Some(32 - moves), "{o}");
    assert_eq!(o["pegs_left"], 1);
}

/// The last of the most directions a family may name (64) is the tilt taken, by name.
#[test]
fn tilt_families_with_the_most_directions_name_the_tilt_taken() {
    let script = r#"
fn rules(board) {
    let directions = [];
    for i in 0..63 { directions.push(#{ name: "d" + i, step: [1, 0] }); }
    directions.push(#{ name: "down", step: [1, 0] });
    let links = [];
    for cell in board.cells {
        if board.has(cell[0] + 1, cell[1]) {
            links.push(#{ dir: "down", from: cell, to: [cell[0] + 1, cell[1]] });
        }
    }
    #{ kind: "tilt", directions: directions, links: links }
}
"#;
    let run = Test::new()
        .file("many.rhai", script)
        .file(
            "t.yaml",
            "rules: many.rhai\nsize: 3\nmarbles: [[0, 0]]\nholes: [[2, 0]]\n",
        )
        .args(["solve", "t.yaml", "--format", "json"])
        .run()
        .status(0);
    assert_eq!(run.json()[0]["moves"], serde_json::json!([{ "tilt": "down" }]));
}

#[test]
fn resume_solves_again_under_other_options() {
    let t = Test::new().file("set/q.yaml", QUICK);
    let run = |extra: &[&str]| {
        let args = batch_set(&[&["--resume"], extra].concat());
        Test::new().in_dir(t.path("").as_path()).args(args).run()
    };
    run(&[]).status(0);
    assert_eq!(summary(&t.path("rep"))["results"][0]["pegs_left"], 2);
    // --fewest is another goal: one peg can be left, and a fresh answer says so.
    run(&["--fewest"]).status(0);
    assert_eq!(summary(&t.path("rep"))["results"][0]["pegs_left"], 1);
    for (extra, words) in [
        (&["--order", "reverse"][..], "order: reverse"),
        (&["--shuffle", "--seed", "7"][..], "order: shuffle, seed 7"),
        (&["--max-nodes", "1000000"][..], "max nodes 1000000"),
        (&["--timeout", "100"][..], "timeout 100 s"),
    ] {
        run(extra).status(0);
        let s = summary(&t.path("rep"));
        let settings = s["results"][0]["settings"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(settings.contains(words), "{extra:?}: {settings}");
    }
}

#[test]
fn a_file_edited_while_it_is_solved_is_not_reused() {
    let t = Test::new().file("set/p.yaml", &slow_puzzle());
    let mut cmd = t.command();
    cmd.args(batch_set(&["--timeout", "3"]));
    let child = spawn(cmd);
    std::thread::sleep(Duration::from_millis(1500));
    std::fs::write(t.path("set/p.yaml"), QUICK).unwrap();
    exits(child, 1);
    assert_eq!(summary(&t.path("rep"))["results"][0]["status"], "gave_up");
    // The result was for the old bytes: the edited file is solved afresh.
    Test::new()
        .in_dir(t.path("").as_path())
        .args(batch_set(&["--resume", "--timeout", "3"]))
        .run()
        .status(0);
    assert_eq!(summary(&t.path("rep"))["results"][0]["status"], "solved");
}

/// A `peg_hop.rhai` that only jumps rightwards: a solution with it differs from the built-in's.
const RIGHT_ONLY: &str = r#"
fn rules(board) {
    let moves = [];
    for cell in board.cells {
        if board.has(cell[0], cell[1] + 2) {
            moves.push(#{ dir: "right", from: cell, over: [cell[0], cell[1] + 1], to: [cell[0], cell[1] + 2] });
        }
    }
    #{ kind: "hop", directions: ["right"], moves: moves }
}
"#;

fn script_used(dir: &Path, file: &str) -> String {
    let run = Test::new()
        .in_dir(dir)
        .args(["solve", file, "--format", "json"])
        .run()
        .no_panic();
    run.json()[0]["script"].as_str().unwrap_or_default().to_string()
}

#[test]
fn rule_lookup_follows_the_file_not_the_spelling_of_its_path() {
    let t = Test::new()
        .file("proj/marbles.toml", "")
        .file("proj/rules/peg_hop.rhai", RIGHT_ONLY)
        .file(
            "proj/sub/p.yaml",
            "rules: peg_hop\nboard: |\n  o o . . . .\ngoal:\n  pegs: 1\n",
        );
    let proj = std::fs::canonicalize(t.path("proj")).unwrap();
    let mine = proj.join("rules/peg_hop.rhai").display().to_string();
    let abs = proj.join("sub/p.yaml").display().to_string();
    assert_eq!(script_used(&proj.join("sub"), "p.yaml"), mine);
    // Shown relative to the working folder when below it, else in full.
    assert_eq!(script_used(&proj, "sub/p.yaml"), "rules/peg_hop.rhai");
    assert_eq!(script_used(Path::new("/"), &abs), mine);
    // The text answer says which script it used too.
    Test::new()
        .in_dir(&proj.join("sub"))
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has(&format!("(p.yaml, {mine})"));
}

#[test]
fn rules_folders_above_the_boundary_are_not_used() {
    // Like a world-writable /tmp/rules: a folder above the puzzle with no project marker
    // between them. Its script would refuse every board.
    let hostile = "fn rules(board) { throw \"hijacked\"; }";
    let t = Test::new()
        .file("outer/rules/peg_hop.rhai", hostile)
        .file("outer/set/p.yaml", QUICK)
        .file("outer/proj/marbles.toml", "")
        .file("outer/proj/p.yaml", QUICK);
    let outer = std::fs::canonicalize(t.path("outer")).unwrap();
    assert_eq!(script_used(&outer, "set/p.yaml"), "<builtin>/peg_hop.rhai");
    assert_eq!(script_used(&outer, "proj/p.yaml"), "<builtin>/peg_hop.rhai");
    // A batch finds the same, whatever folder it was given, and its report names the script.
    Test::new().in_dir(&outer).args(batch_set(&[])).run().status(0);
    assert_eq!(
        summary(&outer.join("rep"))["results"][0]["script"],
        "<builtin>/peg_hop.rhai"
    );
}

#[test]
fn more_jobs_than_puzzles_do_not_shrink_the_memory_limit() {
    // -j 4000 used to give each job a 4000th of the default memory limit: 1.5 MiB here.
    Test::new()
        .in_root()
        .args([
            "batch",
            "puzzles/peg_hop/english_edge.yaml",
            "-j",
            "4000",
            "--no-report",
            "--quiet",
        ])
        .run()
        .status(0)
        .stdout_has("solved");
}

#[test]
fn time_limits_take_units_in_yaml_and_on_the_command_line() {
    for (written, flag, said) in [
        ("10s", None, "timeout 10 s"),
        ("2 min", None, "timeout 120 s"),
        ("0.5", Some("500ms"), "timeout 0.5 s"),
        ("1h", Some("90s"), "timeout 90 s"),
    ] {
        let mut args = vec!["solve", "t.yaml", "--format", "json"];
        args.extend(flag.iter().flat_map(|f| ["--timeout", f]));
        let run = Test::new()
            .file("t.yaml", &format!("{}solve:\n  timeout: {written}\n", QUICK_BODY))
            .args(args)
            .run()
            .status(0);
        let settings = run.json()[0]["settings"].as_str().unwrap().to_string();
        assert!(settings.contains(said), "{written} {flag:?}: {settings}");
    }
    for (written, said) in [
        ("10 parsecs", "unknown time unit `parsecs` in `10 parsecs`"),
        ("soon", "`soon` is not a time"),
    ] {
        Test::new()
            .file("t.yaml", &format!("{}solve:\n  timeout: {written}\n", QUICK_BODY))
            .args(["solve", "t.yaml"])
            .run()
            .status(2)
            .stderr_has(&format!(
                "t.yaml:5:12: invalid puzzle YAML: solve.timeout: {said}: give seconds (10, 2.5) or a time such as 500ms, 10s, 2min, 1h"
            ));
    }
}

#[test]
fn time_limits_that_are_no_number_of_seconds_are_refused() {
    for bad in ["-1", ".inf", ".nan", "1e300"] {
        Test::new()
            .file(
                "t.yaml",
                &format!("rules: peg_hop\nboard: |\n  o o .\nsolve:\n  timeout: {bad}\n"),
            )
            .args(["solve", "t.yaml"])
            .run()
            .status(2)
            .no_panic()
            .stderr_has("t.yaml:5: solve: timeout: `")
            .stderr_has("is not a time limit: give seconds from 0 to 31536000 (a year)");
    }
    for (flag, bad) in [
        ("--timeout", "inf"),
        ("--timeout", "-1"),
        ("--timeout", "NaN"),
        ("--script-timeout", "1e19"),
    ] {
        Test::new()
            .file("t.yaml", QUICK)
            .args(["solve", "t.yaml", &format!("{flag}={bad}")])
            .run()
            .status(2)
            .no_panic()
            .stderr_has(&format!("invalid value '{bad}' for '{flag} <SECONDS>'"));
    }
    // No rule script runs in no time: 0 is refused as a script's limit, flag or project file.
    Test::new()
        .file("t.yaml", QUICK)
        .args(["solve", "t.yaml", "--script-timeout", "0"])
        .run()
        .status(2)
        .stderr_has("invalid value '0' for '--script-timeout <SECONDS>': `0` is no time for a rule script: give it more than 0 seconds (2 is the default)");
    Test::new()
        .file("t.yaml", QUICK)
        .file("marbles.toml", "[limits]\nscript_timeout = 0\n")
        .args(["solve", "t.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles.toml:2: `script_timeout`: `0` is no time for a rule script");
    // A negative number after a space is the flag's value, not an unknown flag.
    for flag in ["--timeout", "--script-timeout"] {
        Test::new()
            .file("t.yaml", QUICK)
            .args(["solve", "t.yaml", flag, "-1"])
            .run()
            .status(2)
            .stderr_has(&format!(
                "invalid value '-1' for '{flag} <SECONDS>': `-1` is not a time limit: give seconds from 0 to 31536000 (a year)"
            ));
    }
    // In a batch the bad file is one error row; the good one is solved.
    let run = Test::new()
        .file(
            "set/bad.yaml",
            "rules: peg_hop\nboard: |\n  o o .\nsolve:\n  timeout: .inf\n",
        )
        .file("set/good.yaml", QUICK)
        .args(["batch", "set", "--no-report", "--format", "json", "--quiet"])
        .run()
        .status(2)
        .no_panic();
    let statuses: Vec<Value> = run.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["status"].clone())
        .collect();
    assert_eq!(statuses, ["error", "solved"]);
}

/// A shard's report folder removed while the shard runs is made again, and the shard's
/// results file goes into it beside the reports (it went to the folder removed: exit 2, and
/// nothing for `merge`).
#[test]
fn a_shard_whose_report_folder_is_removed_leaves_its_results_in_the_one_made_again() {
    let t = Test::new().file("set/p.yaml", &slow_puzzle());
    let mut cmd = t.command();
    cmd.args(batch_set(&["--timeout", "2", "--shard", "0/1"]));
    let shard = spawn(cmd);
    let lock = t.path("rep/.lock");
    // Removed while it solves: once the journal is open too (between the lock and the
    // journal, removing it is an error of the run, which a busy machine made this test meet).
    wait_for("the lock and the journal", || {
        std::fs::read_to_string(&lock).is_ok_and(|s| s.contains("pid"))
            && t.path("rep/.journal.jsonl").exists()
    });
    std::fs::remove_dir_all(t.path("rep")).unwrap();
    exits(shard, 1);
    let results = std::fs::read_to_string(t.path("rep/shard-0-of-1.json")).unwrap();
    assert!(results.contains("\"puzzle\": \"Slow\""), "{results}");
    assert_eq!(summary(&t.path("rep"))["results"][0]["puzzle"], "Slow");
}

#[test]
fn a_second_batch_on_a_report_folder_in_use_says_who_holds_it() {
    let t = Test::new()
        .file("set/p.yaml", &slow_puzzle())
        .file("other/q.yaml", QUICK);
    let mut cmd = t.command();
    cmd.args(batch_set(&["--timeout", "4"]));
    let first = spawn(cmd);
    let lock = t.path("rep/.lock");
    wait_for("the lock", || {
        std::fs::read_to_string(&lock).is_ok_and(|s| s.contains("pid"))
    });
    Test::new()
        .in_dir(t.path("").as_path())
        .args(["batch", "other", "--report", "rep", "--quiet"])
        .run()
        .status(2)
        .stderr_has("is in use by another marbles batch")
        .stderr_has(&format!("pid {} on host", first.id()))
        // Its start as an age, not a unix time.
        .stderr_has(" s ago); wait for it to finish or give another --report folder");
    assert!(
        !t.path("rep/summary.json").exists(),
        "the second batch wrote nothing"
    );
    exits(first, 1);
    // A batch that has finished leaves no lock file behind.
    assert!(!lock.exists(), "rep/.lock left behind");
    let s = summary(&t.path("rep"));
    assert_eq!(s["results"].as_array().unwrap().len(), 1);
    assert_eq!(s["results"][0]["puzzle"], "Slow");
}

#[test]
fn a_torn_journal_line_does_not_swallow_the_next_record() {
    let t = Test::new()
        .file("set/a.yaml", QUICK)
        .file("set/b.yaml", &slow_puzzle())
        // A record cut short (a full disk, a kill) with no newline after it.
        .file("rep/.journal.jsonl", "[{\"file\":\"set/x.yaml\",\"puz");
    let mut cmd = t.command();
    cmd.args(batch_set(&["--resume", "-j", "1", "--timeout", "60"]));
    let mut child = spawn(cmd);
    let journal = t.path("rep/.journal.jsonl");
    wait_for("a's record", || {
        std::fs::read_to_string(&journal).is_ok_and(|s| s.contains("a.yaml"))
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&journal).unwrap();
    let records: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(records.len(), 1, "a's record is a line of its own:\n{text}");
    assert_eq!(records[0]["file"], "set/a.yaml");
}

/// A kill after the journal became the published `results.jsonl` (a hard link) and before
/// its own name was removed: the next batch must not write into the published file.
#[test]
fn a_journal_left_linked_to_published_results_is_not_written_into() {
    let t = Test::new()
        .file("first/q.yaml", QUICK)
        .file("set/a.yaml", QUICK)
        .file("set/b.yaml", &slow_puzzle());
    let mut first = t.command();
    first.args(["batch", "first", "--report", "rep", "--quiet"]);
    assert!(first.status().unwrap().success());
    let published = t.path("rep/results.jsonl");
    let before = std::fs::read_to_string(&published).unwrap();
    assert!(before.contains("first/q.yaml"), "{before}");
    // (`results.jsonl` is a symlink into the current set: the link is to the file itself.)
    let real = std::fs::canonicalize(&published).unwrap();
    std::fs::hard_link(real, t.path("rep/.journal.jsonl")).unwrap();
    for extra in [&[][..], &["--resume"][..]] {
        let mut cmd = t.command();
        let mut args = batch_set(&["-j", "1", "--timeout", "60"]);
        args.extend(extra.iter().map(|s| s.to_string()));
        cmd.args(args);
        let mut child = spawn(cmd);
        let journal = t.path("rep/.journal.jsonl");
        wait_for("a's record", || {
            std::fs::read_to_string(&journal).is_ok_and(|s| s.contains("set/a.yaml"))
        });
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(std::fs::read_to_string(&published).unwrap(), before, "{extra:?}");
    }
}

/// A resumed batch killed again, and again, writes each result it reuses from the journal
/// once, not once more a time (the journal grew by a whole copy every kill).
#[test]
fn a_batch_resumed_and_killed_again_does_not_copy_its_journal_each_time() {
    let mut t = Test::new();
    for k in 0..40 {
        t = t.file(&format!("set/a{k:02}.yaml"), QUICK);
    }
    let t = t.file("set/z.yaml", &slow_puzzle());
    let journal = t.path("rep/.journal.jsonl");
    let lines = || std::fs::read_to_string(&journal).map_or(0, |s| s.lines().count());
    let run = |extra: &[&str]| {
        let mut cmd = t.command();
        cmd.args(
            batch_set(&["-j", "1", "--timeout", "4"])
                .into_iter()
                .chain(extra.iter().map(|s| s.to_string())),
        );
        spawn(cmd)
    };
    let mut child = run(&[]);
    wait_for("the quick puzzles' records", || lines() == 40);
    child.kill().unwrap();
    child.wait().unwrap();
    for _ in 0..2 {
        let mut child = run(&["--resume"]);
        // Long enough for the 40 to be taken (and written, if they were), well short of z's 4 s.
        std::thread::sleep(Duration::from_millis(1500));
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(lines(), 40, "{}", std::fs::read_to_string(&journal).unwrap());
    }
    exits(run(&["--resume"]), 1);
    let results = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
    let files: Vec<String> = results
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut expected: Vec<String> = (0..40).map(|k| format!("set/a{k:02}.yaml")).collect();
    expected.push("set/z.yaml".into());
    assert_eq!(files, expected);
}

#[test]
fn a_kill_while_reports_are_written_leaves_the_last_whole_set() {
    let t = alpha_and_beta(QUICK);
    let run =
        |set: &str, max_file_bytes: Option<u64>| batch_into_rep(&t, set, max_file_bytes.map(|b| (b, false)));
    assert!(run("one", None).status.success());
    let json_len = std::fs::metadata(t.path("rep/summary.json")).unwrap().len();
    let html_len = std::fs::metadata(t.path("rep/index.html")).unwrap().len();
    assert!(
        json_len * 2 < html_len,
        "summary.json {json_len} B, index.html {html_len} B"
    );
    // Files may grow to twice summary.json: it is written, index.html is not (SIGXFSZ kills).
    let killed = run("two", Some(json_len * 2));
    assert!(!killed.status.success());
    let summary = std::fs::read_to_string(t.path("rep/summary.json")).unwrap();
    let page = std::fs::read_to_string(t.path("rep/index.html")).unwrap();
    assert!(
        summary.contains("Alpha") && !summary.contains("Beta"),
        "{summary}"
    );
    assert!(page.contains("Alpha") && !page.contains("Beta"));
    // The next run swaps in a whole new set.
    assert!(run("two", None).status.success());
    let summary = std::fs::read_to_string(t.path("rep/summary.json")).unwrap();
    let page = std::fs::read_to_string(t.path("rep/index.html")).unwrap();
    assert!(summary.contains("Beta") && page.contains("Beta") && !page.contains("Alpha"));
}

#[test]
fn import_refuses_to_overwrite_a_file_of_the_same_name() {
    let lisp = "((o) (x x) (x x x) (x x x x) (x x x x x))";
    let t = Test::new().file("a/x.lisp", lisp).file("b/x.lisp", lisp);
    let here = t.path("");
    let import = |args: &[&str]| {
        let mut all = vec!["import"];
        all.extend(args);
        Test::new().in_dir(here.as_path()).args(all).run()
    };
    // Two files bound for one name: neither is written, each names the other.
    let both = import(&["a/x.lisp", "b/x.lisp", "--out", "out"]).status(2);
    assert_eq!(both.stdout, "");
    both.stderr_has(
        "a/x.lisp: would be imported to out/x.yaml, as would b/x.lisp; import them into different \
         folders (neither was imported)\n",
    )
    .stderr_has(
        "b/x.lisp: would be imported to out/x.yaml, as would a/x.lisp; import them into different \
         folders (neither was imported)\n",
    );
    assert!(!t.path("out/x.yaml").exists());
    import(&["a/x.lisp", "--out", "out"]).status(0);
    import(&["b/x.lisp", "--out", "out"])
        .status(2)
        .stderr_has("out/x.yaml: already exists; not overwritten (importing b/x.lisp): pass --force");
    import(&["b/x.lisp", "--out", "out", "--force"]).status(0);
    assert!(
        std::fs::read_to_string(t.path("out/x.yaml"))
            .unwrap()
            .contains("imported from b/x.lisp")
    );
    // An `--out` that is a link to nothing said only "File exists".
    std::os::unix::fs::symlink("nowhere/deep", t.path("gone")).unwrap();
    import(&["a/x.lisp", "--out", "gone"])
        .status(2)
        .stderr_has("gone: cannot create the folder: it is a link to nowhere/deep, which is no folder\n");
}

#[test]
fn import_says_why_it_refuses_a_yaml_spec_and_a_file_of_another_name() {
    let icpc = "2 1 0\n0 0\n1 1\n0 0 0\n";
    let t = Test::new()
        .file("spec.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("case.txt", icpc);
    let here = t.path("");
    let import = |args: &[&str]| {
        let mut all = vec!["import"];
        all.extend(args);
        Test::new().in_dir(here.as_path()).args(all).run()
    };
    let reads = "import reads Lisp (.lisp, .lsp), ICPC (.icpc) and matrix (.matrix) files";
    import(&["spec.yaml", "--out", "out"])
        .status(2)
        .stderr_has(&format!("spec.yaml: is already a YAML spec; {reads}\n"));
    import(&["case.txt", "--out", "out"])
        .status(2)
        .stderr_has(&format!(
            "case.txt: {reads}, known by their names; for this one say --from lisp, icpc or matrix\n"
        ));
    import(&["case.txt", "--from", "icpc", "--out", "out"])
        .status(0)
        .stdout_has("wrote out/case_case1.yaml");
}
