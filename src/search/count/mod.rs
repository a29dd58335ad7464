//! Exhaustive layer-by-layer enumeration of every position reachable from the start.
//!
//! Positions with `k` pegs form layer `k`; every hop empties its `from` and `over` cells and
//! fills `to`, so it removes at least one peg and layers can be built from the fullest down.
//! A layer is a sorted `Vec` of canonical positions under the symmetries that fix the start
//! (and the goal cell), each with `T`, the number of jump sequences from the start ending in
//! any position of its orbit. For an automorphism group, every position of an orbit has the
//! same number of moves into any other orbit, so `T(O') = Σ_O T(O) · #moves(rep(O) → O')`:
//! pushing `T` along each move of each representative counts sequences exactly.

mod kernel;

use super::bits::{Families, Word, orbit_size};
use super::symmetry::Symmetry;
use super::{Budget, GaveUp};
use crate::model::HopModel;
use kernel::{Paths, dedup_sorted, merge_sorted, sort_pieces};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

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

/// Fast move generation for a count: the model's moves as [`Families`] tagged with their
/// index, and every move mask's images under the count's symmetries.
struct MoveGen<K> {
    families: Families<K, usize>,
    order: usize,
    /// `images[id * order + g]`: permutation `g` applied to move `id`'s mask. Permutations
    /// are linear over XOR, so the images of `s ^ mask` are those of `s` XOR these.
    images: Vec<K>,
}

impl<K: Word> MoveGen<K> {
    fn new(model: &HopModel, sym: &Symmetry) -> Self {
        let order = sym.order();
        let mut images = vec![K::ZERO; model.moves.len() * order];
        for (m, out) in model.moves.iter().zip(images.chunks_exact_mut(order)) {
            out.copy_from_slice(&K::narrow(m.mask).images(sym)[..order]);
        }
        MoveGen {
            families: Families::new(model, (0..model.moves.len()).map(|id| (id, id))),
            order,
            images,
        }
    }

    /// The number of moves that can be made in `s`.
    #[inline]
    fn moves(&self, s: K) -> u64 {
        self.families.count(s)
    }

    /// Calls `f` with the canonical form of every position one move from `s`, given the
    /// images of `s` (one per permutation, the identity first).
    #[inline]
    fn each_canonical(&self, s: K, images: &[K], mut f: impl FnMut(K)) {
        self.families.each(s, |mask, id| {
            let mask_images = &self.images[id * self.order..][..self.order];
            let mut best = s ^ mask;
            for (&i, &m) in images.iter().zip(mask_images).skip(1) {
                best = best.min(i ^ m);
            }
            f(best);
        });
    }

    /// True when some move can be made in `s` with `pred` true of the position it leads to.
    #[inline]
    fn any(&self, s: K, mut pred: impl FnMut(K) -> bool) -> bool {
        let mut found = false;
        self.families.each(s, |mask, _| found = found || pred(s ^ mask));
        found
    }
}

/// The bucket a position is stored in: a hash, so buckets fill evenly.
#[inline]
fn bucket<K: Word>(k: K) -> usize {
    (k.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUCKET_BITS)) as usize
}

const BUCKET_BITS: u32 = 8;
const BUCKETS: usize = 1 << BUCKET_BITS;

/// Source buckets expanded at a time: their successors are merged into the next layer
/// before the next batch, so memory holds one batch of unmerged successors at most.
const BATCH: usize = 64;

/// A layer: its canonical positions spread over hash buckets, each sorted, with the
/// sequences reaching each one's orbit.
struct Layer<K, C> {
    pegs: u32,
    buckets: Vec<Vec<(K, C)>>,
}

impl<K: Word, C> Layer<K, C> {
    fn empty(pegs: u32) -> Self {
        Layer {
            pegs,
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
        }
    }

    fn len(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }
}

/// The pairs a layer's buckets have room for.
fn pairs_held<K, C>(layer: &Layer<K, C>) -> u64 {
    layer.buckets.iter().map(|b| b.capacity() as u64).sum()
}

/// One source bucket's successors, by target bucket: (position, sequences).
type Piece<K, C> = Vec<Vec<(K, C)>>;

/// Successors not yet merged: pieces, each one bucket's worth of (position, sequences).
type Pieces<K, C> = Vec<Piece<K, C>>;

/// Why a count stopped early.
enum Stop {
    GaveUp(GaveUp),
    /// A sequence count outgrew the narrow integer: count again with a wide one.
    Overflow,
}

