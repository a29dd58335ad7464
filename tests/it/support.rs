//! A small fluent helper so integration tests read like specifications:
//! `Test::new().file("a.yaml", ..).args(["solve", "a.yaml"]).run().status(0)`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The crate root, where `puzzles/` and `rules/` live.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Shipped puzzles that take about a minute each in a release build and several in the test
/// build: the hardest Ricochet problems, proven optimal by `benches/ricochet.py`. Tests that
/// run the whole shipped collection leave them out (`Test::with_shipped`, `copy_shipped`);
/// `kinds.rs` solves the 25-move one from ten moves along its published line.
pub const LONG_SHIPPED: [&str; 2] = ["ricochet/hard_24_moves.yaml", "ricochet/hardest_25_moves.yaml"];

/// Copies `puzzles/` to `to`, folders and all, without the [`LONG_SHIPPED`] puzzles.
pub fn copy_shipped(to: &Path) {
    let from = root().join("puzzles");
    for e in walkdir::WalkDir::new(&from).into_iter().flatten() {
        let rel = e.path().strip_prefix(&from).unwrap();
        if e.file_type().is_dir() {
            std::fs::create_dir_all(to.join(rel)).unwrap();
        } else if !LONG_SHIPPED.iter().any(|l| rel == Path::new(l)) {
            std::fs::copy(e.path(), to.join(rel)).unwrap();
        }
    }
}

pub struct Test {
    dir: tempfile::TempDir,
    args: Vec<String>,
    /// Where marbles runs, if not in the test's own folder.
    cwd: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
}

impl Test {
    /// A test with its own empty temporary folder as the working directory.
    pub fn new() -> Self {
        Test {
            dir: tempfile::tempdir().expect("temp dir"),
            args: Vec::new(),
            cwd: None,
            stdin: None,
        }
    }

    /// Writes `contents` to `name` (folders created) inside the test's folder.
    pub fn file(self, name: &str, contents: &str) -> Self {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, contents).unwrap();
        self
    }

    /// Copies the shipped puzzles into the test's folder as `puzzles/`, without the
    /// [`LONG_SHIPPED`] ones, for tests that run the whole collection.
    pub fn with_shipped(self) -> Self {
        copy_shipped(&self.dir.path().join("puzzles"));
        self
    }

    /// Runs from the crate root instead, to use the shipped puzzles.
    pub fn in_root(self) -> Self {
        self.in_dir(&root())
    }

    /// Runs from `dir` instead.
    pub fn in_dir(mut self, dir: &Path) -> Self {
        self.cwd = Some(dir.to_path_buf());
        self
    }

    /// Gives marbles `input` on stdin (else stdin is empty).
    pub fn stdin(self, input: &str) -> Self {
        self.stdin_bytes(input.as_bytes())
    }

    /// Gives marbles these bytes on stdin, text or not.
    pub fn stdin_bytes(mut self, input: &[u8]) -> Self {
        self.stdin = Some(input.to_vec());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<str>>(mut self, args: I) -> Self {
        self.args = args.into_iter().map(|a| a.as_ref().to_string()).collect();
        self
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The command this test runs, for tests that spawn and signal marbles themselves.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_marbles"));
        cmd.args(&self.args)
            .current_dir(self.cwd.as_deref().unwrap_or(self.dir.path()))
            .env_remove("NO_COLOR")
            .stdin(Stdio::null());
        cmd
    }

    pub fn run(self) -> Run {
        let mut cmd = self.command();
        let out = match &self.stdin {
            None => cmd.output().expect("run marbles"),
            Some(input) => {
                let mut child = cmd
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("run marbles");
                child
                    .stdin
                    .take()
                    .expect("piped stdin")
                    .write_all(input)
                    .expect("write stdin");
                child.wait_with_output().expect("run marbles")
            }
        };
        Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code(),
            test: self,
        }
    }
}

/// A finished run: its output, and the test (and so its folder) kept alive.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
    pub test: Test,
}

