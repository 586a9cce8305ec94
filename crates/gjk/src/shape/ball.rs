use core::marker::PhantomData;

use super::{check_positive, CoreBoundary, Support};
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
    fn core_point(&self) -> Option<V> {
        Some(V::ZERO)
    }
    #[inline]
    fn closest_core_point(&self, _p: V) -> Option<V> {
        Some(V::ZERO)
    }
    /// A point core has no interior: its boundary is the point itself, at depth 0 from a
    /// query point on it, and every direction is an outward normal there (the normal cone of
    /// a point is the whole space). The answer picks `+x` of the local frame, always, so that
    /// coincident centres (ball against ball, the gap within rounding) get a deterministic
    /// contact normal; `depth` is minus the distance from `p` to the core point, so the
    /// contact's depth stays the margins minus the gap.
    /// ```
    /// use gjk::{Ball, Support};
    /// use glam::DVec3;
    /// let ball = Ball::<DVec3>::new(1.0)?;
    /// let exit = ball.nearest_core_boundary(DVec3::ZERO).unwrap();
    /// assert_eq!((exit.point, exit.normal, exit.depth), (DVec3::ZERO, DVec3::X, 0.0));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        // `n · p` is `|p|` without the overflow of `|p|²` for huge coordinates.
        let depth = -p.direction().map_or(V::Real::ZERO, |n| n.dot(p));
        Some(CoreBoundary { point: V::ZERO, normal: V::axis(0), depth })
    }
}
