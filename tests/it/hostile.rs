//! Hostile and broken input through the built binary: each case must end with exit 2 (or
//! `gave_up`), a message naming the file, no panic, and bounded time and memory.

use crate::support::{Test, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `marbles solve FILE` on one hostile file and checks the common promises.
#[track_caller]
fn refused(name: &str, contents: &[u8], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, contents).unwrap();
    refused_at(dir.path(), name, message);
}

#[track_caller]
fn refused_at(dir: &Path, name: &str, message: &str) {
    let started = Instant::now();
    // This child's own peak: RUSAGE_CHILDREN is the maximum over every test's children.
    let bounded = Test::new()
        .args(["solve", &dir.join(name).display().to_string()])
        .run_bounded(Duration::from_secs(60), None);
    let peak_kib = bounded.peak_kib;
    let out = bounded.run;
    let stderr = out.stderr.clone();
    assert_eq!(out.code, Some(2), "{name}: {stderr}");
    assert!(
        stderr.contains(name),
        "{name}: message does not name the file: {stderr}"
    );
    assert!(
        stderr.contains(message),
        "{name}: expected {message:?} in {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{name}: took {:?}",
        started.elapsed()
    );
    assert!(peak_kib < 512 * 1024, "{name}: the child used {peak_kib} KiB");
}

#[test]
fn alias_bombs_are_refused_without_expanding() {
    // A classic billion-laughs under a key marbles knows, and under one it does not.
    let mut bomb = String::from(
        "rules: peg_hop\nboard: |\n  o o .\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    let mut unknown = String::from(
        "rules: peg_hop\nboard: |\n  o o .\nx0: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for i in 1..10 {
        let refs =
            vec![format!("*{}", if i == 1 { "a".into() } else { format!("a{}", i - 1) }); 9].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        unknown.push_str(&format!("x{i}: &a{i} [{refs}]\n"));
    }
    bomb.push_str("description: *a9\n");
    refused("bomb.yaml", bomb.as_bytes(), "invalid puzzle YAML");
    refused("unknown.yaml", unknown.as_bytes(), "unknown field `x0`");
}

#[test]
fn deep_nesting_is_refused() {
    let deep = format!(
        "rules: peg_hop\nboard: {}{}\n",
        "[".repeat(20_000),
        "]".repeat(20_000)
    );
    refused("deep.yaml", deep.as_bytes(), "invalid puzzle YAML");
    let deep = format!(
        "rules: peg_hop\nboard: |\n  o o .\ngoal: {}1{}\n",
        "{a: ".repeat(5_000),
        "}".repeat(5_000)
    );
    refused("deep_map.yaml", deep.as_bytes(), "invalid puzzle YAML");
    // The YAML scanner's time grows with the square of the depth: a file of nearly 1 MiB of
    // brackets took minutes before depth was measured first.
    let deep = format!(
        "rules: peg_hop\nboard: |\n  o o .\nname: {}\n",
        "[".repeat(1_000_000)
    );
    refused(
        "deeper.yaml",
        deep.as_bytes(),
        "deeper.yaml:4: invalid puzzle YAML: brackets nested more than 256 deep (a puzzle needs a few)",
    );
}

#[test]
fn enormous_files_and_boards_say_the_limit() {
    let big = format!(
        "rules: peg_hop\nname: {}\nboard: |\n  o o .\n",
        "x".repeat(2_000_000)
    );
    refused(
        "big.yaml",
        big.as_bytes(),
        "big.yaml: is 2000039 bytes; puzzle files are limited to 1048576 bytes\n",
    );
    let rows: Vec<String> = (0..12).map(|_| format!("  {}", ["o"; 12].join(" "))).collect();
    let huge = format!("rules: peg_hop\nboard: |\n{}\n", rows.join("\n"));
    refused(
        "huge.yaml",
        huge.as_bytes(),
        "huge.yaml:2: the board has 144 holes; a drawn board (hop families, pieces of kinds) may have at most 128",
    );
    refused(
        "tilt.yaml",
        b"rules: tilt_roll\nsize: 41\nmarbles: [[0,0]]\nholes: [[1,1]]\n",
        "tilt.yaml:2: size 41 is out of range: tilt boards are 1 to 40 cells wide",
    );
}

