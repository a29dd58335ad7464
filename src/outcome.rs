//! What solving one puzzle produced: the verdict, the moves, the boards, the numbers.

use crate::script::Layout;
use crate::search::GaveUp;
use crate::spec::Cell;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    Unsolvable,
    GaveUp,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::GaveUp => "gave_up",
            Status::Error => "error",
        }
    }
}

/// Why a case of a file cut by Ctrl-C (or SIGTERM, SIGHUP) has no answer.
fn not_started_why() -> String {
    format!(
        "interrupted ({}) before its search began",
        crate::process::stopped_by()
    )
}

/// One move as users and reports see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveOut {
    Hop {
        from: Cell,
        over: Over,
        to: Cell,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dir: Option<String>,
    },
    Tilt {
        tilt: String,
    },
    /// A rewrite: a piece of kind `piece` (its letter) goes from `from` to `to`, taking the
    /// pieces on `takes`.
    Step {
        piece: String,
        from: Cell,
        to: Cell,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        takes: Vec<Cell>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dir: Option<String>,
        /// For a move that is not one piece going somewhere (two pieces moving, a piece
        /// changing kind, one appearing): every cell it changes.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        changes: Vec<Change>,
    },
}

/// An answer's line. On a hop board it is written `jumps` (each entry one peg's jump; a move
/// is a chain of them), elsewhere `moves` (each entry a tilt or a rewrite), so that no word
/// means two things; either name is read back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Line {
    /// Whether the entries are jumps of a hop board.
    pub hop: bool,
    pub steps: Vec<MoveOut>,
}

impl Line {
    /// A hop board's jumps.
    pub fn jumps(steps: Vec<MoveOut>) -> Self {
        Line { hop: true, steps }
    }

    /// Tilts or rewrites.
    pub fn moves(steps: Vec<MoveOut>) -> Self {
        Line { hop: false, steps }
    }

    /// The moves of a hop board's jumps: each run of jumps in which a peg goes on from where
    /// it landed is one move.
    pub fn chain_count(&self) -> usize {
        self.chains().len()
    }

    /// Hops grouped into moves, each one peg's chain of jumps: the index of its first hop and
    /// the cells its peg visits.
    pub fn chains(&self) -> Vec<(usize, Vec<Cell>)> {
        let mut out: Vec<(usize, Vec<Cell>)> = Vec::new();
        for (i, m) in self.steps.iter().enumerate() {
            let MoveOut::Hop { from, to, .. } = m else {
                continue;
            };
            match out.last_mut() {
                Some((_, cells)) if cells.last() == Some(from) => cells.push(*to),
                _ => out.push((i, vec![*from, *to])),
            }
        }
        out
    }

    fn key(&self) -> &'static str {
        if self.hop { "jumps" } else { "moves" }
    }
}

impl std::ops::Deref for Line {
    type Target = Vec<MoveOut>;
    fn deref(&self) -> &Vec<MoveOut> {
        &self.steps
    }
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.key(), &self.steps)?;
        m.end()
    }
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Either {
            #[serde(default)]
            jumps: Option<Vec<MoveOut>>,
            #[serde(default)]
            moves: Option<Vec<MoveOut>>,
        }
        let e = Either::deserialize(d)?;
        Ok(match (e.jumps, e.moves) {
            (Some(steps), _) => Line::jumps(steps),
            // Records written before jumps had their own name held them under `moves`.
            (None, steps) => {
                let steps = steps.unwrap_or_default();
                let hop = steps.iter().any(|m| matches!(m, MoveOut::Hop { .. }));
                Line { hop, steps }
            }
        })
    }
}

/// A cell a rewrite changes: what it held and holds after (`.` or a kind's letter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub at: Cell,
    pub was: String,
    pub becomes: String,
}

/// The cell jumped over, or the cells, for families whose hops cross several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Over {
    One(Cell),
    Many(Vec<Cell>),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Moves tried (hop) or positions expanded (tilt).
    pub nodes: u64,
    pub seconds: f64,
    /// Peak size of the search's tables, estimated; for a search stopped by a limit, the
    /// largest figure its budget checks passed (never 0 for one that gave up on memory).
    #[serde(default)]
    pub memory_bytes: u64,
}

