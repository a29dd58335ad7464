//! A layer of the bidirectional count: canonical positions with their sequence counts in
//! [`PARTS`] hash partitions (linear probing, grown by half, every growth's bytes taken from
//! the memory budget's [`Room`] first), the batches of successors scattered to them, and a
//! Bloom-style filter of a layer's keys for the meeting.

use super::super::Room;
use super::super::bits::{hash, partition};
use rayon::prelude::*;

/// Hash partitions per layer: each is small enough to stay in cache while a batch of
/// successors is merged into it, and partitions merge in parallel without locks.
pub(super) const PART_BITS: u32 = 8;
pub(super) const PARTS: usize = 1 << PART_BITS;
/// Marks a free slot; no key is all ones because boards have at most 63 cells here.
pub(super) const EMPTY: u64 = u64::MAX;
/// Successors generated per batch before they are merged (bounds the transient memory).
pub(super) const BATCH_PAIRS: usize = 1 << 19;

/// One hash partition of a layer: linear probing over (position, sequences) slots.
#[derive(Default)]
pub(super) struct Part {
    pub(super) slots: Vec<(u64, u64)>,
    pub(super) len: usize,
}

impl Part {
    pub(super) fn slots_for(n: usize) -> usize {
        (n + n / 4).max(16)
    }

    pub(super) fn with_room(n: usize) -> Self {
        let cap = Self::slots_for(n);
        Part {
            slots: vec![(EMPTY, 0); cap],
            len: 0,
        }
    }

