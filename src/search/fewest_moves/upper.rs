//! A short line by a beam over moves, for the exact search to beat: with a line of `u` moves
//! in hand, the bounded search's passes stop at `u - 1` moves (a pass finds a shorter line,
//! or, once `u - 1` is refuted, the beam's is the fewest).
//!
//! Move by move, every chain each kept position's pegs can jump is followed; the children,
//! once each per symmetry class, are ranked by the regions' bound on the moves they still
//! need, then by their pegs, and the best [`WIDTH`] (fewer on small boards) kept. Positions are kept as the line
//! from the start reaches them (not canonical), so the line found is the jumps as made.

use super::bounds::Bounds;
use super::{CHECK_EVERY, Search};
use crate::search::bits::Word;
use crate::search::{Budget, Claims, GaveUp};
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Chunks a layer is split into for its chains to be followed in parallel.
const CHUNKS: usize = 64;

/// Positions kept a move.
const WIDTH: usize = 1 << 14;

/// A kept position: as reached, the one it came from in the layer before, and the jumps of
/// the move between.
struct Kept<W> {
    at: W,
    parent: usize,
    chain: Vec<usize>,
}

/// A child met: its rank (lower better), its class, and how it was reached.
type Child<W> = ((u32, u32), W, Kept<W>);

/// A chunk's children, and a goal position met with the move to it, if any.
type Chunk<W> = (Vec<Child<W>>, Option<Goal>);

/// A goal position met: the kept position its move left, and the move's jumps.
type Goal = (usize, Vec<usize>);

/// The bytes a layer of kept positions holds, their chains' jumps included.
/// (Each layer is a list of its own length.)
fn layer_bytes<W>(layer: &[Kept<W>]) -> u64 {
    let chains: u64 = layer.iter().map(|k| chain_bytes(k.chain.len())).sum();
    size_of_val(layer) as u64 + chains
}

/// The heap a chain of `jumps` jumps takes: glibc's block, its 8-byte header and the jumps
/// rounded up to 16 bytes, 32 at least.
fn chain_bytes(jumps: usize) -> u64 {
    ((jumps * size_of::<usize>() + 8).next_multiple_of(16).max(32)) as u64
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
        let base = budget.nodes;
        let nodes = AtomicU64::new(0);
        // Every chunk counts its positions into `nodes` and checks the budget before its
        // first, at each claim of nodes and at its end.
        let claims = Claims::new(budget);
        // The layers kept, and the children listed so far: what the beam holds.
        let kept: u64 = layers.iter().map(|l| layer_bytes(l)).sum();
        let listed = AtomicU64::new(0);
        let check = |done: u64, more: u64| -> Result<(), GaveUp> {
            let mut b = budget.capped(u64::MAX);
            b.nodes = base + nodes.fetch_add(done, Relaxed) + done;
            let used = kept + listed.fetch_add(more, Relaxed) + more;
            b.exceeded_or_grown(used).map_or(Ok(()), Err)
        };
        let chunk = last.len().div_ceil(CHUNKS).max(1);
        // Each chunk's children, and a goal position met with the move to it, if any.
        let found: Result<Vec<Chunk<W>>, GaveUp> = last
            .par_chunks(chunk)
            .enumerate()
            .map(|(n, ps)| {
                let mut out: Vec<Child<W>> = Vec::new();
                let mut seen: FxHashSet<(W, usize)> = FxHashSet::default();
                // (position, its moving peg's cell, jumps of the chain before, the jump).
                let mut stack: Vec<(W, usize, usize, usize)> = Vec::new();
                let mut chain: Vec<usize> = Vec::new();
                let (mut done, mut counted, mut claimed) = (0u64, 0u64, 0u64);
                let mut held = 0u64;
                for (i, p) in ps.iter().enumerate() {
                    let k = n * chunk + i;
                    seen.clear();
                    for (i, j) in s.jumps.iter().enumerate() {
                        if j.forward(p.at) {
                            stack.push((p.at ^ j.mask, j.to, 0, i));
                        }
                    }
                    while let Some((q, at, before, jump)) = stack.pop() {
                        chain.truncate(before);
                        chain.push(jump);
                        if !seen.insert((q, at)) {
                            continue;
                        }
                        let refill = || {
                            let now = held + crate::process::list_bytes(&out);
                            check(done, now - counted)?;
                            (done, counted) = (0, now);
                            Ok(())
                        };
                        claims.take(&mut claimed, CHECK_EVERY, refill, |why| why)?;
                        done += 1;
                        if q.pegs() < least || s.ahead.cuts(q.wide()) {
                            continue;
                        }
                        for &i in &s.by_from[at] {
                            let j = &s.jumps[i];
                            if j.forward(q) {
                                stack.push((q ^ j.mask, j.to, chain.len(), i));
                            }
                        }
                        let c = s.canon(q);
                        if goals.contains(&c) {
                            nodes.fetch_add(done, Relaxed);
                            return Ok((out, Some((k, chain))));
                        }
                        held += chain_bytes(chain.len());
                        let kept = Kept {
                            at: q,
                            parent: k,
                            chain: chain.clone(),
                        };
                        out.push(((bounds.packed(q), q.pegs()), c, kept));
                    }
                }
                claims.give_back(claimed);
                let now = held + crate::process::list_bytes(&out);
                check(done, now - counted)?;
                Ok((out, None))
            })
            .collect::<Result<_, GaveUp>>();
        budget.nodes = base + nodes.load(Relaxed);
        let found = found?;
        // Gathered in one list, the children are held twice for a moment. (Each chunk's list
        // is freed once moved, but counting one of them twice let English central at 40MB
        // pass 38.1 MiB by 4 MiB while it gathered.)
        let total = found.iter().map(|(out, _)| out.len()).sum();
        let gathered = (total * size_of::<Child<W>>()) as u64;
        if let Some(why) = budget.exceeded_or_grown(kept + listed.load(Relaxed) + gathered) {
            return Err(why);
        }
        let mut children: Vec<Child<W>> = Vec::with_capacity(total);
        for (out, goal) in found {
            if let Some((k, mut path)) = goal {
                let mut at = k;
                for layer in layers.iter().rev() {
                    let kept = &layer[at];
                    path.splice(0..0, kept.chain.iter().copied());
                    at = kept.parent;
                }
                return Ok(Some((layers.len() as u32, path)));
            }
            children.extend(out);
        }
        if children.is_empty() {
            return Ok(None);
        }
        // The best of each class, then the best classes.
        children.sort_unstable_by_key(|(rank, c, kept)| (*c, *rank, kept.at));
        children.dedup_by_key(|(_, c, _)| *c);
        children.sort_unstable_by_key(|(rank, _, kept)| (*rank, kept.at));
        children.truncate(width);
        // A list of its own: collected in place, the layer would keep every child's room.
        let mut layer = Vec::with_capacity(children.len());
        layer.extend(children.drain(..).map(|(_, _, kept)| kept));
        layers.push(layer);
    }
}
