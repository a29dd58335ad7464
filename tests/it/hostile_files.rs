//! The files marbles writes and reads back, under attack: links planted in the place of its
//! own files, special files and endless lines where it reads back, a walk into `/proc` and
//! `/sys`, what a failed batch leaves, and shard sets that cannot make one batch.

use crate::support::{Test, alpha_and_beta, batch_into_rep, root};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const QUICK: &str = "name: Quick\nrules: peg_hop\nboard: |\n  o o . o\ngoal:\n  pegs: 2\n";
const PRECIOUS: &str = "precious\n";

fn plant(link: &Path, target: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The `.gen-*` folders in `dir`, sorted.
fn generations(dir: &Path) -> Vec<String> {
    let mut gens: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".gen-"))
        .collect();
    gens.sort();
    gens
}

/// A test folder holding `set/q.yaml`, a file `victim` and an empty report folder `rep`.
fn with_victim() -> Test {
    let t = Test::new().file("set/q.yaml", QUICK).file("victim", PRECIOUS);
    std::fs::create_dir(t.path("rep")).unwrap();
    t
}

#[test]
fn a_link_planted_in_the_place_of_a_file_marbles_writes_is_refused_not_followed() {
    // The lock and the journal are opened in place: a link there is refused, naming it.
    for (name, extra) in [
        (".lock", None),
        (".journal.jsonl", None),
        (".journal.jsonl", Some("--resume")),
    ] {
        let t = with_victim();
        plant(&t.path("rep").join(name), &t.path("victim"));
        let mut args = vec!["batch", "set", "--report", "rep", "-q"];
        args.extend(extra);
        let run = t.args(args).run().status(2).no_panic();
        let run = run.stderr_has(&format!(
            "rep/{name}: is a symbolic link; marbles does not write or read"
        ));
        assert_eq!(text(&run.dir().join("victim")), PRECIOUS, "{name} {extra:?}");
    }
    // The report links are replaced, never written through.
    for name in ["summary.json", "current", "results.jsonl"] {
        let t = with_victim();
        plant(&t.path("rep").join(name), &t.path("victim"));
        let run = t.args(["batch", "set", "--report", "rep", "-q"]).run().status(0);
        assert_eq!(text(&run.dir().join("victim")), PRECIOUS, "{name}");
        assert!(text(&run.dir().join("rep/summary.json")).contains("Quick"));
    }
    // merge takes its report folder's lock the same way.
    let shard = with_victim()
        .args(["batch", "set", "--report", "s", "-q", "--shard", "0/1"])
        .run()
        .status(0);
    let here = shard.dir().to_path_buf();
    std::fs::create_dir(here.join("m")).unwrap();
    plant(&here.join("m/.lock"), &here.join("victim"));
    Test::new()
        .in_dir(&here)
        .args(["merge", "s", "--report", "m"])
        .run()
        .status(2)
        .stderr_has("m/.lock: is a symbolic link");
    assert_eq!(text(&here.join("victim")), PRECIOUS);
}

/// A link to nothing under a hidden name (a report folder's `.lock`) is never walked, so it
/// is no warning; under a name that is walked, the warning says what it is, where it gave
/// the system's "No such file or directory (os error 2)".
#[test]
fn a_link_to_nothing_met_by_the_walk_is_said_as_such_and_a_hidden_one_passed_over() {
    let t = Test::new().file("pack/q.yaml", QUICK).file("pack/reports/x", "");
    plant(&t.path("pack/reports/.lock"), Path::new("../../victim/lock"));
    plant(&t.path("pack/sub"), Path::new("../gone"));
    let run = t.args(["batch", "pack", "--no-report", "-q"]).run().status(2);
    let warnings: Vec<&str> = run.stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(
        warnings,
        ["marbles: warning: pack/sub: a link to ../gone, which does not exist"],
        "{}",
        run.stderr
    );
}

