//! Exhaustive layer-by-layer enumeration of every position reachable from the start.
//!
//! Positions with `k` pegs form layer `k`; every hop empties its `from` and `over` cells and
//! fills `to`, so it removes at least one peg and layers can be built from the fullest down.
//! A layer holds canonical positions under the symmetries that fix the start (and the goal
//! cell), each with `T`, the number of jump sequences from the start ending in any position
//! of its orbit. For an automorphism group, every position of an orbit has the same number
//! of moves into any other orbit, so `T(O') = Σ_O T(O) · #moves(rep(O) → O')`: pushing `T`
//! along each move of each representative counts sequences exactly.
//!
//! A layer is split into hash partitions small enough for a core's cache. Its positions are
//! expanded in rounds: each round's successors are written to per-job buffers, one per
//! target partition, then every partition adds its share into its own open-addressing table
//! (kernel.rs). A round is bounded in pairs (and by the memory limit), so a layer whose
//! successors do not fit at once is simply taken in more rounds; nothing is merged twice.
//! Sequence counts start as `u64` and are widened in place, before a layer is expanded,
//! once the sums it could make might not fit.

mod grid;
mod kernel;

use super::bits::{Families, Word, orbit_size};
use super::bits::{hash, partition};
use super::symmetry::Symmetry;
use super::{Budget, GaveUp};
use crate::model::HopModel;
use kernel::{NoPaths, Paths, Refused, Table, Wide};
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
    /// Complete games ending in this layer: jump sequences from the start to a position
    /// with no move, goal or not (0 with `--positions-only`).
    pub games: u128,
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
    /// Jump sequences from the start to a goal position (0, not counted, and null in JSON, when
    /// `positions_only`).
    pub solutions: u128,
    /// Complete games: jump sequences from the start played until no jump is left, wins
    /// included (0, not counted, when `positions_only`).
    pub games: u128,
    /// For a `pegs: fewest` goal, the fewest pegs it allows (with one on its `at:` cell, if it
    /// names one): `solutions` counts the sequences that leave that many (set by the caller,
    /// which found them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fewest_pegs: Option<u32>,
    /// Only positions were counted, not jump sequences (`--positions-only`).
    #[serde(skip_serializing_if = "is_false")]
    pub positions_only: bool,
    /// The peak estimate of the tables' memory.
    pub memory: u64,
    pub seconds: f64,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// What to count, and in what pieces.
#[derive(Debug, Clone)]
pub struct Options {
    /// Also count the positions that can still reach the goal (keeps every layer's keys).
    pub feasible: bool,
    /// Count jump sequences (the solutions); without, positions only, in 8 bytes each.
    pub sequences: bool,
    /// Successors expanded between two additions into the next layer's tables, at most
    /// (a partition's sources are never split; the memory limit may lower it). `None`:
    /// [`ROUND_BYTES`] of them.
    pub round: Option<u64>,
}

/// The successors a round holds by default, in bytes: larger rounds add more positions
/// into a table each time it is brought into cache (English `count --all`: 4.6 s of CPU
/// with 256 MiB, 5.0 s with 64 MiB).
pub const ROUND_BYTES: u64 = 128 << 20;

impl Default for Options {
    fn default() -> Self {
        Options {
            feasible: false,
            sequences: true,
            round: None,
        }
    }
}

/// Fast move generation for a count: the model's moves as [`Families`] tagged with their
/// index, every move mask's images under the count's symmetries, and the pegs each removes.
struct MoveGen<K> {
    families: Families<K, usize>,
    order: usize,
    /// `images[id * order + g]`: permutation `g` applied to move `id`'s mask. Permutations
    /// are linear over XOR, so the images of `s ^ mask` are those of `s` XOR these.
    images: Vec<K>,
    /// The distinct numbers of pegs a move removes, fewest first.
    drops: Vec<u32>,
    /// `drop_of[id]`: the index in `drops` of what move `id` removes.
    drop_of: Vec<usize>,
    /// The most moves a position can have: every move of the model, at most.
    most: usize,
}

