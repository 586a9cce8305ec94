use super::{check_point, farthest_from, Core, Support};
use crate::error::ShapeError;
use crate::geometry::argmax_dot;
use crate::math::{Real, Vector};

/// The triangle with corners `a`, `b`, `c` (solid in 2D, a flat plate in 3D; collinear or
/// repeated corners are allowed and give a segment or a point).
///
/// ```
/// use gjk::{Support, Triangle};
/// use glam::Vec2;
/// let t = Triangle::new(Vec2::ZERO, Vec2::X, Vec2::Y).unwrap();
/// assert_eq!(t.support(Vec2::new(-1.0, 2.0)), Vec2::Y);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle<V: Vector> {
    corners: [V; 3],
    /// The centroid.
    center: V,
    /// The farthest corner's distance from the centroid.
    extent: V::Real,
}

impl<V: Vector> Triangle<V> {
    /// The triangle `a, b, c` (an error if a coordinate is not finite).
    pub fn new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        let check = |p| check_point("triangle corner", p);
        let corners = [check(a)?, check(b)?, check(c)?];
        let [a, b, c] = corners;
        let center = (a + b + c) * (V::Real::ONE / V::Real::from_f64(3.0));
        let extent = farthest_from(&corners, center);
        Ok(Self { corners, center, extent })
    }

    /// The three corners.
    pub fn corners(&self) -> [V; 3] {
        self.corners
    }
}

impl<V: Vector> Support<V> for Triangle<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.corners[argmax_dot(&self.corners, dir)]
    }
    #[inline]
    fn center(&self) -> V {
        self.center
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.extent
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Triangle(self.corners)
    }
}
