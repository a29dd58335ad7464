//! Board automorphisms found from the compiled move table, and fast canonical positions.
//!
//! A symmetry is a permutation of the cells that maps the set of moves onto itself, where a
//! move is what it does to a position: the cells that must hold pegs (`need`) and the cell
//! that must be empty (`mask ^ need`). Candidates are the lattice isometries — the 8 of the
//! square lattice and the 12 of the triangular lattice (in the basis whose steps are (0,1),
//! (1,0), (1,1)) — applied to two sets of coordinates: each cell's place on the drawn lattice
//! (a hexagon drawn centred or left-aligned has all 12) and its `[row, col]` (for scripts whose
//! moves follow the rows and columns of the text). Each candidate is kept only if the move set
//! agrees, so the group is right for whatever geometry a script produced, whatever layout it
//! declares; the kept ones are closed under composition.

use super::{Budget, GaveUp};
use crate::lattice::Layout;
use crate::model::HopModel;
use crate::spec::Cell;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The largest group the fast 64-bit tables serve (the lattice candidates number 20 at most),
/// and so the length of every array of images.
pub const MAX_ORDER: usize = 24;

/// A 2×2 integer matrix acting on `[row, col]`.
type Linear = [[i64; 2]; 2];

const IDENTITY: Linear = [[1, 0], [0, 1]];
/// Transposition: a mirror of both lattices.
const TRANSPOSE: Linear = [[0, 1], [1, 0]];
/// A quarter turn of the square lattice: (r, c) → (c, −r).
const SQUARE_TURN: Linear = [[0, 1], [-1, 0]];
/// A sixth of a turn of the triangular lattice: (r, c) → (c, c − r).
const HEX_TURN: Linear = [[0, 1], [-1, 1]];

fn mul(a: &Linear, b: &Linear) -> Linear {
    let mut m = [[0; 2]; 2];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        }
    }
    m
}

/// The finite group two generators make (they must generate a finite one).
fn closure(gens: &[Linear]) -> Vec<Linear> {
    let mut group = vec![IDENTITY];
    let mut i = 0;
    while i < group.len() {
        for g in gens {
            let m = mul(g, &group[i]);
            if !group.contains(&m) {
                group.push(m);
            }
        }
        i += 1;
    }
    group
}

/// A group of cell permutations with lookup tables that apply one to a position in a few
/// table reads: one table per 8-cell chunk maps the chunk's byte to the permuted bits.
/// Cheap to clone: the tables are shared.
#[derive(Debug, Clone)]
pub struct Symmetry {
    /// `perms[g][cell]`: the image of `cell`; `perms[0]` is the identity.
    perms: Arc<Vec<Vec<usize>>>,
    /// `tables[(g * chunks + k) * 256 + byte]`.
    tables: Arc<[u128]>,
    /// For boards of at most 64 cells (else empty): `tables64[(k * 256 + byte) * order + g]`,
    /// so that one cache line gives a chunk's contribution to every image.
    tables64: Arc<[u64]>,
    chunks: usize,
    /// The fallback search stopped before it knew the group (more than [`MAX_ORDER`]
    /// symmetries, or too many steps): the identity alone is used.
    pub unfinished: bool,
}

/// Groups found for goals of boards already seen, by everything [`Symmetry::for_goal_within`]
/// reads of a model (cells, their pictured places, the moves, the goal's cells), found with no
/// node limit (one may cut the fallback search short): a batch of
/// a thousand boards of one shape finds the group once (finding it and building its tables
/// was a quarter of a 5×5 board's whole solve). Cleared when it holds 256.
static KEPT: crate::memo::Kept<Vec<u128>, Symmetry> = crate::memo::Kept::new(256);

/// What the group of `model`'s goal depends on, as numbers.
fn group_key(model: &HopModel) -> Vec<u128> {
    let g = &model.geo;
    let mut key = Vec::with_capacity(2 + 4 * g.cells.len() + 2 * model.moves.len());
    key.push(g.cells.len() as u128);
    for (c, p) in g.cells.iter().zip(&g.pictured) {
        key.extend([c[0], c[1], p[0], p[1]].map(|v| v as u128));
    }
    key.push(matches!(g.layout, Layout::Triangle) as u128);
    for m in &model.moves {
        key.extend([m.need, m.mask]);
    }
    key.push(model.goal_cells());
    key
}

