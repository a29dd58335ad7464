//! The kernel of a count: what a position's number of jump sequences is stored in (`u64`, a
//! 128-bit pair, or nothing for a positions-only count), and the open-addressing table that
//! adds up the sequences of equal positions, one hash partition of a layer at a time.
//!
//! Apart from the driver so that it can be tested alone against a `HashMap`.

use crate::search::bits::{Word, hash};

/// A number of jump sequences: `u64` first, [`Wide`] once a layer could outgrow it, or
/// [`NoPaths`] when only positions are counted.
pub trait Paths: Copy + Send + Sync + Default {
    const ONE: Self;
    /// The largest count this type holds (0: it counts nothing).
    const MAX: u128;
    fn add(self, other: Self) -> Option<Self>;
    fn wide(self) -> u128;
    /// `n` if it fits (the driver widens only to a type `n` fits).
    fn from_wide(n: u128) -> Self;
}

impl Paths for u64 {
    const ONE: Self = 1;
    const MAX: u128 = u64::MAX as u128;
    #[inline(always)]
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self as u128
    }
    fn from_wide(n: u128) -> Self {
        n as u64
    }
}

/// A 128-bit count as two `u64` halves: aligned to 8 bytes, so a pair with a `u64` key
/// takes 24 bytes, not the 32 of `(u64, u128)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wide {
    lo: u64,
    hi: u64,
}

impl Paths for Wide {
    const ONE: Self = Wide { lo: 1, hi: 0 };
    const MAX: u128 = u128::MAX;
    #[inline(always)]
    fn add(self, other: Self) -> Option<Self> {
        self.wide().checked_add(other.wide()).map(Self::from_wide)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        (self.hi as u128) << 64 | self.lo as u128
    }
    #[inline(always)]
    fn from_wide(n: u128) -> Self {
        Wide {
            lo: n as u64,
            hi: (n >> 64) as u64,
        }
    }
}

/// No count at all: a positions-only count stores 8-byte keys and nothing beside them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoPaths;

impl Paths for NoPaths {
    const ONE: Self = NoPaths;
    const MAX: u128 = 0;
    #[inline(always)]
    fn add(self, _: Self) -> Option<Self> {
        Some(NoPaths)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        0
    }
    fn from_wide(_: u128) -> Self {
        NoPaths
    }
}

/// Slots a table starts with.
const MIN_SLOTS: usize = 16;

/// One partition of a layer being built: open addressing with linear probing, the slot
/// taken from the hash bits below the partition's. Key zero marks an empty slot: no hop
/// leaves an empty board (every move fills its `to` cell).
#[derive(Debug, Clone)]
pub struct Table<K, C> {
    slots: Vec<(K, C)>,
    len: usize,
    /// 64 less the slot index's bits.
    shift: u32,
}

impl<K, C> Default for Table<K, C> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            len: 0,
            shift: 64,
        }
    }
}

/// Why an insertion could not be made.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The table must grow first.
    Full,
    /// A sequence count outgrew its type.
    Overflow,
}

