use super::{check_point, CoreBoundary, Support};
use crate::error::ShapeError;
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
    fn core_point(&self) -> Option<V> {
        Some(self.position)
    }
    #[inline]
    fn closest_core_point(&self, _p: V) -> Option<V> {
        Some(self.position)
    }
    /// A point core has no interior: its boundary is the point itself, at depth 0 from a
    /// query point on it, and every direction is an outward normal there (the normal cone of
    /// a point is the whole space). The answer picks `+x` of the local frame, always, so that
    /// coincident centres (ball against ball, the gap within rounding) get a deterministic
    /// contact normal; `depth` is minus the distance from `p` to the core point, so the
    /// contact's depth stays the margins minus the gap.
    /// ```
    /// use gjk::{Point, Support};
    /// use glam::Vec2;
    /// let p = Point::new(Vec2::new(1.0, 2.0))?;
    /// let exit = p.nearest_core_boundary(p.position()).unwrap();
    /// assert_eq!((exit.point, exit.normal, exit.depth), (p.position(), Vec2::X, 0.0));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        let d = p - self.position;
        let depth = -d.direction().map_or(V::Real::ZERO, |n| n.dot(d));
        Some(CoreBoundary { point: self.position, normal: V::axis(0), depth })
    }
}