impl Symmetry {
    /// The group of the identity alone on `cells` cells.
    pub fn trivial(cells: usize) -> Self {
        Self::from_perms(cells, vec![(0..cells).collect()])
    }

    fn from_perms(cells: usize, perms: Vec<Vec<usize>>) -> Self {
        let chunks = cells.div_ceil(8);
        let mut tables = vec![0u128; perms.len() * chunks * 256];
        for (g, p) in perms.iter().enumerate() {
            for k in 0..chunks {
                let table = &mut tables[(g * chunks + k) * 256..][..256];
                for (byte, slot) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let cell = 8 * k + bit;
                        if byte >> bit & 1 == 1 && cell < cells {
                            *slot |= 1 << p[cell];
                        }
                    }
                }
            }
        }
        let mut tables64 = Vec::new();
        if cells <= 64 && perms.len() <= MAX_ORDER {
            tables64 = vec![0u64; chunks * 256 * perms.len()];
            for g in 0..perms.len() {
                for k in 0..chunks {
                    for byte in 0..256 {
                        tables64[(k * 256 + byte) * perms.len() + g] =
                            tables[(g * chunks + k) * 256 + byte] as u64;
                    }
                }
            }
        }
        Symmetry {
            perms: Arc::new(perms),
            tables: tables.into(),
            tables64: tables64.into(),
            chunks,
            unfinished: false,
        }
    }

    /// Every automorphism of the model's move table among the lattice isometries.
    pub fn find(model: &HopModel) -> Self {
        Self::find_within(model, &Budget::new(Default::default()))
            .unwrap_or_else(|_| Self::trivial(model.geo.cells.len()))
    }

    /// [`Symmetry::find`] under a search's budget: `Err(reason)` once a limit is reached (the
    /// fallback search below can otherwise take minutes on a large scripted move table).
    pub fn find_within(model: &HopModel, budget: &Budget) -> Result<Self, GaveUp> {
        let cells = &model.geo.cells;
        let n = cells.len();
        let moves: FxHashSet<(u128, u128)> = model.moves.iter().map(|m| (m.need, m.mask)).collect();
        let mut candidates = closure(&[SQUARE_TURN, TRANSPOSE]);
        for l in closure(&[HEX_TURN, TRANSPOSE]) {
            if !candidates.contains(&l) {
                candidates.push(l);
            }
        }
        let identity: Vec<usize> = (0..n).collect();
        // One group per set of coordinates, then both together if that still fits the tables.
        let mut groups = Vec::new();
        for coords in [cells.clone(), lattice_coords(model)] {
            let index: FxHashMap<Cell, usize> = coords.iter().enumerate().map(|(i, c)| (*c, i)).collect();
            let mut found = vec![identity.clone()];
            for l in &candidates {
                if let Some(p) = lattice_perm(&coords, &index, l).filter(|p| maps_moves(&moves, model, p))
                    && !found.contains(&p)
                {
                    found.push(p);
                }
            }
            if let Some(why) = budget.exceeded(0) {
                return Err(why);
            }
            groups.push(closed(found).unwrap_or_else(|| vec![identity.clone()]));
        }
        let both: Vec<Vec<usize>> = groups.concat();
        let mut perms = closed(both)
            .or_else(|| groups.into_iter().max_by_key(Vec::len))
            .unwrap_or_else(|| vec![identity.clone()]);
        let mut unfinished = false;
        if perms.len() == 1 {
            match search_automorphisms(model, &moves, budget)? {
                Some(found) => perms = found,
                None => unfinished = true,
            }
        }
        Ok(Self {
            unfinished,
            ..Self::from_perms(n, perms)
        })
    }

    /// The automorphisms that also fix the goal: those fixing its cells when it names some.
    pub fn for_goal(model: &HopModel) -> Self {
        Self::find(model).fixing_goal(model)
    }

    /// [`Symmetry::for_goal`] under a search's budget; a group found before for the same
    /// board, moves and goal cells is served again (see `KEPT`).
    pub fn for_goal_within(model: &HopModel, budget: &Budget) -> Result<Self, GaveUp> {
        if !crate::memo::enabled() {
            return Ok(Self::find_within(model, budget)?.fixing_goal(model));
        }
        let key = group_key(model);
        if let Some(s) = KEPT.get(&key) {
            return Ok(s);
        }
        let found = Self::find_within(model, budget)?.fixing_goal(model);
        // Under a node limit the fallback may stop early and do without: not kept.
        if budget.nodes_left().is_some() {
            return Ok(found);
        }
        KEPT.put(key, found.clone());
        Ok(found)
    }

    /// The subgroup that maps the goal's cells (its board's pegs, or its `at:` cell) onto
    /// themselves: all of it when the goal names none.
    pub fn fixing_goal(self, model: &HopModel) -> Self {
        match model.goal_cells() {
            0 => self,
            cells => self.stabilizer(cells),
        }
    }

    /// The subgroup mapping `state` onto itself.
    pub fn stabilizer(&self, state: u128) -> Self {
        self.subgroup(|g| self.apply(g, state) == state)
    }

    /// The subgroup mapping each move onto a move that the image of its jumping peg makes:
    /// a chain of one peg's jumps then maps onto a chain. The group maps moves as what they do
    /// to a position; two moves doing the same with different pegs jumping could differ here.
    pub fn keeping_jumpers(&self, model: &HopModel) -> Self {
        let moves: FxHashSet<(usize, u128, u128)> =
            model.moves.iter().map(|m| (m.from, m.need, m.mask)).collect();
        self.subgroup(|g| {
            let p = &self.perms[g];
            model
                .moves
                .iter()
                .all(|m| moves.contains(&(p[m.from], permute_mask(p, m.need), permute_mask(p, m.mask))))
        })
    }

    /// The permutations `keep(g)` accepts (a subgroup when they are closed under composition).
    fn subgroup(&self, keep: impl Fn(usize) -> bool) -> Self {
        let kept = (0..self.order())
            .filter(|&g| keep(g))
            .map(|g| self.perms[g].clone())
            .collect();
        Self::from_perms(self.perms[0].len(), kept)
    }

    /// The same group on `size` cells, cell `c` renamed `map[c]`; cells no `c` is renamed
    /// to are fixed by every permutation.
    pub fn relabeled(&self, map: &[usize], size: usize) -> Self {
        let perms = self
            .perms
            .iter()
            .map(|p| {
                let mut q: Vec<usize> = (0..size).collect();
                for (c, &to) in p.iter().enumerate() {
                    q[map[c]] = map[to];
                }
                q
            })
            .collect();
        Self::from_perms(size, perms)
    }

    /// The number of permutations, the identity included.
    pub fn order(&self) -> usize {
        self.perms.len()
    }

    pub fn perms(&self) -> &[Vec<usize>] {
        &self.perms
    }

    /// Permutation `g` applied to a position.
    #[inline]
    pub fn apply(&self, g: usize, state: u128) -> u128 {
        let base = g * self.chunks * 256;
        let mut out = 0;
        for k in 0..self.chunks {
            let byte = (state >> (8 * k)) as u8 as usize;
            out |= self.tables[base + k * 256 + byte];
        }
        out
    }

    /// Every image of `state` (the first [`Symmetry::order`] entries), for boards of at most
    /// 64 cells: one table row per 8-cell chunk serves all the permutations at once.
    #[inline]
    pub fn images64(&self, state: u64) -> [u64; MAX_ORDER] {
        let order = self.order();
        let mut images = [0u64; MAX_ORDER];
        if self.tables64.is_empty() {
            for (g, img) in images.iter_mut().enumerate().take(order) {
                *img = self.apply(g, state as u128) as u64;
            }
            return images;
        }
        for k in 0..self.chunks {
            let byte = (state >> (8 * k)) as u8 as usize;
            let row = &self.tables64[(k * 256 + byte) * order..][..order];
            for (img, &t) in images.iter_mut().zip(row) {
                *img |= t;
            }
        }
        images
    }

    /// [`Symmetry::canon`] for boards of at most 64 cells.
    #[inline]
    pub fn canon64(&self, state: u64) -> u64 {
        self.with_images64(state, |images| images.iter().copied().min().unwrap_or(state))
    }

    /// `f` of every image of `state` (the identity first), for boards of at most 64 cells:
    /// unrolled for the common group orders, since canonical forms are taken at every node.
    #[inline(always)]
    pub fn with_images64<R>(&self, state: u64, f: impl FnOnce(&[u64]) -> R) -> R {
        match self.order() {
            1 => f(&[state]),
            2 => f(&self.images_n::<2>(state)),
            4 => f(&self.images_n::<4>(state)),
            6 => f(&self.images_n::<6>(state)),
            8 => f(&self.images_n::<8>(state)),
            12 => f(&self.images_n::<12>(state)),
            n => f(&self.images64(state)[..n]),
        }
    }

    /// Every image of `state` under a group of order `G`, unrolled.
    #[inline(always)]
    fn images_n<const G: usize>(&self, state: u64) -> [u64; G] {
        let mut images = [0u64; G];
        if self.tables64.is_empty() {
            for (g, img) in images.iter_mut().enumerate() {
                *img = self.apply(g, state as u128) as u64;
            }
            return images;
        }
        for k in 0..self.chunks {
            let byte = (state >> (8 * k)) as u8 as usize;
            let row = &self.tables64[(k * 256 + byte) * G..][..G];
            for g in 0..G {
                images[g] |= row[g];
            }
        }
        images
    }

    /// The least image of `state` under the group: equal for symmetric positions.
    #[inline]
    pub fn canon(&self, state: u128) -> u128 {
        (1..self.order()).fold(state, |m, g| m.min(self.apply(g, state)))
    }
}

