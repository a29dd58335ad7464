//! Bidirectional counting: a forward pass from the start and a backward pass from the goal
//! positions meet in the middle, so only positions near a solution are ever stored.
//!
//! The backward pass is the forward game on complements: a hop `x → y` empties `from` and
//! `over` and fills `to`, so in `!y` those cells hold a peg, hole, … and the same hop leads
//! `!y → !x`. Counting the sequences from the complemented goal positions with the ordinary
//! forward machinery therefore counts, for each position, the sequences that finish from it.
//! When the complemented goal is the start itself (the central games: start = every hole but
//! the centre, goal = the centre alone) both passes are the same computation and it runs once.
//!
//! Each pass stores, per canonical position (least image under the symmetries fixing the
//! start and the goal cell), `T`: the sequences from its start set ending anywhere in the
//! position's orbit. With `F(x)` and `B(x)` the per-position numbers of sequences from the
//! start to `x` and from `x` to the goal, the solutions are `Σ_x Σ_{x→y} F(x)·B(y)` over the
//! hops from one forward layer into the adjacent backward one. Both factors are constant on
//! orbits, so summing over forward representatives `x` with weight `T_F(O_x) = |O_x|·F(x)` and
//! reading `B(y) = T_B(O_y)/|O_y| = T_B(O_y)·|Stab(y)|/|G|` gives every term exactly once;
//! the division by `|G|` is done once, at the end, on the exact sum.
//!
//! Each pass keeps only positions that may still reach where it heads (the goal, or for the
//! backward pass the complemented start): the pagoda constant on symmetry orbits that rules
//! out the most positions of a sample frontier (`orbit_pagoda`) cuts the rest as they are
//! generated — on the English board a fifth of the forward pass's largest layer.
//!
//! Feasible positions (on some solution) come out of the meeting: a forward position is
//! feasible when a hop leads into a stored backward position, and going outwards layer by
//! layer, when a hop leads to a feasible position of the next layer; likewise backwards.

mod game;
mod layer;

use super::bits::{binomial, hash, subsets};
use super::count::{self, CountResult};
use super::orbit_pagoda;
use super::symmetry::Symmetry;
use super::{Budget, GaveUp, Room};
use crate::model::HopModel;
use crate::spec::PegGoal;
use game::{Cut, Game, canon_after};
use layer::{BATCH_PAIRS, Filter, Full, Scattered, Table, merge};
use rayon::prelude::*;
use serde::Serialize;

/// Whether `MARBLES_MEMORY_TRACE` is set: each budget check of the count then prints its
/// figure for its tables beside what the process has grown by, on stderr (how the estimates
/// are checked against the resident memory they stand for).
fn trace_memory() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("MARBLES_MEMORY_TRACE").is_some())
}

/// Goal sets larger than this are not enumerated: the full enumeration counts instead.
const MAX_GOAL_POSITIONS: u64 = 1 << 20;

/// One layer's figures in the bidirectional count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MeetLayer {
    pub pegs: u32,
    /// Positions on some solution (reachable from the start and able to reach the goal).
    pub feasible: u64,
    pub feasible_canonical: u64,
    /// Canonical positions the pass that covered this layer stored: reachable from the start
    /// (forward) or able to reach the goal (backward), and not ruled out by the pass's pagoda.
    pub searched_canonical: u64,
    /// `forward` or `backward`.
    pub pass: &'static str,
}

/// Everything the bidirectional count finds.
#[derive(Debug, Clone, Serialize)]
pub struct MeetResult {
    pub method: &'static str,
    /// Fullest layer first.
    pub layers: Vec<MeetLayer>,
    pub symmetries: usize,
    pub feasible: u64,
    pub feasible_canonical: u64,
    /// Canonical positions both passes stored.
    pub searched_canonical: u64,
    /// The peg counts of the forward and backward layers the passes met between.
    pub meeting: [u32; 2],
    /// True when the backward pass was the forward pass itself (goal = complemented start).
    pub self_dual: bool,
    /// Jump sequences from the start to a goal position.
    pub solutions: u128,
    /// For a `pegs: fewest` goal, the fewest pegs it allows: `solutions` counts the sequences
    /// that leave that many (set by the caller, which found them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fewest_pegs: Option<u32>,
    /// The peak estimate of the tables' memory.
    pub memory: u64,
    pub seconds: f64,
}

