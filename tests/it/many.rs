//! Many small puzzles: rule tables kept between puzzles answer as fresh runs do, results stream
//! to `results.jsonl`, large batches get summarised reports, many-case files use every core.

use crate::support::{Test, copy_shipped, root};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A reproducible stream of numbers (xorshift64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// `k` distinct cells of an `n`×`n` board.
    fn cells(&mut self, n: u64, k: usize) -> Vec<[u64; 2]> {
        let mut out: Vec<[u64; 2]> = Vec::new();
        while out.len() < k {
            let c = [self.below(n), self.below(n)];
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// Walls between side-by-side squares, as `[[r1, c1], [r2, c2]]` pairs.
    fn walls(&mut self, n: u64) -> Vec<[[u64; 2]; 2]> {
        let mut walls = Vec::new();
        for _ in 0..self.below(4) {
            let (r, c) = (self.below(n), self.below(n));
            let down = self.below(2) == 0;
            let other = if down { [r + 1, c] } else { [r, c + 1] };
            if other[0] < n && other[1] < n && !walls.contains(&[[r, c], other]) {
                walls.push([[r, c], other]);
            }
        }
        walls
    }
}

fn list(cells: &[[u64; 2]]) -> String {
    let items: Vec<String> = cells.iter().map(|c| format!("[{}, {}]", c[0], c[1])).collect();
    format!("[{}]", items.join(", "))
}

/// `count` small puzzles: tilt mazes of 2 to 4 squares a side with walls, and 4×4 or 5×5 peg
/// boards, some asked for the fewest pegs.
fn generated(dir: &Path, count: usize, seed: u64) {
    let mut rng = Rng(seed);
    std::fs::create_dir_all(dir).unwrap();
    for k in 0..count {
        let text = if k % 3 == 0 {
            let n = 4 + rng.below(2);
            let rows: Vec<String> = (0..n)
                .map(|_| {
                    let toks: Vec<&str> = (0..n).map(|_| ["o", "o", "."][rng.below(3) as usize]).collect();
                    format!("  {}\n", toks.join(" "))
                })
                .collect();
            let goal = if rng.below(2) == 0 {
                "  pegs: fewest\n"
            } else {
                "  pegs: 2\n"
            };
            format!("rules: peg_hop\nboard: |\n{}goal:\n{goal}", rows.concat())
        } else {
            let n = 2 + rng.below(3);
            let m = 1 + rng.below((n * n / 2).min(3)) as usize;
            let cells = rng.cells(n, 2 * m);
            let walls: Vec<String> = rng.walls(n).iter().map(|w| list(w)).collect();
            format!(
                "rules: tilt_roll\nsize: {n}\nmarbles: {}\nholes: {}\nwalls: [{}]\n",
                list(&cells[..m]),
                list(&cells[m..]),
                walls.join(", ")
            )
        };
        std::fs::write(dir.join(format!("g{k:05}.yaml")), text).unwrap();
    }
}

/// A batch's `results.jsonl` without the time each took and the bytes its tables reached:
/// those describe the work done, which a table kept from an earlier puzzle spares (a board
/// whose floor finishes another board already tabled builds no table of its own). So do the
/// nodes of a `pegs: fewest` board small enough for `search::dense`'s shared table of values,
/// whose earlier boards spare it nodes, and the seal of each line, which covers them. All else — verdicts, moves, pegs, other nodes — must
/// agree.
pub fn results(report: &Path) -> Vec<Value> {
    std::fs::read_to_string(report.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["stats"]["seconds"] = Value::Null;
            v["stats"]["memory_bytes"] = Value::Null;
            // A digest of the line as written, seconds and all.
            v["seal"] = Value::Null;
            let fewest = v["settings"]
                .as_str()
                .is_some_and(|s| s.starts_with("goal: fewest pegs;"));
            let cells = v["replay"]["cells"].as_array().map_or(usize::MAX, Vec::len);
            if fewest && cells <= marbles::search::dense::MAX_CELLS {
                v["stats"]["nodes"] = Value::Null;
            }
            v
        })
        .collect()
}

fn batch(folder: &Path, report: &Path, cached: bool) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_marbles"));
    cmd.args(["batch", "--quiet", "--format", "csv", "--report"])
        .arg(report)
        .arg(folder)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !cached {
        cmd.env("MARBLES_NO_CACHE", "1");
    }
    cmd
}

