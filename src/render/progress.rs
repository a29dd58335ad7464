//! Live progress for long single solves: nodes/s, depth and the fewest pegs seen, on stderr.
//!
//! Only drawn when stderr is a terminal (the caller decides), so piped output and reports
//! never see it. The line is redrawn in place at most a few times a second and erased at the
//! end; it costs one counter per node and a clock read every few thousand nodes.

use crate::search::dfs::Observer;
use std::io::{IsTerminal, Write};
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

/// Whether progress is drawn: on a terminal, or anywhere when `MARBLES_PROGRESS=always`
/// (so that what it says can be tested through the binary).
pub fn shown() -> bool {
    forced() || std::io::stderr().is_terminal()
}

/// `MARBLES_PROGRESS=always`: progress and the batch's closing note on stderr even when piped
/// and however short the run.
pub fn forced() -> bool {
    std::env::var_os("MARBLES_PROGRESS").is_some_and(|v| v == "always")
}

/// What the running searches have done, in a few words: `2.4M nodes, 310.2 MiB, 12 s`.
pub fn live_line(nodes: u64, memory: u64, elapsed: Duration) -> String {
    format!(
        "{} nodes, {}, {}",
        compact(nodes),
        crate::process::human_bytes(memory),
        clock(elapsed)
    )
}

/// A count in at most five characters: `950`, `12.3k`, `4.5M`, `1.2G`.
pub fn compact(n: u64) -> String {
    let (v, unit) = match n {
        0..1_000 => return n.to_string(),
        1_000..1_000_000 => (n as f64 / 1e3, "k"),
        1_000_000..1_000_000_000 => (n as f64 / 1e6, "M"),
        _ => (n as f64 / 1e9, "G"),
    };
    format!("{v:.1}{unit}")
}

/// Elapsed time as people read it: `40 ms`, `2.4 s`, `12 s`, `3 min 05 s`, `1 h 02 min`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => format!("{} ms", d.as_millis()),
        1..10 => format!("{:.1} s", d.as_secs_f64()),
        10..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// A line on stderr redrawn four times a second from [`crate::search::live`] while one
/// search runs (`solve` of anything but a hop search, which has its own, and `count`); erased
/// when dropped.
pub struct Ticker {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    /// Starts the line, `what` leading it, if [`shown`].
    pub fn start(what: &'static str) -> Option<Ticker> {
        use std::sync::atomic::Ordering;
        if !shown() {
            return None;
        }
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = std::sync::Arc::clone(&stop);
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let mut drawn = false;
            while !seen.load(Ordering::Relaxed) {
                std::thread::park_timeout(EVERY);
                if seen.load(Ordering::Relaxed) {
                    break;
                }
                let (nodes, memory) = crate::search::live::total();
                let line = format!("{what}: {}", live_line(nodes, memory, started.elapsed()));
                let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{line}");
                drawn = true;
            }
            if drawn {
                let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
            }
        });
        Some(Ticker {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod live_tests {
    use super::*;

    #[test]
    fn the_live_line_says_nodes_memory_and_time_briefly() {
        assert_eq!(
            live_line(2_400_000, 310 << 20, Duration::from_secs(12)),
            "2.4M nodes, 310.0 MiB, 12 s"
        );
        assert_eq!(compact(950), "950");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(clock(Duration::from_millis(40)), "40 ms");
        assert_eq!(clock(Duration::from_millis(2400)), "2.4 s");
        assert_eq!(clock(Duration::from_secs(185)), "3 min 05 s");
        assert_eq!(clock(Duration::from_secs(3720)), "1 h 02 min");
    }
}
