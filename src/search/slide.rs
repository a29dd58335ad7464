//! The fewest slides for sliding robots: iterative deepening (IDA*) on the bound of
//! [`SlideModel::dist`], with one table of the positions seen and the moves they still had,
//! kept from one depth to the next. Three prunings, each sound for the fewest moves: a
//! position whose bound exceeds the moves left is dropped; when the bound equals them, only
//! a goal robot whose bound it is may move (any other move would leave one too few); and a
//! robot never slides straight back the way it came (it would stop where one slide the other
//! way from its square before would have, or where it was). Helpers are one group in the key
//! (see [`SlideModel::key`]).

use super::{Budget, GaveUp, Verdict};
use crate::model::slide::{FAR, MAX_ROBOTS, SlideModel};

/// What the search found: its verdict, the moves of its answer (robot × directions +
/// direction) and its table's peak bytes.
#[derive(Debug)]
pub struct SlideResult {
    pub verdict: Verdict,
    pub path: Vec<usize>,
    pub memory: u64,
}

/// How often the limits are checked, in positions.
const CHECK_EVERY: u64 = 1 << 14;

/// Positions seen, each with the most moves it was searched with, in one word: the key above
/// the low byte, the moves in it (at least 2, so 0 is an empty slot). Open addressing with
/// linear probing, grown fourfold at half full.
struct Seen {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

impl Seen {
    const FIRST: usize = 1 << 12;

    fn new() -> Self {
        Seen {
            slots: vec![0; Self::FIRST],
            shift: 64 - Self::FIRST.trailing_zeros(),
            len: 0,
        }
    }

    fn bytes(cap: usize) -> u64 {
        cap as u64 * 8
    }

    /// Records `key` as searched with `moves` left; false when it was already searched with
    /// as many.
    #[inline]
    fn visit(&mut self, key: u64, moves: u8) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = key << 8 | moves as u64;
                self.len += 1;
                return true;
            }
            if slot >> 8 == key {
                if (slot & 0xff) as u8 >= moves {
                    return false;
                }
                self.slots[i] = key << 8 | moves as u64;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = self.slots.len() * 4;
        let old = std::mem::replace(
            self,
            Seen {
                slots: vec![0; cap],
                shift: 64 - cap.trailing_zeros(),
                len: 0,
            },
        );
        for slot in old.slots.into_iter().filter(|&s| s != 0) {
            self.visit(slot >> 8, (slot & 0xff) as u8);
        }
    }
}

struct Search<'a> {
    m: &'a SlideModel,
    seen: Seen,
    path: Vec<usize>,
    budget: &'a mut Budget,
    check_at: u64,
    memory: u64,
    stopped: Option<GaveUp>,
    /// Some position was dropped for its bound at this depth: a deeper search may find more.
    cut: bool,
}

/// Solves `m` under `budget`: the fewest slides to the goal, or a proof there is none.
pub fn solve(m: &SlideModel, budget: &mut Budget) -> SlideResult {
    let done = |verdict, path, memory| SlideResult {
        verdict,
        path,
        memory,
    };
    if m.is_goal(&m.start) {
        return done(Verdict::Solved, Vec::new(), 0);
    }
    let first = m.bound(&m.start);
    if first == FAR {
        return done(
            Verdict::Unsolvable(Some(
                "no robot that may meet the goal can reach the target, even stopping anywhere it passes"
                    .into(),
            )),
            Vec::new(),
            0,
        );
    }
    let n = m.start.len();
    let mut s = [0u16; MAX_ROBOTS];
    s[..n].copy_from_slice(&m.start);
    let check_at = budget.nodes + 1;
    let mut search = Search {
        m,
        seen: Seen::new(),
        path: Vec::new(),
        budget,
        check_at,
        memory: Seen::bytes(Seen::FIRST),
        stopped: None,
        cut: false,
    };
    let most = m.goal.within.map_or(FAR as u32 - 1, |w| w.min(FAR as u32 - 1));
    let mut depth = first as u32;
    while depth <= most {
        search.cut = false;
        if search.dfs(&mut s[..n], depth as u8, None) {
            let path = std::mem::take(&mut search.path);
            return done(Verdict::Solved, path, search.memory);
        }
        if let Some(why) = search.stopped.take() {
            return done(Verdict::GaveUp(why), Vec::new(), search.memory);
        }
        if !search.cut {
            let why = super::exhausted(search.seen.len as u64, false, &["a bound on the moves left"]);
            return done(Verdict::Unsolvable(Some(why)), Vec::new(), search.memory);
        }
        depth += 1;
    }
    let why = format!(
        "no solution within {most} move{}",
        if most == 1 { "" } else { "s" }
    );
    done(Verdict::Unsolvable(Some(why)), Vec::new(), search.memory)
}

impl Search<'_> {
    /// Searches `s` with `left` moves; `last` the move that led here. On success `path`
    /// holds the moves from here, first first.
    fn dfs(&mut self, s: &mut [u16], left: u8, last: Option<(usize, usize)>) -> bool {
        let m = self.m;
        // 0 only on the target: the goal.
        let bound = m.bound(s);
        if bound == 0 {
            return true;
        }
        if bound > left {
            self.cut = true;
            return false;
        }
        if left == 0 {
            return false;
        }
        self.budget.nodes += 1;
        if self.budget.nodes >= self.check_at && !self.check() {
            return false;
        }
        if left > 1 && !self.seen.visit(m.key(s), left) {
            return false;
        }
        if self.seen.len * 2 > self.seen.slots.len() && !self.grow() {
            return false;
        }
        for &r in &m.order {
            // With as many moves left as the bound, only a goal robot it bounds may move; a
            // deeper search may move the others.
            if bound == left && !(m.active[r] && m.dist[s[r] as usize] == bound) {
                self.cut = true;
                continue;
            }
            for d in 0..m.directions.len() {
                if last.is_some_and(|(lr, ld)| lr == r && m.reverse[ld] == Some(d)) {
                    continue;
                }
                let from = s[r];
                let to = m.slide(s, r, d);
                if to == from {
                    continue;
                }
                s[r] = to;
                let found = self.dfs(s, left - 1, Some((r, d)));
                s[r] = from;
                if found {
                    self.path.insert(0, r * m.directions.len() + d);
                    return true;
                }
                if self.stopped.is_some() {
                    return false;
                }
            }
        }
        false
    }

    /// Checks the limits; false (with `stopped` set) when one is reached.
    fn check(&mut self) -> bool {
        self.check_at = self.budget.next_check(CHECK_EVERY);
        match self.budget.exceeded(self.memory) {
            Some(why) => {
                self.stopped = Some(why);
                false
            }
            None => true,
        }
    }

    /// Doubles the table, if the memory limit leaves room for the old and new ones at once.
    fn grow(&mut self) -> bool {
        let cap = self.seen.slots.len();
        let ahead = Seen::bytes(cap) + Seen::bytes(cap * 4);
        if let Some(why) = self.budget.exceeded(ahead) {
            self.stopped = Some(why);
            return false;
        }
        self.seen.grow();
        self.memory = self.memory.max(Seen::bytes(cap * 4));
        true
    }
}