#[test]
fn rule_tables_kept_between_puzzles_answer_as_fresh_runs_do() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    generated(&set.join("generated"), 150, 0x9E37_79B9_7F4A_7C15);
    copy_shipped(&set.join("shipped"));
    let (kept, fresh) = (dir.path().join("kept"), dir.path().join("fresh"));
    for (report, cached) in [(&kept, true), (&fresh, false)] {
        let status = batch(&set, report, cached).status().unwrap();
        assert_eq!(
            status.code(),
            Some(1),
            "some generated puzzles have no solution and state no `expect:`"
        );
    }
    let (kept, fresh) = (results(&kept), results(&fresh));
    assert_eq!(kept.len(), 195, "150 generated and 45 shipped");
    assert_eq!(kept.len(), fresh.len());
    for (k, f) in kept.iter().zip(&fresh) {
        assert_eq!(k, f, "a kept table answered otherwise than a fresh run");
    }
    // The answers are real: every generated peg board asked for two pegs that is solved leaves two.
    let solved_two = kept
        .iter()
        .filter(|r| {
            r["status"] == "solved"
                && r["settings"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("goal: 2 pegs"))
        })
        .inspect(|r| assert_eq!(r["pegs_left"], 2, "{r}"))
        .count();
    assert!(solved_two > 15, "{solved_two}");
}

