//! The `board` value a rule script receives: the puzzle's cells and walls, read-only.

use crate::lattice::{self, Layout};
use crate::spec::{BoardSpec, GridBoard, TiltBoard, Token};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What a script may ask of the board. Cheap to clone: scripts pass it around freely.
#[derive(Debug, Clone)]
pub struct ScriptBoard(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    kind: &'static str,
    /// Cells that exist (hop: every token but `#`; tilt: every square), row-major.
    cells: Vec<[i64; 2]>,
    present: HashSet<[i64; 2]>,
    /// Where each cell is drawn: `[x, y]`, the character column of its token and its line.
    drawn: HashMap<[i64; 2], [i64; 2]>,
    /// The cell drawn at each position: `drawn` inverted.
    at: HashMap<[i64; 2], [i64; 2]>,
    walls: HashSet<([i64; 2], [i64; 2])>,
    rows: i64,
    cols: i64,
    /// The lattice `lattice(..)` placed this board on, if it did.
    placed: Option<Layout>,
    /// A drawing that fits no lattice the script asked for: kept outside the engine, shared
    /// by every board made from one, so a script that catches the error still fails.
    misfit: Arc<Mutex<Option<lattice::Misfit>>>,
    /// Whether the script asked about walls, shared the same way: a script that never does
    /// gives one table for every wall layout of a board's shape (see [`super::cache`]).
    read_walls: Arc<AtomicBool>,
}

impl ScriptBoard {
    pub fn grid(g: &GridBoard) -> Self {
        let mut cells = Vec::new();
        let mut drawn = HashMap::new();
        for (r, row) in g.rows.iter().enumerate() {
            for (c, t) in row.iter().enumerate() {
                let cell = [r as i64, c as i64];
                if *t != Token::Blocked {
                    cells.push(cell);
                }
                drawn.insert(cell, [g.xs[r][c], r as i64]);
            }
        }
        let cols = g.rows.iter().map(|r| r.len()).max().unwrap_or(0) as i64;
        Self::new("grid", cells, HashSet::new(), g.rows.len() as i64, cols, drawn)
    }

    /// Everything [`ScriptBoard::grid`] and [`ScriptBoard::tilt`] read of a board but its
    /// walls, as numbers: two boards of one shape look the same to a script that asks
    /// nothing of walls. (A hop board's pegs are not part of it: scripts never see them.)
    pub fn shape(board: &BoardSpec) -> Vec<i64> {
        match board {
            BoardSpec::Grid(g) => {
                let mut key = Vec::with_capacity(2 + 3 * g.rows.iter().map(Vec::len).sum::<usize>());
                key.push(0);
                for (row, xs) in g.rows.iter().zip(&g.xs) {
                    key.push(row.len() as i64);
                    for (t, x) in row.iter().zip(xs) {
                        key.extend([i64::from(*t == Token::Blocked), *x]);
                    }
                }
                key
            }
            BoardSpec::Tilt(t) => vec![1, t.size as i64],
        }
    }

    /// A board's walls as a script sees them (`wall` answers for either order of its
    /// cells), in one canonical list.
    pub fn walls(board: &BoardSpec) -> Vec<[[i64; 2]; 2]> {
        let BoardSpec::Tilt(t) = board else {
            return Vec::new();
        };
        let mut walls: Vec<_> = t.walls.iter().map(|&[a, b]| [a.min(b), a.max(b)]).collect();
        walls.sort_unstable();
        walls.dedup();
        walls
    }

    pub fn tilt(t: &TiltBoard) -> Self {
        let n = t.size as i64;
        let cells = (0..n).flat_map(|r| (0..n).map(move |c| [r, c])).collect();
        let walls = t.walls.iter().flat_map(|[a, b]| [(*a, *b), (*b, *a)]).collect();
        let drawn = (0..n)
            .flat_map(|r| (0..n).map(move |c| ([r, c], [c, r])))
            .collect();
        Self::new("tilt", cells, walls, n, n, drawn)
    }

    fn new(
        kind: &'static str,
        cells: Vec<[i64; 2]>,
        walls: HashSet<([i64; 2], [i64; 2])>,
        rows: i64,
        cols: i64,
        drawn: HashMap<[i64; 2], [i64; 2]>,
    ) -> Self {
        let present = cells.iter().copied().collect();
        let at = drawn.iter().map(|(c, p)| (*p, *c)).collect();
        ScriptBoard(Arc::new(Inner {
            kind,
            cells,
            present,
            drawn,
            at,
            walls,
            rows,
            cols,
            placed: None,
            misfit: Arc::default(),
            read_walls: Arc::default(),
        }))
    }

    /// The misfit a call of `lattice(..)` on this board, or one made from it, ran into.
    pub fn misfit(&self) -> Option<lattice::Misfit> {
        self.0.misfit.lock().unwrap().clone()
    }

    /// Whether the script asked `wall(..)` of this board, or of one made from it.
    pub fn read_walls(&self) -> bool {
        self.0.read_walls.load(Ordering::Relaxed)
    }