/// Everything needed to draw the puzzle and step through its solution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Replay {
    Hop {
        layout: Layout,
        /// Tokens per row of the board text (holes and `#` alike).
        widths: Vec<usize>,
        /// The holes, in cell-index order.
        cells: Vec<Cell>,
        /// Where each hole is pictured, `[x, y]` in half steps across and rows down (see
        /// `model::Geometry`); empty in records written before positions were kept.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pictured: Vec<[i64; 2]>,
        /// Where each `#` within the holes' span is pictured, the same way.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        blocked: Vec<[i64; 2]>,
        /// One string per position, start first: `1` where cell i holds a peg, else `0`; on a
        /// board of pieces of kinds, the letter of the kind there, else `0`.
        frames: Vec<String>,
        /// The walls on edges between side-by-side squares (`walls:` of a square board).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        walls: Vec<[Cell; 2]>,
        /// The squares a goal names for a piece to reach (a sliding robot's target).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<Cell>,
    },
    Tilt {
        size: usize,
        walls: Vec<[Cell; 2]>,
        holes: Vec<Cell>,
        /// Exit holes, where sliders leave the board (none on a numbered board).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        exits: Vec<Cell>,
        /// On a board with exits, each marble's kind: `s` a slider, `b` a blocker (empty when
        /// every marble is numbered).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pieces: String,
        /// One list per position, start first: marble k's cell, or null once it is in its hole
        /// (or has left by an exit).
        frames: Vec<Vec<Option<Cell>>>,
    },
}

impl Replay {
    /// Whether it can be drawn beside a line of `steps` moves: a board for the start and one
    /// after each move, each the size of the board, on a board no larger than a puzzle may
    /// have. A record read back that fails this was changed after marbles wrote it.
    pub fn fits(&self, steps: usize) -> bool {
        match self {
            Replay::Hop {
                widths,
                cells,
                pictured,
                frames,
                ..
            } => {
                let tokens = widths.iter().try_fold(0usize, |n, &w| n.checked_add(w));
                frames.len() == steps + 1
                    && cells.len() <= crate::limits::MAX_DRAWN_CELLS
                    && (pictured.is_empty() || pictured.len() == cells.len())
                    && tokens.is_some_and(|n| n as u64 <= crate::spec::MAX_SPEC_BYTES)
                    && frames.iter().all(|f| f.len() == cells.len())
            }
            Replay::Tilt {
                size, holes, frames, ..
            } => {
                frames.len() == steps + 1
                    && *size <= crate::limits::MAX_TILT_SIZE
                    && frames
                        .iter()
                        .all(|f| f.len() == frames[0].len() && f.len() >= holes.len())
            }
        }
    }
}

/// The result for one puzzle file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub file: String,
    pub puzzle: String,
    pub rules: String,
    /// The rule script used: its path, or `<builtin>/NAME.rhai`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    pub status: Status,
    /// Why it is unsolvable or why the search gave up, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The answer's line: its jumps (hop families, JSON `jumps`) or its moves (tilts and
    /// rewrites, JSON `moves`).
    #[serde(flatten)]
    pub moves: Line,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pegs_left: Option<u32>,
    /// For a `pegs: fewest` search that gave up: the fewest pegs it proved possible at best
    /// (`pegs_left` is the best it found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pegs_floor: Option<u32>,
    /// For a fewest-moves search, the fewest moves it proved needed: solved, its answer's
    /// `move_count` (proven the fewest); given up, its floor (`move_count` is then its best
    /// line's, absent when it found none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_floor: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub stats: Stats,
    /// For `gave_up`: the limits in force, so `--resume` retries it when they change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<String>,
    /// SHA-256 of the spec file and of its rule script, so reruns can skip unchanged puzzles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script_hash: Option<String>,
    /// Everything besides the files that shapes the answer (goal in force, move order,
    /// limits), in words: `--resume` reuses a result only when they are the same now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
    /// For `gave_up`, the typed reason (`reason` holds its words). Not saved: an interrupted
    /// search is never recorded, and every other reason is kept in words.
    #[serde(skip)]
    pub gave_up: Option<GaveUp>,
    /// An error found after every case of its file was read, holding no case's place (see
    /// [`crate::diag::Diagnostic::after_the_cases`]). Not saved.
    #[serde(skip)]
    pub after_the_cases: bool,
    /// A case of a file Ctrl-C cut before this case's search began: reported, never saved.
    #[serde(skip)]
    pub not_started: bool,
    /// The moves the line makes: on a hop board each move is one peg's chain of jumps, the
    /// literature's count (English central: 18 moves, 31 jumps); a tilt or a rewrite is a move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_count: Option<u32>,
    /// On a hop board, the jumps the line makes (the length of `jumps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_count: Option<u32>,
    /// For a `goal: board:`, the goal in words: `the goal board: 2 pegs at [0, 1], [2, 2]`;
    /// for a `goal: reach:`, `reach [0, 5]: a peg there, however many are left`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// The file's `expect:`, in words (`unsolvable`, `solved: 13 moves, 1 peg`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
    /// Whether the answer meets [`Outcome::expect`] (none without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub met: Option<bool>,
}

impl Outcome {
    /// The moves an answer makes: chains of one peg's jumps on a hop board, else each tilt
    /// or rewrite.
    pub fn moves_made(&self) -> usize {
        match self.move_count {
            Some(n) => n as usize,
            None if self.moves.hop => self.moves.chain_count(),
            None => self.moves.len(),
        }
    }

    /// The jumps an answer makes, on a hop board (none elsewhere).
    pub fn jumps_made(&self) -> Option<usize> {
        self.jump_count.map(|n| n as usize)
    }