/// A tilt family whose links depend on the walls: a wall between the top-left squares stops
/// every marble rolling left or right.
const STICKY: &str = r#"// sticky: tilt, but a wall between [0, 0] and [0, 1] stops all sideways rolling.
fn rules(board) {
    let directions = [
        #{ name: "up",    step: [-1, 0] },
        #{ name: "down",  step: [1, 0] },
        #{ name: "left",  step: [0, -1] },
        #{ name: "right", step: [0, 1] },
    ];
    let sticky = board.wall(0, 0, 0, 1);
    let links = [];
    for d in directions {
        if sticky && d.step[0] == 0 {
            continue;
        }
        for cell in board.cells {
            let next = [cell[0] + d.step[0], cell[1] + d.step[1]];
            if board.has(next[0], next[1]) {
                links.push(#{ dir: d.name, from: cell, to: next });
            }
        }
    }
    #{ kind: "tilt", directions: directions, links: links }
}
"#;

#[test]
fn a_table_made_from_walls_is_not_served_to_a_board_with_other_walls() {
    // Two boards of one shape: the first (run first, its table kept) has no walls and is
    // solved by one tilt left; the second's wall makes the family stop sideways rolling.
    let maze = |walls: &str| {
        format!("rules: sticky\nsize: 3\nmarbles: [[1, 2]]\nholes: [[1, 0]]\nwalls: [{walls}]\n")
    };
    let t = Test::new()
        .file("set/rules/sticky.rhai", STICKY)
        .file("set/a_open.yaml", &maze(""))
        .file("set/b_walled.yaml", &maze("[[0, 0], [0, 1]]"))
        .file("set/c_open_again.yaml", &maze("[[2, 1], [2, 2]]"))
        .args(["batch", "set", "--report", "rep", "--quiet", "-j", "1"])
        .run()
        .status(1);
    let rows = results(&t.test.path("rep"));
    let got: Vec<(&str, &str, usize)> = rows
        .iter()
        .map(|r| {
            (
                r["puzzle"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                crate::support::line(r).as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a_open", "solved", 1),
            ("b_walled", "unsolvable", 0),
            ("c_open_again", "solved", 1)
        ]
    );
    assert_eq!(crate::support::line(&rows[0])[0]["tilt"], "left");
}

/// An ICPC "Marble Game" file of `cases` random cases, walls included.
fn icpc_cases(cases: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut out = String::new();
    for _ in 0..cases {
        let n = 2 + rng.below(3);
        let m = 1 + rng.below((n * n / 2).min(3)) as usize;
        let cells = rng.cells(n, 2 * m);
        let walls = rng.walls(n);
        let _ = writeln!(out, "{n} {m} {}", walls.len());
        for c in &cells {
            let _ = writeln!(out, "{} {}", c[0], c[1]);
        }
        for [a, b] in &walls {
            let _ = writeln!(out, "{} {} {} {}", a[0], a[1], b[0], b[1]);
        }
    }
    out.push_str("0 0 0\n");
    out
}

#[test]
fn a_many_case_file_answers_alike_on_every_core_and_one_case_at_a_time() {
    let t = Test::new().file("big.icpc", &icpc_cases(3_000, 7));
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", "big.icpc", "--format", "icpc"];
        args.extend(extra);
        let out = Test::new().in_dir(&t.path("")).args(args).run();
        (out.code, out.stdout)
    };
    // `--max-memory` holds for the whole process, so its cases are solved one at a time.
    let (every_core, one_by_one) = (run(&[]), run(&["--max-memory", "2GB"]));
    assert_eq!(every_core.0, Some(1), "some random cases are impossible");
    assert_eq!(every_core, one_by_one);
    let answers: Vec<&str> = every_core.1.lines().filter(|l| l.starts_with("Case ")).collect();
    assert_eq!(answers.len(), 3_000);
    assert_eq!(answers[2_999].split(':').next(), Some("Case 3000"));
    assert!(answers.iter().any(|a| a.ends_with("impossible")));
    assert!(answers.iter().any(|a| a.ends_with(" moves")));
}

#[test]
fn a_large_batch_lists_every_result_in_results_jsonl_and_summarises_its_reports() {
    // 3,000 results from 30 files of 100 cases: past the 2,000 a report lists in full.
    let t = Test::new();
    for f in 0..30 {
        std::fs::create_dir_all(t.path("set")).unwrap();
        std::fs::write(t.path(&format!("set/f{f:02}.icpc")), icpc_cases(100, 11 + f)).unwrap();
    }
    let run = t.args(["batch", "set", "--report", "rep"]).run().status(1);
    let rep = run.test.path("rep");
    let rows = results(&rep);
    assert_eq!(rows.len(), 3_000);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            (r["index"].as_u64(), r["case"].as_u64()),
            (Some(i as u64 / 100), Some(i as u64 % 100 + 1))
        );
    }
    let count = |status: &str| rows.iter().filter(|r| r["status"] == status).count();
    let (solved, unsolvable) = (count("solved"), count("unsolvable"));
    assert_eq!(solved + unsolvable, 3_000);
    // The stdout table counts by family and status, thousands grouped as in its rows.
    let grouped = |n: usize| match n {
        1000.. => format!("{},{:03}", n / 1000, n % 1000),
        _ => n.to_string(),
    };
    assert!(
        run.stdout.contains(&format!(
            "3,000 puzzles: {} solved, {} unsolvable",
            grouped(solved),
            grouped(unsolvable)
        )),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("too many to list here"), "{}", run.stdout);
    let csv = std::fs::read_to_string(rep.join("summary.csv")).unwrap();
    let thousands = |n: usize| {
        let s = n.to_string();
        if s.len() > 3 {
            format!("{},{}", &s[..s.len() - 3], &s[s.len() - 3..])
        } else {
            s
        }
    };
    assert!(
        csv.starts_with("family,status,puzzles,seconds,max_seconds,nodes\n"),
        "{csv}"
    );
    assert!(csv.contains(&format!("tilt_roll,solved,{solved},")), "{csv}");
    assert!(
        csv.contains(&format!("tilt_roll,unsolvable,{unsolvable},")),
        "{csv}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(rep.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["results_file"], "results.jsonl");
    assert_eq!(json["summary"]["totals"]["solved"], solved);
    let bins: u64 = json["summary"]["time_bins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .sum();
    assert_eq!(bins, 3_000);
    let md = std::fs::read_to_string(rep.join("summary.md")).unwrap();
    assert!(
        md.contains(&format!("| tilt\\_roll | solved | {} |", thousands(solved))),
        "{md}"
    );
    assert!(md.contains("## The first 12 puzzles"), "{md}");
    // Without a report folder there is no results.jsonl, and the summary says so.
    let quiet = Test::new()
        .in_dir(&run.test.path(""))
        .args(["batch", "set", "--no-report", "--format", "json"])
        .run()
        .status(1);
    assert_eq!(quiet.json()["results_file"], Value::Null);
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert_eq!(
        html.matches("<svg viewBox=\"0 0 576 160\"").count(),
        2,
        "two charts"
    );
    assert!(html.contains(&format!("<b>{solved}</b><span>solved</span>")));
    // The totals line as stdout prints it (with the expectations met and not met, if any).
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("3,000 puzzles: "))
        .unwrap();
    let line = line
        .split("; ")
        .filter(|p| !p.ends_with(" s solving"))
        .collect::<Vec<_>>()
        .join("; ");
    assert!(html.contains(&format!("<p class=\"totals\">{line}; ")), "{line}");
}

/// Past the results a report lists in full, a search Ctrl-C stopped is still JUnit's
/// `skipped`, not a failure, as in a small batch.
#[test]
fn a_large_batch_interrupted_reports_the_cut_search_as_skipped() {
    let t = Test::new();
    std::fs::create_dir_all(t.path("set")).unwrap();
    for f in 0..21 {
        std::fs::write(t.path(&format!("set/f{f:02}.icpc")), icpc_cases(100, 11 + f)).unwrap();
    }
    std::fs::write(t.path("set/z_tip.yaml"), crate::support::diamond41_from_tip()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_marbles"))
        // The time limit ends the run should the frame waited for never come.
        .args(["batch", "set", "--report", "rep", "-j", "1", "--timeout", "60"])
        .current_dir(t.path(""))
        .env("MARBLES_PROGRESS", "always")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    // Every other file done, the diamond's search runs: cut it.
    assert!(stderr.any(|l| l.unwrap().contains(" 21/22 files")));
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let said: Vec<String> = stderr.map(Result::unwrap).collect();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{said:?}");
    let rows = results(&t.path("rep"));
    assert_eq!(rows.len(), 2_100);
    let unsolvable = rows.iter().filter(|r| r["status"] == "unsolvable").count();
    let xml = std::fs::read_to_string(t.path("rep/junit.xml")).unwrap();
    let suite = format!("tests=\"2101\" failures=\"{unsolvable}\" errors=\"0\"");
    assert!(xml.contains(&suite) && xml.contains(" skipped=\"1\">"), "{xml}");
    assert!(
        xml.contains("name=\"z_tip\"")
            && xml.contains("<skipped type=\"interrupted\" message=\"interrupted after "),
        "{xml}"
    );
}

#[test]
fn a_large_batch_killed_and_resumed_lists_every_result_as_if_never_killed() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir_all(&set).unwrap();
    for f in 0..24 {
        std::fs::write(set.join(format!("f{f:02}.icpc")), icpc_cases(100, 101 + f)).unwrap();
    }
    generated(&set.join("yaml"), 300, 5);
    let whole = dir.path().join("whole");
    assert_eq!(batch(&set, &whole, true).status().unwrap().code(), Some(1));
    let expected = results(&whole);
    assert_eq!(expected.len(), 2_700);

    let killed = dir.path().join("killed");
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..4 {
        let mut cmd = batch(&set, &killed, true);
        if round > 0 {
            cmd.arg("--resume");
        }
        crate::support::kill_after(cmd.spawn().unwrap(), &mut seed, 20, 400);
    }
    let status = batch(&set, &killed, true).arg("--resume").status().unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(results(&killed), expected);
}

#[test]
fn ctrl_c_in_a_many_case_file_reports_no_case_it_never_began() {
    let t = Test::new()
        .file("big.icpc", &icpc_cases(30_000, 3))
        .args(["solve", "big.icpc", "--format", "icpc"]);
    let out = crate::support::interrupted(&mut t.command(), Duration::from_millis(700));
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Case ")).collect();
    assert!(answers.len() < 30_000, "Ctrl-C came too late to test anything");
    // Answers are a prefix of the file's cases; only cases under way when Ctrl-C came (one a
    // core at most) say they were interrupted.
    for (k, a) in answers.iter().enumerate() {
        assert!(a.starts_with(&format!("Case {}: ", k + 1)), "{a}");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let interrupted = answers.iter().filter(|a| a.contains("interrupted")).count();
    assert!(
        interrupted <= cores,
        "{interrupted} cases said interrupted:\n{stdout}"
    );
}

#[test]
fn resume_solves_again_under_other_script_limits() {
    let maze = std::fs::read_to_string(root().join("puzzles/tilt_roll/four_by_four.yaml")).unwrap();
    let t = Test::new()
        .file("set/maze.yaml", &maze)
        .args(["batch", "set", "--report", "rep", "--quiet"])
        .run()
        .status(0);
    Test::new()
        .in_dir(&t.test.path(""))
        .args([
            "batch",
            "set",
            "--report",
            "rep",
            "--quiet",
            "--resume",
            "--script-ops",
            "10",
        ])
        .run()
        .status(2);
    let rows = results(&t.test.path("rep"));
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("operation limit reached")),
        "{}",
        rows[0]
    );
}

