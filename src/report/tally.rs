//! What a batch's reports need of its results, gathered as they stream past: bounded memory, whatever the count.
//!
//! A batch of a million puzzles cannot hold a million outcomes (each carries its moves and
//! boards). [`Tally`] keeps counts by family and status, histograms of time and nodes, the
//! slowest and the failed puzzles (a few of each, in brief), and a sample of whole outcomes
//! (the first by path) to draw. While a batch stays small ([`SMALL_BATCH`] results) it also
//! keeps every outcome, and the reports list every puzzle as they always did; past that they
//! summarise (see [`super::Format::summarise`]), and every result is in `results.jsonl`.

use super::{Totals, note};
use crate::outcome::{Outcome, Status};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Results a batch may have and still report every puzzle in full.
pub const SMALL_BATCH: usize = 2_000;
/// What the outcomes a batch reports in full may hold, as [`held_bytes`] counts them: past it
/// the reports summarise, as past [`SMALL_BATCH`] results (2,000 answers on a 4,096-square
/// board held 2.65 GiB and wrote a `summary.json` of 1.6 GB).
pub const SMALL_BATCH_BYTES: u64 = 64 << 20;
/// The slowest puzzles, and the failed ones, a summary lists.
pub const LISTED: usize = 20;
/// Failed puzzles a summary lists by name (all are counted).
pub const FAILED_LISTED: usize = 100;
/// Whole outcomes a summary draws.
pub const SAMPLE: usize = 12;
/// Histogram bins: powers of ten from 10 µs (time) or 10 nodes, the last open-ended.
pub const BINS: usize = 9;

/// A result in brief, for the lists of a summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Brief {
    pub file: String,
    pub puzzle: String,
    pub rules: String,
    pub status: Status,
    pub nodes: u64,
    pub seconds: f64,
    pub note: String,
    /// Its search was stopped by Ctrl-C, or kept from starting (`not_started`).
    #[serde(skip)]
    pub interrupted: bool,
    #[serde(skip)]
    pub not_started: bool,
    /// Where it stands among the batch's results: its file's place in path order, and its
    /// case in that file (from 1).
    #[serde(skip)]
    pub place: Place,
}

/// Results of one family with one status.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Group {
    pub family: String,
    pub status: Option<Status>,
    pub puzzles: u64,
    pub seconds: f64,
    pub nodes: u64,
    pub max_seconds: f64,
}

/// `f64` seconds ordered for the heap of the slowest (they are never NaN).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Secs(f64);
impl Eq for Secs {}
impl PartialOrd for Secs {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Secs {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Where a result stands: its file's place in path order, its case in that file.
type Place = (usize, usize);
/// The slowest kept: a least-first heap on seconds (ties: the later place first out).
type Slowest = BinaryHeap<Reverse<Keyed<(Secs, Reverse<Place>), Brief>>>;

/// An item of a bounded heap, ordered by its key alone.
#[derive(Debug)]
struct Keyed<K, V>(K, V);
impl<K: PartialEq, V> PartialEq for Keyed<K, V> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<K: Eq, V> Eq for Keyed<K, V> {}
impl<K: Ord, V> PartialOrd for Keyed<K, V> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<K: Ord, V> Ord for Keyed<K, V> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.cmp(&o.0)
    }
}

/// Pushes onto a max-heap of at most `cap` items, dropping the greatest.
fn keep_least<T: Ord>(heap: &mut BinaryHeap<T>, item: T, cap: usize) {
    if heap.len() < cap {
        heap.push(item);
    } else if heap.peek().is_some_and(|top| item < *top) {
        heap.pop();
        heap.push(item);
    }
}

/// The gathering itself; see the module notes.
#[derive(Debug, Default)]
pub struct Tally {
    pub totals: Totals,
    pub nodes: u64,
    groups: BTreeMap<(String, &'static str), Group>,
    time_bins: [u64; BINS],
    node_bins: [u64; BINS],
    slowest: Slowest,
    /// Errors first, then the rest that did not pass (given up, not as expected, unsolvable
    /// stating no `expect:`), each in path order.
    failed: BinaryHeap<Keyed<(bool, bool, bool, Place), Brief>>,
    sample: BinaryHeap<Keyed<Place, Outcome>>,
    /// Every outcome, by place, while there are at most [`SMALL_BATCH`] holding at most
    /// [`SMALL_BATCH_BYTES`].
    every: Option<Vec<(Place, Outcome)>>,
    every_bytes: u64,
}

/// About what an outcome holds: its moves, and its boards a cell a byte (a tilt board's
/// marbles 16 bytes each) with the board's shape three times over (its cells, where each is
/// drawn, its `#`).
pub fn held_bytes(o: &Outcome) -> u64 {
    let boards = match &o.replay {
        Some(crate::outcome::Replay::Hop { frames, cells, .. }) => {
            frames.iter().map(|f| f.len() as u64).sum::<u64>() + 48 * cells.len() as u64
        }
        Some(crate::outcome::Replay::Tilt { frames, .. }) => {
            frames.iter().map(|f| 16 * f.len() as u64).sum::<u64>()
        }
        None => 0,
    };
    1024 + 128 * o.moves.steps.len() as u64 + boards
}

/// The bin of `x` among powers of ten from `first`.
fn bin(x: f64, first: f64) -> usize {
    let mut edge = first;
    for b in 0..BINS - 1 {
        if x < edge {
            return b;
        }
        edge *= 10.0;
    }
    BINS - 1
}

impl Tally {
    pub fn new() -> Self {
        Tally {
            every: Some(Vec::new()),
            ..Tally::default()
        }
    }

