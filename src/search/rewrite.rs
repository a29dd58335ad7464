//! Searches over pieces of kinds and rewrite moves: breadth-first for a `moves:` goal (the
//! fewest moves, each one rewrite), depth-first with a visited set for any other goal, and
//! depth-first over every position for `pegs: fewest` (then breadth-first to that count, when
//! the fewest moves are asked too).
//!
//! Nothing here assumes what the moves are: symmetry, position classes and pagodas are
//! arguments about hops and are not used. The one pruning is [`Pruning`], read off the moves
//! themselves (a count no move can raise or lower back to the goal's). Positions are stored
//! as one bitboard a kind the family has (`[u128; K]`), so a one-kind family keeps 16 bytes a
//! position.

use super::{Budget, GaveUp, Verdict, table_peak, vec_peak};
use crate::model::rewrite::{Kinds, MAX_KINDS, Pruning, RewriteModel, occupied};
use crate::spec::{MoveGoal, PegGoal};
use rustc_hash::FxHashSet;

/// What a search found: its verdict, the moves of its answer and its tables' peak bytes.
#[derive(Debug)]
pub struct RewriteResult {
    pub verdict: Verdict,
    pub path: Vec<usize>,
    pub memory: u64,
}

/// Solves `m` under `budget`.
pub fn solve(m: &RewriteModel, budget: &mut Budget) -> RewriteResult {
    let prune = m.pruning();
    let refuted = |why: String| RewriteResult {
        verdict: Verdict::Unsolvable(Some(why)),
        path: Vec::new(),
        memory: 0,
    };
    if let Some(why) = prune.why(&m.start) {
        return refuted(why);
    }
    if m.moves.is_empty() && !m.is_goal(&m.start) {
        return refuted("the rules make no move on this board".into());
    }
    match m.kinds.len() {
        1 => solve_with::<1>(m, &prune, budget),
        2 => solve_with::<2>(m, &prune, budget),
        3 => solve_with::<3>(m, &prune, budget),
        _ => solve_with::<MAX_KINDS>(m, &prune, budget),
    }
}

fn solve_with<const K: usize>(m: &RewriteModel, prune: &Pruning, budget: &mut Budget) -> RewriteResult {
    match (m.goal.moves, m.goal.pieces) {
        // The fewest pieces first, then the fewest moves that leave that many.
        (Some(goal), Some(PegGoal::Fewest)) => {
            let least = depth_first::<K>(m, prune, true, budget);
            if least.verdict != Verdict::Solved {
                return least;
            }
            let end = least.path.iter().fold(m.start, |s, &i| m.moves[i].apply(&s));
            let mut exact = m.clone();
            exact.goal.pieces = Some(PegGoal::Count(occupied(&end).count_ones()));
            let r = fewest_moves::<K>(&exact, &exact.pruning(), goal, budget);
            RewriteResult {
                memory: r.memory.max(least.memory),
                ..r
            }
        }
        (Some(goal), _) => fewest_moves::<K>(m, prune, goal, budget),
        (None, Some(PegGoal::Fewest)) => depth_first::<K>(m, prune, true, budget),
        (None, _) => depth_first::<K>(m, prune, false, budget),
    }
}

/// A position as stored: the bitboards of the family's `K` kinds.
fn key<const K: usize>(s: &Kinds) -> [u128; K] {
    std::array::from_fn(|k| s[k])
}

fn unkey<const K: usize>(s: &[u128; K]) -> Kinds {
    std::array::from_fn(|k| if k < K { s[k] } else { 0 })
}

/// How often the limits are checked, in positions.
const CHECK_EVERY: u64 = 1024;

/// What [`Pruning`] rules positions out by, in an exhaustive refutation's words.
const COUNTS: &str = "counts of pieces from which no move can return to the goal's counts";

