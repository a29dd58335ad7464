//! Depth-first search that tries, at every position, the moves leaving the pegs closest to the
//! goal first: a heuristic order for problems where a fixed move order wanders.
//!
//! A position's "spread" is the sum over its pegs of the squared distance (rows plus columns)
//! to the goal cell (the nearest peg of a goal board), or to the board's middle when the goal
//! names no cell. Children are tried least spread first (ties in the given move order), so the
//! search clears the far arms early and keeps the pegs together, as people solve cross boards. It is the same search as
//! [`super::dfs`] otherwise: a failure table of canonical positions, pagoda cuts and an endgame
//! table, under the same [`Budget`]. On Wiegleb's 45-hole board it finds the central game in
//! ~3 M nodes where the fixed order needs 359 M.

use super::dfs::{HopResult, Observer, Pruning};
use super::endgame::Endgame;
use super::spare::Failed;
use super::{Budget, Verdict, table_bytes, table_peak, vec_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// Each cell's weight in the spread: its squared distance to the nearest goal cell, or the middle.
pub fn spread_weights(model: &HopModel) -> Vec<i64> {
    let cells = &model.geo.cells;
    // Doubled coordinates, so that the middle of an even-sized board is on the grid.
    let goal = model.goal_cells();
    let centres: Vec<(i64, i64)> = if goal != 0 {
        (0..cells.len())
            .filter(|&a| goal >> a & 1 == 1)
            .map(|a| (2 * cells[a][0], 2 * cells[a][1]))
            .collect()
    } else {
        let span = |k: usize| {
            let lo = cells.iter().map(|c| c[k]).min().unwrap_or(0);
            let hi = cells.iter().map(|c| c[k]).max().unwrap_or(0);
            lo + hi
        };
        vec![(span(0), span(1))]
    };
    cells
        .iter()
        .map(|&[r, c]| {
            // To the nearest goal peg: a goal board draws the pegs towards its own pegs.
            let d = centres
                .iter()
                .map(|&(gr, gc)| (2 * r - gr).abs() + (2 * c - gc).abs())
                .min()
                .unwrap_or(0);
            d * d
        })
        .collect()
}

/// Searches `model` for its goal (a peg count, not `fewest`), children least spread first.
pub fn solve_with(
    model: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> HopResult {
    let PegGoal::Count(target) = model.goal.pegs else {
        return super::dfs::solve_with(model, order, budget, obs, pruning);
    };
    let sym = pruning.symmetry.as_ref();
    let key = |s: u128| sym.map_or(s, |g| g.canon(s));
    let pagodas = Some(&pruning.pagodas).filter(|p| !p.is_empty());
    let weights = spread_weights(model);
    // The spread change of each move, in search order: to gains, from and over lose.
    let delta: Vec<i64> = order
        .iter()
        .map(|&i| {
            let m = &model.moves[i];
            weights[m.to] - weights[m.from] - m.over.iter().map(|&o| weights[o]).sum::<i64>()
        })
        .collect();
    let masks: Vec<(u128, u128)> = order
        .iter()
        .map(|&i| (model.moves[i].mask, model.moves[i].need))
        .collect();
    let at = model.goal_cells();
    let done = |verdict, path: Vec<usize>, end, budget: &Budget, memory| HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory,
    };
    let start = model.start;
    if model.is_goal(start, target) {
        obs.goal(0, start);
        return done(Verdict::Solved, Vec::new(), start, budget, 0);
    }
    let mut failed: Failed<u128> = Failed::new();
    // Children of every open frame, best last: (search-order index, spread change).
    let mut kids: Vec<(u16, i64)> = Vec::new();
    // Each frame: its position and where its children start in `kids`.
    let mut stack: Vec<(u128, usize)> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let push = |s: u128, kids: &mut Vec<(u16, i64)>, stack: &mut Vec<(u128, usize)>| {
        let first = kids.len();
        for (i, &(mask, need)) in masks.iter().enumerate() {
            if s & mask == need {
                kids.push((i as u16, delta[i]));
            }
        }
        // Best (least spread, then latest in the order) last, to be popped first. The tie
        // rule matters: earliest-first needs over 10 M nodes on Wiegleb's board, latest-first 3 M.
        kids[first..].sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        stack.push((s, first));
    };
    push(start, &mut kids, &mut stack);
    let mut memory = 0;
    let endgame_after = pruning.endgame_after;
    // Built at the first check past `endgame_after` nodes (at the first node for 0).
    let mut endgame: Option<Endgame> = None;
    let due = (endgame_after, pruning.endgame_positions);
    let cells = model.geo.cells.len();
    let mut check_at = budget.nodes + 1;
    while let Some(&(state, first)) = stack.last() {
        if kids.len() == first {
            obs.dead_end(path.len(), state);
            failed.insert(key(state));
            stack.pop();
            path.pop();
            continue;
        }
        let Some((i, _)) = kids.pop() else { break };
        let i = i as usize;
        let m = order[i];
        let ns = state ^ masks[i].0;
        budget.nodes += 1;
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            // As in `dfs`: the failure table's growth until the next check, counted before
            // it happens; the children list takes at most one position's moves at a time.
            let more = (check_at - budget.nodes) as usize + stack.len();
            let held = table_peak::<u128>(failed.len(), failed.capacity(), more)
                + vec_peak::<(u128, usize)>(stack.len(), stack.capacity(), cells)
                + vec_peak::<(u16, i64)>(kids.len(), kids.capacity(), masks.len())
                + vec_peak::<usize>(path.len(), path.capacity(), cells);
            match Endgame::check(&mut endgame, due, model, budget, held) {
                Ok(now) => memory = memory.max(now),
                Err(reason) => {
                    return done(Verdict::GaveUp(reason), path, state, budget, memory);
                }
            }
        }
        if failed.contains(&key(ns)) {
            obs.known_failure(path.len() + 1, m, ns);
            continue;
        }
        if pagodas.is_some_and(|p| p.cuts(ns)) {
            obs.pruned(path.len() + 1, m, ns);
            continue;
        }
        let pegs = ns.count_ones();
        if let Some(e) = endgame.as_ref().filter(|e| pegs <= e.max_pegs()) {
            if !e.wins(ns) {
                obs.pruned(path.len() + 1, m, ns);
                continue;
            }
            let end = super::dfs::finish_line(e, model, order, m, ns, &mut path, obs);
            return done(Verdict::Solved, path, end, budget, memory);
        }
        path.push(m);
        obs.advance(path.len(), m, ns);
        if pegs == target && ns & at == at {
            obs.goal(path.len(), ns);
            return done(Verdict::Solved, path, ns, budget, memory);
        }
        if pegs <= target {
            obs.dead_end(path.len(), ns);
            failed.insert(key(ns));
            path.pop();
            continue;
        }
        push(ns, &mut kids, &mut stack);
    }
    memory = memory.max(table_bytes::<u128>(failed.capacity()));
    done(Verdict::Unsolvable(None), Vec::new(), start, budget, memory)
}
