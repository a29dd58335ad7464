//! Searches over pieces of kinds and rewrite moves: breadth-first for a `moves:` goal (the
//! fewest moves, each one rewrite), depth-first with a visited set for any other goal, and
//! depth-first over every position for `pegs: fewest`.
//!
//! Nothing here assumes what the moves are: symmetry, position classes and pagodas are
//! arguments about hops and are not used. The one pruning is [`RewriteModel::dead`], read off
//! the moves themselves (a count no move can raise or lower back to the goal's).

use super::{Budget, GaveUp, Verdict, table_peak, vec_peak};
use crate::model::rewrite::{Kinds, Monotone, RewriteModel, occupied};
use crate::spec::{MoveGoal, PegGoal};
use rustc_hash::{FxHashMap, FxHashSet};

/// What a search found: its verdict, the moves of its answer and its tables' peak bytes.
#[derive(Debug)]
pub struct RewriteResult {
    pub verdict: Verdict,
    pub path: Vec<usize>,
    pub memory: u64,
}

/// Solves `m` under `budget`.
pub fn solve(m: &RewriteModel, budget: &mut Budget) -> RewriteResult {
    let mono = m.monotone();
    if let Some(why) = m.dead(&m.start, &mono) {
        return RewriteResult {
            verdict: Verdict::Unsolvable(Some(why)),
            path: Vec::new(),
            memory: 0,
        };
    }
    match (m.goal.moves, m.goal.pieces) {
        (Some(goal), _) => fewest_moves(m, &mono, goal, budget),
        (None, Some(PegGoal::Fewest)) => depth_first(m, &mono, true, budget),
        (None, _) => depth_first(m, &mono, false, budget),
    }
}

/// How often the limits are checked, in positions.
const CHECK_EVERY: u64 = 1024;

/// Breadth-first: the fewest rewrites to a goal position, or none within `goal`'s bound.
fn fewest_moves(m: &RewriteModel, mono: &Monotone, goal: MoveGoal, budget: &mut Budget) -> RewriteResult {
    let bound = match goal {
        MoveGoal::Within(n) => Some(n),
        MoveGoal::Fewest => None,
    };
    // Every position seen, with the index of the one it came from and the move made.
    let mut states: Vec<(Kinds, u32, u32)> = vec![(m.start, u32::MAX, 0)];
    let mut seen: FxHashSet<Kinds> = FxHashSet::default();
    seen.insert(m.start);
    let used = |seen: &FxHashSet<Kinds>, states: &Vec<(Kinds, u32, u32)>, more: usize| {
        table_peak::<Kinds>(seen.len(), seen.capacity(), more)
            + vec_peak::<(Kinds, u32, u32)>(states.len(), states.capacity(), more)
    };
    let (mut head, mut layer_end, mut depth) = (0, 1, 0u32);
    let mut found = m.is_goal(&m.start).then_some(0);
    let mut cut = false;
    let mut cands = Vec::new();
    let branching = m.most_candidates();
    let mut memory = 0;
    let mut check_at = budget.nodes + 1;
    'search: while found.is_none() && head < states.len() {
        if head == layer_end {
            depth += 1;
            layer_end = states.len();
        }
        if bound.is_some_and(|n| depth >= n) {
            cut = true;
            break;
        }
        budget.nodes += 1;
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            let more = (check_at - budget.nodes + 1) as usize * branching;
            memory = memory.max(used(&seen, &states, more));
            if let Some(why) = budget.exceeded(memory) {
                return gave_up(why, memory);
            }
        }
        let cur = states[head].0;
        let occ = occupied(&cur);
        m.candidates(&cur, &mut cands);
        for &i in &cands {
            let mv = &m.moves[i as usize];
            if !mv.applies(&cur, occ) {
                continue;
            }
            let next = mv.apply(&cur);
            if m.dead(&next, mono).is_some() || !seen.insert(next) {
                continue;
            }
            states.push((next, head as u32, i));
            if m.is_goal(&next) {
                found = Some(states.len() - 1);
                break 'search;
            }
        }
        head += 1;
    }
    memory = memory.max(used(&seen, &states, 0));
    let Some(mut i) = found else {
        let why = match (bound, cut) {
            (Some(n), true) => Some(format!("no solution within {n} moves")),
            _ => None,
        };
        return RewriteResult {
            verdict: Verdict::Unsolvable(why),
            path: Vec::new(),
            memory,
        };
    };
    let mut path = Vec::new();
    while states[i].1 != u32::MAX {
        path.push(states[i].2 as usize);
        i = states[i].1 as usize;
    }
    path.reverse();
    RewriteResult {
        verdict: Verdict::Solved,
        path,
        memory,
    }
}

