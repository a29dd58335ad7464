//! The sort/merge kernel of a count: successors sorted by position (radix or quicksort) and
//! merged into a layer's sorted run, with the sequences of equal positions added up.
//!
//! Apart from the driver so that it can be tested alone against `sort` and `dedup`.

use crate::search::bits::Word;

/// A number of jump sequences: `u64` first, `u128` if that overflows.
pub trait Paths: Copy + Send + Sync + Default {
    const ONE: Self;
    fn add(self, other: Self) -> Option<Self>;
    fn wide(self) -> u128;
}

impl Paths for u64 {
    const ONE: Self = 1;
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self as u128
    }
}

impl Paths for u128 {
    const ONE: Self = 1;
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self
    }
}

/// Bits per radix-sort pass.
const RADIX_BITS: u32 = 11;
/// Boards up to this many cells are radix-sorted (4 passes); larger ones compare-sort.
const RADIX_MAX_CELLS: u32 = 4 * RADIX_BITS;
const RADIX_PASSES: usize = RADIX_MAX_CELLS.div_ceil(RADIX_BITS) as usize;

/// The pairs of `runs` in one `Vec`, sorted by position: an LSD radix sort over the board's
/// `cells` bits when that takes few passes (passes where every key has the same digit are
/// skipped), else a quicksort. The first pass scatters straight out of the runs, and every
/// pass's digit counts are taken in one read.
pub fn sort_pieces<'a, K: Word + 'a, C: Paths + 'a>(
    runs: impl Iterator<Item = &'a [(K, C)]> + Clone,
    cells: u32,
) -> Vec<(K, C)> {
    let n: usize = runs.clone().map(<[_]>::len).sum();
    if cells > RADIX_MAX_CELLS || n < 256 {
        let mut v: Vec<(K, C)> = Vec::with_capacity(n);
        for r in runs {
            v.extend_from_slice(r);
        }
        v.sort_unstable_by_key(|p| p.0);
        return v;
    }
    let passes = cells.div_ceil(RADIX_BITS) as usize;
    let mask = (1u64 << RADIX_BITS) - 1;
    let digit = |k: K, pass: usize| ((k.wide() >> (pass as u32 * RADIX_BITS)) as u64 & mask) as usize;
    let mut counts = vec![[0usize; 1 << RADIX_BITS]; passes];
    for r in runs.clone() {
        for p in r {
            for (pass, c) in counts.iter_mut().enumerate() {
                c[digit(p.0, pass)] += 1;
            }
        }
    }
    let mut todo = [false; RADIX_PASSES];
    for (pass, c) in counts.iter_mut().enumerate() {
        todo[pass] = !c.contains(&n);
        let mut sum = 0;
        for s in c.iter_mut() {
            let x = *s;
            *s = sum;
            sum += x;
        }
    }
    let mut v: Vec<(K, C)> = vec![(K::ZERO, C::default()); n];
    let Some(first) = todo.iter().position(|&t| t) else {
        // Every key is the same: any order is sorted.
        let mut w = 0;
        for r in runs {
            v[w..w + r.len()].copy_from_slice(r);
            w += r.len();
        }
        return v;
    };
    {
        let starts = &mut counts[first];
        for r in runs {
            for p in r {
                let d = digit(p.0, first);
                v[starts[d]] = *p;
                starts[d] += 1;
            }
        }
    }
    let mut buf: Vec<(K, C)> = Vec::new();
    for pass in first + 1..passes {
        if !todo[pass] {
            continue;
        }
        if buf.is_empty() {
            buf = vec![(K::ZERO, C::default()); n];
        }
        let starts = &mut counts[pass];
        for p in v.iter() {
            let d = digit(p.0, pass);
            buf[starts[d]] = *p;
            starts[d] += 1;
        }
        std::mem::swap(&mut v, &mut buf);
    }
    v
}

/// Merges two sorted runs into one with distinct positions, adding the sequences of equal
/// ones; `None` on overflow.
pub fn merge_sorted<K: Word, C: Paths>(a: Vec<(K, C)>, b: Vec<(K, C)>) -> Option<Vec<(K, C)>> {
    let mut out: Vec<(K, C)> = Vec::with_capacity(a.len() + b.len());
    let push = |out: &mut Vec<(K, C)>, (k, t): (K, C)| -> Option<()> {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 = last.1.add(t)?,
            _ => out.push((k, t)),
        }
        Some(())
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].0 <= b[j].0 {
            push(&mut out, a[i])?;
            i += 1;
        } else {
            push(&mut out, b[j])?;
            j += 1;
        }
    }
    for &p in a[i..].iter().chain(&b[j..]) {
        push(&mut out, p)?;
    }
    drop((a, b));
    out.shrink_to_fit();
    Some(out)
}

