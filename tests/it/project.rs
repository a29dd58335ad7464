//! A project's `marbles.toml` (limits, jobs, report folder, rule folders; refused when it
//! says what marbles does not know) and `marbles new`, a family and a puzzle to start from.

use crate::support::{Test, root};

fn corner() -> String {
    std::fs::read_to_string(root().join("puzzles/triangle_hop/corner.yaml")).unwrap()
}

#[test]
fn the_project_file_sets_limits_that_flags_override() {
    let t = || {
        Test::new()
            .file(
                "marbles.toml",
                "# limits for every puzzle here\n[limits]\nmax_nodes = 5\n",
            )
            .file("p.yaml", &corner())
    };
    let o = t()
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(1)
        .json()[0]
        .clone();
    assert_eq!(o["reason"], "node limit (5 nodes)");
    t().args(["solve", "p.yaml", "--max-nodes", "100000"])
        .run()
        .status(0);
}

#[test]
fn a_puzzle_may_lower_the_project_s_limits_and_never_raise_them() {
    // A puzzle is somebody else's file: its `solve:` limits apply only where they are lower.
    let give_up = |puzzle_limits: &str| {
        let v = Test::new()
            .file("marbles.toml", "[limits]\nmax_nodes = 5\nmax_memory = \"50MB\"\n")
            .file("p.yaml", &format!("{}solve:\n{puzzle_limits}", corner()))
            .args(["solve", "p.yaml", "--format", "json"])
            .run()
            .status(1)
            .json();
        (v[0]["reason"].clone(), v[0]["limits"].clone())
    };
    assert_eq!(
        give_up("  max_nodes: 100000\n  max_memory: 100000GB\n"),
        (
            "node limit (5 nodes)".into(),
            "max nodes 5, max memory 47.7 MiB".into()
        )
    );
    assert_eq!(
        give_up("  max_nodes: 3\n  max_memory: 40MB\n"),
        (
            "node limit (3 nodes)".into(),
            "max nodes 3, max memory 38.1 MiB".into()
        )
    );
}

#[test]
fn an_unknown_key_is_refused_at_its_line_with_a_suggestion() {
    // By every command that solves, lists rule families or writes: `rules` reads the
    // project's rule folders, and `new`, `import` and `merge` write.
    for args in [
        &["solve", "p.yaml"][..],
        &["rules"],
        &["new", "hopper"],
        &["import", "p.lisp", "--out", "imported"],
        &["merge", "s0", "--report", "m"],
    ] {
        let t = Test::new()
            .file("marbles.toml", "jobs = 1\n[limits]\ntimout = 3\n")
            .file("p.yaml", &corner())
            .file("p.lisp", "((o) (x x) (x x x) (x x x x) (x x x x x))\n");
        let dir = t.path("");
        t.args(args).run().status(2).stderr_has(
            "marbles: error: marbles.toml:3: unknown key `timout`: did you mean `timeout`? known keys \
             here: `timeout`, `max_nodes`, `max_memory`, `script_ops` and `script_timeout`\n",
        );
        // Nothing was written.
        for made in ["hopper.yaml", "rules", "imported", "m"] {
            assert!(!dir.join(made).exists(), "{args:?} wrote {made}");
        }
    }
}

#[test]
fn a_count_that_is_no_whole_number_is_refused_in_words_not_rust_types() {
    for (value, said) in [
        ("\"ten\"", "invalid type: string \"ten\", expected a whole number"),
        ("-3", "invalid value: integer `-3`, expected a whole number"),
        (
            "99999999999999999999",
            "integer `99999999999999999999` is too large, expected a whole number",
        ),
    ] {
        let toml = format!("jobs = 1\n[limits]\nmax_nodes = {value}\n");
        refused_with(&toml, &format!("marbles.toml:3: `max_nodes`: {said}\n"));
    }
    // Paths and lists are told as the file writes them, with the key.
    for (toml, said) in [
        (
            "report = 5\n",
            "marbles.toml:1: `report`: invalid type: integer `5`, expected a path in quotes\n",
        ),
        // The project's own folder: the reports were written among its puzzles.
        (
            "jobs = 1\nreport = \"\"\n",
            "marbles.toml:2: `report`: an empty path is the project's own folder: name a folder for the \
             reports, e.g. `report = \"reports\"`\n",
        ),
        (
            "report = \"./.\"\n",
            "marbles.toml:1: `report`: `./.` is the project's own folder: name a folder for the \
             reports, e.g. `report = \"reports\"`\n",
        ),
        (
            "jobs = 1\nrules = \"mine\"\n",
            "marbles.toml:2: `rules`: invalid type: string \"mine\", expected a list in brackets, \
             such as [\"my_rules\"]\n",
        ),
    ] {
        refused_with(toml, said);
    }
}