impl Run {
    #[track_caller]
    pub fn status(self, code: i32) -> Self {
        assert_eq!(
            self.code,
            Some(code),
            "exit status\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stderr_has(self, text: &str) -> Self {
        assert!(
            self.stderr.contains(text),
            "stderr lacks {text:?}:\n{}",
            self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(self, text: &str) -> Self {
        assert!(
            self.stdout.contains(text),
            "stdout lacks {text:?}:\n{}",
            self.stdout
        );
        self
    }

    pub fn stdout_lacks(self, text: &str) -> Self {
        assert!(
            !self.stdout.contains(text),
            "stdout has {text:?}:\n{}",
            self.stdout
        );
        self
    }

    #[track_caller]
    pub fn no_panic(self) -> Self {
        assert!(!self.stderr.contains("panicked"), "panic:\n{}", self.stderr);
        self
    }

    /// stdout parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    pub fn dir(&self) -> &Path {
        self.test.dir.path()
    }
}

/// A run of the binary with a deadline, and the child's own peak resident memory.
pub struct Bounded {
    pub run: Run,
    pub elapsed: std::time::Duration,
    /// Peak RSS of this child alone since its exec (polled), in KiB; 0 when it ended before
    /// the first poll saw it as marbles (a process of a few milliseconds).
    pub peak_kib: i64,
    /// True when the deadline passed and the child was killed.
    pub killed: bool,
}

impl Test {
    /// Runs like [`Test::run`], but kills the child once it has used `limit` of CPU time, or
    /// four times `limit` of wall time (a hang must fail the test, not stall it), and measures
    /// the child's own peak RSS. CPU time is the work done, which a loaded machine does not
    /// stretch as it stretches the wall clock; it counts every thread, so two busy threads
    /// spend it twice as fast. `rlimit_as` caps the child's address space.
    pub fn run_bounded(self, limit: std::time::Duration, rlimit_as: Option<u64>) -> Bounded {
        use std::os::unix::process::CommandExt;
        let out = tempfile::tempdir().unwrap();
        let (o, e) = (out.path().join("out"), out.path().join("err"));
        let mut cmd = self.command();
        cmd.stdout(std::fs::File::create(&o).unwrap())
            .stderr(std::fs::File::create(&e).unwrap());
        // The peak is read from the child's own image after exec (`exec_high_water`), so how
        // it was spawned (fork or vfork) cannot charge it this process's memory.
        // SAFETY: setrlimit is async-signal-safe; it only touches the child.
        unsafe {
            cmd.pre_exec(move || {
                if let Some(bytes) = rlimit_as {
                    let lim = libc::rlimit {
                        rlim_cur: bytes,
                        rlim_max: bytes,
                    };
                    libc::setrlimit(libc::RLIMIT_AS, &lim);
                }
                Ok(())
            });
        }
        let started = std::time::Instant::now();
        // Reaped by `wait4` below, polled between samples of its memory.
        #[allow(clippy::zombie_processes)]
        let child = cmd.spawn().expect("run marbles");
        let pid = child.id() as i32;
        let mut status = 0;
        let mut killed = false;
        let mut sampled: Option<i64> = None;
        loop {
            if let Some(kib) = exec_high_water(pid) {
                sampled = Some(sampled.map_or(kib, |s| s.max(kib)));
            }
            // SAFETY: waiting for our own child, into values we own.
            let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, std::ptr::null_mut()) };
            if r == pid {
                break;
            }
            let over = started.elapsed() > 4 * limit || cpu_time(pid).is_some_and(|t| t > limit);
            if over && !killed {
                // SAFETY: signalling our own child.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                killed = true;
            }
            let first = started.elapsed() < std::time::Duration::from_millis(200);
            std::thread::sleep(std::time::Duration::from_millis(if first { 1 } else { 5 }));
        }
        let elapsed = started.elapsed();
        let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        Bounded {
            run: Run {
                stdout: std::fs::read_to_string(&o).unwrap_or_default(),
                stderr: std::fs::read_to_string(&e).unwrap_or_default(),
                code,
                test: self,
            },
            elapsed,
            // Not `wait4`'s `ru_maxrss` for a child too quick to be polled: that counts the
            // pages it shared with this process between fork and exec, so a refusal of a few
            // milliseconds was charged the tables of the tests running beside it (150 MiB and
            // more with eight at a time).
            peak_kib: sampled.unwrap_or(0),
            killed,
        }
    }
}