/// What `marbles count` found: the full enumeration (`--all`) or the bidirectional count.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Counted {
    All(CountResult),
    Meet(MeetResult),
}

impl Counted {
    pub fn solutions(&self) -> u128 {
        match self {
            Counted::All(r) => r.solutions,
            Counted::Meet(r) => r.solutions,
        }
    }
}

/// Counts solutions bidirectionally when the model allows it, else by the full enumeration
/// (without the feasible pass). Stops with `Stop::GaveUp` at the budget's limits, and with
/// `Stop::Internal` when its own cross-checks disagree (a bug, never an answer).
pub fn count(model: &HopModel, budget: &mut Budget) -> Result<Counted, Stop> {
    match meet(model, budget) {
        Ok(r) => Ok(Counted::Meet(r)),
        // Not a shape this count handles, or a sequence count beyond u64: the full
        // enumeration handles both (it widens to u128 by itself).
        Err(Stop::Unsupported(_) | Stop::Overflow) => count::count(model, false, budget)
            .map(Counted::All)
            .map_err(Stop::GaveUp),
        Err(other) => Err(other),
    }
}

/// Why the bidirectional count did not finish.
#[derive(Debug)]
pub enum Stop {
    GaveUp(GaveUp),
    /// The passes' cross-checks disagree: a bug to report.
    Internal(String),
    Unsupported(String),
    Overflow,
}

/// The bidirectional count itself; `Stop::Unsupported` says why a model is not handled.
pub fn meet(model: &HopModel, budget: &mut Budget) -> Result<MeetResult, Stop> {
    let sym = count::group_within(model, budget).map_err(Stop::GaveUp)?;
    match sym.order() {
        1 => meet_with::<1>(model, &sym, budget),
        2 => meet_with::<2>(model, &sym, budget),
        3 => meet_with::<3>(model, &sym, budget),
        4 => meet_with::<4>(model, &sym, budget),
        6 => meet_with::<6>(model, &sym, budget),
        8 => meet_with::<8>(model, &sym, budget),
        12 => meet_with::<12>(model, &sym, budget),
        n => Err(Stop::Unsupported(format!("a symmetry group of order {n}"))),
    }
}

/// A pass's pagoda is chosen again on each frontier from `SAMPLE_FROM` positions (on up to
/// [`SAMPLE`] of them) until one of `SAMPLE_AT`: the layers where most positions have no
/// future lie deeper, and small early samples pick weak pagodas.
const SAMPLE_FROM: usize = 64;
const SAMPLE_AT: usize = 65536;
const SAMPLE: usize = 8192;

/// One pass (forward from the start, or backward from the goal as the forward game on
/// complements): the positions of every layer done, and the last one with its sequences.
struct Pass {
    /// Positions of the layers before the frontier, by step from the pass's start.
    done: Vec<Vec<Vec<u64>>>,
    frontier: Table,
    /// Layer sizes, by step (the frontier's included).
    sizes: Vec<u64>,
    /// Where the pass heads: a stored position is worth keeping only if it can reach one.
    targets: Vec<u64>,
    /// The pagoda that rules out positions unable to reach a target, once chosen.
    cut: Option<Cut>,
    chosen: bool,
}

impl Pass {
    fn new(starts: impl Iterator<Item = u64>, targets: Vec<u64>) -> Result<Self, Stop> {
        let mut frontier = Table::with_room(0);
        for s in starts {
            // One sequence of length zero per start position: the orbit's sum is its size.
            frontier.add(s, 1).ok_or(Stop::Overflow)?;
        }
        let sizes = vec![frontier.len() as u64];
        Ok(Pass {
            done: Vec::new(),
            frontier,
            sizes,
            targets,
            cut: None,
            chosen: false,
        })
    }

    fn steps(&self) -> usize {
        self.sizes.len() - 1
    }

    fn bytes(&self) -> u64 {
        self.frontier.bytes()
            + self
                .done
                .iter()
                .flatten()
                .map(|p| p.capacity() as u64 * 8)
                .sum::<u64>()
    }
}

