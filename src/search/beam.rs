//! Beam search for peg-count goals: move by move, keep only the `width` positions whose pegs
//! lie nearest the goal, so that a solution is found in a few hundred thousand nodes where a
//! depth-first search wanders for tens of millions.
//!
//! Every layer holds the positions one move further on, each once per symmetry class, cut by
//! the pagodas, ranked by [`super::guided::spread_weights`] (least first, ties in the order
//! generated) and cut down to `width`. The search finds solutions but proves nothing: when a
//! layer empties it says so, and [`super::portfolio`] goes on with its exact searches. On the
//! French board's 64 solvable one-vacancy → one-fixed-peg problems a width of 300 finds every
//! one, forward and reversed; `portfolio` starts at [`FIRST_WIDTH`].

use super::dfs::{HopResult, Observer, Pruning};
use super::{Budget, Verdict, table_peak, vec_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;

/// The width of the first beam a portfolio runs; each later one is four times wider.
pub const FIRST_WIDTH: usize = 1000;

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// A kept position: its board, its parent's index in the layer before, and the move (an index
/// into the model's moves) from there.
type Kept = (u128, u32, u16);

/// A candidate for the next layer: its rank (spread, then the order it was generated in) and
/// what it keeps.
type Candidate = ((i64, u32), Kept);

/// Searches `model` layer by layer with at most `width` positions a layer, moves generated in
/// `order`: solved with the solution's moves, or given up when a limit of `budget` came first
/// (with the bytes held then); `None` when the beam emptied without a solution (nothing
/// proven).
pub fn find(
    model: &HopModel,
    order: &[usize],
    width: usize,
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> Option<HopResult> {
    let PegGoal::Count(target) = model.goal.pegs else {
        return None;
    };
    if model.moves.len() > usize::from(u16::MAX) || width == 0 || width > u32::MAX as usize {
        return None;
    }
    let sym = pruning.symmetry.as_ref();
    let weights = super::guided::spread_weights(model);
    // Each move's change of the spread, and its masks: a child's rank is its parent's plus this.
    let moves: Vec<(u128, u128, i64)> = order
        .iter()
        .map(|&i| {
            let m = &model.moves[i];
            let delta = weights[m.to] - weights[m.from] - m.over.iter().map(|&o| weights[o]).sum::<i64>();
            (m.mask, m.need, delta)
        })
        .collect();
    let start = model.start;
    let spread = |s: u128| -> i64 {
        (0..weights.len())
            .filter(|&c| s >> c & 1 == 1)
            .map(|c| weights[c])
            .sum()
    };
    obs.beam(width);
    let mut layers: Vec<Vec<Kept>> = vec![vec![(start, 0, 0)]];
    let mut ranks: Vec<i64> = vec![spread(start)];
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    let mut next: Vec<Candidate> = Vec::new();
    let mut check_at = budget.nodes + 1;
    let mut kept_bytes = 0u64;
    let mut memory = 0u64;
    loop {
        let layer = layers.last()?;
        seen.clear();
        next.clear();
        for (p, &(s, _, _)) in layer.iter().enumerate() {
            for (k, &(mask, need, delta)) in moves.iter().enumerate() {
                if s & mask != need {
                    continue;
                }
                budget.nodes += 1;
                if budget.nodes >= check_at {
                    check_at = budget.next_check(CHECK_EVERY);
                    // Until the next check each node adds at most one candidate; the layer
                    // kept from them (and its ranks) is counted before it is allocated.
                    let more = (check_at - budget.nodes) as usize;
                    let keeping = next.len().saturating_add(more).min(width) as u64;
                    let held = kept_bytes
                        + vec_peak::<i64>(ranks.len(), ranks.capacity(), 0)
                        + keeping * (size_of::<Kept>() + size_of::<i64>()) as u64
                        + table_peak::<u128>(seen.len(), seen.capacity(), more)
                        + vec_peak::<Candidate>(next.len(), next.capacity(), more);
                    // What it may hold until the next check, once that has passed the limits.
                    if let Some(why) = budget.exceeded(held) {
                        return Some(HopResult {
                            verdict: Verdict::GaveUp(why),
                            path: Vec::new(),
                            end: start,
                            nodes: budget.nodes,
                            memory,
                        });
                    }
                    memory = memory.max(held);
                }
                let ns = s ^ mask;
                if pruning.pagodas.cuts(ns) || !seen.insert(sym.map_or(ns, |g| g.canon(ns))) {
                    continue;
                }
                let mv = order[k] as u16;
                if model.is_goal(ns, target) {
                    let path = walk_back(&layers, p, mv);
                    let mut end = start;
                    for (depth, &i) in path.iter().enumerate() {
                        end ^= model.moves[i].mask;
                        obs.advance(depth + 1, i, end);
                    }
                    obs.goal(path.len(), end);
                    return Some(HopResult {
                        verdict: Verdict::Solved,
                        path,
                        end,
                        nodes: budget.nodes,
                        memory: memory.max(kept_bytes),
                    });
                }
                if ns.count_ones() <= target {
                    // Every move takes pegs away: below the target there is no way back up.
                    continue;
                }
                let rank = (ranks[p] + delta, next.len() as u32);
                next.push((rank, (ns, p as u32, mv)));
            }
        }
        if next.is_empty() {
            return None;
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |c| c.0);
            next.truncate(width);
            next.sort_unstable_by_key(|c| c.0);
        }
        ranks = next.iter().map(|c| c.0.0).collect();
        let kept: Vec<Kept> = next.iter().map(|c| c.1).collect();
        kept_bytes += vec_peak::<Kept>(kept.len(), kept.capacity(), 0);
        layers.push(kept);
    }
}

/// The moves from the start to the parent at `p` of the last layer, then `mv`.
fn walk_back(layers: &[Vec<Kept>], mut p: usize, mv: u16) -> Vec<usize> {
    let mut path = vec![usize::from(mv)];
    for layer in layers[1..].iter().rev() {
        let (_, parent, m) = layer[p];
        path.push(usize::from(m));
        p = parent as usize;
    }
    path.reverse();
    path
}
