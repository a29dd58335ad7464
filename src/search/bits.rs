//! The bitboard layer every native search shares: the word a position is stored in, the
//! shifts that move a whole board one offset at a time, hops grouped into families, and the
//! symmetry operations (canonical form, images, orbit size) at each width.
//!
//! DFS and count used to carry a copy each; they differ only in what they attach to a move
//! (a search-order bit, a move index), which [`Families`] takes as a type parameter.

use super::symmetry::{MAX_ORDER, Symmetry};
use crate::model::HopModel;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A bitboard word, bit `c` for cell `c`: `u64` for boards of at most 64 cells (half the
/// memory, half the work per move test), `u128` otherwise. Observers, pagodas and endgame
/// tables see `u128` whatever the word.
pub trait Word:
    Copy
    + 'static
    + Eq
    + Ord
    + Hash
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    const ZERO: Self;
    /// Every cell of a board of `n` cells.
    fn full(n: usize) -> Self;
    fn narrow(s: u128) -> Self;
    fn wide(self) -> u128;
    fn pegs(self) -> u32;
    /// Bit `c` of the result is bit `c + by` of `self`: `self >> by`, or `self << -by` when
    /// `by` is negative. What lines a board up with itself one hop offset away.
    fn shift_down(self, by: i32) -> Self;
    /// The lowest set bit alone.
    fn lowest(self) -> Self;
    /// The index of the lowest set bit.
    fn lowest_index(self) -> u32;
    /// The word folded to 64 bits, for hashing.
    fn fold64(self) -> u64;
    /// The least image under `sym`: equal for symmetric positions.
    fn canon(self, sym: &Symmetry) -> Self;
    /// Every image under `sym`, the first `sym.order()` of the array, the identity first.
    fn images(self, sym: &Symmetry) -> [Self; MAX_ORDER];

    /// `f` of every image under `sym`, the identity first: what [`Word::images`] gives,
    /// without copying the whole array where the group's order is known to the compiler.
    #[inline(always)]
    fn with_images<R>(self, sym: &Symmetry, f: impl FnOnce(&[Self]) -> R) -> R {
        f(&self.images(sym)[..sym.order()])
    }

    /// The number of distinct images under `sym` (the orbit's size).
    fn orbit(self, sym: &Symmetry) -> u64 {
        orbit_size(&self.images(sym)[..sym.order()], self)
    }
}

/// The size of the orbit of `s` given all its images (one per group element): the group's
/// order over the number of elements fixing `s`.
#[inline]
pub fn orbit_size<W: Eq>(images: &[W], s: W) -> u64 {
    let fixed = images.iter().filter(|&i| *i == s).count();
    (images.len() / fixed.max(1)) as u64
}

/// The two widths share every method but the symmetry ones, which have a table per width.
macro_rules! impl_word {
    ($t:ty) => {
        const ZERO: Self = 0;
        #[inline(always)]
        fn full(n: usize) -> Self {
            if n >= <$t>::BITS as usize {
                <$t>::MAX
            } else {
                (1 << n) - 1
            }
        }
        #[inline(always)]
        fn narrow(s: u128) -> Self {
            s as $t
        }
        #[inline(always)]
        fn wide(self) -> u128 {
            self as u128
        }
        #[inline(always)]
        fn pegs(self) -> u32 {
            self.count_ones()
        }
        #[inline(always)]
        fn shift_down(self, by: i32) -> Self {
            if by >= 0 {
                self >> by
            } else {
                self << by.unsigned_abs()
            }
        }
        #[inline(always)]
        fn lowest(self) -> Self {
            self & self.wrapping_neg()
        }
        #[inline(always)]
        fn lowest_index(self) -> u32 {
            self.trailing_zeros()
        }
    };
}