/// A `results.jsonl` planted as a link to another run's results: every batch reads it back
/// to carry the results of the files it does not run, and its private records went into the
/// new reports. A link out of the report folder is not read, said so, and replaced.
#[test]
fn a_results_file_linked_out_of_the_report_folder_is_not_read_back() {
    let secret = QUICK.replace("Quick", "SECRET_NAME");
    let t = Test::new()
        .file("priv/pack/q.yaml", &secret)
        .file("pub/pack/p.yaml", QUICK)
        .file("pub/pack/q.yaml", QUICK);
    let private = Test::new().in_dir(&t.path("priv"));
    private
        .args(["batch", "pack", "--report", "rep", "-q"])
        .run()
        .status(0);
    std::fs::create_dir(t.path("pub/rep")).unwrap();
    let theirs = t.path("priv/rep/current/results.jsonl");
    plant(&t.path("pub/rep/results.jsonl"), &theirs);
    for extra in [None, Some("--resume")] {
        let mut args = vec!["batch", "pack", "-k", "p.yaml", "--report", "rep", "-q"];
        args.extend(extra);
        let run = Test::new().in_dir(&t.path("pub")).args(args).run().status(0);
        for f in std::fs::read_dir(t.path("pub/rep/current")).unwrap().flatten() {
            assert!(
                !text(&f.path()).contains("SECRET_NAME"),
                "{extra:?}: {:?}",
                f.path()
            );
        }
        run.stderr_has(&format!(
            "marbles: warning: rep/results.jsonl: a link out of rep (to {}); marbles reads back \
             only the files it wrote there: not read\n",
            std::fs::canonicalize(&theirs).unwrap().display()
        ));
        // The link was replaced by this run's own: the second run reads that one back.
        if extra.is_none() {
            assert!(!text(&t.path("pub/rep/results.jsonl")).contains("SECRET_NAME"));
            std::fs::remove_file(t.path("pub/rep/results.jsonl")).unwrap();
            plant(&t.path("pub/rep/results.jsonl"), &theirs);
        }
    }
}

#[test]
fn a_report_folder_that_is_a_link_is_refused_not_written_through() {
    // A folder from somebody else ships `reports -> ../victim`: `marbles batch .` run in it
    // wrote a whole report set where the link led. Given as `--report` (with a trailing `/`
    // too), or to `merge`, the same; a link to nothing says what it is.
    let t = Test::new().file("pack/q.yaml", QUICK);
    std::fs::create_dir(t.path("victim")).unwrap();
    let here = t.path("pack");
    plant(&here.join("reports"), Path::new("../victim"));
    plant(&here.join("ghost"), Path::new("../nowhere/deep"));
    Test::new()
        .in_dir(&here)
        .args(["batch", "q.yaml", "--report", "s", "-q", "--shard", "0/1"])
        .run()
        .status(0);
    for (args, link) in [
        (vec!["batch", "."], "reports"),
        (vec!["batch", "q.yaml", "--report", "reports/"], "reports/"),
        (vec!["batch", "q.yaml", "--report", "ghost"], "ghost"),
        (vec!["merge", "s", "--report", "reports"], "reports"),
    ] {
        let to = if link == "ghost" {
            "../nowhere/deep"
        } else {
            "../victim"
        };
        Test::new()
            .in_dir(&here)
            .args(args.clone())
            .run()
            .status(2)
            .no_panic()
            .stderr_has(&format!(
                "marbles: error: {link}: a link (to {to}), not a folder; marbles writes its reports \
                 only into a folder, never through a link"
            ));
        let left: Vec<_> = std::fs::read_dir(t.path("victim")).unwrap().collect();
        assert!(left.is_empty(), "{args:?} wrote {left:?}");
    }
}

#[test]
fn a_shard_never_publishes_a_link_planted_as_its_temporary_file() {
    // A search only `--timeout` ends: the link is planted long before the shard writes.
    let slow = crate::support::diamond41_from_tip();
    let t = Test::new().file("set/slow.yaml", &slow).file("victim", PRECIOUS);
    std::fs::create_dir(t.path("rep")).unwrap();
    let t = t.args([
        "batch",
        "set",
        "--report",
        "rep",
        "-q",
        "--shard",
        "0/1",
        "--timeout",
        "1",
    ]);
    let child = t
        .command()
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let tmp = t.path(&format!("rep/.shard-0-of-1.json.{}.tmp", child.id()));
    plant(&tmp, &t.path("victim"));
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text(&t.path("victim")), PRECIOUS);
    let results = t.path("rep/shard-0-of-1.json");
    assert!(std::fs::symlink_metadata(&results).unwrap().is_file());
    assert!(text(&results).contains("\"gave_up\""));
}