    /// The slot a key's probe starts at: the hash bits below the partition's, scaled.
    #[inline]
    pub(super) fn home(&self, h: u64) -> usize {
        (((h << PART_BITS) as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Adds `v` to `k`'s sequences, inserting it if new; `None` on overflow.
    #[inline]
    pub(super) fn add(&mut self, k: u64, h: u64, v: u64) -> Option<()> {
        if self.full() {
            self.grow();
        }
        let cap = self.slots.len();
        let mut i = self.home(h);
        loop {
            let slot = &mut self.slots[i];
            if slot.0 == k {
                slot.1 = slot.1.checked_add(v)?;
                return Some(());
            }
            if slot.0 == EMPTY {
                *slot = (k, v);
                self.len += 1;
                return Some(());
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// The slot holding `k`, if any.
    #[inline]
    pub(super) fn find(&self, k: u64, h: u64) -> Option<usize> {
        let cap = self.slots.len();
        if cap == 0 {
            return None;
        }
        let mut i = self.home(h);
        loop {
            let slot = self.slots[i];
            if slot.0 == k {
                return Some(i);
            }
            if slot.0 == EMPTY {
                return None;
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// True when the next insertion makes the partition grow.
    #[inline]
    pub(super) fn full(&self) -> bool {
        (self.len + 1) * 5 > self.slots.len() * 4
    }

    /// Grows, taking the new slots' bytes from `room` before allocating them: no growth
    /// passes the memory limit. The old slots' bytes are not given back: the allocator keeps
    /// freed pieces resident (with them given back, a count held to 60MB peaked 3 MiB over its
    /// tables' figure), and the next check reads what the process holds.
    pub(super) fn grow_within(&mut self, room: &Room) -> Result<(), Full> {
        if !room.take(Self::grown(self.slots.len()) as u64 * 16) {
            return Err(Full::Memory);
        }
        self.grow();
        Ok(())
    }

    pub(super) fn grown(slots: usize) -> usize {
        (slots * 3 / 2).max(16)
    }

    pub(super) fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let cap = Self::grown(old.len());
        self.slots = vec![(EMPTY, 0); cap];
        self.len = 0;
        for (k, v) in old {
            if k != EMPTY {
                // Sums only move between slots: no overflow here.
                let _ = self.add(k, hash(k), v);
            }
        }
    }

    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.slots.iter().copied().filter(|e| e.0 != EMPTY)
    }
}

/// A layer of canonical positions with their sequences, spread over hash partitions.
pub(super) struct Table {
    pub(super) parts: Vec<Part>,
}

impl Table {
    /// The bytes [`Table::with_room`] allocates.
    pub(super) fn room_bytes(n: usize) -> u64 {
        Part::slots_for(n / PARTS) as u64 * 16 * PARTS as u64
    }

    /// Room for about `n` positions.
    pub(super) fn with_room(n: usize) -> Self {
        Table {
            parts: (0..PARTS).map(|_| Part::with_room(n / PARTS)).collect(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len).sum()
    }

    pub(super) fn bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.slots.capacity() as u64 * 16).sum()
    }

    pub(super) fn add(&mut self, k: u64, v: u64) -> Option<()> {
        let h = hash(k);
        self.parts[partition(h, PART_BITS)].add(k, h, v)
    }

    /// The positions alone, each partition sorted: for the outward feasible passes.
    pub(super) fn sorted_keys(&self) -> Vec<Vec<u64>> {
        self.parts
            .par_iter()
            .map(|p| {
                // Exactly as long as the partition: collected from a filter, the vector
                // would double its way there (up to twice the bytes, old and new at once).
                let mut keys = Vec::with_capacity(p.len);
                keys.extend(p.entries().map(|e| e.0));
                keys.sort_unstable();
                keys
            })
            .collect()
    }
}

/// Why a partition could take no more.
pub(super) enum Full {
    /// A sequence count outgrew 64 bits.
    Overflow,
    /// Its growth would pass the memory limit.
    Memory,
}

/// Adds partition `p`'s share of a batch of successors to it, each growth taken from `room`.
pub(super) fn merge(part: &mut Part, batch: &[Scattered], p: usize, room: &Room) -> Result<(), Full> {
    const AHEAD: usize = 16;
    for b in batch {
        for group in b.part(p).chunks(AHEAD) {
            // Read each pair's first slot before inserting any: independent loads whose cache
            // misses overlap, where the probe loops' branches would take them one at a time.
            let mut touch = 0u64;
            for &(k, _) in group {
                touch ^= part.slots[part.home(hash(k))].0;
            }
            std::hint::black_box(touch);
            for &(k, v) in group {
                if part.full() {
                    part.grow_within(room)?;
                }
                part.add(k, hash(k), v).ok_or(Full::Overflow)?;
            }
        }
    }
    Ok(())
}

/// One source partition's successors, grouped by the partition they belong to.
#[derive(Default)]
pub(super) struct Scattered {
    /// The pairs as emitted (kept only for its allocation, reused by the next batch).
    pub(super) raw: Vec<(u64, u64)>,
    pub(super) pairs: Vec<(u64, u64)>,
    pub(super) offsets: Vec<u32>,
}

impl Scattered {
    /// Groups `raw` by partition into `pairs`, reusing both allocations across batches:
    /// fresh ones cost a page fault per 4 KiB, which was a sixth of the run.
    pub(super) fn scatter(&mut self) {
        self.offsets.clear();
        self.offsets.resize(PARTS + 1, 0);
        for &(k, _) in &self.raw {
            self.offsets[partition(hash(k), PART_BITS) + 1] += 1;
        }
        for p in 0..PARTS {
            self.offsets[p + 1] += self.offsets[p];
        }
        let mut at = self.offsets.clone();
        self.pairs.clear();
        self.pairs.resize(self.raw.len(), (0, 0));
        for &(k, v) in &self.raw {
            let p = partition(hash(k), PART_BITS);
            self.pairs[at[p] as usize] = (k, v);
            at[p] += 1;
        }
    }

    pub(super) fn part(&self, p: usize) -> &[(u64, u64)] {
        &self.pairs[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }

    pub(super) fn bytes(&self) -> u64 {
        (self.raw.capacity() + self.pairs.capacity()) as u64 * 16
    }
}

/// A one-word Bloom filter over a layer's positions: most hops from the forward meeting
/// layer lead nowhere stored, and a 4 MiB bit array rejects them before they are scattered
/// and probed in the 16-times larger table.
pub(super) struct Filter {
    pub(super) words: Vec<u64>,
    pub(super) shift: u32,
}

impl Filter {
    pub(super) fn bits_for(table: &Table) -> usize {
        (table.len() * 12).next_power_of_two().max(64)
    }

    pub(super) fn new(table: &Table) -> Self {
        let bits = Self::bits_for(table);
        let words = bits / 64;
        let mut f = Filter {
            words: vec![0; words],
            shift: 64 - words.trailing_zeros(),
        };
        for part in &table.parts {
            for (k, _) in part.entries() {
                let (w, m) = f.at(k);
                f.words[w] |= m;
            }
        }
        f
    }

    #[inline]
    pub(super) fn at(&self, k: u64) -> (usize, u64) {
        let g = hash(k).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let w = if self.shift >= 64 {
            0
        } else {
            (g >> self.shift) as usize
        };
        (w, 1 << (g & 63) | 1 << (g >> 6 & 63))
    }

    #[inline]
    pub(super) fn may_hold(&self, k: u64) -> bool {
        let (w, m) = self.at(k);
        self.words[w] & m == m
    }

    pub(super) fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
}
