//! `marbles batch --shard` and `marbles merge`: shards that merge into a single run's
//! reports, sets refused with the shard at fault named, shares chosen from scheduler
//! variables, and the Dockerfile that builds a shard's container.

use crate::support::{LONG_SHIPPED, Run, Test, interrupted, root};
use serde_json::Value;
use std::path::Path;

/// Runs marbles in a folder holding a copy of the shipped `puzzles` with `env` set.
fn marbles(args: &[&str], env: &[(&str, &str)]) -> Run {
    let test = Test::new().with_shipped().args(args);
    let mut cmd = test.command();
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "MARBLES_SHARD_COUNT",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run marbles");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
        code: out.status.code(),
        test,
    }
}

/// summary.json in `dir`, timings zeroed.
fn untimed(dir: &Path) -> Value {
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    for o in doc["results"].as_array_mut().unwrap() {
        o["stats"]["seconds"] = Value::from(0.0);
    }
    doc
}

/// How many puzzle files a batch finds under `dir`, by the extensions it reads.
fn puzzle_files(dir: &Path) -> usize {
    let exts = ["yaml", "yml", "lisp", "lsp", "icpc", "matrix"];
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .map(|p| match p.is_dir() {
            true => puzzle_files(&p),
            false => p
                .extension()
                .is_some_and(|x| exts.contains(&x.to_string_lossy().to_lowercase().as_str()))
                as usize,
        })
        .sum()
}

/// Files of a shard's results, relative to the folder.
fn files(report: &Path, shard: &str) -> Vec<String> {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(report.join(shard)).unwrap()).unwrap();
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

/// Runs shard `k` of 3 into `out/sk`, with `extra` options.
fn shard(out: &Path, k: u32, extra: &[&str]) -> String {
    let dir = out.join(format!("s{k}"));
    let mut args = vec!["batch", "puzzles", "-q", "--report", dir.to_str().unwrap()];
    let spec = format!("{k}/3");
    args.extend(["--shard", &spec]);
    args.extend(extra);
    marbles(&args, &[]).no_panic();
    dir.join(format!("shard-{k}-of-3.json")).display().to_string()
}

#[test]
fn three_shards_merge_into_a_single_runs_reports() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let shards: Vec<String> = (0..3).map(|k| shard(o, k, &[])).collect();
    // Every shard got some of the shipped files, every file went to one shard, none twice.
    let mut all: Vec<String> = (0..3)
        .flat_map(|k| files(&o.join(format!("s{k}")), &format!("shard-{k}-of-3.json")))
        .collect();
    assert!((0..3).all(|k| !files(&o.join(format!("s{k}")), &format!("shard-{k}-of-3.json")).is_empty()));
    all.sort();
    let n = all.len();
    all.dedup();
    let shipped = puzzle_files(&root().join("puzzles")) - LONG_SHIPPED.len();
    assert_eq!((all.len(), n), (shipped, shipped), "{all:?}");

    let merged = o.join("merged");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--report", merged.to_str().unwrap(), "--format", "csv"]);
    // The shipped puzzles unsolvable on purpose say so: every answer as expected.
    marbles(&args, &[])
        .status(0)
        .stdout_has("puzzles/tilt_roll/no_solution.yaml");

    let single = o.join("single");
    marbles(
        &["batch", "puzzles", "-q", "--report", single.to_str().unwrap()],
        &[],
    )
    .status(0);
    assert_eq!(untimed(&merged), untimed(&single));
    for f in ["summary.csv", "summary.md", "index.html"] {
        assert!(merged.join(f).is_file(), "{f}");
    }
}

#[test]
fn merge_refuses_a_missing_a_duplicate_and_a_mismatched_shard() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let s: Vec<String> = (0..3).map(|k| shard(o, k, &[])).collect();
    let other = shard(&o.join("other"), 2, &["--max-nodes", "100"]);
    let report = o.join("r");
    let report = report.to_str().unwrap();

    marbles(&["merge", &s[0], &s[2], "--report", report], &[])
        .status(2)
        .stderr_has(
            "marbles: error: the shards given are not all of them: shard 1/3 missing (of 2 given, each of 3)",
        );
    marbles(&["merge", &s[0], &s[1], &s[2], &s[1], "--report", report], &[])
        .status(2)
        .stderr_has(&format!("marbles: error: {} is given twice", s[1]));
    // The same shard under two names: two files, one shard.
    let copy = o.join("copy.json");
    std::fs::copy(&s[1], &copy).unwrap();
    let copy = copy.to_str().unwrap();
    marbles(&["merge", &s[0], &s[1], &s[2], copy, "--report", report], &[])
        .status(2)
        .stderr_has(&format!("marbles: error: {copy} and {} are both shard 1/3", s[1]));
    marbles(&["merge", &s[0], &s[1], &other, "--report", report], &[])
        .status(2)
        .stderr_has(&format!(
            "marbles: error: {other} (shard 2/3) was made with --max-nodes 100, {} (shard 0/3) without --max-nodes: every shard needs the same options",
            s[0]
        ));
    assert!(!Path::new(report).exists(), "a refused merge writes nothing");
}

