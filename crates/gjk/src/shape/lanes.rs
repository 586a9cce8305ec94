//! Vertices stored lane by lane, for a support scan the compiler turns into SIMD.
//!
//! A scan of a small polytope is a loop of dot products and compares. Over points stored as
//! `[x, y, z]` records it runs one point at a time (about ten instructions each); over blocks of
//! [`LANES`] x's, then y's, then z's, the same arithmetic is a handful of vector instructions per
//! block, with no intrinsics and no `unsafe`: plain fixed-size loops that LLVM vectorises.

use alloc::vec::Vec;

use crate::math::{Real, Vector};

/// Points per block: 4 `f32` fill an SSE register, 4 `f64` two.
pub(crate) const LANES: usize = 4;

/// One block: the x, y and z coordinates of [`LANES`] points (z is zero in 2D).
type Block<R> = [[R; LANES]; 3];

/// The most blocks a scan keeps on the stack: 16 blocks of 4.
const MAX_BLOCKS: usize = 16;

/// The most points [`Lanes::new`] takes: 64 (larger hulls climb their vertex graph).
pub(crate) const MAX_POINTS: usize = MAX_BLOCKS * LANES;

/// Scans of at most this many blocks find the maximum's index without branches
/// ([`first_equal`]); longer ones stop at the first match (`f32`) or keep only the best block
/// ([`Lanes::argmax_by_blocks`], `f64`). The early exit mispredicts about once per call (where
/// the maximum sits is random), which costs more than the few blocks a branchless pass reads
/// on an 8-gon — but less than the blocks of a 32-vertex hull, where stopping halfway on
/// average also saves half the reads.
const BRANCHLESS_BLOCKS: usize = 2;

// One bit per point in `first_equal`'s mask.
const _: () = assert!(BRANCHLESS_BLOCKS * LANES <= u64::BITS as usize);

/// Points in blocks of [`LANES`], coordinate by coordinate. The last block is padded with
/// copies of the first point, which can only tie with it, and ties go to the first index.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Lanes<R> {
    blocks: Vec<Block<R>>,
}

impl<R: Real> Lanes<R> {
    /// The points, in their order (empty input: no blocks). Only the first [`MAX_POINTS`] are
    /// kept: callers pass at most that many.
    pub(crate) fn new<V: Vector<Real = R>>(points: &[V]) -> Self {
        let points = &points[..points.len().min(MAX_POINTS)];
        let mut blocks = Vec::with_capacity(points.len().div_ceil(LANES));
        for chunk in points.chunks(LANES) {
            let mut block = [[R::ZERO; LANES]; 3];
            for lane in 0..LANES {
                let p = chunk.get(lane).copied().unwrap_or(points[0]);
                for (axis, row) in block.iter_mut().enumerate().take(V::DIM) {
                    row[lane] = p.component(axis);
                }
            }
            blocks.push(block);
        }
        Self { blocks }
    }

    /// True when there are no points.
    pub(crate) fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The index of the first point with the largest dot product with `dir`; 0 when no dot
    /// product compares larger than −∞ (a NaN direction).
    ///
    /// Up to [`BRANCHLESS_BLOCKS`] blocks, and longer scans in `f32`: [`Lanes::argmax_kept`];
    /// longer scans in `f64`: [`Lanes::argmax_by_blocks`]. The dot product is
    /// `x·dx + y·dy (+ z·dz)`, left to right, as [`Vector::dot`] computes it.
    #[inline]
    pub(crate) fn argmax<V: Vector<Real = R>>(&self, dir: V) -> usize {
        if V::DIM == 2 {
            self.argmax_in::<2>([dir.component(0), dir.component(1), R::ZERO])
        } else {
            self.argmax_in::<3>([dir.component(0), dir.component(1), dir.component(2)])
        }
    }

    #[inline]
    fn argmax_in<const DIM: usize>(&self, dir: [R; 3]) -> usize {
        if self.blocks.len() <= BRANCHLESS_BLOCKS {
            self.argmax_kept::<DIM, BRANCHLESS_BLOCKS>(dir)
        } else if core::mem::size_of::<R>() == 8 {
            self.argmax_by_blocks::<DIM>(dir)
        } else {
            self.argmax_kept::<DIM, MAX_BLOCKS>(dir)
        }
    }

    /// [`Lanes::argmax`] for longer scans: one pass keeps the largest dot product seen and the
    /// first block holding it (each block's own maximum, compared with a strict `>`, so the
    /// first block wins ties), then that block's dot products are computed again (the same
    /// arithmetic, so the same values) and its first lane equal to the maximum is the answer.
    ///
    /// Nothing is stored per block: [`Lanes::argmax_kept`] keeps every dot product on the
    /// stack (in `f64` a 512-byte array zeroed by a `memset` call per support call) and
    /// searches them point by point, with an exit that mispredicts about once per call. In
    /// `f64` (two SSE registers per coordinate and block) this costs less: 1.61e6 against
    /// 1.99e6 instructions for the 250 pairs of hull_32 distance.
    #[inline(always)]
    fn argmax_by_blocks<const DIM: usize>(&self, dir: [R; 3]) -> usize {
        let mut top = -R::INFINITY;
        let mut at = 0;
        for (b, block) in self.blocks.iter().enumerate() {
            let dots = dots::<R, DIM>(block, dir);
            // Lanes 0 and 1 share a register in `f64`, 2 and 3 the next: pair across them.
            let pairs = [max(dots[0], dots[2]), max(dots[1], dots[3])];
            let block_max = max(pairs[0], pairs[1]);
            (top, at) = if block_max > top { (block_max, b) } else { (top, at) };
        }
        // A NaN direction: no block beat −∞ and no lane of block 0 equals it: point 0.
        let Some(block) = self.blocks.get(at) else { return 0 };
        let dots = dots::<R, DIM>(block, dir);
        let lane = dots.iter().position(|&dot| dot == top).unwrap_or(0);
        at * LANES + lane
    }