#[test]
fn bytes_that_are_not_text_are_refused() {
    refused(
        "bytes.yaml",
        b"rules: peg_hop\nboard: |\n  o o \xff\xfe .\n",
        "bytes.yaml:3: is not valid UTF-8 text",
    );
    // UTF-16, with its byte-order mark or without (ASCII with a zero byte beside each
    // character), is named: its zero bytes read as control characters.
    let text = "rules: peg_hop\nboard: |\n  o o .\n";
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (name, bytes) in [("le.yaml", le), ("be.yaml", be)] {
        refused(
            name,
            &bytes,
            &format!("{name}:1: is UTF-16 text, and marbles reads UTF-8: save it as UTF-8"),
        );
    }
}

#[test]
fn directories_and_fifos_are_not_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("folder.yaml")).unwrap();
    refused_at(dir.path(), "folder.yaml", "is a directory, not a puzzle file");
    let fifo = std::ffi::CString::new(dir.path().join("pipe.yaml").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    refused_at(dir.path(), "pipe.yaml", "is not a regular file");
    refused_at(dir.path(), "missing.yaml", "cannot read: no such file");
    std::os::unix::fs::symlink("gone.yaml", dir.path().join("dangling.yaml")).unwrap();
    refused_at(
        dir.path(),
        "dangling.yaml",
        "cannot read: a link to gone.yaml, which does not exist",
    );
    // In a batch each is a row of its own, an error its summary counts (the link was a
    // warning on stderr beside reports that said no error).
    let out = Test::new()
        .in_dir(dir.path())
        .args(["batch", ".", "--no-report"])
        .run();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("2 puzzles: 0 solved, 0 unsolvable, 0 gave up, 2 errors;"),
        "{}",
        out.stdout
    );
}

/// A puzzle whose rule script is `body` inside `fn rules(board)`.
#[track_caller]
fn script_refused(body: &str, message: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(
        dir.path().join("rules/evil.rhai"),
        format!("fn rules(board) {{\n{body}\n}}\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("p.yaml"), "rules: evil\nboard: |\n  o o .\n").unwrap();
    let started = Instant::now();
    let out = Test::new().in_dir(dir.path()).args(["solve", "p.yaml"]).run();
    let stderr = &out.stderr;
    assert_eq!(out.code, Some(2), "{stderr}");
    assert!(stderr.contains("rules/evil.rhai:"), "names the script: {stderr}");
    assert!(stderr.contains(message), "expected {message:?} in {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn scripts_cannot_escape_or_run_away() {
    script_refused("  let n = 0;\n  loop { n += 1; }", "rule script stopped: ");
    script_refused("  rules(board)", "call depth limit reached");
    script_refused("  let a = [1];\n  loop { a += a; }", "size limit reached");
    script_refused("  let s = \"x\";\n  loop { s += s; }", "size limit reached");
    script_refused("  import \"/etc/passwd\" as p;\n  p", "rule script");
    script_refused("  eval(\"1\")", "rule script does not compile");
    script_refused("  open_file(\"/etc/passwd\")", "Function not found: open_file");
    script_refused("  42", "`rules(board)` must return a map");
    script_refused(
        "  #{ kind: \"hop\", moves: [#{ from: [0, 0], over: [0, 1], to: [0, 9] }], directions: [] }",
        "names a cell that is not a hole",
    );
}

#[test]
fn search_limits_give_up_instead_of_running_out() {
    let out = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/peg_hop/french_solvable.yaml",
            "--max-memory",
            "1MB",
            "--format",
            "json",
        ])
        .run()
        .status(1);
    let v = out.json();
    assert_eq!(v[0]["status"], "gave_up");
    // Below what the process holds before it searches, and said so.
    let reason = v[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("memory limit (976.6 KiB), below the ")
            && reason.ends_with(" marbles held before the search began"),
        "{reason}"
    );
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/peg_hop/french_solvable.yaml",
            "--timeout",
            "0.05",
            "--format",
            "json",
        ])
        .run()
        .status(1);
    assert_eq!(run.json()[0]["reason"], "time limit (0.050 s)");
}

