//! Forward and reversed searches taking turns, for one-vacancy-to-one-peg problems and goal
//! boards.
//!
//! Reversing a game gives a game on the complements: if a hop takes `A` to `B`, the same hop
//! takes the complement of `B` to the complement of `A`. So "hole `v` empty → one peg at
//! `f`" is solvable exactly when "hole `f` empty → one peg at `v`" is, and a solution of one,
//! read backwards, solves the other; a goal board `P` from start `S` reverses to `P`'s
//! complement → exactly `S`'s. Depth-first search can be fast on one and slow on the
//! other, so after the forward search has run `first_cap` nodes without an answer the two
//! take turns, each restarted with four times the nodes of its previous turn. Every turn
//! after the first uses [`super::guided`]'s heuristic order instead of the fixed one: easy
//! puzzles keep their usual first solution, hard ones get the order that finds them. Before
//! each reversed turn a [`super::beam`] search (1,000 positions a move, four times as many
//! each round) looks for a solution: on the French board's fixed-finish problems it finds one
//! in ~250 k nodes where the depth-first turns need 2-60+ M.

use super::bits::Word;
use super::dfs::{self, HopResult, Observer, Pruning};
use super::{Budget, GaveUp, Verdict};
use super::{beam, guided};
use crate::model::HopModel;
use crate::spec::PegGoal;
use std::cell::OnceCell;

/// Nodes the forward search gets before the reversed one is tried: easy puzzles never see it.
pub const FIRST_CAP: u64 = 1 << 20;

/// The reversed problem, when `m` is one hole empty → one peg at another cell, or ends at a
/// goal board: from the goal board's complement to the start's, both exact positions.
pub fn reversed(m: &HopModel) -> Option<HopModel> {
    let n = m.geo.cells.len();
    let full = u128::full(n);
    let holes = full & !m.start;
    if let Some(p) = m.goal.pattern {
        if holes == 0 || p == m.start {
            return None;
        }
        let mut r = m.clone();
        r.start = full & !p;
        r.goal.pattern = Some(holes);
        r.goal.pegs = PegGoal::Count(holes.count_ones());
        r.goal.at = (holes.count_ones() == 1).then(|| holes.trailing_zeros() as usize);
        return Some(r);
    }
    let at = m.goal.at?;
    if m.goal.pegs != PegGoal::Count(1) || holes.count_ones() != 1 || holes == 1 << at {
        return None;
    }
    let mut r = m.clone();
    r.start = full & !(1 << at);
    r.goal.at = Some(holes.trailing_zeros() as usize);
    Some(r)
}

/// Searches `m`, taking turns with its reversed problem once `first_cap` nodes are spent.
pub fn solve(
    m: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
    first_cap: u64,
) -> HopResult {
    let forward = match Pruning::for_model_within(m, budget) {
        Ok(p) => p,
        Err(why) => return stopped(m, why, budget),
    };
    let Some(rev) = reversed(m) else {
        // Without a goal cell the spread has no good centre: the fixed order throughout.
        if m.goal_cells() == 0 {
            return dfs::solve_with(m, order, budget, obs, &forward);
        }
        let mut turn = budget.capped(first_cap.max(1));
        let mut r = dfs::solve_with(m, order, &mut turn, obs, &forward);
        budget.nodes = turn.nodes;
        r.nodes = budget.nodes;
        if let Verdict::GaveUp(_) = r.verdict {
            match budget.exceeded(r.memory) {
                Some(why) => r.verdict = Verdict::GaveUp(why),
                None => {
                    drop(r);
                    crate::process::release_freed();
                    let cap = first_cap.saturating_mul(4).max(1);
                    if let Some(r) = beam_turn(m, order, beam::FIRST_WIDTH, cap, budget, obs, &forward) {
                        return r;
                    }
                    obs.restart(false);
                    return dfs::solve_with(m, &guided::spread_order(m, order), budget, obs, &forward);
                }
            }
        }
        return r;
    };
    let backward = match Pruning::for_model_within(&rev, budget) {
        Ok(p) => p,
        Err(why) => return stopped(m, why, budget),
    };
    // The guided turns' orders, one a direction, made when a guided turn first needs one
    // (most searches end in their first turn).
    let spread: [OnceCell<Vec<usize>>; 2] = Default::default();
    let mut cap = first_cap.max(1);
    let mut width = beam::FIRST_WIDTH;
    let mut first = true;
    loop {
        for (model, pruning, is_reversed, spread) in [
            (m, &forward, false, &spread[0]),
            (&rev, &backward, true, &spread[1]),
        ] {
            if !first {
                obs.restart(is_reversed);
            }
            first = false;
            let mut turn = budget.capped(cap);
            let turn_order = if cap == first_cap.max(1) && !is_reversed {
                order
            } else {
                spread.get_or_init(|| guided::spread_order(model, order))
            };
            let mut r = dfs::solve_with(model, turn_order, &mut turn, obs, pruning);
            budget.nodes = turn.nodes;
            r.nodes = budget.nodes;
            match r.verdict {
                Verdict::GaveUp(_) => match budget.exceeded(r.memory) {
                    // Only this turn's cap was reached: the other direction's turn, its
                    // tables in place of this one's.
                    None => {
                        crate::process::release_freed();
                        if !is_reversed {
                            // A beam before the reversed turn: it finds most solutions the
                            // depth-first turns miss, in a fraction of their nodes.
                            let found = beam_turn(m, order, width, cap, budget, obs, &forward);
                            width = width.saturating_mul(4);
                            if let Some(r) = found {
                                return r;
                            }
                        }
                        continue;
                    }
                    Some(why) => r.verdict = Verdict::GaveUp(why),
                },
                Verdict::Solved if is_reversed => {
                    // Read backwards, the reversed solution solves the forward problem.
                    r.path.reverse();
                    r.end = m.goal.pattern.or(m.goal.at.map(|a| 1 << a)).unwrap_or(r.end);
                    return r;
                }
                _ => {}
            }
            if r.verdict != Verdict::Solved {
                r.path.clear();
                r.end = m.start;
            }
            return r;
        }
        cap = cap.saturating_mul(4);
    }
}

/// A [`beam`] search of `width` on `m`, of at most `cap` more nodes: the result to return
/// (solved, or a limit of `budget` reached), or `None` to go on with the exact searches.
fn beam_turn(
    m: &HopModel,
    order: &[usize],
    width: usize,
    cap: u64,
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> Option<HopResult> {
    let mut turn = budget.capped(cap);
    let found = beam::find(m, order, width, &mut turn, obs, pruning);
    budget.nodes = turn.nodes;
    crate::process::release_freed();
    let mut r = found?;
    r.nodes = budget.nodes;
    if let Verdict::GaveUp(GaveUp::Nodes(_)) = r.verdict {
        // Only the turn's cap, unless the whole search's node limit came with it.
        r.verdict = Verdict::GaveUp(budget.exceeded(r.memory)?);
    }
    Some(r)
}

/// The result of a search stopped by `why` before an answer.
fn stopped(m: &HopModel, why: GaveUp, budget: &Budget) -> HopResult {
    HopResult {
        verdict: Verdict::GaveUp(why),
        path: Vec::new(),
        end: m.start,
        nodes: budget.nodes,
        memory: 0,
    }
}