/// The files `--shard auto` picks under `env`, reporting to `report`.
fn auto(report: &Path, extra: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let mut args = vec!["batch", "puzzles", "-q", "--shard", "auto"];
    args.extend(extra);
    args.extend(["--report", report.to_str().unwrap()]);
    marbles(&args, env).no_panic();
    files(report, "shard-1-of-3.json")
}

#[test]
fn auto_shard_reads_slurm_and_kubernetes_variables() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let fixed = shard(o, 1, &[]);
    let want = files(&o.join("s1"), "shard-1-of-3.json");

    let slurm = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")];
    assert_eq!(auto(&o.join("slurm"), &[], &slurm), want);
    let k8s = [("JOB_COMPLETION_INDEX", "1")];
    assert_eq!(auto(&o.join("k8s"), &["--shard-count", "3"], &k8s), want);
    assert!(Path::new(&fixed).is_file());

    marbles(&["batch", "puzzles", "--shard", "auto"], &[("JOB_COMPLETION_INDEX", "1")])
        .status(2)
        .stderr_has("marbles: error: --shard auto: JOB_COMPLETION_INDEX is set; give the completions count with --shard-count or MARBLES_SHARD_COUNT");
    marbles(
        &["batch", "puzzles", "--shard", "auto"],
        &[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "3")],
    )
    .status(2)
    .stderr_has("marbles: error: --shard auto: SLURM_ARRAY_TASK_ID=3 is not below the count 3");
}

/// docker is not here: check that the Dockerfile copies only files that exist and runs the
/// binary with flags it has.
#[test]
fn dockerfile_names_real_files_and_flags() {
    let text = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let mut copied = 0;
    for line in text
        .lines()
        .filter(|l| l.starts_with("COPY ") && !l.contains("--from"))
    {
        let parts: Vec<&str> = line.split_whitespace().collect();
        for src in &parts[1..parts.len() - 1] {
            assert!(
                root().join(src).exists(),
                "Dockerfile copies {src}, which is not in the repository"
            );
            copied += 1;
        }
    }
    assert!(copied >= 4, "{text}");
    let help = marbles(&["batch", "--help"], &[]).status(0).stdout;
    let entry = text
        .lines()
        .find(|l| l.starts_with("ENTRYPOINT") || l.starts_with("CMD"))
        .unwrap();
    let flags: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("ENTRYPOINT") || l.starts_with("CMD"))
        .flat_map(|l| l.split(['"', ' ', ',', '[', ']']))
        .filter(|w| w.starts_with("--"))
        .collect();
    assert!(!flags.is_empty(), "{entry}");
    for f in flags {
        assert!(
            help.contains(f),
            "Dockerfile uses {f}, which `marbles batch` lacks"
        );
    }
}

/// A small folder of quick puzzles (built-in rules) in `dir/set`.
fn small_set(dir: &Path) -> std::path::PathBuf {
    let set = dir.join("set");
    std::fs::create_dir_all(&set).unwrap();
    for p in [
        "tilt_roll/crossed_holes.yaml",
        "tilt_roll/four_by_four.yaml",
        "tilt_roll/no_solution.yaml",
        "triangle_hop/corner.yaml",
        "triangle_hop/edge_middle.yaml",
    ] {
        let to = set.join(p.replace('/', "_"));
        std::fs::copy(root().join("puzzles").join(p), to).unwrap();
    }
    set
}

/// Runs shard `k/n` of `set` into `out/sK`, returning its results file.
fn shard_of(set: &Path, out: &Path, k: u32, n: u32) -> std::path::PathBuf {
    let dir = out.join(format!("s{k}"));
    let spec = format!("{k}/{n}");
    marbles(
        &[
            "batch",
            set.to_str().unwrap(),
            "-q",
            "--shard",
            &spec,
            "--report",
            dir.to_str().unwrap(),
        ],
        &[],
    )
    .no_panic();
    dir.join(format!("shard-{k}-of-{n}.json"))
}

/// A temporary folder holding [`small_set`] and the results files of its two shards.
fn two_shards() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let set = small_set(out.path());
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, out.path(), k, 2));
    (out, s0, s1)
}

/// `merge FILES --report REPORT` under an address space of `cap` bytes (the memory limit is
/// half of it), run in the report's parent folder, which holds the shards' puzzle folder.
fn merge_capped(files: &[&Path], report: &Path, cap: u64) -> crate::support::Bounded {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--report", report.to_str().unwrap()]);
    Test::new()
        .in_dir(report.parent().unwrap())
        .args(args)
        .run_bounded(std::time::Duration::from_secs(30), Some(cap))
}

/// A results file sealed again after an edit, as marbles seals it: the SHA-256 of its text
/// without the seal line.
fn resealed(path: &Path) {
    use sha2::Digest as _;
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("\n  \"sha256\": \"").unwrap() + 1;
    let end = start + text[start..].find('\n').unwrap() + 1;
    let rest = format!("{}{}", &text[..start], &text[end..]);
    let digest = hex::encode(sha2::Sha256::digest(rest.as_bytes()));
    let line = format!("  \"sha256\": \"{digest}\",\n");
    std::fs::write(path, format!("{}{line}{}", &text[..start], &text[end..])).unwrap();
}

/// `merge FILES --report o/r`, printing CSV (with each file's path).
fn merge(files: &[&Path], o: &Path) -> Run {
    merge_into(files, &o.join("r"))
}