/// Checks that `check` refuses a puzzle under the project file `toml`, saying `said`.
fn refused_with(toml: &str, said: &str) {
    Test::new()
        .file("marbles.toml", toml)
        .file("p.yaml", &corner())
        .args(["check", "p.yaml"])
        .run()
        .status(2)
        .stderr_has(&format!("marbles: error: {said}"));
}

/// A puzzle of another project looks its scripts up through that project's `marbles.toml`:
/// solved from outside it, a typo there is told, naming the file and line, as it is inside
/// (not passed over, leaving the family its `rules` list holds "unknown").
#[test]
fn a_project_file_read_from_outside_its_project_is_checked_as_inside() {
    let said = "marbles.toml:1: unknown key `jbos`: did you mean `jobs`?";
    let t = Test::new()
        .file("proj/marbles.toml", "jbos = 3\nrules = [\"shared\"]\n")
        .file(
            "proj/shared/mine.rhai",
            &std::fs::read_to_string(root().join("rules/peg_hop.rhai")).unwrap(),
        )
        .file("proj/sub/b.yaml", "rules: mine\nboard: |\n  o o .\n")
        .args(["solve", "proj/sub/b.yaml"])
        .run()
        .status(2)
        .stderr_has(&format!("marbles: error: proj/{said}"));
    Test::new()
        .in_dir(&t.test.path("proj"))
        .args(["solve", "sub/b.yaml"])
        .run()
        .status(2)
        .stderr_has(&format!("marbles: error: {said}"));
}

#[test]
fn text_that_is_not_toml_is_refused_at_its_line_and_check_says_so() {
    let t = Test::new()
        .file("marbles.toml", "jobs = 2\nreport = [\n")
        .file("p.yaml", &corner());
    let run = Test::new()
        .in_dir(t.path("").as_path())
        .args(["batch", "p.yaml"])
        .run()
        .status(2)
        .stderr_has("marbles: error: marbles.toml:2: ");
    assert!(!t.path("reports").exists(), "{}", run.stderr);
    Test::new()
        .file("sub/marbles.toml", "[limits]\ntimeout = \"10 parsecs\"\n")
        .args(["check", "sub/marbles.toml"])
        .run()
        .status(2)
        .stderr_has("sub/marbles.toml:2: ");
    Test::new()
        .file(
            "sub/marbles.toml",
            "jobs = 1\n[limits]\ntimeout = \"10s\"\nmax_memory = \"1GB\"\n",
        )
        .args(["check", "sub/marbles.toml"])
        .run()
        .status(0)
        .stdout_has("ok    sub/marbles.toml  (project settings)\n");
}

#[test]
fn the_project_names_the_report_folder_and_more_rule_folders() {
    let t = Test::new()
        .file("marbles.toml", "report = \"out\"\nrules = [\"shared\"]\n")
        .file(
            "shared/fam.rhai",
            &std::fs::read_to_string(root().join("rules/peg_hop.rhai")).unwrap(),
        )
        .file("set/p.yaml", "rules: fam\nboard: |\n  o o .\n");
    let run = Test::new()
        .in_dir(t.path("set").as_path())
        .args(["batch", "."])
        .run()
        .status(0);
    let summary = std::fs::read_to_string(t.path("out/summary.json")).expect("report in out/");
    assert!(summary.contains("shared/fam.rhai"), "{summary}\n{}", run.stderr);
    // A flag wins over the file.
    Test::new()
        .in_dir(t.path("").as_path())
        .args(["batch", "set", "--report", "mine"])
        .run()
        .status(0);
    assert!(t.path("mine/summary.json").exists());
}

