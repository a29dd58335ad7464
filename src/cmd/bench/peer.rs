//! Another solver timed beside a bench case: both run as whole child processes, taking
//! turns, each timed by its wall clock and sized by its peak resident memory (`wait4`'s
//! `ru_maxrss`), so the two rows of a pair are measured the same way in the same minutes.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// A solver we know how to run and read, and the bench case it is paired with.
pub struct Known {
    pub name: &'static str,
    /// Where it comes from and how to build it, for the row shown when it is not given.
    pub source: &'static str,
    /// The `asked` text of the case it is paired with.
    pub pairs_with: &'static str,
    /// What the row calls the work it does.
    pub asked: &'static str,
    /// The text in its output right before the number of solutions.
    pub answer_after: &'static str,
}

pub const KNOWN: [Known; 1] = [Known {
    name: "feschber",
    source: "git clone https://github.com/feschber/peg-solitaire && cargo build --release",
    pairs_with: "count, bidirectional (the default)",
    asked: "peer feschber/peg-solitaire: `unique-paths`",
    answer_after: "distinct move sequences:",
}];

/// A peer given on the command line as `NAME=PATH`.
#[derive(Debug, Clone)]
pub struct Given {
    pub name: String,
    /// The path made absolute: a bare name would otherwise be looked up on `PATH`.
    pub exe: PathBuf,
    /// `NAME=PATH` as given, for messages.
    pub text: String,
}

impl Given {
    /// Reads `NAME=PATH`, checking that the name is known and the file is there.
    pub fn parse(text: &str) -> Result<Self, String> {
        let names = || KNOWN.iter().map(|k| k.name).collect::<Vec<_>>().join(", ");
        let Some((name, path)) = text.split_once('=') else {
            return Err(format!(
                "--peer {text}: expected NAME=PATH (known peers: {})",
                names()
            ));
        };
        if !KNOWN.iter().any(|k| k.name == name) {
            return Err(format!(
                "--peer {text}: no peer called `{name}` (known peers: {})",
                names()
            ));
        }
        let exe = PathBuf::from(path);
        if !exe.is_file() {
            return Err(format!("--peer {text}: {path} is not a file"));
        }
        let exe = std::path::absolute(&exe).map_err(|e| format!("--peer {text}: {e}"))?;
        Ok(Given {
            name: name.to_string(),
            exe,
            text: text.to_string(),
        })
    }

    pub fn known(&self) -> &'static Known {
        KNOWN
            .iter()
            .find(|k| k.name == self.name)
            .expect("checked by parse")
    }

    /// The command for one run with `threads` worker threads (as many as ours use).
    pub fn command(&self, threads: usize) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.env("RUST_LOG", "info")
            .args(["--threads", &threads.to_string(), "unique-paths"]);
        cmd
    }

    /// The number of solutions its output gives, if it gives one.
    pub fn answer(&self, out: &Process) -> Option<String> {
        let after = self.known().answer_after;
        out.output
            .lines()
            .find_map(|l| l.split_once(after))
            .map(|(_, n)| n.trim().to_string())
    }
}

/// One finished child process: its wall time, peak memory, exit and everything it printed.
pub struct Process {
    pub seconds: f64,
    pub peak_bytes: u64,
    pub success: bool,
    pub code: Option<i32>,
    /// Its stdout and then its stderr.
    pub output: String,
}

/// Runs `cmd` to its end, timing it and reading its peak resident memory from `wait4`.
pub fn run(mut cmd: Command) -> std::io::Result<Process> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let t = Instant::now();
    let mut child = cmd.spawn()?;
    // Drain both pipes while it runs, so a chatty child never blocks on a full pipe.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut s);
            }
            s
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as _));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as _));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, which wait4 overwrites.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unreaped child; both pointers are to live locals.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = t.elapsed().as_secs_f64();
    if got != pid {
        return Err(std::io::Error::last_os_error());
    }
    let mut output = out.join().unwrap_or_default();
    output.extend(err.join().unwrap_or_default());
    let exited = libc::WIFEXITED(status);
    Ok(Process {
        seconds,
        // Linux gives kilobytes.
        peak_bytes: usage.ru_maxrss.max(0) as u64 * 1024,
        success: exited && libc::WEXITSTATUS(status) == 0,
        code: exited.then(|| libc::WEXITSTATUS(status)),
        output: String::from_utf8_lossy(&output).into_owned(),
    })
}

/// The row shown for a known peer that was not given: how to get it.
pub fn hint(k: &Known) -> String {
    format!(
        "not run: build it ({}), then pass --peer {}=PATH/target/release/peg-solitaire",
        k.source, k.name
    )
}
