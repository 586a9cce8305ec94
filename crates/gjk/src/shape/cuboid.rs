use super::{check_non_negative, Core, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector};

/// An axis-aligned rectangle (2D) or box (3D) centred at the origin.
///
/// Zero half extents are allowed (a flat box); negative ones are not.
///
/// ```
/// use gjk::{Cuboid, Support};
/// use glam::Vec3;
/// let b = Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap();
/// assert_eq!(b.support(Vec3::new(1.0, -1.0, 1.0)), Vec3::new(1.0, -2.0, 3.0));
/// assert!(Cuboid::new(Vec3::new(1.0, -2.0, 3.0)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<V> {
    half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// The box `[-h, h]` per axis (an error if a half extent is negative or not finite).
    pub fn new(half_extents: V) -> Result<Self, ShapeError> {
        for i in 0..V::DIM {
            check_non_negative("half extent", half_extents.component(i))?;
        }
        Ok(Self { half_extents })
    }

    /// The half extents.
    pub fn half_extents(&self) -> V {
        self.half_extents
    }
}

impl<V: Vector> Support<V> for Cuboid<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        // The sum norm bounds the half diagonal without a square root.
        self.half_extents.abs_sum()
    }
    #[inline]
    fn support(&self, dir: V) -> V {
        dir.zip_map(self.half_extents, |d, h| if d < V::Real::ZERO { -h } else { h })
    }
    /// Clamping each coordinate to `[−h, h]`.
    /// The nearest face. From `p` inside the box, face `±i` (the plane `xᵢ = ±hᵢ`) is
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Box(self.half_extents)
    }
    /// `t ± |R| h`.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        crate::bounds::posed_box(pose, V::ZERO, self.half_extents)
    }
}
