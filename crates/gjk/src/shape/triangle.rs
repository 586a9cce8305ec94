use super::{check_point, farthest_from, polygon_normal, Core, Feature, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::geometry::argmax_dot;
use crate::geometry::{area2, unit};
use crate::math::Pose;
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
    /// The posed corners' box.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        crate::bounds::points_aabb(&self.corners, pose, V::Real::ZERO)
    }

    /// In 3D the triangle itself (face id 0 when its normal `(b − a) × (c − a)` points along
    /// `dir`, 1 otherwise); in 2D the edge whose outward normal is most aligned with `dir`
    /// (edge `i` from corner `i` to `i + 1`, face id `i`). Corner ids 0, 1, 2. A degenerate
    /// triangle answers its support point.
    fn feature(&self, dir: V) -> Feature<V> {
        let corners = self.corners;
        let fallback = || Feature::point(self.support(dir), argmax_dot(&corners, dir) as u32);
        if V::DIM == 3 {
            let Some(normal) = polygon_normal(&corners, dir) else { return fallback() };
            let raw = crate::geometry::cross(corners[1] - corners[0], corners[2] - corners[0]);
            let id = (raw.dot(normal) < V::Real::ZERO) as u32;
            return Feature::face(&corners, &[0, 1, 2], normal, id).unwrap_or_else(fallback);
        }
        let area = area2(corners[0], corners[1], corners[2]);
        if area == V::Real::ZERO {
            return fallback();
        }
        let mut best = (0, V::ZERO, -V::Real::INFINITY);
        for i in 0..3 {
            let e = corners[(i + 1) % 3] - corners[i];
            // The right-hand perpendicular is outward for a counter-clockwise triangle.
            let right = V::from_components([e.component(1), -e.component(0), V::Real::ZERO]);
            let Some(n) = unit(if area > V::Real::ZERO { right } else { -right }) else { continue };
            if n.dot(dir) > best.2 {
                best = (i, n, n.dot(dir));
            }
        }
        let (i, j) = (best.0, (best.0 + 1) % 3);
        Feature::face(&[corners[i], corners[j]], &[i as u32, j as u32], best.1, i as u32)
            .unwrap_or_else(fallback)
    }

    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Triangle(self.corners)
    }
}
