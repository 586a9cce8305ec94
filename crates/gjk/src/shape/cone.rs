use super::cylinder::rim_point;
use super::{check_non_negative, Core, Support};
use crate::error::ShapeError;
use crate::math::{Real, Vector3};

/// A solid circular cone (3D) with its axis along local `y`: apex at `y = +half_height`,
/// base disc of `radius` at `y = −half_height`.
///
/// ```
/// use gjk::{Cone, Support};
/// use glam::Vec3;
/// let c = Cone::<Vec3>::new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(Vec3::Y), Vec3::Y);
/// assert_eq!(c.support(Vec3::new(1.0, -1.0, 0.0)), Vec3::new(0.5, -1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<V: Vector3> {
    half_height: V::Real,
    radius: V::Real,
}

impl<V: Vector3> Cone<V> {
    /// The cone of the given half height and base radius (an error on negative or non-finite
    /// sizes).
    pub fn new(half_height: V::Real, radius: V::Real) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_non_negative("half height", half_height)?,
            radius: check_non_negative("radius", radius)?,
        })
    }

    /// Half the height along `y`.
    pub fn half_height(&self) -> V::Real {
        self.half_height
    }

    /// The radius of the base disc.
    pub fn radius(&self) -> V::Real {
        self.radius
    }
}

impl<V: Vector3> Support<V> for Cone<V> {
    fn support(&self, dir: V) -> V {
        let h = self.half_height;
        let (x, z) = rim_point(dir, self.radius);
        let apex = V::from_components([V::Real::ZERO, h, V::Real::ZERO]);
        let rim = V::from_components([x, -h, z]);
        if apex.dot(dir) >= rim.dot(dir) {
            apex
        } else {
            rim
        }
    }
    fn center(&self) -> V {
        // The centroid of a cone lies a quarter of the height above its base.
        let y = -self.half_height * V::Real::HALF;
        V::from_components([V::Real::ZERO, y, V::Real::ZERO])
    }
    #[inline]
    fn extent(&self) -> V::Real {
        // Apex 1.5 h above the centroid, the rim's circle 0.5 h below it.
        // (The rim's distance bounded by the sum of its legs.)
        let h = self.half_height;
        (h * V::Real::from_f64(1.5)).max(h * V::Real::HALF + self.radius)
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Cone { half_height: self.half_height, radius: self.radius }
    }
}