/// Each cell's place on its layout's lattice, in the basis the candidates act on: a square
/// lattice point is `[y, x]`, a triangular one `[y, (x + y) / 2]` (steps (0,1), (1,0), (1,1)).
fn lattice_coords(model: &HopModel) -> Vec<Cell> {
    let geo = &model.geo;
    geo.pictured
        .iter()
        .map(|&[x, y]| match geo.layout {
            Layout::Square => [y, x.div_euclid(2)],
            Layout::Triangle => [y, (x + y).div_euclid(2)],
        })
        .collect()
}

/// The group the permutations generate (the identity first, each once), or `None` if it
/// would outgrow the tables ([`MAX_ORDER`]).
fn closed(gens: Vec<Vec<usize>>) -> Option<Vec<Vec<usize>>> {
    let mut group: Vec<Vec<usize>> = Vec::with_capacity(MAX_ORDER);
    for g in &gens {
        if !group.contains(g) {
            group.push(g.clone());
        }
    }
    if group.len() > MAX_ORDER {
        return None;
    }
    let mut i = 0;
    while i < group.len() {
        for g in &gens {
            let product: Vec<usize> = group[i].iter().map(|&c| g[c]).collect();
            if !group.contains(&product) {
                if group.len() == MAX_ORDER {
                    return None;
                }
                group.push(product);
            }
        }
        i += 1;
    }
    Some(group)
}

