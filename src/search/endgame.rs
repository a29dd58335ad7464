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
    /// `layers[k]`: the winning positions with `k + 1` pegs.
    layers: Vec<FxHashSet<u128>>,
}

impl Endgame {
    /// Builds layers from the goal upwards until `max_positions` would be passed. `None` when
    /// the goal is not "one peg" or some move removes more than one peg.
    pub fn build(model: &HopModel, max_positions: usize) -> Option<Self> {
        if model.goal.pegs != PegGoal::Count(1) || model.moves.iter().any(|m| m.over.len() != 1) {
            return None;
        }
        let first: FxHashSet<u128> = match model.goal.at {
            Some(a) => [1u128 << a].into_iter().collect(),
            // Only the single pegs in the start's position class can ever be reached.
            None => {
                let inv = Invariants::find(model);
                let class = inv.class(model.start);
                (0..model.geo.cells.len())
                    .map(|c| 1u128 << c)
                    .filter(|&s| inv.class(s) == class)
                    .collect()
            }
        };
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
                    return Some(Endgame { layers });
                }
            }
            total += next.len();
            layers.push(next);
        }
        Some(Endgame { layers })
    }

    /// Positions with at most this many pegs are decided by the table.
    pub fn max_pegs(&self) -> u32 {
        self.layers.len() as u32
    }

    pub fn positions(&self) -> usize {
        self.layers.iter().map(FxHashSet::len).sum()
    }

    /// True when `state` (with at most [`Endgame::max_pegs`] pegs) can reach the goal.
    pub fn wins(&self, state: u128) -> bool {
        let pegs = state.count_ones() as usize;
        pegs >= 1 && self.layers.get(pegs - 1).is_some_and(|l| l.contains(&state))
    }

    /// The moves from a winning `state` to the goal, in `order`.
    pub fn finish(&self, model: &HopModel, order: &[usize], mut state: u128) -> Vec<usize> {
        let mut path = Vec::new();
        while state.count_ones() > 1 {
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
