//! What "touching" means for a pair of shapes: one value type that every query path uses.
//!
//! Two shapes whose cores are at most `margins + touch` apart count as touching (hence as
//! intersecting). `touch` is `(ε + 16 ulp) × size`, with `ε` the relative tolerance the caller
//! asked for (machine epsilon when that is not positive) and `size` the pair's own measure:
//! the (Euclidean) distance between the shapes' centres plus both cores'
//! [extents](crate::Support::extent), which does not change when A and B swap or the whole
//! scene moves. The size depends on the pair alone, not on
//! the path a query takes (GJK, a closed form, the separating-axis test) or on how far a loop
//! got, so [`intersects`](crate::intersects()), `distance == 0` and `contact` with prediction 0
//! agree on touching shapes by construction.
//!
//! A measured distance and a lower bound of it are different numbers: each is within
//! rounding of the true distance, but on either side of it. A lower bound (a separating
//! axis, GJK's `v·w / |v|`, MPR's support plane) therefore proves the shapes apart only
//! beyond the margins plus *twice* the touching distance ([`apart_bound`]): the second
//! touching distance (at least `16 ε × size`) covers both roundings, so that every pair a
//! bound calls apart is measured apart too, and a pair within it goes on to be measured.

use crate::math::Real;

/// A pair's touching rule: the effective relative tolerance and the pair's size.
///
/// ```
/// use gjk::Tolerance;
/// let rule = Tolerance::new(1e-6_f64, 10.0);
/// assert_eq!(rule.epsilon(), 1e-6);
/// assert!(rule.touching(0.5 + 5e-6, 0.5));   // within 1e-6 × 10 of the margins
/// assert!(!rule.touching(0.5 + 2e-5, 0.5));
/// // A tolerance that is not positive (or NaN) means machine epsilon.
/// assert_eq!(Tolerance::new(0.0_f64, 1.0).epsilon(), f64::EPSILON);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance<R> {
    epsilon: R,
    size: R,
}

impl<R: Real> Tolerance<R> {
    /// The rule for the relative tolerance `relative` (machine epsilon when it is not positive
    /// or NaN) and a pair of the given `size`.
    #[inline(always)]
    pub fn new(relative: R, size: R) -> Self {
        Self { epsilon: effective(relative), size }
    }

    /// The relative tolerance in force.
    #[inline]
    pub fn epsilon(&self) -> R {
        self.epsilon
    }

    /// The size that the tolerance is relative to.
    #[inline]
    pub fn size(&self) -> R {
        self.size
    }

    /// The touching distance: `(ε + 16 ulp) × size`. The rounding units keep two shapes that
    /// touch exactly from reading as apart by the rounding of their coordinates.
    #[inline(always)]
    pub fn distance(&self) -> R {
        touch_distance(self.epsilon, self.size)
    }

    /// Whether cores `core_distance` apart touch once swept by `margins`. The comparison has
    /// this one form everywhere (`core_distance ≤ margins + touch`), so that every path rounds
    /// it alike.
    #[inline(always)]
    pub fn touching(&self, core_distance: R, margins: R) -> bool {
        core_distance <= margins + self.distance()
    }
}

/// The relative tolerance that queries use for an option's `tolerance`: the value itself, or
/// machine epsilon when it is not positive (or NaN).
#[inline(always)]
pub(crate) fn effective<R: Real>(relative: R) -> R {
    if relative > R::ZERO {
        relative
    } else {
        R::EPSILON
    }
}

/// The touching distance for a relative tolerance and a size (see [`Tolerance::distance`]).
#[inline(always)]
pub(crate) fn touch_distance<R: Real>(epsilon: R, size: R) -> R {
    (epsilon + R::from_f64(16.0) * R::EPSILON) * size
}

/// The least lower bound of the cores' distance that proves two shapes apart: the margins
/// plus twice the touching distance `touch` (see the [module docs](self)). The one rule of
/// every early "apart" exit (GJK's separating axis, the separating-axis tests of
/// `intersects` and `contact`, MPR), so that `intersects` and `contact` call a pair apart
/// only where `distance` measures it beyond the touching distance.
#[inline(always)]
pub(crate) fn apart_bound<R: Real>(margins: R, touch: R) -> R {
    margins + (touch + touch)
}