impl Bounded {
    /// Fails unless the child ended by itself within its deadline and under `max_mib` MiB.
    #[track_caller]
    pub fn held(self, max_mib: i64) -> Run {
        assert!(
            !self.killed,
            "still running after {:?} (out of CPU or wall time)\nstderr:\n{}",
            self.elapsed, self.run.stderr
        );
        assert!(
            self.peak_kib < max_mib * 1024,
            "peak RSS {} MiB (limit {max_mib} MiB)\nstderr:\n{}",
            self.peak_kib / 1024,
            self.run.stderr
        );
        self.run.no_panic()
    }
}

/// The high-water resident size of `pid`'s image since it became marbles, in KiB, or `None`
/// before its exec (or once it has exited). `wait4`'s `ru_maxrss` cannot serve: it keeps the
/// resident size the child had as a fork of this process, and this process holds the tables
/// of whatever tests run in it at that moment, so a child that reads nothing was charged
/// 150 MiB when it was forked beside such a test. Polled, it may miss growth in the child's
/// last milliseconds; a search held to a limit stays near it far longer than that.
fn exec_high_water(pid: i32) -> Option<i64> {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    if exe != Path::new(env!("CARGO_BIN_EXE_marbles")) {
        return None;
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time (user and system, all threads) `pid` has used since it became marbles, or
/// `None` before its exec (or once it has exited).
fn cpu_time(pid: i32) -> Option<std::time::Duration> {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    if exe != Path::new(env!("CARGO_BIN_EXE_marbles")) {
        return None;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name in parentheses: state is field 3, utime and stime 14 and 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()?
        .max(1);
    Some(std::time::Duration::from_millis(ticks * 1000 / hz))
}

/// Lets `cmd`'s child write files of `bytes` at most (`RLIMIT_FSIZE`). A write past that
/// kills it (`SIGXFSZ`), as a crash mid-write would; with `fail_writes` the signal is ignored
/// and the write fails instead (`EFBIG`), as on a full disk.
pub fn limit_file_size(cmd: &mut Command, bytes: u64, fail_writes: bool) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit and signal are async-signal-safe; only this child's settings change.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            if fail_writes {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            Ok(())
        });
    }
}

/// Two folders of one quick puzzle each, `one/alpha.yaml` (puzzle Alpha) and `two/beta.yaml`
/// (Beta), made from `quick` (a puzzle named Quick), to batch one after the other into `rep`.
pub fn alpha_and_beta(quick: &str) -> Test {
    Test::new()
        .file("one/alpha.yaml", &quick.replace("Quick", "Alpha"))
        .file("two/beta.yaml", &quick.replace("Quick", "Beta"))
}

/// `marbles batch SET --report rep --quiet` in `t`'s folder; with `limit`, files are limited
/// as [`limit_file_size`] says (bytes, whether writes past it fail rather than kill).
pub fn batch_into_rep(t: &Test, set: &str, limit: Option<(u64, bool)>) -> std::process::Output {
    let mut cmd = t.command();
    cmd.args(["batch", set, "--report", "rep", "--quiet"]);
    if let Some((bytes, fail_writes)) = limit {
        limit_file_size(&mut cmd, bytes, fail_writes);
    }
    cmd.output().unwrap()
}

/// Runs `cmd`, sends it SIGINT (Ctrl-C) `after` it started, and waits for it, keeping
/// stdout and stderr.
pub fn interrupted(cmd: &mut Command, after: std::time::Duration) -> std::process::Output {
    signalled(cmd, after, libc::SIGINT)
}

/// [`interrupted`] by `signal`.
pub fn signalled(cmd: &mut Command, after: std::time::Duration, signal: i32) -> std::process::Output {
    let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(after);
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    // A child that ignores the signal fails the test instead of stalling it.
    let id = child.id() as i32;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = done.clone();
    std::thread::spawn(move || {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            if watch.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // SAFETY: killing our own child, which has not been reaped (`done` is unset).
        unsafe { libc::kill(id, libc::SIGKILL) };
    });
    let out = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(
        out.status.code().is_some(),
        "the child was ended by a signal: it did not handle Ctrl-C, or ignored it for 60 s and was killed"
    );
    out
}

