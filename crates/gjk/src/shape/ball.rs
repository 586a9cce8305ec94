use crate::bounds::Aabb;
use crate::math::Pose;
use core::marker::PhantomData;

use super::{check_positive, Core, Support};
use crate::error::ShapeError;
use crate::math::{Real, Vector};

/// A disc (2D) or ball (3D) centred at the origin: a point core with a radius.
///
/// ```
/// use gjk::{Ball, Support};
/// use glam::Vec3;
/// let ball = Ball::<Vec3>::new(0.5).unwrap();
/// assert_eq!(ball.radius(), 0.5);
/// assert_eq!(ball.margin(), 0.5); // GJK sees a point swept by the radius
/// assert!(Ball::<Vec3>::new(f32::NAN).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<V: Vector> {
    radius: V::Real,
    dimension: PhantomData<V>,
}

impl<V: Vector> Ball<V> {
    /// The ball of radius `radius` (an error unless finite and positive).
    pub fn new(radius: V::Real) -> Result<Self, ShapeError> {
        Ok(Self { radius: check_positive("radius", radius)?, dimension: PhantomData })
    }

    /// The radius.
    pub fn radius(&self) -> V::Real {
        self.radius
    }
}

impl<V: Vector> Support<V> for Ball<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        // The core is the centre.
        V::Real::ZERO
    }
    #[inline]
    fn support(&self, _dir: V) -> V {
        V::ZERO
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.radius
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Point(V::ZERO)
    }
    /// `t ± r`.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        Aabb::from_point(pose.translation()).loosened(self.radius)
    }
}
