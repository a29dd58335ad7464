//! The lattices a board drawing can fit: where each drawn token stands on the square or the
//! triangular lattice, so a board means what it looks like however it is indented.
//!
//! A drawn position is `[x, y]`: the character column of a token and its line. On the square
//! lattice holes stand one space apart (`x` of one parity) and a lattice point is
//! `[x / 2, y]`. On the triangular lattice each row stands half a step from the next: drawn
//! centred (`x + y` of one parity) a point is `[x, y]` with neighbours at (±2, 0) and
//! (±1, ±1); drawn left-aligned (each row half a step left of the one above, `#` padding
//! where a row starts later, `x` of one parity) it is `[x − y, y]`, the same lattice.

use crate::spec::Cell;

/// How boards of a family are drawn, as a rule script declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Holes one space apart, rows lined up.
    Square,
    /// Each row half a step from the next (a triangle, a hexagon).
    Triangle,
}

impl Layout {
    /// The layout a script names: `"square"` or `"triangle"`.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "square" => Some(Layout::Square),
            "triangle" => Some(Layout::Triangle),
            _ => None,
        }
    }
}

/// A drawing that fits no lattice of a layout: the first hole off it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    pub cell: Cell,
    pub message: String,
}

/// How a drawing maps onto its lattice: a point is `[(x − skew·y) / step, y]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    pub layout: Layout,
    skew: i64,
    step: i64,
}

impl Fit {
    /// The lattice point of a drawn position (any token's, `#` too).
    pub fn place(&self, [x, y]: [i64; 2]) -> [i64; 2] {
        [(x - self.skew * y).div_euclid(self.step), y]
    }

    /// The lattice point of a drawn position, if one stands there exactly (a token drawn half a
    /// step off a square lattice has none).
    pub fn exact(&self, [x, y]: [i64; 2]) -> Option<[i64; 2]> {
        (x - self.skew * y)
            .rem_euclid(self.step)
            .eq(&0)
            .then(|| self.place([x, y]))
    }

    /// True for a left-aligned triangular drawing, whose `#` tokens only pad rows into place.
    pub fn skewed(&self) -> bool {
        self.skew != 0
    }

    /// Where the point is pictured, in half steps across and rows down: one space per half
    /// step in text, half a cell width in pictures.
    pub fn picture(&self, drawn: [i64; 2]) -> [i64; 2] {
        let [x, y] = self.place(drawn);
        match self.layout {
            Layout::Square => [2 * x, y],
            Layout::Triangle => [x, y],
        }
    }
}

/// The fit of the holes (each a cell and its drawn position) to `layout`'s lattice.
pub fn fit(layout: Layout, holes: &[(Cell, [i64; 2])]) -> Result<Fit, Misfit> {
    // The first hole whose parity of `key` differs from the first hole's.
    let off = |key: fn([i64; 2]) -> i64| {
        let first = holes.first().map(|h| key(h.1).rem_euclid(2));
        holes.iter().position(|h| Some(key(h.1).rem_euclid(2)) != first)
    };
    let aligned = off(|[x, _]| x);
    match layout {
        Layout::Square => match aligned {
            None => Ok(Fit {
                layout,
                skew: 0,
                step: 2,
            }),
            Some(i) => Err(misfit(
                holes[i].0,
                "square",
                // Two spaces between holes, or a row shifted by one column.
                "is drawn an odd number of columns from the first hole, between the lattice's columns",
                "draw holes one space apart with the rows lined up, `#` or spaces where there is no hole",
            )),
        },
        Layout::Triangle => match (off(|[x, y]| x + y), aligned) {
            (None, _) => Ok(Fit {
                layout,
                skew: 0,
                step: 1,
            }),
            (Some(_), None) => Ok(Fit {
                layout,
                skew: 1,
                step: 1,
            }),
            (Some(i), Some(j)) => Err(misfit(
                holes[i.max(j)].0,
                "triangular",
                "is drawn half a step off the holes before it",
                "draw the rows centred, each half a step from the next, or left-aligned with `#` padding, holes one space apart",
            )),
        },
    }
}

fn misfit(cell: Cell, lattice: &str, off: &str, how: &str) -> Misfit {
    Misfit {
        cell,
        message: format!(
            "the board fits no {lattice} lattice: hole [{}, {}] {off} ({how})",
            cell[0], cell[1]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells and drawn positions of rows drawn as text (tokens split by spaces).
    fn drawing(rows: &[&str]) -> Vec<(Cell, [i64; 2])> {
        let mut out = Vec::new();
        for (r, line) in rows.iter().enumerate() {
            let mut c = 0;
            for (x, ch) in line.chars().enumerate() {
                if ch != ' ' {
                    out.push(([r as i64, c], [x as i64, r as i64]));
                    c += 1;
                }
            }
        }
        out
    }

    #[test]
    fn centred_and_left_aligned_hexagons_are_the_same_points() {
        let centred = drawing(&["  . . .", " . . . .", ". . . . .", " . . . .", "  . . ."]);
        let aligned = drawing(&[". . .", ". . . .", ". . . . .", "  . . . .", "    . . ."]);
        let points = |h: &[(Cell, [i64; 2])]| {
            let f = fit(Layout::Triangle, h).unwrap();
            let mut p: Vec<[i64; 2]> = h.iter().map(|(_, d)| f.place(*d)).collect();
            let x0 = p.iter().map(|q| q[0]).min().unwrap();
            p.iter_mut().for_each(|q| q[0] -= x0);
            p.sort();
            p
        };
        assert_eq!(points(&centred), points(&aligned));
    }

    #[test]
    fn a_row_off_by_one_column_fits_neither_lattice() {
        let bad = drawing(&["  . . .", " . . . .", ". . . . .", "  . . . .", "  . . ."]);
        let e = fit(Layout::Triangle, &bad).unwrap_err();
        assert_eq!(e.cell, [3, 0]);
        let e = fit(Layout::Square, &drawing(&[". . .", " . ."])).unwrap_err();
        assert_eq!(e.cell, [1, 0]);
    }
}
