use super::{check_point, Core, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector};

/// A single point.
///
/// ```
/// use gjk::{Point, Support};
/// use glam::Vec3;
/// let p = Point::new(Vec3::new(1.0, 2.0, 3.0)).unwrap();
/// assert_eq!(p.support(Vec3::X), Vec3::new(1.0, 2.0, 3.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point<V> {
    position: V,
}

impl<V: Vector> Point<V> {
    /// The point at `position` (an error if not finite).
    pub fn new(position: V) -> Result<Self, ShapeError> {
        Ok(Self { position: check_point("point", position)? })
    }

    /// Where the point is.
    pub fn position(&self) -> V {
        self.position
    }
}

impl<V: Vector> Support<V> for Point<V> {
    #[inline]
    fn support(&self, _dir: V) -> V {
        self.position
    }
    #[inline]
    fn center(&self) -> V {
        self.position
    }
    #[inline]
    fn extent(&self) -> V::Real {
        V::Real::ZERO
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Point(self.position)
    }
    /// The posed point.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        Aabb::from_point(pose.transform_point(self.position))
    }
}