    /// Coordinate `axis` (0: x, 1: y) of the drawn position of `[r, c]`.
    fn drawn(&self, r: i64, c: i64, axis: usize) -> Result<i64, Box<EvalAltResult>> {
        match self.0.drawn.get(&[r, c]) {
            Some(p) => Ok(p[axis]),
            None => Err(format!("[{r}, {c}] is not drawn on the board").into()),
        }
    }

    /// The same board with positions on `name`'s lattice in place of drawn ones, for its holes (see
    /// [`crate::lattice`]). A drawing that fits no such lattice throws its message and keeps
    /// the [`lattice::Misfit`], which the caller reports at the hole's place in the puzzle file
    /// even if the script caught the error.
    fn lattice(&self, name: &str) -> Result<Self, Box<EvalAltResult>> {
        let layout = Layout::named(name).ok_or_else(|| {
            format!("board.lattice(\"{name}\"): no such lattice; use \"square\" or \"triangle\"")
        })?;
        if let Some(placed) = self.0.placed {
            // Its positions are lattice points already: placing them again reads them as a
            // drawing, and blames the puzzle's for the script's second call.
            return Err(format!(
                "board.lattice(\"{name}\"): this board is already on the {} lattice; call `lattice` once, on \
                 the board `rules` receives",
                match placed {
                    Layout::Square => "square",
                    Layout::Triangle => "triangular",
                }
            )
            .into());
        }
        if self.0.kind == "tilt" {
            return match layout {
                Layout::Square => Ok(self.clone()),
                Layout::Triangle => Err("board.lattice(\"triangle\"): a tilt board is square".into()),
            };
        }
        let holes: Vec<_> = self.0.cells.iter().map(|c| (*c, self.0.drawn[c])).collect();
        let fit = lattice::fit(layout, &holes).map_err(|m| {
            let message = m.message.clone();
            self.0.misfit.lock().unwrap().get_or_insert(m);
            EvalAltResult::ErrorRuntime(Dynamic::from(message), Position::NONE)
        })?;
        // Holes only: `#` tokens have no place on the lattice (and may be many).
        let drawn = holes.iter().map(|(c, p)| (*c, fit.place(*p))).collect();
        let b = &self.0;
        let placed = Self::new(b.kind, b.cells.clone(), b.walls.clone(), b.rows, b.cols, drawn);
        let mut inner = Arc::into_inner(placed.0).expect("just made");
        inner.placed = Some(layout);
        inner.misfit = b.misfit.clone();
        inner.read_walls = b.read_walls.clone();
        Ok(ScriptBoard(Arc::new(inner)))
    }

    /// Makes `board.cells`, `board.has(r, c)` and friends callable from scripts.
    /// What `print(board)` shows: its kind, size and holes, not just the type's name.
    fn described(&self) -> String {
        let b = &self.0;
        let cells: Vec<String> = b.cells.iter().map(|[r, c]| format!("[{r}, {c}]")).collect();
        let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "Board({} board, {} × {}, {}: {})",
            b.kind,
            n(b.rows as usize, "row", "rows"),
            n(b.cols as usize, "column", "columns"),
            n(b.cells.len(), "cell", "cells"),
            cells.join(" ")
        )
    }

    pub fn register(engine: &mut Engine) {
        engine
            .register_type_with_name::<ScriptBoard>("Board")
            .register_fn("to_string", |b: &mut ScriptBoard| b.described())
            .register_fn("to_debug", |b: &mut ScriptBoard| b.described())
            .register_get("kind", |b: &mut ScriptBoard| b.0.kind.to_string())
            .register_get("rows", |b: &mut ScriptBoard| b.0.rows)
            .register_get("cols", |b: &mut ScriptBoard| b.0.cols)
            .register_get("size", |b: &mut ScriptBoard| b.0.rows.max(b.0.cols))
            .register_get("cells", |b: &mut ScriptBoard| -> Array {
                b.0.cells
                    .iter()
                    .map(|[r, c]| Dynamic::from_array(vec![Dynamic::from(*r), Dynamic::from(*c)]))
                    .collect()
            })
            .register_fn("has", |b: &mut ScriptBoard, r: i64, c: i64| {
                b.0.present.contains(&[r, c])
            })
            .register_fn("x", |b: &mut ScriptBoard, r: i64, c: i64| b.drawn(r, c, 0))
            .register_fn("y", |b: &mut ScriptBoard, r: i64, c: i64| b.drawn(r, c, 1))
            .register_fn("at", |b: &mut ScriptBoard, x: i64, y: i64| -> Dynamic {
                b.0.at.get(&[x, y]).map_or(Dynamic::UNIT, |[r, c]| {
                    Dynamic::from_array(vec![Dynamic::from(*r), Dynamic::from(*c)])
                })
            })
            .register_fn("lattice", |b: &mut ScriptBoard, name: &str| b.lattice(name))
            .register_fn(
                "wall",
                |b: &mut ScriptBoard, r1: i64, c1: i64, r2: i64, c2: i64| {
                    b.0.read_walls.store(true, Ordering::Relaxed);
                    b.0.walls.contains(&([r1, c1], [r2, c2]))
                },
            );
    }
}