/// `merge RESULTS --report REPORT` (results files or folders), printing CSV, run in the
/// report's parent folder, which holds the shards' puzzle folder.
fn merge_into(results: &[&Path], report: &Path) -> Run {
    let mut args = vec!["merge"];
    args.extend(results.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--report", report.to_str().unwrap(), "--format", "csv"]);
    Test::new().in_dir(report.parent().unwrap()).args(args).run()
}

/// A folder the walk could not enter is an error row of the merged reports, once, as of a
/// single run's, and fails the merge: it was left out of them, and the merge passed.
#[test]
fn merge_reports_the_folders_the_shards_could_not_walk() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    std::os::unix::fs::symlink("/proc", set.join("proc")).unwrap();
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    merge(&[&s0, &s1], o).status(2);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(o.join("r/summary.json")).unwrap()).unwrap();
    let rows: Vec<&Value> = summary["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "error")
        .collect();
    assert_eq!(rows.len(), 1, "{summary}");
    assert_eq!(rows[0]["file"], set.join("proc").display().to_string());
    assert_eq!(
        rows[0]["error"],
        "cannot walk the folder: on a proc file system, not walked; its puzzles may be missing"
    );
}

/// A shard's results file names the folders its batch walked, and merge walks and reads them
/// to replay its results: only inside the folder it runs in, or one given by `--puzzles`.
/// Sealed again, a results file from somebody else could name any folder (`/usr`, walked
/// whole; `../secret`, whose puzzles' names a result of the right hash put into the reports).
#[test]
fn merge_walks_only_the_folders_inside_its_own_or_given_by_puzzles() {
    let (out, s0, s1) = two_shards();
    let o = out.path();
    let set = std::fs::canonicalize(o.join("set")).unwrap();
    let refusal = |name: &Path, folder: &str, here: &Path| {
        format!(
            "marbles: error: {} names the puzzle folder {folder}, outside the folder merge runs in \
             ({}): merge walks and reads a shard's puzzle folders to replay its results, and only \
             inside the working folder or a folder given by --puzzles (a results file from \
             somebody else could name any folder); if {folder} holds the puzzles the shards \
             solved, run merge where they ran it or add --puzzles {folder}\n",
            name.display(),
            here.display()
        )
    };
    // Run elsewhere, honest shards are refused, saying how to name their folder.
    let args = |extra: &[&str]| {
        let mut a = vec![
            "merge",
            s0.to_str().unwrap(),
            s1.to_str().unwrap(),
            "--report",
            "r",
        ];
        a.extend(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = Test::new().args(args(&[])).run().status(2);
    let here = std::fs::canonicalize(run.dir()).unwrap();
    assert_eq!(run.stderr, refusal(&s0, set.to_str().unwrap(), &here));
    assert!(!here.join("r").exists(), "nothing written");
    Test::new()
        .args(args(&["--puzzles", set.to_str().unwrap()]))
        .run()
        .status(0);
    // Forged, resealed, run where the shards ran: refused before any walk.
    for folder in ["/usr", "../secret"] {
        for s in [&s0, &s1] {
            let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(s).unwrap()).unwrap();
            doc["folders"] = serde_json::json!([folder]);
            for r in doc["results"].as_array_mut().unwrap() {
                let name = Path::new(r["file"].as_str().unwrap()).file_name().unwrap();
                r["file"] = Value::from(format!("{folder}/{}", name.to_str().unwrap()));
            }
            std::fs::write(s, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
            resealed(s);
        }
        let run = merge(&[&s0, &s1], o).status(2);
        assert_eq!(
            run.stderr,
            refusal(&s0, folder, &std::fs::canonicalize(o).unwrap())
        );
    }
}

#[test]
fn merge_takes_shard_report_folders_as_the_results_files_in_them() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    // What a merge prints and the summary.json it writes.
    let merged = |results: &[&Path], into: &str| {
        // Its unsolvable puzzles say `expect: unsolvable`.
        let stdout = merge_into(results, &o.join(into)).status(0).stdout;
        (
            stdout,
            std::fs::read_to_string(o.join(into).join("summary.json")).unwrap(),
        )
    };
    let from_files = merged(&[&s0, &s1], "from-files");
    // Each shard's report folder holds its summary, journal and HTML beside the results file.
    let (d0, d1) = (o.join("s0"), o.join("s1"));
    assert!(d0.join("summary.json").is_file() && d1.join("index.html").is_file());
    assert_eq!(merged(&[&d0, &d1], "from-folders"), from_files);
    assert_eq!(merged(&[&d1, &s0], "from-both"), from_files);
    assert!(from_files.0.contains("no_solution.yaml"), "{}", from_files.0);
}

#[test]
fn merge_refuses_shards_made_under_other_project_limits() {
    let t = Test::new()
        .file("marbles.toml", "[limits]\nmax_nodes = 1000\n")
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  . o o\n");
    let dir = t.path("");
    let run = |args: &[&str]| Test::new().in_dir(&dir).args(args).run();
    run(&["batch", "set", "-q", "--shard", "0/2", "--report", "s0"]).status(0);
    // The second shard runs without the project's limit.
    std::fs::remove_file(t.path("marbles.toml")).unwrap();
    run(&["batch", "set", "-q", "--shard", "1/2", "--report", "s1"]).status(0);
    // The same limit as a flag is another option, and both differences are named.
    run(&[
        "batch",
        "set",
        "-q",
        "--shard",
        "1/2",
        "--max-nodes",
        "1000",
        "--report",
        "f1",
    ])
    .status(0);
    run(&["merge", "s0", "s1", "--report", "m"]).status(2).stderr_has(
        "marbles: error: s1/shard-1-of-2.json (shard 1/2) was made without limits.max_nodes, \
         s0/shard-0-of-2.json (shard 0/2) with limits.max_nodes = 1000 (marbles.toml): every \
         shard needs the same options",
    );
    run(&["merge", "s0", "f1", "--report", "m"]).status(2).stderr_has(
        "marbles: error: f1/shard-1-of-2.json (shard 1/2) was made with --max-nodes 1000 and without \
         limits.max_nodes, s0/shard-0-of-2.json (shard 0/2) without --max-nodes and with \
         limits.max_nodes = 1000 (marbles.toml): every shard needs the same options",
    );
    // A shard of the files `-k` chose, beside one of every file: named as an option, not as
    // a folder that changed.
    run(&[
        "batch", "set", "-q", "-k", "b.y", "--shard", "0/2", "--report", "k0",
    ])
    .status(0);
    run(&["merge", "k0", "s1", "--report", "m"]).status(2).stderr_has(
        "marbles: error: s1/shard-1-of-2.json (shard 1/2) was made without -k, k0/shard-0-of-2.json \
         (shard 0/2) with -k b.y: every shard needs the same options",
    );
}

#[test]
fn merge_refuses_a_report_folder_holding_files_it_did_not_write() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    let site = o.join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("index.html"), "<html>my website</html>").unwrap();
    merge_into(&[&s0, &s1], &site).status(2).stderr_has(&format!(
        "{}: a file marbles did not write (its reports are links into {}/); move it away or \
         choose another --report folder; nothing was merged and no report was touched\n",
        site.join("index.html").display(),
        site.join("current").display()
    ));
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).unwrap(),
        "<html>my website</html>"
    );
    assert!(!site.join("summary.json").exists());
}