#[test]
fn import_force_does_not_write_through_a_link() {
    let lisp = "((o) (x x) (x x x) (x x x x) (x x x x x))";
    let t = Test::new().file("x.lisp", lisp).file("victim", PRECIOUS);
    std::fs::create_dir(t.path("out")).unwrap();
    plant(&t.path("out/x.yaml"), &t.path("victim"));
    let run = t
        .args(["import", "x.lisp", "--out", "out", "--force"])
        .run()
        .status(2)
        .no_panic()
        .stderr_has("out/x.yaml: cannot write: is a symbolic link");
    assert_eq!(text(&run.dir().join("victim")), PRECIOUS);
}

#[test]
fn a_batch_that_fails_writing_its_reports_leaves_no_generation_behind() {
    let t = alpha_and_beta(QUICK);
    // A write past the limit fails, as on a full disk.
    let run =
        |set: &str, max_file_bytes: Option<u64>| batch_into_rep(&t, set, max_file_bytes.map(|b| (b, true)));
    assert!(run("one", None).status.success());
    let before = generations(&t.path("rep"));
    assert_eq!(before.len(), 1);
    let json_len = std::fs::metadata(t.path("rep/summary.json")).unwrap().len();
    let failed = run("two", Some(json_len * 2));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(generations(&t.path("rep")), before, "{stderr}");
    assert!(text(&t.path("rep/summary.json")).contains("Alpha"));
    // Nothing lost: the results are on the terminal, and in the journal for `--resume`.
    assert!(
        String::from_utf8_lossy(&failed.stdout).contains("Beta"),
        "{stderr}"
    );
    assert!(text(&t.path("rep/.journal.jsonl")).contains("Beta"));
}