#[test]
fn merged_shards_list_every_result_as_one_batch_does() {
    let t = Test::new();
    let set = t.path("set");
    copy_shipped(&set);
    let run = |args: &[&str]| {
        Test::new().in_dir(&t.path("")).args(args).run();
    };
    run(&["batch", "set", "--report", "s0", "--quiet", "--shard", "0/2"]);
    run(&["batch", "set", "--report", "s1", "--quiet", "--shard", "1/2"]);
    run(&[
        "merge",
        "s0/shard-0-of-2.json",
        "s1/shard-1-of-2.json",
        "--report",
        "merged",
    ]);
    run(&["batch", "set", "--report", "whole", "--quiet"]);
    let (merged, whole) = (results(&t.path("merged")), results(&t.path("whole")));
    assert_eq!(whole.len(), 45);
    assert!(
        whole.iter().any(|r| r["cases"] == 2),
        "the ICPC sample's two cases"
    );
    assert_eq!(merged, whole);
}

/// A batch too large to list names each failed case by its file too, as a listed one does:
/// the same puzzle name may stand in a hundred files.
#[test]
fn a_summarised_table_names_the_file_of_each_failed_case() {
    let cases = vec!["1 1 0"; 2000].join("\n\n");
    Test::new()
        .file("set/m.matrix", &format!("{cases}\n\n1 0 1\n"))
        .args(["batch", "set", "--no-report"])
        .run()
        .status(1)
        .stdout_has(
            "failed: 1 (the first 1 in the reports)\n  set/m.matrix: m board 2001: exhaustive search:",
        );
}

/// Progress drawn on a stderr that is no terminal is a line a frame, at most five frames a
/// second as on a terminal, not a line for each puzzle finished.
#[test]
fn progress_written_to_a_file_is_throttled_like_a_terminal_s() {
    let t = Test::new();
    std::fs::create_dir_all(t.path("set")).unwrap();
    for f in 0..2_000 {
        std::fs::write(t.path(&format!("set/f{f}.icpc")), icpc_cases(1, f + 1)).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_marbles"))
        .args(["batch", "set", "--no-report"])
        .current_dir(t.path(""))
        .env("MARBLES_PROGRESS", "always")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("2000/2000 files"), "{stderr}");
    // 2,000 files drew 2,000 lines unthrottled; a second or two of frames now.
    assert!(stderr.lines().count() < 100, "{} lines", stderr.lines().count());
}
