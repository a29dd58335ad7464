//! Pagoda functions: cell weightings that no move increases, found from the move table.
//!
//! A weighting `w ≥ 0` is a pagoda function when every move's `to` weighs at most what it
//! empties (`from` and every `over` cell), so the weighted sum of the pegs never grows. A
//! position weighing less than every goal position can then be cut without a visit.

use super::GaveUp;
use crate::model::HopModel;
use crate::spec::PegGoal;

/// Weights above this are not searched for.
const MAX_WEIGHT: u32 = 3;

/// One pagoda function, stored as bit planes so that evaluating it is a few popcounts.
#[derive(Debug, Clone)]
pub struct Pagoda {
    pub weights: Vec<u32>,
    /// `planes[k]`: the cells whose weight has bit `k` set.
    planes: Vec<u128>,
    /// The least value of any goal position.
    goal: u32,
}

impl Pagoda {
    /// Checks `weights` against every move and prices the goal; `None` if it is no pagoda.
    pub fn new(model: &HopModel, weights: Vec<u32>) -> Option<Self> {
        if !is_pagoda(model, &weights) {
            return None;
        }
        let goal = goal_value(model, &weights)?;
        let bits = 32 - weights.iter().max().copied().unwrap_or(0).leading_zeros();
        let planes = (0..bits)
            .map(|k| {
                weights
                    .iter()
                    .enumerate()
                    .filter(|&(_, w)| w >> k & 1 == 1)
                    .fold(0u128, |acc, (c, _)| acc | 1 << c)
            })
            .collect();
        Some(Pagoda {
            weights,
            planes,
            goal,
        })
    }

    #[inline]
    pub fn value(&self, state: u128) -> u32 {
        self.planes
            .iter()
            .enumerate()
            .map(|(k, &p)| (state & p).count_ones() << k)
            .sum()
    }

    /// True when `state` can no longer reach the goal.
    #[inline]
    pub fn cuts(&self, state: u128) -> bool {
        self.value(state) < self.goal
    }

    /// Why `start` can never reach the goal, when this pagoda shows it: the two weights.
    pub fn refutes(&self, start: u128) -> Option<String> {
        let v = self.value(start);
        (v < self.goal).then(|| {
            format!(
                "pagoda function: the start weighs {v}, every goal position at least {}, and no move adds weight",
                self.goal
            )
        })
    }
}

fn is_pagoda(model: &HopModel, w: &[u32]) -> bool {
    model.moves.iter().all(|m| {
        let paid: u32 = (0..w.len()).filter(|&c| m.need >> c & 1 == 1).map(|c| w[c]).sum();
        paid >= w[m.to]
    })
}

/// The least weight a goal position can have; `None` when the goal is not a peg count.
fn goal_value(model: &HopModel, w: &[u32]) -> Option<u32> {
    let PegGoal::Count(n) = model.goal.pegs else {
        return None;
    };
    if let Some(p) = model.goal.pattern {
        return Some((0..w.len()).filter(|&c| p >> c & 1 == 1).map(|c| w[c]).sum());
    }
    let mut rest: Vec<(usize, u32)> = w.iter().copied().enumerate().collect();
    let mut total = 0;
    let mut n = n as usize;
    if let Some(a) = model.goal.at {
        total += w[a];
        rest.retain(|&(c, _)| c != a);
        n = n.saturating_sub(1);
    }
    rest.sort_by_key(|&(_, v)| v);
    Some(total + rest.iter().take(n).map(|&(_, v)| v).sum::<u32>())
}

/// The pagoda functions a search uses for one model.
#[derive(Debug, Clone, Default)]
pub struct Pagodas(pub Vec<Pagoda>);

impl Pagodas {
    /// Builds pagodas around the goal's cells by repairing violated moves: start from weight 1
    /// on the goal cell (or each peg of the goal board) and, while some move's `to` outweighs
    /// what it empties, raise the weight of its `from` cell. Kept only when valid, below
    /// `MAX_WEIGHT`, and not the whole board.
    pub fn find(model: &HopModel) -> Self {
        Self::find_within(model, &super::Budget::new(Default::default())).unwrap_or_default()
    }