/// 100 puzzles whose outcomes do not depend on timing: English single-vacancy starts with
/// node-limited searches for 1, 2 or 3 pegs, and one tilt puzzle.
fn hundred(dir: &Path) {
    let english = std::fs::read_to_string(root().join("puzzles/peg_hop/english_central.yaml")).unwrap();
    let board: Vec<Vec<&str>> = english
        .lines()
        .skip_while(|l| !l.starts_with("board:"))
        .skip(1)
        .take(7)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let mut n = 0;
    for r in 0..7 {
        for c in 0..7 {
            if board[r][c] == "#" {
                continue;
            }
            for pegs in 1..=3 {
                let rows: Vec<String> = (0..7)
                    .map(|i| {
                        let toks: Vec<&str> = (0..7)
                            .map(|j| {
                                if (i, j) == (r, c) {
                                    "."
                                } else if board[i][j] == "#" {
                                    "#"
                                } else {
                                    "o"
                                }
                            })
                            .collect();
                        format!("  {}", toks.join(" "))
                    })
                    .collect();
                let yaml = format!(
                    "rules: peg_hop\nboard: |\n{}\ngoal:\n  pegs: {pegs}\nsolve:\n  max_nodes: 20000\n",
                    rows.join("\n")
                );
                std::fs::write(dir.join(format!("e{r}{c}_{pegs}.yaml")), yaml).unwrap();
                n += 1;
            }
        }
    }
    std::fs::copy(
        root().join("puzzles/tilt_roll/four_by_four.yaml"),
        dir.join("tilt.yaml"),
    )
    .unwrap();
    assert_eq!(n + 1, 100);
}

fn batch(set: &Path, report: &Path, resume: bool) -> Command {
    let (set, report) = (set.display().to_string(), report.display().to_string());
    let mut args = vec!["batch", &set, "--report", &report, "--quiet", "--format", "csv"];
    if resume {
        args.push("--resume");
    }
    let mut cmd = Test::new().in_dir(&root()).args(args).command();
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd
}

fn untimed(report: &Path) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap()).unwrap();
    for o in v["results"].as_array_mut().unwrap() {
        o["stats"]["seconds"] = serde_json::Value::Null;
        o["stats"]["memory_bytes"] = serde_json::Value::Null;
    }
    v
}

#[test]
fn a_batch_killed_ten_times_and_resumed_reports_as_if_never_killed() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    hundred(&set);
    let whole = dir.path().join("whole");
    assert!(batch(&set, &whole, false).status().unwrap().code() == Some(1));
    let expected = untimed(&whole);
    assert_eq!(expected["results"].as_array().unwrap().len(), 100);

    let killed = dir.path().join("killed");
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..10 {
        let child = batch(&set, &killed, round > 0).spawn().unwrap();
        crate::support::kill_after(child, &mut seed, 5, 150);
    }
    let status = batch(&set, &killed, true).status().unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(untimed(&killed), expected);
}

/// A batch of `set` on one thread, reporting to `report`, sent Ctrl-C after 1.5 s: its
/// stderr (it must exit 130).
fn ctrl_c_batch(set: &Path, report: &Path) -> String {
    let out = crate::support::interrupted(
        batch(set, report, false).arg("-j").arg("1"),
        Duration::from_millis(1500),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    stderr
}

/// A batch of a quick puzzle and one no search ends (`set/b.yaml`), sent `signal` `after`
/// it started; it must exit 130. Its folder (reports in `rep`) and stderr.
fn batch_stopped_by(signal: i32, after: Duration) -> (Test, String) {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/b.yaml", &crate::support::diamond41_from_tip());
    let mut c = t.command();
    c.args(["batch", "set", "--report", "rep", "-j", "1"]);
    let out = crate::support::signalled(&mut c, after, signal);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{signal}: {stderr}");
    (t, stderr)
}

/// SIGTERM, which `timeout` and a CI system cancelling a job send, and SIGHUP (a closed
/// terminal) stop a batch as Ctrl-C does: what finished is reported, exit 130, the signal
/// named (they ended it with no reports at all, then were reported in Ctrl-C's words).
#[test]
fn sigterm_and_sighup_stop_a_batch_as_ctrl_c_does() {
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")] {
        let (t, stderr) = batch_stopped_by(signal, Duration::from_millis(1000));
        let summary = std::fs::read_to_string(t.path("rep/summary.json")).unwrap();
        assert!(
            summary.contains(&format!("\"stopped\": \"interrupted ({name})\"")),
            "{summary}"
        );
        assert!(!stderr.contains("Ctrl-C"), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "marbles: interrupted ({name}): 1 of 2 puzzle files finished"
            )),
            "{stderr}"
        );
    }
    // `count` cut in its search and `check` cut in a script name it as well.
    let t = Test::new()
        .file("rules/spin.rhai", "fn rules(board) {\n  loop { }\n}\n")
        .file("p.yaml", &crate::support::diamond41_from_tip())
        .file("s.yaml", "rules: spin\nboard: |\n  o o .\n");
    for (args, said) in [
        (
            &["count", "--all", "p.yaml"][..],
            "marbles: gave up counting p.yaml: interrupted (SIGTERM)",
        ),
        (
            &["check", "s.yaml", "--script-timeout", "30"],
            "marbles: check interrupted (SIGTERM) before any puzzle was checked",
        ),
    ] {
        let out =
            crate::support::signalled(t.command().args(args), Duration::from_millis(500), libc::SIGTERM);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {stderr}");
        assert!(stderr.starts_with(said), "{args:?}: {stderr}");
    }
}

