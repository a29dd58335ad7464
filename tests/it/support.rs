//! A small fluent helper so integration tests read like specifications:
//! `Test::new().file("a.yaml", ..).args(["solve", "a.yaml"]).run().status(0)`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The crate root, where `puzzles/` and `rules/` live.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub struct Test {
    dir: tempfile::TempDir,
    args: Vec<String>,
    /// Where marbles runs, if not in the test's own folder.
    cwd: Option<PathBuf>,
    stdin: Option<String>,
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
    pub fn stdin(mut self, input: &str) -> Self {
        self.stdin = Some(input.to_string());
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
                    .write_all(input.as_bytes())
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