    /// Results counted so far.
    pub fn count(&self) -> usize {
        self.totals.solved + self.totals.unsolvable + self.totals.gave_up + self.totals.errors
    }

    /// Counts `o`, the `case`-th result (from 1) of the `index`-th file in path order.
    pub fn add(&mut self, index: usize, case: usize, o: Outcome) {
        let place = (index, case);
        self.totals.add(&o);
        self.nodes += o.stats.nodes;
        let g = self
            .groups
            .entry((o.rules.clone(), o.status.as_str()))
            .or_insert_with(|| Group {
                family: o.rules.clone(),
                status: Some(o.status),
                ..Group::default()
            });
        g.puzzles += 1;
        g.seconds += o.stats.seconds;
        g.nodes += o.stats.nodes;
        g.max_seconds = g.max_seconds.max(o.stats.seconds);
        self.time_bins[bin(o.stats.seconds, 1e-5)] += 1;
        self.node_bins[bin(o.stats.nodes as f64, 10.0)] += 1;
        let brief = || Brief {
            file: o.file.clone(),
            puzzle: o.puzzle.clone(),
            rules: o.rules.clone(),
            status: o.status,
            nodes: o.stats.nodes,
            seconds: o.stats.seconds,
            note: note(&o),
            interrupted: super::interrupted(&o),
            not_started: o.not_started,
            place,
        };
        let key = (Secs(o.stats.seconds), Reverse(place));
        if self.slowest.len() < LISTED || self.slowest.peek().is_some_and(|Reverse(top)| key > top.0) {
            keep_least(&mut self.slowest, Reverse(Keyed(key, brief())), LISTED);
        }
        // Errors first, then the searches Ctrl-C cut, then the cases it kept from starting.
        let failed = (
            o.status != Status::Error,
            !super::interrupted(&o),
            o.not_started,
            place,
        );
        if !o.passed()
            && (self.failed.len() < FAILED_LISTED || self.failed.peek().is_some_and(|top| failed < top.0))
        {
            keep_least(&mut self.failed, Keyed(failed, brief()), FAILED_LISTED);
        }
        if self.sample.len() < SAMPLE || self.sample.peek().is_some_and(|top| place < top.0) {
            keep_least(&mut self.sample, Keyed(place, o.clone()), SAMPLE);
        }
        if let Some(every) = &mut self.every {
            self.every_bytes += held_bytes(&o);
            if every.len() < SMALL_BATCH && self.every_bytes <= SMALL_BATCH_BYTES {
                every.push((place, o));
            } else {
                self.every = None;
            }
        }
    }

    /// What the reports are written from.
    pub fn finish(self) -> Finished {
        let ordered = |mut v: Vec<(Place, Outcome)>| {
            v.sort_by_key(|(place, _)| *place);
            v.into_iter().map(|(_, o)| o).collect::<Vec<_>>()
        };
        let mut slowest: Vec<Brief> = self.slowest.into_iter().map(|Reverse(k)| k.1).collect();
        slowest.sort_by(|a, b| b.seconds.total_cmp(&a.seconds).then(a.place.cmp(&b.place)));
        let mut failed: Vec<Keyed<(bool, bool, bool, Place), Brief>> = self.failed.into_vec();
        failed.sort_by_key(|k| k.0);
        let failed = failed.into_iter().map(|k| k.1).collect();
        Finished {
            totals: self.totals,
            nodes: self.nodes,
            groups: self.groups.into_values().collect(),
            time_bins: self.time_bins,
            node_bins: self.node_bins,
            slowest,
            failed,
            sample: ordered(self.sample.into_iter().map(|k| (k.0, k.1)).collect()),
            every: self.every.map(ordered),
            listed: true,
            not_run: Vec::new(),
            stopped: None,
        }
    }
}

/// A batch's results as the reports need them.
#[derive(Debug, Clone, Serialize)]
pub struct Finished {
    pub totals: Totals,
    pub nodes: u64,
    /// By family, then status.
    pub groups: Vec<Group>,
    /// Results taking under 10 µs, 100 µs, …, 1,000 s, and more.
    pub time_bins: [u64; BINS],
    /// Results of under 10 nodes, 100, …, 10^8, and more.
    pub node_bins: [u64; BINS],
    /// The slowest [`LISTED`], slowest first.
    pub slowest: Vec<Brief>,
    /// The first [`FAILED_LISTED`] errors, then searches Ctrl-C stopped, then the others that
    /// did not pass, each in path order.
    pub failed: Vec<Brief>,
    /// The first [`SAMPLE`] results in path order, whole.
    #[serde(skip)]
    pub sample: Vec<Outcome>,
    /// Every result in path order, for a batch of at most [`SMALL_BATCH`].
    #[serde(skip)]
    pub every: Option<Vec<Outcome>>,
    /// Whether every result is written to `results.jsonl` (a batch with a report folder).
    #[serde(skip)]
    pub listed: bool,
    /// The puzzle files a run that stopped short did not reach, in path order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
    /// Why the run stopped short, in words, when it did: `interrupted (Ctrl-C)`, or
    /// `--fail-fast: stopped at FILE: PUZZLE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

impl Finished {
    /// The results, whole, of a batch small enough to list them.
    pub fn of(outcomes: Vec<Outcome>) -> Self {
        let mut t = Tally::new();
        for (i, o) in outcomes.into_iter().enumerate() {
            t.add(i, 1, o);
        }
        t.finish()
    }