/// Shared state of a count: the game, the budget and the peak memory estimate.
struct Run<'a, const G: usize> {
    game: &'a Game<G>,
    model: &'a HopModel,
    perms: &'a [Vec<usize>],
    /// The board's orbit-constant pagodas, found at the first choice (`Some(None)`: none).
    pagodas: Option<Option<orbit_pagoda::Candidates>>,
    budget: &'a mut Budget,
    peak: u64,
    /// Pairs emitted per source position in the last batch (a guess before the first).
    fan_out: f64,
    /// Batch buffers, one per source, kept for the next batch.
    pool: Vec<Scattered>,
    /// What the process held beyond the count's own figures at the last phase boundary
    /// ([`Run::settle`]): counted with them at every check.
    untracked: u64,
}

impl<const G: usize> Run<'_, G> {
    #[track_caller]
    fn check(&mut self, memory: u64) -> Result<(), Stop> {
        self.peak = self.peak.max(memory);
        if trace_memory() {
            let mib = |b: u64| b as f64 / f64::from(1 << 20);
            eprintln!(
                "meet.rs:{}: tables {:.1} MiB + untracked {:.1} MiB; grown by {:.1} MiB",
                std::panic::Location::caller().line(),
                mib(memory),
                mib(self.untracked),
                mib(self.budget.untracked(0)),
            );
        }
        match self.budget.exceeded(memory + self.untracked) {
            Some(why) => Err(Stop::GaveUp(why)),
            None => Ok(()),
        }
    }

    /// The room left beside `held` bytes of tables and what the process holds beyond them:
    /// `untracked`, or its growth since the search began when that is more.
    fn room(&self, held: u64) -> Room {
        let counted = held + self.untracked;
        self.budget.room(counted.max(self.budget.resident_growth()))
    }

    /// The keys of each partition (`keys`, in the order `hits` marks them) whose mark is set,
    /// in one vector whose bytes are checked against the budget (with `held`) before it is
    /// allocated.
    fn gather<K: Iterator<Item = u64>>(
        &mut self,
        held: u64,
        hits: &[Vec<bool>],
        keys: impl Iterator<Item = K>,
    ) -> Result<Vec<u64>, Stop> {
        let met = hits
            .par_iter()
            .map(|h| h.iter().filter(|&&b| b).count())
            .sum::<usize>();
        self.check(held + met as u64 * 8)?;
        let mut out = Vec::with_capacity(met);
        out.extend(
            keys.zip(hits)
                .flat_map(|(keys, hit)| keys.zip(hit).filter(|e| *e.1).map(|e| e.0)),
        );
        Ok(out)
    }

    /// At a phase boundary, where `memory` is all the count's tables hold: hands what the
    /// phase freed back to the system and measures what the process holds beyond `memory`.
    ///
    /// Without this the count passed its limit by up to a fifth (English edge at 95MB:
    /// 106.7 MiB). A layer's partitions, the batch buffers and the sorted keys of each
    /// partition are mostly under the 128 KiB at which allocations are mapped on their own,
    /// so glibc keeps them in its heaps when freed: after each layer the process held
    /// 12-25 MiB more than its tables, and the next layer's table, counted against the
    /// tables alone, was allocated on top of that.
    fn settle(&mut self, memory: u64) {
        crate::process::release_freed();
        self.untracked = self.budget.untracked(memory);
    }

    /// Runs `emit` over `sources` (each of `size` positions) in batches of about
    /// [`BATCH_PAIRS`] pairs; each batch is scattered by hash partition and handed to
    /// `absorb`, which returns the bytes the tables then hold. Every random access of a
    /// batch thus lands in one partition at a time, which stays in cache.
    fn batched<S: Sync>(
        &mut self,
        sources: &[S],
        size: impl Fn(&S) -> usize,
        mut fan_out: f64,
        mut held: u64,
        emit: impl Fn(&S, &mut Vec<(u64, u64)>) + Sync,
        mut absorb: impl FnMut(&[Scattered], &Room) -> Result<u64, Stop>,
    ) -> Result<f64, Stop> {
        let mut first = 0;
        while first < sources.len() {
            // A batch's pairs are a guess from the fan-out so far, and a batch may make more:
            // near the limit a batch takes at most half the room left (16 bytes a pair, twice),
            // so that one guessed low by half stays within the limit (a 16 MiB batch passed
            // 60MB by 2.7 MiB).
            let left = self.room(held).left() / (2 * 16 * 2);
            let most = (BATCH_PAIRS as u64).min(left) as f64;
            let mut take = 0;
            let mut guess = 0.0;
            while first + take < sources.len() && (take == 0 || guess < most) {
                guess += size(&sources[first + take]) as f64 * fan_out;
                take += 1;
            }
            let chunk = &sources[first..first + take];
            first += take;
            // Before generating: the pairs and their scattered copy.
            let pooled: u64 = self.pool.iter().map(Scattered::bytes).sum();
            self.check(held + pooled.max(2 * 16 * guess as u64))?;
            if self.pool.len() < take {
                self.pool.resize_with(take, Scattered::default);
            }
            let batch = &mut self.pool[..take];
            chunk.par_iter().zip(batch.par_iter_mut()).for_each(|(s, b)| {
                b.raw.clear();
                emit(s, &mut b.raw);
                b.scatter();
            });
            let pairs: usize = self.pool[..take].iter().map(|b| b.pairs.len()).sum();
            let positions: usize = chunk.iter().map(&size).sum();
            if positions > 0 {
                fan_out = (pairs as f64 / positions as f64).max(0.5);
            }
            self.budget.nodes += positions as u64;
            let batch_bytes: u64 = self.pool.iter().map(Scattered::bytes).sum();
            // The tables take each growth from what is left beside the batch, before it, and
            // beside what the process holds that no figure counts.
            self.check(held + batch_bytes)?;
            held = absorb(&self.pool[..take], &self.room(held + batch_bytes))?;
            self.check(held)?;
        }
        // Reused within a layer; between layers sizes change, and idle buffers are memory.
        self.pool.clear();
        self.settle(held);
        Ok(fan_out)
    }

    /// Moves `pass` one layer on: every hop from every frontier position, merged by
    /// canonical successor. `other` is the memory the other pass holds.
    fn expand(&mut self, pass: &mut Pass, other: u64) -> Result<(), Stop> {
        let game = self.game;
        if !pass.chosen && pass.frontier.len() >= SAMPLE_FROM {
            pass.chosen = pass.frontier.len() >= SAMPLE_AT;
            if self.pagodas.is_none() {
                let found = orbit_pagoda::Candidates::find(self.model, self.perms, self.budget);
                self.pagodas = Some(found.map_err(Stop::GaveUp)?);
            }
            if let Some(Some(candidates)) = &self.pagodas {
                let sample: Vec<u64> = pass
                    .frontier
                    .parts
                    .iter()
                    .flat_map(|p| p.entries().map(|e| e.0))
                    .take(SAMPLE)
                    .collect();
                let found = candidates
                    .best(&pass.targets, &sample, self.budget)
                    .map_err(Stop::GaveUp)?;
                pass.cut = found.map(|(w, bar)| Cut::new(self.model, &w, bar));
            }
        }
        let cut = pass.cut.as_ref();
        let src = &pass.frontier;
        // The next layer's size, guessed from the last growth (partitions grow if it is low).
        let growth = match pass.sizes[..] {
            [.., a, b] if a > 0 => (b as f64 / a as f64).min(4.0),
            _ => 4.0,
        };
        let base = other + pass.bytes();
        let room = (src.len() as f64 * growth * 0.9) as usize;
        self.check(base + Table::room_bytes(room))?;
        let mut next = Table::with_room(room);
        let fan_out = self.fan_out;
        self.fan_out = self.batched(
            &src.parts,
            |p| p.len,
            fan_out,
            base + next.bytes(),
            |part, buf| {
                for (s, t) in part.entries() {
                    let images = game.images(s);
                    // Hops into positions the cut rules out are not made.
                    let v = cut.map_or(0, |c| c.value(s));
                    game.each(s, |id, mask| {
                        if cut.is_none_or(|c| v + c.delta[id] >= c.bar) {
                            buf.push((canon_after(&images, mask), t));
                        }
                    });
                }
            },
            |batch, room| {
                let merged = next
                    .parts
                    .par_iter_mut()
                    .enumerate()
                    .try_for_each(|(p, part)| merge(part, batch, p, room));
                match merged {
                    Ok(()) => Ok(base + next.bytes()),
                    Err(Full::Overflow) => Err(Stop::Overflow),
                    Err(Full::Memory) => Err(Stop::GaveUp(room.exhausted())),
                }
            },
        )?;
        // The frontier's sorted positions are made while both tables are held.
        self.check(base + next.bytes() + src.len() as u64 * 8)?;
        let keys = pass.frontier.sorted_keys();
        pass.done.push(keys);
        pass.sizes.push(next.len() as u64);
        pass.frontier = next;
        let memory = other + pass.bytes();
        self.settle(memory);
        self.check(memory)
    }

    /// Meets `from`'s frontier with `into`'s: for every hop from a `from` position `x` to `y`
    /// with `!y` stored in `into`, adds `T(x) · T(!y) · |Stab(y)|`. Returns that sum (`|G|`
    /// times the solutions) and the `into` positions so met: `into`'s feasible ones.
    fn meet(&mut self, from: &Table, into: &Table, held: u64) -> Result<(u128, Vec<u64>), Stop> {
        let game = self.game;
        let full = game.full;
        let hit_bytes: u64 = into.parts.iter().map(|p| p.slots.len() as u64).sum();
        // What the last phase freed (the other meeting's flags and filter) goes first.
        self.settle(held);
        self.check(held + hit_bytes + Filter::bits_for(into) as u64 / 8)?;
        let mut hits: Vec<Vec<bool>> = into.parts.iter().map(|p| vec![false; p.slots.len()]).collect();
        let filter = Filter::new(into);
        let held = held + filter.bytes() + hits.iter().map(|h| h.len() as u64).sum::<u64>();
        let mut sum = 0u128;
        let filter = &filter;
        // Few hops pass the filter: most of the meeting layer has no future.
        self.batched(
            &from.parts,
            |p| p.len,
            2.0,
            held,
            |part, buf| {
                for (x, t) in part.entries() {
                    let images = game.images(x);
                    let first = buf.len();
                    game.each(x, |_, mask| {
                        // The canonical form of `!y`: the complement of `y`'s greatest image.
                        let worst = (0..G).map(|g| images[g] ^ mask[g]).max().unwrap_or(0);
                        buf.push((full ^ worst, t));
                    });
                    // Keep those the filter may hold, without a branch per hop: the filter
                    // reads are then independent and their cache misses overlap.
                    let mut kept = first;
                    for i in first..buf.len() {
                        let e = buf[i];
                        buf[kept] = e;
                        kept += filter.may_hold(e.0) as usize;
                    }
                    buf.truncate(kept);
                }
            },
            |batch, _| {
                let sums: Vec<Option<u128>> = into
                    .parts
                    .par_iter()
                    .zip(hits.par_iter_mut())
                    .enumerate()
                    .map(|(p, (part, hit))| {
                        let mut sum = 0u128;
                        for b in batch {
                            for &(k, t) in b.part(p) {
                                if let Some(i) = part.find(k, hash(k)) {
                                    hit[i] = true;
                                    let stab = Game::<G>::stab(&game.images(k)) as u128;
                                    let term = (t as u128).checked_mul(part.slots[i].1 as u128)?;
                                    sum = sum.checked_add(term.checked_mul(stab)?)?;
                                }
                            }
                        }
                        Some(sum)
                    })
                    .collect();
                for s in sums {
                    sum = s.and_then(|s| sum.checked_add(s)).ok_or(Stop::Overflow)?;
                }
                Ok(held)
            },
        )?;
        let keys = into.parts.iter().map(|p| p.slots.iter().map(|e| e.0));
        let feasible = self.gather(held, &hits, keys)?;
        Ok((sum, feasible))
    }

    /// The feasible positions of every layer of `pass` before its frontier, from the
    /// frontier's (`last`): a position is feasible when a hop leads to a feasible one, so
    /// each layer's are found by the reversed hops from the next one's. Returns
    /// (positions, canonical) per step, the frontier's last.
    fn outwards(&mut self, pass: &Pass, last: Vec<u64>, held: u64) -> Result<Vec<(u64, u64)>, Stop> {
        let game = self.game;
        let full = game.full;
        let orbits = |keys: &[u64]| -> u64 {
            keys.par_iter()
                .map(|&k| G as u64 / Game::<G>::stab(&game.images(k)))
                .sum()
        };
        let mut out = vec![(orbits(&last), last.len() as u64)];
        let mut good = last;
        for layer in pass.done.iter().rev() {
            // The last layer's flags and feasible positions are freed by now.
            let good_bytes = good.capacity() as u64 * 8;
            self.settle(held + good_bytes);
            let hit_bytes = layer.iter().map(|p| p.len() as u64).sum::<u64>();
            self.check(held + good_bytes + hit_bytes)?;
            let mut hits: Vec<Vec<bool>> = layer.iter().map(|p| vec![false; p.len()]).collect();
            let chunks: Vec<&[u64]> = good.chunks(4096).collect();
            let held = held + good_bytes + hit_bytes;
            self.batched(
                &chunks,
                |c| c.len(),
                12.0,
                held,
                |chunk, buf| {
                    for &y in chunk.iter() {
                        // A hop into `y` is a hop out of `!y` in the complemented game,
                        // leading to the complement of its source.
                        let images = game.images(y).map(|i| full ^ i);
                        game.each(full ^ y, |_, mask| {
                            let worst = (0..G).map(|g| images[g] ^ mask[g]).max().unwrap_or(0);
                            buf.push((full ^ worst, 0));
                        });
                    }
                },
                |batch, _| {
                    layer
                        .par_iter()
                        .zip(hits.par_iter_mut())
                        .enumerate()
                        .for_each(|(p, (keys, hit))| {
                            for b in batch {
                                for &(k, _) in b.part(p) {
                                    if let Ok(i) = keys.binary_search(&k) {
                                        hit[i] = true;
                                    }
                                }
                            }
                        });
                    Ok(held)
                },
            )?;
            good = self.gather(held, &hits, layer.iter().map(|keys| keys.iter().copied()))?;
            out.push((orbits(&good), good.len() as u64));
        }
        out.reverse();
        Ok(out)
    }
}

