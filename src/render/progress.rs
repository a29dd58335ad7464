//! Live progress for long single solves: nodes/s, depth and the fewest pegs seen, on stderr.
//!
//! Only drawn when stderr is a terminal (the caller decides), so piped output and reports
//! never see it. The line is redrawn in place at most a few times a second and erased at the
//! end; it costs one counter per node and a clock read every few thousand nodes.

use crate::search::dfs::Observer;
use std::io::Write;
use std::time::{Duration, Instant};

/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(250);
/// Nodes between clock reads.
const CHECK: u64 = 1 << 14;

/// An [`Observer`] that draws one status line on stderr.
pub struct Progress {
    started: Instant,
    last: Instant,
    nodes: u64,
    depth: usize,
    best: u32,
    /// Whether anything was drawn, so [`Progress::finish`] knows to erase it.
    drawn: bool,
    reversed: bool,
    restarts: u32,
    /// The goal's cells: a position counts for `best` only when it holds them.
    cells: u128,
}

impl Progress {
    /// `pegs`: the start's peg count, the best until something better is seen.
    pub fn new(pegs: u32) -> Self {
        let now = Instant::now();
        Progress {
            started: now,
            last: now,
            nodes: 0,
            depth: 0,
            best: pegs,
            drawn: false,
            reversed: false,
            restarts: 0,
            cells: 0,
        }
    }

    /// Counts only positions holding pegs on `cells` (the goal's) as the fewest so far: a
    /// position with fewer pegs elsewhere is no answer.
    pub fn holding(mut self, cells: u128) -> Self {
        self.cells = cells;
        self
    }

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK) && self.last.elapsed() >= EVERY {
            self.draw();
        }
    }

    fn draw(&mut self) {
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64();
        let line = format!(
            "\r\x1b[2K{:.1} s  {:.1} M nodes ({:.1} M/s)  depth {}  fewest pegs so far {}{}",
            secs,
            self.nodes as f64 / 1e6,
            self.nodes as f64 / 1e6 / secs.max(1e-9),
            self.depth,
            self.best,
            match (self.reversed, self.restarts) {
                (_, 0) => String::new(),
                (true, n) => format!("  (reversed problem, turn {})", n + 1),
                (false, n) => format!("  (forward problem, turn {})", n + 1),
            }
        );
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        self.drawn = true;
    }

    /// Erases the line.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(b"\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Observer for Progress {
    #[inline]
    fn advance(&mut self, depth: usize, _mv: usize, state: u128) {
        self.depth = depth;
        if state & self.cells == self.cells {
            self.best = self.best.min(state.count_ones());
        }
        self.tick();
    }
    #[inline]
    fn known_failure(&mut self, _depth: usize, _mv: usize, _state: u128) {
        self.tick();
    }
    #[inline]
    fn pruned(&mut self, _depth: usize, _mv: usize, _state: u128) {
        self.tick();
    }
    fn restart(&mut self, reversed: bool) {
        self.reversed = reversed;
        self.restarts += 1;
    }
}