#[test]
fn merge_refuses_a_folder_holding_no_results_file_by_name() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    // The shards' parent folder: the results file is a level down, in s0/, and not looked for.
    assert!(shard_of(&small_set(o), o, 0, 1).is_file());
    let report = o.join("r");
    let run = marbles(
        &["merge", o.to_str().unwrap(), "--report", report.to_str().unwrap()],
        &[],
    )
    .status(2);
    assert_eq!(
        run.stderr,
        format!(
            "marbles: error: {}: holds no shard-*-of-*.json file; merge takes the shards' results files or the report folders holding them (subfolders are not searched: name them, e.g. {})\n",
            o.display(),
            o.join("shard-*").display()
        )
    );
    assert!(!report.exists(), "a refused merge writes nothing");
    // A shard's own report folder with no results file (its run stopped before the end) is
    // told so, not sent looking in subfolders.
    std::fs::remove_file(o.join("s0/shard-0-of-1.json")).unwrap();
    let run = marbles(
        &[
            "merge",
            o.join("s0").to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
        &[],
    )
    .status(2);
    assert_eq!(
        run.stderr,
        format!(
            "marbles: error: {}: holds no shard-*-of-*.json file; it is a report folder whose shard \
             run did not finish (a run stopped by --fail-fast, Ctrl-C or an error leaves no results \
             file): run that shard again\n",
            o.join("s0").display()
        )
    );
    // A shard folder mistyped: the name beside it is offered.
    let typo = o.join("s");
    marbles(
        &[
            "merge",
            typo.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
        &[],
    )
    .status(2)
    .stderr_has(&format!(
        "marbles: error: {}: cannot read: No such file or directory (os error 2); did you mean `s0`?\n",
        typo.display()
    ));
}

/// A shard file's seal is a hash anyone can make again: merge replays each result against
/// its puzzle file, as `--resume` does, and a resealed edit of what the moves do, or a puzzle
/// file changed since the shard solved it, is refused.
#[test]
fn merge_replays_every_result_against_its_puzzle_file() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    // A puzzle whose expectation its answer does not meet.
    let wrong = set.join("tilt_roll_four_by_four.yaml");
    let text = std::fs::read_to_string(&wrong).unwrap();
    std::fs::write(&wrong, format!("{text}expect: unsolvable\n")).unwrap();
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    merge(&[&s0, &s1], o).status(1);
    std::fs::remove_dir_all(o.join("r")).unwrap();
    // A resealed `met: true` (or no expectation at all) is judged again from the file.
    for (s, other) in [(&s0, &s1), (&s1, &s0)] {
        let original = std::fs::read_to_string(s).unwrap();
        let mut d: Value = serde_json::from_str(&original).unwrap();
        for r in d["results"].as_array_mut().unwrap() {
            if r["file"].as_str().unwrap().ends_with("four_by_four.yaml") {
                r["met"] = Value::from(true);
                r.as_object_mut().unwrap().remove("expect");
            }
        }
        std::fs::write(s, serde_json::to_string_pretty(&d).unwrap()).unwrap();
        resealed(s);
        let csv = merge(&[s, other], o).status(1).stdout;
        assert!(csv.contains("expected unsolvable, got solved: 5 moves"), "{csv}");
        std::fs::remove_dir_all(o.join("r")).unwrap();
        std::fs::write(s, original).unwrap();
    }
    let original = std::fs::read_to_string(&s0).unwrap();
    let doc: Value = serde_json::from_str(&original).unwrap();
    let results = doc["results"].as_array().unwrap();
    let k = results
        .iter()
        .position(|r| r["status"] == "solved" && r["jumps"].as_array().is_some_and(|j| j.len() > 1))
        .expect("a solved result with jumps");
    let (file, puzzle) = (
        results[k]["file"].as_str().unwrap(),
        results[k]["puzzle"].as_str().unwrap(),
    );
    let refused = |why: &str| {
        merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
            "marbles: error: {} (shard 0/2): {file}: {why}; merge replays every result against its \
             puzzle file as the shard solved it",
            s0.display()
        ));
        assert!(!o.join("r").exists(), "a refused merge writes nothing");
    };
    let forged = |change: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        change(&mut d["results"][k]);
        std::fs::write(&s0, serde_json::to_string_pretty(&d).unwrap()).unwrap();
        resealed(&s0);
    };
    // Fewer pegs than the moves leave, and a jump over another hole than its own.
    forged(&|r| r["pegs_left"] = Value::from(0));
    refused(&format!("result 1 ({puzzle}) is not what its moves do"));
    forged(&|r| r["jumps"][0]["over"] = r["jumps"][1]["to"].clone());
    refused(&format!("result 1 ({puzzle}) is not what its moves do"));
    // The shard file as written, its puzzle file changed since.
    std::fs::write(&s0, &original).unwrap();
    merge(&[&s0, &s1], o).status(1);
    std::fs::remove_dir_all(o.join("r")).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    std::fs::write(file, format!("{text}# edited\n")).unwrap();
    refused("was changed since it was solved");
}

