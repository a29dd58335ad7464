//! A failure table kept per thread between searches, so that a batch of small boards does not
//! allocate, grow and free a fresh hash table for each one.
//!
//! On 5,000 small peg boards (`gen_small.py`) a fresh table per search spent a tenth of the
//! time growing (`reserve_rehash`) and a tenth more in the kernel, mapping and unmapping the
//! tables of 128 KiB and more that [`super::map_large_tables`] gives pages of their own.
//! A kept table is cleared, not shrunk, and kept only up to [`KEEP`] entries: a search that
//! grew one past that gives it back to the system as before.
//!
//! What a search reports and counts against its memory limit is what a fresh table would
//! hold ([`Failed::capacity`]), so answers, `memory_bytes` and every limit read the same
//! whichever board a thread solved before; the kept table itself is at most
//! [`KEEP`] entries per thread, part of the process's base like the rule engine.

use rustc_hash::FxHashSet;
use std::any::Any;
use std::cell::RefCell;
use std::hash::Hash;

/// The most entries a table may hold and still be kept for the next search: 2^15 slots,
/// 288 KiB of `u64` keys, more than nine searches in ten on a 5×5 board need.
pub const KEEP: usize = 1 << 15;

thread_local! {
    /// Tables put back by finished searches, at most one per key type.
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// A search's failure table: a kept one if this thread has one, else a fresh one; it goes
/// back to the thread when dropped.
pub struct Failed<T: Eq + Hash + 'static> {
    set: FxHashSet<T>,
    /// The capacity a fresh table would have reached by now.
    fresh: usize,
}

impl<T: Eq + Hash + 'static> Failed<T> {
    pub fn new() -> Self {
        let set = KEPT
            .with_borrow_mut(|kept| {
                let at = kept.iter().position(|t| t.is::<FxHashSet<T>>())?;
                kept.swap_remove(at).downcast::<FxHashSet<T>>().ok()
            })
            .map_or_else(FxHashSet::default, |t| *t);
        Failed { set, fresh: 0 }
    }

    #[inline(always)]
    pub fn insert(&mut self, key: T) {
        if self.set.insert(key) && self.set.len() > self.fresh {
            self.fresh = super::grown_capacity(self.fresh);
        }
    }

    #[inline(always)]
    pub fn contains(&self, key: &T) -> bool {
        self.set.contains(key)
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// The room a table grown afresh by this search's inserts would have: what the search
    /// counts and reports.
    pub fn capacity(&self) -> usize {
        self.fresh
    }
}

impl<T: Eq + Hash + 'static> Default for Failed<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Eq + Hash + 'static> Drop for Failed<T> {
    fn drop(&mut self) {
        if self.set.capacity() > KEEP {
            return;
        }
        let mut set = std::mem::take(&mut self.set);
        set.clear();
        // One table a key type: of two out at once (a search within a search), the larger
        // is kept. A thread being torn down has nowhere to keep it.
        let _ = KEPT.try_with(|kept| {
            let Ok(mut kept) = kept.try_borrow_mut() else {
                return;
            };
            match kept.iter_mut().find_map(|t| t.downcast_mut::<FxHashSet<T>>()) {
                Some(other) if other.capacity() >= set.capacity() => {}
                Some(other) => *other = set,
                None => kept.push(Box::new(set)),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_table_counts_as_a_fresh_one_and_comes_back_empty() {
        let mut first = Failed::<u64>::new();
        for k in 0..1000 {
            first.insert(k);
        }
        let grown = first.set.capacity();
        assert_eq!(
            first.capacity(),
            grown,
            "the count follows hashbrown's own growth"
        );
        drop(first);
        let mut second = Failed::<u64>::new();
        assert_eq!(second.set.capacity(), grown, "the same table, kept");
        assert_eq!((second.len(), second.capacity()), (0, 0));
        assert!(!second.contains(&5));
        second.insert(5);
        second.insert(5);
        assert_eq!((second.len(), second.capacity()), (1, 3));
        // A second table of the same type, while the first is out, is fresh; of the two
        // given back, the larger is kept.
        let third = Failed::<u64>::new();
        assert_eq!(third.set.capacity(), 0);
        drop(third);
        drop(second);
        assert_eq!(Failed::<u64>::new().set.capacity(), grown);
    }

    #[test]
    fn a_table_past_the_limit_is_not_kept() {
        let mut big = Failed::<u128>::new();
        for k in 0..(KEEP as u128 + 1) {
            big.insert(k);
        }
        drop(big);
        assert_eq!(Failed::<u128>::new().set.capacity(), 0);
    }
}