/// The 41-hole diamond (a 9×9 square's cells at most 4 steps from the centre) full of pegs
/// but `vacant`, as the lines of a YAML block (each indented two spaces, `#` off the board).
/// With the top tip (0, 4) vacant, one peg anywhere is in the position class, and marbles
/// neither finds nor refutes it in 20 s of a release build (no game ends with one peg, as
/// `benches/diamond41_proof.py` proves in minutes): a search that only a limit ends.
pub fn diamond41_rows(vacant: (usize, usize)) -> String {
    let mut rows = String::new();
    for r in 0..9usize {
        let cells: Vec<&str> = (0..9usize)
            .map(|c| match (r.abs_diff(4) + c.abs_diff(4) <= 4, (r, c) == vacant) {
                (false, _) => "#",
                (true, true) => ".",
                (true, false) => "o",
            })
            .collect();
        rows += &format!("  {}\n", cells.join(" "));
    }
    rows
}

/// The puzzle [`diamond41_rows`] describes: the diamond from its top tip, down to one peg
/// anywhere, as a YAML file's text. A search only a limit or Ctrl-C ends.
pub fn diamond41_from_tip() -> String {
    format!(
        "rules: peg_hop\nboard: |\n{}goal:\n  pegs: 1\n",
        diamond41_rows((0, 4))
    )
}

/// Kills `child` with SIGKILL after a reproducible pause of `from` to `from + spread`
/// milliseconds (xorshift64 of `seed`, which it advances), and reaps it: a kill at a
/// random moment, as a power cut or the OOM killer would.
pub fn kill_after(mut child: std::process::Child, seed: &mut u64, from: u64, spread: u64) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    std::thread::sleep(std::time::Duration::from_millis(from + *seed % spread));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
}

/// `marbles solve` on a puzzle file written as `name`: its JSON answer (the run must succeed).
pub fn solved_json(name: &str, yaml: &str) -> serde_json::Value {
    let run = Test::new()
        .file(name, yaml)
        .args(["solve", name, "--format", "json"])
        .run();
    run.status(0).json()
}

/// `marbles solve` on a puzzle file written as `name`: its error output (the run must exit 2).
pub fn refusal(name: &str, yaml: &str) -> String {
    Test::new()
        .file(name, yaml)
        .args(["solve", name])
        .run()
        .status(2)
        .stderr
}

/// A wall between two side-by-side squares, `(row, col)` each.
pub type Wall = ((i64, i64), (i64, i64));

/// What a rolling marble does on a cell it enters: rolls on, leaves the board (into its hole
/// or an exit), or loses the game.
pub enum Enter {
    Roll,
    Leave,
    Lose,
}

/// Tilts an `n`×`n` box by `d`, simulated independently of marbles: marbles nearest that side
/// first, each rolling until the edge, a wall or another marble; `enter(k, cell, pos)` says
/// what marble k does on each cell it enters. `false` when a marble loses the game.
pub fn tilt_box(
    n: i64,
    walls: &[Wall],
    pos: &mut [Option<(i64, i64)>],
    d: (i64, i64),
    mut enter: impl FnMut(usize, (i64, i64), &[Option<(i64, i64)>]) -> Enter,
) -> bool {
    let blocked = |a, b| walls.contains(&(a, b)) || walls.contains(&(b, a));
    let mut order: Vec<usize> = (0..pos.len()).filter(|&k| pos[k].is_some()).collect();
    order.sort_by_key(|&k| {
        let p = pos[k].unwrap();
        -(p.0 * d.0 + p.1 * d.1)
    });
    for k in order {
        let mut p = pos[k].unwrap();
        loop {
            let q = (p.0 + d.0, p.1 + d.1);
            let off = !(0..n).contains(&q.0) || !(0..n).contains(&q.1);
            if off || blocked(p, q) || pos.contains(&Some(q)) {
                pos[k] = Some(p);
                break;
            }
            p = q;
            match enter(k, p, pos) {
                Enter::Roll => {}
                Enter::Leave => {
                    pos[k] = None;
                    break;
                }
                Enter::Lose => return false,
            }
        }
    }
    true
}

/// A tilt board with exits as the tests see it, simulated independently of marbles: a
/// `size`×`size` box, walls between side-by-side cells, exit cells, and each marble's kind
/// (`true` a blocker, `false` a slider).
pub struct ExitBoard {
    pub size: i64,
    pub walls: Vec<Wall>,
    pub exits: Vec<(i64, i64)>,
    pub blockers: Vec<bool>,
}

/// Marble positions on an [`ExitBoard`]: `None` once a slider has left.
pub type ExitState = Vec<Option<(i64, i64)>>;

