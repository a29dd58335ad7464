//! The `board` value a rule script receives: the puzzle's cells and walls, read-only.

use crate::spec::{GridBoard, TiltBoard, Token};
use rhai::{Array, Dynamic, Engine, EvalAltResult};
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
        ScriptBoard(Arc::new(Inner {
            kind,
            cells,
            present,
            drawn,
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
                b.0.drawn
                    .iter()
                    .find(|(_, p)| **p == [x, y])
                    .map_or(Dynamic::UNIT, |([r, c], _)| {
                        Dynamic::from_array(vec![Dynamic::from(*r), Dynamic::from(*c)])
                    })
            })
            .register_fn(
                "wall",
                |b: &mut ScriptBoard, r1: i64, c1: i64, r2: i64, c2: i64| {
                    b.0.walls.contains(&([r1, c1], [r2, c2]))
                },
            );
    }
}