/// Every goal position, or why they are not enumerated.
fn goal_positions(model: &HopModel, n: usize) -> Result<Vec<u64>, Stop> {
    let PegGoal::Count(k) = model.goal.pegs else {
        return Err(Stop::Unsupported("a fewest-pegs goal".into()));
    };
    if let Some(p) = model.goal.pattern {
        return Ok(vec![p as u64]);
    }
    let cells: Vec<usize> = (0..n).collect();
    let ways = binomial(n as u64, k as u64).unwrap_or(u64::MAX);
    if ways > MAX_GOAL_POSITIONS {
        return Err(Stop::Unsupported(format!("{ways} goal positions")));
    }
    Ok(subsets(&cells, k as usize)
        .filter(|&s| model.is_goal(s, k))
        .map(|s| s as u64)
        .collect())
}

fn meet_with<const G: usize>(
    model: &HopModel,
    sym: &Symmetry,
    budget: &mut Budget,
) -> Result<MeetResult, Stop> {
    let n = model.geo.cells.len();
    if n > 63 {
        return Err(Stop::Unsupported("more than 63 holes".into()));
    }
    // Layers must be peg counts a fixed step apart for the passes to know where they meet.
    let drops: std::collections::BTreeSet<i64> = model
        .moves
        .iter()
        .map(|m| m.need.count_ones() as i64 - (m.mask & !m.need).count_ones() as i64)
        .collect();
    let d = match drops.iter().collect::<Vec<_>>()[..] {
        [&d] if d > 0 => d as u32,
        [] => 1,
        _ => {
            return Err(Stop::Unsupported(
                "hops removing different numbers of pegs".into(),
            ));
        }
    };
    let goals = goal_positions(model, n)?;
    let game = Game::<G>::new(model, sym);
    let full = game.full;
    let start = model.start as u64;
    let top = start.count_ones();
    let target = model.target_pegs();
    let canon = |s: u64| *game.images(s).iter().min().unwrap_or(&s);
    let self_dual = goals == [full ^ start];
    let mut run = Run {
        game: &game,
        model,
        perms: sym.perms(),
        pagodas: None,
        budget,
        peak: 0,
        fan_out: 8.0,
        pool: Vec::new(),
        untracked: 0,
    };
    let mut result = MeetResult {
        method: "bidirectional",
        layers: Vec::new(),
        symmetries: G,
        feasible: 0,
        feasible_canonical: 0,
        searched_canonical: 0,
        meeting: [top, top],
        self_dual,
        solutions: 0,
        fewest_pegs: None,
        memory: 0,
        seconds: 0.0,
    };
    if top < target || !(top - target).is_multiple_of(d) || goals.is_empty() {
        result.seconds = run.budget.elapsed().as_secs_f64();
        return Ok(result);
    }
    // Hops from start to goal.
    let length = ((top - target) / d) as usize;
    if length == 0 {
        // The start is the only position; it solves when it is a goal.
        let solved = goals.contains(&start);
        result.solutions = solved as u128;
        let f = solved as u64;
        result.layers.push(MeetLayer {
            pegs: top,
            feasible: f,
            feasible_canonical: f,
            searched_canonical: 1,
            pass: "forward",
        });
        result.feasible = f;
        result.feasible_canonical = f;
        result.searched_canonical = 1;
        result.seconds = run.budget.elapsed().as_secs_f64();
        return Ok(result);
    }
    let mut fwd = Pass::new(std::iter::once(canon(start)), goals.clone())?;
    // In a self-dual game the backward pass is the forward one: with an odd number of hops
    // both meet on the same stored layer. (With an even number the layers would differ by
    // one; the two passes then run separately.)
    let shared = self_dual && length % 2 == 1;
    let mut bwd = if shared {
        None
    } else {
        Some(Pass::new(
            goals.iter().map(|&g| canon(full ^ g)),
            vec![full ^ start],
        )?)
    };
    loop {
        let b_steps = bwd.as_ref().map_or(fwd.steps(), Pass::steps);
        if fwd.steps() + b_steps + 1 >= length {
            break;
        }
        match &mut bwd {
            // Grow the smaller frontier: the work of a layer follows its size.
            Some(b) if b.frontier.len() < fwd.frontier.len() => {
                let other = fwd.bytes();
                run.expand(b, other)?;
            }
            _ => {
                let other = bwd.as_ref().map_or(0, Pass::bytes);
                run.expand(&mut fwd, other)?;
            }
        }
    }
    let b_pass = bwd.as_ref().unwrap_or(&fwd);
    let held = fwd.bytes() + bwd.as_ref().map_or(0, Pass::bytes);
    // Meeting from the forward side finds the backward side's feasible positions, and the
    // other way round; in a self-dual game they are the same layer.
    let (sum, b_meet) = run.meet(&fwd.frontier, &b_pass.frontier, held)?;
    if !sum.is_multiple_of(G as u128) {
        return Err(Stop::Internal(format!("{sum} is not a multiple of {G}")));
    }
    result.solutions = sum / G as u128;
    // Each meeting's feasible positions are held until their own outward pass: counted with
    // the tables meanwhile (in a self-dual game the one list serves both sides).
    let bytes_of = |v: &Vec<u64>| v.capacity() as u64 * 8;
    let (f_meet, b_meet) = match &bwd {
        Some(b) => {
            let (check, feasible) = run.meet(&b.frontier, &fwd.frontier, held + bytes_of(&b_meet))?;
            if check != sum {
                return Err(Stop::Internal(format!("the passes disagree ({sum} / {check})")));
            }
            (feasible, Some(b_meet))
        }
        None => (b_meet, None),
    };
    let f_counts = run.outwards(&fwd, f_meet, held + b_meet.as_ref().map_or(0, bytes_of))?;
    let b_counts = match (&bwd, b_meet) {
        (Some(b), Some(b_meet)) => run.outwards(b, b_meet, held)?,
        // Self-dual: the feasible positions are closed under complement, layer for layer.
        _ => f_counts.clone(),
    };
    for (step, &(feasible, canonical)) in f_counts.iter().enumerate() {
        result.layers.push(MeetLayer {
            pegs: top - step as u32 * d,
            feasible,
            feasible_canonical: canonical,
            searched_canonical: fwd.sizes[step],
            pass: "forward",
        });
    }
    let b_sizes = &b_pass.sizes;
    for (step, &(feasible, canonical)) in b_counts.iter().enumerate().rev() {
        result.layers.push(MeetLayer {
            pegs: target + step as u32 * d,
            feasible,
            feasible_canonical: canonical,
            searched_canonical: b_sizes[step],
            pass: "backward",
        });
    }
    result.meeting = [
        top - (f_counts.len() as u32 - 1) * d,
        target + (b_counts.len() as u32 - 1) * d,
    ];
    result.feasible = result.layers.iter().map(|l| l.feasible).sum();
    result.feasible_canonical = result.layers.iter().map(|l| l.feasible_canonical).sum();
    result.searched_canonical =
        fwd.sizes.iter().sum::<u64>() + bwd.as_ref().map_or(0, |b| b.sizes.iter().sum());
    result.memory = run.peak;
    result.seconds = run.budget.elapsed().as_secs_f64();
    Ok(result)
}
