//! `marbles batch`: statuses, totals, exit codes, report files that agree, resume.

use crate::support::{Test, resealed, root};
use serde_json::Value;

fn shipped(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

/// A shipped puzzle without its `expect:` line: unsolvable, it then fails a batch.
fn unexpected(rel: &str) -> String {
    shipped(rel)
        .lines()
        .filter(|l| !l.starts_with("expect:"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A folder with one puzzle of each fate, plus files a walk must skip.
fn mixed() -> Test {
    Test::new()
        .file(
            "set/a_solvable.yaml",
            &shipped("puzzles/triangle_hop/corner.yaml"),
        )
        .file(
            "set/b_unsolvable.yaml",
            &unexpected("puzzles/tilt_roll/no_solution.yaml"),
        )
        .file("set/c_malformed.yaml", "rules: peg_hop\nboard: [\n")
        .file(
            "set/deeper/d_over_limit.yml",
            &format!(
                "{}solve:\n  max_nodes: 5\n",
                shipped("puzzles/peg_hop/english_top.yaml")
            ),
        )
        .file("set/.hidden/e_skipped.yaml", "not even yaml: [")
        .file("set/notes.txt", "not a puzzle")
}

/// The results array of a summary document, by file name.
fn by_status(results: &Value) -> Vec<(String, String)> {
    results
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let f = o["file"].as_str().unwrap();
            let stem = std::path::Path::new(f)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (stem, o["status"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn one_row_per_puzzle_with_its_status_and_reports_that_agree() {
    let run = mixed()
        .args(["batch", "set", "--report", "rep", "--format", "json", "--quiet"])
        .run();
    let run = run.status(2).no_panic();
    let printed = run.json();
    // `--quiet` keeps the note of the hidden folder (below) off stderr.
    assert!(!run.stderr.contains(".hidden"), "{}", run.stderr);
    assert_eq!(
        by_status(&printed["results"]),
        [
            ("a_solvable.yaml".into(), "solved".into()),
            ("b_unsolvable.yaml".into(), "unsolvable".into()),
            ("c_malformed.yaml".into(), "error".into()),
            ("d_over_limit.yml".into(), "gave_up".into()),
        ]
    );
    let results = printed["results"].as_array().unwrap();
    assert_eq!(
        results[2]["error"].as_str().unwrap().split(": ").next(),
        Some("set/c_malformed.yaml:2:8")
    );
    assert_eq!(results[3]["reason"], "node limit (5 nodes)");
    assert_eq!(crate::support::line(&results[0]).as_array().unwrap().len(), 13);

    let rep = run.dir().join("rep");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(rep.join("summary.json")).unwrap()).unwrap();
    assert_eq!(by_status(&json["results"]), by_status(&printed["results"]));
    for o in json["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["status"] != "error")
    {
        assert_eq!(o["spec_hash"].as_str().unwrap().len(), 64);
        assert_eq!(o["script_hash"].as_str().unwrap().len(), 64);
    }

    let mut csv = csv::Reader::from_path(rep.join("summary.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4);
    for (row, o) in rows.iter().zip(json["results"].as_array().unwrap()) {
        assert_eq!(&row[0], o["file"].as_str().unwrap());
        assert_eq!(&row[3], o["status"].as_str().unwrap());
        // The moves of a solution, or of the best line a give-up found, as JSON counts them.
        assert_eq!(row[4].parse::<u64>().ok(), o["move_count"].as_u64());
        assert_eq!(
            row[14].parse::<usize>().ok(),
            o.get("jumps")
                .map(|_| crate::support::line(o).as_array().unwrap().len())
                .filter(|&n| n > 0)
        );
    }

    let md = std::fs::read_to_string(rep.join("summary.md")).unwrap();
    assert!(
        md.contains("4 puzzles: 1 solved, 1 unsolvable, 1 gave up, 1 error;"),
        "{md}"
    );
    assert!(
        md.contains("\n1. [2, 0] over [1, 0] to [0, 0] (up-right)\n\n```\n    *\n   . o\n"),
        "{md}"
    );
    // The malformed file's heading names no script, and leaves no empty field for one.
    assert!(
        md.contains("\n## c\\_malformed\n\n`set/c_malformed.yaml` · **error: set/c\\_malformed.yaml:2:8:"),
        "{md}"
    );
    assert!(rep.join("index.html").is_file());
    assert!(
        !rep.join(".journal.jsonl").exists(),
        "the journal is removed once reports are written"
    );
}

#[test]
fn the_table_shows_totals_and_fits_80_columns() {
    let run = mixed()
        .args(["batch", "set", "--no-report", "--quiet"])
        .run()
        .status(2);
    for line in run.stdout.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line:?}");
    }
    assert!(
        run.stdout
            .contains("4 puzzles: 1 solved, 1 unsolvable, 1 gave up, 1 error;"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" status "));
}

/// A hidden folder is not searched, and one holding puzzle files is named (its puzzles were
/// missed without a word); one holding none (a `.git`) is not.
#[test]
fn a_hidden_folder_of_puzzles_is_named_as_not_searched() {
    let run = mixed()
        .file("set/.git/config", "")
        .args(["batch", "set", "--no-report", "--format", "csv"])
        .run()
        .status(2);
    assert!(
        run.stderr.contains(
            "marbles: note: set/.hidden: a hidden folder, not searched; name it to solve its puzzles\n"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(".git"), "{}", run.stderr);
    assert!(!run.stdout.contains("e_skipped"), "{}", run.stdout);
}

#[test]
fn all_solved_exits_zero_and_some_unsolved_exits_one() {
    Test::new()
        .file("ok/a.yaml", &shipped("puzzles/triangle_hop/corner.yaml"))
        .args(["batch", "ok", "--no-report", "--quiet", "--format", "csv"])
        .run()
        .status(0);
    Test::new()
        .file("some/a.yaml", &shipped("puzzles/triangle_hop/corner.yaml"))
        .file("some/b.yaml", &unexpected("puzzles/tilt_roll/no_solution.yaml"))
        .args(["batch", "some", "--no-report", "--quiet", "--format", "csv"])
        .run()
        .status(1);
    Test::new()
        .file("empty/readme.txt", "")
        .args(["batch", "empty"])
        .run()
        .status(2)
        .stderr_has("no puzzle files");
}

/// summary.json with the timing fields blanked, for comparing runs.
fn untimed(path: &std::path::Path) -> Value {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for o in v["results"].as_array_mut().unwrap() {
        o["stats"]["seconds"] = Value::Null;
        o["stats"]["memory_bytes"] = Value::Null;
    }
    v
}

#[test]
fn reruns_are_deterministic_and_resume_skips_unchanged_puzzles() {
    let t = mixed();
    let set = t.path("set");
    let rep1 = t.path("rep1");
    let rep2 = t.path("rep2");
    let set_arg = set.display().to_string();
    let run = |rep: &std::path::Path, resume: bool| {
        let rep = rep.display().to_string();
        let mut args = vec!["batch", &set_arg, "--report", &rep, "--quiet", "-j", "2"];
        if resume {
            args.push("--resume");
        }
        Test::new().args(args).run()
    };
    run(&rep1, false);
    run(&rep2, false);
    assert_eq!(
        untimed(&rep1.join("summary.json")),
        untimed(&rep2.join("summary.json"))
    );

    // Change one puzzle: with --resume only it (and the error row) is solved again.
    let first: Value =
        serde_json::from_str(&std::fs::read_to_string(rep1.join("summary.json")).unwrap()).unwrap();
    std::fs::write(
        set.join("b_unsolvable.yaml"),
        shipped("puzzles/tilt_roll/four_by_four.yaml"),
    )
    .unwrap();
    run(&rep1, true);
    let second: Value =
        serde_json::from_str(&std::fs::read_to_string(rep1.join("summary.json")).unwrap()).unwrap();
    let (a, b) = (&first["results"], &second["results"]);
    assert_eq!(
        a[0], b[0],
        "the unchanged solvable puzzle is reused, timings and all"
    );
    assert_eq!(a[3], b[3], "the unchanged over-limit puzzle is reused");
    assert_eq!(b[1]["status"], "solved", "the changed puzzle is solved again");
    assert_eq!(b[2]["status"], "error");
    // The limits it gave up under: the spec's node limit and the machine-dependent memory default.
    assert!(
        b[3]["limits"]
            .as_str()
            .unwrap()
            .starts_with("max nodes 5, max memory "),
        "{}",
        b[3]
    );

    // A larger limit on the command line: the puzzle that gave up is tried again, and solves.
    let rep1_arg = rep1.display().to_string();
    Test::new()
        .args([
            "batch",
            &set_arg,
            "--quiet",
            "--resume",
            "--max-nodes",
            "100000000",
            "--report",
            &rep1_arg,
        ])
        .run()
        .status(2);
    let third: Value =
        serde_json::from_str(&std::fs::read_to_string(rep1.join("summary.json")).unwrap()).unwrap();
    assert_eq!(third["results"][3]["status"], "solved");
    // Other limits are other settings: the solved puzzle is solved afresh, to the same moves.
    let (old, new) = (&b[0], &third["results"][0]);
    assert_eq!(
        (&new["status"], &crate::support::line(new)),
        (&old["status"], &crate::support::line(old))
    );
    assert!(
        new["settings"].as_str().unwrap().contains("max nodes 100000000"),
        "{new}"
    );
}

#[test]
fn classic_files_join_a_batch_one_row_per_case_and_resume_like_yaml() {
    let icpc =
        "4 3 1\n0 1\n1 0\n1 2\n2 3\n2 1\n3 2\n1 1 1 2\n3 2 2\n0 0\n0 1\n0 2\n2 0\n2 0 1 0\n2 0 2 1\n0 0 0\n";
    let t = Test::new()
        .file("mix/a.yaml", &shipped("puzzles/triangle_hop/corner.yaml"))
        .file("mix/b.icpc", icpc)
        .file("mix/c.lisp", "((o) (x x) (x x x) (x x x x) (x x x x x))\n");
    let run = t
        .args(["batch", "mix", "--report", "rep", "--format", "json", "--quiet"])
        .run()
        .status(1);
    let rows: Vec<(String, String, String)> = run.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["file"].as_str().unwrap().into(),
                o["puzzle"].as_str().unwrap().into(),
                o["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("mix/a.yaml".into(), "Triangle corner".into(), "solved".into()),
            ("mix/b.icpc".into(), "b case 1".into(), "solved".into()),
            ("mix/b.icpc".into(), "b case 2".into(), "unsolvable".into()),
            ("mix/c.lisp".into(), "c".into(), "solved".into()),
        ]
    );
    let first = std::fs::read_to_string(run.dir().join("rep/summary.json")).unwrap();
    Test::new()
        .in_dir(run.dir())
        .args(["batch", "mix", "--report", "rep", "--quiet", "--resume"])
        .run()
        .status(1);
    let second = std::fs::read_to_string(run.dir().join("rep/summary.json")).unwrap();
    assert_eq!(first, second, "every file, cases and all, is reused unchanged");
}

#[test]
fn a_file_reached_twice_is_solved_once() {
    let t = Test::new()
        .file("a/arrow.yaml", &shipped("puzzles/peg_hop/arrow.yaml"))
        .file("a/sub/pyramid.yaml", &shipped("puzzles/peg_hop/pyramid.yaml"))
        .file("a/.hidden/x.yaml", &shipped("puzzles/peg_hop/fireplace.yaml"));
    std::os::unix::fs::symlink(t.path("a"), t.path("link")).unwrap();
    let dir = t.path("");
    // Two spellings of one folder, a symlink to it, a folder inside it, files inside it (the
    // hidden one is not walked, so naming it adds it), one file twice.
    for (args, files) in [
        (&["a", "./a"][..], vec!["arrow.yaml", "pyramid.yaml"]),
        (&["a", "link"][..], vec!["arrow.yaml", "pyramid.yaml"]),
        (&["a/sub", "a"][..], vec!["arrow.yaml", "pyramid.yaml"]),
        (&["a", "a/arrow.yaml"][..], vec!["arrow.yaml", "pyramid.yaml"]),
        (
            &["a", "a/.hidden/x.yaml"][..],
            vec!["arrow.yaml", "pyramid.yaml", "x.yaml"],
        ),
        (&["a/arrow.yaml", "./a/arrow.yaml"][..], vec!["arrow.yaml"]),
    ] {
        let mut argv = vec!["batch"];
        argv.extend(args);
        argv.extend(["--report", "rep", "--format", "json", "--quiet"]);
        Test::new().in_dir(&dir).args(&argv).run().status(0);
        let text = std::fs::read_to_string(dir.join("rep/results.jsonl")).unwrap();
        let mut names: Vec<String> = text
            .lines()
            .map(|l| {
                let o: Value = serde_json::from_str(l).unwrap();
                let f = o["file"].as_str().unwrap().to_string();
                f.rsplit('/').next().unwrap().to_string()
            })
            .collect();
        names.sort();
        assert_eq!(names, files, "{args:?}");
    }
}

/// Jumps leftwards only: `o o .` cannot be solved with it.
const LEFT_ONLY: &str = r#"
fn rules(board) {
    let moves = [];
    for cell in board.cells {
        if board.has(cell[0], cell[1] + 2) {
            moves.push(#{ dir: "left", from: [cell[0], cell[1] + 2], over: [cell[0], cell[1] + 1], to: cell });
        }
    }
    #{ kind: "hop", directions: ["left"], moves: moves }
}
"#;

#[test]
fn a_puzzle_uses_one_script_whatever_folders_the_command_line_names() {
    // `batch A` used A/rules (the folder given bounded the climb), `batch A A/sub` the
    // built-in (A/sub did), `solve` neither: the script now follows from the file's place.
    for project in [false, true] {
        let mut t = Test::new().file("A/rules/peg_hop.rhai", LEFT_ONLY).file(
            "A/sub/p.yaml",
            "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  pegs: 1\n",
        );
        if project {
            t = t.file("A/marbles.toml", "");
        }
        let dir = t.path("");
        let want = match project {
            true => ("A/rules/peg_hop.rhai", "unsolvable"),
            false => ("<builtin>/peg_hop.rhai", "solved"),
        };
        let commands: [&[&str]; 5] = [
            &["batch", "A"],
            &["batch", "A", "A/sub"],
            &["batch", "A/sub"],
            &["batch", "A/sub/p.yaml"],
            &["solve", "A/sub/p.yaml"],
        ];
        for args in commands {
            let mut args = args.to_vec();
            args.extend(["--format", "json"]);
            if args[0] == "batch" {
                args.extend(["--no-report", "--quiet"]);
            }
            let run = Test::new().in_dir(&dir).args(&args).run().no_panic();
            let out = run.json();
            let o = match args[0] {
                "batch" => &out["results"][0],
                _ => &out[0],
            };
            assert_eq!(
                (o["script"].as_str(), o["status"].as_str()),
                (Some(want.0), Some(want.1)),
                "marker {project}, {args:?}"
            );
        }
    }
}

#[test]
fn resume_solves_again_a_result_edited_since_it_was_written() {
    let corner = shipped("puzzles/triangle_hop/corner.yaml");
    let t = Test::new()
        .file("set/a.yaml", &corner)
        .file("set/b.yaml", &corner)
        .file("set/c.yaml", &corner);
    let dir = t.path("");
    let batch = || {
        Test::new()
            .in_dir(&dir)
            .args(["batch", "set", "--report", "rep", "--quiet", "--resume"])
            .run()
            .no_panic()
            .status(0)
    };
    batch();
    let summary = || -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("rep/summary.json")).unwrap()).unwrap()
    };
    let first = summary();
    // b's record forged to say unsolvable; one of c's moves changed: both still parse.
    let results = std::fs::read_to_string(dir.join("rep/results.jsonl")).unwrap();
    let lines: Vec<String> = results
        .lines()
        .map(|l| match () {
            _ if l.contains("set/b.yaml") => {
                l.replacen("\"status\":\"solved\"", "\"status\":\"unsolvable\"", 1)
            }
            _ if l.contains("set/c.yaml") => l.replacen("\"to\":[0,0]", "\"to\":[4,4]", 1),
            _ => l.to_string(),
        })
        .collect();
    assert_ne!(lines.join("\n") + "\n", results, "both records were edited");
    std::fs::write(dir.join("rep/results.jsonl"), lines.join("\n") + "\n").unwrap();
    batch();
    let second = summary();
    let (a, b) = (&first["results"], &second["results"]);
    assert_eq!(a[0], b[0], "the record left alone is reused, timings and all");
    for k in [1, 2] {
        assert_eq!(
            (&b[k]["status"], &crate::support::line(&b[k])),
            (&a[k]["status"], &crate::support::line(&a[k])),
            "an edited record is solved again"
        );
    }
}

#[test]
fn under_fewest_moves_the_moves_column_counts_chains_as_the_goal_does() {
    // One peg jumps twice in a row: two jumps, one move.
    let run = Test::new()
        .file("set/chain.yaml", "rules: peg_hop\nboard: |\n  o o . o .\n")
        .args(["batch", "set", "--fewest-moves", "--report", "rep", "--quiet"])
        .run()
        .status(0);
    let row: Vec<&str> = run
        .stdout
        .lines()
        .find(|l| l.contains("chain"))
        .unwrap_or_else(|| panic!("no row:\n{}", run.stdout))
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(row[2..5], ["solved", "1", "1"], "status, moves, pegs");
    let rep = run.dir().join("rep");
    let csv = std::fs::read_to_string(rep.join("summary.csv")).unwrap();
    assert!(csv.contains(",solved,1,1,"), "{csv}");
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(
        html.contains("<dt>moves</dt><dd>1</dd></div><div><dt>jumps</dt><dd>2</dd>"),
        "{html}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(rep.join("summary.json")).unwrap()).unwrap();
    let o = &json["results"][0];
    assert_eq!(
        (
            o["move_count"].as_u64(),
            crate::support::line(o).as_array().map(Vec::len)
        ),
        (Some(1), Some(2))
    );
}

#[test]
fn resume_says_how_many_files_it_reused_and_how_many_it_solved() {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    let resume = |t: &Test| {
        let out = t
            .command()
            .args(["batch", "set", "--report", "rep", "--resume"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let first = resume(&t);
    assert!(
        first.contains("resumed: 0 of 2 puzzle files reused from earlier results, 2 solved now\n"),
        "{first}"
    );
    std::fs::write(t.path("set/b.yaml"), "rules: peg_hop\nboard: |\n  . o o\n").unwrap();
    let second = resume(&t);
    assert!(
        second.contains("resumed: 1 of 2 puzzle files reused from earlier results, 1 solved now\n"),
        "{second}"
    );
}

/// The settings the first result of `t`'s batch report (`rep/`) was made under.
fn first_settings(t: &Test) -> String {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(t.path("rep/summary.json")).unwrap()).unwrap();
    summary["results"][0]["settings"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Results made under `--fewest-moves` are reused by a rerun under it: the settings recorded
/// are those a rerun works out, `moves: fewest` as the goal writes it.
#[test]
fn resume_reuses_results_made_under_fewest_moves() {
    let t = Test::new().file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
    let resume = || {
        let args = ["batch", "set", "--report", "rep", "--resume", "--fewest-moves"];
        let out = t.command().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    resume();
    let again = resume();
    assert!(
        again.contains("resumed: 1 of 1 puzzle files reused from earlier results, 0 solved now\n"),
        "{again}"
    );
    let settings = first_settings(&t);
    assert!(settings.contains("; moves: fewest;"), "{settings}");
}

/// A folder `set` of one peg puzzle solved in two jumps.
fn one_puzzle_set() -> Test {
    Test::new().file(
        "set/a.yaml",
        "rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  pegs: 1\n",
    )
}

/// `batch set --report rep --resume` in `t`, which must exit 0: its stderr.
fn resumed_into_rep(t: &Test) -> String {
    let args = ["batch", "set", "--report", "rep", "--resume"];
    let out = t.command().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A record edited and sealed again (the seal is no defence against that) is reused only if
/// it is what its moves do: a jump added past the goal (its boards cannot be drawn), another
/// puzzle's name, a board drawn otherwise or a count its line does not make, each is solved
/// again and reported as solved now.
#[test]
fn resume_solves_again_a_resealed_result_its_moves_do_not_make() {
    let t = one_puzzle_set();
    let resume = || resumed_into_rep(&t);
    resume();
    let results = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
    let last = r#"{"from":[0,3],"over":[0,2],"to":[0,1],"dir":"left"}"#;
    let edits = [
        (format!("{last}]"), format!("{last},{last}]")),
        (r#""puzzle":"a""#.into(), r#""puzzle":"forged""#.into()),
        (r#""0011","0100"]"#.into(), r#""0011","0010"]"#.into()),
        (r#""pegs_left":1"#.into(), r#""pegs_left":2"#.into()),
        // A floor no exact search proved: "proven the fewest".
        (
            r#""pegs_left":1"#.into(),
            r#""pegs_left":1,"moves_floor":2"#.into(),
        ),
    ];
    for (was, forged) in edits {
        assert!(results.contains(&was), "{was} in {results}");
        let edited = resealed(results.trim_end().replace(&was, &forged).as_str()) + "\n";
        std::fs::write(t.path("rep/results.jsonl"), edited).unwrap();
        let again = resume();
        assert!(
            again.contains("resumed: 0 of 1 puzzle files reused from earlier results, 1 solved now\n"),
            "{forged}: {again}"
        );
        let now = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
        assert!(now.contains(&was) && !now.contains(&forged), "{now}");
    }
    // An expectation the file does not state is not read from the record: the answer is
    // reused and judged again (a forged `met: false` made the run fail).
    let was = r#""pegs_left":1"#;
    let forged = r#""pegs_left":1,"expect":"unsolvable","met":false"#;
    let edited = resealed(results.trim_end().replace(was, forged).as_str()) + "\n";
    std::fs::write(t.path("rep/results.jsonl"), edited).unwrap();
    let again = resume();
    assert!(again.contains("resumed: 1 of 1 puzzle files reused"), "{again}");
    let now = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
    assert!(!now.contains("\"met\"") && !now.contains("\"expect\""), "{now}");
}

/// A goal of one peg is `1 peg` in the settings; results an older report recorded as
/// `goal: 1 pegs` were made under the same settings and are reused.
#[test]
fn resume_reuses_results_whose_settings_said_1_pegs() {
    let t = one_puzzle_set();
    let resume = || resumed_into_rep(&t);
    resume();
    let settings = first_settings(&t);
    assert!(settings.starts_with("goal: 1 peg; order: script;"), "{settings}");
    let results = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
    let older: String = results
        .lines()
        .map(|l| resealed(&l.replace("\"goal: 1 peg;", "\"goal: 1 pegs;")) + "\n")
        .collect();
    assert_ne!(older, results);
    std::fs::write(t.path("rep/results.jsonl"), older).unwrap();
    let again = resume();
    assert!(
        again.contains("resumed: 1 of 1 puzzle files reused from earlier results, 0 solved now\n"),
        "{again}"
    );
}

/// The default memory limit is a share of the machine per job: a rerun with another `-j`
/// changes it, and the results reached under it are reused all the same.
#[test]
fn resume_reuses_results_when_only_the_jobs_changed() {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    let resume = |jobs: &str| {
        let out = t
            .command()
            .args(["batch", "set", "--report", "rep", "--resume", "-j", jobs])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    resume("2");
    let again = resume("1");
    assert!(
        again.contains("resumed: 2 of 2 puzzle files reused from earlier results, 0 solved now\n"),
        "{again}"
    );
    let settings = first_settings(&t);
    assert!(settings.ends_with("limits: max memory the default"), "{settings}");
}

/// A batch closes with its slowest files, and a hint when one took most of the time.
#[test]
fn a_batch_names_its_slowest_puzzles_and_the_one_that_took_most_of_the_time() {
    // A puzzle of a million nodes beside two of one jump: the hint must not hang on how the
    // machine's load splits a few milliseconds (the 15-hole triangle, 0.3 ms, did not).
    let hard = std::fs::read_to_string(root().join("puzzles/peg_hop/french_solvable.yaml")).unwrap();
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  . o o\n")
        .file("set/hard.yaml", &hard);
    let run = |extra: &[&str]| {
        let out = t
            .command()
            .args([&["batch", "set", "--no-report"][..], extra].concat())
            .env("MARBLES_PROGRESS", "always")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let said = run(&[]);
    let slowest = said
        .lines()
        .find(|l| l.starts_with("slowest 3: "))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(slowest.contains("s set/hard.yaml, "), "{said}");
    assert!(
        said.contains("% of the time: give it --timeout or solve it alone (marbles solve set/hard.yaml)\n"),
        "{said}"
    );
    assert!(!run(&["--quiet"]).contains("slowest"));
}

/// A run over some of the files (`-k`, a Ctrl-C, `--fail-fast`) keeps the results of the others
/// for `--resume`, which counts every file of the folder.
#[test]
fn resume_after_a_run_over_some_files_reuses_every_file_finished_before() {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/c.yaml", "rules: peg_hop\nboard: |\n  . o o\n");
    let run = |extra: &[&str]| {
        let args = [&["batch", "set", "--report", "rep"][..], extra].concat();
        let out = t.command().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&[]);
    run(&["-k", "a.yaml"]);
    let resumed = run(&["--resume"]);
    assert!(
        resumed.contains("resumed: 3 of 3 puzzle files reused from earlier results, 0 solved now\n"),
        "{resumed}"
    );
    let resumed = run(&["--resume", "-k", "b.yaml"]);
    assert!(
        resumed.contains("resumed: 1 of 1 puzzle files reused from earlier results, 0 solved now\n"),
        "{resumed}"
    );
}

/// The stderr of a batch on one thread of the folder `set` holding `files` (name, text), its
/// bar drawn as `MARBLES_PROGRESS=always` draws it on a stderr that is no terminal.
fn drawn(files: [(&str, &str); 2]) -> String {
    let out = files
        .iter()
        .fold(Test::new(), |t, (name, text)| {
            t.file(&format!("set/{name}"), text)
        })
        .args(["batch", "set", "--no-report", "-j", "1"])
        .command()
        .env("MARBLES_PROGRESS", "always")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `MARBLES_PROGRESS=always` draws the bar on a stderr that is no terminal, a line a redraw;
/// it says no ETA before a file has finished.
#[test]
fn the_progress_bar_is_drawn_when_asked_and_guesses_no_eta_from_nothing() {
    let corner = std::fs::read_to_string(root().join("puzzles/triangle_hop/corner.yaml")).unwrap();
    let stderr = drawn([
        ("hard.yaml", &corner),
        ("quick.yaml", "rules: peg_hop\nboard: |\n  o o .\n"),
    ]);
    let frames: Vec<&str> = stderr.lines().filter(|l| l.contains("/2 files")).collect();
    assert!(frames.iter().any(|l| l.contains(" 0/2 files ")), "{stderr}");
    for frame in frames {
        assert_eq!(frame.contains("ETA"), !frame.contains(" 0/2 "), "{frame}");
    }
}

/// A run Ctrl-C stopped leaves the bar at the files it finished (its last frame said
/// "2/2 files", the bar filled, where one of two had finished).
#[test]
fn the_progress_bar_names_the_long_file_and_ends_where_a_stopped_run_did() {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/z.yaml", &crate::support::diamond41_from_tip());
    let mut cmd = t.command();
    cmd.args(["batch", "set", "--no-report", "-j", "1"])
        .env("MARBLES_PROGRESS", "always");
    let out = crate::support::interrupted(&mut cmd, std::time::Duration::from_millis(2500));
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().rfind(|l| l.contains("/2 files"));
    assert!(last.is_some_and(|l| l.contains(" 1/2 files")), "{stderr}");
    // While it ran, the bar named the file running past a second (it showed nodes only).
    assert!(stderr.contains("running z.yaml "), "{stderr}");
}

/// A file of several cases moves the bar case by case: it counts puzzles beside files, and
/// its ETA follows them (a long file of many cases was one step, its ETA "0s").
#[test]
fn the_progress_bar_counts_the_cases_of_a_file_of_several() {
    let stderr = drawn([
        ("a.yaml", "rules: peg_hop\nboard: |\n  o o .\n"),
        ("m.matrix", "1 1 0\n\n0 1 1\n\n1 1 0 1\n"),
    ]);
    let frames: Vec<&str> = stderr.lines().filter(|l| l.contains(" files, ")).collect();
    assert!(
        frames.iter().any(|l| l.contains(" 0/2 files, 0/4 puzzles ")),
        "{stderr}"
    );
    // The last frame is the whole run's: no frame was drawn after the last file finished.
    assert!(
        frames
            .last()
            .is_some_and(|l| l.contains(" 2/2 files, 4/4 puzzles ")),
        "{stderr}"
    );
    for frame in frames {
        assert!(frame.contains("/4 puzzles"), "{frame}");
        assert_eq!(frame.contains("ETA"), !frame.contains(" 0/4 puzzles"), "{frame}");
    }
}

/// A file of several cases whose results hold an error: `--resume` keeps the cases before
/// it, and solves the error and those after it again (it solved the whole file again, so a
/// typo in a long file lost every case finished before a kill).
#[test]
fn resume_keeps_the_cases_before_a_file_s_first_error() {
    // Case 2 is 41 wide, past the tilt boards' 40.
    let cases = "4 1 0\n0 0\n3 0\n41 1 0\n0 0\n3 0\n4 1 0\n0 1\n3 1\n4 1 0\n0 2\n3 2\n0 0 0\n";
    let t = Test::new().file("set/m.icpc", cases);
    let run = |extra: &[&str]| {
        let args = [&["batch", "set", "--report", "rep", "-j", "1"][..], extra].concat();
        let out = t.command().args(args).output().unwrap();
        let results = std::fs::read_to_string(t.path("rep/results.jsonl")).unwrap();
        let records: Vec<Value> = results
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v.as_object_mut()
                    .unwrap()
                    .retain(|k, _| k != "stats" && k != "seal");
                v
            })
            .collect();
        (String::from_utf8_lossy(&out.stderr).into_owned(), records)
    };
    let (_, first) = run(&[]);
    let statuses: Vec<&str> = first.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "error", "solved", "solved"]);
    let (stderr, again) = run(&["--resume"]);
    assert!(
        stderr.contains(
            "resumed: 0 of 1 puzzle files reused from earlier results, 1 solved now; \
             1 case an earlier run finished kept, not solved again\n"
        ),
        "{stderr}"
    );
    assert_eq!(again, first);
}

/// `--resume` knows a file however its folder is spelt (`set`, `./set/`, `set//`, from the
/// root): the
/// results of one spelling are reused under another, the file named as this run names it,
/// and no file's results are carried over beside its new ones.
#[test]
fn resume_knows_a_file_however_its_folder_is_spelt() {
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    let run = |args: &[&str]| {
        let out = t.command().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&["batch", "set", "--report", "rep"]);
    let resumed = run(&["batch", "./set/", "--report", "rep", "--resume"]);
    resumed_so(&resumed, 2, 2);
    let summary = std::fs::read_to_string(t.path("rep/summary.json")).unwrap();
    assert!(summary.contains("\"file\": \"./set/a.yaml\""), "{summary}");
    let resumed = run(&["batch", "set//", "--report", "rep", "--resume", "-k", "b.yaml"]);
    resumed_so(&resumed, 1, 1);
    // `a.yaml` is carried over once, as the run before named it; `b.yaml` is this run's.
    let earlier = std::fs::read_to_string(t.path("rep/current/earlier.jsonl")).unwrap();
    assert_eq!(earlier.matches("a.yaml").count(), 1, "{earlier}");
    assert!(earlier.contains("\"file\":\"./set/a.yaml\""), "{earlier}");
    assert!(!earlier.contains("b.yaml"), "{earlier}");
    let whole = t.path("set").canonicalize().unwrap().display().to_string();
    let resumed = run(&["batch", &whole, "--report", "rep", "--resume"]);
    resumed_so(&resumed, 2, 2);
}

/// A record knows the folder its run ran in: `--resume` from another folder, naming the
/// files otherwise, reuses them and carries the rest over (it reused none and dropped the
/// others' results), and a folder's results never stand for another folder's files of the
/// same names and bytes.
#[test]
fn resume_takes_a_record_s_path_from_the_folder_its_run_ran_in() {
    let t = Test::new()
        .file("a/puzzles/p.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("a/puzzles/q.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("b/puzzles/p.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
    let run = |cwd: &str, args: &[&str]| run_in(&t, cwd, args);
    run("a", &["batch", "puzzles", "--report", "../rep"]);
    let p = t.path("a/puzzles/p.yaml").canonicalize().unwrap();
    let resumed = run(
        "a/puzzles",
        &["batch", p.to_str().unwrap(), "--report", "../../rep", "--resume"],
    );
    resumed_so(&resumed, 1, 1);
    let earlier = std::fs::read_to_string(t.path("rep/current/earlier.jsonl")).unwrap();
    assert!(earlier.contains("\"file\":\"puzzles/q.yaml\""), "{earlier}");
    let resumed = run("a", &["batch", "puzzles", "--report", "../rep", "--resume"]);
    resumed_so(&resumed, 2, 2);
    let resumed = run("b", &["batch", "puzzles", "--report", "../rep", "--resume"]);
    resumed_so(&resumed, 0, 1);
    // A project moved whole with its reports keeps its results.
    run("b", &["batch", "puzzles"]);
    std::fs::rename(t.path("b"), t.path("moved")).unwrap();
    let resumed = run("moved", &["batch", "puzzles", "--resume"]);
    resumed_so(&resumed, 1, 1);
}

/// A report folder reached through a link: a record says the folder its batch ran in from
/// where the reports really are, so two projects whose `out` links lead to one folder keep
/// their results apart (both said `../..`: each took the other's results as its own and
/// dropped them), and `--report .` says `.`.
#[test]
fn resume_keeps_apart_projects_whose_report_links_lead_to_one_folder() {
    let t = Test::new()
        .file("P/puzzles/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n")
        .file("Q/puzzles/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
    std::fs::create_dir(t.path("shared")).unwrap();
    for p in ["P", "Q"] {
        std::os::unix::fs::symlink("../shared", t.path(&format!("{p}/out"))).unwrap();
    }
    let run = |cwd: &str, args: &[&str]| run_in(&t, cwd, args);
    run("P", &["batch", "puzzles", "--report", "out/rep"]);
    let resumed = run("Q", &["batch", "puzzles", "--report", "out/rep", "--resume"]);
    resumed_so(&resumed, 0, 1);
    let earlier = std::fs::read_to_string(t.path("shared/rep/current/earlier.jsonl")).unwrap();
    assert!(earlier.contains("\"from\":\"../../P\""), "{earlier}");
    let resumed = run("P", &["batch", "puzzles", "--report", "out/rep", "--resume"]);
    resumed_so(&resumed, 1, 1);
    run("P/puzzles", &["batch", "a.yaml", "--report", "."]);
    let results = std::fs::read_to_string(t.path("P/puzzles/results.jsonl")).unwrap();
    assert!(results.contains("\"from\":\".\""), "{results}");
}

/// A `..` after a link is where the kernel takes it: `deep/../puzzles`, with `deep` a link
/// into another project, names that project's files, which never take this one's results
/// (one of identical bytes did, and this project's others were dropped).
#[test]
fn resume_takes_a_dot_dot_after_a_link_where_the_kernel_does() {
    let solvable = "rules: peg_hop\nboard: |\n  o o . o\n";
    let t = Test::new()
        .file("proj/puzzles/a.yaml", solvable)
        .file("proj/puzzles/b.yaml", "rules: peg_hop\nboard: |\n  o . . o\n")
        .file(
            "other/puzzles/a.yaml",
            "rules: peg_hop\nboard: |\n  o o . o o . o\n",
        )
        .file("other/puzzles/b.yaml", "rules: peg_hop\nboard: |\n  o . . o\n")
        .file("other/x/.keep", "");
    std::os::unix::fs::symlink("../other/x", t.path("proj/deep")).unwrap();
    let run = |args: &[&str]| {
        let out = t
            .command()
            .current_dir(t.path("proj"))
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&["batch", "puzzles", "-q"]);
    resumed_so(&run(&["batch", "deep/../puzzles", "--resume"]), 0, 2);
    let earlier = std::fs::read_to_string(t.path("proj/reports/current/earlier.jsonl")).unwrap();
    assert_eq!(earlier.lines().count(), 2, "{earlier}");
    resumed_so(&run(&["batch", "puzzles", "--resume"]), 2, 2);
}

/// A puzzle file whose name is not UTF-8 is an error row, unread: two such names read alike
/// in every report (`b\xff.yaml` and `b\xfe.yaml` both `b�.yaml`), and the results of one
/// stood for the other or were dropped.
#[test]
fn a_file_name_that_is_not_utf8_is_an_error_row() {
    use std::os::unix::ffi::OsStrExt;
    let t = Test::new().file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
    for b in [0xff, 0xfe] {
        let bytes = [b'b', b, b'.', b'y', b'a', b'm', b'l'];
        std::fs::write(
            t.path("set").join(std::ffi::OsStr::from_bytes(&bytes)),
            "rules: peg_hop\nboard: |\n  o o . o\n",
        )
        .unwrap();
    }
    let args = ["batch", "set", "--report", "rep", "--format", "csv"];
    let out = t.command().args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert_eq!(
        stdout.matches("a name that is not UTF-8, not read").count(),
        2,
        "{stdout}"
    );
    // Named as the file it is, not as a folder that could not be walked.
    assert!(!stdout.contains("cannot walk the folder"), "{stdout}");
    assert!(stdout.contains("set/a.yaml,a,peg_hop,solved"), "{stdout}");
}

/// Records naming a folder or a file that is not there are not read back: a planted journal
/// of such records was carried into `earlier.jsonl` by every run after (a folder's), or held
/// in memory, some 220 bytes each (ten million: 2.2 GB).
#[test]
fn records_of_what_is_no_puzzle_file_are_neither_kept_nor_carried_over() {
    let record = |file: &str| {
        format!(
            "{{\"index\":0,\"case\":1,\"cases\":1,\"from\":\"..\",\"file\":\"{file}\",\"status\":\"error\"}}\n"
        )
    };
    let t = Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
    run_in(&t, ".", &["batch", "set", "--report", "rep"]);
    std::fs::write(
        t.path("rep/.journal.jsonl"),
        [record("set"), record("gone.yaml"), record("set/b.yaml")].concat(),
    )
    .unwrap();
    run_in(&t, ".", &["batch", "set", "--report", "rep", "-k", "a.yaml"]);
    let earlier = std::fs::read_to_string(t.path("rep/current/earlier.jsonl")).unwrap();
    assert!(!earlier.contains("\"file\":\"set\""), "{earlier}");
    assert!(!earlier.contains("gone.yaml"), "{earlier}");
    // The file that is there keeps its latest record, the planted one (not reused: unsealed).
    assert!(
        earlier.contains("\"file\":\"set/b.yaml\",\"status\":\"error\""),
        "{earlier}"
    );
}

/// `--resume` into a report folder that is not there says so before it solves, with the
/// name it may have meant (a typo solved everything again, said only by the count at the end).
#[test]
fn resume_into_a_folder_not_there_says_so_first() {
    let t = Test::new().file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    run_in(&t, ".", &["batch", "set", "--report", "reports"]);
    let stderr = run_in(&t, ".", &["batch", "set", "--report", "reprots", "--resume"]);
    assert!(
        stderr.starts_with(
            "marbles: warning: --resume: reprots is not there, so no earlier result is reused and \
             every puzzle is solved; did you mean `reports`? it is made now\n"
        ),
        "{stderr}"
    );
    let stderr = run_in(&t, ".", &["batch", "set", "--report", "reports", "--resume"]);
    assert!(!stderr.contains("is not there"), "{stderr}");
}

/// `args` run in `t`'s folder `cwd`, which must exit 0: its stderr.
fn run_in(t: &Test, cwd: &str, args: &[&str]) -> String {
    let out = t.command().current_dir(t.path(cwd)).args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that a resumed batch's `stderr` says it reused `reused` of its `files` files.
#[track_caller]
fn resumed_so(stderr: &str, reused: usize, files: usize) {
    let said = format!(
        "resumed: {reused} of {files} puzzle files reused from earlier results, {} solved now\n",
        files - reused
    );
    assert!(stderr.contains(&said), "{stderr}");
}
