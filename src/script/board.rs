//! The `board` value a rule script receives: the puzzle's cells and walls, read-only.

use crate::lattice::{self, Layout};
use crate::spec::{GridBoard, TiltBoard, Token};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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
        }))
    }

    /// Coordinate `axis` (0: x, 1: y) of the drawn position of `[r, c]`.
    fn drawn(&self, r: i64, c: i64, axis: usize) -> Result<i64, Box<EvalAltResult>> {
        match self.0.drawn.get(&[r, c]) {
            Some(p) => Ok(p[axis]),
            None => Err(format!("[{r}, {c}] is not drawn on the board").into()),
        }
    }

    /// The same board with positions on `name`'s lattice in place of drawn ones, for its holes (see
    /// [`crate::lattice`]); a drawing that fits no such lattice throws a [`lattice::Misfit`],
    /// which the caller reports at the hole's place in the puzzle file.
    fn lattice(&self, name: &str) -> Result<Self, Box<EvalAltResult>> {
        let layout = Layout::named(name).ok_or_else(|| {
            format!("board.lattice(\"{name}\"): no such lattice; use \"square\" or \"triangle\"")
        })?;
        if self.0.kind == "tilt" {
            return match layout {
                Layout::Square => Ok(self.clone()),
                Layout::Triangle => Err("board.lattice(\"triangle\"): a tilt board is square".into()),
            };
        }
        let holes: Vec<_> = self.0.cells.iter().map(|c| (*c, self.0.drawn[c])).collect();
        let fit = lattice::fit(layout, &holes)
            .map_err(|m| EvalAltResult::ErrorRuntime(Dynamic::from(m), Position::NONE))?;
        // Holes only: `#` tokens have no place on the lattice (and may be many).
        let drawn = holes.iter().map(|(c, p)| (*c, fit.place(*p))).collect();
        let b = &self.0;
        Ok(Self::new(
            b.kind,
            b.cells.clone(),
            b.walls.clone(),
            b.rows,
            b.cols,
            drawn,
        ))
    }

    /// Makes `board.cells`, `board.has(r, c)` and friends callable from scripts.
    pub fn register(engine: &mut Engine) {
        engine
            .register_type_with_name::<ScriptBoard>("Board")
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
                    b.0.walls.contains(&([r1, c1], [r2, c2]))
                },
            );
    }
}