impl Word for u64 {
    impl_word!(u64);
    #[inline(always)]
    fn fold64(self) -> u64 {
        self
    }
    #[inline(always)]
    fn canon(self, sym: &Symmetry) -> Self {
        sym.canon64(self)
    }
    #[inline]
    fn images(self, sym: &Symmetry) -> [Self; MAX_ORDER] {
        sym.images64(self)
    }
    /// Unrolled for the common group orders, like [`Symmetry::canon64`].
    #[inline(always)]
    fn with_images<R>(self, sym: &Symmetry, f: impl FnOnce(&[Self]) -> R) -> R {
        sym.with_images64(self, f)
    }
    /// Unrolled for the common group orders, like [`Symmetry::canon64`].
    #[inline]
    fn orbit(self, sym: &Symmetry) -> u64 {
        sym.with_images64(self, |images| orbit_size(images, self))
    }
}

impl Word for u128 {
    impl_word!(u128);
    #[inline(always)]
    fn fold64(self) -> u64 {
        self as u64 ^ (self >> 64) as u64
    }
    #[inline(always)]
    fn canon(self, sym: &Symmetry) -> Self {
        sym.canon(self)
    }
    #[inline]
    fn images(self, sym: &Symmetry) -> [Self; MAX_ORDER] {
        let mut out = [0; MAX_ORDER];
        for (g, o) in out.iter_mut().enumerate().take(sym.order()) {
            *o = sym.apply(g, self);
        }
        out
    }
}

/// The hash a position's partition and slot are taken from: Fibonacci hashing, whose high
/// bits are well mixed.
#[inline(always)]
pub fn hash<K: Word>(k: K) -> u64 {
    k.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The partition of a hash among `1 << bits` (its top bits).
#[inline(always)]
pub fn partition(h: u64, bits: u32) -> usize {
    (h >> 1 >> (63 - bits)) as usize
}

/// `n` choose `k`, or `None` past `u64`.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.checked_mul(n - i)? / (i + 1);
    }
    Some(r)
}

/// Every position with a peg on exactly `k` of `cells` (and nowhere else), in lexicographic
/// order of the cells chosen: the goal positions of a `k`-peg goal, for searches that start
/// from them. Count them first with [`binomial`].
pub fn subsets(cells: &[usize], k: usize) -> impl Iterator<Item = u128> + '_ {
    let mut pick: Option<Vec<usize>> = (k <= cells.len()).then(|| (0..k).collect());
    std::iter::from_fn(move || {
        let combo = pick.as_mut()?;
        let s = combo.iter().fold(0u128, |acc, &i| acc | 1 << cells[i]);
        // The next combination, or none after the last.
        match (0..k).rev().find(|&i| combo[i] < cells.len() - k + i) {
            Some(i) => {
                combo[i] += 1;
                for j in i + 1..k {
                    combo[j] = combo[j - 1] + 1;
                }
            }
            None => pick = None,
        }
        Some(s)
    })
}

/// Single-cell hops that share cell-index offsets: the hops from `c` over `c + over` to
/// `c + to` that a position allows are a few shifts and ANDs away, whatever the board.
struct Family<W> {
    over: i32,
    to: i32,
    /// The cells such a hop may start from.
    from: W,
    /// `tags[first + c]` belongs to the family's hop from cell `c`.
    first: usize,
}

/// A set of moves ready to be generated fast: families of single-cell hops, and every other
/// move (mask, need) tested alone. Each move carries a tag `T` of the caller's choosing.
pub struct Families<W, T> {
    families: Vec<Family<W>>,
    tags: Vec<T>,
    rest: Vec<(W, W, T)>,
}

impl<W: Word, T: Copy + Default> Families<W, T> {
    /// Groups `moves` (indices into `model.moves`, each with its tag).
    pub fn new(model: &HopModel, moves: impl IntoIterator<Item = (usize, T)>) -> Self {
        let n = model.geo.cells.len();
        let mut out = Families {
            families: Vec::new(),
            tags: Vec::new(),
            rest: Vec::new(),
        };
        for (id, tag) in moves {
            let m = &model.moves[id];
            let [over] = m.over[..] else {
                out.rest.push((W::narrow(m.mask), W::narrow(m.need), tag));
                continue;
            };
            let (o, t) = (over as i32 - m.from as i32, m.to as i32 - m.from as i32);
            let f = match out.families.iter().position(|f| f.over == o && f.to == t) {
                Some(f) => f,
                None => {
                    out.families.push(Family {
                        over: o,
                        to: t,
                        from: W::ZERO,
                        first: out.tags.len(),
                    });
                    out.tags.resize(out.tags.len() + n, T::default());
                    out.families.len() - 1
                }
            };
            let fam = &mut out.families[f];
            fam.from = fam.from | W::narrow(1u128 << m.from);
            out.tags[fam.first + m.from] = tag;
        }
        out
    }