/// Depth-first with a visited set: the first goal position found, in the family's move order;
/// with `fewest`, every position, keeping the one with the fewest pieces that meets the rest of
/// the goal (stopping early at none left).
fn depth_first(m: &RewriteModel, mono: &Monotone, fewest: bool, budget: &mut Budget) -> RewriteResult {
    // The position on each level, the moves that may apply there and how many were tried;
    // `path` the moves made. A level's list is kept when it is left, for the next one so deep.
    let mut stack: Vec<(Kinds, Vec<u32>, usize)> = vec![(m.start, Vec::new(), 0)];
    m.candidates(&m.start, &mut stack[0].1);
    let mut spare: Vec<Vec<u32>> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut seen: FxHashMap<Kinds, ()> = FxHashMap::default();
    seen.insert(m.start, ());
    let pieces = |s: &Kinds| occupied(s).count_ones();
    let mut best: Option<(u32, Vec<usize>)> = m.is_goal(&m.start).then(|| (pieces(&m.start), Vec::new()));
    if best.is_some() && !fewest {
        return RewriteResult {
            verdict: Verdict::Solved,
            path,
            memory: 0,
        };
    }
    // The lists of moves are a few hundred bytes a level at most: counted with the stack.
    let used = |seen: &FxHashMap<Kinds, ()>, depth: usize, more: usize| {
        let level = std::mem::size_of::<(Kinds, Vec<u32>, usize)>() + 4 * m.moves.len().min(256);
        table_peak::<Kinds>(seen.len(), seen.capacity(), more) + (depth as u64 + 1) * level as u64
    };
    let mut memory = 0;
    let mut check_at = budget.nodes + 1;
    while let Some((cur, cands, tried)) = stack.last_mut() {
        let occ = occupied(cur);
        let found = cands[*tried..]
            .iter()
            .position(|&i| m.moves[i as usize].applies(cur, occ));
        let Some(at) = found else {
            spare.extend(stack.pop().map(|level| level.1));
            path.pop();
            continue;
        };
        let i = cands[*tried + at] as usize;
        *tried += at + 1;
        let cur = *cur;
        budget.nodes += 1;
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            memory = memory.max(used(&seen, stack.len(), (check_at - budget.nodes + 1) as usize));
            if let Some(why) = budget.exceeded(memory) {
                return match best {
                    Some((n, path)) if fewest => RewriteResult {
                        verdict: Verdict::GaveUp(GaveUp::Unproven {
                            stop: Box::new(why),
                            best: n,
                            known: None,
                        }),
                        path,
                        memory,
                    },
                    _ => gave_up(why, memory),
                };
            }
        }
        let next = m.moves[i].apply(&cur);
        if seen.insert(next, ()).is_some() || m.dead(&next, mono).is_some() {
            continue;
        }
        path.push(i);
        if m.is_goal(&next) {
            let n = pieces(&next);
            if !fewest {
                return RewriteResult {
                    verdict: Verdict::Solved,
                    path,
                    memory: memory.max(used(&seen, stack.len(), 0)),
                };
            }
            if best.as_ref().is_none_or(|(b, _)| n < *b) {
                best = Some((n, path.clone()));
                if n == 0 {
                    break;
                }
            }
        }
        let mut cands = spare.pop().unwrap_or_default();
        m.candidates(&next, &mut cands);
        stack.push((next, cands, 0));
    }
    memory = memory.max(used(&seen, 0, 0));
    match best {
        Some((_, path)) => RewriteResult {
            verdict: Verdict::Solved,
            path,
            memory,
        },
        None => RewriteResult {
            verdict: Verdict::Unsolvable(None),
            path: Vec::new(),
            memory,
        },
    }
}

fn gave_up(why: GaveUp, memory: u64) -> RewriteResult {
    RewriteResult {
        verdict: Verdict::GaveUp(why),
        path: Vec::new(),
        memory,
    }
}
