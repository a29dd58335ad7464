//! Endgame tables: every position with few pegs that can still reach the goal, built
//! backwards from the goal positions, so a depth-first search stops at their peg count.
//!
//! A hop run backwards (`to` full, `from` and `over` empty, then toggle the mask) is a
//! predecessor, so the positions `k` moves before a goal are `k` reverse hops from one. A DFS
//! that reaches a position with at most [`Endgame::max_pegs`] pegs knows at once whether it
//! wins, and if so finishes by walking the table down.

use super::invariants::Invariants;
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;

#[derive(Debug, Clone)]
pub struct Endgame {
    /// The goal's peg count: 1, or 2 for the fewest-pegs search's second try.
    base: u32,
    /// `layers[k]`: the winning positions with `base + k` pegs.
    layers: Vec<FxHashSet<u128>>,
}

impl Endgame {
    /// Builds layers from the goal upwards until `max_positions` would be passed. `None` when
    /// the goal is not one or two pegs or some move removes more than one peg.
    pub fn build(model: &HopModel, max_positions: usize) -> Option<Self> {
        let base = match (model.goal.pegs, model.goal.pattern) {
            (_, Some(p)) => p.count_ones(),
            (PegGoal::Count(k @ 1..=2), None) => k,
            _ => return None,
        };
        if model.moves.iter().any(|m| m.over.len() != 1) {
            return None;
        }
        // Only goal positions in the start's position class can ever be reached.
        let inv = Invariants::find(model);
        let class = inv.class(model.start);
        let first: FxHashSet<u128> = goal_positions(model, base)
            .filter(|&s| inv.class(s) == class)
            .collect();
        let mut total = first.len();
        let mut layers = vec![first];
        let full = model.geo.cells.len() as u32;
        while (layers.len() as u32) < full {
            let last = layers.last()?;
            let mut next = FxHashSet::default();
            for &s in last {
                for m in &model.moves {
                    if s & m.mask == m.mask ^ m.need {
                        next.insert(s ^ m.mask);
                    }
                }
                if total + next.len() > max_positions {
                    return Some(Endgame { base, layers });
                }
            }
            total += next.len();
            layers.push(next);
        }
        Some(Endgame { base, layers })
    }

    /// Positions with at most this many pegs are decided by the table.
    pub fn max_pegs(&self) -> u32 {
        self.base + self.layers.len() as u32 - 1
    }

    pub fn positions(&self) -> usize {
        self.layers.iter().map(FxHashSet::len).sum()
    }

    /// True when `state` (with at most [`Endgame::max_pegs`] pegs) can reach the goal.
    pub fn wins(&self, state: u128) -> bool {
        let pegs = state.count_ones();
        pegs >= self.base
            && self
                .layers
                .get((pegs - self.base) as usize)
                .is_some_and(|l| l.contains(&state))
    }

    /// The moves from a winning `state` to the goal, in `order`.
    pub fn finish(&self, model: &HopModel, order: &[usize], mut state: u128) -> Vec<usize> {
        let mut path = Vec::new();
        while state.count_ones() > self.base {
            let next = order.iter().copied().find(|&i| {
                let m = &model.moves[i];
                state & m.mask == m.need && self.wins(state ^ m.mask)
            });
            let Some(i) = next else { break };
            state ^= model.moves[i].mask;
            path.push(i);
        }
        path
    }
}

/// Every position of `k` pegs (1 or 2) meeting the goal's cell, if it names one; the goal
/// board alone when there is one.
pub fn goal_positions(model: &HopModel, k: u32) -> Box<dyn Iterator<Item = u128> + '_> {
    if let Some(p) = model.goal.pattern {
        return Box::new(std::iter::once(p).filter(move |p| p.count_ones() == k));
    }
    let n = model.geo.cells.len();
    let at = model.goal_cells();
    let pairs = (0..n).flat_map(move |a| {
        (a..n)
            .filter(move |&b| (k == 1) == (a == b))
            .map(move |b| 1u128 << a | 1u128 << b)
    });
    Box::new(pairs.filter(move |&s| s & at == at))
}
