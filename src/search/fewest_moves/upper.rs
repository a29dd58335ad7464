//! A short line by a beam over moves, for the exact search to beat: with a line of `u` moves
//! in hand, one pass of the bounded search for `u - 1` moves decides the fewest (it finds
//! a shorter line, or none exists and the beam's is the fewest).
//!
//! Move by move, every chain each kept position's pegs can jump is followed; the children,
//! once each per symmetry class, are ranked by the regions' bound on the moves they still
//! need, then by their pegs, and the best [`WIDTH`] (fewer on small boards) kept. Positions are kept as the line
//! from the start reaches them (not canonical), so the line found is the jumps as made.

use super::bounds::Bounds;
use super::{CHECK_EVERY, Search};
use crate::search::bits::Word;
use crate::search::{Budget, GaveUp};
use rustc_hash::{FxHashMap, FxHashSet};

/// Positions kept a move.
const WIDTH: usize = 1 << 14;

/// A kept position: as reached, the one it came from in the layer before, and the jumps of
/// the move between.
struct Kept<W> {
    at: W,
    parent: usize,
    chain: Vec<usize>,
}

/// The jumps of a line from the start to a goal position in `goals` (canonical), and its
/// moves; `None` when the beam runs dry. A limit stops it with its reason.
pub(super) fn line<W: Word>(
    s: &Search<'_, W>,
    bounds: &Bounds<W>,
    goals: &FxHashSet<W>,
    budget: &mut Budget,
) -> Result<Option<(u32, Vec<usize>)>, GaveUp> {
    let start = W::narrow(s.model.start);
    let mut layers: Vec<Vec<Kept<W>>> = vec![vec![Kept {
        at: start,
        parent: 0,
        chain: Vec::new(),
    }]];
    let least = goals.iter().map(|g| g.pegs()).min().unwrap_or(0);
    let width = WIDTH.min(1 << (s.model.geo.cells.len() / 2).max(8));
    loop {
        let last = layers.last().expect("the start's layer");
        // The best child of each class: its rank, and how it was reached.
        let mut next: FxHashMap<W, ((u32, u32), Kept<W>)> = FxHashMap::default();
        let mut seen: FxHashSet<(W, usize)> = FxHashSet::default();
        let mut stack: Vec<(W, usize, Vec<usize>)> = Vec::new();
        for (k, p) in last.iter().enumerate() {
            seen.clear();
            for (i, j) in s.jumps.iter().enumerate() {
                if j.forward(p.at) {
                    stack.push((p.at ^ j.mask, j.to, vec![i]));
                }
            }
            while let Some((q, at, chain)) = stack.pop() {
                if !seen.insert((q, at)) {
                    continue;
                }
                budget.nodes += 1;
                if budget.nodes.is_multiple_of(CHECK_EVERY)
                    && let Some(why) = budget.exceeded_or_grown(0)
                {
                    return Err(why);
                }
                if q.pegs() < least || s.ahead.cuts(q.wide()) {
                    continue;
                }
                for &i in &s.by_from[at] {
                    let j = &s.jumps[i];
                    if j.forward(q) {
                        let mut longer = chain.clone();
                        longer.push(i);
                        stack.push((q ^ j.mask, j.to, longer));
                    }
                }
                let c = s.canon(q);
                if goals.contains(&c) {
                    let mut path = chain;
                    let mut at = k;
                    for layer in layers.iter().rev() {
                        let kept = &layer[at];
                        path.splice(0..0, kept.chain.iter().copied());
                        at = kept.parent;
                    }
                    return Ok(Some((layers.len() as u32, path)));
                }
                let rank = (bounds.ahead(q), q.pegs());
                let kept = Kept {
                    at: q,
                    parent: k,
                    chain,
                };
                match next.get_mut(&c) {
                    Some(old) if old.0 <= rank => {}
                    Some(old) => *old = (rank, kept),
                    None => {
                        next.insert(c, (rank, kept));
                    }
                }
            }
        }
        if next.is_empty() {
            return Ok(None);
        }
        let mut ranked: Vec<((u32, u32), Kept<W>)> = next.into_values().collect();
        ranked.sort_unstable_by_key(|(rank, kept)| (*rank, kept.at));
        ranked.truncate(width);
        layers.push(ranked.into_iter().map(|(_, kept)| kept).collect());
    }
}
