//! The narrow phase of one candidate pair: the one function that decides what a pair's contact
//! is — its manifold ([`Pair::manifold_with`], one contact query and the clipping), warm-started
//! by the pair's own cache.

use crate::bounds::Aabb;
use crate::gjk::WarmStart;
use crate::manifold::{ManifoldOptions, ManifoldResult};
use crate::math::{Pose, Vector};
use crate::pair::Pair;
use crate::shape::Support;

/// What the world keeps of a candidate pair from frame to frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairState<V: Vector> {
    /// GJK's simplex and the hulls' support hints from the last query of this pair.
    pub(crate) warm: WarmStart<V>,
    /// The manifold of the last query: no points when apart by more than the prediction. Held
    /// whole (it is `Copy` and fixed-size) so that `World::contacts` can lend it out.
    pub(crate) manifold: ManifoldResult<V>,
}

impl<V: Vector> Default for PairState<V> {
    fn default() -> Self {
        Self { warm: WarmStart::default(), manifold: ManifoldResult::apart() }
    }
}

impl<V: Vector> PairState<V> {
    /// Whether the pair is in contact: its manifold has points.
    #[inline]
    pub(crate) fn touching(&self) -> bool {
        !self.manifold.points().is_empty()
    }
}

/// Updates `state` for a pair whose reach boxes are `reach` (each body's tight box grown by
/// half the prediction and the touching tolerance) and answers whether the pair is in contact
/// now. Boxes that do not meet prove the shapes apart by more than the prediction, which skips
/// GJK for most candidates of a fattened broad phase — without reading the shapes (`sides`
/// fetches the shapes and poses only when needed) nor, when the pair was apart already
/// (`touching` false), its state: the narrow phase of the many candidates whose boxes miss
/// touches only the world's compact arrays.
#[inline]
pub(crate) fn narrow_phase<'s, V: Vector, S: Support<V> + ?Sized + 's>(
    reach: [&Aabb<V>; 2],
    sides: impl FnOnce() -> [(&'s S, &'s Pose<V>); 2],
    options: &ManifoldOptions<V::Real>,
    touching: bool,
    state: &mut PairState<V>,
) -> bool {
    if !reach[0].intersects(reach[1]) {
        if touching {
            state.manifold = ManifoldResult::apart();
        }
        return false;
    }
    let [(a, pose_a), (b, pose_b)] = sides();
    let pair = Pair::new(a, *pose_a, b, *pose_b);
    state.manifold = pair.manifold_with(options, &mut state.warm);
    state.touching()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size docs/benchmarks.md and `World`'s docs quote: a pair's state for f32 3D (the
    /// warm start's seven point pairs and the manifold).
    #[test]
    fn a_pair_state_is_340_bytes_in_f32_3d() {
        assert_eq!(core::mem::size_of::<PairState<glam::Vec3>>(), 340);
    }
}
