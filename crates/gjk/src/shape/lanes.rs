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

/// The most blocks [`Lanes::new`] keeps: 16 blocks of 4.
const MAX_BLOCKS: usize = 16;

/// The most points [`Lanes::new`] takes: 64 (larger hulls climb their vertex graph).
pub(crate) const MAX_POINTS: usize = MAX_BLOCKS * LANES;

/// Scans of at most this many blocks keep their dot products and find the maximum's index
/// without branches ([`first_equal`]); longer ones compute the dot products again and stop at
/// the first block holding the maximum. The early exit mispredicts about once per call (where
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
    /// Two passes: the first computes the dot products block by block and each lane's maximum
    /// (`maxps` on x86); the second finds the first dot product equal to the overall maximum.
    /// Scans of at most [`BRANCHLESS_BLOCKS`] blocks keep the first pass's dot products for it
    /// and search them without branches. Longer f64 ones compute the dot products again, block
    /// by block, until a block's maximum is the overall one: keeping them would mean zeroing a
    /// stack array of the largest scan's size on every call (a `memset` call of 512 bytes,
    /// about 50 instructions), and on a 32-vertex hull the second pass stops halfway on
    /// average, so recomputing costs less (per f64 scan of 32 points: about 300 instructions
    /// against 410, measured with callgrind). In f32 a block is one vector register and the two
    /// ways cost the same within 2%; it keeps them. Tracking the block index per lane in one pass
    /// costs more than either (its selects outweigh the second pass). The dot product is
    /// `x·dx + y·dy (+ z·dz)`, left to right, as [`Vector::dot`] computes it, in both passes:
    /// the second finds exactly the first's values.
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
        let mut best = [-R::INFINITY; LANES];
        if self.blocks.len() <= BRANCHLESS_BLOCKS {
            let mut all = [[R::ZERO; LANES]; BRANCHLESS_BLOCKS];
            for (block, kept) in self.blocks.iter().zip(&mut all) {
                *kept = dots::<R, DIM>(block, dir);
                for lane in 0..LANES {
                    best[lane] = if kept[lane] > best[lane] { kept[lane] } else { best[lane] };
                }
            }
            let top = best.iter().copied().fold(-R::INFINITY, R::max);
            return first_equal(&all[..self.blocks.len()], top);
        }
        if size_of::<R>() < size_of::<f64>() {
            // f32: a block's dot products are one vector register; recomputing them saves no
            // more than the zeroing costs.
            let mut all = [[R::ZERO; LANES]; MAX_BLOCKS];
            for (block, kept) in self.blocks.iter().zip(&mut all) {
                *kept = dots::<R, DIM>(block, dir);
                for lane in 0..LANES {
                    best[lane] = if kept[lane] > best[lane] { kept[lane] } else { best[lane] };
                }
            }
            let top = best.iter().copied().fold(-R::INFINITY, R::max);
            let kept = &all[..self.blocks.len()];
            return kept.as_flattened().iter().position(|&dot| dot == top).unwrap_or(0);
        }
        for block in &self.blocks {
            let dots = dots::<R, DIM>(block, dir);
            for lane in 0..LANES {
                best[lane] = if dots[lane] > best[lane] { dots[lane] } else { best[lane] };
            }
        }
        let top = best.iter().copied().fold(-R::INFINITY, R::max);
        // The block's maximum is one of its dot products (a select, not arithmetic), so the
        // block whose maximum equals `top` holds it. (Pairing lanes 0 with 2 and 1 with 3
        // measured fewer instructions than the other pairings or four compares.)
        let larger = |x: R, y: R| if x > y { x } else { y };
        for (b, block) in self.blocks.iter().enumerate() {
            let dots = dots::<R, DIM>(block, dir);
            if larger(larger(dots[0], dots[2]), larger(dots[1], dots[3])) == top {
                return b * LANES + dots.iter().position(|&dot| dot == top).unwrap_or(0);
            }
        }
        0
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