impl ExitBoard {
    /// The step of a direction name.
    pub fn step(name: &str) -> (i64, i64) {
        match name {
            "up" => (-1, 0),
            "down" => (1, 0),
            "left" => (0, -1),
            "right" => (0, 1),
            other => panic!("unknown direction {other}"),
        }
    }

    /// The state after tilting by `d`, or `None` if a blocker would fall into an exit.
    pub fn tilt(&self, pos: &ExitState, d: (i64, i64)) -> Option<ExitState> {
        let mut pos = pos.clone();
        let enter = |k: usize, p, _: &[Option<(i64, i64)>]| match self.exits.contains(&p) {
            false => Enter::Roll,
            true if self.blockers[k] => Enter::Lose,
            true => Enter::Leave,
        };
        tilt_box(self.size, &self.walls, &mut pos, d, enter).then_some(pos)
    }

    /// Whether every slider has left.
    pub fn won(&self, pos: &ExitState) -> bool {
        pos.iter().zip(&self.blockers).all(|(p, &b)| b || p.is_none())
    }

    /// The fewest tilts (up, down, left, right) that win from `start`, by plain breadth-first
    /// search over every position reachable; `None` if none wins.
    pub fn fewest(&self, start: &ExitState) -> Option<usize> {
        let mut seen = std::collections::HashSet::from([start.clone()]);
        let mut layer = vec![start.clone()];
        for depth in 0.. {
            if layer.iter().any(|s| self.won(s)) {
                return Some(depth);
            }
            if layer.is_empty() {
                return None;
            }
            let mut next = Vec::new();
            for s in &layer {
                for d in ["up", "down", "left", "right"] {
                    if let Some(t) = self.tilt(s, Self::step(d))
                        && seen.insert(t.clone())
                    {
                        next.push(t);
                    }
                }
            }
            layer = next;
        }
        unreachable!()
    }
}

/// `count` random 5×5 peg boards, as drawn (rows of `o` and `.`, each ending in a newline):
/// each hole empty with chance 1/3, from an xorshift generator started at `seed`.
pub fn random_5x5_boards(count: usize, mut seed: u64) -> Vec<String> {
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count)
        .map(|_| {
            (0..5)
                .map(|_| {
                    let row: Vec<&str> = (0..5)
                        .map(|_| if random() % 3 == 0 { "." } else { "o" })
                        .collect();
                    row.join(" ") + "\n"
                })
                .collect()
        })
        .collect()
}

/// An answer's line in its JSON: `jumps` on a hop board, `moves` for tilts and rewrites.
pub fn line(o: &serde_json::Value) -> &serde_json::Value {
    o.get("jumps").unwrap_or(&o["moves"])
}

/// Checks a fewest-moves search stopped by `stop` (`node limit (1000 nodes)`) with a line to one
/// peg or piece, where `fewest` moves are the fewest: its floor at most that, its line at
/// least, and the reason saying both.
#[track_caller]
pub fn stopped_with_a_line(v: &serde_json::Value, stop: &str, fewest: u64) {
    let (best, least) = (
        v["move_count"].as_u64().unwrap(),
        v["moves_floor"].as_u64().unwrap(),
    );
    assert!(least <= fewest && best >= fewest, "{v}");
    assert_eq!(v["pegs_left"], 1, "{v}");
    assert_eq!(
        v["reason"],
        format!("{stop}; best found so far {best} moves, at least {least}"),
        "{v}"
    );
}

/// What a fewest-moves search stopped before any line says of its floor:
/// `no line found yet, at least 7 moves` (`1 move`).
pub fn no_line_yet(least: u64) -> String {
    format!(
        "no line found yet, at least {least} move{}",
        if least == 1 { "" } else { "s" }
    )
}

/// A record's line sealed again after an edit, as the batch seals it: the first 16 bytes of
/// the SHA-256 of the line without its seal field, in hex.
pub fn resealed(line: &str) -> String {
    use sha2::Digest as _;
    const SEAL: &str = ",\"seal\":\"";
    let head = line.find(SEAL).expect("a sealed record");
    let rest = &line[head + SEAL.len() + 33..];
    let digest = sha2::Sha256::new()
        .chain_update(&line[..head])
        .chain_update(rest)
        .finalize();
    format!("{}{SEAL}{}\"{rest}", &line[..head], hex::encode(&digest[..16]))
}
