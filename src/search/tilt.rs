//! Breadth-first search for tilt families: the fewest tilts that drop every marble home (or,
//! on a board with exits, that take every slider off the board and drop no blocker).

use super::{Budget, GaveUp, Verdict, table_peak, vec_peak};
use crate::model::{EXIT, NO_CELL, NONE, TiltCell, TiltModel};
use crate::spec::Piece;
use rustc_hash::FxHashSet;

#[derive(Debug, Clone)]
pub struct TiltResult {
    pub verdict: Verdict,
    /// Direction indices, first tilt first.
    pub path: Vec<usize>,
    /// Marble positions before each tilt and after the last (`NO_CELL` = in its hole).
    pub states: Vec<Vec<TiltCell>>,
    pub nodes: u64,
    pub memory: u64,
}

/// Tilts the board in direction `d`: returns the marbles' new cells, or `None` when a marble
/// drops into a hole that is not its own or a blocker into an exit (the game is lost, so that
/// tilt is never taken). A slider that rolls into an exit leaves the board (`NO_CELL`).
///
/// `occ` notes which marble is on each cell: all `NONE` when called, and left so. Only the
/// marbles are visited, nearest the side first (a 40 × 40 board has 1,600 cells and a
/// handful of marbles).
pub fn roll(model: &TiltModel, d: usize, pos: &[TiltCell], occ: &mut [u8]) -> Option<Vec<TiltCell>> {
    let dir = &model.dirs[d];
    let mut turns: Vec<(TiltCell, usize)> = Vec::with_capacity(pos.len());
    for (k, &p) in pos.iter().enumerate() {
        if p != NO_CELL {
            occ[p as usize] = k as u8;
            turns.push((dir.rank[p as usize], k));
        }
    }
    turns.sort_unstable();
    let mut out = pos.to_vec();
    let rolled = rolled(model, dir, &turns, pos, &mut out, occ);
    for &p in pos.iter().chain(&out) {
        if p != NO_CELL {
            occ[p as usize] = NONE;
        }
    }
    rolled.then_some(out)
}

/// Rolls the marbles of `turns` in turn from `pos` into `out`, `occ` noting where each is;
/// false when the tilt loses the game.
fn rolled(
    model: &TiltModel,
    dir: &crate::model::TiltDir,
    turns: &[(TiltCell, usize)],
    pos: &[TiltCell],
    out: &mut [TiltCell],
    occ: &mut [u8],
) -> bool {
    for &(_, k) in turns {
        let cell = pos[k];
        occ[cell as usize] = NONE;
        let mut c = cell;
        let mut dropped = false;
        // Compiled links never cycle (see `model::compile`); the bound makes sure of it.
        for _ in 0..dir.next.len() {
            let n = dir.next[c as usize];
            if n == NO_CELL || occ[n as usize] != NONE {
                break;
            }
            c = n;
            let h = model.hole_at[c as usize];
            if h == EXIT {
                if model.pieces[k] == Piece::Blocker {
                    return false;
                }
                dropped = true;
                break;
            }
            // A hole is empty until its own marble has dropped into it.
            if h != NONE && out[h as usize] != NO_CELL {
                if h as usize != k {
                    return false;
                }
                dropped = true;
                break;
            }
        }
        if dropped {
            out[k] = NO_CELL;
        } else {
            occ[c as usize] = k as u8;
            out[k] = c;
        }
    }
    true
}

/// Finds the fewest tilts that put every marble in its hole.
pub fn solve(model: &TiltModel, budget: &mut Budget) -> TiltResult {
    let finish = |verdict, path: Vec<usize>, states, budget: &Budget, memory| TiltResult {
        verdict,
        path,
        states,
        nodes: budget.nodes,
        memory,
    };
    if let Some(why) = &model.doomed {
        return finish(
            Verdict::Unsolvable(Some(why.clone())),
            vec![],
            vec![model.start.clone()],
            budget,
            0,
        );
    }
    let home = |s: &[TiltCell]| model.is_home(s);
    // Every state seen, with the index of the state it came from and the tilt taken (a
    // family may name more than 256 directions: the tilt's index is not a byte).
    let mut states: Vec<(Box<[TiltCell]>, u32, u32)> = vec![(model.start.clone().into(), u32::MAX, 0)];
    let mut seen: FxHashSet<Box<[TiltCell]>> = FxHashSet::default();
    seen.insert(model.start.clone().into());
    let mut occ = vec![NONE; model.geo.cells.len()];
    let mut head = 0;
    let mut goal = home(&model.start).then_some(0);
    // Each state is boxed twice (the queue and the set): its bytes rounded up to the
    // allocator's 16 and its 16-byte header, for each copy.
    let bytes = std::mem::size_of_val(model.start.as_slice());
    let boxed = (bytes.div_ceil(16).max(1) * 16 + 16) as u64 * 2;
    // The queue and the set, as they may grow by `more` states: counted before they grow.
    let used = |seen: &FxHashSet<Box<[TiltCell]>>, states: &Vec<_>, more: usize| {
        table_peak::<Box<[TiltCell]>>(seen.len(), seen.capacity(), more)
            + vec_peak::<(Box<[TiltCell]>, u32, u32)>(states.len(), states.capacity(), more)
            + (states.len() + more) as u64 * boxed
    };
    let mut memory = 0;
    let mut check_at = budget.nodes + 1;
    while goal.is_none() && head < states.len() {
        budget.nodes += 1;
        if budget.nodes >= check_at {
            check_at = budget.next_check(1024);
            // Each state expanded adds at most one state a direction.
            let more = (check_at - budget.nodes + 1) as usize * model.dirs.len();
            memory = memory.max(used(&seen, &states, more));
            if let Some(reason) = budget.exceeded(memory) {
                // Breadth-first: every state as near the start as the one expanded next was
                // met, and none is home, so no fewer tilts than one more can do it.
                let mut depth = 0;
                let mut i = head;
                while states[i].1 != u32::MAX {
                    depth += 1;
                    i = states[i].1 as usize;
                }
                let reason = GaveUp::no_line_yet(reason, depth + 1);
                return finish(
                    Verdict::GaveUp(reason),
                    vec![],
                    vec![model.start.clone()],
                    budget,
                    memory,
                );
            }
        }
        let cur = states[head].0.clone();
        for d in 0..model.dirs.len() {
            let Some(next) = roll(model, d, &cur, &mut occ) else {
                continue;
            };
            if seen.contains(next.as_slice()) {
                continue;
            }
            let next: Box<[TiltCell]> = next.into();
            seen.insert(next.clone());
            let done = home(&next);
            states.push((next, head as u32, d as u32));
            if done {
                goal = Some(states.len() - 1);
                break;
            }
        }
        head += 1;
    }
    memory = memory.max(used(&seen, &states, 0));
    let Some(mut i) = goal else {
        return finish(
            Verdict::Unsolvable(Some(super::exhausted(states.len() as u64, false, &[]))),
            vec![],
            vec![model.start.clone()],
            budget,
            memory,
        );
    };
    let mut path = Vec::new();
    let mut trail = vec![states[i].0.to_vec()];
    while states[i].1 != u32::MAX {
        path.push(states[i].2 as usize);
        i = states[i].1 as usize;
        trail.push(states[i].0.to_vec());
    }
    path.reverse();
    trail.reverse();
    finish(Verdict::Solved, path, trail, budget, memory)
}