/// The symmetries a count may reduce by: those fixing the start and, if any, the goal cell.
pub fn group(model: &HopModel) -> Symmetry {
    group_within(model, &Budget::new(Default::default())).expect("no limits to reach")
}

/// [`group`], found under `budget`'s limits.
pub fn group_within(model: &HopModel, budget: &Budget) -> Result<Symmetry, GaveUp> {
    Ok(Symmetry::find_within(model, budget)?
        .stabilizer(model.start)
        .fixing_goal(model))
}

/// Enumerates every reachable position, layer by layer, in parallel.
/// Gives up (as `Err(GaveUp)`) when the budget's limits are reached.
pub fn count(model: &HopModel, feasible: bool, budget: &mut Budget) -> Result<CountResult, GaveUp> {
    let sym = group_within(model, budget)?;
    super::keep_heap_slack();
    let narrow = model.geo.cells.len() <= 64;
    let first = if narrow {
        count_with::<u64, u64>(model, &sym, feasible, budget)
    } else {
        count_with::<u128, u64>(model, &sym, feasible, budget)
    };
    let second = match first {
        Err(Stop::Overflow) if narrow => count_with::<u64, u128>(model, &sym, feasible, budget),
        Err(Stop::Overflow) => count_with::<u128, u128>(model, &sym, feasible, budget),
        other => other,
    };
    match second {
        Ok(r) => Ok(r),
        Err(Stop::GaveUp(why)) => Err(why),
        Err(Stop::Overflow) => Err(GaveUp::Overflow),
    }
}