    pub fn count(&self) -> usize {
        let t = &self.totals;
        t.solved + t.unsolvable + t.gave_up + t.errors
    }

    /// The upper edge of time bin `b`, in words: `10µs` … `1000s`, `more`.
    pub fn time_edge(b: usize) -> String {
        if b + 1 == BINS {
            return "more".into();
        }
        let secs = 1e-5 * 10f64.powi(b as i32);
        match secs {
            s if s < 1e-3 => format!("< {:.0}µs", s * 1e6),
            s if s < 1.0 => format!("< {:.0}ms", s * 1e3),
            s => format!("< {s:.0}s"),
        }
    }

    /// The upper edge of node bin `b`, in words: `< 10`, `< 100`, …, `more`.
    pub fn node_edge(b: usize) -> String {
        if b + 1 == BINS {
            return "more".into();
        }
        format!("< {}", super::thousands(10u64.pow(b as u32 + 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::GaveUp;

    /// A search Ctrl-C stopped, in the file at `index`.
    fn cut(index: usize) -> Outcome {
        let mut o = Outcome::error("cut.matrix", String::new());
        o.status = Status::GaveUp;
        o.error = None;
        o.gave_up = Some(GaveUp::Interrupted);
        o.puzzle = format!("cut {index}");
        o
    }

    #[test]
    fn searches_ctrl_c_cut_are_listed_before_the_cases_it_kept_from_starting() {
        let spec = crate::spec::parse(
            std::path::Path::new("m.yaml"),
            "rules: peg_hop\nboard: |\n  o o .\n",
        )
        .unwrap();
        let mut t = Tally::new();
        // A file cut at its first case, with more cases never started than the list holds,
        // then another cut in a later file.
        t.add(0, 1, cut(0));
        for case in 2..FAILED_LISTED + 10 {
            t.add(0, case, Outcome::not_started("m.matrix", &spec));
        }
        t.add(1, 1, cut(1));
        let failed: Vec<String> = t.finish().failed.into_iter().map(|b| b.puzzle).collect();
        assert_eq!(failed.len(), FAILED_LISTED);
        assert_eq!(failed[..2], ["cut 0", "cut 1"]);
    }

    /// A few results with big boards are reported summarised, as many results are: a batch
    /// keeps every outcome whole only while they hold at most `SMALL_BATCH_BYTES`.
    #[test]
    fn results_holding_too_much_are_summarised_however_few() {
        // Boards of 1 MiB each, 33 a result: two results pass 64 MiB, one does not.
        let big = |k: usize| {
            let mut o = Outcome::error("big.yaml", String::new());
            o.puzzle = format!("big {k}");
            o.replay = Some(crate::outcome::Replay::Hop {
                layout: crate::script::Layout::Square,
                widths: Vec::new(),
                cells: Vec::new(),
                pictured: Vec::new(),
                blocked: Vec::new(),
                frames: vec!["0".repeat(1 << 20); 33],
                walls: Vec::new(),
                targets: Vec::new(),
            });
            o
        };
        let mut t = Tally::new();
        t.add(0, 1, big(0));
        assert!(t.every.is_some(), "one result of 33 MiB is listed");
        t.add(1, 1, big(1));
        let done = t.finish();
        assert!(done.every.is_none(), "two of 33 MiB are not");
        assert_eq!(done.count(), 2);
        assert!(
            super::super::summarised_note(&done)
                .starts_with("2 results hold too much to list here (their moves and boards pass 64.0 MiB)"),
            "{}",
            super::super::summarised_note(&done)
        );
    }
}