    /// [`Pagodas::find`] under a search's budget, checked once per round of repairs.
    pub fn find_within(model: &HopModel, budget: &super::Budget) -> Result<Self, GaveUp> {
        let cells = model.goal_cells();
        if cells == 0 {
            return Ok(Pagodas::default());
        }
        let n = model.geo.cells.len();
        let mut w: Vec<u32> = (0..n).map(|c| (cells >> c & 1) as u32).collect();
        let mut changed = true;
        while changed {
            if let Some(why) = budget.exceeded(0) {
                return Err(why);
            }
            changed = false;
            for m in &model.moves {
                let paid: u32 = (0..n).filter(|&c| m.need >> c & 1 == 1).map(|c| w[c]).sum();
                if paid < w[m.to] {
                    w[m.from] += w[m.to] - paid;
                    if w[m.from] > MAX_WEIGHT {
                        return Ok(Pagodas::default());
                    }
                    changed = true;
                }
            }
        }
        if w.iter().all(|&v| v > 0) {
            return Ok(Pagodas::default());
        }
        Ok(Pagodas(Pagoda::new(model, w).into_iter().collect()))
    }

    /// Conway's pagoda for a peg to reach `cell`, in whole numbers: a cell `d` steps away
    /// (steps between the cells a move jumps from, over and to) weighs the Fibonacci number
    /// `F(D + 2 − d)`, so that a jump towards the cell keeps the weight (`F(k) = F(k − 1) +
    /// F(k − 2)`) and any other loses some; cells past `D` (at most [`FIBONACCI_REACH`] steps)
    /// weigh 1, like those at `D`. These are Conway's soldiers' weights `σ^d` scaled by
    /// `F(D + 2)`, rounded so that no move gains. `None` when the moves are not straight single
    /// jumps along those steps (the weights are then checked, and fail, against every move)
    /// or no cell is apart from `cell`.
    pub fn towards(model: &HopModel, cell: usize) -> Option<Pagoda> {
        let dist = distances(model, cell);
        let far = dist.iter().flatten().copied().max().filter(|&d| d > 0)?;
        let top = far.min(FIBONACCI_REACH);
        let mut fib = vec![0u32, 1];
        while fib.len() < top as usize + 3 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let weights = dist
            .iter()
            .map(|d| d.map_or(0, |d| fib[(top + 2).saturating_sub(d).max(1) as usize]))
            .collect();
        Pagoda::new(model, weights)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Why `start` can never reach the goal, when one of the pagodas shows it.
    pub fn refute(&self, start: u128) -> Option<String> {
        self.0.iter().find_map(|p| p.refutes(start))
    }

    /// True when some pagoda shows `state` cannot reach the goal.
    #[inline]
    pub fn cuts(&self, state: u128) -> bool {
        self.0.iter().any(|p| p.cuts(state))
    }
}

/// How far [`Pagodas::towards`] weighs cells apart: `F(22)` = 17,711, so that a board of 128
/// holes weighs at most about 2.3 million, well inside the `u32` a value is summed in.
pub const FIBONACCI_REACH: u32 = 20;

/// Steps from `cell` to each cell (`None`: no steps lead there), a step joining cells that
/// follow each other in a move: its `from`, each `over`, its `to`. On a square board of
/// straight jumps these are the rows and columns apart.
pub fn distances(model: &HopModel, cell: usize) -> Vec<Option<u32>> {
    let n = model.geo.cells.len();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for m in &model.moves {
        let line: Vec<usize> = [m.from]
            .into_iter()
            .chain(m.over.iter().copied())
            .chain([m.to])
            .collect();
        for w in line.windows(2) {
            next[w[0]].push(w[1]);
            next[w[1]].push(w[0]);
        }
    }
    let mut dist = vec![None; n];
    dist[cell] = Some(0);
    let mut queue = std::collections::VecDeque::from([cell]);
    while let Some(c) = queue.pop_front() {
        let d = dist[c].unwrap_or(0) + 1;
        for &e in &next[c] {
            if dist[e].is_none() {
                dist[e] = Some(d);
                queue.push_back(e);
            }
        }
    }
    dist
}
