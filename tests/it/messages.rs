//! Messages in the user's terms: limits named against the puzzle, YAML and scripts read the
//! same way, names escaped for each medium, report files made like any other output.

use crate::support::{Test, root};

/// A square hop board of `n`×`n` holes, the first empty.
fn square_board(n: usize) -> String {
    let row = vec!["o"; n].join(" ");
    let mut rows: Vec<String> = (0..n).map(|_| format!("  {row}")).collect();
    rows[0] = rows[0].replacen('o', ".", 1);
    format!("rules: peg_hop\nboard: |\n{}\n", rows.join("\n"))
}

#[test]
fn boards_over_the_hole_limit_name_the_puzzle_not_the_script() {
    // 40×40 = 1,600 holes: peg_hop's move table outgrew the sandbox before the model saw it.
    // A drawn board may hold more squares for a slide family, so the script runs first (6 s
    // of it in a debug build: its time limit is raised here, the message is the subject).
    Test::new()
        .file("huge.yaml", &square_board(40))
        .args(["solve", "huge.yaml", "--script-timeout", "120"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: huge.yaml:2: the board has 1600 holes; a drawn board (hop families, pieces of kinds) may have at most 128\n",
        )
        .no_panic();
    // Under its own limits the script stops first (at 4,096 holes, its 2 s): the puzzle and
    // its size are named, with the script's reason.
    Test::new()
        .file("huge.yaml", &square_board(20))
        .args(["check", "huge.yaml", "--script-ops", "10000"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: huge.yaml:2: the board has 400 holes, and rule family `peg_hop` stopped \
             on it: operation limit reached (10000 operations) (<builtin>/peg_hop.rhai:10); hop \
             families and pieces of kinds take 128 holes at most, slide families 4096\n",
        );
}

/// A script returning `n` copies of the one hop on `o o .`.
fn padded_script(n: usize) -> String {
    format!(
        "fn rules(board) {{\n    let moves = [];\n    \
         moves.pad({n}, #{{ dir: \"right\", from: [0, 0], over: [0, 1], to: [0, 2] }});\n    \
         #{{ kind: \"hop\", directions: [\"right\"], moves: moves }}\n}}\n"
    )
}

/// A jump naming one cell twice is shown with the cell, as a jump listed twice is.
#[test]
fn a_jump_naming_a_cell_twice_says_which() {
    Test::new()
        .file(
            "dup.rhai",
            "fn rules(board) {\n  #{ kind: \"hop\", directions: [\"right\"],\n    jumps: [#{ dir: \"right\", from: [0, 0], over: [[0, 1], [0, 1]], to: [0, 2] }] }\n}\n",
        )
        .file("p.yaml", "rules: dup.rhai\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles: error: dup.rhai:3: jumps[0] ([0, 0] over [0, 1], [0, 1] to [0, 2]) names [0, 1] twice\n");
}

/// `rules: peg_hop.rhai` is read as a file beside the puzzle; none there, the family of that
/// name is offered.
#[test]
fn a_family_named_as_a_file_not_there_is_offered_by_its_name() {
    Test::new()
        .file("p.yaml", "rules: peg_hop.rhai\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:1: rule script peg_hop.rhai: cannot read: no such file; did you mean \
             the family `peg_hop` (<builtin>/peg_hop.rhai)? write `rules: peg_hop`\n",
        );
}

#[test]
fn rule_tables_hold_more_than_rhai_maps_did_and_have_their_own_limit() {
    // 5,000 moves of 4 keys each were 20,000 map entries: twice Rhai's old 10,000. They are
    // read whole, and then refused as what they are: one jump listed 5,000 times.
    Test::new()
        .file("many.rhai", &padded_script(5_000))
        .file("p.yaml", "rules: many.rhai\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: many.rhai:4: moves[0] and moves[1] are the same jump ([0, 0] over [0, 1] to [0, 2])",
        );

    Test::new()
        .file("many.rhai", &padded_script(20_001))
        .file("p.yaml", "rules: many.rhai\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: many.rhai:4: `moves` has 20001 entries; a rule table may hold at most 20000\n",
        );
}

#[test]
fn a_byte_order_mark_is_not_a_second_document() {
    Test::new()
        .file("bom.yaml", "\u{feff}rules: peg_hop\nboard: |\n  o o .\n")
        .args(["solve", "bom.yaml", "--format", "moves"])
        .run()
        .status(0)
        .stdout_has("1 moves");
    // A rule script saved with one (Windows editors do) compiles, and `rules` reads its first
    // comment.
    let script = "\u{feff}// bommy: pegs that hop right\nfn rules(board) {\n    \
                  #{ kind: \"hop\", directions: [\"r\"], jumps: [#{ from: [0, 0], over: [0, 1], to: [0, 2] }] }\n}\n";
    let t = Test::new()
        .file("rules/bommy.rhai", script)
        .file("p.yaml", "rules: bommy\nboard: |\n  o o .\n")
        .file("marbles.toml", "");
    let dir = t.path("");
    Test::new()
        .in_dir(&dir)
        .args(["solve", "p.yaml", "--format", "moves"])
        .run()
        .status(0)
        .stdout_has("1 moves");
    Test::new()
        .in_dir(&dir)
        .args(["rules"])
        .run()
        .status(0)
        .stdout_has("pegs that hop right");
}

#[test]
fn yaml_type_errors_speak_of_pegs_and_sizes_not_serde() {
    let cases = [
        (
            "goal:\n  pegs: [1]\n",
            "p.yaml:5:9: invalid puzzle YAML: goal.pegs: invalid type: sequence, \
             expected a number of pegs or `fewest`",
        ),
        (
            "goal:\n  pegs: 1\n  moves: -1\n",
            "p.yaml:6:10: invalid puzzle YAML: goal.moves: invalid value: integer `-1`, \
             expected a number of moves or `fewest`",
        ),
        // A key without a value is refused, not read as no goal on pegs or moves (an empty
        // `moves:` was read as no cap).
        (
            "goal:\n  pegs: 1\n  moves:\n",
            "p.yaml:6: goal moves has no value: write a number or `fewest` (or leave the key out)",
        ),
        (
            "goal:\n  pegs: ~\n",
            "p.yaml:5: goal pegs has no value: write a number or `fewest` (or leave the key out)",
        ),
        // A number in quotes is named as such, and one past 64 bits as too large.
        (
            "goal:\n  pegs: \"1\"\n",
            "p.yaml:5: goal pegs `1` is text in quotes, not a number: write it without them (`pegs: 1`)",
        ),
        (
            "goal:\n  pegs: 99999999999999999999999\n",
            "p.yaml:5:9: invalid puzzle YAML: goal.pegs: 99999999999999999999999 pegs is more than any board holds",
        ),
        (
            "solve:\n  max_memory: -3\n",
            "p.yaml:5:15: invalid puzzle YAML: solve.max_memory: invalid value: integer `-3`, \
             expected a size: a number of bytes or e.g. 512MB",
        ),
        // A bad value under a key after `board:` is that key's fault, not the board's rows'.
        (
            "ratings:\n k1:\n  x: 1\n",
            "p.yaml:5:2: invalid puzzle YAML: ratings: invalid type: string \"k1\", expected a whole number",
        ),
        // A control character is placed where it stands, not at the document's start.
        (
            "name: \"a\u{1}b\"\n",
            "p.yaml:4:9: invalid puzzle YAML: control characters are not allowed",
        ),
        // A misspelt key is suggested its nearest known one.
        (
            "goal:\n  pgs: 1\n",
            "p.yaml:5:3: invalid puzzle YAML: goal: unknown field `pgs`: did you mean `pegs`? expected \
             one of `pegs`, `at`, `moves`, `board`, `reach`, `left`, `piece`",
        ),
    ];
    for (tail, message) in cases {
        let run = Test::new()
            .file("p.yaml", &format!("rules: peg_hop\nboard: |\n  o o .\n{tail}"))
            .args(["solve", "p.yaml"])
            .run()
            .status(2);
        assert_eq!(run.stderr, format!("marbles: error: {message}\n"));
    }
}

#[test]
fn a_folder_named_like_a_script_is_called_a_folder() {
    let t = Test::new().file("p.yaml", "rules: x\nboard: |\n  o o .\n");
    std::fs::create_dir_all(t.path("rules/x.rhai")).unwrap();
    let run = t.args(["solve", "p.yaml"]).run().status(2);
    assert_eq!(
        run.stderr,
        "marbles: error: p.yaml:1: rule family `x`: rules/x.rhai is a directory, not a rule script\n"
    );
}

#[test]
fn a_fifo_named_like_a_script_is_called_a_fifo_and_never_opened() {
    // It was passed over as absent: "unknown rule family `x`", with `x` right there.
    for args in [["solve", "p.yaml"], ["check", "p.yaml"]] {
        let t = Test::new().file("p.yaml", "rules: x\nboard: |\n  o o .\n");
        std::fs::create_dir_all(t.path("rules")).unwrap();
        let fifo = std::ffi::CString::new(t.path("rules/x.rhai").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        // Opening the FIFO would wait for a writer: the deadline turns that into a failure.
        let run = t
            .args(args)
            .run_bounded(std::time::Duration::from_secs(20), None)
            .held(512)
            .status(2);
        assert_eq!(
            run.stderr,
            "marbles: error: p.yaml:1: rule family `x`: rules/x.rhai is a FIFO (named pipe), not a rule script (not opened)\n",
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_success() {
    // As ripgrep does: the reader (`| head -1`) chose to stop reading; that is no failure to
    // report, and no panic. The pipe's read end is closed before marbles starts, so its very
    // first write fails.
    let root = crate::support::root();
    let corner = root.join("puzzles/triangle_hop/corner.yaml");
    let lisp = root.join("puzzles/classic/peg_puzzle.lisp");
    let corner = corner.to_str().unwrap();
    let lisp = lisp.to_str().unwrap();
    let folder = root.join("puzzles/triangle_hop");
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", corner],
        vec!["solve", lisp, "--format", "lisp"],
        vec!["solve", corner, "--format", "json"],
        vec!["count", corner],
        vec!["count", "--all", corner],
        vec!["count", corner, "--format", "json"],
        vec!["count", "--all", corner, "--format", "json"],
        vec![
            "batch",
            folder.to_str().unwrap(),
            "--no-report",
            "--format",
            "json",
        ],
        vec!["check", corner],
        vec!["rules"],
        vec!["batch", folder.to_str().unwrap(), "--no-report"],
        vec!["completions", "bash"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Test::new()
            .args(&args)
            .command()
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), stderr.as_ref()), (Some(0), ""), "{args:?}");
    }
}

#[test]
fn an_oversized_script_or_project_file_is_called_what_it_is_with_its_own_cap() {
    let big = format!("// {}\nfn rules(board) {{ #{{}} }}\n", "x".repeat(1 << 20));
    let capped = "rules/x.rhai: is 1048604 bytes; rule scripts are limited to 65536 bytes \
                  (a family's tables are built by its code, not written out in it)\n";
    for command in [["solve", "p.yaml"], ["check", "rules/x.rhai"]] {
        Test::new()
            .file("p.yaml", "rules: x\nboard: |\n  o o .\n")
            .file("rules/x.rhai", &big)
            .args(command)
            .run()
            .status(2)
            .stderr_has(capped);
    }
    Test::new()
        .file("marbles.toml", &"#".repeat(1 << 20 | 1))
        .args(["check", "marbles.toml"])
        .run()
        .status(2)
        .stderr_has("marbles.toml: is 1048577 bytes; project files are limited to 1048576 bytes\n");
}

#[test]
fn upper_case_extensions_are_puzzles_in_a_batch() {
    let yaml = "rules: peg_hop\nboard: |\n  o o .\n";
    let run = Test::new()
        .file("in/a.YAML", yaml)
        .file("in/b.Yml", yaml)
        .file("in/c.yaml", yaml)
        .args(["batch", "in", "--no-report", "--format", "json"])
        .run()
        .status(0);
    let files: Vec<String> = run.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(files, ["in/a.YAML", "in/b.Yml", "in/c.yaml"]);
}

#[test]
fn unknown_keys_in_a_script_map_are_refused_like_yaml_keys() {
    let script = |body: &str| format!("fn rules(board) {{\n    #{{\n{body}    }}\n}}\n");
    let cases = [
        (
            "        kind: \"hop\", directions: [\"r\"], moves: [],\n        gaol: #{ pegs: 1 },\n",
            "g.rhai:4: the returned map has an unknown key `gaol`: did you mean `goal`? \
             known keys are kind, layout, directions, moves, jumps, links, pieces, goal",
        ),
        (
            "        kind: \"hop\", directions: [\"r\"], moves: [],\n        layuot: \"square\",\n",
            "g.rhai:4: the returned map has an unknown key `layuot`: did you mean `layout`? \
             known keys are kind, layout, directions, moves, jumps, links, pieces, goal",
        ),
        (
            "        kind: \"hop\", directions: [\"r\"],\n        \
             moves: [#{ from: [0, 0], ovr: [0, 1], to: [0, 2] }],\n",
            "g.rhai:4: moves[0] has an unknown key `ovr`: did you mean `over`? \
             known keys are dir, from, over, to",
        ),
    ];
    for (body, message) in cases {
        let run = Test::new()
            .file("g.rhai", &script(body))
            .file("p.yaml", "rules: g.rhai\nboard: |\n  o o .\n")
            .args(["solve", "p.yaml"])
            .run()
            .status(2);
        assert_eq!(run.stderr, format!("marbles: error: {message}\n"));
    }
}

/// A batch folder of three solvable puzzles with hostile names.
fn nasty_names() -> Test {
    let puzzle = |name: &str| {
        format!(
            "name: {}\nrules: peg_hop\nboard: |\n  o o .\n",
            serde_json::to_string(name).unwrap()
        )
    };
    Test::new()
        .file("in/1.yaml", &puzzle("red\u{1b}[31mALERT\u{1b}]0;pwned\u{7}"))
        .file("in/2.yaml", &puzzle("<img src=x onerror=alert(1)>|x|`code`"))
        .file("in/3.yaml", &puzzle("=HYPERLINK(\"http://evil\",\"click\")"))
}

/// A puzzle's name is shown in every report row: one past 1,000 characters is refused at its
/// line.
#[test]
fn a_name_longer_than_reports_show_is_refused_at_its_line() {
    let name = "N".repeat(1001);
    Test::new()
        .file("p.yaml", &format!("rules: peg_hop\nname: {name}\nboard: |\n  o o .\n"))
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:2:1: `name:` is 1001 characters long; a puzzle's name, shown in every report row, may have at most 1000\n",
        );
}

#[test]
fn names_are_escaped_for_the_terminal() {
    let run = nasty_names().args(["batch", "in", "--no-report"]).run().status(0);
    assert!(!run.stdout.contains('\u{1b}'), "raw escape:\n{}", run.stdout);
    assert!(!run.stdout.contains('\u{7}'), "raw bell:\n{}", run.stdout);
    assert!(run.stdout.contains("red\\u{1b}[31mALERT"), "{}", run.stdout);
    // A line break in a name keeps its row whole.
    let run = nasty_names()
        .file(
            "in/4.yaml",
            "name: \"two\\nlines\"\nrules: peg_hop\nboard: |\n  o o .\n",
        )
        .args(["batch", "in", "--no-report"])
        .run()
        .status(0);
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with(" two\\u{a}lines ") && l.ends_with("ms ")),
        "{}",
        run.stdout
    );
    let run = nasty_names().args(["solve", "in/1.yaml"]).run().status(0);
    assert!(
        run.stdout
            .starts_with("red\\u{1b}[31mALERT\\u{1b}]0;pwned\\u{7} (in/1.yaml, <builtin>/peg_hop.rhai)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_blank_name_is_the_files_stem() {
    let run = Test::new()
        .file(
            "in/blank.yaml",
            "name: \"  \"\nrules: peg_hop\nboard: |\n  o o .\n",
        )
        .args(["batch", "in", "--no-report"])
        .run()
        .status(0);
    assert!(
        run.stdout.lines().any(|l| l.starts_with(" blank ")),
        "{}",
        run.stdout
    );
}

#[test]
fn names_are_escaped_for_markdown_and_csv() {
    let run = nasty_names()
        .file(
            "in/4.yaml",
            "name: \"line\\nbreak\\u2028and\\u2029\"\nrules: peg_hop\nboard: |\n  o o .\n",
        )
        .args(["batch", "in", "--report", "r"])
        .run()
        .status(0);
    let md = std::fs::read_to_string(run.dir().join("r/summary.md")).unwrap();
    assert!(
        md.contains("| \\<img src=x onerror=alert\\(1\\)\\>\\|x\\|\\`code\\` | peg\\_hop | solved |"),
        "{md}"
    );
    assert!(md.contains("\n## \\<img src=x"), "{md}");
    assert!(!md.replace("\\<", "").contains('<'), "an unescaped `<`: {md}");
    assert!(!md.contains('\u{1b}'), "{md}");
    let csv = std::fs::read_to_string(run.dir().join("r/summary.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let names: Vec<String> = rows.records().map(|r| r.unwrap()[1].to_string()).collect();
    assert_eq!(names[2], "'=HYPERLINK(\"http://evil\",\"click\")");
    // Control characters are shown as on the terminal, in the CSV and the HTML alike; in
    // the CSV line breaks too, a row a line.
    assert_eq!(names[0], "red\\u{1b}[31mALERT\\u{1b}]0;pwned\\u{7}");
    assert_eq!(names[3], "line\\u{a}break\\u{2028}and\\u{2029}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let html = std::fs::read_to_string(run.dir().join("r/index.html")).unwrap();
    assert!(
        !html.contains('\u{1b}') && !html.contains('\u{7}'),
        "raw control characters in the HTML"
    );
    assert!(html.contains("red\\u{1b}[31mALERT"), "{html}");
    assert!(
        names[1].starts_with("<img"),
        "only formulas are prefixed: {names:?}"
    );
}

#[cfg(unix)]
#[test]
fn report_files_follow_the_umask_like_any_output() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    for (umask, mode) in [(0o022, 0o644), (0o002, 0o664)] {
        let t = Test::new()
            .file("in/p.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
            .args(["batch", "in", "--report", "r"]);
        let mut cmd = t.command();
        // SAFETY: umask is async-signal-safe and touches nothing but the child's mask.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(umask);
                Ok(())
            });
        }
        assert!(cmd.output().unwrap().status.success());
        for f in ["summary.json", "summary.csv", "summary.md", "index.html"] {
            let got = std::fs::metadata(t.path("r").join(f))
                .unwrap()
                .permissions()
                .mode()
                & 0o777;
            assert_eq!(got, mode, "{f} under umask {umask:o}");
        }
    }
}

#[test]
fn a_wide_board_draws_a_bounded_answer_and_says_what_it_left_out() {
    // 40 independent jumps on one row, then 960 KB of `#` before a last hole (`#` beyond every
    // hole is not drawn): every board drawn in full was 41 MB of output.
    let row = [vec!["o o ."; 40], vec!["#"; 480_000], vec!["."]]
        .concat()
        .join(" ");
    let run = Test::new()
        .file(
            "wide.yaml",
            &format!("rules: peg_hop\ngoal:\n  pegs: 40\nboard: |\n  {row}\n"),
        )
        .args(["solve", "wide.yaml"])
        .run()
        .status(0);
    assert!(run.stdout.len() < 2_100_000, "{} bytes", run.stdout.len());
    assert!(
        run.stdout
            .contains("solved in 40 moves (40 jumps), 40 pegs left\n")
    );
    assert!(
        run.stdout
            .contains("\njump 40: [0, 117] over [0, 116] to [0, 115] (left)\n")
    );
    assert!(run.stdout.trim_end().ends_with(
        "\n… 39 more boards not drawn (an answer draws at most 256 KiB of boards): every jump is \
         listed above; use --format json for the jumps alone"
    ));
}

/// The count N in the note `… N{tail}`.
fn left_out(text: &str, tail: &str) -> usize {
    let at = text.find(tail).unwrap_or_else(|| panic!("no {tail:?}"));
    let n = text[..at].rsplit(' ').next().unwrap();
    n.replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("{e}: {n:?}"))
}

#[test]
fn reports_of_many_big_puzzles_are_capped_with_a_note() {
    // 120 puzzles whose two holes lie 40,000 `#` apart: each board drawn in text is ~80 KB, a
    // section of summary.md ~240 KB, so it would be ~29 MB. (index.html draws boards from
    // their holes alone; its own cap is `report::html`'s test.)
    const N: usize = 120;
    let row = format!("o o . {}o o .", "# ".repeat(40_000));
    let mut t = Test::new();
    for i in 0..N {
        t = t.file(
            &format!("in/{i:04}.yaml"),
            &format!("name: p{i:04}\nrules: peg_hop\nboard: |\n  {row}\ngoal:\n  pegs: 2\n"),
        );
    }
    let run = t.args(["batch", "in", "--report", "r", "-q"]).run().status(0);
    let read = |f: &str| std::fs::read_to_string(run.dir().join("r").join(f)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&read("summary.json")).unwrap();
    assert_eq!(json["results"].as_array().unwrap().len(), N);
    let md = read("summary.md");
    assert!(md.len() < 17 << 20, "summary.md is {} bytes", md.len());
    let sections = md.matches("\n## p").count();
    assert_eq!(sections + left_out(&md, " more puzzles not drawn (summary.md"), N);
    assert!(md.contains(" more puzzles not drawn (summary.md draws at most 16 MiB)"));
}

#[test]
fn rule_script_mistakes_are_explained() {
    let family = |body: &str| {
        Test::new()
            .file("rules/t.rhai", body)
            .file("p.yaml", "rules: t\nboard: |\n  o o . o\n")
            .args(["check", "p.yaml"])
            .run()
    };
    let hop = |moves: &str| format!("#{{ kind: \"hop\", directions: [\"r\"], moves: [{moves}] }}");
    let jump = "#{dir: \"r\", from: [0, 0], over: [0, 1], to: [0, 2]}";
    // A variable declared outside `fn rules`, which a Rhai function cannot see.
    family(&format!(
        "let D = 1;\nfn rules(board) {{\n  {}\n}}\n",
        hop("#{dir: \"r\", from: [0, 0], over: [0, D], to: [0, 2]}")
    ))
    .status(2)
    .stderr_has(
        "rules/t.rhai:3:82: rule script failed: Variable not found: D (it is declared on line 1 outside \
         `fn rules`, and a Rhai function sees only its parameters and what it declares itself: move it \
         into the function, or pass it as a parameter)\n",
    );
    // A jump over nothing.
    family(&format!(
        "fn rules(board) {{\n  {}\n}}\n",
        hop("#{dir: \"r\", from: [0, 0], over: [], to: [0, 2]}")
    ))
    .status(2)
    .stderr_has(
        "rules/t.rhai:2: moves[0].over is empty: it must be a cell [row, col] or an array of cells; \
         a jump takes at least one peg\n",
    );
    // A jump listed twice, which every count and search would make twice.
    family(&format!(
        "fn rules(board) {{\n  {}\n}}\n",
        hop(&format!("{jump}, {jump}"))
    ))
    .status(2)
    .stderr_has(
        "rules/t.rhai:2: moves[0] and moves[1] are the same jump ([0, 0] over [0, 1] to [0, 2]): listed \
             twice, it would be counted twice\n",
    );
    // `print(board)` shows the board, not its type's name.
    family(&format!(
        "fn rules(board) {{\n  print(board);\n  {}\n}}\n",
        hop(jump)
    ))
    .status(0)
    .stderr_has("rules/t.rhai: Board(grid board, 1 row × 4 columns, 4 cells: [0, 0] [0, 1] [0, 2] [0, 3])\n");
    // A line break inside one `print` starts a line after the script's path too, never one
    // that passes for marbles' own.
    family(&format!(
        "fn rules(board) {{\n  print(\"hi\\nmarbles: error: fake\");\n  {}\n}}\n",
        hop(jump)
    ))
    .status(0)
    .stderr_has("rules/t.rhai: hi\nrules/t.rhai: marbles: error: fake\n");
}

#[test]
fn a_script_error_in_solve_names_the_puzzle_that_ran_it() {
    // Two puzzles, one family each: the error must say which puzzle's script failed, by the
    // name the puzzle gives (not its file's stem), and the other puzzle is still solved.
    Test::new()
        .file("rules/bad.rhai", "fn rules(board) { let x = 1; x.foo(); }\n")
        .file("ok.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("broken.yaml", "name: Broken\nrules: bad\nboard: |\n  o o .\n")
        .args(["solve", "broken.yaml", "ok.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles: error: broken.yaml: Broken: rules/bad.rhai:1:32: rule script failed: Function not found: foo (i64)")
        .stdout_has("solved in 1 move");
    // A batch's error row gives its name, its family and its script (they were the stem and
    // blank).
    let run = Test::new()
        .file("marbles.toml", "")
        .file("rules/bad.rhai", "fn rules(board) { let x = 1; x.foo(); }\n")
        .file("set/broken.yaml", "name: Broken\nrules: bad\nboard: |\n  o o .\n")
        .file("set/lost.yaml", "name: Lost\nrules: nowhere\nboard: |\n  o o .\n")
        .args(["batch", "set", "--no-report", "--format", "csv"])
        .run()
        .status(2);
    assert!(
        run.stdout.contains("\nset/broken.yaml,Broken,bad,error,")
            && run.stdout.contains(",rules/bad.rhai,")
            && run.stdout.contains("\nset/lost.yaml,Lost,,error,"),
        "{}",
        run.stdout
    );
    // `check` names it too.
    Test::new()
        .file("p/rules/bad.rhai", "fn rules(board) { let x = 1; x.foo(); }\n")
        .file("p/ok.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("p/broken.yaml", "rules: bad\nboard: |\n  o o .\n")
        .args(["check", "p/broken.yaml", "p/ok.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p/rules/bad.rhai:1:32: rule script failed: Function not found: foo (i64) (on \
             p/broken.yaml)\n",
        );
}

#[test]
fn check_names_each_case_of_a_file_of_several() {
    Test::new()
        .in_root()
        .args(["check", "puzzles/classic/wf2007_sample.icpc"])
        .run()
        .status(0)
        .stdout_has(
            "ok    puzzles/classic/wf2007_sample.icpc (wf2007_sample case 1)  (tilt_roll: 4×4 board, 3 marbles)\n\
             ok    puzzles/classic/wf2007_sample.icpc (wf2007_sample case 2)  (tilt_roll: 3×3 board, 2 marbles)\n",
        );
}

#[test]
fn a_missing_rule_script_is_named_by_its_path() {
    Test::new()
        .file("a.yaml", "rules: gone.rhai\nboard: |\n  o o .\n")
        .args(["solve", "a.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles: error: a.yaml:1: rule script gone.rhai: cannot read: no such file\n");
}

#[test]
fn a_move_off_the_board_is_placed_at_the_line_that_writes_it() {
    let script = "fn rules(board) {\n    let moves = [];\n    moves.push(#{ dir: \"right\", from: [0, 0], over: [0, 1],\n        to: [0, 9] });\n    #{ kind: \"hop\", directions: [\"right\"], moves: moves }\n}\n";
    Test::new()
        .file("off.rhai", script)
        .file("c.yaml", "rules: off.rhai\nboard: |\n  o o .\n")
        .args(["solve", "c.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "off.rhai:4: moves[0] (to [0, 9]) names a cell that is not a hole of the board in c.yaml",
        );
}

#[test]
fn a_rule_script_above_the_boundary_is_named_not_passed_over() {
    Test::new()
        .file("proj/marbles.toml", "")
        .file("rules/fam.rhai", "fn rules(board) { peg_hop(board) }\n")
        .file("proj/sub/d.yaml", "rules: fam\nboard: |\n  o o .\n")
        .args(["solve", "proj/sub/d.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "proj/sub/d.yaml:1: rule family `fam`: rules/fam.rhai is not searched (the search stops at \
             proj, a project's boundary): move it into proj/rules, or name it by its path\n",
        );
}

#[test]
fn a_move_order_is_refused_by_families_it_would_change_nothing_in() {
    // Tilts and slides are searched for the fewest moves and a rewrite family in its
    // script's order: `--order` and `--shuffle` would be silently ignored there.
    for (puzzle, family, how) in [
        (
            "puzzles/tilt_roll/four_by_four.yaml",
            "tilt_roll",
            "finds the fewest moves, whatever order they are tried in",
        ),
        (
            "puzzles/ricochet/red_circle.yaml",
            "ricochet",
            "finds the fewest moves, whatever order they are tried in",
        ),
        (
            "puzzles/frogs_toads/frogs_toads_3.yaml",
            "frogs_toads",
            "tries its moves in the order its script lists them",
        ),
    ] {
        for flags in [&["--shuffle"][..], &["--order", "reverse"]] {
            Test::new()
                .in_root()
                .args(["solve", puzzle].iter().chain(flags))
                .run()
                .status(2)
                .stderr_has(&format!(
                    "marbles: error: {puzzle}: --order and --shuffle are for hop families; `{family}` {how}: leave them out\n"
                ));
        }
    }
}

/// A batch over a mixed collection takes `--order` for its hop families, `--fewest` for its
/// boards of pegs with no goal board and `--fewest-moves` for goals of a peg count, solves
/// the rest as they are, and says so once (each tilt, slide or pieces puzzle was an error
/// under `--order`, `--fewest` was dropped unsaid, and a goal board under `--fewest` or a
/// `reach:` goal under `--fewest-moves` was an error row: the shipped collection exited 2).
#[test]
fn a_batch_takes_flags_of_kinds_where_they_apply_and_solves_the_rest_as_they_are() {
    let shipped = |p: &str| std::fs::read_to_string(root().join(p)).unwrap();
    let batch = |flag: &str, note: &str| {
        let run = Test::new()
            .file("set/tilt.yaml", &shipped("puzzles/tilt_roll/four_by_four.yaml"))
            .file("set/corner.yaml", &shipped("puzzles/triangle_hop/corner.yaml"))
            .file("set/latin.yaml", &shipped("puzzles/peg_hop/latin_cross.yaml"))
            .file(
                "set/soldiers.yaml",
                &shipped("puzzles/soldiers/soldiers_row1.yaml"),
            )
            .args(
                ["batch", "set", "--no-report", "--format", "csv"]
                    .into_iter()
                    .chain(flag.split(' ')),
            )
            .run()
            .status(0)
            .stderr_has(note);
        assert!(!run.stdout.contains(",error,"), "{}", run.stdout);
        run.stdout
    };
    let out = batch(
        "--order reverse",
        "marbles: note: --order and --shuffle order the jumps of hop families; puzzles of other \
         kinds were solved as they would be without them\n",
    );
    // The corner in 11 moves under the reversed order (12 in the script's), the tilts as ever.
    assert!(
        out.contains("\nset/corner.yaml,Triangle corner,triangle_hop,solved,11,"),
        "{out}"
    );
    assert!(
        out.contains("\nset/tilt.yaml,Tilt 4x4 wall,tilt_roll,solved,5,"),
        "{out}"
    );
    let out = batch(
        "--fewest",
        "marbles: note: --fewest leaves the fewest pegs on hop and pieces boards; tilt and slide \
         puzzles, and goals that draw the board they end on, were solved as they would be without it\n",
    );
    // The Latin cross ends on its goal board's one peg, in its 5 jumps.
    assert!(
        out.contains("\nset/latin.yaml,Latin cross,peg_hop,solved,5,1,"),
        "{out}"
    );
    let out = batch(
        "--fewest-moves",
        "marbles: note: --fewest-moves finds the fewest moves to a count of pegs; goals of a peg \
         reaching a cell (`reach:`) were solved as they would be without it\n",
    );
    // The corner in 10 moves (13 jumps); the soldier reaches row 1 in its one jump.
    assert!(
        out.contains("\nset/corner.yaml,Triangle corner,triangle_hop,solved,10,1,"),
        "{out}"
    );
    assert!(
        out.contains("\nset/soldiers.yaml,\"Soldiers, row 1\",peg_hop,solved,1,1,"),
        "{out}"
    );
    // Over hop puzzles the flags fit, no note; nor over a slide puzzle, whose `reach:` goal is
    // its own, searched for the fewest moves.
    let corner = "puzzles/triangle_hop/corner.yaml";
    for (puzzle, flag) in [
        (corner, "--order reverse"),
        (corner, "--fewest"),
        (corner, "--fewest-moves"),
        ("puzzles/slide_maze/slide_ricochet.yaml", "--fewest-moves"),
    ] {
        let run = Test::new()
            .file("set/p.yaml", &shipped(puzzle))
            .args(["batch", "set", "--no-report"].into_iter().chain(flag.split(' ')))
            .run()
            .status(0);
        assert!(!run.stderr.contains("note:"), "{puzzle} {flag}: {}", run.stderr);
    }
    // Nor over a soldier `--failed` only replayed, to find that it passed.
    let t = Test::new()
        .file(
            "set/soldier.yaml",
            &shipped("puzzles/soldiers/soldiers_row1.yaml"),
        )
        .file(
            "set/corner.yaml",
            &(shipped("puzzles/triangle_hop/corner.yaml") + "expect: 3 moves\n"),
        );
    let first = t
        .command()
        .args(["batch", "set", "--fewest-moves"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&first.stderr).contains("note: --fewest-moves"));
    let again = t
        .command()
        .args(["batch", "set", "--fewest-moves", "--failed"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!stderr.contains("note:"), "{stderr}");
    // `solve` of the tilt board alone refuses it.
    Test::new()
        .in_root()
        .args(["solve", "puzzles/tilt_roll/four_by_four.yaml", "--fewest"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: puzzles/tilt_roll/four_by_four.yaml: `--fewest` asks for the fewest pegs \
             left; `tilt_roll` moves marbles that end where its goal says, whatever is left: leave out \
             --fewest\n",
        );
}

/// A quote never closed is told at its opening, not at the end of the file, where the
/// scanner found "unexpected end of stream".
#[test]
fn a_quote_never_closed_is_told_where_it_opens() {
    Test::new()
        .file(
            "p.yaml",
            "name: \"unterminated\nrules: peg_hop\nboard: |\n  o o .\n",
        )
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:1:7: invalid puzzle YAML: the string opened by this `\"` is never \
             closed: the file ends inside it\n",
        );
    // A tab after the colon, and a comment after a closed string, change nothing.
    Test::new()
        .file("q.yaml", "name: q # \"\nrules:\t'peg_hop\nboard: |\n  o o .\n")
        .args(["check", "q.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: q.yaml:2:8: invalid puzzle YAML: the string opened by this `'` is never \
             closed: the file ends inside it\n",
        );
}

/// The parser reads a `[` the file ends inside as a whole sequence, or stops lines below it;
/// a `]` in a comment or a quoted string does not close it.
#[test]
fn a_bracket_never_closed_is_told_where_it_opens() {
    Test::new()
        .file(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  o o .\ngoal: [pegs: 1, at: \"]\"  # ]\n",
        )
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:4:7: invalid puzzle YAML: the `[` opened here is never closed: the \
             file ends inside it\n",
        );
    // Where the parser stops further down, the bracket is found above it, past a block's rows.
    Test::new()
        .file(
            "q.yaml",
            "rules: peg_hop\nboard: |\n  [ o .\ngoal: {pegs: 1\nname: q\n",
        )
        .args(["check", "q.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: q.yaml:4:7: invalid puzzle YAML: the `{` opened here is never closed: the \
             file ends inside it\n",
        );
}

#[test]
fn a_yaml_tag_is_refused_at_its_line_not_read_past() {
    Test::new()
        .file("p.yaml", "rules: peg_hop\nboard: |\n  . o o\ngoal: !custom {pegs: 1}\n")
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles: error: p.yaml:4: invalid puzzle YAML: the tag `!custom` means nothing to marbles: remove it\n");
}

/// A file that reads as one YAML string may be any file named as a puzzle (a key, a `.env`):
/// its text is not quoted back into the message, which reports publish.
#[test]
fn a_puzzle_that_reads_as_one_string_is_not_quoted_back() {
    Test::new()
        .file("p.yaml", "SECRET_TOKEN_123 and more\n")
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: p.yaml:1:1: invalid puzzle YAML: the file reads as one string, not a map of \
             keys; expected a puzzle: a map with `rules:` and `board:` (or `size:`, `marbles:`, `holes:`)\n",
        );
}
