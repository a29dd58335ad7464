//! Exhaustive layer-by-layer enumeration of every position reachable from the start.
//!
//! Positions with `k` pegs form layer `k`; every hop empties its `from` and `over` cells and
//! fills `to`, so it removes at least one peg and layers can be built from the fullest down.
//! A layer is a sorted `Vec` of canonical positions under the symmetries that fix the start
//! (and the goal cell), each with `T`, the number of jump sequences from the start ending in
//! any position of its orbit. For an automorphism group, every position of an orbit has the
//! same number of moves into any other orbit, so `T(O') = Σ_O T(O) · #moves(rep(O) → O')`:
//! pushing `T` along each move of each representative counts sequences exactly.

use super::symmetry::Symmetry;
use super::{Budget, Verdict};
use crate::model::HopModel;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::fmt::Write;

/// One layer's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LayerCount {
    pub pegs: u32,
    /// Reachable positions.
    pub positions: u64,
    /// Reachable positions up to the symmetries used.
    pub canonical: u64,
    /// Reachable positions with no move that are not goal positions.
    pub dead_ends: u64,
    /// Reachable positions from which the goal can still be reached (with `--feasible`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feasible: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feasible_canonical: Option<u64>,
}

/// Everything `count` finds.
#[derive(Debug, Clone, Serialize)]
pub struct CountResult {
    /// Fullest layer first.
    pub layers: Vec<LayerCount>,
    /// The order of the symmetry group positions were reduced by.
    pub symmetries: usize,
    pub positions: u64,
    pub canonical: u64,
    /// Jump sequences from the start to a goal position.
    pub solutions: u128,
    /// The peak estimate of the tables' memory.
    pub memory: u64,
    pub seconds: f64,
}

/// A layer: canonical positions, sorted, and the sequences reaching each one's orbit.
struct Layer {
    pegs: u32,
    keys: Vec<u128>,
    paths: Vec<u128>,
}

const PAIR_BYTES: u64 = 32;

/// The symmetries a count may reduce by: those fixing the start and, if any, the goal cell.
pub fn group(model: &HopModel) -> Symmetry {
    let g = Symmetry::find(model).stabilizer(model.start);
    match model.goal.at {
        Some(a) => g.stabilizer(1 << a),
        None => g,
    }
}

/// Enumerates every reachable position, layer by layer, in parallel.
/// Gives up (as `Err(Verdict::GaveUp)`) when the budget's limits are reached.
pub fn count(model: &HopModel, feasible: bool, budget: &mut Budget) -> Result<CountResult, Verdict> {
    let sym = group(model);
    let target = model.target_pegs();
    let mut pending: BTreeMap<u32, Vec<(u128, u128)>> = BTreeMap::new();
    pending.insert(model.start.count_ones(), vec![(model.start, 1)]);
    let mut kept: Vec<Layer> = Vec::new();
    let mut result = CountResult {
        layers: Vec::new(),
        symmetries: sym.order(),
        positions: 0,
        canonical: 0,
        solutions: 0,
        memory: 0,
        seconds: 0.0,
    };
    // The pegs every move removes, when all remove the same number.
    let removed = model
        .moves
        .first()
        .map(|m| m.need.count_ones() - 1)
        .filter(|&r| model.moves.iter().all(|m| m.need.count_ones() - 1 == r));
    let kept_bytes = |kept: &[Layer]| kept.iter().map(|l| l.keys.len() as u64 * 16).sum::<u64>();
    while let Some((pegs, pairs)) = pending.pop_last() {
        let layer = reduce(pegs, pairs);
        let stats = layer_stats(model, &sym, &layer, target);
        result.solutions += stats.1;
        result.positions += stats.0.positions;
        result.canonical += stats.0.canonical;
        result.layers.push(stats.0);
        budget.nodes += layer.keys.len() as u64;
        // Successors, counted first so that memory is checked before it is spent.
        let successors: u64 = layer
            .keys
            .par_iter()
            .map(|&s| model.moves.iter().filter(|m| s & m.mask == m.need).count() as u64)
            .sum();
        let in_flight: u64 = pending.values().map(|v| v.len() as u64 * PAIR_BYTES).sum();
        let memory =
            kept_bytes(&kept) + layer.keys.len() as u64 * PAIR_BYTES + in_flight + successors * PAIR_BYTES;
        result.memory = result.memory.max(memory);
        if let Some(why) = budget.exceeded(memory) {
            return Err(Verdict::GaveUp(why));
        }
        let next: Vec<(u128, u128)> = layer
            .keys
            .par_iter()
            .zip(layer.paths.par_iter())
            .flat_map_iter(|(&s, &t)| {
                let sym = &sym;
                model
                    .moves
                    .iter()
                    .filter(move |m| s & m.mask == m.need)
                    .map(move |m| (sym.canon(s ^ m.mask), t))
            })
            .collect();
        match removed {
            _ if next.is_empty() => {}
            Some(r) => match pending.entry(pegs - r) {
                Entry::Vacant(v) => {
                    v.insert(next);
                }
                Entry::Occupied(o) => o.into_mut().extend(next),
            },
            None => {
                for (ns, t) in next {
                    pending.entry(ns.count_ones()).or_default().push((ns, t));
                }
            }
        }
        if feasible {
            kept.push(Layer {
                pegs,
                keys: layer.keys,
                paths: Vec::new(),
            });
        }
    }
    if feasible {
        mark_feasible(model, &sym, &kept, &mut result.layers, target);
    }
    result.seconds = budget.elapsed().as_secs_f64();
    Ok(result)
}