#[test]
fn merge_refuses_results_that_do_not_match_their_files_or_were_edited() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let s0 = shard_of(&set, o, 0, 2);
    let s1 = shard_of(&set, o, 1, 2);
    let name0 = s0.display().to_string();
    let original = std::fs::read_to_string(&s0).unwrap();
    let doc: Value = serde_json::from_str(&original).unwrap();
    let ours: Vec<String> = files(&o.join("s0"), "shard-0-of-2.json");
    let theirs = files(&o.join("s1"), "shard-1-of-2.json");
    assert!(!ours.is_empty() && !theirs.is_empty(), "{ours:?} {theirs:?}");
    // Sealed again: an edit that is not is refused as changed before anything else is read.
    let edit = |change: &dyn Fn(&mut Vec<Value>)| {
        let mut d = doc.clone();
        change(d["results"].as_array_mut().unwrap());
        std::fs::write(&s0, serde_json::to_string_pretty(&d).unwrap()).unwrap();
        resealed(&s0);
    };
    let first_file = doc["results"][0]["file"].as_str().unwrap().to_string();
    let first_puzzle = doc["results"][0]["puzzle"].as_str().unwrap().to_string();

    edit(&|r| {
        r.remove(0);
    });
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: shard 0/2 owns {} but holds no result for it",
        ours[0]
    ));

    let foreign = format!("{}/{}", set.display(), theirs[0]);
    edit(&|r| r[0]["file"] = Value::from(foreign.clone()));
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: the result for {foreign} ({first_puzzle}) is not for a file of shard 0/2"
    ));
    // A file of the shard by its path relative to the folder, but not in it (merge would read
    // the one in the folder it runs in).
    edit(&|r| r[0]["file"] = Value::from(ours[0].clone()));
    std::fs::copy(&first_file, o.join(&ours[0])).unwrap();
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: the result for {} ({first_puzzle}) is not for a file of shard 0/2",
        ours[0]
    ));
    // The file spelt otherwise than the walk spells it (it would be reported so).
    for respelt in [
        format!("{}/./{}", set.display(), ours[0]),
        format!("{}//{}", set.display(), ours[0]),
        format!("{first_file}/"),
    ] {
        edit(&|r| r[0]["file"] = Value::from(respelt.clone()));
        merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
            "marbles: error: {name0}: the result for {respelt} ({first_puzzle}) is not for a file of shard 0/2"
        ));
    }

    edit(&|r| {
        let copy = r[0].clone();
        r.push(copy);
    });
    let first_rel = Path::new(&first_file).file_name().unwrap().to_str().unwrap();
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: shard 0/2 holds 2 results for {first_rel}, a YAML file of one puzzle"
    ));

    let changed = format!(
        "{name0} was changed after marbles wrote it (its sha256 no longer matches); rerun shard 0/2 to make it again"
    );

    // Sealed again (the seal is no defence against that), a jump added past the goal is
    // refused all the same: its boards are not its line's, and drawing them would fail.
    let results = doc["results"].as_array().unwrap();
    let k = results
        .iter()
        .position(|r| r["jumps"].as_array().is_some_and(|j| !j.is_empty()))
        .expect("a result with jumps");
    let jumps = results[k]["jumps"].as_array().unwrap().len();
    edit(&|r| {
        let line = r[k]["jumps"].as_array_mut().unwrap();
        line.push(line[jumps - 1].clone());
    });
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: the boards of the result for {} ({}) are not those of its {} jumps: it was changed after marbles wrote it; rerun shard 0/2 to make it again",
        results[k]["file"].as_str().unwrap(),
        results[k]["puzzle"].as_str().unwrap(),
        jumps + 1
    ));

    let solved = "\"status\": \"solved\"";
    assert!(original.contains(solved), "{original}");
    std::fs::write(&s0, original.replacen(solved, "\"status\": \"unsolvable\"", 1)).unwrap();
    merge(&[&s0, &s1], o).status(2).stderr_has(&changed);
    assert!(!o.join("r").exists(), "a refused merge writes nothing");

    // Sealed again, a file dropped from a shard's list with its results, or a file of the
    // other shard listed with its result copied in, is refused all the same.
    let whole = |change: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        change(&mut d);
        std::fs::write(&s0, serde_json::to_string_pretty(&d).unwrap()).unwrap();
        resealed(&s0);
    };
    let files_of = |d: &Value| d["files"].as_array().unwrap().len();
    let all = files_of(&doc) + theirs.len();
    whole(&|d| {
        let gone = d["files"].as_array_mut().unwrap().remove(0);
        let rel = gone.as_str().unwrap().to_string();
        d["results"]
            .as_array_mut()
            .unwrap()
            .retain(|r| !r["file"].as_str().unwrap().ends_with(&rel));
    });
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: the shards hold {} puzzle files, not the {all} each saw in the folder: a shard file was changed after marbles wrote it; rerun the shards",
        all - 1
    ));
    // A name longer than a puzzle may give (shown in every report, it multiplied a forged
    // file's size in memory).
    whole(&|d| d["results"][0]["puzzle"] = Value::from("N".repeat(1001)));
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0}: a result names a puzzle or file longer than marbles allows (1000 characters, 4096 bytes): it was changed after marbles wrote it; rerun shard 0/2 to make it again"
    ));
    let s1_doc: Value = serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    whole(&|d| {
        d["files"]
            .as_array_mut()
            .unwrap()
            .push(s1_doc["files"][0].clone());
        d["results"]
            .as_array_mut()
            .unwrap()
            .push(s1_doc["results"][0].clone());
    });
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {name0} holds {}, which is not a file of shard 0/2: it was changed after marbles wrote it; rerun shard 0/2 to make it again",
        theirs[0]
    ));

    // Untouched, the same two shards merge.
    std::fs::write(&s0, &original).unwrap();
    merge(&[&s0, &s1], o).no_panic().stdout_has(&first_file);
}