impl<K: Word, C: Paths> Table<K, C> {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.slots.capacity() * size_of::<(K, C)>()) as u64
    }

    /// The slots after the next growth: twice as many, and at least `hint`.
    fn grown(&self, hint: usize) -> usize {
        (self.slots.len() * 2)
            .max(hint)
            .max(MIN_SLOTS)
            .next_power_of_two()
    }

    /// Bytes held after the next growth ([`Table::grow`] with the same `hint`).
    pub fn grown_bytes(&self, hint: usize) -> u64 {
        (self.grown(hint) * size_of::<(K, C)>()) as u64
    }

    /// True when one more position could pass the load limit (3/4).
    #[inline(always)]
    fn full(&self) -> bool {
        4 * (self.len + 1) > 3 * self.slots.len()
    }

    /// Adds `paths` sequences to position `k` (hashing to `h`, in a partition of `bits`
    /// bits), unless the table must grow first: then nothing changes and the caller grows it
    /// ([`Table::grow`]) after counting the bytes.
    #[inline(always)]
    pub fn add(&mut self, k: K, h: u64, paths: C, bits: u32) -> Result<(), Refused> {
        debug_assert!(k != K::ZERO, "no move leaves an empty board");
        if self.full() {
            return Err(Refused::Full);
        }
        let mask = self.slots.len() - 1;
        let mut i = slot(h, bits, self.shift);
        loop {
            let s = &mut self.slots[i];
            if s.0 == k {
                s.1 = s.1.add(paths).ok_or(Refused::Overflow)?;
                return Ok(());
            }
            if s.0 == K::ZERO {
                *s = (k, paths);
                self.len += 1;
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the cache for the slot hash `h` probes first, so that adding a position a few
    /// steps later does not wait on memory: a round adds a few thousand positions into a
    /// table of as many slots, most of them not in cache yet.
    #[inline(always)]
    pub fn prefetch(&self, h: u64, bits: u32) {
        // A table yet to be allocated has no slot to fetch (and no slot bits to shift by).
        if self.slots.is_empty() {
            return;
        }
        if let Some(s) = self.slots.get(slot(h, bits, self.shift)) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a prefetch is only a hint; the address is a slot of this table.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>((s as *const (K, C)).cast());
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = s;
        }
    }

    /// Doubles the slots (to at least `hint`, a guess at the positions to come), rehashing
    /// what is held.
    pub fn grow(&mut self, bits: u32, hint: usize) {
        let n = self.grown(hint);
        let old = std::mem::replace(&mut self.slots, vec![(K::ZERO, C::default()); n]);
        let mask = n - 1;
        self.shift = 64 - n.trailing_zeros();
        for (k, c) in old.into_iter().filter(|p| p.0 != K::ZERO) {
            let mut i = slot(hash(k), bits, self.shift);
            while self.slots[i].0 != K::ZERO {
                i = (i + 1) & mask;
            }
            self.slots[i] = (k, c);
        }
    }

    /// The positions held, in no particular order, in a vector of their size (the slots,
    /// compacted in place without a branch: slots are full or empty at random).
    pub fn into_pairs(self) -> Vec<(K, C)> {
        let mut v = self.slots;
        let mut w = 0;
        for r in 0..v.len() {
            v[w] = v[r];
            w += (v[r].0 != K::ZERO) as usize;
        }
        v.truncate(w);
        v.shrink_to_fit();
        v
    }

    /// Every count held, converted to another type (which must hold them).
    pub fn convert<D: Paths>(self) -> Table<K, D> {
        Table {
            slots: self
                .slots
                .into_iter()
                .map(|(k, c)| (k, D::from_wide(c.wide())))
                .collect(),
            len: self.len,
            shift: self.shift,
        }
    }

    /// The largest count held.
    pub fn max_paths(&self) -> u128 {
        self.slots.iter().map(|p| p.1.wide()).max().unwrap_or(0)
    }
}

/// The slot of hash `h` in a table of `1 << (64 - shift)` slots: the hash bits just below
/// the partition's `bits`.
#[inline(always)]
fn slot(h: u64, bits: u32, shift: u32) -> usize {
    ((h << bits) >> shift) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// SplitMix64: reproducible keys without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    /// Fills one table the way the driver does (growing when refused) and returns its pairs
    /// sorted.
    fn fill<K: Word, C: Paths>(pairs: &[(K, C)], bits: u32, hint: usize) -> Result<Vec<(K, u128)>, Refused> {
        let mut t = Table::<K, C>::default();
        for &(k, c) in pairs {
            loop {
                match t.add(k, hash(k), c, bits) {
                    Ok(()) => break,
                    Err(Refused::Full) => {
                        let bytes = t.grown_bytes(hint);
                        t.grow(bits, hint);
                        assert_eq!(t.bytes(), bytes);
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        let len = t.len();
        let mut v: Vec<(K, u128)> = t.into_pairs().into_iter().map(|(k, c)| (k, c.wide())).collect();
        assert_eq!(v.len(), len);
        v.sort();
        Ok(v)
    }

    fn reference<K: Word>(pairs: impl IntoIterator<Item = (K, u128)>) -> Vec<(K, u128)> {
        let mut m: HashMap<K, u128> = HashMap::new();
        for (k, c) in pairs {
            *m.entry(k).or_default() += c;
        }
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort();
        v
    }

    /// `n` pairs whose keys are drawn from `distinct` random nonzero `cells`-bit words (so
    /// that equal keys are common), each with a small sequence count.
    fn pairs(seed: u64, n: usize, distinct: usize, cells: u32) -> Vec<(u64, u64)> {
        let mut rng = Rng(seed);
        let keep = if cells >= 64 { u64::MAX } else { (1 << cells) - 1 };
        let pool: Vec<u64> = (0..distinct).map(|_| (rng.next() & keep).max(1)).collect();
        (0..n)
            .map(|_| (pool[rng.next() as usize % distinct], rng.next() % 1000 + 1))
            .collect()
    }

    /// A table adds up equal positions like a `HashMap`, through many growths, whatever the
    /// partition bits the slot is taken below.
    #[test]
    fn tables_add_like_a_hash_map() {
        for (seed, n, distinct, cells, bits, hint) in [
            (1, 50, 40, 33, 1, 0),
            (2, 5000, 300, 12, 4, 0),
            (3, 20000, 15000, 33, 10, 0),
            (4, 20000, 20000, 60, 12, 1 << 15),
            (5, 3000, 1, 33, 1, 100),
            (6, 0, 1, 33, 1, 0),
        ] {
            let input = pairs(seed, n, distinct, cells);
            let got = fill(&input, bits, hint).unwrap();
            let want = reference(input.iter().map(|&(k, c)| (k, c as u128)));
            assert_eq!(got, want, "seed {seed}");
        }
    }

    #[test]
    fn wide_keys_and_wide_counts_add_too() {
        let mut rng = Rng(30);
        let input: Vec<(u128, Wide)> = (0..4000)
            .map(|_| {
                // Keys past 64 bits, 100 of them, so that equal keys are common.
                let k = (((rng.next() % 50) as u128) << 64) | ((rng.next() % 2) as u128 + 1);
                (k, Wide::from_wide(u64::MAX as u128 + rng.next() as u128 % 7))
            })
            .collect();
        let got = fill(&input, 3, 0).unwrap();
        assert_eq!(got, reference(input.iter().map(|&(k, c)| (k, c.wide()))));
        assert!(
            got.iter().any(|p| p.1 > 2 * u64::MAX as u128),
            "sums past 2^64 kept"
        );
    }

    /// A positions-only table keeps distinct keys, 8 bytes each.
    #[test]
    fn positions_only_tables_keep_keys() {
        assert_eq!(size_of::<(u64, NoPaths)>(), 8);
        assert_eq!(size_of::<(u64, Wide)>(), 24);
        let input: Vec<(u64, NoPaths)> = pairs(40, 3000, 700, 33)
            .into_iter()
            .map(|p| (p.0, NoPaths))
            .collect();
        let got = fill(&input, 2, 5000).unwrap();
        let mut want: Vec<u64> = input.iter().map(|p| p.0).collect();
        want.sort();
        want.dedup();
        assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), want);
    }

    /// Overflow of the sequence count is reported, not wrapped, and the table is unchanged.
    #[test]
    fn overflow_is_refused() {
        assert_eq!(fill(&[(1u64, u64::MAX), (1, 1)], 1, 0), Err(Refused::Overflow));
        assert_eq!(
            fill(&[(1u64, u64::MAX), (2, 1)], 1, 0),
            Ok(vec![(1, u64::MAX as u128), (2, 1)])
        );
        let max = Wide::from_wide(u128::MAX);
        assert_eq!(max.add(Wide::ONE), None);
        assert_eq!(
            Wide::from_wide(u64::MAX as u128).add(Wide::ONE).map(Wide::wide),
            Some(1 << 64)
        );
    }
}