/// The search Ctrl-C cut took the time: the closing hint names it, not the quick puzzle
/// finished beside it, and says it was cut (its time is only until then).
#[test]
fn ctrl_c_counts_the_search_it_cut_among_the_slowest() {
    let (_, stderr) = batch_stopped_by(libc::SIGINT, Duration::from_millis(1500));
    assert!(stderr.contains(" set/b.yaml (cut), "), "{stderr}");
    assert!(
        stderr.contains(
            "of the time, and was cut before it finished: give it --timeout or solve it alone \
             (marbles solve set/b.yaml)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_writes_what_was_finished_and_the_search_it_cut_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    // A quick puzzle that fails (its expectation is not met): Ctrl-C is no `--fail-fast` stop.
    let corner = std::fs::read_to_string(root().join("puzzles/triangle_hop/corner.yaml")).unwrap();
    std::fs::write(set.join("a_fast.yaml"), format!("{corner}expect: unsolvable\n")).unwrap();
    // Far beyond any search: the 41-hole diamond from its top tip, down to one peg.
    std::fs::write(set.join("b_slow.yaml"), crate::support::diamond41_from_tip()).unwrap();
    std::fs::copy(
        root().join("puzzles/triangle_hop/interior.yaml"),
        set.join("c_never.yaml"),
    )
    .unwrap();
    let report = dir.path().join("rep");
    let stderr = ctrl_c_batch(&set, &report);
    assert!(
        stderr.contains(&format!(
            "interrupted (Ctrl-C): 1 of 3 puzzle files finished and reported; 1 puzzle file not run: {}; \
             rerun with --resume to finish\n",
            set.join("c_never.yaml").display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("fail-fast"), "{stderr}");
    let v = untimed(&report);
    let files: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 2);
    assert!(files[0].ends_with("a_fast.yaml") && files[1].ends_with("b_slow.yaml"));
    assert_eq!(v["results"][1]["reason"], "interrupted");
    assert_eq!(v["stopped"], "interrupted (Ctrl-C)");
    assert!(v["not_run"][0].as_str().unwrap().ends_with("c_never.yaml"), "{v}");
    let xml = std::fs::read_to_string(report.join("junit.xml")).unwrap();
    assert!(
        xml.contains("<skipped type=\"interrupted\" message=\"interrupted after "),
        "{xml}"
    );
    assert!(xml.contains(" skipped=\"2\">"), "{xml}");
    // The summary counts the search cut apart from the file never reached.
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(
        md.starts_with("> **incomplete run: interrupted \\(Ctrl-C\\); 1 search stopped before its answer, 1 puzzle file not run: "),
        "{md}"
    );
    // The cut search is reported, never recorded: `--resume` solves it again.
    let records = std::fs::read_to_string(report.join("results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 1, "{records}");
    assert!(records.contains("a_fast.yaml"), "{records}");
}

/// A batch of `set/m.matrix`, the matrices `before`, the 41-hole diamond from its tip (no
/// search of marbles ends it), then those `after`, cut by Ctrl-C ([`ctrl_c_batch`]): its
/// folder, the set, its report folder and stderr.
fn matrices_cut(before: &str, after: &str) -> (tempfile::TempDir, PathBuf, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    std::fs::write(
        set.join("m.matrix"),
        format!("{before}{}\n{after}", diamond_matrix()),
    )
    .unwrap();
    let report = dir.path().join("rep");
    let stderr = ctrl_c_batch(&set, &report);
    (dir, set, report, stderr)
}

/// The 41-hole diamond from its tip as a matrix: no search decides it within a test's time.
fn diamond_matrix() -> String {
    crate::support::diamond41_rows((0, 4))
        .replace('#', "-1")
        .replace('o', "1")
        .replace('.', "0")
}

/// `solve` cut by Ctrl-C within a file of several cases says how many of its cases it never
/// began (it said nothing of them).
#[test]
fn ctrl_c_in_solve_says_how_many_cases_of_the_file_were_not_run() {
    let t = Test::new()
        .file(
            "m.matrix",
            &format!("1 1 0\n\n{}\n1 1 0\n\n0 1 1\n", diamond_matrix()),
        )
        .args(["solve", "m.matrix", "--max-memory", "1GB"]);
    let mut cmd = t.command();
    let out = crate::support::interrupted(&mut cmd, Duration::from_millis(800));
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.ends_with("marbles: interrupted (Ctrl-C): m.matrix: 2 cases after case 2 not run\n"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_in_a_file_of_several_cases_names_each_case_it_kept_from_starting() {
    // Three matrices: a row solved in a jump, the diamond, the row again.
    let (_dir, _, report, stderr) = matrices_cut("1 1 0\n\n", "1 1 0\n");
    assert!(
        stderr.contains("interrupted (Ctrl-C): 0 of 1 puzzle files finished and reported (1 case of the files cut not started); rerun"),
        "{stderr}"
    );
    let v = untimed(&report);
    let rows: Vec<(&str, &str)> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["puzzle"].as_str().unwrap(), o["reason"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        rows,
        [
            ("m board 1", ""),
            ("m board 2", "interrupted"),
            ("m board 3", "interrupted (Ctrl-C) before its search began")
        ]
    );
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(
        md.starts_with("> **incomplete run: interrupted \\(Ctrl-C\\); 1 search stopped before its answer, 1 case not started**"),
        "{md}"
    );
    // The totals count the case never started among the rows that gave up, and say so.
    assert!(
        md.contains("3 puzzles: 1 solved, 0 unsolvable, 2 gave up (1 of them not started), 0 errors;"),
        "{md}"
    );
    let xml = std::fs::read_to_string(report.join("junit.xml")).unwrap();
    assert!(
        xml.contains("name=\"m board 3\" time=\"0.000000\">\n      <skipped type=\"interrupted\" message=\"interrupted (Ctrl-C) before its search began\""),
        "{xml}"
    );
    assert!(xml.contains(" skipped=\"2\">"), "{xml}");
    // The page says so too, before anything else.
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        html.contains(
            "<body>\n<p class=\"wrap incomplete\" role=\"alert\"><strong>incomplete run: interrupted \
             (Ctrl-C); 1 search stopped before its answer, 1 case not started</strong></p>"
        ),
        "{html}"
    );
    // Of a file cut short, what finished before the cut is recorded, for `--resume`.
    let records = std::fs::read_to_string(report.join("results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 1, "{records}");
    assert!(
        records.contains("\"case\":1,\"cases\":3,") && records.contains("m board 1"),
        "{records}"
    );
}

/// The cases of a file that Ctrl-C cut after they finished are recorded, and `--resume`
/// takes them up as they are, solving only the rest (it solved the whole file again).
#[test]
fn resume_takes_up_the_cases_a_cut_file_had_finished() {
    taken_up_after_a_cut(
        "--resume",
        "resumed: 0 of 1 puzzle files reused from earlier results, 0 solved now, 1 not finished; \
         2 cases an earlier run finished kept, not solved again\n",
    );
}

/// `--failed` right after a cut runs the cut file again from where the cut left it, as
/// `--resume` does (it solved the cases the cut had left finished again).
#[test]
fn failed_after_a_cut_takes_up_the_cases_the_cut_file_had_finished() {
    taken_up_after_a_cut(
        "--failed",
        "--failed: 2 cases an earlier run finished kept, not solved again\n",
    );
}

/// Cuts a file of two rows solved in a jump each, then the diamond, after its rows are
/// recorded; runs it again with `flag`, cut again in the diamond, and checks that it `says`
/// so and that the two rows' records are those of the first run, byte for byte (a case
/// solved again would record its own time).
fn taken_up_after_a_cut(flag: &str, says: &str) {
    let (_dir, set, report, _) = matrices_cut("1 1 0\n\n0 1 1\n\n", "");
    let kept = std::fs::read_to_string(report.join("results.jsonl")).unwrap();
    let cases: Vec<&str> = kept.lines().map(|l| &l[..l.find(",\"from\"").unwrap()]).collect();
    assert_eq!(
        cases,
        [
            "{\"index\":0,\"case\":1,\"cases\":3",
            "{\"index\":0,\"case\":2,\"cases\":3"
        ]
    );
    let (set, rep) = (set.display().to_string(), report.display().to_string());
    let mut again = Test::new()
        .in_dir(&root())
        .args([
            "batch", &set, "--report", &rep, flag, "-j", "1", "--format", "csv",
        ])
        .command();
    let out = crate::support::interrupted(&mut again, Duration::from_millis(1500));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(says), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(report.join("results.jsonl")).unwrap(),
        kept
    );
}

/// A kill (SIGKILL: the OOM killer, a power cut) in a long case of a file of several keeps
/// the cases of that file finished a second before: they reach the journal as a group of
/// their own, and `--resume` takes them up as they were written (a file's records were
/// written only when it ended, so the kill lost them all), without writing them again.
#[test]
fn a_kill_in_a_long_case_keeps_the_cases_its_file_finished_before() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    let text = format!("1 1 0\n\n0 1 1\n\n{}", diamond_matrix());
    std::fs::write(set.join("m.matrix"), text).unwrap();
    let report = dir.path().join("rep");
    let journal = report.join(".journal.jsonl");
    let mut child = batch(&set, &report, false).args(["-j", "1"]).spawn().unwrap();
    let start = Instant::now();
    let both = || std::fs::read_to_string(&journal).is_ok_and(|j| j.contains("\"case\":2,\"cases\":3,"));
    while !both() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(kept.lines().count(), 2, "the two rows, on their own:\n{kept}");
    // Resumed and killed again, in the diamond, with no case finished since: the rows are
    // not written again (each such run wrote them once more).
    let mut child = batch(&set, &report, true).args(["-j", "1"]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), kept);
    let (set, rep) = (set.display().to_string(), report.display().to_string());
    let mut again = Test::new()
        .in_dir(&root())
        .args([
            "batch", &set, "--report", &rep, "--resume", "-j", "1", "--format", "csv",
        ])
        .command();
    let out = crate::support::interrupted(&mut again, Duration::from_millis(1500));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 cases an earlier run finished kept, not solved again\n"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(report.join("results.jsonl")).unwrap(),
        kept
    );
}

/// A puzzle may come from anybody: the rule script it names by path must end in `.rhai` and
/// stay inside its project (the folder of its `marbles.toml` or `.git`, else its own), links
/// followed; `rules: /etc/passwd` had marbles read the file and quote its parse errors.
#[test]
fn a_puzzle_names_no_script_outside_its_project() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::write(d.join("in/mine.rhai"), "").unwrap();
    std::fs::write(d.join("theirs.rhai"), "").unwrap();
    std::os::unix::fs::symlink(d.join("theirs.rhai"), d.join("in/link.rhai")).unwrap();
    let check = |rules: &str| {
        std::fs::write(
            d.join("in/p.yaml"),
            format!("rules: {rules}\nboard: |\n  o o .\n"),
        )
        .unwrap();
        Test::new().in_dir(d).args(["check", "in/p.yaml"]).run()
    };
    let outside = "outside the puzzle's project (the puzzle's own folder, as no marbles.toml or .git \
                   is above it): a puzzle may read rule scripts inside it only; copy the script in, \
                   or put a marbles.toml at the top of the folders you trust";
    for (rules, why) in [
        (
            "/etc/passwd",
            "a path to a rule script ends in `.rhai` (or name a family: `rules: peg_hop`)",
        ),
        (
            "/etc/x.rhai",
            "an absolute path; a puzzle names its script by a path relative to itself, inside its project",
        ),
        ("../theirs.rhai", outside),
        ("link.rhai", outside),
    ] {
        check(rules)
            .status(2)
            .stderr_has(&format!("marbles: error: in/p.yaml:1: rules: {rules}: {why}\n"));
    }
    // Inside, it is read (an empty script builds no board, and says so).
    assert!(!check("./mine.rhai").stderr.contains("outside"));
    // Run from the top of a project, the top is named `.` (it was an empty name).
    std::fs::write(d.join("in/marbles.toml"), "").unwrap();
    std::fs::write(d.join("in/p.yaml"), "rules: ../theirs.rhai\nboard: |\n  o o .\n").unwrap();
    Test::new()
        .in_dir(&d.join("in"))
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:1: rules: ../theirs.rhai: outside the puzzle's project (., the \
             folder holding its marbles.toml or .git)",
        );
}

/// A folder may come from anybody: a puzzle's name linked to a file outside the folders
/// walked is an error row, unread (its text was quoted into every report), and a rule
/// family found by name through a link out of the project is refused as a path is.
#[test]
fn links_out_of_the_folders_given_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("pack/rules")).unwrap();
    std::fs::write(d.join("secret.yaml"), "SECRET_TOKEN_123\n").unwrap();
    std::fs::write(d.join("theirs.rhai"), "// SECRET_TOKEN_456.\n").unwrap();
    std::fs::write(d.join("pack/marbles.toml"), "").unwrap();
    std::fs::write(d.join("pack/fam.yaml"), "rules: theirs\nboard: |\n  o o .\n").unwrap();
    std::os::unix::fs::symlink(d.join("secret.yaml"), d.join("pack/evil.yaml")).unwrap();
    std::os::unix::fs::symlink(d.join("theirs.rhai"), d.join("pack/rules/theirs.rhai")).unwrap();
    // A folder linked out: its files were read as the pack's.
    std::fs::create_dir(d.join("secrets")).unwrap();
    std::fs::write(
        d.join("secrets/cfg.yaml"),
        "name: SECRET_TOKEN_789
",
    )
    .unwrap();
    std::os::unix::fs::symlink(d.join("secrets"), d.join("pack/secdir")).unwrap();
    // One linked within is walked, its puzzles under both names.
    std::fs::create_dir(d.join("pack/own")).unwrap();
    std::fs::write(d.join("pack/own/q.yaml"), "rules: peg_hop\nboard: |\n  o o .\n").unwrap();
    std::os::unix::fs::symlink(d.join("pack/own"), d.join("pack/mine")).unwrap();
    let run = Test::new()
        .in_dir(d)
        .args(["batch", "pack", "--no-report", "--format", "json"])
        .run();
    let said = format!("{}{}", run.stdout, run.stderr);
    let v = run.status(2).json();
    let errors: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["error"].as_str())
        .collect();
    let real = std::fs::canonicalize(d).unwrap();
    assert_eq!(
        errors,
        [
            format!(
                "pack/fam.yaml:1: rule family `theirs`: pack/rules/theirs.rhai is a link to {}, outside the \
                 puzzle's project and the rule folders its marbles.toml lists: not read; copy the script in",
                real.join("theirs.rhai").display()
            ),
            format!(
                "pack/evil.yaml: a link out of the folders given, to {}: not read (a folder may link a \
                 puzzle's name to any file; name the file itself to solve it)",
                real.join("secret.yaml").display()
            ),
            format!(
                "pack/secdir: a link out of the folders given, to {}: not walked (a folder may link to \
                 any folder; name that folder itself to solve its puzzles)",
                real.join("secrets").display()
            ),
        ]
    );
    let solved: Vec<&str> = (v["results"].as_array().unwrap().iter())
        .filter(|r| r["status"] == "solved")
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(solved, ["pack/mine/q.yaml", "pack/own/q.yaml"]);
    assert!(!said.contains("SECRET"), "{said}");
    // Nor does the list of families quote the script's first comment.
    let listed = Test::new()
        .in_dir(d)
        .args(["rules", "pack"])
        .run()
        .status(0)
        .stdout;
    assert!(
        listed.contains(&format!(
            "(a link to {}, outside the puzzle's project and the rule folders its marbles.toml lists: not read)",
            real.join("theirs.rhai").display()
        )),
        "{listed}"
    );
    assert!(!listed.contains("SECRET"), "{listed}");
}

/// A file Ctrl-C cut twice: the second run's records of it (those before its cut) are in
/// `results.jsonl`, and the first run's are not carried to `earlier.jsonl` beside them (a
/// reader joining the two counted its cases twice).
#[test]
fn a_file_cut_again_on_resume_is_not_carried_beside_its_new_records() {
    let (_dir, set, report, _) = matrices_cut("1 1 0\n\n0 1 1\n\n", "");
    let mut again = batch(&set, &report, true);
    crate::support::interrupted(again.args(["-j", "1"]), Duration::from_millis(1500));
    let read = |name: &str| std::fs::read_to_string(report.join(name)).unwrap_or_default();
    let (results, earlier) = (read("results.jsonl"), read("current/earlier.jsonl"));
    assert_eq!(results.lines().count(), 2, "{results}");
    assert_eq!(earlier, "", "carried beside its new records");
}