/// The cell permutation a linear map of `coords` induces, translated so the lexicographically
/// first cells correspond, or `None` if the image is not the board.
fn lattice_perm(coords: &[Cell], index: &FxHashMap<Cell, usize>, l: &Linear) -> Option<Vec<usize>> {
    let cells = coords;
    let map = |c: &Cell| [l[0][0] * c[0] + l[0][1] * c[1], l[1][0] * c[0] + l[1][1] * c[1]];
    let first = cells.iter().min()?;
    let image_first = cells.iter().map(map).min()?;
    let shift = [first[0] - image_first[0], first[1] - image_first[1]];
    cells
        .iter()
        .map(|c| {
            let m = map(c);
            index.get(&[m[0] + shift[0], m[1] + shift[1]]).copied()
        })
        .collect()
}

fn permute_mask(p: &[usize], mask: u128) -> u128 {
    p.iter()
        .enumerate()
        .filter(|&(c, _)| mask >> c & 1 == 1)
        .fold(0, |acc, (_, &to)| acc | 1 << to)
}

fn maps_moves(moves: &FxHashSet<(u128, u128)>, model: &HopModel, p: &[usize]) -> bool {
    model
        .moves
        .iter()
        .all(|m| moves.contains(&(permute_mask(p, m.need), permute_mask(p, m.mask))))
}

