//! Endgame tables: every position with few pegs that can still reach the goal, built
//! backwards from the goal positions, so a depth-first search stops at their peg count.
//!
//! A hop run backwards (`to` full, `from` and `over` empty, then toggle the mask) is a
//! predecessor, so the positions `k` moves before a goal are `k` reverse hops from one. A DFS
//! that reaches a position with at most [`Endgame::max_pegs`] pegs knows at once whether it
//! wins, and if so finishes by walking the table down.

use super::invariants::Invariants;
use super::{Budget, GaveUp, table_bytes, table_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// What a table depends on: the moves, the goal's cells, its peg count, the start's
/// position class, and the size asked for.
type SharedKey = (Vec<u128>, u128, u32, u128, usize);

/// Tables built by [`Endgame::shared`]: a batch of boards of one shape builds one per position
/// class and peg count. Cleared when it holds 32.
static SHARED: crate::memo::Kept<SharedKey, Arc<Endgame>> = crate::memo::Kept::new(32);

#[derive(Debug, Clone)]
pub struct Endgame {
    /// The goal's peg count: 1, or 2 for the fewest-pegs search's second try.
    base: u32,
    /// `layers[k]`: the winning positions with `base + k` pegs.
    layers: Vec<FxHashSet<u128>>,
}

impl Endgame {
    /// Builds layers from the goal upwards until `max_positions` would be passed, under
    /// `budget`'s limits with `held` bytes held by the search already (the table's growth
    /// is counted before it happens). `Ok(None)` when the goal is not one or two pegs or
    /// some move removes more than one peg.
    pub fn build(
        model: &HopModel,
        max_positions: usize,
        budget: &Budget,
        held: u64,
    ) -> Result<Option<Self>, GaveUp> {
        let base = match (model.goal.pegs, model.goal.pattern) {
            (_, Some(p)) => p.count_ones(),
            (PegGoal::Count(k @ 1..=2), None) => k,
            _ => return Ok(None),
        };
        if model.moves.iter().any(|m| m.over.len() != 1) {
            return Ok(None);
        }
        // Only goal positions in the start's position class can ever be reached.
        let inv = Invariants::find_within(model, budget)?;
        let class = inv.class(model.start);
        let mut first: FxHashSet<u128> = FxHashSet::default();
        for (i, s) in goal_positions(model, base).enumerate() {
            if i % 1024 == 0 {
                check(budget, held, &[], &first, 1024)?;
            }
            if inv.class(s) == class {
                first.insert(s);
            }
        }
        let mut total = first.len();
        let mut layers = vec![first];
        let full = model.geo.cells.len() as u32;
        while (layers.len() as u32) < full {
            let Some(last) = layers.last() else { break };
            let mut next = FxHashSet::default();
            for &s in last {
                // Each position adds at most one predecessor a move.
                check(budget, held, &layers, &next, model.moves.len())?;
                for m in &model.moves {
                    if s & m.mask == m.mask ^ m.need {
                        next.insert(s ^ m.mask);
                    }
                }
                if total + next.len() > max_positions {
                    return Ok(Some(Endgame { base, layers }));
                }
            }
            total += next.len();
            layers.push(next);
        }
        Ok(Some(Endgame { base, layers }))
    }

    /// [`Endgame::build`], served again for a model of the same moves, goal and start class
    /// (the table reads nothing else of it; see `SHARED`). A table that a limit cut short
    /// is not kept.
    pub fn shared(
        model: &HopModel,
        max_positions: usize,
        budget: &Budget,
        held: u64,
    ) -> Result<Option<Arc<Self>>, GaveUp> {
        let (base, pattern) = (model.goal.pegs, model.goal.pattern);
        let base = match (base, pattern) {
            (_, Some(p)) => p.count_ones(),
            (PegGoal::Count(k), None) => k,
            (PegGoal::Fewest, None) => return Ok(None),
        };
        let class = Invariants::find_within(model, budget)?.class(model.start);
        let mut moves = Vec::with_capacity(2 * model.moves.len() + 1);
        moves.push(model.geo.cells.len() as u128);
        for m in &model.moves {
            moves.extend([m.need, m.mask]);
        }
        let key = (moves, model.goal_cells(), base, class, max_positions);
        if let Some(t) = SHARED.get(&key) {
            return Ok(Some(t));
        }
        let Some(table) = Self::build(model, max_positions, budget, held)? else {
            return Ok(None);
        };
        let table = Arc::new(table);
        SHARED.put(key, table.clone());
        Ok(Some(table))
    }

    /// A search's budget check with `held` bytes of its own: builds the table into `slot`
    /// once the search has spent `after` nodes (unless built), then checks the budget with
    /// the table counted (of at most `max_positions`). The bytes now held, or why to stop.
    /// How [`super::dfs`] starts using one (see [`Endgame::build`]).
    pub fn check(
        slot: &mut Option<Endgame>,
        (after, max_positions): (Option<u64>, usize),
        model: &HopModel,
        budget: &Budget,
        held: u64,
    ) -> Result<u64, GaveUp> {
        if slot.is_none() && after.is_some_and(|n| budget.nodes >= n) {
            // Not for a search about to stop: a turn of a portfolio ends at its node cap, and
            // would otherwise pay for a table only the next turn's search could use.
            if let Some(why) = budget.exceeded(held) {
                return Err(why);
            }
            *slot = Endgame::build(model, max_positions, budget, held)?;
        }
        let now = held + slot.as_ref().map_or(0, Endgame::bytes);
        budget.exceeded(now).map_or(Ok(now), Err)
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.layers
            .iter()
            .map(|l| table_bytes::<u128>(l.capacity()))
            .sum()
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

/// Checks the budget for a table of `layers` and a layer `next` about to take `more`.
fn check(
    budget: &Budget,
    held: u64,
    layers: &[FxHashSet<u128>],
    next: &FxHashSet<u128>,
    more: usize,
) -> Result<(), GaveUp> {
    let built: u64 = layers.iter().map(|l| table_bytes::<u128>(l.capacity())).sum();
    let growing = table_peak::<u128>(next.len(), next.capacity(), more);
    budget.exceeded(held + built + growing).map_or(Ok(()), Err)
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