#[test]
fn resume_reads_back_only_regular_files_and_bounded_lines() {
    let bounded = |t: Test| {
        t.args(["batch", "set", "--report", "rep", "-q", "--resume"])
            .run_bounded(Duration::from_secs(30), None)
            .held(200)
    };
    // results.jsonl linked to an endless device, the journal a FIFO no one writes.
    let first = Test::new()
        .file("set/q.yaml", QUICK)
        .args(["batch", "set", "--report", "rep", "-q"])
        .run()
        .status(0);
    let here = first.dir().to_path_buf();
    std::fs::remove_file(here.join("rep/results.jsonl")).unwrap();
    plant(&here.join("rep/results.jsonl"), Path::new("/dev/zero"));
    bounded(Test::new().in_dir(&here)).status(0).stderr_has(
        "rep/results.jsonl: a link out of rep (to /dev/zero); marbles reads back only the files it \
         wrote there: not read",
    );
    // Inside the folder, a link to one is refused as what it is.
    std::fs::remove_file(here.join("rep/results.jsonl")).unwrap();
    let fifo = here.join("rep/fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    plant(&here.join("rep/results.jsonl"), Path::new("fifo"));
    bounded(Test::new().in_dir(&here))
        .status(2)
        .stderr_has("rep/results.jsonl: is not a regular file");
    std::fs::remove_file(&fifo).unwrap();
    std::fs::remove_file(here.join("rep/results.jsonl")).unwrap();
    let fifo = here.join("rep/.journal.jsonl");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    bounded(Test::new().in_dir(&here))
        .status(2)
        .stderr_has("rep/.journal.jsonl: is not a regular file");
    std::fs::remove_file(&fifo).unwrap();
    // A line of a gibibyte is passed over, not held: what it was is solved again.
    std::fs::File::create(&fifo).unwrap().set_len(1 << 30).unwrap();
    bounded(Test::new().in_dir(&here))
        .status(0)
        .stderr_has("rep/.journal.jsonl:1: a line longer than 16 MiB")
        .stdout_has("Quick");
    // A journal past what any batch writes is refused from its size, unread.
    std::fs::File::create(&fifo).unwrap().set_len(65 << 30).unwrap();
    bounded(Test::new().in_dir(&here))
        .status(2)
        .stderr_has("rep/.journal.jsonl: 69793218560 bytes, more than the 64 GiB");
}

#[test]
fn merge_refuses_a_shard_file_too_large_before_reading_it() {
    let t = Test::new();
    let shard = t.path("shard-0-of-1.json");
    std::fs::File::create(&shard)
        .unwrap()
        .set_len(1536 << 20)
        .unwrap();
    t.args(["merge", "shard-0-of-1.json", "--report", "m"])
        .run_bounded(Duration::from_secs(30), None)
        .held(64)
        .status(2)
        .stderr_has("shard-0-of-1.json: 1610612736 bytes, larger than 1024 MiB");
}

#[test]
fn a_folder_linking_to_proc_and_sys_is_walked_without_them() {
    let t = Test::new().file("set/q.yaml", QUICK);
    plant(&t.path("set/proc"), Path::new("/proc"));
    plant(&t.path("set/sys"), Path::new("/sys"));
    let dir = t.path("");
    let run = t
        .args(["batch", "set", "--report", "r"])
        .run_bounded(Duration::from_secs(30), None)
        .held(200);
    // (Held to the end: the run owns the test's folder.)
    let _run = run
        .status(2)
        .stdout_has("Quick")
        .stdout_has("3 puzzles: 1 solved, 0 unsolvable, 0 gave up, 2 errors")
        .stderr_has("warning: set/proc: on a proc file system, not walked")
        .stderr_has("warning: set/sys: on a sysfs file system, not walked");
    // Each folder not walked is an error row in the reports too: a CI reading only junit.xml
    // learns that puzzles may be missing.
    let junit = std::fs::read_to_string(dir.join("r/junit.xml")).unwrap();
    assert!(
        junit.contains(
            "<testcase classname=\"set/proc\" name=\"proc\" time=\"0.000000\">\n      <error type=\"error\" message=\"cannot walk the folder: on a proc file system, not walked; its puzzles may be missing\""
        ),
        "{junit}"
    );
}

/// A link back to a folder above it is not followed and loses no puzzle: a warning, not a
/// failed run (it exited 2 while every report said all passed).
#[test]
fn a_link_back_up_the_folder_is_a_warning_not_a_failure() {
    for args in [&["batch", "set", "--no-report"][..], &["check", "set"]] {
        let t = Test::new().file("set/sub/q.yaml", QUICK);
        plant(&t.path("set/sub/up"), Path::new(".."));
        t.args(args).run().status(0).stderr_has(
            "warning: set/sub/up: symlink loop, not followed (it leads back to a folder above it)\n",
        );
    }
}

/// `set` with its own copy of the peg rules (`rules/myhop.rhai`) and eight puzzles using it.
fn set_with_script(t: Test) -> Test {
    let mut t = t.file("set/rules/myhop.rhai", &text(&root().join("rules/peg_hop.rhai")));
    for k in 0..8 {
        t = t.file(
            &format!("set/p{k}.yaml"),
            &QUICK
                .replace("peg_hop", "myhop")
                .replace("Quick", &format!("P{k}")),
        );
    }
    t
}

#[test]
fn merge_refuses_shards_made_with_different_versions_of_a_script() {
    let t = set_with_script(Test::new());
    let here = t.path("");
    let shard = |k: &str| {
        let spec = format!("{k}/2");
        Test::new()
            .in_dir(&here)
            .args([
                "batch",
                "set",
                "-q",
                "--shard",
                &spec,
                "--report",
                &format!("s{k}"),
            ])
            .run()
            .status(0);
    };
    shard("0");
    let script = here.join("set/rules/myhop.rhai");
    std::fs::write(&script, text(&script) + "\n// edited between the shards\n").unwrap();
    shard("1");
    let run = Test::new()
        .in_dir(&here)
        .args(["merge", "s0", "s1", "--report", "m"])
        .run()
        .status(2)
        .no_panic();
    run.stderr_has("s1/shard-1-of-2.json (shard 1/2) was made with set/rules/myhop.rhai of sha256 ")
        .stderr_has(", s0/shard-0-of-2.json (shard 0/2) with sha256 ")
        .stderr_has("every shard needs the same scripts");
    assert!(!here.join("m").exists());
}

#[test]
fn sharding_folders_whose_files_share_a_relative_path_is_refused_up_front() {
    let run = Test::new()
        .file("a/x.yaml", QUICK)
        .file("b/x.yaml", QUICK)
        .args(["batch", "a", "b", "--shard", "0/2", "--report", "rep"])
        .run()
        .status(2)
        .no_panic()
        .stderr_has("--shard 0/2: a/x.yaml and b/x.yaml are both x.yaml");
    assert!(!run.dir().join("rep").exists());
}

#[test]
fn a_hard_link_planted_in_the_place_of_a_file_marbles_writes_is_refused() {
    // The lock: refused before its text overwrote the file's other name.
    let t = with_victim();
    std::fs::hard_link(t.path("victim"), t.path("rep/.lock")).unwrap();
    let run = t
        .args(["batch", "set", "--report", "rep", "-q"])
        .run()
        .status(2)
        .no_panic();
    let run = run.stderr_has("rep/.lock: has another name (a hard link); marbles does not write");
    assert_eq!(text(&run.dir().join("victim")), PRECIOUS);
    // An imported spec under --force: refused before it is emptied.
    let t = Test::new()
        .file("x.lisp", "((o) (x x) (x x x) (x x x x) (x x x x x))")
        .file("victim", PRECIOUS);
    std::fs::create_dir(t.path("out")).unwrap();
    std::fs::hard_link(t.path("victim"), t.path("out/x.yaml")).unwrap();
    let run = t
        .args(["import", "x.lisp", "--out", "out", "--force"])
        .run()
        .status(2)
        .no_panic()
        .stderr_has("out/x.yaml: cannot write: has another name (a hard link)");
    assert_eq!(text(&run.dir().join("victim")), PRECIOUS);
}

#[test]
fn ctrl_c_ends_reading_back_a_long_journal_and_touches_nothing() {
    // A 4 GiB journal after the head of a record, one line that `--resume` reads through:
    // sparse, with a byte other than zero every MiB (16 MiB of disk), so that it is read, not
    // skipped as a hole is.
    let t = with_victim();
    let mut journal = std::fs::File::create(t.path("rep/.journal.jsonl")).unwrap();
    std::io::Write::write_all(&mut journal, b"{\"index\":").unwrap();
    journal.set_len(4 << 30).unwrap();
    for mib in 1..4096u64 {
        std::os::unix::fs::FileExt::write_at(&journal, b"x", mib << 20).unwrap();
    }
    drop(journal);
    let mut cmd = t.command();
    cmd.args(["batch", "set", "--report", "rep", "--resume", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let signalled = std::time::Instant::now();
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let took = signalled.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        took < Duration::from_secs(3),
        "ended {took:?} after Ctrl-C: {stderr}"
    );
    assert!(
        stderr.contains("interrupted while reading back earlier results: nothing was solved or written"),
        "{stderr}"
    );
    assert!(!t.path("rep/summary.json").exists());
}

#[test]
fn a_folder_planted_where_a_report_is_published_is_refused_before_anything_is_swapped() {
    for name in ["summary.json", "current", "results.jsonl", "index.html"] {
        let t = with_victim();
        assert!(
            t.command()
                .args(["batch", "set", "--report", "rep", "-q"])
                .status()
                .unwrap()
                .success()
        );
        let before = std::fs::read_link(t.path("rep/current")).unwrap();
        std::fs::remove_file(t.path("rep").join(name)).unwrap();
        std::fs::create_dir_all(t.path("rep").join(name).join("x")).unwrap();
        let run = t
            .args(["batch", "set", "--report", "rep", "-q"])
            .run()
            .status(2)
            .no_panic();
        let run = run.stderr_has(&format!(
            "rep/{name}: it is a folder, where marbles publishes a link to its report; remove it"
        ));
        let dir = run.dir().join("rep");
        if name != "current" {
            assert_eq!(std::fs::read_link(dir.join("current")).unwrap(), before, "{name}");
        }
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp") || (n.starts_with(".gen-") && dir.join(n) != dir.join(&before)))
            .collect();
        assert!(left.is_empty(), "{name}: left {left:?}");
    }
}

#[test]
fn a_users_folders_named_like_report_generations_are_left_be() {
    let t = Test::new()
        .file("set/q.yaml", QUICK)
        .file("rep/.gen-mine/keep.txt", "precious")
        .file("rep/.gen-123-456/keep.txt", "precious too");
    let dir = t.path("");
    let _run = t.args(["batch", "set", "--report", "rep"]).run().status(0);
    for kept in ["rep/.gen-mine/keep.txt", "rep/.gen-123-456/keep.txt"] {
        assert!(dir.join(kept).is_file(), "{kept} was removed");
    }
    // A second run removes the first run's generation, its own.
    let gens = || {
        std::fs::read_dir(dir.join("rep"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".gen-"))
            .count()
    };
    assert_eq!(gens(), 3);
    Test::new()
        .in_dir(&dir)
        .args(["batch", "set", "--report", "rep"])
        .run()
        .status(0);
    assert_eq!(gens(), 3);
}

#[test]
fn a_report_folder_holding_files_marbles_did_not_write_is_refused_before_solving() {
    // The journal and the lock are marbles' own files too, but only when they read as its
    // own: a user's file of either name is refused and kept, as a report name is.
    let reports = "its reports are links into rep/current/";
    for (name, said) in [
        ("index.html", reports),
        ("summary.json", reports),
        ("results.jsonl", reports),
        ("current", reports),
        (".journal.jsonl", "its records lead with `{\"index\":`"),
        (".lock", "its lock reads `pid N on host H, …`"),
    ] {
        let t = with_victim();
        std::fs::write(t.path("rep").join(name), PRECIOUS).unwrap();
        let run = t
            .args(["batch", "set", "--report", "rep"])
            .run()
            .status(2)
            .no_panic()
            .stderr_has(&format!("rep/{name}: a file marbles did not write ({said}); move it away or choose another --report folder; nothing was solved and no report was touched\n"));
        assert_eq!(text(&run.dir().join("rep").join(name)), PRECIOUS);
        if name != ".journal.jsonl" {
            assert!(
                !run.dir().join("rep/.journal.jsonl").exists(),
                "{name}: solving began"
            );
        }
    }
    // A folder planted at `current` is refused before anything is solved too.
    let t = with_victim();
    std::fs::create_dir(t.path("rep/current")).unwrap();
    let run = t
        .args(["batch", "set", "--report", "rep"])
        .run()
        .status(2)
        .stderr_has("rep/current: it is a folder, where marbles publishes a link to its report; remove it");
    assert!(!run.dir().join("rep/.journal.jsonl").exists(), "solving began");
    // A folder marbles wrote a report into is written again.
    let t = with_victim();
    let done = batch_into_rep(&t, "set", None);
    assert!(done.status.success());
    assert!(batch_into_rep(&t, "set", None).status.success());
}

#[test]
fn a_file_where_the_report_folder_would_be_is_named_as_such_and_kept() {
    for (report, said) in [
        (
            "rep",
            "cannot create report folder rep: a file of that name is there; give --report a folder",
        ),
        (
            "rep/sub",
            "cannot create report folder rep/sub: rep is a file, not a folder; give --report a folder",
        ),
    ] {
        let t = with_victim();
        std::fs::remove_dir_all(t.path("rep")).ok();
        std::fs::write(t.path("rep"), PRECIOUS).unwrap();
        let run = t
            .args(["batch", "set", "--report", report])
            .run()
            .status(2)
            .stderr_has(said);
        assert_eq!(text(&run.dir().join("rep")), PRECIOUS);
    }
}
