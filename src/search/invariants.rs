//! Position classes: linear functionals over GF(2) that no move changes, found from the moves.
//!
//! A move toggles the cells of its mask, so a functional `f` (a set of cells, valued by the
//! parity of the pegs on it) is invariant exactly when every move's mask meets `f` in an even
//! number of cells: `f` lies in the null space of the matrix whose rows are the move masks.
//! Two positions with different values on some invariant cannot reach each other, which
//! refutes goals like the French board's central game before any search.

use super::{Budget, GaveUp};
use crate::model::HopModel;
use crate::spec::PegGoal;

/// A basis of the invariant functionals of a move table.
#[derive(Debug, Clone)]
pub struct Invariants {
    basis: Vec<u128>,
}

impl Invariants {
    /// Solves for the null space of the move masks over GF(2).
    pub fn find(model: &HopModel) -> Self {
        Self::find_within(model, &Budget::new(Default::default())).expect("no limits to reach")
    }

    /// [`Invariants::find`] under `budget`'s limits (checked every 64 moves reduced).
    pub fn find_within(model: &HopModel, budget: &Budget) -> Result<Self, GaveUp> {
        let n = model.geo.cells.len();
        // Reduced row echelon form, one row per pivot column.
        let mut rows: Vec<(usize, u128)> = Vec::new();
        for (i, m) in model.moves.iter().enumerate() {
            if i % 64 == 0
                && let Some(why) = budget.exceeded(0)
            {
                return Err(why);
            }
            let mut r = m.mask;
            for &(p, row) in &rows {
                if r >> p & 1 == 1 {
                    r ^= row;
                }
            }
            if r == 0 {
                continue;
            }
            let p = r.trailing_zeros() as usize;
            for (_, row) in rows.iter_mut() {
                if *row >> p & 1 == 1 {
                    *row ^= r;
                }
            }
            rows.push((p, r));
        }
        let pivots: u128 = rows.iter().fold(0, |acc, &(p, _)| acc | 1 << p);
        let basis = (0..n)
            .filter(|&c| pivots >> c & 1 == 0)
            .map(|free| {
                // x_p = Σ a_pj x_j for each pivot row: set x_free = 1, others free = 0.
                rows.iter()
                    .filter(|&&(_, row)| row >> free & 1 == 1)
                    .fold(1u128 << free, |f, &(p, _)| f | 1 << p)
            })
            .collect();
        Ok(Invariants { basis })
    }

    /// The functionals, each a set of cells.
    pub fn basis(&self) -> &[u128] {
        &self.basis
    }

    /// The position's class: bit `i` is the parity of its pegs on functional `i`.
    pub fn class(&self, state: u128) -> u128 {
        self.basis.iter().enumerate().fold(0, |acc, (i, &f)| {
            acc | (((f & state).count_ones() & 1) as u128) << i
        })
    }

    /// Why the model's goal cannot be reached from its start, when the classes show it.
    /// Goal boards and goals of a single peg are checked; others return `None`.
    pub fn refute(&self, model: &HopModel) -> Option<String> {
        if self.basis.is_empty() {
            return None;
        }
        let start = self.class(model.start);
        let checked = match self.basis.len() {
            1 => "1 invariant parity checked".to_string(),
            n => format!("{n} invariant parities checked"),
        };
        if let Some(p) = model.goal.pattern {
            return (self.class(p) != start).then(|| {
                format!("position class: the goal board is not in the class of the start ({checked})")
            });
        }
        if model.goal.pegs != PegGoal::Count(1) {
            return None;
        }
        let cell = |c: usize| {
            let [r, col] = model.geo.cells[c];
            format!("[{r}, {col}]")
        };
        match model.goal.at {
            Some(a) if self.class(1 << a) != start => Some(format!(
                "position class: a single peg at {} is not in the class of the start ({checked})",
                cell(a),
            )),
            Some(_) => None,
            None => (0..model.geo.cells.len())
                .all(|c| self.class(1 << c) != start)
                .then(|| format!("position class: no single peg is in the class of the start ({checked})")),
        }
    }
}