    /// [`Lanes::argmax`] in two passes over at most `KEPT` blocks: the first computes the dot
    /// products block by block, keeps them on the stack and each lane's maximum (`maxps` on
    /// x86); the second finds the first kept dot product equal to the overall maximum (without
    /// branches up to [`BRANCHLESS_BLOCKS`] blocks, else stopping at the first match). Tracking
    /// the block index per lane in one pass costs more (its selects outweigh the second pass).
    /// In `f32` a block is one SSE register per coordinate, and this beats
    /// [`Lanes::argmax_by_blocks`] (1.8e6 against 1.49e6 instructions for the 250 pairs of
    /// hull_32 distance): a block's horizontal maximum costs as much as its dot products.
    #[inline(always)]
    fn argmax_kept<const DIM: usize, const KEPT: usize>(&self, dir: [R; 3]) -> usize {
        let mut best = [-R::INFINITY; LANES];
        let mut all = [[R::ZERO; LANES]; KEPT];
        for (block, kept) in self.blocks.iter().zip(&mut all) {
            *kept = dots::<R, DIM>(block, dir);
            for lane in 0..LANES {
                best[lane] = if kept[lane] > best[lane] { kept[lane] } else { best[lane] };
            }
        }
        let top = best.iter().copied().fold(-R::INFINITY, R::max);
        let kept = &all[..self.blocks.len().min(KEPT)];
        if kept.len() <= BRANCHLESS_BLOCKS {
            first_equal(kept, top)
        } else {
            kept.as_flattened().iter().position(|&dot| dot == top).unwrap_or(0)
        }
    }
}

/// The index of the first of `dots` equal to `top` (0 when none is).
///
/// Without branches: one bit per point, set where the dot product equals `top`, gathered into
/// a mask whose lowest set bit is the answer. Keeping the smallest matching index per
/// lane in vector registers instead (compare, blend, minimum) measured slower: its index and
/// minimum form a dependency chain through the blocks, where the bits only meet in an `or`.
#[inline(always)]
fn first_equal<R: Real>(dots: &[[R; LANES]], top: R) -> usize {
    let mut mask = 0u64;
    for (b, block) in dots.iter().enumerate() {
        let mut bits = 0u64;
        for (lane, &dot) in block.iter().enumerate() {
            bits |= u64::from(dot == top) << lane;
        }
        mask |= bits << (b * LANES);
    }
    if mask == 0 {
        0
    } else {
        mask.trailing_zeros() as usize
    }
}

/// The larger of `a` and `b` (`b` when they compare unordered), as a plain compare, which
/// vectorises to `maxps`/`maxpd`.
#[inline(always)]
fn max<R: Real>(a: R, b: R) -> R {
    if a > b {
        a
    } else {
        b
    }
}

/// The dot products of a block's points with `dir`.
#[inline(always)]
fn dots<R: Real, const DIM: usize>(block: &Block<R>, dir: [R; 3]) -> [R; LANES] {
    let mut dots = [R::ZERO; LANES];
    for (lane, dot) in dots.iter_mut().enumerate() {
        *dot = block[0][lane] * dir[0] + block[1][lane] * dir[1];
        if DIM == 3 {
            *dot += block[2][lane] * dir[2];
        }
    }
    dots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::argmax_dot;
    use crate::test_rng::{Draw, Rng};
    use glam::{DVec2, DVec3, Vec3};

    #[test]
    fn agrees_with_a_plain_scan_on_random_points_and_directions() {
        let mut rng = Rng::new(7);
        for n in 1..=MAX_POINTS {
            let points: Vec<DVec3> = (0..n).map(|_| rng.in_cube()).collect();
            let lanes = Lanes::new(&points);
            for _ in 0..40 {
                let dir = rng.in_cube();
                assert_eq!(lanes.argmax(dir), argmax_dot(&points, dir), "n = {n}, dir = {dir}");
            }
        }
    }

    #[test]
    fn ties_go_to_the_first_point_across_lanes_and_blocks() {
        // Point 11 (block 2, lane 3) ties point 2 (block 0, lane 2) and point 19 (block 4,
        // lane 3): the first wins, wherever the copies sit.
        let mut points = vec![DVec2::new(-1.0, 0.0); 20];
        for i in [11, 2, 19] {
            points[i] = DVec2::new(5.0, 1.0);
        }
        points[5] = DVec2::new(5.0, -1.0);
        assert_eq!(Lanes::new(&points).argmax(DVec2::X), 2);
        // The same within two blocks (the branchless search): point 6 ties point 1.
        let mut eight = vec![DVec2::new(-1.0, 0.0); 8];
        eight[6] = DVec2::new(5.0, 1.0);
        eight[1] = DVec2::new(5.0, -1.0);
        assert_eq!(Lanes::new(&eight).argmax(DVec2::X), 1);
        eight[1] = DVec2::new(4.0, 0.0);
        assert_eq!(Lanes::new(&eight).argmax(DVec2::X), 6);
        // Padding copies of point 0 never displace it.
        let few = [Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
        assert_eq!(Lanes::new(&few).argmax(Vec3::X), 0);
        assert_eq!(Lanes::new(&few).argmax(Vec3::Y), 1);
    }

    #[test]
    fn a_nan_or_zero_direction_gives_the_first_point() {
        let points = [DVec3::X, DVec3::Y, DVec3::Z];
        let lanes = Lanes::new(&points);
        assert_eq!(lanes.argmax(DVec3::splat(f64::NAN)), 0);
        assert_eq!(lanes.argmax(DVec3::ZERO), 0);
    }
}