impl<K: Word> MoveGen<K> {
    fn new(model: &HopModel, sym: &Symmetry) -> Self {
        let order = sym.order();
        let mut images = vec![K::ZERO; model.moves.len() * order];
        for (m, out) in model.moves.iter().zip(images.chunks_exact_mut(order)) {
            out.copy_from_slice(&K::narrow(m.mask).images(sym)[..order]);
        }
        // A hop empties `from` and every `over` cell and fills `to`: it removes its overs.
        let removes: Vec<u32> = model.moves.iter().map(|m| m.over.len() as u32).collect();
        let mut drops = removes.clone();
        drops.sort_unstable();
        drops.dedup();
        MoveGen {
            families: Families::new(model, (0..model.moves.len()).map(|id| (id, id))),
            order,
            images,
            drop_of: removes
                .iter()
                .map(|r| drops.binary_search(r).unwrap_or(0))
                .collect(),
            drops,
            most: model.moves.len(),
        }
    }

    /// The number of moves that can be made in `s`.
    #[inline]
    fn moves(&self, s: K) -> u64 {
        self.families.count(s)
    }

    /// Calls `f` with the canonical form of every position one move from `s` and the index
    /// in `drops` of the pegs the move removed, given the images of `s` (one per
    /// permutation, the identity first).
    #[inline(always)]
    fn each_canonical(&self, s: K, images: &[K], mut f: impl FnMut(K, usize)) {
        self.families.each(s, |mask, id| {
            let mask_images = &self.images[id * self.order..][..images.len()];
            let mut best = s ^ mask;
            for (&i, &m) in images.iter().zip(mask_images).skip(1) {
                best = best.min(i ^ m);
            }
            f(best, self.drop_of[id]);
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

/// Positions a partition holds, about: its table (up to twice as many slots, 512 KiB of
/// `u64` pairs) stays in a core's L2 while it is filled, and a job writes to few enough
/// streams (256 on the English board's largest layer, not 4,096) that their ends stay in
/// cache too (English `count --all` on one core: ~6.2 s expanding with 4,096 positions,
/// ~4.9 s with this and [`AHEAD`]; adding ~0.2 s more).
const PART_POSITIONS: u64 = 1 << 14;

/// A layer being built: one table per hash partition.
struct Building<K, C> {
    bits: u32,
    tables: Vec<Table<K, C>>,
    /// Slots a table starts with: the positions a partition is expected to hold.
    hint: usize,
    /// Successors pushed into it so far (towards any layer, when moves remove different
    /// numbers of pegs).
    pushed: u64,
}

impl<K: Word, C: Paths> Building<K, C> {
    /// A layer expected to hold about `positions` positions.
    fn new(positions: u64) -> Self {
        let bits = (positions / PART_POSITIONS)
            .max(1)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(1, 12);
        let per_part = positions >> bits;
        Building {
            bits,
            tables: (0..1 << bits).map(|_| Table::default()).collect(),
            hint: (per_part + per_part / 3) as usize,
            pushed: 0,
        }
    }

    fn len(&self) -> u64 {
        self.tables.iter().map(|t| t.len() as u64).sum()
    }

    fn bytes(&self) -> u64 {
        self.tables
            .iter()
            .map(|t| crate::process::allocated(t.bytes()))
            .sum()
    }
}

/// One partition's positions, each with its sequences.
type Pairs<K, C> = Vec<(K, C)>;

/// A layer ready to expand: its positions by partition, each with its sequences, and what
/// was learnt while gathering them.
struct Ready<K, C> {
    pegs: u32,
    bits: u32,
    parts: Vec<Vec<(K, C)>>,
    /// Positions held.
    len: u64,
    /// Moves from each partition's positions (their successors), as guessed from the
    /// last layer's moves per position.
    successors: Vec<u64>,
    /// Sequences ending in the layer's goal positions.
    solutions: u128,
    /// No sequence count of a layer built from this one can pass this (saturating).
    bound: u128,
}

impl<K, C> Ready<K, C> {
    fn bytes(&self) -> u64 {
        (self.parts.iter().map(Vec::capacity).sum::<usize>() * size_of::<(K, C)>()) as u64
    }
}

/// A layer's keys, kept for the feasible pass: by partition, each sorted.
struct Kept<K> {
    bits: u32,
    parts: Vec<Vec<K>>,
}

impl<K: Word> Kept<K> {
    fn contains(&self, k: K) -> bool {
        self.parts[partition(hash(k), self.bits)]
            .binary_search(&k)
            .is_ok()
    }

    fn bytes(&self) -> u64 {
        (self.parts.iter().map(Vec::capacity).sum::<usize>() * size_of::<K>()) as u64
    }
}

/// One job's successors in a round: a buffer per (drop, target partition), kept (with their
/// capacity) from round to round.
struct Job<K, C> {
    streams: Vec<Vec<(K, C)>>,
    positions: u64,
    dead_ends: u64,
    /// Sequences ending in the layer's positions that have no move.
    games: u128,
    /// Moves made from the layer's positions.
    moves: u64,
}

/// Jobs for a round: twice the threads, so that a thread slowed by other work on the
/// machine is helped out.
fn jobs<K, C>() -> Vec<Job<K, C>> {
    (0..2 * rayon::current_num_threads())
        .map(|_| Job {
            streams: Vec::new(),
            positions: 0,
            dead_ends: 0,
            games: 0,
            moves: 0,
        })
        .collect()
}

/// Positions a table is asked to fetch ahead of the one being added.
const PREFETCH: usize = 8;
/// How many positions a job expands between two checks of the budget within a round.
const ROUND_CHECK: u32 = 1 << 12;

/// Pairs ahead of a stream's end that a job asks the cache for as it appends: a round's
/// streams are fresh memory, so every line would otherwise stall the append that first
/// touches it (English `count --all` on one core, 3 interleaved runs: 5.5–7.3 s expanding
/// without, 4.6–5.0 s with).
const AHEAD: usize = 16;

/// Asks the cache for the line at `p`: only a hint, so `p` may be past any allocation.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint and never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// What a count does next after a layer.
enum Step {
    Done,
    /// A layer's sums could pass the sequence type: go on with a wider one.
    Widen,
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

/// Enumerates every reachable position, layer by layer, in parallel, counting jump
/// sequences. Gives up (as `Err(GaveUp)`) when the budget's limits are reached.
pub fn count(model: &HopModel, feasible: bool, budget: &mut Budget) -> Result<CountResult, GaveUp> {
    count_with(
        model,
        &Options {
            feasible,
            ..Options::default()
        },
        budget,
    )
}

/// [`count`] as `options` say: with or without sequences, in rounds of at most
/// `options.round` successors.
pub fn count_with(model: &HopModel, options: &Options, budget: &mut Budget) -> Result<CountResult, GaveUp> {
    crate::process::keep_heap_slack();
    let sym = group_within(model, budget)?;
    let grid = grid::regrid(model, &sym);
    let (model, sym) = grid.as_ref().map_or((model, &sym), |(m, s)| (m, s));
    if model.geo.cells.len() <= 64 {
        count_keyed::<u64>(model, sym, options, budget)
    } else {
        count_keyed::<u128>(model, sym, options, budget)
    }
}

fn count_keyed<K: Word>(
    model: &HopModel,
    sym: &Symmetry,
    options: &Options,
    budget: &mut Budget,
) -> Result<CountResult, GaveUp> {
    let movegen = &MoveGen::<K>::new(model, sym);
    if !options.sequences {
        let mut c = Counter::<K, NoPaths>::new(model, sym, movegen, options, budget)?;
        c.run(budget)?;
        return c.finish(budget);
    }
    count_sequences::<K, u64>(model, sym, movegen, options, budget)
}

/// A count of sequences in `N` first, widened in place to [`Wide`] if a layer needs it.
fn count_sequences<K: Word, N: Paths>(
    model: &HopModel,
    sym: &Symmetry,
    movegen: &MoveGen<K>,
    options: &Options,
    budget: &mut Budget,
) -> Result<CountResult, GaveUp> {
    let mut narrow = Counter::<K, N>::new(model, sym, movegen, options, budget)?;
    match narrow.run(budget)? {
        Step::Done => narrow.finish(budget),
        Step::Widen => {
            let mut wide = narrow.widen(budget)?;
            match wide.run(budget)? {
                Step::Done => wide.finish(budget),
                Step::Widen => unreachable!("the widest count is never widened"),
            }
        }
    }
}

/// One count's state between layers.
struct Counter<'a, K, C> {
    model: &'a HopModel,
    sym: &'a Symmetry,
    movegen: &'a MoveGen<K>,
    options: &'a Options,
    target: u32,
    /// The layer to expand next, if gathered.
    current: Option<Ready<K, C>>,
    /// Layers being built, by peg count.
    pending: BTreeMap<u32, Building<K, C>>,
    kept: Vec<Kept<K>>,
    jobs: Vec<Job<K, C>>,
    /// Positions per successor in the last layer built: the guess for the next one's size.
    ratio: f64,
    /// Moves per position in the last layer expanded: the guess for the next one's.
    branching: f64,
    result: CountResult,
}

impl<'a, K: Word, C: Paths> Counter<'a, K, C> {
    fn new(
        model: &'a HopModel,
        sym: &'a Symmetry,
        movegen: &'a MoveGen<K>,
        options: &'a Options,
        budget: &mut Budget,
    ) -> Result<Self, GaveUp> {
        let start = K::narrow(model.start);
        let bits = 1;
        let mut parts = vec![Vec::new(); 1 << bits];
        parts[partition(hash(start), bits)].push((start, C::ONE));
        let mut c = Counter {
            model,
            sym,
            movegen,
            options,
            target: model.target_pegs(),
            current: None,
            pending: BTreeMap::new(),
            kept: Vec::new(),
            jobs: jobs(),
            ratio: 1.0,
            branching: movegen.most as f64,
            result: CountResult {
                layers: Vec::new(),
                symmetries: sym.order(),
                positions: 0,
                canonical: 0,
                solutions: 0,
                games: 0,
                fewest_pegs: None,
                positions_only: C::MAX == 0,
                memory: 0,
                seconds: 0.0,
            },
        };
        c.current = Some(c.gather(model.start.count_ones(), bits, parts, budget)?);
        Ok(c)
    }

    /// Bytes held by every table, buffer and kept layer.
    fn held(&self) -> u64 {
        let current = self.current.as_ref().map_or(0, Ready::bytes);
        let pending: u64 = self.pending.values().map(Building::bytes).sum();
        let kept: u64 = self.kept.iter().map(Kept::bytes).sum();
        let jobs: usize = self.jobs.iter().flat_map(|j| &j.streams).map(Vec::capacity).sum();
        current + pending + kept + (jobs * size_of::<(K, C)>()) as u64
    }

    /// [`Counter::held`], or what the process has grown by if more: the streams' small
    /// buffers leave freed pieces behind them as they grow, which the allocator keeps.
    fn held_now(&self, budget: &Budget) -> u64 {
        self.held().max(budget.resident_growth())
    }

    /// Checks the budget with `more` bytes about to be taken, noting the peak.
    fn check(&mut self, budget: &Budget, more: u64) -> Result<(), GaveUp> {
        let memory = self.held_now(budget) + more;
        self.result.memory = self.result.memory.max(memory);
        budget.exceeded(memory).map_or(Ok(()), Err)
    }

    /// A layer's positions made ready to expand: the sequences ending in goal positions, and a bound on the sums the layer
    /// can make (its sequences times the most moves a position has, or counted move by move
    /// when that crude bound would call for a wider type).
    fn gather(
        &self,
        pegs: u32,
        bits: u32,
        parts: Vec<Vec<(K, C)>>,
        budget: &mut Budget,
    ) -> Result<Ready<K, C>, GaveUp> {
        let (model, movegen, target) = (self.model, self.movegen, self.target);
        let per_part: Vec<(Pairs<K, C>, u128, u128)> = parts
            .into_par_iter()
            .map(|part| {
                let (mut sols, mut sum) = (0u128, 0u128);
                for &(s, t) in &part {
                    // Every position of the layer has its peg count.
                    if pegs == target && model.is_goal(s.wide(), target) {
                        sols += t.wide();
                    }
                    sum = sum.saturating_add(t.wide());
                }
                (part, sols, sum)
            })
            .collect();
        let sum = per_part.iter().fold(0u128, |b, p| b.saturating_add(p.2));
        let mut bound = sum.saturating_mul(movegen.most as u128);
        if C::MAX > 0 && bound > C::MAX {
            bound = per_part
                .par_iter()
                .map(|p| {
                    p.0.iter().fold(0u128, |b, &(s, t)| {
                        b.saturating_add(t.wide().saturating_mul(movegen.moves(s) as u128))
                    })
                })
                .reduce(|| 0, u128::saturating_add);
        }
        let solutions = per_part.iter().map(|p| p.1).sum();
        let parts: Vec<Vec<(K, C)>> = per_part.into_iter().map(|p| p.0).collect();
        let ready = Ready {
            pegs,
            bits,
            len: parts.iter().map(|p| p.len() as u64).sum(),
            successors: parts
                .iter()
                .map(|p| (p.len() as f64 * self.branching) as u64)
                .collect(),
            parts,
            solutions,
            bound,
        };
        budget.nodes += ready.len;
        Ok(ready)
    }

    /// Expands layers until none is left, or until one could outgrow the sequence type.
    fn run(&mut self, budget: &mut Budget) -> Result<Step, GaveUp> {
        loop {
            if self.current.is_none() {
                let Some((pegs, building)) = self.pending.pop_last() else {
                    return Ok(Step::Done);
                };
                // A layer only some moves could have reached, and none did.
                let len = building.len();
                if len == 0 {
                    continue;
                }
                self.ratio = len as f64 / building.pushed.max(1) as f64;
                self.check(budget, 0)?;
                let bits = building.bits;
                let parts = building.tables.into_par_iter().map(Table::into_pairs).collect();
                self.current = Some(self.gather(pegs, bits, parts, budget)?);
            }
            let layer = self.current.as_ref().expect("gathered");
            // Any sum this layer makes is at most the largest count already in a layer it
            // adds to plus every sequence it pushes.
            let before = self
                .pending
                .values()
                .flat_map(|b| &b.tables)
                .map(Table::max_paths)
                .max();
            if C::MAX > 0 && C::MAX < u128::MAX && layer.bound.saturating_add(before.unwrap_or(0)) > C::MAX {
                return Ok(Step::Widen);
            }
            let layer = self.current.take().expect("gathered");
            self.expand(&layer, budget)?;
            self.result.solutions += layer.solutions;
            if self.options.feasible {
                let parts = layer
                    .parts
                    .into_par_iter()
                    .map(|part| {
                        let mut keys: Vec<K> = part.into_iter().map(|p| p.0).collect();
                        keys.sort_unstable();
                        keys
                    })
                    .collect();
                self.kept.push(Kept {
                    bits: layer.bits,
                    parts,
                });
            }
        }
    }

    /// Expands one layer into the layers below it, round by round, and records its figures.
    fn expand(&mut self, layer: &Ready<K, C>, budget: &mut Budget) -> Result<(), GaveUp> {
        let total: u64 = layer.successors.iter().sum();
        // The layers this one's moves lead to, one per number of pegs a move removes (none
        // for a move that needs more pegs than there are), with their first offset in a
        // job's streams.
        let mut targets: Vec<Option<(u32, u32, usize)>> = Vec::new();
        let mut streams = 0;
        for &d in &self.movegen.drops {
            let Some(pegs) = layer.pegs.checked_sub(d) else {
                targets.push(None);
                continue;
            };
            let expected = (total as f64 * self.ratio) as u64;
            let bits = self
                .pending
                .entry(pegs)
                .or_insert_with(|| Building::new(expected))
                .bits;
            targets.push(Some((pegs, bits, streams)));
            streams += 1 << bits;
        }
        for job in &mut self.jobs {
            job.streams.resize_with(streams, Vec::new);
            job.streams.truncate(streams);
            job.positions = 0;
            job.dead_ends = 0;
            job.games = 0;
            job.moves = 0;
        }
        let pair = size_of::<(K, C)>() as u64;
        let mut first = 0;
        let n = layer.parts.len();
        while first < n {
            // A round: partitions whose successors fit the round, at least one, fewer when
            // the memory limit leaves less room (buffers of twice the pairs, as they grow).
            let room = budget.room(self.held_now(budget)).left() / (4 * pair.max(1));
            let round = self.options.round.unwrap_or(ROUND_BYTES / pair.max(1));
            let limit = round.min(room).max(1);
            let mut end = first;
            let mut sum = 0;
            while end < n && (end == first || sum + layer.successors[end] <= limit) {
                sum += layer.successors[end];
                end += 1;
            }
            self.check(budget, 2 * sum * pair)?;
            let held = self.held_now(budget);
            self.expand_round(layer, first..end, sum, &targets, budget, held)?;
            self.check(budget, 0)?;
            self.flush(&targets, budget)?;
            first = end;
        }
        let mut stats = LayerCount {
            pegs: layer.pegs,
            canonical: layer.len,
            ..LayerCount::default()
        };
        let mut moves = 0;
        for job in &self.jobs {
            stats.positions += job.positions;
            stats.dead_ends += job.dead_ends;
            stats.games += job.games;
            moves += job.moves;
        }
        self.branching = moves as f64 / layer.len.max(1) as f64;
        for &(pegs, _, _) in targets.iter().flatten() {
            self.pending.get_mut(&pegs).expect("a target").pushed += moves;
        }
        self.result.positions += stats.positions;
        self.result.canonical += stats.canonical;
        self.result.games += stats.games;
        self.result.layers.push(stats);
        Ok(())
    }

    /// Expands the positions of `parts` into the jobs' streams, each job a run of
    /// partitions with about the same number of successors. Every [`ROUND_CHECK`] positions
    /// a job checks the budget (Ctrl-C, the clock, and the process's growth beyond `held`
    /// against the memory limit): a round's successors are only guessed beforehand, and on a
    /// board of many moves one partition's took seconds and gigabytes more than guessed.
    fn expand_round(
        &mut self,
        layer: &Ready<K, C>,
        parts: std::ops::Range<usize>,
        sum: u64,
        targets: &[Option<(u32, u32, usize)>],
        budget: &Budget,
        held: u64,
    ) -> Result<(), GaveUp> {
        let jobs = self.jobs.len() as u64;
        let mut slices = vec![parts.start..parts.start; jobs as usize];
        let mut before = 0;
        for p in parts {
            let j = (before * jobs / sum.max(1)).min(jobs - 1) as usize;
            if slices[j].is_empty() {
                slices[j] = p..p;
            }
            slices[j].end = p + 1;
            before += layer.successors[p];
        }
        let (model, sym, movegen, target) = (self.model, self.sym, self.movegen, self.target);
        let stopped = std::sync::Mutex::new(None);
        self.jobs.par_iter_mut().zip(slices).for_each(|(job, slice)| {
            job.streams.iter_mut().for_each(Vec::clear);
            let mut since = 0;
            for part in &layer.parts[slice] {
                for &(s, t) in part {
                    since += 1;
                    if since == ROUND_CHECK {
                        since = 0;
                        let why = budget.exceeded_or_grown(held);
                        let mut first = stopped.lock().unwrap_or_else(|e| e.into_inner());
                        if first.is_none() {
                            *first = why;
                        }
                        if first.is_some() {
                            return;
                        }
                    }
                    s.with_images(sym, |images| {
                        let orbit = orbit_size(images, s);
                        job.positions += orbit;
                        let mut moves = 0;
                        movegen.each_canonical(s, images, |ns, d| {
                            moves += 1;
                            if let Some((_, bits, offset)) = targets[d] {
                                let stream = &mut job.streams[offset + partition(hash(ns), bits)];
                                stream.push((ns, t));
                                prefetch(stream.as_ptr().wrapping_add(stream.len() + AHEAD));
                            }
                        });
                        if moves == 0 {
                            // `t` counts the sequences ending anywhere in the orbit.
                            job.games += t.wide();
                            if !model.is_goal(s.wide(), target) {
                                job.dead_ends += orbit;
                            }
                        }
                        job.moves += moves;
                    });
                }
            }
        });
        stopped
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .map_or(Ok(()), Err)
    }

    /// Adds the jobs' streams into the target layers' tables, partition by partition in
    /// parallel; a table takes the bytes of its growth from the budget's room first.
    fn flush(&mut self, targets: &[Option<(u32, u32, usize)>], budget: &Budget) -> Result<(), GaveUp> {
        let room = budget.room(self.held_now(budget));
        let jobs = &self.jobs;
        for &(pegs, bits, offset) in targets.iter().flatten() {
            let building = self.pending.get_mut(&pegs).expect("target made before the round");
            let hint = building.hint;
            building
                .tables
                .par_iter_mut()
                .enumerate()
                .try_for_each(|(p, table)| {
                    // Ctrl-C and the clock, at each partition and before each growth (a
                    // large table's takes a while): a round's additions took seconds on a
                    // board of many moves.
                    budget.exceeded(0).map_or(Ok(()), Err)?;
                    for job in jobs {
                        let stream = &job.streams[offset + p];
                        for (i, &(k, t)) in stream.iter().enumerate() {
                            if let Some(&(ahead, _)) = stream.get(i + PREFETCH) {
                                table.prefetch(hash(ahead), bits);
                            }
                            loop {
                                match table.add(k, hash(k), t, bits) {
                                    Ok(()) => break,
                                    Err(Refused::Full) => {
                                        budget.exceeded(0).map_or(Ok(()), Err)?;
                                        let grown = crate::process::allocated(table.grown_bytes(hint));
                                        if !room.take(grown) {
                                            return Err(room.exhausted());
                                        }
                                        let old = crate::process::allocated(table.bytes());
                                        table.grow(bits, hint);
                                        room.give(old);
                                    }
                                    Err(Refused::Overflow) => return Err(GaveUp::Overflow),
                                }
                            }
                        }
                    }
                    Ok(())
                })?;
        }
        Ok(())
    }

    /// The figures, with the feasible pass if asked for.
    fn finish(mut self, budget: &Budget) -> Result<CountResult, GaveUp> {
        if self.options.feasible {
            self.jobs.clear();
            let (model, movegen, sym, target) = (self.model, self.movegen, self.sym, self.target);
            mark_feasible(
                model,
                movegen,
                sym,
                &self.kept,
                &mut self.result.layers,
                target,
                budget,
            )?;
        }
        self.result.seconds = budget.elapsed().as_secs_f64();
        Ok(self.result)
    }
}

impl<'a, K: Word, C: Paths> Counter<'a, K, C> {
    /// The same count with 128-bit sequence counts: the layer to expand next and the layers
    /// being built converted one partition at a time, counted before they are.
    fn widen(mut self, budget: &Budget) -> Result<Counter<'a, K, Wide>, GaveUp> {
        self.jobs.clear();
        let grown = size_of::<(K, Wide)>() as u64 / size_of::<(K, C)>() as u64 + 1;
        self.check(budget, self.held() * grown)?;
        let current = self.current.map(|r| Ready {
            pegs: r.pegs,
            bits: r.bits,
            len: r.len,
            parts: r
                .parts
                .into_iter()
                .map(|p| {
                    p.into_iter()
                        .map(|(k, c)| (k, Wide::from_wide(Paths::wide(c))))
                        .collect()
                })
                .collect(),
            successors: r.successors,
            solutions: r.solutions,
            bound: r.bound,
        });
        let pending = self
            .pending
            .into_iter()
            .map(|(pegs, b)| {
                let tables = b.tables.into_iter().map(Table::convert).collect();
                (
                    pegs,
                    Building {
                        bits: b.bits,
                        tables,
                        hint: b.hint,
                        pushed: b.pushed,
                    },
                )
            })
            .collect();
        Ok(Counter {
            model: self.model,
            sym: self.sym,
            movegen: self.movegen,
            options: self.options,
            target: self.target,
            current,
            pending,
            kept: self.kept,
            jobs: jobs(),
            ratio: self.ratio,
            branching: self.branching,
            result: self.result,
        })
    }
}

/// The backward pass: a position is feasible when it is a goal or some move leads to a
/// feasible position. Layers are visited emptiest first; only feasible sets are searched.
fn mark_feasible<K: Word>(
    model: &HopModel,
    movegen: &MoveGen<K>,
    sym: &Symmetry,
    kept: &[Kept<K>],
    out: &mut [LayerCount],
    target: u32,
    budget: &Budget,
) -> Result<(), GaveUp> {
    let mut good: BTreeMap<u32, Kept<K>> = BTreeMap::new();
    let kept_bytes: u64 = kept.iter().map(Kept::bytes).sum();
    let contains =
        |good: &BTreeMap<u32, Kept<K>>, k: K| good.get(&k.wide().count_ones()).is_some_and(|g| g.contains(k));
    for (layer, count) in kept.iter().zip(out.iter_mut()).rev() {
        // Before each layer: what is kept, the feasible sets so far and this layer's at most.
        let good_bytes: u64 = good.values().map(Kept::bytes).sum();
        let most: u64 = layer.bytes();
        if let Some(why) = budget.exceeded(kept_bytes + good_bytes + most) {
            return Err(why);
        }
        // Time and Ctrl-C are checked partition by partition.
        let ok: Option<Vec<Vec<K>>> = layer
            .parts
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
        good.insert(
            count.pegs,
            Kept {
                bits: layer.bits,
                parts: ok,
            },
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve;

    /// Sequence counts in 8 bits: a layer of the 15-hole triangle soon needs more.
    #[derive(Debug, Clone, Copy, Default)]
    struct Tiny(u8);

    impl Paths for Tiny {
        const ONE: Self = Tiny(1);
        const MAX: u128 = u8::MAX as u128;
        fn add(self, other: Self) -> Option<Self> {
            self.0.checked_add(other.0).map(Tiny)
        }
        fn wide(self) -> u128 {
            self.0 as u128
        }
        fn from_wide(n: u128) -> Self {
            Tiny(n as u8)
        }
    }

    /// Started in 8 bits, the count widens in place before a layer could pass 255 (else a
    /// table would refuse the addition and the count give up) and ends with the 29,760
    /// sequences the `u64` count finds, layer for layer the same. (Compared with the `u64`
    /// count directly, not through `count`, whose every board width and kind of count the
    /// unit-test build would otherwise compile again.)
    #[test]
    fn a_count_widens_in_place_before_a_layer_could_overflow() {
        let rows = ["    .", "   oo", "  ooo", " oooo", "ooooo"];
        let m = solve::hop_model("triangle_hop", &rows, "{pegs: 1}").unwrap();
        let sym = group(&m);
        let movegen = MoveGen::<u64>::new(&m, &sym);
        let run = |budget: &mut Budget, narrow: bool| {
            let opts = Options::default();
            if narrow {
                count_sequences::<u64, Tiny>(&m, &sym, &movegen, &opts, budget)
            } else {
                count_sequences::<u64, u64>(&m, &sym, &movegen, &opts, budget)
            }
        };
        let widened = run(&mut Budget::new(Default::default()), true).unwrap();
        let plain = run(&mut Budget::new(Default::default()), false).unwrap();
        assert_eq!(widened.solutions, 29_760);
        assert_eq!(widened.layers, plain.layers);
    }
}