/// The fallback for geometries whose coordinates are no lattice: every permutation of the
/// cells that maps the moves onto moves, found by backtracking over cells in breadth-first
/// order (each cell's image must share moves with the images of cells already placed), with
/// cells in no move kept fixed. `None` if the group would exceed the tables' size or the
/// search takes too long.
fn search_automorphisms(
    model: &HopModel,
    moves: &FxHashSet<(u128, u128)>,
    budget: &Budget,
) -> Result<Option<Vec<Vec<usize>>>, GaveUp> {
    let n = model.geo.cells.len();
    // The moves each cell takes part in, and a signature no automorphism changes.
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, m) in model.moves.iter().enumerate() {
        for (c, list) in touching.iter_mut().enumerate() {
            if m.mask >> c & 1 == 1 {
                list.push(i);
            }
        }
    }
    let signature = |c: usize| {
        let as_to = model.moves.iter().filter(|m| m.to == c).count();
        (touching[c].len(), as_to)
    };
    // Breadth-first order over cells linked by moves, each component from its first cell.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for root in 0..n {
        if seen[root] || touching[root].is_empty() {
            continue;
        }
        seen[root] = true;
        let mut i = order.len();
        order.push(root);
        while i < order.len() {
            let c = order[i];
            i += 1;
            for &mv in &touching[c] {
                let mask = model.moves[mv].mask;
                for d in (0..n).filter(|&d| mask >> d & 1 == 1) {
                    if !seen[d] {
                        seen[d] = true;
                        order.push(d);
                    }
                }
            }
        }
    }
    let mut state = Backtrack {
        model,
        moves,
        touching: &touching,
        signatures: (0..n).map(signature).collect(),
        order: &order,
        image: (0..n)
            .map(|c| if touching[c].is_empty() { Some(c) } else { None })
            .collect(),
        used: (0..n).map(|c| touching[c].is_empty()).collect(),
        found: Vec::new(),
        steps: 0,
        lookups: Default::default(),
        budget,
        stopped: None,
    };
    let complete = state.extend(0);
    match state.stopped {
        Some(why) => Err(why),
        None => Ok(complete.then_some(state.found)),
    }
}

/// Backtracking state for [`search_automorphisms`].
struct Backtrack<'a> {
    model: &'a HopModel,
    moves: &'a FxHashSet<(u128, u128)>,
    touching: &'a [Vec<usize>],
    signatures: Vec<(usize, usize)>,
    order: &'a [usize],
    image: Vec<Option<usize>>,
    used: Vec<bool>,
    found: Vec<Vec<usize>>,
    steps: u64,
    /// Moves tested by [`Backtrack::consistent`] so far.
    lookups: std::cell::Cell<u64>,
    budget: &'a Budget,
    /// Set when the budget ran out: why.
    stopped: Option<GaveUp>,
}

/// Backtracking steps allowed before the fallback gives up.
const MAX_STEPS: u64 = 1 << 20;
/// Moves looked up while placing cells before the fallback gives up: a step tests each
/// candidate cell against every move through it, thousands on a scripted board of 20,000
/// jumps, where steps alone let the search run 20 s.
const MAX_LOOKUPS: u64 = 1 << 26;

impl Backtrack<'_> {
    /// Places `order[depth..]`; false when the search must stop (too big or too long).
    fn extend(&mut self, depth: usize) -> bool {
        self.steps += 1;
        // Under a node limit the fallback takes at most that many steps, then does without.
        if self.steps > MAX_STEPS.min(self.budget.nodes_left().unwrap_or(u64::MAX))
            || self.lookups.get() > MAX_LOOKUPS
        {
            return false;
        }
        // A step can test every cell against hundreds of moves: check the budget often.
        if self.steps.is_multiple_of(16)
            && let Some(why) = self.budget.exceeded(0)
        {
            self.stopped = Some(why);
            return false;
        }
        let Some(&c) = self.order.get(depth) else {
            if self.found.len() == MAX_ORDER {
                return false;
            }
            self.found.push(
                self.image
                    .iter()
                    .enumerate()
                    .map(|(c, i)| i.unwrap_or(c))
                    .collect(),
            );
            return true;
        };
        for target in 0..self.image.len() {
            if self.used[target] || self.signatures[target] != self.signatures[c] {
                continue;
            }
            self.image[c] = Some(target);
            self.used[target] = true;
            let go_on = !self.consistent(c) || self.extend(depth + 1);
            self.image[c] = None;
            self.used[target] = false;
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Every move through `c` whose cells are all placed maps onto a move.
    fn consistent(&self, c: usize) -> bool {
        self.touching[c].iter().all(|&i| {
            self.lookups.set(self.lookups.get() + 1);
            let m = &self.model.moves[i];
            // A move names a few cells of up to 128: its set bits, not every cell, are mapped.
            let map = |mut mask: u128| -> Option<u128> {
                let mut image = 0u128;
                while mask != 0 {
                    image |= 1 << self.image[mask.trailing_zeros() as usize]?;
                    mask &= mask - 1;
                }
                Some(image)
            };
            match (map(m.need), map(m.mask)) {
                (Some(need), Some(mask)) => self.moves.contains(&(need, mask)),
                _ => true,
            }
        })
    }
}