/// Breadth-first: the fewest rewrites to a goal position, or none within `goal`'s bound.
fn fewest_moves<const K: usize>(
    m: &RewriteModel,
    prune: &Pruning,
    goal: MoveGoal,
    budget: &mut Budget,
) -> RewriteResult {
    let bound = match goal {
        MoveGoal::Within(n) => Some(n),
        MoveGoal::Fewest => None,
    };
    type State<const K: usize> = ([u128; K], u32, u32);
    // Every position seen, with the index of the one it came from and the move made.
    let mut states: Vec<State<K>> = vec![(key(&m.start), u32::MAX, 0)];
    let mut seen: FxHashSet<[u128; K]> = FxHashSet::default();
    seen.insert(key(&m.start));
    // Whether `prune` ruled a position out: the refutation then says so.
    let mut pruned = false;
    let used = |seen: &FxHashSet<[u128; K]>, states: &Vec<State<K>>, more: usize| {
        table_peak::<[u128; K]>(seen.len(), seen.capacity(), more)
            + vec_peak::<State<K>>(states.len(), states.capacity(), more)
    };
    // A quick line first, to return should a limit stop the breadth-first search.
    let quick = match m.is_goal(&m.start) {
        true => None,
        false => quick_line::<K>(m, prune, bound, budget),
    };
    let (mut head, mut layer_end, mut depth) = (0, 1, 0u32);
    let mut found = m.is_goal(&m.start).then_some(0);
    let mut cut = false;
    let mut cands = Vec::new();
    let branching = m.most_candidates();
    let mut memory = 0;
    // Checked before each node is counted and looked at: a node limit of N lets it look at N.
    let mut check_at = budget.nodes;
    'search: while found.is_none() && head < states.len() {
        if head == layer_end {
            depth += 1;
            layer_end = states.len();
        }
        if bound.is_some_and(|n| depth >= n) {
            cut = true;
            break;
        }
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            let more = (check_at - budget.nodes + 1) as usize * branching;
            // Checked with the room the next stretch may take; a give-up reports what is
            // held, never the growth it refused.
            if let Some(why) = budget.exceeded(memory.max(used(&seen, &states, more))) {
                // Every position up to the depth of the one expanded next was met, and none
                // is a goal: no fewer moves than one more can do it.
                let least = depth + 1;
                let verdict =
                    super::fewest_moves::stopped_with(why, quick.as_ref().map(|q| q.len() as u32), least);
                return RewriteResult {
                    verdict,
                    path: quick.unwrap_or_default(),
                    memory: memory.max(used(&seen, &states, 0)),
                };
            }
            memory = memory.max(used(&seen, &states, more));
        }
        budget.nodes += 1;
        let cur = unkey(&states[head].0);
        let occ = occupied(&cur);
        m.candidates(&cur, &mut cands);
        for &i in &cands {
            let mv = &m.moves[i as usize];
            if !mv.applies(&cur, occ) {
                continue;
            }
            let next = mv.apply(&cur);
            if prune.dead(&next) {
                pruned = true;
                continue;
            }
            if !seen.insert(key(&next)) {
                continue;
            }
            states.push((key(&next), head as u32, i));
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
            (Some(n), true) => format!("no solution within {n} move{}", if n == 1 { "" } else { "s" }),
            _ => super::exhausted(seen.len() as u64, false, if pruned { &[COUNTS] } else { &[] }),
        };
        return RewriteResult {
            verdict: Verdict::Unsolvable(Some(why)),
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

/// Nodes the quick first line may take.
const QUICK_NODES: u64 = 1 << 16;

/// A line to the goal by [`depth_first`] within [`QUICK_NODES`] of `budget` and half the nodes
/// a node limit leaves (the rest prove the floor), if it finds one of at most `bound` moves.
fn quick_line<const K: usize>(
    m: &RewriteModel,
    prune: &Pruning,
    bound: Option<u32>,
    budget: &mut Budget,
) -> Option<Vec<usize>> {
    let mut turn = budget.capped(QUICK_NODES.min(budget.nodes_left().map_or(u64::MAX, |n| n / 2)));
    let r = depth_first::<K>(m, prune, false, &mut turn);
    budget.nodes = turn.nodes;
    (r.verdict == Verdict::Solved && bound.is_none_or(|n| r.path.len() as u32 <= n)).then_some(r.path)
}

/// Depth-first with a visited set: the first goal position found, in the family's move order;
/// with `fewest`, every position, keeping the one with the fewest pieces that meets the rest of
/// the goal (stopping early at [`Pruning::floor`], the fewest any goal position can have).
fn depth_first<const K: usize>(
    m: &RewriteModel,
    prune: &Pruning,
    fewest: bool,
    budget: &mut Budget,
) -> RewriteResult {
    // The position on each level, the moves that may apply there and how many were tried;
    // `path` the moves made. A level's list is kept when it is left, for the next one so deep.
    // Each list is made at the size of the most candidates, so it never grows.
    let most = m.most_candidates().max(1);
    let mut stack: Vec<(Kinds, Vec<u32>, usize)> = vec![(m.start, Vec::with_capacity(most), 0)];
    m.candidates(&m.start, &mut stack[0].1);
    let mut spare: Vec<Vec<u32>> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut seen: FxHashSet<[u128; K]> = FxHashSet::default();
    seen.insert(key(&m.start));
    // Positions `prune` ruled out, kept in `seen` so as to be judged once.
    let mut pruned = 0u64;
    let pieces = |s: &Kinds| occupied(s).count_ones();
    let mut best: Option<(u32, Vec<usize>)> = m.is_goal(&m.start).then(|| (pieces(&m.start), Vec::new()));
    let done = |best: &Option<(u32, Vec<usize>)>| match best {
        Some((n, _)) => !fewest || *n <= prune.floor,
        None => false,
    };
    // What the search holds besides its visited set, a level at a time: the level on the
    // stack, its list of moves (allocated with the allocator's header: a list of a few moves
    // costs more than its moves), its move on `path`. A search as deep as its positions (one
    // piece stepping at a time) holds far more in levels than in its table: counted at the
    // list's size alone, three pieces on 121 holes passed `--max-memory 50MB` by 14 %.
    let list = crate::process::allocated(4 * most as u64);
    let used = |seen: &FxHashSet<[u128; K]>,
                stack: &Vec<(Kinds, Vec<u32>, usize)>,
                spare: &Vec<Vec<u32>>,
                path: &Vec<usize>,
                best: &Option<(u32, Vec<usize>)>,
                more: usize| {
        table_peak::<[u128; K]>(seen.len(), seen.capacity(), more)
            + vec_touched::<(Kinds, Vec<u32>, usize)>(stack.len(), more)
            + (stack.len() + spare.len() + more) as u64 * list
            + vec_touched::<Vec<u32>>(spare.len(), 0)
            + vec_touched::<usize>(path.len(), more)
            + best.as_ref().map_or(0, |(_, p)| vec_touched::<usize>(p.len(), 0))
    };
    let mut memory = 0;
    // Checked before each node is counted and looked at: a node limit of N lets it look at N.
    let mut check_at = budget.nodes;
    while !done(&best) {
        let Some((cur, cands, tried)) = stack.last_mut() else {
            break;
        };
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
        if budget.nodes >= check_at {
            check_at = budget.next_check(CHECK_EVERY);
            let more = (check_at - budget.nodes + 1) as usize;
            let ahead = used(&seen, &stack, &spare, &path, &best, more);
            if let Some(why) = budget.exceeded(memory.max(ahead)) {
                let memory = memory.max(used(&seen, &stack, &spare, &path, &best, 0));
                return match best {
                    Some((n, path)) if fewest => RewriteResult {
                        verdict: Verdict::GaveUp(GaveUp::Unproven {
                            stop: Box::new(why),
                            best: Some(n),
                            floor: None,
                            known: None,
                            pieces: true,
                        }),
                        path,
                        memory,
                    },
                    _ => gave_up(why, memory),
                };
            }
            memory = memory.max(ahead);
        }
        budget.nodes += 1;
        let next = m.moves[i].apply(&cur);
        if !seen.insert(key(&next)) {
            continue;
        }
        if prune.dead(&next) {
            pruned += 1;
            continue;
        }
        path.push(i);
        if m.is_goal(&next) && best.as_ref().is_none_or(|(b, _)| pieces(&next) < *b) {
            best = Some((pieces(&next), path.clone()));
        }
        let mut cands = spare.pop().unwrap_or_else(|| Vec::with_capacity(most));
        m.candidates(&next, &mut cands);
        stack.push((next, cands, 0));
    }
    memory = memory.max(used(&seen, &stack, &spare, &path, &best, 0));
    match best {
        Some((_, path)) => RewriteResult {
            verdict: Verdict::Solved,
            path,
            memory,
        },
        None => RewriteResult {
            verdict: Verdict::Unsolvable(Some(super::exhausted(
                seen.len() as u64 - pruned,
                false,
                if pruned > 0 { &[COUNTS] } else { &[] },
            ))),
            path: Vec::new(),
            memory,
        },
    }
}

/// The bytes a `Vec<T>` pushed one at a time holds once `more` are pushed: the pages its
/// items touch, as the allocator maps them. From 128 KiB it is mapped on its own and grows
/// in place (`mremap`): its old and new copies are not held at once, unlike a hash table's,
/// and the room it has not filled takes no memory until it is (below that, both copies are
/// small).
fn vec_touched<T>(len: usize, more: usize) -> u64 {
    crate::process::allocated((len.saturating_add(more) * std::mem::size_of::<T>()) as u64)
}

fn gave_up(why: GaveUp, memory: u64) -> RewriteResult {
    RewriteResult {
        verdict: Verdict::GaveUp(why),
        path: Vec::new(),
        memory,
    }
}