    /// Calls `f` with the mask and tag of every move that can be made in `s`: families first,
    /// then the other moves, each in the order given to [`Families::new`]. A caller that
    /// ignores the mask pays nothing for it once inlined.
    #[inline(always)]
    pub fn each(&self, s: W, mut f: impl FnMut(W, T)) {
        let empty = !s;
        for fam in &self.families {
            let mut froms = fam.from & s & s.shift_down(fam.over) & empty.shift_down(fam.to);
            while froms != W::ZERO {
                let c = froms.lowest();
                froms = froms ^ c;
                let mask = c | c.shift_down(-fam.over) | c.shift_down(-fam.to);
                f(mask, self.tags[fam.first + c.lowest_index() as usize]);
            }
        }
        for &(mask, need, tag) in &self.rest {
            if s & mask == need {
                f(mask, tag);
            }
        }
    }

    /// The number of moves that can be made in `s`.
    #[inline]
    pub fn count(&self, s: W) -> u64 {
        let empty = !s;
        let mut n = 0;
        for fam in &self.families {
            let mut froms = fam.from & s & s.shift_down(fam.over) & empty.shift_down(fam.to);
            // Few bits are set: cheaper than a popcount without the instruction.
            while froms != W::ZERO {
                froms = froms ^ froms.lowest();
                n += 1;
            }
        }
        n + self
            .rest
            .iter()
            .filter(|&&(mask, need, _)| s & mask == need)
            .count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_every_choice_once_in_order() {
        let cells = [1, 4, 6, 9];
        let two: Vec<u128> = subsets(&cells, 2).collect();
        let want = [(1, 4), (1, 6), (1, 9), (4, 6), (4, 9), (6, 9)].map(|(a, b)| 1u128 << a | 1 << b);
        assert_eq!(two, want);
        assert_eq!(subsets(&cells, 0).collect::<Vec<_>>(), [0]);
        assert_eq!(subsets(&cells, 5).count(), 0);
        assert_eq!(
            subsets(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4).count() as u64,
            binomial(10, 4).unwrap()
        );
        assert_eq!(binomial(60, 30), Some(118_264_581_564_861_424));
        assert_eq!(binomial(128, 64), None);
    }

    #[test]
    fn partitions_are_the_top_bits() {
        assert_eq!(partition(u64::MAX, 1), 1);
        assert_eq!(partition(u64::MAX >> 1, 1), 0);
        assert_eq!(partition(u64::MAX, 12), 4095);
        assert_eq!(partition(0xABC0 << 48, 12), 0xABC);
    }

    #[test]
    fn shift_down_moves_bits_towards_zero_for_positive_offsets() {
        assert_eq!(0b1000u64.shift_down(3), 1);
        assert_eq!(1u64.shift_down(-3), 0b1000);
        assert_eq!((1u128 << 100).shift_down(36), 1 << 64);
        assert_eq!(1u128.shift_down(-100), 1 << 100);
    }

    #[test]
    fn lowest_bit_and_its_index() {
        assert_eq!(0b1011_0000u64.lowest(), 0b1_0000);
        assert_eq!(0b1011_0000u64.lowest_index(), 4);
        assert_eq!((3u128 << 70).lowest(), 1 << 70);
        assert_eq!((3u128 << 70).lowest_index(), 70);
    }

    #[test]
    fn orbit_size_is_order_over_stabilizer() {
        assert_eq!(orbit_size(&[5u64, 5, 5, 5], 5), 1);
        assert_eq!(orbit_size(&[5u64, 6, 5, 6], 5), 2);
        assert_eq!(orbit_size(&[5u64, 6, 7, 8], 5), 4);
    }
}