/// Merges equal neighbours of a sorted run in place, adding their sequences; `None` on
/// overflow.
pub fn dedup_sorted<K: Word, C: Paths>(v: &mut Vec<(K, C)>) -> Option<()> {
    let mut w = 0;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 = v[w - 1].1.add(v[r].1)?;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
    if v.capacity() > w + w / 4 {
        v.shrink_to_fit();
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// `runs` runs of `len` pairs whose keys are drawn from `distinct` random `cells`-bit
    /// words (so that equal keys are common), each with a small sequence count.
    fn runs(seed: u64, runs: usize, len: usize, distinct: usize, cells: u32) -> Vec<Vec<(u64, u64)>> {
        let mut rng = Rng(seed);
        let keep = if cells >= 64 { u64::MAX } else { (1 << cells) - 1 };
        let pool: Vec<u64> = (0..distinct).map(|_| rng.next() & keep).collect();
        (0..runs)
            .map(|_| {
                (0..len)
                    .map(|_| (pool[rng.next() as usize % distinct], rng.next() % 1000 + 1))
                    .collect()
            })
            .collect()
    }

    /// What the kernel must agree with: the standard library's `sort`, then `dedup` adding
    /// the sequences of equal positions.
    fn reference<K: Word, C: Paths>(pairs: impl IntoIterator<Item = (K, C)>) -> Vec<(K, C)> {
        let mut v: Vec<(K, C)> = pairs.into_iter().collect();
        v.sort_by_key(|p| p.0);
        v.dedup_by(|next, kept| kept.0 == next.0 && kept.1.add(next.1).map(|s| kept.1 = s).is_some());
        v
    }

    fn sorted(runs: &[Vec<(u64, u64)>], cells: u32) -> Vec<(u64, u64)> {
        sort_pieces(runs.iter().map(Vec::as_slice), cells)
    }

    /// Sorting keeps every pair and orders them by key, on each of the kernel's paths: few
    /// pairs (quicksort), a radix sort with some passes skipped (narrow keys), a full radix
    /// sort, a board too wide to radix-sort, and keys all equal.
    #[test]
    fn sort_pieces_sorts_like_sort() {
        for (seed, runs_n, len, distinct, cells) in [
            (1, 3, 50, 40, 33),
            (2, 8, 500, 300, 12),
            (3, 8, 500, 1500, 33),
            (4, 5, 400, 2000, 44),
            (5, 5, 400, 2000, 60),
            (6, 4, 300, 1, 33),
            (7, 0, 0, 1, 33),
        ] {
            let input = runs(seed, runs_n, len, distinct, cells);
            let got = sorted(&input, cells);
            assert!(got.is_sorted_by_key(|p| p.0), "seed {seed}: not sorted");
            let mut want: Vec<(u64, u64)> = input.concat();
            want.sort();
            let mut got_all = got.clone();
            got_all.sort();
            assert_eq!(got_all, want, "seed {seed}: pairs lost or changed");
        }
        // Keys whose low 22 bits are all clear: the first two radix passes are skipped.
        let high: Vec<Vec<(u64, u64)>> = runs(8, 4, 300, 500, 11)
            .into_iter()
            .map(|r| r.into_iter().map(|(k, c)| (k << 22, c)).collect())
            .collect();
        let mut got = sorted(&high, 33);
        dedup_sorted(&mut got).unwrap();
        assert_eq!(got, reference(high.concat()));
    }

    #[test]
    fn sort_then_dedup_matches_sort_and_dedup() {
        for (seed, distinct, cells) in [(10, 100, 33), (11, 5000, 33), (12, 5000, 60), (13, 1, 20)] {
            let input = runs(seed, 6, 700, distinct, cells);
            let mut got = sorted(&input, cells);
            dedup_sorted(&mut got).unwrap();
            assert_eq!(got, reference(input.concat()), "seed {seed}");
        }
    }

    #[test]
    fn merge_matches_sort_and_dedup_of_both() {
        for (seed, cells) in [(20, 33), (21, 60)] {
            let a = runs(seed, 4, 600, 1000, cells);
            let b = runs(seed + 100, 4, 600, 1000, cells);
            let acc = reference(a.concat());
            // The merge adds equal neighbours itself: `b` is only sorted, not deduplicated.
            let got = merge_sorted(acc, sorted(&b, cells)).unwrap();
            assert_eq!(
                got,
                reference(a.concat().into_iter().chain(b.concat())),
                "seed {seed}"
            );
        }
        assert_eq!(merge_sorted::<u64, u64>(Vec::new(), Vec::new()), Some(Vec::new()));
    }

    #[test]
    fn wide_keys_sort_and_merge_too() {
        let mut rng = Rng(30);
        let pairs: Vec<(u128, u128)> = (0..2000)
            .map(|_| ((rng.next() as u128) << 64 | (rng.next() % 50) as u128, 1))
            .collect();
        let mut got = sort_pieces(pairs.chunks(300), 128);
        dedup_sorted(&mut got).unwrap();
        assert_eq!(got, reference(pairs.iter().copied()));
        let merged = merge_sorted(got.clone(), got.clone()).unwrap();
        let doubled: Vec<(u128, u128)> = got.iter().map(|&(k, c)| (k, 2 * c)).collect();
        assert_eq!(merged, doubled);
    }

    /// Overflow of the sequence count is reported, not wrapped: the driver counts again wider.
    #[test]
    fn overflow_is_none() {
        let mut v = vec![(1u64, u64::MAX), (1, 1)];
        assert_eq!(dedup_sorted(&mut v), None);
        assert_eq!(merge_sorted(vec![(1u64, u64::MAX)], vec![(1, 1)]), None);
        assert_eq!(
            merge_sorted(vec![(1u64, u64::MAX)], vec![(2, 1)]),
            Some(vec![(1, u64::MAX), (2, 1)])
        );
    }
}