/// Sorts a layer's (position, sequences) pairs and merges equal positions, adding sequences.
fn reduce(pegs: u32, mut pairs: Vec<(u128, u128)>) -> Layer {
    pairs.par_sort_unstable_by_key(|p| p.0);
    let mut keys = Vec::with_capacity(pairs.len());
    let mut paths: Vec<u128> = Vec::with_capacity(pairs.len());
    for (k, t) in pairs {
        if keys.last() == Some(&k) {
            if let Some(last) = paths.last_mut() {
                *last = last.saturating_add(t);
            }
        } else {
            keys.push(k);
            paths.push(t);
        }
    }
    keys.shrink_to_fit();
    paths.shrink_to_fit();
    Layer { pegs, keys, paths }
}

/// A layer's figures, and the sequences ending in its goal positions.
fn layer_stats(model: &HopModel, sym: &Symmetry, layer: &Layer, target: u32) -> (LayerCount, u128) {
    let (positions, dead_ends, solutions) = layer
        .keys
        .par_iter()
        .zip(layer.paths.par_iter())
        .map(|(&s, &t)| {
            let orbit = sym.orbit_size(s);
            let goal = model.is_goal(s, target);
            let stuck = !goal && !model.moves.iter().any(|m| s & m.mask == m.need);
            (orbit, if stuck { orbit } else { 0 }, if goal { t } else { 0 })
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let count = LayerCount {
        pegs: layer.pegs,
        positions,
        canonical: layer.keys.len() as u64,
        dead_ends,
        feasible: None,
        feasible_canonical: None,
    };
    (count, solutions)
}

/// The backward pass: a position is feasible when it is a goal or some move leads to a
/// feasible position. Layers are visited emptiest first; only feasible sets are searched.
fn mark_feasible(model: &HopModel, sym: &Symmetry, kept: &[Layer], out: &mut [LayerCount], target: u32) {
    let mut good: BTreeMap<u32, Vec<u128>> = BTreeMap::new();
    for (layer, count) in kept.iter().zip(out.iter_mut()).rev() {
        let ok: Vec<u128> = layer
            .keys
            .par_iter()
            .copied()
            .filter(|&s| {
                model.is_goal(s, target)
                    || model.moves.iter().any(|m| {
                        s & m.mask == m.need && {
                            let ns = sym.canon(s ^ m.mask);
                            good.get(&ns.count_ones())
                                .is_some_and(|g| g.binary_search(&ns).is_ok())
                        }
                    })
            })
            .collect();
        count.feasible = Some(ok.par_iter().map(|&s| sym.orbit_size(s)).sum());
        count.feasible_canonical = Some(ok.len() as u64);
        good.insert(layer.pegs, ok);
    }
}

impl CountResult {
    /// The figures as a text table, fullest layer first, then the totals.
    pub fn table(&self) -> String {
        let feasible = self.layers.iter().any(|l| l.feasible.is_some());
        let mut out = String::new();
        let _ = write!(
            out,
            "{:>5} {:>14} {:>12} {:>14}",
            "pegs", "positions", "canonical", "dead ends"
        );
        if feasible {
            let _ = write!(out, " {:>14} {:>12}", "feasible", "feas. canon.");
        }
        out.push('\n');
        for l in &self.layers {
            let _ = write!(
                out,
                "{:>5} {:>14} {:>12} {:>14}",
                l.pegs, l.positions, l.canonical, l.dead_ends
            );
            if let (Some(f), Some(fc)) = (l.feasible, l.feasible_canonical) {
                let _ = write!(out, " {f:>14} {fc:>12}");
            }
            out.push('\n');
        }
        let _ = write!(out, "{:>5} {:>14} {:>12}", "all", self.positions, self.canonical);
        if feasible {
            let f: u64 = self.layers.iter().filter_map(|l| l.feasible).sum();
            let fc: u64 = self.layers.iter().filter_map(|l| l.feasible_canonical).sum();
            let _ = write!(out, " {:>14} {f:>14} {fc:>12}", "");
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "solutions (jump sequences to the goal): {}\nsymmetries used: {}; {:.3} s; tables ~{}",
            self.solutions,
            self.symmetries,
            self.seconds,
            super::human_bytes(self.memory)
        );
        out
    }
}