#[test]
fn new_writes_a_family_and_a_puzzle_that_solves_for_each_kind() {
    // `rules` lists each by its first sentence, which wraps in the script.
    for (kind, answer, about) in [
        (
            "hop",
            "solved in 6 moves (8 jumps), 1 peg left\n",
            "into an empty hole, and the peg jumped over is taken.\n",
        ),
        (
            "tilt",
            "solved in 2 tilts, proven the fewest\n",
            "a wall or a stopped marble; a marble drops into an empty hole it enters.\n",
        ),
        (
            "rewrite",
            "solved in 8 moves, proven the fewest, 4 pieces left\n",
            "rewrite a few cells (Frogs and Toads' kind).\n",
        ),
        // The blue robot and the wall make the red one's stops.
        (
            "slide",
            "solved in 4 moves, proven the fewest, R robot on [1, 3]\n",
            "slide until something stops them (Ricochet Robots' kind).\n",
        ),
    ] {
        let t = Test::new()
            .args(["new", "var", "--kind", kind, "--dir", "work"])
            .run()
            .status(0)
            .stdout_has("wrote work/rules/var.rhai (a ");
        let script = std::fs::read_to_string(t.test.path("work/rules/var.rhai")).unwrap();
        assert!(script.starts_with("// var: a "), "{script}");
        Test::new()
            .in_dir(t.test.path("").as_path())
            .args(["solve", "work/var.yaml"])
            .run()
            .status(0)
            .stdout_has(answer);
        Test::new()
            .in_dir(t.test.path("").as_path())
            .args(["rules", "work/var.yaml"])
            .run()
            .status(0)
            .stdout_has(about);
    }
}

#[test]
fn new_overwrites_nothing() {
    let t = Test::new().file("var.yaml", "mine\n").args(["new", "var"]).run().status(2).stderr_has(
        "marbles: error: var.yaml already exists: marbles new writes only new files (pick another name, or move it away)\n",
    );
    assert_eq!(
        std::fs::read_to_string(t.test.path("var.yaml")).unwrap(),
        "mine\n"
    );
    assert!(!t.test.path("rules/var.rhai").exists(), "nothing half written");
    Test::new()
        .args(["new", "My-Family"])
        .run()
        .status(2)
        .stderr_has("`My-Family` cannot name a family");
    // A line break typed into the name is shown, not made.
    Test::new()
        .args(["new", "a\nb"])
        .run()
        .status(2)
        .stderr_has("marbles: error: `a\\u{a}b` cannot name a family");
    // A built-in's name would shadow it for the whole folder.
    let t = Test::new().args(["new", "peg_hop"]).run().status(2).stderr_has(
        "marbles: error: `peg_hop` is a built-in family: a rules/peg_hop.rhai would take its place for every puzzle here that says `rules: peg_hop`; pick another name (`marbles rules` lists the families)\n",
    );
    assert!(!t.test.path("rules").exists(), "nothing written");
}

/// A pack whose `rules` is a link out of it: `new` in it wrote the script where the link led
/// (which `solve` then refused to read). A link within the project is written through.
#[test]
fn new_writes_no_script_through_a_rules_link_out_of_the_project() {
    let test = Test::new()
        .file("pack/marbles.toml", "")
        .file("victim/keep", "")
        .file("pack/shared/keep", "");
    std::os::unix::fs::symlink("../victim", test.path("pack/rules")).unwrap();
    let victim = std::fs::canonicalize(test.path("victim")).unwrap();
    let test = test
        .args(["new", "var", "--dir", "pack"])
        .run()
        .status(2)
        .stderr_has(&format!(
            "marbles: error: pack/rules: a link to {}, outside the puzzle's project and the rule \
             folders its marbles.toml lists; marbles new writes a script only where the puzzle \
             may read it (make `rules` a folder of this project)\n",
            victim.display()
        ))
        .test;
    assert!(!test.path("victim/var.rhai").exists() && !test.path("pack/var.yaml").exists());
    // Linked within the project, the pair is written and solves.
    std::fs::remove_file(test.path("pack/rules")).unwrap();
    std::os::unix::fs::symlink("shared", test.path("pack/rules")).unwrap();
    let test = test.args(["new", "var", "--dir", "pack"]).run().status(0).test;
    assert!(test.path("pack/shared/var.rhai").is_file());
    test.args(["solve", "pack/var.yaml"]).run().status(0);
}

#[test]
fn a_rule_folder_the_project_names_must_exist() {
    Test::new()
        .file("marbles.toml", "rules = [\"shared/rulez\"]\n")
        .file("shared/rules/fam.rhai", "")
        .args(["check", "marbles.toml"])
        .run()
        .status(2)
        .stderr_has(
            "marbles.toml:1: `rules`: no folder `shared/rulez`: name folders that hold rule scripts\n",
        );
}
