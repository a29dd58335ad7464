//! The model as the passes of the bidirectional count use it: 64-bit positions, every hop
//! mask's images under a symmetry group of order `G`, a per-byte image table, and the
//! orbit-constant pagoda that cuts positions with no way to where a pass heads.

use super::super::bits::{Families, Word};
use super::super::symmetry::Symmetry;
use crate::model::HopModel;

/// The model's hops and symmetries in the form the passes use: 64-bit positions, with
/// every hop mask's images and a per-byte image table, both for a group of order `G`.
pub(super) struct Game<const G: usize> {
    /// The hops, each tagged with its index in `masks`.
    pub(super) hops: Families<u64, u32>,
    /// `masks[id][g]`: symmetry `g` applied to hop `id`'s mask. Symmetries are linear over
    /// XOR, so the images of `s ^ mask` are those of `s` XOR these.
    pub(super) masks: Vec<[u64; G]>,
    /// `bytes[k * 256 + byte][g]`: the image under `g` of cell chunk `k` holding `byte`.
    pub(super) bytes: Vec<[u64; G]>,
    pub(super) chunks: usize,
    /// Every cell of the board.
    pub(super) full: u64,
}

impl<const G: usize> Game<G> {
    pub(super) fn new(model: &HopModel, sym: &Symmetry) -> Self {
        let n = model.geo.cells.len();
        let perms = sym.perms();
        let image = |g: usize, s: u64| -> u64 {
            (0..n)
                .filter(|&c| s >> c & 1 == 1)
                .fold(0, |acc, c| acc | 1 << perms[g][c])
        };
        let chunks = n.div_ceil(8);
        let mut bytes = vec![[0u64; G]; chunks * 256];
        for k in 0..chunks {
            for byte in 0..256u64 {
                let s = (byte << (8 * k)) & u64::full(n);
                for (g, out) in bytes[k * 256 + byte as usize].iter_mut().enumerate() {
                    *out = image(g, s);
                }
            }
        }
        let masks = model
            .moves
            .iter()
            .map(|m| std::array::from_fn(|g| image(g, m.mask as u64)))
            .collect();
        Game {
            hops: Families::new(model, (0..model.moves.len()).map(|id| (id, id as u32))),
            masks,
            bytes,
            chunks,
            full: u64::full(n),
        }
    }

    /// Every image of `s`, the identity first.
    #[inline]
    pub(super) fn images(&self, s: u64) -> [u64; G] {
        let mut out = [0u64; G];
        for k in 0..self.chunks {
            let row = &self.bytes[k * 256 + (s >> (8 * k)) as u8 as usize];
            for g in 0..G {
                out[g] |= row[g];
            }
        }
        out
    }

    /// Calls `f` with every hop that can be made in `s`, as the images of its mask.
    #[inline]
    pub(super) fn each(&self, s: u64, mut f: impl FnMut(usize, &[u64; G])) {
        self.hops
            .each(s, |_, id| f(id as usize, &self.masks[id as usize]));
    }

    /// The images of `s`'s orbit that equal `s`: the order of its stabilizer.
    #[inline]
    pub(super) fn stab(images: &[u64; G]) -> u64 {
        images.iter().filter(|&&i| i == images[0]).count() as u64
    }
}

/// The canonical form (least image) of `s ^ mask`, from the images of both.
#[inline]
pub(super) fn canon_after<const G: usize>(images: &[u64; G], mask: &[u64; G]) -> u64 {
    let mut best = images[0] ^ mask[0];
    for g in 1..G {
        best = best.min(images[g] ^ mask[g]);
    }
    best
}

/// An orbit-constant pagoda as the passes use it: positions weighing less than `bar` cannot
/// reach the pass's targets, and a hop changes the weight by a constant of the hop.
pub(super) struct Cut {
    /// `bytes[k * 256 + byte]`: the weight of cell chunk `k` holding `byte`.
    pub(super) bytes: Vec<i32>,
    /// `delta[id]`: what hop `id` adds to the weight.
    pub(super) delta: Vec<i32>,
    pub(super) bar: i32,
}

impl Cut {
    pub(super) fn new(model: &HopModel, weights: &[i32], bar: i32) -> Self {
        let weigh = |s: u64| -> i32 {
            (0..weights.len())
                .filter(|&c| s >> c & 1 == 1)
                .map(|c| weights[c])
                .sum()
        };
        let chunks = weights.len().div_ceil(8);
        let bytes = (0..chunks * 256)
            .map(|i| weigh(((i % 256) as u64) << (8 * (i / 256)) & u64::full(weights.len())))
            .collect();
        let delta = model
            .moves
            .iter()
            .map(|m| weigh((m.mask & !m.need) as u64) - weigh(m.need as u64))
            .collect();
        Cut { bytes, delta, bar }
    }

    #[inline]
    pub(super) fn value(&self, s: u64) -> i32 {
        (0..self.bytes.len() / 256)
            .map(|k| self.bytes[k * 256 + (s >> (8 * k)) as u8 as usize])
            .sum()
    }
}
