use super::{check_non_negative, check_point, Core, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector};

/// A capsule: the segment `a`–`b` swept by a ball of `radius` (a stadium in 2D).
///
/// ```
/// use gjk::{Capsule, Support};
/// use glam::DVec3;
/// let c = Capsule::new(DVec3::ZERO, DVec3::Y, 0.25).unwrap();
/// assert_eq!(c.support(DVec3::Y), DVec3::Y);
/// assert_eq!(c.radius(), 0.25);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<V: Vector> {
    a: V,
    b: V,
    radius: V::Real,
}

impl<V: Vector> Capsule<V> {
    /// The capsule around segment `a`–`b` (an error on non-finite input or a negative radius).
    pub fn new(a: V, b: V, radius: V::Real) -> Result<Self, ShapeError> {
        Ok(Self {
            a: check_point("capsule end", a)?,
            b: check_point("capsule end", b)?,
            radius: check_non_negative("radius", radius)?,
        })
    }

    /// The radius.
    pub fn radius(&self) -> V::Real {
        self.radius
    }

    /// The ends of the core segment.
    pub fn ends(&self) -> [V; 2] {
        [self.a, self.b]
    }
}

impl<V: Vector> Support<V> for Capsule<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        if self.b.dot(dir) > self.a.dot(dir) {
            self.b
        } else {
            self.a
        }
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.radius
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
    /// The posed ends' box, swept by the radius.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        crate::bounds::points_aabb(&[self.a, self.b], pose, self.radius)
    }
}