fn count_with<K: Word, C: Paths>(
    model: &HopModel,
    sym: &Symmetry,
    feasible: bool,
    budget: &mut Budget,
) -> Result<CountResult, Stop> {
    let target = model.target_pegs();
    let movegen = MoveGen::<K>::new(model, sym);
    let movegen = &movegen;
    let cells = model.geo.cells.len() as u32;
    let start = K::narrow(model.start);
    let mut first = Layer::empty(model.start.count_ones());
    first.buckets[bucket(start)].push((start, C::ONE));
    let mut pending: BTreeMap<u32, Layer<K, C>> = BTreeMap::from([(first.pegs, first)]);
    let mut kept: Vec<Vec<Vec<K>>> = Vec::new();
    let mut result = CountResult {
        layers: Vec::new(),
        symmetries: sym.order(),
        positions: 0,
        canonical: 0,
        solutions: 0,
        memory: 0,
        seconds: 0.0,
    };
    // The pegs every move removes, when that is the same for all of them.
    let drops: std::collections::BTreeSet<i64> = model
        .moves
        .iter()
        .map(|m| m.need.count_ones() as i64 - (m.mask & !m.need).count_ones() as i64)
        .collect();
    let removed = match drops.iter().collect::<Vec<_>>()[..] {
        [&d] if d > 0 => Some(d as u32),
        _ => None,
    };
    let key_bytes = size_of::<K>() as u64;
    let pair_bytes = size_of::<(K, C)>() as u64;
    let threads = rayon::current_num_threads() as u64;
    while let Some((_, layer)) = pending.pop_last() {
        let (mut stats, solutions, successors) = layer_stats(model, movegen, &layer, target);
        result.solutions += solutions;
        budget.nodes += layer.len() as u64;
        let kept_bytes: u64 = kept.iter().flatten().map(|b| b.capacity() as u64).sum::<u64>() * key_bytes;
        let total: u64 = successors.iter().sum();
        // Room for each piece's share of the successors, with a margin.
        let room = (total as usize).div_ceil(BUCKETS * BUCKETS) * 5 / 4;
        let uniform = removed.and_then(|d| layer.pegs.checked_sub(d));
        let order = sym.order();
        for (sources, made) in layer.buckets.chunks(BATCH).zip(successors.chunks(BATCH)) {
            // Before expanding a batch, counted before it is allocated: the tables held now,
            // and the pieces at most: `room` for each (source, target) pair, and a vector
            // pushed past its room holds at most twice its successors, plus the old copy.
            let held = kept_bytes
                + (pairs_held(&layer) + pending.values().map(pairs_held).sum::<u64>()) * pair_bytes;
            let pieces = (sources.len() * BUCKETS * room) as u64 + 3 * made.iter().sum::<u64>();
            let memory = held + pieces * pair_bytes;
            result.memory = result.memory.max(memory);
            if let Some(why) = budget.exceeded(memory) {
                return Err(Stop::GaveUp(why));
            }
            // Each source bucket's successors, spread over the target buckets, with the
            // positions (Σ orbit sizes, from the images the successors need anyway) and dead
            // ends it holds.
            let expanded: Vec<(Piece<K, C>, u64, u64)> = sources
                .par_iter()
                .map(|pairs| {
                    let mut out: Vec<Vec<(K, C)>> = (0..BUCKETS).map(|_| Vec::with_capacity(room)).collect();
                    let (mut positions, mut dead_ends) = (0, 0);
                    for &(s, t) in pairs {
                        let all = s.images(sym);
                        let images = &all[..order];
                        let orbit = orbit_size(images, s);
                        positions += orbit;
                        let mut moves = 0;
                        movegen.each_canonical(s, images, |ns| {
                            moves += 1;
                            out[bucket(ns)].push((ns, t));
                        });
                        if moves == 0 && !model.is_goal(s.wide(), target) {
                            dead_ends += orbit;
                        }
                    }
                    (out, positions, dead_ends)
                })
                .collect();
            let mut pieces: Pieces<K, C> = Vec::with_capacity(expanded.len());
            for (out, positions, dead_ends) in expanded {
                pieces.push(out);
                stats.positions += positions;
                stats.dead_ends += dead_ends;
            }
            let unmerged: u64 = pieces.iter().flatten().map(|b| b.capacity() as u64).sum();
            // Before merging: each thread merges one bucket at a time, holding its old
            // pairs, the new ones sorted (twice, for the radix passes) and the merged run.
            let widest = (0..BUCKETS)
                .map(|b| {
                    let new: usize = pieces.iter().map(|p| p[b].len()).sum();
                    let old = pending.values().map(|l| l.buckets[b].len()).max().unwrap_or(0);
                    (2 * old + 3 * new) as u64
                })
                .max()
                .unwrap_or(0);
            let memory = held + (unmerged + threads * widest) * pair_bytes;
            result.memory = result.memory.max(memory);
            if let Some(why) = budget.exceeded(memory) {
                return Err(Stop::GaveUp(why));
            }
            for (p, pieces) in by_pegs(pieces, uniform) {
                absorb(
                    pending.entry(p).or_insert_with(|| Layer::empty(p)),
                    &pieces,
                    cells,
                )?;
            }
        }
        result.positions += stats.positions;
        result.canonical += stats.canonical;
        result.layers.push(stats);
        if feasible {
            kept.push(
                layer
                    .buckets
                    .into_iter()
                    .map(|b| b.into_iter().map(|p| p.0).collect())
                    .collect(),
            );
        }
    }
    if feasible {
        mark_feasible(model, movegen, sym, &kept, &mut result.layers, target, budget)
            .map_err(Stop::GaveUp)?;
    }
    result.seconds = budget.elapsed().as_secs_f64();
    Ok(result)
}

/// Splits successors by their peg count: one group when every move removes the same number
/// (`uniform`, that group's peg count, when every move of the model does).
fn by_pegs<K: Word, C: Paths>(pieces: Pieces<K, C>, uniform: Option<u32>) -> BTreeMap<u32, Pieces<K, C>> {
    if let Some(p) = uniform {
        if pieces.iter().flatten().all(Vec::is_empty) {
            return BTreeMap::new();
        }
        return BTreeMap::from([(p, pieces)]);
    }
    let pegs = |k: &K| k.wide().count_ones();
    let mut counts = pieces.iter().flatten().flatten().map(|p| pegs(&p.0));
    let Some(first) = counts.next() else {
        return BTreeMap::new();
    };
    if counts.all(|p| p == first) {
        return BTreeMap::from([(first, pieces)]);
    }
    let mut out: BTreeMap<u32, Pieces<K, C>> = BTreeMap::new();
    for piece in pieces {
        for (b, bucket) in piece.into_iter().enumerate() {
            for pair in bucket {
                let group = out
                    .entry(pegs(&pair.0))
                    .or_insert_with(|| vec![vec![Vec::new(); BUCKETS]]);
                group[0][b].push(pair);
            }
        }
    }
    out
}

