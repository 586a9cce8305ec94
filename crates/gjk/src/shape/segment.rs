use super::{check_point, Core, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector};

/// The segment between two points (a zero-length segment is a point).
///
/// ```
/// use gjk::{Segment, Support};
/// use glam::DVec2;
/// let s = Segment::new(DVec2::ZERO, DVec2::new(2.0, 0.0)).unwrap();
/// assert_eq!(s.support(DVec2::new(1.0, 1.0)), DVec2::new(2.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<V> {
    a: V,
    b: V,
}

impl<V: Vector> Segment<V> {
    /// The segment from `a` to `b` (an error if a coordinate is not finite).
    pub fn new(a: V, b: V) -> Result<Self, ShapeError> {
        Ok(Self { a: check_point("segment end", a)?, b: check_point("segment end", b)? })
    }

    /// The first end.
    pub fn a(&self) -> V {
        self.a
    }

    /// The second end.
    pub fn b(&self) -> V {
        self.b
    }
}

impl<V: Vector> Support<V> for Segment<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        if self.b.dot(dir) > self.a.dot(dir) {
            self.b
        } else {
            self.a
        }
    }
    #[inline]
    fn center(&self) -> V {
        (self.a + self.b) * V::Real::HALF
    }
    #[inline]
    fn extent(&self) -> V::Real {
        // The sum norm bounds the length without a square root.
        (self.b - self.a).abs_sum() * V::Real::HALF
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Segment([self.a, self.b])
    }
    /// The posed ends' box.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        crate::bounds::points_aabb(&[self.a, self.b], pose, V::Real::ZERO)
    }
}