    /// Checks the answer against `expect`, the file's `expect:`, if it has one; with none, it
    /// holds no expectation (whatever a record read back said).
    pub fn judge(&mut self, expect: Option<crate::spec::Expect>) {
        (self.expect, self.met) = (None, None);
        let Some(e) = expect else { return };
        self.expect = Some(e.words());
        self.met = Some(crate::spec::expect::met(
            e,
            self.status == Status::Solved,
            self.status == Status::Unsolvable,
            self.moves_made(),
            self.jumps_made(),
            self.pegs_left,
        ));
    }

    /// Whether it passes as a test: it meets its expectation, or, with none, it is solved.
    pub fn passed(&self) -> bool {
        self.met.unwrap_or(self.status == Status::Solved)
    }

    /// The answer in the words of an expectation, for the reports beside what was expected:
    /// `solved: 13 moves, 1 peg`, `unsolvable`, `gave up`, `error`.
    pub fn actual(&self) -> String {
        match self.status {
            Status::Solved => crate::spec::Expect::Solved {
                moves: Some(self.moves_made() as u32),
                jumps: self.jump_count,
                pegs: self.pegs_left,
                // In the words of the expectation it is set beside: tilts for `tilts:`.
                tilts: self.expect.as_deref().is_some_and(|e| e.contains(" tilt")),
            }
            .words(),
            Status::GaveUp => "gave up".into(),
            s => s.as_str().into(),
        }
    }

    /// An unmet expectation in words: `expected solved, got gave up: node limit (0 nodes)`,
    /// what was expected, what came, and the error or the reason, if any (not the rating,
    /// which has its own column).
    pub fn unmet(&self) -> String {
        let why = self.error.as_deref().or(self.reason.as_deref());
        format!(
            "expected {}, got {}{}{}",
            self.expect.as_deref().unwrap_or_default(),
            self.actual(),
            self.order_hint(),
            why.map(|w| format!(": {w}")).unwrap_or_default()
        )
    }

    /// What to add where an expectation of moves is not met by the first solution a search
    /// found (not the fewest, `moves_floor` unset): its moves follow the search order, so an
    /// expectation of the fewest, or of one order's answer, fails by order alone.
    pub fn order_hint(&self) -> &'static str {
        let moves_stated = self.expect.as_deref().is_some_and(|e| e.contains(" move"));
        match self.met == Some(false)
            && self.status == Status::Solved
            && self.moves_floor.is_none()
            && moves_stated
        {
            true => {
                " (the first solution found, its moves as the search order made them: `goal: moves: \
                 fewest` or --fewest-moves expects the fewest)"
            }
            false => "",
        }
    }

    /// The outcome for a puzzle stopped before its search by `d`: an error, or, where a limit
    /// of the run's stopped it, a give-up.
    pub fn failed(file: &str, d: &crate::diag::Diagnostic) -> Self {
        let mut o = Outcome::error(file, d.to_string());
        o.after_the_cases = d.after_the_cases;
        if let Some(p) = &d.puzzle {
            o.puzzle = p.name.clone();
            if let Some((rules, script)) = &p.rules {
                o.rules = rules.clone();
                o.script = Some(script.clone());
            }
        }
        if let Some(why) = &d.gave_up {
            // Stopped in its rule script (`d.file`), whose name is the family's.
            o.status = Status::GaveUp;
            o.error = None;
            o.reason = Some(d.message.clone());
            o.gave_up = Some(why.as_ref().clone());
            o.script = Some(d.file.display().to_string());
            o.rules = d
                .file
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            if let Some(p) = &d.puzzle {
                o.judge(p.expect);
            }
        }
        o
    }

    /// The outcome for the case `spec` of a file Ctrl-C cut before its search began: given
    /// up, interrupted, named and judged as its search's would be.
    pub fn not_started(file: &str, spec: &crate::spec::Spec) -> Self {
        let d = crate::diag::Diagnostic::new(&spec.path, not_started_why())
            .gave_up(GaveUp::Interrupted)
            .stopping(spec);
        let mut o = Outcome::failed(file, &d);
        o.rules.clone_from(&spec.rules);
        o.script = None;
        o.not_started = true;
        o
    }

    /// The outcome for a puzzle that could not be read, compiled or solved.
    pub fn error(file: &str, message: String) -> Self {
        Outcome {
            file: file.to_string(),
            puzzle: std::path::Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            rules: String::new(),
            script: None,
            status: Status::Error,
            reason: None,
            moves: Line::default(),
            pegs_left: None,
            pegs_floor: None,
            moves_floor: None,
            rating: None,
            error: Some(message),
            stats: Stats::default(),
            limits: None,
            spec_hash: None,
            script_hash: None,
            settings: None,
            replay: None,
            gave_up: None,
            after_the_cases: false,
            not_started: false,
            move_count: None,
            jump_count: None,
            goal: None,
            expect: None,
            met: None,
        }
    }
}