/// Merges pieces of successors into a layer, bucket by bucket in parallel: each bucket's new
/// pairs are radix-sorted straight out of the pieces, then merged into the bucket (adding
/// the sequences of equal positions).
fn absorb<K: Word, C: Paths>(layer: &mut Layer<K, C>, pieces: &Pieces<K, C>, cells: u32) -> Result<(), Stop> {
    let ok = layer.buckets.par_iter_mut().enumerate().all(|(b, acc)| {
        let mut new = sort_pieces(pieces.iter().map(|p| &p[b][..]), cells);
        if acc.is_empty() {
            if dedup_sorted(&mut new).is_none() {
                return false;
            }
            *acc = new;
            return true;
        }
        // The merge adds equal neighbours as it goes, so `new` needs no dedup first.
        match merge_sorted(std::mem::take(acc), new) {
            Some(merged) => {
                *acc = merged;
                true
            }
            None => false,
        }
    });
    if ok { Ok(()) } else { Err(Stop::Overflow) }
}

/// A layer's figures so far (positions and dead ends are added as it is expanded), the
/// sequences ending in its goal positions, and its moves from each bucket.
fn layer_stats<K: Word, C: Paths>(
    model: &HopModel,
    movegen: &MoveGen<K>,
    layer: &Layer<K, C>,
    target: u32,
) -> (LayerCount, u128, Vec<u64>) {
    let per_bucket: Vec<(u128, u64)> = layer
        .buckets
        .par_iter()
        .map(|bucket| {
            bucket.iter().fold((0, 0), |(sols, moves), &(s, t)| {
                // Every position of the layer has its peg count.
                let goal = layer.pegs == target && model.is_goal(s.wide(), target);
                (sols + if goal { t.wide() } else { 0 }, moves + movegen.moves(s))
            })
        })
        .collect();
    let solutions = per_bucket.iter().map(|b| b.0).sum();
    let successors = per_bucket.iter().map(|b| b.1).collect();
    let count = LayerCount {
        pegs: layer.pegs,
        positions: 0,
        canonical: layer.len() as u64,
        dead_ends: 0,
        feasible: None,
        feasible_canonical: None,
    };
    (count, solutions, successors)
}

/// The backward pass: a position is feasible when it is a goal or some move leads to a
/// feasible position. Layers are visited emptiest first; only feasible sets are searched.
fn mark_feasible<K: Word>(
    model: &HopModel,
    movegen: &MoveGen<K>,
    sym: &Symmetry,
    kept: &[Vec<Vec<K>>],
    out: &mut [LayerCount],
    target: u32,
    budget: &Budget,
) -> Result<(), GaveUp> {
    let mut good: BTreeMap<u32, Vec<Vec<K>>> = BTreeMap::new();
    let key_bytes = size_of::<K>() as u64;
    let kept_bytes: u64 = kept.iter().flatten().map(|b| b.capacity() as u64).sum::<u64>() * key_bytes;
    let contains = |good: &BTreeMap<u32, Vec<Vec<K>>>, k: K| {
        good.get(&k.wide().count_ones())
            .is_some_and(|g| g[bucket(k)].binary_search(&k).is_ok())
    };
    for (layer, count) in kept.iter().zip(out.iter_mut()).rev() {
        // Before each layer: what is kept, the feasible sets so far and this layer's at most.
        let good_bytes: u64 = good.values().flatten().map(|b| b.capacity() as u64).sum::<u64>() * key_bytes;
        let most: u64 = layer.iter().map(|b| b.len() as u64).sum::<u64>() * key_bytes;
        if let Some(why) = budget.exceeded(kept_bytes + good_bytes + most) {
            return Err(why);
        }
        // Time and Ctrl-C are checked bucket by bucket.
        let ok: Option<Vec<Vec<K>>> = layer
            .par_iter()
            .map(|keys| {
                budget.exceeded(0).is_none().then(|| {
                    keys.iter()
                        .copied()
                        .filter(|&s| {
                            model.is_goal(s.wide(), target)
                                || movegen.any(s, |ns| contains(&good, ns.canon(sym)))
                        })
                        .collect()
                })
            })
            .collect();
        let Some(ok) = ok else {
            return Err(budget.exceeded(0).unwrap_or(GaveUp::Interrupted));
        };
        count.feasible = Some(ok.par_iter().flatten().map(|&s| s.orbit(sym)).sum());
        count.feasible_canonical = Some(ok.iter().map(Vec::len).sum::<usize>() as u64);
        good.insert(count.pegs, ok);
    }
    Ok(())
}
