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

/// One side of a pair: its shape, pose and reach box (the tight box grown by half the
/// prediction and the touching tolerance).
pub(crate) struct Side<'s, V: Vector, S: ?Sized> {
    pub(crate) shape: &'s S,
    pub(crate) pose: &'s Pose<V>,
    pub(crate) reach: &'s Aabb<V>,
}

/// Updates `state` for the pair `a`, `b`. Boxes that do not meet prove the shapes apart by
/// more than the prediction (each reach box holds its shape grown by half of it), which skips
/// GJK for most candidates of a fattened broad phase.
#[inline]
pub(crate) fn narrow_phase<V: Vector, S: Support<V> + ?Sized>(
    a: Side<'_, V, S>,
    b: Side<'_, V, S>,
    options: &ContactOptions<V::Real>,
    state: &mut PairState<V>,
) {
    if !a.reach.intersects(b.reach) {
        state.contact = None;
        return;
    }
    let pair = Pair::new(a.shape, *a.pose, b.shape, *b.pose);
    state.contact = pair.contact_with(options, &mut state.warm).contact;
}
