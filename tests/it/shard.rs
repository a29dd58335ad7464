//! `marbles batch --shard` and `marbles merge`: shards that merge into a single run's
//! reports, sets refused with the shard at fault named, shares chosen from scheduler
//! variables, and the Dockerfile that builds a shard's container.

use crate::support::{Run, Test, root};
use serde_json::Value;
use std::path::Path;

/// Runs marbles from the crate root (so `puzzles` is the shipped folder) with `env` set.
fn marbles(args: &[&str], env: &[(&str, &str)]) -> Run {
    let test = Test::new().in_root().args(args);
    let mut cmd = test.command();
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
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
    let shipped = puzzle_files(Path::new("puzzles"));
    assert_eq!((all.len(), n), (shipped, shipped), "{all:?}");

    let merged = o.join("merged");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--report", merged.to_str().unwrap(), "--format", "csv"]);
    marbles(&args, &[])
        .status(1)
        .stdout_has("puzzles/tilt_roll/no_solution.yaml");

    let single = o.join("single");
    marbles(
        &["batch", "puzzles", "-q", "--report", single.to_str().unwrap()],
        &[],
    )
    .status(1);
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
        .stderr_has("marbles: error: incomplete: shard 1/3 missing");
    marbles(&["merge", &s[0], &s[1], &s[2], &s[1], "--report", report], &[])
        .status(2)
        .stderr_has(&format!(
            "marbles: error: {} and {} are both shard 1/3",
            s[1], s[1]
        ));
    marbles(&["merge", &s[0], &s[1], &other, "--report", report], &[])
        .status(2)
        .stderr_has(&format!(
            "marbles: error: {other} (shard 2/3) was made with options "
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