#[test]
fn merge_refuses_shards_that_saw_the_folder_change() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let s0 = shard_of(&set, o, 0, 2);
    std::fs::copy(
        root().join("puzzles/diagonal_hop/square5_centre.yaml"),
        set.join("added.yaml"),
    )
    .unwrap();
    let s1 = shard_of(&set, o, 1, 2);
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {} (shard 1/2) saw 6 puzzle files, {} (shard 0/2) saw 5: the folder changed between shards; rerun every shard on the folder as it is now",
        s1.display(),
        s0.display()
    ));
    // Made on the same folder, they merge.
    let s0 = shard_of(&set, &o.join("again"), 0, 2);
    merge(&[&s0, &s1], o).no_panic().stdout_has("added.yaml");
    // A file renamed keeps the count but not the listing.
    std::fs::rename(set.join("added.yaml"), set.join("renamed.yaml")).unwrap();
    let s1 = shard_of(&set, &o.join("later"), 1, 2);
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {} (shard 1/2) saw 6 puzzle files, {} (shard 0/2) saw 6 others: the folder changed",
        s1.display(),
        s0.display()
    ));
}

#[test]
fn shard_counts_past_the_maximum_are_refused_at_once() {
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("r");
    let report = report.to_str().unwrap();
    marbles(
        &["batch", "puzzles", "--shard", "0/4294967295", "--report", report],
        &[],
    )
    .status(2)
    .stderr_has("--shard 0/4294967295: 4294967295 shards are too many (at most 100000)");
    marbles(
        &[
            "batch",
            "puzzles",
            "--shard",
            "auto",
            "--shard-count",
            "100001",
            "--report",
            report,
        ],
        &[("JOB_COMPLETION_INDEX", "0")],
    )
    .status(2)
    .stderr_has("marbles: error: --shard auto: 100001 shards are too many (at most 100000)");
    // The largest count allowed costs no more than a few: one hash per file, not per shard.
    let run = Test::new()
        .in_root()
        .args([
            "batch",
            "puzzles/tilt_roll",
            "-q",
            "--shard",
            "99999/100000",
            "--report",
            report,
        ])
        .run_bounded(std::time::Duration::from_secs(20), None);
    assert!(!run.killed && run.elapsed.as_secs() < 10, "{:?}", run.elapsed);
    assert!(out.path().join("r/shard-99999-of-100000.json").is_file());
}

