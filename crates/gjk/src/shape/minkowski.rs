use super::Support;
use crate::math::Vector;

/// The Minkowski sum `A ⊕ B = {a + b}` of two shapes: support and radius add up.
///
/// ```
/// use gjk::{MinkowskiSum, Segment, Cuboid, Support};
/// use glam::DVec2;
/// let sweep = MinkowskiSum::new(Cuboid::new(DVec2::ONE).unwrap(),
///     Segment::new(DVec2::ZERO, DVec2::new(3.0, 0.0)).unwrap());
/// assert_eq!(sweep.support(DVec2::new(1.0, 1.0)), DVec2::new(4.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinkowskiSum<A, B> {
    a: A,
    b: B,
}

impl<A, B> MinkowskiSum<A, B> {
    /// The sum of `a` and `b`.
    pub fn new(a: A, b: B) -> Self {
        Self { a, b }
    }

    /// The two summands.
    pub fn parts(&self) -> (&A, &B) {
        (&self.a, &self.b)
    }
}

impl<V: Vector, A: Support<V>, B: Support<V>> Support<V> for MinkowskiSum<A, B> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.a.support(dir) + self.b.support(dir)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.a.margin() + self.b.margin()
    }
    #[inline]
    fn center(&self) -> V {
        self.a.center() + self.b.center()
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.a.extent() + self.b.extent()
    }
}
