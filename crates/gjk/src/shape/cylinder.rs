use super::{check_non_negative, Core, Support};
use crate::error::ShapeError;
use crate::math::{Real, Vector3};

/// A solid circular cylinder (3D) centred at the origin with its axis along local `y`.
///
/// ```
/// use gjk::{Cylinder, Support};
/// use glam::DVec3;
/// let c = Cylinder::<DVec3>::new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(DVec3::new(1.0, 1.0, 0.0)), DVec3::new(0.5, 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<V: Vector3> {
    half_height: V::Real,
    radius: V::Real,
}

impl<V: Vector3> Cylinder<V> {
    /// The cylinder `|y| ≤ half_height`, `x² + z² ≤ radius²` (an error on negative or
    /// non-finite sizes).
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

    /// The radius of the circular cross-section.
    pub fn radius(&self) -> V::Real {
        self.radius
    }
}

/// The point at `radius` along the `xz` part of `dir` (the origin when that part is zero).
pub(crate) fn rim_point<V: Vector3>(dir: V, radius: V::Real) -> (V::Real, V::Real) {
    let m = dir.component(0).abs().max(dir.component(2).abs());
    if !m.is_positive() {
        return (V::Real::ZERO, V::Real::ZERO);
    }
    let (x, z) = (dir.component(0) / m, dir.component(2) / m);
    let scale = radius / (x * x + z * z).sqrt();
    (x * scale, z * scale)
}

impl<V: Vector3> Support<V> for Cylinder<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        // The rim's distance, bounded by the sum of its legs.
        self.half_height + self.radius
    }
    fn support(&self, dir: V) -> V {
        let (x, z) = rim_point(dir, self.radius);
        let y = if dir.component(1) < V::Real::ZERO { -self.half_height } else { self.half_height };
        V::from_components([x, y, z])
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Cylinder { half_height: self.half_height, radius: self.radius }
    }
}