#[test]
fn merge_refuses_a_fifo_without_opening_it() {
    let out = tempfile::tempdir().unwrap();
    let fifo = out.path().join("shard-0-of-1.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let report = out.path().join("r");
    let run = Test::new()
        .args([
            "merge",
            fifo.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ])
        .run_bounded(std::time::Duration::from_secs(20), None);
    assert!(!run.killed, "merge blocked on a FIFO");
    run.run.status(2).stderr_has(&format!(
        "marbles: error: {}: is not a regular file (a folder, FIFO or device?); merge reads shard-K-of-N.json files",
        fifo.display()
    ));
    assert!(!report.exists());
}

#[test]
fn an_interrupted_rerun_leaves_no_old_results_file() {
    let out = tempfile::tempdir().unwrap();
    let set = out.path().join("set");
    std::fs::create_dir(&set).unwrap();
    // Far beyond any search: the 41-hole diamond from its top tip, down to one peg.
    std::fs::write(set.join("slow.yaml"), crate::support::diamond41_from_tip()).unwrap();
    let report = out.path().join("rep");
    let results = report.join("shard-0-of-1.json");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "batch",
            set.to_str().unwrap(),
            "-q",
            "--shard",
            "0/1",
            "--report",
            report.to_str().unwrap(),
        ];
        a.extend(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    // A first run that gives up quickly leaves a complete results file.
    Test::new().args(args(&["--max-nodes", "1000"])).run().no_panic();
    assert!(results.is_file());
    // Its rerun, stopped part-way, must not leave that one behind for merge to take.
    let rerun = Test::new().args(args(&["-j", "1"]));
    let done = interrupted(&mut rerun.command(), std::time::Duration::from_millis(1500));
    assert_eq!(
        done.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(
        !results.exists(),
        "the old results file survived an interrupted rerun"
    );
}

#[test]
fn failed_with_a_shard_is_refused() {
    Test::new()
        .file("set/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .args(["batch", "set", "--failed", "--shard", "0/2", "--report", "r"])
        .run()
        .status(2)
        .stderr_has(
            "marbles: error: --failed with --shard 0/2: a shard's report folder holds its own share \
             only, so the other shards' files would count as never run and the shards could not \
             merge; rerun the failed files without --shard, or rerun every shard\n",
        );
}

#[test]
fn a_shard_stopped_by_fail_fast_leaves_no_results_file() {
    // `a` fails its expectation; `b` is never run after `--fail-fast` stops at `a`.
    let t = Test::new()
        .file(
            "set/a.yaml",
            "rules: peg_hop\nboard: |\n  o o .\nexpect: unsolvable\n",
        )
        .file("set/b.yaml", "rules: peg_hop\nboard: |\n  . o o\n");
    let dir = t.path("");
    Test::new()
        .in_dir(&dir)
        .args([
            "batch",
            "set",
            "-q",
            "-j",
            "1",
            "--fail-fast",
            "--shard",
            "0/1",
            "--report",
            "r",
        ])
        .run()
        .status(1);
    assert!(dir.join("r/summary.json").is_file());
    assert!(!dir.join("r/shard-0-of-1.json").exists());
}

#[test]
fn contradictory_shard_sources_are_refused_naming_both() {
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("r");
    let report = report.to_str().unwrap();
    let refused = |extra: &[&str], env: &[(&str, &str)], message: &str| {
        let mut args = vec!["batch", "puzzles", "--shard"];
        args.extend(extra);
        args.extend(["--report", report]);
        marbles(&args, env)
            .status(2)
            .stderr_has(&format!("marbles: error: {message}"));
    };
    let slurm = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")];
    refused(
        &["auto"],
        &[slurm[0], slurm[1], ("MARBLES_SHARD_COUNT", "5")],
        "--shard auto: MARBLES_SHARD_COUNT=5 and SLURM_ARRAY_TASK_COUNT=3 disagree on the shard count",
    );
    refused(
        &["auto", "--shard-count", "5"],
        &slurm,
        "--shard auto: --shard-count 5 and SLURM_ARRAY_TASK_COUNT=3 disagree on the shard count",
    );
    refused(
        &["auto", "--shard-count", "3"],
        &[slurm[0], slurm[1], ("JOB_COMPLETION_INDEX", "2")],
        "--shard auto: SLURM_ARRAY_TASK_ID=1 and JOB_COMPLETION_INDEX=2 disagree; unset the one that is not this task's",
    );
    refused(
        &["1/3", "--shard-count", "5"],
        &[],
        "--shard-count 5 goes with --shard auto only; --shard 1/3 gives the count itself",
    );
    // `--array=1-8`: IDs 1..8, count 8.
    let from_one = [("SLURM_ARRAY_TASK_ID", "8"), ("SLURM_ARRAY_TASK_COUNT", "8")];
    refused(
        &["auto"],
        &from_one,
        "--shard auto: SLURM_ARRAY_TASK_ID=8 is not below the count 8: Slurm arrays must be numbered 0..N-1 (e.g. --array=0-7)",
    );
    refused(
        &["auto"],
        &[from_one[0], from_one[1], ("SLURM_ARRAY_TASK_MIN", "1")],
        "--shard auto: SLURM_ARRAY_TASK_MIN=1: Slurm arrays must be numbered 0..N-1 (e.g. --array=0-7)",
    );
    assert!(!Path::new(report).join("summary.json").exists());
}

#[test]
fn shard_specs_are_digits_only() {
    for spec in [" 1/2", "1/ 2", "+1/2", "01/02", "-1/2", "1/2/3", "1/0"] {
        let run = marbles(&["batch", "puzzles", "--shard", spec, "--no-report"], &[]).status(2);
        let bad = format!("--shard {spec:?}: expected K/N with 0 <= K < N, e.g. 0/4, or auto");
        let zero = format!("--shard {spec}: shard 1 is not below the count 0");
        assert!(
            run.stderr.contains(&bad) || (spec == "1/0" && run.stderr.contains(&zero)),
            "{spec}: {}",
            run.stderr
        );
    }
}

#[test]
fn merge_refuses_to_write_over_a_shards_own_folder() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let s0 = shard_of(&set, o, 0, 1);
    let summary = o.join("s0/summary.json");
    let before = std::fs::read(&summary).unwrap();
    let into = o.join("s0/.");
    let puzzles = set.to_str().unwrap();
    marbles(
        &["merge", s0.to_str().unwrap(), "--report", into.to_str().unwrap(), "--puzzles", puzzles],
        &[],
    )
    .status(2)
    .stderr_has(&format!(
        "marbles: error: --report {}: holds {}, one of the shards merged; merging there would replace that shard's reports, so give another folder",
        into.display(),
        s0.display()
    ));
    assert_eq!(std::fs::read(&summary).unwrap(), before);
}

/// Merged results too many to list are printed summarised, as a single run prints them (all
/// 2,002 were printed, a line each).
#[test]
fn a_merge_too_large_to_list_prints_a_summary_as_a_single_run_does() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = o.join("set");
    std::fs::create_dir_all(&set).unwrap();
    let cases = vec!["1 1 0"; 1001].join("\n\n");
    for name in ["a.matrix", "b.matrix"] {
        std::fs::write(set.join(name), &cases).unwrap();
    }
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    let run = merge(&[&s0, &s1], o).status(0);
    // A single run's summary of that many, in CSV: a row a family and verdict.
    assert_eq!(
        run.stdout
            .lines()
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>(),
        ["family,status,puzzles", "peg_hop,solved,2002"]
    );
}

/// A puzzle file added to the folder after its shards ran would be in a single run's reports
/// and is in none of theirs: merge refuses the set (it merged without it, exit 0).
#[test]
fn merge_refuses_a_folder_given_a_file_since_its_shards_ran() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path();
    let set = small_set(o);
    let [s0, s1] = [0, 1].map(|k| shard_of(&set, o, k, 2));
    std::fs::write(set.join("late.yaml"), "rules: peg_hop\nboard: |\n  o o .\n").unwrap();
    merge(&[&s0, &s1], o).status(2).stderr_has(&format!(
        "marbles: error: {} now holds 6 puzzle files, where the shards saw 5: a file was added, \
         removed or renamed since they ran, or merge runs in another folder than they did (it \
         reads their folders from where it runs: run it there); else rerun every shard on the \
         folder as it is now\n",
        set.display()
    ));
    assert!(!o.join("r").exists());
}

