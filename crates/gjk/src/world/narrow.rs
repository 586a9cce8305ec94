//! The narrow phase of one candidate pair: the one function that decides what a pair's contact
//! is. Contact manifolds plug in here: [`PairState::contact`] becomes the manifold and
//! [`narrow_phase`] calls the manifold query with the same warm-start cache.

use crate::bounds::Aabb;
use crate::contact::{Contact, ContactOptions};
use crate::gjk::WarmStart;
use crate::math::{Pose, Vector};
use crate::pair::Pair;
use crate::shape::Support;

/// What the world keeps of a candidate pair from frame to frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairState<V: Vector> {
    /// GJK's simplex and the hulls' support hints from the last query of this pair.
    pub(crate) warm: WarmStart<V>,
    /// The contact of the last query, `None` when apart by more than the prediction.
    pub(crate) contact: Option<Contact<V>>,
}

impl<V: Vector> Default for PairState<V> {
    fn default() -> Self {
        Self { warm: WarmStart::default(), contact: None }
    }
}

/// Updates `state` for a pair whose reach boxes are `reach` (each body's tight box grown by
/// half the prediction and the touching tolerance). Boxes that do not meet prove the shapes
/// apart by more than the prediction, which skips GJK for most candidates of a fattened broad
/// phase — without reading the shapes: `sides` fetches the shapes and poses only when needed.
#[inline]
pub(crate) fn narrow_phase<'s, V: Vector, S: Support<V> + ?Sized + 's>(
    reach: [&Aabb<V>; 2],
    sides: impl FnOnce() -> [(&'s S, &'s Pose<V>); 2],
    options: &ContactOptions<V::Real>,
    state: &mut PairState<V>,
) {
    if !reach[0].intersects(reach[1]) {
        state.contact = None;
        return;
    }
    let [(a, pose_a), (b, pose_b)] = sides();
    let pair = Pair::new(a, *pose_a, b, *pose_b);
    state.contact = pair.contact_with(options, &mut state.warm).contact;
}