#[test]
fn a_shard_file_is_refused_before_reading_it_could_pass_the_memory_limit() {
    // Reading a value into a result may cost several times its text (serde holds parts of a
    // result whole while it tells their kind): a key of 3 M empty lists took 11 times the
    // file's size before the seal was checked, sealed or not.
    let (out, s0, s1) = two_shards();
    let o = out.path();
    let text = std::fs::read_to_string(&s0).unwrap();
    let first = text.find("\"results\": [").unwrap();
    let at = first + text[first..].find('{').unwrap() + 1;
    let lists = format!("\n      \"x\": [{}[]],", "[],".repeat(3_000_000));
    std::fs::write(&s0, format!("{}{lists}{}", &text[..at], &text[at..])).unwrap();
    // An address space of 256 MiB makes the memory limit 128 MiB.
    let report = o.join("r");
    let merge = || merge_capped(&[&s0, &s1], &report, 256 << 20);
    let name0 = s0.display();
    // Refused as `said`, holding little more than the file's text.
    let refused = |said: String| {
        let b = merge();
        b.run.status(2).stderr_has(&said);
        assert!(b.peak_kib < 64 << 10, "{} KiB read for a 9 MB file", b.peak_kib);
    };
    refused(format!(
        "marbles: error: {name0} was changed after marbles wrote it (its sha256 no longer matches); rerun shard 0/2 to make it again"
    ));
    resealed(&s0);
    refused(format!(
        "marbles: error: {name0}: reading its 8.6 MiB could take more than the memory limit, 128.0 MiB (its text, and 64 bytes a JSON value in it, where marbles writes a value in some 17 bytes): not a results file marbles wrote, or too large for this machine; split the batch into more shards"
    ));
    assert!(!report.exists(), "a refused merge writes nothing");
}

#[test]
fn a_result_merge_cannot_replay_is_not_called_forged() {
    // Under an address-space cap too small for a rule script's thread, the replay cannot build
    // a board: merge says so, where it said the result "is not what its moves do".
    let (out, s0, s1) = two_shards();
    let o = out.path();
    let report = o.join("r");
    let run = merge_capped(&[&s0, &s1], &report, 250 << 20);
    run.run
        .status(2)
        .stderr_has("could not be replayed, its board not built again: ")
        .stderr_has("cannot start the rule script: its thread's 256.0 MiB stack does not fit under this process's address-space limit (ulimit -v)");
    assert!(!report.exists(), "a refused merge writes nothing");
}
